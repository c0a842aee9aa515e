// arena: the scene host's demo. A crowd of mannequins walks and runs under the locomotion graph in an
// SDL2 window, a hero aims a sword at the mouse, projectiles fly, hitboxes report hits, 2D point
// lights shade the art through its normal maps. README.md beside this file says what it shows.

#include <SDL2/SDL.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "arena_scene.hpp"
#include "arena_window.hpp"
#include "mf/imaging/png.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/graph/graph_compiler.hpp"
#include "mf/scene/draw/canvas_drawer.hpp"
#include "mouse_path.hpp"

namespace {

constexpr const char* kFooter = R"(Mouse: the hero aims at it; left click throws one more ball. Keys: D shows or hides the
outlines (hitboxes green, projectiles orange), Space pauses, Escape or Q quits.
--frames N runs N frames of 1/60 s whatever the real time, with the mouse on a fixed path (the same
images on every run); --screenshot writes the last frame as PNG. At exit one line sums the run up.
Footsteps sound through SDL's audio device (SDL_AUDIODRIVER picks the driver); without one the
arena says so and runs silent.
Exit codes: 0 ok, 1 the mannequin or its graph cannot be loaded, 2 usage, no display or no device.)";

constexpr float kStep = 1.0f / 60;
constexpr mf::render::Color kBackground{0.09f, 0.1f, 0.13f, 1};

struct Options {
  int frames = 0;
  std::string screenshot;
  std::string size = "960x640";
  int crowd = 18;
  std::uint64_t seed = 1;
  std::string mannequin = MF_ARENA_MANNEQUIN_DIR;
  bool mute = false;
};

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "arena: %s\n", message.c_str());
  return code;
}

// "WxH", digits only, each side 64 to 8192.
bool parse_size(const std::string& text, int& width, int& height) {
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string::npos || x == 0 || x + 1 >= text.size() || x > 5 || text.size() - x - 1 > 5) return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (i != x && (text[i] < '0' || text[i] > '9')) return false;
  width = std::stoi(text.substr(0, x));
  height = std::stoi(text.substr(x + 1));
  return width >= 64 && width <= 8192 && height >= 64 && height <= 8192;
}

