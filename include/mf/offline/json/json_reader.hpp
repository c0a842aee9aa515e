#pragma once
// Typed, path-aware access to a parsed JSON document, for the source-format readers. Every accessor
// checks the type it needs and reports a mismatch with the file, JSON path and line:column.
//
// Readers throw ReadError internally and turn it into an Expected at their public boundary, so the
// reading code stays a straight walk over the format.

#include <cstdint>
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

// Reads one object's members and rejects every member nobody asked for, so a misspelt key is an
// error rather than a silently ignored value. Call finish() after the last lookup.
class ObjectReader {
 public:
  explicit ObjectReader(const Node& node);

  const Node& node() const { return node_; }
  std::optional<Node> optional(std::string_view key);
  Node required(std::string_view key);

  float get(std::string_view key, float fallback);
  int get(std::string_view key, int fallback);
  bool get(std::string_view key, bool fallback);
  std::string get(std::string_view key, const std::string& fallback);
  std::string get(std::string_view key, const char* fallback) { return get(key, std::string(fallback)); }
  Rgba8 get_color(std::string_view key, Rgba8 fallback);

  // Fails on the first member that no lookup asked for.
  void finish() const;

 private:
  Node node_;
  std::vector<bool> used_;
};

}  // namespace mf::json
