#include "rig_builder.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "mf/core/math/angle.hpp"
#include "mf/core/math/bone_local.hpp"

namespace mf::testing {

int RigBuilder::bone(const std::string& name, int parent, Vec2 origin, float degrees, float length) {
  offline::Bone b;
  b.name = name;
  b.parent = parent;
  b.length = length;
  Vec2 local = origin;
  float rotation = degrees;
  if (parent >= 0) {
    const Affine2& p = world(parent);
    const auto inverse = p.inverse();
    if (!inverse) throw std::logic_error("RigBuilder: parent of " + name + " has no inverse");
    local = inverse->apply(origin);
    rotation = degrees - mf::degrees(std::atan2(p.c, p.a));
  }
  // Keep local rotations in (-180, 180], as an animator's values are.
  rotation = std::remainder(rotation, 360.0f);
  b.x = local.x;
  b.y = local.y;
  b.rotation = rotation;
  const Affine2 local_transform = Affine2::from(bone_local_matrix(rotation, 1, 1, 0, 0), local.x, local.y);
  world_.push_back(parent >= 0 ? world(parent) * local_transform : local_transform);
  s_.bones.push_back(std::move(b));
  return static_cast<int>(s_.bones.size()) - 1;
}

int RigBuilder::between(const std::string& name, int parent, Vec2 from, Vec2 to) {
  return bone(name, parent, from, mf::degrees(direction(to - from)), length(to - from));
}

std::vector<int> RigBuilder::chain(const std::string& prefix, int parent, const std::vector<Vec2>& joints) {
  std::vector<int> bones;
  for (std::size_t k = 0; k + 1 < joints.size(); ++k)
    bones.push_back(between(prefix + std::to_string(k + 1), bones.empty() ? parent : bones.back(), joints[k], joints[k + 1]));
  return bones;
}

Vec2 RigBuilder::tip(int bone) const {
  return world(bone).apply(Vec2{s_.bones[static_cast<std::size_t>(bone)].length, 0});
}

namespace {

// The outline of a rows × columns grid (plus the point after it, index rows·columns), in order around
// the strip: the first row, down the last column, the point or the last row back, up the first column.
std::vector<int> outline(int rows, int columns, bool point) {
  std::vector<int> out;
  for (int c = 0; c < columns; ++c) out.push_back(c);
  for (int r = 1; r < rows; ++r) out.push_back(r * columns + columns - 1);
  if (point) {
    out.push_back(rows * columns);
  } else {
    for (int c = columns - 2; c >= 0; --c) out.push_back((rows - 1) * columns + c);
  }
  for (int r = rows - (point ? 1 : 2); r >= 1; --r) out.push_back(r * columns);
  return out;
}

}  // namespace

offline::MeshAttachment strip_mesh(const RigBuilder& rig, const StripMesh& strip) {
  if (strip.bones.empty() || strip.rows < 2 || strip.columns < 2) throw std::logic_error("strip_mesh: empty strip");
  const int bone_count = static_cast<int>(strip.bones.size());
  // The polyline: the first bone's origin, then every bone's tip.
  std::vector<Vec2> line{rig.origin(strip.bones.front())};
  for (int b : strip.bones) line.push_back(rig.tip(b));
  const auto at = [&](float u) {  // point and unit direction at u in [0, 1] along the polyline
    const float t = std::clamp(u, 0.0f, 1.0f) * static_cast<float>(bone_count);
    const int k = std::min(bone_count - 1, static_cast<int>(t));
    Vec2 dir = line[static_cast<std::size_t>(k) + 1] - line[static_cast<std::size_t>(k)];
    const float len = length(dir);
    dir = len > 0 ? dir / len : Vec2{1, 0};
    return std::pair{lerp(line[static_cast<std::size_t>(k)], line[static_cast<std::size_t>(k) + 1], t - static_cast<float>(k)), dir};
  };

  struct Laid {
    Vec2 position;
    float u = 0, v = 0;  // image coordinates
    float along = 0;     // 0..1 along the strip
    int influences = 1;
  };
  std::vector<Laid> laid;
  for (int r = 0; r < strip.rows; ++r) {
    const float along = static_cast<float>(r) / static_cast<float>(strip.rows - 1);
    const auto [centre, dir] = at(along);
    const float width = strip.width_start + (strip.width_end - strip.width_start) * along;
    for (int c = 0; c < strip.columns; ++c) {
      const float across = static_cast<float>(c) / static_cast<float>(strip.columns - 1);
      laid.push_back({centre + perpendicular(dir) * ((across - 0.5f) * width), across, along, along,
                      1 + (r + c) % strip.max_influences});
    }
  }
  if (strip.point) {
    const auto [end, dir] = at(1);
    laid.push_back({end + dir * (0.5f * strip.width_end + 4), 0.5f, 1, 1, 1 + strip.rows % strip.max_influences});
  }

  // New order: the outline, then the inside.
  std::vector<int> order = outline(strip.rows, strip.columns, strip.point);
  std::vector<int> place(laid.size(), -1);
  for (std::size_t k = 0; k < order.size(); ++k) place[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  for (std::size_t i = 0; i < laid.size(); ++i)
    if (place[i] < 0) {
      place[i] = static_cast<int>(order.size());
      order.push_back(static_cast<int>(i));
    }

  offline::MeshAttachment mesh;
  mesh.hull = static_cast<int>(outline(strip.rows, strip.columns, strip.point).size());
  for (int old : order) {
    const Laid& v = laid[static_cast<std::size_t>(old)];
    mesh.uvs.push_back(v.u);
    mesh.uvs.push_back(v.v);
    // The nearest bones by distance from the bone's middle along the strip.
    const float t = v.along * static_cast<float>(bone_count);
    std::vector<int> nearest(static_cast<std::size_t>(bone_count));
    std::iota(nearest.begin(), nearest.end(), 0);
    const auto distance = [&](int k) { return std::fabs(static_cast<float>(k) + 0.5f - t); };
    std::stable_sort(nearest.begin(), nearest.end(), [&](int a, int b) { return distance(a) < distance(b); });
    nearest.resize(static_cast<std::size_t>(std::min(v.influences, bone_count)));
    std::vector<offline::InfluenceSource> influences;
    float total = 0;
    for (int k : nearest) {
      const int bone = strip.bones[static_cast<std::size_t>(k)];
      const float weight = 1 / (0.25f + distance(k));
      const Vec2 local = rig.world(bone).inverse()->apply(v.position);
      influences.push_back({bone, weight, local.x, local.y});
      total += weight;
    }
    // Normalised in float with the last weight taking the rest, so they sum to 1 as tightly as the
    // build's check demands.
    float sum = 0;
    for (std::size_t k = 0; k + 1 < influences.size(); ++k) sum += influences[k].weight /= total;
    influences.back().weight = 1 - sum;
    mesh.vertices.weights.push_back(std::move(influences));
  }
  const auto triangle = [&](int a, int b, int c) {
    mesh.triangles.insert(mesh.triangles.end(), {place[static_cast<std::size_t>(a)], place[static_cast<std::size_t>(b)],
                                                 place[static_cast<std::size_t>(c)]});
  };
  const int columns = strip.columns;
  for (int r = 0; r + 1 < strip.rows; ++r)
    for (int c = 0; c + 1 < columns; ++c) {
      const int i = r * columns + c;
      triangle(i, i + 1, i + columns + 1);
      triangle(i + columns + 1, i + columns, i);
    }
  if (strip.point)
    for (int c = 0; c + 1 < columns; ++c) triangle((strip.rows - 1) * columns + c, (strip.rows - 1) * columns + c + 1, strip.rows * columns);
  return mesh;
}

}  // namespace mf::testing
