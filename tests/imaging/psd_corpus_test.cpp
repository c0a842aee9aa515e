// PSDs written by tools no one here wrote (GIMP 2.10, ag-psd, ImageMagick 6.9: tests/data/psd/make)
// decoded by our reader and compared with what psd-tools, an independent reader, reads from them
// (tests/data/psd/reference, written by scripts/psd-reference.py).
//
// Tolerances:
//   - the tree (layers and groups in draw order, their paths and kinds), visibility, opacity, fill,
//     blend key, clipping, open or closed folders, record indices and bounds: exact;
//   - layer pixels, RGBA8 straight alpha within the layer's bounds: 8-bit files exact (colour where
//     alpha > 0; what lies under alpha 0 is not part of the picture); 16-bit files within 1 per
//     channel (psd-tools reduces 16 bits to 8 as floor(v / 256), our reader rounds v * 255 / 65535);
//   - the composite: alpha as for layers; colour within 2 once weighted by alpha (|Δc| · a / 255),
//     since a transparent composite is stored matted against white and un-matting divides by alpha,
//     which magnifies the readers' different rounding where alpha is small.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "mf/imaging/png.hpp"
#include "mf/imaging/psd.hpp"

namespace mf::imaging {
namespace {

const std::filesystem::path kPsdDir = std::filesystem::path(MF_TEST_DATA_DIR) / "psd";
const std::filesystem::path kReferenceDir = kPsdDir / "reference";

// Every PSD of the corpus that the reader reads, by the stem of its file name.
const std::vector<std::string> kReadable = {
    "agpsd-features",           "gimp-character-8",         "gimp-character-16",
    "gimp-character-8-edited",  "gimp-character-16-edited", "imagemagick-raw",
    "imagemagick-swapped-keys",
};
// ...and the one it refuses.
const std::string kZip = "agpsd-zip";

nlohmann::json load_reference(const std::string& stem) {
  std::ifstream in(kReferenceDir / (stem + ".json"));
  EXPECT_TRUE(in) << "no reference for " << stem << ": run scripts/psd-reference.py";
  return nlohmann::json::parse(in);
}

PsdDocument load_psd(const std::string& stem) {
  const std::string path = (kPsdDir / (stem + ".psd")).string();
  auto doc = read_psd(path);
  EXPECT_TRUE(doc.ok()) << (doc ? "" : doc.error().to_string());
  return doc ? std::move(doc).value() : PsdDocument{};
}

Image load_png(const std::string& relative) {
  auto image = read_png((kReferenceDir / relative).string());
  EXPECT_TRUE(image.ok()) << (image ? "" : image.error().to_string());
  return image ? std::move(image).value() : Image{};
}

struct Flat {
  std::string path;
  const PsdLayer* layer;
};

// Draw order, a group before its children: the order of the reference.
void flatten(const std::vector<PsdLayer>& layers, const std::string& parent, std::vector<Flat>& out) {
  for (const PsdLayer& layer : layers) {
    const std::string path = parent.empty() ? layer.name : parent + "/" + layer.name;
    out.push_back({path, &layer});
    if (layer.is_group()) flatten(layer.children, path, out);
  }
}

std::vector<Flat> flatten(const PsdDocument& doc) {
  std::vector<Flat> out;
  flatten(doc.layers, "", out);
  return out;
}

// Compares two pictures of the same size; `colour_weighted` compares colour as |Δc| · a / 255.
// Returns a description of the first pixels that differ beyond the tolerance, empty when none.
std::string compare_pixels(const Image& ours, const Image& ref, int alpha_tolerance, double colour_tolerance,
                           bool colour_weighted) {
  if (ours.width != ref.width || ours.height != ref.height)
    return "size " + std::to_string(ours.width) + "x" + std::to_string(ours.height) + " instead of " +
           std::to_string(ref.width) + "x" + std::to_string(ref.height);
  std::string report;
  int bad = 0;
  for (int y = 0; y < ref.height; ++y) {
    for (int x = 0; x < ref.width; ++x) {
      const std::uint8_t* o = ours.pixel(x, y);
      const std::uint8_t* r = ref.pixel(x, y);
      bool wrong = std::abs(o[3] - r[3]) > alpha_tolerance;
      if (r[3] > 0) {
        for (int c = 0; c < 3; ++c) {
          const double d = std::abs(o[c] - r[c]) * (colour_weighted ? r[3] / 255.0 : 1.0);
          wrong = wrong || d > colour_tolerance;
        }
      }
      if (!wrong) continue;
      if (++bad <= 3) {
        report += " (" + std::to_string(x) + "," + std::to_string(y) + "): ours " + std::to_string(o[0]) + " " +
                  std::to_string(o[1]) + " " + std::to_string(o[2]) + " " + std::to_string(o[3]) + ", psd-tools " +
                  std::to_string(r[0]) + " " + std::to_string(r[1]) + " " + std::to_string(r[2]) + " " +
                  std::to_string(r[3]) + ";";
      }
    }
  }
  if (bad == 0) return "";
  return std::to_string(bad) + " pixels differ:" + report;
}

std::vector<int> rect_ltrb(const Rect& r) {
  if (r.empty()) return {0, 0, 0, 0};
  return {r.x, r.y, r.x + r.width, r.y + r.height};
}

class PsdCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(PsdCorpus, MatchesPsdTools) {
  const std::string stem = GetParam();
  const nlohmann::json ref = load_reference(stem);
  const PsdDocument doc = load_psd(stem);

