#pragma once
// ByteReader: little-endian reads over untrusted bytes, for every binary format the project loads
// (the build file .mbuild, the graph binary .mgbuild). Standard library only, no exceptions.
//
// Every read is checked against the bytes left; nothing is ever read past the end. Errors are values:
// the first problem is kept (sticky) as a ByteError with the byte offset where the offending value
// starts and a message naming the field the caller gave; after it every read returns zero (or an empty
// string or span) and moves nothing, so a parser can run to its end and check `failed()` once, and a
// loop over a count read after the failure runs zero times. The reader allocates nothing itself except
// the strings str() returns (whose length is checked against the bytes left first) and the error's
// message. count() checks an array's length against the bytes left before the caller allocates for it,
// so a forged count never makes a loader allocate more than the input could hold.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace mf {

// The first problem a ByteReader met.
struct ByteError {
  std::size_t offset = 0;  // where the offending value starts: the reader's base plus its position
  std::string field;       // the field being read, as the caller named it; may be empty
  std::string message;     // what is wrong, one sentence without a trailing period, naming the field
};

class ByteReader {
 public:
  // `base` is added to every offset the reader reports: the input's offset within a larger file.
  explicit ByteReader(std::span<const std::uint8_t> bytes, std::size_t base = 0) : bytes_(bytes), base_(base) {}
  explicit ByteReader(std::string_view bytes, std::size_t base = 0)
      : ByteReader(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), base) {}

  bool ok() const { return !failed_; }
  bool failed() const { return failed_; }
  // The first problem; meaningful only when failed().
  const ByteError& error() const { return error_; }

  std::size_t size() const { return bytes_.size(); }
  std::size_t position() const { return pos_; }           // bytes read so far
  std::size_t offset() const { return base_ + pos_; }     // position() as an offset in the whole file
  std::size_t remaining() const { return bytes_.size() - pos_; }

  // Records a problem with the value that starts at the current position (fail) or at `position`
  // (fail_at; a position as position() gives it). Only the first problem is kept.
  void fail(std::string_view field, std::string message) { fail_at(pos_, field, std::move(message)); }
  void fail_at(std::size_t position, std::string_view field, std::string message);

  std::uint8_t u8(const char* field = "") {
    if (!need(1, field)) return 0;
    return bytes_[pos_++];
  }
  std::uint16_t u16(const char* field = "") {
    if (!need(2, field)) return 0;
    const auto v = static_cast<std::uint16_t>(bytes_[pos_] | bytes_[pos_ + 1] << 8);
    pos_ += 2;
    return v;
  }
  std::uint32_t u32(const char* field = "") {
    if (!need(4, field)) return 0;
    const std::uint32_t v = std::uint32_t{bytes_[pos_]} | std::uint32_t{bytes_[pos_ + 1]} << 8 |
                            std::uint32_t{bytes_[pos_ + 2]} << 16 | std::uint32_t{bytes_[pos_ + 3]} << 24;
    pos_ += 4;
    return v;
  }
  std::uint64_t u64(const char* field = "") {
    if (!need(8, field)) return 0;
    const std::uint64_t lo = u32(field);
    return lo | std::uint64_t{u32(field)} << 32;
  }
  std::int8_t i8(const char* field = "") { return static_cast<std::int8_t>(u8(field)); }
  std::int32_t i32(const char* field = "") { return static_cast<std::int32_t>(u32(field)); }
  float f32(const char* field = "") { return std::bit_cast<float>(u32(field)); }

  // A u8 that must be 0 or 1.
  bool flag(const char* field);
  // A u8 that must be below `count` (an enum's number of values); 0 after a problem.
  std::uint8_t enum_value(unsigned count, const char* field);
  template <class E>
  E enumeration(unsigned count, const char* field) {
    return static_cast<E>(enum_value(count, field));
  }

  // The next `n` bytes, viewed in place; empty (and a problem) when fewer are left.
  std::span<const std::uint8_t> bytes(std::size_t n, const char* field);
  // A string stored as a u32 byte count and the bytes; the count is checked before the string is made.
  std::string str(const char* field);
  // An array's u32 count; a problem (and 0) when `min_item_bytes` times the count is more than the
  // bytes left, so what the caller then allocates is bounded by the input's size.
  std::size_t count(std::size_t min_item_bytes, const char* field);

 private:
  bool need(std::size_t n, const char* field) {
    if (failed_) return false;
    if (n <= remaining()) return true;
    fail_truncated(n, field);
    return false;
  }
  void fail_truncated(std::size_t n, const char* field);

  std::span<const std::uint8_t> bytes_;
  std::size_t base_ = 0;
  std::size_t pos_ = 0;
  bool failed_ = false;
  ByteError error_;
};

}  // namespace mf
