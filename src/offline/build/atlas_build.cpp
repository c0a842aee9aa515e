#include "mf/offline/build/atlas_build.hpp"

#include <algorithm>
#include <map>

#include "mf/imaging/image_ops.hpp"
#include "mf/imaging/png.hpp"
#include "mf/imaging/rect_union.hpp"

namespace mf::offline {
namespace {

using imaging::Image;
using imaging::Rect;

constexpr std::uint8_t kFlatNormal[4] = {128, 128, 255, 255};

Unexpected atlas_error(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

std::string quoted(const std::string& s) { return "\"" + s + "\""; }
std::string size_text(int width, int height) { return std::to_string(width) + "×" + std::to_string(height); }

Rect clip_to(Rect r, int width, int height) {
  const int x0 = std::clamp(r.x, 0, width), y0 = std::clamp(r.y, 0, height);
  const int x1 = std::clamp(r.x + r.width, 0, width), y1 = std::clamp(r.y + r.height, 0, height);
  return {x0, y0, std::max(0, x1 - x0), std::max(0, y1 - y0)};
}

// The part of each source that goes on the page (see the header's step 1).
std::vector<Rect> trim_rects(std::span<const AtlasSource> sources) {
  std::vector<Rect> trims(sources.size());
  std::map<std::int32_t, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const AtlasSource& s = sources[i];
    const Rect whole{0, 0, s.width, s.height};
    if (!s.trim || !s.pixels) {
      trims[i] = whole;
    } else {
      trims[i] = clip_to(imaging::united(imaging::alpha_bounds(*s.pixels), s.keep), s.width, s.height);
    }
    if (s.trim_group >= 0) groups[s.trim_group].push_back(i);
  }
  for (const auto& [group, members] : groups) {
    Rect shared;
    bool untrimmed = false;
    for (std::size_t i : members) {
      const AtlasSource& s = sources[i];
      const AtlasSource& first = sources[members.front()];
      untrimmed = untrimmed || !s.trim || !s.pixels || s.width != first.width || s.height != first.height;
      shared = imaging::united(shared, trims[i]);
    }
    for (std::size_t i : members) trims[i] = untrimmed ? Rect{0, 0, sources[i].width, sources[i].height} : shared;
  }
  // Nothing to show: the top-left pixel stands in, so every image has a place and a quad.
  for (Rect& t : trims)
    if (t.empty()) t = {0, 0, 1, 1};
  return trims;
}

// Crop, bleed, extrude.
Image prepare(const Image& image, Rect trim, int padding) {
  Image cut = imaging::crop(image, trim);
  imaging::alpha_bleed(cut);
  return padding > 0 ? imaging::extrude(cut, padding) : cut;
}

Image flat_normal_image(int width, int height) {
  Image image = Image::blank(width, height);
  for (std::size_t i = 0; i < image.rgba.size(); i += 4) std::copy(kFlatNormal, kFlatNormal + 4, image.rgba.begin() + static_cast<std::ptrdiff_t>(i));
  return image;
}

Expected<skel::Page> encode_page(std::string name, const Image& image) {
  auto bytes = imaging::encode_png(image);
  if (!bytes) return atlas_error("atlas page " + quoted(name) + ": " + bytes.error().message);
  return skel::Page{std::move(name), image.width, image.height, skel::PageEncoding::Png, std::move(*bytes)};
}

}  // namespace

std::int64_t AtlasOccupancy::page_pixels() const {
  std::int64_t sum = 0;
  for (const PackedPage& p : pages) sum += static_cast<std::int64_t>(p.width) * p.height;
  return sum;
}

std::int64_t AtlasOccupancy::packed_pixels() const {
  std::int64_t sum = 0;
  for (const PackedPage& p : pages) sum += p.used_pixels;
  return sum;
}

double AtlasOccupancy::occupancy() const {
  const std::int64_t total = page_pixels();
  return total > 0 ? static_cast<double>(packed_pixels()) / static_cast<double>(total) : 0.0;
}

double AtlasOccupancy::image_occupancy() const {
  const std::int64_t total = page_pixels();
  return total > 0 ? static_cast<double>(image_pixels) / static_cast<double>(total) : 0.0;
}

skel::Region Atlas::region(std::size_t index) const {
  const AtlasPlacement& p = placements[index];
  const skel::Page& page = pages[static_cast<std::size_t>(p.page)];
  const float pw = static_cast<float>(page.width), ph = static_cast<float>(page.height);
  // The untrimmed image's top-left corner sits trim.x, trim.y pixels before the packed pixels.
  const float x0 = static_cast<float>(p.packed.x - p.trim.x), y0 = static_cast<float>(p.packed.y - p.trim.y);
  return {p.page,
          x0 / pw,
          y0 / ph,
          (x0 + static_cast<float>(p.width)) / pw,
          (y0 + static_cast<float>(p.height)) / ph,
          static_cast<float>(p.width),
          static_cast<float>(p.height)};
}

Expected<Atlas> build_atlas(std::span<const AtlasSource> sources, const AtlasSettings& settings) {
  if (settings.padding < 0) return atlas_error("padding " + std::to_string(settings.padding) + " is negative");
  if (settings.page_size <= 0)
    return atlas_error("page size " + std::to_string(settings.page_size) + " is not positive");
  bool all_pixels = true, any_normal = false;
  for (const AtlasSource& s : sources) {
    if (s.width <= 0 || s.height <= 0)
      return atlas_error("image " + quoted(s.name) + " has an empty size " + size_text(s.width, s.height));
    if (s.pixels && (s.pixels->width != s.width || s.pixels->height != s.height ||
                     s.pixels->rgba.size() != static_cast<std::size_t>(s.width) * static_cast<std::size_t>(s.height) * 4))
      return atlas_error("image " + quoted(s.name) + " has pixels of another size than its " +
                         size_text(s.width, s.height));
    if (s.normal && (s.normal->width != s.width || s.normal->height != s.height))
      return atlas_error("the normal map of image " + quoted(s.name) + " is " +
                         size_text(s.normal->width, s.normal->height) + " pixels, the image " +
                         size_text(s.width, s.height));
    all_pixels = all_pixels && s.pixels.has_value();
    any_normal = any_normal || s.normal.has_value();
  }

  const std::vector<Rect> trims = trim_rects(sources);
  const int pad = settings.padding;
  std::vector<PackInput> inputs;
  inputs.reserve(sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const int w = trims[i].width + 2 * pad, h = trims[i].height + 2 * pad;
    if (w > settings.page_size || h > settings.page_size)
      return atlas_error("image " + quoted(sources[i].name) + " is " + size_text(w, h) + " pixels after trimming to " +
                         size_text(trims[i].width, trims[i].height) + " and " + std::to_string(pad) +
                         " pixels of padding on each side, larger than the " +
                         size_text(settings.page_size, settings.page_size) + " atlas page");
    inputs.push_back({w, h, sources[i].name});
  }
  const AtlasPacker packer({settings.page_size, settings.page_size, true});
  Expected<PackLayout> layout = packer.pack(inputs);
  if (!layout) return Unexpected{layout.error()};

  Atlas atlas;
  atlas.occupancy.pages = layout->pages;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const PackedRect& r = layout->rects[i];
    atlas.placements.push_back({r.page, Rect{r.x + pad, r.y + pad, trims[i].width, trims[i].height}, trims[i],
                                sources[i].width, sources[i].height});
    atlas.occupancy.image_pixels += static_cast<std::int64_t>(trims[i].width) * trims[i].height;
  }

