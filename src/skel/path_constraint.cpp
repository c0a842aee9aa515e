// Path constraints: bones placed along the world-space bezier of the Path attachment their target slot
// shows.
//
// The path. Control points come three per knot (in-handle, point, out-handle); curve segment k runs
// from knot k's point through its out-handle and knot k+1's in-handle to knot k+1's point, the last
// knot joining the first on a closed path. The control points are taken in world space every solve
// (weights, deform and bone motion all apply). Distances along the path come from one of two tables of
// cumulative lengths:
//   constant speed  each segment is sampled at kPathCurveSegments equal parameter steps and the chord
//                   lengths are summed into the constraint's scratch, once per solve; a distance finds its
//                   sample in that table and maps linearly to the bezier parameter within the sample,
//                   so bones move at a nearly constant speed along the curve even where the handles are
//                   uneven (exactly constant along each sample's chord length, the parameter linear).
//   otherwise       the setup lengths stored with the attachment (one per segment, its end); a distance
//                   within a segment maps linearly to the bezier parameter. Cheaper, and uneven where the
//                   handles are (or have been deformed to be) uneven.
// A closed path wraps distances around its total length. An open path continues past its ends in a
// straight line along the end tangents (the direction the curve leaves its first point and reaches its
// last one), as an editor draws the path's extension.
//
// Placement. The first bone sits at `position` (pixels for PositionMode::Fixed, a fraction of the total
// length for Percent); each next one is its spacing further: SpacingMode::Length the previous bone's
// world length + `spacing` pixels, Fixed `spacing` pixels, Percent `spacing` × total length,
// Proportional `spacing` × total length shared out in proportion to the bones' world lengths (so
// spacing 1 fills the path; bones all of length 0 share it equally). One more place, the last bone's
// spacing past it, gives the last bone a point to aim at. All places are computed from the pose as it
// was before the constraint moved anything.
//
// Each bone, starting from its world transform as it was before the constraint (one whose parent the
// constraint moves is not first recomputed from it), moves towards its place by mix_x and mix_y
// (world position) and turns its world X axis by mix_rotate towards: the path tangent
// at its place (RotateMode::Tangent), or the direction from its place to the next place (Chain and
// ChainScale: the chord between the two places on the path, wherever the translation mixes leave the
// bone), plus offset_rotation. ChainScale also scales the bone's world X axis so the bone reaches
// the next place (its length times the scale equals the distance), mixed by mix_rotate; a bone of
// length 0 is not scaled. Places follow the constraint's list order, which need not be the hierarchy's.
// The new world transforms are then written back as local poses (bone_world_edit.hpp), parents before
// children and each relative to its parent's final world transform, so every bone ends exactly where it
// was placed whatever the order of the list, and the update order recomputes descendants as usual.
//
// A bone that is inactive (skin-required, not in the skin) while the constraint is active is placed
// like the others, from the world transform it holds (the identity at the origin until first changed),
// and keeps the result as its world transform, its local pose untouched: it draws nothing, but reads
// of its world transform see it.
//
// Nothing allocates here: the scratch is sized by init_path_scratch for the largest Path attachment
// the target slot can show and the number of bones. A slot showing no Path attachment (or one larger
// than the scratch, only possible through an attachment set from code) leaves the bones alone.

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "bone_world_edit.hpp"
#include "mf/core/math/angle.hpp"
#include "mf/core/math/hypot.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/cpu_vertices.hpp"
#include "mf/skel/world_transform.hpp"

namespace mf::skel {
namespace {

// Samples per curve segment of the constant-speed arc-length table (PathCurveSegments).
constexpr std::uint32_t kPathCurveSegments = 10;

// Floats of a constraint's scratch range for paths of up to `points` control points and `bones` bones.
std::size_t scratch_floats(std::uint32_t points, std::size_t bones) {
  return 2 * std::size_t{points} + kPathCurveSegments * std::size_t{points / 3} + 3 * (bones + 1) + 6 * bones;
}

struct Bezier {
  float x0, y0, x1, y1, x2, y2, x3, y3;

  void at(float t, float& x, float& y) const {
    const float u = 1 - t;
    const float w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t;
    x = w0 * x0 + w1 * x1 + w2 * x2 + w3 * x3;
    y = w0 * y0 + w1 * y1 + w2 * y2 + w3 * y3;
  }

