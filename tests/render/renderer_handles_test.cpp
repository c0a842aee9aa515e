// Generational renderer handles: data and instances added, removed and added again; stale handles
// (removed, or their slot reused) rejected with an error by every call; data with instances not
// removed; and a renderer that went through removals (its slots and static arena ranges reused)
// drawing, byte for byte, what a fresh renderer with only the live skeletons draws. Validation is on,
// so GPU resources freed while a frame in flight still uses them would fail the test.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "mf/render/skeleton_renderer.hpp"
#include "render_scene.hpp"
#include "test_device.hpp"

namespace mf::render::testing {
namespace {

constexpr int kSize = 64;

// A skeleton of one bone showing one box (a GPU-skinned region) on its own solid page.
struct BoxSkeleton {
  std::unique_ptr<skel::SkeletonData> data = std::make_unique<skel::SkeletonData>();
  std::unique_ptr<skel::SkeletonPose> pose;

  BoxSkeleton(const std::string& name, Rgba8 colour, float cx, float cy, float size,
              skel::BlendMode blend = skel::BlendMode::Normal) {
    using namespace skel::test;
    data->name = name;
    const int bone = add_bone(*data, "root", -1, 0, 0);
    const int slot = add_slot(*data, "box", bone);
    data->slots.blend[static_cast<std::size_t>(slot)] = blend;
    const int page = add_solid_page(*data, colour);
    const std::int32_t box = add_box_region(*data, slot, "box", bone, cx, cy, size, size, page);
    pose = std::make_unique<skel::SkeletonPose>(*data);
    show(*pose, box);
    skel::update_world_transforms(*pose);
  }
};

RendererOptions small_options() {
  RendererOptions options;
  options.max_gpu_vertices = 1024;
  options.max_cpu_vertices = 1024;
  options.max_static_vertices = 16;  // room for 4 boxes: removed data's range must be reused
  options.max_static_influences = 16;
  options.upload_bytes_per_slot = 1 << 16;
  return options;
}

class RendererHandlesTest : public RenderTest {
 protected:
  std::unique_ptr<SkeletonRenderer> make_renderer() {
    auto renderer = SkeletonRenderer::create(*device, *memory, small_options());
    EXPECT_TRUE(renderer) << renderer.error().to_string();
    return renderer ? std::move(*renderer) : nullptr;
  }
  std::unique_ptr<RenderTarget> make_target() {
    auto target = RenderTarget::create(*device, *memory, kSize, kSize);
    EXPECT_TRUE(target) << target.error().to_string();
    return target ? std::move(*target) : nullptr;
  }
  struct Drawn {
    InstanceHandle instance;
    const BoxSkeleton* skeleton;
  };
  // One frame of `drawn` in order; the image when `read` (waits for the GPU), else nothing.
  imaging::Image draw(SkeletonRenderer& renderer, RenderTarget& target, const std::vector<Drawn>& drawn, bool read = true) {
    EXPECT_TRUE(renderer.begin_frame(target, {}, {0.1f, 0.1f, 0.2f, 1}));
    for (const Drawn& d : drawn) {
      Status shown = renderer.draw(d.instance, *d.skeleton->pose);
      EXPECT_TRUE(shown) << shown.error().to_string();
    }
    EXPECT_TRUE(renderer.end_frame());
    if (!read) return {};
    auto image = target.read_back();
    EXPECT_TRUE(image) << image.error().to_string();
    return image ? *image : imaging::Image{};
  }
  static void expect_error(const Status& status, const std::string& part) {
    ASSERT_FALSE(status) << "expected an error containing \"" << part << "\"";
    EXPECT_NE(status.error().message.find(part), std::string::npos) << status.error().message;
  }
  template <typename T>
  static void expect_error(const Expected<T>& result, const std::string& part) {
    ASSERT_FALSE(result) << "expected an error containing \"" << part << "\"";
    EXPECT_NE(result.error().message.find(part), std::string::npos) << result.error().message;
  }
};

TEST_F(RendererHandlesTest, RemovedSlotsAreReusedWithANewGeneration) {
  BoxSkeleton a("a", {230, 40, 40, 255}, 20, 20, 16), b("b", {40, 230, 40, 255}, 44, 44, 16);
  auto renderer = make_renderer();
  auto data_a = renderer->add_data(*a.data);
  ASSERT_TRUE(data_a) << data_a.error().to_string();
  auto instance_a = renderer->add_instance(*data_a);
  ASSERT_TRUE(instance_a) << instance_a.error().to_string();
  ASSERT_TRUE(renderer->remove_instance(*instance_a));
  ASSERT_TRUE(renderer->remove_data(*data_a));

  auto data_b = renderer->add_data(*b.data);
  ASSERT_TRUE(data_b) << data_b.error().to_string();
  auto instance_b = renderer->add_instance(*data_b);
  ASSERT_TRUE(instance_b) << instance_b.error().to_string();
  EXPECT_EQ(data_b->index, data_a->index);  // the freed slots, a generation later
  EXPECT_NE(data_b->generation, data_a->generation);
  EXPECT_EQ(instance_b->index, instance_a->index);
  EXPECT_NE(instance_b->generation, instance_a->generation);
  EXPECT_FALSE(*data_b == *data_a);

  // Re-added after a removal, a data takes a slot again and draws.
  auto target = make_target();
  const imaging::Image image = draw(*renderer, *target, {{*instance_b, &b}});
  EXPECT_EQ(renderer->stats().skeletons_drawn, 1u);
  ASSERT_TRUE(renderer->remove_instance(*instance_b));
  ASSERT_TRUE(renderer->remove_data(*data_b));
  auto again = renderer->add_data(*b.data);
  ASSERT_TRUE(again) << again.error().to_string();
  auto instance = renderer->add_instance(*again);
  ASSERT_TRUE(instance) << instance.error().to_string();
  EXPECT_EQ(max_difference(draw(*renderer, *target, {{*instance, &b}}), image), 0);
  ASSERT_TRUE(renderer->wait_idle());
}

TEST_F(RendererHandlesTest, StaleHandlesOfBothKindsAreRejected) {
  BoxSkeleton a("a", {230, 40, 40, 255}, 20, 20, 16), b("b", {40, 230, 40, 255}, 44, 44, 16);
  auto renderer = make_renderer();
  auto target = make_target();
  auto data_a = renderer->add_data(*a.data);
  ASSERT_TRUE(data_a) << data_a.error().to_string();
  auto instance_a = renderer->add_instance(*data_a);
  ASSERT_TRUE(instance_a) << instance_a.error().to_string();
  ASSERT_TRUE(renderer->remove_instance(*instance_a));
  ASSERT_TRUE(renderer->remove_data(*data_a));

  // Removed: every call fails, naming the handle as stale.
  expect_error(renderer->add_instance(*data_a), "add_instance: data handle 0 (generation 1) is stale");
  expect_error(renderer->remove_data(*data_a), "remove_data: data handle 0 (generation 1) is stale");
  expect_error(renderer->remove_instance(*instance_a), "remove_instance: instance handle 0 (generation 1) is stale");
  ASSERT_TRUE(renderer->begin_frame(*target, {}, {0, 0, 0, 1}));
  expect_error(renderer->draw(*instance_a, *a.pose), "draw: instance handle 0 (generation 1) is stale");

  // Reused by later adds: the old handles still name nothing, the new ones their own entries.
  auto data_b = renderer->add_data(*b.data);
  ASSERT_TRUE(data_b) << data_b.error().to_string();
  auto instance_b = renderer->add_instance(*data_b);
  ASSERT_TRUE(instance_b) << instance_b.error().to_string();
  expect_error(renderer->draw(*instance_a, *a.pose), "is stale");
  expect_error(renderer->draw(*instance_a, *b.pose), "is stale");
  expect_error(renderer->add_instance(*data_a), "is stale");
  expect_error(renderer->remove_instance(*instance_a), "is stale");
  expect_error(renderer->remove_data(*data_a), "is stale");
  EXPECT_TRUE(renderer->draw(*instance_b, *b.pose));
  ASSERT_TRUE(renderer->end_frame());
  EXPECT_EQ(renderer->stats().skeletons_drawn, 1u);

  // Handles never handed out.
  expect_error(renderer->add_instance(DataHandle{}), "add_instance: no data with handle -1");
  expect_error(renderer->add_instance(DataHandle{7, 1}), "no data with handle 7");
  expect_error(renderer->remove_instance(InstanceHandle{}), "no instance with handle -1");
  expect_error(renderer->remove_data(DataHandle{3, 1}), "no data with handle 3");
  ASSERT_TRUE(renderer->wait_idle());
}

TEST_F(RendererHandlesTest, DataWithInstancesIsNotRemoved) {
  BoxSkeleton a("a", {230, 40, 40, 255}, 32, 32, 20);
  auto renderer = make_renderer();
  auto target = make_target();
  auto data = renderer->add_data(*a.data);
  ASSERT_TRUE(data) << data.error().to_string();
  auto first = renderer->add_instance(*data);
  auto second = renderer->add_instance(*data);
  ASSERT_TRUE(first && second);
  const imaging::Image before = draw(*renderer, *target, {{*first, &a}});

  expect_error(renderer->remove_data(*data), "remove_data: data handle 0 (generation 1) still has 2 instances; remove them first");
  // Refused, the data and its instances stay as they were.
  EXPECT_EQ(max_difference(draw(*renderer, *target, {{*first, &a}}), before), 0);
  ASSERT_TRUE(renderer->remove_instance(*first));
  expect_error(renderer->remove_data(*data), "still has 1 instance;");
  EXPECT_EQ(max_difference(draw(*renderer, *target, {{*second, &a}}), before), 0);
  ASSERT_TRUE(renderer->remove_instance(*second));
  EXPECT_TRUE(renderer->remove_data(*data));
  ASSERT_TRUE(renderer->wait_idle());
}

TEST_F(RendererHandlesTest, AnInstanceRemovedInsideAFrameStillShowsInThatFrame) {
  BoxSkeleton a("a", {230, 40, 40, 255}, 32, 32, 20);
  auto renderer = make_renderer();
  auto target = make_target();
  auto data = renderer->add_data(*a.data);
  ASSERT_TRUE(data) << data.error().to_string();
  auto instance = renderer->add_instance(*data);
  ASSERT_TRUE(instance) << instance.error().to_string();
  const imaging::Image expected = draw(*renderer, *target, {{*instance, &a}});

  ASSERT_TRUE(renderer->begin_frame(*target, {}, {0.1f, 0.1f, 0.2f, 1}));
  ASSERT_TRUE(renderer->draw(*instance, *a.pose));
  ASSERT_TRUE(renderer->remove_instance(*instance));
  ASSERT_TRUE(renderer->remove_data(*data));  // its GPU resources outlive this frame
  ASSERT_TRUE(renderer->end_frame());
  auto image = target->read_back();
  ASSERT_TRUE(image) << image.error().to_string();
  EXPECT_EQ(max_difference(*image, expected), 0);
  ASSERT_TRUE(renderer->wait_idle());
}

TEST_F(RendererHandlesTest, DrawingAfterRemovalsMatchesAFreshRenderer) {
  BoxSkeleton a("a", {230, 40, 40, 255}, 16, 16, 20), b("b", {40, 230, 40, 200}, 30, 30, 24, skel::BlendMode::Additive),
      c("c", {40, 40, 230, 255}, 46, 20, 18), d("d", {230, 230, 40, 180}, 40, 46, 22, skel::BlendMode::Screen),
      e("e", {200, 60, 200, 255}, 20, 44, 14);
  auto lasting = make_renderer();
  auto target = make_target();
  auto data_a = lasting->add_data(*a.data), data_b = lasting->add_data(*b.data), data_c = lasting->add_data(*c.data);
  ASSERT_TRUE(data_a && data_b && data_c);
  auto inst_a = lasting->add_instance(*data_a), inst_b = lasting->add_instance(*data_b), inst_c = lasting->add_instance(*data_c);
  ASSERT_TRUE(inst_a && inst_b && inst_c);
  for (int frame = 0; frame < 3; ++frame) draw(*lasting, *target, {{*inst_a, &a}, {*inst_b, &b}, {*inst_c, &c}}, false);

  // Removed while its last frames may be in flight (nothing waited for them), its SkeletonData
  // destroyed too; d takes its table slots at once, its arena range only once freed, so the arenas
  // (4 boxes) are full with d.
  ASSERT_TRUE(lasting->remove_instance(*inst_a));
  ASSERT_TRUE(lasting->remove_data(*data_a));
  a.pose.reset();
  a.data.reset();
  auto data_d = lasting->add_data(*d.data);
  ASSERT_TRUE(data_d) << data_d.error().to_string();
  auto inst_d = lasting->add_instance(*data_d);
  ASSERT_TRUE(inst_d) << inst_d.error().to_string();
  expect_error(lasting->add_data(*e.data), "do not fit the renderer's static arenas");
  for (int frame = 0; frame < 3; ++frame) draw(*lasting, *target, {{*inst_b, &b}, {*inst_c, &c}, {*inst_d, &d}}, false);

  // By now a's frames have finished and its range is free: e fits again.
  ASSERT_TRUE(lasting->remove_instance(*inst_c));
  ASSERT_TRUE(lasting->remove_data(*data_c));
  for (int frame = 0; frame < 2; ++frame) draw(*lasting, *target, {{*inst_d, &d}, {*inst_b, &b}}, false);
  auto data_e = lasting->add_data(*e.data);
  ASSERT_TRUE(data_e) << data_e.error().to_string();
  auto inst_e = lasting->add_instance(*data_e);
  ASSERT_TRUE(inst_e) << inst_e.error().to_string();
  const std::vector<Drawn> scene_kept = {{*inst_e, &e}, {*inst_b, &b}, {*inst_d, &d}};
  draw(*lasting, *target, scene_kept, false);
  const imaging::Image kept = draw(*lasting, *target, scene_kept);

  auto fresh = make_renderer();
  auto fresh_target = make_target();
  auto fb = fresh->add_data(*b.data), fd = fresh->add_data(*d.data), fe = fresh->add_data(*e.data);
  ASSERT_TRUE(fb && fd && fe);
  auto ib = fresh->add_instance(*fb), id = fresh->add_instance(*fd), ie = fresh->add_instance(*fe);
  ASSERT_TRUE(ib && id && ie);
  const imaging::Image expected = draw(*fresh, *fresh_target, {{*ie, &e}, {*ib, &b}, {*id, &d}});
  EXPECT_EQ(max_difference(kept, expected), 0);
  // Every box shows: the background is not all there is.
  EXPECT_EQ(lasting->stats().skeletons_drawn, 3u);
  EXPECT_GT(lasting->stats().draw_calls, 0u);
  ASSERT_TRUE(lasting->wait_idle());
  ASSERT_TRUE(fresh->wait_idle());
}

}  // namespace
}  // namespace mf::render::testing
