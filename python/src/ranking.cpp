// assay._core: scikit-learn's binary score metrics to the bit (assay/curves/sklearn_compat.hpp).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>

#include "assay/curves/sklearn_compat.hpp"
#include "assay/detail/numpy_sum.hpp"
#include "common.hpp"

namespace assay::python {

namespace {

template <typename T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> out(std::vector<T>&& v) {
  return to_numpy(std::move(v));
}

}  // namespace

void bind_ranking(nb::module_& m) {
  m.def(
      "clf_curve",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        curves::sklearn::sweep_points c;
        {
          nb::gil_scoped_release release;
          c = curves::sklearn::clf_curve(view(y), view(score), view(weight));
        }
        return std::make_tuple(out(std::move(c.fp)), out(std::move(c.tp)), out(std::move(c.thresholds)));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "(fps, tps, thresholds) as scikit-learn's confusion_matrix_at_thresholds, to the bit (weights >= 0).");
  m.def(
      "roc_points",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight, bool drop) {
        curves::sklearn::sweep_points c;
        bool rates = false;
        {
          nb::gil_scoped_release release;
          c = curves::sklearn::roc_points(view(y), view(score), view(weight), drop);
          rates = curves::sklearn::to_rates(c);
        }
        return std::make_tuple(out(std::move(c.fp)), out(std::move(c.tp)), out(std::move(c.thresholds)), rates);
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(), nb::arg("drop_intermediate"),
      "roc_curve's (fpr, tpr, thresholds, true) with (0, 0, inf) in front, as scikit-learn's, to the bit; "
      "(fps, tps, thresholds, false) when a class has no weight.");
  m.def(
      "roc_auc",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        nb::gil_scoped_release release;
        return curves::sklearn::roc_auc(view(y), view(score), view(weight));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "Binary ROC AUC as scikit-learn's roc_auc_score, to the bit; None when a class has no weight.");
  m.def(
      "average_precision",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        nb::gil_scoped_release release;
        return curves::sklearn::average_precision(view(y), view(score), view(weight));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "Binary average precision as scikit-learn's average_precision_score, to the bit; None without positives.");
  m.def(
      "set_sort_threads", [](unsigned t) { curves::sklearn::set_sort_threads(t); }, nb::arg("threads"),
      "Threads of the core's class sort behind the unweighted sweeps from 2^21 cases (0: the core's choice); for measurements.");
  m.def(
      "numpy_sum",
      [](in_array<double> a) { return detail::numpy_sum(a.data(), a.shape(0)); },
      nb::arg("a"), "numpy's a.sum() of a contiguous float64 array, in numpy's pairwise order (for tests).");
}

}  // namespace assay::python
