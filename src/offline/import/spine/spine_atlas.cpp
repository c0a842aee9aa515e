// The .atlas reader. Line-based: a page starts with its image file name (after a blank line or at the
// top), followed by "key: value" lines for the page; a line without a colon starts a region, whose
// "key: value" lines follow. Both the 4.x keys (bounds, offsets, rotate: 90) and the 3.x ones (xy,
// size, orig, offset, rotate: true) are read.

#include "mf/offline/import/spine/spine_atlas.hpp"

#include <charconv>
#include <cmath>

namespace mf::offline {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\xef' ||
                        s.front() == '\xbb' || s.front() == '\xbf'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

class AtlasParser {
 public:
  AtlasParser(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Expected<SpineAtlas> run() {
    bool page_next = true;
    std::size_t pos = 0;
    while (pos <= text_.size()) {
      const std::size_t end = std::min(text_.find('\n', pos), text_.size());
      ++line_;
      const std::string_view raw = text_.substr(pos, end - pos);
      pos = end + 1;
      const std::string_view s = trim(raw);
      if (s.empty()) {
        if (!atlas_.pages.empty()) page_next = true;
        if (end == text_.size()) break;
        continue;
      }
      if (s.find('\0') != std::string_view::npos) return error("contains a NUL byte");
      const std::size_t colon = s.find(':');
      if (page_next) {
        if (colon != std::string_view::npos && atlas_.pages.empty())
          return error("expected a page image file name, found \"" + std::string(s) + "\"");
        if (colon != std::string_view::npos && !atlas_.pages.empty()) {
          // A blank line inside a page's regions (some exporters write them): keep reading the page.
          page_next = false;
        } else {
          if (region_ && !check_region()) return Unexpected{err_};
          SpineAtlasPage page;
          page.file = std::string(s);
          page.line = line_;
          atlas_.pages.push_back(std::move(page));
          region_ = nullptr;
          page_next = false;
          continue;
        }
      }
      if (colon == std::string_view::npos) {
        if (region_ && !check_region()) return Unexpected{err_};
        SpineAtlasRegion r;
        r.name = std::string(s);
        r.line = line_;
        atlas_.pages.back().regions.push_back(std::move(r));
        region_ = &atlas_.pages.back().regions.back();
        have_bounds_ = have_orig_ = false;
        continue;
      }
      const std::string_view key = trim(s.substr(0, colon));
      const std::string_view value = trim(s.substr(colon + 1));
      if (!(region_ ? region_value(key, value) : page_value(key, value))) return Unexpected{err_};
    }
    if (region_ && !check_region()) return Unexpected{err_};
    if (atlas_.pages.empty()) return error("the atlas has no pages");
    return std::move(atlas_);
  }

 private:
  std::string_view text_;
  const std::string& file_;
  SpineAtlas atlas_;
  SpineAtlasRegion* region_ = nullptr;
  bool have_bounds_ = false, have_orig_ = false;
  int line_ = 0;
  Error err_;

  Unexpected error(std::string message) {
    err_ = Error{file_, {}, TextPosition{line_, 1}, std::move(message)};
    return Unexpected{err_};
  }
  bool fail(std::string message) {
    err_ = Error{file_, {}, TextPosition{line_, 1}, std::move(message)};
    return false;
  }

  // Comma-separated integers, exactly `count` of them.
  bool ints(std::string_view key, std::string_view value, int* out, int count) {
    int n = 0;
    while (true) {
      const std::size_t comma = value.find(',');
      const std::string_view item = trim(value.substr(0, comma));
      if (n == count) return fail("\"" + std::string(key) + "\" takes " + std::to_string(count) + " numbers");
      const auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), out[n]);
      if (ec != std::errc() || p != item.data() + item.size() || item.empty())
        return fail("\"" + std::string(key) + "\": expected an integer, found \"" + std::string(item) + "\"");
      if (out[n] < -1000000 || out[n] > 1000000)
        return fail("\"" + std::string(key) + "\": " + std::to_string(out[n]) + " is out of range");
      ++n;
      if (comma == std::string_view::npos) break;
      value.remove_prefix(comma + 1);
    }
    if (n != count) return fail("\"" + std::string(key) + "\" takes " + std::to_string(count) + " numbers");
    return true;
  }

