// CanvasDrawer on lavapipe with validation: skeleton nodes drawn where their transforms put them, the
// cull result fed back to each node (so Offscreen modes see it), a skeleton walking back on screen
// drawn on its first visible frame, freed nodes' renderer state removed.

#include "mf/scene/draw/canvas_drawer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"
#include "render/test_device.hpp"

namespace mf::scene {
namespace {

constexpr int kSize = 256;

class CanvasDrawerTest : public render::testing::RenderTest {
 protected:
  void SetUp() override {
    RenderTest::SetUp();
    if (HasFatalFailure()) return;
    auto built = offline::build_rig_file(MF_EXAMPLES_DIR "/mannequin/mannequin.mskel");
    ASSERT_TRUE(built) << built.error().to_string();
    data = built->data;
    auto r = render::SkeletonRenderer::create(*device, *memory);
    ASSERT_TRUE(r) << r.error().to_string();
    renderer = std::move(*r);
    auto t = render::RenderTarget::create(*device, *memory, kSize, kSize);
    ASSERT_TRUE(t) << t.error().to_string();
    target = std::move(*t);
  }
  void TearDown() override {
    drawer.reset();
    renderer.reset();
    target.reset();
    RenderTest::TearDown();
  }

  Skeleton2D* add(const std::string& name, Vec2 position, const std::string& clip = "walk") {
    auto node = std::make_unique<Skeleton2D>(name);
    EXPECT_TRUE(node->set_clip(clip));
    EXPECT_TRUE(node->set_data(data));
    node->set_position(position);
    node->set_scale({0.4f, 0.4f});
    return *tree.root().add_child(std::move(node));
  }

  // One frame: the tree's tick, then the drawing step; returns the target's pixels.
  imaging::Image frame(float delta = 1 / 60.0f) {
    tree.advance(delta);
    EXPECT_TRUE(renderer->begin_frame(*target, {}, {0, 0, 0, 0}));
    if (!drawer) drawer = std::make_unique<CanvasDrawer>(*renderer);
    const Status s = drawer->draw(tree.root());
    EXPECT_TRUE(s) << s.error().to_string();
    EXPECT_TRUE(renderer->end_frame());
    auto pixels = target->read_back();
    EXPECT_TRUE(pixels);
    return pixels ? std::move(*pixels) : imaging::Image{};
  }

  static int opaque_pixels(const imaging::Image& image, int x0, int x1) {
    int n = 0;
    for (int y = 0; y < image.height; ++y)
      for (int x = x0; x < x1; ++x) n += image.rgba[static_cast<std::size_t>((y * image.width + x) * 4 + 3)] > 128;
    return n;
  }

  std::shared_ptr<const skel::SkeletonData> data;
  std::unique_ptr<render::SkeletonRenderer> renderer;
  std::unique_ptr<render::RenderTarget> target;
  std::unique_ptr<CanvasDrawer> drawer;
  SceneTree tree;
};

TEST_F(CanvasDrawerTest, DrawsVisibleNodesAndReportsCulledOnes) {
  Skeleton2D* seen = add("seen", {80, 200});
  Skeleton2D* away = add("away", {5000, 200});
  const imaging::Image image = frame();
  EXPECT_FALSE(seen->was_culled());
  EXPECT_TRUE(away->was_culled());
  EXPECT_EQ(drawer->stats().drawn, 1u);
  EXPECT_EQ(drawer->stats().culled, 1u);
  EXPECT_GT(opaque_pixels(image, 0, 160), 200);     // the character around x = 80
  EXPECT_EQ(opaque_pixels(image, 200, kSize), 0);
  // The culled node's next tick is TimeOnly (the default): its time goes on, its pose does not.
  const std::uint64_t version = away->pose_version();
  frame();
  EXPECT_EQ(away->pose_version(), version);
  EXPECT_EQ(away->time_only_ticks(), 1u);
}

// Off screen in TimeOnly its pose is stale, but the clip's bounds still say where it can be: the
// first frame it is back on screen draws it.
TEST_F(CanvasDrawerTest, ASkeletonWalkingBackOnScreenIsDrawnOnItsFirstVisibleFrame) {
  Skeleton2D* walker = add("walker", {-400, 200});
  frame();
  ASSERT_TRUE(walker->was_culled());
  for (int i = 0; i < 5; ++i) frame();
  walker->set_position({200, 200});
  const imaging::Image image = frame();
  EXPECT_FALSE(walker->was_culled());
  EXPECT_GT(opaque_pixels(image, 120, kSize), 200);
}

TEST_F(CanvasDrawerTest, FreedNodesLoseTheirRendererState) {
  Skeleton2D* a = add("a", {60, 200});
  add("b", {190, 200});
  frame();
  ASSERT_TRUE(a->queue_free());
  const imaging::Image image = frame();  // freed at the end of this frame's tick
  EXPECT_EQ(drawer->stats().drawn, 1u);
  EXPECT_EQ(opaque_pixels(image, 0, 100), 0);
}

// Modulate is the draw's tint: a red modulate keeps only the red of the art; the node beside it keeps
// its colours.
TEST_F(CanvasDrawerTest, ModulateTintsTheNodesArt) {
  add("plain", {60, 200});
  Skeleton2D* red = add("red", {190, 200});
  red->set_modulate({1, 0, 0, 1});
  EXPECT_EQ(red->modulate(), (ColorF{1, 0, 0, 1}));
  const imaging::Image image = frame();
  auto most = [&image](int x0, int x1, int channel) {
    int m = 0;
    for (int y = 0; y < image.height; ++y)
      for (int x = x0; x < x1; ++x) {
        const std::uint8_t* p = image.pixel(x, y);
        if (p[3] > 128) m = std::max(m, int(p[channel]));
      }
    return m;
  };
  ASSERT_GT(opaque_pixels(image, 130, kSize), 200);
  EXPECT_GT(most(130, kSize, 0), 100);  // red stays
  EXPECT_EQ(most(130, kSize, 1), 0);    // green and blue are multiplied by 0
  EXPECT_EQ(most(130, kSize, 2), 0);
  EXPECT_GT(most(0, 120, 1), 100);      // the plain node keeps its green
}

}  // namespace
}  // namespace mf::scene
