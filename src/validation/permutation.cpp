#include "assay/validation/permutation.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "assay/error.hpp"

namespace assay::validation {

permutation_result permutation_test(const dataset& d, const any_learner& learner, const split_list& splits,
                                    const permutation_options& options) {
  if (options.permutations < 1) throw_usage(fmt::format("permutation test: {} must be at least 1", param("permutations")));
  cv_options o = options.cv;
  o.keep_predictions = false;
  if (o.metrics.size() > 1) o.metrics.resize(1);
  const auto base = cross_validate(d, learner, splits, o);
  permutation_result r;
  r.learner = learner.name();
  r.metric = base.summary[0].name;
  r.higher_is_better = base.summary[0].higher_is_better;
  if (!base.summary[0].mean.defined()) {
    throw_data(fmt::format("permutation test: {} is undefined on the real labels ({})", r.metric,
                           base.summary[0].mean.reason));
  }
  o.metrics = {r.metric};
  r.score = base.summary[0].mean.v;
  std::size_t as_good = 0;
  dataset shuffled = d;
  for (std::size_t i = 0; i < options.permutations; ++i) {
    rng g(derive_seed(options.seed, i));
    if (d.classification()) {
      shuffled.y_class = d.y_class;
      g.shuffle(shuffled.y_class);
    } else {
      shuffled.y_value = d.y_value;
      g.shuffle(shuffled.y_value);
    }
    const auto p = cross_validate(shuffled, learner, splits, o);
    const value& v = p.summary[0].mean;
    const double s = v.defined() ? v.v : std::nan("");
    r.permuted.push_back(s);
    // An undefined permuted score does not count as at least as good.
    if (v.defined() && (r.higher_is_better ? s >= r.score : s <= r.score)) ++as_good;
  }
  r.p_value = static_cast<double>(as_good + 1) / static_cast<double>(options.permutations + 1);
  return r;
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

std::string to_json(const permutation_result& r) {
  nlohmann::json j{{"learner", r.learner},
                   {"metric", r.metric},
                   {"score", r.score},
                   {"p_value", r.p_value},
                   {"permutations", r.permuted.size()}};
  auto& a = j["permuted_scores"] = nlohmann::json::array();
  for (double s : r.permuted) a.push_back(std::isnan(s) ? nlohmann::json(nullptr) : nlohmann::json(s));
  return j.dump(2) + "\n";
}

}  // namespace assay::validation
