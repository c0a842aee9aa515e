// check_graph: each problem it looks for, as an error or a warning with the file, JSON path and line,
// and a clean bill for the example graph against the example rig.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "mf/offline/graph/graph_check.hpp"
#include "support/temp_dir.hpp"
#include "mf/offline/graph/graph_format.hpp"

namespace mf::offline {
namespace {

const std::string kRig = MF_EXAMPLES_DIR "/mannequin/mannequin.mskel";
const std::string kExample = MF_EXAMPLES_DIR "/mannequin/locomotion.mgraph";

// A graph with the parameters every case uses and one layer whose machine is `machine`.
std::string graph_with(const std::string& machine, const std::string& layer_extra = "") {
  return R"({
  "format": 1,
  "uid": "agr_0123456789ab",
  "type": "AnimationGraph",
  "parameters": [
    { "name": "speed", "type": "float" },
    { "name": "count", "type": "int" },
    { "name": "grounded", "type": "bool" },
    { "name": "jump", "type": "trigger" }
  ],
  "layers": [
    {
      "name": "base",)" +
         layer_extra + R"(
      "machine": )" +
         machine + R"(
    }
  ]
}
)";
}

const GraphRigNames kNames{"rig.mskel", {"idle", "jump", "run", "walk"}, {"root", "chest", "head"}};

std::vector<Finding> check(const std::string& text, const GraphRigNames* rig = &kNames) {
  Expected<GraphSource> g = read_graph(text, "t.mgraph");
  EXPECT_TRUE(g.ok()) << g.error().to_string();
  if (!g.ok()) return {};
  return check_graph(*g, "t.mgraph", rig);
}

std::string all(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings)
    out += (f.severity == Severity::Error ? "error: " : "warning: ") + f.error.to_string() + "\n";
  return out;
}

// Exactly one finding, of this severity, whose text starts with `expected`.
void expect_one(const std::vector<Finding>& findings, Severity severity, const std::string& expected) {
  ASSERT_EQ(findings.size(), 1u) << all(findings);
  EXPECT_EQ(findings[0].severity, severity) << all(findings);
  const std::string text = findings[0].error.to_string();
  EXPECT_EQ(text.substr(0, expected.size()), expected) << text;
}

const std::string kTwoStates = R"({ "entry": "idle", "states": [{ "name": "idle", "clip": "idle" }, { "name": "walk", "clip": "walk" }], "transitions": [
  { "from": "idle", "to": "walk", "when": WHEN },
  { "from": "walk", "to": "idle", "exitTime": 1 }
] })";

std::string with_when(const std::string& when) {
  std::string m = kTwoStates;
  m.replace(m.find("WHEN"), 4, when);
  return graph_with(m);
}

TEST(GraphCheck, ExampleHasNoFindings) {
  Expected<GraphSource> g = read_graph_file(kExample);
  ASSERT_TRUE(g.ok()) << g.error().to_string();
  EXPECT_EQ(graph_skeleton_path(*g, kExample), MF_EXAMPLES_DIR "/mannequin/mannequin.mskel");
  Expected<GraphRigNames> rig = load_graph_rig_names(graph_skeleton_path(*g, kExample));
  ASSERT_TRUE(rig.ok()) << rig.error().to_string();
  EXPECT_EQ(rig->clips, (std::vector<std::string>{"idle", "jump", "run", "walk"}));
  EXPECT_EQ(all(check_graph(*g, kExample, &*rig)), "");
}

TEST(GraphCheck, CleanGraphHasNoFindings) {
  EXPECT_EQ(all(check(with_when(R"({ "param": "speed", "op": ">", "value": 0.1 })"))), "");
}

TEST(GraphCheck, UnknownClip) {
  const std::string m = R"({ "entry": "idle", "states": [{ "name": "idle", "clip": "idel" }] })";
  expect_one(check(graph_with(m)), Severity::Error,
             "t.mgraph:14:48: layers[0].machine.states[0].clip: unknown clip \"idel\"; rig.mskel has: idle, jump, "
             "run, walk");
  EXPECT_EQ(all(check(graph_with(m), nullptr)), "") << "without a rig clips are not checked";
}

