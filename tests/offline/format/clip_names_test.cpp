// Clip names as paths in the clips folder, and the escaping rule for what file systems refuse.

#include "mf/offline/format/clip_names.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mf::offline {
namespace {

TEST(ClipNames, FoldersAreSlashesAndPlainNamesAreUnchanged) {
  EXPECT_EQ(clip_file_stem("walk"), "walk");
  EXPECT_EQ(clip_file_stem("emotes/angry"), "emotes/angry");
  EXPECT_EQ(clip_file_stem("a/b/c d"), "a/b/c d");
  EXPECT_EQ(clip_file_stem("run-to-idle.v2"), "run-to-idle.v2");
  EXPECT_EQ(clip_file_stem("héros/über"), "héros/über");  // UTF-8 as it is
  EXPECT_EQ(clip_name_of("emotes/angry"), "emotes/angry");
}

TEST(ClipNames, WhatFileSystemsRefuseIsPercentEscaped) {
  EXPECT_EQ(clip_file_stem("a\\b:c*d?e\"f<g>h|i"), "a%5Cb%3Ac%2Ad%3Fe%22f%3Cg%3Eh%7Ci");
  EXPECT_EQ(clip_file_stem("100%"), "100%25");
  EXPECT_EQ(clip_file_stem("tab\there"), "tab%09here");
  EXPECT_EQ(clip_file_stem(std::string("nul\0byte", 8)), "nul%00byte");
  EXPECT_EQ(clip_file_stem(" lead/trail "), "%20lead/trail%20");
  EXPECT_EQ(clip_file_stem("./.."), "%2E/%2E%2E");
  EXPECT_EQ(clip_file_stem("end."), "end%2E");
  EXPECT_EQ(clip_file_stem(".a.b."), "%2Ea.b%2E");
  // Empty folder or file names: the "/" that would make them is kept inside its segment.
  EXPECT_EQ(clip_file_stem("/abs"), "%2Fabs");
  EXPECT_EQ(clip_file_stem("dir/"), "dir%2F");
  EXPECT_EQ(clip_file_stem("a//b"), "a/%2Fb");
  EXPECT_EQ(clip_file_stem("/"), "%2F");
  // Reserved Windows device names, as a folder or a file, with or without an extension, any case.
  EXPECT_EQ(clip_file_stem("CON"), "%43ON");
  EXPECT_EQ(clip_file_stem("aux/x"), "%61ux/x");
  EXPECT_EQ(clip_file_stem("Com1.final"), "%43om1.final");
  EXPECT_EQ(clip_file_stem("lpt9"), "%6Cpt9");
  EXPECT_EQ(clip_file_stem("console"), "console");  // only the whole name before the first "."
  EXPECT_EQ(clip_file_stem("com10"), "com10");
  EXPECT_EQ(clip_file_stem(""), "");
}

TEST(ClipNames, EveryNameRoundTrips) {
  const std::vector<std::string> names = {
      "walk", "emotes/angry", "a\\b", "x:y", "*", "?", "\"q\"", "<>", "|", "%", "%25", "%2F", "50% off",
      std::string("\x01\x1f\x7f", 3), " ", "  x  ", ".", "..", "...", "a/./b", "a/../b", "/", "//", "a//b",
      "/a/", "CON", "con.x", "nul/prn/aux", "COM0", "LPT5.txt", "é/ü", "a.manim", "trailing space /x",
  };
  for (const std::string& name : names) {
    const std::string stem = clip_file_stem(name);
    std::string why;
    const auto back = clip_name_of(stem, &why);
    ASSERT_TRUE(back.has_value()) << "\"" << name << "\" -> \"" << stem << "\": " << why;
    EXPECT_EQ(*back, name) << stem;
    // What the file system sees: no refused byte, no empty, "." or ".." segment.
    std::size_t start = 0;
    for (std::size_t i = 0; i <= stem.size(); ++i) {
      if (i < stem.size() && stem[i] != '/') continue;
      const std::string segment = stem.substr(start, i - start);
      EXPECT_FALSE(segment.empty()) << stem;
      EXPECT_NE(segment.front(), '.') << stem;
      EXPECT_NE(segment.back(), '.') << stem;
      EXPECT_NE(segment.front(), ' ') << stem;
      EXPECT_NE(segment.back(), ' ') << stem;
      for (char c : segment) {
        EXPECT_EQ(std::string_view("\\:*?\"<>|").find(c), std::string_view::npos) << stem;
        EXPECT_GE(static_cast<unsigned char>(c), 0x20) << stem;
      }
      start = i + 1;
    }
  }
}

TEST(ClipNames, FileNamesTheRuleDoesNotWriteAreRefusedWithAReason) {
  std::string why;
  EXPECT_FALSE(clip_name_of("50%", &why));
  EXPECT_NE(why.find("%25"), std::string::npos) << why;
  EXPECT_FALSE(clip_name_of("bad%G1", &why));
  EXPECT_FALSE(clip_name_of("w%61lk", &why));  // "a" needs no escape
  EXPECT_NE(why.find("walk"), std::string::npos) << why;
  EXPECT_FALSE(clip_name_of("what%3f", &why));  // lower-case hex
  EXPECT_FALSE(clip_name_of("a//b", &why));
  EXPECT_FALSE(clip_name_of("", &why));
}

TEST(ClipNames, NamesThatDifferOnlyByCaseConflict) {
  EXPECT_FALSE(clip_name_conflict({"walk", "run", "emotes/angry", "emotes/sad"}));
  const auto files = clip_name_conflict({"walk", "Run", "run"});
  ASSERT_TRUE(files);
  EXPECT_EQ(files->first, "Run");
  EXPECT_EQ(files->second, "run");
  const auto folders = clip_name_conflict({"Emotes/angry", "emotes/sad"});
  ASSERT_TRUE(folders);
  EXPECT_EQ(folders->first, "Emotes/angry");
  EXPECT_TRUE(clip_name_conflict({"a", "a"}));
  EXPECT_FALSE(clip_name_conflict({"a", "a/b"})) << "a.manim and the folder a/ are different paths";
  EXPECT_TRUE(clip_name_conflict({"a.manim/b", "a"})) << "the folder a.manim/ and the file a.manim";
}

}  // namespace
}  // namespace mf::offline
