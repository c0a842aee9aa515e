#pragma once
// References to attachments by name outside the skins: slots' setup attachments, clips' attachment
// keys and deform timelines. After attachments are deleted (one, a slot's, a skin's) this removes the
// references that no longer name anything, which the readers would reject.

#include <string>

#include "mf/editor/core/rig_model.hpp"

namespace mf::editor {

// True when some skin has an attachment `name` for slot `slot`.
bool slot_has_attachment(const offline::SkeletonSource& s, int slot, std::string_view name);

// Clears setup attachments that no skin has for their slot, deletes attachment keys naming such
// attachments, and deletes deform timelines whose attachment is missing from their skin and slot or
// no longer takes deform keys.
void prune_attachment_references(RigModel& model);

// The linked meshes that borrow the mesh `name` of skin `skin` in slot `slot`, as "skin/name" for a
// message; empty when none do.
std::string linked_meshes_of(const offline::SkeletonSource& s, int skin, int slot, std::string_view name);

}  // namespace mf::editor
