#pragma once
// Automatic weights for a rig's mesh attachment: heat_weights over the mesh as the setup pose shows
// it, with the chosen bones as segments from their origins to their tips (length along the bone's x
// axis), all in world space. The mesh becomes weighted: each vertex's influences carry its bind
// position in that bone's space (the inverse of the bone's setup world transform applied to the
// vertex's world position), so the setup pose draws every vertex where it was. The setup pose here
// is the source's, without constraints (setup_world.hpp), as for any weighted mesh: a constraint that
// moves a bone in the runtime's setup pose moves the vertices bound to it.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/format/skeleton_model.hpp"
#include "mf/offline/mesh/auto_weights.hpp"

namespace mf::offline {

// A mesh attachment of a skeleton: indices into SkeletonSource::skins and that skin's attachments.
struct MeshRef {
  int skin = 0;
  int attachment = 0;
};

// A clip of the rig with its name, for the deform-key check.
struct NamedClip {
  std::string name;
  const ClipSource* clip = nullptr;
};

// The Mesh attachment named `attachment` on slot `slot` in skin `skin`. An empty `attachment` means
// the slot's setup attachment; an empty `skin` searches every skin, and the attachment must then be
// in exactly one. Errors name what is missing, ambiguous or not a Mesh (a LinkedMesh names its
// parent, whose weights it shares). The error's path is the attachment's JSON path when there is one.
Expected<MeshRef> find_mesh(const SkeletonSource& skeleton, std::string_view skin, std::string_view slot,
                            std::string_view attachment);

// Every Mesh attachment (not linked meshes), skin by skin in file order.
std::vector<MeshRef> all_meshes(const SkeletonSource& skeleton);

// The bones auto weights use when none are named: every bone with a setup world transform
// (setup_world.hpp), except a root that has bones below it (a rig's root usually sits at the
// ground, away from the art, and would pull the vertices near it) and the targets of IK constraints
// (controls that move other bones, not parts of the body). A skeleton of one bone keeps it.
std::vector<int> default_weight_bones(const SkeletonSource& skeleton);

// The JSON path of an attachment, e.g. "skins[0].attachments[3]".
std::string mesh_path(MeshRef mesh);

struct MeshWeightsResult {
  std::size_t vertices = 0;
  std::vector<int> bones_used;     // bone indices that weight some vertex, ascending
  double max_sum_deviation = 0;    // largest |Σ weights − 1| over the vertices, summing the stored floats
  int max_influences_used = 0;
};

// Weights the mesh to `bones` (bone indices, each once) with heat_weights and stores the weights in
// place; the unweighted positions are cleared. Already weighted meshes are re-weighted from their
// setup-pose positions. Errors (the path names the attachment): a bone without a setup world
// transform (it or an ancestor inherits anything but Normal; the message names them) or whose
// transform cannot be inverted, a mesh that deform keys animate in any clip (named: the keys follow
// the vertex layout, which weighting changes), and heat_weights' errors. On error the skeleton is
// unchanged.
Expected<MeshWeightsResult> auto_weight_mesh(SkeletonSource& skeleton, MeshRef mesh, std::span<const int> bones,
                                             std::span<const NamedClip> clips, const AutoWeightsOptions& options = {});

}  // namespace mf::offline