// A clip in a sub-folder of the rig's clips folder is named by its path, in graphs too.
TEST(GraphCheck, NestedClipsAreNamedByTheirPath) {
  mf::testing::TempDir dir("mf_graph_check");
  std::filesystem::copy(MF_TEST_DATA_DIR "/rigs/tiny", dir.path(), std::filesystem::copy_options::recursive);
  std::filesystem::create_directories(dir.path() / "tiny.clips/emotes");
  std::filesystem::copy_file(dir.path() / "tiny.clips/wave.manim", dir.path() / "tiny.clips/emotes/angry.manim");
  Expected<GraphRigNames> rig = load_graph_rig_names(dir.file("tiny.mskel"));
  ASSERT_TRUE(rig.ok()) << rig.error().to_string();
  EXPECT_EQ(rig->clips, (std::vector<std::string>{"emotes/angry", "idle", "wave"}));
  const std::string nested = R"({ "entry": "angry", "states": [{ "name": "angry", "clip": "emotes/angry" }] })";
  EXPECT_EQ(all(check(graph_with(nested), &*rig)), "");
  const std::string flat = R"({ "entry": "angry", "states": [{ "name": "angry", "clip": "emotes_angry" }] })";
  const std::vector<Finding> findings = check(graph_with(flat), &*rig);
  ASSERT_EQ(findings.size(), 1u) << all(findings);
  EXPECT_NE(findings[0].error.message.find("has: emotes/angry, idle, wave"), std::string::npos) << all(findings);
}

TEST(GraphCheck, UnknownBlendMemberClipAndMaskBone) {
  const std::string m = R"({ "entry": "b", "states": [{ "name": "b", "blend1d": { "param": "speed", "members": [
    { "clip": "idle", "at": 0 }, { "clip": "sprint", "at": 2 }] } }] })";
  expect_one(check(graph_with(m)), Severity::Error,
             "t.mgraph:15:34: layers[0].machine.states[0].blend1d.members[1]: unknown clip \"sprint\"");
  const std::string one = R"({ "entry": "idle", "states": [{ "name": "idle", "clip": "idle" }] })";
  expect_one(check(graph_with(one, R"( "mask": ["chest", "tail"],)")), Severity::Error,
             "t.mgraph:13:41: layers[0].mask[1]: unknown mask bone \"tail\" in rig.mskel");
}

TEST(GraphCheck, DuplicateNames) {
  const std::string m = R"({ "entry": "idle", "states": [{ "name": "idle", "clip": "idle" }, { "name": "idle", "clip": "walk" }] })";
  const std::vector<Finding> f = check(graph_with(m));
  ASSERT_GE(f.size(), 1u) << all(f);
  EXPECT_EQ(f[0].error.to_string(),
            "t.mgraph:14:84: layers[0].machine.states[1]: duplicate state name \"idle\" in this state machine");
  std::string params = graph_with(R"({ "entry": "idle", "states": [{ "name": "idle", "clip": "idle" }] })");
  params.replace(params.find("\"count\""), 7, "\"speed\"");
  expect_one(check(params), Severity::Error, "t.mgraph:7:5: parameters[1]: duplicate parameter name \"speed\"");
}

TEST(GraphCheck, UnknownStatesAndEntry) {
  const std::string entry = R"({ "entry": "run", "states": [{ "name": "idle", "clip": "idle" }] })";
  expect_one(check(graph_with(entry)), Severity::Error,
             "t.mgraph:14:18: layers[0].machine.entry: entry names unknown state \"run\"; the machine has: idle");
  const std::string to = R"({ "entry": "idle", "states": [{ "name": "idle", "clip": "idle" }], "transitions": [
    { "from": "idle", "to": "fly" }] })";
  expect_one(check(graph_with(to)), Severity::Error,
             "t.mgraph:15:5: layers[0].machine.transitions[0].to: unknown state \"fly\"; the machine has: idle");
  const std::string exit = R"({ "entry": "idle", "states": [{ "name": "idle", "clip": "idle" }], "transitions": [
    { "from": "idle", "to": "exit" }] })";
  expect_one(check(graph_with(exit)), Severity::Error,
             "t.mgraph:15:5: layers[0].machine.transitions[0].to: \"exit\" leaves a nested state machine");
}

TEST(GraphCheck, ConditionsOnUnknownParameters) {
  expect_one(check(with_when(R"({ "param": "velocity", "op": ">", "value": 1 })")), Severity::Error,
             "t.mgraph:15:43: layers[0].machine.transitions[0].when: condition on unknown parameter \"velocity\"; "
             "the graph has: speed, count, grounded, jump");
  expect_one(check(with_when(R"({ "and": [{ "trigger": "jump" }, { "trigger": "land" }] })")), Severity::Error,
             "t.mgraph:15:76: layers[0].machine.transitions[0].when.and[1]: condition on unknown parameter \"land\"");
}

