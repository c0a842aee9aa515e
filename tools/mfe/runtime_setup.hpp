#pragma once
// Shared by the mfe commands that run the runtime: build a rig from its source files and compose the
// skins asked for on the command line.

#include <memory>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skin_composer.hpp"

namespace mf::tools {

struct RuntimeSetup {
  std::shared_ptr<skel::SkeletonData> data;
  std::unique_ptr<skel::SkinCache> skins;
  const skel::ComposedSkin* skin = nullptr;  // null: the data's first skin

  void apply_skin(skel::SkeletonPose& pose) const;
};

// Builds the rig (every clip loaded) and composes `skins` ("a,b", empty for the default).
Expected<RuntimeSetup> load_runtime(const std::string& mskel, const std::string& skins);

// "idle, walk, run" for messages.
std::string clip_list(const skel::SkeletonData& data);

}  // namespace mf::tools
