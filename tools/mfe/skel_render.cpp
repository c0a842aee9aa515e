// mfe skel render: a contact sheet of a clip, rendered headless through the Vulkan skeleton renderer
// (lavapipe when there is no GPU): N frames with onion skins, bones, bounds, ground and origin, and a
// timeline strip with the clip's events; or one frame with --time. With --3d, the frames are drawn by
// the forward 3D renderer on the 3D stage (stage_3d.hpp) instead, laid out in a grid.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "contact_sheet.hpp"
#include "forward_session.hpp"
#include "mf/imaging/image_ops.hpp"
#include "mf/imaging/png.hpp"
#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "render_session.hpp"
#include "runtime_setup.hpp"
#include "size_option.hpp"

namespace mf::tools {
namespace {

constexpr const char* kHelp = R"help(Render a contact sheet of a clip, headless (the GPU, or Mesa's lavapipe on the CPU).
Frames are taken at t = i * length / frames (a loop's end is its start; a clip that does not loop
shows its last pose too: t = i * length / (frames - 1)); --time renders one frame at that time.
Each cell shows the time ("t=0.267") and frame number, the art over faint silhouettes of the frames
before (red) and after (green), the ground (y = 0) and the origin (a cross), the pose bounds (dashed
yellow), the bones (parent to child lines, joints as dots) and a strip with the clip's timeline:
event ticks with their names (the events fired since the previous frame in bright yellow), the
playhead (blue) and the time of every frame. Every frame shares one view that fits the whole clip.
Skinning runs in a compute shader unless --cpu-skinning. The sheet is written as PNG (atomically)
and its path printed.
--3d draws the frames with the 3D forward renderer instead, without overlays, in a grid of up to 4
columns of --size each (one frame: an image of --size; no --clip: the setup pose): the skeleton as a
shaded sprite (0.01 m per pixel) standing on a lit ground plane with its lowest point on the ground,
a sun casting its shadow (--light X,Y,Z: the direction the light travels, default 0.55,-1,-0.6: from
the front-left-top), up to 8 warm point lights (--point-light X,Y,Z, metres, repeatable), ambient
0.35 and a filmic tonemap. The camera orbits the character's middle (--camera YAW,PITCH[,DISTANCE]:
degrees and metres, default 20,15 at a distance that shows the character and its shadow). Slots
named by --hide-slots (e.g. a 2D blob shadow's) are hidden; the stage casts real shadows.
--json prints, instead of the "wrote" line, one JSON object saying what was drawn: "files" (the PNG
written), "rig", "clip" (null for the setup pose), "length", "loop", "mode" ("sheet", "frame" or
"3d"), "size" and "frameSize" ({"width", "height"} in pixels), "frames" (each with its "index", its
time "t" and the "events" it fires), "events" (every event fired in the rendered span: "name",
"t", the "frame" it fired in and its "string" when the key sets one), "skin", "skinning" and "device".
An event fires in a frame when its time is in (the previous frame's time, the frame's time]; the first
frame of a loop takes the wrap from the last frame, the first frame of anything else the events at 0.
Exit codes: 0 ok, 1 a bad rig, clip or skin, 2 usage, no device or a failed write.)help";

struct RenderOptions {
  std::string rig;
  std::string clip;
  int frames = 8;
  std::string out = "sheet.png";
  std::string size = "256x320";
  std::string skins;
  std::optional<float> time;
  bool cpu_skinning = false;
  bool three_d = false;
  bool json = false;
  StageOptionText stage;
};

constexpr int kMaxFrames = 256;
constexpr int kMinSide = 32, kMaxSide = 4096;
constexpr float kPhysicsStep = 1.0f / 60;  // physics rigs are stepped from 0 at this rate

// One posed frame: its instance (the renderer reads its pose) and what the overlays need.
struct PosedFrame {
  float time = 0;
  std::unique_ptr<skel::SkeletonInstance> instance;
  Bounds bounds;
};

// Poses the clip at `time` from a fresh instance, as a first evaluation from 0. A rig with physics
// constraints is stepped from 0 at a fixed rate (the last step shortened), so the same time always
// gives the same pose whatever else is rendered.
// No clip (clip < 0): the setup pose. `stage`, when given, hides its slots first.
PosedFrame pose_at(const RuntimeSetup& rt, int clip, bool loop, float time, const Stage3D* stage = nullptr) {
  PosedFrame f;
  f.time = time;
  f.instance = std::make_unique<skel::SkeletonInstance>(*rt.data);
  rt.apply_skin(f.instance->pose());
  if (stage) stage->prepare_pose(f.instance->pose());
  if (clip < 0) {
    f.instance->update({});
  } else if (rt.data->physics.empty()) {
    anim::ClipSample sample = skel::loop_sample(*rt.data, clip, 0, time, loop);
    sample.first = true;
    sample.previous_time = 0;
    sample.loops = 0;
    f.instance->update({&sample, 1});
  } else {
    float previous = 0;
    bool first = true;
    do {
      const float now = std::min(previous + kPhysicsStep, time);
      anim::ClipSample sample = skel::loop_sample(*rt.data, clip, previous, now, loop);
      sample.first = first;
      skel::FrameContext context;
      context.delta = now - previous;
      f.instance->update({&sample, 1}, context);
      previous = now;
      first = false;
    } while (previous < time);
  }
  f.bounds = f.instance->vertices().bounds();
  return f;
}

void include(Bounds& into, const Bounds& b) {
  if (b.empty()) return;
  if (into.empty()) {
    into = b;
    return;
  }
  into.min_x = std::min(into.min_x, b.min_x);
  into.min_y = std::min(into.min_y, b.min_y);
  into.max_x = std::max(into.max_x, b.max_x);
  into.max_y = std::max(into.max_y, b.max_y);
}

// Per-bone overlay colours from the rig's source (the editor colours), by bone name.
std::vector<Rgba8> bone_colors(const std::string& mskel, const skel::SkeletonData& data) {
  std::vector<Rgba8> colors(data.bones.size(), sheet_colors::kBone);
  auto rig = offline::load_rig(mskel);
  if (!rig.ok()) return colors;
  for (const auto& bone : rig->skeleton.bones) {
    const int index = data.find_bone(bone.name);
    if (index >= 0) colors[static_cast<std::size_t>(index)] = bone.color;
  }
  return colors;
}

// Renders one pose through the view onto a transparent frame-sized image (straight alpha).
Expected<imaging::Image> render_frame(RenderSession& gpu, const skel::SkeletonPose& pose, const SheetView& view, bool cpu_skinning) {
  render::DrawOptions options;
  options.transform = render::Affine2{view.scale, 0, 0, view.scale, view.offset_x, view.offset_y};
  options.cpu_skinning = cpu_skinning;
  if (Status s = gpu.renderer->begin_frame(*gpu.target, render::View{}, render::Color{0, 0, 0, 0}); !s) return Unexpected{s.error()};
  if (Status s = gpu.renderer->draw(gpu.instance, pose, options); !s) return Unexpected{s.error()};
  if (Status s = gpu.renderer->end_frame(); !s) return Unexpected{s.error()};
  return gpu.target->read_back(render::RenderTarget::Alpha::Straight);
}

std::string format_seconds(float t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3fs", static_cast<double>(t));
  return text;
}

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "%s\n", message.c_str());
  return code;
}

