// The scores of a binary problem split by class and sorted by the shared radix kernel
// (assay/detail/radix.hpp); see include/assay/curves/class_sort.hpp.
#include "assay/detail/parallel.hpp"
#include "assay/curves/class_sort.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <utility>
#include <span>
#include <vector>

#include "assay/curves/sweep.hpp"
#include "assay/detail/msd_sort.hpp"
#include "assay/detail/radix.hpp"

namespace assay::curves {

namespace {

struct score_key {  // the stored scores are already normalised (-0.0 -> +0.0)
  std::uint64_t operator()(double v) const noexcept { return detail::order_bits(v); }
};

// The sort key of an element of the MSD sort: a stored score (normalised), or a labelled key without
// its class bit (a group of equal scores needs no order among its classes: the walk counts them).
struct order_of_score {
  std::uint64_t operator()(double x) const noexcept { return detail::order_bits(x); }
};
struct order_of_labelled {
  std::uint64_t operator()(std::uint64_t k) const noexcept { return k >> 1; }
};

using detail::msd::kMsdMinCases;
using detail::msd::kTopBits;
using detail::msd::msd_first;

}  // namespace

sorted_runs sort_runs(std::span<double> v, std::size_t P, unsigned threads) {
  const std::size_t n = v.size();
  double* const a = v.data();
  sorted_runs out;
  out.first = {a, P};
  out.second = {a + P, n - P};
  if (n < kMsdMinCases || n > 0xFFFFFFFFu) {  // small (or beyond the 32-bit counts): spreadsort in place
    detail::sort_doubles_in_place(a, a + P);
    detail::sort_doubles_in_place(a + P, a + n);
    return out;
  }
  const unsigned T = threads == 0 ? assay::detail::team_threads(8) : threads;
  // Sorts m scores at src, `dst` being m doubles of scratch; returns where the result is.
  auto sort_one = [T](double* src, double* dst, std::size_t m) -> double* {
    std::uint64_t o = 0, d = ~std::uint64_t{0};
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint64_t k = detail::order_bits(src[i]);
      o |= k, d &= k;
    }
    const std::uint64_t varying = o ^ d;
    if (m < kMsdMinCases || std::bit_width(varying) <= kTopBits + static_cast<unsigned>(std::countr_zero(varying))) {
      detail::sort_doubles_in_place(src, src + m);
      return src;
    }
    return msd_first<double, order_of_score>(src, dst, m, m, varying, T);
  };
  const bool first_larger = P >= n - P;
  double* const big = first_larger ? a : a + P;
  double* const small = first_larger ? a + P : a;
  const std::size_t big_n = first_larger ? P : n - P, small_n = n - big_n;
  out.buffer = assay::detail::make_buffer<double>(big_n);
  const double* big_sorted = sort_one(big, out.buffer.get(), big_n);
  // The larger run's place is free once its result is in the buffer: the smaller run's scratch.
  const double* small_sorted = sort_one(small, big_sorted == big ? out.buffer.get() : big, small_n);
  (first_larger ? out.first : out.second) = {big_sorted, big_n};
  (first_larger ? out.second : out.first) = {small_sorted, small_n};
  return out;
}

