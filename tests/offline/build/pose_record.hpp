#pragma once
// Records what the runtime makes of a rig, for "loaded from a build behaves exactly as from the
// sources": every clip of the data sampled at many times under every skin combination tried, with
// the bits of every world transform and every CPU vertex kept. Two records compare equal only when
// the two data sets pose bit-identically.

#include <bit>
#include <algorithm>
#include <cstdint>
#include <vector>

#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/skin_composer.hpp"

namespace mf::testing {

inline void record_floats(std::vector<std::uint32_t>& out, const std::vector<float>& values) {
  for (float v : values) out.push_back(std::bit_cast<std::uint32_t>(v));
}

// Samples each clip (loaded through load_clip, so on-demand loading is exercised) `steps` times over
// its length plus a wrap, with physics stepping at 60 Hz; each skin is applied alone in turn.
// Without `with_uvs` the atlas placement (UVs) is left out, for comparing builds made by different
// atlas packers.
inline std::vector<std::uint32_t> record_poses(skel::SkeletonData& data, int steps = 48, bool with_uvs = true) {
  std::vector<std::uint32_t> out;
  for (std::size_t c = 0; c < data.clips.size(); ++c)
    if (!data.load_clip(static_cast<int>(c)).ok()) return {};
  skel::SkinCache skins(data);
  const std::size_t skin_count = std::max<std::size_t>(1, data.skins.size());
  for (std::size_t skin = 0; skin < skin_count; ++skin) {
    for (std::size_t c = 0; c < data.clips.size(); ++c) {
      skel::SkeletonInstance instance(data);
      if (!data.skins.empty()) {
        const std::int32_t list[1] = {static_cast<std::int32_t>(skin)};
        skel::apply_skin(instance.pose(), skins.compose(list));
      }
      const float length = std::max(data.clips[c].length, 0.1f);
      float previous = 0;
      for (int s = 0; s <= steps; ++s) {
        const float t = length * 1.25f * static_cast<float>(s) / static_cast<float>(steps);
        const anim::ClipSample sample = skel::loop_sample(data, static_cast<int>(c), previous, t);
        skel::FrameContext context;
        context.delta = 1.0f / 60;
        context.skeleton_x = static_cast<float>(s % 7);
        instance.update({&sample, 1}, context);
        previous = t;
        const skel::SkeletonPose& p = instance.pose();
        for (const auto* v : {&p.a, &p.b, &p.c, &p.d, &p.world_x, &p.world_y}) record_floats(out, *v);
        for (const skel::CpuVertex& v : instance.vertices().vertices())
          for (float f : {v.x, v.y, with_uvs ? v.u : 0.0f, with_uvs ? v.v : 0.0f, v.light.r, v.light.g, v.light.b, v.light.a})
            out.push_back(std::bit_cast<std::uint32_t>(f));
        for (std::uint32_t i : instance.vertices().indices()) out.push_back(i);
        for (std::int32_t a : p.attachment) out.push_back(static_cast<std::uint32_t>(a));
      }
    }
  }
  return out;
}

}  // namespace mf::testing
