// From a PSD that GIMP saved to a rendered rig, as a user would run it: `mfe skel import-psd` on
// tests/data/psd/gimp-character-{8,16}.psd (nested groups, Spine's tags, hidden layers and a hidden
// group, group opacity, blend modes, 8- and 16-bit channels), `mfe skel check`, then `mfe skel
// render-setup` with the rig's origin on the canvas pixel the [origin] layer marks, compared with
// the composite GIMP stored in the file. Then the art is edited in GIMP (a layer moved, another
// repainted: gimp-character-8-edited.psd) and imported again over a rig whose moved layer was auto
// meshed and weighted: the rig, the mesh and its weights stay, the mesh follows the layer, and the
// render matches the edited composite.
//
// The comparison leaves out the rectangles tests/data/psd/README.md lists (an [ignore]d layer, the
// [origin] dot, an overlay layer the rig cannot blend and blend-mode layers partly over transparency,
// which GIMP composites as a union), and compares premultiplied colour, so that pixels a renderer
// and GIMP both leave transparent agree whatever colour they keep.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "mf/imaging/png.hpp"
#include "mf/imaging/psd.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "support/run_command.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;
using imaging::Image;
using Result = mf::testing::CommandResult;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }
// With the validation layer on: render-setup exits 2 on any validation message.
Result mfe(const std::string& args) {
  return mf::testing::run_shell("MF_VULKAN_VALIDATION=1 " + quote(MF_MFE_PATH) + " " + args);
}
std::string psd(const std::string& file) { return std::string(MF_TEST_DATA_DIR) + "/psd/" + file; }

// [left, top, right, bottom) in canvas pixels: tests/data/psd/README.md, "what a rig can show".
constexpr std::array<std::array<int, 4>, 6> kLeftOut = {{
    {0, 0, 40, 12},       // [ignore] Notes
    {62, 152, 66, 156},   // the [origin] dot
    {46, 34, 82, 46},     // Blush: overlay
    {20, 0, 108, 64},     // Glow: screen, partly over transparency
    {100, 8, 120, 28},    // Spark: addition, partly over transparency
    {30, 146, 98, 158},   // Shadow: multiply, partly over transparency
}};
// The [origin] dot's centre: where the import puts the rig's origin.
constexpr int kOriginX = 64, kOriginY = 154;

bool left_out(int x, int y) {
  for (const auto& r : kLeftOut)
    if (x >= r[0] && x < r[2] && y >= r[1] && y < r[3]) return true;
  return false;
}

struct Difference {
  int compared = 0;
  int over = 0;          // pixels with a premultiplied channel more than kPixelTolerance apart
  double largest = 0;    // the largest premultiplied channel difference, 0..255
  double mean = 0;       // mean of each pixel's largest channel difference
};
constexpr double kPixelTolerance = 12;  // of 255: filtering and 8-bit blending round differently

Difference compare(const Image& rendered, const Image& composite) {
  Difference d;
  double sum = 0;
  for (int y = 0; y < composite.height; ++y)
    for (int x = 0; x < composite.width; ++x) {
      if (left_out(x, y)) continue;
      const std::uint8_t* a = rendered.pixel(x, y);
      const std::uint8_t* b = composite.pixel(x, y);
      double worst = std::abs(static_cast<double>(a[3]) - b[3]);
      for (int c = 0; c < 3; ++c)
        worst = std::max(worst, std::abs(a[c] * (a[3] / 255.0) - b[c] * (b[3] / 255.0)));
      ++d.compared;
      sum += worst;
      d.largest = std::max(d.largest, worst);
      if (worst > kPixelTolerance) ++d.over;
    }
  d.mean = d.compared ? sum / d.compared : 0;
  return d;
}

class PsdRender : public ::testing::Test {
 protected:
  mf::testing::TempDir dir_{"mf_psd_render"};
  std::string path(const std::string& relative) const { return dir_.file(relative); }

