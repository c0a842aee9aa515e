// mfe skel view: plays a rig's clips in an SDL2 window through the Vulkan skeleton renderer and the
// swapchain. Keys switch clips, pause and step; --frames makes a fixed-length run (for scripts and
// tests) and --screenshot keeps its last frame.

#include <SDL2/SDL.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "contact_sheet.hpp"
#include "mf/anim/loop_time.hpp"
#include "mf/imaging/png.hpp"
#include "mf/render/sdl_window.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/render/swapchain.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "render_session.hpp"
#include "runtime_setup.hpp"
#include "size_option.hpp"

namespace mf::tools {
namespace {

constexpr const char* kHelp = R"help(Play a rig's clips in a window (SDL2 + Vulkan; needs a display).
Keys: Space pause/resume, Left/Right step 1/60 s while paused, Up/Down previous/next clip (mixed
over 0.2 s), Home restart the clip, Escape or Q quit. The window can be resized; the view fits the
playing clip's bounds. The title shows the clip, its time and the frame rate.
--frames N stops after N frames, each advancing 1/60 s whatever the real time (the same images on
every machine); --screenshot writes the last frame as PNG. Skinning runs in a compute shader unless
--cpu-skinning. Exit codes: 0 ok, 1 a bad rig, clip or skin, 2 usage, no display or no device.)help";

struct ViewOptions {
  std::string rig;
  std::string clip;
  std::string size = "960x640";
  std::string skins;
  int frames = 0;
  std::string screenshot;
  bool cpu_skinning = false;
  bool no_vsync = false;
};

constexpr float kStep = 1.0f / 60;
constexpr float kClipMix = 0.2f;
constexpr render::Color kBackground{0.16f, 0.17f, 0.2f, 1};

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "%s\n", message.c_str());
  return code;
}

// Everything the window shows, torn down in the right order: the swapchain, then the session (its
// device owns the window's surface), then the window.
struct Viewer {
  std::unique_ptr<render::SdlWindow> window;
  std::unique_ptr<RenderSession> gpu;
  std::unique_ptr<render::Swapchain> swapchain;

  ~Viewer() {
    if (swapchain) (void)swapchain->wait_idle();
    swapchain.reset();
    gpu.reset();
  }

  // Follows the window's drawable size: a target of that size, and swapchain images to match.
  Status follow_window() {
    const VkExtent2D size = window->drawable_size();
    if (swapchain) {
      if (Status s = swapchain->wait_idle(); !s) return s;
    }
    if (Status s = gpu->resize_target(std::max(1, static_cast<int>(size.width)), std::max(1, static_cast<int>(size.height))); !s)
      return s;
    return swapchain ? swapchain->resize(size) : Status{};
  }
};

Expected<std::unique_ptr<Viewer>> open_viewer(const skel::SkeletonData& data, const std::string& title, int width, int height,
                                              bool vsync) {
  auto viewer = std::make_unique<Viewer>();
  auto window = render::SdlWindow::create({title, width, height, true});
  if (!window) return Unexpected{window.error()};
  viewer->window = std::move(*window);
  const VkExtent2D size = viewer->window->drawable_size();
  auto gpu = RenderSession::start(data, viewer->window->device_options(), std::max(1, static_cast<int>(size.width)),
                                  std::max(1, static_cast<int>(size.height)));
  if (!gpu) return Unexpected{gpu.error()};
  viewer->gpu = std::move(*gpu);
  render::SwapchainOptions options;
  options.vsync = vsync;
  auto swapchain = render::Swapchain::create(*viewer->gpu->device, size, options);
  if (!swapchain) return Unexpected{swapchain.error()};
  viewer->swapchain = std::move(*swapchain);
  return viewer;
}

// Skeleton space → window pixels: the clip's conservative bounds and the origin, fitted with a margin.
render::Affine2 fit_clip(const skel::SkeletonData& data, int clip, int width, int height) {
  Bounds bounds = data.clip(clip) ? data.clip(clip)->bounds : Bounds{};
  if (bounds.empty()) bounds = {-1, -1, 1, 1};
  bounds.min_x = std::min(bounds.min_x, 0.0f);
  bounds.max_x = std::max(bounds.max_x, 0.0f);
  bounds.min_y = std::min(bounds.min_y, 0.0f);
  bounds.max_y = std::max(bounds.max_y, 0.0f);
  const SheetView view = fit_view(bounds, width, height, 0.06f * static_cast<float>(std::min(width, height)));
  return {view.scale, 0, 0, view.scale, view.offset_x, view.offset_y};
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

  auto loaded = load_runtime(o.rig, o.skins);
  if (!loaded) return fail(loaded.error().to_string(), 1);
  RuntimeSetup& rt = *loaded;
  const skel::SkeletonData& data = *rt.data;
  if (data.clips.empty()) return fail(o.rig + ": the rig has no clips to play", 1);
  int clip = o.clip.empty() ? 0 : data.find_clip(o.clip);
  if (clip < 0) return fail(o.rig + ": no clip \"" + o.clip + "\"; the rig has: " + clip_list(data), 1);

  skel::AnimatedSkeleton skeleton(data);
  rt.apply_skin(skeleton.pose());
  skeleton.tracks().set_default_mix(kClipMix);
  skeleton.tracks().set_clip(0, clip, true);
  skeleton.update(0);

  auto opened = open_viewer(data, "mfe skel view: " + data.name, width, height, !o.no_vsync);
  if (!opened) return fail("cannot open the viewer: " + opened.error().to_string(), 2);
  Viewer& viewer = **opened;
  std::printf("viewing %s on %s: Space pause, Left/Right step, Up/Down clip, Home restart, Esc quit\n", data.name.c_str(),
              viewer.gpu->device->name().c_str());
  std::fflush(stdout);

  auto target = [&viewer]() -> render::RenderTarget& { return *viewer.gpu->target; };
  render::SkeletonRenderer& renderer = *viewer.gpu->renderer;
  render::DrawOptions draw;
  draw.cpu_skinning = o.cpu_skinning;
  draw.transform = fit_clip(data, clip, target().width(), target().height());
  bool paused = false, running = true;
  float clip_time = 0, fps = 0, title_age = 1;
  int frame = 0;
  std::uint64_t presented = 0;
  auto last = std::chrono::steady_clock::now();

  auto play = [&](int next) {
    clip = (next + static_cast<int>(data.clips.size())) % static_cast<int>(data.clips.size());
    skeleton.tracks().set_clip(0, clip, true);
    clip_time = 0;
    draw.transform = fit_clip(data, clip, target().width(), target().height());
  };

  while (running) {
    float step = 0;
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
      if (event.type == SDL_QUIT) running = false;
      if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
        if (Status s = viewer.follow_window(); !s) return fail("cannot resize: " + s.error().to_string(), 2);
        draw.transform = fit_clip(data, clip, target().width(), target().height());
      }
      if (event.type != SDL_KEYDOWN) continue;
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

    if (Status s = renderer.begin_frame(target(), {}, kBackground); !s) return fail(s.error().to_string(), 2);
    if (Status s = renderer.draw(viewer.gpu->instance, skeleton.pose(), draw); !s) return fail(s.error().to_string(), 2);
    if (Status s = renderer.end_frame(); !s) return fail(s.error().to_string(), 2);
    auto shown = viewer.swapchain->present(target(), kBackground);
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
  return viewer.gpu->finish(0);
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
  cmd->callback([options, &exit_code] { exit_code = run_view(*options); });
}

}  // namespace mf::tools
