// Runs `mfe skel graph check` and `mfe skel play` with graph steps as a user would: on the example
// locomotion graph (clean), on broken copies of it in a temporary folder (errors with positions), and
// on a play script that walks through its states.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "support/temp_dir.hpp"
#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kMannequin = MF_EXAMPLES_DIR "/mannequin";

using Result = mf::testing::CommandResult;
using mf::testing::read_text;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

Result mfe(const std::string& args) { return mf::testing::run_shell(quote(MF_MFE_PATH) + " " + args); }

// The example graph with its first `from` replaced by `to`, written beside a copy of the rig.
class GraphCli : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::copy(kMannequin + "/mannequin.mskel", dir_.file("mannequin.mskel"));
    fs::copy(kMannequin + "/mannequin.clips", dir_.file("mannequin.clips"), fs::copy_options::recursive);
    fs::copy(kMannequin + "/images", dir_.file("images"), fs::copy_options::recursive);
    graph_ = read_text(kMannequin + "/locomotion.mgraph");
  }
  std::string broken(const std::string& from, const std::string& to) {
    std::string text = graph_;
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    dir_.write("broken.mgraph", text);
    return dir_.file("broken.mgraph");
  }

  mf::testing::TempDir dir_{"mf_graph_cli"};
  std::string graph_;
};

TEST_F(GraphCli, ExampleChecksClean) {
  const Result r = mfe("skel graph check " + quote(kMannequin + "/locomotion.mgraph"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "0 errors, 0 warnings\n");
}

TEST_F(GraphCli, UnknownClipIsAnErrorWithItsPosition) {
  const std::string file = broken("{ \"clip\": \"run\", \"at\": 3 }", "{ \"clip\": \"sprint\", \"at\": 3 }");
  const Result r = mfe("skel graph check " + quote(file));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("error: " + file +
                          ":23:17: layers[0].machine.states[0].blend1d.members[2]: unknown clip \"sprint\""),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("1 error, 0 warnings"), std::string::npos) << r.output;
}

TEST_F(GraphCli, ConditionOnUnknownParameter) {
  const std::string file = broken("{ \"trigger\": \"jump\" }", "{ \"trigger\": \"leap\" }");
  const Result r = mfe("skel graph check " + quote(file));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(":30:57: layers[0].machine.transitions[0].when: condition on unknown parameter \"leap\""),
            std::string::npos)
      << r.output;
}

TEST_F(GraphCli, WarningsAloneExitZero) {
  // Without the jump transition, the jump state is unreachable and its way back never fires.
  const std::string file = broken(
      "{ \"from\": \"locomotion\", \"to\": \"jump\", \"when\": { \"trigger\": \"jump\" }, \"duration\": 0.1 },\n", "");
  const Result r = mfe("skel graph check " + quote(file));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: " + file + ":27:11: layers[0].machine.states[1]: state \"jump\" is unreachable"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("0 errors, 2 warnings"), std::string::npos) << r.output;
}

TEST_F(GraphCli, SkeletonOptionAndMissingRig) {
  const std::string file = broken("\"path\": \"mannequin.mskel\"", "\"path\": \"missing.mskel\"");
  const Result missing = mfe("skel graph check " + quote(file));
  EXPECT_EQ(missing.exit_code, 1) << missing.output;
  EXPECT_NE(missing.output.find("missing.mskel"), std::string::npos) << missing.output;
  const Result with = mfe("skel graph check " + quote(file) + " --skeleton " + quote(dir_.file("mannequin.mskel")));
  EXPECT_EQ(with.exit_code, 0) << with.output;
  EXPECT_EQ(with.output, "0 errors, 0 warnings\n");
}

TEST_F(GraphCli, SyntaxErrorIsAnError) {
  dir_.write("bad.mgraph", "{ \"format\": 1,\n  \"uid\": }");
  const Result r = mfe("skel graph check " + quote(dir_.file("bad.mgraph")));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.output.substr(0, 7 + dir_.file("bad.mgraph").size() + 4), "error: " + dir_.file("bad.mgraph") + ":2:1");
}

