#include "editor_app.hpp"

#include <SDL2/SDL.h>
#include <imgui.h>
#include <backends/imgui_impl_sdl.h>
#include <backends/imgui_impl_vulkan.h>

#include <cstdio>
#include <memory>
#include <optional>

#include "editor_gpu.hpp"
#include "editor_state.hpp"
#include "event_mouse.hpp"
#include "mf/imaging/png.hpp"
#include "panel_layout.hpp"
#include "panels.hpp"
#include "script_runner.hpp"

namespace mf::editor {
namespace {

constexpr render::Color kBackground{0.16f, 0.17f, 0.2f, 1};
// Frames drawn after the last event before the loop sleeps: ImGui settles hover and active states a
// frame after the input that changed them.
constexpr int kSettleFrames = 3;
// The longest sleep between checks while idle.
constexpr int kIdleWaitMs = 1000;

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "%s\n", message.c_str());
  return code;
}

// ImGui's context and its SDL2 backend, ended in the right order (the Vulkan side is EditorGpu's).
struct ImguiContext {
  explicit ImguiContext(SDL_Window* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the layout is fixed: nothing to remember
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 0;
    // Panels cover the rig the renderer drew under them: they must be opaque.
    style.Colors[ImGuiCol_WindowBg].w = 1;
    ImGui_ImplSDL2_InitForVulkan(window);
  }
  ~ImguiContext() {
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  }
};

Status write_screenshot(render::RenderTarget& target, const std::string& path) {
  // The stored bytes: premultiplied over an opaque background, i.e. the composed colours. The UI's
  // blending leaves alpha meaningless, and the window shows the frame opaque.
  auto image = target.read_back(render::RenderTarget::Alpha::Premultiplied);
  if (!image) return Unexpected{image.error()};
  for (std::size_t i = 3; i < image->rgba.size(); i += 4) image->rgba[i] = 255;
  if (Status s = imaging::write_png(path, *image); !s) return s;
  std::printf("wrote %s (%dx%d)\n", path.c_str(), image->width, image->height);
  std::fflush(stdout);
  return {};
}

void build_ui(EditorState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  state.registry.begin_frame();
  if (!io.WantTextInput && ImGui::IsKeyPressed(SDL_SCANCODE_F, false)) state.viewport.frame_requested = true;
  const PanelLayout layout = layout_panels({io.DisplaySize.x, io.DisplaySize.y});
  hierarchy_panel(state, layout.hierarchy);
  viewport_panel(state, layout.viewport);
  properties_panel(state, layout.properties);
  output_panel(state, layout.output);
  state.registry.end_frame();
}

Status draw_frame(EditorGpu& gpu, EditorState& state) {
  const ImVec2 fb = ImGui::GetIO().DisplayFramebufferScale;
  if (Status s = gpu.renderer->begin_frame(*gpu.target, {}, kBackground); !s) return s;
  if (gpu.has_instance && state.rig.has_pose()) {
    // Rig → window units through the view, then → pixels of the drawable.
    const RigView& view = state.viewport.view;
    render::DrawOptions draw;
    draw.transform = {view.scale() * fb.x, 0, 0, view.scale() * fb.y, view.origin().x * fb.x, view.origin().y * fb.y};
    if (Status s = gpu.renderer->draw(gpu.instance, *state.rig.pose(), draw); !s) return s;
  }
  if (Status s = gpu.renderer->end_frame(); !s) return s;
  if (Status s = gpu.ui->draw(ImGui::GetDrawData(), *gpu.target); !s) return s;
  auto shown = gpu.swapchain->present(*gpu.target, kBackground);
  if (!shown) return Unexpected{shown.error()};
  return {};
}

}  // namespace

