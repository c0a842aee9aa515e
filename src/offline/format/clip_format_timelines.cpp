// One `.manim` timeline at a time: its times, values and curves, read with every length and type
// checked and written in canonical form. docs/format-manim.md describes each kind.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "clip_format_internal.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/json/json_path.hpp"

namespace mf::offline::clip_io {
namespace {

using json::Layout;
using json::Node;
using json::ObjectReader;
using json::Writer;

constexpr int kIntMax = std::numeric_limits<int>::max();

std::string found(const Node& n) {
  const json::Value& v = n.value();
  if (v.is_number() && v.integer) return "an integer";
  return json::type_name(v.type);
}

// ---- reading ----------------------------------------------------------------------------------

// Key times: at least one, each >= 0, strictly increasing (non-decreasing where `allow_equal`).
std::vector<float> read_times(const Node& t, bool allow_equal) {
  const std::size_t n = t.size();
  if (n == 0) t.fail("a timeline needs at least one key");
  std::vector<float> times;
  times.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Node item = t[i];
    const float v = item.as_float();
    if (v < 0) item.fail("key time must be >= 0, found " + json::format_float(v));
    if (!times.empty()) {
      const float prev = times.back();
      if (allow_equal ? v < prev : v <= prev)
        item.fail("key time " + json::format_float(v) + (allow_equal ? " is before" : " is not after") +
                  " the previous key's " + json::format_float(prev));
    }
    times.push_back(v);
  }
  return times;
}

// An array parallel to "t": one entry per key.
void expect_per_key(const Node& array, std::size_t keys, const char* what) {
  const std::size_t n = array.size();
  if (n != keys)
    array.fail("has " + std::to_string(n) + " " + what + " but \"t\" has " + std::to_string(keys) + " keys");
}

// "linear", "stepped" or [cx1, cy1, cx2, cy2].
Curve read_one_curve(const Node& n) {
  if (n.is_string()) {
    const std::string& s = n.as_string();
    if (s == "linear") return Curve::linear();
    if (s == "stepped") return Curve::stepped();
    n.fail("unknown curve \"" + s + "\"; expected \"linear\", \"stepped\" or [cx1, cy1, cx2, cy2]");
  }
  if (n.is_array()) {
    if (n.size() != 4)
      n.fail("a bezier curve is [cx1, cy1, cx2, cy2], found an array of " + std::to_string(n.size()) + " entries");
    const std::vector<float> c = n.as_floats();
    return Curve::bezier(c[0], c[1], c[2], c[3]);
  }
  n.fail("expected a curve (\"linear\", \"stepped\" or [cx1, cy1, cx2, cy2]), found " + found(n));
}

// The "curve" array: one entry per segment, each a curve shared by the interpolated components keyed
// in `channels`, or an array with one curve per such component. Unkeyed components stay Linear.
std::vector<Curve> read_curves(const std::optional<Node>& node, std::size_t keys, int curved, std::uint32_t channels) {
  const std::size_t segments = keys - 1;
  const auto stride = static_cast<std::size_t>(curved);
  std::vector<Curve> curves(segments * stride);
  if (!node) return curves;
  std::vector<std::size_t> present;
  for (int c = 0; c < curved; ++c)
    if ((channels >> c) & 1u) present.push_back(static_cast<std::size_t>(c));
  if (present.empty()) node->fail("no interpolated property is keyed, so the timeline takes no curve");
  const std::size_t n = node->size();
  if (n != segments)
    node->fail("has " + std::to_string(n) + " curves but the " + std::to_string(keys) + " keys make " +
               std::to_string(segments) + " segments");
  for (std::size_t s = 0; s < segments; ++s) {
    const Node entry = (*node)[s];
    Curve* out = &curves[s * stride];
    // An array whose first entry is not a number lists one curve per component.
    if (entry.is_array() && entry.size() > 0 && !entry[0].is_number()) {
      if (entry.size() != present.size())
        entry.fail("a per-component curve needs one curve per interpolated property keyed (" +
                   std::to_string(present.size()) + "), found " + std::to_string(entry.size()));
      for (std::size_t j = 0; j < present.size(); ++j) out[present[j]] = read_one_curve(entry[j]);
    } else {
      const Curve shared = read_one_curve(entry);
      for (std::size_t c : present) out[c] = shared;
    }
  }
  return curves;
}

float byte_to_float(std::uint8_t b) { return static_cast<float>(b) / 255.0f; }

void put_rgb(Rgba8 c, float* out) {
  out[0] = byte_to_float(c.r);
  out[1] = byte_to_float(c.g);
  out[2] = byte_to_float(c.b);
}

// A two-entry array [first, second] of a slot's two-colour value.
std::pair<Node, Node> read_pair(const Node& n, const char* expected) {
  if (!n.is_array() || n.size() != 2) {
    n.fail(std::string("expected ") + expected + ", found " +
           (n.is_array() ? "an array of " + std::to_string(n.size()) + " entries" : found(n)));
  }
  return {n[0], n[1]};
}

// One key's value of a timeline with a "v" array; writes layout.components floats.
void read_value(const Node& n, const CurveLayout& layout, float* out) {
  switch (layout.kind) {
    case CurveKind::Translate:
    case CurveKind::Scale:
    case CurveKind::Shear: {
      const char* expected = layout.kind == CurveKind::Scale ? "[sx, sy]" : "[x, y]";
      auto [x, y] = read_pair(n, expected);
      out[0] = x.as_float();
      out[1] = y.as_float();
      return;
    }
    case CurveKind::Rgba: {
      const Rgba8 c = n.as_color();
      put_rgb(c, out);
      out[3] = byte_to_float(c.a);
      return;
    }
    case CurveKind::Rgb: put_rgb(n.as_rgb(), out); return;
    case CurveKind::Rgba2: {
      auto [light, dark] = read_pair(n, "[\"#rrggbbaa\", \"#rrggbb\"] (light, dark)");
      const Rgba8 c = light.as_color();
      put_rgb(c, out);
      out[3] = byte_to_float(c.a);
      put_rgb(dark.as_rgb(), out + 4);
      return;
    }
    case CurveKind::Rgb2: {
      auto [light, dark] = read_pair(n, "[\"#rrggbb\", \"#rrggbb\"] (light, dark)");
      put_rgb(light.as_rgb(), out);
      put_rgb(dark.as_rgb(), out + 3);
      return;
    }
    case CurveKind::Alpha: {
      const float a = n.as_float();
      if (a < 0 || a > 1) n.fail("alpha must be from 0 to 1, found " + json::format_float(a));
      out[0] = a;
      return;
    }
    default: out[0] = n.as_float(); return;
  }
}

// One key's value of a constraint's named array.
float read_channel_value(const Node& n, CurveKind kind, int component) {
  if (kind == CurveKind::Ik) {
    if (component == 2) {
      const int bend = n.as_int();
      if (bend != 1 && bend != -1) n.fail("bend must be 1 or -1, found " + std::to_string(bend));
      return static_cast<float>(bend);
    }
    if (component >= 3) return n.as_bool() ? 1.0f : 0.0f;
  }
  return n.as_float();
}

std::string join_names(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view s : names) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

// ---- writing ----------------------------------------------------------------------------------

void write_times(Writer& w, const std::vector<float>& times) {
  w.key("t");
  w.begin_array(Layout::Inline);
  for (float t : times) w.number(t);
  w.end_array();
}

void write_one_curve(Writer& w, const Curve& c) {
  switch (c.type) {
    case CurveType::Linear: w.string("linear"); return;
    case CurveType::Stepped: w.string("stepped"); return;
    case CurveType::Bezier:
      w.begin_array(Layout::Inline);
      for (float v : {c.cx1, c.cy1, c.cx2, c.cy2}) w.number(v);
      w.end_array();
      return;
  }
}

// Tolerates a model whose arrays are short: what is missing reads as Linear / 0.
Curve curve_at(const std::vector<Curve>& curves, std::size_t i) { return i < curves.size() ? curves[i] : Curve{}; }
float value_at(const std::vector<float>& values, std::size_t i) { return i < values.size() ? values[i] : 0.0f; }

// "curve", left out when every keyed interpolated component of every segment is linear.
void write_curves(Writer& w, const std::vector<Curve>& curves, std::size_t keys, int curved, std::uint32_t channels) {
  if (keys < 2) return;
  std::vector<std::size_t> present;
  for (int c = 0; c < curved; ++c)
    if ((channels >> c) & 1u) present.push_back(static_cast<std::size_t>(c));
  const auto stride = static_cast<std::size_t>(curved);
  bool all_linear = true;
  for (std::size_t s = 0; s + 1 < keys; ++s)
    for (std::size_t c : present) all_linear = all_linear && curve_at(curves, s * stride + c).type == CurveType::Linear;
  if (present.empty() || all_linear) return;
  w.key("curve");
  w.begin_array(Layout::Inline);
  for (std::size_t s = 0; s + 1 < keys; ++s) {
    const Curve first = curve_at(curves, s * stride + present[0]);
    const bool shared = std::all_of(present.begin(), present.end(),
                                    [&](std::size_t c) { return curve_at(curves, s * stride + c) == first; });
    if (shared) {
      write_one_curve(w, first);
    } else {
      w.begin_array(Layout::Inline);
      for (std::size_t c : present) write_one_curve(w, curve_at(curves, s * stride + c));
      w.end_array();
    }
  }
  w.end_array();
}

std::uint8_t float_to_byte(float v) {
  if (!(v > 0)) return 0;  // also NaN
  if (v >= 1) return 255;
  return static_cast<std::uint8_t>(std::lround(v * 255.0f));
}

Rgba8 color_at(const std::vector<float>& values, std::size_t i, bool alpha) {
  return {float_to_byte(value_at(values, i)), float_to_byte(value_at(values, i + 1)),
          float_to_byte(value_at(values, i + 2)), alpha ? float_to_byte(value_at(values, i + 3)) : std::uint8_t{255}};
}

void write_value(Writer& w, const CurveTimeline& tl, std::size_t key) {
  const CurveLayout& l = layout(tl.kind);
  const std::size_t i = key * static_cast<std::size_t>(l.components);
  switch (tl.kind) {
    case CurveKind::Translate:
    case CurveKind::Scale:
    case CurveKind::Shear:
      w.begin_array(Layout::Inline);
      w.number(value_at(tl.values, i));
      w.number(value_at(tl.values, i + 1));
      w.end_array();
      return;
    case CurveKind::Rgba: w.string(to_hex_rgba(color_at(tl.values, i, true))); return;
    case CurveKind::Rgb: w.string(to_hex_rgb(color_at(tl.values, i, false))); return;
    case CurveKind::Rgba2:
      w.begin_array(Layout::Inline);
      w.string(to_hex_rgba(color_at(tl.values, i, true)));
      w.string(to_hex_rgb(color_at(tl.values, i + 4, false)));
      w.end_array();
      return;
    case CurveKind::Rgb2:
      w.begin_array(Layout::Inline);
      w.string(to_hex_rgb(color_at(tl.values, i, false)));
      w.string(to_hex_rgb(color_at(tl.values, i + 3, false)));
      w.end_array();
      return;
    default: w.number(value_at(tl.values, i)); return;
  }
}

}  // namespace

