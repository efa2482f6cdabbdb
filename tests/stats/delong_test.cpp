// DeLong against R pROC 1.18 (proc_asah.json from generate_proc.R) to 1e-9, and the fast placements
// against a brute-force O(m n) evaluation of the structural components on random inputs with ties.
#include "assay/stats/delong.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "assay/error.hpp"
#include "assay/stats/detail/radix_sort.hpp"
#include "reference.hpp"

namespace assay::stats {
namespace {

using testing::load_reference;
using testing::num;
using testing::nums;

constexpr double kTol = 1e-9;  // the requirement against pROC; every value here in fact agrees to 1e-13

std::vector<std::int32_t> labels(const nlohmann::json& j) {
  std::vector<std::int32_t> v;
  for (const auto& e : j) v.push_back(static_cast<std::int32_t>(num(e)));
  return v;
}

using testing::message_of;

TEST(DeLong, CiAucMatchesPROC) {
  const auto& ref = load_reference("proc_asah.json");
  ASSERT_EQ(ref["pROC"], "1.18.0");
  for (const auto& c : ref["ci_auc"]) {
    const auto y = labels(c["labels"]);
    const auto s = nums(c["scores"]);
    const auto r = delong_ci(y, s, num(c["level"]));
    EXPECT_NEAR(r.auc.v, num(c["auc"]), kTol) << c["name"];
    EXPECT_NEAR(r.variance.v, num(c["var"]), kTol) << c["name"];
    EXPECT_NEAR(r.lower.v, num(c["ci_lower"]), kTol) << c["name"];
    EXPECT_NEAR(r.upper.v, num(c["ci_upper"]), kTol) << c["name"];
  }
}

TEST(DeLong, PairedTestMatchesPROC) {
  for (const auto& c : load_reference("proc_asah.json")["paired"]) {
    const auto y = labels(c["labels"]);
    const auto r = delong_paired_test(y, nums(c["a"]), nums(c["b"]),
                                      parse_alternative(c["alternative"].get<std::string>()), num(c["level"]));
    EXPECT_NEAR(r.auc_a, num(c["auc_a"]), kTol) << c["name"];
    EXPECT_NEAR(r.auc_b, num(c["auc_b"]), kTol) << c["name"];
    EXPECT_NEAR(r.test.statistic, num(c["z"]), kTol) << c["name"];
    EXPECT_NEAR(r.test.p_value, num(c["p_value"]), kTol) << c["name"];
    EXPECT_NEAR(r.diff_lower.v, num(c["diff_lower"]), kTol) << c["name"];
    EXPECT_NEAR(r.diff_upper.v, num(c["diff_upper"]), kTol) << c["name"];
  }
}

TEST(DeLong, UnpairedTestMatchesPROC) {
  for (const auto& c : load_reference("proc_asah.json")["unpaired"]) {
    const auto r = delong_unpaired_test(labels(c["labels_a"]), nums(c["a"]), labels(c["labels_b"]), nums(c["b"]),
                                        parse_alternative(c["alternative"].get<std::string>()));
    EXPECT_NEAR(r.test.statistic, num(c["statistic"]), kTol) << c["name"];
    EXPECT_NEAR(r.test.df, num(c["df"]), 1e-9 * num(c["df"])) << c["name"];
    EXPECT_NEAR(r.test.p_value, num(c["p_value"]), kTol) << c["name"];
  }
}

// The structural components by their definition, O(m n).
struct brute {
  std::vector<double> v10, v01;
  double auc = 0, var = 0;
};
brute brute_force(const std::vector<std::int32_t>& y, const std::vector<double>& s) {
  std::vector<double> pos, neg;
  for (std::size_t i = 0; i < y.size(); ++i) (y[i] ? pos : neg).push_back(s[i]);
  const double m = static_cast<double>(pos.size()), n = static_cast<double>(neg.size());
  auto psi = [](double x, double z) { return x > z ? 1.0 : x == z ? 0.5 : 0.0; };
  brute b;
  for (double x : pos) {
    double t = 0;
    for (double z : neg) t += psi(x, z);
    b.v10.push_back(t / n);
  }
  for (double z : neg) {
    double t = 0;
    for (double x : pos) t += psi(x, z);
    b.v01.push_back(t / m);
  }
  double total = 0;
  for (double x : pos) for (double z : neg) total += psi(x, z);
  b.auc = total / (m * n);
  double s10 = 0, s01 = 0;
  for (double v : b.v10) s10 += (v - b.auc) * (v - b.auc);
  for (double v : b.v01) s01 += (v - b.auc) * (v - b.auc);
  b.var = s10 / (m - 1) / m + s01 / (n - 1) / n;
  return b;
}

TEST(DeLong, FastEqualsBruteForceOnRandomTies) {
  std::mt19937_64 gen(2024);
  for (int trial = 0; trial < 200; ++trial) {
    const int n_cases = 4 + static_cast<int>(gen() % 60);
    const int grid = 1 + static_cast<int>(gen() % 8);  // few distinct scores: many ties
    std::vector<std::int32_t> y(n_cases);
    std::vector<double> s(n_cases);
    for (int i = 0; i < n_cases; ++i) {
      y[i] = static_cast<std::int32_t>(gen() % 2);
      s[i] = static_cast<double>(gen() % grid) / grid + 0.3 * y[i] * static_cast<double>(gen() % 2);
    }
    y[0] = y[1] = 1;
    y[2] = y[3] = 0;
    const auto fast = delong(y, s);
    const auto slow = brute_force(y, s);
    ASSERT_EQ(fast.v10.size(), slow.v10.size());
    for (std::size_t i = 0; i < slow.v10.size(); ++i) EXPECT_NEAR(fast.v10[i], slow.v10[i], 1e-15);
    for (std::size_t i = 0; i < slow.v01.size(); ++i) EXPECT_NEAR(fast.v01[i], slow.v01[i], 1e-15);
    EXPECT_NEAR(fast.auc.v, slow.auc, 1e-14);
    EXPECT_NEAR(fast.variance.v, slow.var, 1e-14);
  }
}

// The radix sort behind the placements equals std::stable_sort on scores with negatives, duplicates,
// -0.0 / +0.0, subnormals and extremes.
TEST(DeLong, RadixSortEqualsStableSort) {
  std::mt19937_64 gen(77);
  std::normal_distribution<double> nd(0, 1e3);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> s(1000 + trial * 37);
    for (std::size_t i = 0; i < s.size(); ++i) {
      switch (gen() % 6) {
        case 0: s[i] = nd(gen); break;
        case 1: s[i] = std::round(nd(gen) / 100); break;
        case 2: s[i] = (gen() % 2) ? 0.0 : -0.0; break;
        case 3: s[i] = (gen() % 2 ? 1 : -1) * 4.9e-324 * static_cast<double>(gen() % 5); break;
        case 4: s[i] = (gen() % 2 ? 1 : -1) * 1.7e308; break;
        default: s[i] = static_cast<double>(gen() % 4) - 1.5; break;
      }
    }
    if (trial == 0) std::fill(s.begin(), s.end(), 3.0);  // every digit trivial
    std::vector<std::uint32_t> expected(s.size());
    std::iota(expected.begin(), expected.end(), 0u);
    std::stable_sort(expected.begin(), expected.end(), [&](std::uint32_t a, std::uint32_t b) { return s[a] < s[b]; });
    const auto got = detail::sort_by_score(s);
    ASSERT_EQ(got.size(), s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
      // Equal scores (including -0.0 vs +0.0) may only appear in index order.
      EXPECT_EQ(got[i].score, s[expected[i]]) << trial << " " << i;
      if (i > 0 && got[i].score == got[i - 1].score) {
        EXPECT_LT(got[i - 1].index, got[i].index);
      }
    }
  }
}

// The threaded sort (each pass split over blocks) gives exactly the single-threaded order, labels
// carried along, on 2^17 + 3 scores with many ties (three-decimal rounding) and a shared top digit.
TEST(DeLong, ThreadedRadixSortEqualsSingleThreaded) {
  std::mt19937_64 gen(78);
  std::normal_distribution<double> nd(0, 1);
  const std::size_t n = (std::size_t{1} << 17) + 3;
  std::vector<double> s(n);
  std::vector<std::int32_t> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    s[i] = std::round(nd(gen) * 1000) / 1000;
    y[i] = static_cast<std::int32_t>(gen() % 2);
  }
  const auto one = detail::sort_by_score(s, y, 1);
  for (unsigned t : {2u, 3u}) {
    const auto many = detail::sort_by_score(s, y, t);
    ASSERT_EQ(many.size(), n);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < n; ++i) {
      differ += many[i].index != one[i].index || many[i].score != one[i].score || many[i].label != y[many[i].index];
    }
    EXPECT_EQ(differ, 0u) << t;
  }
  for (std::size_t i = 1; i < n; ++i) ASSERT_TRUE(one[i - 1].score < one[i].score || one[i - 1].index < one[i].index);
}

