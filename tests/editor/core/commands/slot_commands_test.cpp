// Slot commands: fields, creation and deletion in the draw order, renames reaching every kind of
// clip reference, and draw-order keys that keep showing the order they showed.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "editor_fixture.hpp"
#include "mf/editor/core/commands/slot_commands.hpp"
#include "mf/editor/core/model/draw_order_keys.hpp"

namespace mf::editor {
namespace {

using offline::Slot;
using test::check_command;
using test::check_refused;
using test::RigFixture;

std::vector<std::string> setup_names(const offline::SkeletonSource& s) {
  std::vector<std::string> out;
  for (const Slot& slot : s.slots) out.push_back(slot.name);
  return out;
}

// The whole draw order each key of the clip shows.
std::vector<std::vector<std::string>> key_orders(const RigFixture& f, const std::string& clip) {
  std::vector<std::vector<std::string>> out;
  for (const auto& key : f.clip_model(clip).draw_order.keys) out.push_back(draw_order_of(setup_names(f.s()), key));
  return out;
}

TEST(SlotCommands, SetEachField) {
  RigFixture f;
  const int helmet = f.slot("helmet");
  const std::vector<std::pair<std::function<void(Slot&)>, std::string>> edits = {
      {[&](Slot& s) { s.bone = f.bone("neck"); }, "Set bone of slot \"helmet\""},
      {[](Slot& s) { s.attachment.clear(); }, "Set setup attachment of slot \"helmet\""},
      {[](Slot& s) { s.color = Rgba8{10, 20, 30, 40}; }, "Set colour of slot \"helmet\""},
      {[](Slot& s) { s.dark = Rgba8{1, 2, 3, 255}; }, "Set dark colour of slot \"helmet\""},
      {[](Slot& s) { s.blend = offline::BlendMode::Additive; }, "Set blend mode of slot \"helmet\""},
      {[](Slot& s) { s.attachment = "helmet"; }, "Set setup attachment of slot \"helmet\""},
  };
  for (const auto& [edit, name] : edits) {
    Slot s = f.s().slots[static_cast<std::size_t>(helmet)];
    edit(s);
    check_command(f.doc, f.history, std::make_unique<SetSlot>(helmet, s));
    EXPECT_EQ(f.history.names().back(), name);
  }
  Slot wrong = f.s().slots[static_cast<std::size_t>(helmet)];
  wrong.attachment = "head";  // no skin has "head" for the helmet slot
  EXPECT_NE(check_refused(f.doc, f.history, std::make_unique<SetSlot>(helmet, wrong)).message.find("no skin"),
            std::string::npos);
  Slot no_bone = f.s().slots[static_cast<std::size_t>(helmet)];
  no_bone.bone = 99;
  check_refused(f.doc, f.history, std::make_unique<SetSlot>(helmet, no_bone));
}

TEST(SlotCommands, CreateInsertsIntoTheDrawOrderAndTheKeys) {
  RigFixture f(true);
  const auto before = key_orders(f, "rich");
  Slot glow;
  glow.name = "glow";
  glow.bone = f.bone("hand");
  check_command(f.doc, f.history, std::make_unique<CreateSlot>(glow, 2));
  EXPECT_EQ(f.history.names().back(), "Create slot \"glow\"");
  EXPECT_EQ(f.slot("glow"), 2);
  EXPECT_EQ(f.s().path[0].target, f.slot("path"));  // renumbered
  const auto after = key_orders(f, "rich");
  ASSERT_EQ(after.size(), before.size());
  // Key 0 showed [fx, body, mesh, head, clip, path]; glow follows "head", which precedes it in setup.
  EXPECT_EQ(after[0], (std::vector<std::string>{"fx", "body", "mesh", "head", "glow", "clip", "path"}));
  EXPECT_TRUE(f.clip_model("rich").draw_order.keys[1].empty());  // the setup order stays the setup order
  // A default name, on top.
  check_command(f.doc, f.history, std::make_unique<CreateSlot>(Slot{"", 0, "", Rgba8::white(), std::nullopt, offline::BlendMode::Normal}));
  EXPECT_EQ(f.s().slots.back().name, "slot");
  Slot taken;
  taken.name = "fx";
  check_refused(f.doc, f.history, std::make_unique<CreateSlot>(taken));
}

TEST(SlotCommands, DeleteTakesAttachmentsConstraintsTimelinesAndKeyPlaces) {
  RigFixture f(true);
  auto before = key_orders(f, "rich");
  check_command(f.doc, f.history, std::make_unique<DeleteSlot>(f.slot("fx")));
  EXPECT_EQ(f.history.names().back(), "Delete slot \"fx\"");
  for (const offline::Skin& skin : f.s().skins)
    for (const offline::Attachment& a : skin.attachments) EXPECT_NE(a.name, "muzzle");
  EXPECT_EQ(f.clip("rich").find("\"fx\""), std::string::npos);
  auto after = key_orders(f, "rich");
  for (std::size_t k = 0; k < before.size(); ++k) {
    std::erase(before[k], "fx");
    EXPECT_EQ(after[k], before[k]) << "key " << k;
  }
  // The path slot: the path constraint following it goes, with its timeline.
  check_command(f.doc, f.history, std::make_unique<DeleteSlot>(f.slot("path")));
  EXPECT_TRUE(f.s().path.empty());
  EXPECT_EQ(f.clip("rich").find("tail_path"), std::string::npos);
  // The clip slot whose clipping ends at the mesh slot is fine; deleting the mesh slot (the end of a
  // clipping attachment) ends the clipping at the slot drawn before it.
  check_command(f.doc, f.history, std::make_unique<DeleteSlot>(f.slot("mesh")));
}

TEST(SlotCommands, RenameReachesTimelinesDeformAndDrawOrder) {
  RigFixture f(true);
  check_command(f.doc, f.history, std::make_unique<RenameSlot>(f.slot("fx"), "effects"));
  EXPECT_EQ(f.history.names().back(), "Rename slot \"fx\" to \"effects\"");
  const std::string clip = f.clip("rich");
  EXPECT_EQ(clip.find("\"fx\""), std::string::npos);
  EXPECT_NE(clip.find("[\"effects\", -5]"), std::string::npos);
  check_command(f.doc, f.history, std::make_unique<RenameSlot>(f.slot("mesh"), "cloth"));
  for (const offline::DeformTimeline& tl : f.clip_model("rich").deforms) EXPECT_NE(tl.slot, "mesh");
  EXPECT_TRUE(std::any_of(f.clip_model("rich").attachments.begin(), f.clip_model("rich").attachments.end(),
                          [](const offline::AttachmentTimeline& tl) { return tl.slot == "cloth"; }));
  check_refused(f.doc, f.history, std::make_unique<RenameSlot>(f.slot("cloth"), "head"));
}

TEST(SlotCommands, MoveKeepsEveryKeysOrder) {
  RigFixture f(true);
  for (const auto& [slot, to] : std::vector<std::pair<std::string, int>>{{"fx", 0}, {"body", 5}, {"clip", 1}, {"head", 4}}) {
    const auto before = key_orders(f, "rich");
    const bool empty_key = f.clip_model("rich").draw_order.keys[1].empty();
    check_command(f.doc, f.history, std::make_unique<MoveSlot>(f.slot(slot), to));
    EXPECT_EQ(f.slot(slot), to);
    const auto after = key_orders(f, "rich");
    EXPECT_EQ(after[0], before[0]) << slot;
    EXPECT_EQ(after[2], before[2]) << slot;
    EXPECT_EQ(f.clip_model("rich").draw_order.keys[1].empty(), empty_key);
  }
  EXPECT_EQ(f.history.names().front(), "Move slot \"fx\" in the draw order");
  check_refused(f.doc, f.history, std::make_unique<MoveSlot>(0, 6));
}

}  // namespace
}  // namespace mf::editor
