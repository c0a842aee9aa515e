// The plain-model edits under the commands: list patches, draw-order keys in both forms, unique
// names, and the deletion of references that clips hold.

#include <gtest/gtest.h>

#include <random>

#include "mf/editor/core/model/clip_references.hpp"
#include "mf/editor/core/model/draw_order_keys.hpp"
#include "mf/editor/core/model/names.hpp"
#include "mf/editor/core/model/vector_patch.hpp"

namespace mf::editor {
namespace {

TEST(VectorPatch, KeepsOnlyTheChangedRunAndAppliesBothWays) {
  const std::vector<int> a = {1, 2, 3, 4, 5, 6};
  const std::vector<int> b = {1, 2, 9, 9, 9, 5, 6};
  const VectorPatch<int> p = VectorPatch<int>::diff(a, b);
  EXPECT_TRUE(p.changed);
  EXPECT_EQ(p.at, 2u);
  EXPECT_EQ(p.before, (std::vector<int>{3, 4}));
  EXPECT_EQ(p.after, (std::vector<int>{9, 9, 9}));
  std::vector<int> v = a;
  p.apply(v, true);
  EXPECT_EQ(v, b);
  p.apply(v, false);
  EXPECT_EQ(v, a);
  EXPECT_FALSE(VectorPatch<int>::diff(a, a).changed);
  // Random lists, including repeated values where prefix and suffix could overlap.
  std::mt19937 rng(5);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<int> x(rng() % 8), y(rng() % 8);
    for (int& e : x) e = static_cast<int>(rng() % 3);
    for (int& e : y) e = static_cast<int>(rng() % 3);
    const VectorPatch<int> q = VectorPatch<int>::diff(x, y);
    std::vector<int> z = x;
    q.apply(z, true);
    ASSERT_EQ(z, y);
    q.apply(z, false);
    ASSERT_EQ(z, x);
  }
}

TEST(DrawOrderKeys, MovesAndOrdersRoundTrip) {
  const std::vector<std::string> setup = {"a", "b", "c", "d", "e", "f"};
  EXPECT_EQ(draw_order_of(setup, {{"f", -5}, {"b", 2}}), (std::vector<std::string>{"f", "a", "c", "b", "d", "e"}));
  EXPECT_EQ(draw_order_of(setup, {}), setup);
  EXPECT_TRUE(moves_for(setup, setup).empty());
  // One slot moved is one move.
  const std::vector<std::string> one = {"a", "c", "d", "b", "e", "f"};
  EXPECT_EQ(moves_for(setup, one), (std::vector<offline::DrawOrderMove>{{"b", 2}}));
  // Every permutation of five slots: the moves give the order back, and the slots left unmoved are
  // as many as a longest run in setup order allows.
  std::vector<std::string> order = {"a", "b", "c", "d", "e"};
  const std::vector<std::string> five = order;
  do {
    const std::vector<offline::DrawOrderMove> moves = moves_for(five, order);
    ASSERT_EQ(draw_order_of(five, moves), order);
    std::size_t longest = 0;  // longest increasing run, by brute force over subsets
    for (unsigned mask = 0; mask < 32; ++mask) {
      int last = -1;
      bool increasing = true;
      std::size_t n = 0;
      for (std::size_t p = 0; p < 5; ++p)
        if (mask & (1u << p)) {
          const int idx = order[p][0] - 'a';
          increasing = increasing && idx > last;
          last = idx;
          ++n;
        }
      if (increasing) longest = std::max(longest, n);
    }
    EXPECT_EQ(moves.size(), 5 - longest);
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(Names, UniqueNamesCountOn) {
  const std::vector<std::string> taken = {"bone", "bone2", "arm", "arm3", "7"};
  const auto is_taken = [&](std::string_view n) { return std::find(taken.begin(), taken.end(), n) != taken.end(); };
  EXPECT_EQ(unique_name("leg", is_taken), "leg");
  EXPECT_EQ(unique_name("bone", is_taken), "bone3");
  EXPECT_EQ(unique_name("bone2", is_taken), "bone3");
  EXPECT_EQ(unique_name("arm", is_taken), "arm2");
  EXPECT_EQ(unique_name("7", is_taken), "72");
  EXPECT_EQ(unique_name("", is_taken), "unnamed");
  EXPECT_FALSE(check_name("bone", "", "", is_taken));
  EXPECT_FALSE(check_name("bone", "arm", "", is_taken));
  EXPECT_TRUE(check_name("bone", "arm", "arm", is_taken));  // its own name
}

TEST(ClipReferences, AttachmentKeysAndEvents) {
  offline::ClipSource clip;
  clip.attachments.push_back({"hand", {0, 1, 2}, {std::string("fist"), std::nullopt, std::string("open")}});
  clip.attachments.push_back({"head", {0}, {std::string("fist")}});
  remove_attachment_keys(clip, "hand", "fist");
  ASSERT_EQ(clip.attachments.size(), 2u);
  EXPECT_EQ(clip.attachments[0].times, (std::vector<float>{1, 2}));
  remove_attachment_keys(clip, "head", "fist");
  EXPECT_EQ(clip.attachments.size(), 1u);  // a timeline without keys goes
  clip.events.times = {0, 0.5f, 1};
  clip.events.keys = {{"step"}, {"jump"}, {"step"}};
  rename_event(clip, "step", "stomp");
  EXPECT_EQ(clip.events.keys[2].name, "stomp");
  remove_event(clip, "stomp");
  EXPECT_EQ(clip.events.times, std::vector<float>{0.5f});
}

}  // namespace
}  // namespace mf::editor
