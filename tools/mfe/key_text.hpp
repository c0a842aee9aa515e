#pragma once
// Key values and curves written in the syntax `mfe skel key` reads (--v, --curve), so that what
// `mfe skel describe --clip` prints can be typed back, and their JSON forms as --keys reads them.

#include <span>
#include <string>

#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/json/json_writer.hpp"

namespace mf::tools {

// One key of a numeric timeline with a "v" array: "35", "10,-4", "#ff8800ff", "#ff8800ff,#202020".
std::string curve_value_text(offline::CurveKind kind, std::span<const float> values);
// One value of a constraint channel: "0.5", "-1" (bend), "true" (compress, stretch).
std::string channel_value_text(offline::CurveKind kind, int channel, float value);
// A curve: "linear", "stepped", "ease" or "cx1,cy1,cx2,cy2".
std::string curve_text(const offline::Curve& curve);
// A segment's curves, one per interpolated component: one curve when they are equal, else "a|b|...".
std::string segment_curve_text(std::span<const offline::Curve> curves);
std::string sequence_text(const offline::SequenceKey& key);  // "loop,0,0.1"
std::string event_payload_text(const offline::EventKeySource& key);  // "int=1,volume=0.5"; empty without overrides
// A name as one word: quoted ("a b") when it holds a space, '=', '"' or '[', or is empty.
std::string word(const std::string& name);

// The same values as JSON, as a --keys "v" and "curve" hold them.
void write_curve_value(json::Writer& w, offline::CurveKind kind, std::span<const float> values);
void write_channel_value(json::Writer& w, offline::CurveKind kind, int channel, float value);
void write_segment_curve(json::Writer& w, std::span<const offline::Curve> curves);

}  // namespace mf::tools
