// assay._core: tests and intervals of assay::stats (proportions, McNemar, Cochran's Q, DeLong, tests between
// learners (paired and corrected t, 5x2cv, Wilcoxon, Friedman + Nemenyi), a registered metric between two models,
// multiple-testing corrections). Results go to Python as plain tuples and dicts; python/assay/stats.py
// wraps them in result objects.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>

#include <cmath>
#include <fmt/format.h>

#include "assay/error.hpp"

#include "assay/stats/compare_models.hpp"
#include "assay/stats/delong.hpp"
#include "assay/stats/learner_tests.hpp"
#include "assay/stats/multiple.hpp"
#include "assay/stats/proportion.hpp"
#include "assay/stats/tests.hpp"
#include "assay/stats/two_proportions.hpp"
#include "common.hpp"

namespace assay::python {
namespace {

/// A value as (number, reason): NaN and the reason when undefined.
std::tuple<double, std::string> pair_of(const value& v) {
  return {v.defined() ? v.v : std::nan(""), v.reason};
}

nb::dict test_dict(const stats::test_result& t) {
  nb::dict d;
  d["method"] = t.method;
  d["statistic"] = t.statistic;
  d["pvalue"] = t.p_value;
  d["df"] = t.df;
  d["df2"] = t.df2;
  return d;
}

nb::dict t_dict(const stats::t_test_result& r) {
  nb::dict d = test_dict(r.test);
  d["mean"] = r.mean;
  d["std_error"] = r.std_error;
  return d;
}

/// The (lower, upper) of the corrected resampled interval; n_test = 0 gives the plain t interval.
std::tuple<double, double> t_interval(std::span<const double> deltas, double n_train, double n_test,
                                      double level) {
  const auto ci = stats::corrected_resampled_interval(deltas, n_train, n_test, level);
  return {ci.lower, ci.upper};
}

std::vector<double> differences(std::span<const double> a, std::span<const double> b, std::string_view fn) {
  if (a.size() != b.size()) throw_usage(fmt::format("{}: a has {} values but b has {}", fn, a.size(), b.size()));
  std::vector<double> d(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
  return d;
}

/// Intervals and tests of proportions: one proportion, two independent ones, McNemar's test of
/// paired ones, Cochran's Q of several paired ones (proportion.hpp, two_proportions.hpp, tests.hpp).
void bind_proportion_tests(nb::module_& m) {
  m.def(
      "proportion_ci",
      [](double x, double n, double level, std::string_view method) {
        const auto r = stats::proportion_ci(x, n, level, stats::parse_proportion_method(method, "method"));
        return std::make_tuple(r.estimate, r.lower, r.upper, std::string(stats::to_string(r.method)));
      },
      nb::arg("x"), nb::arg("n"), nb::arg("level"), nb::arg("method"));

  m.def(
      "two_proportions",
      [](double x1, double n1, double x2, double n2, double level, std::string_view alternative) {
        const auto r = stats::compare_two_proportions(x1, n1, x2, n2, level,
                                                      stats::parse_alternative(alternative, "alternative"));
        nb::dict d = test_dict(r.z_test.test);
        d["z_test_undefined"] = r.z_test.undefined;
        d["difference"] = r.difference;
        d["p1"] = r.p1;
        d["p2"] = r.p2;
        d["wald_ci"] = std::make_tuple(r.wald.lower, r.wald.upper);
        d["newcombe_ci"] = std::make_tuple(r.newcombe.lower, r.newcombe.upper);
        d["wald_std_error"] = r.wald_std_error;
        d["fisher_odds_ratio"] = r.has_fisher ? r.fisher.statistic : std::nan("");
        d["fisher_pvalue"] = r.has_fisher ? r.fisher.p_value : std::nan("");
        return d;
      },
      nb::arg("x1"), nb::arg("n1"), nb::arg("x2"), nb::arg("n2"), nb::arg("level"), nb::arg("alternative"));

  m.def(
      "mcnemar",
      [](std::int64_t n01, std::int64_t n10, std::string_view method) {
        stats::mcnemar_method mm = stats::mcnemar_method::exact;
        if (method == "chi2_corrected") {
          mm = stats::mcnemar_method::chi2_corrected;
        } else if (method == "chi2") {
          mm = stats::mcnemar_method::chi2;
        } else if (method != "exact") {
          throw_usage(fmt::format("mcnemar: method is '{}'; it must be 'exact', 'chi2_corrected' or 'chi2'", method));
        }
        return test_dict(stats::mcnemar(n01, n10, mm));
      },
      nb::arg("n01"), nb::arg("n10"), nb::arg("method"));

  m.def(
      "cochrans_q",
      [](in_array<std::int32_t> success, std::size_t rows, std::size_t k) {
        return test_dict(stats::cochrans_q(view(success), rows, k));
      },
      nb::arg("success"), nb::arg("rows"), nb::arg("k"));
}

/// DeLong's interval and test of ROC AUCs (delong.hpp), and the multiple-testing corrections
/// (multiple.hpp).
void bind_auc_tests(nb::module_& m) {
  m.def(
      "delong_ci",
      [](in_array<std::int32_t> y, in_array<double> score, double level) {
        stats::auc_interval r;
        {
          nb::gil_scoped_release release;
          r = stats::delong_ci(view(y), view(score), level);
        }
        return std::make_tuple(pair_of(r.auc), pair_of(r.variance), pair_of(r.lower), pair_of(r.upper));
      },
      nb::arg("y"), nb::arg("score"), nb::arg("level"));

  m.def(
      "delong_test",
      [](in_array<std::int32_t> y_a, in_array<double> score_a, std::optional<in_array<std::int32_t>> y_b,
         in_array<double> score_b, std::string_view alternative, double level) {
        const auto alt = stats::parse_alternative(alternative, "alternative");
        stats::delong_test_result r;
        {
          nb::gil_scoped_release release;
          r = y_b ? stats::delong_unpaired_test(view(y_a), view(score_a), view(*y_b), view(score_b), alt)
                  : stats::delong_paired_test(view(y_a), view(score_a), view(score_b), alt, level);
        }
        nb::dict d = test_dict(r.test);
        d["auc_a"] = r.auc_a;
        d["auc_b"] = r.auc_b;
        d["difference"] = r.difference;
        d["std_error"] = r.std_error;
        d["ci"] = std::make_tuple(pair_of(r.diff_lower), pair_of(r.diff_upper));
        return d;
      },
      nb::arg("y_a"), nb::arg("score_a"), nb::arg("y_b").none(), nb::arg("score_b"), nb::arg("alternative"),
      nb::arg("level"));

  m.def(
      "adjust_p_values",
      [](in_array<double> p, std::string_view method) {
        return to_numpy(stats::adjust_p_values(view(p), stats::parse_p_adjust(method, "method")));
      },
      nb::arg("p"), nb::arg("method"));
}

/// Tests between learners on the same folds or repetitions (learner_tests.hpp).
void bind_learner_tests(nb::module_& m) {
  m.def(
      "paired_t_test",
      [](in_array<double> a, in_array<double> b, std::string_view alternative, double level) {
        const auto alt = stats::parse_alternative(alternative, "alternative");
        stats::t_test_result r;
        std::tuple<double, double> ci;
        {
          nb::gil_scoped_release release;
          const auto d = differences(view(a), view(b), "paired_ttest");
          r = stats::paired_t_test(d, alt);
          ci = t_interval(d, 1, 0, level);
        }
        nb::dict out = t_dict(r);
        out["ci"] = ci;
        return out;
      },
      nb::arg("a"), nb::arg("b"), nb::arg("alternative"), nb::arg("level"));

  m.def(
      "corrected_resampled_t_test",
      [](in_array<double> a, in_array<double> b, double n_train, double n_test, std::string_view alternative,
         double level) {
        const auto alt = stats::parse_alternative(alternative, "alternative");
        stats::t_test_result r;
        std::tuple<double, double> ci;
        {
          nb::gil_scoped_release release;
          const auto d = differences(view(a), view(b), "corrected_resampled_ttest");
          r = stats::corrected_resampled_t_test(d, n_train, n_test, alt);
          ci = t_interval(d, n_train, n_test, level);
        }
        nb::dict out = t_dict(r);
        out["ci"] = ci;
        return out;
      },
      nb::arg("a"), nb::arg("b"), nb::arg("n_train"), nb::arg("n_test"), nb::arg("alternative"), nb::arg("level"));

  m.def(
      "cv52_t_test",
      [](in_array<double> p, std::string_view alternative) {
        const auto alt = stats::parse_alternative(alternative, "alternative");
        return test_dict(stats::cv52_paired_t_test(view(p), alt));
      },
      nb::arg("p"), nb::arg("alternative"));

  m.def(
      "cv52_f_test", [](in_array<double> p) { return test_dict(stats::cv52_combined_f_test(view(p))); },
      nb::arg("p"));

  m.def(
      "wilcoxon",
      [](in_array<double> a, in_array<double> b, std::string_view zero_method, std::string_view mode,
         bool correction, std::string_view alternative) {
        stats::wilcoxon_options o;
        if (zero_method == "pratt") {
          o.zeros = stats::wilcoxon_zeros::pratt;
        } else if (zero_method == "zsplit") {
          o.zeros = stats::wilcoxon_zeros::zsplit;
        } else if (zero_method != "wilcox") {
          throw_usage(fmt::format("wilcoxon: zero_method is '{}'; it must be 'wilcox', 'pratt' or 'zsplit'",
                                  zero_method));
        }
        if (mode == "exact") {
          o.mode = stats::wilcoxon_mode::exact;
        } else if (mode == "approx") {
          o.mode = stats::wilcoxon_mode::approx;
        } else if (mode != "auto") {
          throw_usage(fmt::format("wilcoxon: method is '{}'; it must be 'auto', 'exact' or 'approx'", mode));
        }
        o.correction = correction;
        o.alt = stats::parse_alternative(alternative, "alternative");
        stats::test_result r;
        {
          nb::gil_scoped_release release;
          r = stats::wilcoxon(view(a), view(b), o);
        }
        return test_dict(r);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("zero_method"), nb::arg("mode"), nb::arg("correction"),
      nb::arg("alternative"));

  m.def(
      "friedman",
      [](in_array<double> data, std::size_t rows, std::size_t k, double alpha) {
        stats::friedman_result r;
        double q = 0, cd = 0;
        std::vector<double> p;
        {
          nb::gil_scoped_release release;
          r = stats::friedman(view(data), rows, k);
          q = stats::nemenyi_q(k, alpha);
          cd = stats::nemenyi_critical_difference(k, rows, alpha);
          p = stats::nemenyi_p_values(r.mean_ranks, rows);
        }
        nb::dict d = test_dict(r.test);
        d["mean_ranks"] = to_numpy(std::move(r.mean_ranks));
        d["nemenyi_pvalues"] = to_numpy_2d(std::move(p), k, k);
        d["nemenyi_q"] = q;
        d["critical_difference"] = cd;
        return d;
      },
      nb::arg("data"), nb::arg("rows"), nb::arg("k"), nb::arg("alpha"));
}

/// A registered metric between two models on the same cases (compare_models.hpp).
void bind_compare_metric(nb::module_& m) {
  m.def(
      "compare_metric",
      [](in_array<std::int32_t> y, std::optional<in_array<double>> score_a, std::optional<in_array<double>> score_b,
         std::optional<in_array<std::int32_t>> pred_a, std::optional<in_array<std::int32_t>> pred_b,
         std::string metric, double threshold, double level, std::size_t replicates, std::size_t permutations,
         std::uint64_t seed) {
        stats::compare_options o;
        o.threshold = threshold;
        o.alpha = 1 - level;
        o.metrics = {std::move(metric)};
        o.replicates = replicates;
        o.permutations = permutations;
        o.seed = seed;
        std::vector<stats::model_input> models(2);
        models[0].name = "a";
        models[1].name = "b";
        models[0].score = view(score_a);
        models[1].score = view(score_b);
        models[0].pred = view(pred_a);
        models[1].pred = view(pred_b);
        stats::metric_comparison mc;
        {
          const sigint_cancels interruptible;  // Ctrl-C stops the bootstrap and the permutations
          nb::gil_scoped_release release;
          auto c = stats::compare_models(view(y), models, o);
          mc = std::move(c.pairs.at(0).metrics.at(0));
        }
        const auto& bs = mc.bootstrap;
        nb::dict boot = test_dict(bs.test);
        boot["estimate_a"] = bs.estimate_a;
        boot["estimate_b"] = bs.estimate_b;
        boot["difference"] = bs.difference.estimate;
        boot["std_error"] = bs.difference.std_error;
        boot["ci"] = std::make_tuple(pair_of(bs.difference.lower), pair_of(bs.difference.upper));
        boot["replicates"] = bs.difference.replicates;
        boot["undefined_replicates"] = bs.difference.undefined_replicates;
        nb::dict perm;
        perm["method"] = std::string("paired_permutation");
        perm["statistic"] = mc.permutation.observed;
        perm["pvalue"] = mc.permutation.p_value;
        perm["extreme"] = mc.permutation.extreme;
        perm["permutations"] = mc.permutation.permutations;
        return std::make_tuple(boot, perm);
      },
      nb::arg("y"), nb::arg("score_a").none(), nb::arg("score_b").none(), nb::arg("pred_a").none(),
      nb::arg("pred_b").none(), nb::arg("metric"), nb::arg("threshold"), nb::arg("level"), nb::arg("replicates"),
      nb::arg("permutations"), nb::arg("seed"));
}

}  // namespace

void bind_stats(nb::module_& m) {
  bind_proportion_tests(m);
  bind_auc_tests(m);
  bind_learner_tests(m);
  bind_compare_metric(m);
}

}  // namespace assay::python
