// assay._core: class encoding and the confusion-matrix kernel.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>

#include "assay/metrics/confusion.hpp"
#include "assay/metrics/label_codes.hpp"
#include "common.hpp"

namespace assay::python {

void bind_metrics(nb::module_& m) {
  m.def(
      "encode_numeric",
      [](in_array<double> first, std::optional<in_array<double>> second) {
        numeric_label_codes c;
        {
          nb::gil_scoped_release release;
          c = encode_numeric_labels(view(first), view(second));
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
}

}  // namespace assay::python
