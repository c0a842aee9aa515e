// mfe skel play: runs a playback script (AnimationTracks on an AnimatedSkeleton) and prints the track
// signals and clip events as they fire and the pose wherever the script asks. The script is read and
// checked whole before anything runs, so a bad script prints nothing but its error.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/json.hpp"
#include "mf/offline/json_reader.hpp"
#include "mf/offline/json_writer.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "pose_print.hpp"
#include "runtime_setup.hpp"

namespace mf::tools {
namespace {

constexpr const char* kHelp = R"help(Run a playback script: a JSON array of steps, run in order.
  {"defaultMix": 0.2}                      mix duration for pairs without their own
  {"mix": ["walk", "run", 0.3]}            mix duration from one clip to another
  {"set": "walk", "track": 0, "loop": true}  play now, mixing from the current clip;
      optional "mix" (s), "alpha" (0..1), "additive", "reverse", "holdPrevious" (booleans)
  {"add": "jump", "track": 0, "loop": false, "delay": 0}  queue after the last entry
      (delay <= 0: relative to its end), same options as set
  {"empty": 0.2, "track": 1}               mix the track out over 0.2 s; optional "delay" queues it
  {"advance": 0.5, "fps": 60}              advance in steps of 1/fps (default 60), the last shortened
  {"pose": "label"}                        print the pose after the last step
Text output: one line per track signal or clip event, "<time> <what> track <n> <clip>" (time: the
script's clock after the step that fired it; "(empty)" for an empty entry), events with their
values, and for each pose "pose <label> at <time>" then the pose as `mfe skel pose` prints it.
--json prints one JSON object {"rig", "script", "output": [...]} where each item has "time" and
either "signal" (started, interrupted, ended, completed, disposed) with "track" and "clip" (null for
an empty entry), or "event" with "track", "clip", "int", "float", "string", or "pose" (the label)
with "bones", "slots" and "drawOrder" as `mfe skel pose --json` gives them.
Exit codes: 0 ok, 1 bad script or rig (file:line:column: steps[i].key: message), 2 usage or an
unreadable script file.)help";

struct PlayOptions {
  std::string rig;
  std::string script;
  std::string skins;
  bool json = false;
};

enum class StepKind { DefaultMix, Mix, Set, Add, Empty, Advance, Pose };

struct Step {
  StepKind kind;
  int track = 0;
  int clip = -1, clip_to = -1;
  bool loop = false;
  float value = 0;  // defaultMix, mix duration, empty mix, advance seconds
  float delay = 0;
  float fps = 60;
  std::optional<float> mix, alpha;
  bool additive = false, reverse = false, hold_previous = false;
  bool queued = false;  // an empty step with a delay: add_empty rather than set_empty
  std::string label;
};

constexpr const char* kKinds[] = {"defaultMix", "mix", "set", "add", "empty", "advance", "pose"};
constexpr int kMaxTrack = 255;

int read_clip(const json::Node& n, const skel::SkeletonData& data) {
  const std::string& name = n.as_nonempty_string();
  const int clip = data.find_clip(name);
  if (clip < 0) n.fail("no clip \"" + name + "\"; the rig has: " + clip_list(data));
  return clip;
}

float read_nonnegative(const json::Node& n) {
  const float v = n.as_float();
  if (v < 0) n.fail("must be zero or more");
  return v;
}

Step read_step(const json::Node& n, const skel::SkeletonData& data) {
  if (!n.is_object()) n.fail("a step must be an object");
  json::ObjectReader r(n);
  int found = -1, count = 0;
  std::optional<json::Node> head;
  for (int k = 0; k < 7; ++k)
    if (auto v = r.optional(kKinds[k])) {
      ++count;
      found = k;
      head = v;
    }
  if (count != 1)
    n.fail("a step needs exactly one of defaultMix, mix, set, add, empty, advance, pose");
  Step s;
  s.kind = static_cast<StepKind>(found);
  auto entry_options = [&] {
    s.track = r.required("track").as_int(0, kMaxTrack);
    s.loop = r.required("loop").as_bool();
    if (auto v = r.optional("mix")) s.mix = read_nonnegative(*v);
    if (auto v = r.optional("alpha")) {
      s.alpha = v->as_float();
      if (*s.alpha < 0 || *s.alpha > 1) v->fail("must be between 0 and 1");
    }
    s.additive = r.get("additive", false);
    s.reverse = r.get("reverse", false);
    s.hold_previous = r.get("holdPrevious", false);
  };
  switch (s.kind) {
    case StepKind::DefaultMix: s.value = read_nonnegative(*head); break;
    case StepKind::Mix:
      if (head->size() != 3) head->fail("must be [from, to, seconds]");
      s.clip = read_clip((*head)[0], data);
      s.clip_to = read_clip((*head)[1], data);
      s.value = read_nonnegative((*head)[2]);
      break;
    case StepKind::Set:
      s.clip = read_clip(*head, data);
      entry_options();
      break;
    case StepKind::Add:
      s.clip = read_clip(*head, data);
      entry_options();
      s.delay = r.required("delay").as_float();
      break;
    case StepKind::Empty:
      s.value = read_nonnegative(*head);
      s.track = r.required("track").as_int(0, kMaxTrack);
      if (auto v = r.optional("delay")) {
        s.delay = v->as_float();
        s.queued = true;
      }
      break;
    case StepKind::Advance:
      s.value = read_nonnegative(*head);
      if (auto v = r.optional("fps")) {
        s.fps = v->as_float();
        if (!(s.fps > 0)) v->fail("must be more than zero");
      }
      break;
    case StepKind::Pose: s.label = head->as_string(); break;
  }
  r.finish();
  return s;
}

Expected<std::vector<Step>> read_script(const std::string& file, const std::string& text, const skel::SkeletonData& data) {
  auto doc = json::parse(text, file);
  if (!doc.ok()) return Unexpected{doc.error()};
  try {
    const json::Node root(*doc, "steps", file);
    if (!root.is_array()) root.fail("a script is a JSON array of steps");
    std::vector<Step> steps;
    for (std::size_t i = 0; i < root.size(); ++i) steps.push_back(read_step(root[i], data));
    return steps;
  } catch (const json::ReadError& e) {
    return Unexpected{e.error};
  }
}

const char* signal_name(anim::TrackSignalKind k) {
  switch (k) {
    case anim::TrackSignalKind::Started: return "started";
    case anim::TrackSignalKind::Interrupted: return "interrupted";
    case anim::TrackSignalKind::Ended: return "ended";
    case anim::TrackSignalKind::Completed: return "completed";
    case anim::TrackSignalKind::Disposed: return "disposed";
  }
  return "?";
}

class Player {
 public:
  Player(const PlayOptions& o, const RuntimeSetup& rt) : o_(o), data_(*rt.data), skeleton_(*rt.data) {
    rt.apply_skin(skeleton_.pose());
    skeleton_.update(0);
    if (o_.json) {
      w_.begin_object();
      w_.key("rig");
      w_.string(o_.rig);
      w_.key("script");
      w_.string(o_.script);
      w_.key("output");
      w_.begin_array();
    }
  }

