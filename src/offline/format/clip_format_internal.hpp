#pragma once
// Reading and writing of single `.manim` timelines, shared by clip_format.cpp (the document, its
// sections and the checks against a skeleton) and clip_format_timelines.cpp (one timeline's arrays).
// The readers throw json::ReadError; the writers emit one timeline as an inline object.

#include <string>
#include <string_view>

#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/json/json_reader.hpp"
#include "mf/offline/json/json_writer.hpp"

namespace mf::offline::clip_io {

// The member `key` of an object node that the reader has already accepted; fails when it is missing.
json::Node member(const json::Node& object, std::string_view key);

CurveTimeline read_curve_timeline(const json::Node& node, const CurveLayout& layout, const std::string& target);
InheritTimeline read_inherit_timeline(const json::Node& node, const std::string& bone);
AttachmentTimeline read_attachment_timeline(const json::Node& node, const std::string& slot);
SequenceTimeline read_sequence_timeline(const json::Node& node, const std::string& slot);
PhysicsResetTimeline read_physics_reset_timeline(const json::Node& node, const std::string& constraint);
DeformTimeline read_deform_timeline(const json::Node& node, const std::string& skin, const std::string& slot,
                                    const std::string& attachment);
DrawOrderTimeline read_draw_order_timeline(const json::Node& node);
EventTimeline read_event_timeline(const json::Node& node);

// Each writes the value of a key the caller has already written.
void write_curve_timeline(json::Writer& w, const CurveTimeline& timeline);
void write_inherit_timeline(json::Writer& w, const InheritTimeline& timeline);
void write_attachment_timeline(json::Writer& w, const AttachmentTimeline& timeline);
void write_sequence_timeline(json::Writer& w, const SequenceTimeline& timeline);
void write_physics_reset_timeline(json::Writer& w, const PhysicsResetTimeline& timeline);
void write_deform_timeline(json::Writer& w, const DeformTimeline& timeline);
void write_draw_order_timeline(json::Writer& w, const DrawOrderTimeline& timeline);
void write_event_timeline(json::Writer& w, const EventTimeline& timeline);

}  // namespace mf::offline::clip_io
