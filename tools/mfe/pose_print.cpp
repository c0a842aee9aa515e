// Pose printing for the mfe commands that show poses (pose_print.hpp).

#include "pose_print.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace mf::tools {
namespace {

std::string hex(const ColorF& c, bool alpha) {
  auto byte = [](float v) { return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255)); };
  const Rgba8 rgba{byte(c.r), byte(c.g), byte(c.b), byte(c.a)};
  return alpha ? to_hex_rgba(rgba) : to_hex_rgb(rgba);
}

const std::string* attachment_name(const skel::SkeletonData& data, std::int32_t attachment) {
  if (attachment < 0) return nullptr;
  return &data.attachment_names.names[static_cast<std::size_t>(data.attachments[static_cast<std::size_t>(attachment)].name)];
}

}  // namespace

void write_pose_members(json::Writer& w, skel::SkeletonInstance& instance, bool with_vertices, bool with_events) {
  const skel::SkeletonPose& pose = instance.pose();
  const skel::SkeletonData& data = instance.data();
  w.key("bones");
  w.begin_array();
  for (std::size_t b = 0; b < data.bones.size(); ++b) {
    w.begin_object(json::Layout::Inline);
    w.key("name");
    w.string(data.bones.names[b]);
    const float values[] = {pose.a[b], pose.b[b], pose.c[b], pose.d[b], pose.world_x[b], pose.world_y[b]};
    const char* keys[] = {"a", "b", "c", "d", "x", "y"};
    for (int k = 0; k < 6; ++k) {
      w.key(keys[k]);
      w.number(values[k]);
    }
    w.end_object();
  }
  w.end_array();
  w.key("slots");
  w.begin_array();
  for (std::size_t s = 0; s < data.slots.size(); ++s) {
    w.begin_object(json::Layout::Inline);
    w.key("name");
    w.string(data.slots.names[s]);
    w.key("attachment");
    if (const std::string* name = attachment_name(data, pose.attachment[s])) w.string(*name);
    else w.null();
    w.key("color");
    w.string(hex(pose.color[s], true));
    w.key("dark");
    if (data.slots.has_dark[s]) w.string(hex(pose.dark[s], false));
    else w.null();
    w.key("sequenceIndex");
    w.integer(pose.sequence_index[s]);
    w.end_object();
  }
  w.end_array();
  w.key("drawOrder");
  w.begin_array(json::Layout::Inline);
  for (std::uint16_t s : pose.draw_order) w.string(data.slots.names[s]);
  w.end_array();
  if (with_events) {
    w.key("events");
    w.begin_array();
    for (const skel::FiredEvent& e : instance.events()) {
      w.begin_object(json::Layout::Inline);
      w.key("name");
      w.string(data.events[static_cast<std::size_t>(e.event)].name);
      w.key("time");
      w.number(e.time);
      w.key("int");
      w.integer(e.int_value);
      w.key("float");
      w.number(e.float_value);
      w.key("string");
      w.string(*e.string_value);
      w.end_object();
    }
    w.end_array();
  }
  if (with_vertices) {
    w.key("vertices");
    w.begin_array();
    const skel::CpuVertices& cpu = instance.vertices();
    for (const skel::DrawnAttachment& drawn : cpu.drawn()) {
      w.begin_object(json::Layout::Inline);
      w.key("slot");
      w.string(data.slots.names[static_cast<std::size_t>(drawn.slot)]);
      w.key("attachment");
      w.string(*attachment_name(data, drawn.attachment));
      w.key("xy");
      w.begin_array();
      for (std::uint32_t v = 0; v < drawn.vertex_count; ++v) {
        const skel::CpuVertex& vertex = cpu.vertices()[drawn.vertex_start + v];
        w.number(vertex.x);
        w.number(vertex.y);
      }
      w.end_array();
      w.end_object();
    }
    w.end_array();
  }
}

void print_pose_text(skel::SkeletonInstance& instance, bool with_vertices, bool with_events) {
  const skel::SkeletonPose& pose = instance.pose();
  const skel::SkeletonData& data = instance.data();
  std::printf("bones (world: a b c d x y)\n");
  for (std::size_t b = 0; b < data.bones.size(); ++b)
    std::printf("  %-20s %9.4f %9.4f %9.4f %9.4f %10.3f %10.3f\n", data.bones.names[b].c_str(), pose.a[b], pose.b[b],
                pose.c[b], pose.d[b], pose.world_x[b], pose.world_y[b]);
  std::printf("slots (attachment colour dark sequence)\n");
  for (std::size_t s = 0; s < data.slots.size(); ++s) {
    const std::string* name = attachment_name(data, pose.attachment[s]);
    std::printf("  %-20s %-20s %s %s %d\n", data.slots.names[s].c_str(), name ? name->c_str() : "-",
                hex(pose.color[s], true).c_str(), data.slots.has_dark[s] ? hex(pose.dark[s], false).c_str() : "-",
                pose.sequence_index[s]);
  }
  std::printf("draw order:");
  for (std::uint16_t s : pose.draw_order) std::printf(" %s", data.slots.names[s].c_str());
  std::printf("\n");
  if (with_events)
    for (const skel::FiredEvent& e : instance.events())
      std::printf("event %s at %g (int %d, float %g, string \"%s\")\n", data.events[static_cast<std::size_t>(e.event)].name.c_str(),
                e.time, e.int_value, e.float_value, e.string_value->c_str());
  if (with_vertices) {
    const skel::CpuVertices& cpu = instance.vertices();
    for (const skel::DrawnAttachment& drawn : cpu.drawn()) {
      std::printf("vertices %s/%s:", data.slots.names[static_cast<std::size_t>(drawn.slot)].c_str(),
                  attachment_name(data, drawn.attachment)->c_str());
      for (std::uint32_t v = 0; v < drawn.vertex_count; ++v) {
        const skel::CpuVertex& vertex = cpu.vertices()[drawn.vertex_start + v];
        std::printf(" %.3f,%.3f", vertex.x, vertex.y);
      }
      std::printf("\n");
    }
  }
}

}  // namespace mf::tools