json::Node member(const json::Node& object, std::string_view key) {
  if (!object.is_object()) object.fail("expected an object, found " + found(object));
  const json::Value* v = object.value().find(key);
  if (!v) object.fail("missing required key \"" + std::string(key) + "\"");
  return json::Node(*v, json::path_key(object.path(), key), object.file());
}

CurveTimeline read_curve_timeline(const Node& node, const CurveLayout& layout, const std::string& target) {
  ObjectReader r(node);
  const Node t = r.required("t");
  std::optional<Node> v;
  std::vector<std::optional<Node>> arrays;
  if (layout.channel_names.empty()) {
    v = r.required("v");
  } else {
    for (std::string_view name : layout.channel_names) arrays.push_back(r.optional(name));
  }
  const std::optional<Node> curve = r.optional("curve");
  r.finish();

  CurveTimeline tl;
  tl.kind = layout.kind;
  tl.target = target;
  tl.times = read_times(t, false);
  const std::size_t keys = tl.times.size();
  const auto stride = static_cast<std::size_t>(layout.components);
  tl.values.assign(keys * stride, 0.0f);
  if (v) {
    expect_per_key(*v, keys, "values");
    for (std::size_t k = 0; k < keys; ++k) read_value((*v)[k], layout, &tl.values[k * stride]);
  } else {
    std::uint32_t mask = 0;
    for (std::size_t c = 0; c < arrays.size(); ++c) {
      if (!arrays[c]) continue;
      const Node& a = *arrays[c];
      expect_per_key(a, keys, "values");
      for (std::size_t k = 0; k < keys; ++k)
        tl.values[k * stride + c] = read_channel_value(a[k], layout.kind, static_cast<int>(c));
      mask |= 1u << c;
    }
    if (mask == 0) node.fail("keys none of its properties; give at least one of " + join_names(layout.channel_names));
    // Every channel keyed is the model's default mask.
    tl.channels = mask == (1u << layout.components) - 1 ? ~0u : mask;
  }
  tl.curves = read_curves(curve, keys, layout.curved, tl.channels);
  return tl;
}

