#pragma once
// MeshData: a mesh to add to a ForwardRenderer (MeshVertex list and triangle indices), and the simple
// meshes scenes and tests are built from.

#include <cstdint>
#include <vector>

#include "mf/core/math/vec3.hpp"
#include "mf/render/forward/mesh_vertex.hpp"

namespace mf::render {

struct MeshData {
  std::vector<MeshVertex> vertices;
  std::vector<std::uint32_t> indices;  // triangles, counter-clockwise seen from the front
};

// A box of `size` centred on the origin; each face has its own four vertices, UVs 0…1 per face.
MeshData make_box(Vec3 size);
// A plane in XZ at y = 0 facing +Y, `width` along X and `depth` along Z, centred on the origin; UVs
// run 0…uv_repeat across it.
MeshData make_plane(float width, float depth, float uv_repeat = 1);

}  // namespace mf::render
