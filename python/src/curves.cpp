// assay._core: the sorted-score sweep every ranking curve is read from.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <fmt/format.h>

#include "assay/curves/sweep.hpp"
#include "assay/data/classes.hpp"
#include "assay/error.hpp"
#include "assay/metrics/labels.hpp"
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
  m.def(
      "positive_flags",
      [](std::optional<in_array<double>> numbers, std::optional<std::vector<std::string>> text,
         std::optional<std::string> pos_label, const std::string& fn) {
        // The classes of a binary task by the one set of class rules (decide_classes): numbers are
        // named as the core names them (1.0 is "1").
        std::vector<std::string> truth = text ? *text : std::vector<std::string>{};
        for (double x : view(numbers)) {
          if (!std::isfinite(x)) throw_usage(fmt::format("{}: y_true holds {}; numeric labels must be finite", fn, x));
          truth.push_back(canonical_number(x));
        }
        return positive_of_spellings(truth, {pos_label, task_kind::binary, class_set::truth_and_predictions},
                                     label_source::of_function(fn));
      },
      nb::arg("numbers").none(), nb::arg("text").none(), nb::arg("pos_label").none(), nb::arg("fn"),
      "For each distinct true label (numbers or text), whether it is the positive class of a binary task "
      "(assay's class rules, data/classes.hpp); raises ValueError when it cannot be decided.");
}

}  // namespace assay::python
