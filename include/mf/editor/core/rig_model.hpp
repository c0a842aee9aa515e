#pragma once
// The rig as plain data: the skeleton and its clips, which is what one structural edit works on.
// Commands that restructure a rig (delete a bone, rename a slot, reorder the draw order) copy the
// document into a RigModel, edit the copy with the functions of model/, and hand the result back as
// a patch (model/rig_patch.hpp), so that a failed edit never leaves a half-changed document.

#include <vector>

#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

struct RigModel {
  offline::SkeletonSource skeleton;
  // One entry per loaded clip of the document, in the document's clip order. Empty when the edit
  // was declared not to touch clips (PatchCommand's `with_clips`).
  std::vector<offline::ClipSource> clips;

  friend bool operator==(const RigModel&, const RigModel&) = default;
};

}  // namespace mf::editor
