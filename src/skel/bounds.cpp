#include "mf/skel/bounds.hpp"

#include <algorithm>
#include <limits>
#include <memory>

#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/cpu_vertices.hpp"
#include "mf/skel/skin_composer.hpp"
#include "mf/skel/world_transform.hpp"
#include "world_vertices.hpp"

namespace mf::skel {
namespace {

Bounds empty_bounds() {
  constexpr float inf = std::numeric_limits<float>::infinity();
  return {inf, inf, -inf, -inf};
}

void include(Bounds& b, float x, float y) {
  b.min_x = std::min(b.min_x, x);
  b.min_y = std::min(b.min_y, y);
  b.max_x = std::max(b.max_x, x);
  b.max_y = std::max(b.max_y, y);
}

void unite(Bounds& b, const Bounds& other) {
  if (other.empty()) return;
  include(b, other.min_x, other.min_y);
  include(b, other.max_x, other.max_y);
}

// The times a clip is sampled at: 0, its length, every key time, and midway between neighbouring
// distinct key times.
std::vector<float> sample_times(const ClipData& clip) {
  std::vector<float> keys(clip.times.begin(), clip.times.end());
  keys.push_back(0);
  keys.push_back(clip.length);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<float> times;
  times.reserve(2 * keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) times.push_back(keys[i - 1] + 0.5f * (keys[i] - keys[i - 1]));
    times.push_back(keys[i]);
  }
  return times;
}

}  // namespace

Bounds pose_bounds(const SkeletonPose& pose) {
  const SkeletonData& data = pose.data();
  Bounds b = empty_bounds();
  bool any = false;
  for (std::size_t s = 0; s < data.slots.size(); ++s) {
    const std::int32_t index = pose.attachment[s];
    if (index < 0 || static_cast<std::size_t>(index) >= data.attachments.size()) continue;
    if (!pose.active[static_cast<std::size_t>(data.slots.bone[s])]) continue;
    const AttachmentRecord& att = data.attachments[static_cast<std::size_t>(index)];
    if (att.kind != AttachmentKind::Region && att.kind != AttachmentKind::Mesh) continue;
    detail::for_each_world_vertex(pose, static_cast<std::int32_t>(s), att, [&](std::uint32_t, float x, float y) {
      include(b, x, y);
      any = true;
    });
  }
  if (!any) {
    for (std::size_t i = 0; i < pose.active.size(); ++i)
      if (pose.active[i]) include(b, pose.world_x[i], pose.world_y[i]);
  }
  return b;
}

Bounds compute_clip_bounds(const SkeletonData& data, const ClipData& clip) {
  // The sampler finds clips through the data. A clip not yet stored in it (the build computes bounds
  // while compiling) is sampled through a copy of the data that holds just this clip.
  const SkeletonData* source = &data;
  int clip_index = -1;
  for (std::size_t i = 0; i < data.clips.size(); ++i)
    if (data.clips[i].data.get() == &clip) clip_index = static_cast<int>(i);
  std::unique_ptr<SkeletonData> copy;
  if (clip_index < 0) {
    copy = std::make_unique<SkeletonData>(data);
    auto owned = std::make_shared<ClipData>(clip);
    owned->cursor_base = 0;
    copy->clips.clear();
    copy->clips.push_back({clip.name, clip.length, owned});
    copy->cursor_count = static_cast<std::uint32_t>(clip.timelines.size());
    copy->loader = nullptr;
    source = copy.get();
    clip_index = 0;
  }

  SkeletonPose pose(*source);
  SkinCache skins(*source);
  ClipSampler sampler(*source);
  CpuVertices vertices(*source);
  EventBuffer events;
  const std::vector<float> times = sample_times(clip);

  // Each skin over the first (the base most rigs dress), or no skin at all when the rig has none.
  std::vector<std::vector<std::int32_t>> lists;
  if (source->skins.empty()) lists.push_back({});
  for (std::size_t k = 0; k < source->skins.size(); ++k)
    lists.push_back(k == 0 ? std::vector<std::int32_t>{0} : std::vector<std::int32_t>{0, static_cast<std::int32_t>(k)});

  Bounds result = empty_bounds();
  for (const std::vector<std::int32_t>& list : lists) {
    apply_skin(pose, skins.compose(list));
    for (float t : times) {
      anim::ClipSample sample;
      sample.clip = clip_index;
      sample.time = t;
      sample.previous_time = t;
      sample.weight = 1;
      events.clear();
      sampler.apply(pose, std::span<const anim::ClipSample>(&sample, 1), events);
      update_world_transforms(pose);
      vertices.update(pose);
      unite(result, vertices.bounds());
    }
  }
  return result;
}

}  // namespace mf::skel
