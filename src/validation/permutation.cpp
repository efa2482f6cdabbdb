#include "assay/validation/permutation.hpp"

#include <fmt/format.h>

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

}  // namespace assay::validation
