// assay._core: the curves of assay.curves (ROC, PR, threshold, cost, rejection, calibration), each as
// a dict of NumPy arrays and summaries, and the core's SVG chart writer (include/assay/plot/svg.hpp).
// The numbers are those of `assay curve KIND` (src/curves/curve_report.cpp) on the same data.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "assay/curves/calibration.hpp"
#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/curves/threshold.hpp"
#include "assay/error.hpp"
#include "assay/plot/svg.hpp"
#include "common.hpp"

namespace assay::python {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// NaN where undefined.
double num(const value& v) { return v.defined() ? v.v : nan; }

void put_value(nb::dict& d, const char* key, const value& v) {
  d[key] = num(v);
  d[(std::string(key) + "_undefined").c_str()] = v.defined() ? std::string() : v.reason;
}

std::vector<double> values(const std::vector<value>& v) {
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = num(v[i]);
  return out;
}

// The binary metrics of the threshold curve: those `assay curve threshold` writes, in its order.
constexpr const char* threshold_metrics[] = {"accuracy", "error_rate", "precision", "recall", "specificity",
                                             "npv", "fpr", "fnr", "f1", "balanced_accuracy",
                                             "matthews_corrcoef", "cohen_kappa"};

nb::dict point_dict(const curves::operating_point& p) {
  nb::dict d;
  put_value(d, "value", p.criterion);
  d["threshold"] = p.threshold;
  d["fpr"] = p.fpr, d["tpr"] = p.tpr;
  d["tp"] = p.counts.tp, d["fp"] = p.counts.fp, d["fn"] = p.counts.fn, d["tn"] = p.counts.tn;
  return d;
}

// One line of a chart: (name, x, y, dashed, markers).
using line_spec = std::tuple<std::string, in_array<double>, in_array<double>, bool, bool>;
using marker_spec = std::tuple<double, double, std::string>;

/// ROC and precision-recall curves with their areas (roc.hpp, pr.hpp).
void bind_ranking_curves(nb::module_& m) {
  m.def(
      "curve_roc",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight,
         bool drop_intermediate) {
        curves::roc_curve_result r;
        value auc;
        {
          nb::gil_scoped_release release;
          const curves::score_sweep sw = curves::sweep_scores("assay.curves.roc", view(y), view(score), view(weight));
          r = curves::roc_curve(sw, {drop_intermediate, curves::first_threshold::infinity});
          auc = curves::roc_auc(sw);
        }
        nb::dict d;
        d["fpr"] = to_numpy(std::move(r.fpr)), d["tpr"] = to_numpy(std::move(r.tpr));
        d["thresholds"] = to_numpy(std::move(r.thresholds));
        d["fps"] = to_numpy(std::move(r.fps)), d["tps"] = to_numpy(std::move(r.tps));
        d["undefined"] = r.undefined;
        put_value(d, "auc", auc);
        return d;
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(), nb::arg("drop_intermediate"),
      "ROC curve (fpr, tpr, thresholds, fps, tps) and its AUC, as `assay curve roc`.");

  m.def(
      "curve_pr",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight) {
        curves::pr_curve_result r;
        value ap, bep;
        double prevalence = nan;
        {
          nb::gil_scoped_release release;
          const curves::score_sweep sw = curves::sweep_scores("assay.curves.pr", view(y), view(score), view(weight));
          r = curves::precision_recall_curve(sw);
          ap = curves::average_precision(sw);
          bep = curves::break_even_point(sw);
          const double total = sw.positives + sw.negatives;
          if (total > 0) prevalence = sw.positives / total;
        }
        nb::dict d;
        d["precision"] = to_numpy(std::move(r.precision)), d["recall"] = to_numpy(std::move(r.recall));
        d["thresholds"] = to_numpy(std::move(r.thresholds));
        d["undefined"] = r.undefined;
        put_value(d, "average_precision", ap);
        put_value(d, "break_even_point", bep);
        d["prevalence"] = prevalence;
        return d;
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(),
      "Precision-recall curve and average precision, as `assay curve pr`.");
}

/// Metrics at every threshold with the best operating points, and the cost curve (threshold.hpp).
void bind_threshold_curves(nb::module_& m) {
  m.def(
      "curve_thresholds",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight, double beta) {
        curves::threshold_table t;
        std::vector<std::vector<value>> cols;
        curves::operating_point youden, corner, fbeta;
        {
          nb::gil_scoped_release release;
          const curves::score_sweep sw =
              curves::sweep_scores("assay.curves.thresholds", view(y), view(score), view(weight));
          t = curves::threshold_counts(sw);
          metric_params params;
          params.beta = beta;
          for (auto name : threshold_metrics) cols.push_back(curves::metric_vs_threshold(t, name, params));
          cols.push_back(curves::metric_vs_threshold(t, "fbeta", params));
          youden = curves::best_youden(sw);
          corner = curves::best_closest_to_corner(sw);
          fbeta = curves::best_fbeta(sw, beta);
        }
        const std::size_t n = t.counts.size();
        std::vector<double> tp(n), fp(n), fn(n), tn(n);
        for (std::size_t k = 0; k < n; ++k) {
          tp[k] = t.counts[k].tp, fp[k] = t.counts[k].fp, fn[k] = t.counts[k].fn, tn[k] = t.counts[k].tn;
        }
        nb::dict d, metrics, best;
        d["thresholds"] = to_numpy(std::move(t.thresholds));
        d["tp"] = to_numpy(std::move(tp)), d["fp"] = to_numpy(std::move(fp));
        d["fn"] = to_numpy(std::move(fn)), d["tn"] = to_numpy(std::move(tn));
        std::size_t c = 0;
        for (auto name : threshold_metrics) metrics[name] = to_numpy(values(cols[c++]));
        metrics["fbeta"] = to_numpy(values(cols[c]));
        d["metrics"] = metrics;
        best["youden"] = point_dict(youden);
        best["closest_to_corner"] = point_dict(corner);
        best["max_fbeta"] = point_dict(fbeta);
        d["best"] = best;
        return d;
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(), nb::arg("beta"),
      "Confusion counts and binary metrics at every threshold, as `assay curve threshold`.");

  m.def(
      "curve_cost",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight,
         std::optional<std::tuple<double, double, double, double>> costs, std::optional<double> prior) {
        curves::cost_curve_result r;
        std::optional<curves::operating_point> best;
        double pc = nan;
        {
          nb::gil_scoped_release release;
          const curves::score_sweep sw = curves::sweep_scores("assay.curves.costs", view(y), view(score), view(weight));
          r = curves::cost_curve(sw);
          if (costs) {
            const auto [cfp, cfn, ctp, ctn] = *costs;
            const curves::cost_model cm{cfp, cfn, ctp, ctn, prior};
            best = curves::min_expected_cost(sw, cm);
            const double pi = prior ? *prior : sw.positives / (sw.positives + sw.negatives);
            const double den = pi * cfn + (1 - pi) * cfp;
            if (den > 0) pc = pi * cfn / den;
          }
        }
        nb::dict d;
        d["pc"] = to_numpy(std::move(r.envelope_pc)), d["normalized_cost"] = to_numpy(std::move(r.envelope_cost));
        d["line_fpr"] = to_numpy(std::move(r.line_fpr)), d["line_tpr"] = to_numpy(std::move(r.line_tpr));
        d["line_thresholds"] = to_numpy(std::move(r.line_threshold));
        d["undefined"] = r.undefined;
        if (best) {
          nb::dict b = point_dict(*best);
          b["pc"] = pc;
          d["min_expected_cost"] = b;
        } else {
          d["min_expected_cost"] = nb::none();
        }
        return d;
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(), nb::arg("costs").none(), nb::arg("prior").none(),
      "Drummond-Holte cost curve (lower envelope) and the minimum-expected-cost point, as `assay curve cost`.");
}

/// Accuracy-rejection and reliability (calibration) curves (calibration.hpp).
void bind_confidence_curves(nb::module_& m) {
  m.def(
      "curve_rejection",
      [](in_array<std::int32_t> y, in_array<double> score, std::optional<in_array<double>> weight, double threshold) {
        curves::rejection_curve_result r;
        {
          nb::gil_scoped_release release;
          r = curves::rejection_curve(view(y), view(score), view(weight), threshold);
        }
        nb::dict d;
        d["rejected"] = to_numpy(std::move(r.rejected)), d["accuracy"] = to_numpy(std::move(r.accuracy));
        d["confidence"] = to_numpy(std::move(r.confidence));
        return d;
      },
      nb::arg("y"), nb::arg("score"), nb::arg("weight").none(), nb::arg("threshold"),
      "Accuracy-rejection curve of a binary score, as `assay curve rejection`.");

  m.def(
      "curve_calibration",
      [](in_array<std::int32_t> y, in_array<double> prob, std::optional<in_array<double>> weight, std::size_t n_bins,
         bool quantile) {
        curves::reliability_result r;
        value ece;
        curves::brier_decomposition b;
        {
          nb::gil_scoped_release release;
          const auto strategy = quantile ? curves::bin_strategy::quantile : curves::bin_strategy::uniform;
          r = curves::reliability_curve(view(y), view(prob), view(weight), n_bins, strategy);
          ece = curves::expected_calibration_error(r);
          b = curves::brier_decompose(view(y), view(prob), view(weight));
        }
        nb::dict d;
        d["prob_true"] = to_numpy(std::move(r.prob_true)), d["prob_pred"] = to_numpy(std::move(r.prob_pred));
        d["weight"] = to_numpy(std::move(r.weight)), d["edges"] = to_numpy(std::move(r.edges));
        put_value(d, "ece", ece);
        put_value(d, "brier_score", b.brier);
        put_value(d, "brier_reliability", b.reliability);
        put_value(d, "brier_resolution", b.resolution);
        put_value(d, "brier_uncertainty", b.uncertainty);
        return d;
      },
      nb::arg("y"), nb::arg("prob"), nb::arg("weight").none(), nb::arg("n_bins"), nb::arg("quantile"),
      "Reliability curve, expected calibration error and Brier decomposition, as `assay curve calibration`.");
}

/// The core's SVG chart writer (plot/svg.hpp).
void bind_svg(nb::module_& m) {
  m.def(
      "render_svg",
      [](std::string title, std::string x_label, std::string y_label, double x_min, double x_max, double y_min,
         double y_max, bool square, const std::vector<line_spec>& lines, const std::vector<marker_spec>& markers,
         std::string id) {
        plot::chart c;
        c.id = std::move(id);
        c.title = std::move(title), c.x_label = std::move(x_label), c.y_label = std::move(y_label);
        c.x_min = x_min, c.x_max = x_max, c.y_min = y_min, c.y_max = y_max, c.square = square;
        for (const auto& [name, x, yv, dashed, markers_on] : lines) {
          if (x.shape(0) != yv.shape(0)) throw_usage("render_svg: a line's x and y differ in length");
          plot::series s;
          s.name = name;
          s.x.assign(x.data(), x.data() + x.shape(0));
          s.y.assign(yv.data(), yv.data() + yv.shape(0));
          s.dashed = dashed, s.markers = markers_on;
          c.lines.push_back(std::move(s));
        }
        for (const auto& [x, yv, label] : markers) c.markers.push_back({x, yv, label});
        std::string svg;
        {
          nb::gil_scoped_release release;
          svg = plot::render_svg(c);
        }
        return svg;
      },
      nb::arg("title"), nb::arg("x_label"), nb::arg("y_label"), nb::arg("x_min"), nb::arg("x_max"), nb::arg("y_min"),
      nb::arg("y_max"), nb::arg("square"), nb::arg("lines"), nb::arg("markers"), nb::arg("id") = "plot",
      "An SVG chart by the core's writer (assay::plot::render_svg). lines: (name, x, y, dashed, markers).");
}

}  // namespace

void bind_curve_objects(nb::module_& m) {
  bind_ranking_curves(m);
  bind_threshold_curves(m);
  bind_confidence_curves(m);
  bind_svg(m);
}

}  // namespace assay::python
