#include "mf/skel/cpu_vertices.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "mf/skel/bounds.hpp"
#include "mf/skel/skin_composer.hpp"
#include "mf/skel/world_transform.hpp"
#include "test_attachments.hpp"

namespace mf::skel {
namespace {

using test::add_bone;
using test::add_box_region;
using test::add_slot;

// Positions: a few float products and sums of values up to a few hundred pixels.
constexpr float kPixel = 1e-4f;
constexpr float kUv = 1e-6f;
constexpr float kColor = 1e-6f;

void set_world(SkeletonPose& pose, int bone, float a, float b, float c, float d, float x, float y) {
  const auto i = static_cast<std::size_t>(bone);
  pose.a[i] = a;
  pose.b[i] = b;
  pose.c[i] = c;
  pose.d[i] = d;
  pose.world_x[i] = x;
  pose.world_y[i] = y;
}

// Shows the attachment on its slot.
void show(SkeletonPose& pose, std::int32_t attachment) {
  const AttachmentRecord& a = pose.data().attachments[static_cast<std::size_t>(attachment)];
  pose.attachment[static_cast<std::size_t>(a.slot)] = attachment;
}

double triangle_area(const CpuVertices& cv, std::uint32_t index_start, std::uint32_t index_count) {
  double total = 0;
  const auto v = cv.vertices();
  const auto idx = cv.indices();
  for (std::uint32_t t = index_start; t < index_start + index_count; t += 3) {
    const CpuVertex &a = v[idx[t]], &b = v[idx[t + 1]], &c = v[idx[t + 2]];
    total += std::abs((static_cast<double>(b.x) - a.x) * (c.y - a.y) - (static_cast<double>(c.x) - a.x) * (b.y - a.y)) / 2;
  }
  return total;
}

TEST(CpuVertices, RegionOnARotatedScaledBoneMatchesHandComputedCorners) {
  SkeletonData data;
  const int bone = add_bone(data, "arm", -1);
  const int slot = add_slot(data, "arm", bone);
  const std::uint32_t region = test::add_region_frame(data, 0.25f, 0.5f, 0.75f, 1.0f);
  const std::int32_t att = test::add_region(data, slot, "arm", bone, {-10, -5, 10, -5, 10, 5, -10, 5}, region);
  SkeletonPose pose(data);
  show(pose, att);
  // Bone at (100, 50), rotated 30°, scale (2, 0.5):
  //   a = 2 cos 30° = 1.7320508   b = 0.5 cos 120° = −0.25
  //   c = 2 sin 30° = 1           d = 0.5 sin 120° = 0.4330127
  set_world(pose, bone, 1.7320508f, -0.25f, 1.0f, 0.4330127f, 100, 50);

  CpuVertices cv(data);
  cv.update(pose);
  ASSERT_EQ(cv.vertices().size(), 4u);
  // x = 100 + a·lx + b·ly, y = 50 + c·lx + d·ly
  const float expected[4][2] = {
      {100 - 17.320508f + 1.25f, 50 - 10 - 2.1650635f},  // (−10, −5)
      {100 + 17.320508f + 1.25f, 50 + 10 - 2.1650635f},  // (10, −5)
      {100 + 17.320508f - 1.25f, 50 + 10 + 2.1650635f},  // (10, 5)
      {100 - 17.320508f - 1.25f, 50 - 10 + 2.1650635f},  // (−10, 5)
  };
  const float uv[4][2] = {{0.25f, 0.5f}, {0.75f, 0.5f}, {0.75f, 1.0f}, {0.25f, 1.0f}};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(cv.vertices()[static_cast<std::size_t>(i)].x, expected[i][0], kPixel) << "corner " << i;
    EXPECT_NEAR(cv.vertices()[static_cast<std::size_t>(i)].y, expected[i][1], kPixel) << "corner " << i;
    EXPECT_NEAR(cv.vertices()[static_cast<std::size_t>(i)].u, uv[i][0], kUv);
    EXPECT_NEAR(cv.vertices()[static_cast<std::size_t>(i)].v, uv[i][1], kUv);
  }
  EXPECT_EQ(std::vector<std::uint32_t>(cv.indices().begin(), cv.indices().end()), (std::vector<std::uint32_t>{0, 1, 2, 2, 3, 0}));
  ASSERT_EQ(cv.drawn().size(), 1u);
  EXPECT_EQ(cv.drawn()[0].slot, slot);
  EXPECT_EQ(cv.drawn()[0].attachment, att);
  EXPECT_EQ(cv.drawn()[0].vertex_count, 4u);
  EXPECT_EQ(cv.drawn()[0].index_count, 6u);
  EXPECT_EQ(cv.dropped_triangles(), 0u);

