// The scores of a binary problem split by class and sorted by the shared radix kernel
// (assay/detail/radix.hpp); see include/assay/curves/class_sort.hpp.
#include "assay/curves/class_sort.hpp"

#include <algorithm>
#include <boost/sort/spreadsort/float_sort.hpp>
#include <thread>
#include <vector>

#include "assay/detail/radix.hpp"

namespace assay::curves {

namespace {

struct score_key {  // the stored scores are already normalised (-0.0 -> +0.0)
  std::uint64_t operator()(double v) const noexcept { return detail::order_bits(v); }
};

}  // namespace

class_sorted sort_by_class(std::span<const std::int32_t> y, std::span<const double> score, std::vector<double> scratch,
                           unsigned threads) {
  const std::size_t n = y.size();
  class_sorted out;
  out.n_ = n;
  if (n == 0) return out;
  if (n > 0xFFFFFFFFu) {  // beyond the 32-bit counts of the passes: a comparison-free sort per class
    out.own_.reset(new double[n]);
    double* a = out.own_.get();
    std::size_t po = 0, no = n;
    for (std::size_t i = 0; i < n; ++i) (y[i] ? a[po++] : a[--no]) = score[i] + 0.0;
    boost::sort::spreadsort::float_sort(a, a + po);
    boost::sort::spreadsort::float_sort(a + po, a + n);
    out.positives_ = po;
    out.sorted_ = a;
    return out;
  }

  unsigned T = threads;
  if (T == 0) T = n < (std::size_t{1} << 16) ? 1u : std::min(8u, std::max(1u, std::thread::hardware_concurrency()));

  out.own_.reset(new double[n]);
  double* const a = out.own_.get();
  double* b = nullptr;
  std::unique_ptr<double[]> second;
  if (scratch.size() >= n) {
    out.reused_ = std::move(scratch);
    b = out.reused_.data();
  } else {
    second.reset(new double[n]);
    b = second.get();
  }

  detail::radix_sorter<double, score_key> sorter(a, b, n, T, 2);
  T = sorter.threads();
  std::vector<std::size_t> positives(T);
  std::vector<std::uint64_t> ors(T, 0), ands(T, ~std::uint64_t{0});
  std::size_t P = 0;
  detail::run_team(T, [&](unsigned t, std::barrier<>& sync) {
    // Count, then copy each case to its class's run (positives first), with the OR/AND of the keys.
    const std::size_t begin = sorter.input_begin(t), end = sorter.input_begin(t + 1);
    std::size_t count = 0;
    for (std::size_t i = begin; i < end; ++i) count += static_cast<std::size_t>(y[i]);
    positives[t] = count;
    sync.arrive_and_wait();
    std::size_t all = 0, before = 0;
    for (unsigned u = 0; u < T; ++u) {
      all += positives[u];
      if (u < t) before += positives[u];
    }
    std::size_t po = before, no = all + (begin - before);
    std::uint64_t o = 0, d = ~std::uint64_t{0};
    for (std::size_t i = begin; i < end; ++i) {
      const double v = score[i] + 0.0;  // -0.0 -> +0.0
      const std::uint64_t k = detail::order_bits(v);
      o |= k;
      d &= k;
      const std::size_t is_pos = static_cast<std::size_t>(y[i]);
      a[is_pos ? po : no] = v;
      po += is_pos;
      no += 1 - is_pos;
    }
    ors[t] = o;
    ands[t] = d;
    sync.arrive_and_wait();
    if (t == 0) {
      P = all;
      std::uint64_t or_all = 0, and_all = ~std::uint64_t{0};
      for (unsigned u = 0; u < T; ++u) or_all |= ors[u], and_all &= ands[u];
      sorter.plan(P, or_all ^ and_all);
    }
    sync.arrive_and_wait();
    sorter.sort(t, sync);
  });
  out.positives_ = P;
  const bool in_b = sorter.result() == b;
  out.sorted_ = sorter.result();
  // Free the buffer that does not hold the result.
  if (in_b) {
    if (second) out.own_ = std::move(second);  // b was our own: keep it, drop a
    else out.own_.reset();                     // b is the caller's scratch: keep it, drop a
  } else {
    out.reused_ = std::vector<double>();
  }
  return out;
}

}  // namespace assay::curves
