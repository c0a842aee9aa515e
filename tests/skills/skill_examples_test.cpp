// The skeleton skill's examples run as written: every ```sh block of .claude/skills/skeleton/SKILL.md
// (then of its references/*.md, in name order) is run by bash, in order, as one script with
// `set -euo pipefail`, in a temporary folder laid out like the repository: examples/mannequin copied,
// build/release/bin/mfe linked to the built tool. A block that fails names itself and its file.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "mf/core/file_io.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"

namespace mf::skills {
namespace {

namespace fs = std::filesystem;

const fs::path kSkill = fs::path(MF_SOURCE_DIR) / ".claude" / "skills" / "skeleton";

struct Block {
  std::string file;
  int line = 0;  // of the opening fence
  std::string text;
};

// The ```sh blocks of a Markdown file, in order.
std::vector<Block> sh_blocks(const fs::path& file) {
  std::vector<Block> out;
  const std::string text = read_file(file.string()).value();
  std::size_t at = 0;
  int line = 1;
  bool in_block = false, runnable = false;
  Block current;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string row = text.substr(at, end - at);
    if (row.rfind("```", 0) == 0) {
      if (!in_block) {
        in_block = true;
        runnable = row == "```sh";
        current = Block{file.filename().string(), line, {}};
      } else {
        in_block = false;
        if (runnable) out.push_back(current);
      }
    } else if (in_block && runnable) {
      current.text += row + "\n";
    }
    at = end + 1;
    ++line;
  }
  EXPECT_FALSE(in_block) << file << ": a code block is not closed";
  return out;
}

TEST(SkillExamples, EveryShellBlockRunsAsWritten) {
  std::vector<Block> blocks = sh_blocks(kSkill / "SKILL.md");
  ASSERT_GE(blocks.size(), 5u) << "SKILL.md should show the commands on the mannequin";
  std::vector<fs::path> references;
  if (fs::exists(kSkill / "references"))
    for (const auto& e : fs::directory_iterator(kSkill / "references"))
      if (e.path().extension() == ".md") references.push_back(e.path());
  std::sort(references.begin(), references.end());
  for (const fs::path& r : references)
    for (Block& b : sh_blocks(r)) blocks.push_back(std::move(b));

  mf::testing::TempDir dir("mf_skill_examples");
  fs::create_directories(dir.path() / "examples");
  fs::copy(fs::path(MF_EXAMPLES_DIR) / "mannequin", dir.path() / "examples" / "mannequin", fs::copy_options::recursive);
  fs::create_directories(dir.path() / "build" / "release" / "bin");
  fs::create_symlink(MF_MFE_PATH, dir.path() / "build" / "release" / "bin" / "mfe");

  std::string script = "set -euo pipefail\ncd " + mf::testing::shell_quote(dir.path().string()) + "\n";
  for (const Block& b : blocks) {
    const std::string where = b.file + ":" + std::to_string(b.line);
    script += "echo '>>> block at " + where + "'\n" + b.text;
  }
  ASSERT_TRUE(write_file_atomic(dir.file("skill.sh"), script));
  const mf::testing::CommandResult r = mf::testing::run_shell(
      "MF_VULKAN_VALIDATION=1 MF_SKELETON_BAKE_CACHE_DIR=" + mf::testing::shell_quote(dir.file("cache")) + " bash " +
      mf::testing::shell_quote(dir.file("skill.sh")) + " 2>&1");
  const std::size_t last = r.output.rfind(">>> block at ");
  EXPECT_EQ(r.exit_code, 0) << "failed in the "
                            << (last == std::string::npos ? std::string("first block") : r.output.substr(last, r.output.find('\n', last) - last))
                            << "\n" << r.output;

  // What the examples promise to leave behind.
  EXPECT_TRUE(fs::exists(dir.path() / "work" / "mannequin" / "mannequin.clips" / "wave.manim"));
  EXPECT_TRUE(fs::exists(dir.path() / "work" / "mannequin" / "mannequin.clips" / "stroll.manim"));
  EXPECT_FALSE(fs::exists(dir.path() / "work" / "mannequin" / "mannequin.clips" / "wave_quick.manim"));
  EXPECT_TRUE(fs::exists(dir.path() / "work" / "wave.png"));
  EXPECT_TRUE(fs::exists(dir.path() / "work" / "stroll.png"));
  // The example rig itself is untouched: the skill works on a copy.
  for (const auto& e : fs::directory_iterator(fs::path(MF_EXAMPLES_DIR) / "mannequin" / "mannequin.clips"))
    EXPECT_EQ(read_file(e.path().string()).value(),
              read_file((dir.path() / "examples" / "mannequin" / "mannequin.clips" / e.path().filename()).string()).value());
}

}  // namespace
}  // namespace mf::skills