  const Bounds b = cv.bounds();
  EXPECT_NEAR(b.min_x, 100 - 17.320508f - 1.25f, kPixel);
  EXPECT_NEAR(b.max_x, 100 + 17.320508f + 1.25f, kPixel);
  EXPECT_NEAR(b.min_y, 50 - 10 - 2.1650635f, kPixel);
  EXPECT_NEAR(b.max_y, 50 + 10 + 2.1650635f, kPixel);
  const Bounds pb = pose_bounds(pose);
  EXPECT_NEAR(pb.min_x, b.min_x, kPixel);
  EXPECT_NEAR(pb.max_y, b.max_y, kPixel);
}

// A mesh on slot "skin" whose vertex 0 has two influences:
//   bone 0 world: translation (10, 0), identity 2×2  → (4, 0) maps to (14, 0)
//   bone 1 world: rotation 90° (a = 0, b = −1, c = 1, d = 0) at (0, 20) → (2, 0) maps to (0, 22)
//   0.25·(14, 0) + 0.75·(0, 22) = (3.5, 16.5)
struct WeightedMeshRig {
  SkeletonData data;
  int b0, b1, slot;
  std::int32_t mesh, linked, other;

  WeightedMeshRig() {
    b0 = add_bone(data, "b0", -1);
    b1 = add_bone(data, "b1", -1);
    slot = add_slot(data, "skin", b0);
    const std::uint32_t region = test::add_region_frame(data, 0, 0, 1, 1);
    std::vector<test::TestVertex> v = {
        {{b0, 0.25f, 4, 0}, {b1, 0.75f, 2, 0}},  // influences 0 and 1
        {{b0, 1.0f, 0, 10}},                     // influence 2
        {{b1, 1.0f, 5, 5}},                      // influence 3
    };
    mesh = test::add_geometry(data, AttachmentKind::Mesh, slot, "mesh", v, {0, 0, 1, 0, 0, 1}, {0, 1, 2});
    linked = test::add_geometry(data, AttachmentKind::Mesh, slot, "linked", v, {0, 0, 1, 0, 0, 1}, {0, 1, 2});
    other = test::add_geometry(data, AttachmentKind::Mesh, slot, "other", v, {0, 0, 1, 0, 0, 1}, {0, 1, 2});
    for (std::int32_t a : {mesh, linked, other}) {
      data.attachments[static_cast<std::size_t>(a)].region_start = region;
      data.attachments[static_cast<std::size_t>(a)].region_count = 1;
    }
    data.attachments[static_cast<std::size_t>(linked)].deform_source = mesh;  // shares the mesh's deform keys
  }

