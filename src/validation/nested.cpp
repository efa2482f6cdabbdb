#include "assay/validation/nested.hpp"

#include <fmt/format.h>

#include <cmath>

#include "assay/error.hpp"

namespace assay::validation {

nested_cv_result nested_cv(const dataset& d, const std::string& learner_spec, const std::string& param,
                           const std::vector<std::string>& values, const split_list& outer, const split_request& inner,
                           const cv_options& options) {
  if (param.empty() || values.empty()) {
    throw_usage(fmt::format("nested cross-validation: needs {} and {}", assay::param("param"), assay::param("values")));
  }
  nested_cv_result r;
  r.param = param;
  r.values = values;
  std::vector<any_learner> learners;
  for (const auto& v : values) {
    learners.push_back(
        make_learner(learner_spec + (learner_spec.find(':') == std::string::npos ? ":" : ",") + param + "=" + v,
                     d.classification()));
  }
  r.learner = learners[0].name();
  cv_options o = options;
  o.keep_predictions = false;
  if (o.metrics.size() > 1) o.metrics.resize(1);
  for (std::size_t s = 0; s < outer.size(); ++s) {
    const auto& tr = outer[s].train;
    std::vector<std::int32_t> yc, groups;
    std::vector<double> yv;
    for (auto i : tr) {
      if (d.classification())
        yc.push_back(d.y_class[i]);
      else
        yv.push_back(d.y_value[i]);
      if (!d.groups.empty()) groups.push_back(d.groups[i]);
    }
    split_list in;
    try {
      in = make_splits(inner, tr.size(), yc, yv, groups, "");
    } catch (const error& e) {
      throw error(e.kind(), fmt::format("inner splits of outer split {}: {}", s + 1, e.marked()));
    }
    for (auto& sp : in) {
      for (auto* part : {&sp.train, &sp.validation, &sp.test})
        for (auto& i : *part) i = tr[i];
    }
    std::vector<value> means;
    std::size_t best = 0;
    bool higher = true;
    for (std::size_t v = 0; v < values.size(); ++v) {
      const auto res = cross_validate(d, learners[v], in, o);
      r.metric = res.summary[0].name;
      higher = res.summary[0].higher_is_better;
      means.push_back(res.summary[0].mean);
      const value& m = means.back();
      const value& b = means[best];
      if (m.defined() && (!b.defined() || (higher ? m.v > b.v : m.v < b.v))) best = v;
    }
    if (!means[best].defined()) {
      throw_data(
          fmt::format("nested cross-validation: outer split {}: {} is undefined for every value", s + 1, r.metric));
    }
    r.inner.push_back(means);
    r.chosen.push_back(values[best]);
    o.metrics = {r.metric};
    const auto fin = cross_validate(d, learners[best], split_list{outer[s]}, o);
    r.outer.push_back(fin.folds[0].test[0]);
    r.summary.higher_is_better = higher;
  }
  r.summary.name = r.metric;
  std::vector<double> x;
  for (const auto& v : r.outer)
    if (v.defined()) x.push_back(v.v);
  r.summary.defined = x.size();
  r.summary.pooled = value::undefined("not computed for nested cross-validation");
  if (x.empty()) {
    r.summary.mean = r.summary.sd = value::undefined("undefined in every outer split");
  } else {
    double m = 0, ss = 0;
    for (double e : x) m += e / static_cast<double>(x.size());
    for (double e : x) ss += (e - m) * (e - m);
    r.summary.mean = m;
    r.summary.sd = x.size() > 1 ? value(std::sqrt(ss / static_cast<double>(x.size() - 1)))
                                : value::undefined("fewer than 2 outer splits");
  }
  return r;
}

}  // namespace assay::validation
