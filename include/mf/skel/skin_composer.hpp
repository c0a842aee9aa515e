#pragma once
// Skins at run time: one or more skins merged in order (later wins per slot and attachment name).
// The skin named "default", when the data has one, is always the base of a composition (as in Spine):
// it is prepended to the list unless the list already starts with it, so its attachments show in
// every slot and under every name that the listed skins leave empty, and its skin-required bones and
// constraints are active like those of any listed skin. Each unique combination is composed once and cached in a SkinCache shared by every instance of the
// data, so a hundred orcs in the same outfit share one table; composing a new combination allocates
// once, at the call, never per frame.

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::skel {

class SkeletonPose;

// A composed skin: the merged (slot, name) → attachment table plus the skin-required bones and
// constraints it activates. A bone is active when it is not skin-required or one of the skins lists it,
// and its parent is active (a child of an inactive bone has no world transform to follow). A
// constraint is active when it is not skin-required or one of the skins lists it.
struct ComposedSkin {
  std::vector<std::int32_t> skins;          // the skin indices composed, in order (the default skin first)
  std::vector<SkinEntry> entries;           // sorted by (slot, name)
  std::vector<std::uint8_t> bone_active;    // per bone
  std::vector<std::uint8_t> constraint_active;  // per constraint id (SkeletonData::constraint_steps)

  // The attachment for (slot, name id), or −1.
  std::int32_t find(std::int32_t slot, std::int32_t name) const;
};

class SkinCache {
 public:
  explicit SkinCache(const SkeletonData& data) : data_(&data) {}

  // The composed table for these skins (by index, in order, over the default skin), composed on
  // first use; an empty list is the default skin alone. Indices outside
  // the data's skins are left out of the composition (use the name overload for checked input). A
  // list already composed is found without allocating.
  const ComposedSkin& compose(std::span<const std::int32_t> skins);
  // By names; an unknown name is an error naming it.
  Expected<const ComposedSkin*> compose(std::span<const std::string> names);

  std::size_t size() const { return cache_.size(); }

 private:
  // Orders lists lexicographically and lets a span look up a stored vector without copying it.
  struct ListLess {
    using is_transparent = void;
    bool operator()(std::span<const std::int32_t> a, std::span<const std::int32_t> b) const;
  };
  const SkeletonData* data_;
  std::map<std::vector<std::int32_t>, std::unique_ptr<ComposedSkin>, ListLess> cache_;
};

// Makes `skin` the pose's active skin: sets pose.skin to its table, activates its skin-required bones
// and constraints, and re-resolves every slot's attachment by name: a slot showing an attachment shows
// the new skin's attachment of the same name, or, when the new skin lacks it, the slot's setup
// attachment if the skin has that, else nothing. A slot showing nothing stays empty, except on the
// pose's first skin (pose.skin null), where every slot takes its setup attachment. Attachments set
// from code (set_slot_attachment) are re-resolved by name the same way and dropped when the new skin
// lacks them. A slot whose attachment changes restarts its sequence at the setup frame. `skin` must
// outlive its use by the pose (SkinCache keeps it). Allocates nothing.
void apply_skin(SkeletonPose& pose, const ComposedSkin& skin);

// Shows `attachment` (a name, or empty for none) on a slot until an attachment key or a skin change
// replaces it (it survives the per-frame reset to the setup pose). Returns false, changing nothing,
// when the slot index is out of range or the active skin has no such attachment for the slot.
bool set_slot_attachment(SkeletonPose& pose, std::int32_t slot, std::string_view attachment);

}  // namespace mf::skel
