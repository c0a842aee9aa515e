// Delaunay triangulation, the .mgraph compiler (indices, contiguous machines, sorted transitions,
// flattened conditions, sorted 1D members, triangulated 2D spaces) and the graph binary (round trip,
// truncated and corrupt bytes).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <string>

#include "mf/anim/graph_binary.hpp"
#include "mf/offline/mesh/delaunay.hpp"
#include "mf/offline/graph/graph_compiler.hpp"
#include "mf/offline/graph/graph_format.hpp"

namespace mf::offline {
namespace {

using anim::AnimationGraph;

// Points closer to a circumcircle than this (relative to the squared radius) count as on it.
constexpr double kCircleTolerance = 1e-9;

// Every triangle counter-clockwise, no point strictly inside any triangle's circumcircle, the triangles
// tile the hull (their areas sum to the hull's area) and every point is used.
void expect_delaunay(const std::vector<Vec2d>& p, const Triangulation& t) {
  double area = 0;
  std::set<std::uint32_t> used;
  for (const auto& tri : t.triangles) {
    const Vec2d a = p[tri[0]], b = p[tri[1]], c = p[tri[2]];
    const double o = orient2d(a, b, c);
    EXPECT_GT(o, 0) << "triangle " << tri[0] << " " << tri[1] << " " << tri[2] << " is not counter-clockwise";
    area += o / 2;
    used.insert(tri.begin(), tri.end());
    // Circumcentre and radius.
    const double d = 2 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y));
    const double a2 = a.x * a.x + a.y * a.y, b2 = b.x * b.x + b.y * b.y, c2 = c.x * c.x + c.y * c.y;
    const double ux = (a2 * (b.y - c.y) + b2 * (c.y - a.y) + c2 * (a.y - b.y)) / d;
    const double uy = (a2 * (c.x - b.x) + b2 * (a.x - c.x) + c2 * (b.x - a.x)) / d;
    const double r2 = (a.x - ux) * (a.x - ux) + (a.y - uy) * (a.y - uy);
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double d2 = (p[i].x - ux) * (p[i].x - ux) + (p[i].y - uy) * (p[i].y - uy);
      EXPECT_GE(d2, r2 * (1 - kCircleTolerance)) << "point " << i << " inside the circumcircle of " << tri[0] << " "
                                                 << tri[1] << " " << tri[2];
    }
  }
  double hull_area = 0;
  for (const auto& e : t.hull) hull_area += (p[e[0]].x * p[e[1]].y - p[e[1]].x * p[e[0]].y) / 2;
  EXPECT_GT(hull_area, 0) << "hull is not counter-clockwise";
  EXPECT_NEAR(area, hull_area, 1e-9 * std::max(1.0, hull_area));
  EXPECT_EQ(used.size(), p.size());
  // Hull edges chain: each edge starts where the previous one ended.
  for (std::size_t i = 0; i < t.hull.size(); ++i) EXPECT_EQ(t.hull[i][1], t.hull[(i + 1) % t.hull.size()][0]);
}

TEST(Delaunay, SquareWithCentreGivesFourTriangles) {
  const std::vector<Vec2d> p = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0.5, 0.5}};
  Expected<Triangulation> t = delaunay_triangulate(p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  using T = std::array<std::uint32_t, 3>;
  EXPECT_EQ(t->triangles, (std::vector<T>{{0, 1, 4}, {0, 4, 3}, {1, 2, 4}, {2, 3, 4}}));
  using E = std::array<std::uint32_t, 2>;
  EXPECT_EQ(t->hull, (std::vector<E>{{0, 1}, {1, 2}, {2, 3}, {3, 0}}));
  expect_delaunay(p, *t);
}

TEST(Delaunay, FlipsToTheEmptyCircumcircle) {
  // A thin quad: the sweep makes the long diagonal first; the flip must pick the short one.
  const std::vector<Vec2d> p = {{0, 0}, {2, -0.3}, {2, 0.3}, {4, 0}};
  Expected<Triangulation> t = delaunay_triangulate(p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->triangles.size(), 2u);
  for (const auto& tri : t->triangles) {
    EXPECT_TRUE(std::count(tri.begin(), tri.end(), 1u) == 1 && std::count(tri.begin(), tri.end(), 2u) == 1);
  }
  expect_delaunay(p, *t);
}

