// .mgraph reader and canonical writer: byte-identical round trips, every key read back, and each kind
// of reader error naming the file, line:column and JSON path.

#include <gtest/gtest.h>

#include <string>

#include "mf/core/file_io.hpp"
#include "mf/offline/graph/graph_format.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

const std::string kExample = MF_EXAMPLES_DIR "/mannequin/locomotion.mgraph";

// Canonical text using every key of the format with a value other than its default.
const std::string kFull = R"({
  "format": 1,
  "uid": "agr_0123456789ab",
  "type": "AnimationGraph",
  "skeleton": { "uid": "skl_5e1a7c93b20d", "path": "rig/mannequin.mskel" },
  "parameters": [
    { "name": "speed", "type": "float", "default": 0.5 },
    { "name": "lane", "type": "int", "default": -2 },
    { "name": "grounded", "type": "bool", "default": true },
    { "name": "jump", "type": "trigger" },
    { "name": "vx", "type": "float" },
    { "name": "vy", "type": "float" }
  ],
  "layers": [
    {
      "name": "base",
      "machine": {
        "entry": "move",
        "states": [
          {
            "name": "move",
            "blend1d": {
              "param": "speed",
              "members": [
                { "clip": "run", "at": 3, "speed": 1.25 },
                { "clip": "idle", "at": 0 }
              ]
            },
            "speedParam": "speed"
          },
          {
            "name": "strafe",
            "blend2d": {
              "params": ["vx", "vy"],
              "members": [
                { "clip": "idle", "at": [0, 0] },
                { "clip": "walk", "at": [1, 0] },
                { "clip": "run", "at": [0, 1] }
              ]
            },
            "speed": 2,
            "loop": false
          },
          {
            "name": "air",
            "machine": {
              "entry": "rise",
              "states": [
                { "name": "rise", "clip": "jump", "speed": 0.5, "loop": false }
              ],
              "transitions": [
                { "from": "rise", "to": "exit", "exitTime": 1 }
              ]
            }
          }
        ],
        "transitions": [
          { "from": "*", "to": "air", "when": { "trigger": "jump" }, "duration": 0.1, "priority": -1, "interruptible": false },
          { "from": "move", "to": "strafe", "when": { "and": [{ "param": "speed", "op": ">=", "value": 0.1 }, { "or": [{ "param": "grounded", "is": false }, { "param": "lane", "op": "!=", "value": 0 }] }] }, "duration": 0 },
          { "from": "air", "to": "move", "exitTime": 1.5, "priority": 2 }
        ]
      }
    },
    {
      "name": "upper",
      "weight": 0.25,
      "blend": "additive",
      "mask": ["chest", "head"],
      "machine": {
        "entry": "breathe",
        "states": [
          { "name": "breathe", "clip": "idle" }
        ]
      }
    }
  ]
}
)";

TEST(GraphFormat, FullDocumentRoundTripsByteForByte) {
  Expected<GraphSource> g = read_graph(kFull, "full.mgraph");
  ASSERT_TRUE(g.ok()) << g.error().to_string();
  EXPECT_EQ(write_graph(*g), kFull);
}

