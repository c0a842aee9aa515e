#include "mf/offline/json/json_writer.hpp"

#include <cassert>
#include <charconv>
#include <cmath>

namespace mf::json {

std::string format_float(float v) {
  assert(std::isfinite(v));
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  assert(ec == std::errc());
  return std::string(buffer, end);
}

void Writer::newline_indent() {
  out_ += '\n';
  out_.append(stack_.size() * 2, ' ');
}

void Writer::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  Frame& f = stack_.back();
  assert(!f.object && "a value inside an object needs a key first");
  if (f.inline_layout) {
    if (f.count > 0) out_ += ", ";
  } else {
    if (f.count > 0) out_ += ',';
    newline_indent();
  }
  ++f.count;
}

void Writer::key(std::string_view k) {
  assert(!stack_.empty() && stack_.back().object && !after_key_);
  Frame& f = stack_.back();
  if (f.inline_layout) {
    out_ += f.count > 0 ? ", " : " ";
  } else {
    if (f.count > 0) out_ += ',';
    newline_indent();
  }
  ++f.count;
  write_quoted(k);
  out_ += ": ";
  after_key_ = true;
}

void Writer::begin_object(Layout layout) {
  before_value();
  const bool parent_inline = !stack_.empty() && stack_.back().inline_layout;
  stack_.push_back({true, layout == Layout::Inline || parent_inline, 0});
  out_ += '{';
}

void Writer::begin_array(Layout layout) {
  before_value();
  const bool parent_inline = !stack_.empty() && stack_.back().inline_layout;
  stack_.push_back({false, layout == Layout::Inline || parent_inline, 0});
  out_ += '[';
}

void Writer::close(char bracket) {
  assert(!stack_.empty() && !after_key_);
  const Frame f = stack_.back();
  stack_.pop_back();
  if (f.count > 0) {
    if (f.inline_layout) {
      if (f.object) out_ += ' ';
    } else {
      newline_indent();
    }
  }
  out_ += bracket;
}

void Writer::end_object() {
  assert(stack_.back().object);
  close('}');
}

void Writer::end_array() {
  assert(!stack_.back().object);
  close(']');
}

void Writer::null() {
  before_value();
  out_ += "null";
}

void Writer::boolean(bool v) {
  before_value();
  out_ += v ? "true" : "false";
}

void Writer::number(float v) {
  before_value();
  // Negative zero would read back as the integer 0 and rewrite differently: write it as 0.
  out_ += format_float(v == 0 ? 0.0f : v);
}

void Writer::integer(std::int64_t v) {
  before_value();
  out_ += std::to_string(v);
}

void Writer::string(std::string_view v) {
  before_value();
  write_quoted(v);
}

void Writer::write_quoted(std::string_view v) {
  out_ += '"';
  for (char ch : v) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\n': out_ += "\\n"; break;
      case '\r': out_ += "\\r"; break;
      case '\t': out_ += "\\t"; break;
      case '\b': out_ += "\\b"; break;
      case '\f': out_ += "\\f"; break;
      default:
        if (c < 0x20) {
          constexpr char hex[] = "0123456789abcdef";
          out_ += "\\u00";
          out_ += hex[c >> 4];
          out_ += hex[c & 15];
        } else {
          out_ += ch;
        }
    }
  }
  out_ += '"';
}

std::string Writer::finish() {
  assert(stack_.empty());
  std::string result = std::move(out_);
  result += '\n';
  out_.clear();
  return result;
}

}  // namespace mf::json
