#include "mf/editor/core/model/attachment_references.hpp"

#include <algorithm>

namespace mf::editor {

using namespace offline;

bool slot_has_attachment(const SkeletonSource& s, int slot, std::string_view name) {
  for (const Skin& skin : s.skins)
    for (const Attachment& a : skin.attachments)
      if (a.slot == slot && a.name == name) return true;
  return false;
}

namespace {

const Attachment* find_in(const SkeletonSource& s, int skin, int slot, std::string_view name) {
  for (const Attachment& a : s.skins[static_cast<std::size_t>(skin)].attachments)
    if (a.slot == slot && a.name == name) return &a;
  return nullptr;
}

// A deform timeline that still has a vertex attachment to offset, with room for every key.
bool deform_valid(const SkeletonSource& s, const DeformTimeline& tl) {
  const int skin = s.find_skin(tl.skin);
  const int slot = s.find_slot(tl.slot);
  if (skin < 0 || slot < 0) return false;
  const Attachment* a = find_in(s, skin, slot, tl.attachment);
  if (!a) return false;
  const DeformVertices target = deform_vertices(s, skin, *a);
  if (!target.vertices) return false;
  const std::size_t floats = deform_float_count(*target.vertices);
  for (const DeformKeySource& k : tl.keys)
    if (static_cast<std::size_t>(k.offset) + k.values.size() > floats) return false;
  return true;
}

}  // namespace

void prune_attachment_references(RigModel& model) {
  SkeletonSource& s = model.skeleton;
  for (std::size_t i = 0; i < s.slots.size(); ++i) {
    Slot& slot = s.slots[i];
    if (!slot.attachment.empty() && !slot_has_attachment(s, static_cast<int>(i), slot.attachment)) slot.attachment.clear();
  }
  for (ClipSource& clip : model.clips) {
    for (AttachmentTimeline& tl : clip.attachments) {
      const int slot = s.find_slot(tl.slot);
      std::vector<float> times;
      std::vector<std::optional<std::string>> names;
      for (std::size_t k = 0; k < tl.times.size(); ++k) {
        if (tl.names[k] && (slot < 0 || !slot_has_attachment(s, slot, *tl.names[k]))) continue;
        times.push_back(tl.times[k]);
        names.push_back(std::move(tl.names[k]));
      }
      tl.times = std::move(times);
      tl.names = std::move(names);
    }
    clip.attachments.erase(std::remove_if(clip.attachments.begin(), clip.attachments.end(),
                                          [](const AttachmentTimeline& tl) { return tl.times.empty(); }),
                           clip.attachments.end());
    clip.deforms.erase(std::remove_if(clip.deforms.begin(), clip.deforms.end(),
                                      [&](const DeformTimeline& tl) { return !deform_valid(s, tl); }),
                       clip.deforms.end());
  }
}

std::string linked_meshes_of(const SkeletonSource& s, int skin, int slot, std::string_view name) {
  std::string out;
  for (std::size_t k = 0; k < s.skins.size(); ++k)
    for (const Attachment& a : s.skins[k].attachments) {
      const auto* linked = std::get_if<LinkedMeshAttachment>(&a.data);
      if (!linked || a.slot != slot || linked->parent != name) continue;
      const int parent_skin = linked->skin.empty() ? static_cast<int>(k) : s.find_skin(linked->skin);
      if (parent_skin != skin) continue;
      out += (out.empty() ? "" : ", ") + s.skins[k].name + "/" + a.name;
    }
  return out;
}

}  // namespace mf::editor