TEST(Delaunay, CollinearRunsAndHullPoints) {
  // Five points on the x axis and one above: a fan; the axis points stay hull vertices.
  const std::vector<Vec2d> p = {{0, 0}, {3, 0}, {1, 0}, {4, 0}, {2, 0}, {2, 2}};
  Expected<Triangulation> t = delaunay_triangulate(p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->triangles.size(), 4u);
  EXPECT_EQ(t->hull.size(), 6u);
  expect_delaunay(p, *t);
}

TEST(Delaunay, RandomAndGridSetsAreDelaunayAndDeterministic) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-10, 10);
  std::vector<Vec2d> random;
  for (int i = 0; i < 60; ++i) random.push_back({u(rng), u(rng)});
  std::vector<Vec2d> grid;  // many cocircular quadruples
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 5; ++x) grid.push_back({double(x), double(y)});
  for (const auto* set : {&random, &grid}) {
    Expected<Triangulation> a = delaunay_triangulate(*set);
    Expected<Triangulation> b = delaunay_triangulate(*set);
    ASSERT_TRUE(a.ok()) << a.error().message;
    expect_delaunay(*set, *a);
    EXPECT_EQ(a->triangles, b->triangles);
    EXPECT_EQ(a->hull, b->hull);
  }
  // Euler: a triangulation of n points with h on the hull has 2n − h − 2 triangles.
  Expected<Triangulation> g = delaunay_triangulate(grid);
  EXPECT_EQ(g->triangles.size(), 2 * 25 - 16 - 2u);
}

TEST(Delaunay, DegenerateSetsAreClearErrors) {
  const std::vector<Vec2d> two = {{0, 0}, {1, 1}};
  EXPECT_EQ(delaunay_triangulate(two).error().message, "a triangulation needs at least 3 points, found 2");
  const std::vector<Vec2d> line = {{0, 0}, {1, 1}, {3, 3}, {2, 2}};
  EXPECT_EQ(delaunay_triangulate(line).error().message, "all 4 points lie on one line; a triangulation needs area");
  const std::vector<Vec2d> dup = {{0, 0}, {1, 0}, {0, 1}, {1, 0}};
  EXPECT_EQ(delaunay_triangulate(dup).error().message, "points 1 (1, 0) and 3 (1, 0) are at the same place");
  const std::vector<Vec2d> nan = {{0, 0}, {1, 0}, {0, std::nan("")}};
  EXPECT_FALSE(delaunay_triangulate(nan).ok());
}

const std::string kGraph = R"({
  "format": 1,
  "uid": "agr_0123456789ab",
  "type": "AnimationGraph",
  "parameters": [
    { "name": "speed", "type": "float" },
    { "name": "jump", "type": "trigger" },
    { "name": "grounded", "type": "bool", "default": true },
    { "name": "vx", "type": "float" },
    { "name": "vy", "type": "int" }
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
                { "clip": "run", "at": 3 },
                { "clip": "idle", "at": 0 },
                { "clip": "walk", "at": 1, "speed": 1.5 }
              ]
            },
            "speedParam": "speed"
          },
          {
            "name": "air",
            "machine": {
              "entry": "rise",
              "states": [
                { "name": "rise", "clip": "jump", "loop": false },
                { "name": "fall", "clip": "fall" }
              ],
              "transitions": [
                { "from": "rise", "to": "fall", "exitTime": 1 },
                { "from": "fall", "to": "exit", "when": { "param": "grounded", "is": true } }
              ]
            }
          },
          {
            "name": "strafe",
            "blend2d": {
              "params": ["vx", "vy"],
              "members": [
                { "clip": "a", "at": [0, 0] },
                { "clip": "b", "at": [1, 0] },
                { "clip": "c", "at": [1, 1] },
                { "clip": "d", "at": [0, 1] },
                { "clip": "e", "at": [0.5, 0.5] }
              ]
            }
          }
        ],
        "transitions": [
          { "from": "air", "to": "move", "priority": 5 },
          { "from": "move", "to": "strafe", "when": { "and": [{ "param": "speed", "op": ">", "value": 0.5 }, { "or": [{ "param": "vx", "op": "<", "value": -1 }, { "param": "vy", "op": "==", "value": 2 }] }] }, "exitTime": 0.5 },
          { "from": "*", "to": "air", "when": { "trigger": "jump" }, "duration": 0.1, "priority": -1, "interruptible": false },
          { "from": "strafe", "to": "move", "priority": 5 }
        ]
      }
    },
    {
      "name": "top",
      "weight": 0.5,
      "blend": "additive",
      "mask": ["chest"],
      "machine": {
        "entry": "idle",
        "states": [
          { "name": "idle", "clip": "idle" }
        ]
      }
    }
  ]
}
)";

