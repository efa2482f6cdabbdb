#include "assay/validation/lesion.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/error.hpp"
#include "assay/stats/learner_tests.hpp"

namespace assay::validation {

feature_group parse_feature_group(const std::string& spec) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
    throw_usage(fmt::format("{}: \"{}\" is not NAME=col1,col2,...", param("group_features"), spec));
  }
  feature_group g;
  g.name = spec.substr(0, eq);
  std::size_t pos = eq + 1;
  while (pos <= spec.size()) {
    auto comma = spec.find(',', pos);
    if (comma == std::string::npos) comma = spec.size();
    if (comma > pos) g.columns.push_back(spec.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return g;
}

lesion_result lesion_study(const dataset& d, const any_learner& learner, const split_list& splits,
                           const std::vector<feature_group>& groups, const cv_options& options, double confidence) {
  if (groups.empty()) throw_usage(fmt::format("lesion study: no feature groups (use {} NAME=col1,col2)", param("group_features")));
  if (!(confidence > 0 && confidence < 1))
    throw_usage(fmt::format("lesion study: confidence {} is not in (0, 1)", confidence));
  cv_options o = options;
  o.keep_predictions = false;
  if (o.metrics.size() > 1) o.metrics.resize(1);
  const auto full = cross_validate(d, learner, splits, o);
  lesion_result r;
  r.learner = learner.name();
  r.metric = full.summary[0].name;
  r.confidence = confidence;
  r.splits = splits.size();
  r.full = full.summary[0].mean;
  double tr = 0, te = 0;
  for (const auto& s : splits) {
    tr += static_cast<double>(s.train.size());
    te += static_cast<double>(s.test.size());
  }
  r.mean_train = static_cast<std::size_t>(std::llround(tr / static_cast<double>(splits.size())));
  r.mean_test = static_cast<std::size_t>(std::llround(te / static_cast<double>(splits.size())));
  const double sign = full.summary[0].higher_is_better ? 1.0 : -1.0;
  o.metrics = {r.metric};
  for (const auto& g : groups) {
    dataset less = d;
    for (const auto& c : g.columns) {
      auto it = std::find_if(less.features.begin(), less.features.end(), [&](const auto& f) { return f.name == c; });
      if (it == less.features.end()) {
        throw_usage(fmt::format("lesion study: group {}: '{}' is not a feature column of {}", g.name, c, d.source));
      }
      less.features.erase(it);
    }
    const auto res = cross_validate(less, learner, splits, o);
    lesion_entry e;
    e.group = g;
    e.lesioned = res.summary[0].mean;
    std::vector<double> drops;
    for (std::size_t s = 0; s < splits.size(); ++s) {
      const value& a = full.folds[s].test[0];
      const value& b = res.folds[s].test[0];
      if (a.defined() && b.defined()) drops.push_back(sign * (a.v - b.v));
    }
    if (drops.empty()) {
      e.sd = e.low = e.high = value::undefined("the metric is undefined in every split");
      e.drop = std::nan("");
      r.entries.push_back(std::move(e));
      continue;
    }
    double m = 0;
    for (double x : drops) m += x;
    m /= static_cast<double>(drops.size());
    e.drop = m;
    if (drops.size() < 2) {
      e.sd = e.low = e.high = value::undefined("fewer than 2 splits");
    } else {
      double ss = 0;
      for (double x : drops) ss += (x - m) * (x - m);
      e.sd = std::sqrt(ss / static_cast<double>(drops.size() - 1));
      // The corrected resampled interval of stats (te / tr is the ratio of the mean part sizes).
      const auto ci = stats::corrected_resampled_interval(drops, tr, te, confidence);
      e.low = ci.lower;
      e.high = ci.upper;
    }
    r.entries.push_back(std::move(e));
  }
  return r;
}

}  // namespace assay::validation
