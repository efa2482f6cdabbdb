#include "assay/metrics/probabilistic.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <utility>

#include "assay/detail/exact_sum.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"

namespace assay {

namespace {

void check_shapes(const char* fn, std::span<const std::int32_t> y, proba_view p, std::span<const double> w) {
  if (p.rows != y.size()) throw_usage(fmt::format("{}: {} labels but {} rows of probabilities", fn, y.size(), p.rows));
  if (!w.empty() && w.size() != y.size()) throw_usage(fmt::format("{}: {} labels but {} weights", fn, y.size(), w.size()));
  if (p.cols < 2) throw_usage(fmt::format("{}: {} probability columns, need at least 2", fn, p.cols));
  // A branch-free scan first (it vectorises); the loop names the first index out of range.
  bool ok = true;
  for (const std::int32_t v : y) ok &= static_cast<std::uint32_t>(v) < p.cols;  // a negative v wraps above
  for (std::size_t i = 0, n = ok ? 0 : y.size(); i < n; ++i) {
    if (y[i] < 0 || static_cast<std::size_t>(y[i]) >= p.cols) {
      throw_usage(fmt::format("{}: case {} has class index {} outside [0, {})", fn, i, y[i], p.cols));
    }
  }
}

inline double weight_at(std::span<const double> w, std::size_t i) { return w.empty() ? 1.0 : w[i]; }

// (sum of w_i loss_k(i) for each of the M losses, sum of w_i) over cases of positive weight;
// terms(i) gives the M losses of case i. From 2^20 cases on, the sums are taken over two fixed halves
// and added, the halves running on two threads when there are two cores: the split depends on n
// only, so the result does not depend on the thread count.
template <std::size_t M, class Accumulator, class Terms>
std::array<double, M + 1> loss_sums_with(std::size_t n, std::span<const double> w, Terms terms) {
  // Exact sums of the terms w_i * loss(i) (each product rounded once) and of the weights, rounded
  // once at the end (detail/exact_sum.hpp): the result does not depend on the order of the cases,
  // so a report merged from pieces of the data (scale/state.hpp) gives the same bits, and several
  // losses summed in one pass give each the value of its own pass.
  using sums = std::pair<std::array<assay::detail::exact_sum, M>, assay::detail::exact_sum>;
  auto part = [&](std::size_t b, std::size_t e) {
    std::array<Accumulator, M> losses;  // the same exact value as exact_sum, faster per term
    assay::detail::exact_sum weights;
    if (w.empty()) {  // every weight 1: no case is left out, and the weights sum to the count
      for (std::size_t i = b; i < e; ++i) {
        const std::array<double, M> t = terms(i);
        for (std::size_t k = 0; k < M; ++k) losses[k].add(t[k]);
      }
      weights.add(static_cast<double>(e - b));  // exact: e - b < 2^53
    } else {
      for (std::size_t i = b; i < e; ++i) {
        const double wi = w[i];
        if (wi == 0) continue;
        const std::array<double, M> t = terms(i);
        for (std::size_t k = 0; k < M; ++k) losses[k].add(wi * t[k]);
        weights.add(wi);
      }
    }
    sums out;
    for (std::size_t k = 0; k < M; ++k) out.first[k] = losses[k].result();
    out.second = std::move(weights);
    return out;
  };
  sums all;
  if (n < (std::size_t{1} << 20)) {
    all = part(0, n);
  } else {
    sums second;
    assay::detail::run_both([&] { all = part(0, n / 2); }, [&] { second = part(n / 2, n); });
    for (std::size_t k = 0; k < M; ++k) all.first[k].add(second.first[k]);
    all.second.add(second.second);
  }
  std::array<double, M + 1> r{};
  for (std::size_t k = 0; k < M; ++k) r[k] = all.first[k].value();
  r[M] = all.second.value();
  return r;
}

template <std::size_t M, class Terms>
std::array<double, M + 1> weighted_loss_sums(std::size_t n, std::span<const double> w, Terms terms) {
  // Both accumulators hold the exact sum: the larger one is faster per term but costs microseconds to
  // set up and read, so it takes the long sums only. The result does not depend on the choice.
  if (n >= (std::size_t{1} << 16)) return loss_sums_with<M, assay::detail::binned_sum>(n, w, terms);
  return loss_sums_with<M, assay::detail::chunked_sum>(n, w, terms);
}

// The loss of row i in log_loss and in brier_score: the terms of its true class (probabilistic.hpp).
inline double log_loss_row(std::span<const std::int32_t> y, const proba_view& p, std::size_t i) {
  return log_loss_term(p, i, static_cast<std::size_t>(y[i]));
}

inline double brier_row(std::span<const std::int32_t> y, const proba_view& p, std::size_t i) {
  return brier_term(p, i, static_cast<std::size_t>(y[i]));
}

}  // namespace

std::vector<double> log_loss_per_row(std::span<const std::int32_t> y, proba_view p) {
  check_shapes("log_loss_per_row", y, p, {});
  std::vector<double> out(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) out[i] = log_loss_row(y, p, i);
  return out;
}

std::vector<double> brier_score_per_row(std::span<const std::int32_t> y, proba_view p) {
  check_shapes("brier_score_per_row", y, p, {});
  std::vector<double> out(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) out[i] = brier_row(y, p, i);
  return out;
}

value log_loss(std::span<const std::int32_t> y, proba_view p, std::span<const double> w) {
  check_shapes("log_loss", y, p, w);
  const auto s = weighted_loss_sums<1>(y.size(), w, [&](std::size_t i) {
    return std::array<double, 1>{log_loss_row(y, p, i)};
  });
  return ratio(s[0], s[1], "no cases");
}

value brier_score(std::span<const std::int32_t> y, proba_view p, std::span<const double> w) {
  check_shapes("brier_score", y, p, w);
  const auto s = weighted_loss_sums<1>(y.size(), w, [&](std::size_t i) {
    return std::array<double, 1>{brier_row(y, p, i)};
  });
  return ratio(s[0], s[1], "no cases");
}

std::pair<value, value> log_loss_and_brier_score(std::span<const std::int32_t> y, proba_view p,
                                                 std::span<const double> w) {
  check_shapes("log_loss_and_brier_score", y, p, w);
  // A score column's terms from its two inline definitions: no per-case branch on the view's kind.
  const auto s = p.binary_score ? weighted_loss_sums<2>(y.size(), w, [&](std::size_t i) {
    const double x = p.data[i];
    const auto k = static_cast<std::size_t>(y[i]);
    return std::array<double, 2>{binary_log_loss_term(x, k), binary_brier_term(x, k)};
  })
                                : weighted_loss_sums<2>(y.size(), w, [&](std::size_t i) {
    return std::array<double, 2>{log_loss_row(y, p, i), brier_row(y, p, i)};
  });
  return {ratio(s[0], s[2], "no cases"), ratio(s[1], s[2], "no cases")};
}

value top_k_accuracy(std::span<const std::int32_t> y, proba_view p, std::size_t k, std::span<const double> w) {
  check_shapes("top_k_accuracy", y, p, w);
  if (k == 0) throw_usage("top_k_accuracy: k is 0, but must be >= 1");
  // Exact sums rounded once (detail/exact_sum.hpp): the order of the cases does not matter, so the
  // mergeable state (scale/state.hpp) gives the same bits.
  assay::detail::exact_sum num, den;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double wi = weight_at(w, i);
    if (wi == 0) continue;
    const auto t = static_cast<std::size_t>(y[i]);
    const double pt = p(i, t);
    // Rank of the true class: classes scoring higher, plus ties with a higher index.
    std::size_t ahead = 0;
    for (std::size_t c = 0; c < p.cols; ++c) {
      const double pc = p(i, c);
      if (pc > pt || (pc == pt && c > t)) ++ahead;
    }
    if (ahead < k) num.add(wi);
    den.add(wi);
  }
  return ratio(num.value(), den.value(), "no cases");
}

}  // namespace assay
