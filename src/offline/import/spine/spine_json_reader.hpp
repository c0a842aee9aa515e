#pragma once
// Typed reads of Spine JSON values for the skeleton part of the importer. Every read names the JSON
// path and position of what it rejects; keys nobody read become import notes, so nothing in the
// source is dropped without a word. Not installed.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/color.hpp"
#include "mf/core/error.hpp"
#include "mf/offline/json/json.hpp"
#include "mf/offline/json/json_reader.hpp"
#include "spine_internal.hpp"

namespace mf::offline::spine {

// Thrown for input the importer cannot convert; the entry points turn it into an Error.
struct Failure {
  Error error;
};

[[noreturn]] void fail(const Context& context, const json::Value* value, std::string path, std::string message);

// Keys that only the Spine editor uses (bone icons, visibility): counted per key and reported once
// each, with the first place they occur.
class EditorOnlyKeys {
 public:
  void add(const std::string& key, const std::string& where);
  void report(const Context& context) const;

 private:
  struct Seen {
    std::string first;
    int count = 0;
  };
  std::map<std::string, Seen> seen_;
};

// A JSON object being read: typed getters with Spine's defaults and error messages, over the shared
// json::ObjectReader that records which keys were read. Keys nobody read become notes, not errors.
class ObjectReader {
 public:
  ObjectReader(const Context& context, const json::Value& value, std::string path);

  const std::string& path() const { return keys_.node().path(); }
  std::string at(std::string_view key) const;
  const json::Value& value() const { return keys_.node().value(); }

  // The member, marked as read; nullptr when missing.
  const json::Value* get(std::string_view key);
  bool has(std::string_view key) const { return keys_.has(key); }

  float number(std::string_view key, float fallback);
  int integer(std::string_view key, int fallback);
  bool boolean(std::string_view key, bool fallback);
  std::string string(std::string_view key, std::string fallback = {});
  std::string required_string(std::string_view key);
  // "rrggbbaa" (Spine's colours have no '#'); `rgb` reads "rrggbb".
  std::optional<Rgba8> color(std::string_view key);
  std::optional<Rgba8> rgb(std::string_view key);
  const json::Value& required(std::string_view key, json::Type type);
  const json::Value* optional(std::string_view key, json::Type type);

  // Marks a key as read without using it.
  void skip(std::string_view key) { keys_.skip(key); }
  // Every key not read yet: editor-only ones go to `editor_only`, the rest become notes.
  void finish(const std::vector<std::string_view>& editor_only = {}, EditorOnlyKeys* sink = nullptr);

 private:
  const Context* context_;
  json::ObjectReader keys_;
};

void expect_type(const Context& context, const json::Value& value, const std::string& path, json::Type type);
std::vector<float> read_numbers(const Context& context, const json::Value& value, const std::string& path);
std::vector<int> read_integers(const Context& context, const json::Value& value, const std::string& path);
std::vector<std::string> read_strings(const Context& context, const json::Value& value, const std::string& path);

}  // namespace mf::offline::spine

namespace mf::offline::spine {

// The "skins" array and every attachment in it (spine_attachments.cpp). Bones, slots and
// constraints are already converted; `skeleton.images` receives every image the attachments use.
void convert_skins(const json::Value& skins, const std::string& path, SkeletonSource& skeleton, const Context& context,
                   EditorOnlyKeys& editor_only);

}  // namespace mf::offline::spine
