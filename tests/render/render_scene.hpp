#pragma once
// Scenes for renderer tests: hand-built SkeletonData with RGBA8 pages made in the test, poses, and
// a renderer + target pair drawing into a small image.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "mf/imaging/png.hpp"
#include "mf/render/skeleton_renderer.hpp"
#include "mf/skel/skeleton_pose.hpp"
#include "mf/skel/world_transform.hpp"
#include "skel/test_attachments.hpp"

namespace mf::render::testing {

// An RGBA8 page of `width` × `height` filled by `pixel(x, y, rgba)`; returns the page index.
template <class Fill>
int add_page(skel::SkeletonData& d, int width, int height, Fill&& pixel, std::vector<skel::Page>* pages = nullptr) {
  skel::Page page;
  page.name = "page" + std::to_string(d.pages.size());
  page.width = width;
  page.height = height;
  page.encoding = skel::PageEncoding::Rgba8;
  page.bytes.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) pixel(x, y, page.bytes.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4);
  auto& list = pages ? *pages : d.pages;
  list.push_back(std::move(page));
  return static_cast<int>(list.size() - 1);
}

inline int add_solid_page(skel::SkeletonData& d, Rgba8 c, int size = 4) {
  return add_page(d, size, size, [&](int, int, std::uint8_t* p) {
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
    p[3] = c.a;
  });
}

// Shows the attachment on its slot.
inline void show(skel::SkeletonPose& pose, std::int32_t attachment) {
  const skel::AttachmentRecord& a = pose.data().attachments[static_cast<std::size_t>(attachment)];
  pose.attachment[static_cast<std::size_t>(a.slot)] = attachment;
}

inline float unit(std::uint8_t v) { return static_cast<float>(v) / 255.0f; }
inline float quantize(float v) { return std::round(std::clamp(v, 0.0f, 1.0f) * 255.0f) / 255.0f; }

// Largest per-channel difference between two images of the same size (in 0…255), or 256 when the
// sizes differ.
inline int max_difference(const imaging::Image& a, const imaging::Image& b) {
  if (a.width != b.width || a.height != b.height) return 256;
  int most = 0;
  for (std::size_t i = 0; i < a.rgba.size(); ++i) most = std::max(most, std::abs(int(a.rgba[i]) - int(b.rgba[i])));
  return most;
}

// Golden images: tests/data/render/<name>.png, compared per pixel and channel with `tolerance`
// (in 1/255). MF_UPDATE_GOLDENS=1 rewrites them from the current output instead.
inline void expect_matches_golden(const imaging::Image& image, const std::string& name, int tolerance = 2) {
  const std::string path = std::string(MF_TEST_DATA_DIR) + "/render/" + name + ".png";
  if (const char* update = std::getenv("MF_UPDATE_GOLDENS"); update && std::string(update) == "1") {
    auto written = imaging::write_png(path, image);
    ASSERT_TRUE(written) << written.error().to_string();
    return;
  }
  auto golden = imaging::read_png(path);
  ASSERT_TRUE(golden) << golden.error().to_string() << " (regenerate with MF_UPDATE_GOLDENS=1)";
  const int difference = max_difference(image, *golden);
  EXPECT_LE(difference, tolerance) << name << ": differs from its golden image by " << difference << "/255";
  if (difference > tolerance) {
    const std::string actual = ::testing::TempDir() + "/" + name + ".actual.png";
    (void)imaging::write_png(actual, image);
    ADD_FAILURE() << "the rendered image is at " << actual;
  }
}

}  // namespace mf::render::testing
