// The simple meshes scenes and tests are built from.

#include "mf/render/forward/mesh_data.hpp"

#include <cstdint>

namespace mf::render {

namespace {

constexpr std::uint32_t kWhite = 0xffffffffu;

// One quad around `centre` with half-edges `right` (+u) and `up` (the image's top; v runs down it,
// so images show upright), facing `normal` = cross(right, up), counter-clockwise seen from the front.
// The tangent is +u; cross(normal, tangent) points up the image (−v), so the vertices say that +v is
// cross(tangent, normal).
void add_quad(MeshData& mesh, Vec3 centre, Vec3 right, Vec3 up, Vec3 normal, float u_max, float v_max) {
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  const std::uint32_t n = encode_octahedral(normal), t = encode_octahedral(right);
  // Corners: top-left (u 0, v 0), top-right, bottom-right, bottom-left, seen from the front.
  const Vec3 corners[4] = {centre - right + up, centre + right + up, centre + right - up, centre - right - up};
  const float uv[4][2] = {{0, 0}, {u_max, 0}, {u_max, v_max}, {0, v_max}};
  for (int i = 0; i < 4; ++i)
    mesh.vertices.push_back({corners[i].x, corners[i].y, corners[i].z, uv[i][0], uv[i][1], n, t, kWhite, 0, kBitangentTangentCrossNormal});
  // Counter-clockwise seen from the front: top-left, bottom-left, bottom-right; top-left, bottom-right, top-right.
  for (std::uint32_t i : {0u, 3u, 2u, 0u, 2u, 1u}) mesh.indices.push_back(base + i);
}

}  // namespace

MeshData make_box(Vec3 size) {
  const Vec3 h = size * 0.5f;
  MeshData mesh;
  mesh.vertices.reserve(24);
  mesh.indices.reserve(36);
  // Each face: its centre, its right (+u) and up (−v) half-edges as seen from outside.
  add_quad(mesh, {0, 0, h.z}, {h.x, 0, 0}, {0, h.y, 0}, {0, 0, 1}, 1, 1);    // +Z
  add_quad(mesh, {0, 0, -h.z}, {-h.x, 0, 0}, {0, h.y, 0}, {0, 0, -1}, 1, 1); // −Z
  add_quad(mesh, {h.x, 0, 0}, {0, 0, -h.z}, {0, h.y, 0}, {1, 0, 0}, 1, 1);   // +X
  add_quad(mesh, {-h.x, 0, 0}, {0, 0, h.z}, {0, h.y, 0}, {-1, 0, 0}, 1, 1);  // −X
  add_quad(mesh, {0, h.y, 0}, {h.x, 0, 0}, {0, 0, -h.z}, {0, 1, 0}, 1, 1);   // +Y
  add_quad(mesh, {0, -h.y, 0}, {h.x, 0, 0}, {0, 0, h.z}, {0, -1, 0}, 1, 1);  // −Y
  return mesh;
}

MeshData make_plane(float width, float depth, float uv_repeat) {
  MeshData mesh;
  // Seen from above (+Y) with −Z up the image.
  add_quad(mesh, {0, 0, 0}, {width * 0.5f, 0, 0}, {0, 0, -depth * 0.5f}, {0, 1, 0}, uv_repeat, uv_repeat);
  return mesh;
}

}  // namespace mf::render