  for (std::size_t p = 0; p < layout->pages.size(); ++p) {
    const PackedPage& size = layout->pages[p];
    const std::string name = settings.page_name + "_" + std::to_string(p);
    if (!all_pixels) {
      atlas.pages.push_back({name, size.width, size.height, skel::PageEncoding::Png, {}});
      if (any_normal) atlas.normal_pages.push_back({name + "_n", size.width, size.height, skel::PageEncoding::Png, {}});
      continue;
    }
    Image page = Image::blank(size.width, size.height);
    Image normal_page = any_normal ? flat_normal_image(size.width, size.height) : Image{};
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const PackedRect& r = layout->rects[i];
      if (r.page != static_cast<std::int32_t>(p)) continue;
      imaging::blit(page, prepare(*sources[i].pixels, trims[i], pad), r.x, r.y);
      if (sources[i].normal) imaging::blit(normal_page, prepare(*sources[i].normal, trims[i], pad), r.x, r.y);
    }
    Expected<skel::Page> encoded = encode_page(name, page);
    if (!encoded) return Unexpected{encoded.error()};
    atlas.pages.push_back(std::move(*encoded));
    if (any_normal) {
      Expected<skel::Page> normal = encode_page(name + "_n", normal_page);
      if (!normal) return Unexpected{normal.error()};
      atlas.normal_pages.push_back(std::move(*normal));
    }
  }
  return atlas;
}

}  // namespace mf::offline
