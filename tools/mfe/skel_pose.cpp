// mfe skel pose: the pose of a clip at a time, as text or JSON. How tools and tests look at poses.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/skin_composer.hpp"
#include "pose_print.hpp"
#include "runtime_setup.hpp"

namespace mf::tools {
namespace {

struct PoseOptions {
  std::string rig;
  std::string clip;
  float time = 0;
  std::string skins;
  bool vertices = false;
  bool json = false;
};

int run_pose(const PoseOptions& o) {
  auto loaded = load_runtime(o.rig, o.skins);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", loaded.error().to_string().c_str());
    return 1;
  }
  RuntimeSetup& rt = *loaded;
  const int clip = rt.data->find_clip(o.clip);
  if (clip < 0) {
    std::fprintf(stderr, "%s: no clip \"%s\"; the rig has: %s\n", o.rig.c_str(), o.clip.c_str(), clip_list(*rt.data).c_str());
    return 1;
  }
  skel::SkeletonInstance instance(*rt.data);
  rt.apply_skin(instance.pose());
  // Sampled from the setup pose, as a first evaluation from time 0: events in [0, t] fire once.
  const bool loop = rt.data->clip(clip)->loop != skel::LoopMode::None;
  anim::ClipSample sample = skel::loop_sample(*rt.data, clip, 0, o.time, loop);
  sample.first = true;
  sample.previous_time = 0;
  sample.loops = 0;
  instance.update({&sample, 1});
  if (o.json) {
    json::Writer w;
    w.begin_object();
    write_pose_members(w, instance, o.vertices, true);
    w.end_object();
    std::fputs(w.finish().c_str(), stdout);
  } else {
    print_pose_text(instance, o.vertices, true);
  }
  return 0;
}

}  // namespace

void add_skel_pose(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<PoseOptions>();
  CLI::App* cmd = skel.add_subcommand("pose", "Print the pose of a clip at a time: bones, slots, draw order, events");
  cmd->add_option("mskel", options->rig, "The rig (.mskel)")->required();
  cmd->add_option("--clip", options->clip, "Clip name")->required();
  cmd->add_option("--t", options->time, "Time in seconds")->required();
  cmd->add_option("--skin", options->skins, "Skins to compose, comma-separated, in order");
  cmd->add_flag("--vertices", options->vertices, "Also print each visible attachment's world vertices");
  cmd->add_flag("--json", options->json, "Print one JSON object");
  cmd->callback([options, &exit_code] { exit_code = run_pose(*options); });
}

}  // namespace mf::tools
