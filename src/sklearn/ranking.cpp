// assay: scikit-learn's binary score metrics computed to the bit. The scores are sorted once
// (unweighted from 2^16 cases the core's labelled-key sort, sort_labelled in curves/class_sort.hpp, or its class sort when the scores leave no room for the class bit; otherwise the shared stable
// sort of 16-byte (score key, signed weight) records, assay::detail::stable_sort_by_key in
// assay/detail/radix.hpp, the core's weighted sweep's too) and swept once. With weights the cumulative sums are taken
// one case at a time in the stable descending order, as scikit-learn's np.cumsum does (the core's
// sweep adds tied weights as a group first, which rounds differently). The post-sweep arithmetic of
// roc_curve (drop_intermediate, rates), roc_auc_score (the trapezoid) and average_precision_score
// (the step sum) rounds each operation as numpy does and sums in numpy's pairwise order
// (assay/sklearn/detail/numpy_sum.hpp).
#include "assay/sklearn/ranking.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>

#include "assay/curves/class_sort.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/detail/buffer.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/detail/radix.hpp"
#include "assay/sklearn/detail/numpy_sum.hpp"

namespace assay::sklearn {

// The core's class sorts and sweep walks (curves/class_sort.hpp, curves/sweep.hpp).
using curves::check_binary_input;
using curves::class_sorted;
using curves::labelled_sorted;
using curves::sort_by_class;
using curves::sort_labelled;
using curves::walk_labelled;
using curves::walk_sorted_classes;

namespace {

// Threads of the core's class sort (unweighted, from kSmall cases); 0: the core's choice. Settable
// from Python (set_sort_threads) for measurements.
unsigned g_threads = 0;  // settable through set_sort_threads

struct record {
  std::uint64_t key;     // order key of -score: ascending = highest score first
  double signed_weight;  // +w for a positive, -w for a negative (w > 0)
};

constexpr std::size_t kSmall = std::size_t{1} << 16;

// Calls f(threshold, tp, fp) at each distinct score, highest first, with scikit-learn's cumulative
// sums (confusion_matrix_at_thresholds), after start(positives, negatives) with the final totals.
// Weights must be >= 0 (the Python layer takes negative weights elsewhere); weight-0 cases are left
// out, as scikit-learn does.
template <typename Start, typename F>
void sweep_visit(std::span<const std::int32_t> y, std::span<const double> score, std::span<const double> weight,
                 Start&& start, F&& f) {
  const bool large = weight.empty() && y.size() >= kSmall && y.size() == score.size();
  // The large unweighted input is checked by the sort's first read (sort_labelled's check_as).
  if (!large) check_binary_input("sweep", y, score, weight);
  if (large) {
    // Counts are exact integers: the core's labelled-key sort and its walk (or, when the scores leave
    // no room for the class bit, the class sort and merge walk) give scikit-learn's numbers.
    // One thread below 2^19 cases: a team's start and its count tables cost more than they save
    // (measured at 10^5: 2.9 ms of CPU on one thread, 3.3 ms on two, no faster on the wall clock;
    // at 3 x 10^5 no faster either); at 10^6 the labelled sort took 16 ms on two threads against 27
    // ms on one (wall clock, best of 15, on the shared 2-core machine).
    const unsigned threads = g_threads != 0 ? g_threads : y.size() < (std::size_t{1} << 19) ? 1u : 0u;
    if (auto labelled = sort_labelled(y, score, threads, "sweep")) {
      labelled->take_scratch().reset();  // the walk's callers allocate their own buffers: free it first
      start(static_cast<double>(labelled->positives()), static_cast<double>(y.size() - labelled->positives()));
      walk_labelled(*labelled, f);
      return;
    }
    const class_sorted sorted = sort_by_class(y, score, {}, threads);
    start(static_cast<double>(sorted.pos().size()), static_cast<double>(sorted.neg().size()));
    walk_sorted_classes(sorted.pos(), sorted.neg(), f);
    return;
  }
  std::vector<record> recs;
  recs.reserve(y.size());
  if (weight.empty()) {
    // Unit weights: the sums below count exactly, as the core's walk does.
    for (std::size_t i = 0; i < y.size(); ++i) recs.push_back({detail::order_key(-score[i]), y[i] ? 1.0 : -1.0});
  } else {
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double w = weight[i];
      if (w == 0) continue;
      recs.push_back({detail::order_key(-score[i]), y[i] ? w : -w});
    }
  }
  assay::detail::stable_sort_by_key(recs);  // stable: np.cumsum's order within tied scores
  // The totals first: the same additions in the same order as the cumulative sums below.
  double P = 0, N = 0;
  for (const record& r : recs) {
    if (r.signed_weight > 0) P += r.signed_weight;
    else N += -r.signed_weight;
  }
  start(P, N);
  double tp = 0, fp = 0;
  std::size_t i = 0;
  const std::size_t n = recs.size();
  while (i < n) {
    const std::uint64_t key = recs[i].key;
    for (; i < n && recs[i].key == key; ++i) {  // one case at a time: np.cumsum's rounding
      const double sw = recs[i].signed_weight;
      if (sw > 0) tp += sw;
      else fp += -sw;
    }
    f(-detail::from_order_key(key) + 0.0, tp, fp);
  }
}
}  // namespace

