#include "mf/offline/format/clip_names.hpp"

#include <array>
#include <map>

namespace mf::offline {
namespace {

constexpr char kHex[] = "0123456789ABCDEF";

char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower_ascii(c);
  return out;
}

bool always_escaped(unsigned char u) {
  return u < 0x20 || u == 0x7F || std::string_view("%\\:*?\"<>|").find(static_cast<char>(u)) != std::string_view::npos;
}

// Whether the part of a segment before its first "." is a reserved Windows device name.
bool reserved_device(std::string_view segment) {
  const std::string base = lower_ascii(segment.substr(0, segment.find('.')));
  static constexpr std::array<std::string_view, 4> kPlain = {"con", "prn", "aux", "nul"};
  for (std::string_view r : kPlain)
    if (base == r) return true;
  return base.size() == 4 && (base.starts_with("com") || base.starts_with("lpt")) && base[3] >= '0' && base[3] <= '9';
}

void escape(std::string& out, unsigned char u) {
  out += '%';
  out += kHex[u >> 4];
  out += kHex[u & 15];
}

// One folder or file name of a clip name (not empty), escaped.
std::string escape_segment(std::string_view segment) {
  std::string out;
  const bool reserved = reserved_device(segment);
  for (std::size_t i = 0; i < segment.size(); ++i) {
    const auto u = static_cast<unsigned char>(segment[i]);
    const bool edge = i == 0 || i + 1 == segment.size();
    if (always_escaped(u) || (edge && (u == ' ' || u == '.')) || (i == 0 && reserved))
      escape(out, u);
    else
      out += static_cast<char>(u);
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

std::string clip_file_stem(std::string_view name) {
  // Split into segments: a "/" separates only when the segment before it is not empty and something
  // follows it; any other "/" is part of its segment (and escaped there, as "%2F").
  std::vector<std::string> segments(1);
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '/' && !segments.back().empty() && i + 1 < name.size())
      segments.emplace_back();
    else
      segments.back() += c;
  }
  std::string out;
  for (const std::string& s : segments) {
    if (s.empty()) continue;  // only an empty name gives an empty segment
    if (!out.empty()) out += '/';
    std::string escaped = escape_segment(s);
    // A "/" inside a segment is escaped like the bytes always escaped.
    std::string with_slashes;
    for (char c : escaped) {
      if (c == '/')
        with_slashes += "%2F";
      else
        with_slashes += c;
    }
    out += with_slashes;
  }
  return out;
}

std::optional<std::string> clip_name_of(std::string_view stem, std::string* why) {
  auto fail = [&](std::string message) -> std::optional<std::string> {
    if (why) *why = std::move(message);
    return std::nullopt;
  };
  std::string name;
  std::size_t segment_start = 0;
  for (std::size_t i = 0; i <= stem.size(); ++i) {
    if (i < stem.size() && stem[i] != '/') continue;
    const std::string_view segment = stem.substr(segment_start, i - segment_start);
    if (segment.empty()) return fail("an empty folder or file name");
    if (!name.empty()) name += '/';
    for (std::size_t k = 0; k < segment.size(); ++k) {
      if (segment[k] != '%') {
        name += segment[k];
        continue;
      }
      const int h = k + 2 < segment.size() ? hex_value(segment[k + 1]) : -1;
      const int l = k + 2 < segment.size() ? hex_value(segment[k + 2]) : -1;
      if (h < 0 || l < 0) return fail("\"%\" must be followed by two hex digits (a \"%\" in a clip name is written %25)");
      name += static_cast<char>(h * 16 + l);
      k += 2;
    }
    segment_start = i + 1;
  }
  if (clip_file_stem(name) != stem)
    return fail("not the file name the escaping rule gives for clip \"" + name + "\" (" + clip_file_stem(name) +
                ".manim): escapes are upper-case and only where needed");
  return name;
}

std::optional<std::pair<std::string, std::string>> clip_name_conflict(const std::vector<std::string>& names) {
  struct Seen {
    std::string path;  // as written
    bool file = false;
    std::size_t name = 0;  // index into names
  };
  std::map<std::string, Seen> seen;  // by lower-case path
  for (std::size_t n = 0; n < names.size(); ++n) {
    const std::string stem = clip_file_stem(names[n]);
    // Every folder on the way, then the file.
    for (std::size_t i = 0; i <= stem.size(); ++i) {
      if (i < stem.size() && stem[i] != '/') continue;
      const bool file = i == stem.size();
      const std::string path = file ? stem + ".manim" : stem.substr(0, i);
      const auto [it, fresh] = seen.emplace(lower_ascii(path), Seen{path, file, n});
      if (!fresh && (it->second.path != path || it->second.file != file || file))
        return std::pair(names[it->second.name], names[n]);
    }
  }
  return std::nullopt;
}

}  // namespace mf::offline
