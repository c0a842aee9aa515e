// The atlas of a build: image preparation (trim, bleed, extrude), pages, normal pages, and rigs built
// with trimmed images drawing exactly what the untrimmed images drew.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "mf/imaging/image_ops.hpp"
#include "mf/imaging/png.hpp"
#include "mf/offline/build/atlas_build.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/skel/cpu_vertices.hpp"
#include "mf/skel/skeleton_pose.hpp"
#include "mf/skel/world_transform.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;
using imaging::Image;
using imaging::Rect;

// Positions are a few float products of values up to a few hundred pixels; UVs are pixel counts over
// page sizes up to 2048.
constexpr float kPixel = 1e-3f;
constexpr float kUv = 1e-6f;

void set(Image& image, int x, int y, std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
  std::uint8_t* p = image.pixel(x, y);
  p[0] = r;
  p[1] = g;
  p[2] = b;
  p[3] = a;
}

bool same_pixel(const std::uint8_t* a, const std::uint8_t* b) {
  return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

std::string pixel_text(const std::uint8_t* p) {
  return "(" + std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]) + "," +
         std::to_string(p[3]) + ")";
}

// A w × h image, transparent except for a block of distinct opaque colours at `block`.
Image blocky(int w, int h, Rect block, std::uint8_t seed) {
  Image image = Image::blank(w, h);
  EXPECT_TRUE(block.x >= 0 && block.y >= 0 && block.x + block.width <= w && block.y + block.height <= h);
  block = {std::max(block.x, 0), std::max(block.y, 0), std::min(block.width, w - block.x), std::min(block.height, h - block.y)};
  for (int y = block.y; y < block.y + block.height; ++y)
    for (int x = block.x; x < block.x + block.width; ++x)
      set(image, x, y, static_cast<std::uint8_t>(seed + 10 * x), static_cast<std::uint8_t>(seed + 20 * y),
          static_cast<std::uint8_t>(seed + x * y), 255);
  return image;
}

AtlasSource source(std::string name, Image pixels) {
  AtlasSource s;
  s.name = std::move(name);
  s.width = pixels.width;
  s.height = pixels.height;
  s.pixels = std::move(pixels);
  return s;
}

Image decode(const skel::Page& page) {
  EXPECT_EQ(page.encoding, skel::PageEncoding::Png);
  Expected<Image> image = imaging::decode_png(page.bytes, page.name);
  if (!image) {
    ADD_FAILURE() << image.error().to_string();
    return {};
  }
  EXPECT_EQ(image->width, page.width);
  EXPECT_EQ(image->height, page.height);
  return std::move(*image);
}

