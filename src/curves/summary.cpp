#include "assay/curves/summary.hpp"

#include <algorithm>
#include <cstring>


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

ranking_summary summarize_in_place(std::span<std::int32_t> y, std::span<double> score) {
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
  const ranking_summary s = summarize_sorted(sorted.first, sorted.second);
  // The contract summarize_complement_sorted relies on: `score` ends as [positives ascending |
  // negatives ascending]. sort_runs may leave a run in its buffer (or elsewhere in `score`): put it back.
  const double* base = score.data();
  const std::size_t n = score.size();
  auto inside = [&](std::span<const double> r) { return r.data() >= base && r.data() < base + n; };
  const bool first_home = sorted.first.data() == base, second_home = sorted.second.data() == base + lo;
  if (first_home && second_home) return s;
  // Not both home: then sort_runs left exactly one run in its buffer and the other somewhere in
  // `score` (in place, or in the buffered run's place). Slide that one home first (memmove: the
  // ranges may overlap), then copy the buffered one in. No extra memory.
  const bool first_in_score = inside(sorted.first);
  const std::span<const double> in_score = first_in_score ? sorted.first : sorted.second;
  const std::span<const double> in_buffer = first_in_score ? sorted.second : sorted.first;
  double* const home_in_score = first_in_score ? score.data() : score.data() + lo;
  double* const home_in_buffer = first_in_score ? score.data() + lo : score.data();
  std::memmove(home_in_score, in_score.data(), in_score.size() * sizeof(double));
  std::copy(in_buffer.begin(), in_buffer.end(), home_in_buffer);
  return s;
}

ranking_summary summarize_complement_sorted(std::span<double> score, std::size_t positives) {
  // [pos ascending | neg ascending] -> reversed and negated: [-neg ascending | -pos ascending].
  std::reverse(score.begin(), score.end());
  for (auto& x : score) x = -x + 0.0;
  const std::size_t negatives = score.size() - positives;
  return summarize_sorted(score.subspan(0, negatives), score.subspan(negatives));
}

}  // namespace assay::curves
