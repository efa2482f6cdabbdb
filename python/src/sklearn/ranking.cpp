// assay._core: scikit-learn's binary score metrics to the bit (assay/sklearn/ranking.hpp).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>

#include "assay/detail/buffer.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/sklearn/detail/numpy_sum.hpp"
#include "assay/sklearn/ranking.hpp"
#include "../common.hpp"

#include <cmath>
#include <type_traits>

namespace assay::python {

namespace {

template <typename T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> out(std::vector<T>&& v) {
  return to_numpy(std::move(v));
}

/// The 0/1 codes (1 = the greater label) of labels holding exactly two distinct values, written to
/// `codes`; false when they hold one value, more than two, or (floats) a NaN, an infinity or a value
/// that is not an integer (scikit-learn's type_of_target then says "continuous"). From 2^19 labels
/// each pass runs on two halves side by side (the result does not depend on the split). The first
/// pass writes the codes of labels {0, 1}; integer labels of minimum 0 and maximum 1 need no second.
template <typename T>
bool two_class_codes(const T* y, std::size_t n, std::int32_t* codes, bool& greater_is_one) {
  if (n == 0) return false;
  const bool halves = n >= (std::size_t{1} << 19);
  auto both = [&](auto&& part) {
    if (!halves) return part(std::size_t{0}, n, 0);
    assay::detail::run_both([&] { part(std::size_t{0}, n / 2, 0); }, [&] { part(n / 2, n, 1); });
  };
  T lows[2] = {y[0], y[0]}, highs[2] = {y[0], y[0]};
  both([&](std::size_t b, std::size_t e, int h) {
    T lo = y[b], hi = y[b];
    for (std::size_t i = b; i < e; ++i) {  // min and max without a branch on the data (it vectorises)
      lo = y[i] < lo ? y[i] : lo;
      hi = y[i] > hi ? y[i] : hi;
      codes[i] = static_cast<std::int32_t>(y[i] == T(1));  // the codes if the labels are {0, 1}
    }
    lows[h] = lo, highs[h] = hi;
  });
  // (A NaN that the comparisons skipped fails the scan below.)
  const T lo = lows[1] < lows[0] ? lows[1] : lows[0], hi = highs[1] > highs[0] ? highs[1] : highs[0];
  if constexpr (std::is_integral_v<T>) {
    if (lo == T(0) && hi == T(1)) {  // integers between 0 and 1 are 0 or 1: the codes are written
      greater_is_one = true;
      return true;
    }
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo != std::trunc(lo) || hi != std::trunc(hi)) return false;
  }
  if (!(lo < hi)) return false;
  bool oks[2] = {true, true};
  both([&](std::size_t b, std::size_t e, int h) {
    bool ok = true;
    for (std::size_t i = b; i < e; ++i) {
      ok &= (y[i] == lo) | (y[i] == hi);
      codes[i] = static_cast<std::int32_t>(y[i] == hi);
    }
    oks[h] = ok;
  });
  greater_is_one = hi == T(1);
  return oks[0] && oks[1];
}

using any_labels = nb::ndarray<nb::ro, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

}  // namespace

void bind_ranking(nb::module_& m) {
  m.def(
      "clf_curve",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        sklearn::sweep_points c;
        {
          nb::gil_scoped_release release;
          c = sklearn::clf_curve(view(y), view(score), view(weight));
        }
        return std::make_tuple(out(std::move(c.fp)), out(std::move(c.tp)), out(std::move(c.thresholds)));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "(fps, tps, thresholds) as scikit-learn's confusion_matrix_at_thresholds, to the bit (weights >= 0).");
  m.def(
      "roc_points",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight, bool drop) {
        sklearn::sweep_points c;
        bool rates = false;
        {
          nb::gil_scoped_release release;
          c = sklearn::roc_points(view(y), view(score), view(weight), drop);
          rates = sklearn::to_rates(c);
        }
        return std::make_tuple(out(std::move(c.fp)), out(std::move(c.tp)), out(std::move(c.thresholds)), rates);
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(), nb::arg("drop_intermediate"),
      "roc_curve's (fpr, tpr, thresholds, true) with (0, 0, inf) in front, as scikit-learn's, to the bit; "
      "(fps, tps, thresholds, false) when a class has no weight.");
  m.def(
      "two_class_codes",
      [](any_labels y) -> nb::object {
        const nb::dlpack::dtype dt = y.dtype();
        const std::size_t n = y.shape(0);
        auto codes = detail::make_buffer<std::int32_t>(n);
        bool ok = false, greater_is_one = false;
        {
          nb::gil_scoped_release release;
          using nb::dlpack::dtype_code;
          const void* d = y.data();
          auto run = [&](auto tag) {
            using T = decltype(tag);
            ok = two_class_codes(static_cast<const T*>(d), n, codes.get(), greater_is_one);
          };
          const auto code = static_cast<dtype_code>(dt.code);
          if (code == dtype_code::Int && dt.bits == 64) run(std::int64_t{});
          else if (code == dtype_code::Int && dt.bits == 32) run(std::int32_t{});
          else if (code == dtype_code::Int && dt.bits == 16) run(std::int16_t{});
          else if (code == dtype_code::Int && dt.bits == 8) run(std::int8_t{});
          else if (code == dtype_code::UInt && dt.bits == 64) run(std::uint64_t{});
          else if (code == dtype_code::UInt && dt.bits == 32) run(std::uint32_t{});
          else if (code == dtype_code::UInt && dt.bits == 16) run(std::uint16_t{});
          else if ((code == dtype_code::UInt || code == dtype_code::Bool) && dt.bits == 8) run(std::uint8_t{});
          else if (code == dtype_code::Float && dt.bits == 64) run(double{});
          else if (code == dtype_code::Float && dt.bits == 32) run(float{});
        }
        if (!ok) return nb::none();
        return nb::make_tuple(to_numpy(std::move(codes), n), greater_is_one);
      },
      nb::arg("y"),
      "(codes, greater_is_one) of 1-D labels of exactly two distinct values (integers, booleans, or "
      "integral finite floats): int32 codes, 1 for the greater label; None otherwise.");
  m.def(
      "roc_auc",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        nb::gil_scoped_release release;
        return sklearn::roc_auc(view(y), view(score), view(weight));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "Binary ROC AUC as scikit-learn's roc_auc_score, to the bit; None when a class has no weight.");
  m.def(
      "average_precision",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        nb::gil_scoped_release release;
        return sklearn::average_precision(view(y), view(score), view(weight));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "Binary average precision as scikit-learn's average_precision_score, to the bit; None without positives.");
  m.def(
      "set_sort_threads", [](unsigned t) { sklearn::set_sort_threads(t); }, nb::arg("threads"),
      "Threads of the core's class sort behind the unweighted sweeps from 2^21 cases (0: the core's choice); for measurements.");
  m.def(
      "numpy_sum",
      [](in_array<double> a) { return detail::numpy_sum(a.data(), a.shape(0)); },
      nb::arg("a"), "numpy's a.sum() of a contiguous float64 array, in numpy's pairwise order (for tests).");
}

}  // namespace assay::python