  void run(const Step& s) {
    anim::AnimationTracks& tracks = skeleton_.tracks();
    switch (s.kind) {
      case StepKind::DefaultMix: tracks.set_default_mix(s.value); break;
      case StepKind::Mix: tracks.set_mix(s.clip, s.clip_to, s.value); break;
      case StepKind::Set:
      case StepKind::Add: {
        const anim::TrackEntryHandle h = s.kind == StepKind::Set ? tracks.set_clip(s.track, s.clip, s.loop)
                                                                 : tracks.add_clip(s.track, s.clip, s.loop, s.delay);
        if (anim::TrackEntry* e = tracks.entry(h)) {
          if (s.mix) e->set_mix_duration(*s.mix);
          if (s.alpha) e->set_alpha(*s.alpha);
          e->set_blend(s.additive ? anim::ClipBlend::Additive : anim::ClipBlend::Replace);
          e->set_reverse(s.reverse);
          e->set_hold_previous(s.hold_previous);
        }
        break;
      }
      case StepKind::Empty:
        if (s.queued) tracks.add_empty(s.track, s.value, s.delay);
        else tracks.set_empty(s.track, s.value);
        break;
      case StepKind::Advance: {
        const double step = 1.0 / s.fps;
        double left = s.value;
        while (left > 1e-9) {
          const double dt = std::min(step, left);
          skeleton_.update(static_cast<float>(dt));
          time_ += dt;
          left -= dt;
          report();
        }
        break;
      }
      case StepKind::Pose: print_pose(s.label); break;
    }
  }

