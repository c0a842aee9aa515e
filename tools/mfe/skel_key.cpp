// `mfe skel key <manim> --bone b --timeline rotate --t 0.4 --v 35 [--curve ease]`: adds or edits one
// key of a bone timeline and saves the clip in canonical form (atomically: a failed save leaves the
// original file as it was). Values are relative to the setup pose, as in the file.
//
// A clip inside a rig's clips folder (its folder is "<name>.clips" with "<name>.mskel" beside it) is
// read against that skeleton, so the bone must exist; any other clip is read on its own.
//
// Exit 0 when the key is set, 1 when the clip, its rig or the key is invalid, 2 on usage errors
// (unknown options, a missing file, a timeline that is not a numeric bone timeline, a --v or --curve
// that does not parse).

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/format/clip_edit.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/json/json_path.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "mf/offline/format/skeleton_format.hpp"

namespace mf::tools {
namespace {

namespace fs = std::filesystem;
using namespace mf::offline;

struct KeyOptions {
  std::string manim;
  std::string bone;
  std::string timeline;
  float t = 0;
  std::string values;
  std::string curve;
};

// Comma-separated numbers; empty when the text is not that.
std::optional<std::vector<float>> parse_numbers(const std::string& text) {
  std::vector<float> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const char* begin = item.c_str();
    while (*begin == ' ') ++begin;
    char* end = nullptr;
    const float v = std::strtof(begin, &end);
    if (end == begin || !std::isfinite(v)) return std::nullopt;
    while (*end == ' ') ++end;
    if (*end != '\0') return std::nullopt;
    out.push_back(v);
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::optional<Curve> parse_curve(const std::string& text) {
  if (text == "linear") return Curve::linear();
  if (text == "stepped") return Curve::stepped();
  if (text == "ease") return kEaseCurve;
  auto v = parse_numbers(text);
  if (!v || v->size() != 4) return std::nullopt;
  const Curve c = Curve::bezier((*v)[0], (*v)[1], (*v)[2], (*v)[3]);
  if (c.cx1 < 0 || c.cx1 > 1 || c.cx2 < 0 || c.cx2 > 1) return std::nullopt;
  return c;
}

std::vector<std::string> bone_timeline_names() {
  std::vector<std::string> out;
  for (const CurveLayout& l : all_curve_layouts())
    if (l.target == TimelineTarget::Bone) out.emplace_back(l.name);
  return out;
}

// The rig a clip belongs to by its place on disk: "<dir>/<name>.clips/<clip>.manim" beside
// "<dir>/<name>.mskel", where the clip's path may run through sub-folders ("emotes/angry").
std::optional<std::string> rig_of(const std::string& manim) {
  const std::string suffix = ".clips";
  for (fs::path folder = fs::path(manim).parent_path(); !folder.empty() && folder.has_filename();
       folder = folder.parent_path()) {
    const std::string folder_name = folder.filename().string();
    if (folder_name.size() <= suffix.size() || !folder_name.ends_with(suffix)) continue;
    const fs::path mskel =
        folder.parent_path() / (folder_name.substr(0, folder_name.size() - suffix.size()) + ".mskel");
    std::error_code ec;
    if (fs::is_regular_file(mskel, ec)) return mskel.string();
  }
  return std::nullopt;
}

int fail(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return 1;
}

int run_key(const KeyOptions& options) {
  const CurveLayout* lay = find_layout(TimelineTarget::Bone, options.timeline);
  const std::optional<std::vector<float>> values = parse_numbers(options.values);
  std::optional<Curve> curve;
  if (!options.curve.empty()) curve = parse_curve(options.curve);
  if (!lay || !values || (!options.curve.empty() && !curve)) return fail("invalid arguments");  // validators catch these

  std::optional<SkeletonSource> skeleton;
  const std::optional<std::string> mskel = rig_of(options.manim);
  if (mskel) {
    Expected<SkeletonSource> read = read_skeleton_file(*mskel);
    if (!read) return fail("the clip's rig does not read: " + read.error().to_string());
    skeleton = std::move(read).value();
    if (skeleton->find_bone(options.bone) < 0) {
      std::string bones;
      for (const Bone& b : skeleton->bones) bones += (bones.empty() ? "" : ", ") + b.name;
      return fail(options.manim + ": no bone named \"" + options.bone + "\" in " + *mskel + " (bones: " + bones +
                  ")");
    }
  }

  Expected<std::string> text = read_file(options.manim);
  if (!text) return fail(text.error().to_string());
  Expected<ClipSource> clip = read_clip(*text, options.manim, skeleton ? &*skeleton : nullptr);
  if (!clip) return fail(clip.error().to_string());

  const std::size_t keys_before = [&] {
    for (const CurveTimeline& tl : clip->curves)
      if (tl.kind == lay->kind && tl.target == options.bone) return tl.key_count();
    return std::size_t{0};
  }();
  if (Status set = set_bone_key(*clip, options.bone, lay->kind, options.t, *values, curve); !set) {
    Error e = set.error();
    e.file = options.manim;
    return fail(e.to_string());
  }
  std::size_t keys_after = 0;
  for (const CurveTimeline& tl : clip->curves)
    if (tl.kind == lay->kind && tl.target == options.bone) keys_after = tl.key_count();

  const std::string canonical = write_clip(*clip);
  if (canonical != *text)
    if (Status saved = write_file_atomic(options.manim, canonical); !saved) return fail(saved.error().to_string());

  std::string shown;
  for (float v : *values) shown += (shown.empty() ? "" : ", ") + json::format_float(v);
  const std::string timeline_path = json::path_key(json::path_key("bones", options.bone), lay->name);
  std::printf("%s: %s: %s key at %s = %s (%zu keys)%s\n", options.manim.c_str(), timeline_path.c_str(),
              keys_after > keys_before ? "added" : "replaced", json::format_float(options.t).c_str(), shown.c_str(),
              keys_after, mskel ? (", bone checked against " + *mskel).c_str() : "");
  return 0;
}

}  // namespace

void add_skel_key(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<KeyOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "key",
      "Add or replace one key of a bone timeline in a .manim and save it in canonical form. Values are "
      "relative to the setup pose (rotate, translate, shear add to it; scale multiplies). A clip in "
      "\"<name>.clips/\" beside \"<name>.mskel\" is checked against that skeleton. Exit 1 when the clip or the "
      "key is invalid, 2 on usage errors.");
  cmd->add_option("manim", options->manim, "The .manim file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--bone", options->bone, "Bone name")->required();
  cmd->add_option("--timeline", options->timeline, "Bone timeline")
      ->required()
      ->check(CLI::IsMember(bone_timeline_names()));
  cmd->add_option("--t", options->t, "Key time in seconds, from 0 to the clip's length")->required();
  cmd->add_option("--v", options->values,
                  "Value: one number, or comma-separated components (translate, scale and shear take x,y)")
      ->required()
      ->check([](const std::string& s) {
        return parse_numbers(s) ? std::string() : "expected numbers separated by commas, found \"" + s + "\"";
      });
  cmd->add_option("--curve", options->curve,
                  "Curve of the segment that starts at this key (for the last key, the one that ends at it): "
                  "linear, stepped, ease (the CSS ease bezier 0.25,0.1,0.25,1) or a bezier cx1,cy1,cx2,cy2 "
                  "with x values in [0, 1]. Without it a new key keeps its segment's curve (a bezier is split "
                  "exactly) and a replaced key keeps its curves.")
      ->check([](const std::string& s) {
        return parse_curve(s) ? std::string()
                              : "expected linear, stepped, ease or cx1,cy1,cx2,cy2 with x values in [0, 1], found \"" +
                                    s + "\"";
      });
  cmd->callback([options, &exit_code] { exit_code = run_key(*options); });
}

}  // namespace mf::tools
