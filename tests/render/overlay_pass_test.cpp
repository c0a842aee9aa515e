// OverlayPass: drawing over a finished frame keeps the frame under it, reads back with the overlay on
// top, follows a replaced target, works frame after frame, and refuses a target with no frame yet.
// Validation is on: a wrong layout or a missing dependency would fail the test.

#include <gtest/gtest.h>

#include <memory>

#include "mf/render/device.hpp"
#include "mf/render/overlay_pass.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "test_device.hpp"

namespace mf::render::testing {
namespace {

constexpr Color kRed{1, 0, 0, 1};
constexpr Color kBlue{0, 0, 1, 1};

class OverlayPassTest : public RenderTest {
 protected:
  void SetUp() override {
    RenderTest::SetUp();
    auto r = SkeletonRenderer::create(*device, *memory);
    ASSERT_TRUE(r) << r.error().to_string();
    renderer = std::move(*r);
    auto o = OverlayPass::create(*device);
    ASSERT_TRUE(o) << o.error().to_string();
    overlay = std::move(*o);
  }
  void TearDown() override {
    if (renderer) {
      EXPECT_TRUE(renderer->wait_idle());
    }
    overlay.reset();
    renderer.reset();
    RenderTest::TearDown();
  }

  std::unique_ptr<RenderTarget> make_target(int w, int h) {
    auto t = RenderTarget::create(*device, *memory, w, h);
    EXPECT_TRUE(t) << t.error().to_string();
    return t ? std::move(*t) : nullptr;
  }

  void clear_frame(RenderTarget& target, Color clear) {
    ASSERT_TRUE(renderer->begin_frame(target, {}, clear));
    ASSERT_TRUE(renderer->end_frame());
  }

  // Fills a rectangle of the target with green through the overlay pass.
  void overlay_rect(RenderTarget& target, int x, int y, int w, int h) {
    Status began;
    const Status ran = device->run_once([&](VkCommandBuffer cmd) {
      began = overlay->begin(cmd, target);
      if (!began) return;
      VkClearAttachment clear{};
      clear.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
      clear.colorAttachment = 0;
      clear.clearValue.color.float32[1] = 1;
      clear.clearValue.color.float32[3] = 1;
      VkClearRect rect{};
      rect.rect = {{x, y}, {static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h)}};
      rect.layerCount = 1;
      vkCmdClearAttachments(cmd, 1, &clear, 1, &rect);
      overlay->end(cmd);
    });
    ASSERT_TRUE(began) << began.error().to_string();
    ASSERT_TRUE(ran) << ran.error().to_string();
  }

  std::unique_ptr<SkeletonRenderer> renderer;
  std::unique_ptr<OverlayPass> overlay;
};

void expect_pixel(const imaging::Image& image, int x, int y, int r, int g, int b) {
  const std::uint8_t* p = image.pixel(x, y);
  EXPECT_EQ(p[0], r) << "at " << x << "," << y;
  EXPECT_EQ(p[1], g) << "at " << x << "," << y;
  EXPECT_EQ(p[2], b) << "at " << x << "," << y;
  EXPECT_EQ(p[3], 255) << "at " << x << "," << y;
}

TEST_F(OverlayPassTest, DrawsOverTheFinishedFrame) {
  auto target = make_target(32, 24);
  ASSERT_TRUE(target);
  clear_frame(*target, kRed);
  overlay_rect(*target, 8, 4, 10, 6);
  auto image = target->read_back();
  ASSERT_TRUE(image) << image.error().to_string();
  expect_pixel(*image, 0, 0, 255, 0, 0);      // the frame, kept
  expect_pixel(*image, 31, 23, 255, 0, 0);
  expect_pixel(*image, 8, 4, 0, 255, 0);      // the overlay's corners
  expect_pixel(*image, 17, 9, 0, 255, 0);
  expect_pixel(*image, 18, 9, 255, 0, 0);     // just outside it
}

TEST_F(OverlayPassTest, EveryFrameAndAReplacedTarget) {
  auto first = make_target(16, 16);
  ASSERT_TRUE(first);
  for (int frame = 0; frame < 3; ++frame) {
    clear_frame(*first, frame % 2 ? kBlue : kRed);
    overlay_rect(*first, frame, 0, 1, 1);
  }
  auto image = first->read_back();
  ASSERT_TRUE(image);
  expect_pixel(*image, 2, 0, 0, 255, 0);
  expect_pixel(*image, 0, 0, 255, 0, 0);  // the last frame's clear: earlier overlays are gone

  ASSERT_TRUE(renderer->wait_idle());
  first.reset();
  auto second = make_target(20, 12);
  ASSERT_TRUE(second);
  clear_frame(*second, kBlue);
  overlay_rect(*second, 19, 11, 1, 1);
  image = second->read_back();
  ASSERT_TRUE(image);
  expect_pixel(*image, 19, 11, 0, 255, 0);
  expect_pixel(*image, 0, 0, 0, 0, 255);
}

TEST_F(OverlayPassTest, RefusesATargetWithNoFrame) {
  auto target = make_target(8, 8);
  ASSERT_TRUE(target);
  Status began;
  ASSERT_TRUE(device->run_once([&](VkCommandBuffer cmd) { began = overlay->begin(cmd, *target); }));
  ASSERT_FALSE(began);
  EXPECT_NE(began.error().message.find("no finished frame"), std::string::npos) << began.error().message;
}

}  // namespace
}  // namespace mf::render::testing
