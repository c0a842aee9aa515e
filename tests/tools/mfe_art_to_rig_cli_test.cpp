// Runs examples/psd-character/art-to-rig.sh as a user would, into a temporary folder, with the
// Vulkan validation layer on (mfe then exits 2 on any validation message): the PSD imported, every
// image meshed and weighted, a clip keyed, the rig checked, the setup pose and a contact sheet
// rendered. Then reads what it wrote and checks the meshes, weights and pictures itself rather than
// trusting the commands' printed figures.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include "mf/imaging/png.hpp"
#include "mf/imaging/psd.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/mesh/auto_mesh.hpp"
#include "mf/offline/mesh/triangulator.hpp"
#include "support/run_command.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

using Result = mf::testing::CommandResult;

std::string quote(const std::string& s) { return mf::testing::shell_quote(s); }

const std::string kExample = std::string(MF_EXAMPLES_DIR) + "/psd-character";

// The angle rule of the triangulator (triangulator.hpp): every triangle's smallest angle at least
// 20 degrees, except triangles at an input corner sharper than 40 degrees.
constexpr double kMinAngle = 20, kSharpCorner = 40;

double angle_at(Vec2d a, Vec2d b, Vec2d c) {  // the angle at a, degrees
  const Vec2d u{b.x - a.x, b.y - a.y}, v{c.x - a.x, c.y - a.y};
  return std::atan2(std::abs(u.x * v.y - u.y * v.x), u.x * v.x + u.y * v.y) * 180 / std::numbers::pi;
}

// A mesh as the file holds it, in its image's pixels (where auto mesh triangulated it).
struct FileMesh {
  std::string name;
  AutoMesh mesh;
  const MeshAttachment* source = nullptr;
};

FileMesh file_mesh(const Attachment& a) {
  const auto& m = std::get<MeshAttachment>(a.data);
  FileMesh out{a.name, {}, &m};
  for (std::size_t i = 0; i + 1 < m.uvs.size(); i += 2)
    out.mesh.positions.push_back({static_cast<double>(m.uvs[i]) * m.width, static_cast<double>(m.uvs[i + 1]) * m.height});
  for (std::size_t i = 0; i + 2 < m.triangles.size(); i += 3)
    out.mesh.triangles.push_back({m.triangles[i], m.triangles[i + 1], m.triangles[i + 2]});
  for (std::size_t i = 0; i + 1 < m.edges.size(); i += 2) out.mesh.edges.push_back({m.edges[i], m.edges[i + 1]});
  out.mesh.hull = m.hull;
  return out;
}

std::vector<std::array<std::uint32_t, 3>> unsigned_triangles(const AutoMesh& m) {
  std::vector<std::array<std::uint32_t, 3>> out;
  for (const auto& t : m.triangles)
    out.push_back({static_cast<std::uint32_t>(t[0]), static_cast<std::uint32_t>(t[1]), static_cast<std::uint32_t>(t[2])});
  return out;
}

std::string histogram_row(const char* label, const AngleHistogram& h) {
  std::string row = label;
  for (int c : h.counts) {
    char cell[16];
    std::snprintf(cell, sizeof cell, " %5d", c);
    row += cell;
  }
  return row;
}

class ArtToRig : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("mf_art_to_rig_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    run_ = new Result(mf::testing::run_shell(
        "MF_VULKAN_VALIDATION=1 MF_SKELETON_BAKE_CACHE_DIR=off MFE=" + quote(MF_MFE_PATH) + " bash " +
        quote(kExample + "/art-to-rig.sh") + " " + quote(dir_.string())));
    auto read = read_skeleton_file((dir_ / "lizard.mskel").string());
    if (read.ok()) rig_ = new SkeletonSource(std::move(read).value());
  }
  static void TearDownTestSuite() {
    delete run_;
    delete rig_;
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  void SetUp() override {
    ASSERT_EQ(run_->exit_code, 0) << run_->output;
    ASSERT_NE(rig_, nullptr) << "the rig does not read";
  }

  static std::vector<FileMesh> meshes() {
    std::vector<FileMesh> out;
    for (const Skin& skin : rig_->skins)
      for (const Attachment& a : skin.attachments)
        if (a.type() == AttachmentType::Mesh) out.push_back(file_mesh(a));
    return out;
  }

  static inline fs::path dir_;
  static inline Result* run_ = nullptr;
  static inline SkeletonSource* rig_ = nullptr;
};

