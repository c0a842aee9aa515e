// The build file: a rig written and loaded back behaves exactly as the rig built from its sources
// (bit-identical world transforms and CPU vertices over every clip), clips load on demand, and every
// kind of damage (wrong magic or version, bad sizes, truncation, flipped bytes, indices out of range)
// is a clear error, never a crash. The committed old build still loads and poses like the sources.

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "mf/core/file_io.hpp"
#include "mf/offline/build/build_writer.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/skel/build_file.hpp"
#include "pose_record.hpp"
#include "support/temp_dir.hpp"
#include "synthetic_rig.hpp"

namespace mf::skel {
namespace {

const std::string kMannequin = std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel";
const std::string kCommittedBuild = std::string(MF_TEST_DATA_DIR) + "/builds/mannequin-v1.mbuild";

std::string encode(SkeletonData& data) {
  auto bytes = offline::encode_build(data, "test.mskel");
  EXPECT_TRUE(bytes.ok()) << bytes.error().to_string();
  return bytes.ok() ? *bytes : std::string();
}

std::shared_ptr<SkeletonData> load(const std::string& bytes) {
  auto data = load_build(bytes, "test.mbuild");
  EXPECT_TRUE(data.ok()) << data.error().to_string();
  return data.ok() ? *data : nullptr;
}

std::shared_ptr<SkeletonData> build_mannequin() {
  auto built = offline::build_rig_file(kMannequin);
  EXPECT_TRUE(built.ok()) << built.error().to_string();
  return built.ok() ? built->data : nullptr;
}

void put_u32(std::string& bytes, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
}

// ---- the same behaviour from a build ------------------------------------------------------------

TEST(BuildFile, ExampleRigPosesBitIdenticallyFromItsBuild) {
  auto source = build_mannequin();
  ASSERT_TRUE(source);
  auto loaded = load(encode(*source));
  ASSERT_TRUE(loaded);
  const auto expected = testing::record_poses(*source);
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(testing::record_poses(*loaded), expected);  // bit for bit: no tolerance
}

TEST(BuildFile, ConstraintAndFeatureRigsPoseBitIdenticallyFromTheirBuilds) {
  for (const auto& rig : {testing::make_constraint_rig(), testing::make_feature_rig()}) {
    auto built = testing::build_synthetic(rig);
    auto loaded = load(encode(*built.data));
    ASSERT_TRUE(loaded);
    const auto expected = testing::record_poses(*built.data, 120);
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(testing::record_poses(*loaded, 120), expected);
  }
}

TEST(BuildFile, WritingALoadedBuildGivesTheSameBytes) {
  auto built = testing::build_synthetic(testing::make_feature_rig());
  const std::string bytes = encode(*built.data);
  auto loaded = load(bytes);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(encode(*loaded), bytes);
}

TEST(BuildFile, KeepsPagesAndTheirBytes) {
  auto source = build_mannequin();
  ASSERT_TRUE(source);
  source->normal_pages = source->pages;  // exercise the normal page set too
  source->normal_pages[0].name = "normal";
  source->filter = TextureFilter::Nearest;
  source->mipmaps = true;
  auto loaded = load(encode(*source));
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->pages.size(), source->pages.size());
  for (std::size_t i = 0; i < source->pages.size(); ++i) {
    EXPECT_EQ(loaded->pages[i].name, source->pages[i].name);
    EXPECT_EQ(loaded->pages[i].width, source->pages[i].width);
    EXPECT_EQ(loaded->pages[i].height, source->pages[i].height);
    EXPECT_EQ(loaded->pages[i].encoding, source->pages[i].encoding);
    EXPECT_EQ(loaded->pages[i].bytes, source->pages[i].bytes);
  }
  ASSERT_EQ(loaded->normal_pages.size(), source->pages.size());
  EXPECT_EQ(loaded->normal_pages[0].name, "normal");
  EXPECT_EQ(loaded->filter, TextureFilter::Nearest);
  EXPECT_TRUE(loaded->mipmaps);
}

TEST(BuildFile, ClipsLoadOnDemandAndStayCached) {
  auto source = build_mannequin();
  ASSERT_TRUE(source);
  auto loaded = load(encode(*source));
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->clips.size(), source->clips.size());
  for (std::size_t i = 0; i < source->clips.size(); ++i) {
    EXPECT_EQ(loaded->clips[i].name, source->clips[i].name);
    EXPECT_EQ(loaded->clips[i].length, source->clips[i].length);
    EXPECT_EQ(loaded->clip(static_cast<int>(i)), nullptr) << "nothing decoded before it is asked for";
  }
  EXPECT_EQ(loaded->cursor_count, 0u);
  const int walk = loaded->find_clip("walk");
  ASSERT_GE(walk, 0);
  auto first = loaded->load_clip(walk);
  ASSERT_TRUE(first.ok()) << first.error().to_string();
  auto second = loaded->load_clip(walk);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*first, *second);
  EXPECT_EQ((*first)->cursor_base, 0u);
  EXPECT_EQ(loaded->cursor_count, (*first)->timelines.size());
  for (std::size_t i = 0; i < loaded->clips.size(); ++i) {
    if (static_cast<int>(i) == walk) continue;
    EXPECT_EQ(loaded->clip(static_cast<int>(i)), nullptr);
  }
}

