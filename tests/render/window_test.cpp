// Presentation to an SDL2 window: the example rig drawn by the SkeletonRenderer, presented through
// the Swapchain, and read back from the X server's copy of the window (XGetImage), so the test sees
// what a person would see. Each test runs its own Xvfb (tests/support/virtual_display.hpp); lavapipe
// presents to it through its X11 surface. Validation is on and any message fails the test.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/render/device.hpp"
#include "mf/render/gpu_memory.hpp"
#include "mf/render/sdl_window.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/render/swapchain.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "render_scene.hpp"
#include "support/virtual_display.hpp"

// X11 last: Xlib defines macros (Status, None, Bool) that clash with names in the headers above.
#include <SDL2/SDL_syswm.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#undef Status

namespace mf::render {
namespace {

constexpr Color kClear{0.2f, 0.25f, 0.3f, 1};
constexpr Color kBorder{1, 0, 1, 1};
constexpr int kTolerance = 2;  // per channel, in 1/255: the X server stores what was presented

// Pumps SDL's events so the window is mapped and its size changes are seen.
void pump(int milliseconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds);
  do {
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  } while (std::chrono::steady_clock::now() < end);
}

class WindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(display.error().empty()) << display.error();
    built = std::make_unique<offline::BuildResult>();
    auto rig = offline::build_rig_file(std::string(MF_EXAMPLES_DIR) + "/mannequin/mannequin.mskel");
    ASSERT_TRUE(rig) << rig.error().to_string();
    *built = std::move(*rig);
  }
  void TearDown() override {
    if (swapchain) (void)swapchain->wait_idle();
    swapchain.reset();
    target.reset();
    renderer.reset();
    memory.reset();
    if (device) {
      for (const auto& message : device->validation_messages()) ADD_FAILURE() << message;
    }
    device.reset();
    window.reset();
  }

  void open(int width, int height, bool resizable) {
    auto w = SdlWindow::create({"window test", width, height, resizable});
    ASSERT_TRUE(w) << w.error().to_string();
    window = std::move(*w);
    DeviceOptions options;
    options.validation = true;
    auto d = Device::create(window->device_options(options));
    ASSERT_TRUE(d) << d.error().to_string();
    device = std::move(*d);
    memory = std::make_unique<GpuMemory>(*device, VkDeviceSize{8} << 20);
    auto r = SkeletonRenderer::create(*device, *memory);
    ASSERT_TRUE(r) << r.error().to_string();
    renderer = std::move(*r);
    auto data = renderer->add_data(*built->data);
    ASSERT_TRUE(data) << data.error().to_string();
    auto i = renderer->add_instance(*data);
    ASSERT_TRUE(i) << i.error().to_string();
    instance = *i;
    pump(50);
    auto s = Swapchain::create(*device, window->drawable_size());
    ASSERT_TRUE(s) << s.error().to_string();
    swapchain = std::move(*s);
  }

  // Draws the rig's walk at 0.3 s into a target of the given size.
  void draw_frame(int width, int height) {
    auto t = RenderTarget::create(*device, *memory, width, height);
    ASSERT_TRUE(t) << t.error().to_string();
    target = std::move(*t);
    const skel::SkeletonData& data = *built->data;
    skeleton = std::make_unique<skel::SkeletonInstance>(data);
    anim::ClipSample sample = skel::loop_sample(data, data.find_clip("walk"), 0, 0.3f);
    sample.first = true;
    skeleton->update({&sample, 1});
    DrawOptions options;
    const float scale = 0.45f * static_cast<float>(height) / 320.0f;
    options.transform = Affine2::translation(static_cast<float>(width) / 2, static_cast<float>(height) * 0.95f) *
                        Affine2::scale(scale, scale);
    ASSERT_TRUE(renderer->begin_frame(*target, {}, kClear));
    ASSERT_TRUE(renderer->draw(instance, skeleton->pose(), options));
    ASSERT_TRUE(renderer->end_frame());
    ASSERT_EQ(renderer->stats().skeletons_drawn, 1u);
  }

  // The window's pixels as the X server holds them (opaque RGBA).
  imaging::Image window_pixels() {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    EXPECT_TRUE(SDL_GetWindowWMInfo(window->handle(), &info)) << SDL_GetError();
    EXPECT_EQ(info.subsystem, SDL_SYSWM_X11);
    Display* x = info.info.x11.display;
    XSync(x, False);
    XWindowAttributes attributes{};
    XGetWindowAttributes(x, info.info.x11.window, &attributes);
    imaging::Image image = imaging::Image::blank(attributes.width, attributes.height);
    XImage* pixels = XGetImage(x, info.info.x11.window, 0, 0, static_cast<unsigned>(attributes.width),
                               static_cast<unsigned>(attributes.height), AllPlanes, ZPixmap);
    if (!pixels) {
      ADD_FAILURE() << "XGetImage failed";
      return image;
    }
    for (int yy = 0; yy < attributes.height; ++yy)
      for (int xx = 0; xx < attributes.width; ++xx) {
        const unsigned long p = XGetPixel(pixels, xx, yy);
        std::uint8_t* out = image.rgba.data() + (static_cast<std::size_t>(yy) * static_cast<std::size_t>(image.width) +
                                                 static_cast<std::size_t>(xx)) * 4;
        out[0] = static_cast<std::uint8_t>((p & pixels->red_mask) >> __builtin_ctzl(pixels->red_mask));
        out[1] = static_cast<std::uint8_t>((p & pixels->green_mask) >> __builtin_ctzl(pixels->green_mask));
        out[2] = static_cast<std::uint8_t>((p & pixels->blue_mask) >> __builtin_ctzl(pixels->blue_mask));
        out[3] = 255;
      }
    XDestroyImage(pixels);
    return image;
  }

  // Presents until the window shows `expected` (presentation may finish a little after the call).
  int presented_difference(const imaging::Image& expected) {
    int difference = 256;
    for (int attempt = 0; attempt < 40 && difference > kTolerance; ++attempt) {
      auto shown = swapchain->present(*target, kBorder);
      EXPECT_TRUE(shown) << shown.error().to_string();
      if (!shown) return 256;
      EXPECT_TRUE(swapchain->wait_idle());
      pump(20);
      difference = testing::max_difference(window_pixels(), expected);
    }
    return difference;
  }

  // The target as the opaque window shows it: its premultiplied colour over black (the clear colour
  // is opaque, so this is the colour itself).
  imaging::Image opaque_target() {
    auto image = target->read_back(RenderTarget::Alpha::Premultiplied);
    EXPECT_TRUE(image) << image.error().to_string();
    for (std::size_t i = 3; i < image->rgba.size(); i += 4) image->rgba[i] = 255;
    return *image;
  }

  mf::testing::VirtualDisplay display;
  std::unique_ptr<offline::BuildResult> built;
  std::unique_ptr<SdlWindow> window;
  std::unique_ptr<Device> device;
  std::unique_ptr<GpuMemory> memory;
  std::unique_ptr<SkeletonRenderer> renderer;
  std::unique_ptr<RenderTarget> target;
  std::unique_ptr<Swapchain> swapchain;
  std::unique_ptr<skel::SkeletonInstance> skeleton;
  InstanceHandle instance;
};

