// `mfe skel build <mskel> [--out file]`: builds a rig through the bake cache (every clip too), prints
// whether the cache hit or missed and how long it took, and writes the build file when asked.

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/build/build_writer.hpp"
#include "mf/offline/build/skeleton_loader.hpp"

namespace mf::tools {
namespace {

using namespace mf::offline;

struct BuildCommandOptions {
  std::string mskel;
  std::string out;
};

int run_build(const BuildCommandOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Expected<LoadedSkeleton> loaded = load_skeleton(options.mskel);
  if (!loaded) {
    std::fprintf(stderr, "error: %s\n", loaded.error().to_string().c_str());
    return 1;
  }
  for (const Error& warning : loaded->warnings) std::fprintf(stderr, "warning: %s\n", warning.to_string().c_str());
  if (Status clips = loaded->data->load_all_clips(); !clips) {
    std::fprintf(stderr, "error: %s\n", clips.error().to_string().c_str());
    return 1;
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: cache %s, %zu clips, %.1f ms\n", options.mskel.c_str(), to_string(loaded->cache),
              loaded->data->clips.size(), ms);
  if (loaded->cache != CacheResult::Off) std::printf("cache entry: %s\n", loaded->cache_entry.c_str());

  if (options.out.empty()) return 0;
  Expected<std::string> bytes = encode_build(*loaded->data, options.mskel);
  if (!bytes) {
    std::fprintf(stderr, "error: %s\n", bytes.error().to_string().c_str());
    return 1;
  }
  if (Status written = write_file_atomic(options.out, *bytes); !written) {
    std::fprintf(stderr, "error: %s\n", written.error().to_string().c_str());
    return 2;
  }
  std::printf("wrote %s (%zu bytes)\n", options.out.c_str(), bytes->size());
  return 0;
}

}  // namespace

void add_skel_build(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<BuildCommandOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "build",
      "Build a rig and all its clips through the bake cache (MF_SKELETON_BAKE_CACHE_DIR, or the user cache "
      "folder; \"off\" disables it). Prints \"<mskel>: cache hit|miss|off, N clips, T ms\" and the cache entry. "
      "With --out, also writes the build file. Exit 1 when the rig or a clip has errors, 2 on usage errors "
      "(including a missing file) or when the output cannot be written.");
  cmd->add_option("mskel", options->mskel, "The .mskel file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--out", options->out, "Write the build file (.mbuild) here");
  cmd->callback([options, &exit_code] { exit_code = run_build(*options); });
}

}  // namespace mf::tools
