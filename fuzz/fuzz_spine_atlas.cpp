// Fuzzes the .atlas reader and region unpacking. A rejected input has a message; for an accepted one
// every region is unpacked from a small blank page (regions outside it are errors, never crashes).

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "mf/imaging/image.hpp"
#include "mf/offline/import/spine/spine_atlas.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mf::offline;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto atlas = parse_atlas(text, "fuzz.atlas");
  if (!atlas.ok()) {
    if (atlas.error().message.empty()) std::abort();
    return 0;
  }
  const mf::imaging::Image page = mf::imaging::Image::blank(64, 64);
  for (const SpineAtlasPage& p : atlas->pages)
    for (const SpineAtlasRegion& r : p.regions) {
      if (static_cast<long long>(r.original_width) * r.original_height > 4096 * 4096) continue;
      auto image = unpack_region(page, p, r, "fuzz.atlas");
      if (!image.ok() && image.error().message.empty()) std::abort();
      if (image.ok() && (image->width != r.original_width || image->height != r.original_height)) std::abort();
    }
  return 0;
}