TEST(GraphCheck, TypeMismatches) {
  expect_one(check(with_when(R"({ "param": "grounded", "op": ">", "value": 0 })")), Severity::Error,
             "t.mgraph:15:43: layers[0].machine.transitions[0].when: \"grounded\" is a bool: test it with");
  expect_one(check(with_when(R"({ "param": "jump", "op": "==", "value": 1 })")), Severity::Error,
             "t.mgraph:15:43: layers[0].machine.transitions[0].when: \"jump\" is a trigger and has no value to compare");
  expect_one(check(with_when(R"({ "param": "speed", "is": true })")), Severity::Error,
             "t.mgraph:15:43: layers[0].machine.transitions[0].when: \"is\" tests bool parameters, but \"speed\" is float");
  expect_one(check(with_when(R"({ "trigger": "grounded" })")), Severity::Error,
             "t.mgraph:15:43: layers[0].machine.transitions[0].when: \"grounded\" is bool, not a trigger");
  const std::string blend = R"({ "entry": "b", "states": [{ "name": "b", "speedParam": "count", "blend1d": { "param": "jump", "members": [
    { "clip": "idle", "at": 0 }] } }] })";
  const std::vector<Finding> f = check(graph_with(blend));
  ASSERT_EQ(f.size(), 2u) << all(f);
  EXPECT_EQ(f[0].error.to_string(),
            "t.mgraph:14:45: layers[0].machine.states[0].speedParam: speedParam needs a float parameter, but "
            "\"count\" is int");
  EXPECT_EQ(f[1].error.to_string(),
            "t.mgraph:14:94: layers[0].machine.states[0].blend1d.param: the blend space's param needs a float or int "
            "parameter, but \"jump\" is trigger");
}

TEST(GraphCheck, ContradictoryConditionsNeverFire) {
  const std::string prefix = "t.mgraph:15:43: layers[0].machine.transitions[0].when: transition never fires: ";
  expect_one(check(with_when(R"({ "and": [{ "param": "speed", "op": ">", "value": 3 }, { "param": "speed", "op": "<", "value": 2 }] })")),
             Severity::Warning, prefix + "its condition is never true (the tests of \"speed\" contradict each other)");
  expect_one(check(with_when(R"({ "param": "count", "op": "==", "value": 1.5 })")), Severity::Warning,
             prefix + "its condition is never true (int \"count\" can never equal 1.5)");
  expect_one(check(with_when(R"({ "and": [{ "param": "grounded", "is": true }, { "and": [{ "param": "grounded", "is": false }] }] })")),
             Severity::Warning, prefix + "its condition is never true (bool \"grounded\" is tested both true and false)");
  // Integers: 1 < count < 2 has no whole number.
  expect_one(check(with_when(R"({ "and": [{ "param": "count", "op": ">", "value": 1 }, { "param": "count", "op": "<", "value": 2 }] })")),
             Severity::Warning, prefix + "its condition is never true (the tests of \"count\" contradict each other)");
  // Satisfiable look-alikes stay quiet.
  EXPECT_EQ(all(check(with_when(R"({ "and": [{ "param": "speed", "op": ">=", "value": 2 }, { "param": "speed", "op": "<=", "value": 2 }] })"))), "");
  EXPECT_EQ(all(check(with_when(R"({ "or": [{ "param": "speed", "op": ">", "value": 3 }, { "param": "speed", "op": "<", "value": 2 }] })"))), "");
  EXPECT_EQ(all(check(with_when(R"({ "and": [{ "param": "count", "op": ">", "value": 1.5 }, { "param": "count", "op": "<", "value": 2.5 }] })"))), "");
}

TEST(GraphCheck, UnreachableStatesAndTheirTransitions) {
  const std::string m = R"({ "entry": "idle", "states": [{ "name": "idle", "clip": "idle" }, { "name": "walk", "clip": "walk" },
    { "name": "run", "clip": "run" }, { "name": "jump", "clip": "jump" }], "transitions": [
    { "from": "idle", "to": "walk", "when": { "param": "speed", "op": ">", "value": 0.1 } },
    { "from": "*", "to": "jump", "when": { "trigger": "jump" } },
    { "from": "run", "to": "idle", "exitTime": 1 }
  ] })";
  const std::vector<Finding> f = check(graph_with(m));
  ASSERT_EQ(f.size(), 2u) << all(f);
  EXPECT_EQ(f[0].severity, Severity::Warning);
  EXPECT_EQ(f[0].error.to_string(),
            "t.mgraph:15:5: layers[0].machine.states[2]: state \"run\" is unreachable: no transitions lead to it from "
            "the entry \"idle\"");
  EXPECT_EQ(f[1].error.to_string(),
            "t.mgraph:18:5: layers[0].machine.transitions[2]: transition never fires: its source state \"run\" is "
            "unreachable");
}

