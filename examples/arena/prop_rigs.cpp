#include "prop_rigs.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "mf/offline/build/skeleton_builder.hpp"

namespace arena {
namespace {

using mf::Rgba8;
namespace offline = mf::offline;

struct Picture {
  int width = 0, height = 0;
  std::vector<Rgba8> pixels;  // straight alpha, rows top to bottom
};

// Paints each page of `data` from the pictures of its regions: a page pixel takes the colour of the
// nearest pixel of the region whose rectangle holds it or lies nearest, so the atlas padding repeats
// the edges (what the file build's extrusion does) and filtering never reads another image.
void paint_pages(mf::skel::SkeletonData& data, const std::vector<std::pair<const mf::skel::Region*, const Picture*>>& regions) {
  for (std::size_t p = 0; p < data.pages.size(); ++p) {
    mf::skel::Page& page = data.pages[p];
    page.encoding = mf::skel::PageEncoding::Rgba8;
    page.bytes.assign(static_cast<std::size_t>(page.width) * static_cast<std::size_t>(page.height) * 4, 0);
    for (int y = 0; y < page.height; ++y)
      for (int x = 0; x < page.width; ++x) {
        const Picture* best = nullptr;
        int best_x = 0, best_y = 0, best_distance = 0;
        for (const auto& [region, picture] : regions) {
          if (region->page != static_cast<std::int32_t>(p)) continue;
          const int x0 = static_cast<int>(std::lround(region->u0 * static_cast<float>(page.width)));
          const int y0 = static_cast<int>(std::lround(region->v0 * static_cast<float>(page.height)));
          const int ix = std::clamp(x - x0, 0, picture->width - 1), iy = std::clamp(y - y0, 0, picture->height - 1);
          const int distance = std::abs(x - x0 - ix) + std::abs(y - y0 - iy);
          if (!best || distance < best_distance) {
            best = picture;
            best_x = ix;
            best_y = iy;
            best_distance = distance;
          }
        }
        if (!best) continue;
        const Rgba8 c = best->pixels[static_cast<std::size_t>(best_y * best->width + best_x)];
        std::uint8_t* out = page.bytes.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(page.width) + static_cast<std::size_t>(x)) * 4;
        out[0] = c.r;
        out[1] = c.g;
        out[2] = c.b;
        out[3] = c.a;
      }
  }
}

// A shape test per picture pixel, 4 × 4 samples each for smooth edges. `colour(x, y)` returns the
// colour at a point of the picture, or nothing outside the shape.
Picture rasterise(int width, int height, const std::function<std::optional<Rgba8>(float, float)>& colour) {
  Picture picture{width, height, std::vector<Rgba8>(static_cast<std::size_t>(width * height), Rgba8{0, 0, 0, 0})};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      int covered = 0, r = 0, g = 0, b = 0;
      for (int sy = 0; sy < 4; ++sy)
        for (int sx = 0; sx < 4; ++sx) {
          const auto c = colour(static_cast<float>(x) + (static_cast<float>(sx) + 0.5f) / 4, static_cast<float>(y) + (static_cast<float>(sy) + 0.5f) / 4);
          if (!c) continue;
          ++covered;
          r += c->r;
          g += c->g;
          b += c->b;
        }
      if (covered == 0) continue;
      picture.pixels[static_cast<std::size_t>(y * width + x)] =
          Rgba8{static_cast<std::uint8_t>(r / covered), static_cast<std::uint8_t>(g / covered), static_cast<std::uint8_t>(b / covered),
                static_cast<std::uint8_t>(covered * 255 / 16)};
    }
  return picture;
}