InheritTimeline read_inherit_timeline(const Node& node, const std::string& bone) {
  ObjectReader r(node);
  const Node t = r.required("t");
  const Node v = r.required("v");
  r.finish();
  InheritTimeline tl;
  tl.bone = bone;
  tl.times = read_times(t, false);
  expect_per_key(v, tl.times.size(), "values");
  for (const Node& item : v.items()) {
    const std::string& name = item.as_string();
    const std::optional<Inherit> mode = parse_inherit(name);
    if (!mode)
      item.fail("unknown inherit mode \"" + name +
                "\"; expected Normal, OnlyTranslation, NoRotationOrReflection, NoScale or NoScaleOrReflection");
    tl.values.push_back(*mode);
  }
  return tl;
}

AttachmentTimeline read_attachment_timeline(const Node& node, const std::string& slot) {
  ObjectReader r(node);
  const Node t = r.required("t");
  const Node v = r.required("v");
  r.finish();
  AttachmentTimeline tl;
  tl.slot = slot;
  tl.times = read_times(t, false);
  expect_per_key(v, tl.times.size(), "values");
  for (const Node& item : v.items()) {
    if (item.is_null()) {
      tl.names.emplace_back(std::nullopt);
    } else {
      if (!item.is_string()) item.fail("expected an attachment name or null, found " + found(item));
      tl.names.emplace_back(item.as_nonempty_string());
    }
  }
  return tl;
}

