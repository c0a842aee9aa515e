// Deform on every vertex attachment, not only meshes: a deformed path moves the bones of its path
// constraint, a deformed clipping polygon clips with its deformed outline, and a deformed bounding
// box reports its deformed vertices. The rig is tests/data/spine/vertex-deform.json, a Spine-format
// fixture of our own, imported and compiled as a game would, then posed by the runtime.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "mf/skel/cpu_vertices.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "spine_fixture_rig.hpp"

namespace mf::skel {
namespace {

// World positions are sums of a few products of pixel-sized floats.
constexpr float kPositionTolerance = 1e-3f;
// The path constraint places by arc length from a table of curve samples; on a straight path with
// evenly spaced control points the table is exact up to float rounding.
constexpr float kPathTolerance = 1e-2f;
constexpr float kAngleTolerance = 1e-2f;  // degrees

struct Point {
  float x, y;
};

// The imported setup vertices of an unweighted attachment plus the imported deform key's offsets:
// the deformed polygon in the slot bone's space (here the root's, which is the identity).
std::vector<Point> deformed_outline(const test::SpineFixtureRig& rig, const std::string& attachment) {
  const offline::SkeletonSource& s = rig.source.skeleton;
  const offline::Vertices* vertices = nullptr;
  for (const offline::Attachment& a : s.skins[0].attachments)
    if (a.name == attachment) {
      if (const auto* p = std::get_if<offline::PathAttachment>(&a.data)) vertices = &p->vertices;
      if (const auto* c = std::get_if<offline::ClippingAttachment>(&a.data)) vertices = &c->vertices;
    }
  if (!vertices) {
    ADD_FAILURE() << "no attachment " << attachment;
    return {};
  }
  std::vector<float> xy = vertices->positions;
  for (const offline::DeformTimeline& d : rig.source.clips[0].second.deforms)
    if (d.attachment == attachment)
      for (std::size_t i = 0; i < d.keys[0].values.size(); ++i)
        xy[static_cast<std::size_t>(d.keys[0].offset) + i] += d.keys[0].values[i];
  std::vector<Point> out;
  for (std::size_t i = 0; i + 1 < xy.size(); i += 2) out.push_back({xy[i], xy[i + 1]});
  return out;
}

// The attachment the slot shows in the setup pose.
std::int32_t setup_attachment(const SkeletonInstance& instance, const std::string& slot) {
  return instance.pose().attachment[static_cast<std::size_t>(instance.data().find_slot(slot))];
}

anim::ClipSample deform_sample(const SkeletonData& data) { return loop_sample(data, data.find_clip("deform"), 0, 0, false); }

TEST(VertexDeform, PathConstraintFollowsTheDeformedPath) {
  test::SpineFixtureRig rig;
  ASSERT_TRUE(test::load_spine_fixture("vertex-deform.json", rig));
  SkeletonInstance instance(*rig.data);
  const auto rider = static_cast<std::size_t>(rig.data->find_bone("rider"));

  // Setup: the path runs from (0, 0) to (100, 0); position 0.5 puts the rider halfway, facing +x.
  instance.update({});
  EXPECT_NEAR(instance.pose().world_x[rider], 50, kPathTolerance);
  EXPECT_NEAR(instance.pose().world_y[rider], 0, kPathTolerance);

  // Deformed: the knots turn onto the +y axis. The one segment's bezier, from the deformed points by
  // hand: p0 = v1, c1 = v2, c2 = v3, p3 = v4. The control points are evenly spaced on one line, so
  // the bezier runs at constant speed and half its arc length is at t = 0.5:
  // B(0.5) = (p0 + 3·c1 + 3·c2 + p3) / 8; its tangent there is the line's direction p3 − p0.
  const std::vector<Point> v = deformed_outline(rig, "track");
  ASSERT_EQ(v.size(), 6u);
  const Point p0 = v[1], c1 = v[2], c2 = v[3], p3 = v[4];
  const float expected_x = (p0.x + 3 * c1.x + 3 * c2.x + p3.x) / 8;
  const float expected_y = (p0.y + 3 * c1.y + 3 * c2.y + p3.y) / 8;
  EXPECT_NEAR(expected_x, 0, kPositionTolerance);  // the fixture's intent: halfway down the +y axis
  EXPECT_NEAR(expected_y, 50, kPositionTolerance);
  const float expected_rotation = std::atan2(p3.y - p0.y, p3.x - p0.x) * 180 / std::numbers::pi_v<float>;

  const anim::ClipSample sample = deform_sample(*rig.data);
  instance.update({&sample, 1});
  const SkeletonPose& pose = instance.pose();
  EXPECT_NEAR(pose.world_x[rider], expected_x, kPathTolerance);
  EXPECT_NEAR(pose.world_y[rider], expected_y, kPathTolerance);
  EXPECT_NEAR(std::atan2(pose.c[rider], pose.a[rider]) * 180 / std::numbers::pi_v<float>, expected_rotation,
              kAngleTolerance);

  // compute_world_vertices reports the same deformed path the constraint followed.
  std::vector<float> world(12);
  compute_world_vertices(pose, rig.data->find_slot("track"), setup_attachment(instance, "track"), world);
  for (std::size_t i = 0; i < v.size(); ++i) {
    EXPECT_NEAR(world[2 * i], v[i].x, kPositionTolerance) << i;
    EXPECT_NEAR(world[2 * i + 1], v[i].y, kPositionTolerance) << i;
  }
}

// Even-odd point-in-polygon, with points within `tolerance` of an edge counted as inside.
bool inside(const std::vector<Point>& poly, float x, float y, float tolerance) {
  bool in = false;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const Point a = poly[j], b = poly[i];
    const float ex = b.x - a.x, ey = b.y - a.y;
    const float len2 = ex * ex + ey * ey;
    const float t = std::clamp(((x - a.x) * ex + (y - a.y) * ey) / len2, 0.0f, 1.0f);
    if (std::hypot(a.x + t * ex - x, a.y + t * ey - y) <= tolerance) return true;
    if ((a.y > y) != (b.y > y) && x < ex * (y - a.y) / ey + a.x) in = !in;
  }
  return in;
}

// Area of the triangles `drawn` added, from the CPU vertices.
double drawn_area(const CpuVertices& cpu, const DrawnAttachment& drawn) {
  double area = 0;
  for (std::uint32_t k = drawn.index_start; k + 2 < drawn.index_start + drawn.index_count; k += 3) {
    const CpuVertex& a = cpu.vertices()[cpu.indices()[k]];
    const CpuVertex& b = cpu.vertices()[cpu.indices()[k + 1]];
    const CpuVertex& c = cpu.vertices()[cpu.indices()[k + 2]];
    area += std::abs((static_cast<double>(b.x) - a.x) * (c.y - a.y) - (static_cast<double>(c.x) - a.x) * (b.y - a.y)) / 2;
  }
  return area;
}

TEST(VertexDeform, DeformedClippingPolygonClips) {
  test::SpineFixtureRig rig;
  ASSERT_TRUE(test::load_spine_fixture("vertex-deform.json", rig));
  SkeletonInstance instance(*rig.data);
  const std::int32_t picture_slot = rig.data->find_slot("picture");
  const auto picture = [&](const CpuVertices& cpu) -> const DrawnAttachment* {
    for (const DrawnAttachment& d : cpu.drawn())
      if (d.slot == picture_slot) return &d;
    return nullptr;
  };

  // Setup: the 400 × 400 picture is clipped to the 200 × 200 mask.
  instance.update({});
  const DrawnAttachment* setup = picture(instance.vertices());
  ASSERT_NE(setup, nullptr);
  EXPECT_TRUE(setup->clipped);
  EXPECT_NEAR(drawn_area(instance.vertices(), *setup), 200.0 * 200.0, 1e-1);

  // Deformed: the mask becomes the 80 × 60 rectangle from (0, 0) to (80, −60).
  const std::vector<Point> mask = deformed_outline(rig, "mask");
  ASSERT_EQ(mask.size(), 4u);
  const anim::ClipSample sample = deform_sample(*rig.data);
  instance.update({&sample, 1});
  const CpuVertices& cpu = instance.vertices();
  const DrawnAttachment* clipped = picture(cpu);
  ASSERT_NE(clipped, nullptr);
  EXPECT_TRUE(clipped->clipped);
  ASSERT_GT(clipped->vertex_count, 0u);
  float min_x = 1e9f, max_x = -1e9f, min_y = 1e9f, max_y = -1e9f;
  for (std::uint32_t i = clipped->vertex_start; i < clipped->vertex_start + clipped->vertex_count; ++i) {
    const CpuVertex& p = cpu.vertices()[i];
    EXPECT_TRUE(inside(mask, p.x, p.y, kPositionTolerance)) << "vertex " << i << " at " << p.x << ", " << p.y;
    min_x = std::min(min_x, p.x);
    max_x = std::max(max_x, p.x);
    min_y = std::min(min_y, p.y);
    max_y = std::max(max_y, p.y);
  }
  // And it fills the deformed polygon: its corners are reached and the area is the rectangle's.
  EXPECT_NEAR(min_x, 0, kPositionTolerance);
  EXPECT_NEAR(max_x, 80, kPositionTolerance);
  EXPECT_NEAR(min_y, -60, kPositionTolerance);
  EXPECT_NEAR(max_y, 0, kPositionTolerance);
  EXPECT_NEAR(drawn_area(cpu, *clipped), 80.0 * 60.0, 1e-1);
}

TEST(VertexDeform, WeightedBoundingBoxVerticesMoveByTheDeform) {
  test::SpineFixtureRig rig;
  ASSERT_TRUE(test::load_spine_fixture("vertex-deform.json", rig));
  SkeletonInstance instance(*rig.data);
  const std::int32_t slot = rig.data->find_slot("hit");
  const std::int32_t box = setup_attachment(instance, "hit");
  ASSERT_GE(box, 0);
  ASSERT_EQ(rig.data->attachments[static_cast<std::size_t>(box)].kind, AttachmentKind::BoundingBox);

  instance.update({});
  std::vector<float> before(6);
  compute_world_vertices(instance.pose(), slot, box, before);
  const anim::ClipSample sample = deform_sample(*rig.data);
  instance.update({&sample, 1});
  std::vector<float> after(6);
  compute_world_vertices(instance.pose(), slot, box, after);

  // Offsets are added in each influence's bone space before the world transform. The arm is turned
  // 90° counter-clockwise on screen (Spine's rotation 90, ours −90), so its matrix maps a bone-space
  // (x, y) to (y, −x): vertex 0's offset (10, 0) moves it by (0, −10); vertex 1's two influences have
  // zero offsets, so it stays; vertex 2's offset (0, −5) (Spine's 5 up, flipped) moves it by (−5, 0).
  EXPECT_NEAR(after[0] - before[0], 0, kPositionTolerance);
  EXPECT_NEAR(after[1] - before[1], -10, kPositionTolerance);
  EXPECT_NEAR(after[2] - before[2], 0, kPositionTolerance);
  EXPECT_NEAR(after[3] - before[3], 0, kPositionTolerance);
  EXPECT_NEAR(after[4] - before[4], -5, kPositionTolerance);
  EXPECT_NEAR(after[5] - before[5], 0, kPositionTolerance);
}

}  // namespace
}  // namespace mf::skel