  bool page_value(std::string_view key, std::string_view value) {
    SpineAtlasPage& page = atlas_.pages.back();
    if (key == "size") {
      int v[2];
      if (!ints(key, value, v, 2)) return false;
      if (v[0] < 0 || v[1] < 0) return fail("page size must not be negative");
      page.width = v[0];
      page.height = v[1];
    } else if (key == "pma") {
      if (value != "true" && value != "false") return fail("pma: expected true or false");
      page.pma = value == "true";
    } else if (key == "filter") {
      const std::size_t comma = value.find(',');
      page.filter_min = std::string(trim(value.substr(0, comma)));
      page.filter_mag = comma == std::string_view::npos ? page.filter_min : std::string(trim(value.substr(comma + 1)));
    } else if (key == "scale") {
      const std::string v(value);
      char* end = nullptr;
      const double scale = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != 0 || !(scale > 0) || !std::isfinite(scale))
        return fail("scale: expected a positive number, found \"" + v + "\"");
      page.scale = static_cast<float>(scale);
    } else if (key == "format" || key == "repeat") {
      // How the page is loaded and wrapped at run time; unpacked images do not need either.
    } else {
      return fail("unknown page key \"" + std::string(key) + "\"");
    }
    return true;
  }

  bool region_value(std::string_view key, std::string_view value) {
    SpineAtlasRegion& r = *region_;
    int v[4];
    if (key == "bounds") {
      if (!ints(key, value, v, 4)) return false;
      r.x = v[0], r.y = v[1], r.width = v[2], r.height = v[3];
      have_bounds_ = true;
    } else if (key == "xy") {
      if (!ints(key, value, v, 2)) return false;
      r.x = v[0], r.y = v[1];
    } else if (key == "size") {
      if (!ints(key, value, v, 2)) return false;
      r.width = v[0], r.height = v[1];
      have_bounds_ = true;
    } else if (key == "offsets") {
      if (!ints(key, value, v, 4)) return false;
      r.offset_x = v[0], r.offset_y = v[1], r.original_width = v[2], r.original_height = v[3];
      have_orig_ = true;
    } else if (key == "offset") {
      if (!ints(key, value, v, 2)) return false;
      r.offset_x = v[0], r.offset_y = v[1];
    } else if (key == "orig") {
      if (!ints(key, value, v, 2)) return false;
      r.original_width = v[0], r.original_height = v[1];
      have_orig_ = true;
    } else if (key == "rotate") {
      if (value == "true") r.degrees = 90;
      else if (value == "false") r.degrees = 0;
      else {
        if (!ints(key, value, v, 1)) return false;
        if (v[0] != 0 && v[0] != 90 && v[0] != 180 && v[0] != 270)
          return fail("rotate: expected true, false, 0, 90, 180 or 270");
        r.degrees = v[0];
      }
    } else if (key == "index") {
      if (!ints(key, value, v, 1)) return false;
      r.index = v[0] < 0 ? -1 : v[0];
    } else {
      r.values.emplace_back(std::string(key), std::string(value));
    }
    return true;
  }

  bool check_region() {
    SpineAtlasRegion& r = *region_;
    const int line = line_;
    line_ = r.line;
    if (!have_bounds_) return fail("region \"" + r.name + "\" has no bounds");
    if (r.width < 0 || r.height < 0) return fail("region \"" + r.name + "\" has a negative size");
    if (!have_orig_) {
      r.original_width = r.width;
      r.original_height = r.height;
    }
    if (r.offset_x < 0 || r.offset_y < 0 || r.offset_x + r.width > r.original_width ||
        r.offset_y + r.height > r.original_height)
      return fail("region \"" + r.name + "\": the packed image does not fit its original size at its offset");
    line_ = line;
    return true;
  }
};

}  // namespace

const SpineAtlasRegion* SpineAtlas::find(std::string_view name, int index, const SpineAtlasPage** page) const {
  for (const SpineAtlasPage& p : pages)
    for (const SpineAtlasRegion& r : p.regions)
      if (r.name == name && r.index == index) {
        if (page) *page = &p;
        return &r;
      }
  return nullptr;
}

Expected<SpineAtlas> parse_atlas(std::string_view text, const std::string& file) {
  return AtlasParser(text, file).run();
}

}  // namespace mf::offline
