// log_loss_and_brier_score (include/assay/metrics/probabilistic.hpp): the two losses summed in one
// pass are the values of log_loss and brier_score, bit for bit, with and without weights, binary
// scores and class probabilities, below and above 2^20 cases (two halves); a bad class index is named.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/metrics/probabilistic.hpp"

namespace assay {
namespace {

void expect_same(const value& a, const value& b, const char* what) {
  ASSERT_EQ(a.defined(), b.defined()) << what;
  if (a.defined()) EXPECT_EQ(a.v, b.v) << what;  // bit for bit
}

TEST(ProbabilisticLosses, OnePassGivesEachLossItsOwnValue) {
  std::mt19937_64 g(21);
  for (const std::size_t n : {std::size_t{1}, std::size_t{777}, (std::size_t{1} << 20) + 3}) {
    // Binary scores (a proba_view of one column of P(class 1)).
    std::vector<std::int32_t> y(n);
    std::vector<double> s(n), w(n), p3(3 * n);
    std::vector<std::int32_t> y3(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<std::int32_t>(g() % 2);
      s[i] = std::uniform_real_distribution<double>(0, 1)(g);
      if (i % 97 == 0) s[i] = static_cast<double>(g() % 2);  // 0 and 1: the clipped logarithm
      w[i] = i % 13 == 0 ? 0.0 : std::uniform_real_distribution<double>(0.1, 3)(g);
      y3[i] = static_cast<std::int32_t>(g() % 3);
      double a = std::uniform_real_distribution<double>(0, 1)(g), b = std::uniform_real_distribution<double>(0, 1)(g);
      const double c = 1 + a + b;
      p3[3 * i] = a / c, p3[3 * i + 1] = b / c, p3[3 * i + 2] = 1 / c;
    }
    for (const bool weighted : {false, true}) {
      const std::span<const double> ws = weighted ? std::span<const double>(w) : std::span<const double>();
      const proba_view binary = proba_view::scores(s);
      const auto both = log_loss_and_brier_score(y, binary, ws);
      expect_same(both.first, log_loss(y, binary, ws), "binary log loss");
      expect_same(both.second, brier_score(y, binary, ws), "binary Brier");
      const proba_view three = proba_view::matrix(p3, 3);
      const auto both3 = log_loss_and_brier_score(y3, three, ws);
      expect_same(both3.first, log_loss(y3, three, ws), "3-class log loss");
      expect_same(both3.second, brier_score(y3, three, ws), "3-class Brier");
    }
  }
  std::vector<std::int32_t> bad{0, 1, 2};
  std::vector<double> s{0.1, 0.2, 0.3};
  try {
    (void)log_loss_and_brier_score(bad, proba_view::scores(s));
    ADD_FAILURE() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()), "log_loss_and_brier_score: case 2 has class index 2 outside [0, 2)");
  }
}

// The sums are exact whichever accumulator takes them (binned_sum from 2^16 cases, chunked_sum
// below): against a __float128 sum of the per-row terms rounded once to double (113 bits: the terms
// span about 45 binades, so its own rounding stays far below a double's last bit), weighted and not,
// on both sides of 2^16, with scores of several magnitudes (the log-loss terms of 1e-12 and 1 - 1e-12).
TEST(ProbabilisticLosses, LongSumsAreTheExactSumRoundedOnce) {
  std::mt19937_64 g(33);
  std::uniform_real_distribution<double> u(0, 1);
  for (const std::size_t n : {(std::size_t{1} << 16) - 1, (std::size_t{1} << 16) + 9}) {
    std::vector<std::int32_t> y(n);
    std::vector<double> s(n), w(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<std::int32_t>(g() % 2);
      const double r = u(g);
      s[i] = i % 7 == 0 ? 1e-12 : i % 11 == 0 ? 1 - 1e-12 : r;
      w[i] = static_cast<double>(g() % 5) * 0.25;
    }
    const proba_view pv = proba_view::scores(s);
    for (const bool weighted : {false, true}) {
      __float128 ll = 0, br = 0, ws = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const double wi = weighted ? w[i] : 1.0;
        if (wi == 0) continue;
        ll += static_cast<__float128>(wi * log_loss_term(pv, i, static_cast<std::size_t>(y[i])));
        br += static_cast<__float128>(wi * brier_term(pv, i, static_cast<std::size_t>(y[i])));
        ws += wi;
      }
      const auto both = log_loss_and_brier_score(y, pv, weighted ? std::span<const double>(w) : std::span<const double>());
      EXPECT_EQ(both.first.v, static_cast<double>(ll) / static_cast<double>(ws)) << n << " " << weighted;
      EXPECT_EQ(both.second.v, static_cast<double>(br) / static_cast<double>(ws)) << n << " " << weighted;
    }
  }
}

}  // namespace
}  // namespace assay
