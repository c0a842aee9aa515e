// JSON parsing through nlohmann/json's SAX interface into mf::json::Value, keeping positions.
//
// nlohmann's SAX events carry no positions, so the input goes through a counting iterator: when an
// event arrives, the lexer has consumed exactly the token (plus one lookahead character after a
// number), which lets us find where the token starts.

#include "mf/offline/json/json.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "mf/offline/json/json_path.hpp"

namespace mf::json {
namespace {

// Input iterator over the text that publishes how many characters the lexer has consumed.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* data, std::size_t index, std::size_t* consumed)
      : data_(data), index_(index), consumed_(consumed) {}

  reference operator*() const { return data_[index_]; }
  CountingIterator& operator++() {
    ++index_;
    if (consumed_) *consumed_ = index_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator old = *this;
    ++*this;
    return old;
  }
  // C++20 derives != from ==.
  friend bool operator==(const CountingIterator& a, const CountingIterator& b) { return a.index_ == b.index_; }

 private:
  const char* data_;
  std::size_t index_;
  std::size_t* consumed_;
};

bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

class TreeBuilder : public nlohmann::json_sax<nlohmann::json> {
 public:
  TreeBuilder(std::string_view text, const std::string& file, const std::size_t* consumed)
      : text_(text), file_(file), consumed_(consumed) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') line_starts_.push_back(i + 1);
  }

  bool null() override { return add(Type::Null, literal_start(4)); }
  bool boolean(bool v) override {
    Value* value = add_value(Type::Bool, literal_start(v ? 4 : 5));
    if (!value) return false;
    value->boolean = v;
    return true;
  }
  bool number_integer(number_integer_t v) override { return add_number(static_cast<double>(v), true); }
  bool number_unsigned(number_unsigned_t v) override { return add_number(static_cast<double>(v), true); }
  bool number_float(number_float_t v, const string_t&) override { return add_number(v, false); }
  bool string(string_t& v) override {
    Value* value = add_value(Type::String, string_start());
    if (!value) return false;
    value->string = std::move(v);
    return true;
  }
  bool binary(binary_t&) override { return fail_here("binary values are not JSON"); }

  bool start_object(std::size_t) override { return open(Type::Object); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(Type::Array); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& frame = stack_.back();
    if (!frame.keys.insert(k).second) {
      const std::size_t start = string_start();
      return fail_at(start, "duplicate key \"" + k + "\"");
    }
    pending_key_ = std::move(k);
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    if (error_) return false;  // our own error came first
    // nlohmann's message: "[json.exception.<kind>.<id>] parse error at line L, column C: what". Its
    // line and column can land after a lookahead newline; `position` (characters read, the lookahead
    // given back) is exact, so the position comes from that.
    std::string what = ex.what();
    if (auto bracket = what.find("] "); bracket != std::string::npos) what = what.substr(bracket + 2);
    if (what.rfind("parse error", 0) == 0) {
      if (auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
    }
    if (what.rfind("number overflow", 0) == 0) what = "number out of range: " + what.substr(what.find('\''));
    const std::size_t offset = position > 0 ? std::min(position, text_.size()) - 1 : 0;
    error_ = Error{file_, {}, text_.empty() ? TextPosition{1, 1} : position_of(offset), what};
    return false;
  }

  Expected<Value> finish(bool parsed) {
    if (error_) return Unexpected{*error_};
    if (!parsed || !has_root_) return Unexpected{Error{file_, {}, {1, 1}, "empty document"}};
    return std::move(root_);
  }

 private:
  struct Frame {
    Value* value;
    std::set<std::string> keys;
  };

  TextPosition position_of(std::size_t offset) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    const std::size_t line = static_cast<std::size_t>(it - line_starts_.begin());
    return {static_cast<int>(line), static_cast<int>(offset - line_starts_[line - 1] + 1)};
  }

