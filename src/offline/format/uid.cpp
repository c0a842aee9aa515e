#include "mf/offline/format/uid.hpp"

#include <cstdint>
#include <random>

namespace mf::offline {
namespace {

std::string with_hex(std::string_view prefix, std::uint64_t bits) {
  constexpr char digits[] = "0123456789abcdef";
  std::string out(prefix);
  for (int i = 11; i >= 0; --i) out += digits[(bits >> (i * 4)) & 15];
  return out;
}

}  // namespace

std::string make_uid(std::string_view prefix) {
  std::random_device rd;
  const std::uint64_t bits = (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  return with_hex(prefix, bits);
}

std::string derive_uid(std::string_view prefix, std::string_view source) {
  // 64-bit FNV-1a: stable across platforms and runs, which is all an importer needs here.
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : source) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return with_hex(prefix, h);
}

bool is_valid_uid(std::string_view uid, std::string_view prefix) {
  if (uid.size() != prefix.size() + 12 || uid.substr(0, prefix.size()) != prefix) return false;
  for (char c : uid.substr(prefix.size()))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace mf::offline
