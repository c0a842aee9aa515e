// mfe skel play: runs a playback script (AnimationTracks, and optionally an animation graph, on an
// AnimatedSkeleton) and prints the track signals, graph state changes and clip events as they fire and
// the pose wherever the script asks. The script is read and checked whole (graphs compiled and bound,
// parameter names resolved) before anything runs, so a bad script prints nothing but its error.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/graph/graph_compiler.hpp"
#include "mf/offline/json/json.hpp"
#include "mf/offline/json/json_reader.hpp"
#include "mf/offline/json/json_writer.hpp"
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
  {"pose": "label"}                        print the pose: the steps so far applied with an update
      of 0 s when a step since the last update changed what plays (a clip just set shows its
      first frame; no time passes)
  {"graph": "locomotion.mgraph"}           play an animation graph (.mgraph, relative to the
      script's folder) under the tracks, replacing any earlier graph; it is compiled and bound
      to the rig when the script is read
  {"param": "speed", "value": 3.0}         set a parameter of the current graph (float: a number,
      int: an integer, bool: true or false)
  {"trigger": "jump"}                      set a trigger of the current graph
Text output: one line per track signal or clip event, "<time> <what> track <n> <clip>" (time: the
script's clock after the step that fired it; "(empty)" for an empty entry), events with their
values, graph state changes as "<time> layer <name>: <from> -> <to>" (innermost states; a layer's
first state as "<time> layer <name>: enter <state>"), events of the graph's clips as
"<time> event <name> layer <layer> <clip> (...)", and for each pose "pose <label> at <time>" then
the pose as `mfe skel pose` prints it.
--json prints one JSON object {"rig", "script", "output": [...]} where each item has "time" and
either "signal" (started, interrupted, ended, completed, disposed) with "track" and "clip" (null for
an empty entry), or "event" with "track" (or "layer" for a graph's event), "clip", "int", "float",
"string", or "state" (the state entered) with "layer" and "from" (null for a layer's first state),
or "pose" (the label) with "bones", "slots" and "drawOrder" as `mfe skel pose --json` gives them.
Exit codes: 0 ok, 1 bad script or rig (file:line:column: steps[i].key: message), 2 usage or an
unreadable script file.)help";

struct PlayOptions {
  std::string rig;
  std::string script;
  std::string skins;
  bool json = false;
};

enum class StepKind { DefaultMix, Mix, Set, Add, Empty, Advance, Pose, Graph, Param, Trigger };

// A graph of the script, compiled and bound to the rig when the script is read; its player is made
// when the graph step runs.
struct ScriptGraph {
  anim::AnimationGraph graph;
  anim::GraphBinding binding;
  std::unique_ptr<anim::AnimationGraphPlayer> player;
};

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
  int graph = -1;  // graph, param and trigger steps: index into the script's graphs
  int param = -1;  // param and trigger steps
};

struct Script {
  std::vector<Step> steps;
  std::vector<std::unique_ptr<ScriptGraph>> graphs;
};

constexpr const char* kKinds[] = {"defaultMix", "mix", "set", "add", "empty", "advance", "pose", "graph", "param", "trigger"};
constexpr int kKindCount = 10;
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

std::string param_names(const anim::AnimationGraph& g) {
  std::string out;
  for (const anim::GraphParam& p : g.params) out += (out.empty() ? "" : ", ") + p.name;
  return out.empty() ? "(none)" : out;
}

// The parameter a param or trigger step names, in the script's latest graph.
int read_param(const json::Node& n, const Script& script, int graph) {
  const std::string& name = n.as_nonempty_string();
  if (graph < 0) n.fail("no graph to set " + name + " on: a {\"graph\": \"….mgraph\"} step must come first");
  const anim::AnimationGraph& g = script.graphs[static_cast<std::size_t>(graph)]->graph;
  const int param = g.find_param(name);
  if (param < 0) n.fail("the graph has no parameter \"" + name + "\"; it has: " + param_names(g));
  return param;
}

// Compiles and binds the graph a graph step names (relative to the script's folder).
int read_graph_step(const json::Node& n, const std::string& script_file, const skel::SkeletonData& data, Script& script) {
  const std::string& name = n.as_nonempty_string();
  const std::string path = (std::filesystem::path(script_file).parent_path() / name).lexically_normal().string();
  auto graph = std::make_unique<ScriptGraph>();
  Expected<anim::AnimationGraph> compiled = offline::compile_graph_file(path);
  if (!compiled) n.fail("cannot load the graph: " + compiled.error().to_string());
  graph->graph = std::move(*compiled);
  Expected<anim::GraphBinding> binding = skel::bind_graph(graph->graph, data);
  if (!binding) n.fail("the graph " + path + " does not fit the rig: " + binding.error().to_string());
  graph->binding = std::move(*binding);
  script.graphs.push_back(std::move(graph));
  return static_cast<int>(script.graphs.size() - 1);
}

Step read_step(const json::Node& n, const std::string& script_file, const skel::SkeletonData& data, Script& script) {
  if (!n.is_object()) n.fail("a step must be an object");
  json::ObjectReader r(n);
  int found = -1, count = 0;
  std::optional<json::Node> head;
  // "mix" is a step of its own ([from, to, seconds]) and also an option of set and add (seconds).
  const bool entry = r.has("set") || r.has("add");
  for (int k = 0; k < kKindCount; ++k) {
    if (entry && static_cast<StepKind>(k) == StepKind::Mix) continue;
    if (auto v = r.optional(kKinds[k])) {
      ++count;
      found = k;
      head = v;
    }
  }
  if (count != 1)
    n.fail("a step needs exactly one of defaultMix, mix, set, add, empty, advance, pose, graph, param, trigger");
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
    case StepKind::Graph: s.graph = read_graph_step(*head, script_file, data, script); break;
    case StepKind::Param: {
      s.graph = static_cast<int>(script.graphs.size()) - 1;
      s.param = read_param(*head, script, s.graph);
      const anim::GraphParam& p = script.graphs[static_cast<std::size_t>(s.graph)]->graph.params[static_cast<std::size_t>(s.param)];
      const json::Node value = r.required("value");
      switch (p.type) {
        case anim::ParamType::Float: s.value = value.as_float(); break;
        case anim::ParamType::Int: s.value = static_cast<float>(value.as_int(-(1 << 24), 1 << 24)); break;
        case anim::ParamType::Bool: s.value = value.as_bool() ? 1.0f : 0.0f; break;
        case anim::ParamType::Trigger:
          head->fail("\"" + p.name + "\" is a trigger: set it with {\"trigger\": \"" + p.name + "\"}");
      }
      break;
    }
    case StepKind::Trigger: {
      s.graph = static_cast<int>(script.graphs.size()) - 1;
      s.param = read_param(*head, script, s.graph);
      const anim::GraphParam& p = script.graphs[static_cast<std::size_t>(s.graph)]->graph.params[static_cast<std::size_t>(s.param)];
      if (p.type != anim::ParamType::Trigger)
        head->fail("\"" + p.name + "\" is not a trigger: set it with {\"param\": \"" + p.name + "\", \"value\": …}");
      break;
    }
  }
  r.finish();
  return s;
}

Expected<std::unique_ptr<Script>> read_script(const std::string& file, const std::string& text,
                                              const skel::SkeletonData& data) {
  auto doc = json::parse(text, file);
  if (!doc.ok()) return Unexpected{doc.error()};
  try {
    const json::Node root(*doc, "steps", file);
    if (!root.is_array()) root.fail("a script is a JSON array of steps");
    auto script = std::make_unique<Script>();
    for (std::size_t i = 0; i < root.size(); ++i) script->steps.push_back(read_step(root[i], file, data, *script));
    return script;
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
  Player(const PlayOptions& o, const RuntimeSetup& rt, Script& script)
      : o_(o), data_(*rt.data), script_(script), skeleton_(*rt.data) {
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
    changed_ = changed_ || (s.kind != StepKind::Advance && s.kind != StepKind::Pose);
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
        // Whole steps of 1/fps and a shorter last one for the rest; a rest below a millionth of a step
        // is decimal rounding (0.1 s at 60 fps is 6 steps), not a step of its own.
        const double step = 1.0 / s.fps;
        const double steps = s.value * s.fps;
        const double whole = std::abs(steps - std::round(steps)) < 1e-6 ? std::round(steps) : std::floor(steps);
        const double rest = (steps - whole) * step;
        for (double k = 0; k < whole; ++k) frame(step);
        if (rest > 1e-9) frame(rest);
        break;
      }
      case StepKind::Pose:
        // The pose as the steps so far leave it: when a step since the last update changed what
        // plays, an update of 0 s applies it (a clip just set shows its first frame).
        if (changed_) {
          skeleton_.update(0);
          changed_ = false;
          report();
        }
        print_pose(s.label);
        break;
      case StepKind::Graph: {
        ScriptGraph& g = *script_.graphs[static_cast<std::size_t>(s.graph)];
        g.player = std::make_unique<anim::AnimationGraphPlayer>(g.graph, g.binding);
        ScriptGraph* previous = graph_;
        graph_ = &g;
        shown_.assign(g.graph.layers.size(), -1);
        skeleton_.set_graph(g.player.get());
        if (previous && previous != graph_) previous->player.reset();
        report_graph();  // the layers' first states
        break;
      }
      case StepKind::Param: {
        anim::AnimationGraphPlayer& p = *script_.graphs[static_cast<std::size_t>(s.graph)]->player;
        switch (graph_->graph.params[static_cast<std::size_t>(s.param)].type) {
          case anim::ParamType::Float: p.set_float(s.param, s.value); break;
          case anim::ParamType::Int: p.set_int(s.param, static_cast<std::int32_t>(s.value)); break;
          case anim::ParamType::Bool: p.set_bool(s.param, s.value != 0); break;
          case anim::ParamType::Trigger: p.set_trigger(s.param); break;
        }
        break;
      }
      case StepKind::Trigger: script_.graphs[static_cast<std::size_t>(s.graph)]->player->set_trigger(s.param); break;
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

  const std::string& layer_name(int layer) const {
    return graph_->graph.layers[static_cast<std::size_t>(layer)].name;
  }
  const std::string& state_name(int state) const { return graph_->graph.states[static_cast<std::size_t>(state)].name; }

  // Graph state changes since the last call: the innermost state each transition leads to (and each
  // layer's first state), from the player's signals.
  void report_graph() {
    if (!graph_) return;
    for (const anim::GraphSignal& sig : graph_->player->drain_signals()) {
      const auto layer = static_cast<std::size_t>(sig.layer);
      const bool first = sig.kind == anim::GraphSignalKind::StateEntered && shown_[layer] < 0;
      if (sig.kind != anim::GraphSignalKind::TransitionStarted && !first) continue;
      // Entries arrive outermost first: the innermost entry of a layer's first states is the last.
      const int to = first ? graph_->player->current_state(sig.layer) : sig.state;
      if (first && sig.state != to) continue;
      const int from = shown_[layer];
      shown_[layer] = to;
      if (!o_.json) {
        if (from < 0) std::printf("%.4f layer %s: enter %s\n", time_, layer_name(sig.layer).c_str(), state_name(to).c_str());
        else
          std::printf("%.4f layer %s: %s -> %s\n", time_, layer_name(sig.layer).c_str(), state_name(from).c_str(),
                      state_name(to).c_str());
        continue;
      }
      begin_item();
      w_.key("state");
      w_.string(state_name(to));
      w_.key("layer");
      w_.string(layer_name(sig.layer));
      w_.key("from");
      if (from < 0) w_.null();
      else w_.string(state_name(from));
      w_.end_object();
    }
  }

  void report() {
    report_graph();
    skeleton_.drain(
        [&](const skel::FiredEvent& e, int track) {
          const std::string& name = data_.events[static_cast<std::size_t>(e.event)].name;
          const int layer = track < 0 ? skeleton_.samples()[static_cast<std::size_t>(e.sample)].layer : -1;
          if (!o_.json) {
            if (track < 0)
              std::printf("%.4f event %s layer %s %s (int %d, float %g, string \"%s\")\n", time_, name.c_str(),
                          layer_name(layer).c_str(), clip_name(e.clip)->c_str(), e.int_value, e.float_value,
                          e.string_value->c_str());
            else
              std::printf("%.4f event %s track %d %s (int %d, float %g, string \"%s\")\n", time_, name.c_str(), track,
                          clip_name(e.clip)->c_str(), e.int_value, e.float_value, e.string_value->c_str());
            return;
          }
          begin_item();
          w_.key("event");
          w_.string(name);
          if (track < 0) {
            w_.key("layer");
            w_.string(layer_name(layer));
          } else {
            w_.key("track");
            w_.integer(track);
          }
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
  Script& script_;
  ScriptGraph* graph_ = nullptr;  // the graph playing, if any
  std::vector<int> shown_;        // per graph layer: the state last printed, −1 before the first
  skel::AnimatedSkeleton skeleton_;
  json::Writer w_;
  double time_ = 0;
  void frame(double dt) {
    skeleton_.update(static_cast<float>(dt));
    changed_ = false;
    time_ += dt;
    report();
  }

  bool changed_ = false;  // a step since the last update changed what plays (set, add, empty, graph, …)
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
  auto script = read_script(o.script, *text, *loaded->data);
  if (!script.ok()) {
    std::fprintf(stderr, "%s\n", script.error().to_string().c_str());
    return 1;
  }
  Player player(o, *loaded, **script);
  for (const Step& s : (*script)->steps) player.run(s);
  player.finish();
  return 0;
}

}  // namespace

void add_skel_play(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<PlayOptions>();
  CLI::App* cmd =
      skel.add_subcommand("play", "Run a playback script: tracks, graphs, mixes, signals, state changes, events and poses");
  cmd->footer(kHelp);
  cmd->add_option("mskel", options->rig, "The rig (.mskel)")->required();
  cmd->add_option("--script", options->script, "The playback script (.json)")->required();
  cmd->add_option("--skin", options->skins, "Skins to compose, comma-separated, in order");
  cmd->add_flag("--json", options->json, "Print one JSON object (see below)");
  cmd->callback([options, &exit_code] { exit_code = run_play(*options); });
}

}  // namespace mf::tools
