#pragma once
// A JSON document with the source position of every value, for error messages that point at the
// offending line. Parsing is done by nlohmann/json (SAX interface); this type only keeps the tree.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mf/core/expected.hpp"

namespace mf::json {

enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };

// The name of a type as error messages use it: "null", "a boolean", "a number", ...
const char* type_name(Type t);

struct Value;
struct Member;  // defined below: a vector of an incomplete struct is fine, a pair of one is not

struct Value {
  Type type = Type::Null;
  TextPosition position;          // where the value starts
  bool boolean = false;
  bool integer = false;           // number written without fraction or exponent
  double number = 0;
  std::string string;             // the text of a String
  std::vector<Value> items;       // elements of an Array
  std::vector<Member> members;    // members of an Object, in file order (keys are unique)

  bool is_null() const { return type == Type::Null; }
  bool is_bool() const { return type == Type::Bool; }
  bool is_number() const { return type == Type::Number; }
  bool is_string() const { return type == Type::String; }
  bool is_array() const { return type == Type::Array; }
  bool is_object() const { return type == Type::Object; }

  // The member with this key, or nullptr.
  const Value* find(std::string_view key) const;
};

// One member of an object. Named like std::pair's fields, as the object's (key, value) pairs.
struct Member {
  std::string first;  // the key
  Value second;       // the value
};

// Documents nested deeper than this are rejected (keeps every walk of the tree shallow).
inline constexpr int kMaxDepth = 64;

// Parses UTF-8 JSON text. Errors name `file` and the line:column of the problem. Duplicate keys,
// invalid UTF-8, non-finite numbers and nesting deeper than kMaxDepth are errors.
Expected<Value> parse(std::string_view text, const std::string& file);

// Follows a JSON path such as "bones[4].parent" from `root`; nullptr when it does not exist.
const Value* find_path(const Value& root, std::string_view path);

}  // namespace mf::json
