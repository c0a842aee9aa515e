#include "instance_runs.hpp"

#include <algorithm>
#include <limits>

namespace mf::render::detail {

namespace {

// With the same attachment a slot's page can change only through a sequence's frame, so only
// sequences are looked up while nothing else differs.
bool runs_stale(const InstanceRuns& instance, const skel::SkeletonPose& pose) {
  if (!instance.valid ||
      !std::equal(instance.draw_order.begin(), instance.draw_order.end(), pose.draw_order.begin(), pose.draw_order.end()) ||
      instance.attachment != pose.attachment || instance.active != pose.active)
    return true;
  const skel::SkeletonData& data = pose.data();
  for (std::size_t s = 0; s < data.slots.size(); ++s) {
    const std::int32_t a = pose.attachment[s];
    if (a < 0 || static_cast<std::size_t>(a) >= data.attachments.size()) continue;
    const skel::AttachmentRecord& att = data.attachments[static_cast<std::size_t>(a)];
    if (att.region_count <= 1) continue;
    if (region_for(data, pose, s, att)->page != instance.page[s]) return true;
  }
  return false;
}

void update_pages(InstanceRuns& instance, const skel::SkeletonPose& pose) {
  const skel::SkeletonData& data = pose.data();
  for (std::size_t s = 0; s < data.slots.size(); ++s) {
    std::int32_t page = -1;
    const std::int32_t a = pose.attachment[s];
    if (a >= 0 && static_cast<std::size_t>(a) < data.attachments.size()) {
      const skel::Region* region = region_for(data, pose, s, data.attachments[static_cast<std::size_t>(a)]);
      if (region) page = region->page;
    }
    instance.page_now[s] = page;
  }
}

void append_item(InstanceRuns& instance, const skel::SkeletonData& data, std::size_t slot, std::int32_t index, bool clipping) {
  const SkeletonGpuData& entry = *instance.data;
  const skel::AttachmentRecord& att = data.attachments[static_cast<std::size_t>(index)];
  const std::int32_t page = instance.page_now[slot];
  CachedItem item{clipping, static_cast<std::int32_t>(slot), index, page, entry.page_set(page), skel::to_color_f(att.color),
                  data.slots.blend[slot], 0, 0, 0};
  if (!clipping && item.page >= 0) {
    item.local_vertex = instance.gpu_vertices;
    item.index_start = entry.index_starts[static_cast<std::size_t>(index)];
    item.index_count = entry.index_starts[static_cast<std::size_t>(index) + 1] - item.index_start;
    instance.gpu_vertices += att.vertex_count;
  }
  instance.has_clipped = instance.has_clipped || clipping;
  instance.items.push_back(item);
}

void rebuild(InstanceRuns& instance, const skel::SkeletonPose& pose) {
  const skel::SkeletonData& data = pose.data();
  instance.draw_order.assign(pose.draw_order.begin(), pose.draw_order.end());
  instance.attachment.assign(pose.attachment.begin(), pose.attachment.end());
  instance.page.assign(instance.page_now.begin(), instance.page_now.end());
  instance.active.assign(pose.active.begin(), pose.active.end());
  instance.items.clear();
  instance.gpu_vertices = 0;
  instance.valid = true;
  instance.has_clipped = false;
  ++instance.version;

  // The same walk as CpuVertices::update: draw order, active bones, clipping ranges.
  bool clipping = false;
  std::int32_t clip_end = -1;
  for (std::uint16_t s : pose.draw_order) {
    const std::size_t slot = s;
    if (slot >= data.slots.size()) continue;
    const auto bone = static_cast<std::size_t>(data.slots.bone[slot]);
    const std::int32_t index = pose.attachment[slot];
    if (pose.active[bone] && index >= 0 && static_cast<std::size_t>(index) < data.attachments.size()) {
      const skel::AttachmentRecord& att = data.attachments[static_cast<std::size_t>(index)];
      if (att.kind == skel::AttachmentKind::Clipping) {
        if (!clipping) {
          clipping = true;
          clip_end = att.end_slot;
        }
      } else if (is_drawn_kind(att.kind)) {
        append_item(instance, data, slot, index, clipping);
      }
    }
    if (clipping && static_cast<std::int32_t>(slot) == clip_end) clipping = false;
  }
}

}  // namespace

std::unique_ptr<InstanceRuns> make_instance_runs(SkeletonGpuData& data) {
  const skel::SkeletonData& d = *data.data;
  auto instance = std::make_unique<InstanceRuns>();
  instance->data = &data;
  instance->cpu = std::make_unique<skel::CpuVertices>(d);
  instance->draw_order.reserve(d.slots.size());
  instance->attachment.reserve(d.slots.size());
  instance->page.reserve(d.slots.size());
  instance->page_now.resize(d.slots.size());
  instance->active.reserve(d.bones.size());
  instance->items.reserve(d.slots.size());
  return instance;
}

bool refresh_runs(InstanceRuns& instance, const skel::SkeletonPose& pose) {
  if (!runs_stale(instance, pose)) return false;
  update_pages(instance, pose);
  rebuild(instance, pose);
  return true;
}

bool culled(const skel::Bounds& bounds, const Affine2& t, const View& view) {
  if (bounds.empty()) return true;
  const float xs[4] = {bounds.min_x, bounds.max_x, bounds.max_x, bounds.min_x};
  const float ys[4] = {bounds.min_y, bounds.min_y, bounds.max_y, bounds.max_y};
  float min_x = std::numeric_limits<float>::infinity(), min_y = min_x, max_x = -min_x, max_y = -min_x;
  for (int k = 0; k < 4; ++k) {
    const float x = t.apply_x(xs[k], ys[k]), y = t.apply_y(xs[k], ys[k]);
    min_x = std::min(min_x, x);
    max_x = std::max(max_x, x);
    min_y = std::min(min_y, y);
    max_y = std::max(max_y, y);
  }
  return max_x < view.x || min_x > view.x + view.width || max_y < view.y || min_y > view.y + view.height;
}

}  // namespace mf::render::detail
