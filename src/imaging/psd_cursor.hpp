#pragma once
// PsdCursor: big-endian reads over a PSD file's bytes, for the PSD reader only. Every read is checked
// against the bytes left in the cursor's section; a length field opens a sub-cursor over exactly the
// bytes it claims, so a record can never read into the one after it. A problem throws PsdFormatError
// with the byte offset (in the whole file) of the value that is wrong; decode_psd turns it into an Error.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace mf::imaging::psd {

struct PsdFormatError {
  std::size_t offset = 0;
  std::string message;
};

[[noreturn]] inline void fail_at(std::size_t offset, std::string message) {
  throw PsdFormatError{offset, std::move(message)};
}

class PsdCursor {
 public:
  // `base`: the offset of `bytes` in the file; `section`: what the bytes are, for messages.
  PsdCursor(std::span<const std::uint8_t> bytes, std::size_t base, const char* section)
      : bytes_(bytes), base_(base), section_(section) {}

  std::size_t offset() const { return base_ + pos_; }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  bool at_end() const { return pos_ == bytes_.size(); }
  const char* section() const { return section_; }

  [[noreturn]] void fail(std::string message) const { fail_at(offset(), std::move(message)); }

  std::uint8_t u8(const char* what) {
    need(1, what);
    return bytes_[pos_++];
  }
  std::uint16_t u16(const char* what) {
    need(2, what);
    const auto v = static_cast<std::uint16_t>(bytes_[pos_] << 8 | bytes_[pos_ + 1]);
    pos_ += 2;
    return v;
  }
  std::int16_t i16(const char* what) { return static_cast<std::int16_t>(u16(what)); }
  std::uint32_t u32(const char* what) {
    need(4, what);
    const std::uint32_t v = std::uint32_t{bytes_[pos_]} << 24 | std::uint32_t{bytes_[pos_ + 1]} << 16 |
                            std::uint32_t{bytes_[pos_ + 2]} << 8 | std::uint32_t{bytes_[pos_ + 3]};
    pos_ += 4;
    return v;
  }
  std::int32_t i32(const char* what) { return static_cast<std::int32_t>(u32(what)); }

  // Four bytes as text, e.g. a signature or a key.
  std::string tag(const char* what) {
    need(4, what);
    std::string out(reinterpret_cast<const char*>(bytes_.data() + pos_), 4);
    pos_ += 4;
    return out;
  }

  std::span<const std::uint8_t> bytes(std::size_t n, const char* what) {
    need(n, what);
    auto out = bytes_.subspan(pos_, n);
    pos_ += n;
    return out;
  }
  void skip(std::size_t n, const char* what) { need(n, what); pos_ += n; }
  // Skips up to n bytes: for padding that some writers leave out at the end of a section.
  void skip_padding(std::size_t n) { pos_ += n < remaining() ? n : remaining(); }

  // The next `length` bytes as their own section; the length was read at `length_offset`.
  PsdCursor take(std::uint64_t length, std::size_t length_offset, const char* what) {
    if (length > remaining())
      fail_at(length_offset, std::string(what) + " length " + std::to_string(length) + " runs past the end of the " +
                                 section_ + " (" + std::to_string(remaining()) + " bytes left)");
    PsdCursor out(bytes_.subspan(pos_, static_cast<std::size_t>(length)), offset(), what);
    pos_ += static_cast<std::size_t>(length);
    return out;
  }
  // A 4-byte length and the section it covers.
  PsdCursor section_u32(const char* what) {
    const std::size_t at = offset();
    const std::uint32_t length = u32(what);
    return take(length, at, what);
  }

 private:
  void need(std::size_t n, const char* what) const {
    if (n > remaining())
      fail(std::string(what) + " (" + std::to_string(n) + " bytes) runs past the end of the " + section_ + " (" +
           std::to_string(remaining()) + " bytes left)");
  }

  std::span<const std::uint8_t> bytes_;
  std::size_t base_ = 0;
  std::size_t pos_ = 0;
  const char* section_ = "";
};

}  // namespace mf::imaging::psd
