#include "mf/editor/core/commands/attachment_commands.hpp"

#include <algorithm>
#include <optional>
#include <type_traits>

#include "mf/editor/core/model/attachment_references.hpp"
#include "mf/editor/core/model/attachment_vertices.hpp"
#include "mf/editor/core/model/clip_references.hpp"
#include "mf/editor/core/model/names.hpp"
#include "mf/editor/core/model/validate.hpp"

namespace mf::editor {

using namespace offline;

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

bool valid(const SkeletonSource& s, const AttachmentIndex& i) {
  return i.skin >= 0 && at(i.skin) < s.skins.size() && i.index >= 0 &&
         at(i.index) < s.skins[at(i.skin)].attachments.size();
}

Unexpected no_attachment() { return edit_error("the attachment to edit does not exist"); }

// Compares one field that some attachment types have: `f(x, y)` on the two values when their type
// has it (both are of one type here).
template <class F>
bool differ(const Attachment& a, const Attachment& b, F f) {
  if (a.data.index() != b.data.index()) return true;
  return std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        return f(x, std::get<T>(b.data));
      },
      a.data);
}

const FieldGroup<Attachment> kAttachmentGroups[] = {
    {"Move", [](const Attachment& a, const Attachment& b) {
       return differ(a, b, [](const auto& x, const auto& y) {
         if constexpr (requires { x.x; x.y; }) return x.x != y.x || x.y != y.y;
         else return false;
       });
     }},
    {"Rotate", [](const Attachment& a, const Attachment& b) {
       return differ(a, b, [](const auto& x, const auto& y) {
         if constexpr (requires { x.rotation; }) return x.rotation != y.rotation;
         else return false;
       });
     }},
    {"Scale", [](const Attachment& a, const Attachment& b) {
       return differ(a, b, [](const auto& x, const auto& y) {
         if constexpr (requires { x.scale_x; }) return x.scale_x != y.scale_x || x.scale_y != y.scale_y;
         else return false;
       });
     }},
    {"Set size of", [](const Attachment& a, const Attachment& b) {
       return differ(a, b, [](const auto& x, const auto& y) {
         if constexpr (requires { x.width; }) return x.width != y.width || x.height != y.height;
         else return false;
       });
     }},
    {"Set image of", [](const Attachment& a, const Attachment& b) {
       return differ(a, b, [](const auto& x, const auto& y) {
         if constexpr (requires { x.image; }) return x.image != y.image;
         else return false;
       });
     }},
    {"Set colour of", [](const Attachment& a, const Attachment& b) {
       return differ(a, b, [](const auto& x, const auto& y) { return x.color != y.color; });
     }},
    {"Set sequence of", [](const Attachment& a, const Attachment& b) {
       return differ(a, b, [](const auto& x, const auto& y) {
         if constexpr (requires { x.sequence; }) return x.sequence != y.sequence;
         else return false;
       });
     }},
    {"Edit the geometry of", [](const Attachment& a, const Attachment& b) {
       return differ(a, b, [](const auto& x, const auto& y) {
         using T = std::decay_t<decltype(x)>;
         if constexpr (std::is_same_v<T, MeshAttachment>)
           return x.vertices != y.vertices || x.uvs != y.uvs || x.triangles != y.triangles || x.hull != y.hull ||
                  x.edges != y.edges;
         else if constexpr (std::is_same_v<T, PathAttachment>) return x.vertices != y.vertices || x.lengths != y.lengths;
         else if constexpr (requires { x.vertices; }) return x.vertices != y.vertices;
         else return false;
       });
     }},
    {"Set end slot of", [](const Attachment& a, const Attachment& b) {
       return differ(a, b, [](const auto& x, const auto& y) {
         if constexpr (requires { x.end_slot; }) return x.end_slot != y.end_slot;
         else return false;
       });
     }},
    {"Set path options of", [](const Attachment& a, const Attachment& b) {
       return differ(a, b, [](const auto& x, const auto& y) {
         if constexpr (requires { x.closed; }) return x.closed != y.closed || x.constant_speed != y.constant_speed;
         else return false;
       });
     }},
    {"Set parent mesh of", [](const Attachment& a, const Attachment& b) {
       return differ(a, b, [](const auto& x, const auto& y) {
         if constexpr (requires { x.parent; }) return x.parent != y.parent || x.skin != y.skin || x.deform != y.deform;
         else return false;
       });
     }},
};

