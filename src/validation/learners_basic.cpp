// Majority class, Gaussian naive Bayes, k-nearest neighbours and CART.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "assay/error.hpp"
#include "assay/validation/learners.hpp"

namespace assay::validation {

// ---- majority ----------------------------------------------------------------------------------

majority_learner::fitted majority_learner::fit(const training_set& t) const {
  fitted f;
  if (!t.classification()) {
    double s = 0;
    for (double y : t.y_value) s += y;
    f.mean = s / static_cast<double>(t.y_value.size());
    return f;
  }
  f.prior.assign(t.classes, 0);
  for (auto c : t.y_class) f.prior[static_cast<std::size_t>(c)] += 1;
  f.cls = static_cast<std::int32_t>(std::max_element(f.prior.begin(), f.prior.end()) - f.prior.begin());
  for (auto& p : f.prior) p /= static_cast<double>(t.y_class.size());
  return f;
}

predictions majority_learner::fitted::predict(const matrix& x) const {
  predictions p;
  if (prior.empty()) {
    p.value.assign(x.rows, mean);
    return p;
  }
  p.cls.assign(x.rows, cls);
  p.proba.reserve(x.rows * prior.size());
  for (std::size_t i = 0; i < x.rows; ++i) p.proba.insert(p.proba.end(), prior.begin(), prior.end());
  return p;
}

// ---- Gaussian naive Bayes ----------------------------------------------------------------------

gaussian_nb_learner::fitted gaussian_nb_learner::fit(const training_set& t) const {
  if (!t.classification()) throw_usage("learner gaussian_nb: classification only");
  const matrix& x = t.x;
  fitted f;
  f.classes = t.classes;
  f.d = x.cols;
  const std::size_t k = t.classes, d = x.cols, n = x.rows;
  std::vector<double> count(k, 0);
  f.mean.assign(k * d, 0);
  f.var.assign(k * d, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<std::size_t>(t.y_class[i]);
    count[c] += 1;
    for (std::size_t j = 0; j < d; ++j) f.mean[c * d + j] += x(i, j);
  }
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t j = 0; j < d; ++j)
      if (count[c] > 0) f.mean[c * d + j] /= count[c];
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<std::size_t>(t.y_class[i]);
    for (std::size_t j = 0; j < d; ++j) {
      const double e = x(i, j) - f.mean[c * d + j];
      f.var[c * d + j] += e * e;
    }
  }
  // eps = var_smoothing * the largest population variance of a feature over all training rows.
  double max_var = 0;
  for (std::size_t j = 0; j < d; ++j) {
    double m = 0, ss = 0;
    for (std::size_t i = 0; i < n; ++i) m += x(i, j);
    m /= static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i) ss += (x(i, j) - m) * (x(i, j) - m);
    max_var = std::max(max_var, ss / static_cast<double>(n));
  }
  // Every feature constant: no feature carries information; any positive variance gives equal
  // likelihoods for all classes, so the prior decides (scikit-learn divides by zero here).
  const double eps = max_var > 0 ? var_smoothing * max_var : 1.0;
  f.log_prior.assign(k, -std::numeric_limits<double>::infinity());
  for (std::size_t c = 0; c < k; ++c) {
    if (count[c] == 0) continue;
    f.log_prior[c] = std::log(count[c] / static_cast<double>(n));
    for (std::size_t j = 0; j < d; ++j) f.var[c * d + j] = f.var[c * d + j] / count[c] + eps;
  }
  for (std::size_t c = 0; c < k; ++c) {
    if (count[c] > 0) continue;
    for (std::size_t j = 0; j < d; ++j) f.var[c * d + j] = 1;  // unused: the class has probability 0
  }
  return f;
}

predictions gaussian_nb_learner::fitted::predict(const matrix& x) const {
  predictions p;
  p.cls.resize(x.rows);
  p.proba.resize(x.rows * classes);
  std::vector<double> jll(classes);
  constexpr double log_2pi = 1.8378770664093453;
  for (std::size_t i = 0; i < x.rows; ++i) {
    double top = -std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < classes; ++c) {
      if (std::isinf(log_prior[c])) {
        jll[c] = log_prior[c];
        continue;
      }
      double s = log_prior[c];
      for (std::size_t j = 0; j < d; ++j) {
        const double v = var[c * d + j], e = x(i, j) - mean[c * d + j];
        s -= 0.5 * (log_2pi + std::log(v)) + 0.5 * e * e / v;
      }
      jll[c] = s;
      top = std::max(top, s);
    }
    double z = 0;
    for (std::size_t c = 0; c < classes; ++c) z += std::exp(jll[c] - top);
    std::size_t best = 0;
    for (std::size_t c = 0; c < classes; ++c) {
      p.proba[i * classes + c] = std::exp(jll[c] - top) / z;
      if (jll[c] > jll[best]) best = c;
    }
    p.cls[i] = static_cast<std::int32_t>(best);
  }
  return p;
}

