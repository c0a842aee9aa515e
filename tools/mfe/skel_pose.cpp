// mfe skel pose: the pose of a clip at a time, as text or JSON. How tools and tests look at poses.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mf/offline/json_writer.hpp"
#include "mf/offline/skeleton_builder.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/skin_composer.hpp"
#include "runtime_setup.hpp"

namespace mf::tools {
namespace {

struct PoseOptions {
  std::string rig;
  std::string clip;
  float time = 0;
  std::string skins;
  bool vertices = false;
  bool json = false;
};

std::string hex(const skel::ColorF& c, bool alpha) {
  auto byte = [](float v) { return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255)); };
  const Rgba8 rgba{byte(c.r), byte(c.g), byte(c.b), byte(c.a)};
  return alpha ? to_hex_rgba(rgba) : to_hex_rgb(rgba);
}

const std::string* attachment_name(const skel::SkeletonData& data, std::int32_t attachment) {
  if (attachment < 0) return nullptr;
  return &data.attachment_names.names[static_cast<std::size_t>(data.attachments[static_cast<std::size_t>(attachment)].name)];
}

void print_json(skel::SkeletonInstance& instance, bool with_vertices) {
  const skel::SkeletonPose& pose = instance.pose();
  const skel::SkeletonData& data = instance.data();
  json::Writer w;
  w.begin_object();
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
  w.end_object();
  std::fputs(w.finish().c_str(), stdout);
}

void print_text(skel::SkeletonInstance& instance, bool with_vertices) {
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

int run_pose(const PoseOptions& o) {
  auto loaded = load_runtime(o.rig, o.skins);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", loaded.error().to_string().c_str());
    return 1;
  }
  RuntimeSetup& rt = *loaded;
  const int clip = rt.data->find_clip(o.clip);
  if (clip < 0) {
    std::fprintf(stderr, "%s: no clip \"%s\"; the rig has: %s\n", o.rig.c_str(), o.clip.c_str(), clip_list(*rt.data).c_str());
    return 1;
  }
  skel::SkeletonInstance instance(*rt.data);
  rt.apply_skin(instance.pose());
  // Sampled from the setup pose, as a first evaluation from time 0: events in [0, t] fire once.
  const bool loop = rt.data->clip(clip)->loop != skel::LoopMode::None;
  anim::ClipSample sample = skel::loop_sample(*rt.data, clip, 0, o.time, loop);
  sample.first = true;
  sample.previous_time = 0;
  sample.loops = 0;
  instance.update({&sample, 1});
  if (o.json) print_json(instance, o.vertices);
  else print_text(instance, o.vertices);
  return 0;
}

}  // namespace

void add_skel_pose(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<PoseOptions>();
  CLI::App* cmd = skel.add_subcommand("pose", "Print the pose of a clip at a time: bones, slots, draw order, events");
  cmd->add_option("mskel", options->rig, "The rig (.mskel)")->required();
  cmd->add_option("--clip", options->clip, "Clip name")->required();
  cmd->add_option("--t", options->time, "Time in seconds")->required();
  cmd->add_option("--skin", options->skins, "Skins to compose, comma-separated, in order");
  cmd->add_flag("--vertices", options->vertices, "Also print each visible attachment's world vertices");
  cmd->add_flag("--json", options->json, "Print one JSON object");
  cmd->callback([options, &exit_code] { exit_code = run_pose(*options); });
}

}  // namespace mf::tools
