// A long random sequence of commands (fixed seed) over the mannequin and the rich rig: every step
// either succeeds with files the readers accept or is refused leaving every byte as it was; undoing
// everything gives back the original bytes of every file (and clean dirty flags), and redoing
// everything gives the bytes of the forward run.

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "editor_fixture.hpp"
#include "mf/editor/core/commands/attachment_commands.hpp"
#include "mf/editor/core/commands/bone_commands.hpp"
#include "mf/editor/core/commands/constraint_commands.hpp"
#include "mf/editor/core/commands/event_commands.hpp"
#include "mf/editor/core/commands/skin_commands.hpp"
#include "mf/editor/core/commands/slot_commands.hpp"
#include "mf/editor/core/model/new_attachments.hpp"
#include "mf/editor/core/tools/bone_tools.hpp"

namespace mf::editor {
namespace {

using offline::ConstraintKind;
using offline::ConstraintRef;

class CommandMaker {
 public:
  explicit CommandMaker(std::uint32_t seed) : rng_(seed) {}

  // A random command for the document as it is now (often valid, sometimes not: refusals are part
  // of the test).
  std::unique_ptr<Command> make(const Document& doc) {
    const offline::SkeletonSource& s = doc.skeleton();
    const int kind = pick(32);
    switch (kind) {
      case 0: case 1: case 2: case 3: {  // bone fields: the commonest edit
        const int b = pick_index(s.bones.size());
        offline::Bone v = s.bones[static_cast<std::size_t>(b)];
        switch (pick(6)) {
          case 0: v.x += real(-20, 20), v.y += real(-20, 20); break;
          case 1: v.rotation = static_cast<float>(real(-180, 180)); break;
          case 2: v.scale_x = static_cast<float>(real(0.5, 2)); break;
          case 3: v.shear_y = static_cast<float>(real(-10, 10)); break;
          case 4: v.length = static_cast<float>(real(0, 80)); break;
          default: v.color = Rgba8{byte(), byte(), byte(), 255}; break;
        }
        return std::make_unique<SetBone>(b, v);
      }
      case 4: {
        const int b = pick_index(s.bones.size());
        offline::Bone v = s.bones[static_cast<std::size_t>(b)];
        v.rotation += static_cast<float>(real(-45, 45));
        v.x += static_cast<float>(real(-5, 5));
        return std::make_unique<SetBoneKeepChildren>(b, v);
      }
      case 5: {
        const int parent = pick_index(s.bones.size());
        Expected<offline::Bone> b = bone_at(s, parent, {real(-100, 100), real(-200, 0)}, Vec2d{real(-100, 100), real(-200, 0)});
        if (!b) return std::make_unique<CreateBone>(offline::Bone{});
        return std::make_unique<CreateBone>(*b);
      }
      case 6: return std::make_unique<DeleteBone>(1 + pick_index(s.bones.size() - 1));
      case 7: return std::make_unique<RenameBone>(pick_index(s.bones.size()), name("bone"));
      case 8: return std::make_unique<DuplicateBone>(pick_index(s.bones.size()), pick(2) == 0);
      case 9: case 10:
        return std::make_unique<ReparentBone>(pick_index(s.bones.size()), pick(8) == 0 ? -1 : pick_index(s.bones.size()),
                                              pick(4) != 0);
      case 11: {
        if (s.slots.empty()) break;
        const int i = pick_index(s.slots.size());
        offline::Slot v = s.slots[static_cast<std::size_t>(i)];
        switch (pick(4)) {
          case 0: v.color = Rgba8{byte(), byte(), byte(), byte()}; break;
          case 1: v.dark = Rgba8{byte(), byte(), byte(), 255}; break;
          case 2: v.blend = static_cast<offline::BlendMode>(pick(4)); break;
          default: v.bone = pick_index(s.bones.size()); break;
        }
        return std::make_unique<SetSlot>(i, v);
      }
      case 12: {
        offline::Slot v;
        v.name = pick(3) == 0 ? "" : name("slot");
        v.bone = pick_index(s.bones.size());
        return std::make_unique<CreateSlot>(v, pick(static_cast<int>(s.slots.size()) + 2) - 1);
      }
      case 13: if (!s.slots.empty()) return std::make_unique<DeleteSlot>(pick_index(s.slots.size())); break;
      case 14: if (!s.slots.empty()) return std::make_unique<RenameSlot>(pick_index(s.slots.size()), name("slot")); break;
      case 15: case 16:
        if (!s.slots.empty()) return std::make_unique<MoveSlot>(pick_index(s.slots.size()), pick_index(s.slots.size()));
        break;
      case 17: {
        if (s.slots.empty() || s.skins.empty()) break;
        const int slot = pick_index(s.slots.size());
        const int skin = pick_index(s.skins.size());
        switch (pick(5)) {
          case 0: return std::make_unique<AddAttachment>(skin, make_region(slot, name("region"), "helmet", 20, 10));
          case 1: return std::make_unique<AddAttachment>(skin, make_point(slot, name("point"), 1, 2, 3));
          case 2: return std::make_unique<AddAttachment>(skin, make_bounding_box(slot, name("box"), {{0, 0}, {9, 1}, {4, 7}}));
          case 3: return std::make_unique<AddAttachment>(skin, make_clipping(slot, name("clip"), {{0, 0}, {9, 1}, {4, 7}}, pick_index(s.slots.size())));
          default: return std::make_unique<AddAttachment>(skin, make_path(slot, name("path"), {{0, 0}, {1, 1}, {2, 2}, {8, 3}, {9, 4}, {10, 5}}, pick(2) == 0));
        }
      }
      case 18: if (auto a = any_attachment(s)) return std::make_unique<DeleteAttachment>(*a); break;
      case 19: if (auto a = any_attachment(s)) return std::make_unique<RenameAttachment>(*a, name("att")); break;
      case 20: {
        const auto a = any_attachment(s);
        if (!a) break;
        offline::Attachment v = s.skins[static_cast<std::size_t>(a->skin)].attachments[static_cast<std::size_t>(a->index)];
        std::visit([&](auto& d) { d.color = Rgba8{byte(), byte(), byte(), byte()}; }, v.data);
        if (auto* r = std::get_if<offline::RegionAttachment>(&v.data)) r->x += static_cast<float>(real(-5, 5));
        return std::make_unique<SetAttachment>(*a, v);
      }
      case 21: return std::make_unique<AddSkin>(pick(2) ? "" : name("skin"));
      case 22: if (!s.skins.empty()) return std::make_unique<DuplicateSkin>(pick_index(s.skins.size()), ""); break;
      case 23: if (!s.skins.empty()) return std::make_unique<RenameSkin>(pick_index(s.skins.size()), name("skin")); break;
      case 24: if (!s.skins.empty()) return std::make_unique<RemoveSkin>(pick_index(s.skins.size())); break;
      case 25: {
        if (s.skins.empty()) break;
        std::vector<int> bones;
        for (std::size_t i = 0; i < s.bones.size(); ++i)
          if (pick(6) == 0) bones.push_back(static_cast<int>(i));
        return std::make_unique<SetSkinBones>(pick_index(s.skins.size()), bones);
      }
      case 26: {
        switch (pick(3)) {
          case 0: {
            offline::IkConstraint c;
            c.bones = {pick_index(s.bones.size())};
            c.target = pick_index(s.bones.size());
            return std::make_unique<CreateConstraint>(c);
          }
          case 1: {
            offline::TransformConstraint c;
            c.bones = {pick_index(s.bones.size())};
            c.target = pick_index(s.bones.size());
            c.mix_x = static_cast<float>(real(0, 1));
            return std::make_unique<CreateConstraint>(c);
          }
          default: {
            offline::PhysicsConstraint c;
            c.bone = pick_index(s.bones.size());
            c.rotate = 1;
            return std::make_unique<CreateConstraint>(c);
          }
        }
      }
      case 27: if (auto r = any_constraint(s)) return std::make_unique<DeleteConstraint>(*r); break;
      case 28: if (auto r = any_constraint(s)) return std::make_unique<RenameConstraint>(*r, name("c")); break;
      case 29: {
        const auto r = any_constraint(s);
        if (!r) break;
        return std::make_unique<ReorderConstraint>(*r, pick_index(s.update_order().size()));
      }
      case 30: {
        offline::EventDef e;
        e.name = name("event");
        e.volume = static_cast<float>(real(0, 1));
        return std::make_unique<CreateEvent>(e);
      }
      default: {
        if (s.events.empty()) break;
        const int e = pick_index(s.events.size());
        switch (pick(3)) {
          case 0: return std::make_unique<RenameEvent>(e, name("event"));
          case 1: return std::make_unique<DeleteEvent>(e);
          default: {
            offline::EventDef v = s.events[static_cast<std::size_t>(e)];
            v.balance = static_cast<float>(real(-1, 1));
            v.string_value = name("s");
            return std::make_unique<SetEvent>(e, v);
          }
        }
      }
    }
    return std::make_unique<CreateEvent>(offline::EventDef{name("event")});
  }

