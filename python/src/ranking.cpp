// assay._core: scikit-learn's binary score metrics computed to the bit. The sweep is the core's
// (sorted once, radix); with weights the cumulative sums are taken one case at a time in the stable
// descending order, as scikit-learn's np.cumsum does (the core's sweep adds tied weights as a group
// first, which rounds differently). The post-sweep arithmetic of roc_auc_score (drop_intermediate,
// rates, trapezoid) and of average_precision_score (step sum) rounds each operation as numpy does
// and sums in numpy's pairwise order (assay/detail/numpy_sum.hpp).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>

#include <algorithm>
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

// scikit-learn's _binary_clf_curve / confusion_matrix_at_thresholds (fps, tps, thresholds).
// Weights must be >= 0 (the Python layer takes negative weights elsewhere); weight-0 cases are left
// out, as scikit-learn does.
unsigned g_threads = 0;  // 0: the core's choice (one per hardware thread from 2^16 cases)

curve clf_curve(std::span<const std::int32_t> y, std::span<const double> score, std::span<const double> weight) {
  curve c;
  if (weight.empty()) {
    // Counts are exact integers: the core's class sort and merge walk give scikit-learn's numbers.
    curves::check_binary_input("sweep", y, score, {});
    const curves::class_sorted sorted = curves::sort_by_class(y, score, {}, g_threads);
    c.thresholds.reserve(y.size());
    c.tp.reserve(y.size());
    c.fp.reserve(y.size());
    curves::walk_sorted_classes(sorted.pos(), sorted.neg(), [&c](double t, double tp, double fp) {
      c.thresholds.push_back(t);
      c.tp.push_back(tp);
      c.fp.push_back(fp);
    });
    return c;
  }
  curves::check_binary_input("sweep", y, score, weight);
  std::vector<record> recs;
  recs.reserve(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double w = weight[i];
    if (w == 0) continue;
    recs.push_back({detail::order_key(-score[i]), y[i] ? w : -w});
  }
  sort_records_stable(recs);
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
    c.thresholds.push_back(-detail::from_order_key(key) + 0.0);
    c.tp.push_back(tp);
    c.fp.push_back(fp);
  }
  return c;
}

// scikit-learn's binary roc_auc_score: roc_curve(drop_intermediate=True), then the trapezoid.
// nullopt when a class has no weight (scikit-learn warns; the Python layer takes that case).
std::optional<double> roc_auc(const curve& c) {
  const std::size_t m = c.fp.size();
  if (m == 0 || !(c.fp.back() > 0) || !(c.tp.back() > 0)) return std::nullopt;
  std::vector<double> x, yv;
  x.reserve(m + 1);
  yv.reserve(m + 1);
  x.push_back(0.0);
  yv.push_back(0.0);
  for (std::size_t i = 0; i < m; ++i) {
    bool keep = i == 0 || i + 1 == m || m <= 2;
    if (!keep) {
      // np.diff(a, 2) at i - 1: (a[i+1] - a[i]) - (a[i] - a[i-1]), rounded as numpy does.
      keep = ((c.fp[i + 1] - c.fp[i]) - (c.fp[i] - c.fp[i - 1])) != 0 ||
             ((c.tp[i + 1] - c.tp[i]) - (c.tp[i] - c.tp[i - 1])) != 0;
    }
    if (keep) {
      x.push_back(c.fp[i]);
      yv.push_back(c.tp[i]);
    }
  }
  const double fn = x.back(), tn = yv.back();
  for (double& v : x) v = v / fn;
  for (double& v : yv) v = v / tn;
  // scipy's trapezoid: sum of (x[i+1] - x[i]) * (y[i+1] + y[i]) / 2.0.
  std::vector<double> terms(x.size() - 1);
  for (std::size_t i = 0; i + 1 < x.size(); ++i) terms[i] = (x[i + 1] - x[i]) * (yv[i + 1] + yv[i]) / 2.0;
  return detail::numpy_sum(terms.data(), terms.size());
}

// scikit-learn's binary average_precision_score: -sum(diff(recall) * precision[:-1]) over the
// reversed precision-recall curve, clipped at 0. nullopt when there is no positive weight.
std::optional<double> average_precision(const curve& c) {
  const std::size_t m = c.tp.size();
  if (m == 0 || !(c.tp.back() > 0)) return std::nullopt;
  const double total = c.tp.back();
  std::vector<double> terms(m);
  // Reversed: recall_r[j] = tp[m-1-j] / total (j < m), recall_r[m] = 0; precision_r likewise.
  auto recall_r = [&](std::size_t j) { return j == m ? 0.0 : c.tp[m - 1 - j] / total; };
  for (std::size_t j = 0; j < m; ++j) {
    const std::size_t k = m - 1 - j;
    const double ps = c.tp[k] + c.fp[k];
    const double precision = ps != 0 ? c.tp[k] / ps : 0.0;
    terms[j] = (recall_r(j + 1) - recall_r(j)) * precision;
  }
  const double v = -detail::numpy_sum(terms.data(), terms.size());
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
      "roc_auc",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        nb::gil_scoped_release release;
        return roc_auc(clf_curve(view(y), view(score), view(weight)));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "Binary ROC AUC as scikit-learn's roc_auc_score, to the bit; None when a class has no weight.");
  m.def(
      "average_precision",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        nb::gil_scoped_release release;
        return average_precision(clf_curve(view(y), view(score), view(weight)));
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
