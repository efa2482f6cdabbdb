// ROC + PR + AUC + AP from one sort; see include/assay/curves/ranking.hpp.
#include "assay/detail/parallel.hpp"
#include "assay/curves/ranking.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <thread>

#include "assay/curves/accumulate.hpp"
#include "assay/curves/class_sort.hpp"
#include "assay/curves/sweep.hpp"

namespace assay::curves {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Asks the kernel to map the pages of [p, p + bytes) before they are first written
// (MADV_POPULATE_WRITE, Linux >= 5.14), so that a second core takes the page faults while the walk
// writes. Purely a speed hint: the memory is not accessed through C++, failures are ignored.
void populate(const void* p, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  const auto begin = reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t{4095};
  const auto end = reinterpret_cast<std::uintptr_t>(p) + bytes;
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)p, (void)bytes;
#endif
}

// Reserves `count` doubles in each vector and, for large sizes, populates their pages on a second
// thread in 4 MiB steps, in the order a front-to-back walk writes them. The returned thread joins on
// destruction; `stop` ends it early.
std::jthread reserve_and_prefault(std::initializer_list<std::vector<double>*> vs, std::size_t count) {
  for (auto* v : vs) v->reserve(count);
  if (count < (std::size_t{1} << 20) || assay::detail::team_threads(2) < 2) return {};
  std::vector<double*> bases;
  for (auto* v : vs) bases.push_back(v->data());
  return std::jthread([bases, count](std::stop_token stop) {
    constexpr std::size_t step = (std::size_t{4} << 20) / sizeof(double);
    for (std::size_t at = 0; at < count && !stop.stop_requested(); at += step) {
      const std::size_t len = std::min(step, count - at);
      for (double* b : bases) populate(b + at, len * sizeof(double));
    }
  });
}

}  // namespace

ranking_curves compute_ranking_curves(std::span<const std::int32_t> y, std::span<const double> score,
                                      std::span<const double> weight, std::string_view caller) {
  ranking_curves r;
  if (!weight.empty()) {
    const score_sweep sw = sweep_scores(caller, y, score, weight);
    r.positives = sw.positives, r.negatives = sw.negatives;
    const double P = sw.positives, N = sw.negatives;
    auto prefault = reserve_and_prefault({&r.thresholds, &r.fpr, &r.tpr, &r.precision}, sw.size() + 1);
    r.thresholds.push_back(inf);
    r.fpr.push_back(N > 0 ? 0.0 : nan);
    r.tpr.push_back(P > 0 ? 0.0 : nan);
    r.precision.push_back(1);
    for (std::size_t k = 0; k < sw.size(); ++k) {
      const double tp = sw.tp[k], fp = sw.fp[k];
      r.thresholds.push_back(sw.thresholds[k]);
      r.fpr.push_back(N > 0 ? fp / N : nan);
      r.tpr.push_back(P > 0 ? tp / P : nan);
      r.precision.push_back(tp / (tp + fp));
    }
    prefault.request_stop();
    r.roc_auc = roc_auc(sw);
    r.average_precision = average_precision(sw);
    return r;
  }
  check_binary_input(caller, y, score, weight);
  const class_sorted sorted = sort_by_class(y, score);
  const double P = static_cast<double>(sorted.pos().size()), N = static_cast<double>(sorted.neg().size());
  r.positives = P, r.negatives = N;
  auto prefault = reserve_and_prefault({&r.thresholds, &r.fpr, &r.tpr, &r.precision}, y.size() + 1);
  r.thresholds.push_back(inf);
  r.fpr.push_back(N > 0 ? 0.0 : nan);
  r.tpr.push_back(P > 0 ? 0.0 : nan);
  r.precision.push_back(1);
  auc_sum auc;
  ap_step_sum ap;
  // The same running sums, in the same order, as roc_auc(sweep) and average_precision(sweep).
  const double n_or_nan = N > 0 ? N : nan, p_or_nan = P > 0 ? P : nan;  // x / NaN = NaN: roc_curve's rule
  walk_sorted_classes(sorted.pos(), sorted.neg(), [&](double t, double tp, double fp) {
    r.thresholds.push_back(t);
    r.fpr.push_back(fp / n_or_nan);
    r.tpr.push_back(tp / p_or_nan);
    r.precision.push_back(tp / (tp + fp));
    auc.add(tp, fp);
    ap.add(tp, fp, P);
  });
  prefault.request_stop();
  if (P > 0 && N > 0) r.roc_auc = value(auc.auc(P, N));
  else r.roc_auc = roc_auc(score_sweep{{}, {}, {}, P, N});
  r.average_precision = P > 0 ? value(ap.sum) : average_precision(score_sweep{{}, {}, {}, P, N});
  return r;
}

}  // namespace assay::curves