void set_sort_threads(unsigned threads) { g_threads = threads; }


sweep_points clf_curve(std::span<const std::int32_t> y, std::span<const double> score, std::span<const double> weight) {
  sweep_points c;
  sweep_visit(
      y, score, weight,
      [&](double, double) {
        c.thresholds.reserve(y.size());
        c.tp.reserve(y.size());
        c.fp.reserve(y.size());
      },
      [&c](double t, double tp, double fp) {
        c.thresholds.push_back(t);
        c.tp.push_back(tp);
        c.fp.push_back(fp);
      });
  return c;
}

// roc_curve's points before the rates: (fps, tps, thresholds) with (0, 0, inf) in front and, with
// drop_intermediate, only the points where np.diff(fps, 2) or np.diff(tps, 2) is non-zero (and the
// first and last), as scikit-learn keeps them. One pass over the sweep.
sweep_points roc_points(std::span<const std::int32_t> y, std::span<const double> score, std::span<const double> weight,
                 bool drop) {
  sweep_points c;
  auto emit = [&c](double t, double tp, double fp) {
    c.thresholds.push_back(t);
    c.tp.push_back(tp);
    c.fp.push_back(fp);
  };
  double a_fp = 0, a_tp = 0, b_fp = 0, b_tp = 0, b_t = 0;
  std::size_t count = 0;
  sweep_visit(
      y, score, weight,
      [&](double, double) {
        c.thresholds.reserve(y.size() + 1);
        c.tp.reserve(y.size() + 1);
        c.fp.reserve(y.size() + 1);
        emit(std::numeric_limits<double>::infinity(), 0.0, 0.0);
      },
      [&](double t, double tp, double fp) {
        if (!drop) return emit(t, tp, fp);
        if (count == 0) {
          emit(t, tp, fp);
        } else if (count >= 2) {
          if (((fp - b_fp) - (b_fp - a_fp)) != 0 || ((tp - b_tp) - (b_tp - a_tp)) != 0) emit(b_t, b_tp, b_fp);
        }
        a_fp = b_fp, a_tp = b_tp, b_fp = fp, b_tp = tp, b_t = t;
        ++count;
      });
  if (drop && count >= 2) emit(b_t, b_tp, b_fp);
  return c;
}

// roc_curve's rates in place, fps / fps[-1] and tps / tps[-1] as numpy divides; false (counts left
// as they are) when a class has no weight: scikit-learn then warns and returns NaN rates.
bool to_rates(sweep_points& c) {
  const double N = c.fp.back(), P = c.tp.back();
  if (!(N > 0) || !(P > 0)) return false;
  for (double& v : c.fp) v = v / N;
  for (double& v : c.tp) v = v / P;
  return true;
}

// Runs body(b, e) over [0, m) as two fixed halves, side by side from 2^18 items (each item is
// computed on its own, so the split changes no bit).
template <typename Body>
void over_halves(std::size_t m, Body&& body) {
  if (m < (std::size_t{1} << 18)) return body(std::size_t{0}, m);
  assay::detail::run_both([&] { body(std::size_t{0}, m / 2); }, [&] { body(m / 2, m); });
}

