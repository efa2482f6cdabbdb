// Logistic regression (Newton's method) and linear / ridge least squares, with Eigen.
#include <fmt/format.h>

#include <Eigen/Dense>
#include <cmath>

#include "assay/error.hpp"
#include "assay/validation/learners.hpp"

namespace assay::validation {

namespace {

using mat = Eigen::MatrixXd;
using vec = Eigen::VectorXd;

// [X, 1]: the design matrix with an intercept column.
mat with_intercept(const matrix& x) {
  mat a(static_cast<Eigen::Index>(x.rows), static_cast<Eigen::Index>(x.cols + 1));
  for (std::size_t i = 0; i < x.rows; ++i) {
    for (std::size_t j = 0; j < x.cols; ++j) a(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = x(i, j);
    a(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(x.cols)) = 1.0;
  }
  return a;
}

double log1pexp(double z) { return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z)); }

// Newton's method with Armijo backtracking on a smooth strictly convex objective.
template <class Objective>
vec newton(Objective& f, vec theta, std::size_t max_iter, double tol, const char* who) {
  for (std::size_t it = 0; it < max_iter; ++it) {
    vec g;
    mat h;
    const double value = f.eval(theta, &g, &h);
    if (g.lpNorm<Eigen::Infinity>() <= tol) return theta;
    const vec step = h.ldlt().solve(g);
    if (!step.allFinite()) throw_data(fmt::format("learner {}: the Newton step is not finite", who));
    double t = 1;
    const double slope = g.dot(step);
    while (t > 1e-12) {
      vec trial = theta - t * step;
      if (f.eval(trial, nullptr, nullptr) <= value - 1e-4 * t * slope) {
        theta = std::move(trial);
        break;
      }
      t /= 2;
    }
    if (t <= 1e-12) return theta;  // no further decrease representable: at the optimum to rounding
  }
  return theta;
}

struct binary_objective {
  const mat& a;
  vec y;  // 0/1
  double c;
  std::size_t d;
  double eval(const vec& th, vec* g, mat* h) const {
    const vec z = a * th;
    double f = 0;
    for (Eigen::Index i = 0; i < z.size(); ++i) f += c * (log1pexp(z(i)) - y(i) * z(i));
    f += 0.5 * th.head(static_cast<Eigen::Index>(d)).squaredNorm();
    if (g) {
      vec p = z.unaryExpr([](double v) { return 1 / (1 + std::exp(-v)); });
      *g = c * a.transpose() * (p - y);
      g->head(static_cast<Eigen::Index>(d)) += th.head(static_cast<Eigen::Index>(d));
      const vec wgt = c * p.cwiseProduct(vec::Ones(p.size()) - p);
      *h = a.transpose() * wgt.asDiagonal() * a;
      for (std::size_t j = 0; j < d; ++j) (*h)(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(j)) += 1;
    }
    return f;
  }
};

struct multinomial_objective {
  const mat& a;
  mat y;  // n x K one-hot
  double c;
  std::size_t d, k;
  mat probabilities(const vec& th, mat& z) const {
    const Eigen::Map<const mat> w(th.data(), static_cast<Eigen::Index>(d + 1), static_cast<Eigen::Index>(k));
    z = a * w;
    mat p(z.rows(), z.cols());
    for (Eigen::Index i = 0; i < z.rows(); ++i) {
      const double m = z.row(i).maxCoeff();
      p.row(i) = (z.row(i).array() - m).exp();
      p.row(i) /= p.row(i).sum();
    }
    return p;
  }
  double eval(const vec& th, vec* g, mat* h) const {
    mat z;
    const mat p = probabilities(th, z);
    double f = 0;
    for (Eigen::Index i = 0; i < z.rows(); ++i) {
      const double m = z.row(i).maxCoeff();
      f += c * (m + std::log((z.row(i).array() - m).exp().sum()) - z.row(i).dot(y.row(i)));
    }
    const auto dd = static_cast<Eigen::Index>(d), kk = static_cast<Eigen::Index>(k), stride = dd + 1;
    for (Eigen::Index j = 0; j < kk; ++j) f += 0.5 * th.segment(j * stride, dd).squaredNorm();
    if (g) {
      g->resize(th.size());
      h->setZero(th.size(), th.size());
      const mat r = c * a.transpose() * (p - y);  // (d+1) x K
      for (Eigen::Index j = 0; j < kk; ++j) {
        g->segment(j * stride, stride) = r.col(j);
        g->segment(j * stride, dd) += th.segment(j * stride, dd);
      }
      for (Eigen::Index j = 0; j < kk; ++j) {
        for (Eigen::Index l = 0; l <= j; ++l) {
          vec wgt = -p.col(j).cwiseProduct(p.col(l));
          if (j == l) wgt += p.col(j);
          const mat block = c * a.transpose() * wgt.asDiagonal() * a;
          h->block(j * stride, l * stride, stride, stride) = block;
          if (j != l) h->block(l * stride, j * stride, stride, stride) = block.transpose();
        }
        for (Eigen::Index q = 0; q < dd; ++q) (*h)(j * stride + q, j * stride + q) += 1;
        // The intercepts are unpenalised and a common shift of all of them changes nothing, so the
        // Hessian is singular along that direction; a tiny ridge picks one solution.
        (*h)(j * stride + dd, j * stride + dd) += 1e-10 * c * static_cast<double>(a.rows());
      }
    }
    return f;
  }
};

}  // namespace

