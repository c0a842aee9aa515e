#include "mf/offline/import/psd/layer_tags.hpp"

#include <array>
#include <cctype>

namespace mf::offline {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Spine's script tags this import does not carry out: taken out of the name and reported. The value
// forms of tags it does carry out ([mesh:name], a linked mesh; [bone:name], [slot:name]) too.
constexpr std::array<std::string_view, 7> kUnsupported = {"folder", "overlay", "trim", "scale", "pad", "path", "name"};
constexpr std::array<std::string_view, 3> kUnsupportedWithValue = {"mesh", "bone", "slot"};

// Applies one bracketed word; false when it is no tag (it then stays in the name).
bool apply_tag(std::string_view word, std::string_view written, LayerTags& tags) {
  const std::size_t colon = word.find(':');
  const std::string key = lower(word.substr(0, colon));
  const bool has_value = colon != std::string_view::npos;
  const std::string_view value = has_value ? word.substr(colon + 1) : std::string_view();
  if (!has_value) {
    if (key == "ignore") return tags.ignore = true;
    if (key == "slot") return tags.slot = true;
    if (key == "skin") return tags.skin = true;
    if (key == "merge") return tags.merge = true;
    if (key == "bone") return tags.bone = true;
    if (key == "mesh") return tags.mesh = true;
    if (key == "normal") return tags.normal = true;
    if (key == "origin") return tags.origin = true;
  } else if (key == "skin" && !value.empty()) {
    tags.skin = true;
    tags.skin_name = std::string(value);
    return true;
  }
  bool unsupported = false;
  for (std::string_view u : kUnsupported) unsupported = unsupported || key == u;
  for (std::string_view u : kUnsupportedWithValue) unsupported = unsupported || (has_value && key == u);
  if (unsupported) tags.unsupported.emplace_back(written);
  return unsupported;
}

}  // namespace

LayerTags parse_layer_tags(std::string_view name) {
  LayerTags tags;
  std::string rest;
  std::size_t i = 0;
  while (i < name.size()) {
    const std::size_t open = name.find('[', i);
    const std::size_t close = open == std::string_view::npos ? open : name.find(']', open + 1);
    if (close == std::string_view::npos) {
      rest.append(name.substr(i));
      break;
    }
    rest.append(name.substr(i, open - i));
    const std::string_view written = name.substr(open, close - open + 1);
    if (!apply_tag(name.substr(open + 1, close - open - 1), written, tags)) rest.append(written);
    else rest.push_back(' ');  // "a[bone]b" keeps its words apart
    i = close + 1;
  }
  // Collapse runs of white space and trim.
  for (char c : rest) {
    const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (space) {
      if (!tags.name.empty() && tags.name.back() != ' ') tags.name.push_back(' ');
    } else {
      tags.name.push_back(c);
    }
  }
  if (!tags.name.empty() && tags.name.back() == ' ') tags.name.pop_back();
  return tags;
}

}  // namespace mf::offline
