// Where a graph plays a clip (clip states and blend members, nested machines included), renaming those
// uses, and removing blend members: refused, changing nothing, when a state would lose its only clip or
// a blend space its last usable members.

#include <gtest/gtest.h>

#include "mf/offline/graph/graph_clip_refs.hpp"
#include "mf/offline/graph/graph_format.hpp"

namespace mf::offline {
namespace {

const char* kGraph = R"({
  "format": 1,
  "uid": "agr_0123456789ab",
  "type": "AnimationGraph",
  "parameters": [
    { "name": "x", "type": "float" },
    { "name": "y", "type": "float" }
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
              "param": "x",
              "members": [
                { "clip": "idle", "at": 0 },
                { "clip": "walk", "at": 1 }
              ]
            }
          },
          {
            "name": "air",
            "machine": {
              "entry": "fall",
              "states": [
                { "name": "fall", "clip": "fall" },
                {
                  "name": "aim",
                  "blend2d": {
                    "params": ["x", "y"],
                    "members": [
                      { "clip": "a", "at": [0, 0] },
                      { "clip": "b", "at": [1, 0] },
                      { "clip": "c", "at": [0, 1] },
                      { "clip": "walk", "at": [1, 1] }
                    ]
                  }
                }
              ]
            }
          }
        ]
      }
    }
  ]
}
)";

GraphSource graph() {
  auto g = read_graph(kGraph, "g.mgraph");
  EXPECT_TRUE(g.ok()) << g.error().to_string();
  return g.ok() ? *g : GraphSource{};
}

TEST(GraphClipRefs, FindsStatesAndMembersInNestedMachines) {
  const GraphSource g = graph();
  const std::vector<GraphClipRef> walk = find_clip_refs(g, "walk");
  ASSERT_EQ(walk.size(), 2u);
  EXPECT_EQ(walk[0].describe(), "member 1 of blend1d state \"move\" of layer \"base\"");
  EXPECT_EQ(walk[0].source.path, "layers[0].machine.states[0].blend1d.members[1]");
  EXPECT_EQ(walk[0].source.position.line, 21);
  EXPECT_EQ(walk[1].describe(), "member 3 of blend2d state \"air/aim\" of layer \"base\"");
  const std::vector<GraphClipRef> fall = find_clip_refs(g, "fall");
  ASSERT_EQ(fall.size(), 1u);
  EXPECT_EQ(fall[0].describe(), "state \"air/fall\" of layer \"base\"");
  EXPECT_TRUE(find_clip_refs(g, "run").empty());
}

TEST(GraphClipRefs, RenameChangesOnlyThoseNames) {
  GraphSource g = graph();
  EXPECT_EQ(rename_clip_refs(g, "walk", "stroll"), 2);
  EXPECT_TRUE(find_clip_refs(g, "walk").empty());
  std::string expected = kGraph;
  for (std::size_t at; (at = expected.find("\"walk\"")) != std::string::npos;) expected.replace(at, 6, "\"stroll\"");
  EXPECT_EQ(write_graph(g), expected);
}

TEST(GraphClipRefs, RemovesMembersWhileTheBlendSpacesStayUsable) {
  GraphSource g = graph();
  Expected<int> removed = remove_clip_members(g, "walk");
  ASSERT_TRUE(removed.ok()) << removed.error().to_string();
  EXPECT_EQ(*removed, 2);
  EXPECT_TRUE(find_clip_refs(g, "walk").empty());

  // A state's only clip, the last member of a 1D space, a 2D space left on one line: refused.
  const GraphSource kept = g;
  Expected<int> state = remove_clip_members(g, "fall");
  ASSERT_FALSE(state.ok());
  EXPECT_EQ(state.error().message, "state \"air/fall\" of layer \"base\" plays clip \"fall\" and would be left without a clip");
  EXPECT_EQ(state.error().path, "layers[0].machine.states[1].machine.states[0]");
  Expected<int> last = remove_clip_members(g, "idle");
  ASSERT_FALSE(last.ok());
  EXPECT_EQ(last.error().message,
            "blend1d state \"move\" of layer \"base\" would keep 0 members without clip \"idle\" (it needs at least one)");
  Expected<int> line = remove_clip_members(g, "c");
  ASSERT_FALSE(line.ok());
  EXPECT_NE(line.error().message.find("it needs 3 members not all on one line"), std::string::npos);
  EXPECT_EQ(write_graph(g), write_graph(kept));
}

}  // namespace
}  // namespace mf::offline