// The deform floats attachment `a` of skin `skin` would offer (nullopt: it takes no deform keys).
std::optional<std::size_t> deform_floats(const SkeletonSource& s, int skin, const Attachment& a) {
  const DeformVertices v = deform_vertices(s, skin, a);
  if (!v.vertices) return std::nullopt;
  return deform_float_count(*v.vertices);
}

// Every loaded clip's deform keys on (skin, slot, name) fit in `floats`.
Status deform_keys_fit(const Document& doc, const std::string& skin, const std::string& slot, const std::string& name,
                       std::optional<std::size_t> floats) {
  for (const DocumentClip& c : doc.clips())
    for (const DeformTimeline& tl : c.clip.deforms) {
      if (tl.skin != skin || tl.slot != slot || tl.attachment != name) continue;
      if (!floats)
        return edit_error("clip " + quoted(c.name) + " has deform keys on attachment " + quoted(name) +
                          ", which would no longer take them");
      for (const DeformKeySource& k : tl.keys)
        if (static_cast<std::size_t>(k.offset) + k.values.size() > *floats)
          return edit_error("clip " + quoted(c.name) + " has deform keys on attachment " + quoted(name) + " up to float " +
                            std::to_string(static_cast<std::size_t>(k.offset) + k.values.size()) + ", past its " +
                            std::to_string(*floats) + " vertex floats");
    }
  return {};
}

}  // namespace

Attachment* AttachmentTraits::find(SkeletonSource& s, const AttachmentIndex& i) {
  return valid(s, i) ? &s.skins[at(i.skin)].attachments[at(i.index)] : nullptr;
}
const Attachment* AttachmentTraits::find(const SkeletonSource& s, const AttachmentIndex& i) {
  return valid(s, i) ? &s.skins[at(i.skin)].attachments[at(i.index)] : nullptr;
}
std::string AttachmentTraits::noun(const SkeletonSource&, const AttachmentIndex&, const Attachment& v) {
  return std::string(to_string(v.type())) + " " + quoted(v.name);
}
std::span<const FieldGroup<Attachment>> AttachmentTraits::groups() { return kAttachmentGroups; }

Status AttachmentTraits::validate(const Document& doc, const AttachmentIndex& i, const Attachment& before,
                                  const Attachment& after) {
  const std::string what = "attachment " + quoted(before.name);
  if (after.name != before.name) return edit_error(what + ": rename it with RenameAttachment");
  if (after.slot != before.slot) return edit_error(what + ": an attachment cannot change its slot");
  if (after.type() != before.type()) return edit_error(what + ": an attachment cannot change its type");
  const SkeletonSource& s = doc.skeleton();
  if (Status st = validate_attachment(s, i.skin, after); !st) return st;
  const std::string& skin = s.skins[at(i.skin)].name;
  const std::string& slot = s.slots[at(after.slot)].name;
  if (Status st = deform_keys_fit(doc, skin, slot, after.name, deform_floats(s, i.skin, after)); !st) return st;
  // Linked meshes that borrow this mesh take its new vertices (and their deform keys with them).
  if (const Vertices* v = vertices_of(after.data); v && after.type() == AttachmentType::Mesh)
    for (std::size_t k = 0; k < s.skins.size(); ++k)
      for (const Attachment& a : s.skins[k].attachments) {
        const auto* linked = std::get_if<LinkedMeshAttachment>(&a.data);
        if (!linked || a.slot != after.slot || linked->parent != after.name || !linked->deform) continue;
        if ((linked->skin.empty() ? static_cast<int>(k) : s.find_skin(linked->skin)) != i.skin) continue;
        if (Status st = deform_keys_fit(doc, s.skins[k].name, slot, a.name, deform_float_count(*v)); !st) return st;
      }
  return {};
}