// ---- k-nearest neighbours ----------------------------------------------------------------------

knn_learner::fitted knn_learner::fit(const training_set& t) const {
  if (k < 1) throw_usage("learner knn: k must be >= 1");
  if (k > t.x.rows) {
    throw_usage("learner knn: k = " + std::to_string(k) + " is more than the " + std::to_string(t.x.rows) +
                " training rows");
  }
  fitted f;
  f.k = k;
  f.classes = t.classes;
  f.distance_weights = distance_weights;
  f.x = t.x;
  f.y_class.assign(t.y_class.begin(), t.y_class.end());
  f.y_value.assign(t.y_value.begin(), t.y_value.end());
  return f;
}

predictions knn_learner::fitted::predict(const matrix& q) const {
  predictions p;
  const std::size_t n = x.rows, d = x.cols;
  std::vector<std::pair<double, std::size_t>> dist(n);
  if (classes > 0) {
    p.cls.resize(q.rows);
    p.proba.assign(q.rows * classes, 0);
  } else {
    p.value.resize(q.rows);
  }
  std::vector<double> w(k);
  for (std::size_t i = 0; i < q.rows; ++i) {
    const auto qi = q.row(i);
    for (std::size_t r = 0; r < n; ++r) {
      double s = 0;
      const double* xr = x.data.data() + r * d;
      for (std::size_t j = 0; j < d; ++j) s += (qi[j] - xr[j]) * (qi[j] - xr[j]);
      dist[r] = {s, r};
    }
    std::partial_sort(dist.begin(), dist.begin() + static_cast<long>(k), dist.end());
    bool exact = false;
    for (std::size_t m = 0; m < k; ++m) exact = exact || dist[m].first == 0;
    for (std::size_t m = 0; m < k; ++m) {
      if (!distance_weights)
        w[m] = 1;
      else if (exact)
        w[m] = dist[m].first == 0 ? 1 : 0;
      else
        w[m] = 1 / std::sqrt(dist[m].first);
    }
    const double total = std::accumulate(w.begin(), w.end(), 0.0);
    if (classes > 0) {
      double* pr = p.proba.data() + i * classes;
      for (std::size_t m = 0; m < k; ++m) pr[y_class[dist[m].second]] += w[m];
      std::size_t best = 0;
      for (std::size_t c = 0; c < classes; ++c) {
        if (pr[c] > pr[best]) best = c;
      }
      for (std::size_t c = 0; c < classes; ++c) pr[c] /= total;
      p.cls[i] = static_cast<std::int32_t>(best);
    } else {
      double s = 0;
      for (std::size_t m = 0; m < k; ++m) s += w[m] * y_value[dist[m].second];
      p.value[i] = s / total;
    }
  }
  return p;
}

// ---- CART --------------------------------------------------------------------------------------

namespace {

struct tree_builder {
  const training_set& t;
  const tree_learner& opt;
  std::vector<tree_learner::node> nodes;

  std::vector<double> leaf_value(const std::vector<std::size_t>& rows) const {
    if (t.classification()) {
      std::vector<double> dist(t.classes, 0);
      for (auto r : rows) dist[static_cast<std::size_t>(t.y_class[r])] += 1;
      for (auto& v : dist) v /= static_cast<double>(rows.size());
      return dist;
    }
    double s = 0;
    for (auto r : rows) s += t.y_value[r];
    return {s / static_cast<double>(rows.size())};
  }

