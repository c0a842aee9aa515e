#pragma once
// A document on a copy of the mannequin or the rich rig, with a history, for command tests.

#include <gtest/gtest.h>

#include <string>

#include "editor_test_rigs.hpp"
#include "mf/editor/core/document.hpp"
#include "mf/editor/core/history.hpp"

namespace mf::editor::test {

struct RigFixture {
  mf::testing::TempDir temp{"mf_editor_commands"};
  Document doc;
  History history;

  explicit RigFixture(bool rich = false) : doc(open(rich ? write_rich_rig(temp) : copy_mannequin(temp))) {}

  static Document open(const std::string& path) {
    Expected<Document> d = Document::open(path);
    EXPECT_TRUE(d) << d.error().to_string();
    return std::move(d).value();
  }
  const offline::SkeletonSource& s() const { return doc.skeleton(); }
  int bone(const std::string& name) const { return doc.skeleton().find_bone(name); }
  int slot(const std::string& name) const { return doc.skeleton().find_slot(name); }
  int skin(const std::string& name) const { return doc.skeleton().find_skin(name); }
  int event(const std::string& name) const { return doc.skeleton().find_event(name); }
  // The text of the clip named `name`.
  std::string clip(const std::string& name) const {
    for (std::size_t i = 0; i < doc.clips().size(); ++i)
      if (doc.clips()[i].name == name) return doc.clip_text(i);
    ADD_FAILURE() << "no clip " << name;
    return "";
  }
  const offline::ClipSource& clip_model(const std::string& name) const { return doc.find_clip(name)->clip; }
};

}  // namespace mf::editor::test
