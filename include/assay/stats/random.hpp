// assay: the one family of random streams of the library.
//
// Every replicate r of a procedure run with seed s draws from its own stream, derived from (s, r)
// through SplitMix64 (Steele, Lea & Flood 2014), so a result depends on (s, r) only and never on how
// replicates are spread over threads. The family has two generators, both seeded through SplitMix64:
//  - rng: xoshiro256** (Blackman & Vigna 2018) on stream (s, r), bounded integers by Lemire's
//    multiply-shift rejection (Lemire 2019). The statistics: bootstrap and permutation replicates,
//    the intervals of `assay report`.
//  - split_rng: SplitMix64's own output from one 64-bit state, bounded integers by rejecting the top
//    partial block then reducing modulo n; stream r of seed s starts at stream_seed(s, r). The
//    validation commands: splitters (shuffles, holdouts, bootstrap splits), label permutations,
//    bias-variance and learning-curve draws. It is kept, rather than moved onto rng, because the
//    seeded splits it gives are published (golden outputs, documented examples) and would all
//    change; new code uses rng.
// Both are unbiased and give the same numbers on every platform and compiler for a seed, unlike the
// distributions of <random>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

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

/// The splitters' generator (see the head of this file): SplitMix64's output sequence from `seed`.
class split_rng {
 public:
  explicit split_rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() { return splitmix64(s_); }
  /// Uniform integer in [0, n), n > 0, unbiased: draws in the top partial block of 2^64 are rejected.
  std::uint64_t below(std::uint64_t n) {
    constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t limit = top - top % n;
    std::uint64_t x;
    do x = next();
    while (x >= limit);
    return x % n;
  }
  /// Uniform double in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Fisher-Yates shuffle (Knuth, TAOCP vol. 2, Algorithm P).
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<std::size_t>(below(i))]);
  }

 private:
  std::uint64_t s_;
};

/// The seed of stream `index` (repeat, fold, permutation, round ...) of `seed` for split_rng: the
/// second output of split_rng(seed ^ (0xD1B54A32D192ED03 (index + 1))).
inline std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t index) {
  split_rng a(seed ^ (0xD1B54A32D192ED03ULL * (index + 1)));
  a.next();
  return a.next();
}

}  // namespace assay::stats
