// mfe skel view: plays a rig's clips in an SDL2 window through the Vulkan skeleton renderer and the
// swapchain, or with --3d on the 3D stage through the forward renderer (view_scene.hpp). Keys switch
// clips, pause and step; --frames makes a fixed-length run (for scripts and tests) and --screenshot
// keeps its last frame.

#include <SDL2/SDL.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "mf/anim/loop_time.hpp"
#include "mf/imaging/png.hpp"
#include "mf/render/sdl_window.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/render/swapchain.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "runtime_setup.hpp"
#include "size_option.hpp"
#include "stage_3d.hpp"
#include "view_scene.hpp"

namespace mf::tools {
namespace {

constexpr const char* kHelp = R"help(Play a rig's clips in a window (SDL2 + Vulkan; needs a display).
Keys: Space pause/resume, Left/Right step 1/60 s while paused, Up/Down previous/next clip (mixed
over 0.2 s), Home restart the clip, Escape or Q quit. The window can be resized; the view fits the
playing clip's bounds. The title shows the clip, its time and the frame rate.
--frames N stops after N frames, each advancing 1/60 s whatever the real time (the same images on
every machine); --screenshot writes the last frame as PNG. Skinning runs in a compute shader unless
--cpu-skinning.
--3d shows the rig on the 3D stage of `mfe skel render --3d` (the same --camera, --light,
--point-light and --hide-slots options): drag with the left mouse button to orbit, the wheel zooms.
Exit codes: 0 ok, 1 a bad rig, clip or skin, 2 usage, no display or no device.)help";

struct ViewOptions {
  std::string rig;
  std::string clip;
  std::string size = "960x640";
  std::string skins;
  int frames = 0;
  std::string screenshot;
  bool cpu_skinning = false;
  bool no_vsync = false;
  bool three_d = false;
  StageOptionText stage;
};

constexpr float kStep = 1.0f / 60;
constexpr float kClipMix = 0.2f;

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "%s\n", message.c_str());
  return code;
}

// Everything the window shows, torn down in the right order: the swapchain, then the scene (its
// device owns the window's surface), then the window.
struct Viewer {
  std::unique_ptr<render::SdlWindow> window;
  std::unique_ptr<ViewScene> scene;
  std::unique_ptr<render::Swapchain> swapchain;

  ~Viewer() {
    if (swapchain) (void)swapchain->wait_idle();
    swapchain.reset();
    scene.reset();
  }

  // Follows the window's drawable size: a target of that size, and swapchain images to match.
  Status follow_window() {
    const VkExtent2D size = window->drawable_size();
    if (swapchain) {
      if (Status s = swapchain->wait_idle(); !s) return s;
    }
    if (Status s = scene->resize_target(std::max(1, static_cast<int>(size.width)), std::max(1, static_cast<int>(size.height))); !s)
      return s;
    return swapchain ? swapchain->resize(size) : Status{};
  }
};

Expected<std::unique_ptr<Viewer>> open_viewer(const RuntimeSetup& rt, const ViewOptions& o, const StageSettings& stage, int width,
                                              int height) {
  auto viewer = std::make_unique<Viewer>();
  auto window = render::SdlWindow::create({"mfe skel view: " + rt.data->name, width, height, true});
  if (!window) return Unexpected{window.error()};
  viewer->window = std::move(*window);
  const VkExtent2D size = viewer->window->drawable_size();
  const int w = std::max(1, static_cast<int>(size.width)), h = std::max(1, static_cast<int>(size.height));
  auto scene = o.three_d ? make_view_scene_3d(rt, viewer->window->device_options(), w, h, stage)
                         : make_view_scene_2d(*rt.data, viewer->window->device_options(), w, h, o.cpu_skinning);
  if (!scene) return Unexpected{scene.error()};
  viewer->scene = std::move(*scene);
  render::SwapchainOptions options;
  options.vsync = !o.no_vsync;
  auto swapchain = render::Swapchain::create(viewer->scene->device(), size, options);
  if (!swapchain) return Unexpected{swapchain.error()};
  viewer->swapchain = std::move(*swapchain);
  return viewer;
}