  void finish() {
    if (!o_.json) return;
    w_.end_array();
    w_.end_object();
    std::fputs(w_.finish().c_str(), stdout);
  }

 private:
  const std::string* clip_name(int clip) const {
    return clip < 0 ? nullptr : &data_.clips[static_cast<std::size_t>(clip)].name;
  }

  void begin_item() {
    w_.begin_object(json::Layout::Inline);
    w_.key("time");
    w_.number(static_cast<float>(time_));
  }

  void report() {
    skeleton_.drain(
        [&](const skel::FiredEvent& e, int track) {
          const std::string& name = data_.events[static_cast<std::size_t>(e.event)].name;
          if (!o_.json) {
            std::printf("%.4f event %s track %d %s (int %d, float %g, string \"%s\")\n", time_, name.c_str(), track,
                        clip_name(e.clip)->c_str(), e.int_value, e.float_value, e.string_value->c_str());
            return;
          }
          begin_item();
          w_.key("event");
          w_.string(name);
          w_.key("track");
          w_.integer(track);
          w_.key("clip");
          w_.string(*clip_name(e.clip));
          w_.key("int");
          w_.integer(e.int_value);
          w_.key("float");
          w_.number(e.float_value);
          w_.key("string");
          w_.string(*e.string_value);
          w_.end_object();
        },
        [&](const anim::TrackSignal& sig) {
          const std::string* clip = clip_name(sig.clip);
          if (!o_.json) {
            std::printf("%.4f %s track %d %s\n", time_, signal_name(sig.kind), sig.track, clip ? clip->c_str() : "(empty)");
            return;
          }
          begin_item();
          w_.key("signal");
          w_.string(signal_name(sig.kind));
          w_.key("track");
          w_.integer(sig.track);
          w_.key("clip");
          if (clip) w_.string(*clip);
          else w_.null();
          w_.end_object();
        });
  }

  void print_pose(const std::string& label) {
    if (!o_.json) {
      std::printf("pose %s at %.4f\n", label.c_str(), time_);
      print_pose_text(skeleton_.instance(), false, false);
      return;
    }
    w_.begin_object();
    w_.key("time");
    w_.number(static_cast<float>(time_));
    w_.key("pose");
    w_.string(label);
    write_pose_members(w_, skeleton_.instance(), false, false);
    w_.end_object();
  }

  const PlayOptions& o_;
  const skel::SkeletonData& data_;
  skel::AnimatedSkeleton skeleton_;
  json::Writer w_;
  double time_ = 0;
};

int run_play(const PlayOptions& o) {
  auto loaded = load_runtime(o.rig, o.skins);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", loaded.error().to_string().c_str());
    return 1;
  }
  auto text = read_file(o.script);
  if (!text.ok()) {
    std::fprintf(stderr, "%s\n", text.error().to_string().c_str());
    return 2;
  }
  auto steps = read_script(o.script, *text, *loaded->data);
  if (!steps.ok()) {
    std::fprintf(stderr, "%s\n", steps.error().to_string().c_str());
    return 1;
  }
  Player player(o, *loaded);
  for (const Step& s : *steps) player.run(s);
  player.finish();
  return 0;
}

}  // namespace

void add_skel_play(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<PlayOptions>();
  CLI::App* cmd = skel.add_subcommand("play", "Run a playback script: tracks, mixes, signals, events and poses");
  cmd->footer(kHelp);
  cmd->add_option("mskel", options->rig, "The rig (.mskel)")->required();
  cmd->add_option("--script", options->script, "The playback script (.json)")->required();
  cmd->add_option("--skin", options->skins, "Skins to compose, comma-separated, in order");
  cmd->add_flag("--json", options->json, "Print one JSON object (see below)");
  cmd->callback([options, &exit_code] { exit_code = run_play(*options); });
}

}  // namespace mf::tools
