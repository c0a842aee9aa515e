// Document: opening a rig with its clips and graphs, saving it byte for byte, dirty flags per file
// through edits, undo, redo and saves, new rigs and save as.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "editor_test_rigs.hpp"
#include "mf/core/file_io.hpp"
#include "mf/editor/core/commands/bone_commands.hpp"
#include "mf/editor/core/document.hpp"
#include "mf/editor/core/history.hpp"
#include "mf/offline/import/spine/spine_import.hpp"

namespace mf::editor {
namespace {

namespace fs = std::filesystem;
using test::read_text;

// Opens the rig, saves every file, and expects each file's bytes unchanged.
void expect_round_trip(const std::string& mskel) {
  std::vector<std::pair<std::string, std::string>> originals;
  Expected<Document> doc = Document::open(mskel);
  ASSERT_TRUE(doc) << doc.error().to_string();
  EXPECT_TRUE(doc->unread_clips().empty()) << doc->unread_clips().front().error.to_string();
  originals.emplace_back(mskel, read_text(mskel));
  for (const DocumentClip& c : doc->clips()) originals.emplace_back(c.path, read_text(c.path));
  EXPECT_FALSE(doc->dirty());
  ASSERT_TRUE(doc->save_all());
  for (const auto& [path, bytes] : originals) EXPECT_EQ(read_text(path), bytes) << path;
  test::expect_readable(*doc, mskel);
}

TEST(Document, MannequinOpensAndSavesByteIdentical) {
  mf::testing::TempDir temp("mf_editor_document");
  const std::string mskel = test::copy_mannequin(temp);
  expect_round_trip(mskel);

  Expected<Document> doc = Document::open(mskel);
  ASSERT_TRUE(doc);
  std::vector<std::string> names;
  for (const DocumentClip& c : doc->clips()) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"idle", "jump", "run", "walk"}));
  ASSERT_EQ(doc->graph_paths().size(), 1u);
  EXPECT_EQ(fs::path(doc->graph_paths()[0]).filename(), "locomotion.mgraph");
  EXPECT_EQ(doc->skeleton().bones.size(), 24u);
  EXPECT_EQ(doc->revision(), 0u);
}

TEST(Document, RichRigOpensAndSavesByteIdentical) {
  mf::testing::TempDir temp("mf_editor_document");
  const std::string mskel = test::write_rich_rig(temp);
  expect_round_trip(mskel);
  Expected<Document> doc = Document::open(mskel);
  ASSERT_TRUE(doc);
  ASSERT_EQ(doc->clips().size(), 1u);
  EXPECT_EQ(doc->clips()[0].name, "rich");
}

// Every .mskel under tests/data that loads, each with its folder copied (clips and images beside
// it): saved unchanged, it becomes exactly its canonical text (the writer's output for what the
// reader read), so a canonical file keeps its bytes. A few fixtures are written by hand out of
// canonical form on purpose (noncanonical.mskel; errors_base.mskel with orders the writer leaves
// out); the others are canonical.
TEST(Document, EveryLoadableTestRigSavesItsCanonicalBytes) {
  mf::testing::TempDir temp("mf_editor_document");
  int opened = 0, copies = 0, unchanged = 0;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(MF_TEST_DATA_DIR)) {
    if (e.path().extension() != ".mskel") continue;
    const fs::path copy = temp.path() / std::to_string(copies++);
    fs::copy(e.path().parent_path(), copy, fs::copy_options::recursive);
    const std::string mskel = (copy / e.path().filename()).string();
    Expected<Document> doc = Document::open(mskel);
    if (!doc) continue;  // the error fixtures
    ++opened;
    const std::string original = read_text(mskel);
    Expected<offline::SkeletonSource> read = offline::read_skeleton(original, mskel);
    ASSERT_TRUE(read);
    const std::string canonical = offline::write_skeleton(*read);
    ASSERT_TRUE(doc->save_all()) << mskel;
    EXPECT_EQ(read_text(mskel), canonical) << e.path();
    unchanged += original == canonical ? 1 : 0;
    for (const DocumentClip& c : doc->clips()) {
      const fs::path source = e.path().parent_path() / fs::relative(c.path, copy);
      EXPECT_EQ(read_text(c.path), read_text(source.string())) << source;
    }
  }
  EXPECT_GE(opened, 6);
  EXPECT_GE(unchanged, opened - 2);
}

