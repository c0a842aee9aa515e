#pragma once
// The rules the .mskel reader enforces on one object, checked on a value an edit is about to store,
// so that the document always writes a file the reader accepts. Errors say which object and what is
// wrong. Every number must also be finite (the files cannot hold NaN or infinity).

#include "mf/core/expected.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

Status validate_bone(const offline::SkeletonSource& s, const offline::Bone& bone);
// `index`: the slot's index (for its setup attachment, which must exist for it in some skin).
Status validate_slot(const offline::SkeletonSource& s, int index, const offline::Slot& slot);
Status validate_constraint(const offline::SkeletonSource& s, const offline::IkConstraint& c);
Status validate_constraint(const offline::SkeletonSource& s, const offline::TransformConstraint& c);
Status validate_constraint(const offline::SkeletonSource& s, const offline::PathConstraint& c);
Status validate_constraint(const offline::SkeletonSource& s, const offline::PhysicsConstraint& c);
Status validate_event(const offline::EventDef& e);
// An attachment of skin `skin` (a linked mesh's parent is looked up there unless it names a skin).
Status validate_attachment(const offline::SkeletonSource& s, int skin, const offline::Attachment& a);

}  // namespace mf::editor