int run_editor(const EditorOptions& o) {
  EditorState state;
  if (!o.rig.empty()) {
    Expected<std::string> path = resolve_rig_path(o.rig);
    if (!path) return fail(path.error().to_string(), 2);
    state.rig = open_rig(*path);
    if (state.rig.source) state.outline = RigOutline::of(state.rig.source->skeleton);
    for (const offline::Finding& f : state.rig.findings)
      std::printf("%s: %s\n", f.severity == offline::Severity::Error ? "error" : "warning", f.error.to_string().c_str());
  }
  std::optional<ScriptRunner> runner;
  std::vector<Action> actions;
  if (!o.script.empty()) {
    auto read = read_script(o.script);
    if (!read) return fail(read.error().to_string(), 2);
    actions = std::move(*read);
  }

  const std::string title = "mfe-editor" + (state.rig.path.empty() ? std::string() : ": " + state.rig.path);
  auto opened = EditorGpu::open(title, o.width, o.height, o.vsync, state.rig.data.get());
  if (!opened) return fail("cannot open the editor's window: " + opened.error().to_string(), 2);
  EditorGpu& gpu = **opened;
  int exit_code = 0;
  {
    ImguiContext imgui(gpu.window->handle());
    if (Status s = gpu.start_ui(); !s) return fail("cannot start the UI: " + s.error().to_string(), 2);
    if (!o.script.empty()) runner.emplace(std::move(actions), gpu.window->id());
    std::printf("editing %s on %s\n", state.rig.path.empty() ? "(no rig)" : state.rig.path.c_str(), gpu.device->name().c_str());
    std::fflush(stdout);

    EventMouse mouse;
    if (runner) mouse.only_from(kScriptMouseId);
    bool running = true;
    int settle = kSettleFrames, frames_drawn = 0;
    const auto handle = [&](const SDL_Event& e) {
      // While a script plays, the real wheel is the script's too: ImGui's backend would count both.
      const bool foreign_wheel = runner && !runner->finished() && e.type == SDL_MOUSEWHEEL && e.wheel.which != kScriptMouseId;
      if (!foreign_wheel) ImGui_ImplSDL2_ProcessEvent(&e);
      mouse.handle(e);
      if (e.type == SDL_QUIT) running = false;
      if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
        if (Status s = gpu.follow_window(); !s) {
          exit_code = fail("cannot resize: " + s.error().to_string(), 2);
          running = false;
        }
      }
      settle = kSettleFrames;
    };

    while (running) {
      FrameRequests requests;
      const bool scripted = runner && !runner->finished();
      if (runner && !scripted) mouse.only_from(std::nullopt);  // the script is done: the user's mouse again
      // The script starts once a frame has laid out the panels and fitted the view.
      if (scripted && frames_drawn > 0) {
        if (Status s = runner->step(state, requests); !s) {
          exit_code = fail(s.error().to_string(), 1);
          break;
        }
      }
      SDL_Event event;
      if (!scripted && o.frames == 0 && settle <= 0) {
        // Idle: sleep until something happens.
        if (!SDL_WaitEventTimeout(&event, kIdleWaitMs)) continue;
        handle(event);
      }
      while (SDL_PollEvent(&event)) handle(event);
      if (!running) break;

      ImGui_ImplVulkan_NewFrame();
      ImGui_ImplSDL2_NewFrame();
      mouse.apply(ImGui::GetIO());
      ImGui::NewFrame();
      build_ui(state);
      ImGui::Render();
      if (Status s = draw_frame(gpu, state); !s) {
        exit_code = fail(s.error().to_string(), 2);
        break;
      }
      if (!requests.screenshot.empty()) {
        if (Status s = write_screenshot(*gpu.target, requests.screenshot); !s) {
          exit_code = fail("cannot write the screenshot " + requests.screenshot + ": " + s.error().to_string(), 2);
          break;
        }
      }
      if (requests.quit) running = false;
      --settle;
      ++frames_drawn;
      if (o.frames > 0 && frames_drawn >= o.frames) running = false;
    }
    if (Status s = gpu.wait_idle(); !s && exit_code == 0) exit_code = fail(s.error().to_string(), 2);
    gpu.ui.reset();  // the Vulkan backend ends before ImGui's context
  }
  const auto messages = gpu.device->validation_messages();
  for (const std::string& m : messages) std::fprintf(stderr, "vulkan %s\n", m.c_str());
  if (!messages.empty() && exit_code == 0) exit_code = 2;
  return exit_code;
}

}  // namespace mf::editor