  EXPECT_EQ(doc.width, ref["width"].get<int>());
  EXPECT_EQ(doc.height, ref["height"].get<int>());
  EXPECT_EQ(doc.bits_per_channel, ref["bits_per_channel"].get<int>());
  const bool sixteen = ref["bits_per_channel"].get<int>() == 16;
  const int tolerance = sixteen ? 1 : 0;

  const std::vector<Flat> ours = flatten(doc);
  const auto& layers = ref["layers"];
  ASSERT_EQ(ours.size(), layers.size()) << "layer count";
  for (std::size_t i = 0; i < ours.size(); ++i) {
    const auto& r = layers[i];
    const PsdLayer& l = *ours[i].layer;
    const std::string path = r["path"].get<std::string>();
    SCOPED_TRACE(stem + ": " + path);
    ASSERT_EQ(ours[i].path, path);
    EXPECT_EQ(l.name, r["name"].get<std::string>());
    EXPECT_EQ(l.is_group(), r["kind"].get<std::string>() == "group");
    EXPECT_EQ(l.visible, r["visible"].get<bool>());
    EXPECT_EQ(static_cast<int>(l.opacity), r["opacity"].get<int>());
    EXPECT_EQ(static_cast<int>(l.fill), r["fill"].get<int>());
    EXPECT_EQ(l.blend_key(), r["blend"].get<std::string>());
    EXPECT_EQ(l.clipping, r["clipping"].get<bool>());
    EXPECT_EQ(rect_ltrb(l.bounds), r["bounds"].get<std::vector<int>>());
    if (l.is_group()) {
      EXPECT_EQ(l.group_open, r["open"].get<bool>());
      EXPECT_TRUE(l.pixels.empty());
      continue;
    }
    EXPECT_EQ(l.record, r["record"].get<int>());
    if (!r.contains("pixels")) {
      EXPECT_TRUE(l.pixels.empty()) << "an empty layer has no pixels";
      continue;
    }
    const Image expected = load_png(r["pixels"].get<std::string>());
    EXPECT_EQ(compare_pixels(l.pixels, expected, tolerance, tolerance, false), "");
  }

