// ForwardDrawer on lavapipe with validation: SkeletonSprite3D nodes drawn by the forward renderer
// with their settings (the object id picks the sprite), a sprite outside the frustum culled and told
// so (its Offscreen mode then applies), freed nodes' renderer state removed.

#include "mf/scene/draw/forward_drawer.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/sprite3d/skeleton_sprite_3d.hpp"
#include "render/test_device.hpp"

namespace mf::scene {
namespace {

constexpr int kWidth = 160, kHeight = 120;

class ForwardDrawerTest : public render::testing::RenderTest {
 protected:
  void SetUp() override {
    RenderTest::SetUp();
    if (HasFatalFailure()) return;
    auto built = offline::build_rig_file(MF_EXAMPLES_DIR "/mannequin/mannequin.mskel");
    ASSERT_TRUE(built) << built.error().to_string();
    data = built->data;
    render::ForwardOptions options;
    options.shadow_map_size = 256;
    auto r = render::ForwardRenderer::create(*device, *memory, options);
    ASSERT_TRUE(r) << r.error().to_string();
    renderer = std::move(*r);
    auto t = render::RenderTarget::create(*device, *memory, kWidth, kHeight);
    ASSERT_TRUE(t) << t.error().to_string();
    target = std::move(*t);
  }
  void TearDown() override {
    drawer.reset();
    renderer.reset();
    target.reset();
    RenderTest::TearDown();
  }

  SkeletonSprite3D* add(const std::string& name, Vec3 position, std::uint32_t id) {
    auto node = std::make_unique<SkeletonSprite3D>(name);
    EXPECT_TRUE(node->set_clip("idle"));
    EXPECT_TRUE(node->set_data(data));
    node->set_position(position);
    node->set_object_id(id);
    return *tree.root().add_child(std::move(node));
  }

  void frame() {
    tree.advance(1 / 60.0f);
    render::ForwardFrame f;
    // Looking at the origin from 4 m in front, 1 m up: the mannequin (about 1.8 m at 0.01 m/px)
    // stands in the middle of the view.
    f.camera.position = {0, 1, 4};
    f.camera.target = {0, 1, 0};
    f.lights.sun = render::DirectionalLight{};
    EXPECT_TRUE(renderer->begin_frame(*target, f));
    if (!drawer) drawer = std::make_unique<ForwardDrawer>(*renderer);
    const Status s = drawer->draw(tree.root());
    EXPECT_TRUE(s) << s.error().to_string();
    EXPECT_TRUE(renderer->end_frame());
  }

  std::shared_ptr<const skel::SkeletonData> data;
  std::unique_ptr<render::ForwardRenderer> renderer;
  std::unique_ptr<render::RenderTarget> target;
  std::unique_ptr<ForwardDrawer> drawer;
  SceneTree tree;
};

TEST_F(ForwardDrawerTest, DrawsSpritesInViewAndTellsCulledOnes) {
  SkeletonSprite3D* seen = add("seen", {0, 0, 0}, 7);
  SkeletonSprite3D* behind = add("behind", {0, 0, 10}, 8);  // behind the camera
  frame();
  EXPECT_FALSE(seen->was_culled());
  EXPECT_TRUE(behind->was_culled());
  EXPECT_EQ(drawer->stats().drawn, 1u);
  EXPECT_EQ(drawer->stats().culled, 1u);
  // The sprite's own id on its pixels: somewhere down the middle column is the mannequin's body.
  bool picked = false;
  for (int y = 10; y < kHeight - 10 && !picked; y += 2) {
    auto id = renderer->pick(kWidth / 2, y);
    ASSERT_TRUE(id);
    picked = *id && **id == 7u;
  }
  EXPECT_TRUE(picked);
  // The culled one's next tick is TimeOnly (the default).
  const std::uint64_t version = behind->pose_version();
  frame();
  EXPECT_EQ(behind->pose_version(), version);
}

TEST_F(ForwardDrawerTest, FreedSpritesLoseTheirRendererState) {
  SkeletonSprite3D* a = add("a", {0, 0, 0}, 1);
  frame();
  ASSERT_TRUE(a->queue_free());
  frame();
  EXPECT_EQ(drawer->stats().drawn, 0u);
  EXPECT_EQ(renderer->stats().sprites_drawn, 0u);
}

}  // namespace
}  // namespace mf::scene