  // Direction of travel at t in degrees, or NaN when the whole segment is a point. Where a handle sits
  // on its knot the derivative vanishes at that end; the limit direction is then towards the next
  // distinct control point.
  float direction(float t) const {
    constexpr float kTiny = 1e-12f;
    const float u = 1 - t;
    float dx = u * u * (x1 - x0) + 2 * u * t * (x2 - x1) + t * t * (x3 - x2);
    float dy = u * u * (y1 - y0) + 2 * u * t * (y2 - y1) + t * t * (y3 - y2);
    if (dx * dx + dy * dy <= kTiny) {
      dx = t < 0.5f ? x2 - x0 : x3 - x1;
      dy = t < 0.5f ? y2 - y0 : y3 - y1;
    }
    if (dx * dx + dy * dy <= kTiny) {
      dx = x3 - x0;
      dy = y3 - y0;
    }
    if (dx * dx + dy * dy <= kTiny) return std::numeric_limits<float>::quiet_NaN();
    return std::atan2(dy, dx) * kRadToDeg;
  }
};

// A path in world space with its cumulative length table.
struct PathView {
  const float* points;  // x, y pairs
  std::uint32_t count;  // control points
  std::uint32_t segments;
  bool closed;
  const float* lengths;  // cumulative length at the end of each table entry
  std::uint32_t per_segment;  // table entries per segment: kPathCurveSegments, or 1 for setup lengths
  float total;

  Bezier segment(std::uint32_t k) const {
    const std::uint32_t i0 = 3 * k + 1, i1 = i0 + 1, i2 = (i0 + 2) % count, i3 = (i0 + 3) % count;
    return {points[2 * i0], points[2 * i0 + 1], points[2 * i1], points[2 * i1 + 1],
            points[2 * i2], points[2 * i2 + 1], points[2 * i3], points[2 * i3 + 1]};
  }

  // Writes x, y and the tangent angle (degrees, NaN when undefined) of the point `distance` along.
  // Without `tangent` the angle is NaN on the path (its arctangent is not computed); beyond the
  // ends it is still the end's tangent, which the position follows.
  void place(float distance, float* out, bool tangent) const {
    if (closed && total > 0) {
      distance = std::fmod(distance, total);
      if (distance < 0) distance += total;
    }
    if (distance <= 0 || total <= 0) {
      extend(segment(0), 0.0f, distance, out);
      return;
    }
    if (distance >= total) {
      extend(segment(segments - 1), 1.0f, distance - total, out);
      return;
    }
    const std::uint32_t entries = segments * per_segment;
    const std::uint32_t e = static_cast<std::uint32_t>(std::lower_bound(lengths, lengths + entries, distance) - lengths);
    const std::uint32_t entry = std::min(e, entries - 1);
    const float before = entry > 0 ? lengths[entry - 1] : 0.0f;
    const float span = lengths[entry] - before;
    const float fraction = span > 0 ? std::clamp((distance - before) / span, 0.0f, 1.0f) : 0.0f;
    const float step = 1.0f / static_cast<float>(per_segment);
    const float t0 = static_cast<float>(entry % per_segment) * step;
    const Bezier b = segment(entry / per_segment);
    const float t = t0 + fraction * step;
    b.at(t, out[0], out[1]);
    out[2] = tangent ? b.direction(t) : std::numeric_limits<float>::quiet_NaN();
  }