  // A drag: the same bone field set a few times with one gesture.
  std::vector<std::unique_ptr<Command>> drag(const Document& doc, GestureId gesture, int steps) {
    const int b = pick_index(doc.skeleton().bones.size());
    offline::Bone v = doc.skeleton().bones[static_cast<std::size_t>(b)];
    std::vector<std::unique_ptr<Command>> out;
    for (int i = 0; i < steps; ++i) {
      v.rotation += 1.5f;
      auto c = std::make_unique<SetBone>(b, v);
      c->set_gesture(gesture);
      out.push_back(std::move(c));
    }
    return out;
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint32_t>(n)); }
  int pick_index(std::size_t n) { return n == 0 ? 0 : pick(static_cast<int>(n)); }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  std::uint8_t byte() { return static_cast<std::uint8_t>(rng_() & 0xff); }
  // Mostly fresh names, sometimes one that is likely taken.
  std::string name(const std::string& base) {
    return pick(10) == 0 ? base : base + "_" + std::to_string(counter_++);
  }
  std::optional<AttachmentIndex> any_attachment(const offline::SkeletonSource& s) {
    std::vector<AttachmentIndex> all;
    for (std::size_t k = 0; k < s.skins.size(); ++k)
      for (std::size_t i = 0; i < s.skins[k].attachments.size(); ++i) all.push_back({static_cast<int>(k), static_cast<int>(i)});
    if (all.empty()) return std::nullopt;
    return all[static_cast<std::size_t>(pick_index(all.size()))];
  }
  std::optional<ConstraintRef> any_constraint(const offline::SkeletonSource& s) {
    const std::vector<ConstraintRef> all = s.update_order();
    if (all.empty()) return std::nullopt;
    return all[static_cast<std::size_t>(pick_index(all.size()))];
  }

