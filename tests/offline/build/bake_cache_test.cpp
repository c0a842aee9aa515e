// The bake cache and the loading API: a cold load is a miss and the next a hit; any change to the
// .mskel, an image, a setting or the cache version misses; a damaged entry is a miss that rebuilds
// and replaces it; a write failure only warns; concurrent loaders leave only whole entries; clips
// are cached apart; a cooked build loads without the sources.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <thread>

#include "mf/core/file_io.hpp"
#include "mf/imaging/png.hpp"
#include "mf/offline/build/bake_cache.hpp"
#include "mf/offline/build/build_writer.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/build/skeleton_loader.hpp"
#include "mf/skel/build_file.hpp"
#include "pose_record.hpp"
#include "support/temp_dir.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;

// A copy of the example rig and an empty cache folder, both temporary.
class BakeCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.emplace("mf_bake_cache");
    fs::copy(std::string(MF_EXAMPLES_DIR) + "/mannequin", dir_->path() / "rig", fs::copy_options::recursive);
    mskel_ = dir_->file("rig/mannequin.mskel");
    cache_ = dir_->file("cache");
  }

  LoadOptions options() const {
    LoadOptions o;
    o.cache_dir = cache_;
    o.log = [this](const Error& e) { logged_.push_back(e.to_string()); };
    return o;
  }
  LoadedSkeleton load(const LoadOptions& o) const {
    auto loaded = load_skeleton(mskel_, o);
    EXPECT_TRUE(loaded.ok()) << loaded.error().to_string();
    return loaded.ok() ? std::move(loaded).value() : LoadedSkeleton{};
  }
  LoadedSkeleton load() const { return load(options()); }

  std::vector<fs::path> cache_files(const std::string& suffix) const {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(cache_, ec))
      if (e.path().string().ends_with(suffix)) files.push_back(e.path());
    return files;
  }
  std::string read(const std::string& path) const { return read_file(path).value(); }
  void write(const std::string& path, const std::string& bytes) const { std::ofstream(path, std::ios::binary) << bytes; }

  std::optional<testing::TempDir> dir_;
  std::string mskel_, cache_;
  mutable std::vector<std::string> logged_;
};

TEST_F(BakeCacheTest, AColdLoadMissesAndTheNextHits) {
  const LoadedSkeleton cold = load();
  EXPECT_EQ(cold.cache, CacheResult::Miss);
  EXPECT_TRUE(fs::is_regular_file(cold.cache_entry)) << cold.cache_entry;
  const LoadedSkeleton warm = load();
  EXPECT_EQ(warm.cache, CacheResult::Hit);
  EXPECT_EQ(warm.key, cold.key);
  EXPECT_EQ(warm.cache_entry, cold.cache_entry);

  // The hit behaves exactly as the sources.
  auto source = build_rig_file(mskel_);
  ASSERT_TRUE(source.ok());
  const auto expected = testing::record_poses(*source->data);
  EXPECT_EQ(testing::record_poses(*cold.data), expected);
  EXPECT_EQ(testing::record_poses(*warm.data), expected);
  EXPECT_TRUE(logged_.empty());
}

TEST_F(BakeCacheTest, TheCacheFolderComesFromTheEnvironment) {
  struct Saved {
    const char* name;
    std::optional<std::string> value;
  };
  std::vector<Saved> saved;
  for (const char* name : {kBakeCacheDirVariable, "XDG_CACHE_HOME", "HOME"}) {
    const char* v = std::getenv(name);
    saved.push_back({name, v ? std::optional<std::string>(v) : std::nullopt});
  }
  ::setenv(kBakeCacheDirVariable, "off", 1);
  EXPECT_EQ(bake_cache_dir_from_environment(), std::nullopt);
  EXPECT_FALSE(BakeCache::from_environment().enabled());
  ::setenv(kBakeCacheDirVariable, "/tmp/bakes here", 1);
  EXPECT_EQ(bake_cache_dir_from_environment(), "/tmp/bakes here");
  ::unsetenv(kBakeCacheDirVariable);
  ::setenv("XDG_CACHE_HOME", "/xdg/cache", 1);
  EXPECT_EQ(bake_cache_dir_from_environment(), "/xdg/cache/mfskeleton/skeleton-bakes");
  ::unsetenv("XDG_CACHE_HOME");
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(bake_cache_dir_from_environment(), "/home/someone/.cache/mfskeleton/skeleton-bakes");
  for (const Saved& s : saved) {
    if (s.value) ::setenv(s.name, s.value->c_str(), 1);
    else ::unsetenv(s.name);
  }
}

