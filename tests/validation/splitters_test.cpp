// Splitters: partition properties on random data, stratification, groups, time order, seeds, and
// equality with scikit-learn 1.2.1's deterministic splitters (sklearn_splits.json, written by
// generate_sklearn.py).
#include "assay/validation/splitters.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "assay/error.hpp"

namespace assay::validation {
namespace {

std::vector<std::int32_t> random_codes(std::size_t n, std::int32_t levels, std::uint64_t seed) {
  rng g(seed);
  std::vector<std::int32_t> v(n);
  for (auto& x : v) x = static_cast<std::int32_t>(g.below(static_cast<std::uint64_t>(levels)));
  return v;
}

// Each split: train and test sorted, disjoint, together all n rows.
void expect_partitions(const split_list& s, std::size_t n) {
  for (std::size_t k = 0; k < s.size(); ++k) {
    EXPECT_TRUE(std::is_sorted(s[k].train.begin(), s[k].train.end()));
    EXPECT_TRUE(std::is_sorted(s[k].test.begin(), s[k].test.end()));
    std::vector<int> seen(n, 0);
    for (auto i : s[k].train) ++seen.at(i);
    for (auto i : s[k].test) ++seen.at(i);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i], 1) << "split " << k << " row " << i;
  }
}

// The test sets of the splits (of one repeat) cover every row exactly once.
void expect_tests_cover(const split_list& s, std::size_t n) {
  std::vector<int> seen(n, 0);
  for (const auto& sp : s)
    for (auto i : sp.test) ++seen.at(i);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i], 1) << "row " << i;
}

TEST(Splitters, KFoldPartitionsOnRandomSizes) {
  rng g(1);
  for (int t = 0; t < 50; ++t) {
    const std::size_t n = 2 + g.below(200);
    const std::size_t k = 2 + g.below(std::min<std::size_t>(n - 1, 12));
    for (bool shuffle : {false, true}) {
      auto s = kfold(n, k, shuffle, t);
      ASSERT_EQ(s.size(), k);
      expect_partitions(s, n);
      expect_tests_cover(s, n);
      for (const auto& sp : s) {
        EXPECT_GE(sp.test.size(), n / k);
        EXPECT_LE(sp.test.size(), n / k + 1);
      }
    }
  }
}

TEST(Splitters, StratifiedWithinOnePerClassPerFold) {
  rng g(2);
  for (int t = 0; t < 60; ++t) {
    const std::size_t n = 20 + g.below(300);
    const auto levels = static_cast<std::int32_t>(2 + g.below(5));
    auto y = random_codes(n, levels, 100 + t);
    const std::size_t k = 2 + g.below(9);
    for (bool shuffle : {false, true}) {
      auto s = stratified_kfold(y, k, shuffle, t);
      expect_partitions(s, n);
      expect_tests_cover(s, n);
      std::map<std::int32_t, double> total;
      for (auto c : y) total[c] += 1;
      for (const auto& sp : s) {
        std::map<std::int32_t, double> in;
        for (auto i : sp.test) in[y[i]] += 1;
        for (auto [c, m] : total) EXPECT_LT(std::abs(in[c] - m / static_cast<double>(k)), 1.0) << "class " << c;
      }
    }
  }
}

TEST(Splitters, RepeatedKFoldIsKFoldPerRepeat) {
  auto y = random_codes(97, 3, 5);
  for (bool strat : {false, true}) {
    auto s = repeated_kfold(97, 5, 4, 11, strat ? std::span<const std::int32_t>(y) : std::span<const std::int32_t>());
    ASSERT_EQ(s.size(), 20u);
    expect_partitions(s, 97);
    for (std::size_t r = 0; r < 4; ++r) {
      split_list one(s.begin() + static_cast<long>(5 * r), s.begin() + static_cast<long>(5 * r + 5));
      for (const auto& sp : one) EXPECT_EQ(sp.repeat, r);
      expect_tests_cover(one, 97);
    }
    EXPECT_NE(s[0].test, s[5].test);  // repeats differ (probability of equality ~ 1e-20)
  }
}