TEST_F(ArtToRig, TheRigChecksWithoutErrors) {
  EXPECT_NE(run_->output.find("0 errors, 0 warnings"), std::string::npos) << run_->output;
  const Result check = mf::testing::run_shell(quote(MF_MFE_PATH) + " skel check " + quote((dir_ / "lizard.mskel").string()));
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("0 errors"), std::string::npos) << check.output;
}

TEST_F(ArtToRig, EveryImageIsShownByAMesh) {
  std::set<std::string> images, meshed;
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "images"))
    if (e.path().extension() == ".png") images.insert(fs::relative(e.path(), dir_ / "images").replace_extension().generic_string());
  EXPECT_EQ(images.size(), 15u);  // 16 pixel layers less the [origin] marker
  for (const Skin& skin : rig_->skins)
    for (const Attachment& a : skin.attachments) {
      ASSERT_EQ(a.type(), AttachmentType::Mesh) << a.name;
      const std::string& image = std::get<MeshAttachment>(a.data).image;
      meshed.insert(image.empty() ? a.name : image);  // empty: the attachment's name
    }
  EXPECT_EQ(meshed, images);
}

TEST_F(ArtToRig, EveryTriangleMeetsTheAngleRuleAndBeatsEarClipping) {
  AngleHistogram total, ear_total;
  total.smallest = ear_total.smallest = 180;
  int exceptions = 0;
  for (const FileMesh& f : meshes()) {
    SCOPED_TRACE(f.name);
    const AutoMesh& m = f.mesh;
    ASSERT_GE(m.hull, 3);
    ASSERT_FALSE(m.triangles.empty());
    // A vertex's corner: the sum of its triangles' angles (360 inside the mesh, the inner angle of
    // the outline on it).
    std::vector<double> corner(m.positions.size(), 0);
    for (const auto& t : m.triangles)
      for (int k = 0; k < 3; ++k)
        corner[static_cast<std::size_t>(t[k])] += angle_at(m.positions[static_cast<std::size_t>(t[k])],
                                                          m.positions[static_cast<std::size_t>(t[(k + 1) % 3])],
                                                          m.positions[static_cast<std::size_t>(t[(k + 2) % 3])]);
    for (const auto& t : m.triangles) {
      double smallest = 180;
      bool sharp_corner = false;
      for (int k = 0; k < 3; ++k) {
        const std::size_t v = static_cast<std::size_t>(t[k]);
        smallest = std::min(smallest, angle_at(m.positions[v], m.positions[static_cast<std::size_t>(t[(k + 1) % 3])],
                                               m.positions[static_cast<std::size_t>(t[(k + 2) % 3])]));
        sharp_corner = sharp_corner || corner[v] < kSharpCorner;
      }
      if (smallest >= kMinAngle) continue;
      EXPECT_TRUE(sharp_corner) << "triangle " << t[0] << ", " << t[1] << ", " << t[2] << ": smallest angle " << smallest;
      ++exceptions;
    }

    // Against ear clipping of the same outline, recomputed here from the file's hull and edges.
    const AngleHistogram h = min_angle_histogram(m.positions, unsigned_triangles(m));
    const auto ear = ear_clip_domain(outline_domain(m));
    ASSERT_TRUE(ear.ok()) << ear.error().message;
    const AngleHistogram e = min_angle_histogram(m.positions, *ear);
    EXPECT_GE(h.smallest, e.smallest);
    std::printf("%-16s %3zu vertices (%2d hull) %3zu triangles  smallest %5.1f deg  (ear clipping: %3zu triangles, %4.1f deg)\n",
                f.name.c_str(), m.positions.size(), m.hull, m.triangles.size(), h.smallest, ear->size(), e.smallest);
    for (AngleHistogram* into : {&total, &ear_total}) {
      const AngleHistogram& from = into == &total ? h : e;
      into->counts.resize(std::max(into->counts.size(), from.counts.size()), 0);
      for (std::size_t i = 0; i < from.counts.size(); ++i) into->counts[i] += from.counts[i];
      into->smallest = std::min(into->smallest, from.smallest);
    }
  }
  std::printf("smallest angle, 5-degree bins from 0 to 60 (the last bin: 60)\n%s\n%s\n",
              histogram_row("auto mesh   ", total).c_str(), histogram_row("ear clipping", ear_total).c_str());
  std::printf("all meshes: smallest %.1f deg, %d triangles under %.0f deg (at corners sharper than %.0f deg); ear "
              "clipping: smallest %.1f deg\n",
              total.smallest, exceptions, kMinAngle, kSharpCorner, ear_total.smallest);
  // Ear clipping of these outlines makes slivers: the comparison is worth reporting.
  EXPECT_LT(ear_total.smallest, kMinAngle);
}