  // Impurity times size: Gini n(1 - sum p^2) = n - sum c^2 / n, or the sum of squared errors.
  struct stats {
    std::vector<double> count;
    double n = 0, sum = 0, sum2 = 0;
    void add(const training_set& ts, std::size_t r, double sign) {
      n += sign;
      if (ts.classification())
        count[static_cast<std::size_t>(ts.y_class[r])] += sign;
      else {
        sum += sign * ts.y_value[r];
        sum2 += sign * ts.y_value[r] * ts.y_value[r];
      }
    }
    [[nodiscard]] double cost(bool classification) const {
      if (n <= 0) return 0;
      if (classification) {
        double s = 0;
        for (double c : count) s += c * c;
        return n - s / n;
      }
      return sum2 - sum * sum / n;
    }
  };

  std::int32_t build(std::vector<std::size_t> rows, std::size_t depth) {
    const auto id = static_cast<std::int32_t>(nodes.size());
    nodes.emplace_back();
    const bool cls = t.classification();
    stats all{std::vector<double>(t.classes, 0)};
    for (auto r : rows) all.add(t, r, 1);
    const double parent = all.cost(cls);
    const bool can_split = rows.size() >= opt.min_samples_split && rows.size() >= 2 * opt.min_samples_leaf &&
                           (opt.max_depth == 0 || depth < opt.max_depth) &&
                           parent > 1e-12 * static_cast<double>(rows.size());
    double best = parent - 1e-12 * std::max(1.0, std::abs(parent));
    std::int32_t best_feature = -1;
    double best_threshold = 0;
    if (can_split) {
      std::vector<std::size_t> order = rows;
      for (std::size_t j = 0; j < t.x.cols; ++j) {
        std::sort(order.begin(), order.end(), [&](auto a, auto b) { return t.x(a, j) < t.x(b, j); });
        stats left{std::vector<double>(t.classes, 0)}, right = all;
        for (std::size_t m = 0; m + 1 < order.size(); ++m) {
          left.add(t, order[m], 1);
          right.add(t, order[m], -1);
          const double a = t.x(order[m], j), b = t.x(order[m + 1], j);
          if (a == b || m + 1 < opt.min_samples_leaf || order.size() - m - 1 < opt.min_samples_leaf) continue;
          const double c = left.cost(cls) + right.cost(cls);
          if (c < best) {
            best = c;
            best_feature = static_cast<std::int32_t>(j);
            best_threshold = a + (b - a) / 2;
            if (best_threshold >= b) best_threshold = a;  // midpoint rounded up to b
          }
        }
      }
    }
    if (best_feature < 0) {
      nodes[static_cast<std::size_t>(id)].dist = leaf_value(rows);
      return id;
    }
    std::vector<std::size_t> l, r;
    for (auto row : rows) (t.x(row, static_cast<std::size_t>(best_feature)) <= best_threshold ? l : r).push_back(row);
    rows.clear();
    rows.shrink_to_fit();
    const auto left_id = build(std::move(l), depth + 1);
    const auto right_id = build(std::move(r), depth + 1);
    auto& nd = nodes[static_cast<std::size_t>(id)];
    nd.feature = best_feature;
    nd.threshold = best_threshold;
    nd.left = left_id;
    nd.right = right_id;
    return id;
  }
};

}  // namespace

tree_learner::fitted tree_learner::fit(const training_set& t) const {
  if (min_samples_leaf < 1) throw_usage("learner tree: min_samples_leaf must be >= 1");
  tree_builder b{t, *this, {}};
  std::vector<std::size_t> rows(t.x.rows);
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  b.build(std::move(rows), 0);
  fitted f;
  f.classes = t.classes;
  f.nodes = std::move(b.nodes);
  return f;
}

predictions tree_learner::fitted::predict(const matrix& x) const {
  predictions p;
  if (classes > 0) {
    p.cls.resize(x.rows);
    p.proba.resize(x.rows * classes);
  } else {
    p.value.resize(x.rows);
  }
  for (std::size_t i = 0; i < x.rows; ++i) {
    std::size_t id = 0;
    while (nodes[id].feature >= 0) {
      const auto& nd = nodes[id];
      id = static_cast<std::size_t>(x(i, static_cast<std::size_t>(nd.feature)) <= nd.threshold ? nd.left : nd.right);
    }
    const auto& dist = nodes[id].dist;
    if (classes > 0) {
      std::copy(dist.begin(), dist.end(), p.proba.begin() + static_cast<long>(i * classes));
      p.cls[i] = static_cast<std::int32_t>(std::max_element(dist.begin(), dist.end()) - dist.begin());
    } else {
      p.value[i] = dist[0];
    }
  }
  return p;
}

}  // namespace assay::validation
