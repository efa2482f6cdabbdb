#include "assay/validation/bootstrap_estimate.hpp"

#include <algorithm>
#include <numeric>

#include "assay/error.hpp"
#include "assay/validation/engine.hpp"

namespace assay::validation {

namespace {

double loss(const dataset& d, std::size_t row, const oof_prediction& p) {
  if (d.classification()) return p.cls == d.y_class[row] ? 0.0 : 1.0;
  const double e = p.value - d.y_value[row];
  return e * e;
}

}  // namespace

bootstrap_estimate bootstrap_632(const dataset& d, const any_learner& learner, std::size_t repeats, std::uint64_t seed,
                                 std::size_t threads) {
  const auto splits = bootstrap(d.rows, repeats, seed);
  cv_options o;
  o.threads = threads;
  o.metrics = {d.classification() ? "accuracy" : "mean_squared_error"};
  const auto r = cross_validate(d, learner, splits, o);
  bootstrap_estimate e;
  e.learner = learner.name();
  e.loss = d.classification() ? "zero_one" : "squared";
  e.repeats = repeats;
  std::vector<double> sum(d.rows, 0.0), count(d.rows, 0.0);
  for (const auto& p : r.oof) {
    sum[p.row] += loss(d, p.row, p);
    count[p.row] += 1;
  }
  double err1 = 0, used = 0;
  for (std::size_t i = 0; i < d.rows; ++i) {
    if (count[i] == 0) {
      ++e.cases_never_out;
      continue;
    }
    err1 += sum[i] / count[i];
    used += 1;
  }
  if (used == 0) throw_data("bootstrap .632: no case was ever out of bag; use more repeats");
  e.err_oob = err1 / used;

  // Resubstitution: train on every row, predict every row.
  std::vector<std::size_t> all(d.rows);
  std::iota(all.begin(), all.end(), std::size_t{0});
  feature_encoder enc;
  enc.fit(d, all, learner.preprocessing());
  const matrix x = enc.transform(d, all);
  const std::size_t k = d.classification() ? d.classes.size() : 0;
  const auto pred = learner.fit(training_set{x, d.y_class, k, d.y_value}).predict(x);
  double err = 0;
  if (k) {
    std::vector<double> p(k, 0), q(k, 0);
    for (std::size_t i = 0; i < d.rows; ++i) {
      err += pred.cls[i] == d.y_class[i] ? 0 : 1;
      p[static_cast<std::size_t>(d.y_class[i])] += 1;
      q[static_cast<std::size_t>(pred.cls[i])] += 1;
    }
    const double n = static_cast<double>(d.rows);
    for (std::size_t c = 0; c < k; ++c) e.gamma += (p[c] / n) * (1 - q[c] / n);
    err /= n;
  } else {
    for (std::size_t i = 0; i < d.rows; ++i) err += (pred.value[i] - d.y_value[i]) * (pred.value[i] - d.y_value[i]);
    err /= static_cast<double>(d.rows);
    // mean over all (i, j) of (y_i - yhat_j)^2 = mean(y^2) - 2 mean(y) mean(yhat) + mean(yhat^2).
    double my = 0, my2 = 0, mp = 0, mp2 = 0;
    for (std::size_t i = 0; i < d.rows; ++i) {
      my += d.y_value[i];
      my2 += d.y_value[i] * d.y_value[i];
      mp += pred.value[i];
      mp2 += pred.value[i] * pred.value[i];
    }
    const double n = static_cast<double>(d.rows);
    e.gamma = my2 / n - 2 * (my / n) * (mp / n) + mp2 / n;
  }
  e.err_train = err;
  e.err_632 = 0.368 * err + 0.632 * e.err_oob;
  const double err1c = std::min(e.err_oob, e.gamma);
  e.relative_overfit = e.err_oob > err && e.gamma > err ? (err1c - err) / (e.gamma - err) : 0.0;
  const double wt = 0.632 / (1 - 0.368 * e.relative_overfit);
  e.err_632plus = (1 - wt) * err + wt * err1c;
  return e;
}

}  // namespace assay::validation