TEST_F(ArtToRig, EveryVertexsWeightsSumToOne) {
  double worst = 0;
  for (const FileMesh& f : meshes()) {
    SCOPED_TRACE(f.name);
    const Vertices& v = f.source->vertices;
    ASSERT_TRUE(v.weighted());
    ASSERT_EQ(v.count(), f.mesh.positions.size());
    for (const auto& influences : v.weights) {
      ASSERT_FALSE(influences.empty());
      double sum = 0;
      for (const InfluenceSource& i : influences) sum += i.weight;
      EXPECT_NEAR(sum, 1.0, 1e-5);
      worst = std::max(worst, std::abs(sum - 1));
    }
  }
  std::printf("largest |weight sum - 1| over every vertex: %.3g\n", worst);
}

// The setup pose lies over the PSD's own merged image: colours premultiplied by alpha (where the art
// is almost transparent its straight colour means little) differ by at most 4 of 255 per channel,
// the rounding of the PNGs' straight alpha and of the renderer's filtering.
TEST_F(ArtToRig, TheSetupPoseMatchesThePsd) {
  const auto psd = imaging::read_psd(kExample + "/psd-character.psd");
  ASSERT_TRUE(psd.ok()) << psd.error().to_string();
  const auto setup = imaging::read_png((dir_ / "setup.png").string());
  ASSERT_TRUE(setup.ok()) << setup.error().to_string();
  ASSERT_EQ(setup->width, psd->composite.width);
  ASSERT_EQ(setup->height, psd->composite.height);
  double worst = 0;
  int opaque = 0;
  for (int y = 0; y < setup->height; ++y)
    for (int x = 0; x < setup->width; ++x) {
      const std::uint8_t* a = setup->pixel(x, y);
      const std::uint8_t* b = psd->composite.pixel(x, y);
      opaque += a[3] == 255;
      for (int c = 0; c < 3; ++c)
        worst = std::max(worst, std::abs(a[c] * a[3] / 255.0 - b[c] * b[3] / 255.0));
      worst = std::max(worst, std::abs(static_cast<double>(a[3]) - b[3]));
    }
  std::printf("setup pose against the PSD's merged image: largest difference %.2f of 255\n", worst);
  EXPECT_LE(worst, 4.0);
  EXPECT_GT(opaque, 5000);  // the lizard, not an empty picture
}

// The contact sheet decodes and shows the lizard in every one of its 8 cells: its green, which
// nothing else on a sheet has.
TEST_F(ArtToRig, TheClipRenders) {
  const auto sheet = imaging::read_png((dir_ / "wave.png").string());
  ASSERT_TRUE(sheet.ok()) << sheet.error().to_string();
  int green = 0;
  for (int y = 0; y < sheet->height; ++y)
    for (int x = 0; x < sheet->width; ++x) {
      const std::uint8_t* p = sheet->pixel(x, y);
      green += p[1] > p[0] + 40 && p[1] > p[2] + 40;
    }
  EXPECT_GT(green, 8 * 5000) << "lizard pixels on the sheet";
}

}  // namespace
}  // namespace mf::offline