// A rig imported from Spine's JSON (our fixture, and Spine's spineboy when present) is written by
// the importer and then opened and saved by the editor without a byte changing.
void expect_spine_round_trip(const std::string& json, const mf::testing::TempDir& temp) {
  Expected<std::string> text = read_file(json);
  ASSERT_TRUE(text) << text.error().to_string();
  Expected<offline::SpineImport> im = offline::convert_spine(*text, json);
  ASSERT_TRUE(im) << im.error().to_string();
  const fs::path out = temp.path() / im->name;
  ASSERT_TRUE(offline::write_spine_import(*im, out.string()));
  expect_round_trip((out / (im->name + ".mskel")).string());
}

TEST(Document, SpineImportedRigsSaveByteIdentical) {
  mf::testing::TempDir temp("mf_editor_document");
  expect_spine_round_trip(std::string(MF_TEST_DATA_DIR) + "/spine/hero.json", temp);
  const char* env = std::getenv("MF_SPINE_EXAMPLES_DIR");
  const std::string spineboy = std::string(env && *env ? env : MF_SPINE_EXAMPLES_DEFAULT) + "/spineboy/spineboy-pro.json";
  if (!fs::exists(spineboy)) GTEST_SKIP() << "spineboy not found (set MF_SPINE_EXAMPLES_DIR); hero.json passed";
  expect_spine_round_trip(spineboy, temp);
}

TEST(Document, DirtyFlagsFollowEditsUndoRedoAndSaves) {
  mf::testing::TempDir temp("mf_editor_document");
  Expected<Document> opened = Document::open(test::copy_mannequin(temp));
  ASSERT_TRUE(opened);
  Document& doc = *opened;
  History history;
  EXPECT_FALSE(doc.dirty());
  EXPECT_TRUE(history.at_saved_point());

  offline::Bone chest = doc.skeleton().bones[4];
  chest.rotation += 10;
  ASSERT_TRUE(history.execute(doc, std::make_unique<SetBone>(4, chest)));
  EXPECT_TRUE(doc.dirty(kRigFile));
  for (const DocumentClip& c : doc.clips()) EXPECT_FALSE(doc.dirty(c.file));  // a bone field touches no clip
  EXPECT_EQ(doc.revision(), 1u);
  EXPECT_FALSE(history.at_saved_point());

  history.undo(doc);
  EXPECT_FALSE(doc.dirty());
  EXPECT_TRUE(history.at_saved_point());
  EXPECT_EQ(doc.revision(), 2u);
  history.redo(doc);
  EXPECT_TRUE(doc.dirty(kRigFile));

  // A rename touches the rig and the clips that animate the bone.
  ASSERT_TRUE(history.execute(doc, std::make_unique<RenameBone>(4, "torso_bone")));
  for (const DocumentClip& c : doc.clips()) EXPECT_TRUE(doc.dirty(c.file)) << c.name;

  ASSERT_TRUE(doc.save());
  history.mark_saved();
  EXPECT_FALSE(doc.dirty());
  EXPECT_TRUE(history.at_saved_point());
  history.undo(doc);  // back past the save: the files differ from the disk again
  EXPECT_TRUE(doc.dirty(kRigFile));
  for (const DocumentClip& c : doc.clips()) EXPECT_TRUE(doc.dirty(c.file));
  history.redo(doc);
  EXPECT_FALSE(doc.dirty());
}