// The events each frame fires: those in (previous frame, frame]. The first frame of a loop takes the
// wrap from the last frame (for one frame, from a sheet's step before it); the first frame of anything
// else the events at 0. Indices into the clip's events.
std::vector<std::vector<int>> fired_events(const skel::ClipData& clip, const std::vector<float>& times, bool single,
                                           bool loop, float step) {
  std::vector<std::vector<int>> out(times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    const float t = times[i];
    const float previous = single || i == 0 ? (loop || single ? t - step : -1.0f) : times[i - 1];
    for (std::size_t e = 0; e < clip.events.size(); ++e) {
      const float et = clip.events[e].time;
      const bool wrapped = loop && previous < 0 && et > previous + clip.length && et <= clip.length;
      if ((et > previous && et <= t) || wrapped) out[i].push_back(static_cast<int>(e));
    }
  }
  return out;
}

// What --json reports about a render.
struct RenderReport {
  std::string mode;  // "sheet", "frame", "3d"
  int width = 0, height = 0, frame_width = 0, frame_height = 0;
  std::vector<float> times;
  std::vector<std::vector<int>> fired;  // per frame, indices into the clip's events
  std::string skin, skinning, device;
};

void print_report(const RenderOptions& o, const RuntimeSetup& rt, int clip, const RenderReport& r) {
  const skel::ClipData* data = clip >= 0 ? rt.data->clip(clip) : nullptr;
  json::Writer w;
  w.begin_object();
  w.key("files");
  w.begin_array(json::Layout::Inline);
  w.string(o.out);
  w.end_array();
  w.key("rig");
  w.string(o.rig);
  w.key("clip");
  if (data) w.string(o.clip); else w.null();
  w.key("length");
  w.number(data ? data->length : 0.0f);
  w.key("loop");
  w.string(data ? offline::to_string(data->loop) : "None");
  w.key("mode");
  w.string(r.mode);
  auto size = [&](const char* key, int width, int height) {
    w.key(key);
    w.begin_object(json::Layout::Inline);
    w.key("width");
    w.integer(width);
    w.key("height");
    w.integer(height);
    w.end_object();
  };
  size("size", r.width, r.height);
  size("frameSize", r.frame_width, r.frame_height);
  auto event_name = [&](int e) { return rt.data->events[static_cast<std::size_t>(data->events[static_cast<std::size_t>(e)].event)].name; };
  w.key("frames");
  w.begin_array();
  for (std::size_t i = 0; i < r.times.size(); ++i) {
    w.begin_object(json::Layout::Inline);
    w.key("index");
    w.integer(static_cast<std::int64_t>(i));
    w.key("t");
    w.number(r.times[i]);
    w.key("events");
    w.begin_array(json::Layout::Inline);
    if (i < r.fired.size())
      for (int e : r.fired[i]) w.string(event_name(e));
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("events");
  w.begin_array();
  for (std::size_t i = 0; i < r.fired.size(); ++i)
    for (int e : r.fired[i]) {
      const skel::EventKey& key = data->events[static_cast<std::size_t>(e)];
      w.begin_object(json::Layout::Inline);
      w.key("name");
      w.string(event_name(e));
      w.key("t");
      w.number(key.time);
      w.key("frame");
      w.integer(static_cast<std::int64_t>(i));
      if (key.string_value >= 0) {
        w.key("string");
        w.string(data->strings[static_cast<std::size_t>(key.string_value)]);
      }
      w.end_object();
    }
  w.end_array();
  w.key("skin");
  w.string(r.skin);
  w.key("skinning");
  w.string(r.skinning);
  w.key("device");
  w.string(r.device);
  w.end_object();
  std::fputs(w.finish().c_str(), stdout);
}

// The skins shown: those asked for, else the default skin's name ("none" without skins).
std::string skin_text(const RenderOptions& o, const RuntimeSetup& rt) {
  if (!o.skins.empty()) return o.skins;
  if (rt.data->skins.empty()) return "none";
  const int initial = rt.data->default_skin() >= 0 ? rt.data->default_skin() : 0;
  return rt.data->skins[static_cast<std::size_t>(initial)].name;
}

// --3d: every frame on the 3D stage, in a grid of up to 4 columns of width × height cells.
int render_3d(const RenderOptions& o, const StageSettings& settings, const RuntimeSetup& rt, int clip, bool loop,
              const std::vector<float>& times, float step, int width, int height) {
  std::vector<int> clips;
  if (clip >= 0) clips.push_back(clip);
  auto gpu = ForwardSession::start(*rt.data, {}, width, height, character_bounds(rt, clips, settings), settings);
  if (!gpu) return fail("cannot render: " + gpu.error().to_string(), 2);
  ForwardSession& session = **gpu;
  const int count = static_cast<int>(times.size());
  const int columns = std::min(count, 4), rows = (count + columns - 1) / columns;
  imaging::Image grid = imaging::Image::blank(columns * width, rows * height);
  for (int i = 0; i < count; ++i) {
    const float t = times[static_cast<std::size_t>(i)];
    const PosedFrame posed = pose_at(rt, clip, loop, t, &*session.stage);
    if (Status s = session.draw(posed.instance->pose()); !s) return fail("cannot render " + time_label(t) + ": " + s.error().to_string(), 2);
    auto art = session.target->read_back(render::RenderTarget::Alpha::Straight);
    if (!art) return fail("cannot read " + time_label(t) + " back: " + art.error().to_string(), 2);
    imaging::blit(grid, *art, (i % columns) * width, (i / columns) * height);
  }
  if (Status s = imaging::write_png(o.out, grid); !s) return fail("cannot write " + o.out + ": " + s.error().to_string(), 2);
  if (o.json) {
    RenderReport report{"3d", grid.width, grid.height, width, height, times, {}, skin_text(o, rt), "compute",
                        session.device->name()};
    if (clip >= 0) report.fired = fired_events(*rt.data->clip(clip), times, o.time.has_value(), loop, step);
    print_report(o, rt, clip, report);
    return session.finish(0);
  }
  const std::string what = clip < 0 ? std::string("the setup pose") : o.clip + " from " + format_seconds(times.front()) + " to " +
                                                                             format_seconds(times.back());
  std::printf("wrote %s (%dx%d: %d frame%s of %s, %dx%d each, 3D stage on %s)\n", o.out.c_str(), grid.width, grid.height, count,
              count == 1 ? "" : "s", what.c_str(), width, height, session.device->name().c_str());
  return session.finish(0);
}

int run_render(const RenderOptions& o) {
  int width = 0, height = 0;
  if (!parse_size(o.size, kMinSide, kMaxSide, width, height))
    return fail("--size \"" + o.size + "\": expected WIDTHxHEIGHT in pixels per frame, each " + std::to_string(kMinSide) +
                    " to " + std::to_string(kMaxSide) + " (e.g. 256x320)",
                2);
  if (o.time && !(*o.time >= 0 && std::isfinite(*o.time))) return fail("--time must be zero or more", 2);
  if (o.three_d && o.cpu_skinning) return fail("--cpu-skinning: the 3D stage skins in a compute shader only", 2);
  auto stage = parse_stage_options(o.stage);
  if (!stage) return fail(stage.error().to_string(), 2);

  auto loaded = load_runtime(o.rig, o.skins);
  if (!loaded) return fail(loaded.error().to_string(), 1);
  RuntimeSetup& rt = *loaded;
  if (o.clip.empty() && o.three_d) return render_3d(o, *stage, rt, -1, false, {0.0f}, 0, width, height);
  if (o.clip.empty()) return fail("--clip is required (the clip to render; only --3d renders the setup pose without one)", 2);
  const int clip = rt.data->find_clip(o.clip);
  if (clip < 0) return fail(o.rig + ": no clip \"" + o.clip + "\"; the rig has: " + clip_list(*rt.data), 1);
  const skel::ClipData& clip_data = *rt.data->clip(clip);
  const bool loop = clip_data.loop != skel::LoopMode::None;
  const float length = clip_data.length;

  // The frames shown, and for a single frame its two onion neighbours (a sheet's step apart).
  std::vector<float> times;
  const int frames = o.time ? 1 : o.frames;
  const int spacing = loop || o.frames < 2 ? o.frames : o.frames - 1;
  const float step = length / static_cast<float>(std::max(spacing, 1));
  if (o.time) {
    times.push_back(*o.time);
  } else {
    for (int i = 0; i < frames; ++i) times.push_back(static_cast<float>(i) * step);
  }
  if (o.three_d) return render_3d(o, *stage, rt, clip, loop, times, step, width, height);
  std::vector<float> onion_times;  // single frame only: before, after
  if (o.time && step > 0) {
    float before = *o.time - step;
    if (before < 0) before = loop ? before + length : -1;
    const float after = *o.time + step;
    onion_times = {before, (!loop && after > length) ? -1 : after};
  }

  // Pose every frame first: the view fits the union of their bounds (and the origin, so the ground shows).
  std::vector<PosedFrame> posed;
  Bounds all{0, 0, 0, 0};
  for (float t : times) posed.push_back(pose_at(rt, clip, loop, t));
  std::vector<PosedFrame> onion_posed;
  for (float t : onion_times)
    if (t >= 0) onion_posed.push_back(pose_at(rt, clip, loop, t));
  for (const PosedFrame& f : posed) include(all, f.bounds);
  for (const PosedFrame& f : onion_posed) include(all, f.bounds);
  const SheetLayout layout = layout_sheet(frames, width, height);
  const float margin = 6.0f * static_cast<float>(layout.text_scale) + 0.04f * static_cast<float>(std::min(width, height));
  SheetContent content;
  content.view = fit_view(all, width, height, margin);
  content.length = length;
  for (const skel::EventKey& key : clip_data.events) {
    SheetEvent e{key.time, rt.data->events[static_cast<std::size_t>(key.event)].name};
    if (key.string_value >= 0) e.name += " " + clip_data.strings[static_cast<std::size_t>(key.string_value)];
    content.events.push_back(std::move(e));
  }

  auto gpu = RenderSession::start(*rt.data, {}, width, height);
  if (!gpu) return fail("cannot render: " + gpu.error().to_string(), 2);

  const std::vector<Rgba8> colors = bone_colors(o.rig, *rt.data);
  std::vector<SheetFrame> sheet_frames(posed.size());
  for (std::size_t i = 0; i < posed.size(); ++i) {
    auto art = render_frame(**gpu, posed[i].instance->pose(), content.view, o.cpu_skinning);
    if (!art) return fail("cannot render " + time_label(posed[i].time) + ": " + art.error().to_string(), 2);
    SheetFrame& f = sheet_frames[i];
    f.time = posed[i].time;
    f.art = std::move(*art);
    f.bones = bone_segments(posed[i].instance->pose(), colors);
    f.bounds = posed[i].bounds;
  }
  std::vector<imaging::Image> onion_art;
  for (const PosedFrame& p : onion_posed) {
    auto art = render_frame(**gpu, p.instance->pose(), content.view, o.cpu_skinning);
    if (!art) return fail("cannot render " + time_label(p.time) + ": " + art.error().to_string(), 2);
    onion_art.push_back(std::move(*art));
  }

  // Onion skins and fired events. A sheet's neighbours wrap around for a loop; a single frame's are
  // the extra renders. Events fire in (previous frame, frame]; the first frame of a loop takes the
  // wrap from the last frame, the first frame of anything else the events at 0.
  if (o.time) {
    std::size_t next = 0;
    if (onion_times.size() == 2) {
      if (onion_times[0] >= 0) sheet_frames[0].onion_before = &onion_art[next++];
      if (onion_times[1] >= 0) sheet_frames[0].onion_after = &onion_art[next++];
    }
  } else if (frames > 1) {
    for (int i = 0; i < frames; ++i) {
      const int before = i - 1, after = i + 1;
      if (before >= 0 || loop) sheet_frames[static_cast<std::size_t>(i)].onion_before = &sheet_frames[static_cast<std::size_t>((before + frames) % frames)].art;
      if (after < frames || loop) sheet_frames[static_cast<std::size_t>(i)].onion_after = &sheet_frames[static_cast<std::size_t>(after % frames)].art;
    }
  }
  const std::vector<std::vector<int>> fired = fired_events(clip_data, times, o.time.has_value(), loop, step);
  for (std::size_t i = 0; i < sheet_frames.size(); ++i) sheet_frames[i].fired = fired[i];

  const std::string skins = skin_text(o, rt);
  const std::string path_text = o.cpu_skinning ? "cpu skinning" : "compute skinning";
  // The device's short name ("llvmpipe", not its LLVM version), so the title fits at full size.
  std::string device_name = (*gpu)->device->name();
  device_name = device_name.substr(0, device_name.find(" ("));
  content.title = rt.data->name + " | " + o.clip + " " + format_seconds(length) + (loop ? " loop" : " once") + " | skin " +
                  skins + " | " + path_text + ", " + device_name;
  const imaging::Image sheet = compose_sheet(layout_sheet(frames, width, height, 4, content.title), content, sheet_frames);
  if (Status s = imaging::write_png(o.out, sheet); !s) return fail("cannot write " + o.out + ": " + s.error().to_string(), 2);

  if (o.json) {
    print_report(o, rt, clip,
                 {o.time ? "frame" : "sheet", sheet.width, sheet.height, width, height, times, fired, skins,
                  o.cpu_skinning ? "cpu" : "compute", (*gpu)->device->name()});
    return (*gpu)->finish(0);
  }
  std::printf("wrote %s (%dx%d: %d frame%s of %s from %s to %s, %dx%d each, %s on %s)\n", o.out.c_str(), sheet.width, sheet.height,
              frames, frames == 1 ? "" : "s", o.clip.c_str(), format_seconds(times.front()).c_str(),
              format_seconds(times.back()).c_str(), width, height, path_text.c_str(), (*gpu)->device->name().c_str());
  return (*gpu)->finish(0);
}

}  // namespace

