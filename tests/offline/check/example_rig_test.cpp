// The in-house example rig, examples/mannequin: a humanoid with generated art and four clips. These
// tests pin what later work relies on (its structure, skins, IK legs, clips and events) and that the
// committed files are in canonical form.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "mf/core/file_io.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/check/rig_check.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/format/skeleton_format.hpp"

namespace mf::offline {
namespace {

const std::string kRigDir = MF_EXAMPLES_DIR "/mannequin";
const std::string kSkeletonPath = kRigDir + "/mannequin.mskel";

// Weights are written with short decimals; 1e-6 allows for float rounding of their sum.
constexpr float kWeightSumTolerance = 1e-6f;

struct ClipExpectation {
  const char* name;
  LoopMode loop;
};
constexpr ClipExpectation kClips[] = {
    {"idle", LoopMode::Linear}, {"walk", LoopMode::Linear}, {"run", LoopMode::Linear}, {"jump", LoopMode::None}};

std::string clip_path(const std::string& name) { return kRigDir + "/mannequin.clips/" + name + ".manim"; }

SkeletonSource load_skeleton() {
  auto skeleton = read_skeleton_file(kSkeletonPath);
  if (!skeleton) ADD_FAILURE() << skeleton.error().to_string();
  return skeleton ? *skeleton : SkeletonSource{};
}

ClipSource load_clip(const SkeletonSource& skeleton, const std::string& name) {
  auto clip = read_clip_file(clip_path(name), &skeleton);
  if (!clip) ADD_FAILURE() << clip.error().to_string();
  return clip ? *clip : ClipSource{};
}

const Attachment* find_attachment(const SkeletonSource& s, const std::string& skin, int slot, const std::string& name) {
  const int index = s.find_skin(skin);
  if (index < 0) return nullptr;
  for (const Attachment& a : s.skins[index].attachments) {
    if (a.slot == slot && a.name == name) return &a;
  }
  return nullptr;
}

TEST(ExampleRig, IsAHumanoidOf20To40Bones) {
  const SkeletonSource s = load_skeleton();
  EXPECT_GE(s.bones.size(), 20u);
  EXPECT_LE(s.bones.size(), 40u);
  for (const char* name : {"root", "hips", "spine", "chest", "neck", "head", "upper_arm_l", "forearm_l", "hand_l",
                           "upper_arm_r", "forearm_r", "hand_r", "thigh_l", "shin_l", "foot_l", "thigh_r", "shin_r",
                           "foot_r", "foot_l_target", "foot_r_target"}) {
    EXPECT_GE(s.find_bone(name), 0) << name;
  }
  // The root stands at the feet, on the ground; the hips are well above it (Y is down).
  const int root = s.find_bone("root");
  ASSERT_GE(root, 0);
  EXPECT_EQ(s.bones[root].parent, -1);
  EXPECT_EQ(s.bones[root].x, 0);
  EXPECT_EQ(s.bones[root].y, 0);
  const int hips = s.find_bone("hips");
  ASSERT_GE(hips, 0);
  EXPECT_LT(s.bones[hips].y, -100);
}

TEST(ExampleRig, HasAWeightedMeshWhoseWeightsSumToOne) {
  const SkeletonSource s = load_skeleton();
  int weighted_meshes = 0;
  std::size_t most_influences = 0;
  for (const Skin& skin : s.skins) {
    for (const Attachment& a : skin.attachments) {
      const auto* mesh = std::get_if<MeshAttachment>(&a.data);
      if (mesh == nullptr || !mesh->vertices.weighted()) continue;
      ++weighted_meshes;
      for (std::size_t v = 0; v < mesh->vertices.weights.size(); ++v) {
        const auto& influences = mesh->vertices.weights[v];
        float sum = 0;
        for (const InfluenceSource& in : influences) sum += in.weight;
        EXPECT_NEAR(sum, 1.0f, kWeightSumTolerance) << skin.name << "/" << a.name << " vertex " << v;
        most_influences = std::max(most_influences, influences.size());
      }
    }
  }
  EXPECT_GE(weighted_meshes, 1);
  // The torso's middle vertices blend hips, spine and chest.
  EXPECT_GE(most_influences, 3u);
}

TEST(ExampleRig, LegsAreTwoBoneIkChainsWithKneesForward) {
  const SkeletonSource s = load_skeleton();
  int two_bone = 0;
  for (const IkConstraint& ik : s.ik) {
    if (ik.bones.size() != 2) continue;
    ++two_bone;
    const Bone& upper = s.bones[ik.bones[0]];
    const Bone& lower = s.bones[ik.bones[1]];
    EXPECT_EQ(lower.parent, ik.bones[0]) << ik.name;
    // The target is not part of the chain, so the solver never chases itself.
    EXPECT_NE(ik.target, ik.bones[0]) << ik.name;
    EXPECT_NE(ik.target, ik.bones[1]) << ik.name;
    EXPECT_NE(s.bones[ik.target].parent, ik.bones[1]) << ik.name;
    // The setup pose bends the way the constraint does (bend +1: the child turns clockwise, which
    // puts the knee of a character facing +x forward).
    EXPECT_EQ(ik.bend, 1) << ik.name;
    EXPECT_GT(lower.rotation, 0) << ik.name;
    EXPECT_GT(upper.length, 0) << ik.name;
    EXPECT_GT(lower.length, 0) << ik.name;
  }
  EXPECT_GE(two_bone, 2);
}

TEST(ExampleRig, HasADefaultAndAKnightSkinThatBothResolveEverySlot) {
  const SkeletonSource s = load_skeleton();
  ASSERT_EQ(s.skins.size(), 2u);
  EXPECT_EQ(s.skins[0].name, "default");
  EXPECT_EQ(s.skins[1].name, "knight");
  // The helmet slot is the knight's own; every other slot shows something in both outfits (the
  // knight skin falls back to the default skin for the parts it does not replace).
  for (std::size_t i = 0; i < s.slots.size(); ++i) {
    const Slot& slot = s.slots[i];
    ASSERT_FALSE(slot.attachment.empty()) << slot.name;
    const Attachment* in_default = find_attachment(s, "default", static_cast<int>(i), slot.attachment);
    const Attachment* in_knight = find_attachment(s, "knight", static_cast<int>(i), slot.attachment);
    if (slot.name == "helmet") {
      EXPECT_EQ(in_default, nullptr);
      EXPECT_NE(in_knight, nullptr);
    } else {
      EXPECT_NE(in_default, nullptr) << slot.name;
    }
  }
  // The knight's torso reuses the default torso mesh with its own image.
  const int torso = s.find_slot("torso");
  ASSERT_GE(torso, 0);
  const Attachment* knight_torso = find_attachment(s, "knight", torso, "torso");
  ASSERT_NE(knight_torso, nullptr);
  const auto* linked = std::get_if<LinkedMeshAttachment>(&knight_torso->data);
  ASSERT_NE(linked, nullptr);
  EXPECT_EQ(linked->image, "torso_knight");
  const Attachment* parent = find_attachment(s, linked->skin.empty() ? "knight" : linked->skin, torso, linked->parent);
  ASSERT_NE(parent, nullptr);
  EXPECT_TRUE(std::holds_alternative<MeshAttachment>(parent->data));
}

TEST(ExampleRig, EveryImageIsListedAndPresent) {
  const SkeletonSource s = load_skeleton();
  std::set<std::string> listed;
  for (const ImageEntry& image : s.images) {
    listed.insert(image.name);
    const std::string path = kRigDir + "/" + s.import.images + image.name + ".png";
    auto bytes = read_file(path);
    ASSERT_TRUE(bytes) << bytes.error().to_string();
    EXPECT_EQ(bytes->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << path;
  }
  for (const Skin& skin : s.skins) {
    for (const Attachment& a : skin.attachments) {
      std::string image;
      if (const auto* r = std::get_if<RegionAttachment>(&a.data)) image = r->image.empty() ? a.name : r->image;
      if (const auto* m = std::get_if<MeshAttachment>(&a.data)) image = m->image.empty() ? a.name : m->image;
      if (const auto* l = std::get_if<LinkedMeshAttachment>(&a.data)) image = l->image.empty() ? a.name : l->image;
      if (image.empty()) continue;
      EXPECT_TRUE(listed.count(image)) << skin.name << "/" << a.name << " shows " << image;
    }
  }
}

TEST(ExampleRig, HasIdleWalkRunAndJumpClipsOfThisSkeleton) {
  const SkeletonSource s = load_skeleton();
  for (const ClipExpectation& expected : kClips) {
    SCOPED_TRACE(expected.name);
    const ClipSource clip = load_clip(s, expected.name);
    EXPECT_EQ(clip.loop, expected.loop);
    EXPECT_EQ(clip.skeleton_uid, s.uid);
    EXPECT_EQ(clip.skeleton_path, "mannequin.mskel");
    EXPECT_GT(clip.length, 0);
    EXPECT_FALSE(clip.curves.empty());
  }
  // The rig finds exactly these clips in its clips folder.
  auto rig = load_rig(kSkeletonPath);
  ASSERT_TRUE(rig) << rig.error().to_string();
  std::vector<std::string> names;
  for (const ClipFile& c : rig->clips) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"idle", "jump", "run", "walk"}));
}