TEST(AtlasBuild, TrimsBleedsAndExtrudesEachImage) {
  // 10 × 8 with a 4 × 3 opaque block at (3, 2) and one half-transparent pixel inside it.
  Image art = blocky(10, 8, {3, 2, 4, 3}, 40);
  set(art, 4, 3, 0, 0, 0, 0);  // a hole: transparent inside the bounds
  const std::vector<AtlasSource> sources = {source("art", art)};
  AtlasSettings settings;
  settings.page_size = 64;
  settings.padding = 2;
  settings.page_name = "test";
  Expected<Atlas> atlas = build_atlas(sources, settings);
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  ASSERT_EQ(atlas->pages.size(), 1u);
  EXPECT_TRUE(atlas->normal_pages.empty());
  EXPECT_EQ(atlas->pages[0].name, "test_0");
  const AtlasPlacement& p = atlas->placements[0];
  EXPECT_EQ(p.trim, (Rect{3, 2, 4, 3}));
  EXPECT_EQ(p.width, 10);
  EXPECT_EQ(p.height, 8);
  EXPECT_EQ(p.packed.width, 4);
  EXPECT_EQ(p.packed.height, 3);
  // The padded 8 × 7 rectangle sits at the top-left; the page shrank to the smallest 64 >> i that holds it.
  EXPECT_EQ(p.packed.x, 2);
  EXPECT_EQ(p.packed.y, 2);
  EXPECT_EQ(atlas->pages[0].width, 8);
  EXPECT_EQ(atlas->pages[0].height, 8);

  const Image page = decode(atlas->pages[0]);
  // Inside: the source's pixels, the hole bled with its nearest opaque neighbour's colour (all eight
  // neighbours are opaque at distance 1; the bleed picks one of them) and alpha kept at 0.
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x) {
      const std::uint8_t* got = page.pixel(2 + x, 2 + y);
      const std::uint8_t* want = art.pixel(3 + x, 2 + y);
      if (x == 1 && y == 1) {
        EXPECT_EQ(got[3], 0);
        bool neighbour = false;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const std::uint8_t* n = art.pixel(4 + dx, 3 + dy);
            if ((dx || dy) && n[0] == got[0] && n[1] == got[1] && n[2] == got[2]) neighbour = true;
          }
        EXPECT_TRUE(neighbour) << pixel_text(got);
      } else {
        EXPECT_TRUE(same_pixel(got, want)) << x << "," << y << ": " << pixel_text(got) << " vs " << pixel_text(want);
      }
    }
  // Padding: every pixel of the 2-pixel ring repeats the nearest edge pixel of the trimmed image.
  for (int y = 0; y < 7; ++y)
    for (int x = 0; x < 8; ++x) {
      const int sx = std::clamp(x - 2, 0, 3), sy = std::clamp(y - 2, 0, 2);
      EXPECT_TRUE(same_pixel(page.pixel(x, y), page.pixel(2 + sx, 2 + sy))) << x << "," << y;
    }
  // Occupancy: 8 × 7 padded pixels and 4 × 3 image pixels on an 8 × 8 page.
  EXPECT_EQ(atlas->occupancy.packed_pixels(), 56);
  EXPECT_EQ(atlas->occupancy.image_pixels, 12);
  EXPECT_DOUBLE_EQ(atlas->occupancy.occupancy(), 56.0 / 64.0);
  EXPECT_DOUBLE_EQ(atlas->occupancy.image_occupancy(), 12.0 / 64.0);
  // The region is the whole untrimmed image's rectangle: it starts 3, 2 pixels before the packed pixels.
  const skel::Region r = atlas->region(0);
  EXPECT_NEAR(r.u0, (2.0f - 3.0f) / 8.0f, kUv);
  EXPECT_NEAR(r.v0, (2.0f - 2.0f) / 8.0f, kUv);
  EXPECT_NEAR(r.u1, (2.0f - 3.0f + 10.0f) / 8.0f, kUv);
  EXPECT_NEAR(r.v1, (2.0f - 2.0f + 8.0f) / 8.0f, kUv);
  EXPECT_EQ(r.width, 10);
  EXPECT_EQ(r.height, 8);
}

TEST(AtlasBuild, AlphaBleedLeavesNoTransparentBlackAtSilhouettes) {
  // A disc on transparent black: after packing, no transparent pixel next to an opaque one is black,
  // and every transparent pixel of the trimmed image has some opaque pixel's colour.
  Image disc = Image::blank(21, 21);
  for (int y = 0; y < 21; ++y)
    for (int x = 0; x < 21; ++x)
      if ((x - 10) * (x - 10) + (y - 10) * (y - 10) <= 64) set(disc, x, y, 200, static_cast<std::uint8_t>(100 + x), 50, 255);
  Expected<Atlas> atlas = build_atlas(std::vector<AtlasSource>{source("disc", disc)}, {64, 1, "disc"});
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  const Image page = decode(atlas->pages[0]);
  const AtlasPlacement& p = atlas->placements[0];
  EXPECT_EQ(p.trim, (Rect{2, 2, 17, 17}));
  int checked = 0;
  for (int y = p.packed.y - 1; y < p.packed.y + p.packed.height + 1; ++y)
    for (int x = p.packed.x - 1; x < p.packed.x + p.packed.width + 1; ++x) {
      const std::uint8_t* px = page.pixel(x, y);
      if (px[3] != 0) continue;
      EXPECT_EQ(px[0], 200) << x << "," << y;  // the disc's red: never black
      EXPECT_EQ(px[2], 50) << x << "," << y;
      ++checked;
    }
  EXPECT_GT(checked, 50);
}