AnimationGraph compiled() {
  Expected<GraphSource> g = read_graph(kGraph, "g.mgraph");
  EXPECT_TRUE(g.ok()) << g.error().to_string();
  Expected<AnimationGraph> c = compile_graph(*g, "g.mgraph", "g");
  EXPECT_TRUE(c.ok()) << c.error().to_string();
  return *c;
}

TEST(GraphCompiler, MachinesAndStatesAreFlattenedContiguously) {
  const AnimationGraph g = compiled();
  EXPECT_EQ(g.uid, "agr_0123456789ab");
  EXPECT_EQ(g.name, "g");
  ASSERT_EQ(g.layers.size(), 2u);
  ASSERT_EQ(g.machines.size(), 3u);
  // base machine, its nested "air" machine, then the top layer's machine.
  EXPECT_EQ(g.layers[0].machine, 0);
  EXPECT_EQ(g.layers[1].machine, 2);
  EXPECT_EQ(g.layers[1].weight, 0.5f);
  EXPECT_EQ(g.layers[1].blend, anim::ClipBlend::Additive);
  EXPECT_EQ(g.layers[1].mask_bones, (std::vector<std::string>{"chest"}));
  const anim::StateMachine& base = g.machines[0];
  EXPECT_EQ(base.state_first, 0u);
  EXPECT_EQ(base.state_count, 3u);
  EXPECT_EQ(base.entry, 0);
  const anim::StateMachine& air = g.machines[1];
  EXPECT_EQ(air.name, "air");
  EXPECT_EQ(air.state_first, 3u);
  EXPECT_EQ(air.state_count, 2u);
  EXPECT_EQ(air.entry, 3);
  EXPECT_EQ(g.machines[2].state_first, 5u);
  ASSERT_EQ(g.states.size(), 6u);
  EXPECT_EQ(g.states[1].kind, anim::StateKind::Machine);
  EXPECT_EQ(g.states[1].machine, 1);
  EXPECT_EQ(g.states[3].name, "rise");
  EXPECT_FALSE(g.states[3].loop);
  EXPECT_EQ(g.states[0].speed_param, 0);
}

TEST(GraphCompiler, TransitionsSortedByPriorityStableWithResolvedIndices) {
  const AnimationGraph g = compiled();
  const anim::StateMachine& base = g.machines[0];
  ASSERT_EQ(base.transition_count, 4u);
  const anim::Transition* t = &g.transitions[base.transition_first];
  // priorities -1, 0, 5, 5 (the two 5s in file order).
  EXPECT_EQ(t[0].from, anim::kAnyState);
  EXPECT_EQ(t[0].to, 1);
  EXPECT_EQ(t[0].priority, -1);
  EXPECT_FALSE(t[0].interruptible);
  EXPECT_EQ(t[0].duration, 0.1f);
  EXPECT_EQ(t[1].from, 0);
  EXPECT_EQ(t[1].to, 2);
  EXPECT_TRUE(t[1].has_exit_time);
  EXPECT_EQ(t[1].exit_time, 0.5f);
  EXPECT_EQ(t[2].from, 1);
  EXPECT_EQ(t[2].to, 0);
  EXPECT_EQ(t[2].condition, -1);
  EXPECT_EQ(t[3].from, 2);
  const anim::StateMachine& air = g.machines[1];
  ASSERT_EQ(air.transition_count, 2u);
  EXPECT_EQ(g.transitions[air.transition_first + 1].to, anim::kExitState);
  EXPECT_EQ(g.transitions[air.transition_first + 1].from, 4);
}

