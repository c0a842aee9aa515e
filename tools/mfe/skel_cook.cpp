// `mfe skel cook <file>... --out <dir>`: the files a shipped game loads instead of its sources. Each
// .mskel becomes <dir>/<name>.mbuild (the rig and every clip, built through the bake cache); each
// .mgraph becomes <dir>/<name>.mgbuild (the compiled graph's binary). The sounds a rig's events name
// are copied to the same paths under <dir> (they are relative to the rig's folder, and the game plays
// them relative to the build's folder); two rigs naming one path with different bytes is an error.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/build/build_writer.hpp"
#include "mf/offline/graph/graph_compiler.hpp"
#include "mf/offline/build/skeleton_loader.hpp"

namespace mf::tools {
namespace {

namespace fs = std::filesystem;
using namespace mf::offline;

struct CookCommandOptions {
  std::vector<std::string> inputs;
  std::string out;
};

struct Cooked {
  std::string bytes;
  std::string note;                 // e.g. "cache hit"
  std::vector<std::string> sounds;  // event audio paths, relative to the rig's folder, each once
};

Expected<Cooked> cook_rig(const std::string& mskel) {
  Expected<LoadedSkeleton> loaded = load_skeleton(mskel);
  if (!loaded) return Unexpected{loaded.error()};
  for (const Error& warning : loaded->warnings) std::fprintf(stderr, "warning: %s\n", warning.to_string().c_str());
  Expected<std::string> bytes = encode_build(*loaded->data, mskel);
  if (!bytes) return Unexpected{bytes.error()};
  Cooked cooked{std::move(bytes).value(), std::string("cache ") + to_string(loaded->cache), {}};
  for (const skel::EventData& event : loaded->data->events) {
    if (event.audio.empty()) continue;
    if (std::find(cooked.sounds.begin(), cooked.sounds.end(), event.audio) != cooked.sounds.end()) continue;
    const fs::path relative = fs::path(event.audio).lexically_normal();
    if (relative.is_absolute() || relative.empty() || *relative.begin() == "..")
      return Unexpected{Error{mskel, {}, {}, "event \"" + event.name + "\": the audio path \"" + event.audio +
                                                 "\" must lie inside the rig's folder to be cooked beside the build"}};
    cooked.sounds.push_back(event.audio);
  }
  return cooked;
}

// Copies a rig's event sounds under `out`; `copied` (destination → source bytes' origin) catches two
// rigs that name one path with different files. Returns false after printing the error.
bool copy_sounds(const std::string& mskel, const std::vector<std::string>& sounds, const std::string& out,
                 std::map<std::string, std::pair<std::string, std::string>>& copied) {
  bool ok = true;
  for (const std::string& sound : sounds) {
    const std::string from = (fs::path(mskel).parent_path() / sound).lexically_normal().string();
    const std::string to = (fs::path(out) / sound).lexically_normal().string();
    Expected<std::string> bytes = read_file(from);
    if (!bytes) {
      std::fprintf(stderr, "error: %s: event sound: %s\n", mskel.c_str(), bytes.error().to_string().c_str());
      ok = false;
      continue;
    }
    if (auto it = copied.find(to); it != copied.end()) {
      if (it->second.second != *bytes) {
        std::fprintf(stderr, "error: %s and %s are both cooked to %s but differ; give one of them another path\n",
                     it->second.first.c_str(), from.c_str(), to.c_str());
        ok = false;
      }
      continue;
    }
    std::error_code ec;
    fs::create_directories(fs::path(to).parent_path(), ec);
    if (Status written = write_file_atomic(to, *bytes); !written) {
      std::fprintf(stderr, "error: %s\n", written.error().to_string().c_str());
      ok = false;
      continue;
    }
    std::printf("copied %s -> %s (%zu bytes)\n", from.c_str(), to.c_str(), bytes->size());
    copied.emplace(to, std::make_pair(from, std::move(*bytes)));
  }
  return ok;
}

Expected<Cooked> cook_graph(const std::string& mgraph) {
  Expected<anim::AnimationGraph> graph = compile_graph_file(mgraph);
  if (!graph) return Unexpected{graph.error()};
  const std::vector<std::uint8_t> binary = write_graph_binary(*graph);
  return Cooked{std::string(binary.begin(), binary.end()), "graph"};
}

int run_cook(const CookCommandOptions& options) {
  // Every output name first, so two inputs never overwrite each other's file.
  std::map<std::string, std::string> outputs;  // output path → input
  for (const std::string& input : options.inputs) {
    const std::string ext = fs::path(input).extension().string();
    if (ext != ".mskel" && ext != ".mgraph") {
      std::fprintf(stderr, "error: %s: cook takes .mskel and .mgraph files\n", input.c_str());
      return 2;
    }
    const std::string out =
        (fs::path(options.out) / (fs::path(input).stem().string() + (ext == ".mskel" ? ".mbuild" : ".mgbuild"))).string();
    if (const auto [it, inserted] = outputs.emplace(out, input); !inserted) {
      std::fprintf(stderr, "error: %s and %s would both be cooked to %s\n", it->second.c_str(), input.c_str(), out.c_str());
      return 2;
    }
  }
  std::error_code ec;
  fs::create_directories(options.out, ec);
  if (ec) {
    std::fprintf(stderr, "error: %s: cannot create the output folder: %s\n", options.out.c_str(), ec.message().c_str());
    return 2;
  }

  int exit_code = 0;
  std::map<std::string, std::pair<std::string, std::string>> sounds_copied;
  for (const auto& [out, input] : outputs) {
    Expected<Cooked> cooked = fs::path(input).extension() == ".mskel" ? cook_rig(input) : cook_graph(input);
    if (!cooked) {
      std::fprintf(stderr, "error: %s\n", cooked.error().to_string().c_str());
      exit_code = std::max(exit_code, 1);
      continue;
    }
    if (Status written = write_file_atomic(out, cooked->bytes); !written) {
      std::fprintf(stderr, "error: %s\n", written.error().to_string().c_str());
      exit_code = 2;
      continue;
    }
    std::printf("cooked %s -> %s (%zu bytes, %s)\n", input.c_str(), out.c_str(), cooked->bytes.size(), cooked->note.c_str());
    if (!copy_sounds(input, cooked->sounds, options.out, sounds_copied)) exit_code = std::max(exit_code, 1);
  }
  return exit_code;
}

}  // namespace

void add_skel_cook(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<CookCommandOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "cook",
      "Write only the files a shipped game loads: <out>/<name>.mbuild for each .mskel (the rig and every clip, "
      "built through the bake cache) and <out>/<name>.mgbuild for each .mgraph (the compiled graph), and copies "
      "the sounds the rigs' events name to the same relative paths under <out>. Prints one "
      "\"cooked <input> -> <output>\" or \"copied <sound> -> <output>\" line per file. Exit 1 when an input has errors (the others are still "
      "cooked), 2 on usage errors (a missing file, another extension, two inputs with one name) or when an "
      "output cannot be written.");
  cmd->add_option("inputs", options->inputs, "The .mskel and .mgraph files")->required()->check(CLI::ExistingFile);
  cmd->add_option("--out", options->out, "The output folder (created when missing)")->required();
  cmd->callback([options, &exit_code] { exit_code = run_cook(*options); });
}

}  // namespace mf::tools
