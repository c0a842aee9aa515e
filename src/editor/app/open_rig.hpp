#pragma once
// OpenRig: the rig the editor shows, read-only. Its source model (the .mskel as the format reads it,
// the editor's truth: names, setup values, editor colours), the runtime data built from it (what the
// renderer draws), the setup pose with world transforms, and what `mfe skel check` finds.
//
// A rig that does not read, or does not build, still opens: the problem is a finding in the Output
// panel, and the panels show what there is. The editor's document and commands (mf_editor_core) take
// this place once they exist: panels read the model through an OpenRig today.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/bounds.hpp"
#include "mf/offline/check/findings.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skeleton_instance.hpp"

namespace mf::editor {

struct OpenRig {
  std::string path;                          // the .mskel
  std::optional<offline::Rig> source;        // when the .mskel reads
  std::shared_ptr<skel::SkeletonData> data;  // when it builds
  std::unique_ptr<skel::SkeletonInstance> setup;  // the setup pose of `data`
  std::vector<int> runtime_bone;             // source bone index → runtime bone index (−1: none)
  std::vector<int> runtime_slot;             // source slot index → runtime slot index
  std::vector<int> source_bone;              // runtime bone index → source bone index
  std::vector<offline::Finding> findings;    // reading and building errors, then check_rig's findings

  bool has_pose() const { return setup != nullptr; }
  const skel::SkeletonPose* pose() const { return setup ? &setup->pose() : nullptr; }
  // The setup pose's bounds: attachments and every bone's joint and tip; empty without a pose.
  Bounds bounds() const;
};

// The .mskel an argument names: the file itself, or the one .mskel directly inside a folder. An
// error when the path does not exist or the folder holds no .mskel or several (it lists them).
Expected<std::string> resolve_rig_path(const std::string& file_or_folder);

// Reads, builds and checks the rig at `mskel`. Never fails: problems become findings.
OpenRig open_rig(const std::string& mskel);

}  // namespace mf::editor
