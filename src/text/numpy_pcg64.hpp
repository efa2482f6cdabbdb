// Internal to src/text: the random draws of NumPy's default generator (numpy.random.default_rng),
// reproduced so that assay's paired tests resample exactly as sacreBLEU does for the same seed.
//
// Written from the published definitions: the PCG64 generator (M. E. O'Neill, "PCG: A Family of
// Simple Fast Space-Efficient Statistically Good Algorithms for Random Number Generation", 2014:
// 128-bit LCG, XSL-RR output), NumPy's SeedSequence (NEP 19; numpy/random/bit_generator.pyx: hash
// mixing of the seed's 32-bit words into a 4-word pool), and Lemire's bounded integers ("Fast Random
// Integer Generation in an Interval", ACM TOMACS 2019) as NumPy applies them to 32-bit draws.
// tests/text/paired_test.cpp checks the draws against NumPy's (tests/text/data/paired.json).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace assay::text::detail {

class numpy_pcg64 {
 public:
  /// default_rng(seed) for a non-negative integer seed.
  explicit numpy_pcg64(std::uint64_t seed) {
    const auto words = seed_sequence_state(seed);
    const u128 initstate = (static_cast<u128>(words[0]) << 64) | words[1];
    const u128 initseq = (static_cast<u128>(words[2]) << 64) | words[3];
    state_ = 0;
    inc_ = (initseq << 1) | 1;
    step();
    state_ += initstate;
    step();
  }

  std::uint64_t next64() {
    step();
    const auto hi = static_cast<std::uint64_t>(state_ >> 64), lo = static_cast<std::uint64_t>(state_);
    const unsigned rot = static_cast<unsigned>(state_ >> 122);
    const std::uint64_t x = hi ^ lo;
    return (x >> rot) | (x << ((64 - rot) & 63));
  }

  /// A 64-bit draw serves two 32-bit draws, low half first.
  std::uint32_t next32() {
    if (has32_) {
      has32_ = false;
      return half_;
    }
    const std::uint64_t v = next64();
    has32_ = true;
    half_ = static_cast<std::uint32_t>(v >> 32);
    return static_cast<std::uint32_t>(v);
  }

  /// Generator.integers(0, n) (and choice(n)) for 1 <= n <= 2^32: Lemire's multiply-and-reject on
  /// 32-bit draws.
  std::uint32_t below(std::uint64_t n) {
    if (n == 1) return 0;
    if (n == (1ULL << 32)) return next32();
    const auto excl = static_cast<std::uint32_t>(n);
    std::uint64_t m = static_cast<std::uint64_t>(next32()) * excl;
    auto left = static_cast<std::uint32_t>(m);
    if (left < excl) {
      const std::uint32_t threshold = (0xFFFFFFFFu - (excl - 1)) % excl;
      while (left < threshold) {
        m = static_cast<std::uint64_t>(next32()) * excl;
        left = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

  /// Generator.integers(2, dtype=bool) as a sequence: each 32-bit draw gives 32 bits, lowest first.
  bool next_bool() {
    if (bits_left_ == 0) {
      bool_buf_ = next32();
      bits_left_ = 31;
    } else {
      bool_buf_ >>= 1;
      --bits_left_;
    }
    return (bool_buf_ & 1u) != 0;
  }

 private:
  __extension__ typedef unsigned __int128 u128;  // GCC and Clang: 128-bit arithmetic for the LCG

  void step() {
    const u128 mult = (static_cast<u128>(2549297995355413924ULL) << 64) | 4865540595714422341ULL;
    state_ = state_ * mult + inc_;
  }

  // SeedSequence(seed).generate_state(4, uint64): the seed's 32-bit words (least significant first;
  // 0 is one word) are hashed into a pool of four words, which is then expanded.
  static std::array<std::uint64_t, 4> seed_sequence_state(std::uint64_t seed) {
    std::vector<std::uint32_t> entropy;
    do {
      entropy.push_back(static_cast<std::uint32_t>(seed));
      seed >>= 32;
    } while (seed != 0);
    std::uint32_t hash_const = 0x43b0d7e5u;
    auto hashmix = [&hash_const](std::uint32_t v) {
      v ^= hash_const;
      hash_const *= 0x931e8875u;
      v *= hash_const;
      v ^= v >> 16;
      return v;
    };
    auto mix = [](std::uint32_t x, std::uint32_t y) {
      std::uint32_t r = 0xca01f9ddu * x - 0x4973f715u * y;
      r ^= r >> 16;
      return r;
    };
    std::array<std::uint32_t, 4> pool{};
    for (std::size_t i = 0; i < 4; ++i) pool[i] = hashmix(i < entropy.size() ? entropy[i] : 0u);
    for (std::size_t s = 0; s < 4; ++s)
      for (std::size_t d = 0; d < 4; ++d)
        if (s != d) pool[d] = mix(pool[d], hashmix(pool[s]));
    for (std::size_t s = 4; s < entropy.size(); ++s)
      for (std::size_t d = 0; d < 4; ++d) pool[d] = mix(pool[d], hashmix(entropy[s]));
    std::array<std::uint32_t, 8> out32{};
    std::uint32_t hc = 0x8b51f9ddu;
    for (std::size_t i = 0; i < 8; ++i) {
      std::uint32_t v = pool[i % 4];
      v ^= hc;
      hc *= 0x58f38dedu;
      v *= hc;
      v ^= v >> 16;
      out32[i] = v;
    }
    std::array<std::uint64_t, 4> out{};
    for (std::size_t i = 0; i < 4; ++i) out[i] = (static_cast<std::uint64_t>(out32[2 * i + 1]) << 32) | out32[2 * i];
    return out;
  }

  u128 state_ = 0, inc_ = 0;
  bool has32_ = false;
  std::uint32_t half_ = 0;
  std::uint32_t bool_buf_ = 0;
  int bits_left_ = 0;
};

}  // namespace assay::text::detail
