#include "mf/skel/world_positions.hpp"

#include <algorithm>

#include "slot_attachments.hpp"
#include "vertex_kernel.hpp"

namespace mf::skel {

WorldPositions::WorldPositions(const SkeletonData& data) {
  // Per slot, the largest region or mesh it can show.
  std::vector<std::size_t> slot_vertices(data.slots.size(), 0);
  detail::for_each_slot_attachment(data, [&](std::size_t s, const AttachmentRecord& a) {
    if (detail::draws(a.kind)) slot_vertices[s] = std::max<std::size_t>(slot_vertices[s], a.vertex_count);
  });
  std::size_t room = 0;
  for (std::size_t n : slot_vertices) room += n;
  positions_.resize(2 * room);
  ranges_.resize(data.slots.size());
  bones_.resize(detail::kPackedBoneFloats * data.bones.size());
  rigid_bones_ = detail::rigid_bones(data);
}

void WorldPositions::update(const SkeletonPose& pose) {
  const SkeletonData& data = pose.data();
  vertex_count_ = range_count_ = 0;
  detail::pack_bones(pose, bones_.data());
  const std::size_t room = positions_.size() / 2;
  for (const std::uint16_t slot : pose.draw_order) {
    if (slot >= data.slots.size()) continue;
    const std::int32_t index = pose.attachment[slot];
    if (index < 0 || static_cast<std::size_t>(index) >= data.attachments.size()) continue;
    const AttachmentRecord& att = data.attachments[static_cast<std::size_t>(index)];
    if (!detail::draws(att.kind) || !pose.active[static_cast<std::size_t>(data.slots.bone[slot])]) continue;
    if (vertex_count_ + att.vertex_count > room || range_count_ == ranges_.size()) continue;
    detail::write_world_vertices(pose, slot, att, rigid_bones_[static_cast<std::size_t>(index)], bones_.data(),
                                 positions_.data() + 2 * vertex_count_, 2);
    ranges_[range_count_++] = {slot, index, static_cast<std::uint32_t>(vertex_count_), att.vertex_count};
    vertex_count_ += att.vertex_count;
  }
}

}  // namespace mf::skel