// scikit-learn's binary roc_auc_score: roc_curve(drop_intermediate=True) (a point is kept when
// np.diff(fps, 2) or np.diff(tps, 2) is non-zero at it, and the first and last always), the rates
// fps / fps[-1] and tps / tps[-1] with (0, 0) in front, then scipy's trapezoid: the sum of
// (x[i+1] - x[i]) * (y[i+1] + y[i]) / 2.0 in numpy's order. Two passes: the walk keeps the counts of
// the kept points (deciding each point when the next arrives, with no branch on the decision: with
// random classes a point is kept about every other time); then the rates and the trapezoids, each
// computed from its own two points with numpy's roundings, in a loop the compiler vectorises (the
// divisions dominate), on two threads when long. nullopt when a class has no weight (scikit-learn
// warns; the Python layer takes that case).
std::optional<double> roc_auc(std::span<const std::int32_t> y, std::span<const double> score,
                              std::span<const double> weight) {
  double P = 0, N = 0;
  double a_fp = 0, a_tp = 0, b_fp = 0, b_tp = 0;
  std::size_t count = 0, m = 0;
  assay::detail::buffer_ptr<double> fps, tps;
  auto keep_point = [&](double fp, double tp, bool keep) {
    fps[m] = fp;
    tps[m] = tp;
    m += keep;
  };
  bool defined = true;
  sweep_visit(
      y, score, weight,
      [&](double pos, double neg) {
        P = pos;
        N = neg;
        defined = P > 0 && N > 0;
        if (defined) {
          fps = assay::detail::make_buffer<double>(y.size() + 1);
          tps = assay::detail::make_buffer<double>(y.size() + 1);
        }
      },
      [&](double, double tp, double fp) {
        if (!defined) return;
        if (count >= 2) {
          keep_point(b_fp, b_tp, (((fp - b_fp) - (b_fp - a_fp)) != 0) | (((tp - b_tp) - (b_tp - a_tp)) != 0));
        } else if (count == 0) {
          keep_point(fp, tp, true);
        }
        a_fp = b_fp, a_tp = b_tp, b_fp = fp, b_tp = tp;
        ++count;
      });
  if (!defined) return std::nullopt;
  if (count >= 2) keep_point(b_fp, b_tp, true);
  // terms[j] = (x_j - x_{j-1}) * (y_j + y_{j-1}) / 2 over the kept points, with (0, 0) before the first.
  auto terms = assay::detail::make_buffer<double>(m);
  double* const t = terms.get();
  const double* const fx = fps.get();
  const double* const ty = tps.get();
  over_halves(m, [&](std::size_t b, std::size_t e) {
    std::size_t j = b;
    if (j == 0 && e > 0) {
      t[0] = (fx[0] / N - 0.0) * (ty[0] / P + 0.0) / 2.0;
      j = 1;
    }
    for (; j < e; ++j) t[j] = (fx[j] / N - fx[j - 1] / N) * (ty[j] / P + ty[j - 1] / P) / 2.0;
  });
  return detail::numpy_sum(t, m);
}

// The walk of average_precision over labelled keys (sort_labelled), with the terms computed in the
// walk: the k-th distinct score from the top gives (recall[k - 1] - recall[k]) * precision[k], recall
// = tp / T and precision = tp / (tp + fp), the same roundings as the two-pass version below, into
// numpy's position m - 1 - k. On two threads the keys split at a tie-group boundary near the middle:
// one thread walks the upper half; the other first counts the upper half's positives (all it needs
// of it: the cumulative counts there) and walks the lower half from them. Each half writes its terms
// from the back of its own region of one buffer, so neither needs the other's number of groups; the
// lower half's terms then move next to the upper half's when ties left a gap between them. The sum
// splits where numpy's pairwise sum splits first (numpy_pairwise_sum), so the two halves' sums add to
// numpy's bits.
namespace {
// A group's term at cumulative counts (tp, fp) from the top: (previous recall - recall) * precision,
// with recall = tp / T and precision = tp / (tp + fp) (0 when both are 0); prev_recall moves on.
inline double ap_term(std::uint64_t tp, std::uint64_t fp, double T, double& prev_recall) {
  const double tpd = static_cast<double>(tp);
  const double ps = tpd + static_cast<double>(fp);
  const double precision = ps != 0 ? tpd / ps : 0.0;
  const double recall = tpd / T;
  const double term = (prev_recall - recall) * precision;
  prev_recall = recall;
  return term;
}

double average_precision_of(labelled_sorted& sorted, bool two_threads) {
  const double T = static_cast<double>(sorted.positives());
  if (sorted.grouped()) {  // one term per group, the same roundings, into numpy's positions
    const auto groups = sorted.groups();
    const std::size_t m = groups.size();
    std::vector<double> terms(m);
    double prev_recall = 0.0;
    std::uint64_t tp = 0, fp = 0;
    for (std::size_t g = 0; g < m; ++g) {
      tp += groups[m - 1 - g].positives;
      fp += groups[m - 1 - g].negatives;
      terms[m - 1 - g] = ap_term(tp, fp, T, prev_recall);
    }
    const double v = -detail::numpy_sum(terms.data(), m);
    return v > 0.0 ? v : 0.0;  // Python's max(0.0, v)
  }
  const std::uint64_t* const k = sorted.keys().data();
  const std::size_t n = sorted.size();
  // The terms go to the sort's spare buffer (n x 8 bytes; malloc'd storage, only ever read as doubles
  // here): its pages are already touched.
  assay::detail::buffer_ptr<std::uint64_t> terms = sorted.take_scratch();
  if (!terms) terms = assay::detail::make_buffer<std::uint64_t>(n);
  double* const out = reinterpret_cast<double*>(terms.get());
  // Walks keys [lo, hi) downwards from cumulative counts (tp, fp), writing the terms at out[end - 1],
  // out[end - 2], ...; returns the number of groups.
  auto walk = [&](std::size_t lo, std::size_t hi, std::uint64_t tp, std::uint64_t fp, std::size_t end) {
    double prev_recall = static_cast<double>(tp) / T;  // 0 / T = 0 at the top
    std::size_t groups = 0;
    std::size_t i = hi;
    while (i > lo) {
      const std::uint64_t key = k[--i];
      tp += key & 1u;
      fp += ~key & 1u;
      if (i == lo || (k[i - 1] >> 1) != (key >> 1)) {
        out[end - 1 - groups] = ap_term(tp, fp, T, prev_recall);
        ++groups;
      }
    }
    return groups;
  };
  std::size_t h = two_threads && n >= (std::size_t{1} << 18) ? n / 2 : 0;
  while (h > 0 && (k[h - 1] >> 1) == (k[h] >> 1)) --h;
  std::size_t upper = 0, lower = 0;
  if (h == 0) {
    upper = walk(0, n, 0, 0, n);
  } else {
    assay::detail::run_both([&] { upper = walk(h, n, 0, 0, n); },
                            [&] {
                              std::uint64_t tp = 0;
                              for (std::size_t i = h; i < n; ++i) tp += k[i] & 1u;
                              lower = walk(0, h, tp, (n - h) - tp, h);
                            });
    if (h != n - upper) std::memmove(out + n - upper - lower, out + h - lower, lower * sizeof(double));
  }
  const std::size_t m = upper + lower;
  const double* const a = out + (n - m);
  double sum = 0;
  if (two_threads && m >= (std::size_t{1} << 18)) {
    std::size_t half = m / 2;
    half -= half % 8;
    double s1 = 0, s2 = 0;
    assay::detail::run_both([&] { s1 = detail::numpy_pairwise_sum(a, half); },
                            [&] { s2 = detail::numpy_pairwise_sum(a + half, m - half); });
    sum = 0.0 + (s1 + s2);
  } else {
    sum = detail::numpy_sum(a, m);
  }
  const double v = -sum;
  return v > 0.0 ? v : 0.0;  // Python's max(0.0, v)
}
}  // namespace