TEST(Splitters, SameSeedSameSplitsOtherSeedOther) {
  auto y = random_codes(120, 3, 9);
  auto g = random_codes(120, 12, 10);
  auto same = [](const split_list& a, const split_list& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].train != b[i].train || a[i].test != b[i].test) return false;
    return true;
  };
  EXPECT_TRUE(same(kfold(120, 5, true, 7), kfold(120, 5, true, 7)));
  EXPECT_FALSE(same(kfold(120, 5, true, 7), kfold(120, 5, true, 8)));
  EXPECT_TRUE(same(stratified_kfold(y, 5, true, 7), stratified_kfold(y, 5, true, 7)));
  EXPECT_FALSE(same(stratified_kfold(y, 5, true, 7), stratified_kfold(y, 5, true, 8)));
  EXPECT_TRUE(same(bootstrap(120, 3, 7), bootstrap(120, 3, 7)));
  EXPECT_FALSE(same(bootstrap(120, 3, 7), bootstrap(120, 3, 8)));
  EXPECT_TRUE(same(shuffle_split(120, 3, 0.7, 7), shuffle_split(120, 3, 0.7, 7)));
  EXPECT_TRUE(same(stratified_group_kfold(y, g, 4, true, 3), stratified_group_kfold(y, g, 4, true, 3)));
  EXPECT_EQ(holdout(120, 2.0 / 3, 5).train, holdout(120, 2.0 / 3, 5).train);
}

TEST(Splitters, HoldoutTwoThirdsAsSeed003) {
  auto s = holdout(150, 2.0 / 3.0, 1);
  EXPECT_EQ(s.train.size(), 100u);
  EXPECT_EQ(s.test.size(), 50u);
  expect_partitions({s}, 150);
  // Stratified holdout: each class split 2:1 up to rounding.
  std::vector<std::int32_t> y(150);
  for (std::size_t i = 0; i < 150; ++i) y[i] = static_cast<std::int32_t>(i % 3 == 0 ? 0 : i % 7 == 0 ? 1 : 2);
  auto t = holdout(150, 2.0 / 3.0, 1, y);
  EXPECT_EQ(t.train.size(), 100u);
  std::map<std::int32_t, double> all, tr;
  for (auto c : y) all[c] += 1;
  for (auto i : t.train) tr[y[i]] += 1;
  for (auto [c, m] : all) EXPECT_LE(std::abs(tr[c] - m * 2 / 3), 1.0);
}

TEST(Splitters, TrainValidationTest) {
  auto s = train_validation_test(100, 0.6, 0.2, 3);
  EXPECT_EQ(s.train.size(), 60u);
  EXPECT_EQ(s.validation.size(), 20u);
  EXPECT_EQ(s.test.size(), 20u);
  std::set<std::size_t> all(s.train.begin(), s.train.end());
  all.insert(s.validation.begin(), s.validation.end());
  all.insert(s.test.begin(), s.test.end());
  EXPECT_EQ(all.size(), 100u);
  EXPECT_THROW(train_validation_test(100, 0.7, 0.3, 3), error);
}

TEST(Splitters, GroupsNeverSplit) {
  rng r(4);
  for (int t = 0; t < 30; ++t) {
    const std::size_t n = 30 + r.below(200);
    const auto ng = static_cast<std::int32_t>(5 + r.below(20));
    auto g = random_codes(n, ng, 300 + t);
    auto y = random_codes(n, 3, 400 + t);
    std::set<std::int32_t> present(g.begin(), g.end());
    const std::size_t k = 2 + r.below(std::min<std::size_t>(present.size() - 1, 5));
    for (const auto& s : {group_kfold(g, k), leave_one_group_out(g), stratified_group_kfold(y, g, k, t % 2 == 1, t),
                          leave_p_groups_out(g, 2)}) {
      expect_partitions(s, n);
      for (const auto& sp : s) {
        std::set<std::int32_t> tr, te;
        for (auto i : sp.train) tr.insert(g[i]);
        for (auto i : sp.test) te.insert(g[i]);
        for (auto x : te) ASSERT_EQ(tr.count(x), 0u) << "group " << x << " on both sides";
      }
    }
    expect_tests_cover(group_kfold(g, k), n);
    expect_tests_cover(leave_one_group_out(g), n);
    expect_tests_cover(stratified_group_kfold(y, g, k, false, 0), n);
  }
}

