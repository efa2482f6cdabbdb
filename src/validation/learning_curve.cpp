#include "assay/validation/learning_curve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/error.hpp"

namespace assay::validation {

namespace {

metric_summary summarise(const std::string& name, const std::vector<value>& v) {
  metric_summary s;
  s.name = name;
  std::vector<double> x;
  for (const auto& e : v)
    if (e.defined()) x.push_back(e.v);
  s.defined = x.size();
  s.pooled = value::undefined("not pooled");
  if (x.empty()) {
    s.mean = s.sd = value::undefined("undefined in every split");
    return s;
  }
  double m = 0;
  for (double e : x) m += e;
  m /= static_cast<double>(x.size());
  s.mean = m;
  if (x.size() < 2) {
    s.sd = value::undefined("fewer than 2 splits");
  } else {
    double ss = 0;
    for (double e : x) ss += (e - m) * (e - m);
    s.sd = std::sqrt(ss / static_cast<double>(x.size() - 1));
  }
  return s;
}

}  // namespace

learning_curve_result learning_curve(const dataset& d, const any_learner& learner, const split_list& splits,
                                     const learning_curve_options& options) {
  if (options.sizes.empty()) throw_usage("learning curve: no training sizes");
  learning_curve_result out;
  out.learner = learner.name();
  out.splits = splits.size();
  // One permutation of each split's training rows, shared by all sizes (nested subsets).
  std::vector<std::vector<std::size_t>> order(splits.size());
  for (std::size_t s = 0; s < splits.size(); ++s) {
    order[s] = splits[s].train;
    rng g(derive_seed(options.seed, s));
    g.shuffle(order[s]);
  }
  for (double share : options.sizes) {
    if (!(share > 0 && share <= 1)) throw_usage(fmt::format("learning_curve: {}: {} is not in (0, 1]", param("sizes"), share));
    split_list sub = splits;
    double rows = 0;
    for (std::size_t s = 0; s < splits.size(); ++s) {
      const auto m = static_cast<std::size_t>(std::llround(share * static_cast<double>(order[s].size())));
      if (m < 2) {
        throw_usage(fmt::format("learning_curve: {}: {} of {} training rows is fewer than 2 rows", param("sizes"), share,
                                order[s].size()));
      }
      sub[s].train.assign(order[s].begin(), order[s].begin() + static_cast<long>(m));
      std::sort(sub[s].train.begin(), sub[s].train.end());
      rows += static_cast<double>(m);
    }
    cv_options o = options.cv;
    o.score_training = true;
    o.keep_predictions = false;
    const auto r = cross_validate(d, learner, sub, o);
    learning_curve_point p;
    p.share = share;
    p.train_rows = static_cast<std::size_t>(std::llround(rows / static_cast<double>(splits.size())));
    for (std::size_t m = 0; m < r.summary.size(); ++m) {
      std::vector<value> tr;
      for (const auto& f : r.folds) tr.push_back(f.train[m]);
      p.test.push_back(r.summary[m]);
      p.train.push_back(summarise(r.summary[m].name, tr));
      p.train.back().title = r.summary[m].title;
      p.train.back().higher_is_better = r.summary[m].higher_is_better;
    }
    out.points.push_back(std::move(p));
  }
  return out;
}

}  // namespace assay::validation
