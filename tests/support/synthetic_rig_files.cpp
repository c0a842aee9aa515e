#include "synthetic_rig_files.hpp"

#include <cstdint>
#include <set>
#include <stdexcept>

#include "mf/imaging/png.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/skeleton_format.hpp"

namespace mf::testing {
namespace {

namespace fs = std::filesystem;

imaging::Image make_art(int w, int h, std::uint32_t seed) {
  imaging::Image image = imaging::Image::blank(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float dx = (static_cast<float>(x) + 0.5f) / static_cast<float>(w) - 0.5f;
      const float dy = (static_cast<float>(y) + 0.5f) / static_cast<float>(h) - 0.5f;
      std::uint8_t* p = image.pixel(x, y);
      p[0] = static_cast<std::uint8_t>((x * 3 + seed * 37) & 0xff);
      p[1] = static_cast<std::uint8_t>((y * 2 + seed * 91) & 0xff);
      p[2] = static_cast<std::uint8_t>(((x ^ y) + seed) & 0xff);
      p[3] = dx * dx + dy * dy < 0.24f ? 255 : 0;
    }
  return image;
}

void check(const Status& status) {
  if (!status.ok()) throw std::runtime_error(status.error().to_string());
}

}  // namespace

std::string write_synthetic_rig(SyntheticRig rig, const fs::path& dir, const std::string& name, int image_edge) {
  offline::SkeletonSource& skeleton = rig.skeleton;
  if (skeleton.uid.empty()) skeleton.uid = "skl_00000000be0c";
  // The images the build asks for, by building once with sizes alone.
  std::set<std::string> images;
  const auto record = [&](const std::string& image) -> std::optional<offline::ImageSize> {
    images.insert(image);
    return offline::ImageSize{image_edge, image_edge};
  };
  const std::string mskel = (dir / (name + ".mskel")).string();
  auto built = offline::build_skeleton(skeleton, record, name, mskel);
  if (!built.ok()) throw std::runtime_error(built.error().to_string());
  fs::create_directories(dir / "images");
  std::uint32_t seed = 0;
  for (const std::string& image : images) {
    const fs::path png = dir / "images" / (image + ".png");
    fs::create_directories(png.parent_path());
    check(imaging::write_png(png.string(), make_art(image_edge, image_edge, ++seed)));
  }
  check(offline::save_skeleton(skeleton, mskel));
  fs::create_directories(dir / (name + ".clips"));
  int n = 0;
  for (auto& [clip_name, clip] : rig.clips) {
    clip.skeleton_uid = skeleton.uid;
    if (clip.uid.empty()) clip.uid = "anm_00000000be" + std::to_string(10 + n++);
    check(offline::save_clip(clip, (dir / (name + ".clips") / (clip_name + ".manim")).string()));
  }
  return mskel;
}

}  // namespace mf::testing
