// Reliability curves, ECE and the Brier decomposition; see include/assay/curves/calibration.hpp.
#include "assay/curves/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "assay/curves/sweep.hpp"
#include "assay/detail/exact_sum.hpp"
#include "assay/error.hpp"

namespace assay::curves {

namespace {

void check(const char* caller, std::span<const std::int32_t> y, std::span<const double> prob,
           std::span<const double> weight) {
  check_binary_input(caller, y, prob, weight);
  for (std::size_t i = 0; i < prob.size(); ++i) {
    if (!(prob[i] >= 0 && prob[i] <= 1)) throw_data(fmt::format("{}: prob[{}] = {} is not in [0, 1]", caller, i, prob[i]));
  }
}

// numpy.percentile(x, q * 100) with the default linear method, step by step as numpy 1.24 does it,
// generalised to frequency weights: the sorted data is read as x_0 repeated w_0 times, x_1 repeated
// w_1 times, ... (zero weights removed), a sequence of total length W. `at(j)` is its element j
// (j an integer-valued double). With unit weights at(j) = sorted[j] and W = n, so the edges equal
// numpy's to the last bit; with integer weights they equal numpy's on the repeated rows.
template <typename At>
double numpy_quantile(At at, double W, double q) {
  const double qq = (q * 100) / 100;
  const double virt = (W - 1) * qq;
  if (virt >= W - 1) return at(W - 1);
  if (virt < 0) return at(0.0);
  const double prev = std::floor(virt);
  const double gamma = virt - prev;
  const double a = at(prev), b = at(prev + 1);
  const double diff = b - a;
  return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
}

std::vector<double> bin_edges(std::span<const double> prob, std::span<const double> weight, std::size_t n_bins,
                              bin_strategy strategy) {
  std::vector<double> edges(n_bins + 1);
  const double step = 1.0 / static_cast<double>(n_bins);  // numpy.linspace(0, 1, n_bins + 1)
  std::vector<double> sorted, cumulative;                 // cumulative[i] = w_0 + ... + w_i
  double W = 0;
  if (strategy == bin_strategy::quantile) {
    if (weight.empty()) {
      sorted.assign(prob.begin(), prob.end());
      std::sort(sorted.begin(), sorted.end());
      W = static_cast<double>(sorted.size());
    } else {
      std::vector<std::pair<double, double>> pw;
      for (std::size_t i = 0; i < prob.size(); ++i)
        if (weight[i] > 0) pw.emplace_back(prob[i], weight[i]);
      std::sort(pw.begin(), pw.end());
      for (const auto& [p, w] : pw) {
        sorted.push_back(p);
        W += w;
        cumulative.push_back(W);
      }
      if (W < 1) {
        throw_data(fmt::format("reliability_curve: quantile bins read the weights as frequencies (a weight of 2 counts "
                               "as two rows), so they need a total weight >= 1, got {}; rescale the weights",
                               W));
      }
    }
  }
  // Element j of the repeated sequence: the first value whose cumulative weight exceeds j.
  const auto at = [&](double j) {
    if (cumulative.empty()) return sorted[static_cast<std::size_t>(j)];
    const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), j);
    return it == cumulative.end() ? sorted.back() : sorted[static_cast<std::size_t>(it - cumulative.begin())];
  };
  for (std::size_t i = 0; i <= n_bins; ++i) {
    const double q = i == n_bins ? 1.0 : static_cast<double>(i) * step;
    edges[i] = strategy == bin_strategy::uniform ? q : numpy_quantile(at, W, q);
  }
  return edges;
}

}  // namespace

