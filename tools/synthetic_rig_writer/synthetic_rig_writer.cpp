// synthetic_rig_writer <rig> <out_dir> [image_edge]: writes one of the rigs made in code
// (tests/support/synthetic_rig.hpp) as an ordinary rig folder, <out_dir>/<rig>/<rig>.mskel with its
// clips and generated PNGs (image_edge × image_edge pixels each, default 128; a folder of its own, since
// a rig's build packs every image of its images folder), so that `mfe skel bench`, `mfe skel render`
// and callgrind take it like any rig. Prints the .mskel's path.
//
//   build/release/bin/synthetic_rig_writer raptor-shaped /tmp/rigs
//   build/release/bin/mfe skel bench /tmp/rigs/raptor-shaped/raptor-shaped.mskel --clip walk

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <utility>

#include "synthetic_rig_files.hpp"

namespace {

using mf::testing::SyntheticRig;

constexpr std::pair<const char*, SyntheticRig (*)()> kRigs[] = {
    {"mid-complexity", &mf::testing::make_mid_complexity_rig},
    {"constraint", &mf::testing::make_constraint_rig},
    {"feature", &mf::testing::make_feature_rig},
    {"raptor-shaped", &mf::testing::make_raptor_shaped_rig},
    {"celestial-circus-shaped", &mf::testing::make_celestial_circus_shaped_rig},
};

int usage() {
  std::fprintf(stderr, "usage: synthetic_rig_writer <rig> <out_dir> [image_edge]\nrigs:");
  for (const auto& [name, make] : kRigs) std::fprintf(stderr, " %s", name);
  std::fprintf(stderr, "\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) return usage();
  const std::string rig = argv[1];
  const int edge = argc == 4 ? std::atoi(argv[3]) : 128;
  if (edge < 1 || edge > 2048) {
    std::fprintf(stderr, "image_edge must be from 1 to 2048\n");
    return 2;
  }
  for (const auto& [name, make] : kRigs) {
    if (rig != name) continue;
    try {
      std::printf("%s\n", mf::testing::write_synthetic_rig(make(), std::filesystem::path(argv[2]) / name, name, edge).c_str());
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
  }
  std::fprintf(stderr, "unknown rig \"%s\"\n", rig.c_str());
  return usage();
}
