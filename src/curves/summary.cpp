#include "assay/curves/summary.hpp"

#include <algorithm>
#include <limits>

#include "assay/detail/parallel.hpp"
#include "assay/curves/accumulate.hpp"
#include "assay/curves/class_sort.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/detail/radix.hpp"

namespace assay::curves {

ranking_summary summarize_sorted(std::span<const double> pos, std::span<const double> neg) {
  return summarize_walk(static_cast<double>(pos.size()), static_cast<double>(neg.size()),
                        [&](auto&& f) { walk_sorted_classes(pos, neg, f); });
}

namespace {

struct walk_up_result {
  ranking_areas complement;
  value youden;  // class 1's best Youden threshold
};

// The complementary problem's areas (class 0 ranked by -score) from the ascending runs as they lie:
// the walk up them gives the same calls, in the same order, as the usual walk down the runs of
// (-neg, -pos) reversed would. In the same walk, class 1's best Youden threshold: at a distinct
// score t, the counts up to the previous score below t give "score >= t"'s tp = P - (positives
// below t) and fp likewise, the same integers as the walk down counts, so the same J to the bit.
// The walk down keeps the first threshold of the largest J from the top, (+inf, J = 0) first; the
// walk up sees the thresholds in the opposite order with +inf last and keeps the last one (>=).
walk_up_result walk_up(std::span<const double> pos, std::span<const double> neg) {
  const double P = static_cast<double>(pos.size()), N = static_cast<double>(neg.size());
  const bool defined = P > 0 && N > 0;
  bool found = false;
  double best = 0, threshold = 0, below_pos = 0, below_neg = 0;
  auto consider = [&](double t, double tp, double fp) {
    const double j = youden_j(tp, fp, P, N);
    if (!found || j >= best) found = true, best = j, threshold = t;
  };
  walk_up_result r;
  r.complement = areas_walk(N, P, [&](auto&& f) {
    walk_sorted_classes_up(neg, pos, [&](double t, double cn, double cp) {
      f(-t + 0.0, cn, cp);
      if (defined) consider(t, P - below_pos, N - below_neg);
      below_pos = cp, below_neg = cn;
    });
  });
  if (defined) consider(std::numeric_limits<double>::infinity(), 0, 0);
  r.youden = defined ? value(threshold)
                     : value::undefined(P == 0 ? "no positive cases: the ROC curve is undefined"
                                               : "no negative cases: the ROC curve is undefined");
  return r;
}

// Moves the positives (y[i] == 1) of score[b, e) to its front, adding 0.0 to each score (-0.0 becomes
// +0.0, one threshold); returns the end of the positives. Lomuto's partition with the swap written as
// two selects: no branch on the classes, which come in random order.
std::size_t partition_block(std::span<const std::int32_t> y, std::span<double> score, std::size_t b, std::size_t e) {
  std::size_t j = b;
  double* const v = score.data();
  for (std::size_t i = b; i < e; ++i) {
    const bool pos = y[i] == 1;
    const double x = v[i] + 0.0, t = v[j] + 0.0;  // t too: when j == i the second store wins
    v[j] = pos ? x : t;
    v[i] = pos ? t : x;
    j += pos;
  }
  return j;
}

}  // namespace

class_summaries summarize_in_place(std::span<const std::int32_t> y, std::span<double> score) {
  // Positives to the front of `score` (y is only read). From 2^20 cases the two halves are partitioned side
  // by side, then the negatives of the first half and the positives of the second trade places (the
  // shorter block with the far end of the other). The order within a class is lost either way: the
  // sort that follows does not depend on it.
  const std::size_t n = score.size();
  std::size_t lo = 0;
  if (n < (std::size_t{1} << 20)) {
    lo = partition_block(y, score, 0, n);
  } else {
    const std::size_t h = n / 2;
    std::size_t j1 = 0, j2 = 0;
    assay::detail::run_both([&] { j1 = partition_block(y, score, 0, h); },
                            [&] { j2 = partition_block(y, score, h, n); });
    const std::size_t a = h - j1, b = j2 - h;  // negatives of the first half, positives of the second
    double* const v = score.data();
    if (a <= b) std::swap_ranges(v + j1, v + h, v + (j2 - a));
    else std::swap_ranges(v + h, v + j2, v + j1);
    lo = j1 + b;
  }
  const sorted_runs sorted = sort_runs(score, lo);
  class_summaries s;
  walk_up_result up_result;
  auto down = [&] {
    s.positive = summarize_walk<false>(static_cast<double>(sorted.first.size()),
                                       static_cast<double>(sorted.second.size()),
                                       [&](auto&& f) { walk_sorted_classes(sorted.first, sorted.second, f); });
  };
  auto up = [&] { up_result = walk_up(sorted.first, sorted.second); };
  // Two walks of the same sorted runs, independent of each other: side by side when large.
  if (score.size() >= (std::size_t{1} << 16)) {
    assay::detail::run_both(down, up);
  } else {
    down();
    up();
  }
  s.negative = up_result.complement;
  s.positive.best_threshold_youden = up_result.youden;
  return s;
}

}  // namespace assay::curves