TEST(GraphFormat, ReadsEveryKey) {
  Expected<GraphSource> g = read_graph(kFull, "full.mgraph");
  ASSERT_TRUE(g.ok()) << g.error().to_string();
  EXPECT_EQ(g->uid, "agr_0123456789ab");
  EXPECT_EQ(g->skeleton_uid, "skl_5e1a7c93b20d");
  EXPECT_EQ(g->skeleton_path, "rig/mannequin.mskel");
  ASSERT_EQ(g->parameters.size(), 6u);
  EXPECT_EQ(g->parameters[1].type, anim::ParamType::Int);
  EXPECT_EQ(g->parameters[1].default_value, -2.0f);
  EXPECT_EQ(g->parameters[2].default_value, 1.0f);
  EXPECT_EQ(g->parameters[3].type, anim::ParamType::Trigger);
  ASSERT_EQ(g->layers.size(), 2u);
  const GraphLayerSource& upper = g->layers[1];
  EXPECT_EQ(upper.weight, 0.25f);
  EXPECT_EQ(upper.blend, anim::ClipBlend::Additive);
  EXPECT_EQ(upper.mask, (std::vector<std::string>{"chest", "head"}));
  const GraphMachine& m = g->layers[0].machine;
  ASSERT_EQ(m.states.size(), 3u);
  EXPECT_EQ(m.states[0].kind, GraphStateKind::Blend1D);
  EXPECT_EQ(m.states[0].speed_param, "speed");
  EXPECT_EQ(m.states[0].members[0].speed, 1.25f);
  EXPECT_EQ(m.states[1].kind, GraphStateKind::Blend2D);
  EXPECT_EQ(m.states[1].param_y, "vy");
  EXPECT_EQ(m.states[1].members[2].y, 1.0f);
  EXPECT_FALSE(m.states[1].loop);
  EXPECT_EQ(m.states[2].kind, GraphStateKind::Machine);
  EXPECT_EQ(m.states[2].machine.transitions[0].to, "exit");
  ASSERT_EQ(m.transitions.size(), 3u);
  const GraphTransition& any = m.transitions[0];
  EXPECT_EQ(any.from, "*");
  EXPECT_EQ(any.condition.form, ConditionForm::Trigger);
  EXPECT_EQ(any.priority, -1);
  EXPECT_FALSE(any.interruptible);
  EXPECT_FALSE(any.has_exit_time);
  const GraphCondition& c = m.transitions[1].condition;
  ASSERT_EQ(c.form, ConditionForm::And);
  EXPECT_EQ(c.children[0].op, anim::ConditionOp::GreaterEqual);
  EXPECT_EQ(c.children[0].value, 0.1f);
  EXPECT_EQ(c.children[1].form, ConditionForm::Or);
  EXPECT_EQ(c.children[1].children[0].op, anim::ConditionOp::IsFalse);
  EXPECT_EQ(c.children[1].children[1].op, anim::ConditionOp::NotEqual);
  EXPECT_EQ(m.transitions[1].duration, 0.0f);
  EXPECT_TRUE(m.transitions[2].has_exit_time);
  EXPECT_EQ(m.transitions[2].exit_time, 1.5f);
  // Sources point at the records.
  EXPECT_EQ(c.children[1].children[1].source.path, "layers[0].machine.transitions[1].when.and[1].or[1]");
  EXPECT_EQ(c.children[1].children[1].source.position.line, 59);
}

TEST(GraphFormat, ExampleIsCanonical) {
  Expected<std::string> text = read_file(kExample);
  ASSERT_TRUE(text.ok()) << text.error().to_string();
  Expected<GraphSource> g = read_graph(*text, kExample);
  ASSERT_TRUE(g.ok()) << g.error().to_string();
  EXPECT_EQ(write_graph(*g), *text);
}

TEST(GraphFormat, DefaultsAreOmittedAndCodeBuiltGraphsWrite) {
  GraphSource g;
  g.uid = "agr_00000000000a";
  GraphLayerSource layer;
  layer.name = "base";
  layer.machine.entry = "idle";
  GraphStateSource idle;
  idle.name = "idle";
  idle.clip = "idle";
  layer.machine.states.push_back(idle);
  g.layers.push_back(layer);
  const std::string text = write_graph(g);
  EXPECT_EQ(text, R"({
  "format": 1,
  "uid": "agr_00000000000a",
  "type": "AnimationGraph",
  "layers": [
    {
      "name": "base",
      "machine": {
        "entry": "idle",
        "states": [
          { "name": "idle", "clip": "idle" }
        ]
      }
    }
  ]
}
)");
  Expected<GraphSource> back = read_graph(text, "g.mgraph");
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(write_graph(*back), text);
}

TEST(GraphFormat, SaveWritesAtomicallyAndReadsBack) {
  mf::testing::TempDir dir("mf_graph_format");
  Expected<GraphSource> g = read_graph(kFull, "full.mgraph");
  ASSERT_TRUE(g.ok());
  const std::string path = dir.file("out.mgraph");
  ASSERT_TRUE(save_graph(*g, path).ok());
  Expected<std::string> text = read_file(path);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, kFull);
  // Only the file itself is left (the temporary was renamed over it).
  int files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 1);
}