void add_skel_render(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<RenderOptions>();
  CLI::App* cmd = skel.add_subcommand("render", "Render a contact sheet of a clip (PNG), headless");
  cmd->footer(kHelp);
  cmd->add_option("mskel", options->rig, "The rig (.mskel)")->required();
  cmd->add_option("--clip", options->clip, "Clip name (required, except with --3d: the setup pose)");
  cmd->add_option("--frames", options->frames, "Frames on the sheet (1 to 256)")->capture_default_str()
      ->check(CLI::Range(1, kMaxFrames));
  cmd->add_option("--out", options->out, "Output PNG")->capture_default_str();
  cmd->add_option("--size", options->size, "Pixels per frame, WIDTHxHEIGHT")->capture_default_str();
  cmd->add_option("--skin", options->skins, "Skins to compose, comma-separated, in order");
  cmd->add_option("--time", options->time, "Render one frame at this time (seconds)");
  cmd->add_flag("--cpu-skinning", options->cpu_skinning, "Skin on the CPU instead of in a compute shader");
  cmd->add_flag("--json", options->json, "Print what was drawn as one JSON object (files, rig, clip, frames and their "
                                         "times, events fired, sizes) instead of the \"wrote\" line");
  cmd->add_flag("--3d", options->three_d, "Render on the 3D stage (ground, sun, shadows) with the forward renderer");
  cmd->add_option("--camera", options->stage.camera, "--3d: orbit camera YAW,PITCH[,DISTANCE] (degrees, metres)");
  cmd->add_option("--light", options->stage.light, "--3d: the sun's direction X,Y,Z (where the light travels)");
  cmd->add_option("--point-light", options->stage.point_lights, "--3d: a point light at X,Y,Z (metres); repeatable, up to 8")
      ->allow_extra_args(false);
  cmd->add_option("--hide-slots", options->stage.hidden_slots, "--3d: slots to hide, comma-separated")->capture_default_str();
  cmd->callback([options, &exit_code] { exit_code = run_render(*options); });
}

}  // namespace mf::tools