TEST(AtlasBuild, SequenceFramesShareTheUnionOfTheirBounds) {
  AtlasSource a = source("run1", blocky(12, 12, {1, 5, 3, 2}, 10));
  AtlasSource b = source("run2", blocky(12, 12, {6, 2, 4, 4}, 90));
  AtlasSource c = source("solo", blocky(12, 12, {6, 2, 4, 4}, 90));
  a.trim_group = b.trim_group = 7;
  Expected<Atlas> atlas = build_atlas(std::vector<AtlasSource>{a, b, c}, {128, 1, "seq"});
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  EXPECT_EQ(atlas->placements[0].trim, (Rect{1, 2, 9, 5}));
  EXPECT_EQ(atlas->placements[1].trim, (Rect{1, 2, 9, 5}));
  EXPECT_EQ(atlas->placements[2].trim, (Rect{6, 2, 4, 4}));
  // Frames of other sizes in one group are not trimmed.
  AtlasSource d = source("run3", blocky(10, 12, {2, 2, 2, 2}, 5));
  d.trim_group = 7;
  atlas = build_atlas(std::vector<AtlasSource>{a, b, d}, {128, 1, "seq"});
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  EXPECT_EQ(atlas->placements[0].trim, (Rect{0, 0, 12, 12}));
  EXPECT_EQ(atlas->placements[2].trim, (Rect{0, 0, 10, 12}));
}

TEST(AtlasBuild, KeepRectanglesFullyTransparentImagesAndSizesOnly) {
  AtlasSource kept = source("kept", blocky(16, 16, {4, 4, 2, 2}, 1));
  kept.keep = {2, 3, 3, 10};
  AtlasSource untrimmed = source("whole", blocky(16, 16, {4, 4, 2, 2}, 1));
  untrimmed.trim = false;
  AtlasSource empty = source("ghost", Image::blank(9, 7));
  Expected<Atlas> atlas = build_atlas(std::vector<AtlasSource>{kept, untrimmed, empty}, {64, 0, "k"});
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  EXPECT_EQ(atlas->placements[0].trim, (Rect{2, 3, 4, 10}));
  EXPECT_EQ(atlas->placements[1].trim, (Rect{0, 0, 16, 16}));
  EXPECT_EQ(atlas->placements[2].trim, (Rect{0, 0, 1, 1}));  // nothing visible: one transparent pixel
  EXPECT_FALSE(atlas->pages[0].bytes.empty());

  // Without pixels: laid out untrimmed, pages with sizes and no bytes.
  AtlasSource a, b;
  a.name = "a";
  a.width = 30;
  a.height = 20;
  b.name = "b";
  b.width = 10;
  b.height = 40;
  atlas = build_atlas(std::vector<AtlasSource>{a, b}, {64, 2, "sizes"});
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  ASSERT_EQ(atlas->pages.size(), 1u);
  EXPECT_TRUE(atlas->pages[0].bytes.empty());
  EXPECT_GT(atlas->pages[0].width, 0);
  EXPECT_EQ(atlas->placements[0].trim, (Rect{0, 0, 30, 20}));
  EXPECT_EQ(atlas->placements[1].packed.width, 10);
}

TEST(AtlasBuild, NormalMapsGetASecondPageSetWithTheSameRectangles) {
  AtlasSource lit = source("lit", blocky(8, 8, {2, 2, 4, 4}, 30));
  Image normal = Image::blank(8, 8);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) set(normal, x, y, static_cast<std::uint8_t>(100 + x), static_cast<std::uint8_t>(100 + y), 240, 255);
  lit.normal = normal;
  AtlasSource plain = source("plain", blocky(8, 8, {0, 0, 8, 8}, 60));
  Expected<Atlas> atlas = build_atlas(std::vector<AtlasSource>{lit, plain}, {32, 1, "n"});
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  ASSERT_EQ(atlas->normal_pages.size(), atlas->pages.size());
  EXPECT_EQ(atlas->normal_pages[0].name, "n_0_n");
  EXPECT_EQ(atlas->normal_pages[0].width, atlas->pages[0].width);
  const Image normals = decode(atlas->normal_pages[0]);
  const AtlasPlacement& pl = atlas->placements[0];
  EXPECT_EQ(pl.trim, (Rect{2, 2, 4, 4}));
  // The normal map's trimmed pixels at the image's place, extruded by the same padding.
  for (int y = -1; y < 5; ++y)
    for (int x = -1; x < 5; ++x) {
      const int sx = 2 + std::clamp(x, 0, 3), sy = 2 + std::clamp(y, 0, 3);
      EXPECT_TRUE(same_pixel(normals.pixel(pl.packed.x + x, pl.packed.y + y), normal.pixel(sx, sy))) << x << "," << y;
    }
  // The image without a normal map: flat normals.
  const AtlasPlacement& pp = atlas->placements[1];
  const std::uint8_t flat[4] = {128, 128, 255, 255};
  for (int y = 0; y < pp.packed.height; ++y)
    for (int x = 0; x < pp.packed.width; ++x)
      EXPECT_TRUE(same_pixel(normals.pixel(pp.packed.x + x, pp.packed.y + y), flat));

  // A normal map of another size is an error naming the image.
  lit.normal = Image::blank(4, 4);
  Expected<Atlas> bad = build_atlas(std::vector<AtlasSource>{lit}, {32, 1, "n"});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("\"lit\""), std::string::npos) << bad.error().message;
}

