// Fuzzes the PSD reader. Beyond "no crash": an accepted file has a canvas within the limit, every
// pixel layer holds exactly bounds.width × bounds.height RGBA pixels (none when its bounds are empty),
// groups hold no pixels and their bounds enclose their children's, and the merged image is empty or the
// canvas's size; a refused file has a message naming the file and the byte offset.

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "mf/imaging/psd.hpp"

namespace {

using mf::imaging::PsdLayer;

bool encloses(const mf::imaging::Rect& outer, const mf::imaging::Rect& inner) {
  if (inner.empty()) return true;
  return inner.x >= outer.x && inner.y >= outer.y &&
         static_cast<long long>(inner.x) + inner.width <= static_cast<long long>(outer.x) + outer.width &&
         static_cast<long long>(inner.y) + inner.height <= static_cast<long long>(outer.y) + outer.height;
}

void check_layers(const std::vector<PsdLayer>& layers) {
  for (const PsdLayer& layer : layers) {
    if (layer.bounds.width < 0 || layer.bounds.height < 0) std::abort();
    if (layer.is_group()) {
      if (!layer.pixels.empty() || !layer.pixels.rgba.empty()) std::abort();
      for (const PsdLayer& child : layer.children)
        if (!encloses(layer.bounds, child.bounds)) std::abort();
      check_layers(layer.children);
    } else {
      if (!layer.children.empty()) std::abort();
      if (layer.bounds.empty()) {
        if (!layer.pixels.rgba.empty()) std::abort();
      } else if (layer.pixels.width != layer.bounds.width || layer.pixels.height != layer.bounds.height ||
                 layer.pixels.rgba.size() != static_cast<std::size_t>(layer.bounds.width) *
                                                 static_cast<std::size_t>(layer.bounds.height) * 4) {
        std::abort();
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mf::imaging;
  auto doc = decode_psd(std::span<const std::uint8_t>(data, size), "fuzz.psd");
  if (!doc.ok()) {
    const auto& e = doc.error();
    if (e.file != "fuzz.psd" || e.message.rfind("at byte ", 0) != 0) std::abort();
    return 0;
  }
  if (doc->width < 1 || doc->height < 1 || doc->width > kMaxPsdSide || doc->height > kMaxPsdSide) std::abort();
  if (doc->bits_per_channel != 8 && doc->bits_per_channel != 16) std::abort();
  if (!doc->composite.rgba.empty() &&
      (doc->composite.width != doc->width || doc->composite.height != doc->height ||
       doc->composite.rgba.size() != static_cast<std::size_t>(doc->width) * static_cast<std::size_t>(doc->height) * 4))
    std::abort();
  check_layers(doc->layers);
  for (const auto& warning : doc->warnings)
    if (warning.message.empty()) std::abort();
  return 0;
}
