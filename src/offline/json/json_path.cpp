#include "mf/offline/json/json_path.hpp"

#include <cctype>

namespace mf::json {
namespace {

bool is_identifier(std::string_view key) {
  if (key.empty()) return false;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(key[i]);
    const bool ok = std::isalpha(c) || c == '_' || (i > 0 && std::isdigit(c));
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::string path_key(std::string_view path, std::string_view key) {
  std::string out(path);
  if (is_identifier(key)) {
    if (!out.empty()) out += '.';
    out += key;
    return out;
  }
  out += "[\"";
  for (char c : key) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += "\"]";
  return out;
}

std::string path_index(std::string_view path, std::size_t index) {
  std::string out(path);
  out += '[';
  out += std::to_string(index);
  out += ']';
  return out;
}

std::vector<PathSegment> split_path(std::string_view path) {
  std::vector<PathSegment> out;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      continue;
    }
    PathSegment seg;
    if (path[i] == '[') {
      ++i;
      if (i < path.size() && path[i] == '"') {
        ++i;
        while (i < path.size() && path[i] != '"') {
          if (path[i] == '\\' && i + 1 < path.size()) ++i;
          seg.key += path[i++];
        }
        i += 2;  // closing quote and bracket
      } else {
        seg.is_index = true;
        std::size_t digits = 0;
        while (i < path.size() && std::isdigit(static_cast<unsigned char>(path[i]))) {
          seg.index = seg.index * 10 + static_cast<std::size_t>(path[i++] - '0');
          ++digits;
        }
        if (digits == 0 || i >= path.size() || path[i] != ']') return out;
        ++i;
      }
    } else {
      while (i < path.size() && path[i] != '.' && path[i] != '[') seg.key += path[i++];
    }
    out.push_back(std::move(seg));
  }
  return out;
}

}  // namespace mf::json
