// Fuzzes the build loader (mf/skel/build_file.hpp). Beyond "no crash": whatever it accepts must be
// safe to animate (every clip decodes or fails with a message; a few frames run with every clip), and
// the writer must accept it again (the loader and the writer validate alike).

#include <cstdint>
#include <cstdlib>
#include <string>

#include "mf/offline/build/build_writer.hpp"
#include "mf/skel/build_file.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/skin_composer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mf;
  auto loaded = skel::load_build(std::string(reinterpret_cast<const char*>(data), size), "fuzz.mbuild");
  if (!loaded.ok()) {
    if (loaded.error().to_string().empty()) std::abort();
    return 0;
  }
  skel::SkeletonData& d = **loaded;
  bool all_clips = true;
  for (std::size_t c = 0; c < d.clips.size(); ++c) {
    auto clip = d.load_clip(static_cast<int>(c));
    if (!clip.ok()) {
      if (clip.error().message.empty()) std::abort();
      all_clips = false;
    }
  }
  if (!all_clips) return 0;

  skel::SkeletonInstance instance(d);
  skel::SkinCache skins(d);
  for (std::size_t s = 0; s < d.skins.size() && s < 4; ++s) {
    const std::int32_t list[1] = {static_cast<std::int32_t>(s)};
    skel::apply_skin(instance.pose(), skins.compose(list));
    for (std::size_t c = 0; c < d.clips.size() && c < 8; ++c) {
      for (int f = 0; f < 3; ++f) {
        const float t = static_cast<float>(f) * 0.37f;
        const anim::ClipSample sample = skel::loop_sample(d, static_cast<int>(c), t - 0.37f, t);
        skel::FrameContext context;
        context.delta = 1.0f / 60;
        instance.update({&sample, 1}, context);
        (void)instance.vertices();
        (void)instance.world_positions();
      }
    }
  }
  if (!offline::encode_build(d, "fuzz.mbuild").ok()) std::abort();
  return 0;
}
