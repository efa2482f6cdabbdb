#include "assay/validation/validation_curve.hpp"

#include <fmt/format.h>

#include <cmath>

#include "assay/error.hpp"

namespace assay::validation {

validation_curve_result validation_curve(const dataset& d, const std::string& learner_spec, const std::string& param,
                                         const std::vector<std::string>& values, const split_list& splits,
                                         const cv_options& options) {
  if (param.empty() || values.empty()) {
    throw_usage(fmt::format("validation curve: needs {} and at least one {}", assay::param("param"),
                            assay::param("values")));
  }
  if (learner_spec.find(param + "=") != std::string::npos) {
    throw_usage(fmt::format("validation curve: {} {} already sets {}", assay::param("learner"), learner_spec, param));
  }
  validation_curve_result out;
  out.param = param;
  out.splits = splits.size();
  cv_options o = options;
  o.score_training = true;
  o.keep_predictions = false;
  for (const auto& v : values) {
    const std::string spec = learner_spec + (learner_spec.find(':') == std::string::npos ? ":" : ",") + param + "=" + v;
    const auto l = make_learner(spec, d.classification());
    out.learner = l.name();
    const auto r = cross_validate(d, l, splits, o);
    validation_curve_point p;
    p.value = v;
    for (std::size_t m = 0; m < r.summary.size(); ++m) {
      p.test.push_back(r.summary[m]);
      metric_summary t;
      t.name = r.summary[m].name;
      std::vector<double> x;
      for (const auto& f : r.folds)
        if (f.train[m].defined()) x.push_back(f.train[m].v);
      t.defined = x.size();
      t.pooled = value::undefined("not pooled");
      if (x.empty()) {
        t.mean = t.sd = value::undefined("undefined in every split");
      } else {
        double mean = 0, ss = 0;
        for (double e : x) mean += e / static_cast<double>(x.size());
        for (double e : x) ss += (e - mean) * (e - mean);
        t.mean = mean;
        t.sd = x.size() > 1 ? value(std::sqrt(ss / static_cast<double>(x.size() - 1)))
                            : value::undefined("fewer than 2 splits");
      }
      p.train.push_back(std::move(t));
    }
    out.points.push_back(std::move(p));
  }
  return out;
}

}  // namespace assay::validation
