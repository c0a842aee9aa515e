#include "mf/offline/json/json_reader.hpp"

#include <cmath>
#include <limits>

#include "mf/offline/json/json_path.hpp"

namespace mf::json {
namespace {

std::string describe(const Value& v) {
  if (v.is_number() && v.integer) return "an integer";
  return type_name(v.type);
}

}  // namespace

Error Node::error(const std::string& message) const { return Error{*file_, path_, value_->position, message}; }

void Node::fail(const std::string& message) const { throw ReadError{error(message)}; }

bool Node::as_bool() const {
  if (!value_->is_bool()) fail("expected true or false, found " + describe(*value_));
  return value_->boolean;
}

float Node::as_float() const {
  if (!value_->is_number()) fail("expected a number, found " + describe(*value_));
  const double v = value_->number;
  if (std::fabs(v) > std::numeric_limits<float>::max()) fail("number out of range");
  return static_cast<float>(v);
}

int Node::as_int() const {
  return as_int(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
}

int Node::as_int(int min, int max) const {
  if (!value_->is_number() || !value_->integer) fail("expected an integer, found " + describe(*value_));
  const double v = value_->number;
  if (v < min || v > max)
    fail("expected an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", found " +
         std::to_string(static_cast<long long>(v)));
  return static_cast<int>(v);
}

const std::string& Node::as_string() const {
  if (!value_->is_string()) fail("expected a string, found " + describe(*value_));
  return value_->string;
}

const std::string& Node::as_nonempty_string() const {
  const std::string& s = as_string();
  if (s.empty()) fail("must not be empty");
  return s;
}

Rgba8 Node::as_color() const {
  auto c = parse_hex_color(as_string());
  if (!c) fail("expected a colour \"#rrggbbaa\" or \"#rrggbb\", found \"" + value_->string + "\"");
  return *c;
}

Rgba8 Node::as_rgb() const {
  auto c = parse_hex_rgb(as_string());
  if (!c) fail("expected a colour \"#rrggbb\", found \"" + value_->string + "\"");
  return *c;
}

std::size_t Node::size() const {
  if (!value_->is_array()) fail("expected an array, found " + describe(*value_));
  return value_->items.size();
}

Node Node::operator[](std::size_t i) const { return Node(value_->items.at(i), path_index(path_, i), *file_); }

std::vector<Node> Node::items() const {
  const std::size_t n = size();
  std::vector<Node> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back((*this)[i]);
  return out;
}

std::vector<float> Node::as_floats() const {
  std::vector<float> out;
  out.reserve(size());
  for (const Node& n : items()) out.push_back(n.as_float());
  return out;
}

std::vector<int> Node::as_ints() const {
  std::vector<int> out;
  out.reserve(size());
  for (const Node& n : items()) out.push_back(n.as_int());
  return out;
}

std::vector<std::pair<std::string, Node>> Node::members() const {
  if (!value_->is_object()) fail("expected an object, found " + describe(*value_));
  std::vector<std::pair<std::string, Node>> out;
  out.reserve(value_->members.size());
  for (const Member& m : value_->members) out.emplace_back(m.first, Node(m.second, path_key(path_, m.first), *file_));
  return out;
}

ObjectReader::ObjectReader(const Node& node) : node_(node) {
  if (!node.is_object()) node.fail("expected an object, found " + describe(node.value()));
  used_.assign(node.value().members.size(), false);
}

std::optional<Node> ObjectReader::optional(std::string_view key) {
  const auto& members = node_.value().members;
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (members[i].first == key) {
      used_[i] = true;
      return Node(members[i].second, path_key(node_.path(), key), node_.file());
    }
  }
  return std::nullopt;
}

Node ObjectReader::required(std::string_view key) {
  auto n = optional(key);
  if (!n) node_.fail("missing required key \"" + std::string(key) + "\"");
  return *n;
}

int ObjectReader::format_version(int supported) {
  const Node format = required("format");
  const int version = format.as_int();
  if (version != supported)
    format.fail("unsupported format version " + std::to_string(version) + "; this build reads " +
                std::to_string(supported));
  return version;
}

float ObjectReader::get(std::string_view key, float fallback) {
  auto n = optional(key);
  return n ? n->as_float() : fallback;
}

int ObjectReader::get(std::string_view key, int fallback) {
  auto n = optional(key);
  return n ? n->as_int() : fallback;
}

bool ObjectReader::get(std::string_view key, bool fallback) {
  auto n = optional(key);
  return n ? n->as_bool() : fallback;
}

std::string ObjectReader::get(std::string_view key, const std::string& fallback) {
  auto n = optional(key);
  return n ? n->as_string() : fallback;
}

Rgba8 ObjectReader::get_color(std::string_view key, Rgba8 fallback) {
  auto n = optional(key);
  return n ? n->as_color() : fallback;
}

std::vector<std::string> ObjectReader::unread() const {
  std::vector<std::string> out;
  const auto& members = node_.value().members;
  for (std::size_t i = 0; i < members.size(); ++i)
    if (!used_[i]) out.push_back(members[i].first);
  return out;
}

void ObjectReader::finish() const { finish(UnreadMembers{}); }

void ObjectReader::finish(const UnreadMembers& policy) const {
  const auto& members = node_.value().members;
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (used_[i]) continue;
    const std::string& key = members[i].first;
    const Node member(members[i].second, path_key(node_.path(), key), node_.file());
    bool ignore = false;
    for (std::string_view k : policy.ignore) ignore = ignore || key == k;
    if (ignore && policy.ignored)
      policy.ignored(key, member);
    else if (policy.unknown)
      policy.unknown(key, member);
    else
      member.fail("unknown key \"" + key + "\"");
  }
}

}  // namespace mf::json
