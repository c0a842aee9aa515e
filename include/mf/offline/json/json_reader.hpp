#pragma once
// Typed, path-aware access to a parsed JSON document, for the source-format readers. Every accessor
// checks the type it needs and reports a mismatch with the file, JSON path and line:column.
//
// Readers throw ReadError internally and turn it into an Expected at their public boundary, so the
// reading code stays a straight walk over the format.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/color.hpp"
#include "mf/core/error.hpp"
#include "mf/offline/json/json.hpp"

namespace mf::json {

struct ReadError {
  Error error;
};

// A value in a document together with its JSON path.
class Node {
 public:
  Node(const Value& value, std::string path, const std::string& file)
      : value_(&value), path_(std::move(path)), file_(&file) {}

  const Value& value() const { return *value_; }
  const std::string& path() const { return path_; }
  const std::string& file() const { return *file_; }
  TextPosition position() const { return value_->position; }

  // Throws ReadError with this node's file, path and position.
  [[noreturn]] void fail(const std::string& message) const;
  Error error(const std::string& message) const;

  bool is_null() const { return value_->is_null(); }
  bool is_string() const { return value_->is_string(); }
  bool is_number() const { return value_->is_number(); }
  bool is_array() const { return value_->is_array(); }
  bool is_object() const { return value_->is_object(); }

  // Scalars; each fails unless the value has the right type and range.
  bool as_bool() const;
  float as_float() const;             // any finite number that fits a float
  int as_int() const;                 // an integer that fits an int
  int as_int(int min, int max) const; // an integer in [min, max]
  const std::string& as_string() const;
  const std::string& as_nonempty_string() const;
  Rgba8 as_color() const;             // "#rrggbb" or "#rrggbbaa"
  Rgba8 as_rgb() const;               // exactly "#rrggbb"

  // Arrays.
  std::size_t size() const;  // fails unless an array
  Node operator[](std::size_t i) const;
  std::vector<Node> items() const;
  std::vector<float> as_floats() const;
  std::vector<int> as_ints() const;

  // Objects, member by member in file order.
  std::vector<std::pair<std::string, Node>> members() const;

 private:
  const Value* value_;
  std::string path_;
  const std::string* file_;
};

// What ObjectReader::finish does with the members that no lookup asked for. Left as it is, each one
// is an error (`unknown key "k"` at the member), so a misspelt key is not silently ignored. Readers
// of formats written by other programs (the Spine importer) accept some keys quietly and report the
// others instead of failing.
struct UnreadMembers {
  // Keys accepted without a lookup, such as Spine's editor-only keys; such a member goes to `ignored`
  // (when it is set; otherwise it is treated like any other key).
  std::vector<std::string_view> ignore;
  std::function<void(const std::string& key, const Node& member)> ignored;
  // Every other member; when not set, finish() fails at the first one.
  std::function<void(const std::string& key, const Node& member)> unknown;
};

// Reads one object's members and keeps track of which ones were asked for, so that finish() can
// reject (or report) every member nobody read. Call finish() after the last lookup.
class ObjectReader {
 public:
  explicit ObjectReader(const Node& node);  // fails unless an object

  const Node& node() const { return node_; }
  // The member, marked as read; nothing when missing.
  std::optional<Node> optional(std::string_view key);
  Node required(std::string_view key);
  // The required integer "format": fails unless it equals `supported`. Read it first: a newer file
  // may hold keys this build does not know, and the version is the error to report then.
  int format_version(int supported);
  // Whether the member exists, without marking it as read.
  bool has(std::string_view key) const { return node_.value().find(key) != nullptr; }
  // Marks a member as read without using it.
  void skip(std::string_view key) { optional(key); }

  float get(std::string_view key, float fallback);
  int get(std::string_view key, int fallback);
  bool get(std::string_view key, bool fallback);
  std::string get(std::string_view key, const std::string& fallback);
  std::string get(std::string_view key, const char* fallback) { return get(key, std::string(fallback)); }
  Rgba8 get_color(std::string_view key, Rgba8 fallback);

  // The keys of the members not read so far, in file order.
  std::vector<std::string> unread() const;

  // Fails on the first member that no lookup asked for.
  void finish() const;
  // Hands each member that no lookup asked for to `policy`, in file order.
  void finish(const UnreadMembers& policy) const;

 private:
  Node node_;
  std::vector<bool> used_;
};

}  // namespace mf::json
