// Event commands: create, delete and rename with the clips' event keys, and the defaults and audio.

#include <gtest/gtest.h>

#include <functional>

#include "editor_fixture.hpp"
#include "mf/editor/core/commands/event_commands.hpp"

namespace mf::editor {
namespace {

using test::check_command;
using test::check_refused;
using test::RigFixture;

TEST(EventCommands, CreateDeleteRename) {
  RigFixture f;
  offline::EventDef e;
  e.name = "swing";
  e.audio = "audio/swing.wav";
  check_command(f.doc, f.history, std::make_unique<CreateEvent>(e));
  EXPECT_EQ(f.history.names().back(), "Create event \"swing\"");
  check_command(f.doc, f.history, std::make_unique<CreateEvent>(offline::EventDef{}));
  EXPECT_EQ(f.s().events.back().name, "event");
  check_refused(f.doc, f.history, std::make_unique<CreateEvent>(e));

  const std::string walk_before = f.clip("walk");
  ASSERT_NE(walk_before.find("\"footstep\""), std::string::npos);
  check_command(f.doc, f.history, std::make_unique<RenameEvent>(f.event("footstep"), "step"));
  EXPECT_EQ(f.history.names().back(), "Rename event \"footstep\" to \"step\"");
  EXPECT_EQ(f.clip("walk").find("\"footstep\""), std::string::npos);
  EXPECT_NE(f.clip("walk").find("\"step\""), std::string::npos);
  check_refused(f.doc, f.history, std::make_unique<RenameEvent>(f.event("step"), "land"));

  check_command(f.doc, f.history, std::make_unique<DeleteEvent>(f.event("step")));
  EXPECT_EQ(f.history.names().back(), "Delete event \"step\"");
  for (const DocumentClip& c : f.doc.clips())
    for (const offline::EventKeySource& k : c.clip.events.keys) EXPECT_NE(k.name, "step") << c.name;
}

TEST(EventCommands, SetDefaultsAndAudio) {
  RigFixture f;
  const int land = f.event("land");
  const std::vector<std::pair<std::function<void(offline::EventDef&)>, std::string>> edits = {
      {[](auto& e) { e.int_value = 3; }, "Set int value of event \"land\""},
      {[](auto& e) { e.float_value = 0.5f; }, "Set float value of event \"land\""},
      {[](auto& e) { e.string_value = "thud"; }, "Set string value of event \"land\""},
      {[](auto& e) { e.audio = "audio/land.ogg"; }, "Set audio of event \"land\""},
      {[](auto& e) { e.volume = 0.25f; }, "Set volume of event \"land\""},
      {[](auto& e) { e.balance = -1; }, "Set balance of event \"land\""},
  };
  for (const auto& [edit, name] : edits) {
    offline::EventDef e = f.s().events[static_cast<std::size_t>(land)];
    edit(e);
    check_command(f.doc, f.history, std::make_unique<SetEvent>(land, e));
    EXPECT_EQ(f.history.names().back(), name);
  }
  offline::EventDef loud = f.s().events[static_cast<std::size_t>(land)];
  loud.volume = 1.5f;
  check_refused(f.doc, f.history, std::make_unique<SetEvent>(land, loud));
}

}  // namespace
}  // namespace mf::editor