TEST_F(WindowTest, TheWindowShowsTheRenderedFrame) {
  open(160, 200, false);
  ASSERT_FALSE(HasFatalFailure());
  const VkExtent2D extent = swapchain->extent();
  ASSERT_EQ(extent.width, 160u);
  ASSERT_EQ(extent.height, 200u);
  EXPECT_FALSE(swapchain->present_format_is_srgb()) << "lavapipe's X11 surface offers UNORM formats";
  draw_frame(160, 200);
  ASSERT_FALSE(HasFatalFailure());
  const imaging::Image expected = opaque_target();
  // The character is there: some pixels differ from the clear colour.
  int character = 0;
  for (std::size_t i = 0; i < expected.rgba.size(); i += 4)
    if (std::abs(int(expected.rgba[i]) - int(std::lround(kClear.r * 255))) > 8) ++character;
  EXPECT_GT(character, 500);
  EXPECT_LE(presented_difference(expected), kTolerance);
  EXPECT_GE(swapchain->presented(), 1u);
}

TEST_F(WindowTest, ASmallerTargetIsCentredWithABorder) {
  open(200, 200, false);
  ASSERT_FALSE(HasFatalFailure());
  draw_frame(100, 200);  // same height: shown 1:1 in the middle, 50-pixel borders left and right
  ASSERT_FALSE(HasFatalFailure());
  const imaging::Image frame = opaque_target();
  imaging::Image expected = imaging::Image::blank(200, 200);
  for (int y = 0; y < 200; ++y)
    for (int x = 0; x < 200; ++x) {
      std::uint8_t* out = expected.rgba.data() + (static_cast<std::size_t>(y) * 200 + static_cast<std::size_t>(x)) * 4;
      if (x >= 50 && x < 150) {
        const std::uint8_t* in = frame.rgba.data() + (static_cast<std::size_t>(y) * 100 + static_cast<std::size_t>(x - 50)) * 4;
        std::copy(in, in + 4, out);
      } else {
        out[0] = 255, out[1] = 0, out[2] = 255, out[3] = 255;  // kBorder
      }
    }
  EXPECT_LE(presented_difference(expected), kTolerance);
}

