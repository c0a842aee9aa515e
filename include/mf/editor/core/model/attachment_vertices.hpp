#pragma once
// The vertices an attachment owns (Mesh, BoundingBox, Clipping, Path), whatever its type.

#include <vector>

#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

// The attachment's own vertices; nullptr for Region, Point and LinkedMesh (which borrows its
// parent's).
const offline::Vertices* vertices_of(const offline::AttachmentData& data);
offline::Vertices* vertices_of(offline::AttachmentData& data);

// Whether any weighted vertex of `v` has an influence of `bone`.
bool weights_use_bone(const offline::Vertices& v, int bone);

}  // namespace mf::editor
