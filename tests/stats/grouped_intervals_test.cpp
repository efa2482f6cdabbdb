// The grouped forms of the analytic intervals (what a mergeable evaluation state can give from its
// runs of equal scores) equal the row forms bit for bit, and the row forms do not depend on the
// order of the rows: stats::delong_ci_grouped, stats::mean_normal_ci_grouped, and the Poisson
// bootstrap's row ids.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <random>

#include "assay/stats/asymptotic.hpp"
#include "assay/stats/delong.hpp"
#include "assay/stats/poisson_bootstrap.hpp"

namespace assay::stats {
namespace {

std::uint64_t bits(const value& v) { return v.defined() ? std::bit_cast<std::uint64_t>(v.v) : 1; }

TEST(GroupedIntervals, DelongFromTieGroupsEqualsTheCases) {
  std::mt19937_64 g(3);
  for (int levels : {1, 2, 7, 100000}) {
    for (std::size_t n : {1UL, 2UL, 3UL, 50UL, 3000UL}) {
      std::vector<std::int32_t> y(n);
      std::vector<double> s(n);
      std::map<double, std::pair<std::uint64_t, std::uint64_t>> groups;
      for (std::size_t i = 0; i < n; ++i) {
        y[i] = static_cast<std::int32_t>(g() % 3 == 0);
        s[i] = static_cast<double>(g() % static_cast<std::uint64_t>(levels)) / levels + 0.1 * y[i];
        (y[i] ? groups[s[i]].first : groups[s[i]].second) += 1;
      }
      std::vector<std::uint64_t> pos, neg;
      for (const auto& [score, c] : groups) pos.push_back(c.first), neg.push_back(c.second);
      const auto a = delong_ci(y, s, 0.9), b = delong_ci_grouped(pos, neg, 0.9);
      EXPECT_EQ(bits(a.auc), bits(b.auc));
      EXPECT_EQ(bits(a.variance), bits(b.variance));
      EXPECT_EQ(bits(a.lower), bits(b.lower)) << "levels " << levels << " n " << n;
      EXPECT_EQ(bits(a.upper), bits(b.upper));
      EXPECT_EQ(a.lower.reason, b.lower.reason);
    }
  }
}

TEST(GroupedIntervals, MeanNormalFromGroupsEqualsTheRowsInAnyOrder) {
  std::mt19937_64 g(4);
  std::uniform_real_distribution<double> u(0, 1);
  for (std::size_t groups : {1UL, 2UL, 5UL, 200UL}) {
    std::vector<double> values, rows;
    std::vector<std::uint64_t> counts;
    for (std::size_t k = 0; k < groups; ++k) {
      values.push_back(-std::log(u(g)) * (k % 2 ? 1e-9 : 3.0));  // terms of very different sizes
      counts.push_back(g() % 40);
      for (std::uint64_t c = 0; c < counts.back(); ++c) rows.push_back(values.back());
    }
    const auto a = mean_normal_ci_grouped(values, counts, 0.95, 0.0);
    for (int rep = 0; rep < 3; ++rep) {
      std::shuffle(rows.begin(), rows.end(), g);
      const auto b = mean_normal_ci(rows, {}, 0.95, 0.0);
      EXPECT_EQ(bits(a.lower), bits(b.lower)) << groups;
      EXPECT_EQ(bits(a.upper), bits(b.upper));
      EXPECT_EQ(a.lower.reason, b.lower.reason);
    }
  }
  // Weighted rows: any order, the same bits.
  std::vector<double> x(500), w(500);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = u(g) * u(g), w[i] = std::round(u(g) * 30) * 0.1;
  const auto a = mean_normal_ci(x, w, 0.95);
  std::vector<std::size_t> idx(x.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::shuffle(idx.begin(), idx.end(), g);
  std::vector<double> x2, w2;
  for (auto i : idx) x2.push_back(x[i]), w2.push_back(w[i]);
  const auto b = mean_normal_ci(x2, w2, 0.95);
  EXPECT_EQ(bits(a.lower), bits(b.lower));
  EXPECT_EQ(bits(a.upper), bits(b.upper));
}

TEST(GroupedIntervals, PoissonWeightsFollowTheRowIds) {
  // Rows given in another order with their ids: the same replicates (unweighted ranking statistics:
  // the tie groups' sums are integers, exact in any order).
  std::mt19937_64 g(5);
  const std::size_t n = 400;
  std::vector<std::int32_t> y(n);
  std::vector<double> s(n);
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<std::int32_t>(g() % 2), s[i] = static_cast<double>(g() % 9);
  poisson_statistics a;
  a.rows = n;
  a.y_true = y;
  a.y_score = s;
  a.roc_auc = a.average_precision = true;
  bootstrap_options o;
  o.replicates = 64;
  o.seed = 8;
  const auto want = poisson_bootstrap(a, o);
  std::vector<std::size_t> idx(n);
  for (std::size_t i = 0; i < n; ++i) idx[i] = i;
  std::shuffle(idx.begin(), idx.end(), g);
  std::vector<std::int32_t> y2;
  std::vector<double> s2;
  std::vector<std::uint64_t> ids;
  for (auto i : idx) y2.push_back(y[i]), s2.push_back(s[i]), ids.push_back(i);
  poisson_statistics b = a;
  b.y_true = y2;
  b.y_score = s2;
  b.row_ids = ids;
  const auto got = poisson_bootstrap(b, o);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    EXPECT_EQ(bits(got[k].lower), bits(want[k].lower));
    EXPECT_EQ(bits(got[k].upper), bits(want[k].upper));
  }
  b.row_ids = {};  // by index instead: other replicates
  const auto other = poisson_bootstrap(b, o);
  EXPECT_NE(other[0].std_error, want[0].std_error);  // the replicates' spread differs (continuous)
  for (std::size_t k = 0; k < got.size(); ++k) EXPECT_EQ(got[k].std_error, want[k].std_error);
}

}  // namespace
}  // namespace assay::stats