TEST(BuildFile, ACookedFileLoadsWithoutSources) {
  testing::TempDir dir("mf_build_file");
  auto source = build_mannequin();
  ASSERT_TRUE(source);
  const std::string path = dir.file("mannequin.mbuild");
  ASSERT_TRUE(offline::write_build_file(*source, path, kMannequin).ok());
  auto loaded = load_build_file(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_TRUE((*loaded)->load_all_clips().ok());
  EXPECT_EQ(testing::record_poses(**loaded), testing::record_poses(*source));
}

// ---- the committed old build --------------------------------------------------------------------

TEST(BuildFile, CommittedVersion1BuildLoadsAndPosesLikeTheSources) {
  auto committed = load_build_file(kCommittedBuild);
  ASSERT_TRUE(committed.ok()) << committed.error().to_string();
  auto source = build_mannequin();
  ASSERT_TRUE(source);
  ASSERT_EQ((*committed)->clips.size(), source->clips.size());
  // World transforms and vertex positions, not UVs: the atlas packer may place images differently
  // from the one that wrote the committed file.
  const auto expected = testing::record_poses(*source, 48, false);
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(testing::record_poses(**committed, 48, false), expected);
}

// ---- damage --------------------------------------------------------------------------------------

class DamagedBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    built_ = testing::build_synthetic(testing::make_feature_rig());
    bytes_ = encode(*built_.data);
    ASSERT_FALSE(bytes_.empty());
  }
  std::string error_of(const std::string& bytes) {
    auto data = load_build(bytes, "damaged.mbuild");
    if (data.ok()) {
      ADD_FAILURE() << "damaged build loaded";
      return {};
    }
    return data.error().to_string();
  }
  offline::BuildResult built_;
  std::string bytes_;
};

TEST_F(DamagedBuild, AnOtherVersionIsRefusedWithTheRebuildCommand) {
  for (std::uint32_t version : {0u, kBuildVersion + 1, 0xffffffffu}) {
    std::string bytes = bytes_;
    put_u32(bytes, 8, version);
    const std::string error = error_of(bytes);
    EXPECT_NE(error.find("damaged.mbuild: was written by build format version " + std::to_string(version) +
                         "; this program reads version " + std::to_string(kBuildVersion) +
                         ": rebuild it with `mfe skel build`"),
              std::string::npos)
        << error;
  }
}

TEST_F(DamagedBuild, NotABuildIsNamedSo) {
  EXPECT_NE(error_of("").find("is not a skeleton build"), std::string::npos);
  EXPECT_NE(error_of("{\"format\": 1}").find("is not a skeleton build"), std::string::npos);
}

TEST_F(DamagedBuild, EveryTruncationIsAnError) {
  // Every length through the header and section table, then a spread over the rest.
  for (std::size_t n = 0; n < bytes_.size(); n += n < 256 ? 1 : 127) {
    const std::string error = error_of(bytes_.substr(0, n));
    EXPECT_NE(error.find("damaged.mbuild: "), std::string::npos) << n;
  }
  EXPECT_NE(error_of(bytes_.substr(0, bytes_.size() - 1)).find("(truncated)"), std::string::npos);
  EXPECT_NE(error_of(bytes_ + "x").find("extra bytes"), std::string::npos);
}

TEST_F(DamagedBuild, ASectionOutsideTheFileIsAnError) {
  std::string bytes = bytes_;
  put_u32(bytes, 24 + 8, 0x7fffffff);  // first section's offset
  EXPECT_NE(error_of(bytes).find("lies outside the file"), std::string::npos);
}

