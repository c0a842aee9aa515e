// Loading a rig, cold and warm: a build from the sources (bake-cache miss: atlas packing, meshes,
// curves), a bake-cache hit, and a cooked build, each with every clip loaded; for the example rig and
// for the largest rig at hand (the synthetic feature rig written to disk with 256 × 256 art). The atlas
// occupancy of each rig's images is reported as counters.
//
//   cmake --preset release && cmake --build --preset release --target load_bench
//   build/release/bin/load_bench --benchmark_min_time=0.5
//
// Results (2026-11-30, 2-core 2.1 GHz VM shared with other builds, so wall times are inflated; CPU time
// is the steadier figure; "large" is the synthetic feature rig with 256 × 256 art, 2 clips):
//
//   benchmark          wall      CPU       notes
//   cold/mannequin     110 ms    24.1 ms   1 page, occupancy 0.68 (images alone 0.57); cold writes and fsyncs the entry
//   warm/mannequin     9.5 ms    1.63 ms   bake-cache hit, 4 clips from their own entries
//   cooked/mannequin   0.51 ms   0.082 ms  62 KB build
//   cold/large         537 ms    89.1 ms   1 page, occupancy 0.55 (images alone 0.54)
//   warm/large         27.3 ms   4.67 ms
//   cooked/large       1.57 ms   0.296 ms  124 KB build

#include <unistd.h>

#include <filesystem>
#include <map>

#include <benchmark/benchmark.h>

#include "mf/core/file_io.hpp"
#include "mf/imaging/png.hpp"
#include "mf/offline/build/atlas_build.hpp"
#include "mf/offline/build/build_writer.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/build/skeleton_loader.hpp"
#include "mf/skel/build_file.hpp"
#include "synthetic_rig_files.hpp"

namespace {

namespace fs = std::filesystem;
using namespace mf;

const fs::path& work_dir() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("mf_load_bench_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    std::atexit([] { std::error_code ec; fs::remove_all(fs::temp_directory_path() / ("mf_load_bench_" + std::to_string(::getpid())), ec); });
    return d;
  }();
  return dir;
}

const std::string& example_rig() {
  static const std::string path = [] {
    // The examples folder beside this file's folder (bench/ has no compile definition for it).
    fs::copy(fs::path(__FILE__).parent_path().parent_path() / "examples" / "mannequin", work_dir() / "mannequin", fs::copy_options::recursive);
    return (work_dir() / "mannequin" / "mannequin.mskel").string();
  }();
  return path;
}

// The synthetic feature rig on disk: .mskel, clips and one PNG per image the build asks for.
const std::string& large_rig() {
  static const std::string path = testing::write_synthetic_rig(testing::make_feature_rig(), work_dir() / "large", "large", 256);
  return path;
}

std::string cache_dir(const std::string& mskel) { return (work_dir() / ("cache_" + fs::path(mskel).stem().string())).string(); }

offline::LoadedSkeleton load(const std::string& mskel, const std::string& cache) {
  offline::LoadOptions options;
  options.cache_dir = cache;
  auto loaded = offline::load_skeleton(mskel, options);
  if (!loaded || !loaded->data->load_all_clips().ok()) std::abort();
  return std::move(loaded).value();
}

// Packs the rig's images as the build does and reports how full the pages are.
void report_occupancy(benchmark::State& state, const std::string& mskel) {
  auto rig = offline::load_rig(mskel);
  if (!rig) return;
  std::vector<offline::AtlasSource> sources;
  for (const auto& entry : fs::recursive_directory_iterator(offline::images_folder(*rig))) {
    if (entry.path().extension() != ".png") continue;
    auto image = imaging::read_png(entry.path().string());
    if (!image) continue;
    offline::AtlasSource source;
    source.name = entry.path().stem().string();
    source.width = image->width;
    source.height = image->height;
    source.pixels = std::move(image).value();
    sources.push_back(std::move(source));
  }
  offline::AtlasSettings settings;
  settings.page_size = rig->skeleton.import.page_size;
  settings.padding = rig->skeleton.import.padding;
  auto atlas = offline::build_atlas(sources, settings);
  if (!atlas) return;
  state.counters["pages"] = static_cast<double>(atlas->pages.size());
  state.counters["occupancy"] = atlas->occupancy.occupancy();
  state.counters["image_occupancy"] = atlas->occupancy.image_occupancy();
}

void cold(benchmark::State& state, const std::string& (*rig)()) {
  const std::string& mskel = rig();
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(cache_dir(mskel));
    state.ResumeTiming();
    const auto loaded = load(mskel, cache_dir(mskel));
    if (loaded.cache != offline::CacheResult::Miss) state.SkipWithError("expected a miss");
  }
  report_occupancy(state, mskel);
}

void warm(benchmark::State& state, const std::string& (*rig)()) {
  const std::string& mskel = rig();
  load(mskel, cache_dir(mskel));
  for (auto _ : state) {
    const auto loaded = load(mskel, cache_dir(mskel));
    if (loaded.cache != offline::CacheResult::Hit) state.SkipWithError("expected a hit");
  }
}

void cooked(benchmark::State& state, const std::string& (*rig)()) {
  const std::string& mskel = rig();
  auto loaded = load(mskel, "off");
  const std::string path = (work_dir() / (fs::path(mskel).stem().string() + ".mbuild")).string();
  if (!offline::write_build_file(*loaded.data, path, mskel).ok()) std::abort();
  for (auto _ : state) {
    auto data = skel::load_build_file(path);
    if (!data || !(*data)->load_all_clips().ok()) state.SkipWithError("cooked build failed to load");
  }
  state.counters["build_bytes"] = static_cast<double>(fs::file_size(path));
}

BENCHMARK_CAPTURE(cold, mannequin, &example_rig)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(warm, mannequin, &example_rig)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(cooked, mannequin, &example_rig)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(cold, large, &large_rig)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(warm, large, &large_rig)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(cooked, large, &large_rig)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