// Replaces the first occurrence of `from` in kFull.
std::string edited(const std::string& from, const std::string& to) {
  std::string s = kFull;
  const std::size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

struct ErrorCase {
  std::string text;
  std::string expected;  // the whole error: file:line:col: path: message
};

TEST(GraphFormat, ErrorsNameFilePositionAndPath) {
  const ErrorCase cases[] = {
      {"{\"format\": 1,", "bad.mgraph:1:13: "},
      {edited("\"format\": 1", "\"format\": 2"),
       "bad.mgraph:2:13: format: unsupported format version 2; this build reads 1"},
      {edited("agr_0123456789ab", "agr_XYZ"),
       "bad.mgraph:3:10: uid: malformed uid \"agr_XYZ\"; expected \"agr_\" and 12 lower-case hex digits"},
      {edited("\"AnimationGraph\"", "\"Skeleton\""),
       "bad.mgraph:4:11: type: expected type \"AnimationGraph\", found \"Skeleton\""},
      {edited("\"format\": 1,", "\"format\": 1, \"format\": 1,"), "bad.mgraph:2:"},
      {edited("\"type\": \"int\"", "\"type\": \"long\""),
       "bad.mgraph:8:31: parameters[1].type: unknown parameter type \"long\"; expected float, int, bool or trigger"},
      {edited("\"default\": -2", "\"default\": 1.5"), "bad.mgraph:8:49: parameters[1].default: "},
      {edited("\"default\": true", "\"default\": 1"), "bad.mgraph:9:54: parameters[2].default: "},
      {edited("\"name\": \"base\",", "\"name\": \"base\", \"colour\": 1,"),
       "bad.mgraph:16:33: layers[0].colour: "},
      {edited("\"weight\": 0.25", "\"weight\": 1.5"),
       "bad.mgraph:66:17: layers[1].weight: must be between 0 and 1, found 1.5"},
      {edited("\"blend\": \"additive\"", "\"blend\": \"multiply\""),
       "bad.mgraph:67:16: layers[1].blend: unknown blend \"multiply\"; expected override or additive"},
      {edited("\"mask\": [\"chest\", \"head\"]", "\"mask\": [\"chest\", 3]"),
       "bad.mgraph:68:25: layers[1].mask[1]: "},
      {edited("\"clip\": \"jump\", \"speed\": 0.5", "\"speed\": 0.5"),
       "bad.mgraph:49:17: layers[0].machine.states[2].machine.states[0]: a state needs exactly one of clip, blend1d, "
       "blend2d, machine"},
      {edited("\"name\": \"strafe\"", "\"name\": \"exit\""),
       "bad.mgraph:32:21: layers[0].machine.states[1].name: \"exit\" is reserved for transitions; choose another "
       "state name"},
      {edited("\"speed\": 2,", "\"speed\": -2,"),
       "bad.mgraph:41:22: layers[0].machine.states[1].speed: must be zero or more, found -2"},
      {edited("\"params\": [\"vx\", \"vy\"]", "\"params\": [\"vx\"]"),
       "bad.mgraph:34:25: layers[0].machine.states[1].blend2d.params: must be [x parameter, y parameter]"},
      {edited("\"at\": [1, 0]", "\"at\": 1"),
       "bad.mgraph:37:41: layers[0].machine.states[1].blend2d.members[1].at: must be [x, y]"},
      {edited("\"entry\": \"move\",\n", ""), "bad.mgraph:17:18: layers[0].machine: "},
      {edited("\"to\": \"air\"", "\"to\": \"*\""),
       "bad.mgraph:58:32: layers[0].machine.transitions[0].to: \"*\" means any state and can only be a "
       "transition's \"from\""},
      {edited("\"op\": \">=\"", "\"op\": \"=>\""),
       "bad.mgraph:59:89: layers[0].machine.transitions[1].when.and[0].op: unknown operator \"=>\"; expected >, <, "
       ">=, <=, == or !="},
      {edited("{ \"param\": \"grounded\", \"is\": false }", "{ \"param\": \"grounded\" }"),
       "bad.mgraph:59:120: layers[0].machine.transitions[1].when.and[1].or[0]: a parameter test needs either "
       "\"op\" and \"value\", or \"is\""},
      {edited("{ \"trigger\": \"jump\" }", "{ \"trigger\": \"jump\", \"or\": [] }"),
       "bad.mgraph:58:47: layers[0].machine.transitions[0].when: a condition needs exactly one of and, or, param, "
       "trigger"},
      {edited("\"or\": [{", "\"or\": [], \"x\": [{"), "bad.mgraph:59:"},
      {edited("\"exitTime\": 1.5", "\"exitTime\": -1"),
       "bad.mgraph:60:54: layers[0].machine.transitions[2].exitTime: must be zero or more, found -1"},
      {edited("\"priority\": 2", "\"priority\": 2.5"), "bad.mgraph:60:71: layers[0].machine.transitions[2].priority: "},
      {edited("\"loop\": false }", "\"loop\": false, \"machine\": {} }"), "bad.mgraph:49:"},
  };
  for (const ErrorCase& c : cases) {
    Expected<GraphSource> g = read_graph(c.text, "bad.mgraph");
    ASSERT_FALSE(g.ok()) << "expected: " << c.expected;
    const std::string got = g.error().to_string();
    EXPECT_EQ(got.substr(0, c.expected.size()), c.expected) << got;
  }
}

TEST(GraphFormat, MissingFileIsAnError) {
  Expected<GraphSource> g = read_graph_file("/nonexistent/graph.mgraph");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().to_string().find("/nonexistent/graph.mgraph"), std::string::npos);
}

}  // namespace
}  // namespace mf::offline