class_sorted sort_by_class(std::span<const std::int32_t> y, std::span<const double> score, std::vector<double> scratch,
                           unsigned threads, std::string_view check_as) {
  const std::size_t n = y.size();
  class_sorted out;
  out.n_ = n;
  if (n == 0) return out;
  if (n > 0xFFFFFFFFu) {  // beyond the 32-bit counts of the passes: a comparison-free sort per class
    if (!check_as.empty()) check_binary_input(check_as, y, score, {});
    out.own_ = assay::detail::make_buffer<double>(n);
    double* a = out.own_.get();
    std::size_t po = 0, no = n;
    for (std::size_t i = 0; i < n; ++i) (y[i] ? a[po++] : a[--no]) = score[i] + 0.0;
    detail::sort_doubles_in_place(a, a + po);
    detail::sort_doubles_in_place(a + po, a + n);
    out.positives_ = po;
    out.sorted_ = a;
    return out;
  }

  unsigned T = threads;
  if (T == 0) T = n < (std::size_t{1} << 16) ? 1u : assay::detail::team_threads(8);

  out.own_ = assay::detail::make_buffer<double>(n);
  double* const a = out.own_.get();
  double* b = nullptr;
  assay::detail::buffer_ptr<double> second;
  if (scratch.size() >= n) {
    out.reused_ = std::move(scratch);
    b = out.reused_.data();
  } else {
    second = assay::detail::make_buffer<double>(n);
    b = second.get();
  }

  detail::radix_sorter<double, score_key> sorter(a, b, n, T, 2);
  T = sorter.threads();
  std::vector<std::size_t> positives(T);
  std::vector<std::uint64_t> ors(T, 0), ands(T, ~std::uint64_t{0});
  // With check_as: whether each thread's labels are 0 or 1 (read before any copy: a label of 2 would
  // send its case past its run) and its scores finite.
  std::vector<unsigned char> labels_ok(T, 1), scores_ok(T, 1);
  const bool check = !check_as.empty();
  std::size_t P = 0;
  std::uint64_t varying = 0;
  detail::run_team(T, [&](unsigned t, std::barrier<>& sync) {
    // Count, then copy each case to its class's run (positives first), with the OR/AND of the keys.
    const std::size_t begin = sorter.input_begin(t), end = sorter.input_begin(t + 1);
    std::size_t count = 0;
    bool ok = true;
    for (std::size_t i = begin; i < end; ++i) {
      count += static_cast<std::size_t>(y[i]);
      ok &= static_cast<std::uint32_t>(y[i]) <= 1u;
    }
    positives[t] = count;
    labels_ok[t] = ok;
    sync.arrive_and_wait();
    if (check && std::find(labels_ok.begin(), labels_ok.end(), 0) != labels_ok.end()) {
      sync.arrive_and_wait();  // the team's last barrier, which the others reach too
      return;
    }
    std::size_t all = 0, before = 0;
    for (unsigned u = 0; u < T; ++u) {
      all += positives[u];
      if (u < t) before += positives[u];
    }
    std::size_t po = before, no = all + (begin - before);
    std::uint64_t o = 0, d = ~std::uint64_t{0};
    constexpr double max = std::numeric_limits<double>::max();
    bool finite = true;
    for (std::size_t i = begin; i < end; ++i) {
      const double v = score[i] + 0.0;  // -0.0 -> +0.0
      finite &= std::fabs(v) <= max;
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
    scores_ok[t] = finite;
    sync.arrive_and_wait();
    if (t == 0) {
      P = all;
      std::uint64_t or_all = 0, and_all = ~std::uint64_t{0};
      for (unsigned u = 0; u < T; ++u) or_all |= ors[u], and_all &= ands[u];
      varying = or_all ^ and_all;
    }
  });
  if (check && (std::find(labels_ok.begin(), labels_ok.end(), 0) != labels_ok.end() ||
                std::find(scores_ok.begin(), scores_ok.end(), 0) != scores_ok.end())) {
    check_binary_input(check_as, y, score, {});  // names the first bad value and throws
  }
  double* result = nullptr;
  if (n >= kMsdMinCases && std::bit_width(varying) > kTopBits + static_cast<unsigned>(std::countr_zero(varying))) {
    result = msd_first<double, order_of_score>(a, b, n, P, varying, T);
  } else {
    sorter.plan(P, varying);
    detail::run_team(T, [&](unsigned t, std::barrier<>& sync) { sorter.sort(t, sync); });
    result = sorter.result();
  }
  out.positives_ = P;
  const bool in_b = result == b;
  out.sorted_ = result;
  // Free the buffer that does not hold the result.
  if (in_b) {
    if (second) out.own_ = std::move(second);  // b was our own: keep it, drop a
    else out.own_.reset();                     // b is the caller's scratch: keep it, drop a
  } else {
    out.reused_ = std::vector<double>();
  }
  return out;
}

std::optional<labelled_sorted> sort_labelled(std::span<const std::int32_t> y, std::span<const double> score,
                                             unsigned threads, std::string_view check_as) {
  const std::size_t n = y.size();
  labelled_sorted out;
  out.n_ = n;
  if (n == 0) return out;
  if (n > 0xFFFFFFFFu) {  // beyond the 32-bit counts of the passes
    if (!check_as.empty()) check_binary_input(check_as, y, score, {});
    return std::nullopt;
  }
  unsigned T = threads;
  if (T == 0) T = n < (std::size_t{1} << 16) ? 1u : assay::detail::team_threads(8);
  T = static_cast<unsigned>(std::min<std::size_t>(T, n));
  // The range of the scores' keys, the bits that vary among them, and the positives.
  std::vector<std::uint64_t> ors(T, 0), ands(T, ~std::uint64_t{0}), mins(T, ~std::uint64_t{0}), maxs(T, 0);
  std::vector<std::size_t> positives(T, 0);
  std::vector<unsigned char> valid(T, 1);
  detail::run_team(T, [&](unsigned t, std::barrier<>&) {
    const std::size_t lo = n * t / T, hi = n * (t + 1) / T;
    std::uint64_t o = 0, d = ~std::uint64_t{0}, mn = ~std::uint64_t{0}, mx = 0;
    std::size_t count = 0;
    bool ok = true;
    constexpr double max = std::numeric_limits<double>::max();
    for (std::size_t i = lo; i < hi; ++i) {
      const std::uint64_t k = detail::order_bits(score[i] + 0.0);
      o |= k, d &= k;
      mn = k < mn ? k : mn;
      mx = k > mx ? k : mx;
      count += static_cast<std::size_t>(y[i]);
      ok &= (static_cast<std::uint32_t>(y[i]) <= 1u) & (std::fabs(score[i]) <= max);
    }
    ors[t] = o, ands[t] = d, mins[t] = mn, maxs[t] = mx, positives[t] = count, valid[t] = ok;
  });
  if (!check_as.empty() && std::find(valid.begin(), valid.end(), 0) != valid.end()) {
    check_binary_input(check_as, y, score, {});  // names the first bad value and throws
  }
  std::uint64_t o = 0, d = ~std::uint64_t{0}, mn = ~std::uint64_t{0}, mx = 0;
  std::size_t P = 0;
  for (unsigned t = 0; t < T; ++t) {
    o |= ors[t], d &= ands[t], P += positives[t];
    mn = std::min(mn, mins[t]), mx = std::max(mx, maxs[t]);
  }
  const std::uint64_t constant = ~(o ^ d);
  const bool offset = mx - mn < (std::uint64_t{1} << 63);
  if (!offset && constant == 0) return std::nullopt;
  // Offset when the range allows; else the highest constant bit is taken out.
  const unsigned gap = offset ? 64u : 63u - static_cast<unsigned>(std::countl_zero(constant));
  out.gap_ = gap;
  out.gap_value_ = offset ? 0 : (d >> gap) & 1u;
  out.offset_ = offset ? mn : 0;
  out.positives_ = P;
  const std::uint64_t low_mask = gap >= 63 ? ~std::uint64_t{0} >> 1 : (std::uint64_t{1} << gap) - 1;
  auto labelled = [gap, low_mask, mn](double x, std::int32_t label) {
    std::uint64_t k = detail::order_bits(x + 0.0);
    if (gap > 63) {
      k -= mn;
    } else {
      const std::uint64_t high = gap == 63 ? 0 : (k >> (gap + 1)) << gap;
      k = high | (k & low_mask);
    }
    return (k << 1) | static_cast<std::uint64_t>(label);
  };
  out.own_ = assay::detail::make_buffer<std::uint64_t>(n);
  auto second = assay::detail::make_buffer<std::uint64_t>(n);
  std::uint64_t* const a = out.own_.get();
  std::uint64_t* const b = second.get();
  detail::run_team(T, [&](unsigned t, std::barrier<>&) {
    const std::size_t lo = n * t / T, hi = n * (t + 1) / T;
    std::uint64_t to = 0, td = ~std::uint64_t{0};
    for (std::size_t i = lo; i < hi; ++i) {
      const std::uint64_t k = labelled(score[i], y[i]);
      a[i] = k;
      to |= k, td &= k;
    }
    ors[t] = to, ands[t] = td;
  });
  o = 0, d = ~std::uint64_t{0};
  for (unsigned t = 0; t < T; ++t) o |= ors[t], d &= ands[t];
  const std::uint64_t varying = (o ^ d) >> 1;  // of the keys without their class bit
  const std::uint64_t* result = a;
  if (n >= kMsdMinCases && std::bit_width(varying) > kTopBits + static_cast<unsigned>(std::countr_zero(varying))) {
    result = msd_first<std::uint64_t, order_of_labelled>(a, b, n, n, varying, T);
  } else {
    detail::radix_sorter<std::uint64_t, order_of_labelled> sorter(a, b, n, T, 1);
    sorter.plan(n, varying);
    detail::run_team(sorter.threads(), [&](unsigned t, std::barrier<>& sync) { sorter.sort(t, sync); });
    result = sorter.result();
  }
  if (result == b) std::swap(out.own_, second);
  out.spare_ = std::move(second);
  out.sorted_ = result;
  return out;
}

}  // namespace assay::curves