TEST(AtlasBuild, AnImageLargerThanAPageIsAnErrorNamingIt) {
  const std::vector<AtlasSource> sources = {source("small", blocky(8, 8, {0, 0, 8, 8}, 1)),
                                            source("banner", blocky(80, 8, {0, 0, 62, 8}, 1))};
  // 62 + 2 × 2 padding = 66 > 64.
  Expected<Atlas> atlas = build_atlas(sources, {64, 2, "big"});
  ASSERT_FALSE(atlas);
  const std::string& message = atlas.error().message;
  EXPECT_NE(message.find("\"banner\""), std::string::npos) << message;
  EXPECT_NE(message.find("66×12"), std::string::npos) << message;
  EXPECT_NE(message.find("64×64"), std::string::npos) << message;
  // Trimming is what makes it fit: 60 + 4 = 64.
  const std::vector<AtlasSource> fits = {source("banner", blocky(80, 8, {10, 0, 60, 8}, 1))};
  EXPECT_TRUE(build_atlas(fits, {64, 2, "big"}));
}

TEST(AtlasBuild, IsDeterministic) {
  std::vector<AtlasSource> sources;
  for (int i = 0; i < 30; ++i) {
    const int w = 8 + (i * 7) % 23, h = 6 + (i * 5) % 19;
    sources.push_back(source("i" + std::to_string(i), blocky(w, h, {1, 1, w - 2, h - 3}, static_cast<std::uint8_t>(i))));
  }
  Expected<Atlas> a = build_atlas(sources, {64, 2, "d"});
  Expected<Atlas> b = build_atlas(sources, {64, 2, "d"});
  ASSERT_TRUE(a && b);
  ASSERT_EQ(a->pages.size(), b->pages.size());
  EXPECT_GT(a->pages.size(), 1u);
  for (std::size_t p = 0; p < a->pages.size(); ++p) EXPECT_EQ(a->pages[p].bytes, b->pages[p].bytes);
  for (std::size_t i = 0; i < sources.size(); ++i) EXPECT_EQ(a->placements[i].packed, b->placements[i].packed);
}

// ---- rigs ----

// Every visible pixel of every image sits on its page at the untrimmed rectangle the region names.
void expect_regions_show_their_images(const skel::SkeletonData& d, const std::string& images,
                                      const std::map<std::int32_t, std::string>& region_images) {
  std::vector<Image> pages;
  for (const skel::Page& page : d.pages) pages.push_back(decode(page));
  for (const auto& [index, name] : region_images) {
    const skel::Region& r = d.regions[static_cast<std::size_t>(index)];
    Expected<Image> source = imaging::read_png((fs::path(images) / (name + ".png")).string());
    ASSERT_TRUE(source) << source.error().to_string();
    EXPECT_EQ(r.width, static_cast<float>(source->width)) << name;
    EXPECT_EQ(r.height, static_cast<float>(source->height)) << name;
    const Image& page = pages[static_cast<std::size_t>(r.page)];
    const int x0 = static_cast<int>(std::lround(r.u0 * static_cast<float>(page.width)));
    const int y0 = static_cast<int>(std::lround(r.v0 * static_cast<float>(page.height)));
    EXPECT_NEAR((r.u1 - r.u0) * static_cast<float>(page.width), static_cast<float>(source->width), 1e-3f) << name;
    int visible = 0, wrong = 0;
    for (int y = 0; y < source->height; ++y)
      for (int x = 0; x < source->width; ++x) {
        if (source->pixel(x, y)[3] == 0) continue;
        ++visible;
        const int px = x0 + x, py = y0 + y;
        if (px < 0 || py < 0 || px >= page.width || py >= page.height ||
            !same_pixel(page.pixel(px, py), source->pixel(x, y)))
          ++wrong;
      }
    EXPECT_GT(visible, 0) << name;
    EXPECT_EQ(wrong, 0) << name << ": " << wrong << " of " << visible << " visible pixels differ on the page";
  }
}