TEST_F(DamagedBuild, FlippedBytesNeverCrash) {
  // Either the loader refuses the bytes with a message, or whatever loads is safe to animate: all
  // clips decode or fail cleanly, and frames run (the ASan build checks every read).
  std::mt19937 random(1234);
  int refused = 0;
  for (int round = 0; round < 200; ++round) {
    std::string bytes = bytes_;
    const int flips = 1 + static_cast<int>(random() % 4);
    for (int f = 0; f < flips; ++f) bytes[random() % bytes.size()] ^= static_cast<char>(1u << (random() % 8));
    auto data = load_build(bytes, "flipped.mbuild");
    if (!data.ok()) {
      EXPECT_FALSE(data.error().message.empty());
      ++refused;
      continue;
    }
    bool clips_ok = true;
    for (std::size_t c = 0; c < (*data)->clips.size(); ++c) {
      auto clip = (*data)->load_clip(static_cast<int>(c));
      if (!clip.ok()) {
        EXPECT_FALSE(clip.error().message.empty());
        clips_ok = false;
      }
    }
    if (clips_ok) testing::record_poses(**data, 4);
  }
  EXPECT_GT(refused, 0);
}

// ---- validation of indices -----------------------------------------------------------------------

TEST(BuildValidation, IndicesOutOfRangeAreNamed) {
  auto built = testing::build_synthetic(testing::make_feature_rig());
  const SkeletonData& good = *built.data;
  ASSERT_TRUE(validate_skeleton_data(good, "x").ok());

  struct Case {
    const char* expected;
    std::function<void(SkeletonData&)> damage;
  };
  const std::vector<Case> cases = {
      {"bones[1].parent: parent 5 must be −1 or a bone before this one", [](SkeletonData& d) { d.bones.parent[1] = 5; }},
      {"slots[0].bone: bone 9999 is out of range", [](SkeletonData& d) { d.slots.bone[0] = 9999; }},
      {"attachments[0]: vertices", [](SkeletonData& d) { d.attachments[0].vertex_start = 1u << 30; }},
      {"attachments[0]: regions", [](SkeletonData& d) { d.attachments[0].region_count = 1u << 30; }},
      {"updateOrder[0]: index -3 is out of range", [](SkeletonData& d) { d.update_order[0].index = -3; }},
      {"influences[0].bone: bone -1 is out of range", [](SkeletonData& d) { d.influences[0].bone = -1; }},
      {"slotDeformFloats: there must be one entry per slot", [](SkeletonData& d) { d.slot_deform_floats.pop_back(); }},
      {"regions[0].page: page 77 is out of range", [](SkeletonData& d) { d.regions[0].page = 77; }},
  };
  for (const Case& c : cases) {
    auto copy = std::make_shared<SkeletonData>(good);
    c.damage(*copy);
    Status status = validate_skeleton_data(*copy, "x.mbuild");
    ASSERT_FALSE(status.ok()) << c.expected;
    EXPECT_NE(status.error().to_string().find(c.expected), std::string::npos) << status.error().to_string();
    // The writer refuses what the loader would refuse.
    EXPECT_FALSE(offline::encode_build(*copy, "x.mskel").ok());
  }
}

TEST(BuildValidation, ClipRangesOutsideTheirArraysAreNamed) {
  auto built = testing::build_synthetic(testing::make_feature_rig());
  const SkeletonData& data = *built.data;
  const ClipData& good = *data.clip(data.find_clip("alt"));
  ASSERT_TRUE(validate_clip_data(good, data, "x").ok());
  struct Case {
    const char* expected;
    std::function<void(ClipData&)> damage;
  };
  const std::vector<Case> cases = {
      {"timelines[0]: keys", [](ClipData& c) { c.timelines[0].key_count = 1u << 30; }},
      {"timelines[0].target: target", [](ClipData& c) { c.timelines[0].target = 1 << 20; }},
      {"timelines[0]: this timeline kind has", [](ClipData& c) { c.timelines[0].components = 7; }},
      {"curves[0]: bezier", [](ClipData& c) { c.curves.assign(1, anim::kCurveBezierBase + 100); }},
      {"events[0].event: event 50 is out of range", [](ClipData& c) { c.events.at(0).event = 50; }},
  };
  for (const Case& c : cases) {
    ClipData copy = good;
    c.damage(copy);
    Status status = validate_clip_data(copy, data, "x.mbuild");
    ASSERT_FALSE(status.ok()) << c.expected;
    EXPECT_NE(status.error().to_string().find(c.expected), std::string::npos) << status.error().to_string();
    const std::string blob = offline::encode_clip(copy);
    auto decoded = decode_clip({reinterpret_cast<const std::uint8_t*>(blob.data()), blob.size()}, data, "x.mbuild");
    EXPECT_FALSE(decoded.ok());
  }
}

}  // namespace
}  // namespace mf::skel