Status AddAttachment::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (skin_ < 0 || at(skin_) >= s.skins.size()) return edit_error("there is no skin at index " + std::to_string(skin_));
  if (Status st = validate_attachment(s, skin_, attachment_); !st) return st;
  Skin& skin = s.skins[at(skin_)];
  const std::string& slot = s.slots[at(attachment_.slot)].name;
  for (const Attachment& a : skin.attachments)
    if (a.slot == attachment_.slot && a.name == attachment_.name)
      return edit_error("skin " + quoted(skin.name) + " already has an attachment " + quoted(a.name) + " for slot " +
                        quoted(slot));
  std::string image;
  if (const auto* r = std::get_if<RegionAttachment>(&attachment_.data)) image = r->image.empty() ? attachment_.name : r->image;
  if (const auto* m = std::get_if<MeshAttachment>(&attachment_.data)) image = m->image.empty() ? attachment_.name : m->image;
  const bool sequence = [&] {
    if (const auto* r = std::get_if<RegionAttachment>(&attachment_.data)) return r->sequence.has_value();
    if (const auto* m = std::get_if<MeshAttachment>(&attachment_.data)) return m->sequence.has_value();
    return false;
  }();
  // A sequence names numbered images, not `image` itself: those are listed by whoever adds the frames.
  if (!image.empty() && !sequence &&
      std::none_of(s.images.begin(), s.images.end(), [&](const ImageEntry& e) { return e.name == image; })) {
    const auto pos = std::lower_bound(s.images.begin(), s.images.end(), image,
                                      [](const ImageEntry& e, const std::string& n) { return e.name < n; });
    s.images.insert(pos, ImageEntry{image, "", std::nullopt});
  }
  skin.attachments.push_back(attachment_);
  index_ = {skin_, static_cast<int>(skin.attachments.size() - 1)};
  set_name("Add " + std::string(to_string(attachment_.type())) + " " + quoted(attachment_.name) + " to slot " + quoted(slot));
  return {};
}

Status DeleteAttachment::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid(s, at_)) return no_attachment();
  Skin& skin = s.skins[at(at_.skin)];
  const Attachment a = skin.attachments[at(at_.index)];
  const std::string& slot = s.slots[at(a.slot)].name;
  if (const std::string users = linked_meshes_of(s, at_.skin, a.slot, a.name); !users.empty())
    return edit_error("attachment " + quoted(a.name) + " is the parent mesh of linked meshes " + users +
                      "; delete those first");
  skin.attachments.erase(skin.attachments.begin() + at_.index);
  for (ClipSource& clip : model.clips) remove_deform(clip, skin.name, slot, a.name);
  prune_attachment_references(model);
  set_name("Delete attachment " + quoted(a.name) + " of slot " + quoted(slot));
  return {};
}

Status RenameAttachment::edit(RigModel& model, const Document&) {
  SkeletonSource& s = model.skeleton;
  if (!valid(s, at_)) return no_attachment();
  Skin& skin = s.skins[at(at_.skin)];
  Attachment& a = skin.attachments[at(at_.index)];
  const std::string old = a.name;
  const int slot_index = a.slot;
  const std::string slot = s.slots[at(slot_index)].name;
  const auto taken = [&](std::string_view n) {
    return std::any_of(skin.attachments.begin(), skin.attachments.end(),
                       [&](const Attachment& o) { return o.slot == slot_index && o.name == n; });
  };
  if (Status st = check_name("attachment", name_, old, taken); !st) return st;
  if (name_ == old) return {};
  const AttachmentId from = attachment_id(s, at_);
  a.name = name_;
  // Linked meshes that borrow it (from this skin, or naming this skin).
  for (std::size_t k = 0; k < s.skins.size(); ++k)
    for (Attachment& other : s.skins[k].attachments) {
      auto* linked = std::get_if<LinkedMeshAttachment>(&other.data);
      if (!linked || other.slot != slot_index || linked->parent != old) continue;
      if ((linked->skin.empty() ? static_cast<int>(k) : s.find_skin(linked->skin)) == at_.skin) linked->parent = name_;
    }
  for (ClipSource& clip : model.clips) rename_deform(clip, skin.name, slot, old, name_);
  // Shared names follow only when no other skin keeps the old one for the slot.
  if (!slot_has_attachment(s, slot_index, old)) {
    if (s.slots[at(slot_index)].attachment == old) s.slots[at(slot_index)].attachment = name_;
    for (ClipSource& clip : model.clips) rename_attachment_keys(clip, slot, old, name_);
  }
  set_name("Rename attachment " + quoted(old) + " to " + quoted(name_));
  add_rename({from, AttachmentId{from.skin, from.slot, name_}});
  return {};
}

}  // namespace mf::editor