  void pose_bones(SkeletonPose& pose) const {
    set_world(pose, b0, 1, 0, 0, 1, 10, 0);
    set_world(pose, b1, 0, -1, 1, 0, 0, 20);
  }
};

TEST(CpuVertices, WeightedVertexSumsItsInfluences) {
  WeightedMeshRig rig;
  SkeletonPose pose(rig.data);
  rig.pose_bones(pose);
  show(pose, rig.mesh);
  CpuVertices cv(rig.data);
  cv.update(pose);
  ASSERT_EQ(cv.vertices().size(), 3u);
  EXPECT_NEAR(cv.vertices()[0].x, 3.5f, kPixel);
  EXPECT_NEAR(cv.vertices()[0].y, 16.5f, kPixel);
  EXPECT_NEAR(cv.vertices()[1].x, 10.0f, kPixel);  // b0: (0, 10) + (10, 0)
  EXPECT_NEAR(cv.vertices()[1].y, 10.0f, kPixel);
  EXPECT_NEAR(cv.vertices()[2].x, -5.0f, kPixel);  // b1: (−5, 5) + (0, 20)
  EXPECT_NEAR(cv.vertices()[2].y, 25.0f, kPixel);

  std::vector<float> out(6);
  compute_world_vertices(pose, rig.slot, rig.mesh, out);
  EXPECT_NEAR(out[0], 3.5f, kPixel);
  EXPECT_NEAR(out[1], 16.5f, kPixel);
  EXPECT_NEAR(out[5], 25.0f, kPixel);
}

TEST(CpuVertices, DeformAppliesOnlyToItsAttachment) {
  WeightedMeshRig rig;
  SkeletonPose pose(rig.data);
  rig.pose_bones(pose);
  const auto s = static_cast<std::size_t>(rig.slot);
  ASSERT_GE(rig.data.slot_deform_floats[s], 8u);
  float* deform = pose.deform.data() + pose.deform_start[s];
  // Influence 1 (vertex 0 on b1) moves by (1, 0) in b1's space: (3, 0) → (0, 23), so vertex 0 becomes
  // 0.25·(14, 0) + 0.75·(0, 23) = (3.5, 17.25). Influence 2 (vertex 1 on b0) moves by (0, −2).
  deform[2] = 1;
  deform[3] = 0;
  deform[4] = 0;
  deform[5] = -2;
  pose.deform_attachment[s] = rig.mesh;

  CpuVertices cv(rig.data);
  show(pose, rig.mesh);
  cv.update(pose);
  EXPECT_NEAR(cv.vertices()[0].x, 3.5f, kPixel);
  EXPECT_NEAR(cv.vertices()[0].y, 17.25f, kPixel);
  EXPECT_NEAR(cv.vertices()[1].y, 8.0f, kPixel);

  // A linked mesh whose deform source is the mesh takes the same offsets.
  show(pose, rig.linked);
  cv.update(pose);
  EXPECT_NEAR(cv.vertices()[0].y, 17.25f, kPixel);
  EXPECT_NEAR(cv.vertices()[1].y, 8.0f, kPixel);

  // Another attachment on the slot ignores floats that belong to the mesh.
  show(pose, rig.other);
  cv.update(pose);
  EXPECT_NEAR(cv.vertices()[0].y, 16.5f, kPixel);
  EXPECT_NEAR(cv.vertices()[1].y, 10.0f, kPixel);

  // And the mesh itself ignores them once they belong to someone else.
  pose.deform_attachment[s] = rig.other;
  show(pose, rig.mesh);
  cv.update(pose);
  EXPECT_NEAR(cv.vertices()[0].y, 16.5f, kPixel);
}

TEST(CpuVertices, LightIsSlotTimesAttachmentColourAndDarkComesFromTheSlot) {
  SkeletonData data;
  const int bone = add_bone(data, "root", -1);
  const int tinted = add_slot(data, "tinted", bone, Rgba8{255, 128, 0, 200});
  const int plain = add_slot(data, "plain", bone, Rgba8{255, 255, 255, 255});
  data.slots.has_dark[static_cast<std::size_t>(tinted)] = 1;
  data.slots.dark[static_cast<std::size_t>(tinted)] = Rgba8{10, 20, 30, 255};
  const std::int32_t a = add_box_region(data, tinted, "a", bone, 0, 0, 4, 4);
  const std::int32_t b = add_box_region(data, plain, "b", bone, 0, 0, 4, 4);
  data.attachments[static_cast<std::size_t>(a)].color = Rgba8{128, 255, 255, 128};
  SkeletonPose pose(data);
  show(pose, a);
  show(pose, b);
  CpuVertices cv(data);
  cv.update(pose);
  ASSERT_EQ(cv.vertices().size(), 8u);
  for (std::size_t i = 0; i < 4; ++i) {
    const CpuVertex& v = cv.vertices()[i];
    EXPECT_NEAR(v.light.r, 1.0f * (128 / 255.0f), kColor);
    EXPECT_NEAR(v.light.g, (128 / 255.0f) * 1.0f, kColor);
    EXPECT_NEAR(v.light.b, 0.0f, kColor);
    EXPECT_NEAR(v.light.a, (200 / 255.0f) * (128 / 255.0f), kColor);
    EXPECT_NEAR(v.dark.r, 10 / 255.0f, kColor);
    EXPECT_NEAR(v.dark.g, 20 / 255.0f, kColor);
    EXPECT_NEAR(v.dark.b, 30 / 255.0f, kColor);
    EXPECT_EQ(v.dark.a, 1.0f);
  }
  for (std::size_t i = 4; i < 8; ++i) {
    const CpuVertex& v = cv.vertices()[i];
    EXPECT_EQ(v.light, (ColorF{1, 1, 1, 1}));
    EXPECT_EQ(v.dark, (ColorF{0, 0, 0, 0})) << "no dark colour: zero";
  }
  // Animated slot colours are what counts, not the setup colours.
  pose.color[static_cast<std::size_t>(plain)] = {0.5f, 0.25f, 1, 0.5f};
  cv.update(pose);
  EXPECT_EQ(cv.vertices()[4].light, (ColorF{0.5f, 0.25f, 1, 0.5f}));
}

// Seven slots on one bone: pages and blends
//   0: page A normal, 1: page A normal, 2: page B normal, 3: page B additive, 4: page B additive,
//   5: a bounding box (draws nothing), 6: page B additive.
struct RunRig {
  SkeletonData data;
  std::vector<std::int32_t> attachments;
  RunRig() {
    const int bone = add_bone(data, "root", -1);
    data.pages.push_back({"A", 64, 64});
    data.pages.push_back({"B", 64, 64});
    const int pages[7] = {0, 0, 1, 1, 1, 1, 1};
    for (int i = 0; i < 7; ++i) {
      const int slot = add_slot(data, "s" + std::to_string(i), bone);
      if (i >= 3) data.slots.blend[static_cast<std::size_t>(slot)] = BlendMode::Additive;
      if (i == 5) {
        attachments.push_back(test::add_geometry(data, AttachmentKind::BoundingBox, slot, "box",
                                                 {{{bone, 1, 0, 0}}, {{bone, 1, 1, 0}}, {{bone, 1, 0, 1}}}, {}, {}));
      } else {
        attachments.push_back(add_box_region(data, slot, "r" + std::to_string(i), bone, static_cast<float>(i), 0, 1, 1, pages[i]));
      }
    }
  }
};

TEST(CpuVertices, RunsSplitByPageAndBlendAndMergeWhenEqual) {
  RunRig rig;
  SkeletonPose pose(rig.data);
  for (std::int32_t a : rig.attachments) show(pose, a);
  CpuVertices cv(rig.data);
  cv.update(pose);
  ASSERT_EQ(cv.runs().size(), 3u);
  const DrawRun& first = cv.runs()[0];
  EXPECT_EQ(first.page, 0);
  EXPECT_EQ(first.blend, BlendMode::Normal);
  EXPECT_FALSE(first.clipped);
  EXPECT_EQ(first.index_start, 0u);
  EXPECT_EQ(first.index_count, 12u);  // slots 0 and 1
  EXPECT_EQ(first.first_slot, 0);
  EXPECT_EQ(cv.runs()[1].page, 1);
  EXPECT_EQ(cv.runs()[1].blend, BlendMode::Normal);
  EXPECT_EQ(cv.runs()[1].index_start, 12u);
  EXPECT_EQ(cv.runs()[1].index_count, 6u);
  EXPECT_EQ(cv.runs()[1].first_slot, 2);
  EXPECT_EQ(cv.runs()[2].page, 1);
  EXPECT_EQ(cv.runs()[2].blend, BlendMode::Additive);
  EXPECT_EQ(cv.runs()[2].index_start, 18u);
  EXPECT_EQ(cv.runs()[2].index_count, 18u) << "slots 3, 4 and 6: the box between draws nothing";
  EXPECT_EQ(cv.runs()[2].first_slot, 3);
  EXPECT_EQ(cv.indices().size(), 36u);
  EXPECT_EQ(cv.drawn().size(), 6u);

  std::vector<float> box(6);
  ASSERT_EQ(world_vertex_count(rig.data.attachments[static_cast<std::size_t>(rig.attachments[5])]), 3u);
  compute_world_vertices(pose, 5, rig.attachments[5], box);
  EXPECT_EQ(box, (std::vector<float>{0, 0, 1, 0, 0, 1}));
}

TEST(CpuVertices, DrawOrderIsRespected) {
  RunRig rig;
  SkeletonPose pose(rig.data);
  for (std::int32_t a : rig.attachments) show(pose, a);
  // Page B normal (slot 2) moves to the back, page A slot 1 to the front.
  pose.draw_order = {2, 0, 3, 4, 5, 6, 1};
  CpuVertices cv(rig.data);
  cv.update(pose);
  std::vector<std::int32_t> slots;
  for (const DrawnAttachment& d : cv.drawn()) slots.push_back(d.slot);
  EXPECT_EQ(slots, (std::vector<std::int32_t>{2, 0, 3, 4, 6, 1}));
  // Slot 2's quad is centred on x = 2 and comes first in the vertex buffer.
  EXPECT_NEAR(cv.vertices()[0].x, 1.5f, kPixel);
  ASSERT_EQ(cv.runs().size(), 4u);
  EXPECT_EQ(cv.runs()[0].page, 1);
  EXPECT_EQ(cv.runs()[0].first_slot, 0);
  EXPECT_EQ(cv.runs()[1].page, 0);
  EXPECT_EQ(cv.runs()[1].first_slot, 1);
  EXPECT_EQ(cv.runs()[2].blend, BlendMode::Additive);
  EXPECT_EQ(cv.runs()[2].index_count, 18u);
  EXPECT_EQ(cv.runs()[2].first_slot, 2);
  EXPECT_EQ(cv.runs()[3].page, 0);
  EXPECT_EQ(cv.runs()[3].first_slot, 6);
  // Indices follow the order too: the first triangle is slot 2's.
  EXPECT_NEAR(cv.vertices()[cv.indices()[0]].x, 1.5f, kPixel);
}

TEST(CpuVertices, InactiveBonesAreSkipped) {
  SkeletonData data;
  const int root = add_bone(data, "root", -1);
  const int extra = add_bone(data, "extra", root, 50, 60);
  const int a = add_slot(data, "a", root);
  const int b = add_slot(data, "b", extra);
  const std::int32_t ra = add_box_region(data, a, "a", root, 0, 0, 2, 2);
  const std::int32_t rb = add_box_region(data, b, "b", extra, 0, 0, 2, 2);
  SkeletonPose pose(data);
  show(pose, ra);
  show(pose, rb);
  set_world(pose, extra, 1, 0, 0, 1, 50, 60);
  pose.active[static_cast<std::size_t>(extra)] = 0;
  CpuVertices cv(data);
  cv.update(pose);
  ASSERT_EQ(cv.drawn().size(), 1u);
  EXPECT_EQ(cv.drawn()[0].slot, a);
  EXPECT_EQ(cv.vertices().size(), 4u);
  EXPECT_NEAR(cv.bounds().max_x, 1.0f, kPixel);
  EXPECT_NEAR(pose_bounds(pose).max_x, 1.0f, kPixel);

  // Nothing visible: the bounds are the active bones' origins.
  pose.attachment[static_cast<std::size_t>(a)] = -1;
  cv.update(pose);
  EXPECT_TRUE(cv.vertices().empty());
  EXPECT_TRUE(cv.runs().empty());
  EXPECT_EQ(cv.bounds().min_x, 0.0f);
  EXPECT_EQ(cv.bounds().max_x, 0.0f);
  pose.active[static_cast<std::size_t>(extra)] = 1;
  pose.attachment[static_cast<std::size_t>(b)] = -1;
  cv.update(pose);
  EXPECT_EQ(cv.bounds().max_x, 50.0f);
  EXPECT_EQ(cv.bounds().max_y, 60.0f);
  EXPECT_EQ(pose_bounds(pose).max_y, 60.0f);
}

TEST(CpuVertices, SequenceFramePicksTheRegion) {
  SkeletonData data;
  const int bone = add_bone(data, "root", -1);
  const int slot = add_slot(data, "fx", bone);
  const std::uint32_t first = test::add_region_frame(data, 0.0f, 0, 0.25f, 1);
  test::add_region_frame(data, 0.25f, 0, 0.5f, 1, 0);
  test::add_region_frame(data, 0.5f, 0, 0.75f, 1, 0);
  const std::int32_t att = test::add_region(data, slot, "fx", bone, {0, 0, 1, 0, 1, 1, 0, 1}, first, 3);
  data.attachments[static_cast<std::size_t>(att)].sequence_setup = 1;
  SkeletonPose pose(data);
  show(pose, att);
  CpuVertices cv(data);
  cv.update(pose);
  EXPECT_NEAR(cv.vertices()[0].u, 0.25f, kUv) << "no key: the setup frame";
  EXPECT_NEAR(cv.vertices()[1].u, 0.5f, kUv);
  pose.sequence_index[static_cast<std::size_t>(slot)] = 2;
  cv.update(pose);
  EXPECT_NEAR(cv.vertices()[0].u, 0.5f, kUv);
  EXPECT_NEAR(cv.vertices()[1].u, 0.75f, kUv);
  pose.sequence_index[static_cast<std::size_t>(slot)] = 0;
  cv.update(pose);
  EXPECT_NEAR(cv.vertices()[0].u, 0.0f, kUv);
}

void expect_same_output(const CpuVertices& kept, const CpuVertices& fresh, int step) {
  ASSERT_EQ(kept.vertices().size(), fresh.vertices().size()) << "step " << step;
  for (std::size_t i = 0; i < kept.vertices().size(); ++i) {
    const CpuVertex &k = kept.vertices()[i], &f = fresh.vertices()[i];
    EXPECT_TRUE(k.x == f.x && k.y == f.y && k.u == f.u && k.v == f.v && k.light == f.light && k.dark == f.dark)
        << "step " << step << " vertex " << i;
  }
  ASSERT_EQ(kept.indices().size(), fresh.indices().size()) << "step " << step;
  for (std::size_t i = 0; i < kept.indices().size(); ++i) EXPECT_EQ(kept.indices()[i], fresh.indices()[i]) << "step " << step;
  ASSERT_EQ(kept.runs().size(), fresh.runs().size()) << "step " << step;
  EXPECT_EQ(kept.drawn().size(), fresh.drawn().size()) << "step " << step;
}

// An object updated frame after frame gives exactly what a new one gives for each frame's pose, while
// bones move and attachments, colours, sequence frames and the draw order change between frames (it
// rewrites only positions where the rest is unchanged).
TEST(CpuVertices, RepeatedUpdatesEqualAFreshUpdate) {
  SkeletonData data;
  const int root = add_bone(data, "root", -1);
  const int arm = add_bone(data, "arm", root, 10, 0);
  const int a = add_slot(data, "a", root);
  const int b = add_slot(data, "b", arm);
  const int c = add_slot(data, "c", arm);
  const std::int32_t small = add_box_region(data, a, "small", root, 0, 0, 4, 4);
  const std::vector<test::TestVertex> corners = {{{root, 1, 0, 0}}, {{root, 1, 5, 0}}, {{arm, 1, 0, 5}}};
  const std::int32_t tri = test::add_geometry(data, AttachmentKind::Mesh, a, "tri", corners, {0, 0, 1, 0, 0, 1}, {0, 1, 2});
  const std::uint32_t first = test::add_region_frame(data, 0.0f, 0, 0.5f, 1);
  test::add_region_frame(data, 0.5f, 0, 1.0f, 1, 0);
  const std::int32_t fx = test::add_region(data, b, "fx", arm, {0, 0, 2, 0, 2, 2, 0, 2}, first, 2);
  const std::int32_t box = add_box_region(data, c, "box", arm, -1, -1, 1, 1);
  SkeletonPose pose(data);
  show(pose, small);
  show(pose, fx);
  show(pose, box);
  CpuVertices kept(data);
  for (int step = 0; step < 12; ++step) {
    set_world(pose, root, 1, 0, 0, 1, static_cast<float>(step), 0);
    const float t = 0.3f * static_cast<float>(step);
    set_world(pose, arm, std::cos(t), -std::sin(t), std::sin(t), std::cos(t), 10.0f + static_cast<float>(step), 2);
    if (step == 3) show(pose, tri);                                           // another attachment, other size
    if (step == 5) pose.color[static_cast<std::size_t>(c)] = {1, 0.5f, 0.25f, 1};  // a colour
    if (step == 6) pose.sequence_index[static_cast<std::size_t>(b)] = 1;        // another frame
    if (step == 8) std::swap(pose.draw_order[0], pose.draw_order[2]);           // another order
    if (step == 9) pose.attachment[static_cast<std::size_t>(b)] = -1;           // one slot hidden
    if (step == 10) show(pose, fx);                                            // and shown again
    kept.update(pose);
    CpuVertices fresh(data);
    fresh.update(pose);
    expect_same_output(kept, fresh, step);
  }
}

// A clip square [0, 10]² on slot "mask", clipping up to slot "inner2"; "outer" after it is not clipped.
struct ClipRig {
  SkeletonData data;
  int bone, mask, inner1, inner2, outer;
  std::int32_t clip, r1, r2, r3;
  ClipRig() {
    bone = add_bone(data, "root", -1);
    mask = add_slot(data, "mask", bone);
    inner1 = add_slot(data, "inner1", bone);
    inner2 = add_slot(data, "inner2", bone);
    outer = add_slot(data, "outer", bone);
    clip = test::add_clipping(data, mask, "mask", bone, {0, 0, 10, 0, 10, 10, 0, 10}, inner2);
    // 20 × 10 centred on (10, 5): its left half is inside. UV u runs 0 → 1 over x = 0 → 20.
    r1 = add_box_region(data, inner1, "r1", bone, 10, 5, 20, 10);
    r2 = add_box_region(data, inner2, "r2", bone, 5, 5, 4, 4);  // fully inside
    r3 = add_box_region(data, outer, "r3", bone, 20, 5, 20, 10);
  }
};

TEST(CpuVertices, ClippedSlotsAreCutToTheClipPolygon) {
  ClipRig rig;
  SkeletonPose pose(rig.data);
  for (std::int32_t a : {rig.clip, rig.r1, rig.r2, rig.r3}) show(pose, a);
  CpuVertices cv(rig.data);
  cv.update(pose);
  EXPECT_EQ(cv.dropped_triangles(), 0u);
  ASSERT_EQ(cv.drawn().size(), 3u);
  const DrawnAttachment& d1 = cv.drawn()[0];
  const DrawnAttachment& d2 = cv.drawn()[1];
  const DrawnAttachment& d3 = cv.drawn()[2];
  EXPECT_TRUE(d1.clipped);
  EXPECT_TRUE(d2.clipped);
  EXPECT_FALSE(d3.clipped) << "after the end slot";
  EXPECT_NEAR(triangle_area(cv, d1.index_start, d1.index_count), 100.0, 1e-3);
  EXPECT_NEAR(triangle_area(cv, d2.index_start, d2.index_count), 16.0, 1e-3);
  EXPECT_NEAR(triangle_area(cv, d3.index_start, d3.index_count), 200.0, 1e-3);
  for (std::uint32_t i = d1.vertex_start; i < d1.vertex_start + d1.vertex_count; ++i) {
    const CpuVertex& v = cv.vertices()[i];
    EXPECT_GE(v.x, -kPixel);
    EXPECT_LE(v.x, 10 + kPixel);
    // UVs interpolate linearly across the cut: u = x / 20, v = y / 10.
    EXPECT_NEAR(v.u, v.x / 20, 1e-5f);
    EXPECT_NEAR(v.v, v.y / 10, 1e-5f);
    EXPECT_EQ(v.light, (ColorF{1, 1, 1, 1}));
  }
  // Each region has its own page: two clipped runs, then the outer slot's.
  ASSERT_EQ(cv.runs().size(), 3u);
  EXPECT_TRUE(cv.runs()[0].clipped);
  EXPECT_TRUE(cv.runs()[1].clipped);
  EXPECT_FALSE(cv.runs()[2].clipped);
  EXPECT_EQ(cv.runs()[2].first_slot, 3);
  const Bounds b = cv.bounds();
  EXPECT_NEAR(b.min_x, 0, kPixel);
  EXPECT_NEAR(b.max_x, 30, kPixel);

  // The clip follows its bone: moving the bone moves the mask and the slots together.
  set_world(pose, rig.bone, 1, 0, 0, 1, 5, 0);
  cv.update(pose);
  EXPECT_NEAR(triangle_area(cv, cv.drawn()[0].index_start, cv.drawn()[0].index_count), 100.0, 1e-3);
  EXPECT_NEAR(cv.bounds().min_x, 5, kPixel);
}

TEST(CpuVertices, ClipRangeRunsToTheEndWithoutAnEndSlot) {
  ClipRig rig;
  rig.data.attachments[static_cast<std::size_t>(rig.clip)].end_slot = -1;
  SkeletonPose pose(rig.data);
  for (std::int32_t a : {rig.clip, rig.r1, rig.r2, rig.r3}) show(pose, a);
  CpuVertices cv(rig.data);
  cv.update(pose);
  ASSERT_EQ(cv.drawn().size(), 3u);
  EXPECT_TRUE(cv.drawn()[2].clipped);
  EXPECT_NEAR(triangle_area(cv, cv.drawn()[2].index_start, cv.drawn()[2].index_count), 0.0, 1e-3)
      << "r3 spans x 10 … 30, outside the mask";
  EXPECT_EQ(cv.drawn()[2].vertex_count, 0u);

  // Slots drawn before the mask in draw order are not clipped.
  pose.draw_order = {2, 0, 1, 3};
  cv.update(pose);
  ASSERT_EQ(cv.drawn().size(), 3u);
  EXPECT_EQ(cv.drawn()[0].slot, rig.inner2);
  EXPECT_FALSE(cv.drawn()[0].clipped);
  EXPECT_TRUE(cv.drawn()[1].clipped);
}

TEST(CpuVertices, ConcaveClipPolygonClipsToItsArea) {
  SkeletonData data;
  const int bone = add_bone(data, "root", -1);
  const int mask_bone = add_bone(data, "mask", bone);
  const int mask = add_slot(data, "mask", mask_bone);
  const int art = add_slot(data, "art", bone);
  // An L of area 300: [0, 20] × [0, 10] ∪ [0, 10] × [0, 20].
  const std::int32_t clip =
      test::add_clipping(data, mask, "mask", mask_bone, {0, 0, 20, 0, 20, 10, 10, 10, 10, 20, 0, 20});
  const std::int32_t r = add_box_region(data, art, "art", bone, 10, 10, 20, 20);  // covers [0, 20]²
  SkeletonPose pose(data);
  show(pose, clip);
  show(pose, r);
  CpuVertices cv(data);
  cv.update(pose);
  ASSERT_EQ(cv.drawn().size(), 1u);
  EXPECT_NEAR(triangle_area(cv, 0, static_cast<std::uint32_t>(cv.indices().size())), 300.0, 1e-3);
  for (const CpuVertex& v : cv.vertices()) EXPECT_FALSE(v.x > 10 + kPixel && v.y > 10 + kPixel) << "inside the notch";

  // The mask's bone inactive: no clipping at all.
  pose.active[static_cast<std::size_t>(mask_bone)] = 0;
  cv.update(pose);
  EXPECT_FALSE(cv.drawn()[0].clipped);
  EXPECT_NEAR(triangle_area(cv, 0, static_cast<std::uint32_t>(cv.indices().size())), 400.0, 1e-3);
}

TEST(CpuVertices, ClippedOutputBeyondTheCapIsDroppedAndCounted) {
  ClipRig rig;
  SkeletonPose pose(rig.data);
  for (std::int32_t a : {rig.clip, rig.r1, rig.r2, rig.r3}) show(pose, a);
  CpuVertices cv(rig.data, 4);  // room for 4 clipped vertices
  const std::size_t capacity = cv.vertex_capacity();
  cv.update(pose);
  EXPECT_GT(cv.dropped_triangles(), 0u);
  EXPECT_LE(cv.vertices().size(), capacity);
  EXPECT_LE(cv.indices().size(), cv.index_capacity());
  for (std::uint32_t i : cv.indices()) EXPECT_LT(i, cv.vertices().size());
  // The unclipped slot after the range is still drawn whole.
  EXPECT_NEAR(triangle_area(cv, cv.drawn().back().index_start, cv.drawn().back().index_count), 200.0, 1e-3);
  EXPECT_EQ(cv.vertex_capacity(), capacity) << "nothing grows";
}

TEST(CpuVertices, ComputeWorldVerticesOfAPoint) {
  SkeletonData data;
  const int bone = add_bone(data, "root", -1);
  const int slot = add_slot(data, "spawn", bone);
  AttachmentRecord point;
  point.kind = AttachmentKind::Point;
  point.name = test::intern(data, "muzzle");
  point.slot = slot;
  point.x = 3;
  point.y = 4;
  data.attachments.push_back(point);
  SkeletonPose pose(data);
  set_world(pose, bone, 0, -2, 2, 0, 100, 200);  // rotated 90°, scaled 2
  ASSERT_EQ(world_vertex_count(point), 1u);
  std::vector<float> out(2);
  compute_world_vertices(pose, slot, 0, out);
  EXPECT_NEAR(out[0], 100 - 8, kPixel);
  EXPECT_NEAR(out[1], 200 + 6, kPixel);
}

// compute_clip_bounds: a bone moving from x = 0 to 100 over a second carries a 10 × 10 box; a second
// skin swaps in a 30 × 30 box.
TEST(CpuVerticesBounds, ClipBoundsCoverEverySampleAndSkin) {
  SkeletonData data;
  const int bone = add_bone(data, "root", -1);
  const int slot = add_slot(data, "body", bone);
  const std::int32_t small = add_box_region(data, slot, "body", bone, 0, 0, 10, 10);
  const std::int32_t big = add_box_region(data, slot, "body", bone, 0, 0, 30, 30);
  test::set_setup_attachment(data, slot, "body");
  test::add_skin(data, "default", {small});

  auto clip = std::make_shared<ClipData>();
  clip->name = "walk";
  clip->length = 1;
  test::add_timeline(*clip, TimelineKind::Translate, bone, 2, {0, 1}, {0, 0, 100, 20});

  Bounds b = compute_clip_bounds(data, *clip);
  EXPECT_NEAR(b.min_x, -5, kPixel);
  EXPECT_NEAR(b.max_x, 105, kPixel);
  EXPECT_NEAR(b.min_y, -5, kPixel);
  EXPECT_NEAR(b.max_y, 25, kPixel);

  // A stored clip gives the same, and a second skin composed over the first widens the bounds.
  test::add_skin(data, "giant", {big});
  test::add_clip(data, clip);
  b = compute_clip_bounds(data, *clip);
  EXPECT_NEAR(b.min_x, -15, kPixel);
  EXPECT_NEAR(b.max_x, 115, kPixel);
  EXPECT_NEAR(b.max_y, 35, kPixel);
}

TEST(CpuVerticesBounds, MidpointsCatchMotionBetweenKeys) {
  // Rotation from 0° to 180° (relative to setup) swings a long arm through 90° at mid-clip, where
  // its tip is furthest down; key times alone would miss it.
  SkeletonData data;
  const int bone = add_bone(data, "root", -1);
  const int slot = add_slot(data, "arm", bone);
  const std::int32_t arm = add_box_region(data, slot, "arm", bone, 50, 0, 100, 2);
  test::set_setup_attachment(data, slot, "arm");
  test::add_skin(data, "default", {arm});
  ClipData clip;
  clip.name = "swing";
  clip.length = 2;
  test::add_timeline(clip, TimelineKind::Rotate, bone, 1, {0, 2}, {0, 180});
  const Bounds b = compute_clip_bounds(data, clip);
  EXPECT_NEAR(b.max_y, 100, 1e-3f) << "the arm points straight down at t = 1 (90°, clockwise on screen)";
  EXPECT_NEAR(b.min_x, -100, 1e-3f);
  EXPECT_NEAR(b.max_x, 100, 1e-3f);
}

}  // namespace
}  // namespace mf::skel
