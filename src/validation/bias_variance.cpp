#include "assay/validation/bias_variance.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <exception>

#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"
#include "assay/validation/cancel.hpp"

namespace assay::validation {

std::vector<std::size_t> bias_variance_sample(std::span<const std::size_t> train, std::uint64_t seed,
                                              std::size_t round) {
  rng g(derive_seed(seed, round));
  std::vector<std::size_t> sample(train.size());
  for (auto& s : sample) s = train[static_cast<std::size_t>(g.below(train.size()))];
  std::sort(sample.begin(), sample.end());
  return sample;
}

bias_variance_result decompose_bias_variance(std::span<const double> predictions, std::size_t rounds,
                                             std::span<const double> target, std::size_t k, std::string_view fn) {
  if (rounds < 2) throw_usage(fmt::format("{}: rounds is {}; it must be at least 2", fn, rounds));
  const std::size_t n_test = target.size();
  if (n_test == 0) throw_usage(fmt::format("{}: the test part is empty", fn));
  if (predictions.size() != rounds * n_test) {
    throw_usage(fmt::format("{}: predictions has {} values; rounds x test cases = {} x {} = {}", fn,
                            predictions.size(), rounds, n_test, rounds * n_test));
  }
  if (k == 1) throw_usage(fmt::format("{}: k is 1; a classification needs at least 2 classes", fn));
  auto check = [&](std::string_view name, std::span<const double> v) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      const double x = v[i];
      if (!std::isfinite(x)) throw_usage(fmt::format("{}: {}[{}] is {}; it must be finite", fn, name, i, x));
      if (k && (x < 0 || x >= static_cast<double>(k) || x != std::floor(x))) {
        throw_usage(fmt::format("{}: {}[{}] is {}; a class index must be a whole number in [0, {})", fn, name, i,
                                x, k));
      }
    }
  };
  check("target", target);
  check("predictions", predictions);
  bias_variance_result out;
  out.loss = k ? "zero_one" : "squared";
  out.rounds = rounds;
  out.test_rows = n_test;
  const double R = static_cast<double>(rounds);
  auto pred = [&](std::size_t r, std::size_t i) { return predictions[r * n_test + i]; };
  std::vector<double> count(k, 0);
  for (std::size_t i = 0; i < n_test; ++i) {
    double loss = 0, bias = 0, var = 0, net = 0;
    if (!k) {
      const double y = target[i];
      double m = 0;
      for (std::size_t r = 0; r < rounds; ++r) m += pred(r, i);
      m /= R;
      for (std::size_t r = 0; r < rounds; ++r) {
        loss += (pred(r, i) - y) * (pred(r, i) - y) / R;
        var += (pred(r, i) - m) * (pred(r, i) - m) / R;
      }
      bias = (m - y) * (m - y);
      net = var;
    } else {
      const auto y = static_cast<std::size_t>(target[i]);
      std::fill(count.begin(), count.end(), 0.0);
      for (std::size_t r = 0; r < rounds; ++r) count[static_cast<std::size_t>(pred(r, i))] += 1;
      const auto main = static_cast<std::size_t>(std::max_element(count.begin(), count.end()) - count.begin());
      loss = 1 - count[y] / R;
      var = 1 - count[main] / R;
      bias = main != y ? 1 : 0;
      // Biased case: the loss is 1 - P(yhat = y) = bias - c * var with c = P(yhat = y | yhat != m).
      net = main == y ? var : -(var > 0 ? (count[y] / R) / var : 0.0) * var;
    }
    out.expected_loss += loss / static_cast<double>(n_test);
    out.bias += bias / static_cast<double>(n_test);
    out.variance += var / static_cast<double>(n_test);
    out.net_variance += net / static_cast<double>(n_test);
  }
  return out;
}

bias_variance_result bias_variance(const dataset& d, const any_learner& learner, const split& part, std::size_t rounds,
                                   std::uint64_t seed, std::size_t threads) {
  if (rounds < 2) throw_usage(fmt::format("bias_variance: {} must be at least 2, got {}", param("rounds"), rounds));
  if (part.train.size() < 2 || part.test.empty()) throw_usage("bias-variance: empty training or test part");
  const std::size_t n_test = part.test.size(), k = d.classification() ? d.classes.size() : 0;
  std::vector<std::vector<double>> pred(rounds);  // [round][test case]: value or class index
  std::vector<std::exception_ptr> failure(rounds);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t r; (r = next.fetch_add(1)) < rounds;) {
      if (cancel_requested()) {
        failure[r] = std::make_exception_ptr(interrupted());
        continue;
      }
      try {
        const auto sample = bias_variance_sample(part.train, seed, r);
        feature_encoder enc;
        enc.fit(d, sample, learner.preprocessing());
        const matrix xtr = enc.transform(d, sample), xte = enc.transform(d, part.test);
        std::vector<std::int32_t> yc;
        std::vector<double> yv;
        for (auto i : sample) {
          if (k)
            yc.push_back(d.y_class[i]);
          else
            yv.push_back(d.y_value[i]);
        }
        const auto p = learner.fit(training_set{xtr, yc, k, yv}).predict(xte);
        pred[r].resize(n_test);
        for (std::size_t i = 0; i < n_test; ++i) pred[r][i] = k ? static_cast<double>(p.cls[i]) : p.value[i];
      } catch (...) {
        failure[r] = std::current_exception();
      }
    }
  };
  assay::detail::run_lanes(
      assay::detail::resolve_threads(static_cast<unsigned>(std::min<std::size_t>(threads, ~0u)), rounds),
      [&](unsigned) { work(); });
  for (auto& f : failure)
    if (f) std::rethrow_exception(f);

  std::vector<double> flat(rounds * n_test), target(n_test);
  for (std::size_t r = 0; r < rounds; ++r) std::copy(pred[r].begin(), pred[r].end(), flat.begin() + r * n_test);
  for (std::size_t i = 0; i < n_test; ++i) {
    const std::size_t row = part.test[i];
    target[i] = k ? static_cast<double>(d.y_class[row]) : d.y_value[row];
  }
  auto out = decompose_bias_variance(flat, rounds, target, k, "bias-variance");
  out.learner = learner.name();
  out.train_rows = part.train.size();
  return out;
}

}  // namespace assay::validation