logistic_learner::fitted logistic_learner::fit(const training_set& t) const {
  if (!t.classification()) throw_usage("learner logistic: classification only");
  if (!(c > 0)) throw_usage(fmt::format("learner logistic: C must be > 0, got {}", c));
  fitted f;
  f.classes = t.classes;
  f.d = t.x.cols;
  std::vector<std::size_t> count(t.classes, 0);
  for (auto y : t.y_class) ++count[static_cast<std::size_t>(y)];
  for (std::size_t k = 0; k < t.classes; ++k)
    if (count[k] > 0) f.present.push_back(static_cast<std::int32_t>(k));
  if (f.present.size() < 2) return f;  // one class: predicted with probability 1
  const mat a = with_intercept(t.x);
  const auto n = static_cast<Eigen::Index>(t.x.rows);
  if (f.present.size() == 2) {
    binary_objective obj{a, vec(n), c, f.d};
    for (Eigen::Index i = 0; i < n; ++i) obj.y(i) = t.y_class[static_cast<std::size_t>(i)] == f.present[1] ? 1.0 : 0.0;
    const vec th = newton(obj, vec::Zero(a.cols()), max_iter, tol, "logistic");
    f.w.assign(th.data(), th.data() + th.size());
    return f;
  }
  const std::size_t k = f.present.size();
  multinomial_objective obj{a, mat::Zero(n, static_cast<Eigen::Index>(k)), c, f.d, k};
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto y = t.y_class[static_cast<std::size_t>(i)];
    const auto pos = std::find(f.present.begin(), f.present.end(), y) - f.present.begin();
    obj.y(i, pos) = 1;
  }
  const vec th = newton(obj, vec::Zero(static_cast<Eigen::Index>((f.d + 1) * k)), max_iter, tol, "logistic");
  f.w.assign(th.data(), th.data() + th.size());
  return f;
}

predictions logistic_learner::fitted::predict(const matrix& x) const {
  predictions p;
  p.cls.resize(x.rows);
  p.proba.assign(x.rows * classes, 0);
  const std::size_t k = present.size();
  std::vector<double> z(std::max<std::size_t>(k, 1));
  for (std::size_t i = 0; i < x.rows; ++i) {
    double* pr = p.proba.data() + i * classes;
    if (k == 1) {
      pr[present[0]] = 1;
    } else if (k == 2) {
      double s = w[d];
      for (std::size_t j = 0; j < d; ++j) s += w[j] * x(i, j);
      const double p1 = 1 / (1 + std::exp(-s));
      pr[present[1]] = p1;
      pr[present[0]] = 1 - p1;
    } else {
      double top = -INFINITY;
      for (std::size_t c = 0; c < k; ++c) {
        const double* wc = w.data() + c * (d + 1);
        double s = wc[d];
        for (std::size_t j = 0; j < d; ++j) s += wc[j] * x(i, j);
        z[c] = s;
        top = std::max(top, s);
      }
      double sum = 0;
      for (std::size_t c = 0; c < k; ++c) sum += std::exp(z[c] - top);
      for (std::size_t c = 0; c < k; ++c) pr[present[c]] = std::exp(z[c] - top) / sum;
    }
    std::size_t best = 0;
    for (std::size_t c = 1; c < classes; ++c)
      if (pr[c] > pr[best]) best = c;
    p.cls[i] = static_cast<std::int32_t>(best);
  }
  return p;
}

linear_learner::fitted linear_learner::fit(const training_set& t) const {
  if (t.classification()) throw_usage("learner linear/ridge: regression only");
  if (!(alpha >= 0)) throw_usage(fmt::format("learner ridge: alpha must be >= 0, got {}", alpha));
  const auto n = static_cast<Eigen::Index>(t.x.rows), d = static_cast<Eigen::Index>(t.x.cols);
  mat x(n, d);
  vec y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) x(i, j) = t.x(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
    y(i) = t.y_value[static_cast<std::size_t>(i)];
  }
  const Eigen::RowVectorXd xm = x.colwise().mean();
  const double ym = y.mean();
  x.rowwise() -= xm;
  y.array() -= ym;
  vec w;
  if (alpha == 0) {
    w = x.completeOrthogonalDecomposition().solve(y);  // minimum-norm least squares
  } else {
    mat a = x.transpose() * x;
    a.diagonal().array() += alpha;
    w = a.ldlt().solve(x.transpose() * y);
  }
  fitted f;
  f.w.assign(w.data(), w.data() + w.size());
  f.b = ym - xm.dot(w);
  return f;
}

predictions linear_learner::fitted::predict(const matrix& x) const {
  predictions p;
  p.value.resize(x.rows);
  for (std::size_t i = 0; i < x.rows; ++i) {
    double s = b;
    for (std::size_t j = 0; j < w.size(); ++j) s += w[j] * x(i, j);
    p.value[i] = s;
  }
  return p;
}

}  // namespace assay::validation
