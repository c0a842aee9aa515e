#include "mf/offline/json/source_location.hpp"

#include "mf/offline/json/json_path.hpp"

namespace mf::json {
namespace {

SourceMap::Entry entry_of(const Value& v) {
  SourceMap::Entry e;
  e.type = v.type;
  e.position = v.position;
  if (v.is_array()) {
    e.children.reserve(v.items.size());
    for (const Value& item : v.items) e.children.push_back(entry_of(item));
  } else if (v.is_object()) {
    e.keys.reserve(v.members.size());
    e.children.reserve(v.members.size());
    for (const Member& m : v.members) {
      e.keys.push_back(m.first);
      e.children.push_back(entry_of(m.second));
    }
  }
  return e;
}

// One step of a path from `at`; nullptr when there is no such value.
const SourceMap::Entry* step(const SourceMap::Entry& at, const PathSegment& seg) {
  if (seg.is_index) {
    if (at.type != Type::Array || seg.index >= at.children.size()) return nullptr;
    return &at.children[seg.index];
  }
  return at.member(seg.key);
}

}  // namespace

const SourceMap::Entry* SourceMap::Entry::member(std::string_view key) const {
  if (type != Type::Object) return nullptr;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return &children[i];
  return nullptr;
}

SourceMap::SourceMap(const Value& root) : root_(std::make_shared<const Entry>(entry_of(root))) {}

const SourceMap::Entry* SourceMap::find(std::string_view path) const {
  const Entry* at = root_.get();
  for (const PathSegment& seg : split_path(path)) {
    if (!at) return nullptr;
    at = step(*at, seg);
  }
  return at;
}

TextPosition SourceMap::position(std::string_view path) const {
  const Entry* e = find(path);
  return e ? e->position : TextPosition{};
}

TextPosition SourceMap::nearest(std::string_view path) const {
  if (!root_) return {};
  const Entry* at = root_.get();
  TextPosition pos = at->position;
  for (const PathSegment& seg : split_path(path)) {
    at = step(*at, seg);
    if (!at) break;
    pos = at->position;
  }
  return pos;
}

}  // namespace mf::json