TEST(Splitters, TimeOrderRespected) {
  for (std::size_t n : {10u, 57u, 200u}) {
    for (std::size_t k : {2u, 3u, 7u}) {
      auto s = time_series_split(n, k, 0, 1, 0);
      for (const auto& sp : s) {
        ASSERT_FALSE(sp.train.empty());
        EXPECT_LT(sp.train.back() + 1, sp.test.front());  // gap of one row
      }
    }
  }
}

TEST(Splitters, LeaveOneOutAndLeavePOut) {
  auto s = leave_one_out(9);
  ASSERT_EQ(s.size(), 9u);
  expect_partitions(s, 9);
  auto p = leave_p_out(8, 3);
  EXPECT_EQ(p.size(), 56u);
  expect_partitions(p, 8);
  std::set<std::vector<std::size_t>> distinct_tests;
  for (const auto& sp : p) distinct_tests.insert(sp.test);
  EXPECT_EQ(distinct_tests.size(), 56u);
}

TEST(Splitters, LeavePOutRefusesTooManySplitsNamingTheCount) {
  try {
    leave_p_out(60, 10);
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::usage);
    EXPECT_NE(std::string(e.what()).find("C(60, 10) = 75394027566 splits"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("100000"), std::string::npos) << e.what();
  }
  EXPECT_EQ(binomial(200, 100), SIZE_MAX);  // saturates
  EXPECT_EQ(binomial(62, 31), 465428353255261088u);
}

TEST(Splitters, BadInputIsAUsageError) {
  EXPECT_THROW(kfold(3, 4), error);   // fewer rows than folds
  EXPECT_THROW(kfold(10, 1), error);  // one fold
  std::vector<std::int32_t> y{0, 0, 0, 1, 1, 1, 0, 1};
  EXPECT_THROW(stratified_kfold(y, 5), error);  // every class smaller than 5
  EXPECT_NO_THROW(stratified_kfold(y, 4));
  EXPECT_THROW(leave_one_group_out(std::vector<std::int32_t>{2, 2, 2}), error);  // one group
  EXPECT_THROW(group_kfold(std::vector<std::int32_t>{0, 1, 1}, 3), error);       // 2 groups, 3 folds
  EXPECT_THROW(holdout(10, 1.0), error);
  EXPECT_THROW(holdout(1, 0.5), error);
  EXPECT_THROW(time_series_split(5, 5), error);
  EXPECT_THROW(leave_p_out(5, 5), error);
}

TEST(Splitters, QuantileBinsBalanced) {
  rng g(6);
  std::vector<double> y(103);
  for (auto& v : y) v = std::floor(g.uniform() * 20);  // many ties
  auto b = quantile_bins(y, 5);
  std::vector<int> size(5, 0);
  for (auto c : b) ++size.at(static_cast<std::size_t>(c));
  for (int s : size) EXPECT_TRUE(s == 20 || s == 21);
  for (std::size_t i = 0; i < y.size(); ++i)
    for (std::size_t j = 0; j < y.size(); ++j)
      if (y[i] < y[j]) ASSERT_LE(b[i], b[j]);  // monotone in y
  // Stratified k-fold on the bins keeps each fold's target distribution close to the whole's.
  auto s = stratified_kfold(b, 5);
  expect_tests_cover(s, y.size());
}

// Randomised checks with fixed seeds. Each states the chance that a correct implementation fails.
TEST(Splitters, BoundedIntegersAreUniform) {
  // 60000 draws in 6 cells; chi-square with 5 df exceeds 30 with probability 1.5e-5.
  rng g(12345);
  std::vector<double> cell(6, 0);
  for (int i = 0; i < 60000; ++i) cell[g.below(6)] += 1;
  double chi2 = 0;
  for (double c : cell) chi2 += (c - 10000) * (c - 10000) / 10000;
  EXPECT_LT(chi2, 30.0);
}

TEST(Splitters, HoldoutPicksEachRowWithProbabilityF) {
  // Row i is in train in Binomial(4000, 0.5) of 4000 seeds: |count - 2000| < 5 sd = 158 fails with
  // probability < 6e-7 per row, < 6e-6 for the 10 rows.
  std::vector<int> in_train(10, 0);
  for (std::uint64_t s = 0; s < 4000; ++s)
    for (auto i : holdout(10, 0.5, s).train) ++in_train[i];
  for (int c : in_train) EXPECT_LT(std::abs(c - 2000), 158);
}

