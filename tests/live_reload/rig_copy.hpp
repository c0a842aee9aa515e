#pragma once
// Live-reload tests work on copies: examples/mannequin copied into a test's temporary folder, and
// small file edits on those copies.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/temp_dir.hpp"

namespace mf::live_reload::test {

// Copies examples/mannequin into <temp>/mannequin and returns the copied .mskel's path.
inline std::string copy_mannequin(const mf::testing::TempDir& temp) {
  const std::filesystem::path to = temp.path() / "mannequin";
  std::filesystem::copy(std::filesystem::path(MF_EXAMPLES_DIR) / "mannequin", to, std::filesystem::copy_options::recursive);
  return (to / "mannequin.mskel").string();
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// Replaces the one occurrence of `from` in the file (a test bug when it is not there exactly once).
inline void edit(const std::string& path, const std::string& from, const std::string& to) {
  std::string text = read_text(path);
  const std::size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from << " not in " << path;
  ASSERT_EQ(text.find(from, at + 1), std::string::npos) << from << " more than once in " << path;
  text.replace(at, from.size(), to);
  write_text(path, text);
}

// Saves `text` the way many editors do: a new file beside it, renamed over the old one.
inline void save_by_rename(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".swp~";
  write_text(temporary, text);
  std::filesystem::rename(temporary, path);
}

// 1-based line of the first occurrence of `needle` in the file; 0 when absent.
inline int line_of(const std::string& path, const std::string& needle) {
  const std::string text = read_text(path);
  const std::size_t at = text.find(needle);
  if (at == std::string::npos) return 0;
  int line = 1;
  for (std::size_t i = 0; i < at; ++i) line += text[i] == '\n' ? 1 : 0;
  return line;
}

}  // namespace mf::live_reload::test