TEST_F(BakeCacheTest, OffBuildsWithoutTouchingTheCache) {
  LoadOptions o = options();
  o.cache_dir = "off";
  const LoadedSkeleton loaded = load(o);
  EXPECT_EQ(loaded.cache, CacheResult::Off);
  EXPECT_TRUE(loaded.cache_entry.empty());
  EXPECT_TRUE(loaded.data->load_all_clips().ok());
  EXPECT_FALSE(fs::exists(cache_));
}

// ---- what the key covers ----------------------------------------------------------------------------

TEST_F(BakeCacheTest, ChangingOneImageByteMisses) {
  EXPECT_EQ(load().cache, CacheResult::Miss);
  const std::string png = dir_->file("rig/images/head.png");
  const CacheKey before = skeleton_cache_key(mskel_).value();

  // Any byte of any image is in the key...
  std::string bytes = read(png);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 1);
  write(png, bytes);
  EXPECT_NE(skeleton_cache_key(mskel_).value(), before);

  // ...and a real edit of one pixel rebuilds.
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 1);
  write(png, bytes);
  EXPECT_EQ(skeleton_cache_key(mskel_).value(), before);
  auto image = imaging::read_png(png);
  ASSERT_TRUE(image.ok()) << image.error().to_string();
  image->pixel(image->width / 2, image->height / 2)[0] ^= 1;
  ASSERT_TRUE(imaging::write_png(png, *image).ok());
  EXPECT_EQ(load().cache, CacheResult::Miss);
  EXPECT_EQ(load().cache, CacheResult::Hit);
}

TEST_F(BakeCacheTest, ChangingASettingOrTheRigMisses) {
  EXPECT_EQ(load().cache, CacheResult::Miss);
  std::string text = read(mskel_);
  const std::size_t at = text.find("\"padding\"");
  ASSERT_NE(at, std::string::npos) << "the example rig spells out its import settings";
  const std::size_t digit = text.find_first_of("0123456789", at);
  text[digit] = text[digit] == '3' ? '4' : '3';
  write(mskel_, text);
  EXPECT_EQ(load().cache, CacheResult::Miss);
  EXPECT_EQ(load().cache, CacheResult::Hit);
}

TEST_F(BakeCacheTest, AnotherCacheVersionMisses) {
  EXPECT_EQ(load().cache, CacheResult::Miss);
  LoadOptions o = options();
  o.cache_version = kBakeCacheVersion + 1;
  EXPECT_EQ(load(o).cache, CacheResult::Miss);
  EXPECT_EQ(load(o).cache, CacheResult::Hit);
  EXPECT_NE(skeleton_cache_key(mskel_, kBakeCacheVersion + 1).value(), skeleton_cache_key(mskel_).value());
}

// ---- damaged entries --------------------------------------------------------------------------------

