// `mfe skel fmt <file|folder>... [--check]`: rewrites .mskel and .manim files in canonical form.
// Folders are searched recursively for both kinds. A file already canonical is not touched; with
// --check nothing is written and the files that are not canonical are listed. Exit 1 when a file
// does not read, or (with --check) when any file is not canonical; 2 on usage errors, including a
// path that does not exist.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/skeleton_format.hpp"

namespace mf::tools {
namespace {

namespace fs = std::filesystem;
using namespace mf::offline;

struct FmtOptions {
  std::vector<std::string> paths;
  bool check = false;
};

bool is_source(const fs::path& p) { return p.extension() == ".mskel" || p.extension() == ".manim"; }

// The canonical text of one file; a .manim is read on its own, without its skeleton.
Expected<std::string> canonical_text(const std::string& path, const std::string& text) {
  if (fs::path(path).extension() == ".mskel") {
    Expected<SkeletonSource> skeleton = read_skeleton(text, path);
    if (!skeleton) return Unexpected{skeleton.error()};
    return write_skeleton(*skeleton);
  }
  Expected<ClipSource> clip = read_clip(text, path);
  if (!clip) return Unexpected{clip.error()};
  return write_clip(*clip);
}

int run_fmt(const FmtOptions& options) {
  int exit_code = 0;
  std::vector<std::string> files;
  for (const std::string& path : options.paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && is_source(it->path())) found.push_back(it->path().string());
      if (ec) {
        std::fprintf(stderr, "error: %s: cannot list the folder: %s\n", path.c_str(), ec.message().c_str());
        exit_code = 1;
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (is_source(path)) {
      files.push_back(path);
    } else {
      std::fprintf(stderr, "error: %s: not a .mskel or .manim file\n", path.c_str());
      exit_code = 1;
    }
  }

  for (const std::string& file : files) {
    Expected<std::string> text = read_file(file);
    if (!text) {
      std::fprintf(stderr, "error: %s\n", text.error().to_string().c_str());
      exit_code = 1;
      continue;
    }
    Expected<std::string> canonical = canonical_text(file, *text);
    if (!canonical) {
      std::fprintf(stderr, "error: %s\n", canonical.error().to_string().c_str());
      exit_code = 1;
      continue;
    }
    if (*canonical == *text) continue;
    if (options.check) {
      std::printf("%s\n", file.c_str());
      exit_code = 1;
      continue;
    }
    if (Status saved = write_file_atomic(file, *canonical); !saved) {
      std::fprintf(stderr, "error: %s\n", saved.error().to_string().c_str());
      exit_code = 1;
      continue;
    }
    std::printf("formatted %s\n", file.c_str());
  }
  return exit_code;
}

}  // namespace

void add_skel_fmt(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<FmtOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "fmt",
      "Rewrite .mskel and .manim files in canonical form (folders are searched recursively). Files already "
      "canonical are not touched; each rewritten file is named. Exit 1 when a file does not read; 2 on usage "
      "errors, including a path that does not exist.");
  cmd->add_option("files", options->paths, "Files or folders")->required()->check(CLI::ExistingPath);
  cmd->add_flag("--check", options->check,
                "Write nothing; list the files that are not canonical and exit 1 if there are any");
  cmd->callback([options, &exit_code] { exit_code = run_fmt(*options); });
}

}  // namespace mf::tools
