// The Poisson(1) weights of a batch of replicates; see include/assay/stats/detail/poisson_draws.hpp.
// Integer arithmetic only, so the vector version gives the scalar version's numbers exactly.
#include "assay/stats/detail/poisson_draws.hpp"

#include <atomic>

#include "assay/stats/random.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ASSAY_POISSON_AVX512 1
#endif

namespace assay::stats::detail {

void draw_poisson_counts_scalar(const std::uint64_t* key, const std::uint64_t* ids, std::size_t count, double* out) {
  for (std::size_t t = 0; t < count; ++t)
    for (std::size_t b = 0; b < poisson_lanes; ++b) out[t * poisson_lanes + b] = poisson1_at(key[b], ids[t]);
}

#ifdef ASSAY_POISSON_AVX512
namespace {

using u64x8 = std::uint64_t __attribute__((vector_size(64)));

// Each lane shifted right by S (the vector extension's shift: _mm512_srli_epi64 draws a spurious
// "may be used uninitialized" from GCC 12's header).
template <int S>
__attribute__((target("avx512f,avx512dq"))) inline __m512i shift_right(__m512i z) {
  return reinterpret_cast<__m512i>(reinterpret_cast<u64x8>(z) >> S);
}

// poisson1_at for the eight keys at once: SplitMix64's finaliser (mix64) on 64-bit lanes, then the
// count of the first five thresholds of poisson1_cdf_2_64 the word reaches; a lane that reaches all
// five (probability 0.0037) is finished by poisson1_of_bits.
__attribute__((target("avx512f,avx512dq"))) void draw_avx512(const std::uint64_t* key, const std::uint64_t* ids,
                                                             std::size_t count, double* out) {
  static_assert(poisson_lanes == 8, "one 512-bit register of 64-bit lanes");
  const __m512i keys = _mm512_loadu_si512(key);
  const __m512i c1 = _mm512_set1_epi64(static_cast<long long>(0xBF58476D1CE4E5B9ULL));
  const __m512i c2 = _mm512_set1_epi64(static_cast<long long>(0x94D049BB133111EBULL));
  const __m512i one = _mm512_set1_epi64(1), five = _mm512_set1_epi64(5);
  __m512i cdf[5];
  for (int j = 0; j < 5; ++j) cdf[j] = _mm512_set1_epi64(static_cast<long long>(poisson1_cdf_2_64[j]));
  for (std::size_t t = 0; t < count; ++t) {
    __m512i z = _mm512_add_epi64(keys, _mm512_set1_epi64(static_cast<long long>((ids[t] + 1) * 0x9E3779B97F4A7C15ULL)));
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, shift_right<30>(z)), c1);
    z = _mm512_mullo_epi64(_mm512_xor_si512(z, shift_right<27>(z)), c2);
    z = _mm512_xor_si512(z, shift_right<31>(z));
    __m512i k = _mm512_set1_epi64(0);
    for (int j = 0; j < 5; ++j) k = _mm512_mask_add_epi64(k, _mm512_cmpge_epu64_mask(z, cdf[j]), k, one);
    _mm512_storeu_pd(out + t * poisson_lanes, _mm512_cvtepu64_pd(k));
    if (const __mmask8 far = _mm512_cmpeq_epu64_mask(k, five); far != 0) [[unlikely]] {
      alignas(64) std::uint64_t u[poisson_lanes];
      _mm512_store_si512(u, z);
      for (std::size_t b = 0; b < poisson_lanes; ++b)
        if ((far >> b) & 1u) out[t * poisson_lanes + b] = poisson1_of_bits(u[b]);
    }
  }
}

bool has_avx512() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  return yes;
}

}  // namespace
#endif

namespace {
std::atomic<bool> baseline_forced{false};
}  // namespace

void use_baseline_poisson_kernels(bool baseline) { baseline_forced.store(baseline, std::memory_order_relaxed); }

bool poisson_baseline_forced() { return baseline_forced.load(std::memory_order_relaxed); }

bool poisson_counts_vectorised() {
#ifdef ASSAY_POISSON_AVX512
  return has_avx512() && !baseline_forced.load(std::memory_order_relaxed);
#else
  return false;
#endif
}

bool poisson_kernels_wide() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2 && !baseline_forced.load(std::memory_order_relaxed);
#else
  return false;
#endif
}

void draw_poisson_counts(const std::uint64_t* key, const std::uint64_t* ids, std::size_t count, double* out) {
#ifdef ASSAY_POISSON_AVX512
  if (poisson_counts_vectorised()) {
    draw_avx512(key, ids, count, out);
    return;
  }
#endif
  draw_poisson_counts_scalar(key, ids, count, out);
}

}  // namespace assay::stats::detail
