// The PNG-folder source: folders as groups, name order as draw order, tags in file names, and the
// two placements (full-canvas exports on their canvas; images of mixed sizes centred on the origin).

#include <gtest/gtest.h>

#include "mf/imaging/png.hpp"
#include "mf/offline/import/psd/art_import.hpp"
#include "mf/offline/import/psd/png_folder.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

imaging::Image box(int w, int h, imaging::Rect art) {
  imaging::Image im = imaging::Image::blank(w, h);
  for (int y = art.y; y < art.y + art.height; ++y)
    for (int x = art.x; x < art.x + art.width; ++x) im.pixel(x, y)[0] = 255, im.pixel(x, y)[3] = 255;
  return im;
}

class PngFolder : public ::testing::Test {
 protected:
  mf::testing::TempDir dir_{"mf_png_folder"};
  void png(const std::string& name, const imaging::Image& image) {
    std::filesystem::create_directories((dir_.path() / name).parent_path());
    ASSERT_TRUE(imaging::write_png(dir_.file(name), image));
  }
};

TEST_F(PngFolder, SameSizedImagesAreLayersOfThatCanvas) {
  png("parts/02 body/torso.png", box(100, 200, {40, 80, 20, 60}));
  png("parts/02 body/arm [bone].png", box(100, 200, {60, 80, 10, 40}));
  png("parts/01 shadow.png", box(100, 200, {20, 190, 60, 5}));
  png("parts/03 head.png", box(100, 200, {40, 40, 20, 20}));
  dir_.write("parts/notes.txt", "not an image");
  dir_.write("parts/.hidden.png", "not read");
  Expected<imaging::PsdDocument> doc = read_png_folder(dir_.file("parts"));
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  EXPECT_EQ(doc->width, 100);
  EXPECT_EQ(doc->height, 200);
  ASSERT_EQ(doc->layers.size(), 3u);
  EXPECT_EQ(doc->layers[0].name, "01 shadow");  // name order, the first at the bottom
  EXPECT_TRUE(doc->layers[1].is_group());
  EXPECT_EQ(doc->layers[1].children[0].name, "arm [bone]");

  Expected<ArtImport> a = import_png_folder(dir_.file("parts") + "/");
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  EXPECT_EQ(a->name, "parts");
  EXPECT_EQ(a->source, "parts");
  ASSERT_EQ(a->skeleton.slots.size(), 4u);
  EXPECT_EQ(a->skeleton.slots[0].name, "01 shadow");
  EXPECT_EQ(a->skeleton.slots[1].name, "arm");
  EXPECT_EQ(a->skeleton.slots[1].bone, a->skeleton.find_bone("arm"));
  EXPECT_EQ(a->skeleton.images[2].name, "02 body/torso");
  EXPECT_EQ(a->skeleton.images[2].source, "parts:02 body/torso");
  EXPECT_EQ(a->skeleton.images[2].rect, (CanvasRect{40, 80, 20, 60}));
  // The head's art centre (50, 50) from the canvas's bottom centre (50, 200).
  const auto& head = std::get<RegionAttachment>(a->skeleton.skins[0].attachments[3].data);
  EXPECT_FLOAT_EQ(head.x, 0);
  EXPECT_FLOAT_EQ(head.y, -150);
}

TEST_F(PngFolder, ImagesOfMixedSizesAreCentredOnTheOrigin) {
  png("icons/a.png", box(10, 20, {0, 0, 10, 20}));
  png("icons/b.png", box(30, 7, {0, 0, 30, 7}));
  Expected<ArtImport> a = import_png_folder(dir_.file("icons"), {"set"});
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  EXPECT_EQ(a->name, "set");
  const auto& ra = std::get<RegionAttachment>(a->skeleton.skins[0].attachments[0].data);
  const auto& rb = std::get<RegionAttachment>(a->skeleton.skins[0].attachments[1].data);
  EXPECT_FLOAT_EQ(ra.x, 0);
  EXPECT_FLOAT_EQ(ra.y, 0);
  EXPECT_FLOAT_EQ(rb.x, 0);
  EXPECT_FLOAT_EQ(rb.y, 0.5f);  // odd height: to the pixel
}

TEST_F(PngFolder, ErrorsNameTheFolderOrFile) {
  Expected<imaging::PsdDocument> missing = read_png_folder(dir_.file("nowhere"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("not a folder"), std::string::npos);
  std::filesystem::create_directories(dir_.path() / "empty/sub");
  Expected<imaging::PsdDocument> empty = read_png_folder(dir_.file("empty"));
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("no PNG files"), std::string::npos);
  dir_.write("bad/broken.png", "this is no PNG");
  Expected<imaging::PsdDocument> bad = read_png_folder(dir_.file("bad"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().to_string().find("broken.png"), std::string::npos) << bad.error().to_string();
}

}  // namespace
}  // namespace mf::offline
