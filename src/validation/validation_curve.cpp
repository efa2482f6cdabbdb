#include "assay/validation/validation_curve.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

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

std::string to_json(const validation_curve_result& r) {
  auto jv = [](const value& v) { return v.defined() ? nlohmann::json(v.v) : nlohmann::json(nullptr); };
  nlohmann::json j{{"learner", r.learner}, {"param", r.param}, {"splits", r.splits}};
  j["points"] = nlohmann::json::array();
  for (const auto& p : r.points) {
    nlohmann::json o{{"value", p.value}};
    for (std::size_t m = 0; m < p.test.size(); ++m) {
      o["test"][p.test[m].name] = {{"mean", jv(p.test[m].mean)}, {"sd", jv(p.test[m].sd)}};
      o["train"][p.train[m].name] = {{"mean", jv(p.train[m].mean)}, {"sd", jv(p.train[m].sd)}};
    }
    j["points"].push_back(o);
  }
  return j.dump(2) + "\n";
}

}  // namespace assay::validation