  // Imports into out/, checks the rig and renders its setup pose on the PSD's canvas.
  Image import_check_render(const std::string& file, const std::string& png) {
    const Result imported = mfe("skel import-psd " + quote(psd(file)) + " --out " + quote(path("out")) + " --name character");
    EXPECT_EQ(imported.exit_code, 0) << imported.output;
    const Result checked = mfe("skel check " + quote(path("out/character.mskel")));
    EXPECT_EQ(checked.exit_code, 0) << checked.output;
    return render(png);
  }

  Image render(const std::string& png) {
    const Result r = mfe("skel render-setup " + quote(path("out/character.mskel")) + " --size 128x160 --origin " +
                         std::to_string(kOriginX) + "," + std::to_string(kOriginY) + " --out " + quote(path(png)));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    Expected<Image> image = imaging::read_png(path(png));
    EXPECT_TRUE(image.ok()) << (image.ok() ? "" : image.error().to_string());
    return image.ok() ? *image : Image::blank(128, 160);
  }

  static Image composite_of(const std::string& file) {
    Expected<imaging::PsdDocument> doc = imaging::read_psd(psd(file));
    EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().to_string());
    return doc.ok() ? doc->composite : Image{};
  }

  static void expect_matches(const Image& rendered, const Image& composite, const std::string& what) {
    ASSERT_EQ(rendered.width, composite.width) << what;
    ASSERT_EQ(rendered.height, composite.height) << what;
    const Difference d = compare(rendered, composite);
    std::printf("%s: %d pixels compared, mean difference %.3f, largest %.1f, %d over %.0f\n", what.c_str(), d.compared,
                d.mean, d.largest, d.over, kPixelTolerance);
    EXPECT_GT(d.compared, 128 * 160 / 2) << what;
    EXPECT_LT(d.mean, 1.0) << what;  // of 255
    EXPECT_LE(d.over, d.compared / 200) << what;  // at most 0.5 % of the pixels, at anti-aliased edges
  }
};

TEST_F(PsdRender, EightBitGimpPsdRendersLikeItsComposite) {
  const Image rendered = import_check_render("gimp-character-8.psd", "setup8.png");
  expect_matches(rendered, composite_of("gimp-character-8.psd"), "gimp-character-8");
}

TEST_F(PsdRender, SixteenBitGimpPsdRendersLikeItsComposite) {
  const Image rendered = import_check_render("gimp-character-16.psd", "setup16.png");
  expect_matches(rendered, composite_of("gimp-character-16.psd"), "gimp-character-16");
}

// World positions of a mesh's vertices in the setup pose of a rig whose bones neither turn nor scale
// (the import makes such bones): a bone's world transform is the sum of its and its parents' x, y.
std::vector<Vec2d> setup_vertices(const SkeletonSource& rig, const MeshAttachment& mesh, int slot_bone) {
  auto origin = [&](int bone) {
    Vec2d p{0, 0};
    for (int b = bone; b >= 0; b = rig.bones[static_cast<std::size_t>(b)].parent) {
      p.x += rig.bones[static_cast<std::size_t>(b)].x;
      p.y += rig.bones[static_cast<std::size_t>(b)].y;
    }
    return p;
  };
  std::vector<Vec2d> out;
  if (!mesh.vertices.weighted()) {
    const Vec2d o = origin(slot_bone);
    for (std::size_t i = 0; i + 1 < mesh.vertices.positions.size(); i += 2)
      out.push_back({o.x + mesh.vertices.positions[i], o.y + mesh.vertices.positions[i + 1]});
    return out;
  }
  for (const auto& influences : mesh.vertices.weights) {
    Vec2d p{0, 0};
    for (const InfluenceSource& f : influences) {
      const Vec2d o = origin(f.bone);
      p.x += f.weight * (o.x + f.x);
      p.y += f.weight * (o.y + f.y);
    }
    out.push_back(p);
  }
  return out;
}

const Attachment* find_attachment(const SkeletonSource& rig, const std::string& slot, const std::string& name) {
  const int s = rig.find_slot(slot);
  for (const Skin& skin : rig.skins)
    for (const Attachment& a : skin.attachments)
      if (a.slot == s && a.name == name) return &a;
  return nullptr;
}

