#pragma once
// A Spine-format fixture of tests/data/spine imported and compiled as a game would use it: the
// source model (skeleton and clips) and the runtime data with every clip compiled in.

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "mf/core/file_io.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/import/spine/spine_import.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::skel::test {

struct SpineFixtureRig {
  offline::SpineImport source;
  std::shared_ptr<SkeletonData> data;
};

// Imports tests/data/spine/<name> (JSON only: every image is taken as 64 × 64) and compiles its
// skeleton and clips. A failure is reported to the test and returns false.
inline bool load_spine_fixture(const std::string& name, SpineFixtureRig& rig) {
  const std::string file = std::string(MF_TEST_DATA_DIR) + "/spine/" + name;
  Expected<std::string> text = read_file(file);
  if (!text) {
    ADD_FAILURE() << text.error().to_string();
    return false;
  }
  Expected<offline::SpineImport> im = offline::convert_spine(*text, file);
  if (!im) {
    ADD_FAILURE() << im.error().to_string();
    return false;
  }
  rig.source = std::move(*im);
  auto image_size = [](const std::string&) -> std::optional<offline::ImageSize> { return offline::ImageSize{64, 64}; };
  auto built = offline::build_skeleton(rig.source.skeleton, image_size, rig.source.name, rig.source.name + ".mskel");
  if (!built) {
    ADD_FAILURE() << built.error().to_string();
    return false;
  }
  rig.data = built->data;
  for (const auto& [clip_name, clip] : rig.source.clips) {
    auto compiled = offline::compile_clip(clip, rig.source.skeleton, *rig.data, clip_name, clip_name + ".manim");
    if (!compiled) {
      ADD_FAILURE() << compiled.error().to_string();
      return false;
    }
    auto shared = std::make_shared<ClipData>(std::move(*compiled));
    shared->cursor_base = rig.data->cursor_count;
    rig.data->cursor_count += static_cast<std::uint32_t>(shared->timelines.size());
    rig.data->clips.push_back({clip_name, shared->length, shared});
  }
  return true;
}

}  // namespace mf::skel::test
