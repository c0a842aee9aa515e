// MaxRects (Jylänki, "A Thousand Ways to Pack the Bin", 2010) with the best short-side fit rule and
// no rotation. Each page keeps a list of maximal free rectangles: placing a rectangle splits every
// free rectangle it overlaps into up to four maximal pieces, and pieces inside another are pruned.

#include "mf/offline/build/atlas_packer.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <tuple>

namespace mf::offline {
namespace {

struct Box {
  int x, y, width, height;

  int right() const { return x + width; }
  int bottom() const { return y + height; }
  bool contains(const Box& o) const {
    return o.x >= x && o.y >= y && o.right() <= right() && o.bottom() <= bottom();
  }
  bool overlaps(const Box& o) const { return o.x < right() && x < o.right() && o.y < bottom() && y < o.bottom(); }
};

class MaxRectsPage {
 public:
  MaxRectsPage(int width, int height) : free_{{0, 0, width, height}} {}

  // Places a width × height rectangle at the best short-side fit, or returns false when none fits.
  bool place(int width, int height, Box& out) {
    int best_short = std::numeric_limits<int>::max(), best_long = std::numeric_limits<int>::max();
    std::size_t best = free_.size();
    for (std::size_t i = 0; i < free_.size(); ++i) {
      const Box& f = free_[i];
      if (f.width < width || f.height < height) continue;
      const int dx = f.width - width, dy = f.height - height;
      const int short_side = std::min(dx, dy), long_side = std::max(dx, dy);
      if (short_side < best_short || (short_side == best_short && long_side < best_long)) {
        best = i;
        best_short = short_side;
        best_long = long_side;
      }
    }
    if (best == free_.size()) return false;
    out = {free_[best].x, free_[best].y, width, height};
    split(out);
    prune();
    return true;
  }

 private:
  void split(const Box& used) {
    std::vector<Box> next;
    next.reserve(free_.size() + 4);
    for (const Box& f : free_) {
      if (!f.overlaps(used)) {
        next.push_back(f);
        continue;
      }
      // The parts of f left, right, above and below the used box; each is maximal within f.
      if (used.x > f.x) next.push_back({f.x, f.y, used.x - f.x, f.height});
      if (used.right() < f.right()) next.push_back({used.right(), f.y, f.right() - used.right(), f.height});
      if (used.y > f.y) next.push_back({f.x, f.y, f.width, used.y - f.y});
      if (used.bottom() < f.bottom()) next.push_back({f.x, used.bottom(), f.width, f.bottom() - used.bottom()});
    }
    free_ = std::move(next);
  }

  // Drops free rectangles contained in another (of two equal ones, the later goes).
  void prune() {
    std::vector<std::uint8_t> dead(free_.size(), 0);
    for (std::size_t i = 0; i < free_.size(); ++i) {
      if (dead[i]) continue;
      for (std::size_t j = 0; j < free_.size(); ++j) {
        if (i == j || dead[j]) continue;
        if (free_[i].contains(free_[j])) dead[j] = 1;
      }
    }
    std::vector<Box> kept;
    kept.reserve(free_.size());
    for (std::size_t i = 0; i < free_.size(); ++i)
      if (!dead[i]) kept.push_back(free_[i]);
    free_ = std::move(kept);
  }

