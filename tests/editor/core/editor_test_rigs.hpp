#pragma once
// What the editor-core tests share: rigs copied into a test's temporary folder (examples/mannequin,
// and a "rich" rig from tests/data that uses every feature), the bytes a document would save, and a
// check that a command's do, undo and redo give exactly the bytes they should.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "mf/editor/core/command.hpp"
#include "mf/editor/core/document.hpp"
#include "mf/editor/core/history.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "support/temp_dir.hpp"

namespace mf::editor::test {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// Copies examples/mannequin into <temp>/mannequin; returns the copied .mskel's path.
inline std::string copy_mannequin(const mf::testing::TempDir& temp) {
  const std::filesystem::path to = temp.path() / "mannequin";
  std::filesystem::copy(std::filesystem::path(MF_EXAMPLES_DIR) / "mannequin", to,
                        std::filesystem::copy_options::recursive);
  return (to / "mannequin.mskel").string();
}

// A clip of tests/data/mskel/rich.mskel that names its objects every way a clip can: bone, slot
// (attachment keys, colours, sequence), ik, transform, path and physics timelines, deform keys in
// two skins, draw-order keys and event keys.
inline constexpr const char* kRichClip = R"({
  "format": 1, "uid": "anm_0123456789ab", "type": "SkeletonClip",
  "skeleton": { "uid": "skl_0123456789ab", "path": "rich.mskel" },
  "length": 2, "fps": 24, "loop": "Linear",
  "bones": {
    "hip": { "rotate": { "t": [0, 1], "v": [0, 30] }, "inherit": { "t": [0], "v": ["Normal"] } },
    "tail": { "translate": { "t": [0, 1], "v": [[0, 0], [5, 5]] } },
    "thigh": { "scale": { "t": [0], "v": [[1, 1.5]] } },
    "hand": { "shearY": { "t": [0], "v": [4] } }
  },
  "slots": {
    "fx": { "attachment": { "t": [0, 0.5, 1], "v": ["muzzle", null, "hitbox"] }, "alpha": { "t": [0], "v": [0.5] } },
    "head": { "attachment": { "t": [0], "v": ["hitbox"] }, "rgb": { "t": [0], "v": ["#ff0000"] } },
    "mesh": { "attachment": { "t": [0, 1], "v": ["plain_mesh", "linked_default"] } },
    "body": { "sequence": { "t": [0], "v": [{ "mode": "loop" }] } }
  },
  "ik": { "leg_ik": { "t": [0, 1], "mix": [1, 0.5] } },
  "transform": { "tail_follow": { "t": [0], "mixX": [0.5] } },
  "path": { "tail_path": { "t": [0], "position": [3] } },
  "physics": { "cape_physics": { "mix": { "t": [0], "v": [0.5] }, "reset": { "t": [1] } } },
  "deform": {
    "default": { "mesh": { "skin_mesh": { "t": [0], "offset": [8], "v": [[1, 2]] } }, "clip": { "clip": { "t": [0], "offset": [2], "v": [[3, 4]] } } },
    "armored": { "path": { "open_path": { "t": [0], "offset": [0], "v": [[1]] } } }
  },
  "drawOrder": { "t": [0, 1, 1.5], "v": [[["fx", -5], ["head", 2]], [], [["body", 5]]] },
  "events": { "t": [0.5, 1], "v": [{ "name": "footstep" }, { "name": "hit", "int": 2 }] }
})";

// tests/data/mskel/rich.mskel (every attachment type, every constraint kind, inherit modes, skins)
// with kRichClip, in canonical form, as its clip "rich" (in its clips folder "anims/"). Returns the
// .mskel's path.
inline std::string write_rich_rig(const mf::testing::TempDir& temp) {
  const std::string mskel = temp.file("rich/rich.mskel");
  write_text(mskel, read_text(std::string(MF_TEST_DATA_DIR) + "/mskel/rich.mskel"));
  Expected<offline::SkeletonSource> s = offline::read_skeleton_file(mskel);
  EXPECT_TRUE(s) << s.error().to_string();
  Expected<offline::ClipSource> clip = offline::read_clip(kRichClip, "rich.manim", &*s);
  EXPECT_TRUE(clip) << clip.error().to_string();
  write_text(temp.file("rich/anims/rich.manim"), offline::write_clip(*clip));
  return mskel;
}

// Every file's bytes as the document would save them.
struct RigBytes {
  std::string skeleton;
  std::vector<std::string> clips;
  friend bool operator==(const RigBytes&, const RigBytes&) = default;
};

inline RigBytes bytes_of(const Document& doc) {
  RigBytes b{doc.skeleton_text(), {}};
  for (std::size_t i = 0; i < doc.clips().size(); ++i) b.clips.push_back(doc.clip_text(i));
  return b;
}

// The document's files read back: every one is accepted by the readers (clips against the
// skeleton) and reads back to the model the document holds.
inline void expect_readable(const Document& doc, const std::string& context = "") {
  Expected<offline::SkeletonSource> s = offline::read_skeleton(doc.skeleton_text(), "edited.mskel");
  ASSERT_TRUE(s) << context << ": " << s.error().to_string() << "\n" << doc.skeleton_text();
  EXPECT_TRUE(*s == doc.skeleton()) << context << ": the skeleton does not read back to the document's model";
  for (std::size_t i = 0; i < doc.clips().size(); ++i) {
    Expected<offline::ClipSource> c = offline::read_clip(doc.clip_text(i), doc.clips()[i].name + ".manim", &*s);
    ASSERT_TRUE(c) << context << ": " << c.error().to_string();
    EXPECT_TRUE(*c == doc.clips()[i].clip) << context << ": clip " << doc.clips()[i].name << " does not read back";
  }
}

// Runs `command` through `history` and checks: it succeeds and changes the bytes (unless
// `expect_change` is false), the result reads back, undo gives the bytes from before, redo the bytes
// from after. Leaves the command done. Returns the bytes after.
inline RigBytes check_command(Document& doc, History& history, std::unique_ptr<Command> command,
                              bool expect_change = true) {
  const RigBytes before = bytes_of(doc);
  const std::size_t entries = history.position();
  Status s = history.execute(doc, std::move(command));
  EXPECT_TRUE(s) << (s ? "" : s.error().to_string());
  if (!s) return before;
  const RigBytes after = bytes_of(doc);
  if (!expect_change) {
    EXPECT_EQ(after, before);
    EXPECT_EQ(history.position(), entries);
    return after;
  }
  EXPECT_NE(after, before) << "the command changed nothing";
  const std::string name = history.names().back();
  expect_readable(doc, name);
  EXPECT_TRUE(history.undo(doc));
  EXPECT_TRUE(bytes_of(doc) == before) << name << ": undo does not restore the bytes";
  EXPECT_TRUE(history.redo(doc));
  EXPECT_TRUE(bytes_of(doc) == after) << name << ": redo does not give the bytes again";
  return after;
}

// Runs a command that must fail, leaving the document's bytes and the history as they were.
inline Error check_refused(Document& doc, History& history, std::unique_ptr<Command> command) {
  const RigBytes before = bytes_of(doc);
  const std::size_t entries = history.size();
  Status s = history.execute(doc, std::move(command));
  EXPECT_FALSE(s) << "the command should have been refused";
  EXPECT_TRUE(bytes_of(doc) == before);
  EXPECT_EQ(history.size(), entries);
  return s ? Error{} : s.error();
}

}  // namespace mf::editor::test
