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
// Beside them, a counter-based draw for the Poisson bootstrap: poisson1(seed, replicate, row) is a
// pure function of its three arguments (no state), so a replicate's weight of a row is the same
// whatever order, thread or machine the rows are visited in.
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

/// The SplitMix64 output function alone (Steele, Lea & Flood 2014; Stafford's "Mix13" finaliser):
/// a bijection of 64-bit words whose outputs for consecutive inputs pass BigCrush.
inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// The key of replicate `replicate` of a Poisson bootstrap run with seed `seed`: a 64-bit word,
/// mix64(mix64(seed + gamma) ^ (replicate + 1) * 0xD1B54A32D192ED03), gamma = 0x9E3779B97F4A7C15.
inline std::uint64_t poisson1_key(std::uint64_t seed, std::uint64_t replicate) {
  return mix64(mix64(seed + 0x9E3779B97F4A7C15ULL) ^ ((replicate + 1) * 0xD1B54A32D192ED03ULL));
}

/// round(F(k) 2^64), to nearest, for the Poisson(1) distribution function F(k) = e^-1 sum_{j<=k} 1/j!,
/// k = 0..19, computed once in 80-digit decimal arithmetic (F(20) 2^64 rounds to 2^64). Exact
/// integers, so every platform draws the same numbers.
inline constexpr std::uint64_t poisson1_cdf_2_64[20] = {
    0x5e2d58d8b3bcdf1bULL, 0xbc5ab1b16779be35ULL, 0xeb715e1dc1582dc3ULL, 0xfb23979734a252f2ULL,
    0xff1025f59174dc3eULL, 0xffd90f3ba4055e1aULL, 0xfffa8b71fc72c914ULL, 0xffff540c0914b3caULL,
    0xffffed1f4aa8f120ULL, 0xfffffe216e641463ULL, 0xffffffd4d85d3183ULL, 0xfffffffc6da262b5ULL,
    0xffffffffba12d179ULL, 0xfffffffffb07c64dULL, 0xffffffffffab8ea5ULL, 0xfffffffffffabe22ULL,
    0xffffffffffffb11aULL, 0xfffffffffffffba1ULL, 0xffffffffffffffc5ULL, 0xfffffffffffffffdULL};

/// A Poisson(1) draw from the uniform 64-bit word u, by inversion of the distribution function: the
/// number of k with u >= F(k) 2^64. Each probability P(k) is exact to 2^-64; k <= 20.
inline std::uint32_t poisson1_of_bits(std::uint64_t u) {
  const auto& t = poisson1_cdf_2_64;
  // Branch-free for k < 5 (probability 0.9963), then a loop.
  std::uint32_t k = static_cast<std::uint32_t>(u >= t[0]) + static_cast<std::uint32_t>(u >= t[1]) +
                    static_cast<std::uint32_t>(u >= t[2]) + static_cast<std::uint32_t>(u >= t[3]) +
                    static_cast<std::uint32_t>(u >= t[4]);
  if (k == 5) [[unlikely]] {
    while (k < 20 && u >= t[k]) ++k;
  }
  return k;
}

/// The Poisson(1) weight of row `row` in replicate `replicate` of a Poisson bootstrap with seed
/// `seed`, given the replicate's key poisson1_key(seed, replicate): poisson1_of_bits of
/// mix64(key + (row + 1) gamma), i.e. the (row + 1)-th output of a SplitMix64 stream started at the key.
inline std::uint32_t poisson1_at(std::uint64_t key, std::uint64_t row) {
  return poisson1_of_bits(mix64(key + (row + 1) * 0x9E3779B97F4A7C15ULL));
}

/// The weight of row `row` in replicate `replicate` of a Poisson bootstrap with seed `seed`: a
/// Poisson(1) count, a pure function of (seed, replicate, row) -- counter-based (Salmon et al. 2011,
/// "Parallel random numbers: as easy as 1, 2, 3", SC'11), so it does not depend on the thread count,
/// on the order rows are visited in, or on how rows are partitioned across machines, as long as each
/// row keeps its global index. Rows of one replicate are independent Poisson(1) counts: the Poisson
/// bootstrap (Hanley & MacGibbon 2006, Computer Methods and Programs in Biomedicine 83(1):57-62;
/// Chamandy, Muralidharan, Najmi & Naidu 2012, "Estimating uncertainty for massive data streams",
/// Google), which approximates the multinomial resampling of n rows from n as n grows, and whose
/// resample size sum_i poisson1(...) is itself random (mean n).
/// Equal to poisson1_at(poisson1_key(seed, replicate), row); loops over rows should hoist the key.
inline std::uint32_t poisson1(std::uint64_t seed, std::uint64_t replicate, std::uint64_t row) {
  return poisson1_at(poisson1_key(seed, replicate), row);
}

}  // namespace assay::stats