TEST(GraphCheck, ShadowedByAnEarlierUnconditionalTransition) {
  const std::string m = R"({ "entry": "idle", "states": [{ "name": "idle", "clip": "idle" }, { "name": "walk", "clip": "walk" }], "transitions": [
    { "from": "idle", "to": "walk", "when": { "param": "speed", "op": ">", "value": 0.1 }, "priority": 1 },
    { "from": "idle", "to": "walk" },
    { "from": "walk", "to": "idle", "exitTime": 0.5 },
    { "from": "walk", "to": "idle", "when": { "param": "speed", "op": "<", "value": 0.1 } }
  ] })";
  expect_one(check(graph_with(m)), Severity::Warning,
             "t.mgraph:15:5: layers[0].machine.transitions[0]: transition never fires: the transition \"idle\" -> "
             "\"walk\" (layers[0].machine.transitions[1]) is tested before it and always fires");
}

TEST(GraphCheck, BlendSpaceGeometry) {
  const std::string line = R"({ "entry": "b", "states": [{ "name": "b", "blend2d": { "params": ["speed", "count"], "members": [
    { "clip": "idle", "at": [0, 0] }, { "clip": "walk", "at": [1, 1] }, { "clip": "run", "at": [2, 2] }] } }] })";
  expect_one(check(graph_with(line)), Severity::Error,
             "t.mgraph:14:71: layers[0].machine.states[0].blend2d.members: the 2D blend space cannot be triangulated: "
             "all 3 points lie on one line");
  const std::string two = R"({ "entry": "b", "states": [{ "name": "b", "blend2d": { "params": ["speed", "count"], "members": [
    { "clip": "idle", "at": [0, 0] }, { "clip": "walk", "at": [1, 1] }] } }] })";
  expect_one(check(graph_with(two)), Severity::Error,
             "t.mgraph:14:71: layers[0].machine.states[0].blend2d.members: the 2D blend space cannot be triangulated: "
             "a triangulation needs at least 3 points, found 2");
  const std::string same = R"({ "entry": "b", "states": [{ "name": "b", "blend1d": { "param": "speed", "members": [
    { "clip": "idle", "at": 0 }, { "clip": "walk", "at": 0 }] } }] })";
  expect_one(check(graph_with(same)), Severity::Error,
             "t.mgraph:15:34: layers[0].machine.states[0].blend1d.members[1]: members 0 and 1 are both at 0");
}

TEST(GraphCheck, NestedMachinesAreCheckedInTheirOwnScope) {
  const std::string m = R"({ "entry": "ground", "states": [{ "name": "ground", "clip": "idle" },
    { "name": "air", "machine": { "entry": "rise", "states": [{ "name": "rise", "clip": "jump" }, { "name": "ground", "clip": "fly" }],
      "transitions": [{ "from": "rise", "to": "exit", "exitTime": 1 }, { "from": "rise", "to": "idle" }] } }],
    "transitions": [{ "from": "ground", "to": "air", "when": { "trigger": "jump" } }, { "from": "air", "to": "ground" }] })";
  const std::vector<Finding> f = check(graph_with(m));
  ASSERT_EQ(f.size(), 3u) << all(f);
  EXPECT_EQ(f[0].error.to_string(),
            "t.mgraph:15:99: layers[0].machine.states[1].machine.states[1].clip: unknown clip \"fly\"; rig.mskel has: "
            "idle, jump, run, walk");
  EXPECT_EQ(f[1].error.to_string(),
            "t.mgraph:16:72: layers[0].machine.states[1].machine.transitions[1].to: unknown state \"idle\"; the "
            "machine has: rise, ground");
  EXPECT_EQ(f[2].severity, Severity::Warning);
  EXPECT_EQ(f[2].error.path, "layers[0].machine.states[1].machine.states[1]");
}

}  // namespace
}  // namespace mf::offline
