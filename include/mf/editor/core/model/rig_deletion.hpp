#pragma once
// Deleting bones, slots and constraints from a rig with what depends on them, the one policy every
// delete command shares:
//
//   - a constraint goes with its timelines in every clip and its entries in skins;
//   - a slot goes with its attachments in every skin, the path constraints that follow it, its
//     timelines, and its places in draw-order keys (slot_order.hpp);
//   - a bone goes with its descendants, the slots on any of them, the constraints that lose their
//     target, their only bone or (ik) their first bone (an ik chain that loses its second bone keeps
//     its first), their entries in skins and constraint bone lists, and their timelines.
//
// Refused (nothing changes): deleting bones that weight a vertex of an attachment that stays (its
// weights would have to be redone).

#include <vector>

#include "mf/core/expected.hpp"
#include "mf/editor/core/rig_model.hpp"

namespace mf::editor {

void delete_constraints(RigModel& model, std::vector<offline::ConstraintRef> refs);
void delete_slots(RigModel& model, std::vector<int> slots);
Status delete_bones(RigModel& model, int bone);

}  // namespace mf::editor
