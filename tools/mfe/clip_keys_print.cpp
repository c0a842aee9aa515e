#include "clip_keys_print.hpp"

#include <algorithm>
#include <functional>
#include <span>
#include <tuple>
#include <vector>

#include "key_text.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/json/json_path.hpp"

namespace mf::tools {
namespace {

using namespace mf::offline;
using json::format_float;
using json::path_key;

// One key: its value as text and as JSON, and the curves of the segment that starts at it (empty for
// the last key and for stepped timelines).
struct KeyLine {
  float t = 0;
  std::string text;
  std::function<void(json::Writer&)> json;  // writes "v" (or an event's fields)
  std::vector<Curve> curve;
};

struct TimelineKeys {
  std::tuple<int, std::string, int> order;  // section, target, kind: the file's order
  std::string path;
  std::string target_key;  // "bone", "slot", "ik", ...; empty for events, drawOrder and deform
  std::string target;
  std::string timeline;
  bool events = false;
  std::vector<KeyLine> keys;
};

constexpr int kAfterCurves = 100;

const char* target_key(TimelineTarget t) {
  switch (t) {
    case TimelineTarget::Bone: return "bone";
    case TimelineTarget::Slot: return "slot";
    case TimelineTarget::Ik: return "ik";
    case TimelineTarget::Transform: return "transform";
    case TimelineTarget::Path: return "path";
    case TimelineTarget::Physics: return "physics";
  }
  return "";
}

const char* section_key(TimelineTarget t) {
  switch (t) {
    case TimelineTarget::Bone: return "bones";
    case TimelineTarget::Slot: return "slots";
    default: return target_key(t);
  }
}

// The curves of segment `s` for the components in `components`.
std::vector<Curve> segment_curves(const CurveTimeline& tl, std::size_t s, const std::vector<std::size_t>& components) {
  const std::size_t curved = static_cast<std::size_t>(layout(tl.kind).curved);
  std::vector<Curve> out;
  for (std::size_t c : components) out.push_back(tl.curves[s * curved + c]);
  return out;
}

void add_curve_timelines(const ClipSource& clip, std::vector<TimelineKeys>& out) {
  for (const CurveTimeline& tl : clip.curves) {
    const CurveLayout& lay = layout(tl.kind);
    const auto comps = static_cast<std::size_t>(lay.components);
    const int section = static_cast<int>(lay.target);
    const std::size_t n = tl.times.size();
    if (lay.channel_names.empty()) {
      TimelineKeys e{{section, tl.target, static_cast<int>(tl.kind) + 1},
                     path_key(path_key(section_key(lay.target), tl.target), lay.name),
                     target_key(lay.target), tl.target, std::string(lay.name), false, {}};
      std::vector<std::size_t> all;
      for (int c = 0; c < lay.curved; ++c) all.push_back(static_cast<std::size_t>(c));
      for (std::size_t k = 0; k < n; ++k) {
        const std::span<const float> v(tl.values.data() + k * comps, comps);
        const std::vector<float> copy(v.begin(), v.end());
        const CurveKind kind = tl.kind;
        e.keys.push_back({tl.times[k], curve_value_text(kind, v),
                          [kind, copy](json::Writer& w) { write_curve_value(w, kind, copy); },
                          k + 1 < n ? segment_curves(tl, k, all) : std::vector<Curve>{}});
      }
      out.push_back(std::move(e));
      continue;
    }
    // Ik, transform and path timelines: one line per keyed channel, as --timeline names them.
    for (std::size_t c = 0; c < lay.channel_names.size(); ++c) {
      if (!tl.keyed(static_cast<int>(c))) continue;
      TimelineKeys e{{section, tl.target, static_cast<int>(c)},
                     path_key(path_key(section_key(lay.target), tl.target), lay.channel_names[c]),
                     target_key(lay.target), tl.target, std::string(lay.channel_names[c]), false, {}};
      const bool curved = static_cast<int>(c) < lay.curved;
      for (std::size_t k = 0; k < n; ++k) {
        const float v = tl.values[k * comps + c];
        const CurveKind kind = tl.kind;
        const int channel = static_cast<int>(c);
        e.keys.push_back({tl.times[k], channel_value_text(kind, channel, v),
                          [kind, channel, v](json::Writer& w) { write_channel_value(w, kind, channel, v); },
                          curved && k + 1 < n ? segment_curves(tl, k, {c}) : std::vector<Curve>{}});
      }
      out.push_back(std::move(e));
    }
  }
}

TimelineKeys stepped(std::tuple<int, std::string, int> order, const char* section, const char* target_word,
                     const std::string& target, const char* timeline) {
  return {std::move(order), path_key(path_key(section, target), timeline), target_word, target, timeline, false, {}};
}

void add_other_timelines(const ClipSource& clip, std::vector<TimelineKeys>& out) {
  for (const InheritTimeline& tl : clip.inherits) {
    TimelineKeys e = stepped({0, tl.bone, kAfterCurves}, "bones", "bone", tl.bone, "inherit");
    for (std::size_t k = 0; k < tl.times.size(); ++k) {
      const std::string mode = to_string(tl.values[k]);
      e.keys.push_back({tl.times[k], mode, [mode](json::Writer& w) { w.string(mode); }, {}});
    }
    out.push_back(std::move(e));
  }
  for (const AttachmentTimeline& tl : clip.attachments) {
    TimelineKeys e = stepped({1, tl.slot, 0}, "slots", "slot", tl.slot, "attachment");
    for (std::size_t k = 0; k < tl.times.size(); ++k) {
      const std::optional<std::string> name = tl.names[k];
      e.keys.push_back({tl.times[k], name ? word(*name) : "null",
                        [name](json::Writer& w) { name ? w.string(*name) : w.null(); }, {}});
    }
    out.push_back(std::move(e));
  }
  for (const SequenceTimeline& tl : clip.sequences) {
    TimelineKeys e = stepped({1, tl.slot, kAfterCurves}, "slots", "slot", tl.slot, "sequence");
    for (std::size_t k = 0; k < tl.times.size(); ++k) {
      const SequenceKey key = tl.keys[k];
      e.keys.push_back({tl.times[k], sequence_text(key),
                        [key](json::Writer& w) {
                          w.begin_object(json::Layout::Inline);
                          w.key("mode");
                          w.string(to_string(key.mode));
                          w.key("index");
                          w.integer(key.index);
                          w.key("delay");
                          w.number(key.delay);
                          w.end_object();
                        },
                        {}});
    }
    out.push_back(std::move(e));
  }
  for (const PhysicsResetTimeline& tl : clip.physics_resets) {
    TimelineKeys e = stepped({5, tl.constraint, kAfterCurves}, "physics", "physics", tl.constraint, "reset");
    for (float t : tl.times) e.keys.push_back({t, "reset", nullptr, {}});
    out.push_back(std::move(e));
  }
  for (const DeformTimeline& tl : clip.deforms) {
    const std::string path = path_key(path_key(path_key("deform", tl.skin), tl.slot), tl.attachment);
    TimelineKeys e{{6, path, 0}, path, "", tl.skin + "/" + tl.slot + "/" + tl.attachment, "deform", false, {}};
    for (std::size_t k = 0; k < tl.times.size(); ++k) {
      const DeformKeySource key = tl.keys[k];
      e.keys.push_back({tl.times[k],
                        "{offset=" + std::to_string(key.offset) + ",floats=" + std::to_string(key.values.size()) + "}",
                        [key](json::Writer& w) {
                          w.begin_object(json::Layout::Inline);
                          w.key("offset");
                          w.integer(key.offset);
                          w.key("v");
                          w.begin_array(json::Layout::Inline);
                          for (float v : key.values) w.number(v);
                          w.end_array();
                          w.end_object();
                        },
                        k + 1 < tl.times.size() ? std::vector<Curve>{tl.curves[k]} : std::vector<Curve>{}});
    }
    out.push_back(std::move(e));
  }
  if (!clip.draw_order.empty()) {
    TimelineKeys e{{7, "", 0}, "drawOrder", "", "", "drawOrder", false, {}};
    for (std::size_t k = 0; k < clip.draw_order.times.size(); ++k) {
      const std::vector<DrawOrderMove> moves = clip.draw_order.keys[k];
      std::string text;
      for (const DrawOrderMove& m : moves) text += (text.empty() ? "" : ",") + word(m.slot) + ":" + std::to_string(m.offset);
      e.keys.push_back({clip.draw_order.times[k], text.empty() ? "setup" : text,
                        [moves](json::Writer& w) {
                          w.begin_array(json::Layout::Inline);
                          for (const DrawOrderMove& m : moves) {
                            w.begin_array(json::Layout::Inline);
                            w.string(m.slot);
                            w.integer(m.offset);
                            w.end_array();
                          }
                          w.end_array();
                        },
                        {}});
    }
    out.push_back(std::move(e));
  }
  if (!clip.events.empty()) {
    TimelineKeys e{{8, "", 0}, "events", "", "", "", true, {}};
    for (std::size_t k = 0; k < clip.events.times.size(); ++k) {
      const EventKeySource key = clip.events.keys[k];
      const float t = clip.events.times[k];
      const std::string payload = event_payload_text(key);
      e.keys.push_back({t, word(key.name) + (payload.empty() ? "" : "(" + payload + ")"),
                        [key, t](json::Writer& w) {
                          w.key("event");
                          w.string(key.name);
                          w.key("t");
                          w.number(t);
                          write_event_payload(w, key);
                        },
                        {}});
    }
    out.push_back(std::move(e));
  }
}

// True for no curve (a last or stepped key) and for linear segments, which are left unwritten.
bool linear(const std::vector<Curve>& curves) {
  return std::all_of(curves.begin(), curves.end(), [](const Curve& c) { return c.type == CurveType::Linear; });
}

std::vector<TimelineKeys> all_timelines(const ClipSource& clip) {
  std::vector<TimelineKeys> out;
  add_curve_timelines(clip, out);
  add_other_timelines(clip, out);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  return out;
}

}  // namespace

std::string clip_keys_text(const ClipSource& clip, const std::string& indent) {
  std::string out;
  for (const TimelineKeys& tl : all_timelines(clip)) {
    out += indent;
    if (tl.events)
      out += "events";
    else if (tl.target_key.empty())
      out += tl.timeline + (tl.target.empty() ? "" : " " + word(tl.target));
    else
      out += tl.target_key + " " + word(tl.target) + " " + tl.timeline;
    out += " ";
    for (const KeyLine& k : tl.keys) {
      out += " " + format_float(k.t) + "=" + k.text;
      if (!linear(k.curve)) out += "[" + segment_curve_text(k.curve) + "]";
    }
    out += "\n";
  }
  return out;
}

void write_clip_keys_json(json::Writer& w, const ClipSource& clip) {
  w.begin_array();
  for (const TimelineKeys& tl : all_timelines(clip)) {
    w.begin_object();
    w.key("path");
    w.string(tl.path);
    if (!tl.target_key.empty()) {
      w.key(tl.target_key);
      w.string(tl.target);
      w.key("timeline");
      w.string(tl.timeline);
    }
    w.key("t");
    w.begin_array(json::Layout::Inline);
    for (const KeyLine& k : tl.keys) w.number(k.t);
    w.end_array();
    w.key("keys");
    w.begin_array();
    for (const KeyLine& k : tl.keys) {
      w.begin_object(json::Layout::Inline);
      if (tl.events) {
        k.json(w);  // {"event": name, "t": ..., payload}: a --keys item as it is
      } else {
        if (!tl.target_key.empty()) {
          w.key(tl.target_key);
          w.string(tl.target);
          w.key("timeline");
          w.string(tl.timeline);
        }
        w.key("t");
        w.number(k.t);
        if (k.json) {
          w.key("v");
          k.json(w);
        }
      }
      if (!linear(k.curve)) {
        w.key("curve");
        write_segment_curve(w, k.curve);
      }
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
}

}  // namespace mf::tools
