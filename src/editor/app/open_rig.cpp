#include "open_rig.hpp"

#include <algorithm>
#include <filesystem>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/check/rig_check.hpp"
#include "mf/skel/bounds.hpp"

namespace mf::editor {

namespace fs = std::filesystem;

Expected<std::string> resolve_rig_path(const std::string& file_or_folder) {
  std::error_code ec;
  const fs::path path(file_or_folder);
  if (fs::is_regular_file(path, ec)) return file_or_folder;
  if (!fs::is_directory(path, ec)) return Unexpected{Error{file_or_folder, {}, {}, "no such file or folder"}};
  std::vector<std::string> found;
  for (const fs::directory_entry& e : fs::directory_iterator(path, ec))
    if (e.is_regular_file(ec) && e.path().extension() == ".mskel") found.push_back(e.path().string());
  std::sort(found.begin(), found.end());
  if (found.size() == 1) return found.front();
  if (found.empty()) return Unexpected{Error{file_or_folder, {}, {}, "the folder holds no .mskel file"}};
  std::string list;
  for (const std::string& f : found) list += (list.empty() ? "" : ", ") + fs::path(f).filename().string();
  return Unexpected{Error{file_or_folder, {}, {}, "the folder holds several rigs (" + list + "): name the .mskel to open"}};
}

OpenRig open_rig(const std::string& mskel) {
  OpenRig rig;
  rig.path = mskel;
  Expected<offline::Rig> source = offline::load_rig(mskel);
  if (!source) {
    rig.findings.push_back({offline::Severity::Error, source.error()});
    return rig;
  }
  rig.source = std::move(*source);
  // The setup pose needs no clip: build_rig lists them and compiles none.
  if (Expected<offline::BuildResult> built = offline::build_rig(*rig.source)) {
    for (const Error& w : built->warnings) rig.findings.push_back({offline::Severity::Warning, w});
    rig.data = built->data;
    rig.setup = std::make_unique<skel::SkeletonInstance>(*rig.data);
    rig.setup->update({});
    const offline::SkeletonSource& s = rig.source->skeleton;
    for (const offline::Bone& b : s.bones) rig.runtime_bone.push_back(rig.data->find_bone(b.name));
    for (const offline::Slot& sl : s.slots) rig.runtime_slot.push_back(rig.data->find_slot(sl.name));
    rig.source_bone.assign(rig.data->bones.size(), -1);
    for (std::size_t i = 0; i < rig.runtime_bone.size(); ++i)
      if (rig.runtime_bone[i] >= 0) rig.source_bone[static_cast<std::size_t>(rig.runtime_bone[i])] = static_cast<int>(i);
  } else {
    rig.findings.push_back({offline::Severity::Error, built.error()});
  }
  std::vector<offline::Finding> checked = offline::check_rig(*rig.source);
  for (offline::Finding& f : checked) {
    // check_rig builds the rig too: its build error is the one already reported.
    const bool repeated = std::any_of(rig.findings.begin(), rig.findings.end(), [&](const offline::Finding& have) {
      return have.error.to_string() == f.error.to_string();
    });
    if (!repeated) rig.findings.push_back(std::move(f));
  }
  return rig;
}

Bounds OpenRig::bounds() const {
  if (!setup) return Bounds{1, 1, 0, 0};
  const skel::SkeletonPose& pose = setup->pose();
  Bounds b = skel::pose_bounds(pose);
  const skel::BoneTable& bones = pose.data().bones;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    if (!pose.active[i]) continue;
    for (const float t : {0.0f, bones.length[i]}) {
      const float x = pose.world_x[i] + pose.a[i] * t, y = pose.world_y[i] + pose.c[i] * t;
      if (b.empty()) b = {x, y, x, y};
      b.min_x = std::min(b.min_x, x);
      b.min_y = std::min(b.min_y, y);
      b.max_x = std::max(b.max_x, x);
      b.max_y = std::max(b.max_y, y);
    }
  }
  return b;
}

}  // namespace mf::editor