// scikit-learn's binary average_precision_score: -sum(diff(recall) * precision[:-1]) over the
// precision-recall points reversed (recall falling to a final 0, precision = tp / (tp + fp), 0 where
// tp + fp is 0, recall = tp / P). The term of the k-th distinct score from the top is (recall[k - 1]
// - recall[k]) * precision[k] and sits at m - 1 - k in numpy's array. Unweighted from 2^16 cases,
// over labelled keys: the terms computed in the walk (average_precision_of, two threads from 2^19).
// Otherwise two passes as roc_auc: the walk keeps the counts of every point; then the terms, each
// from its own two points, written from the back (vectorised, two threads when long). nullopt when
// there is no positive weight.
std::optional<double> average_precision(std::span<const std::int32_t> y, std::span<const double> score,
                                        std::span<const double> weight) {
  if (weight.empty() && y.size() >= kSmall && y.size() == score.size()) {
    const unsigned threads = g_threads != 0 ? g_threads : y.size() < (std::size_t{1} << 19) ? 1u : 0u;
    if (auto labelled = sort_labelled(y, score, threads, "sweep")) {
      if (labelled->positives() == 0) return std::nullopt;
      return average_precision_of(*labelled, threads != 1);
    }
  }
  double T = 0;
  std::size_t m = 0;
  assay::detail::buffer_ptr<double> tps, fps;
  bool defined = true;
  sweep_visit(
      y, score, weight,
      [&](double pos, double) {
        T = pos;
        defined = T > 0;
        if (defined) {
          tps = assay::detail::make_buffer<double>(y.size());
          fps = assay::detail::make_buffer<double>(y.size());
        }
      },
      [&](double, double tp, double fp) {
        if (!defined) return;
        tps[m] = tp;
        fps[m] = fp;
        ++m;
      });
  if (!defined) return std::nullopt;
  auto terms = assay::detail::make_buffer<double>(m);
  double* const out = terms.get();
  const double* const tp = tps.get();
  const double* const fp = fps.get();
  over_halves(m, [&](std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; ++k) {
      const double ps = tp[k] + fp[k];
      const double precision = ps != 0 ? tp[k] / ps : 0.0;
      const double prev_recall = k == 0 ? 0.0 : tp[k - 1] / T;
      out[m - 1 - k] = (prev_recall - tp[k] / T) * precision;
    }
  });
  const double v = -detail::numpy_sum(out, m);
  return v > 0.0 ? v : 0.0;  // Python's max(0.0, v)
}

}  // namespace assay::sklearn