TEST(Document, SaveWritesOnlyDirtyFiles) {
  mf::testing::TempDir temp("mf_editor_document");
  const std::string mskel = test::copy_mannequin(temp);
  Expected<Document> doc = Document::open(mskel);
  ASSERT_TRUE(doc);
  // A clip file that is not canonical on disk stays as it is while nothing edits it.
  const std::string walk = doc->find_clip("walk")->path;
  const std::string hand_edited = read_text(walk) + "\n";
  test::write_text(walk, hand_edited);
  History history;
  offline::Bone root = doc->skeleton().bones[0];
  root.length = 10;
  ASSERT_TRUE(history.execute(*doc, std::make_unique<SetBone>(0, root)));
  ASSERT_TRUE(doc->save());
  EXPECT_EQ(read_text(walk), hand_edited);
  EXPECT_NE(read_text(mskel).find("\"name\": \"root\", \"length\": 10"), std::string::npos);
}

TEST(Document, BrokenClipsAreListedNotFatal) {
  mf::testing::TempDir temp("mf_editor_document");
  const std::string mskel = test::copy_mannequin(temp);
  const std::string broken = (fs::path(mskel).parent_path() / "mannequin.clips" / "broken.manim").string();
  test::write_text(broken, "{ \"format\": 1,");
  Expected<Document> doc = Document::open(mskel);
  ASSERT_TRUE(doc) << doc.error().to_string();
  ASSERT_EQ(doc->unread_clips().size(), 1u);
  EXPECT_EQ(doc->unread_clips()[0].name, "broken");
  EXPECT_EQ(doc->unread_clips()[0].error.file, broken);
  EXPECT_EQ(doc->clips().size(), 4u);
}

TEST(Document, OpenErrorsNameTheFile) {
  Expected<Document> doc = Document::open("/nonexistent/rig.mskel");
  ASSERT_FALSE(doc);
  EXPECT_NE(doc.error().to_string().find("/nonexistent/rig.mskel"), std::string::npos);
  Expected<Document> bad = Document::open(std::string(MF_TEST_DATA_DIR) + "/mskel/bad_parent_order.mskel");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().to_string().find("bad_parent_order.mskel:"), std::string::npos);
}

TEST(Document, NewRigHasARootBoneAndSavesAs) {
  mf::testing::TempDir temp("mf_editor_document");
  Document doc = Document::new_rig();
  ASSERT_EQ(doc.skeleton().bones.size(), 1u);
  EXPECT_EQ(doc.skeleton().bones[0].name, "root");
  EXPECT_TRUE(doc.skeleton().skins.empty());
  EXPECT_TRUE(doc.path().empty());
  EXPECT_TRUE(doc.dirty());
  EXPECT_FALSE(doc.save());  // no path yet
  const std::string path = temp.file("new/hero.mskel");
  fs::create_directories(fs::path(path).parent_path());
  ASSERT_TRUE(doc.save_as(path));
  EXPECT_FALSE(doc.dirty());
  EXPECT_EQ(doc.path(), path);
  Expected<Document> again = Document::open(path);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_TRUE(again->skeleton() == doc.skeleton());
  EXPECT_EQ(read_text(path), doc.skeleton_text());
}

TEST(Document, SaveAsWritesTheClipsBesideTheNewFile) {
  mf::testing::TempDir temp("mf_editor_document");
  Expected<Document> doc = Document::open(test::copy_mannequin(temp));
  ASSERT_TRUE(doc);
  const std::string path = temp.file("copy/puppet.mskel");
  fs::create_directories(fs::path(path).parent_path());
  ASSERT_TRUE(doc->save_as(path));
  EXPECT_TRUE(fs::exists(temp.file("copy/puppet.clips/walk.manim")));
  Expected<Document> again = Document::open(path);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(again->clips().size(), 4u);
  EXPECT_EQ(test::bytes_of(*again), test::bytes_of(*doc));
}

}  // namespace
}  // namespace mf::editor
