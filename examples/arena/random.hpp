#pragma once
// The arena's random numbers: SplitMix64, so a seed gives the same crowd, speeds and throws on every
// machine and standard library (std's distributions are not specified bit for bit).

#include <cstdint>

namespace arena {

class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // In [0, 1): the top 24 bits, exact in a float.
  float unit() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
  float uniform(float low, float high) { return low + (high - low) * unit(); }
  // In [0, n), n > 0.
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
  // A generator of its own for one consumer (a walker), so adding draws elsewhere leaves it alone.
  Random split() { return Random(next()); }

 private:
  std::uint64_t state_;
};

}  // namespace arena
