// `mfe skel bench` on the example rig: --json prints one JSON object with the rig, the settings, the
// rig's counts and every stage's figure; --threads 2 runs the stages across two threads (wall time,
// no CPU-time figures); bad thread counts exit 2.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "mf/offline/json/json.hpp"
#include "support/run_command.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

using Result = mf::testing::CommandResult;
using mf::testing::shell_quote;

std::string mannequin() { return std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel"; }

// Runs mfe without the bake cache (nothing written outside the test).
Result mfe(const std::string& args) {
  return mf::testing::run_shell("MF_SKELETON_BAKE_CACHE_DIR=off " + shell_quote(MF_MFE_PATH) + " " + args);
}

const json::Value& at(const json::Value& doc, const char* path) {
  static const json::Value missing;
  const json::Value* v = json::find_path(doc, path);
  EXPECT_NE(v, nullptr) << "no " << path;
  return v ? *v : missing;
}

// The fields every --json output has, with plausible values.
void expect_common_fields(const json::Value& doc, int threads) {
  EXPECT_EQ(at(doc, "rig").string, mannequin());
  EXPECT_EQ(at(doc, "clip").string, "walk");
  EXPECT_EQ(at(doc, "skin").string, "");
  EXPECT_EQ(at(doc, "instances").number, 4);
  EXPECT_EQ(at(doc, "frames").number, 6);
  EXPECT_EQ(at(doc, "threads").number, threads);
  EXPECT_GE(at(doc, "threadsUsed").number, 1);  // fewer than asked on a machine with fewer cores
  EXPECT_LE(at(doc, "threadsUsed").number, threads);
  EXPECT_EQ(at(doc, "repetitions").number, 3);
  // 19 drawn slots and the two bounding-box slots of the walkers' hitboxes (examples/arena).
  EXPECT_EQ(at(doc, "counts.bones").number, 24);
  EXPECT_EQ(at(doc, "counts.slots").number, 21);
  EXPECT_GT(at(doc, "counts.verticesPerFrame").number, 0);
  for (const char* stage : {"nsPerSkeletonFrame.clipApplication", "nsPerSkeletonFrame.updateOrder",
                            "nsPerSkeletonFrame.cpuVertices", "nsPerSkeletonFrame.total", "msPerFrame"})
    EXPECT_GT(at(doc, stage).number, 0) << stage;
}

TEST(MfeBenchCli, JsonHoldsSettingsCountsAndStages) {
  if (!fs::exists(mannequin())) GTEST_SKIP() << "no example rig at " << mannequin();
  const Result r = mfe("skel bench " + shell_quote(mannequin()) + " --clip walk --instances 4 --frames 6 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "bench output");
  ASSERT_TRUE(doc.ok()) << doc.error().to_string() << "\n" << r.output;
  ASSERT_TRUE(doc->is_object());
  expect_common_fields(*doc, 1);
  for (const char* stage : {"cpuNsPerSkeletonFrame.clipApplication", "cpuNsPerSkeletonFrame.updateOrder",
                            "cpuNsPerSkeletonFrame.cpuVertices", "cpuNsPerSkeletonFrame.total", "cpuMsPerFrame"})
    EXPECT_TRUE(at(*doc, stage).is_number()) << stage;
}

TEST(MfeBenchCli, TwoThreadsReportWallTime) {
  if (!fs::exists(mannequin())) GTEST_SKIP() << "no example rig at " << mannequin();
  const Result text = mfe("skel bench " + shell_quote(mannequin()) + " --clip walk --instances 4 --frames 6 --threads 2");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("2 threads"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("wall time"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("24 bones, 21 slots"), std::string::npos) << text.output;
  for (const char* stage : {"clip application", "update order", "CPU vertices", "total", "ms per frame"})
    EXPECT_NE(text.output.find(stage), std::string::npos) << stage;

  const Result r =
      mfe("skel bench " + shell_quote(mannequin()) + " --clip walk --instances 4 --frames 6 --threads 2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto doc = json::parse(r.output, "bench output");
  ASSERT_TRUE(doc.ok()) << doc.error().to_string() << "\n" << r.output;
  expect_common_fields(*doc, 2);
  EXPECT_EQ(doc->find("cpuNsPerSkeletonFrame"), nullptr) << "CPU time of the calling thread only with one thread";
}

TEST(MfeBenchCli, ThreadsBelowOneAreRefused) {
  if (!fs::exists(mannequin())) GTEST_SKIP() << "no example rig at " << mannequin();
  const Result r = mfe("skel bench " + shell_quote(mannequin()) + " --clip walk --instances 4 --frames 6 --threads 0");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--threads must be at least 1"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace mf::offline