TEST(GraphCompiler, ConditionTreesAreFlattened) {
  const AnimationGraph g = compiled();
  const anim::Transition& t = g.transitions[g.machines[0].transition_first + 1];
  ASSERT_GE(t.condition, 0);
  const anim::ConditionNode& root = g.conditions[static_cast<std::size_t>(t.condition)];
  ASSERT_EQ(root.kind, anim::ConditionKind::And);
  ASSERT_EQ(root.child_count, 2u);
  const anim::ConditionNode& speed = g.conditions[g.condition_children[root.first_child]];
  EXPECT_EQ(speed.kind, anim::ConditionKind::Leaf);
  EXPECT_EQ(speed.op, anim::ConditionOp::Greater);
  EXPECT_EQ(speed.param, 0);
  EXPECT_EQ(speed.value, 0.5f);
  const anim::ConditionNode& any = g.conditions[g.condition_children[root.first_child + 1]];
  ASSERT_EQ(any.kind, anim::ConditionKind::Or);
  ASSERT_EQ(any.child_count, 2u);
  const anim::ConditionNode& vy = g.conditions[g.condition_children[any.first_child + 1]];
  EXPECT_EQ(vy.op, anim::ConditionOp::Equal);
  EXPECT_EQ(vy.param, 4);
  EXPECT_EQ(vy.value, 2.0f);
  const anim::Transition& jump = g.transitions[g.machines[0].transition_first];
  const anim::ConditionNode& trigger = g.conditions[static_cast<std::size_t>(jump.condition)];
  EXPECT_EQ(trigger.op, anim::ConditionOp::IsSet);
  EXPECT_EQ(trigger.param, 1);
}

TEST(GraphCompiler, BlendSpaces) {
  const AnimationGraph g = compiled();
  const anim::GraphState& move = g.states[0];
  ASSERT_EQ(move.kind, anim::StateKind::BlendSpace1D);
  EXPECT_EQ(move.param_x, 0);
  ASSERT_EQ(move.member_count, 3u);
  EXPECT_EQ(g.members[move.member_first].clip, "idle");
  EXPECT_EQ(g.members[move.member_first + 1].clip, "walk");
  EXPECT_EQ(g.members[move.member_first + 1].speed, 1.5f);
  EXPECT_EQ(g.members[move.member_first + 2].clip, "run");
  const anim::GraphState& strafe = g.states[2];
  ASSERT_EQ(strafe.kind, anim::StateKind::BlendSpace2D);
  EXPECT_EQ(strafe.param_x, 3);
  EXPECT_EQ(strafe.param_y, 4);
  ASSERT_EQ(strafe.member_count, 5u);
  ASSERT_EQ(strafe.triangle_count, 4u);
  ASSERT_EQ(strafe.hull_count, 4u);
  std::vector<Vec2d> p;
  Triangulation t;
  for (std::uint32_t i = 0; i < strafe.member_count; ++i) {
    const anim::BlendMember& m = g.members[strafe.member_first + i];
    p.push_back({m.x, m.y});
  }
  for (std::uint32_t i = 0; i < strafe.triangle_count; ++i) {
    const anim::Triangle& tri = g.triangles[strafe.triangle_first + i];
    t.triangles.push_back({tri.a, tri.b, tri.c});
    EXPECT_TRUE(tri.a == 4 || tri.b == 4 || tri.c == 4) << "every triangle uses the centre";
  }
  for (std::uint32_t i = 0; i < strafe.hull_count; ++i) {
    const anim::HullEdge& e = g.hull_edges[strafe.hull_first + i];
    t.hull.push_back({e.a, e.b});
  }
  expect_delaunay(p, t);
}

TEST(GraphCompiler, CheckErrorsStopCompilation) {
  std::string text = kGraph;
  text.replace(text.find("\"entry\": \"move\""), 15, "\"entry\": \"nope\"");
  Expected<GraphSource> g = read_graph(text, "g.mgraph");
  ASSERT_TRUE(g.ok());
  Expected<AnimationGraph> c = compile_graph(*g, "g.mgraph", "g");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().to_string().substr(0, 36), "g.mgraph:15:18: layers[0].machine.en");
}

