#include "mf/offline/format/rig_files.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "mf/core/file_io.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/clip_names.hpp"
#include "mf/offline/format/skeleton_format.hpp"

namespace mf::offline {
namespace fs = std::filesystem;

namespace {

std::string folder_of(const std::string& file) { return fs::path(file).parent_path().string(); }

// `relative` resolved against `base`, keeping relative paths relative (messages show what the user typed).
std::string resolve(const std::string& base, const std::string& relative) {
  if (base.empty()) return fs::path(relative).lexically_normal().string();
  return (fs::path(base) / relative).lexically_normal().string();
}

std::string list_names(const std::vector<ClipFile>& clips) {
  if (clips.empty()) return "there are none";
  std::string out = "the clips are: ";
  for (std::size_t i = 0; i < clips.size(); ++i) out += (i ? ", " : "") + clips[i].name;
  return out;
}

}  // namespace

std::string clips_folder(const SkeletonSource& skeleton, const std::string& mskel_path) {
  const std::string base = folder_of(mskel_path);
  if (!skeleton.clips.empty()) return resolve(base, skeleton.clips);
  return resolve(base, fs::path(mskel_path).stem().string() + ".clips");
}

Expected<std::vector<ClipFile>> discover_clips(const SkeletonSource& skeleton, const std::string& mskel_path) {
  std::vector<ClipFile> out;
  const std::string folder_name = clips_folder(skeleton, mskel_path);
  const fs::path folder = folder_name;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return out;
  for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.extension() != ".manim" || !it->is_regular_file(ec)) continue;
    std::string stem = fs::path(p).replace_extension().lexically_relative(folder).generic_string();
    std::string why;
    std::optional<std::string> name = clip_name_of(stem, &why);
    if (!name)
      return Unexpected{Error{p.string(), {}, {},
                              "not a clip file name: " + why + " (clip names: docs/format-manim.md, \"Clip names\")"}};
    out.push_back({std::move(*name), p.string()});
  }
  if (ec) return Unexpected{Error{folder_name, {}, {}, "cannot list the clips folder: " + ec.message()}};
  std::sort(out.begin(), out.end(), [](const ClipFile& a, const ClipFile& b) { return a.name < b.name; });
  std::vector<std::string> names;
  for (const ClipFile& c : out) names.push_back(c.name);
  if (auto conflict = clip_name_conflict(names)) {
    const auto path_of = [&](const std::string& n) {
      return std::find_if(out.begin(), out.end(), [&](const ClipFile& c) { return c.name == n; })->path;
    };
    return Unexpected{Error{path_of(conflict->second), {}, {},
                            "clips \"" + conflict->first + "\" (" + path_of(conflict->first) + ") and \"" + conflict->second +
                                "\" differ only by case: their files would be one on a file system that ignores case; "
                                "rename one"}};
  }
  return out;
}

Expected<Rig> load_rig(const std::string& mskel_path) {
  Expected<SkeletonSource> skeleton = read_skeleton_file(mskel_path);
  if (!skeleton) return Unexpected{skeleton.error()};
  Rig rig;
  rig.path = mskel_path;
  rig.skeleton = std::move(skeleton).value();
  Expected<std::vector<ClipFile>> clips = discover_clips(rig.skeleton, mskel_path);
  if (!clips) return Unexpected{clips.error()};
  rig.clips = std::move(clips).value();
  return rig;
}

Expected<ClipSource> load_clip(const Rig& rig, std::string_view name) {
  auto source = std::find_if(rig.clips.begin(), rig.clips.end(), [&](const ClipFile& c) { return c.name == name; });
  if (source == rig.clips.end())
    return Unexpected{Error{clips_folder(rig.skeleton, rig.path), {}, {},
                            "no clip named \"" + std::string(name) + "\"; " + list_names(rig.clips)}};

  Expected<std::string> text = read_file(source->path);
  if (!text) return Unexpected{text.error()};
  Expected<ClipSource> clip = read_clip(*text, source->path, &rig.skeleton);
  if (!clip) return clip;
  if (clip->skeleton_uid != rig.skeleton.uid)
    return Unexpected{Error{source->path, "skeleton.uid", clip->positions.position("skeleton.uid"),
                            "the clip animates skeleton \"" + clip->skeleton_uid + "\", not this rig's \"" +
                                rig.skeleton.uid + "\" (" + rig.path + ")"}};
  return clip;
}

std::string clip_file_path(const Rig& rig, std::string_view name) {
  const std::string stem = clip_file_stem(name);
  if (stem.empty()) return {};
  return (fs::path(clips_folder(rig.skeleton, rig.path)) / (stem + ".manim")).lexically_normal().string();
}

Status check_new_clip_name(const Rig& rig, std::string_view name, std::string_view replacing) {
  const std::string folder = clips_folder(rig.skeleton, rig.path);
  auto fail = [&](std::string message) { return Unexpected{Error{folder, {}, {}, std::move(message)}}; };
  if (name.empty()) return fail("a clip name must not be empty");
  std::vector<std::string> names;
  for (const ClipFile& c : rig.clips) {
    if (c.name == replacing) continue;
    if (c.name == name)
      return fail("there is already a clip named \"" + std::string(name) + "\" (" + c.path +
                  "); pick another name or delete that clip first");
    names.push_back(c.name);
  }
  names.emplace_back(name);
  if (auto conflict = clip_name_conflict(names))
    return fail("clip \"" + std::string(name) + "\" would clash with clip \"" +
                (conflict->first == name ? conflict->second : conflict->first) +
                "\": their files differ only by the case of letters (or one would need a folder where the other "
                "has a file); pick another name");
  return {};
}

std::string images_folder(const Rig& rig) { return resolve(folder_of(rig.path), rig.skeleton.import.images); }

}  // namespace mf::offline