std::string title_for(const skel::SkeletonData& data, int clip, float time, float fps, bool paused) {
  const skel::ClipData* c = data.clip(clip);
  const float length = c ? c->length : 0;
  const float shown = length > 0 ? anim::loop_position(time, length).time : time;
  char text[256];
  std::snprintf(text, sizeof text, "%s | %s  %.2f / %.2f s | %.0f fps%s", data.name.c_str(), data.clips[static_cast<std::size_t>(clip)].name.c_str(),
                static_cast<double>(shown), static_cast<double>(length), static_cast<double>(fps), paused ? " | paused" : "");
  return text;
}

int run_view(const ViewOptions& o) {
  int width = 0, height = 0;
  if (!parse_size(o.size, 64, 8192, width, height))
    return fail("--size \"" + o.size + "\": expected WIDTHxHEIGHT in pixels, each 64 to 8192 (e.g. 960x640)", 2);

  if (o.three_d && o.cpu_skinning) return fail("--cpu-skinning: the 3D stage skins in a compute shader only", 2);
  auto stage = parse_stage_options(o.stage);
  if (!stage) return fail(stage.error().to_string(), 2);

  auto loaded = load_runtime(o.rig, o.skins);
  if (!loaded) return fail(loaded.error().to_string(), 1);
  RuntimeSetup& rt = *loaded;
  const skel::SkeletonData& data = *rt.data;
  if (data.clips.empty()) return fail(o.rig + ": the rig has no clips to play", 1);
  int clip = o.clip.empty() ? 0 : data.find_clip(o.clip);
  if (clip < 0) return fail(o.rig + ": no clip \"" + o.clip + "\"; the rig has: " + clip_list(data), 1);

  auto opened = open_viewer(rt, o, *stage, width, height);
  if (!opened) return fail("cannot open the viewer: " + opened.error().to_string(), 2);
  Viewer& viewer = **opened;
  ViewScene& scene = *viewer.scene;
  std::printf("viewing %s on %s: Space pause, Left/Right step, Up/Down clip, Home restart, Esc quit%s\n", data.name.c_str(),
              scene.device().name().c_str(), o.three_d ? ", drag orbit, wheel zoom" : "");
  std::fflush(stdout);

  skel::AnimatedSkeleton skeleton(data);
  rt.apply_skin(skeleton.pose());
  scene.prepare_pose(skeleton.pose());
  skeleton.tracks().set_default_mix(kClipMix);
  skeleton.tracks().set_clip(0, clip, true);
  skeleton.update(0);

  auto target = [&scene]() -> render::RenderTarget& { return scene.target(); };
  scene.show_clip(clip);
  bool paused = false, running = true;
  float clip_time = 0, fps = 0, title_age = 1;
  int frame = 0;
  std::uint64_t presented = 0;
  auto last = std::chrono::steady_clock::now();

  auto play = [&](int next) {
    clip = (next + static_cast<int>(data.clips.size())) % static_cast<int>(data.clips.size());
    skeleton.tracks().set_clip(0, clip, true);
    clip_time = 0;
    scene.show_clip(clip);
  };

  while (running) {
    float step = 0;
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
      if (event.type == SDL_QUIT) running = false;
      if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
        if (Status s = viewer.follow_window(); !s) return fail("cannot resize: " + s.error().to_string(), 2);
      }
      if (scene.handle_event(event) || event.type != SDL_KEYDOWN) continue;
      switch (event.key.keysym.sym) {
        case SDLK_ESCAPE:
        case SDLK_q: running = false; break;
        case SDLK_SPACE: paused = !paused; break;
        case SDLK_RIGHT: step += paused ? kStep : 0; break;
        case SDLK_LEFT: step -= paused ? kStep : 0; break;
        case SDLK_UP: play(clip - 1); break;
        case SDLK_DOWN: play(clip + 1); break;
        case SDLK_HOME:
          skeleton.tracks().clear_tracks();
          skeleton.tracks().set_clip(0, clip, true);
          clip_time = 0;
          break;
        default: break;
      }
    }
    if (!running) break;

    const auto now = std::chrono::steady_clock::now();
    const float real = std::chrono::duration<float>(now - last).count();
    last = now;
    if (real > 0) fps = fps == 0 ? 1 / real : fps * 0.9f + 0.1f / real;
    float delta = o.frames > 0 ? kStep : std::min(real, 0.1f);  // a stall never jumps the clip far
    if (paused) delta = step;
    if (delta < 0) {
      // Stepping back: replay the clip from its start to the earlier time (tracks only run forward).
      const float to = std::max(0.0f, clip_time + delta);
      skeleton.tracks().clear_tracks();
      skeleton.tracks().set_clip(0, clip, true);
      skeleton.update(0);
      skeleton.update(to);
      clip_time = to;
    } else {
      skeleton.update(delta);
      clip_time += delta;
    }

    if (Status s = scene.draw(skeleton.pose()); !s) return fail(s.error().to_string(), 2);
    auto shown = viewer.swapchain->present(target(), scene.background());
    if (!shown) return fail(shown.error().to_string(), 2);
    if (*shown == render::PresentResult::Presented) ++presented;
    else SDL_Delay(16);  // minimised: nothing paces the loop, so do not spin

    title_age += real;
    if (title_age > 0.25f) {
      viewer.window->set_title(title_for(data, clip, clip_time, fps, paused));
      title_age = 0;
    }
    if (o.frames > 0 && ++frame >= o.frames) running = false;
  }

  if (!o.screenshot.empty()) {
    auto image = target().read_back();
    if (!image) return fail("cannot read the last frame back: " + image.error().to_string(), 2);
    if (Status s = imaging::write_png(o.screenshot, *image); !s) return fail("cannot write " + o.screenshot + ": " + s.error().to_string(), 2);
    std::printf("wrote %s (%dx%d)\n", o.screenshot.c_str(), image->width, image->height);
  }
  std::printf("presented %llu frames (%s at %.2f s)\n", static_cast<unsigned long long>(presented),
              data.clips[static_cast<std::size_t>(clip)].name.c_str(), static_cast<double>(clip_time));
  return scene.finish(0);
}

}  // namespace