TEST(Splitters, ShuffledKFoldPutsEachRowInEachFoldEqually) {
  // Row 0 of 12 in fold f over 3000 seeds: Binomial(3000, 1/3), sd 25.8; 5 sd bound, failure < 2e-6.
  std::vector<int> in_fold(3, 0);
  for (std::uint64_t s = 0; s < 3000; ++s) {
    auto sp = kfold(12, 3, true, s);
    for (std::size_t f = 0; f < 3; ++f)
      if (std::binary_search(sp[f].test.begin(), sp[f].test.end(), std::size_t{0})) ++in_fold[f];
  }
  for (int c : in_fold) EXPECT_LT(std::abs(c - 1000), 129);
}

TEST(Splitters, BootstrapOutOfBagShare) {
  // OOB share of n = 1000 rows has mean (1 - 1/n)^n = 0.36770 and sd about 0.0152 per sample; the mean
  // of 200 samples has sd about 0.00108, and a 5-sd band fails with probability < 1e-6.
  auto s = bootstrap(1000, 200, 77);
  double share = 0;
  for (const auto& sp : s) {
    EXPECT_EQ(sp.train.size(), 1000u);
    std::set<std::size_t> drawn(sp.train.begin(), sp.train.end());
    EXPECT_EQ(drawn.size() + sp.test.size(), 1000u);
    for (auto i : sp.test) ASSERT_EQ(drawn.count(i), 0u);
    share += static_cast<double>(sp.test.size()) / 1000 / 200;
  }
  EXPECT_NEAR(share, std::pow(1 - 1e-3, 1000), 0.0054);
}

// ---- scikit-learn ------------------------------------------------------------------------------

nlohmann::json load_reference() {
  std::ifstream f(std::string(ASSAY_TEST_DIR) + "/validation/sklearn_splits.json");
  EXPECT_TRUE(f.good());
  return nlohmann::json::parse(f);
}

TEST(Splitters, EqualsScikitLearnDeterministicSplitters) {
  const auto ref = load_reference();
  ASSERT_EQ(ref["sklearn"], "1.2.1");
  int compared = 0;
  for (const auto& c : ref["cases"]) {
    const std::string m = c["method"];
    const std::size_t n = c["n"];
    split_list s;
    std::vector<std::int32_t> y, g;
    if (c.contains("y")) y = c["y"].get<std::vector<std::int32_t>>();
    if (c.contains("groups")) g = c["groups"].get<std::vector<std::int32_t>>();
    if (m == "kfold")
      s = kfold(n, c["k"]);
    else if (m == "stratified_kfold")
      s = stratified_kfold(y, c["k"]);
    else if (m == "loo")
      s = leave_one_out(n);
    else if (m == "lpo")
      s = leave_p_out(n, c["p"]);
    else if (m == "group_kfold")
      s = group_kfold(g, c["k"]);
    else if (m == "logo")
      s = leave_one_group_out(g);
    else if (m == "lpgo")
      s = leave_p_groups_out(g, c["p"]);
    else if (m == "timeseries")
      s = time_series_split(n, c["k"], c["test_size"], c["gap"], c["max_train"]);
    else
      FAIL() << m;
    const auto& want = c["splits"];
    if (m == "group_kfold") {
      // GroupKFold's fold numbering follows its (unstable) argsort; compare the set of test sets.
      std::set<std::vector<std::size_t>> a, b;
      for (const auto& sp : s) a.insert(sp.test);
      for (const auto& w : want) b.insert(w["test"].get<std::vector<std::size_t>>());
      EXPECT_EQ(a, b) << c.dump();
    } else {
      ASSERT_EQ(s.size(), want.size()) << m << " n=" << n;
      for (std::size_t i = 0; i < s.size(); ++i) {
        EXPECT_EQ(s[i].train, want[i]["train"].get<std::vector<std::size_t>>()) << m << " n=" << n << " split " << i;
        EXPECT_EQ(s[i].test, want[i]["test"].get<std::vector<std::size_t>>()) << m << " n=" << n << " split " << i;
      }
    }
    ++compared;
  }
  EXPECT_EQ(compared, 28);
  for (const auto& c : ref["lpo_counts"]) EXPECT_EQ(binomial(c["n"], c["p"]), c["count"].get<std::size_t>());
}

}  // namespace
}  // namespace assay::validation