  // The end of `b` at parameter `t` (0 or 1), moved `beyond` pixels along its tangent there.
  static void extend(const Bezier& b, float t, float beyond, float* out) {
    b.at(t, out[0], out[1]);
    const float angle = b.direction(t);
    out[2] = angle;
    if (beyond != 0 && !std::isnan(angle)) {
      out[0] += std::cos(angle * kDegToRad) * beyond;
      out[1] += std::sin(angle * kDegToRad) * beyond;
    }
  }
};

// Fills `table` with the cumulative chord lengths of kPathCurveSegments equal parameter steps per
// segment.
void measure(const PathView& path, float* table) {
  float total = 0;
  for (std::uint32_t k = 0; k < path.segments; ++k) {
    const Bezier b = path.segment(k);
    float px = b.x0, py = b.y0;
    for (std::uint32_t j = 1; j <= kPathCurveSegments; ++j) {
      float x, y;
      b.at(static_cast<float>(j) / kPathCurveSegments, x, y);
      total += hypot_float(x - px, y - py);
      table[k * kPathCurveSegments + j - 1] = total;
      px = x;
      py = y;
    }
  }
}

float world_length(const SkeletonPose& pose, std::int32_t bone) {
  const auto i = static_cast<std::size_t>(bone);
  return pose.data().bones.length[i] * hypot_float(pose.a[i], pose.c[i]);
}

float spacing_after(const PathData& c, const PathPose& pp, const SkeletonPose& pose, std::size_t i, float total,
                    float length_sum) {
  switch (c.spacing_mode) {
    case SpacingMode::Length: return world_length(pose, c.bones[i]) + pp.spacing;
    case SpacingMode::Fixed: return pp.spacing;
    case SpacingMode::Percent: return pp.spacing * total;
    case SpacingMode::Proportional:
      return length_sum > 0 ? world_length(pose, c.bones[i]) / length_sum * pp.spacing * total
                            : pp.spacing * total / static_cast<float>(c.bones.size());
  }
  return 0;
}

void consider(std::uint32_t& capacity, const AttachmentRecord& a) {
  if (a.kind == AttachmentKind::Path) capacity = std::max(capacity, a.vertex_count);
}

}  // namespace

void init_path_scratch(SkeletonPose& pose) {
  const SkeletonData& data = pose.data();
  PathScratch& s = pose.path_scratch;
  s.start.assign(data.path.size(), 0);
  s.point_capacity.assign(data.path.size(), 0);
  std::size_t total = 0;
  for (std::size_t i = 0; i < data.path.size(); ++i) {
    const PathData& c = data.path[i];
    // Every Path attachment that can be shown in the target slot: those made for it, and those any
    // skin places there.
    std::uint32_t capacity = 0;
    for (const AttachmentRecord& a : data.attachments)
      if (a.slot == c.target_slot) consider(capacity, a);
    for (const SkinData& skin : data.skins)
      for (const SkinEntry& e : skin.entries)
        if (e.slot == c.target_slot && e.attachment >= 0 && static_cast<std::size_t>(e.attachment) < data.attachments.size())
          consider(capacity, data.attachments[static_cast<std::size_t>(e.attachment)]);
    s.start[i] = static_cast<std::uint32_t>(total);
    s.point_capacity[i] = capacity;
    total += scratch_floats(capacity, c.bones.size());
  }
  s.floats.assign(total, 0.0f);
}

void solve_path(SkeletonPose& pose, int index) {
  const SkeletonData& data = pose.data();
  const auto ci = static_cast<std::size_t>(index);
  const PathData& c = data.path[ci];
  const PathPose& pp = pose.path[ci];
  if (pp.mix_rotate == 0 && pp.mix_x == 0 && pp.mix_y == 0) return;
  if (c.bones.empty() || c.target_slot < 0 || static_cast<std::size_t>(c.target_slot) >= data.slots.size()) return;
  const auto slot = static_cast<std::size_t>(c.target_slot);
  if (!pose.active[static_cast<std::size_t>(data.slots.bone[slot])]) return;
  const std::int32_t attachment = pose.attachment[slot];
  if (attachment < 0 || static_cast<std::size_t>(attachment) >= data.attachments.size()) return;
  const AttachmentRecord& att = data.attachments[static_cast<std::size_t>(attachment)];
  if (att.kind != AttachmentKind::Path) return;
  PathScratch& scratch = pose.path_scratch;
  if (ci >= scratch.start.size()) return;
  const std::uint32_t capacity = scratch.point_capacity[ci];
  const std::uint32_t count = att.vertex_count;
  if (count < 6 || count % 3 != 0 || count > capacity) return;

  float* world = scratch.floats.data() + scratch.start[ci];
  float* table = world + 2 * std::size_t{capacity};
  float* places = table + kPathCurveSegments * std::size_t{capacity / 3};
  compute_world_vertices(pose, c.target_slot, attachment, std::span<float>(world, 2 * std::size_t{count}));

  PathView path{};
  path.points = world;
  path.count = count;
  path.closed = att.closed;
  path.segments = att.closed ? count / 3 : count / 3 - 1;
  if (!att.constant_speed && att.lengths_count == path.segments &&
      std::size_t{att.lengths_start} + att.lengths_count <= data.path_lengths.size()) {
    path.lengths = data.path_lengths.data() + att.lengths_start;
    path.per_segment = 1;
  } else {
    measure(path, table);
    path.lengths = table;
    path.per_segment = kPathCurveSegments;
  }
  path.total = path.lengths[path.segments * path.per_segment - 1];

  // Places, from the pose before any bone moves.
  const std::size_t n = c.bones.size();
  float length_sum = 0;
  if (c.spacing_mode == SpacingMode::Proportional)
    for (const std::int32_t bone : c.bones) length_sum += world_length(pose, bone);
  float distance = c.position_mode == PositionMode::Percent ? pp.position * path.total : pp.position;
  // Only the tangent rotate mode reads the path's tangent at each place.
  const bool tangent = c.rotate_mode == RotateMode::Tangent && pp.mix_rotate != 0;
  for (std::size_t i = 0; i <= n; ++i) {
    path.place(distance, places + 3 * i, tangent);
    if (i < n) distance += spacing_after(c, pp, pose, i, path.total, length_sum);
  }

  // Each bone's new world transform, from its world transform before the constraint (a bone whose
  // parent the constraint moves is not recomputed from it first).
  float* targets = places + 3 * (n + 1);
  const bool position = pp.mix_x != 0 || pp.mix_y != 0;
  bool matrix = false;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t bone = c.bones[i];
    detail::BoneWorld w = detail::bone_world(pose, bone);
    const float* here = places + 3 * i;
    const float* next = here + 3;
    if (position) {
      w.x += (here[0] - w.x) * pp.mix_x;
      w.y += (here[1] - w.y) * pp.mix_y;
    }
    if (pp.mix_rotate != 0) {
      const float dx = next[0] - here[0], dy = next[1] - here[1];
      const float reach = hypot_float(dx, dy);
      float direction = here[2];
      if (c.rotate_mode != RotateMode::Tangent)
        direction = reach > 0 ? std::atan2(dy, dx) * kRadToDeg : std::numeric_limits<float>::quiet_NaN();
      if (!std::isnan(direction)) {
        w.rotate(detail::wrap_degrees(direction + c.offset_rotation - w.rotation()) * pp.mix_rotate);
        matrix = true;
      }
      if (c.rotate_mode == RotateMode::ChainScale) {
        const float length = world_length(pose, bone);
        if (length > 1e-6f) {
          const float f = 1 + (reach / length - 1) * pp.mix_rotate;
          w.a *= f;
          w.c *= f;
          matrix = true;
        }
      }
    }
    float* t = targets + 6 * i;
    t[0] = w.a, t[1] = w.b, t[2] = w.c, t[3] = w.d, t[4] = w.x, t[5] = w.y;
  }
  if (!position && !matrix) return;

  // Written back as local poses parents first (bones come after their parents), each relative to its
  // parent's final world transform, so every bone ends where it was placed whatever the order the
  // constraint lists them in.
  std::int32_t last = -1;
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t pick = n;
    for (std::size_t i = 0; i < n; ++i)
      if (c.bones[i] > last && (pick == n || c.bones[i] < c.bones[pick])) pick = i;
    if (pick == n) break;  // the rest were listed twice
    const std::int32_t bone = c.bones[pick];
    last = bone;
    const float* t = targets + 6 * pick;
    const auto b = static_cast<std::size_t>(bone);
    if (!pose.active[b]) {
      // Never recomputed by the update order: the world transform itself holds the result.
      pose.a[b] = t[0], pose.b[b] = t[1], pose.c[b] = t[2], pose.d[b] = t[3], pose.world_x[b] = t[4], pose.world_y[b] = t[5];
      continue;
    }
    update_world_transform(pose, bone);  // under its parent's final world transform
    detail::set_bone_world(pose, bone, detail::BoneWorld{t[0], t[1], t[2], t[3], t[4], t[5]}, position, matrix);
  }
}

}  // namespace mf::skel
