#pragma once
// The loading API: one call that turns a .mskel path into ready runtime data through the bake cache.
// A cooked build (what a shipped game has instead of sources) loads with the runtime alone:
// mf::skel::load_build_file (mf/skel/build_file.hpp).
//
// The skeleton's cache key is the SHA-256 of the .mskel's bytes, every image file of its images folder
// (names and bytes), the import settings and the cache version (kBakeCacheVersion, and the build
// format version). Clips are cached apart, each keyed by its own file's bytes and the skeleton's key,
// and still load on demand: the data lists every clip by name and length, and SkeletonData::load_clip
// reads the clip's cache entry or compiles its source (then stores it).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/offline/build/bake_cache.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::offline {

struct LoadOptions {
  // The cache folder; nothing: from the environment (bake_cache_dir_from_environment). An empty
  // string or "off" disables the cache.
  std::optional<std::string> cache_dir;
  std::uint32_t cache_version = kBakeCacheVersion;
  // Receives problems that do not stop loading but happen after load_skeleton returned (a clip's
  // cache entry that cannot be written). Unset: printed to stderr as "warning: …".
  std::function<void(const Error&)> log;
};

enum class CacheResult { Off, Hit, Miss };
const char* to_string(CacheResult result);  // "off", "hit", "miss"

struct LoadedSkeleton {
  std::shared_ptr<skel::SkeletonData> data;
  CacheResult cache = CacheResult::Off;
  CacheKey key;             // the skeleton's cache key (computed even when the cache is off)
  std::string cache_entry;  // the entry file; empty when the cache is off
  // The build's warnings (also on a hit: the entry keeps them) and a skeleton entry that could not be
  // written (loading goes on without the cache).
  std::vector<Error> warnings;
};

// Loads a rig through the bake cache: a hit loads the cached build; a miss (no entry, or one that is
// short, damaged or of another version) builds from the sources and stores the build. Errors are
// the sources' errors (file, place, message).
Expected<LoadedSkeleton> load_skeleton(const std::string& mskel_path, const LoadOptions& options = {});

// The skeleton cache key of a rig as load_skeleton computes it.
Expected<CacheKey> skeleton_cache_key(const std::string& mskel_path, std::uint32_t cache_version = kBakeCacheVersion);

}  // namespace mf::offline