// Region index → image name, for the region attachments of the data (sequence frames included).
std::map<std::int32_t, std::string> region_names(const SkeletonSource& s, const skel::SkeletonData& d) {
  std::map<std::int32_t, std::string> out;
  std::size_t index = 0;
  for (const Skin& skin : s.skins)
    for (const Attachment& a : skin.attachments) {
      const skel::AttachmentRecord& rec = d.attachments[index++];
      std::string image;
      std::optional<Sequence> sequence;
      if (const auto* r = std::get_if<RegionAttachment>(&a.data)) {
        image = r->image.empty() ? a.name : r->image;
        sequence = r->sequence;
      } else if (const auto* m = std::get_if<MeshAttachment>(&a.data)) {
        image = m->image.empty() ? a.name : m->image;
        sequence = m->sequence;
      } else {
        continue;
      }
      for (std::uint32_t f = 0; f < rec.region_count; ++f) {
        std::string frame = image;
        if (sequence) {
          std::string number = std::to_string(sequence->start + static_cast<int>(f));
          while (static_cast<int>(number.size()) < sequence->digits) number.insert(0, "0");
          frame += number;
        }
        out[static_cast<std::int32_t>(rec.region_start + f)] = frame;
      }
    }
  return out;
}

// Draws the setup pose through the CPU path.
std::vector<skel::CpuVertex> draw_setup(const skel::SkeletonData& d, std::vector<skel::DrawnAttachment>& drawn) {
  skel::SkeletonPose pose(d);
  pose.set_to_setup();
  skel::update_world_transforms(pose);
  skel::CpuVertices cpu(d);
  cpu.update(pose);
  drawn.assign(cpu.drawn().begin(), cpu.drawn().end());
  return {cpu.vertices().begin(), cpu.vertices().end()};
}

// The trimmed build draws the same picture as the untrimmed one: every vertex of a trimmed region
// quad lies where the untrimmed quad puts the same image point, and its page UV is that point's.
void expect_same_picture(const skel::SkeletonData& trimmed, const skel::SkeletonData& untrimmed) {
  std::vector<skel::DrawnAttachment> drawn_t, drawn_u;
  const std::vector<skel::CpuVertex> vt = draw_setup(trimmed, drawn_t);
  const std::vector<skel::CpuVertex> vu = draw_setup(untrimmed, drawn_u);
  ASSERT_EQ(drawn_t.size(), drawn_u.size());
  int quads = 0, cut = 0;
  for (std::size_t k = 0; k < drawn_t.size(); ++k) {
    const skel::DrawnAttachment &t = drawn_t[k], &u = drawn_u[k];
    ASSERT_EQ(t.attachment, u.attachment);
    const skel::AttachmentRecord& rec = trimmed.attachments[static_cast<std::size_t>(t.attachment)];
    if (rec.kind != skel::AttachmentKind::Region) continue;
    ++quads;
    const skel::Region& rt = trimmed.regions[rec.region_start + static_cast<std::uint32_t>(rec.sequence_setup)];
    const skel::Region& ru = untrimmed.regions[rec.region_start + static_cast<std::uint32_t>(rec.sequence_setup)];
    // Untrimmed corners of the whole image, in Spine's order: bottom right, bottom left, top left,
    // top right. Below, q[0..3] name them top-left, top-right, bottom-right, bottom-left.
    const skel::CpuVertex* corners = &vu[u.vertex_start];
    const skel::CpuVertex q[4] = {corners[2], corners[3], corners[0], corners[1]};
    for (std::uint32_t i = 0; i < 4; ++i) {
      const skel::CpuVertex& v = vt[t.vertex_start + i];
      const float fx = (v.u - rt.u0) / (rt.u1 - rt.u0), fy = (v.v - rt.v0) / (rt.v1 - rt.v0);
      const auto inside = [](float f) { return std::abs(f) > 1e-4f && std::abs(f - 1) > 1e-4f; };
      if (inside(fx) || inside(fy)) ++cut;
      const float x = (1 - fy) * ((1 - fx) * q[0].x + fx * q[1].x) + fy * ((1 - fx) * q[3].x + fx * q[2].x);
      const float y = (1 - fy) * ((1 - fx) * q[0].y + fx * q[1].y) + fy * ((1 - fx) * q[3].y + fx * q[2].y);
      EXPECT_NEAR(v.x, x, kPixel) << "attachment " << t.attachment << " vertex " << i;
      EXPECT_NEAR(v.y, y, kPixel) << "attachment " << t.attachment << " vertex " << i;
      // The same image point: fx, fy of the untrimmed region gives the untrimmed quad's UV there.
      const float uu = ru.u0 + fx * (ru.u1 - ru.u0), vv = ru.v0 + fy * (ru.v1 - ru.v0);
      const float ux = (1 - fy) * ((1 - fx) * q[0].u + fx * q[1].u) + fy * ((1 - fx) * q[3].u + fx * q[2].u);
      const float vy = (1 - fy) * ((1 - fx) * q[0].v + fx * q[1].v) + fy * ((1 - fx) * q[3].v + fx * q[2].v);
      EXPECT_NEAR(uu, ux, kUv);
      EXPECT_NEAR(vv, vy, kUv);
    }
  }
  EXPECT_GT(quads, 0);
  EXPECT_GT(cut, 0) << "no quad was cut: nothing was trimmed";
}