reliability_result reliability_curve(std::span<const std::int32_t> y, std::span<const double> prob,
                                     std::span<const double> weight, std::size_t n_bins, bin_strategy strategy) {
  check("reliability_curve", y, prob, weight);
  if (n_bins < 1) throw_usage("reliability_curve: n_bins must be >= 1");
  reliability_result r;
  if (prob.empty()) return r;
  r.edges = bin_edges(prob, weight, n_bins, strategy);
  // Exact sums of the terms (each product rounded once), rounded once: any order of the cases gives
  // the same curve (the mergeable state's, scale/state.hpp).
  std::vector<assay::detail::exact_sum> sum_p(n_bins), sum_y(n_bins), sum_w(n_bins);
  std::vector<std::uint64_t> count(n_bins, 0);
  const auto inner_begin = r.edges.begin() + 1, inner_end = r.edges.end() - 1;
  for (std::size_t i = 0; i < prob.size(); ++i) {
    const double w = weight.empty() ? 1.0 : weight[i];
    // side "left": the number of inner edges strictly below prob[i]
    const auto b = static_cast<std::size_t>(std::lower_bound(inner_begin, inner_end, prob[i]) - inner_begin);
    sum_p[b].add(w * prob[i]);
    sum_y[b].add(w * y[i]);
    sum_w[b].add(w);
    ++count[b];
  }
  std::vector<double> p(n_bins), yy(n_bins), ww(n_bins);
  for (std::size_t b = 0; b < n_bins; ++b) p[b] = sum_p[b].value(), yy[b] = sum_y[b].value(), ww[b] = sum_w[b].value();
  auto edges = std::move(r.edges);
  return reliability_from_bins(std::move(edges), count, ww, yy, p);
}

std::vector<double> uniform_bin_edges(std::size_t n_bins) {
  return bin_edges({}, {}, n_bins, bin_strategy::uniform);
}

reliability_result reliability_from_bins(std::vector<double> edges, std::span<const std::uint64_t> count,
                                         std::span<const double> sum_w, std::span<const double> sum_wy,
                                         std::span<const double> sum_wp) {
  reliability_result r;
  r.edges = std::move(edges);
  for (std::size_t b = 0; b < count.size(); ++b) {
    if (count[b] == 0 || sum_w[b] == 0) continue;
    r.prob_true.push_back(sum_wy[b] / sum_w[b]);
    r.prob_pred.push_back(sum_wp[b] / sum_w[b]);
    r.weight.push_back(sum_w[b]);
  }
  return r;
}

value expected_calibration_error(std::span<const std::int32_t> y, std::span<const double> prob,
                                 std::span<const double> weight, std::size_t n_bins, bin_strategy strategy) {
  return expected_calibration_error(reliability_curve(y, prob, weight, n_bins, strategy));
}

value expected_calibration_error(const reliability_result& r) {
  double total = 0, sum = 0;
  for (std::size_t b = 0; b < r.weight.size(); ++b) {
    total += r.weight[b];
    sum += r.weight[b] * std::fabs(r.prob_true[b] - r.prob_pred[b]);
  }
  if (total == 0) return value::undefined("no cases (or every weight is 0)");
  return value(sum / total);
}

brier_decomposition brier_decompose(std::span<const std::int32_t> y, std::span<const double> prob,
                                    std::span<const double> weight) {
  check("brier_decompose", y, prob, weight);
  brier_decomposition d;
  // Group by distinct forecast: sort indices by prob.
  std::vector<std::size_t> idx(prob.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return prob[a] < prob[b]; });
  double W = 0, O = 0, bs = 0;
  for (std::size_t i = 0; i < prob.size(); ++i) {
    const double w = weight.empty() ? 1.0 : weight[i];
    W += w;
    O += w * y[i];
    bs += w * (prob[i] - y[i]) * (prob[i] - y[i]);
  }
  if (W == 0) {
    d.brier = d.reliability = d.resolution = d.uncertainty = value::undefined("no cases (or every weight is 0)");
    return d;
  }
  const double o = O / W;
  double rel = 0, res = 0;
  for (std::size_t i = 0; i < idx.size();) {
    const double f = prob[idx[i]];
    double wf = 0, of = 0;
    for (; i < idx.size() && prob[idx[i]] == f; ++i) {
      const double w = weight.empty() ? 1.0 : weight[idx[i]];
      wf += w;
      of += w * y[idx[i]];
    }
    if (wf == 0) continue;
    const double freq = of / wf;
    rel += wf * (f - freq) * (f - freq);
    res += wf * (freq - o) * (freq - o);
  }
  d.brier = value(bs / W);
  d.reliability = value(rel / W);
  d.resolution = value(res / W);
  d.uncertainty = value(o * (1 - o));
  return d;
}

}  // namespace assay::curves
