#pragma once
// The bake cache: builds kept on disk outside the project, so a rig whose sources have not changed
// loads without packing atlases, triangulating or sampling curves again.
//
// Where: MF_SKELETON_BAKE_CACHE_DIR when set ("off" disables the cache), else the user cache folder
// ($XDG_CACHE_HOME, or ~/.cache) + "mfskeleton/skeleton-bakes". Entries are files named by their
// key (SHA-256, OpenSSL libcrypto), holding a small header and zstd-compressed content. A missing,
// short or damaged entry is a miss; writes go to a unique temporary file renamed over the entry, so
// concurrent builders never leave a half-written entry, and a failed write is only reported (the
// caller logs it). Layout: docs/format-build.md, "Bake cache".

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mf/core/expected.hpp"

namespace mf::offline {

// Bumped whenever what a cached entry means changes without the sources changing (the builder's
// output, the entry layout). Part of every key, and checked in every entry's header.
inline constexpr std::uint32_t kBakeCacheVersion = 1;

// The environment variable that overrides the cache folder; the value "off" disables the cache.
inline constexpr const char* kBakeCacheDirVariable = "MF_SKELETON_BAKE_CACHE_DIR";

struct CacheKey {
  std::array<std::uint8_t, 32> bytes{};
  std::string hex() const;  // 64 lower-case hex digits
  friend bool operator==(const CacheKey&, const CacheKey&) = default;
};

// Incremental SHA-256. Each field added with `field` is length-prefixed, so ("ab", "c") and ("a", "bc")
// give different keys.
class KeyHasher {
 public:
  KeyHasher();
  ~KeyHasher();
  KeyHasher(const KeyHasher&) = delete;
  KeyHasher& operator=(const KeyHasher&) = delete;

  KeyHasher& field(std::string_view bytes);
  KeyHasher& field(std::uint64_t value);
  CacheKey finish();

 private:
  void* context_;  // EVP_MD_CTX
};

// The folder the environment asks for: MF_SKELETON_BAKE_CACHE_DIR, else $XDG_CACHE_HOME or ~/.cache
// with "mfskeleton/skeleton-bakes"; nothing when the cache is "off" or no folder can be found.
std::optional<std::string> bake_cache_dir_from_environment();

// What kind of entry a key names: the file suffix, so skeletons and clips never collide.
enum class EntryKind { Skeleton, Clip };

class BakeCache {
 public:
  // A cache in `dir`; an empty dir disables it (every read misses, every write is skipped).
  explicit BakeCache(std::string dir, std::uint32_t version = kBakeCacheVersion);
  static BakeCache from_environment(std::uint32_t version = kBakeCacheVersion);

  bool enabled() const { return !dir_.empty(); }
  const std::string& dir() const { return dir_; }
  std::uint32_t version() const { return version_; }

  // The entry file for a key.
  std::string entry_path(const CacheKey& key, EntryKind kind) const;

  // The content stored under `key`, or nothing on a miss: no entry, or one that is short, damaged,
  // of another cache version or stored under another key. Never throws or crashes on bad files.
  std::optional<std::string> read(const CacheKey& key, EntryKind kind) const;

  // Stores `content` under `key` (write to a unique temporary file, then rename). The error says what
  // failed; callers report it as a warning and go on.
  Status write(const CacheKey& key, EntryKind kind, std::string_view content) const;

 private:
  std::string dir_;
  std::uint32_t version_;
};

}  // namespace mf::offline
