// The sorted-score kernel; see include/assay/curves/sweep.hpp.
#include "assay/detail/parallel.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/detail/exact_sum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <fmt/format.h>

#include "assay/curves/class_sort.hpp"
#include "assay/detail/radix.hpp"
#include "assay/error.hpp"

namespace assay::curves {

namespace {

// One case: the order key of the negated score (so an ascending sort puts the highest score first;
// -0.0 keyed as +0.0) and the weight, signed by the class: +w for a positive, -w for a negative.
// Weight-0 cases are dropped before.
struct record {
  std::uint64_t key;
  double signed_weight;
};

}  // namespace

void check_binary_input(std::string_view caller, std::span<const std::int32_t> y, std::span<const double> score,
                        std::span<const double> weight) {
  if (y.size() != score.size()) {
    throw_data(fmt::format("{}: y has {} values but score has {}", caller, y.size(), score.size()));
  }
  if (!weight.empty() && weight.size() != y.size()) {
    throw_data(fmt::format("{}: y has {} values but weight has {}", caller, y.size(), weight.size()));
  }
  // A branch-free scan first (it vectorises); the loop below finds and names the first bad value.
  bool ok = true;
  constexpr double max = std::numeric_limits<double>::max();
  for (std::size_t i = 0; i < y.size(); ++i) {
    ok &= (static_cast<std::uint32_t>(y[i]) <= 1u) & (std::fabs(score[i]) <= max);
  }
  if (ok && weight.empty()) return;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] != 0 && y[i] != 1) throw_data(fmt::format("{}: y[{}] = {} is not 0 or 1", caller, i, y[i]));
    if (!std::isfinite(score[i])) throw_data(fmt::format("{}: score[{}] = {} is not a finite number", caller, i, score[i]));
    if (!weight.empty() && !(weight[i] >= 0 && std::isfinite(weight[i]))) {
      throw_data(fmt::format("{}: weight[{}] = {} is not a finite number >= 0", caller, i, weight[i]));
    }
  }
}

namespace {

// Unweighted: one parallel radix sort of the scores by class (class_sort.hpp), then the merge walk.
score_sweep sweep_unweighted(std::span<const std::int32_t> y, std::span<const double> score) {
  const class_sorted sorted = sort_by_class(y, score);
  score_sweep r;
  r.thresholds.reserve(y.size());
  r.tp.reserve(y.size());
  r.fp.reserve(y.size());
  walk_sorted_classes(sorted.pos(), sorted.neg(), [&r](double t, double tp, double fp) {
    r.thresholds.push_back(t);
    r.tp.push_back(tp);
    r.fp.push_back(fp);
  });
  r.positives = static_cast<double>(sorted.pos().size());
  r.negatives = static_cast<double>(sorted.neg().size());
  return r;
}

}  // namespace

score_sweep sweep_scores(std::string_view caller, std::span<const std::int32_t> y, std::span<const double> score,
                         std::span<const double> weight) {
  check_binary_input(caller, y, score, weight);
  if (weight.empty()) return sweep_unweighted(y, score);
  // Weighted: one sort of (score, signed weight) records.
  std::vector<record> recs;
  recs.reserve(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double w = weight[i];
    if (w == 0) continue;
    recs.push_back({detail::order_key(-score[i]), y[i] ? w : -w});  // 0 and -0: one threshold
  }
  // Stable: ties keep their input order, so tied weights are summed in the order scikit-learn's
  // stable argsort sums them.
  assay::detail::stable_sort_by_key(recs);

  score_sweep r;
  double tp = 0, fp = 0;
  std::size_t i = 0;
  const std::size_t n = recs.size();
  while (i < n) {
    const std::uint64_t key = recs[i].key;
    // The tie group's weights are summed exactly and rounded once (detail/exact_sum.hpp), so the
    // group's sums do not depend on the order of its cases (scale/state.hpp merges pieces).
    assay::detail::exact_sum gp, gn;
    for (; i < n && recs[i].key == key; ++i) {
      const double sw = recs[i].signed_weight;
      if (sw > 0) gp.add(sw);
      else gn.add(-sw);
    }
    tp += gp.value();
    fp += gn.value();
    r.thresholds.push_back(-detail::from_order_key(key) + 0.0);
    r.tp.push_back(tp);
    r.fp.push_back(fp);
  }
  r.positives = tp;
  r.negatives = fp;
  return r;
}

score_sweep complement(const score_sweep& sw) {
  score_sweep c;
  const std::size_t m = sw.size();
  c.thresholds.resize(m);
  c.tp.resize(m);
  c.fp.resize(m);
  c.positives = sw.negatives;
  c.negatives = sw.positives;
  for (std::size_t j = 0; j < m; ++j) {
    // Entry j of sw (threshold t_j, descending) becomes entry m - 1 - j: "score <= t_j", i.e.
    // everything except the cases above t_j (entry j - 1 of sw).
    const std::size_t k = m - 1 - j;
    c.thresholds[k] = -sw.thresholds[j] + 0.0;
    c.tp[k] = sw.negatives - (j == 0 ? 0.0 : sw.fp[j - 1]);
    c.fp[k] = sw.positives - (j == 0 ? 0.0 : sw.tp[j - 1]);
  }
  return c;
}

}  // namespace assay::curves
