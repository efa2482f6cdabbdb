#include "assay/validation/compare_learners.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/error.hpp"
#include "assay/stats/learner_tests.hpp"

namespace assay::validation {

namespace {

/// A test of stats/learner_tests as shown by the validation commands: undefined, with the reason,
/// where the differences have no spread and the stats functions give t = +-inf.
t_test shown(const stats::test_result& r) {
  if (!std::isfinite(r.statistic)) {
    const char* why = "the differences have zero variance";
    return t_test{value::undefined(why), value::undefined(why), value::undefined(why)};
  }
  return t_test{r.statistic, r.df, r.p_value};
}

}  // namespace

split_difference_tests test_split_differences(std::span<const double> a, std::span<const double> b, double n_train, double n_test,
                                 std::size_t repeats, std::size_t folds) {
  if (a.size() != b.size()) throw_usage(fmt::format("compare: {} scores of A but {} of B", a.size(), b.size()));
  const std::size_t j = a.size();
  split_difference_tests c;
  std::vector<double> d(j);
  for (std::size_t i = 0; i < j; ++i) d[i] = a[i] - b[i];
  const auto undefined = [](const char* why) {
    return t_test{value::undefined(why), value::undefined(why), value::undefined(why)};
  };
  if (j < 2) {
    c.mean_difference = j == 1 ? d[0] : 0.0;
    c.sd = value::undefined("fewer than 2 splits");
    c.paired = c.corrected = c.five_by_two = undefined("fewer than 2 splits");
    return c;
  }
  // The tests themselves are those of stats/learner_tests.hpp (one implementation).
  const auto paired = stats::paired_t_test(d);
  c.mean_difference = paired.mean;
  double ss = 0;
  for (double x : d) ss += (x - paired.mean) * (x - paired.mean);
  const double sd = std::sqrt(ss / static_cast<double>(j - 1));
  c.sd = sd;
  if (!(sd > 0)) {
    c.paired = c.corrected = c.five_by_two = undefined("the differences have zero variance");
    if (!(repeats == 5 && folds == 2 && j == 10))
      c.five_by_two = undefined("needs 5 repeats of 2-fold cross-validation");
    return c;
  }
  c.paired = shown(paired.test);
  c.corrected = n_train > 0 && n_test > 0 ? shown(stats::corrected_resampled_t_test(d, n_train, n_test).test)
                                          : undefined("no training or no test cases");
  c.five_by_two = repeats == 5 && folds == 2 && j == 10
                      ? shown(stats::cv52_paired_t_test(d))
                      : undefined("needs 5 repeats of 2-fold cross-validation");
  return c;
}

learner_comparison compare_learners(const dataset& d, const any_learner& a, const any_learner& b,
                                    const split_list& splits, const cv_options& options) {
  cv_options o = options;
  o.keep_predictions = false;
  if (o.metrics.size() > 1) o.metrics.resize(1);
  learner_comparison r;
  r.result_a = cross_validate(d, a, splits, o);
  o.metrics = {r.result_a.summary[0].name};
  r.result_b = cross_validate(d, b, splits, o);
  r.learner_a = a.name();
  r.learner_b = b.name();
  r.metric = r.result_a.summary[0].name;
  r.higher_is_better = r.result_a.summary[0].higher_is_better;
  double tr = 0, te = 0;
  for (std::size_t s = 0; s < splits.size(); ++s) {
    const value& x = r.result_a.folds[s].test[0];
    const value& y = r.result_b.folds[s].test[0];
    if (!x.defined() || !y.defined()) {
      throw_data(
          fmt::format("compare: {} is undefined in split {} ({})", r.metric, s + 1, x.defined() ? y.reason : x.reason));
    }
    r.a.push_back(x.v);
    r.b.push_back(y.v);
    tr += static_cast<double>(splits[s].train.size());
    te += static_cast<double>(splits[s].test.size());
  }
  const std::size_t repeats = r.result_a.repeats;
  r.tests = test_split_differences(r.a, r.b, tr, te, repeats, splits.size() / std::max<std::size_t>(repeats, 1));
  return r;
}

}  // namespace assay::validation
