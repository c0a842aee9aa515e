#include "mf/core/byte_reader.hpp"

namespace mf {
namespace {

// "the value" when the caller named no field.
std::string named(const char* field) { return (field && *field) ? std::string(field) : std::string("the value"); }

}  // namespace

void ByteReader::fail_at(std::size_t position, std::string_view field, std::string message) {
  if (failed_) return;
  failed_ = true;
  error_.offset = base_ + position;
  error_.field = std::string(field);
  error_.message = std::move(message);
}

void ByteReader::fail_truncated(std::size_t n, const char* field) {
  fail(field ? field : "", "the data ends inside " + named(field) + " (needs " + std::to_string(n) + " bytes, " +
                               std::to_string(remaining()) + " left)");
}

bool ByteReader::flag(const char* field) {
  const std::size_t at = pos_;
  const std::uint8_t v = u8(field);
  if (v > 1) fail_at(at, field, named(field) + " must be 0 or 1, found " + std::to_string(v));
  return !failed_ && v == 1;
}

std::uint8_t ByteReader::enum_value(unsigned count, const char* field) {
  const std::size_t at = pos_;
  const std::uint8_t v = u8(field);
  if (v >= count)
    fail_at(at, field, named(field) + " has unknown value " + std::to_string(v) + " (" + std::to_string(count) + " are known)");
  return failed_ ? 0 : v;
}

std::span<const std::uint8_t> ByteReader::bytes(std::size_t n, const char* field) {
  if (failed_) return {};
  if (n > remaining()) {
    fail(field, named(field) + " needs " + std::to_string(n) + " bytes but only " + std::to_string(remaining()) +
                    " are left");
    return {};
  }
  const auto s = bytes_.subspan(pos_, n);
  pos_ += n;
  return s;
}

std::string ByteReader::str(const char* field) {
  const std::size_t at = pos_;
  const std::uint32_t n = u32(field);
  if (failed_) return {};
  if (n > remaining()) {
    fail_at(at, field, named(field) + " is " + std::to_string(n) + " bytes long but only " + std::to_string(remaining()) +
                           " bytes are left");
    return {};
  }
  std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
  pos_ += n;
  return s;
}

std::size_t ByteReader::count(std::size_t min_item_bytes, const char* field) {
  const std::size_t at = pos_;
  const std::uint32_t n = u32(field);
  if (failed_) return 0;
  if (min_item_bytes > 0 && n > remaining() / min_item_bytes) {
    fail_at(at, field, std::to_string(n) + " " + named(field) + " need at least " +
                           std::to_string(std::uint64_t{n} * min_item_bytes) + " bytes but only " +
                           std::to_string(remaining()) + " are left");
    return 0;
  }
  return n;
}

}  // namespace mf
