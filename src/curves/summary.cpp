#include "assay/curves/summary.hpp"

#include <algorithm>

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

// The complementary problem's summary (class 0 ranked by -score) from the ascending runs as they lie:
// the walk up them gives the same calls, in the same order, as the usual walk down the runs of
// (-neg, -pos) reversed would.
ranking_summary summarize_complement(std::span<const double> pos, std::span<const double> neg) {
  return summarize_walk(static_cast<double>(neg.size()), static_cast<double>(pos.size()), [&](auto&& f) {
    walk_sorted_classes_up(neg, pos, [&](double t, double tp, double fp) { f(-t + 0.0, tp, fp); });
  });
}

}  // namespace

class_summaries summarize_in_place(std::span<std::int32_t> y, std::span<double> score) {
  // Positives to the front (two-pointer partition of both arrays together).
  // Scores are moved, not swapped: only the class of each slot matters afterwards, so y is rewritten
  // as a block of 1s then 0s. Adding 0.0 turns -0.0 into +0.0 (one threshold).
  std::size_t lo = 0, hi = y.size();
  while (lo < hi) {
    if (y[lo] == 1) {
      score[lo] += 0.0;
      ++lo;
    } else {
      --hi;
      std::swap(y[lo], y[hi]);
      std::swap(score[lo], score[hi]);
      score[hi] += 0.0;
    }
  }
  const sorted_runs sorted = sort_runs(score, lo);
  class_summaries s;
  auto down = [&] { s.positive = summarize_sorted(sorted.first, sorted.second); };
  auto up = [&] { s.negative = summarize_complement(sorted.first, sorted.second); };
  // Two walks of the same sorted runs, independent of each other: side by side when large.
  if (score.size() >= (std::size_t{1} << 16)) {
    assay::detail::run_both(down, up);
  } else {
    down();
    up();
  }
  return s;
}

}  // namespace assay::curves
