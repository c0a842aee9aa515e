// `mfe skel key`: adds, replaces or removes keys of one clip and saves it in canonical form,
// atomically (a failed edit or save leaves the file as it was). docs/cli-clips.md has the syntax:
//
//   mfe skel key <manim> | <mskel> --clip <name>
//       --bone|--slot|--ik|--transform|--path|--physics <name> --timeline <timeline>
//       | --event <name> [--int i] [--float f] [--string s] [--volume v] [--balance b]
//       --t <seconds> [--v <value>] [--curve <curve>] [--delete]     (--t / --v repeatable in pairs)
//   mfe skel key <manim> | <mskel> --clip <name> --keys <file.json>
//
// A clip inside a rig's clips folder ("<name>.clips/" beside "<name>.mskel"), or named with --clip, is
// checked against that skeleton; any other clip is read on its own. Every edit is applied in memory
// first: one that fails changes nothing on disk.
//
// Exit 0 when every key is set, 1 when the clip, its rig or a key is invalid (including a --keys file
// with an error), 2 on usage errors (unknown options, a missing file, no target or two, an unknown
// timeline, a --v or --curve that does not parse).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "key_text.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/format/clip_edit.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/clip_key_edit.hpp"
#include "mf/offline/format/clip_key_reader.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/json/json_writer.hpp"

