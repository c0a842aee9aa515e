#include "mf/offline/build/bake_cache.hpp"

#include <openssl/evp.h>
#include <zstd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <new>

#include "mf/core/file_io.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

// Entry header: magic, cache version, kind, key, content size, compressed size; then one zstd frame
// with its content checksum.
constexpr char kEntryMagic[8] = {'M', 'F', 'B', 'A', 'K', 'E', '\0', '\0'};
constexpr std::size_t kEntryHeaderBytes = 8 + 4 + 4 + 32 + 8 + 8;
// A sanity cap on what an entry may claim to hold, so a damaged size never allocates gigabytes.
constexpr std::uint64_t kMaxContentBytes = std::uint64_t{1} << 32;
constexpr int kCompressionLevel = 3;  // zstd's default: fast to write, small enough

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_u64(std::string& out, std::uint64_t v) {
  put_u32(out, static_cast<std::uint32_t>(v));
  put_u32(out, static_cast<std::uint32_t>(v >> 32));
}
std::uint64_t get_le(std::string_view bytes, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  return v;
}

const char* suffix(EntryKind kind) { return kind == EntryKind::Skeleton ? ".skel.zst" : ".clip.zst"; }

}  // namespace

std::string CacheKey::hex() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

KeyHasher::KeyHasher() : context_(EVP_MD_CTX_new()) {
  if (!context_ || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(context_), EVP_sha256(), nullptr) != 1) throw std::bad_alloc();
}

KeyHasher::~KeyHasher() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(context_)); }

KeyHasher& KeyHasher::field(std::uint64_t value) {
  unsigned char le[8];
  for (int i = 0; i < 8; ++i) le[i] = static_cast<unsigned char>(value >> (8 * i));
  EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(context_), le, sizeof le);
  return *this;
}

KeyHasher& KeyHasher::field(std::string_view bytes) {
  field(static_cast<std::uint64_t>(bytes.size()));
  EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(context_), bytes.data(), bytes.size());
  return *this;
}

CacheKey KeyHasher::finish() {
  CacheKey key;
  unsigned int size = 0;
  EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(context_), key.bytes.data(), &size);
  return key;
}

std::optional<std::string> bake_cache_dir_from_environment() {
  if (const char* dir = std::getenv(kBakeCacheDirVariable); dir && *dir) {
    if (std::string_view(dir) == "off") return std::nullopt;
    return std::string(dir);
  }
  fs::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg && fs::path(xdg).is_absolute()) {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = fs::path(home) / ".cache";
  } else {
    return std::nullopt;
  }
  return (base / "mfskeleton" / "skeleton-bakes").string();
}

BakeCache::BakeCache(std::string dir, std::uint32_t version) : dir_(std::move(dir)), version_(version) {}

BakeCache BakeCache::from_environment(std::uint32_t version) {
  return BakeCache(bake_cache_dir_from_environment().value_or(std::string()), version);
}

std::string BakeCache::entry_path(const CacheKey& key, EntryKind kind) const {
  return (fs::path(dir_) / (key.hex() + suffix(kind))).string();
}

std::optional<std::string> BakeCache::read(const CacheKey& key, EntryKind kind) const {
  if (!enabled()) return std::nullopt;
  std::error_code ec;
  const std::string path = entry_path(key, kind);
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  Expected<std::string> bytes = read_file(path);
  if (!bytes || bytes->size() < kEntryHeaderBytes) return std::nullopt;
  const std::string_view entry = *bytes;
  if (std::memcmp(entry.data(), kEntryMagic, sizeof kEntryMagic) != 0) return std::nullopt;
  if (get_le(entry, 8, 4) != version_ || get_le(entry, 12, 4) != static_cast<std::uint32_t>(kind)) return std::nullopt;
  if (std::memcmp(entry.data() + 16, key.bytes.data(), key.bytes.size()) != 0) return std::nullopt;
  const std::uint64_t content_size = get_le(entry, 48, 8), compressed_size = get_le(entry, 56, 8);
  if (content_size > kMaxContentBytes || compressed_size != entry.size() - kEntryHeaderBytes) return std::nullopt;
  const std::string_view frame = entry.substr(kEntryHeaderBytes);
  if (ZSTD_getFrameContentSize(frame.data(), frame.size()) != content_size) return std::nullopt;
  try {
    std::string content(static_cast<std::size_t>(content_size), '\0');
    const std::size_t n = ZSTD_decompress(content.data(), content.size(), frame.data(), frame.size());
    if (ZSTD_isError(n) || n != content_size) return std::nullopt;  // includes a failed content checksum
    return content;
  } catch (const std::bad_alloc&) {
    return std::nullopt;
  }
}

Status BakeCache::write(const CacheKey& key, EntryKind kind, std::string_view content) const {
  if (!enabled()) return {};
  const std::string path = entry_path(key, kind);
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return Unexpected{Error{dir_, {}, {}, "cannot create the bake cache folder: " + ec.message()}};

  std::string entry(kEntryMagic, sizeof kEntryMagic);
  put_u32(entry, version_);
  put_u32(entry, static_cast<std::uint32_t>(kind));
  entry.append(reinterpret_cast<const char*>(key.bytes.data()), key.bytes.size());
  put_u64(entry, content.size());
  const std::size_t size_at = entry.size();
  put_u64(entry, 0);  // compressed size, known below

  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  if (!cctx) return Unexpected{Error{path, {}, {}, "out of memory for compression"}};
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, kCompressionLevel);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);  // a damaged entry fails to decompress
  std::string frame(ZSTD_compressBound(content.size()), '\0');
  const std::size_t n = ZSTD_compress2(cctx, frame.data(), frame.size(), content.data(), content.size());
  ZSTD_freeCCtx(cctx);
  if (ZSTD_isError(n)) return Unexpected{Error{path, {}, {}, std::string("compression failed: ") + ZSTD_getErrorName(n)}};
  frame.resize(n);
  for (int i = 0; i < 8; ++i) entry[size_at + static_cast<std::size_t>(i)] = static_cast<char>((std::uint64_t{n} >> (8 * i)) & 0xff);
  entry += frame;
  return write_file_atomic(path, entry);
}

}  // namespace mf::offline