// The edited PSD moves "Arm R [bone]" by (+5, −3) and repaints "Face"; the rig made from the first
// PSD has had that arm auto meshed and weighted to two bones. Re-import keeps every bone, slot and
// mesh, the weights stay weights, the arm's vertices follow the layer by exactly the move, the
// face's image is the new one, and the rig renders like the edited PSD's composite.
TEST_F(PsdRender, ReimportAfterMovingAndRepaintingInGimpKeepsMeshesAndWeights) {
  (void)import_check_render("gimp-character-8.psd", "before.png");
  const std::string rig = quote(path("out/character.mskel"));
  Result r = mfe("skel automesh " + rig + " --slot 'Arm R'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = mfe("skel autoweights " + rig + " --slot 'Arm R' --bones 'Arm R,Body'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  Expected<SkeletonSource> before = read_skeleton_file(path("out/character.mskel"));
  ASSERT_TRUE(before.ok()) << before.error().to_string();
  const std::string face_before = mf::testing::read_text(path("out/images/Body/Head/Face.png"));

  r = mfe("skel import-psd " + quote(psd("gimp-character-8-edited.psd")) + " --out " + quote(path("out")) + " --name character");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = mfe("skel check " + rig);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  Expected<SkeletonSource> after = read_skeleton_file(path("out/character.mskel"));
  ASSERT_TRUE(after.ok()) << after.error().to_string();

  EXPECT_EQ(after->bones, before->bones);
  EXPECT_EQ(after->slots, before->slots);
  ASSERT_EQ(after->skins.size(), before->skins.size());
  const Attachment* arm_before = find_attachment(*before, "Arm R", "Arm R");
  const Attachment* arm_after = find_attachment(*after, "Arm R", "Arm R");
  ASSERT_NE(arm_before, nullptr);
  ASSERT_NE(arm_after, nullptr);
  ASSERT_EQ(arm_after->type(), AttachmentType::Mesh);
  const auto& mesh_before = std::get<MeshAttachment>(arm_before->data);
  const auto& mesh_after = std::get<MeshAttachment>(arm_after->data);
  ASSERT_TRUE(mesh_after.vertices.weighted());
  EXPECT_EQ(mesh_after.triangles, mesh_before.triangles);
  EXPECT_EQ(mesh_after.uvs, mesh_before.uvs);
  ASSERT_EQ(mesh_after.vertices.weights.size(), mesh_before.vertices.weights.size());
  for (std::size_t v = 0; v < mesh_after.vertices.weights.size(); ++v) {
    ASSERT_EQ(mesh_after.vertices.weights[v].size(), mesh_before.vertices.weights[v].size());
    for (std::size_t k = 0; k < mesh_after.vertices.weights[v].size(); ++k) {
      EXPECT_EQ(mesh_after.vertices.weights[v][k].bone, mesh_before.vertices.weights[v][k].bone);
      EXPECT_EQ(mesh_after.vertices.weights[v][k].weight, mesh_before.vertices.weights[v][k].weight);
    }
  }
  const int arm_bone = after->slots[static_cast<std::size_t>(after->find_slot("Arm R"))].bone;
  const std::vector<Vec2d> world_before = setup_vertices(*before, mesh_before, arm_bone);
  const std::vector<Vec2d> world_after = setup_vertices(*after, mesh_after, arm_bone);
  ASSERT_EQ(world_after.size(), world_before.size());
  for (std::size_t v = 0; v < world_after.size(); ++v) {
    EXPECT_NEAR(world_after[v].x - world_before[v].x, 5, 1e-3) << "vertex " << v;
    EXPECT_NEAR(world_after[v].y - world_before[v].y, -3, 1e-3) << "vertex " << v;
  }
  // The meshes the import made for [mesh] layers are still there.
  const Attachment* torso = find_attachment(*after, "Torso", "Torso");
  ASSERT_NE(torso, nullptr);
  EXPECT_EQ(torso->type(), AttachmentType::Mesh);
  EXPECT_NE(mf::testing::read_text(path("out/images/Body/Head/Face.png")), face_before);

  expect_matches(render("after.png"), composite_of("gimp-character-8-edited.psd"), "gimp-character-8-edited");
}

}  // namespace
}  // namespace mf::offline
