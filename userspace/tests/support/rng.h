// support/rng.h - a small seeded PRNG for randomized tests: the same
// sequence on every platform and run, so a failing seed reproduces.
#pragma once

#include <cstdint>

namespace hftest {

// SplitMix64.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31U);
  }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
  bool percent(std::uint32_t p) { return below(100) < p; }

 private:
  std::uint64_t state_;
};

}  // namespace hftest