void add_skel_view(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<ViewOptions>();
  CLI::App* cmd = skel.add_subcommand("view", "Play a rig's clips in a window");
  cmd->footer(kHelp);
  cmd->add_option("mskel", options->rig, "The rig (.mskel)")->required();
  cmd->add_option("--clip", options->clip, "Clip to start with (default: the first)");
  cmd->add_option("--size", options->size, "Window size in pixels, WIDTHxHEIGHT")->capture_default_str();
  cmd->add_option("--skin", options->skins, "Skins to compose, comma-separated, in order");
  cmd->add_option("--frames", options->frames, "Stop after this many frames of 1/60 s")->check(CLI::Range(1, 1000000));
  cmd->add_option("--screenshot", options->screenshot, "Write the last frame to this PNG");
  cmd->add_flag("--cpu-skinning", options->cpu_skinning, "Skin on the CPU instead of in a compute shader");
  cmd->add_flag("--no-vsync", options->no_vsync, "Present as fast as possible (mailbox or immediate when offered)");
  cmd->add_flag("--3d", options->three_d, "Show the rig on the 3D stage (ground, sun, shadows); drag to orbit, wheel to zoom");
  cmd->add_option("--camera", options->stage.camera, "--3d: orbit camera YAW,PITCH[,DISTANCE] (degrees, metres)");
  cmd->add_option("--light", options->stage.light, "--3d: the sun's direction X,Y,Z (where the light travels)");
  cmd->add_option("--point-light", options->stage.point_lights, "--3d: a point light at X,Y,Z (metres); repeatable, up to 8")
      ->allow_extra_args(false);
  cmd->add_option("--hide-slots", options->stage.hidden_slots, "--3d: slots to hide, comma-separated")->capture_default_str();
  cmd->callback([options, &exit_code] { exit_code = run_view(*options); });
}

}  // namespace mf::tools
