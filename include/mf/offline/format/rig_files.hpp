#pragma once
// A rig on disk: the .mskel and the clips it finds. A clip has no name field: its name is its path
// inside the clips folder without ".manim" (<rig>.clips/emotes/angry.manim is clip "emotes/angry"),
// with the escapes of clip_names.hpp undone.

#include <string>
#include <string_view>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::offline {

struct ClipFile {
  std::string name;  // path in the clips folder without ".manim", unescaped (clip_names.hpp)
  std::string path;
};

struct Rig {
  std::string path;  // of the .mskel
  SkeletonSource skeleton;
  std::vector<ClipFile> clips;  // sorted by name
};

// The clips folder of a skeleton: SkeletonSource::clips relative to the .mskel's folder, or "<name>.clips/"
// beside it when that is empty.
std::string clips_folder(const SkeletonSource& skeleton, const std::string& mskel_path);

// Every .manim file in the clips folder and its sub-folders, sorted by name. A missing folder gives
// no clips. A file name the clip name rule does not write, or two clips whose names differ only by
// case, are errors naming the file.
Expected<std::vector<ClipFile>> discover_clips(const SkeletonSource& skeleton, const std::string& mskel_path);

// Reads and validates the .mskel and lists its clips (without reading them).
Expected<Rig> load_rig(const std::string& mskel_path);

// Reads one clip of the rig by name, validated against the skeleton. An unknown name is an error
// that lists the clips there are.
Expected<ClipSource> load_clip(const Rig& rig, std::string_view name);

// The file that holds (or would hold) the clip `name` of the rig: the clips folder, then the name's
// escaped path (clip_names.hpp) and ".manim". Empty for an empty name.
std::string clip_file_path(const Rig& rig, std::string_view name);

// Whether a new clip may be called `name` in this rig: the name is not empty, no clip has it, and its
// file would not clash with another clip's on a file system that ignores case. `replacing` is a clip
// that goes away in the same change (a rename's old name), left out of the comparison. The error
// names the clips folder and says what to do.
Status check_new_clip_name(const Rig& rig, std::string_view name, std::string_view replacing = {});

// The folder that holds the rig's images: import.images relative to the .mskel's folder.
std::string images_folder(const Rig& rig);

}  // namespace mf::offline
