// The text renderings of the validation commands' results: cross-validation, learning and validation
// curves, permutation test, bias-variance decomposition, bootstrap error estimates, lesion study,
// learner comparison and nested cross-validation. The kernels in src/validation/ compute the results.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/validation/bias_variance.hpp"
#include "assay/validation/bootstrap_estimate.hpp"
#include "assay/validation/compare_learners.hpp"
#include "assay/validation/engine.hpp"
#include "assay/validation/learning_curve.hpp"
#include "assay/validation/lesion.hpp"
#include "assay/validation/nested.hpp"
#include "assay/validation/permutation.hpp"
#include "assay/validation/validation_curve.hpp"

namespace assay::validation {

namespace {

std::string show(const value& v) {
  return v.defined() ? fmt::format("{:.4f}", v.v) : fmt::format("undefined ({})", v.reason);
}

}  // namespace

std::string to_text(const cv_result& r, bool per_fold) {
  std::string out = fmt::format("Cross-validation of {}: {} splits{}, {} thread{}, {:.3f} s\n", r.learner,
                                r.folds.size(), r.repeats > 1 ? fmt::format(" ({} repeats)", r.repeats) : "", r.threads,
                                r.threads == 1 ? "" : "s", r.seconds);
  if (r.positive) out += fmt::format("Positive class: {}\n", r.classes[*r.positive]);
  out += "\n";
  std::size_t w = 6;
  for (const auto& s : r.summary) w = std::max(w, s.name.size());
  out += fmt::format("{:<{}}  {:>10}  {:>10}  {:>10}  {:>19}\n", "metric", w, "mean", "sd", "pooled", "95% interval");
  for (std::size_t m = 0; m < r.summary.size(); ++m) {
    const auto& s = r.summary[m];
    auto cell = [](const value& v) { return v.defined() ? fmt::format("{:.4f}", v.v) : std::string("undefined"); };
    const auto [lo, hi] = corrected_mean_interval(r, m);
    const std::string ci = lo.defined() ? fmt::format("[{:.4f}, {:.4f}]", lo.v, hi.v) : "undefined";
    out += fmt::format("{:<{}}  {:>10}  {:>10}  {:>10}  {:>19}\n", s.name, w, cell(s.mean), cell(s.sd), cell(s.pooled),
                       ci);
  }
  out += "\n(mean and sd: over the splits' values; pooled: the metric of all test predictions together;\n"
         " interval: of the mean, corrected resampled t, Nadeau & Bengio 2003)\n";
  if (per_fold) {
    out += fmt::format("\n{:>5}  {:>6}  {:>6}  {:>6}", "split", "repeat", "train", "test");
    for (const auto& s : r.summary) out += fmt::format("  {:>{}}", s.name, std::max<std::size_t>(8, s.name.size()));
    out += fmt::format("  {:>9}\n", "fit s");
    for (const auto& f : r.folds) {
      out += fmt::format("{:>5}  {:>6}  {:>6}  {:>6}", f.split, f.repeat, f.train_rows, f.test_rows);
      for (std::size_t m = 0; m < r.summary.size(); ++m) {
        const auto& v = f.test[m];
        out += fmt::format("  {:>{}}", v.defined() ? fmt::format("{:.4f}", v.v) : "undef",
                           std::max<std::size_t>(8, r.summary[m].name.size()));
      }
      out += fmt::format("  {:>9.4f}\n", f.fit_seconds);
    }
  }
  for (const auto& s : r.summary) {
    if (!s.pooled.defined()) out += fmt::format("note: pooled {} is {}\n", s.name, show(s.pooled));
  }
  for (const auto& n : r.notes) out += "note: " + n + "\n";
  return out;
}

std::string to_text(const bias_variance_result& r) {
  const bool sq = r.loss == "squared";
  std::string out = fmt::format(
      "Bias-variance decomposition of {} ({} loss), {} bootstrap training sets of {} rows, {} test rows\n"
      "expected loss:  {:.6g}\n"
      "{}{:.6g}\n"
      "variance:       {:.6g}\n",
      r.learner, sq ? "squared" : "0-1", r.rounds, r.train_rows, r.test_rows, r.expected_loss,
      sq ? "bias^2:         " : "bias:           ", r.bias, r.variance);
  if (!sq) {
    out +=
        fmt::format("net variance:   {:.6g}  (expected loss = bias + net variance; Domingos 2000)\n", r.net_variance);
  } else {
    out += "(expected loss = bias^2 + variance; noise is included in bias^2)\n";
  }
  return out;
}

std::string to_text(const bootstrap_estimate& r) {
  return fmt::format(
      "Bootstrap error estimates of {} ({} loss), {} bootstrap samples (Efron & Tibshirani 1997)\n"
      "training (resubstitution) error:   {:.6g}\n"
      "leave-one-out bootstrap Err(1):    {:.6g}{}\n"
      "no-information error gamma:        {:.6g}\n"
      "relative overfitting rate R':      {:.6g}\n"
      ".632 estimate:                     {:.6g}\n"
      ".632+ estimate:                    {:.6g}\n",
      r.learner, r.loss == "squared" ? "squared" : "0-1", r.repeats, r.err_train, r.err_oob,
      r.cases_never_out ? fmt::format("  ({} cases never out of bag, left out)", r.cases_never_out) : "", r.gamma,
      r.relative_overfit, r.err_632, r.err_632plus);
}

std::string to_text(const learner_comparison& r) {
  auto show = [](const value& v) { return v.defined() ? fmt::format("{:.4g}", v.v) : "undefined (" + v.reason + ")"; };
  std::string out = fmt::format("Comparison of A = {} and B = {} on {} splits ({})\n", r.learner_a, r.learner_b,
                                r.a.size(), r.metric);
  out += fmt::format("mean A {:.4f}, mean B {:.4f}, mean difference A - B {:.4f} (sd {})\n\n",
                     r.result_a.summary[0].mean.v, r.result_b.summary[0].mean.v, r.tests.mean_difference,
                     show(r.tests.sd));
  for (auto [name, t] : {std::pair{"paired t-test (optimistic for CV)", &r.tests.paired},
                         {"corrected resampled t-test", &r.tests.corrected},
                         {"5x2cv paired t-test", &r.tests.five_by_two}}) {
    out += fmt::format("{:<34}  t = {:<12}  df = {:<4}  p = {}\n", name, show(t->t), show(t->df), show(t->p_value));
  }
  return out;
}

std::string to_text(const learning_curve_result& r) {
  std::string out =
      fmt::format("Learning curve of {} over {} splits (mean +- sd over the splits)\n", r.learner, r.splits);
  if (r.points.empty()) return out;
  for (std::size_t m = 0; m < r.points[0].test.size(); ++m) {
    out += fmt::format("\n{}\n{:>6}  {:>10}  {:>21}  {:>21}\n", r.points[0].test[m].name, "share", "train rows",
                       "train score", "test score");
    for (const auto& p : r.points) {
      auto cell = [](const metric_summary& s) {
        if (!s.mean.defined()) return std::string("undefined");
        return fmt::format("{:.4f} +- {}", s.mean.v, s.sd.defined() ? fmt::format("{:.4f}", s.sd.v) : "undef");
      };
      out +=
          fmt::format("{:>6.3f}  {:>10}  {:>21}  {:>21}\n", p.share, p.train_rows, cell(p.train[m]), cell(p.test[m]));
    }
  }
  return out;
}

std::string to_text(const lesion_result& r) {
  auto show = [](const value& v) { return v.defined() ? fmt::format("{:.4f}", v.v) : std::string("undefined"); };
  std::string out = fmt::format(
      "Lesion study of {} ({}), {} splits (train ~{}, test ~{} rows)\nwith every feature: {}\n\n"
      "{:<16}  {:>10}  {:>10}  {:>23}  columns\n",
      r.learner, r.metric, r.splits, r.mean_train, r.mean_test, show(r.full), "group removed", "score", "drop",
      fmt::format("{:.0f}% interval", r.confidence * 100));
  for (const auto& e : r.entries) {
    out += fmt::format("{:<16}  {:>10}  {:>10.4f}  {:>23}  {}\n", e.group.name, show(e.lesioned), e.drop,
                       e.low.defined() ? fmt::format("[{:.4f}, {:.4f}]", e.low.v, e.high.v) : "undefined",
                       fmt::join(e.group.columns, ","));
  }
  out += "\n(drop > 0: worse without the group; interval: corrected resampled t, Nadeau & Bengio 2003)\n";
  return out;
}

std::string to_text(const nested_cv_result& r) {
  auto show = [](const value& v) { return v.defined() ? fmt::format("{:.4f}", v.v) : std::string("undefined"); };
  std::string out = fmt::format(
      "Nested cross-validation of {} choosing {} by inner CV ({}), {} outer splits\n"
      "outer estimate: mean {}, sd {}\n\n{:>5}  {:>10}  {:>10}",
      r.learner, r.param, r.metric, r.outer.size(), show(r.summary.mean), show(r.summary.sd), "split", "chosen",
      "outer");
  for (const auto& v : r.values) out += fmt::format("  {:>10}", fmt::format("{}={}", r.param, v));
  out += "\n";
  for (std::size_t s = 0; s < r.outer.size(); ++s) {
    out += fmt::format("{:>5}  {:>10}  {:>10}", s, r.chosen[s], show(r.outer[s]));
    for (const auto& m : r.inner[s]) out += fmt::format("  {:>10}", show(m));
    out += "\n";
  }
  out += "\n(the inner columns are inner cross-validated means; only the outer estimate is unbiased)\n";
  return out;
}

std::string to_text(const permutation_result& r) {
  double m = 0, ss = 0;
  std::size_t n = 0;
  for (double s : r.permuted)
    if (!std::isnan(s)) {
      m += s;
      ++n;
    }
  if (n) m /= static_cast<double>(n);
  for (double s : r.permuted)
    if (!std::isnan(s)) ss += (s - m) * (s - m);
  return fmt::format(
      "Permutation test of {} ({}), {} permutations of the labels\n"
      "score on the real labels:  {:.4f}\n"
      "score on permuted labels:  mean {:.4f}, sd {:.4f}\n"
      "p-value:                   {:.4g}  (1 + permutations scoring as well or better) / (permutations + 1)\n",
      r.learner, r.metric, r.permuted.size(), r.score, m, n > 1 ? std::sqrt(ss / static_cast<double>(n - 1)) : 0.0,
      r.p_value);
}

std::string to_text(const validation_curve_result& r) {
  std::string out = fmt::format("Validation curve of {} over {} ({} splits; mean +- sd over the splits)\n", r.learner,
                                r.param, r.splits);
  if (r.points.empty()) return out;
  auto cell = [](const metric_summary& s) {
    if (!s.mean.defined()) return std::string("undefined");
    return fmt::format("{:.4f} +- {}", s.mean.v, s.sd.defined() ? fmt::format("{:.4f}", s.sd.v) : "undef");
  };
  for (std::size_t m = 0; m < r.points[0].test.size(); ++m) {
    out +=
        fmt::format("\n{}\n{:>12}  {:>21}  {:>21}\n", r.points[0].test[m].name, r.param, "train score", "test score");
    for (const auto& p : r.points)
      out += fmt::format("{:>12}  {:>21}  {:>21}\n", p.value, cell(p.train[m]), cell(p.test[m]));
  }
  return out;
}

}  // namespace assay::validation
