#pragma once
// AtlasPacker: packs rectangles into pages with MaxRects (best short-side fit, no rotation). A general
// engine type: skeleton atlases use it, and so can sprite frames or font glyphs. It places sizes
// only; what is drawn into the rectangles (padding, extrusion, pixels) is the caller's business.
//
// Deterministic: the output depends only on the inputs' sizes and order, never on addresses, hash
// seeds or timing. Inputs are placed largest first, by the key (height descending, width descending,
// input index ascending); each goes to the free rectangle with the best short-side fit on the current
// page (ties: the smaller long-side leftover, then the free rectangle found first). Inputs that no
// longer fit wait for the next page, which starts empty.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"

namespace mf::offline {

struct PackerSettings {
  int page_width = 2048, page_height = 2048;
  // The last page shrinks to the smallest size of the form (page_width >> i) × (page_height >> j) that
  // still holds everything it got, so a small set does not sit alone in a large page.
  bool shrink_last_page = true;
};

struct PackInput {
  int width = 0, height = 0;  // both > 0
  std::string name;           // names the input in errors, e.g. an image name
};

struct PackedRect {
  std::int32_t page = 0;
  int x = 0, y = 0, width = 0, height = 0;  // top-left origin on the page
};

struct PackedPage {
  int width = 0, height = 0;
  std::int64_t used_pixels = 0;  // the area of the rectangles on this page

  // used_pixels / page pixels, in [0, 1].
  double occupancy() const;
};

struct PackLayout {
  std::vector<PackedRect> rects;  // one per input, in input order
  std::vector<PackedPage> pages;

  // Every page's used pixels over every page's pixels, in [0, 1]; 0 when there are no pages.
  double occupancy() const;
  std::int64_t used_pixels() const;
  std::int64_t page_pixels() const;
};

class AtlasPacker {
 public:
  explicit AtlasPacker(PackerSettings settings) : settings_(settings) {}

  // Packs every input. Errors: page sizes that are not positive, an input without a positive size,
  // and an input larger than a page, each naming the input ("\"torso\" (3000×40 pixels) is larger
  // than the 2048×2048 atlas page"). The error has no file: callers add theirs. No input is ever
  // dropped or rotated.
  Expected<PackLayout> pack(std::span<const PackInput> inputs) const;

  const PackerSettings& settings() const { return settings_; }

 private:
  PackerSettings settings_;
};

}  // namespace mf::offline