TEST_F(BakeCacheTest, ADamagedEntryIsAMissThatReplacesIt) {
  const LoadedSkeleton cold = load();
  const std::string entry = cold.cache_entry;
  const std::string good = read(entry);
  ASSERT_GT(good.size(), 100u);

  std::string wrong_version = good;
  wrong_version[8] = static_cast<char>(wrong_version[8] + 1);
  std::string flipped = good;
  for (std::size_t i = 70; i < flipped.size(); i += flipped.size() / 7) flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
  std::string other_key = good;
  other_key[20] = static_cast<char>(other_key[20] ^ 1);
  const std::vector<std::pair<const char*, std::string>> damage = {
      {"empty", ""},
      {"header only", good.substr(0, 40)},
      {"truncated", good.substr(0, good.size() / 2)},
      {"one byte short", good.substr(0, good.size() - 1)},
      {"flipped bytes", flipped},
      {"wrong version", wrong_version},
      {"another key", other_key},
      {"not an entry", std::string(good.size(), 'x')},
  };
  for (const auto& [what, bytes] : damage) {
    write(entry, bytes);
    const LoadedSkeleton again = load();
    EXPECT_EQ(again.cache, CacheResult::Miss) << what;
    EXPECT_TRUE(again.data && again.data->load_all_clips().ok()) << what;
    EXPECT_EQ(read(entry), good) << what << ": the rebuilt entry replaces the damaged one";
    EXPECT_EQ(load().cache, CacheResult::Hit) << what;
  }
}

TEST_F(BakeCacheTest, ClipsAreCachedApartAndADamagedClipEntryRebuilds) {
  auto source = build_rig_file(mskel_);
  ASSERT_TRUE(source.ok());
  const auto expected = testing::record_poses(*source->data);

  LoadedSkeleton cold = load();
  EXPECT_TRUE(cache_files(".clip.zst").empty()) << "clips load on demand";
  ASSERT_TRUE(cold.data->load_all_clips().ok());
  const auto clips = cache_files(".clip.zst");
  EXPECT_EQ(clips.size(), cold.data->clips.size());

  for (const fs::path& clip : clips) write(clip.string(), read(clip.string()).substr(0, 30));  // all damaged
  LoadedSkeleton warm = load();
  EXPECT_EQ(warm.cache, CacheResult::Hit);
  EXPECT_EQ(testing::record_poses(*warm.data), expected);
  LoadedSkeleton again = load();  // the clip entries were rewritten whole
  EXPECT_EQ(testing::record_poses(*again.data), expected);
  for (const fs::path& clip : clips) EXPECT_GT(fs::file_size(clip), 30u);
  EXPECT_TRUE(logged_.empty());
}

TEST_F(BakeCacheTest, AChangedClipKeepsTheSkeletonEntryAndGetsItsOwn) {
  LoadedSkeleton cold = load();
  ASSERT_TRUE(cold.data->load_all_clips().ok());
  const std::size_t clip_entries = cache_files(".clip.zst").size();

  // Lengthen the idle clip: its "length" value changes, nothing else.
  const std::string idle = dir_->file("rig/mannequin.clips/idle.manim");
  std::string text = read(idle);
  const std::size_t at = text.find("\"length\"");
  ASSERT_NE(at, std::string::npos);
  const std::size_t digit = text.find_first_of("0123456789", at);
  text.insert(digit, "1");
  write(idle, text);

  LoadedSkeleton warm = load();
  EXPECT_EQ(warm.cache, CacheResult::Hit);
  const int index = warm.data->find_clip("idle");
  ASSERT_GE(index, 0);
  auto fresh = build_rig_file(mskel_);
  ASSERT_TRUE(fresh.ok()) << fresh.error().to_string();
  EXPECT_EQ(warm.data->clips[static_cast<std::size_t>(index)].length,
            fresh->data->clips[static_cast<std::size_t>(fresh->data->find_clip("idle"))].length);
  ASSERT_TRUE(warm.data->load_all_clips().ok());
  EXPECT_EQ(cache_files(".clip.zst").size(), clip_entries + 1);
  EXPECT_EQ(testing::record_poses(*warm.data), testing::record_poses(*fresh->data));
}

// ---- writes -----------------------------------------------------------------------------------------