int run(const Options& o) {
  int width = 0, height = 0;
  if (!parse_size(o.size, width, height)) return fail("--size \"" + o.size + "\": expected WIDTHxHEIGHT in pixels, each 64 to 8192 (e.g. 960x640)", 2);

  const std::string rig = o.mannequin + "/mannequin.mskel", graph_file = o.mannequin + "/locomotion.mgraph";
  auto built = mf::offline::build_rig_file(rig);
  if (!built) return fail(built.error().to_string(), 1);
  auto graph = mf::offline::compile_graph_file(graph_file);
  if (!graph) return fail(graph.error().to_string(), 1);
  std::shared_ptr<const mf::skel::SkeletonData> mannequin = built->data;
  auto shared_graph = std::make_shared<const mf::anim::AnimationGraph>(std::move(*graph));

  // Declared in this order so they go in the reverse one: the drawer's renderer state, then the
  // scene (its nodes hold the data the renderer showed), then the window and its GPU objects.
  auto opened = arena::ArenaWindow::open("arena", width, height);
  if (!opened) return fail("cannot open the window: " + opened.error().to_string(), 2);
  arena::ArenaWindow& window = **opened;
  auto created = arena::ArenaScene::create({width, height, o.crowd, o.seed, o.mannequin, !o.mute}, mannequin, shared_graph);
  if (!created) return fail(rig + ": " + created.error().to_string(), 1);
  arena::ArenaScene& scene = **created;
  if (!scene.audio_note().empty()) std::printf("arena: no sound (%s)\n", scene.audio_note().c_str());
  auto drawer = std::make_unique<mf::scene::CanvasDrawer>(window.renderer());

  std::printf("arena: %d walkers on %s; the mouse aims, click throws, D outlines, Space pauses, Esc quits\n", scene.walker_count(),
              window.device().name().c_str());
  std::fflush(stdout);

  // The canvas is the --size rectangle whatever the window's size now: the view stretches it over the target.
  const mf::render::View view{0, 0, static_cast<float>(width), static_cast<float>(height)};
  bool running = true, paused = false, user_mouse = false;
  float time = 0, fps = 0, title_age = 1;
  int frame = 0;
  auto last = std::chrono::steady_clock::now();
  while (running) {
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
      switch (event.type) {
        case SDL_QUIT: running = false; break;
        case SDL_WINDOWEVENT:
          if (event.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
            if (mf::Status s = window.follow_window(); !s) return fail("cannot resize: " + s.error().to_string(), 2);
          }
          break;
        case SDL_MOUSEMOTION: user_mouse = o.frames == 0; break;
        case SDL_MOUSEBUTTONDOWN:
          if (o.frames == 0 && event.button.button == SDL_BUTTON_LEFT) scene.request_throw();
          break;
        case SDL_KEYDOWN:
          switch (event.key.keysym.sym) {
            case SDLK_ESCAPE:
            case SDLK_q: running = false; break;
            case SDLK_SPACE: paused = !paused; break;
            case SDLK_d: scene.set_outlines(!scene.outlines()); break;
            default: break;
          }
          break;
        default: break;
      }
    }
    if (!running) break;

    const auto now = std::chrono::steady_clock::now();
    const float real = std::chrono::duration<float>(now - last).count();
    last = now;
    if (real > 0) fps = fps == 0 ? 1 / real : fps * 0.9f + 0.1f / real;
    float delta = o.frames > 0 ? kStep : std::min(real, 0.1f);  // a stall never jumps far
    if (paused) delta = 0;
    time += delta;

    mf::Vec2 mouse = arena::simulated_mouse(time, static_cast<float>(width), static_cast<float>(height));
    if (user_mouse) {
      int mx = 0, my = 0, ww = 1, wh = 1;
      SDL_GetMouseState(&mx, &my);
      SDL_GetWindowSize(window.window().handle(), &ww, &wh);
      mouse = {static_cast<float>(mx) * static_cast<float>(width) / static_cast<float>(std::max(ww, 1)),
               static_cast<float>(my) * static_cast<float>(height) / static_cast<float>(std::max(wh, 1))};
    }
    scene.set_mouse(mouse);
    if (mf::Status s = scene.advance(delta); !s) return fail(s.error().to_string(), 2);

    mf::render::SkeletonRenderer& renderer = window.renderer();
    if (mf::Status s = renderer.begin_frame(window.target(), view, kBackground, scene.lights(), scene.ambient()); !s)
      return fail(s.error().to_string(), 2);
    if (mf::Status s = drawer->draw(scene.tree().root()); !s) return fail(s.error().to_string(), 2);
    if (mf::Status s = renderer.end_frame(); !s) return fail(s.error().to_string(), 2);
    auto shown = window.swapchain().present(window.target(), kBackground);
    if (!shown) return fail(shown.error().to_string(), 2);
    if (*shown != mf::render::PresentResult::Presented) SDL_Delay(16);  // minimised: nothing paces the loop

    title_age += real;
    if (title_age > 0.25f) {
      char title[160];
      std::snprintf(title, sizeof title, "arena | %d walkers | %llu hits | %.0f fps%s", scene.walker_count(),
                    static_cast<unsigned long long>(scene.stats().hits), static_cast<double>(fps), paused ? " | paused" : "");
      window.window().set_title(title);
      title_age = 0;
    }
    ++frame;
    if (o.frames > 0 && frame >= o.frames) running = false;
  }

  if (!o.screenshot.empty()) {
    auto image = window.target().read_back();
    if (!image) return fail("cannot read the last frame back: " + image.error().to_string(), 2);
    if (mf::Status s = mf::imaging::write_png(o.screenshot, *image); !s) return fail("cannot write " + o.screenshot + ": " + s.error().to_string(), 2);
  }
  std::printf("arena: %d frames, %d walkers, %llu hits, %llu projectiles, %llu footsteps, %llu sounds\n", frame,
              scene.walker_count(), static_cast<unsigned long long>(scene.stats().hits), static_cast<unsigned long long>(scene.thrown()),
              static_cast<unsigned long long>(scene.stats().footsteps), static_cast<unsigned long long>(scene.sounds_played()));

  drawer.reset();
  created->reset();
  const auto messages = window.validation_messages();
  for (const std::string& m : messages) std::fprintf(stderr, "vulkan %s\n", m.c_str());
  return messages.empty() ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"arena: a crowd of mannequins on the scene host, in a window (SDL2 + Vulkan; needs a display)"};
  app.footer(kFooter);
  Options o;
  app.add_option("--frames", o.frames, "Stop after this many frames of 1/60 s")->check(CLI::Range(1, 1000000));
  app.add_option("--screenshot", o.screenshot, "Write the last frame to this PNG");
  app.add_option("--size", o.size, "Window (and canvas) size in pixels, WIDTHxHEIGHT")->capture_default_str();
  app.add_option("--crowd", o.crowd, "Number of walkers")->check(CLI::Range(1, 64))->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the crowd's places, paces and the side throws")->capture_default_str();
  app.add_option("--mannequin", o.mannequin, "Folder with mannequin.mskel and locomotion.mgraph")->capture_default_str();
  app.add_flag("--mute", o.mute, "Open no audio device (footsteps are still counted)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  const int code = run(o);
  std::fflush(stdout);
  return code;
}
