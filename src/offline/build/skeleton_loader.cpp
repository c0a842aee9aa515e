#include "mf/offline/build/skeleton_loader.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <span>

#include "mf/core/byte_reader.hpp"
#include "mf/core/byte_writer.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/build/build_writer.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/skel/build_file.hpp"

// A skeleton entry holds a manifest, then a build written without clip data:
//   u32 warning count, each: file, path, line (i32), column (i32), message (strings: u32 size + bytes)
//   u32 clip count, each: name, SHA-256 of the clip file (32 bytes), length (f32)
//   the build (mf/skel/build_file.hpp), to the end
// The manifest's clip lengths stand for clips whose file still hashes the same; any other clip is read
// for its length. A clip entry is the clip's blob (build_writer.hpp's encode_clip).

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

using FileHash = std::array<std::uint8_t, 32>;

struct ManifestClip {
  std::string name;
  FileHash hash{};
  float length = 0;
};

struct Manifest {
  std::vector<Error> warnings;
  std::vector<ManifestClip> clips;
};

std::string encode_manifest(const Manifest& m) {
  ByteWriter w;
  w.count(m.warnings.size());
  for (const Error& e : m.warnings) {
    w.str(e.file);
    w.str(e.path);
    w.i32(e.position.line);
    w.i32(e.position.column);
    w.str(e.message);
  }
  w.count(m.clips.size());
  for (const ManifestClip& c : m.clips) {
    w.str(c.name);
    w.bytes(c.hash);
    w.f32(c.length);
  }
  return w.take();
}

// Reads the manifest at the front of an entry; the reader is left at the build. Nothing when it is
// damaged.
std::optional<Manifest> read_manifest(ByteReader& r) {
  Manifest m;
  m.warnings.resize(r.count(20, "warnings"));
  for (Error& e : m.warnings) {
    e.file = r.str("file");
    e.path = r.str("path");
    e.position.line = r.i32("line");
    e.position.column = r.i32("column");
    e.message = r.str("message");
  }
  m.clips.resize(r.count(40, "clips"));
  for (ManifestClip& c : m.clips) {
    c.name = r.str("name");
    const std::span<const std::uint8_t> hash = r.bytes(c.hash.size(), "hash");
    std::copy(hash.begin(), hash.end(), c.hash.begin());
    c.length = r.f32("length");
  }
  if (r.failed()) return std::nullopt;
  return m;
}

FileHash hash_bytes(std::string_view bytes) { return KeyHasher().field(bytes).finish().bytes; }

// The import settings, spelled out field by field (floats as their bits), for the key.
std::string settings_text(const ImportSettings& s) {
  return "images=" + s.images + "\npageSize=" + std::to_string(s.page_size) + "\npadding=" + std::to_string(s.padding) +
         "\nscale=" + std::to_string(std::bit_cast<std::uint32_t>(s.scale)) +
         "\nfilter=" + std::to_string(static_cast<int>(s.filter)) + "\nmipmaps=" + std::to_string(s.mipmaps ? 1 : 0) +
         "\nnormalSuffix=" + s.normal_suffix + "\ntrim=" + std::to_string(s.trim ? 1 : 0) + "\n";
}

