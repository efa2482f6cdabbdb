// assay: the random streams of the resampling procedures (bootstrap, permutation tests).
//
// Every replicate r of a procedure run with seed s draws from its own stream, seeded from (s, r)
// through SplitMix64, so a result depends on (s, r) only and never on how replicates are spread
// over threads. Generator: xoshiro256** (Blackman & Vigna 2018), 64-bit output; bounded integers by
// Lemire's multiply-shift rejection method (Lemire 2019), unbiased.
#pragma once

#include <cstdint>

namespace assay::stats {

__extension__ typedef unsigned __int128 uint128_for_rng;  // GCC/Clang extension, silences -Wpedantic

/// SplitMix64 step (Steele, Lea & Flood 2014): advances `state` and returns a well-mixed word.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// xoshiro256** seeded for replicate `stream` of a run with seed `seed`.
class rng {
 public:
  rng(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t sm = seed;
    std::uint64_t mixed = splitmix64(sm) ^ (stream * 0xD1B54A32D192ED03ULL);
    for (auto& w : s_) w = splitmix64(mixed);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  /// Uniform integer in [0, n), n >= 1, without modulo bias.
  std::uint64_t below(std::uint64_t n) {
    uint128_for_rng m = static_cast<uint128_for_rng>(next()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<uint128_for_rng>(next()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }
  /// Uniform double in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace assay::stats
