// assay._core: the sorted-score sweep every ranking curve is read from.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>

#include "assay/curves/sweep.hpp"
#include "common.hpp"

namespace assay::python {

void bind_curves(nb::module_& m) {
  m.def(
      "sweep",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        curves::score_sweep sw;
        {
          nb::gil_scoped_release release;
          sw = curves::sweep_scores("sweep", view(y), view(score), view(weight));
        }
        return std::make_tuple(to_numpy(std::move(sw.fp)), to_numpy(std::move(sw.tp)),
                               to_numpy(std::move(sw.thresholds)));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "(fps, tps, thresholds) at every distinct score, highest first, as scikit-learn's _binary_clf_curve.");
}

}  // namespace assay::python
