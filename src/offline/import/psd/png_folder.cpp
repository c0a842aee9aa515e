#include "mf/offline/import/psd/png_folder.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>
#include <vector>

#include "mf/imaging/png.hpp"

namespace mf::offline {
namespace fs = std::filesystem;
namespace {

// Deeper folders than this are refused rather than followed (a link loop, say).
constexpr int kMaxDepth = 32;

bool is_png(const fs::path& p) {
  std::string ext = p.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".png";
}

class FolderReader {
 public:
  Expected<imaging::PsdDocument> read(const std::string& folder) {
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
      return Unexpected{Error{folder, {}, {}, "not a folder: import-images reads a folder of PNGs"}};
    imaging::PsdDocument doc;
    if (Status s = read_folder(fs::path(folder), doc.layers, 0); !s) return Unexpected{s.error()};
    std::vector<const imaging::Image*> images;
    collect(doc.layers, images);
    if (images.empty()) return Unexpected{Error{folder, {}, {}, "no PNG files in the folder or its sub-folders"}};
    const bool canvas = std::all_of(images.begin(), images.end(), [&](const imaging::Image* i) {
      return i->width == images.front()->width && i->height == images.front()->height;
    });
    if (canvas) {
      doc.width = images.front()->width;
      doc.height = images.front()->height;
    }
    place(doc.layers, canvas);
    set_group_bounds(doc.layers);
    return doc;
  }

 private:
  Status read_folder(const fs::path& folder, std::vector<imaging::PsdLayer>& out, int depth) {
    if (depth > kMaxDepth)
      return Unexpected{Error{folder.string(), {}, {}, "folders nested deeper than " + std::to_string(kMaxDepth)}};
    std::error_code ec;
    std::vector<fs::path> entries;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path p = it->path();
      if (p.filename().string().starts_with(".")) continue;
      if (it->is_directory(ec) || (it->is_regular_file(ec) && is_png(p))) entries.push_back(p);
    }
    if (ec) return Unexpected{Error{folder.string(), {}, {}, "cannot read the folder: " + ec.message()}};
    std::sort(entries.begin(), entries.end(),
              [](const fs::path& a, const fs::path& b) { return a.filename().string() < b.filename().string(); });
    for (const fs::path& p : entries) {
      imaging::PsdLayer layer;
      layer.record = record_++;
      if (fs::is_directory(p, ec)) {
        layer.kind = imaging::PsdLayer::Kind::Group;
        layer.name = p.filename().string();
        std::copy_n("pass", 4, layer.blend);
        if (Status s = read_folder(p, layer.children, depth + 1); !s) return s;
      } else {
        layer.name = p.stem().string();
        Expected<imaging::Image> image = imaging::read_png(p.string());
        if (!image) return Unexpected{image.error()};
        layer.pixels = std::move(*image);
      }
      out.push_back(std::move(layer));
    }
    return {};
  }

  static void collect(const std::vector<imaging::PsdLayer>& layers, std::vector<const imaging::Image*>& images) {
    for (const imaging::PsdLayer& l : layers) {
      if (l.is_group()) collect(l.children, images);
      else images.push_back(&l.pixels);
    }
  }

  static void place(std::vector<imaging::PsdLayer>& layers, bool canvas) {
    for (imaging::PsdLayer& l : layers) {
      if (l.is_group()) {
        place(l.children, canvas);
        continue;
      }
      const int w = l.pixels.width, h = l.pixels.height;
      l.bounds = canvas ? imaging::Rect{0, 0, w, h} : imaging::Rect{-(w / 2), -(h / 2), w, h};
    }
  }

  static imaging::Rect set_group_bounds(std::vector<imaging::PsdLayer>& layers) {
    imaging::Rect all;
    for (imaging::PsdLayer& l : layers) {
      if (l.is_group()) l.bounds = set_group_bounds(l.children);
      if (l.bounds.empty()) continue;
      if (all.empty()) {
        all = l.bounds;
        continue;
      }
      const int x0 = std::min(all.x, l.bounds.x), y0 = std::min(all.y, l.bounds.y);
      const int x1 = std::max(all.x + all.width, l.bounds.x + l.bounds.width);
      const int y1 = std::max(all.y + all.height, l.bounds.y + l.bounds.height);
      all = {x0, y0, x1 - x0, y1 - y0};
    }
    return all;
  }

  int record_ = 0;
};

}  // namespace

Expected<imaging::PsdDocument> read_png_folder(const std::string& folder) { return FolderReader().read(folder); }

}  // namespace mf::offline