TEST(ExampleRig, LoopingClipsEndWhereTheyStart) {
  const SkeletonSource s = load_skeleton();
  for (const ClipExpectation& expected : kClips) {
    if (expected.loop == LoopMode::None) continue;
    const ClipSource clip = load_clip(s, expected.name);
    for (const CurveTimeline& tl : clip.curves) {
      SCOPED_TRACE(std::string(expected.name) + " " + tl.target + " " + std::string(layout(tl.kind).name));
      ASSERT_GE(tl.key_count(), 2u);
      EXPECT_EQ(tl.times.front(), 0);
      EXPECT_EQ(tl.times.back(), clip.length);
      const std::size_t n = static_cast<std::size_t>(layout(tl.kind).components);
      const std::vector<float> first(tl.values.begin(), tl.values.begin() + static_cast<std::ptrdiff_t>(n));
      const std::vector<float> last(tl.values.end() - static_cast<std::ptrdiff_t>(n), tl.values.end());
      EXPECT_EQ(first, last);
    }
  }
}

TEST(ExampleRig, WalkAndRunStepOnFootstepsAndJumpLands) {
  const SkeletonSource s = load_skeleton();
  auto count = [](const ClipSource& clip, const std::string& name) {
    return std::count_if(clip.events.keys.begin(), clip.events.keys.end(),
                         [&](const EventKeySource& k) { return k.name == name; });
  };
  EXPECT_GE(s.find_event("footstep"), 0);
  EXPECT_GE(s.find_event("land"), 0);
  const ClipSource walk = load_clip(s, "walk");
  EXPECT_EQ(count(walk, "footstep"), 2);  // one per foot per cycle
  const ClipSource run = load_clip(s, "run");
  EXPECT_EQ(count(run, "footstep"), 2);
  const ClipSource jump = load_clip(s, "jump");
  EXPECT_EQ(count(jump, "land"), 1);
  // Each walk footstep falls on a contact: the foot it names ("left" or "right") is at its most
  // forward and on the ground (its target within a few pixels of the setup height).
  constexpr float kContactHeight = 4;  // the heel strikes with the toes up, lifting the ankle a little
  for (std::size_t i = 0; i < walk.events.times.size(); ++i) {
    const EventKeySource& key = walk.events.keys[i];
    ASSERT_TRUE(key.string_value.has_value());
    const std::string side = *key.string_value == "left" ? "l" : "r";
    EXPECT_TRUE(*key.string_value == "left" || *key.string_value == "right") << *key.string_value;
    const auto tl = std::find_if(walk.curves.begin(), walk.curves.end(), [&](const CurveTimeline& c) {
      return c.kind == CurveKind::Translate && c.target == "foot_" + side + "_target";
    });
    ASSERT_NE(tl, walk.curves.end()) << side;
    const auto at = std::find(tl->times.begin(), tl->times.end(), walk.events.times[i]);
    ASSERT_NE(at, tl->times.end()) << "no key at the footstep";
    const std::size_t k = static_cast<std::size_t>(at - tl->times.begin());
    for (std::size_t j = 0; j < tl->key_count(); ++j) EXPECT_GE(tl->values[2 * k], tl->values[2 * j]) << side;
    EXPECT_LE(std::abs(tl->values[2 * k + 1]), kContactHeight) << side;
  }
}

TEST(ExampleRig, FilesAreCanonical) {
  auto skeleton_text = read_file(kSkeletonPath);
  ASSERT_TRUE(skeleton_text) << skeleton_text.error().to_string();
  auto skeleton = read_skeleton(*skeleton_text, kSkeletonPath);
  ASSERT_TRUE(skeleton) << skeleton.error().to_string();
  EXPECT_EQ(write_skeleton(*skeleton), *skeleton_text);
  for (const ClipExpectation& expected : kClips) {
    const std::string path = clip_path(expected.name);
    auto text = read_file(path);
    ASSERT_TRUE(text) << text.error().to_string();
    auto clip = read_clip(*text, path, &*skeleton);
    ASSERT_TRUE(clip) << clip.error().to_string();
    EXPECT_EQ(write_clip(*clip), *text) << path;
  }
}

TEST(ExampleRig, PassesTheRigCheckWithoutFindings) {
  auto rig = load_rig(kSkeletonPath);
  ASSERT_TRUE(rig) << rig.error().to_string();
  const std::vector<Finding> findings = check_rig(*rig);
  for (const Finding& f : findings) ADD_FAILURE() << f.error.to_string();
  EXPECT_TRUE(findings.empty());
}

}  // namespace
}  // namespace mf::offline