TEST_F(BakeCacheTest, AWriteFailureOnlyWarns) {
  // The cache folder lies under a regular file, so it can never be created (whoever runs the test).
  write(dir_->file("not_a_folder"), "x");
  LoadOptions o = options();
  o.cache_dir = dir_->file("not_a_folder/cache");
  auto loaded = load_skeleton(mskel_, o);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_EQ(loaded->cache, CacheResult::Miss);
  ASSERT_FALSE(loaded->warnings.empty());
  EXPECT_NE(loaded->warnings.back().to_string().find("the bake cache entry was not written"), std::string::npos)
      << loaded->warnings.back().to_string();
  EXPECT_TRUE(loaded->data->load_all_clips().ok());
  EXPECT_EQ(logged_.size(), loaded->data->clips.size()) << "each clip's failed write is logged";
  EXPECT_EQ(testing::record_poses(*loaded->data), testing::record_poses(*build_rig_file(mskel_)->data));
}

TEST_F(BakeCacheTest, ConcurrentBuildersLeaveOnlyWholeEntries) {
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  std::vector<int> ok(kThreads, 0);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      LoadOptions o;
      o.cache_dir = cache_;
      o.log = [](const Error&) {};
      auto loaded = load_skeleton(mskel_, o);
      ok[static_cast<std::size_t>(t)] = loaded.ok() && loaded->data->load_all_clips().ok();
    });
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_TRUE(ok[static_cast<std::size_t>(t)]) << t;

  for (const auto& e : fs::directory_iterator(cache_))
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << "left behind: " << e.path();
  EXPECT_EQ(cache_files(".skel.zst").size(), 1u);
  const LoadedSkeleton after = load();
  EXPECT_EQ(after.cache, CacheResult::Hit);
  EXPECT_TRUE(after.data->load_all_clips().ok());
}

TEST_F(BakeCacheTest, EntriesRoundTripAndRefuseOtherKeys) {
  const BakeCache cache(cache_);
  const CacheKey a = KeyHasher().field("a").finish(), b = KeyHasher().field("b").finish();
  EXPECT_EQ(a.hex().size(), 64u);
  EXPECT_NE(KeyHasher().field("ab").field("c").finish(), KeyHasher().field("a").field("bc").finish());
  ASSERT_TRUE(cache.write(a, EntryKind::Clip, "content").ok());
  EXPECT_EQ(cache.read(a, EntryKind::Clip), "content");
  EXPECT_EQ(cache.read(a, EntryKind::Skeleton), std::nullopt);
  EXPECT_EQ(cache.read(b, EntryKind::Clip), std::nullopt);
  fs::copy_file(cache.entry_path(a, EntryKind::Clip), cache.entry_path(b, EntryKind::Clip));
  EXPECT_EQ(cache.read(b, EntryKind::Clip), std::nullopt) << "an entry copied under another key is a miss";
  EXPECT_EQ(BakeCache(cache_, kBakeCacheVersion + 1).read(a, EntryKind::Clip), std::nullopt);
  EXPECT_EQ(BakeCache("").read(a, EntryKind::Clip), std::nullopt);
}

// ---- cooked builds ---------------------------------------------------------------------------------

TEST_F(BakeCacheTest, ACookedBuildLoadsWithoutTheSources) {
  LoadedSkeleton loaded = load();
  const auto expected = testing::record_poses(*loaded.data);
  const std::string cooked = dir_->file("cooked/mannequin.mbuild");
  fs::create_directories(dir_->path() / "cooked");
  ASSERT_TRUE(write_build_file(*loaded.data, cooked, mskel_).ok());
  fs::remove_all(dir_->path() / "rig");
  fs::remove_all(cache_);

  auto data = skel::load_build_file(cooked);
  ASSERT_TRUE(data.ok()) << data.error().to_string();
  EXPECT_EQ(testing::record_poses(**data), expected);
}

}  // namespace
}  // namespace mf::offline
