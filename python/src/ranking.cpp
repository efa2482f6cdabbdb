// assay._core: scikit-learn's binary score metrics computed to the bit. The sweep is the core's
// (sorted once, radix); with weights the cumulative sums are taken one case at a time in the stable
// descending order, as scikit-learn's np.cumsum does (the core's sweep adds tied weights as a group
// first, which rounds differently). The post-sweep arithmetic of roc_auc_score (drop_intermediate,
// rates, trapezoid) and of average_precision_score (step sum) rounds each operation as numpy does
// and sums in numpy's pairwise order (assay/detail/numpy_sum.hpp).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <thread>

#include "assay/curves/class_sort.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/detail/numpy_sum.hpp"
#include "assay/detail/radix.hpp"
#include "common.hpp"

namespace assay::python {

namespace {

struct curve {
  std::vector<double> fp, tp, thresholds;
};

unsigned g_threads = 0;  // of the unweighted score sort; 0: the core's choice (one per hardware thread from 2^16 cases)

struct record {
  std::uint64_t key;     // order key of -score: ascending = highest score first
  double signed_weight;  // +w for a positive, -w for a negative (w > 0)
};

struct record_key {
  std::uint64_t operator()(const record& r) const noexcept { return r.key; }
};

void sort_records_stable(std::vector<record>& recs) {
  const std::size_t n = recs.size();
  if (n < 2) return;
  if (n > 0xFFFFFFFFu) {
    std::stable_sort(recs.begin(), recs.end(), [](const record& a, const record& b) { return a.key < b.key; });
    return;
  }
  const unsigned T = n < (std::size_t{1} << 17) ? 1u : std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
  std::unique_ptr<record[]> spare(new record[n]);
  detail::radix_sorter<record, record_key> sorter(recs.data(), spare.get(), n, T, 1);
  std::uint64_t o = 0, d = ~std::uint64_t{0};
  for (const record& r : recs) o |= r.key, d &= r.key;
  sorter.plan(n, o ^ d);
  detail::run_team(sorter.threads(), [&sorter](unsigned t, std::barrier<>& sync) { sorter.sort(t, sync); });
  if (sorter.result() != recs.data()) std::copy(sorter.result(), sorter.result() + n, recs.data());
}

// A stable LSD radix sort of records by key for one thread, with no set-up beyond one histogram
// table: digits of kBits, all histograms counted in one read, digits on which every key agrees
// skipped. The core's sorters are built for large inputs (their tables cost tens of microseconds per
// call); below kSmall cases this one is faster.
template <unsigned kBits>
void radix_sort_small(std::vector<record>& recs) {
  constexpr std::size_t R = std::size_t{1} << kBits;
  constexpr unsigned P = (64 + kBits - 1) / kBits;
  const std::size_t n = recs.size();
  std::vector<std::uint32_t> hist(P * R, 0u);
  for (const record& r : recs) {
    std::uint64_t k = r.key;
    for (unsigned p = 0; p < P; ++p, k >>= kBits) ++hist[p * R + (k & (R - 1))];
  }
  std::vector<record> tmp(n);
  record* src = recs.data();
  record* dst = tmp.data();
  for (unsigned p = 0; p < P; ++p) {
    std::uint32_t* h = hist.data() + p * R;
    const unsigned shift = p * kBits;
    if (h[(src[0].key >> shift) & (R - 1)] == n) continue;  // every key has this digit
    std::uint32_t sum = 0;
    for (std::size_t b = 0; b < R; ++b) {
      const std::uint32_t c = h[b];
      h[b] = sum;
      sum += c;
    }
    for (std::size_t i = 0; i < n; ++i) dst[h[(src[i].key >> shift) & (R - 1)]++] = src[i];
    std::swap(src, dst);
  }
  if (src != recs.data()) std::copy(src, src + n, recs.data());
}

constexpr std::size_t kSmall = std::size_t{1} << 16;

void sort_records_small(std::vector<record>& recs) {
  if (recs.size() < 2) return;
  if (recs.size() < 4096) radix_sort_small<8>(recs);
  else radix_sort_small<11>(recs);
}

// Calls f(threshold, tp, fp) at each distinct score, highest first, with scikit-learn's cumulative
// sums (confusion_matrix_at_thresholds), after start(positives, negatives) with the final totals.
// Weights must be >= 0 (the Python layer takes negative weights elsewhere); weight-0 cases are left
// out, as scikit-learn does.
template <typename Start, typename F>
void sweep_visit(std::span<const std::int32_t> y, std::span<const double> score, std::span<const double> weight,
                 Start&& start, F&& f) {
  curves::check_binary_input("sweep", y, score, weight);
  if (weight.empty() && y.size() >= kSmall) {
    // Counts are exact integers: the core's class sort and merge walk give scikit-learn's numbers.
    const curves::class_sorted sorted = curves::sort_by_class(y, score, {}, g_threads);
    start(static_cast<double>(sorted.pos().size()), static_cast<double>(sorted.neg().size()));
    curves::walk_sorted_classes(sorted.pos(), sorted.neg(), f);
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
  if (recs.size() < kSmall) sort_records_small(recs);
  else sort_records_stable(recs);
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

curve clf_curve(std::span<const std::int32_t> y, std::span<const double> score, std::span<const double> weight) {
  curve c;
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
curve roc_points(std::span<const std::int32_t> y, std::span<const double> score, std::span<const double> weight,
                 bool drop) {
  curve c;
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

// scikit-learn's binary roc_auc_score: roc_curve(drop_intermediate=True) (a point is kept when
// np.diff(fps, 2) or np.diff(tps, 2) is non-zero at it, and the first and last always), the rates
// fps / fps[-1] and tps / tps[-1] with (0, 0) in front, then scipy's trapezoid: the sum of
// (x[i+1] - x[i]) * (y[i+1] + y[i]) / 2.0 in numpy's order. One pass over the sweep, deciding each
// point when the next arrives. nullopt when a class has no weight (scikit-learn warns; the Python
// layer takes that case).
std::optional<double> roc_auc(std::span<const std::int32_t> y, std::span<const double> score,
                              std::span<const double> weight) {
  double P = 0, N = 0, last_x = 0, last_y = 0;
  double a_fp = 0, a_tp = 0, b_fp = 0, b_tp = 0;
  std::size_t count = 0;
  std::vector<double> terms;
  auto emit = [&](double fp, double tp) {
    const double x = fp / N, yv = tp / P;
    terms.push_back((x - last_x) * (yv + last_y) / 2.0);
    last_x = x;
    last_y = yv;
  };
  bool defined = true;
  sweep_visit(
      y, score, weight,
      [&](double pos, double neg) {
        P = pos;
        N = neg;
        defined = P > 0 && N > 0;
        if (defined) terms.reserve(y.size() + 1);
      },
      [&](double, double tp, double fp) {
        if (!defined) return;
        if (count == 0) {
          emit(fp, tp);
        } else if (count >= 2) {
          if (((fp - b_fp) - (b_fp - a_fp)) != 0 || ((tp - b_tp) - (b_tp - a_tp)) != 0) emit(b_fp, b_tp);
        }
        a_fp = b_fp, a_tp = b_tp, b_fp = fp, b_tp = tp;
        ++count;
      });
  if (!defined) return std::nullopt;
  if (count >= 2) emit(b_fp, b_tp);
  return detail::numpy_sum(terms.data(), terms.size());
}

// scikit-learn's binary average_precision_score: -sum(diff(recall) * precision[:-1]) over the
// precision-recall curve reversed (recall falling to a final 0, precision = tp / (tp + fp), 0 where
// tp + fp = 0), clipped at 0. The term of the k-th threshold of the sweep is (recall[k-1] -
// recall[k]) * precision[k] and sits at m - 1 - k in numpy's array: written from the back of a
// buffer of n. nullopt when there is no positive weight.
std::optional<double> average_precision(std::span<const std::int32_t> y, std::span<const double> score,
                                        std::span<const double> weight) {
  double T = 0, prev_recall = 0;
  std::size_t k = 0;
  std::unique_ptr<double[]> buf;
  const std::size_t n = y.size();
  bool defined = true;
  sweep_visit(
      y, score, weight,
      [&](double pos, double) {
        T = pos;
        defined = T > 0;
        if (defined) buf.reset(new double[n]);
      },
      [&](double, double tp, double fp) {
        if (!defined) return;
        const double ps = tp + fp;
        const double precision = ps != 0 ? tp / ps : 0.0;
        const double recall = tp / T;
        buf[n - 1 - k] = (prev_recall - recall) * precision;
        prev_recall = recall;
        ++k;
      });
  if (!defined) return std::nullopt;
  const double v = -detail::numpy_sum(buf.get() + (n - k), k);
  return v > 0.0 ? v : 0.0;  // Python's max(0.0, v)
}

template <typename T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> out(std::vector<T>&& v) {
  return to_numpy(std::move(v));
}

}  // namespace

void bind_ranking(nb::module_& m) {
  m.def(
      "clf_curve",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        curve c;
        {
          nb::gil_scoped_release release;
          c = clf_curve(view(y), view(score), view(weight));
        }
        return std::make_tuple(out(std::move(c.fp)), out(std::move(c.tp)), out(std::move(c.thresholds)));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "(fps, tps, thresholds) as scikit-learn's confusion_matrix_at_thresholds, to the bit (weights >= 0).");
  m.def(
      "roc_points",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight, bool drop) {
        curve c;
        {
          nb::gil_scoped_release release;
          c = roc_points(view(y), view(score), view(weight), drop);
        }
        return std::make_tuple(out(std::move(c.fp)), out(std::move(c.tp)), out(std::move(c.thresholds)));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(), nb::arg("drop_intermediate"),
      "roc_curve's (fps, tps, thresholds) with (0, 0, inf) in front, as scikit-learn's, to the bit.");
  m.def(
      "roc_auc",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        nb::gil_scoped_release release;
        return roc_auc(view(y), view(score), view(weight));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "Binary ROC AUC as scikit-learn's roc_auc_score, to the bit; None when a class has no weight.");
  m.def(
      "average_precision",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        nb::gil_scoped_release release;
        return average_precision(view(y), view(score), view(weight));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "Binary average precision as scikit-learn's average_precision_score, to the bit; None without positives.");
  m.def(
      "set_sort_threads", [](unsigned t) { g_threads = t; }, nb::arg("threads"),
      "Threads of the score sort of clf_curve, roc_auc and average_precision (0: one per hardware thread).");
  m.def(
      "numpy_sum",
      [](in_array<double> a) { return detail::numpy_sum(a.data(), a.shape(0)); },
      nb::arg("a"), "numpy's a.sum() of a contiguous float64 array, in numpy's pairwise order (for tests).");
}

}  // namespace assay::python