// Every .png under the images folder, by path relative to it (sorted, '/' separators).
std::vector<std::pair<std::string, std::string>> image_files(const Rig& rig) {
  std::vector<std::pair<std::string, std::string>> files;
  const fs::path folder = images_folder(rig);
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return files;
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::string ext = it->path().extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext != ".png") continue;
    files.emplace_back(fs::relative(it->path(), folder, ec).generic_string(), it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Expected<CacheKey> compute_key(const Rig& rig, std::string_view mskel_bytes, std::uint32_t cache_version) {
  KeyHasher h;
  h.field("mfskeleton-bake skeleton").field(cache_version).field(skel::kBuildVersion);
  h.field(mskel_bytes);
  h.field(settings_text(rig.skeleton.import));
  const auto images = image_files(rig);
  h.field(images.size());
  for (const auto& [name, path] : images) {
    Expected<std::string> bytes = read_file(path);
    if (!bytes) return Unexpected{bytes.error()};
    h.field(name).field(*bytes);
  }
  return h.finish();
}

CacheKey clip_key(const CacheKey& skeleton, const std::string& name, std::string_view bytes, std::uint32_t cache_version) {
  return KeyHasher()
      .field("mfskeleton-bake clip")
      .field(cache_version)
      .field(std::string_view(reinterpret_cast<const char*>(skeleton.bytes.data()), skeleton.bytes.size()))
      .field(name)
      .field(bytes)
      .finish();
}

// Reads and compiles one clip from the source text already read (so the key and the compiled clip
// come from the same bytes).
Expected<std::shared_ptr<skel::ClipData>> compile_source_clip(const Rig& rig, const ClipFile& source, std::string_view text,
                                                              const skel::SkeletonData& data) {
  Expected<ClipSource> clip = read_clip(text, source.path, &rig.skeleton);
  if (!clip) return Unexpected{clip.error()};
  if (clip->skeleton_uid != rig.skeleton.uid)
    return Unexpected{Error{source.path, "skeleton.uid", {},
                            "the clip animates skeleton \"" + clip->skeleton_uid + "\", not this rig's \"" + rig.skeleton.uid +
                                "\" (" + rig.path + ")"}};
  Expected<skel::ClipData> compiled = compile_clip(*clip, rig.skeleton, data, source.name, source.path);
  if (!compiled) return Unexpected{compiled.error()};
  return std::make_shared<skel::ClipData>(std::move(compiled).value());
}

struct ClipLoaderState {
  Rig rig;
  CacheKey skeleton_key;
  BakeCache cache;
  std::function<void(const Error&)> log;
};

skel::SkeletonData::ClipLoader make_clip_loader(std::shared_ptr<const ClipLoaderState> state) {
  return [state](const skel::SkeletonData& data, int index) -> Expected<std::shared_ptr<skel::ClipData>> {
    if (index < 0 || static_cast<std::size_t>(index) >= data.clips.size())
      return Unexpected{Error{state->rig.path, {}, {}, "no clip with index " + std::to_string(index)}};
    const std::string& name = data.clips[static_cast<std::size_t>(index)].name;
    const auto source = std::find_if(state->rig.clips.begin(), state->rig.clips.end(),
                                     [&](const ClipFile& c) { return c.name == name; });
    if (source == state->rig.clips.end())
      return Unexpected{Error{clips_folder(state->rig.skeleton, state->rig.path), {}, {}, "no clip named \"" + name + "\""}};
    Expected<std::string> text = read_file(source->path);
    if (!text) return Unexpected{text.error()};

    const CacheKey key = clip_key(state->skeleton_key, name, *text, state->cache.version());
    if (std::optional<std::string> content = state->cache.read(key, EntryKind::Clip)) {
      const std::span<const std::uint8_t> blob(reinterpret_cast<const std::uint8_t*>(content->data()), content->size());
      auto clip = skel::decode_clip(blob, data, state->cache.entry_path(key, EntryKind::Clip));
      if (clip && (*clip)->name == name) return clip;  // anything else is a miss: rebuilt below
    }
    auto clip = compile_source_clip(state->rig, *source, *text, data);
    if (!clip) return clip;
    if (state->cache.enabled())
      if (Status stored = state->cache.write(key, EntryKind::Clip, encode_clip(**clip)); !stored) state->log(stored.error());
    return clip;
  };
}

std::function<void(const Error&)> logger(const LoadOptions& options) {
  if (options.log) return options.log;
  return [](const Error& e) { std::fprintf(stderr, "warning: %s\n", e.to_string().c_str()); };
}

BakeCache cache_for(const LoadOptions& options) {
  if (!options.cache_dir) return BakeCache::from_environment(options.cache_version);
  if (*options.cache_dir == "off") return BakeCache(std::string(), options.cache_version);
  return BakeCache(*options.cache_dir, options.cache_version);
}

// The data of a cache hit, or nothing when the entry is missing or unusable.
std::shared_ptr<skel::SkeletonData> load_entry(const BakeCache& cache, const CacheKey& key, Manifest& manifest) {
  std::optional<std::string> content = cache.read(key, EntryKind::Skeleton);
  if (!content) return nullptr;
  ByteReader reader(*content);
  std::optional<Manifest> m = read_manifest(reader);
  if (!m) return nullptr;
  auto data = skel::load_build(content->substr(reader.position()), cache.entry_path(key, EntryKind::Skeleton));
  if (!data) return nullptr;
  manifest = std::move(*m);
  return std::move(data).value();
}

}  // namespace