TEST(AtlasBuild, TheMannequinPacksIntoOnePageThatShowsEveryImage) {
  const std::string path = MF_EXAMPLES_DIR "/mannequin/mannequin.mskel";
  if (!fs::exists(path)) GTEST_SKIP() << "example rig not present: " << path;
  Expected<Rig> rig = load_rig(path);
  ASSERT_TRUE(rig) << rig.error().to_string();
  Expected<BuildResult> built = build_rig(*rig);
  ASSERT_TRUE(built) << built.error().to_string();
  const skel::SkeletonData& d = *built->data;
  ASSERT_EQ(d.pages.size(), 1u);
  EXPECT_EQ(d.pages[0].name, "mannequin_0");
  // The example's art has normal maps (images/*_n.png): one normal page beside the colour page.
  ASSERT_EQ(d.normal_pages.size(), 1u);
  EXPECT_EQ(d.normal_pages[0].name, "mannequin_0_n");
  EXPECT_EQ(d.filter, skel::TextureFilter::Linear);
  EXPECT_FALSE(d.mipmaps);
  const AtlasOccupancy& occ = built->atlas;
  ASSERT_EQ(occ.pages.size(), 1u);
  EXPECT_GT(occ.occupancy(), 0.5);
  EXPECT_LE(occ.occupancy(), 1.0);
  EXPECT_LE(occ.image_occupancy(), occ.occupancy());
  std::printf("[ mannequin ] %zu page(s) of %d×%d, occupancy %.1f%% packed (padding included), %.1f%% image pixels\n",
              occ.pages.size(), occ.pages[0].width, occ.pages[0].height, 100 * occ.occupancy(),
              100 * occ.image_occupancy());
  expect_regions_show_their_images(d, images_folder(*rig), region_names(rig->skeleton, d));

  // The same rig from sizes alone (nothing trimmed) draws the same picture.
  std::map<std::string, ImageSize> sizes;
  for (const fs::directory_entry& e : fs::directory_iterator(images_folder(*rig))) {
    Expected<Image> image = imaging::read_png(e.path().string());
    ASSERT_TRUE(image);
    sizes[e.path().stem().string()] = {image->width, image->height};
  }
  Expected<BuildResult> untrimmed = build_skeleton(
      rig->skeleton,
      [&](const std::string& name) -> std::optional<ImageSize> {
        const auto it = sizes.find(name);
        return it == sizes.end() ? std::nullopt : std::optional<ImageSize>(it->second);
      },
      "mannequin", path);
  ASSERT_TRUE(untrimmed) << untrimmed.error().to_string();
  EXPECT_TRUE(untrimmed->data->pages[0].bytes.empty());
  expect_same_picture(d, *untrimmed->data);
}

