// `mfe skel autoweights <mskel> --slot s [--attachment a] [--skin k] [--bones a,b,c] [--max-influences n]
// [--prune t] [--all]`: weights a mesh attachment to bones by heat diffusion (bone heat) and saves the
// rig in canonical form, atomically. `--all` weights every mesh of the rig (of one skin with --skin).
// Prints per mesh its vertices, the bones that weight it, the largest deviation of a vertex's weight
// sum from 1 and the most influences of a vertex.
//
// Nothing is written unless every mesh asked for is weighted. Exit 0 when the rig is saved, 1 when the
// rig, a clip, a name or a mesh is refused (e.g. a mesh with deform keys, a bone that inherits other
// than Normal), 2 on usage errors or when the save fails.

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/mesh/mesh_weights.hpp"

namespace mf::tools {
namespace {

using namespace mf::offline;

struct AutoweightsOptions {
  std::string mskel;
  std::string slot, attachment, skin, bones;
  int max_influences = AutoWeightsOptions{}.max_influences;
  double prune = AutoWeightsOptions{}.prune;
  bool all = false;
};

int fail(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return 1;
}

std::string bone_list(const SkeletonSource& s, const std::vector<int>& bones) {
  std::string out;
  for (int b : bones) out += (out.empty() ? "" : ", ") + s.bones[static_cast<std::size_t>(b)].name;
  return "[" + out + "]";
}

// The bones named in a comma-separated list; an unknown name is an error listing the bones there are.
Expected<std::vector<int>> parse_bones(const SkeletonSource& s, const std::string& text, const std::string& file) {
  std::vector<int> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string name = text.substr(start, comma - start);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    const int b = s.find_bone(name);
    if (b < 0) {
      std::vector<int> all(s.bones.size());
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
      return Unexpected{Error{file, "", {}, "no bone named \"" + name + "\" (bones: " + bone_list(s, all) + ")"}};
    }
    out.push_back(b);
    start = comma + 1;
  }
  return out;
}

int run_autoweights(const AutoweightsOptions& options) {
  Expected<Rig> loaded = load_rig(options.mskel);
  if (!loaded) return fail(loaded.error().to_string());
  Rig& rig = *loaded;
  SkeletonSource& s = rig.skeleton;

  // Every clip, so that meshes with deform keys are refused.
  std::vector<ClipSource> clips;
  clips.reserve(rig.clips.size());
  for (const ClipFile& file : rig.clips) {
    Expected<ClipSource> clip = load_clip(rig, file.name);
    if (!clip) return fail(clip.error().to_string() + " (every clip is read to find the deform keys of the meshes)");
    clips.push_back(std::move(clip).value());
  }
  std::vector<NamedClip> named;
  for (std::size_t i = 0; i < clips.size(); ++i) named.push_back({rig.clips[i].name, &clips[i]});

  std::vector<int> bones;
  if (!options.bones.empty()) {
    Expected<std::vector<int>> parsed = parse_bones(s, options.bones, rig.path);
    if (!parsed) return fail(parsed.error().to_string());
    bones = std::move(parsed).value();
  } else {
    bones = default_weight_bones(s);
    if (bones.empty()) return fail(rig.path + ": no bone has a setup world transform from the source alone; name bones with --bones");
  }

  std::vector<MeshRef> meshes;
  if (options.all) {
    const int only_skin = options.skin.empty() ? -1 : s.find_skin(options.skin);
    if (!options.skin.empty() && only_skin < 0) return fail(rig.path + ": no skin named \"" + options.skin + "\"");
    for (MeshRef m : all_meshes(s))
      if (only_skin < 0 || m.skin == only_skin) meshes.push_back(m);
    if (meshes.empty()) return fail(rig.path + ": the rig has no mesh attachment");
  } else {
    Expected<MeshRef> found = find_mesh(s, options.skin, options.slot, options.attachment);
    if (!found) {
      Error e = found.error();
      e.file = rig.path;
      if (!e.path.empty()) e.position = s.positions.nearest(e.path);
      return fail(e.to_string());
    }
    meshes.push_back(*found);
  }

  const AutoWeightsOptions weights{.max_influences = options.max_influences, .prune = options.prune};
  std::vector<std::string> lines;
  for (MeshRef m : meshes) {
    Expected<MeshWeightsResult> done = auto_weight_mesh(s, m, bones, named, weights);
    if (!done) {
      Error e = done.error();
      e.file = rig.path;
      e.position = s.positions.nearest(e.path);
      return fail(e.to_string() + " (nothing written)");
    }
    const Attachment& a = s.skins[static_cast<std::size_t>(m.skin)].attachments[static_cast<std::size_t>(m.attachment)];
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, "%zu vertices, max |weight sum - 1| %.3g, max influences %d", done->vertices,
                  done->max_sum_deviation, done->max_influences_used);
    lines.push_back(s.skins[static_cast<std::size_t>(m.skin)].name + "/" + s.slots[static_cast<std::size_t>(a.slot)].name +
                    "/" + a.name + ": " + numbers + ", bones " + bone_list(s, done->bones_used));
  }
  if (Status saved = save_skeleton(s, rig.path); !saved) {
    std::fprintf(stderr, "error: %s\n", saved.error().to_string().c_str());
    return 2;
  }
  for (const std::string& line : lines) std::printf("%s\n", line.c_str());
  std::printf("%s: weighted %zu mesh%s to %s\n", rig.path.c_str(), meshes.size(), meshes.size() == 1 ? "" : "es",
              bone_list(s, bones).c_str());
  return 0;
}

}  // namespace

void add_skel_autoweights(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<AutoweightsOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "autoweights",
      "Weight a mesh attachment to bones automatically by heat diffusion (bone heat) over the mesh in the setup "
      "pose, and save the rig in canonical form. Each vertex's bind position is stored in each bone's space, so "
      "the setup pose is unchanged. Meshes that clips deform are refused. Exit 1 when the rig, a name or a mesh "
      "is refused (nothing is written), 2 on usage errors or when the save fails.");
  cmd->add_option("mskel", options->mskel, "The .mskel file")->required()->check(CLI::ExistingFile);
  CLI::Option* slot = cmd->add_option("--slot", options->slot, "The mesh's slot");
  CLI::Option* attachment =
      cmd->add_option("--attachment", options->attachment, "The mesh's attachment name (default: the slot's setup attachment)");
  cmd->add_option("--skin", options->skin,
                  "The mesh's skin (default: the one skin that has the attachment); with --all, only this skin's meshes");
  cmd->add_option("--bones", options->bones,
                  "Bones to weight to, comma-separated (default: every bone with a setup world transform except a "
                  "root that has bones below it)");
  cmd->add_option("--max-influences", options->max_influences, "Most bones per vertex")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxInfluences));
  cmd->add_option("--prune", options->prune, "Weights below this fraction are dropped before renormalising")
      ->capture_default_str()
      ->check([](const std::string& s) {
        try {
          std::size_t used = 0;
          const double v = std::stod(s, &used);
          if (used == s.size() && v >= 0 && v < 1) return std::string();
        } catch (...) {
        }
        return "expected a number from 0 to just under 1, found \"" + s + "\"";
      });
  CLI::Option* all = cmd->add_flag("--all", options->all, "Weight every mesh of the rig");
  all->excludes(slot)->excludes(attachment);
  cmd->callback([options, slot, &exit_code] {
    if (!options->all && slot->count() == 0) {
      std::fprintf(stderr, "error: name the mesh's slot with --slot, or weight every mesh with --all\n");
      exit_code = 2;
      return;
    }
    exit_code = run_autoweights(*options);
  });
}

}  // namespace mf::tools