  // The last character the lexer consumed.
  std::size_t last() const { return *consumed_ == 0 ? 0 : *consumed_ - 1; }
  std::size_t literal_start(std::size_t length) const { return last() + 1 - length; }
  std::size_t string_start() const {
    // The closing quote is the last consumed character; find the opening quote that is not escaped.
    std::size_t k = last();
    while (k > 0) {
      --k;
      if (text_[k] != '"') continue;
      std::size_t slashes = 0;
      while (k >= slashes + 1 && text_[k - slashes - 1] == '\\') ++slashes;
      if (slashes % 2 == 0) return k;
    }
    return 0;
  }
  std::size_t number_start() const {
    std::size_t end = last();
    if (!is_number_char(text_[end]) && end > 0) --end;  // step back over the lookahead character
    std::size_t k = end;
    while (k > 0 && is_number_char(text_[k - 1])) --k;
    return k;
  }

  bool fail_at(std::size_t offset, std::string message) {
    if (!error_) error_ = Error{file_, {}, position_of(offset), std::move(message)};
    return false;
  }
  bool fail_here(std::string message) { return fail_at(last(), std::move(message)); }

  bool add_number(double v, bool integer) {
    const std::size_t start = number_start();
    if (!std::isfinite(v)) return fail_at(start, "number out of range");
    Value* value = add_value(Type::Number, start);
    if (!value) return false;
    value->number = v;
    value->integer = integer;
    return true;
  }

  bool add(Type type, std::size_t start) { return add_value(type, start) != nullptr; }

  Value* add_value(Type type, std::size_t start) {
    Value* slot;
    if (stack_.empty()) {
      root_ = Value{};
      slot = &root_;
      has_root_ = true;
    } else {
      Value* parent = stack_.back().value;
      if (parent->type == Type::Array) {
        slot = &parent->items.emplace_back();
      } else {
        slot = &parent->members.emplace_back(Member{std::move(pending_key_), Value{}}).second;
      }
    }
    slot->type = type;
    slot->position = position_of(start);
    return slot;
  }

  bool open(Type type) {
    if (static_cast<int>(stack_.size()) >= kMaxDepth)
      return fail_here("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    Value* value = add_value(type, last());
    if (!value) return false;
    stack_.push_back(Frame{value, {}});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  std::string_view text_;
  const std::string& file_;
  const std::size_t* consumed_;
  std::vector<std::size_t> line_starts_;
  std::vector<Frame> stack_;
  Value root_;
  bool has_root_ = false;
  std::string pending_key_;
  std::optional<Error> error_;
};

}  // namespace

const char* type_name(Type t) {
  switch (t) {
    case Type::Null: return "null";
    case Type::Bool: return "a boolean";
    case Type::Number: return "a number";
    case Type::String: return "a string";
    case Type::Array: return "an array";
    case Type::Object: return "an object";
  }
  return "?";
}

const Value* Value::find(std::string_view key) const {
  for (const Member& m : members)
    if (m.first == key) return &m.second;
  return nullptr;
}

Expected<Value> parse(std::string_view text, const std::string& file) {
  std::size_t consumed = 0;
  TreeBuilder builder(text, file, &consumed);
  CountingIterator first(text.data(), 0, &consumed);
  CountingIterator last(text.data(), text.size(), nullptr);
  const bool parsed = nlohmann::json::sax_parse(first, last, &builder, nlohmann::json::input_format_t::json,
                                                /*strict=*/true, /*ignore_comments=*/false);
  return builder.finish(parsed);
}

const Value* find_path(const Value& root, std::string_view path) {
  const Value* at = &root;
  for (const PathSegment& seg : split_path(path)) {
    if (!at) return nullptr;
    if (seg.is_index) {
      if (!at->is_array() || seg.index >= at->items.size()) return nullptr;
      at = &at->items[seg.index];
    } else {
      if (!at->is_object()) return nullptr;
      at = at->find(seg.key);
    }
  }
  return at;
}

}  // namespace mf::json