class RigDir : public testing::TempDir {
 public:
  RigDir() : testing::TempDir("mf_atlas") {}
  void image(const std::string& name, const Image& pixels) const {
    fs::create_directories(path() / "images");
    ASSERT_TRUE(imaging::write_png(file("images/" + name + ".png"), pixels));
  }
};

Attachment region_attachment(int slot, std::string name, RegionAttachment r) {
  return Attachment{slot, std::move(name), std::move(r)};
}

// Two slots on a rotated bone: a region with a normal map and a 3-frame sequence without.
SkeletonSource lit_rig() {
  SkeletonSource s;
  s.uid = "skl_0123456789ab";
  s.import.page_size = 64;
  s.import.padding = 1;
  s.import.filter = TextureFilter::Nearest;
  s.import.mipmaps = true;
  Bone root;
  root.name = "root";
  Bone arm;
  arm.name = "arm";
  arm.parent = 0;
  arm.x = 5;
  arm.rotation = 30;
  s.bones = {root, arm};
  Slot a;
  a.name = "shield";
  a.bone = 1;
  a.attachment = "shield";
  Slot b;
  b.name = "flame";
  b.bone = 0;
  b.attachment = "flame";
  s.slots = {a, b};
  Skin skin;
  skin.name = "default";
  RegionAttachment shield;
  shield.x = 3;
  shield.y = -4;
  shield.rotation = 20;
  shield.scale_x = 1.5f;
  skin.attachments.push_back(region_attachment(0, "shield", shield));
  RegionAttachment flame;
  flame.sequence = Sequence{3, 1, 2, 1};
  skin.attachments.push_back(region_attachment(1, "flame", flame));
  s.skins.push_back(skin);
  return s;
}

// lit_rig's images: a shield and three flame frames, each with a transparent margin to trim.
void write_lit_images(RigDir& dir) {
  dir.image("shield", blocky(20, 16, {4, 3, 10, 9}, 70));
  dir.image("flame01", blocky(12, 14, {2, 6, 3, 5}, 10));
  dir.image("flame02", blocky(12, 14, {5, 1, 4, 4}, 20));
  dir.image("flame03", blocky(12, 14, {4, 4, 2, 2}, 30));
}

// import.trim false: every image is packed whole and every region quad covers its whole image, as an
// atlas packed without whitespace stripping draws it.
TEST(AtlasBuild, WithoutTrimRegionQuadsCoverTheirWholeImages) {
  RigDir dir;
  SkeletonSource s = lit_rig();
  s.import.trim = false;
  ASSERT_TRUE(save_skeleton(s, dir.file("lit.mskel")));
  write_lit_images(dir);
  Expected<BuildResult> built = build_rig_file(dir.file("lit.mskel"));
  ASSERT_TRUE(built) << built.error().to_string();
  const skel::SkeletonData& d = *built->data;
  const skel::Region& shield = d.regions[d.attachments[0].region_start];
  EXPECT_EQ(shield.width, 20);
  EXPECT_EQ(shield.height, 16);
  const float* uv = &d.uvs[2 * d.attachments[1].vertex_start];
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(uv[i] == 0.0f || uv[i] == 1.0f) << "uv " << i << " is " << uv[i];
  expect_regions_show_their_images(d, dir.file("images"), region_names(s, d));
}

