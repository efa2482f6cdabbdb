// assay (internal): the Poisson(1) weights of a batch of bootstrap replicates for a run of rows, all
// at once -- the inner loop of the Poisson bootstrap (src/stats/poisson_bootstrap.cpp) -- and the
// choice of instructions for its kernels. Each weight is poisson1_at(key[b], id) of random.hpp, bit
// for bit; only the way they are computed differs (eight replicates in one vector register where the
// processor has AVX-512, else one by one). Likewise the pass's sums are the same bits with AVX2's
// four doubles an instruction as with SSE2's two.
#pragma once

#include <cstddef>
#include <cstdint>

namespace assay::stats::detail {

/// Replicates of one draw call: the Poisson bootstrap's batch.
inline constexpr std::size_t poisson_lanes = 8;

/// out[t * poisson_lanes + b] = poisson1_at(key[b], ids[t]) as a double, for t < count and
/// b < poisson_lanes. Picks the vector version when the processor has AVX-512 (F and DQ).
void draw_poisson_counts(const std::uint64_t* key, const std::uint64_t* ids, std::size_t count, double* out);

/// The same computed one weight at a time, on any processor (the reference of the vector version).
void draw_poisson_counts_scalar(const std::uint64_t* key, const std::uint64_t* ids, std::size_t count, double* out);

/// Whether draw_poisson_counts uses the vector version on this processor.
bool poisson_counts_vectorised();

/// Whether the pass's sums use AVX2 (the processor has it and the baseline is not forced).
bool poisson_kernels_wide();

/// Forces the baseline kernels for the whole process (SSE2 sums, weights drawn one at a time, and a
/// batch's second sweep drawing its weights again rather than reading those the first kept), or
/// lets the fastest ones be used again (the default): for tests that compare the two.
void use_baseline_poisson_kernels(bool baseline);

/// Whether use_baseline_poisson_kernels(true) is in force.
bool poisson_baseline_forced();

}  // namespace assay::stats::detail