namespace mf::tools {
namespace {

namespace fs = std::filesystem;
using namespace mf::offline;

constexpr int kInvalid = 1, kUsage = 2;

struct KeyOptions {
  std::string file;  // .manim, or .mskel with --clip
  std::string clip;
  std::array<std::string, kKeyTargetNames.size()> targets;  // --bone, --slot, ... by KeyTarget
  std::string timeline;
  std::vector<float> times;
  std::vector<std::string> values;
  std::vector<std::string> curves;
  bool remove = false;
  std::optional<int> event_int;
  std::optional<float> event_float;
  std::optional<std::string> event_string;
  std::optional<float> event_volume;
  std::optional<float> event_balance;
  std::string keys;
};

// What an edit came from, for messages: a --keys item, or the command line's options.
struct EditOrigin {
  const KeyEditSource* item = nullptr;  // --keys
  std::size_t pair = 0;                 // command line: which --t / --v pair (0-based)
  std::size_t pairs = 1;
};

struct Failure {
  int code;
  std::string message;
};

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return code;
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

const char* option_of(KeyField field, KeyTarget target) {
  switch (field) {
    case KeyField::Target: {
      static const char* names[] = {"--bone", "--slot", "--ik", "--transform", "--path", "--physics", "--event"};
      return names[static_cast<std::size_t>(target)];
    }
    case KeyField::Timeline: return "--timeline";
    case KeyField::Time: return "--t";
    case KeyField::Value: return target == KeyTarget::Event ? "--volume/--balance" : "--v";
    case KeyField::Curve: return "--curve";
  }
  return "";
}

std::string list(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

// The edits the command line's options describe: one per --t.
std::variant<std::vector<KeyEdit>, Failure> edits_from_options(const KeyOptions& o) {
  int count = 0;
  KeyTarget target = KeyTarget::Bone;
  for (std::size_t i = 0; i < o.targets.size(); ++i)
    if (!o.targets[i].empty()) {
      ++count;
      target = static_cast<KeyTarget>(i);
    }
  if (count != 1)
    return Failure{kUsage, "name exactly one target: --bone, --slot, --ik, --transform, --path, --physics or --event "
                           "(or pass --keys file.json)"};
  const std::string& name = o.targets[static_cast<std::size_t>(target)];
  const std::string target_option = option_of(KeyField::Target, target);

  std::optional<KeyTimeline> timeline;
  if (target == KeyTarget::Event) {
    if (!o.timeline.empty()) return Failure{kUsage, "--event takes no --timeline (an event key is a name at a time)"};
    timeline = find_key_timeline(target, "");
  } else {
    if (o.timeline.empty())
      return Failure{kUsage, target_option + " needs --timeline; " + std::string(to_string(target)) +
                                 " timelines are: " + list(key_timeline_names(target))};
    timeline = find_key_timeline(target, o.timeline);
    if (!timeline)
      return Failure{kUsage, "--timeline " + o.timeline + ": a " + std::string(to_string(target)) +
                                 " has no such timeline; its timelines are: " + list(key_timeline_names(target))};
    if (o.event_int || o.event_float || o.event_string || o.event_volume || o.event_balance)
      return Failure{kUsage, "--int, --float, --string, --volume and --balance are for --event keys"};
  }

  const bool takes_value = !o.remove && timeline->kind != KeyKind::PhysicsReset && timeline->kind != KeyKind::Event;
  if (o.times.empty()) return Failure{kUsage, "--t is required: the key's time in seconds"};
  if (takes_value && o.values.size() != o.times.size())
    return Failure{kUsage, o.values.empty() ? "--v is required: the key's value (docs/cli-clips.md lists the forms)"
                                            : "give one --v per --t (found " + std::to_string(o.times.size()) +
                                                  " --t and " + std::to_string(o.values.size()) + " --v)"};
  if (!takes_value && !o.values.empty())
    return Failure{kUsage, o.remove ? "--delete takes no --v" : "this key takes no --v"};
  if (!o.curves.empty() && o.curves.size() != 1 && o.curves.size() != o.times.size())
    return Failure{kUsage, "give one --curve for every key, or one --curve per --t"};
  if (o.remove && !o.curves.empty()) return Failure{kUsage, "--delete takes no --curve"};

  std::vector<KeyEdit> edits;
  for (std::size_t i = 0; i < o.times.size(); ++i) {
    const std::string which = o.times.size() > 1 ? " (key " + std::to_string(i + 1) + ")" : "";
    KeyEdit e;
    e.name = name;
    e.timeline = *timeline;
    e.t = o.times[i];
    e.remove = o.remove;
    if (takes_value) {
      if (Status s = read_key_value(key_value_from_text(o.values[i], *timeline), "", "--v", e); !s)
        return Failure{kUsage, "--v " + o.values[i] + which + ": " + s.error().message};
    }
    if (!o.curves.empty()) {
      const std::string& text = o.curves[o.curves.size() == 1 ? 0 : i];
      Expected<std::vector<Curve>> c = read_key_curve(key_curve_from_text(text), "", "--curve");
      if (!c) return Failure{kUsage, "--curve " + text + which + ": " + c.error().message};
      e.curve = std::move(*c);
    }
    if (target == KeyTarget::Event) {
      e.event.int_value = o.event_int;
      e.event.float_value = o.event_float;
      e.event.string_value = o.event_string;
      e.event.volume = o.event_volume;
      e.event.balance = o.event_balance;
    }
    edits.push_back(std::move(e));
  }
  return edits;
}

// The value an edit set, as --v writes it.
std::string value_text(const KeyEdit& e) {
  const KeyTimeline& k = e.timeline;
  switch (k.kind) {
    case KeyKind::Curve: return curve_value_text(k.curve, e.values);
    case KeyKind::Channel: return channel_value_text(k.curve, k.channel, e.values[0]);
    case KeyKind::Inherit: return to_string(e.inherit);
    case KeyKind::Attachment: return e.attachment ? word(*e.attachment) : "null";
    case KeyKind::Sequence: return sequence_text(e.sequence);
    case KeyKind::PhysicsReset: return "reset";
    case KeyKind::Event: {
      const std::string payload = event_payload_text(e.event);
      return word(e.name) + (payload.empty() ? "" : "(" + payload + ")");
    }
  }
  return {};
}

struct Clip {
  std::string manim;
  std::optional<std::string> mskel;
  std::optional<SkeletonSource> skeleton;
};

std::variant<Clip, Failure> open_clip(const KeyOptions& o) {
  Clip c;
  if (fs::path(o.file).extension() == ".mskel") {
    if (o.clip.empty())
      return Failure{kUsage, o.file + " is a rig: name the clip to edit with --clip (or pass the .manim file)"};
    Expected<Rig> rig = load_rig(o.file);
    if (!rig) return Failure{kInvalid, rig.error().to_string()};
    const auto found = std::find_if(rig->clips.begin(), rig->clips.end(), [&](const ClipFile& f) { return f.name == o.clip; });
    if (found == rig->clips.end()) {
      std::string names;
      for (const ClipFile& f : rig->clips) names += (names.empty() ? "" : ", ") + f.name;
      return Failure{kInvalid, o.file + ": no clip named \"" + o.clip + "\"; the clips are: " +
                                   (names.empty() ? "(none)" : names) + " (mfe skel clip new makes one)"};
    }
    c.manim = found->path;
    c.mskel = o.file;
    c.skeleton = std::move(rig->skeleton);
    return c;
  }
  if (!o.clip.empty()) return Failure{kUsage, "--clip names a clip of a rig: pass the .mskel, or the .manim without --clip"};
  c.manim = o.file;
  c.mskel = rig_of(o.file);
  if (c.mskel) {
    Expected<SkeletonSource> read = read_skeleton_file(*c.mskel);
    if (!read) return Failure{kInvalid, "the clip's rig does not read: " + read.error().to_string()};
    c.skeleton = std::move(read).value();
  }
  return c;
}

int run_key(const KeyOptions& o) {
  // The edits, before anything is read: usage errors come first.
  std::vector<KeyEdit> edits;
  std::vector<KeyEditSource> items;
  const bool from_options = o.keys.empty();
  if (from_options) {
    auto made = edits_from_options(o);
    if (auto* f = std::get_if<Failure>(&made)) return fail(f->message, f->code);
    edits = std::move(std::get<std::vector<KeyEdit>>(made));
  } else {
    bool mixed = !o.timeline.empty() || !o.times.empty() || !o.values.empty() || !o.curves.empty() || o.remove;
    for (const std::string& t : o.targets) mixed = mixed || !t.empty();
    if (mixed) return fail("--keys takes the keys from its file: leave out the target, --timeline, --t, --v, --curve and --delete", kUsage);
    Expected<std::string> text = read_file(o.keys);
    if (!text) return fail(text.error().to_string(), kUsage);
    Expected<std::vector<KeyEditSource>> read = read_key_edits(*text, o.keys);
    if (!read) return fail(read.error().to_string() + " (nothing was written)", kInvalid);
    items = std::move(*read);
    for (const KeyEditSource& item : items) edits.push_back(item.edit);
  }

  auto opened = open_clip(o);
  if (auto* f = std::get_if<Failure>(&opened)) return fail(f->message, f->code);
  const Clip& c = std::get<Clip>(opened);
  const SkeletonSource* skeleton = c.skeleton ? &*c.skeleton : nullptr;

  Expected<std::string> text = read_file(c.manim);
  if (!text) return fail(text.error().to_string(), kUsage);
  Expected<ClipSource> clip = read_clip(*text, c.manim, skeleton);
  if (!clip) return fail(clip.error().to_string(), kInvalid);

  std::vector<std::string> lines;
  const std::vector<KeyEditResult> results = apply_key_edits(*clip, edits, skeleton, c.mskel.value_or(""));
  for (std::size_t i = 0; i < results.size(); ++i) {
    const KeyEdit& e = edits[i];
    const KeyEditResult& result = results[i];
    if (result.failure) {
      const KeyField field = result.failure->field;
      if (from_options) {
        const std::string which = edits.size() > 1 ? ", key " + std::to_string(i + 1) : "";
        return fail(c.manim + ": " + key_timeline_path(e) + ": " + result.failure->message + " (" +
                        option_of(field, e.timeline.target) + which + "); nothing was written",
                    kInvalid);
      }
      const KeyEditSource& item = items[i];
      const Error where{o.keys, item.field_path(field), item.positions[static_cast<std::size_t>(field)],
                        result.failure->message + " (" + key_timeline_path(e) + " of " + c.manim +
                            "); nothing was written"};
      return fail(where.to_string(), kInvalid);
    }
    const char* verb = result.outcome.change == KeyChange::Added      ? "added"
                       : result.outcome.change == KeyChange::Replaced ? "replaced"
                                                                      : "removed";
    std::string line = c.manim + ": " + key_timeline_path(e) + ": " + verb + " key at " + json::format_float(e.t);
    if (!e.remove) line += " = " + value_text(e);
    const std::size_t n = result.outcome.keys;
    line += " (" + std::to_string(n) + (n == 1 ? " key" : " keys") +
            (result.outcome.change == KeyChange::Removed ? " left)" : ")");
    lines.push_back(std::move(line));
  }

  const std::string canonical = write_clip(*clip);
  // The edits keep the clip valid; reading the result back makes sure before anything is written.
  if (Expected<ClipSource> check = read_clip(canonical, c.manim, skeleton); !check)
    return fail("the edited clip would not read back (" + check.error().message + " at " + check.error().path +
                    "); nothing was written",
                kInvalid);
  if (canonical != *text)
    if (Status saved = write_file_atomic(c.manim, canonical); !saved) return fail(saved.error().to_string(), kUsage);

  const std::string checked = c.mskel ? ", checked against " + *c.mskel : "";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string suffix = i + 1 == lines.size() ? checked : "";
    std::printf("%s%s\n", lines[i].c_str(), suffix.c_str());
  }
  return 0;
}

}  // namespace

void add_skel_key(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<KeyOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "key",
      "Add, replace or remove keys of a clip and save it in canonical form. Name the clip by its .manim, or by "
      "its rig's .mskel and --clip. One key: a target (--bone, --slot, --ik, --transform, --path, --physics with "
      "--timeline; or --event), --t and --v (repeat --t/--v pairs for several keys of that timeline); --delete "
      "removes the key at --t. Many keys: --keys file.json. Bone values are relative to the setup pose (rotate, "
      "translate, shear add to it; scale multiplies); everything else is absolute. A clip of a rig is checked "
      "against its skeleton. Nothing is written unless every key applies. docs/cli-clips.md has the syntax. "
      "Exit 1 when the clip or a key is invalid, 2 on usage errors.");
  cmd->add_option("clip_file", options->file, "The .manim file, or the rig's .mskel with --clip")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--clip", options->clip, "The clip's name, when the file is the rig's .mskel");
  static const char* help[] = {"Bone name (timelines: rotate, translate, translateX, translateY, scale, scaleX, "
                               "scaleY, shear, shearX, shearY, inherit)",
                               "Slot name (timelines: attachment, rgba, rgb, alpha, rgba2, rgb2, sequence)",
                               "IK constraint name (timelines: mix, softness, bend, compress, stretch)",
                               "Transform constraint name (timelines: mixRotate, mixX, mixY, mixScaleX, mixScaleY, "
                               "mixShearY)",
                               "Path constraint name (timelines: position, spacing, mixRotate, mixX, mixY)",
                               "Physics constraint name (timelines: inertia, strength, damping, mass, wind, gravity, "
                               "mix, reset)",
                               "Event name: adds an event key (no --timeline, no --v)"};
  for (std::size_t i = 0; i < kKeyTargetNames.size(); ++i)
    cmd->add_option("--" + std::string(kKeyTargetNames[i]), options->targets[i], help[i]);
  cmd->add_option("--timeline", options->timeline, "The target's timeline");
  cmd->add_option("--t", options->times, "Key time in seconds, from 0 to the clip's length; repeatable")
      ->allow_extra_args(false);
  cmd->add_option("--v", options->values,
                  "Key value: a number, numbers separated by commas (translate, scale, shear: x,y), a colour "
                  "(#rrggbbaa; rgba2/rgb2: light,dark), an attachment name or null, an inherit mode, true/false "
                  "(ik compress, stretch), mode[,index[,delay]] (sequence); one per --t")
      ->allow_extra_args(false);
  cmd->add_option("--curve", options->curves,
                  "Curve of the segment that starts at the key (for the last key, the one that ends at it): linear, "
                  "stepped, ease (the CSS ease bezier 0.25,0.1,0.25,1) or a bezier cx1,cy1,cx2,cy2 with x values in "
                  "[0, 1]; several separated by | set one per component. Once for every key or once per --t. "
                  "Without it a new key keeps its segment's curve (a bezier is split exactly) and a replaced key "
                  "keeps its curves.")
      ->allow_extra_args(false);
  cmd->add_flag("--delete", options->remove, "Remove the key at --t (an error when none is within 0.0001 s)");
  cmd->add_option("--int", options->event_int, "--event: the key's integer (overrides the event's default)");
  cmd->add_option("--float", options->event_float, "--event: the key's float");
  cmd->add_option("--string", options->event_string, "--event: the key's string");
  cmd->add_option("--volume", options->event_volume, "--event: the key's volume, 0 to 1");
  cmd->add_option("--balance", options->event_balance, "--event: the key's balance, -1 to 1");
  cmd->add_option("--keys", options->keys,
                  "A JSON array of keys to apply in order: {\"bone\"|\"slot\"|\"ik\"|\"transform\"|\"path\"|"
                  "\"physics\"|\"event\": name, \"timeline\": name, \"t\": s, \"v\": value, \"curve\": curve, "
                  "\"delete\": true}")
      ->check(CLI::ExistingFile);
  cmd->callback([options, &exit_code] { exit_code = run_key(*options); });
}

}  // namespace mf::tools