  ASSERT_TRUE(ref.contains("composite"));
  const Image composite = load_png(ref["composite"].get<std::string>());
  EXPECT_EQ(compare_pixels(doc.composite, composite, tolerance, 2.0, true), "") << "composite";
}

INSTANTIATE_TEST_SUITE_P(Files, PsdCorpus, ::testing::ValuesIn(kReadable),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(PsdCorpusFiles, EveryCommittedPsdIsCompared) {
  std::set<std::string> listed(kReadable.begin(), kReadable.end());
  listed.insert(kZip);
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(kPsdDir))
    if (entry.path().extension() == ".psd") on_disk.insert(entry.path().stem().string());
  EXPECT_EQ(on_disk, listed);
}

// ag-psd's `compress: true` stores every channel ZIP-compressed: refused, naming the layer (the
// bottom-most layer's record comes first in the file).
TEST(PsdCorpusFiles, ZipChannelsAreRefusedNamingTheLayer) {
  auto doc = read_psd((kPsdDir / (kZip + ".psd")).string());
  ASSERT_FALSE(doc.ok());
  const std::string message = doc.error().to_string();
  std::string lower = message;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  EXPECT_NE(lower.find("zip"), std::string::npos) << message;
  EXPECT_NE(message.find("Background paper"), std::string::npos) << message;
  EXPECT_NE(message.find("agpsd-zip.psd"), std::string::npos) << message;
}

// ag-psd wrote a user mask on "Masked": the layer is kept unmasked, with a warning naming it.
TEST(PsdCorpusFiles, LayerMaskIsIgnoredWithAWarning) {
  const PsdDocument doc = load_psd("agpsd-features");
  const bool warned = std::any_of(doc.warnings.begin(), doc.warnings.end(),
                                  [](const PsdWarning& w) { return w.layer == "Masked"; });
  EXPECT_TRUE(warned);
}

// The ImageMagick file with byte-swapped blend keys holds the same pictures as the valid one: the
// damage is in the keys alone, which the reader reports as stored ("mron", " lum") for the importer
// to name as unknown blend modes.
TEST(PsdCorpusFiles, SwappedBlendKeysAreKeptAsStored) {
  const PsdDocument valid = load_psd("imagemagick-raw");
  const PsdDocument swapped = load_psd("imagemagick-swapped-keys");
  const auto a = flatten(valid), b = flatten(swapped);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(a[i].path);
    std::string reversed = a[i].layer->blend_key();
    std::reverse(reversed.begin(), reversed.end());
    EXPECT_EQ(b[i].layer->blend_key(), reversed);
    EXPECT_EQ(b[i].layer->bounds, a[i].layer->bounds);
    EXPECT_EQ(b[i].layer->pixels, a[i].layer->pixels);
  }
}

// The edited GIMP files (gimp-character-edit.scm) differ from the originals in two layers only:
// "Arm R [bone]" moved by (+5, -3) with the same pixels, and "Face" repainted in place.
TEST(PsdCorpusFiles, EditedGimpFilesChangeOnlyTheEditedLayers) {
  for (const std::string bits : {"8", "16"}) {
    const PsdDocument before = load_psd("gimp-character-" + bits);
    const PsdDocument after = load_psd("gimp-character-" + bits + "-edited");
    const auto a = flatten(before), b = flatten(after);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      SCOPED_TRACE(bits + "-bit: " + a[i].path);
      ASSERT_EQ(a[i].path, b[i].path);
      const PsdLayer& x = *a[i].layer;
      const PsdLayer& y = *b[i].layer;
      if (a[i].path == "Body/Arm R [bone]") {
        EXPECT_EQ(y.bounds, (Rect{x.bounds.x + 5, x.bounds.y - 3, x.bounds.width, x.bounds.height}));
        EXPECT_EQ(y.pixels, x.pixels);
      } else if (a[i].path == "Body/Head/Face") {
        EXPECT_EQ(y.bounds, x.bounds);
        EXPECT_NE(y.pixels, x.pixels);
      } else if (!x.is_group()) {
        EXPECT_EQ(y.bounds, x.bounds);
        EXPECT_EQ(y.pixels, x.pixels);
      }
      EXPECT_EQ(y.visible, x.visible);
      EXPECT_EQ(y.opacity, x.opacity);
      EXPECT_EQ(y.blend_key(), x.blend_key());
    }
  }
}

}  // namespace
}  // namespace mf::imaging
