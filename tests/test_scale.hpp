// How much of a long randomised test runs. Optimised builds run every case. Under AddressSanitizer
// and UndefinedBehaviorSanitizer (the Debug build of scripts/test.sh, ASSAY_TEST_SANITIZED) the same
// code runs ten to thirty times slower; there the sanitizers need every code path, not every
// repetition, so a test keeps a fixed, seeded share of its cases (the same ones on every run).
#pragma once

#include <cstddef>

namespace assay::testing {

#ifdef ASSAY_TEST_SANITIZED
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif

/// Whether case `key` runs: always in optimised builds, one case in `every` under the sanitizers.
constexpr bool keep_case(std::size_t key, std::size_t every = 3) { return !sanitized || key % every == 0; }

/// `n` in optimised builds, `n / divisor` (at least 1) under the sanitizers.
constexpr std::size_t scaled(std::size_t n, std::size_t divisor = 4) {
  return !sanitized ? n : (n / divisor > 0 ? n / divisor : 1);
}

}  // namespace assay::testing
