#include "mf/skel/skeleton_data.hpp"
#include "mf/core/named.hpp"

#include <algorithm>

namespace mf::skel {
namespace {

int find_name(const std::vector<std::string>& names, std::string_view name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

std::int32_t find_skin_attachment(std::span<const SkinEntry> entries, std::int32_t slot, std::int32_t name) {
  auto it = std::lower_bound(entries.begin(), entries.end(), std::pair(slot, name),
                             [](const SkinEntry& e, const std::pair<std::int32_t, std::int32_t>& key) {
                               return e.slot < key.first || (e.slot == key.first && e.name < key.second);
                             });
  return it != entries.end() && it->slot == slot && it->name == name ? it->attachment : -1;
}

std::int32_t NameTable::find(std::string_view name) const { return find_name(names, name); }

int SkeletonData::find_bone(std::string_view n) const { return find_name(bones.names, n); }
int SkeletonData::find_slot(std::string_view n) const { return find_name(slots.names, n); }
int SkeletonData::find_skin(std::string_view n) const { return find_named(skins, n); }
int SkeletonData::default_skin() const { return find_skin(kDefaultSkinName); }
int SkeletonData::find_event(std::string_view n) const { return find_named(events, n); }
int SkeletonData::find_clip(std::string_view n) const { return find_named(clips, n); }

Expected<const ClipData*> SkeletonData::load_clip(int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= clips.size())
    return Unexpected{Error{name, {}, {}, "no clip with index " + std::to_string(index)}};
  ClipEntry& entry = clips[static_cast<std::size_t>(index)];
  if (entry.data) return entry.data.get();
  if (!loader) return Unexpected{Error{name, {}, {}, "clip \"" + entry.name + "\" is not loaded and the data has no loader"}};
  auto loaded = loader(*this, index);
  if (!loaded.ok()) return Unexpected{loaded.error()};
  std::shared_ptr<ClipData> clip = std::move(loaded).value();
  clip->cursor_base = cursor_count;
  clip->keys_each_property_once = keys_each_property_once(*clip, *this);
  clip->has_physics_resets = std::any_of(clip->timelines.begin(), clip->timelines.end(),
                                         [](const Timeline& t) { return t.kind == TimelineKind::PhysicsReset; });
  cursor_count += static_cast<std::uint32_t>(clip->timelines.size());
  entry.length = clip->length;
  entry.data = std::move(clip);
  return entry.data.get();
}

Status SkeletonData::load_all_clips() {
  for (std::size_t i = 0; i < clips.size(); ++i) {
    auto clip = load_clip(static_cast<int>(i));
    if (!clip.ok()) return Unexpected{clip.error()};
  }
  return {};
}

}  // namespace mf::skel
