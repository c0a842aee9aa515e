#pragma once
// Building a skeleton in code from where its parts are in the setup pose: bones placed by their world
// position and angle (the builder turns them into parent-local values), and weighted strip meshes
// laid along bone chains, each vertex bound to the chain's nearest bones with its position in each
// bone's space, so the setup pose shows the mesh where it was laid. For the synthetic rigs
// (synthetic_rig.hpp); every bone inherits Normal, without scale or shear.

#include <string>
#include <vector>

#include "mf/core/math/affine2.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::testing {

class RigBuilder {
 public:
  explicit RigBuilder(offline::SkeletonSource& skeleton) : s_(skeleton) {}

  // Adds a bone whose origin is at `origin` (setup world, pixels, Y down) and whose X axis points at
  // `degrees` (clockwise on screen), under `parent` (-1 for a root). Returns its index.
  int bone(const std::string& name, int parent, Vec2 origin, float degrees, float length);
  // Adds a bone from `from` to `to` (setup world) under `parent`.
  int between(const std::string& name, int parent, Vec2 from, Vec2 to);
  // Adds a chain of bones through the world points `joints` (one bone per consecutive pair), the
  // first under `parent`, named prefix1, prefix2, …. Returns their indices.
  std::vector<int> chain(const std::string& prefix, int parent, const std::vector<Vec2>& joints);

  const Affine2& world(int bone) const { return world_[static_cast<std::size_t>(bone)]; }
  Vec2 origin(int bone) const { return world(bone).origin(); }
  // Where the bone's X axis ends: origin + length along it.
  Vec2 tip(int bone) const;
  offline::SkeletonSource& skeleton() { return s_; }

 private:
  offline::SkeletonSource& s_;
  std::vector<Affine2> world_;
};

// A strip mesh along a polyline through the chain's bones (the first bone's origin, then each bone's
// tip): `rows` rows of `columns` vertices from the start to the end, `width_start` to `width_end`
// pixels across, plus one point past the end when `point` is set (a tail's or a tongue's tip).
// Vertex k of a row takes 1 + (row + k) % max_influences of the chain's bones nearest to it (fewer
// when the chain is shorter), weighted by nearness. The outline comes first (`hull`), then the inside;
// UVs span the whole image.
struct StripMesh {
  std::vector<int> bones;
  int rows = 2;
  int columns = 2;
  bool point = false;
  float width_start = 20, width_end = 20;
  int max_influences = 4;

  int vertex_count() const { return rows * columns + (point ? 1 : 0); }
};
offline::MeshAttachment strip_mesh(const RigBuilder& rig, const StripMesh& strip);

}  // namespace mf::testing