TEST(AtlasBuild, ARigWithANormalMapAndASequenceBuildsFromDisk) {
  RigDir dir;
  const SkeletonSource s = lit_rig();
  ASSERT_TRUE(save_skeleton(s, dir.file("lit.mskel")));
  write_lit_images(dir);
  Image normal = Image::blank(20, 16);
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 20; ++x) set(normal, x, y, static_cast<std::uint8_t>(90 + x), static_cast<std::uint8_t>(90 + y), 250, 255);
  dir.image("shield_n", normal);

  Expected<BuildResult> built = build_rig_file(dir.file("lit.mskel"));
  ASSERT_TRUE(built) << built.error().to_string();
  const skel::SkeletonData& d = *built->data;
  EXPECT_EQ(d.filter, skel::TextureFilter::Nearest);
  EXPECT_TRUE(d.mipmaps);
  ASSERT_EQ(d.pages.size(), 1u);
  ASSERT_EQ(d.normal_pages.size(), 1u);
  EXPECT_EQ(d.normal_pages[0].name, "lit_0_n");
  expect_regions_show_their_images(d, dir.file("images"), region_names(s, d));

  // The normal page holds the shield's normals where the page holds the shield, flat normals where
  // the flame frames are.
  const Image normals = decode(d.normal_pages[0]);
  const skel::Region& shield = d.regions[d.attachments[0].region_start];
  const int sx = static_cast<int>(std::lround(shield.u0 * static_cast<float>(normals.width)));
  const int sy = static_cast<int>(std::lround(shield.v0 * static_cast<float>(normals.height)));
  for (int y = 3; y < 12; ++y)
    for (int x = 4; x < 14; ++x) EXPECT_TRUE(same_pixel(normals.pixel(sx + x, sy + y), normal.pixel(x, y))) << x << "," << y;
  const skel::Region& frame = d.regions[d.attachments[1].region_start];
  const int fx = static_cast<int>(std::lround(frame.u0 * static_cast<float>(normals.width)));
  const int fy = static_cast<int>(std::lround(frame.v0 * static_cast<float>(normals.height)));
  const std::uint8_t flat[4] = {128, 128, 255, 255};
  EXPECT_TRUE(same_pixel(normals.pixel(fx + 2, fy + 6), flat));

  // The frames share one quad: the union of their bounds, (2, 1) to (9, 11).
  const skel::AttachmentRecord& flames = d.attachments[1];
  ASSERT_EQ(flames.region_count, 3u);
  const float* uv = &d.uvs[2 * flames.vertex_start];
  EXPECT_NEAR(uv[4], 2.0f / 12, kUv);  // top left
  EXPECT_NEAR(uv[5], 1.0f / 14, kUv);
  EXPECT_NEAR(uv[0], 9.0f / 12, kUv);  // bottom right
  EXPECT_NEAR(uv[1], 11.0f / 14, kUv);

  // Drawn through the CPU path, the picture is the untrimmed one.
  Expected<BuildResult> untrimmed = build_skeleton(
      s,
      [](const std::string& name) -> std::optional<ImageSize> {
        if (name == "shield") return ImageSize{20, 16};
        return ImageSize{12, 14};
      },
      "lit", "lit.mskel");
  ASSERT_TRUE(untrimmed) << untrimmed.error().to_string();
  expect_same_picture(d, *untrimmed->data);
}

TEST(AtlasBuild, RigAtlasErrorsNameTheImage) {
  RigDir dir;
  SkeletonSource s = lit_rig();
  s.import.page_size = 64;  // the trimmed 70 × 9 shield with 1 pixel of padding is 72 × 11
  s.skins[0].attachments.resize(1);
  s.slots.resize(1);
  ASSERT_TRUE(save_skeleton(s, dir.file("lit.mskel")));
  dir.image("shield", blocky(80, 16, {1, 3, 70, 9}, 70));
  Expected<BuildResult> built = build_rig_file(dir.file("lit.mskel"));
  ASSERT_FALSE(built);
  EXPECT_EQ(built.error().file, dir.file("lit.mskel"));
  EXPECT_EQ(built.error().path, "import.pageSize");
  EXPECT_NE(built.error().message.find("\"shield\""), std::string::npos) << built.error().message;

  EXPECT_NE(built.error().message.find("72×11"), std::string::npos) << built.error().message;

  // A normal map of another size names the normal map's file.
  dir.image("shield", blocky(20, 16, {1, 3, 18, 9}, 70));
  dir.image("shield_n", Image::blank(4, 4));
  built = build_rig_file(dir.file("lit.mskel"));
  ASSERT_FALSE(built);
  EXPECT_NE(built.error().message.find("shield_n.png"), std::string::npos) << built.error().message;

  // A corrupt PNG names its file.
  fs::remove(dir.file("images/shield_n.png"));
  std::ofstream(dir.file("images/shield.png"), std::ios::binary) << "\x89PNG\r\n\x1a\n broken";
  built = build_rig_file(dir.file("lit.mskel"));
  ASSERT_FALSE(built);
  EXPECT_EQ(built.error().path, "skins[0].attachments[0]");
  EXPECT_NE(built.error().message.find("shield.png"), std::string::npos) << built.error().message;
}

}  // namespace
}  // namespace mf::offline
