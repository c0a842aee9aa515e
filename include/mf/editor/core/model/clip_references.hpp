#pragma once
// What clips say about the skeleton's objects, by name: renaming an object renames its timelines and
// keys; deleting one deletes them. Each function keeps the clip's timelines in canonical order
// (offline::sort_timelines), so the clip writes canonically afterwards.

#include <string_view>

#include "mf/offline/format/clip_model.hpp"

namespace mf::editor {

// Bone timelines (rotate, translate, ..., inherit).
void rename_bone(offline::ClipSource& clip, std::string_view from, std::string_view to);
void remove_bone(offline::ClipSource& clip, std::string_view bone);

// Slot timelines (colours, attachment, sequence), deform timelines of the slot and draw-order moves.
// Removing a slot leaves draw-order keys to slot_order.hpp, which rewrites them whole.
void rename_slot(offline::ClipSource& clip, std::string_view from, std::string_view to);
void remove_slot(offline::ClipSource& clip, std::string_view slot);

// The timelines of one constraint (physics: its property timelines and its resets).
void rename_constraint(offline::ClipSource& clip, offline::ConstraintKind kind, std::string_view from,
                       std::string_view to);
void remove_constraint(offline::ClipSource& clip, offline::ConstraintKind kind, std::string_view name);

// Deform timelines of a skin.
void rename_skin(offline::ClipSource& clip, std::string_view from, std::string_view to);
void remove_skin(offline::ClipSource& clip, std::string_view skin);
// Copies the deform timelines of skin `from` as timelines of skin `to`.
void copy_skin_deforms(offline::ClipSource& clip, std::string_view from, std::string_view to);

// Attachment keys naming `from` in `slot` (the keys name attachments across every skin).
void rename_attachment_keys(offline::ClipSource& clip, std::string_view slot, std::string_view from,
                            std::string_view to);
// Deletes the attachment keys naming `name` in `slot`; a timeline left without keys is deleted.
void remove_attachment_keys(offline::ClipSource& clip, std::string_view slot, std::string_view name);
// The deform timeline of one attachment of one skin.
void rename_deform(offline::ClipSource& clip, std::string_view skin, std::string_view slot, std::string_view from,
                   std::string_view to);
void remove_deform(offline::ClipSource& clip, std::string_view skin, std::string_view slot, std::string_view name);

// Event keys.
void rename_event(offline::ClipSource& clip, std::string_view from, std::string_view to);
void remove_event(offline::ClipSource& clip, std::string_view name);

}  // namespace mf::editor
