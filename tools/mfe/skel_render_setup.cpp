// mfe skel render-setup: the rig's setup pose as plain art (no overlays), one rig pixel per image
// pixel unless --scale says otherwise, with the rig's origin at a chosen pixel. Made to be laid over
// the art the rig came from: an imported PSD's canvas, with the origin where the import put it.

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "mf/imaging/png.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "render_session.hpp"
#include "runtime_setup.hpp"
#include "size_option.hpp"

namespace mf::tools {
namespace {

constexpr const char* kHelp = R"help(Render the rig's setup pose (skins applied, constraints solved) headless as plain art on a
transparent image with straight alpha: no bones, bounds or labels. The rig's origin lands on the
pixel position --origin (default: the bottom centre of the image, where an art import puts the
canvas's origin), and one rig unit is --scale pixels. Exit codes: 0 ok, 1 a bad rig or skin, 2 usage,
no device or a failed write.)help";

constexpr int kMinSide = 1, kMaxSide = 8192;

struct RenderSetupOptions {
  std::string rig;
  std::string out = "setup.png";
  std::string size = "256x256";
  std::string origin;
  float scale = 1;
  std::string skins;
  bool cpu_skinning = false;
};

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "%s\n", message.c_str());
  return code;
}

// "X,Y" in pixels, each finite.
bool parse_origin(const std::string& text, float& x, float& y) {
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos) return false;
  try {
    std::size_t used = 0;
    x = std::stof(text.substr(0, comma), &used);
    if (used != comma) return false;
    const std::string rest = text.substr(comma + 1);
    y = std::stof(rest, &used);
    if (used != rest.size()) return false;
  } catch (const std::exception&) {
    return false;
  }
  return std::isfinite(x) && std::isfinite(y);
}

int run_render_setup(const RenderSetupOptions& o) {
  int width = 0, height = 0;
  if (!parse_size(o.size, kMinSide, kMaxSide, width, height))
    return fail("--size \"" + o.size + "\": expected WIDTHxHEIGHT in pixels, each " + std::to_string(kMinSide) + " to " +
                    std::to_string(kMaxSide) + " (e.g. 256x320)",
                2);
  float origin_x = static_cast<float>(width) * 0.5f, origin_y = static_cast<float>(height);
  if (!o.origin.empty() && !parse_origin(o.origin, origin_x, origin_y))
    return fail("--origin \"" + o.origin + "\": expected X,Y in pixels (e.g. 64,150)", 2);
  if (!(o.scale > 0 && std::isfinite(o.scale))) return fail("--scale must be more than zero", 2);

  auto loaded = load_runtime(o.rig, o.skins);
  if (!loaded) return fail(loaded.error().to_string(), 1);
  RuntimeSetup& rt = *loaded;
  skel::SkeletonInstance instance(*rt.data);
  rt.apply_skin(instance.pose());
  instance.update({});

  auto gpu = RenderSession::start(*rt.data, {}, width, height);
  if (!gpu) return fail("cannot render: " + gpu.error().to_string(), 2);
  render::DrawOptions options;
  options.transform = render::Affine2{o.scale, 0, 0, o.scale, origin_x, origin_y};
  options.cpu_skinning = o.cpu_skinning;
  RenderSession& session = **gpu;
  if (Status s = session.renderer->begin_frame(*session.target, render::View{}, render::Color{0, 0, 0, 0}); !s)
    return fail("cannot render: " + s.error().to_string(), 2);
  if (Status s = session.renderer->draw(session.instance, instance.pose(), options); !s)
    return fail("cannot render: " + s.error().to_string(), 2);
  if (Status s = session.renderer->end_frame(); !s) return fail("cannot render: " + s.error().to_string(), 2);
  auto art = session.target->read_back(render::RenderTarget::Alpha::Straight);
  if (!art) return fail("cannot read the frame back: " + art.error().to_string(), 2);
  if (Status s = imaging::write_png(o.out, *art); !s) return fail("cannot write " + o.out + ": " + s.error().to_string(), 2);

  std::printf("wrote %s (%dx%d, setup pose, origin at %g,%g, scale %g, on %s)\n", o.out.c_str(), width, height,
              static_cast<double>(origin_x), static_cast<double>(origin_y), static_cast<double>(o.scale),
              session.device->name().c_str());
  return session.finish(0);
}

}  // namespace

void add_skel_render_setup(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<RenderSetupOptions>();
  CLI::App* cmd = skel.add_subcommand("render-setup", "Render the setup pose as plain art (PNG), headless");
  cmd->footer(kHelp);
  cmd->add_option("mskel", options->rig, "The rig (.mskel)")->required();
  cmd->add_option("--out", options->out, "Output PNG")->capture_default_str();
  cmd->add_option("--size", options->size, "Image size, WIDTHxHEIGHT")->capture_default_str();
  cmd->add_option("--origin", options->origin, "Pixel of the rig's origin, X,Y (default: the bottom centre)");
  cmd->add_option("--scale", options->scale, "Pixels per rig unit")->capture_default_str();
  cmd->add_option("--skin", options->skins, "Skins to compose, comma-separated, in order");
  cmd->add_flag("--cpu-skinning", options->cpu_skinning, "Skin on the CPU instead of in a compute shader");
  cmd->callback([options, &exit_code] { exit_code = run_render_setup(*options); });
}

}  // namespace mf::tools
