// heat_weights (automatic mesh weights) on grid strips of about 500 and 2000 vertices along a chain
// of six bones: the whole call, visibility, the factorisation and the six solves.

#include <benchmark/benchmark.h>

#include <array>
#include <vector>

#include "mf/offline/mesh/auto_weights.hpp"

namespace {

using namespace mf;
using namespace mf::offline;

struct Strip {
  std::vector<Vec2d> positions;
  std::vector<std::array<int, 3>> triangles;
  std::vector<BoneSegment> bones;
};

// (columns + 1) × (rows + 1) vertices over 600 × 120 px, and six bones of 100 px end to end along
// its middle.
Strip strip(int columns, int rows) {
  Strip s;
  for (int j = 0; j <= rows; ++j)
    for (int i = 0; i <= columns; ++i) s.positions.push_back({600.0 * i / columns, -60 + 120.0 * j / rows});
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < columns; ++i) {
      const int a = j * (columns + 1) + i, b = a + 1, c = b + columns + 1, d = a + columns + 1;
      s.triangles.push_back({a, b, c});
      s.triangles.push_back({a, c, d});
    }
  for (int k = 0; k < 6; ++k) s.bones.push_back({k, {100.0 * k, 0}, {100.0 * (k + 1), 0}});
  return s;
}

void BM_HeatWeights(benchmark::State& state) {
  const Strip s = strip(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  for (auto _ : state) {
    auto w = heat_weights(s.positions, s.triangles, s.bones);
    if (!w) state.SkipWithError(w.error().message.c_str());
    benchmark::DoNotOptimize(w);
  }
  state.counters["vertices"] = static_cast<double>(s.positions.size());
}
BENCHMARK(BM_HeatWeights)->Args({49, 9})->Args({99, 19})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
