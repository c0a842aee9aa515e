// tools/synthetic_rig_writer run as a user would: the rigs it writes are ordinary rig folders that
// `mfe skel check` finds nothing wrong with and `mfe skel bench` measures.

#include <gtest/gtest.h>

#include <string>

#include "support/run_command.hpp"
#include "support/temp_dir.hpp"

namespace mf::testing {
namespace {

CommandResult run(const char* tool, const std::string& args) { return run_shell(shell_quote(tool) + " " + args); }

void expect_written_rig_checks_and_benches(const std::string& rig, const std::string& clip) {
  const TempDir dir("mf_synthetic_rig_writer");
  const CommandResult written = run(MF_WRITER_PATH, rig + " " + shell_quote(dir.path().string()) + " 32");
  ASSERT_EQ(written.exit_code, 0) << written.output;
  const std::string mskel = dir.file(rig + "/" + rig + ".mskel");
  EXPECT_EQ(written.output, mskel + "\n");
  const CommandResult checked = run(MF_MFE_PATH, "skel check " + shell_quote(mskel));
  EXPECT_EQ(checked.exit_code, 0) << checked.output;
  EXPECT_NE(checked.output.find("0 errors, 0 warnings"), std::string::npos) << checked.output;
  const CommandResult benched = run(MF_MFE_PATH, "skel bench " + shell_quote(mskel) + " --clip " + clip + " --instances 2 --frames 5");
  EXPECT_EQ(benched.exit_code, 0) << benched.output;
  EXPECT_NE(benched.output.find("update order"), std::string::npos) << benched.output;
}

TEST(SyntheticRigWriter, RaptorShapedRigChecksCleanAndBenches) { expect_written_rig_checks_and_benches("raptor-shaped", "walk"); }

TEST(SyntheticRigWriter, CelestialCircusShapedRigChecksCleanAndBenches) {
  expect_written_rig_checks_and_benches("celestial-circus-shaped", "swing");
}

TEST(SyntheticRigWriter, UnknownRigIsAUsageError) {
  const TempDir dir("mf_synthetic_rig_writer");
  const CommandResult r = run(MF_WRITER_PATH, "dragon-shaped " + shell_quote(dir.path().string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("unknown rig \"dragon-shaped\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("raptor-shaped"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace mf::testing
