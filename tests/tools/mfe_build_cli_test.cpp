// Runs `mfe skel build` and `mfe skel cook` as a user would, on copies of the example rig and the
// test fixtures in a temporary folder, with the bake cache in a temporary folder too.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "mf/anim/graph_binary.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/build/skeleton_loader.hpp"
#include "mf/skel/build_file.hpp"
#include "support/temp_dir.hpp"
#include "support/run_command.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

using Result = mf::testing::CommandResult;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

class MfeBuildCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<testing::TempDir>("mf_mfe_build_cli");
    fs::copy(std::string(MF_EXAMPLES_DIR) + "/mannequin", dir_->path() / "mannequin", fs::copy_options::recursive);
    fs::copy(std::string(MF_TEST_DATA_DIR) + "/rigs", dir_->path() / "rigs", fs::copy_options::recursive);
    cache_ = dir_->file("cache");
  }

  // Runs mfe with the bake cache in `cache` ("off" disables it).
  Result mfe(const std::string& args, const std::string& cache) const {
    return mf::testing::run_shell("MF_SKELETON_BAKE_CACHE_DIR=" + quote(cache) + " " + quote(MF_MFE_PATH) + " " + args);
  }
  Result mfe(const std::string& args) const { return mfe(args, cache_); }
  std::string arg(const std::string& relative) const { return quote(dir_->file(relative)); }

  std::unique_ptr<testing::TempDir> dir_;
  std::string cache_;
};

// ---- build ----------------------------------------------------------------------------------------

TEST_F(MfeBuildCli, BuildMissesThenHitsAndSaysHowLong) {
  const Result cold = mfe("skel build " + arg("mannequin/mannequin.mskel"));
  ASSERT_EQ(cold.exit_code, 0) << cold.output;
  EXPECT_NE(cold.output.find("mannequin.mskel: cache miss, 4 clips, "), std::string::npos) << cold.output;
  EXPECT_NE(cold.output.find(" ms\n"), std::string::npos) << cold.output;
  EXPECT_NE(cold.output.find("cache entry: " + cache_ + "/"), std::string::npos) << cold.output;

  const Result warm = mfe("skel build " + arg("mannequin/mannequin.mskel"));
  ASSERT_EQ(warm.exit_code, 0) << warm.output;
  EXPECT_NE(warm.output.find("cache hit, 4 clips, "), std::string::npos) << warm.output;
}

TEST_F(MfeBuildCli, BuildWritesALoadableBuild) {
  const std::string out = dir_->file("out/mannequin.mbuild");
  fs::create_directories(dir_->path() / "out");
  const Result r = mfe("skel build " + arg("mannequin/mannequin.mskel") + " --out " + quote(out));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("wrote " + out + " ("), std::string::npos) << r.output;
  auto data = skel::load_build_file(out);
  ASSERT_TRUE(data.ok()) << data.error().to_string();
  EXPECT_EQ((*data)->clips.size(), 4u);
  EXPECT_TRUE((*data)->load_all_clips().ok());
}

TEST_F(MfeBuildCli, BuildWithTheCacheOff) {
  const Result r = mfe("skel build " + arg("mannequin/mannequin.mskel"), "off");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("cache off"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("cache entry"), std::string::npos) << r.output;
}

TEST_F(MfeBuildCli, BuildOfABrokenRigExits1) {
  const Result r = mfe("skel build " + arg("rigs/broken/images.mskel"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("error: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("images.mskel"), std::string::npos) << r.output;
}

TEST_F(MfeBuildCli, BuildUsageAndOutputErrorsExit2) {
  EXPECT_EQ(mfe("skel build " + arg("nothing.mskel")).exit_code, 2);
  EXPECT_EQ(mfe("skel build").exit_code, 2);
  std::ofstream(dir_->file("file")) << "x";
  const Result r = mfe("skel build " + arg("mannequin/mannequin.mskel") + " --out " + arg("file/out.mbuild"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("error: "), std::string::npos) << r.output;
}

TEST_F(MfeBuildCli, AnUnwritableCacheOnlyWarns) {
  std::ofstream(dir_->file("file")) << "x";
  const Result r = mfe("skel build " + arg("mannequin/mannequin.mskel"), dir_->file("file/cache"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cache miss"), std::string::npos) << r.output;
}

// ---- cook -----------------------------------------------------------------------------------------

TEST_F(MfeBuildCli, CookWritesOnlyBuildsThatLoadWithoutSources) {
  const std::string out = dir_->file("shipped");
  const Result r = mfe("skel cook " + arg("mannequin/mannequin.mskel") + " " + arg("rigs/tiny/tiny.mskel") + " " +
                       arg("mannequin/locomotion.mgraph") + " --out " + quote(out));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("cooked " + dir_->file("mannequin/mannequin.mskel") + " -> " + out + "/mannequin.mbuild"),
            std::string::npos)
      << r.output;

  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(out)) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"audio", "locomotion.mgbuild", "mannequin.mbuild", "tiny.mbuild"}));
  // The footstep's sound is copied where the build's folder makes its path point.
  EXPECT_NE(r.output.find("copied " + dir_->file("mannequin/audio/footstep.wav") + " -> " + out + "/audio/footstep.wav"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(read_file(out + "/audio/footstep.wav").value(), read_file(dir_->file("mannequin/audio/footstep.wav")).value());

  fs::remove_all(dir_->path() / "mannequin");
  fs::remove_all(dir_->path() / "rigs");
  fs::remove_all(cache_);
  for (const char* name : {"mannequin", "tiny"}) {
    auto data = skel::load_build_file(out + "/" + name + ".mbuild");
    ASSERT_TRUE(data.ok()) << data.error().to_string();
    EXPECT_TRUE((*data)->load_all_clips().ok()) << name;
  }
  const std::string graph = read_file(out + "/locomotion.mgbuild").value();
  auto loaded = anim::load_graph_binary({reinterpret_cast<const std::uint8_t*>(graph.data()), graph.size()}, "locomotion.mgbuild");
  EXPECT_TRUE(loaded.ok()) << loaded.error().to_string();
}

TEST_F(MfeBuildCli, CookReportsABrokenInputAndCooksTheRest) {
  const std::string out = dir_->file("shipped");
  const Result r = mfe("skel cook " + arg("rigs/broken/images.mskel") + " " + arg("rigs/tiny/tiny.mskel") + " --out " + quote(out));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("error: "), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(out + "/tiny.mbuild"));
  EXPECT_FALSE(fs::exists(out + "/images.mbuild"));
}

TEST_F(MfeBuildCli, CookUsageErrorsExit2) {
  const std::string out = dir_->file("shipped");
  EXPECT_EQ(mfe("skel cook " + arg("rigs/tiny/tiny.mskel")).exit_code, 2) << "--out is required";
  const Result other = mfe("skel cook " + arg("mannequin/images/head.png") + " --out " + quote(out));
  EXPECT_EQ(other.exit_code, 2) << other.output;
  EXPECT_NE(other.output.find("cook takes .mskel and .mgraph files"), std::string::npos) << other.output;
  fs::create_directories(dir_->path() / "copy");
  fs::copy(dir_->path() / "rigs/tiny", dir_->path() / "copy", fs::copy_options::recursive);
  const Result twice = mfe("skel cook " + arg("rigs/tiny/tiny.mskel") + " " + arg("copy/tiny.mskel") + " --out " + quote(out));
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_NE(twice.output.find("would both be cooked to"), std::string::npos) << twice.output;
}

}  // namespace
}  // namespace mf::offline
