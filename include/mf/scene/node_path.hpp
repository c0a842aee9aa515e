#pragma once
// Node names and node paths.
//
// A name is non-empty and holds none of '/', ':', '.', '@', '%' (the path separator and characters
// kept for later path syntax: properties, unique names). A path is names joined by '/':
//   "a/b"      the child a of the node resolved from, then its child b
//   "../c"     the parent's child c; "." is the node itself
//   "/root/x"  absolute: starts at the topmost ancestor (the tree's root, named "root", when inside a
//              SceneTree), whose name must be the first one
// Resolving walks the string in place and allocates nothing; parse() checks a path and keeps its parts.

#include <string>
#include <string_view>
#include <vector>

#include "mf/core/expected.hpp"

namespace mf::scene {

class Node;

// Why `name` cannot name a node, or an empty view when it can.
std::string_view node_name_problem(std::string_view name);
inline bool is_valid_node_name(std::string_view name) { return node_name_problem(name).empty(); }

// A checked path: `absolute` when it started with '/', then its parts (names, "." and "..").
struct NodePath {
  bool absolute = false;
  std::vector<std::string> parts;

  // An error names the path and its offending part (an empty part, as in "a//b", or an invalid name).
  static Expected<NodePath> parse(std::string_view text);
  std::string to_string() const;
};

// The node `path` names from `from`, or nullptr when the path is empty, malformed or names no node.
Node* resolve_node_path(Node& from, std::string_view path);

}  // namespace mf::scene