// delong_ci sorts each class's keys on its own (placement_totals); delong() sorts all cases with
// their index. Both must give the same AUC and variance to the last bit, with ties, -0.0 / +0.0,
// and at a size where the two class sorts run on two threads.
TEST(DeLong, IntervalPathEqualsPlacementsPath) {
  std::mt19937_64 gen(79);
  std::normal_distribution<double> nd(0, 1);
  for (std::size_t n : {std::size_t{50}, std::size_t{1000}, std::size_t{100003}}) {
    std::vector<std::int32_t> y(n);
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<std::int32_t>(gen() % 4 == 0);
      const double v = std::round((nd(gen) + y[i]) * 8) / 8;
      s[i] = v == 0 && gen() % 2 ? -0.0 : v;
    }
    const auto full = delong(y, s);
    const auto ci = delong_ci(y, s);
    EXPECT_EQ(ci.auc.v, full.auc.v) << n;
    EXPECT_EQ(ci.variance.v, full.variance.v) << n;
  }
}

TEST(DeLong, EdgeCases) {
  // Identical models: Z = 0, p = 1.
  const std::vector<std::int32_t> y{0, 0, 1, 1, 0, 1};
  const std::vector<double> s{0.1, 0.4, 0.35, 0.8, 0.5, 0.5};
  const auto same = delong_paired_test(y, s, s);
  EXPECT_EQ(same.test.statistic, 0.0);
  EXPECT_EQ(same.test.p_value, 1.0);
  // AUC = 1: variance 0, the interval is [1, 1].
  const std::vector<double> perfect{0.1, 0.2, 0.7, 0.8, 0.3, 0.9};
  const auto ci = delong_ci(y, perfect);
  EXPECT_EQ(ci.auc.v, 1.0);
  EXPECT_EQ(ci.variance.v, 0.0);
  EXPECT_EQ(ci.lower.v, 1.0);
  EXPECT_EQ(ci.upper.v, 1.0);
  // Fewer than 2 positives: AUC defined, variance and interval undefined with the reason.
  const std::vector<std::int32_t> one_pos{0, 0, 1, 0};
  const std::vector<double> s4{0.1, 0.2, 0.3, 0.4};
  const auto few = delong_ci(one_pos, s4);
  EXPECT_TRUE(few.auc.defined());
  EXPECT_DOUBLE_EQ(few.auc.v, 2.0 / 3);
  EXPECT_FALSE(few.lower.defined());
  EXPECT_EQ(few.lower.reason, "fewer than 2 positive cases");
  const std::vector<std::int32_t> no_pos{0, 0, 0, 0};
  EXPECT_EQ(delong_ci(no_pos, s4).auc.reason, "no positive case");
  EXPECT_EQ(message_of([&] { delong_paired_test(one_pos, s4, s4); }),
            "delong_paired_test: the DeLong variance is undefined: fewer than 2 positive cases");
}

TEST(DeLong, BadInputNamesTheArgument) {
  const std::vector<std::int32_t> y{0, 1, 2};
  const std::vector<double> s{0.1, 0.2, 0.3}, nan_s{0.1, NAN, 0.3}, short_s{0.1};
  const std::vector<std::int32_t> ok{0, 1, 1};
  EXPECT_EQ(message_of([&] { delong_ci(y, s); }), "delong_ci: y_true[2] must be 0 or 1; got 2");
  EXPECT_EQ(message_of([&] { delong_ci(ok, nan_s); }), "delong_ci: y_score[1] must be finite; got nan");
  EXPECT_EQ(message_of([&] { delong_paired_test(ok, s, short_s); }),
            "delong_paired_test: y_true has 3 cases but score_b has 1");
  EXPECT_EQ(message_of([&] { delong_ci(ok, s, 0); }), "delong_ci: level must be in (0, 1); got 0");
}

}  // namespace
}  // namespace assay::stats
