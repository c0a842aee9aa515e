#pragma once
// The canonical JSON writer behind every source format: the caller decides the key order and which
// containers go on one line, the writer owns every byte of layout, so equal data gives equal bytes.
//
// Layout: block containers put each element on its own line, indented by two spaces per level;
// inline containers stay on one line as `[1, 2, 3]` and `{ "a": 1, "b": 2 }`. A container opened
// inside an inline one is inline too. Numbers use the shortest text that reads back to the same
// float; strings are UTF-8 with only `"`, `\` and control characters escaped. The text ends with a
// newline.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mf::json {

enum class Layout : std::uint8_t { Block, Inline };

class Writer {
 public:
  void begin_object(Layout layout = Layout::Block);
  void end_object();
  void begin_array(Layout layout = Layout::Block);
  void end_array();

  // Inside an object: the key of the next value.
  void key(std::string_view k);

  void null();
  void boolean(bool v);
  void number(float v);
  void integer(std::int64_t v);
  void string(std::string_view v);

  // The finished document. All containers must be closed.
  std::string finish();

 private:
  struct Frame {
    bool object;
    bool inline_layout;
    int count;
  };
  void before_value();
  void newline_indent();
  void close(char bracket);
  void write_quoted(std::string_view v);

  std::string out_;
  std::vector<Frame> stack_;
  bool after_key_ = false;
};

// Shortest decimal text that reads back as the same float ("0.1", "1", "-2.5", "1e-07").
std::string format_float(float v);

}  // namespace mf::json