const char* to_string(CacheResult result) {
  switch (result) {
    case CacheResult::Off: return "off";
    case CacheResult::Hit: return "hit";
    case CacheResult::Miss: return "miss";
  }
  return "?";
}

Expected<CacheKey> skeleton_cache_key(const std::string& mskel_path, std::uint32_t cache_version) {
  Expected<std::string> bytes = read_file(mskel_path);
  if (!bytes) return Unexpected{bytes.error()};
  Expected<Rig> rig = load_rig(mskel_path);
  if (!rig) return Unexpected{rig.error()};
  return compute_key(*rig, *bytes, cache_version);
}

Expected<LoadedSkeleton> load_skeleton(const std::string& mskel_path, const LoadOptions& options) {
  Expected<std::string> mskel_bytes = read_file(mskel_path);
  if (!mskel_bytes) return Unexpected{mskel_bytes.error()};
  Expected<Rig> rig = load_rig(mskel_path);
  if (!rig) return Unexpected{rig.error()};
  Expected<CacheKey> key = compute_key(*rig, *mskel_bytes, options.cache_version);
  if (!key) return Unexpected{key.error()};

  LoadedSkeleton loaded;
  loaded.key = *key;
  const BakeCache cache = cache_for(options);
  if (cache.enabled()) loaded.cache_entry = cache.entry_path(*key, EntryKind::Skeleton);

  // Each clip file's hash, for the manifest and to trust its stored length.
  std::vector<ManifestClip> current;
  for (const ClipFile& source : rig->clips) {
    Expected<std::string> text = read_file(source.path);
    if (!text) return Unexpected{text.error()};
    current.push_back({source.name, hash_bytes(*text), 0});
  }

  Manifest manifest;
  std::shared_ptr<skel::SkeletonData> data = cache.enabled() ? load_entry(cache, *key, manifest) : nullptr;
  if (data) {
    loaded.cache = CacheResult::Hit;
    loaded.warnings = manifest.warnings;
    data->clips.clear();
    for (const ManifestClip& clip : current) {
      const auto stored = std::find_if(manifest.clips.begin(), manifest.clips.end(), [&](const ManifestClip& m) {
        return m.name == clip.name && m.hash == clip.hash;
      });
      float length = 0;
      if (stored != manifest.clips.end()) {
        length = stored->length;
      } else {
        Expected<ClipSource> source = load_clip(*rig, clip.name);  // changed or new since the entry: read its length
        if (!source) return Unexpected{source.error()};
        length = source->length;
      }
      data->clips.push_back({clip.name, length, nullptr});
    }
  } else {
    loaded.cache = cache.enabled() ? CacheResult::Miss : CacheResult::Off;
    Expected<BuildResult> built = build_rig(*rig);
    if (!built) return Unexpected{built.error()};
    data = built->data;
    loaded.warnings = built->warnings;
    if (cache.enabled()) {
      Manifest fresh{built->warnings, current};
      for (ManifestClip& clip : fresh.clips) {
        const int index = data->find_clip(clip.name);
        if (index >= 0) clip.length = data->clips[static_cast<std::size_t>(index)].length;
      }
      Expected<std::string> build = encode_build(*data, mskel_path, BuildClips::ListOnly);
      if (!build) return Unexpected{build.error()};
      if (Status stored = cache.write(*key, EntryKind::Skeleton, encode_manifest(fresh) + *build); !stored)
        loaded.warnings.push_back(Error{stored.error().file, {}, {}, "the bake cache entry was not written: " + stored.error().message});
    }
  }

  auto state = std::make_shared<ClipLoaderState>(ClipLoaderState{std::move(rig).value(), *key, cache, logger(options)});
  data->loader = make_clip_loader(std::move(state));
  loaded.data = std::move(data);
  return loaded;
}

}  // namespace mf::offline
