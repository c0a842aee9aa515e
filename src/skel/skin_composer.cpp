#include "mf/skel/skin_composer.hpp"

#include <algorithm>
#include <array>

#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel {
namespace {

bool constraint_skin_required(const SkeletonData& data, const UpdateStep& step) {
  const auto k = static_cast<std::size_t>(step.index);
  switch (step.kind) {
    case UpdateKind::Ik: return k < data.ik.size() && data.ik[k].skin_required;
    case UpdateKind::Transform: return k < data.transform.size() && data.transform[k].skin_required;
    case UpdateKind::Path: return k < data.path.size() && data.path[k].skin_required;
    case UpdateKind::Physics: return k < data.physics.size() && data.physics[k].skin_required;
    case UpdateKind::Bone: break;
  }
  return false;
}

std::unique_ptr<ComposedSkin> build(const SkeletonData& data, std::span<const std::int32_t> listed) {
  auto out = std::make_unique<ComposedSkin>();
  // The default skin is the base of every composition: prepended unless it already comes first.
  const std::int32_t base = data.default_skin();
  if (base >= 0 && (listed.empty() || listed.front() != base)) out->skins.push_back(base);
  out->skins.insert(out->skins.end(), listed.begin(), listed.end());
  const std::span<const std::int32_t> skins = out->skins;

  const std::size_t bone_count = data.bones.size();
  const std::size_t constraint_count = data.constraint_steps.size();
  std::vector<std::uint8_t> bone_listed(bone_count, 0), constraint_listed(constraint_count, 0);

  // Every entry of every skin in order; a stable sort by key keeps that order among equal keys, so
  // the last entry of each key run is the one the latest skin gave.
  std::vector<SkinEntry> all;
  for (std::int32_t s : skins) {
    if (s < 0 || static_cast<std::size_t>(s) >= data.skins.size()) continue;
    const SkinData& skin = data.skins[static_cast<std::size_t>(s)];
    all.insert(all.end(), skin.entries.begin(), skin.entries.end());
    for (std::int32_t b : skin.bones)
      if (b >= 0 && static_cast<std::size_t>(b) < bone_count) bone_listed[static_cast<std::size_t>(b)] = 1;
    for (std::int32_t c : skin.constraints)
      if (c >= 0 && static_cast<std::size_t>(c) < constraint_count) constraint_listed[static_cast<std::size_t>(c)] = 1;
  }
  std::stable_sort(all.begin(), all.end(), [](const SkinEntry& a, const SkinEntry& b) {
    return a.slot < b.slot || (a.slot == b.slot && a.name < b.name);
  });
  out->entries.reserve(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool last_of_key = i + 1 == all.size() || all[i + 1].slot != all[i].slot || all[i + 1].name != all[i].name;
    if (last_of_key) out->entries.push_back(all[i]);
  }

  // Parents come before children, so one forward pass carries inactivity down the tree.
  out->bone_active.assign(bone_count, 0);
  for (std::size_t b = 0; b < bone_count; ++b) {
    const std::int32_t parent = data.bones.parent[b];
    const bool parent_active = parent < 0 || out->bone_active[static_cast<std::size_t>(parent)];
    out->bone_active[b] = parent_active && (!data.bones.skin_required[b] || bone_listed[b]);
  }
  out->constraint_active.assign(constraint_count, 0);
  for (std::size_t c = 0; c < constraint_count; ++c)
    out->constraint_active[c] = !constraint_skin_required(data, data.constraint_steps[c]) || constraint_listed[c];
  return out;
}

// The attachment name shown by `attachment`, or −1.
std::int32_t name_of(const SkeletonData& data, std::int32_t attachment) {
  if (attachment < 0 || static_cast<std::size_t>(attachment) >= data.attachments.size()) return -1;
  return data.attachments[static_cast<std::size_t>(attachment)].name;
}

// Shows `attachment` on a slot; a changed attachment restarts its sequence.
void show(SkeletonPose& pose, std::size_t slot, std::int32_t attachment) {
  if (pose.attachment[slot] == attachment) return;
  pose.attachment[slot] = attachment;
  pose.sequence_index[slot] = -1;
}

}  // namespace

std::int32_t ComposedSkin::find(std::int32_t slot, std::int32_t name) const {
  return find_skin_attachment(entries, slot, name);
}

bool SkinCache::ListLess::operator()(std::span<const std::int32_t> a, std::span<const std::int32_t> b) const {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

const ComposedSkin& SkinCache::compose(std::span<const std::int32_t> skins) {
  auto it = cache_.find(skins);
  if (it == cache_.end())
    it = cache_.emplace(std::vector<std::int32_t>(skins.begin(), skins.end()), build(*data_, skins)).first;
  return *it->second;
}

Expected<const ComposedSkin*> SkinCache::compose(std::span<const std::string> names) {
  // Short lists resolve on the stack, so a cached combination costs no allocation by name either.
  constexpr std::size_t kInline = 16;
  std::array<std::int32_t, kInline> small{};
  std::vector<std::int32_t> large;
  std::span<std::int32_t> indices;
  if (names.size() <= kInline) {
    indices = std::span<std::int32_t>(small.data(), names.size());
  } else {
    large.resize(names.size());
    indices = large;
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    const int index = data_->find_skin(names[i]);
    if (index < 0)
      return Unexpected{Error{data_->name, {}, {}, "skeleton has no skin named \"" + names[i] + "\""}};
    indices[i] = index;
  }
  return &compose(std::span<const std::int32_t>(indices.data(), indices.size()));
}

void apply_skin(SkeletonPose& pose, const ComposedSkin& skin) {
  const SkeletonData& data = pose.data();
  const bool first_skin = pose.skin == nullptr;
  pose.skin = &skin.entries;
  std::copy_n(skin.bone_active.begin(), std::min(skin.bone_active.size(), pose.active.size()), pose.active.begin());
  std::copy_n(skin.constraint_active.begin(), std::min(skin.constraint_active.size(), pose.constraint_active.size()),
              pose.constraint_active.begin());

  const std::size_t slot_count = pose.attachment.size();
  for (std::size_t s = 0; s < slot_count; ++s) {
    const auto slot = static_cast<std::int32_t>(s);
    const std::int32_t setup_name = data.slots.setup_attachment[s];
    const std::int32_t setup = setup_name >= 0 ? skin.find(slot, setup_name) : -1;

    const std::int32_t current = pose.attachment[s];
    if (current >= 0) {
      const std::int32_t same_name = skin.find(slot, name_of(data, current));
      show(pose, s, same_name >= 0 ? same_name : setup);
    } else if (first_skin) {
      show(pose, s, setup);
    }

    std::int32_t& override_attachment = pose.attachment_override[s];
    if (override_attachment >= 0) {
      const std::int32_t same_name = skin.find(slot, name_of(data, override_attachment));
      override_attachment = same_name >= 0 ? same_name : SkeletonPose::kNoOverride;
    }
  }
}

bool set_slot_attachment(SkeletonPose& pose, std::int32_t slot, std::string_view attachment) {
  if (slot < 0 || static_cast<std::size_t>(slot) >= pose.attachment.size()) return false;
  const auto s = static_cast<std::size_t>(slot);
  std::int32_t index = -1;
  if (!attachment.empty()) {
    if (pose.skin == nullptr) return false;
    const std::int32_t name = pose.data().attachment_names.find(attachment);
    if (name < 0) return false;
    index = find_skin_attachment(*pose.skin, slot, name);
    if (index < 0) return false;
  }
  show(pose, s, index);
  pose.attachment_override[s] = index;
  return true;
}

}  // namespace mf::skel
