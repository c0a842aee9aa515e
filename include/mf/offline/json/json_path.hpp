#pragma once
// JSON paths as error messages print them: `bones[4].parent`, `bones["thigh l"].rotate.v[2]`.
// Keys that are plain identifiers follow a dot; any other key is quoted in brackets.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mf::json {

// `path` + "." + key, or `path["key"]` when the key is not a plain identifier.
std::string path_key(std::string_view path, std::string_view key);
// `path[index]`.
std::string path_index(std::string_view path, std::size_t index);

struct PathSegment {
  bool is_index = false;
  std::size_t index = 0;
  std::string key;
};

// The segments of a path written by path_key / path_index. Malformed paths give what parsed so far.
std::vector<PathSegment> split_path(std::string_view path);

}  // namespace mf::json
