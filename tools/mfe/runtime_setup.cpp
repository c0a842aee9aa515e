#include "runtime_setup.hpp"

#include <cstdio>

#include "mf/offline/build/skeleton_builder.hpp"

namespace mf::tools {

void RuntimeSetup::apply_skin(skel::SkeletonPose& pose) const {
  if (skin) skel::apply_skin(pose, *skin);
}

Expected<RuntimeSetup> load_runtime(const std::string& mskel, const std::string& skins) {
  auto built = offline::build_rig_file(mskel);
  if (!built.ok()) return Unexpected{built.error()};
  for (const Error& warning : built->warnings) std::fprintf(stderr, "warning: %s\n", warning.to_string().c_str());
  RuntimeSetup setup;
  setup.data = built->data;
  setup.skins = std::make_unique<skel::SkinCache>(*setup.data);
  if (!skins.empty()) {
    std::vector<std::string> names;
    std::size_t start = 0;
    while (start <= skins.size()) {
      const std::size_t comma = skins.find(',', start);
      names.push_back(skins.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    auto composed = setup.skins->compose(names);
    if (!composed.ok()) return Unexpected{Error{mskel, "", {}, composed.error().message}};
    setup.skin = *composed;
  }
  return setup;
}

std::string clip_list(const skel::SkeletonData& data) {
  std::string out;
  for (const auto& clip : data.clips) out += (out.empty() ? "" : ", ") + clip.name;
  return out.empty() ? "(no clips)" : out;
}

}  // namespace mf::tools
