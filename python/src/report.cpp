// assay._core: the report of predictions in memory — a prediction table built from arrays
// (data/predictions.hpp), evaluate() and the text / JSON / HTML renderers, exactly what
// `assay report` computes from a file with the same numbers.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <fmt/format.h>

#include <unordered_map>

#include "assay/data/predictions.hpp"
#include "assay/error.hpp"
#include "assay/metrics/registry.hpp"
#include "assay/report/html.hpp"
#include "assay/report/report.hpp"
#include "assay/report/slices.hpp"
#include "assay/report/slices_html.hpp"
#include "common.hpp"

namespace assay::python {
namespace {

/// Labels given either as numbers or as text (exactly one of the two is set by the Python layer).
struct labels_arg {
  std::optional<in_array<double>> numbers;
  std::optional<std::vector<std::string>> text;
  [[nodiscard]] labels_view view_of() const {
    if (text) return labels_view(std::span<const std::string>(*text));
    return labels_view(view(numbers));
  }
};

}  // namespace

evaluate_options evaluate_options_of(double threshold, std::optional<double> beta, std::size_t top_k,
                                     std::string_view zero_division, std::optional<double> ci_level,
                                     std::string_view ci_method, std::size_t replicates, std::uint64_t seed,
                                     bool keep_curves) {
  evaluate_options eo;
  eo.threshold = threshold;
  eo.beta = beta;
  eo.top_k = top_k;
  eo.zero_division = zero_division_of(zero_division);
  eo.ci_level = ci_level;
  eo.ci_method = ci_method_of(ci_method);
  eo.replicates = replicates;
  eo.seed = seed;
  eo.keep_curves = keep_curves;
  return eo;
}

ci_method ci_method_of(std::string_view s) {
  static const std::pair<std::string_view, ci_method> names[] = {
      {"auto", ci_method::automatic},        {"wilson", ci_method::wilson},
      {"normal", ci_method::normal},         {"agresti_coull", ci_method::agresti_coull},
      {"clopper_pearson", ci_method::clopper_pearson}, {"bootstrap", ci_method::bootstrap}};
  for (const auto& [name, m] : names) {
    if (s == name) return m;
  }
  throw_usage(fmt::format(
      "report: method is '{}'; it must be 'auto', 'wilson', 'normal', 'agresti_coull', 'clopper_pearson' or 'bootstrap'",
      s));
}

zero_division zero_division_of(std::string_view s) {
  if (s == "0") return zero_division::zero;
  if (s == "1") return zero_division::one;
  if (s == "nan") return zero_division::skip;
  throw_usage(fmt::format("report: zero_division is '{}'; it must be 0, 1 or nan", s));
}

task_kind task_of(std::string_view s) {
  if (s == "auto") return task_kind::automatic;
  if (s == "binary") return task_kind::binary;
  if (s == "multiclass") return task_kind::multiclass;
  if (s == "regression") return task_kind::regression;
  throw_usage(fmt::format("report: task is '{}'; it must be 'auto', 'binary', 'multiclass' or 'regression'", s));
}

void bind_report(nb::module_& m) {
  nb::class_<report>(m, "Report", "A computed report (internal: use assay.report).")
      .def("text", [](const report& r) { return to_text(r); })
      .def("json", [](const report& r) { return to_json(r); })
      .def("html", [](const report& r) { return to_html(r); })
      .def_rw("missing", &report::missing, "Rows skipped for a missing value (set with drop_missing; else None)");

  nb::class_<sliced_report>(m, "SlicedReport", "A computed sliced report (internal: use assay.report(by=...)).")
      .def("text", [](const sliced_report& r) { return to_text(r); })
      .def("json", [](const sliced_report& r) { return to_json(r); })
      .def("html", [](const sliced_report& r) { return to_html(r); });

  m.def(
      "regression_metrics",
      [] {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& e : metric_registry()) {
          if (e.kind == metric_kind::regression) out.emplace_back(e.name, e.title);
        }
        return out;
      },
      "(name, title) of every regression metric of the registry, in report order.");
  m.def(
      "evaluate",
      [](std::optional<in_array<double>> y_num, std::optional<std::vector<std::string>> y_text,
         std::optional<in_array<double>> score, std::optional<in_array<double>> pred_num,
         std::optional<std::vector<std::string>> pred_text, std::optional<in_array<double>> proba,
         std::vector<std::string> proba_classes, std::optional<in_array<double>> values,
         std::optional<in_array<double>> weight, std::optional<std::string> pos_label, std::string_view task,
         double threshold, std::optional<double> beta, std::size_t top_k, std::string_view zero_division,
         std::optional<double> ci_level, std::string_view ci_method, std::size_t replicates, std::uint64_t seed,
         bool keep_curves, std::vector<std::string> by_names, std::vector<std::vector<std::string>> by_keys,
         std::optional<double> max_fpr, std::optional<double> min_tpr, std::optional<double> min_precision,
         std::optional<double> min_recall, double confidence, std::vector<std::string> metrics) -> nb::object {
        const labels_arg y{y_num, y_text};
        prediction_options po;
        po.sample_weight = view(weight);
        po.pos_label = pos_label;
        po.task = task_of(task);
        evaluate_options eo = evaluate_options_of(threshold, beta, top_k, zero_division, ci_level, ci_method,
                                                  replicates, seed, keep_curves);
        eo.constraints = {max_fpr, min_tpr, min_precision, min_recall, confidence};
        eo.metrics = std::move(metrics);
        const sigint_cancels interruptible;  // Ctrl-C stops the bootstrap of the intervals
        std::optional<report> plain;
        std::optional<sliced_report> sliced;
        {
          nb::gil_scoped_release release;
          prediction_table table;
          if (score) {
            table = predictions_from_scores(y.view_of(), view(score), po);
          } else if (pred_num || pred_text) {
            const labels_arg p{pred_num, pred_text};
            table = predictions_from_labels(y.view_of(), p.view_of(), po);
          } else if (proba) {
            table = predictions_from_proba(y.view_of(), view(proba), proba_classes, po);
          } else if (values) {
            table = predictions_from_values(view(y_num), view(values), po);
          } else {
            throw_usage("report: give one of y_score, y_pred or y_proba");
          }
          if (by_keys.empty()) {
            plain = evaluate(std::move(table), eo);
          } else {
            // Slice keys as labels: codes in first-seen order (as the file reader makes them).
            std::vector<slice_column> by;
            for (std::size_t c = 0; c < by_keys.size(); ++c) {
              slice_column col;
              col.name = c < by_names.size() ? by_names[c] : fmt::format("by[{}]", c);
              std::unordered_map<std::string, std::int32_t> code;
              col.codes.reserve(by_keys[c].size());
              for (const auto& k : by_keys[c]) {
                auto [it, added] = code.emplace(k, static_cast<std::int32_t>(col.levels.size()));
                if (added) col.levels.push_back(k);
                col.codes.push_back(it->second);
              }
              by.push_back(std::move(col));
            }
            sliced = evaluate_slices(table, by, eo);
          }
        }
        if (plain) return nb::cast(std::move(*plain));
        return nb::cast(std::move(*sliced));
      },
      nb::arg("y_num").none(), nb::arg("y_text").none(), nb::arg("score").none(), nb::arg("pred_num").none(),
      nb::arg("pred_text").none(), nb::arg("proba").none(), nb::arg("proba_classes"), nb::arg("values").none(),
      nb::arg("weight").none(), nb::arg("pos_label").none(), nb::arg("task"), nb::arg("threshold"),
      nb::arg("beta").none(), nb::arg("top_k"), nb::arg("zero_division"), nb::arg("ci_level").none(),
      nb::arg("ci_method"), nb::arg("replicates"), nb::arg("seed"), nb::arg("keep_curves"),
      nb::arg("by_names") = std::vector<std::string>{}, nb::arg("by_keys") = std::vector<std::vector<std::string>>{},
      nb::arg("max_fpr").none() = nb::none(), nb::arg("min_tpr").none() = nb::none(),
      nb::arg("min_precision").none() = nb::none(), nb::arg("min_recall").none() = nb::none(),
      nb::arg("confidence") = 0.95, nb::arg("metrics") = std::vector<std::string>{});
}

}  // namespace assay::python