TEST(GraphCompiler, CompilesTheExampleFile) {
  Expected<AnimationGraph> g = compile_graph_file(MF_EXAMPLES_DIR "/mannequin/locomotion.mgraph");
  ASSERT_TRUE(g.ok()) << g.error().to_string();
  EXPECT_EQ(g->name, "locomotion");
  EXPECT_EQ(g->layers.size(), 2u);
  EXPECT_EQ(g->validate(), "");
}

// ---- binary ----

TEST(GraphBinary, RoundTripGivesTheSameGraph) {
  const AnimationGraph g = compiled();
  ASSERT_EQ(g.validate(), "");
  const std::vector<std::uint8_t> bytes = write_graph_binary(g);
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "MFGR");
  EXPECT_EQ(bytes[4], anim::kGraphBinaryVersion);
  Expected<AnimationGraph> back = anim::load_graph_binary(bytes, "g.mgbuild");
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  // Every field is written, so equal bytes mean equal graphs; spot-check a few fields too.
  EXPECT_EQ(write_graph_binary(*back), bytes);
  EXPECT_EQ(back->states.size(), g.states.size());
  EXPECT_EQ(back->states[2].triangle_count, 4u);
  EXPECT_EQ(back->members[1].speed, 1.5f);
  EXPECT_EQ(back->params[2].default_value, 1.0f);
  EXPECT_EQ(back->layers[1].mask_bones, g.layers[1].mask_bones);
  EXPECT_EQ(back->transitions[0].from, anim::kAnyState);
}

TEST(GraphBinary, EveryTruncationIsAnErrorNotACrash) {
  const std::vector<std::uint8_t> bytes = write_graph_binary(compiled());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    Expected<AnimationGraph> g = anim::load_graph_binary(std::span(bytes.data(), n), "t.mgbuild");
    ASSERT_FALSE(g.ok()) << "a prefix of " << n << " bytes loaded";
    EXPECT_EQ(g.error().file, "t.mgbuild");
  }
  std::vector<std::uint8_t> longer = bytes;
  longer.push_back(0);
  Expected<AnimationGraph> g = anim::load_graph_binary(longer, "t.mgbuild");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message.find("1 unexpected bytes after the graph"), std::string::npos) << g.error().message;
}

TEST(GraphBinary, CorruptHeadersAndCountsAreErrors) {
  const std::vector<std::uint8_t> bytes = write_graph_binary(compiled());
  std::vector<std::uint8_t> magic = bytes;
  magic[0] = 'X';
  EXPECT_EQ(anim::load_graph_binary(magic, "c").error().message,
            "not an animation graph binary (the file does not start with \"MFGR\")");
  std::vector<std::uint8_t> version = bytes;
  version[4] = 9;
  EXPECT_EQ(anim::load_graph_binary(version, "c").error().message,
            "unsupported graph binary version 9; this build reads 1");
  // A huge parameter count right after uid and name: rejected before allocating.
  std::vector<std::uint8_t> count = bytes;
  const std::size_t at = 8 + 4 + 16 + 4 + 1;  // magic, version, uid "agr_…" (16), name "g" (1)
  count[at] = count[at + 1] = count[at + 2] = count[at + 3] = 0xff;
  const std::string message = anim::load_graph_binary(count, "c").error().message;
  EXPECT_NE(message.find("4294967295 parameters need at least"), std::string::npos) << message;
  EXPECT_EQ(message.substr(0, 11), "at byte 33:");
}

TEST(GraphBinary, EveryByteFlipIsHandled) {
  // Each corrupted copy either loads into a graph that validates or is refused with an error.
  const std::vector<std::uint8_t> bytes = write_graph_binary(compiled());
  for (std::size_t i = 8; i < bytes.size(); ++i)
    for (std::uint8_t flip : {std::uint8_t(0x01), std::uint8_t(0x80), std::uint8_t(0xff)}) {
      std::vector<std::uint8_t> copy = bytes;
      copy[i] ^= flip;
      Expected<AnimationGraph> g = anim::load_graph_binary(copy, "f");
      if (g.ok()) {
        EXPECT_EQ(g->validate(), "");
      }
    }
}

}  // namespace
}  // namespace mf::offline
