#pragma once
// The object a check finding is about, read from its JSON path: in the .mskel, `bones[4]…` and
// `slots[2]…` by index, an attachment's slot (`skins[0].attachments[7]…`), a constraint's bone
// (`ik[1].bones[0]`, `ik[1].target`, `physics[0]…`); in a clip, `bones.<name>…` and
// `slots.<name>…` and `deform.<skin>.<slot>…` by name. Anything else (the uid, an event, a
// constraint's key in a clip) names no bone or slot.

#include "mf/offline/check/findings.hpp"
#include "mf/offline/format/skeleton_model.hpp"
#include "selection.hpp"

namespace mf::editor {

Selection finding_target(const offline::Finding& finding, const offline::SkeletonSource& skeleton);

}  // namespace mf::editor
