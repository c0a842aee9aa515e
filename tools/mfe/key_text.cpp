#include "key_text.hpp"

#include <algorithm>
#include <cmath>

#include "mf/core/color.hpp"
#include "mf/offline/format/clip_edit.hpp"

namespace mf::tools {
namespace {

using namespace mf::offline;
using json::format_float;

std::uint8_t to_byte(float v) {
  if (!(v > 0)) return 0;
  if (v >= 1) return 255;
  return static_cast<std::uint8_t>(std::lround(v * 255.0f));
}

Rgba8 color_at(std::span<const float> v, std::size_t i, bool alpha) {
  return {to_byte(v[i]), to_byte(v[i + 1]), to_byte(v[i + 2]), alpha ? to_byte(v[i + 3]) : std::uint8_t{255}};
}

bool is_color(CurveKind kind) {
  return kind == CurveKind::Rgba || kind == CurveKind::Rgb || kind == CurveKind::Rgba2 || kind == CurveKind::Rgb2;
}

// The colours of a colour key: one or two hex strings.
std::vector<std::string> colors(CurveKind kind, std::span<const float> v) {
  switch (kind) {
    case CurveKind::Rgba: return {to_hex_rgba(color_at(v, 0, true))};
    case CurveKind::Rgb: return {to_hex_rgb(color_at(v, 0, false))};
    case CurveKind::Rgba2: return {to_hex_rgba(color_at(v, 0, true)), to_hex_rgb(color_at(v, 4, false))};
    case CurveKind::Rgb2: return {to_hex_rgb(color_at(v, 0, false)), to_hex_rgb(color_at(v, 3, false))};
    default: return {};
  }
}

bool shared(std::span<const Curve> curves) {
  return std::all_of(curves.begin(), curves.end(), [&](const Curve& c) { return c == curves[0]; });
}

void write_one_curve(json::Writer& w, const Curve& c) {
  if (c.type == CurveType::Linear) return w.string("linear");
  if (c.type == CurveType::Stepped) return w.string("stepped");
  if (c == kEaseCurve) return w.string("ease");
  w.begin_array(json::Layout::Inline);
  for (float v : {c.cx1, c.cy1, c.cx2, c.cy2}) w.number(v);
  w.end_array();
}

}  // namespace

std::string curve_value_text(CurveKind kind, std::span<const float> values) {
  std::string out;
  if (is_color(kind)) {
    for (const std::string& c : colors(kind, values)) out += (out.empty() ? "" : ",") + c;
    return out;
  }
  for (float v : values) out += (out.empty() ? "" : ",") + format_float(v);
  return out;
}

std::string channel_value_text(CurveKind kind, int channel, float value) {
  if (kind == CurveKind::Ik && channel == 2) return value < 0 ? "-1" : "1";
  if (kind == CurveKind::Ik && channel >= 3) return value != 0 ? "true" : "false";
  return format_float(value);
}

std::string curve_text(const Curve& c) {
  if (c.type == CurveType::Linear) return "linear";
  if (c.type == CurveType::Stepped) return "stepped";
  if (c == kEaseCurve) return "ease";
  return format_float(c.cx1) + "," + format_float(c.cy1) + "," + format_float(c.cx2) + "," + format_float(c.cy2);
}

std::string segment_curve_text(std::span<const Curve> curves) {
  if (curves.empty()) return "linear";
  if (shared(curves)) return curve_text(curves[0]);
  std::string out;
  for (const Curve& c : curves) out += (out.empty() ? "" : "|") + curve_text(c);
  return out;
}

std::string sequence_text(const SequenceKey& key) {
  return std::string(to_string(key.mode)) + "," + std::to_string(key.index) + "," + format_float(key.delay);
}

std::string event_payload_text(const EventKeySource& key) {
  std::string out;
  auto add = [&](const char* name, const std::string& v) { out += (out.empty() ? "" : ",") + std::string(name) + "=" + v; };
  if (key.int_value) add("int", std::to_string(*key.int_value));
  if (key.float_value) add("float", format_float(*key.float_value));
  if (key.string_value) add("string", word(*key.string_value));
  if (key.volume) add("volume", format_float(*key.volume));
  if (key.balance) add("balance", format_float(*key.balance));
  return out;
}

std::string word(const std::string& name) {
  if (name.empty() || name.find_first_of(" =\"[") != std::string::npos) {
    std::string out = "\"";
    for (char c : name) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  }
  return name;
}

void write_curve_value(json::Writer& w, CurveKind kind, std::span<const float> values) {
  if (is_color(kind)) {
    const std::vector<std::string> c = colors(kind, values);
    if (c.size() == 1) return w.string(c[0]);
    w.begin_array(json::Layout::Inline);
    for (const std::string& s : c) w.string(s);
    w.end_array();
    return;
  }
  if (values.size() == 1) return w.number(values[0]);
  w.begin_array(json::Layout::Inline);
  for (float v : values) w.number(v);
  w.end_array();
}

void write_channel_value(json::Writer& w, CurveKind kind, int channel, float value) {
  if (kind == CurveKind::Ik && channel == 2) return w.integer(value < 0 ? -1 : 1);
  if (kind == CurveKind::Ik && channel >= 3) return w.boolean(value != 0);
  w.number(value);
}

void write_segment_curve(json::Writer& w, std::span<const Curve> curves) {
  if (curves.empty()) return w.string("linear");
  if (shared(curves)) return write_one_curve(w, curves[0]);
  w.begin_array(json::Layout::Inline);
  for (const Curve& c : curves) write_one_curve(w, c);
  w.end_array();
}

}  // namespace mf::tools
