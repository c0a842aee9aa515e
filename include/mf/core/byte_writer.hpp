#pragma once
// ByteWriter: the writing side of ByteReader (mf/core/byte_reader.hpp). Appends values little-endian,
// byte by byte (never a struct's memory), to a string it owns; the build file and the graph binary
// writers both use it. Standard library only, no exceptions: it grows its string and nothing else.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mf {

class ByteWriter {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u16(std::uint16_t v) {
    u8(static_cast<std::uint8_t>(v));
    u8(static_cast<std::uint8_t>(v >> 8));
  }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    u32(static_cast<std::uint32_t>(v));
    u32(static_cast<std::uint32_t>(v >> 32));
  }
  void i8(std::int8_t v) { u8(static_cast<std::uint8_t>(v)); }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
  // 1 or 0, as ByteReader::flag reads it.
  void flag(bool v) { u8(v ? 1 : 0); }
  // An enum as one byte, as ByteReader::enumeration reads it.
  template <class E>
  void enumeration(E v) {
    u8(static_cast<std::uint8_t>(v));
  }
  // An array's length as a u32, as ByteReader::count reads it.
  void count(std::size_t n) { u32(static_cast<std::uint32_t>(n)); }
  // A u32 byte count and the bytes, as ByteReader::str reads it.
  void str(std::string_view s) {
    count(s.size());
    out_.append(s);
  }
  // Raw bytes, no count.
  void bytes(std::string_view s) { out_.append(s); }
  void bytes(std::span<const std::uint8_t> s) { out_.append(reinterpret_cast<const char*>(s.data()), s.size()); }

  std::size_t size() const { return out_.size(); }
  const std::string& view() const { return out_; }
  // The bytes written; the writer is left empty.
  std::string take() { return std::exchange(out_, std::string()); }
  std::vector<std::uint8_t> take_vector() {
    std::vector<std::uint8_t> v(out_.begin(), out_.end());
    out_.clear();
    return v;
  }

 private:
  std::string out_;
};

}  // namespace mf
