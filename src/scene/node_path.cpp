#include "mf/scene/node_path.hpp"

#include "mf/scene/node.hpp"

namespace mf::scene {

std::string_view node_name_problem(std::string_view name) {
  if (name.empty()) return "a node name must not be empty";
  for (char c : name)
    if (c == '/' || c == ':' || c == '.' || c == '@' || c == '%')
      return "a node name must not contain '/', ':', '.', '@' or '%'";
  return {};
}

namespace {

// Calls `part(std::string_view)` for each '/'-separated part after the leading '/', if any; stops
// and returns false as soon as `part` does.
template <class F>
bool for_each_part(std::string_view text, F&& part) {
  std::size_t start = !text.empty() && text[0] == '/' ? 1 : 0;
  for (;;) {
    const std::size_t end = text.find('/', start);
    if (!part(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start))) return false;
    if (end == std::string_view::npos) return true;
    start = end + 1;
  }
}

}  // namespace

Expected<NodePath> NodePath::parse(std::string_view text) {
  if (text.empty()) return Unexpected{Error{.message = "a node path must not be empty"}};
  NodePath path;
  path.absolute = text[0] == '/';
  std::string problem;
  const bool ok = for_each_part(text, [&](std::string_view part) {
    if (part == "." || part == "..") {
      if (path.absolute && path.parts.empty()) {
        problem = "an absolute path starts with the root's name, not '" + std::string(part) + "'";
        return false;
      }
    } else if (const std::string_view why = node_name_problem(part); !why.empty()) {
      problem = part.empty() ? std::string("it has an empty part") : "part '" + std::string(part) + "': " + std::string(why);
      return false;
    }
    path.parts.emplace_back(part);
    return true;
  });
  if (!ok) return Unexpected{Error{.message = "node path '" + std::string(text) + "': " + problem}};
  return path;
}

std::string NodePath::to_string() const {
  std::string s = absolute ? "/" : "";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) s += '/';
    s += parts[i];
  }
  return s;
}

Node* resolve_node_path(Node& from, std::string_view path) {
  if (path.empty()) return nullptr;
  Node* at = &from;
  bool expect_top_name = false;
  if (path[0] == '/') {
    while (at->parent()) at = at->parent();
    expect_top_name = true;
  }
  const bool found = for_each_part(path, [&](std::string_view part) {
    if (expect_top_name) {
      expect_top_name = false;
      return part == at->name();
    }
    if (part == ".") return true;
    if (part == "..") {
      at = at->parent();
      return at != nullptr;
    }
    if (part.empty()) return false;
    at = at->find_child(part);
    return at != nullptr;
  });
  return found ? at : nullptr;
}

}  // namespace mf::scene
