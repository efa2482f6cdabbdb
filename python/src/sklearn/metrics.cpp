// assay._core for the scikit-learn drop-in: class coding, the confusion-matrix kernel, the label tally.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>

#include "assay/metrics/confusion.hpp"
#include "assay/metrics/label_tally.hpp"
#include "assay/sklearn/label_codes.hpp"
#include "assay/sklearn/record_codes.hpp"
#include "../common.hpp"

namespace assay::python {

namespace {

nb::object tally_to_python(label_tally&& t) {
  const std::size_t k = t.classes;
  return nb::cast(std::make_tuple(to_numpy_2d(std::move(t.cells), k, k), to_numpy(std::move(t.actual)),
                                  to_numpy(std::move(t.predicted)), to_numpy(std::move(t.correct))));
}

}  // namespace

void bind_metrics(nb::module_& m) {
  m.def(
      "encode_numeric",
      [](in_array<double> first, std::optional<in_array<double>> second) {
        sklearn::numeric_label_codes c;
        {
          nb::gil_scoped_release release;
          c = sklearn::encode_numeric_labels(view(first), view(second));
        }
        return std::make_tuple(to_numpy(std::move(c.classes)), to_numpy(std::move(c.first)),
                               to_numpy(std::move(c.second)));
      },
      nb::arg("first"), nb::arg("second").none(),
      "(classes, codes of first, codes of second): classes sorted numerically, codes index them.");

  m.def(
      "confusion_matrix",
      [](in_array<std::int32_t> actual, in_array<std::int32_t> predicted, std::size_t classes,
         std::optional<in_array<double>> weight) {
        confusion_matrix cm;
        {
          nb::gil_scoped_release release;
          cm = confusion_matrix::from_labels(view(actual), view(predicted), classes, view(weight));
        }
        std::vector<double> cells(classes * classes);
        for (std::size_t i = 0; i < classes; ++i)
          for (std::size_t j = 0; j < classes; ++j) cells[i * classes + j] = cm(i, j);
        return to_numpy_2d(std::move(cells), classes, classes);
      },
      nb::arg("actual"), nb::arg("predicted"), nb::arg("classes"), nb::arg("weight").none(),
      "K x K matrix of (weighted) counts; rows are the actual class, columns the predicted class.");

  m.def(
      "tally",
      [](in_array<std::int32_t> actual, in_array<std::int32_t> predicted, std::size_t classes,
         std::optional<in_array<double>> weight) {
        label_tally t;
        {
          nb::gil_scoped_release release;
          t = tally_codes(view(actual), view(predicted), classes, view(weight));
        }
        return tally_to_python(std::move(t));
      },
      nb::arg("actual"), nb::arg("predicted"), nb::arg("classes"), nb::arg("weight").none(),
      "(cells K x K, actual totals, predicted totals, correct totals) of class indices, weighted sums in case order.");

  m.def(
      "tally_int64",
      [](in_array<std::int64_t> actual, in_array<std::int64_t> predicted,
         std::optional<in_array<double>> weight) -> nb::object {
        std::optional<integer_label_tally> t;
        {
          nb::gil_scoped_release release;
          t = tally_integer_labels(view(actual), view(predicted), view(weight));
        }
        if (!t) return nb::none();
        auto classes = to_numpy(std::move(t->classes));
        return nb::make_tuple(classes, tally_to_python(std::move(t->tally)));
      },
      nb::arg("actual"), nb::arg("predicted"), nb::arg("weight").none(),
      "(classes, tally) of int64 labels as they are, or None when they span 2^20 values or more.");
  m.def(
      "tally_indicators",
      [](nb::ndarray<const std::int32_t, nb::ndim<2>, nb::c_contig, nb::device::cpu> y_true,
         nb::ndarray<const std::int32_t, nb::ndim<2>, nb::c_contig, nb::device::cpu> y_pred, bool by_case,
         std::optional<in_array<double>> weight) {
        const std::size_t cases = y_true.shape(0), labels = y_true.shape(1);
        indicator_tally t;
        {
          nb::gil_scoped_release release;
          t = tally_indicators({y_true.data(), y_true.size()}, {y_pred.data(), y_pred.size()}, cases, labels, by_case,
                               view(weight));
        }
        return std::make_tuple(to_numpy(std::move(t.tp)), to_numpy(std::move(t.actual)),
                               to_numpy(std::move(t.predicted)));
      },
      nb::arg("y_true"), nb::arg("y_pred"), nb::arg("by_case"), nb::arg("weight").none(),
      "(tp, actual, predicted) per label (per case when by_case) of two n x L int32 0/1 indicator matrices; "
      "weighted sums (per label only) in row order.");
  m.def(
      "encode_records",
      [](in_array<std::uint8_t> first, in_array<std::uint8_t> second, std::size_t width) {
        sklearn::record_codes c;
        {
          nb::gil_scoped_release release;
          c = sklearn::encode_records(view(first), view(second), width);
        }
        return std::make_tuple(to_numpy(std::move(c.first)), to_numpy(std::move(c.codes_first)),
                               to_numpy(std::move(c.codes_second)));
      },
      nb::arg("first"), nb::arg("second"), nb::arg("width"),
      "(position of each distinct record's first occurrence, codes of first, codes of second): fixed-width "
      "records (the bytes of NumPy string arrays) coded in order of first appearance.");
}

}  // namespace assay::python
