// The widget registry: full paths, shorter paths that keep the window and the label, ambiguity and
// absence as errors that say what to do, lookups seeing the last finished frame only, reveal
// requests taken once, and the scroll flag.

#include <gtest/gtest.h>

#include "widget_registry.hpp"

namespace mf::editor {
namespace {

const ScreenRect kRect{{10, 20}, {100, 16}};

void record_tree(WidgetRegistry& r) {
  r.begin_frame();
  r.push("Hierarchy");
  r.add("root", kRect, kRect);
  r.push("root");
  r.add("hips", {{20, 40}, {80, 16}}, {{20, 40}, {80, 16}});
  r.push("hips");
  r.add("gun", {{30, 60}, {70, 16}}, {{30, 60}, {70, 16}});  // a bone
  r.push("gun");
  r.add("gun", {{40, 80}, {60, 16}}, {});  // its slot, scrolled out of view
  r.pop();
  r.pop();
  r.pop();
  r.pop();
  r.push("Output");
  r.add("finding 1", kRect, kRect);
  r.pop();
  r.end_frame();
}

TEST(WidgetRegistry, FindsByFullOrShorterPath) {
  WidgetRegistry r;
  record_tree(r);
  auto hips = r.find("Hierarchy/root/hips");
  ASSERT_TRUE(hips) << hips.error().to_string();
  EXPECT_FLOAT_EQ(hips->rect.min.y, 40);
  auto short_hips = r.find("Hierarchy/hips");
  ASSERT_TRUE(short_hips) << short_hips.error().to_string();
  EXPECT_EQ(short_hips->path, "Hierarchy/root/hips");
  auto slot = r.find("Hierarchy/gun/gun");
  ASSERT_TRUE(slot);
  EXPECT_EQ(slot->path, "Hierarchy/root/hips/gun/gun");
  EXPECT_TRUE(slot->visible.empty());
  EXPECT_TRUE(r.find("Output/finding 1"));
}

TEST(WidgetRegistry, AmbiguousMissingAndMalformedPathsAreErrors) {
  WidgetRegistry r;
  record_tree(r);
  auto both = r.find("Hierarchy/gun");
  ASSERT_FALSE(both);
  EXPECT_NE(both.error().message.find("2 widgets match (Hierarchy/root/hips/gun, Hierarchy/root/hips/gun/gun)"), std::string::npos)
      << both.error().message;
  auto none = r.find("Hierarchy/spine");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no such widget in window \"Hierarchy\""), std::string::npos) << none.error().message;
  auto window = r.find("Timeline/spine");
  ASSERT_FALSE(window);
  EXPECT_NE(window.error().message.find("no window \"Timeline\""), std::string::npos);
  EXPECT_FALSE(r.find("hips"));
  EXPECT_FALSE(r.find("Hierarchy/root/hips/x")) << "a suffix must match whole labels";
}

TEST(WidgetRegistry, LookupsSeeTheLastFinishedFrame) {
  WidgetRegistry r;
  record_tree(r);
  r.begin_frame();
  r.push("Hierarchy");
  r.add("spine", kRect, kRect);
  EXPECT_FALSE(r.find("Hierarchy/spine")) << "still being recorded";
  EXPECT_TRUE(r.find("Hierarchy/hips"));
  r.pop();
  r.end_frame();
  EXPECT_TRUE(r.find("Hierarchy/spine"));
  EXPECT_FALSE(r.find("Hierarchy/hips"));
}

TEST(WidgetRegistry, RevealIsTakenOnceAndScrollsAreNoted) {
  WidgetRegistry r;
  r.request_reveal("Hierarchy/root/hips");
  EXPECT_FALSE(r.take_reveal("Hierarchy/root"));
  EXPECT_TRUE(r.take_reveal("Hierarchy/root/hips"));
  EXPECT_FALSE(r.take_reveal("Hierarchy/root/hips"));
  r.begin_frame();
  r.note_scroll();
  r.end_frame();
  EXPECT_TRUE(r.last_frame_scrolled());
  r.begin_frame();
  r.end_frame();
  EXPECT_FALSE(r.last_frame_scrolled());
}

}  // namespace
}  // namespace mf::editor
