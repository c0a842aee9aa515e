#include "mf/offline/format/clip_key_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "mf/offline/format/clip_edit.hpp"
#include "mf/offline/json/json_path.hpp"
#include "mf/offline/json/json_reader.hpp"

namespace mf::offline {
namespace {

using json::Node;
using json::ObjectReader;

std::string join(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

std::string target_keys() {
  std::vector<std::string_view> names(kKeyTargetNames.begin(), kKeyTargetNames.end());
  return join(names);
}

float byte_to_float(std::uint8_t b) { return static_cast<float>(b) / 255.0f; }

void put_color(std::vector<float>& out, Rgba8 c, bool alpha) {
  out.push_back(byte_to_float(c.r));
  out.push_back(byte_to_float(c.g));
  out.push_back(byte_to_float(c.b));
  if (alpha) out.push_back(byte_to_float(c.a));
}

// A two-colour value: [light, dark].
std::pair<Node, Node> color_pair(const Node& n, const char* expected) {
  if (!n.is_array() || n.size() != 2) n.fail(std::string("expected ") + expected);
  return {n[0], n[1]};
}

void read_value(const Node& v, KeyEdit& edit) {
  const KeyTimeline& k = edit.timeline;
  switch (k.kind) {
    case KeyKind::Curve:
      edit.values.clear();
      switch (k.curve) {
        case CurveKind::Rgba: put_color(edit.values, v.as_color(), true); return;
        case CurveKind::Rgb: put_color(edit.values, v.as_rgb(), false); return;
        case CurveKind::Rgba2: {
          auto [light, dark] = color_pair(v, "[\"#rrggbbaa\", \"#rrggbb\"] (light, dark)");
          put_color(edit.values, light.as_color(), true);
          put_color(edit.values, dark.as_rgb(), false);
          return;
        }
        case CurveKind::Rgb2: {
          auto [light, dark] = color_pair(v, "[\"#rrggbb\", \"#rrggbb\"] (light, dark)");
          put_color(edit.values, light.as_rgb(), false);
          put_color(edit.values, dark.as_rgb(), false);
          return;
        }
        default:
          // A number or an array of numbers; the count is checked against the timeline when applied.
          if (v.is_array())
            edit.values = v.as_floats();
          else
            edit.values = {v.as_float()};
          return;
      }
    case KeyKind::Channel:
      if (k.curve == CurveKind::Ik && k.channel >= 3)
        edit.values = {v.as_bool() ? 1.0f : 0.0f};
      else
        edit.values = {v.as_float()};
      return;
    case KeyKind::Inherit: {
      const std::optional<Inherit> mode = parse_inherit(v.as_string());
      if (!mode)
        v.fail("unknown inherit mode \"" + v.as_string() +
               "\"; the modes are: Normal, OnlyTranslation, NoRotationOrReflection, NoScale, NoScaleOrReflection");
      edit.inherit = *mode;
      return;
    }
    case KeyKind::Attachment:
      if (v.is_null())
        edit.attachment.reset();
      else
        edit.attachment = v.as_nonempty_string();
      return;
    case KeyKind::Sequence: {
      ObjectReader r(v);
      SequenceKey key;
      if (std::optional<Node> mode = r.optional("mode")) {
        const std::optional<SequenceMode> m = parse_sequence_mode(mode->as_string());
        if (!m)
          mode->fail("unknown sequence mode \"" + mode->as_string() +
                     "\"; the modes are: hold, once, loop, pingpong, onceReverse, loopReverse, pingpongReverse");
        key.mode = *m;
      }
      if (std::optional<Node> index = r.optional("index")) key.index = index->as_int();
      if (std::optional<Node> delay = r.optional("delay")) key.delay = delay->as_float();
      r.finish();
      edit.sequence = key;
      return;
    }
    case KeyKind::PhysicsReset:
    case KeyKind::Event: v.fail("this key takes no value"); return;
  }
}

Curve read_one_curve(const Node& n) {
  if (n.is_string()) {
    const std::string& s = n.as_string();
    if (s == "linear") return Curve::linear();
    if (s == "stepped") return Curve::stepped();
    if (s == "ease") return kEaseCurve;
    n.fail("unknown curve \"" + s + "\"; expected linear, stepped, ease or [cx1, cy1, cx2, cy2]");
  }
  if (!n.is_array() || n.size() != 4)
    n.fail("expected a curve: linear, stepped, ease or [cx1, cy1, cx2, cy2] (a bezier is four numbers)");
  const std::vector<float> c = n.as_floats();
  const Curve curve = Curve::bezier(c[0], c[1], c[2], c[3]);
  if (std::string problem = curve_problem(curve); !problem.empty()) n.fail(problem);
  return curve;
}

std::vector<Curve> read_curve(const Node& n) {
  // An array whose first entry is a string or an array is one curve per component.
  if (n.is_array() && n.size() > 0 && !n[0].is_number()) {
    std::vector<Curve> out;
    for (const Node& item : n.items()) out.push_back(read_one_curve(item));
    return out;
  }
  return {read_one_curve(n)};
}

KeyEditSource read_item(const Node& item) {
  KeyEditSource src;
  src.path = item.path();
  src.positions.fill(item.position());
  if (!item.is_object()) item.fail("a key is an object such as {\"bone\": \"arm\", \"timeline\": \"rotate\", \"t\": 0.5, \"v\": 30}");
  // A misspelt key is named first: it is often why a required key seems missing.
  static constexpr std::string_view kKnown[] = {"timeline", "t", "v", "curve", "delete", "int", "float", "string",
                                                "volume", "balance"};
  for (const json::Member& m : item.value().members) {
    const bool known = std::find(std::begin(kKnown), std::end(kKnown), m.first) != std::end(kKnown) ||
                       std::find(kKeyTargetNames.begin(), kKeyTargetNames.end(), m.first) != kKeyTargetNames.end();
    if (!known)
      Node(m.second, json::path_key(item.path(), m.first), item.file())
          .fail("unknown key \"" + m.first + "\"; a key takes " + target_keys() +
                ", timeline, t, v, curve, delete, and for events int, float, string, volume, balance");
  }
  ObjectReader r(item);
  KeyEdit& edit = src.edit;

  std::optional<Node> head;
  KeyTarget target = KeyTarget::Bone;
  int count = 0;
  for (std::size_t i = 0; i < kKeyTargetNames.size(); ++i)
    if (std::optional<Node> n = r.optional(kKeyTargetNames[i])) {
      ++count;
      head = n;
      target = static_cast<KeyTarget>(i);
      src.target_key = kKeyTargetNames[i];
    }
  if (count != 1) item.fail("a key needs exactly one of " + target_keys() + " (what it animates)");
  src.positions[static_cast<std::size_t>(KeyField::Target)] = head->position();
  edit.name = head->as_nonempty_string();

  std::optional<Node> timeline = r.optional("timeline");
  if (target == KeyTarget::Event) {
    if (timeline) timeline->fail("an event key takes no timeline");
    edit.timeline = *find_key_timeline(target, "");
  } else {
    if (!timeline)
      item.fail("missing required key \"timeline\"; " + src.target_key + " timelines are: " +
                join(key_timeline_names(target)));
    src.positions[static_cast<std::size_t>(KeyField::Timeline)] = timeline->position();
    const std::string& name = timeline->as_string();
    const std::optional<KeyTimeline> found = find_key_timeline(target, name);
    if (!found)
      timeline->fail("a " + src.target_key + " has no timeline \"" + name + "\"; its timelines are: " +
                     join(key_timeline_names(target)));
    edit.timeline = *found;
  }

  const Node t = r.required("t");
  src.positions[static_cast<std::size_t>(KeyField::Time)] = t.position();
  edit.t = t.as_float();
  if (std::optional<Node> remove = r.optional("delete")) edit.remove = remove->as_bool();

  std::optional<Node> v = r.optional("v");
  std::optional<Node> curve = r.optional("curve");
  const KeyKind kind = edit.timeline.kind;
  if (edit.remove) {
    if (v) v->fail("a key to delete takes no \"v\"");
    if (curve) curve->fail("a key to delete takes no \"curve\"");
  } else if (kind == KeyKind::PhysicsReset || kind == KeyKind::Event) {
    if (v)
      v->fail(kind == KeyKind::Event ? "an event key takes no \"v\"; its payload is \"int\", \"float\", \"string\", "
                                       "\"volume\" and \"balance\""
                                     : "a reset key takes no \"v\": the simulation is reset at t");
  } else {
    if (!v) item.fail("missing required key \"v\" (the key's value)");
    src.positions[static_cast<std::size_t>(KeyField::Value)] = v->position();
    read_value(*v, edit);
  }
  if (curve) {
    src.positions[static_cast<std::size_t>(KeyField::Curve)] = curve->position();
    edit.curve = read_curve(*curve);
  }
  if (target == KeyTarget::Event && !edit.remove) {
    if (std::optional<Node> n = r.optional("int")) edit.event.int_value = n->as_int();
    if (std::optional<Node> n = r.optional("float")) edit.event.float_value = n->as_float();
    if (std::optional<Node> n = r.optional("string")) edit.event.string_value = n->as_string();
    if (std::optional<Node> n = r.optional("volume")) {
      edit.event.volume = n->as_float();
      if (*edit.event.volume < 0 || *edit.event.volume > 1) n->fail("volume must be from 0 to 1");
    }
    if (std::optional<Node> n = r.optional("balance")) {
      edit.event.balance = n->as_float();
      if (*edit.event.balance < -1 || *edit.event.balance > 1) n->fail("balance must be from -1 to 1");
    }
  }
  r.finish();
  return src;
}

json::Value text_value(std::string_view item) {
  json::Value v;
  const std::string s(item);
  char* end = nullptr;
  const double number = std::strtod(s.c_str(), &end);
  if (!s.empty() && end == s.c_str() + s.size() && std::isfinite(number)) {
    v.type = json::Type::Number;
    v.number = number;
    v.integer = s.find_first_of(".eE") == std::string::npos;
    return v;
  }
  if (s == "true" || s == "false") {
    v.type = json::Type::Bool;
    v.boolean = s == "true";
    return v;
  }
  v.type = json::Type::String;
  v.string = s;
  return v;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(separator, start);
    std::string_view item = text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    out.push_back(item);
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

json::Value array_of(const std::vector<std::string_view>& items) {
  json::Value v;
  v.type = json::Type::Array;
  for (std::string_view item : items) v.items.push_back(text_value(item));
  return v;
}

json::Value string_value(std::string_view text) {
  json::Value v;
  v.type = json::Type::String;
  v.string = std::string(text);
  return v;
}

}  // namespace

std::string KeyEditSource::field_path(KeyField field) const {
  switch (field) {
    case KeyField::Target: return json::path_key(path, target_key);
    case KeyField::Timeline: return json::path_key(path, "timeline");
    case KeyField::Time: return json::path_key(path, "t");
    case KeyField::Value: return json::path_key(path, "v");
    case KeyField::Curve: return json::path_key(path, "curve");
  }
  return path;
}

Expected<std::vector<KeyEditSource>> read_key_edits(std::string_view text, const std::string& file) {
  auto doc = json::parse(text, file);
  if (!doc.ok()) return Unexpected{doc.error()};
  try {
    const Node root(*doc, "keys", file);
    if (!root.is_array())
      root.fail("a keys file is a JSON array of keys such as {\"bone\": \"arm\", \"timeline\": \"rotate\", \"t\": 0.5, "
                "\"v\": 30}");
    std::vector<KeyEditSource> out;
    for (std::size_t i = 0; i < root.size(); ++i) out.push_back(read_item(root[i]));
    return out;
  } catch (const json::ReadError& e) {
    return Unexpected{e.error};
  }
}

Status read_key_value(const json::Value& value, const std::string& file, const std::string& path, KeyEdit& edit) {
  try {
    read_value(Node(value, path, file), edit);
    return {};
  } catch (const json::ReadError& e) {
    return Unexpected{e.error};
  }
}

Expected<std::vector<Curve>> read_key_curve(const json::Value& value, const std::string& file, const std::string& path) {
  try {
    return read_curve(Node(value, path, file));
  } catch (const json::ReadError& e) {
    return Unexpected{e.error};
  }
}

json::Value key_value_from_text(std::string_view text, const KeyTimeline& timeline) {
  switch (timeline.kind) {
    case KeyKind::Attachment: {
      if (text == "null") return json::Value{};
      return string_value(text);
    }
    case KeyKind::Inherit: return string_value(text);
    case KeyKind::Sequence: {
      // mode[,index[,delay]]
      const std::vector<std::string_view> items = split(text, ',');
      json::Value v;
      v.type = json::Type::Object;
      const char* keys[] = {"mode", "index", "delay"};
      for (std::size_t i = 0; i < items.size(); ++i) {
        json::Member m;
        m.first = i < 3 ? keys[i] : "item" + std::to_string(i);  // a fourth item is an unknown key
        m.second = i == 0 ? string_value(items[i]) : text_value(items[i]);
        v.members.push_back(std::move(m));
      }
      return v;
    }
    case KeyKind::Curve:
      if (timeline.curve == CurveKind::Rgba || timeline.curve == CurveKind::Rgb) return string_value(text);
      if (timeline.curve == CurveKind::Rgba2 || timeline.curve == CurveKind::Rgb2) {
        json::Value v;
        v.type = json::Type::Array;
        for (std::string_view item : split(text, ',')) v.items.push_back(string_value(item));
        return v;
      }
      break;
    case KeyKind::Channel:
      if (timeline.curve == CurveKind::Ik && timeline.channel >= 3) {
        if (text == "1") return text_value("true");
        if (text == "0") return text_value("false");
        return text_value(text);
      }
      break;
    default: break;
  }
  const std::vector<std::string_view> items = split(text, ',');
  if (items.size() == 1) return text_value(items[0]);
  return array_of(items);
}

json::Value key_curve_from_text(std::string_view text) {
  auto one = [](std::string_view item) {
    const std::vector<std::string_view> numbers = split(item, ',');
    if (numbers.size() == 1) return string_value(item);
    return array_of(numbers);
  };
  const std::vector<std::string_view> parts = split(text, '|');
  if (parts.size() == 1) return one(parts[0]);
  json::Value v;
  v.type = json::Type::Array;
  for (std::string_view part : parts) v.items.push_back(one(part));
  return v;
}

}  // namespace mf::offline