// A short sword 64 × 16 pixels pointing right: pommel, grip, guard, a blade with a bright ridge, the tip.
Picture sword_picture() {
  constexpr float kMid = 8;
  return rasterise(64, 16, [](float x, float y) -> std::optional<Rgba8> {
    const float dy = std::abs(y - kMid);
    if ((x - 2.5f) * (x - 2.5f) + dy * dy <= 2.6f * 2.6f) return Rgba8{214, 172, 64, 255};  // pommel
    if (x >= 2.5f && x < 13 && dy <= 2) return Rgba8{104, 66, 38, 255};                     // grip
    if (x >= 13 && x < 16 && dy <= 6) return Rgba8{226, 186, 70, 255};                      // guard
    const float half = x < 54 ? 2.6f : 2.6f * (62 - x) / 8;                                  // blade, then the tip
    if (x >= 16 && x < 62 && dy <= half) return y < kMid - 0.6f ? Rgba8{236, 242, 250, 255} : Rgba8{176, 186, 204, 255};
    return std::nullopt;
  });
}

mf::Expected<offline::BuildResult> build(const offline::SkeletonSource& source, const std::vector<std::pair<std::string, offline::ImageSize>>& images,
                                         const std::string& name) {
  auto size = [&images](const std::string& image) -> std::optional<offline::ImageSize> {
    for (const auto& [n, s] : images)
      if (n == image) return s;
    return std::nullopt;
  };
  return offline::build_skeleton(source, size, name, name + " (made by the arena)");
}

}  // namespace

mf::Expected<std::shared_ptr<mf::skel::SkeletonData>> make_weapon_rig() {
  offline::SkeletonSource s;
  s.uid = "skl_a7e4a0000001";
  s.images.push_back({.name = "sword"});
  s.bones.push_back(offline::Bone{.name = "root", .length = kWeaponTip});
  s.slots.push_back(offline::Slot{.name = "sword", .bone = 0, .attachment = "sword"});
  offline::RegionAttachment region;
  region.x = 32 - 7.5f;  // the picture's middle, 32, lies 24.5 px past the grip's middle
  offline::Skin skin;
  skin.name = "default";
  skin.attachments.push_back(offline::Attachment{0, "sword", region});
  s.skins.push_back(std::move(skin));

  const Picture sword = sword_picture();
  auto built = build(s, {{"sword", {sword.width, sword.height}}}, "weapon");
  if (!built) return mf::Unexpected{built.error()};
  mf::skel::SkeletonData& data = *built->data;
  if (data.regions.size() != 1) return mf::Unexpected{mf::Error{{}, {}, {}, "weapon: expected one region in the built rig"}};
  paint_pages(data, {{&data.regions[0], &sword}});
  return built->data;
}

mf::Expected<std::shared_ptr<mf::skel::SkeletonData>> make_lines_rig(const std::vector<LineGroup>& groups) {
  offline::SkeletonSource s;
  s.uid = "skl_a7e4a0000002";
  s.images.push_back({.name = "white"});
  s.bones.push_back(offline::Bone{.name = "root"});
  offline::Skin skin;
  skin.name = "default";
  // A unit quad from the bone's origin along +X, one pixel across: the bone's scale makes it a line
  // (scale X the length, scale Y the width). Lines start collapsed (scale 0), so unused ones draw
  // nothing.
  offline::RegionAttachment quad;
  quad.image = "white";
  quad.x = 0.5f;
  quad.width = 1;
  quad.height = 1;
  for (const LineGroup& group : groups)
    for (int i = 0; i < group.count; ++i) {
      const std::string name = group.name + "_" + std::to_string(i);
      s.bones.push_back(offline::Bone{.name = name, .parent = 0, .scale_x = 0, .scale_y = 0});
      s.slots.push_back(offline::Slot{.name = name, .bone = static_cast<int>(s.bones.size()) - 1, .attachment = "line", .color = group.color});
      skin.attachments.push_back(offline::Attachment{static_cast<int>(s.slots.size()) - 1, "line", quad});
    }
  s.skins.push_back(std::move(skin));

  const Picture white{4, 4, std::vector<Rgba8>(16, Rgba8::white())};
  auto built = build(s, {{"white", {white.width, white.height}}}, "debug_lines");
  if (!built) return mf::Unexpected{built.error()};
  mf::skel::SkeletonData& data = *built->data;
  std::vector<std::pair<const mf::skel::Region*, const Picture*>> regions;
  for (const mf::skel::Region& region : data.regions) regions.emplace_back(&region, &white);
  paint_pages(data, regions);
  return built->data;
}

}  // namespace arena