TEST_F(GraphCli, PlayPrintsStateChanges) {
  const Result r = mfe("skel play " + quote(kMannequin + "/mannequin.mskel") + " --script " +
                       quote(kMannequin + "/locomotion-play.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("0.0000 layer base: enter locomotion\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("0.0000 layer breathing: enter breathe\n"), std::string::npos) << r.output;
  // The trigger at 2.7 s fires on the next frame; the jump returns after 90 % of its 1 s.
  const std::size_t jump = r.output.find(" layer base: locomotion -> jump\n");
  const std::size_t back = r.output.find(" layer base: jump -> locomotion\n");
  ASSERT_NE(jump, std::string::npos) << r.output;
  ASSERT_NE(back, std::string::npos) << r.output;
  EXPECT_LT(jump, back);
  EXPECT_EQ(r.output.substr(r.output.rfind('\n', jump) + 1, 6), "2.7167") << r.output;
  EXPECT_NE(r.output.find("pose mid-jump at 3.2"), std::string::npos) << r.output;
}

TEST_F(GraphCli, PlayJsonReportsStates) {
  const Result r = mfe("skel play " + quote(kMannequin + "/mannequin.mskel") + " --json --script " +
                       quote(kMannequin + "/locomotion-play.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"state\": \"jump\", \"layer\": \"base\", \"from\": \"locomotion\""), std::string::npos)
      << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("\"state\": \"locomotion\", \"layer\": \"base\", \"from\": null"), std::string::npos);
}

TEST_F(GraphCli, PlayScriptErrorsNameTheStep) {
  fs::copy(kMannequin + "/locomotion.mgraph", dir_.file("locomotion.mgraph"));
  dir_.write("unknown.json", "[\n  {\"graph\": \"locomotion.mgraph\"},\n  {\"param\": \"sped\", \"value\": 1}\n]\n");
  const Result unknown = mfe("skel play " + quote(dir_.file("mannequin.mskel")) + " --script " + quote(dir_.file("unknown.json")));
  EXPECT_EQ(unknown.exit_code, 1) << unknown.output;
  EXPECT_EQ(unknown.output, dir_.file("unknown.json") +
                                ":3:13: steps[1].param: the graph has no parameter \"sped\"; it has: speed, jump\n");

  dir_.write("early.json", "[{\"trigger\": \"jump\"}]");
  const Result early = mfe("skel play " + quote(dir_.file("mannequin.mskel")) + " --script " + quote(dir_.file("early.json")));
  EXPECT_EQ(early.exit_code, 1) << early.output;
  EXPECT_NE(early.output.find(":1:14: steps[0].trigger: no graph to set jump on"), std::string::npos) << early.output;

  dir_.write("kind.json", "[{\"graph\": \"locomotion.mgraph\"}, {\"param\": \"jump\", \"value\": 1}, {\"trigger\": \"speed\"}]");
  const Result kind = mfe("skel play " + quote(dir_.file("mannequin.mskel")) + " --script " + quote(dir_.file("kind.json")));
  EXPECT_EQ(kind.exit_code, 1) << kind.output;
  EXPECT_NE(kind.output.find("steps[1].param: \"jump\" is a trigger: set it with {\"trigger\": \"jump\"}"),
            std::string::npos)
      << kind.output;

  dir_.write("missing.json", "[{\"graph\": \"nope.mgraph\"}]");
  const Result missing = mfe("skel play " + quote(dir_.file("mannequin.mskel")) + " --script " + quote(dir_.file("missing.json")));
  EXPECT_EQ(missing.exit_code, 1) << missing.output;
  EXPECT_NE(missing.output.find("steps[0].graph: cannot load the graph: "), std::string::npos) << missing.output;
}

}  // namespace