SequenceTimeline read_sequence_timeline(const Node& node, const std::string& slot) {
  ObjectReader r(node);
  const Node t = r.required("t");
  const Node v = r.required("v");
  r.finish();
  SequenceTimeline tl;
  tl.slot = slot;
  tl.times = read_times(t, false);
  expect_per_key(v, tl.times.size(), "values");
  for (const Node& item : v.items()) {
    ObjectReader k(item);
    SequenceKey key;
    if (const std::optional<Node> mode = k.optional("mode")) {
      const std::string& name = mode->as_string();
      const std::optional<SequenceMode> m = parse_sequence_mode(name);
      if (!m)
        mode->fail("unknown sequence mode \"" + name +
                   "\"; expected hold, once, loop, pingpong, onceReverse, loopReverse or pingpongReverse");
      key.mode = *m;
    }
    if (const std::optional<Node> index = k.optional("index")) key.index = index->as_int(0, kIntMax);
    if (const std::optional<Node> delay = k.optional("delay")) {
      key.delay = delay->as_float();
      if (key.delay < 0) delay->fail("delay must be >= 0, found " + json::format_float(key.delay));
    }
    k.finish();
    tl.keys.push_back(key);
  }
  return tl;
}

PhysicsResetTimeline read_physics_reset_timeline(const Node& node, const std::string& constraint) {
  ObjectReader r(node);
  const Node t = r.required("t");
  r.finish();
  PhysicsResetTimeline tl;
  tl.constraint = constraint;
  tl.times = read_times(t, false);
  return tl;
}