  std::vector<Box> free_;
};

// Packs `order` (indices into inputs) onto one page of this size: the placed ones go to `placed`
// (index, box), the ones that did not fit to `left`, both in `order`'s order.
void pack_page(std::span<const PackInput> inputs, const std::vector<std::size_t>& order, int width, int height,
               std::vector<std::pair<std::size_t, Box>>& placed, std::vector<std::size_t>& left) {
  placed.clear();
  left.clear();
  MaxRectsPage page(width, height);
  for (std::size_t i : order) {
    Box box{};
    if (inputs[i].width <= width && inputs[i].height <= height && page.place(inputs[i].width, inputs[i].height, box))
      placed.emplace_back(i, box);
    else
      left.push_back(i);
  }
}

std::string size_text(int width, int height) { return std::to_string(width) + "×" + std::to_string(height); }

Unexpected packer_error(std::string message) { return Unexpected{Error{{}, {}, {}, std::move(message)}}; }

}  // namespace

double PackedPage::occupancy() const {
  const double pixels = static_cast<double>(width) * static_cast<double>(height);
  return pixels > 0 ? static_cast<double>(used_pixels) / pixels : 0.0;
}

std::int64_t PackLayout::used_pixels() const {
  std::int64_t sum = 0;
  for (const PackedPage& p : pages) sum += p.used_pixels;
  return sum;
}

std::int64_t PackLayout::page_pixels() const {
  std::int64_t sum = 0;
  for (const PackedPage& p : pages) sum += static_cast<std::int64_t>(p.width) * p.height;
  return sum;
}

double PackLayout::occupancy() const {
  const std::int64_t pixels = page_pixels();
  return pixels > 0 ? static_cast<double>(used_pixels()) / static_cast<double>(pixels) : 0.0;
}

Expected<PackLayout> AtlasPacker::pack(std::span<const PackInput> inputs) const {
  const int page_w = settings_.page_width, page_h = settings_.page_height;
  if (page_w <= 0 || page_h <= 0) return packer_error("the atlas page size " + size_text(page_w, page_h) + " is not positive");
  for (const PackInput& in : inputs) {
    if (in.width <= 0 || in.height <= 0)
      return packer_error("\"" + in.name + "\" has an empty size " + size_text(in.width, in.height));
    if (in.width > page_w || in.height > page_h)
      return packer_error("\"" + in.name + "\" (" + size_text(in.width, in.height) + " pixels) is larger than the " +
                          size_text(page_w, page_h) + " atlas page");
  }

  std::vector<std::size_t> order(inputs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tuple(-inputs[a].height, -inputs[a].width, a) < std::tuple(-inputs[b].height, -inputs[b].width, b);
  });

  PackLayout layout;
  layout.rects.resize(inputs.size());
  std::vector<std::pair<std::size_t, Box>> placed;
  std::vector<std::size_t> left;
  while (!order.empty()) {
    int width = page_w, height = page_h;
    pack_page(inputs, order, width, height, placed, left);
    if (left.empty() && settings_.shrink_last_page) {
      // Smaller candidate pages by area (then squarer, then wider); the first that holds all wins.
      std::int64_t area = 0;
      int widest = 0, tallest = 0;
      for (std::size_t i : order) {
        area += static_cast<std::int64_t>(inputs[i].width) * inputs[i].height;
        widest = std::max(widest, inputs[i].width);
        tallest = std::max(tallest, inputs[i].height);
      }
      std::vector<std::pair<int, int>> sizes;
      for (int w = page_w; w >= widest && w > 0; w /= 2)
        for (int h = page_h; h >= tallest && h > 0; h /= 2)
          if (static_cast<std::int64_t>(w) * h >= area && (w != page_w || h != page_h)) sizes.emplace_back(w, h);
      std::sort(sizes.begin(), sizes.end(), [](const auto& a, const auto& b) {
        const std::int64_t area_a = static_cast<std::int64_t>(a.first) * a.second;
        const std::int64_t area_b = static_cast<std::int64_t>(b.first) * b.second;
        return std::tuple(area_a, std::abs(a.first - a.second), -a.first) <
               std::tuple(area_b, std::abs(b.first - b.second), -b.first);
      });
      std::vector<std::pair<std::size_t, Box>> trial;
      std::vector<std::size_t> trial_left;
      for (const auto& [w, h] : sizes) {
        pack_page(inputs, order, w, h, trial, trial_left);
        if (trial_left.empty()) {
          width = w;
          height = h;
          placed.swap(trial);
          break;
        }
      }
    }
    const auto page = static_cast<std::int32_t>(layout.pages.size());
    PackedPage out{width, height, 0};
    for (const auto& [i, box] : placed) {
      layout.rects[i] = {page, box.x, box.y, box.width, box.height};
      out.used_pixels += static_cast<std::int64_t>(box.width) * box.height;
    }
    layout.pages.push_back(out);
    order.swap(left);
  }
  return layout;
}

}  // namespace mf::offline
