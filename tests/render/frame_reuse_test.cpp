// Frames of one long-lived renderer against a renderer made afresh for each frame. The long-lived one
// keeps an instance's rebased indices where the previous frame on the same slot wrote them and only
// re-queues their draws; whenever anything moves them (a skeleton culled before it, a rebuild, a new
// drawing order) it must write them again. Every frame's image must be the same, byte for byte.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <utility>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "render_scene.hpp"
#include "test_device.hpp"

namespace mf::render::testing {
namespace {

constexpr int kSize = 160;
constexpr int kSkeletons = 3;

struct Frame {
  std::array<int, kSkeletons> order{0, 1, 2};  // the order the skeletons are drawn in
  int offscreen = -1;                          // a skeleton moved out of view (culled)
  bool reverse_draw_order = false;             // skeleton 0's slots drawn back to front
};

// Frames 0–3 steady, 4–5 skeleton 0 culled (the others' indices move up), 6–7 steady again,
// 8–9 skeleton 0's draw order changes (its runs are rebuilt), 10–11 the drawing order changes,
// 12–15 steady.
Frame frame_plan(int frame) {
  Frame f;
  if (frame == 4 || frame == 5) f.offscreen = 0;
  if (frame == 8 || frame == 9) f.reverse_draw_order = true;
  if (frame == 10 || frame == 11) f.order = {2, 0, 1};
  return f;
}

class FrameReuseTest : public RenderTest {
 protected:
  void SetUp() override {
    RenderTest::SetUp();
    auto built = offline::build_rig_file(std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel");
    ASSERT_TRUE(built) << built.error().to_string();
    data = built->data;
    for (int i = 0; i < kSkeletons; ++i) skeletons[static_cast<std::size_t>(i)] = std::make_unique<skel::SkeletonInstance>(*data);
  }

  struct Drawer {
    std::unique_ptr<SkeletonRenderer> renderer;
    std::unique_ptr<RenderTarget> target;
    std::array<InstanceHandle, kSkeletons> instances{};
  };

  Drawer make_drawer() {
    Drawer d;
    auto renderer = SkeletonRenderer::create(*device, *memory);
    EXPECT_TRUE(renderer) << renderer.error().to_string();
    d.renderer = std::move(*renderer);
    auto handle = d.renderer->add_data(*data);
    EXPECT_TRUE(handle) << handle.error().to_string();
    for (auto& instance : d.instances) {
      auto added = d.renderer->add_instance(*handle);
      EXPECT_TRUE(added) << added.error().to_string();
      instance = *added;
    }
    auto target = RenderTarget::create(*device, *memory, kSize, kSize);
    EXPECT_TRUE(target) << target.error().to_string();
    d.target = std::move(*target);
    return d;
  }

  imaging::Image draw(Drawer& d, const Frame& f) {
    EXPECT_TRUE(d.renderer->begin_frame(*d.target, {}, {0.1f, 0.1f, 0.1f, 1}));
    for (int i : f.order) {
      DrawOptions options;
      const float x = i == f.offscreen ? -1000.0f : 30.0f + 50.0f * static_cast<float>(i);
      options.transform = Affine2::translation(x, 150) * Affine2::scale(0.22f, 0.22f);
      EXPECT_TRUE(d.renderer->draw(d.instances[static_cast<std::size_t>(i)], skeletons[static_cast<std::size_t>(i)]->pose(), options));
    }
    EXPECT_TRUE(d.renderer->end_frame());
    auto image = d.target->read_back();
    EXPECT_TRUE(image) << image.error().to_string();
    return image ? *image : imaging::Image{};
  }

  std::shared_ptr<skel::SkeletonData> data;
  std::array<std::unique_ptr<skel::SkeletonInstance>, kSkeletons> skeletons;
};

TEST_F(FrameReuseTest, ALongLivedRendererDrawsWhatAFreshOneDraws) {
  const int walk = data->find_clip("walk");
  ASSERT_GE(walk, 0);
  Drawer lasting = make_drawer();
  for (int frame = 0; frame < 16; ++frame) {
    const Frame plan = frame_plan(frame);
    for (int i = 0; i < kSkeletons; ++i) {
      const float t = 0.05f * static_cast<float>(frame) + 0.3f * static_cast<float>(i);
      anim::ClipSample sample = skel::loop_sample(*data, walk, t - 0.05f, t);
      skeletons[static_cast<std::size_t>(i)]->update({&sample, 1});
    }
    if (plan.reverse_draw_order) {
      auto& order = skeletons[0]->pose().draw_order;
      ASSERT_GE(order.size(), 2u);
      std::reverse(order.begin(), order.end());
    }
    const imaging::Image kept = draw(lasting, plan);
    const std::uint32_t drawn = lasting.renderer->stats().skeletons_drawn;
    EXPECT_EQ(drawn, plan.offscreen >= 0 ? 2u : 3u) << "frame " << frame;
    Drawer fresh = make_drawer();
    const imaging::Image expected = draw(fresh, plan);
    EXPECT_EQ(max_difference(kept, expected), 0) << "frame " << frame;
    ASSERT_TRUE(fresh.renderer->wait_idle());
  }
}

}  // namespace
}  // namespace mf::render::testing