TEST_F(WindowTest, ResizingRecreatesTheImagesAtTheNewSize) {
  open(120, 100, true);
  ASSERT_FALSE(HasFatalFailure());
  draw_frame(120, 100);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_LE(presented_difference(opaque_target()), kTolerance);

  SDL_SetWindowSize(window->handle(), 240, 180);
  pump(100);
  const VkExtent2D size = window->drawable_size();
  ASSERT_EQ(size.width, 240u);
  ASSERT_EQ(size.height, 180u);
  ASSERT_TRUE(swapchain->resize(size));
  EXPECT_EQ(swapchain->recreated(), 1u);
  EXPECT_EQ(swapchain->extent().width, 240u);
  EXPECT_EQ(swapchain->extent().height, 180u);
  draw_frame(240, 180);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_LE(presented_difference(opaque_target()), kTolerance);
}

TEST_F(WindowTest, ManyFramesInFlightStayValid) {
  open(128, 128, false);
  ASSERT_FALSE(HasFatalFailure());
  draw_frame(128, 128);
  ASSERT_FALSE(HasFatalFailure());
  const skel::SkeletonData& data = *built->data;
  const int walk = data.find_clip("walk");
  DrawOptions options;
  options.transform = Affine2::translation(64, 120) * Affine2::scale(0.18f, 0.18f);
  for (int frame = 0; frame < 30; ++frame) {
    const float t = static_cast<float>(frame) / 60.0f;
    const anim::ClipSample sample = skel::loop_sample(data, walk, t, t + 1.0f / 60.0f);
    skeleton->update({&sample, 1});
    ASSERT_TRUE(renderer->begin_frame(*target, {}, kClear));
    ASSERT_TRUE(renderer->draw(instance, skeleton->pose(), options));
    ASSERT_TRUE(renderer->end_frame());
    auto shown = swapchain->present(*target, kClear);
    ASSERT_TRUE(shown) << shown.error().to_string();
    EXPECT_EQ(*shown, PresentResult::Presented);
  }
  EXPECT_EQ(swapchain->presented(), 30u);
  EXPECT_TRUE(swapchain->wait_idle());
  EXPECT_LE(presented_difference(opaque_target()), kTolerance) << "the last frame is what the window shows";
}

TEST_F(WindowTest, PresentingBeforeAnyFrameIsAnError) {
  open(64, 64, false);
  ASSERT_FALSE(HasFatalFailure());
  auto t = RenderTarget::create(*device, *memory, 64, 64);
  ASSERT_TRUE(t);
  target = std::move(*t);
  auto shown = swapchain->present(*target);
  ASSERT_FALSE(shown);
  EXPECT_NE(shown.error().to_string().find("holds no finished frame"), std::string::npos) << shown.error().to_string();
}

TEST(Swapchain, AHeadlessDeviceHasNoSurfaceToPresentTo) {
  auto device = Device::create({});
  ASSERT_TRUE(device) << device.error().to_string();
  EXPECT_EQ((*device)->surface(), VK_NULL_HANDLE);
  auto swapchain = Swapchain::create(**device, {64, 64});
  ASSERT_FALSE(swapchain);
  EXPECT_NE(swapchain.error().to_string().find("no window surface"), std::string::npos) << swapchain.error().to_string();
}

TEST(SdlWindowNoDisplay, SaysAWindowNeedsADisplay) {
  // Runs in its own process (CTest starts each test alone), so clearing DISPLAY touches no other test.
  ::unsetenv("DISPLAY");
  ::unsetenv("WAYLAND_DISPLAY");
  ::setenv("SDL_VIDEODRIVER", "x11", 1);
  auto window = SdlWindow::create({"no display", 64, 64, false});
  ASSERT_FALSE(window);
  EXPECT_NE(window.error().to_string().find("needs a display"), std::string::npos) << window.error().to_string();
}

}  // namespace
}  // namespace mf::render
