#include "spine_json_reader.hpp"

#include <cmath>
#include <limits>

#include "mf/offline/json/json_path.hpp"

namespace mf::offline::spine {

void fail(const Context& context, const json::Value* value, std::string path, std::string message) {
  throw Failure{Error{context.file, std::move(path), value ? value->position : TextPosition{}, std::move(message)}};
}

void EditorOnlyKeys::add(const std::string& key, const std::string& where) {
  Seen& s = seen_[key];
  if (s.count++ == 0) s.first = where;
}

void EditorOnlyKeys::report(const Context& context) const {
  for (const auto& [key, s] : seen_)
    context.note(s.first, "editor-only \"" + key + "\" not imported (" + std::to_string(s.count) +
                              (s.count == 1 ? " occurrence)" : " occurrences)"));
}

void expect_type(const Context& context, const json::Value& value, const std::string& path, json::Type type) {
  if (value.type != type)
    fail(context, &value, path, std::string("expected ") + json::type_name(type) + ", found " + json::type_name(value.type));
}

namespace {

// The object at `path`, checked with the importer's message before the shared reader sees it.
json::Node object_node(const Context& context, const json::Value& value, std::string path) {
  expect_type(context, value, path, json::Type::Object);
  return json::Node(value, std::move(path), context.file);
}

}  // namespace

ObjectReader::ObjectReader(const Context& context, const json::Value& value, std::string path)
    : context_(&context), keys_(object_node(context, value, std::move(path))) {}

std::string ObjectReader::at(std::string_view key) const { return json::path_key(path(), key); }

const json::Value* ObjectReader::get(std::string_view key) {
  const std::optional<json::Node> member = keys_.optional(key);
  return member ? &member->value() : nullptr;
}

const json::Value* ObjectReader::optional(std::string_view key, json::Type type) {
  const json::Value* v = get(key);
  if (v) expect_type(*context_, *v, at(key), type);
  return v;
}

const json::Value& ObjectReader::required(std::string_view key, json::Type type) {
  const json::Value* v = optional(key, type);
  if (!v) fail(*context_, &value(), path(), "missing required key \"" + std::string(key) + "\"");
  return *v;
}

float ObjectReader::number(std::string_view key, float fallback) {
  const json::Value* v = optional(key, json::Type::Number);
  if (!v) return fallback;
  if (!(std::fabs(v->number) <= static_cast<double>(std::numeric_limits<float>::max())))
    fail(*context_, v, at(key), "number is outside the 32-bit float range");
  return static_cast<float>(v->number);
}

int ObjectReader::integer(std::string_view key, int fallback) {
  const json::Value* v = optional(key, json::Type::Number);
  if (!v) return fallback;
  if (v->number != std::floor(v->number) || std::fabs(v->number) > 1e9)
    fail(*context_, v, at(key), "expected an integer");
  return static_cast<int>(v->number);
}

bool ObjectReader::boolean(std::string_view key, bool fallback) {
  const json::Value* v = optional(key, json::Type::Bool);
  return v ? v->boolean : fallback;
}

std::string ObjectReader::string(std::string_view key, std::string fallback) {
  const json::Value* v = optional(key, json::Type::String);
  return v ? v->string : fallback;
}

std::string ObjectReader::required_string(std::string_view key) {
  const json::Value& v = required(key, json::Type::String);
  if (v.string.empty()) fail(*context_, &v, at(key), "must not be empty");
  return v.string;
}

std::optional<Rgba8> ObjectReader::color(std::string_view key) {
  const json::Value* v = optional(key, json::Type::String);
  if (!v) return std::nullopt;
  std::optional<Rgba8> c = v->string.size() == 8 ? parse_hex_color("#" + v->string) : std::nullopt;
  if (!c) fail(*context_, v, at(key), "expected a colour \"rrggbbaa\", found \"" + v->string + "\"");
  return c;
}

std::optional<Rgba8> ObjectReader::rgb(std::string_view key) {
  const json::Value* v = optional(key, json::Type::String);
  if (!v) return std::nullopt;
  // Spine writes the dark colour as "rrggbb"; an "rrggbbaa" form is read too, its alpha unused.
  std::optional<Rgba8> c = v->string.size() == 6   ? parse_hex_rgb("#" + v->string)
                           : v->string.size() == 8 ? parse_hex_color("#" + v->string)
                                                   : std::nullopt;
  if (!c) fail(*context_, v, at(key), "expected a colour \"rrggbb\", found \"" + v->string + "\"");
  c->a = 255;
  return c;
}

void ObjectReader::finish(const std::vector<std::string_view>& editor_only, EditorOnlyKeys* sink) {
  json::UnreadMembers policy;
  policy.ignore = editor_only;
  if (sink) policy.ignored = [sink](const std::string& key, const json::Node& member) { sink->add(key, member.path()); };
  policy.unknown = [this](const std::string& key, const json::Node& member) {
    context_->note(member.path(), "unknown key \"" + key + "\" not imported");
  };
  keys_.finish(policy);
}

std::vector<float> read_numbers(const Context& context, const json::Value& value, const std::string& path) {
  expect_type(context, value, path, json::Type::Array);
  std::vector<float> out;
  out.reserve(value.items.size());
  for (std::size_t i = 0; i < value.items.size(); ++i) {
    const json::Value& v = value.items[i];
    expect_type(context, v, json::path_index(path, i), json::Type::Number);
    if (!(std::fabs(v.number) <= static_cast<double>(std::numeric_limits<float>::max())))
      fail(context, &v, json::path_index(path, i), "number is outside the 32-bit float range");
    out.push_back(static_cast<float>(v.number));
  }
  return out;
}

std::vector<int> read_integers(const Context& context, const json::Value& value, const std::string& path) {
  expect_type(context, value, path, json::Type::Array);
  std::vector<int> out;
  out.reserve(value.items.size());
  for (std::size_t i = 0; i < value.items.size(); ++i) {
    const json::Value& v = value.items[i];
    expect_type(context, v, json::path_index(path, i), json::Type::Number);
    if (v.number != std::floor(v.number) || std::fabs(v.number) > 1e9)
      fail(context, &v, json::path_index(path, i), "expected an integer");
    out.push_back(static_cast<int>(v.number));
  }
  return out;
}

std::vector<std::string> read_strings(const Context& context, const json::Value& value, const std::string& path) {
  expect_type(context, value, path, json::Type::Array);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value.items.size(); ++i) {
    expect_type(context, value.items[i], json::path_index(path, i), json::Type::String);
    out.push_back(value.items[i].string);
  }
  return out;
}

}  // namespace mf::offline::spine