DeformTimeline read_deform_timeline(const Node& node, const std::string& skin, const std::string& slot,
                                    const std::string& attachment) {
  ObjectReader r(node);
  const Node t = r.required("t");
  const Node offset = r.required("offset");
  const Node v = r.required("v");
  const std::optional<Node> curve = r.optional("curve");
  r.finish();
  DeformTimeline tl;
  tl.skin = skin;
  tl.slot = slot;
  tl.attachment = attachment;
  tl.times = read_times(t, false);
  const std::size_t keys = tl.times.size();
  expect_per_key(offset, keys, "offsets");
  expect_per_key(v, keys, "values");
  tl.keys.resize(keys);
  for (std::size_t k = 0; k < keys; ++k) {
    tl.keys[k].offset = offset[k].as_int(0, kIntMax);
    tl.keys[k].values = v[k].as_floats();
  }
  tl.curves = read_curves(curve, keys, 1, ~0u);
  return tl;
}

DrawOrderTimeline read_draw_order_timeline(const Node& node) {
  ObjectReader r(node);
  const Node t = r.required("t");
  const Node v = r.required("v");
  r.finish();
  DrawOrderTimeline tl;
  tl.times = read_times(t, false);
  expect_per_key(v, tl.times.size(), "keys");
  for (const Node& key : v.items()) {
    std::vector<DrawOrderMove> moves;
    for (const Node& m : key.items()) {
      if (!m.is_array() || m.size() != 2)
        m.fail("expected a move [slot, offset], found " +
               (m.is_array() ? "an array of " + std::to_string(m.size()) + " entries" : found(m)));
      moves.push_back({m[0].as_nonempty_string(), m[1].as_int()});
    }
    tl.keys.push_back(std::move(moves));
  }
  return tl;
}

EventTimeline read_event_timeline(const Node& node) {
  ObjectReader r(node);
  const Node t = r.required("t");
  const Node v = r.required("v");
  r.finish();
  EventTimeline tl;
  tl.times = read_times(t, true);
  expect_per_key(v, tl.times.size(), "events");
  for (const Node& item : v.items()) {
    ObjectReader k(item);
    EventKeySource key;
    key.name = k.required("name").as_nonempty_string();
    if (const std::optional<Node> n = k.optional("int")) key.int_value = n->as_int();
    if (const std::optional<Node> n = k.optional("float")) key.float_value = n->as_float();
    if (const std::optional<Node> n = k.optional("string")) key.string_value = n->as_string();
    if (const std::optional<Node> n = k.optional("volume")) {
      key.volume = n->as_float();
      if (*key.volume < 0 || *key.volume > 1) n->fail("volume must be from 0 to 1, found " + json::format_float(*key.volume));
    }
    if (const std::optional<Node> n = k.optional("balance")) {
      key.balance = n->as_float();
      if (*key.balance < -1 || *key.balance > 1)
        n->fail("balance must be from -1 to 1, found " + json::format_float(*key.balance));
    }
    k.finish();
    tl.keys.push_back(std::move(key));
  }
  return tl;
}

void write_curve_timeline(Writer& w, const CurveTimeline& tl) {
  const CurveLayout& l = layout(tl.kind);
  const std::size_t keys = tl.times.size();
  const auto stride = static_cast<std::size_t>(l.components);
  w.begin_object(Layout::Inline);
  write_times(w, tl.times);
  if (l.channel_names.empty()) {
    w.key("v");
    w.begin_array();
    for (std::size_t k = 0; k < keys; ++k) write_value(w, tl, k);
    w.end_array();
  } else {
    for (std::size_t c = 0; c < l.channel_names.size(); ++c) {
      if (!tl.keyed(static_cast<int>(c))) continue;
      w.key(l.channel_names[c]);
      w.begin_array();
      for (std::size_t k = 0; k < keys; ++k) {
        const float v = value_at(tl.values, k * stride + c);
        if (tl.kind == CurveKind::Ik && c == 2) {
          w.integer(v < 0 ? -1 : 1);
        } else if (tl.kind == CurveKind::Ik && c >= 3) {
          w.boolean(v != 0);
        } else {
          w.number(v);
        }
      }
      w.end_array();
    }
  }
  write_curves(w, tl.curves, keys, l.curved, tl.channels);
  w.end_object();
}