  std::mt19937 rng_;
  int counter_ = 0;
};

void run_sequence(bool rich, std::uint32_t seed, int steps) {
  test::RigFixture f(rich);
  const test::RigBytes original = test::bytes_of(f.doc);
  CommandMaker maker(seed);
  int done = 0, refused = 0, merged_drags = 0;
  GestureId gesture = 0;
  for (int step = 0; step < steps; ++step) {
    if (step % 25 == 7) {
      // A drag: several steps, one entry.
      const std::size_t entries = f.history.size();
      for (auto& c : maker.drag(f.doc, ++gesture, 4)) ASSERT_TRUE(f.history.execute(f.doc, std::move(c)));
      f.history.end_gesture();
      EXPECT_EQ(f.history.size(), entries + 1);
      ++merged_drags;
      continue;
    }
    std::unique_ptr<Command> command = maker.make(f.doc);
    const std::string before = f.doc.skeleton_text();
    Status s = f.history.execute(f.doc, std::move(command));
    if (!s) {
      ++refused;
      ASSERT_EQ(f.doc.skeleton_text(), before) << "a refused command changed the rig: " << s.error().to_string();
      continue;
    }
    ++done;
    if (step % 10 == 0) test::expect_readable(f.doc, "step " + std::to_string(step) + ": " + f.history.names().back());
    if (::testing::Test::HasFatalFailure()) return;
  }
  test::expect_readable(f.doc, "the end");
  const test::RigBytes forward = test::bytes_of(f.doc);
  const std::size_t entries = f.history.size();
  std::printf("seed %u: %d commands done, %d refused, %d drags; %zu history entries\n", seed, done, refused,
              merged_drags, entries);
  EXPECT_GT(done, steps / 2);
  EXPECT_GT(refused, 0);

  while (f.history.undo(f.doc)) {
  }
  EXPECT_TRUE(test::bytes_of(f.doc) == original) << "undoing everything does not give the original bytes";
  EXPECT_FALSE(f.doc.dirty());
  while (f.history.redo(f.doc)) {
  }
  EXPECT_TRUE(test::bytes_of(f.doc) == forward) << "redoing everything does not give the forward run's bytes";
  EXPECT_EQ(f.history.position(), entries);
  // And what is saved reads back as it was.
  ASSERT_TRUE(f.doc.save());
  Expected<Document> again = Document::open(f.doc.path());
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_TRUE(test::bytes_of(*again) == forward);
}

TEST(CommandSequence, MannequinRandomCommandsUndoAndRedoExactly) { run_sequence(false, 20240611u, 500); }

TEST(CommandSequence, RichRigRandomCommandsUndoAndRedoExactly) { run_sequence(true, 777u, 400); }

}  // namespace
}  // namespace mf::editor
