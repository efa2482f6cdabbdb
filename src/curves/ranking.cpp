// ROC + PR + AUC + AP from one sort; see include/assay/curves/ranking.hpp.
#include "assay/curves/ranking.hpp"

#include <sys/mman.h>

#include <algorithm>
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

// Reserves `count` doubles in each vector and, with `prefault` and large sizes, populates their pages on a second
// thread in 4 MiB steps, in the order a front-to-back walk writes them. The returned thread joins on
// destruction; `stop` ends it early.
std::jthread reserve_and_prefault(std::initializer_list<std::vector<double>*> vs, std::size_t count, bool prefault) {
  for (auto* v : vs) v->reserve(count);
  if (!prefault || count < (std::size_t{1} << 20) || std::thread::hardware_concurrency() < 2) return {};
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
    auto prefault = reserve_and_prefault({&r.thresholds, &r.fpr, &r.tpr, &r.precision}, sw.size() + 1, true);
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
  const std::size_t n = y.size();
  // Twice the AUC sums integers; below 2^53 every partial sum is exact, so the sum may be split.
  const bool split = n >= (std::size_t{1} << 16) && std::thread::hardware_concurrency() > 1 && P * N < 0x1p52;
  // One thread walking: a second one maps the output pages meanwhile.
  auto prefault = reserve_and_prefault({&r.thresholds, &r.fpr, &r.tpr, &r.precision}, n + 1, !split);
  r.thresholds.push_back(inf);
  r.fpr.push_back(N > 0 ? 0.0 : nan);
  r.tpr.push_back(P > 0 ? 0.0 : nan);
  r.precision.push_back(1);
  const double n_or_nan = N > 0 ? N : nan, p_or_nan = P > 0 ? P : nan;  // x / NaN = NaN: roc_curve's rule
  auto point = [&](std::vector<double>* out[4], double t, double tp, double fp) {
    out[0]->push_back(t);
    out[1]->push_back(fp / n_or_nan);
    out[2]->push_back(tp / p_or_nan);
    out[3]->push_back(tp / (tp + fp));
  };
  std::vector<double>* mine[4] = {&r.thresholds, &r.fpr, &r.tpr, &r.precision};
  auc_sum auc;
  if (!split) {
    // The same running sums, in the same order, as roc_auc(sweep) and average_precision(sweep).
    ap_step_sum ap;
    walk_sorted_classes(sorted.pos(), sorted.neg(), [&](double t, double tp, double fp) {
      point(mine, t, tp, fp);
      auc.add(tp, fp);
      ap.add(tp, fp, P);
    });
    prefault.request_stop();
    if (P > 0 && N > 0) r.roc_auc = value(auc.auc(P, N));
    else r.roc_auc = roc_auc(score_sweep{{}, {}, {}, P, N});
    r.average_precision = P > 0 ? value(ap.sum) : average_precision(score_sweep{{}, {}, {}, P, N});
    return r;
  }
  // Two halves walked at once: the upper thresholds into the result, the lower ones (whose counts
  // start from those above them, exact integers) into side arrays appended after. The AP sum is
  // then taken in order over the result, with the same operands as ap_step_sum.
  const auto pos = sorted.pos(), neg = sorted.neg();
  const double cut = sorted.rank_value(n / 2);
  const auto ip = static_cast<std::size_t>(std::upper_bound(pos.begin(), pos.end(), cut) - pos.begin());
  const auto in = static_cast<std::size_t>(std::upper_bound(neg.begin(), neg.end(), cut) - neg.begin());
  std::vector<double> lower[4];
  std::vector<double>* theirs[4] = {&lower[0], &lower[1], &lower[2], &lower[3]};
  auc_sum auc_lower;
  {
    std::jthread other([&] {
      for (auto& v : lower) v.reserve(ip + in);
      const double tp_above = P - static_cast<double>(ip), fp_above = N - static_cast<double>(in);
      auc_lower.tp0 = tp_above, auc_lower.fp0 = fp_above;
      walk_sorted_classes(pos.subspan(0, ip), neg.subspan(0, in), [&](double t, double tp, double fp) {
        point(theirs, t, tp_above + tp, fp_above + fp);
        auc_lower.add(tp_above + tp, fp_above + fp);
      });
    });
    walk_sorted_classes(pos.subspan(ip), neg.subspan(in), [&](double t, double tp, double fp) {
      point(mine, t, tp, fp);
      auc.add(tp, fp);
    });
  }
  {
    std::jthread other([&] {
      for (int a : {2, 3}) mine[a]->insert(mine[a]->end(), lower[a].begin(), lower[a].end());
    });
    for (int a : {0, 1}) mine[a]->insert(mine[a]->end(), lower[a].begin(), lower[a].end());
  }
  if (P > 0 && N > 0) {
    auc.twice_area += auc_lower.twice_area;
    r.roc_auc = value(auc.auc(P, N));
  } else {
    r.roc_auc = roc_auc(score_sweep{{}, {}, {}, P, N});
  }
  if (P > 0) {
    double sum = 0, r0 = 0;
    for (std::size_t k = 1; k < r.tpr.size(); ++k) {
      sum += (r.tpr[k] - r0) * r.precision[k];
      r0 = r.tpr[k];
    }
    r.average_precision = value(sum);
  } else {
    r.average_precision = average_precision(score_sweep{{}, {}, {}, P, N});
  }
  return r;
}

}  // namespace assay::curves
