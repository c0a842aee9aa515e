// `mfe skel cook <file>... --out <dir>`: the files a shipped game loads instead of its sources. Each
// .mskel becomes <dir>/<name>.mbuild (the rig and every clip, built through the bake cache); each
// .mgraph becomes <dir>/<name>.mgbuild (the compiled graph's binary).

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
  std::string note;  // e.g. "cache hit"
};

Expected<Cooked> cook_rig(const std::string& mskel) {
  Expected<LoadedSkeleton> loaded = load_skeleton(mskel);
  if (!loaded) return Unexpected{loaded.error()};
  for (const Error& warning : loaded->warnings) std::fprintf(stderr, "warning: %s\n", warning.to_string().c_str());
  Expected<std::string> bytes = encode_build(*loaded->data, mskel);
  if (!bytes) return Unexpected{bytes.error()};
  return Cooked{std::move(bytes).value(), std::string("cache ") + to_string(loaded->cache)};
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
  }
  return exit_code;
}

}  // namespace

void add_skel_cook(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<CookCommandOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "cook",
      "Write only the files a shipped game loads: <out>/<name>.mbuild for each .mskel (the rig and every clip, "
      "built through the bake cache) and <out>/<name>.mgbuild for each .mgraph (the compiled graph). Prints one "
      "\"cooked <input> -> <output>\" line per file. Exit 1 when an input has errors (the others are still "
      "cooked), 2 on usage errors (a missing file, another extension, two inputs with one name) or when an "
      "output cannot be written.");
  cmd->add_option("inputs", options->inputs, "The .mskel and .mgraph files")->required()->check(CLI::ExistingFile);
  cmd->add_option("--out", options->out, "The output folder (created when missing)")->required();
  cmd->callback([options, &exit_code] { exit_code = run_cook(*options); });
}

}  // namespace mf::tools
