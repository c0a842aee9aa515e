#include "mf/live_reload/rig_generation.hpp"

#include <filesystem>

#include "mf/offline/check/findings.hpp"
#include "mf/offline/graph/graph_check.hpp"
#include "mf/offline/graph/graph_compiler.hpp"
#include "mf/offline/graph/graph_format.hpp"
#include "mf/skel/animated_skeleton.hpp"

namespace mf::live_reload {

Expected<RigGeneration> build_rig_generation(const std::string& mskel_path, const std::string& graph_path,
                                             const offline::LoadOptions& load, std::uint64_t generation) {
  Expected<offline::LoadedSkeleton> loaded = offline::load_skeleton(mskel_path, load);
  if (!loaded) return Unexpected{loaded.error()};
  // Every clip now: a broken clip fails the reload (the old data stays), and players never compile a
  // clip in the middle of a frame.
  if (Status clips = loaded->data->load_all_clips(); !clips) return Unexpected{clips.error()};

  RigGeneration out;
  out.generation = generation;
  out.warnings = std::move(loaded->warnings);
  const std::shared_ptr<const skel::SkeletonData> data = loaded->data;
  out.data = data;
  if (graph_path.empty()) return out;

  Expected<offline::GraphSource> source = offline::read_graph_file(graph_path);
  if (!source) return Unexpected{source.error()};
  // Checked against this build's names, so an unknown clip or bone points at its place in the file.
  offline::GraphRigNames names;
  names.mskel = mskel_path;
  for (const auto& clip : data->clips) names.clips.push_back(clip.name);
  names.bones = data->bones.names;
  for (const offline::Finding& f : offline::check_graph(*source, graph_path, &names)) {
    if (f.severity == offline::Severity::Error) return Unexpected{f.error};
    out.warnings.push_back(f.error);
  }
  Expected<anim::AnimationGraph> graph =
      offline::compile_graph(*source, graph_path, std::filesystem::path(graph_path).stem().string());
  if (!graph) return Unexpected{graph.error()};
  auto compiled = std::make_shared<const anim::AnimationGraph>(std::move(graph).value());
  Expected<anim::GraphBinding> binding = skel::bind_graph(*compiled, *data);
  if (!binding) {
    Error e = binding.error();
    if (e.file.empty()) e.file = graph_path;
    return Unexpected{e};
  }
  out.graph_path = graph_path;
  out.graph = std::move(compiled);
  out.binding = std::make_shared<const anim::GraphBinding>(std::move(binding).value());
  return out;
}

}  // namespace mf::live_reload