void write_inherit_timeline(Writer& w, const InheritTimeline& tl) {
  w.begin_object(Layout::Inline);
  write_times(w, tl.times);
  w.key("v");
  w.begin_array();
  for (Inherit v : tl.values) w.string(to_string(v));
  w.end_array();
  w.end_object();
}

void write_attachment_timeline(Writer& w, const AttachmentTimeline& tl) {
  w.begin_object(Layout::Inline);
  write_times(w, tl.times);
  w.key("v");
  w.begin_array();
  for (const std::optional<std::string>& name : tl.names) {
    if (name) {
      w.string(*name);
    } else {
      w.null();
    }
  }
  w.end_array();
  w.end_object();
}

void write_sequence_timeline(Writer& w, const SequenceTimeline& tl) {
  w.begin_object(Layout::Inline);
  write_times(w, tl.times);
  w.key("v");
  w.begin_array();
  for (const SequenceKey& key : tl.keys) {
    w.begin_object();
    if (key.mode != SequenceMode::Hold) {
      w.key("mode");
      w.string(to_string(key.mode));
    }
    if (key.index != 0) {
      w.key("index");
      w.integer(key.index);
    }
    if (key.delay != 0) {
      w.key("delay");
      w.number(key.delay);
    }
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_physics_reset_timeline(Writer& w, const PhysicsResetTimeline& tl) {
  w.begin_object(Layout::Inline);
  write_times(w, tl.times);
  w.end_object();
}

void write_deform_timeline(Writer& w, const DeformTimeline& tl) {
  w.begin_object(Layout::Inline);
  write_times(w, tl.times);
  w.key("offset");
  w.begin_array();
  for (const DeformKeySource& key : tl.keys) w.integer(key.offset);
  w.end_array();
  w.key("v");
  w.begin_array();
  for (const DeformKeySource& key : tl.keys) {
    w.begin_array();
    for (float f : key.values) w.number(f);
    w.end_array();
  }
  w.end_array();
  write_curves(w, tl.curves, tl.times.size(), 1, ~0u);
  w.end_object();
}

void write_draw_order_timeline(Writer& w, const DrawOrderTimeline& tl) {
  w.begin_object();
  write_times(w, tl.times);
  w.key("v");
  w.begin_array();
  for (const std::vector<DrawOrderMove>& key : tl.keys) {
    w.begin_array(Layout::Inline);
    for (const DrawOrderMove& m : key) {
      w.begin_array();
      w.string(m.slot);
      w.integer(m.offset);
      w.end_array();
    }
    w.end_array();
  }
  w.end_array();
  w.end_object();
}

void write_event_timeline(Writer& w, const EventTimeline& tl) {
  w.begin_object();
  write_times(w, tl.times);
  w.key("v");
  w.begin_array();
  for (const EventKeySource& key : tl.keys) {
    w.begin_object(Layout::Inline);
    w.key("name");
    w.string(key.name);
    write_event_payload(w, key);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace mf::offline::clip_io

namespace mf::offline {

void write_event_payload(json::Writer& w, const EventKeySource& key) {
  if (key.int_value) {
    w.key("int");
    w.integer(*key.int_value);
  }
  if (key.float_value) {
    w.key("float");
    w.number(*key.float_value);
  }
  if (key.string_value) {
    w.key("string");
    w.string(*key.string_value);
  }
  if (key.volume) {
    w.key("volume");
    w.number(*key.volume);
  }
  if (key.balance) {
    w.key("balance");
    w.number(*key.balance);
  }
}

}  // namespace mf::offline
