// The one-sort kernel (class_sort.hpp, ranking.hpp) against references that share none of its code:
// std::sort per class, and a naive sweep built by counting (O(n m)). Inputs have heavy ties, -0.0
// next to +0.0, subnormals, huge and negative scores; every comparison is bit for bit. Deterministic
// (fixed seeds): a failure is a bug, never chance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "assay/curves/class_sort.hpp"
#include "assay/curves/pr.hpp"
#include "assay/curves/ranking.hpp"
#include "assay/curves/roc.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/error.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/detail/radix.hpp"
#include "test_scale.hpp"

namespace assay::curves {
namespace {

// Scores drawn from a small pool of awkward values (ties everywhere), or continuous ones.
double awkward(std::mt19937_64& rng, bool continuous) {
  static const double pool[] = {0.0, -0.0, 4.9e-324, -4.9e-324, 2.2250738585072014e-308, 1e-300, -1e-300, 0.5,
                                0.25, -0.25, 1.0, -1.0, 1e300, -1e300, 1.7976931348623157e308,
                                -1.7976931348623157e308, 3.0, 1e-10};
  if (continuous) return std::normal_distribution<double>(0, 1)(rng) * std::pow(10.0, static_cast<int>(rng() % 7) - 3);
  return pool[rng() % (sizeof pool / sizeof pool[0])];
}

struct problem {
  std::vector<std::int32_t> y;
  std::vector<double> s;
};

problem make(std::mt19937_64& rng, std::size_t n, double p_pos, bool continuous) {
  problem p;
  for (std::size_t i = 0; i < n; ++i) {
    p.y.push_back(std::uniform_real_distribution<double>(0, 1)(rng) < p_pos ? 1 : 0);
    p.s.push_back(awkward(rng, continuous));
  }
  return p;
}

// Bitwise equality of doubles (so +0.0 != -0.0 and NaN == NaN of the same payload).
bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

void expect_same(const std::vector<double>& a, const std::vector<double>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(same_bits(a[i], b[i])) << what << "[" << i << "]: " << a[i] << " vs " << b[i];
}

void expect_same(const value& a, const value& b, const char* what) {
  ASSERT_EQ(a.defined(), b.defined()) << what;
  if (a.defined()) EXPECT_TRUE(same_bits(a.v, b.v)) << what << ": " << a.v << " vs " << b.v;
  else EXPECT_EQ(a.reason, b.reason) << what;
}

// The thresholds and counts of two sweeps, bit for bit.
void expect_same_sweep(const score_sweep& got, const score_sweep& want) {
  expect_same(got.thresholds, want.thresholds, "thresholds");
  expect_same(got.tp, want.tp, "tp");
  expect_same(got.fp, want.fp, "fp");
}

// The sweep walk_labelled gives of a labelled sort.
score_sweep walked(const labelled_sorted& sorted) {
  score_sweep got;
  walk_labelled(sorted, [&](double t, double tp, double fp) {
    got.thresholds.push_back(t);
    got.tp.push_back(tp);
    got.fp.push_back(fp);
  });
  return got;
}

// The sweep by definition: distinct scores (-0.0 as +0.0) descending, counts of each class >= it.
score_sweep naive_sweep(const problem& p) {
  score_sweep sw;
  std::vector<double> t;
  for (double x : p.s) t.push_back(x + 0.0);
  std::sort(t.begin(), t.end(), std::greater<>());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  for (double th : t) {
    double tp = 0, fp = 0;
    for (std::size_t i = 0; i < p.s.size(); ++i) {
      if (p.s[i] >= th) (p.y[i] ? tp : fp) += 1;
    }
    sw.thresholds.push_back(th);
    sw.tp.push_back(tp);
    sw.fp.push_back(fp);
  }
  for (auto v : p.y) (v ? sw.positives : sw.negatives) += 1;
  return sw;
}

// sort_by_class on 1, 2 and 3 threads against std::sort of each class (-0.0 as +0.0).
void expect_sorted_by_class(const problem& p) {
  std::vector<double> pos, neg;
  for (std::size_t i = 0; i < p.y.size(); ++i) (p.y[i] ? pos : neg).push_back(p.s[i] + 0.0);
  std::sort(pos.begin(), pos.end());
  std::sort(neg.begin(), neg.end());
  for (unsigned threads : {1u, 2u, 3u}) {
    const class_sorted got = sort_by_class(p.y, p.s, {}, threads);
    expect_same(std::vector<double>(got.pos().begin(), got.pos().end()), pos, "pos");
    expect_same(std::vector<double>(got.neg().begin(), got.neg().end()), neg, "neg");
  }
}

TEST(ClassSort, EqualsStdSortPerClassForAnyThreadCount) {
  std::mt19937_64 rng(101);
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t n = trial < 20 ? static_cast<std::size_t>(trial) : 1 + rng() % 2000;
    const problem p = make(rng, n, trial % 7 == 0 ? 0.0 : trial % 7 == 1 ? 1.0 : 0.3, trial % 2 == 0);
    expect_sorted_by_class(p);
  }
}

// From 2^16 cases the sort takes a top digit first and finishes the buckets one by one (a bucket of
// more than 2^16 cases again by its top digit). Shapes: uniform and normal scores, most scores in one
// narrow cluster (a bucket of > 2^16 cases), heavy ties, one value, and the awkward pool (subnormals
// next to 1e308); -0.0 among them.
TEST(ClassSort, LargeInputsEqualStdSortPerClass) {
  std::mt19937_64 rng(303);
  for (int shape = 0; shape < 6; ++shape) {
    const std::size_t n = (shape == 2 ? 160000 : 70000) + rng() % 40000;
    problem p;
    for (std::size_t i = 0; i < n; ++i) {
      const int y = std::uniform_real_distribution<double>(0, 1)(rng) < 0.3 ? 1 : 0;
      const double u = std::uniform_real_distribution<double>(0, 1)(rng);
      double s = 0;
      switch (shape) {
        case 0: s = u * 0.6 + 0.4 * y; break;
        case 1: s = std::normal_distribution<double>(y, 1)(rng); break;
        case 2: s = rng() % 5 ? 1 + u * 1e-9 : u; break;
        case 3: s = std::round(u * 50) / 50 - 0.5; break;
        case 4: s = 0.25; break;
        default: s = awkward(rng, false);
      }
      p.y.push_back(y);
      p.s.push_back(i % 1000 == 0 && shape != 4 ? -0.0 : s);
    }
    expect_sorted_by_class(p);
  }
}

TEST(ClassSort, ScratchMayBeTheScoresThemselves) {
  std::mt19937_64 rng(7);
  const problem p = make(rng, 5000, 0.4, true);
  std::vector<double> pos, neg;
  for (std::size_t i = 0; i < p.s.size(); ++i) (p.y[i] ? pos : neg).push_back(p.s[i] + 0.0);
  std::sort(pos.begin(), pos.end());
  std::sort(neg.begin(), neg.end());
  for (unsigned threads : {1u, 2u}) {
    std::vector<double> s = p.s;
    const std::span<const double> view(s);
    const class_sorted got = sort_by_class(p.y, view, std::move(s), threads);
    expect_same(std::vector<double>(got.pos().begin(), got.pos().end()), pos, "pos");
    expect_same(std::vector<double>(got.neg().begin(), got.neg().end()), neg, "neg");
  }
}

// sort_runs (the report's lean sort: one buffer of the larger run) against std::sort of each run, on
// 1, 2 and 3 threads, small and large, either run the larger or empty, and the shapes of
// LargeInputsEqualStdSortPerClass (a bucket of > 2^16 cases; one value; few distinct values).
TEST(ClassSort, SortRunsEqualsStdSortPerRun) {
  std::mt19937_64 rng(505);
  for (int shape = 0; shape < 8; ++shape) {
    const std::size_t n = shape < 2 ? 1 + rng() % 3000 : (shape == 2 ? 160000 : 70000) + rng() % 40000;
    const double p_pos = shape == 5 ? 0.0 : shape == 6 ? 1.0 : shape == 7 ? 0.8 : 0.3;
    std::vector<double> pos, neg;
    for (std::size_t i = 0; i < n; ++i) {
      const bool y = std::uniform_real_distribution<double>(0, 1)(rng) < p_pos;
      const double u = std::uniform_real_distribution<double>(0, 1)(rng);
      double s = 0;
      switch (shape) {
        case 0: s = awkward(rng, false) + 0.0; break;
        case 1: s = awkward(rng, true) + 0.0; break;
        case 2: s = rng() % 5 ? 1 + u * 1e-9 : u; break;
        case 3: s = std::round(u * 50) / 50 + 0.5; break;
        case 4: s = 0.25; break;
        default: s = std::normal_distribution<double>(y, 1)(rng) + 0.0;
      }
      (y ? pos : neg).push_back(s);
    }
    std::vector<double> input = pos;
    input.insert(input.end(), neg.begin(), neg.end());
    std::sort(pos.begin(), pos.end());
    std::sort(neg.begin(), neg.end());
    for (unsigned threads : {1u, 2u, 3u}) {
      std::vector<double> v = input;
      const sorted_runs got = sort_runs(v, pos.size(), threads);
      expect_same(std::vector<double>(got.first.begin(), got.first.end()), pos, "first");
      expect_same(std::vector<double>(got.second.begin(), got.second.end()), neg, "second");
    }
  }
}

TEST(ClassSort, SweepEqualsTheNaiveSweep) {
  std::mt19937_64 rng(202);
  for (int trial = 0; trial < 200; ++trial) {
    const problem p = make(rng, rng() % 400, trial % 5 == 0 ? 0.0 : 0.35, trial % 3 == 0);
    const score_sweep want = naive_sweep(p);
    const score_sweep got = sweep_scores("test", p.y, p.s);
    expect_same_sweep(got, want);
    EXPECT_EQ(got.positives, want.positives);
    EXPECT_EQ(got.negatives, want.negatives);
  }
}

// sort_labelled's walk (walk_labelled) against the naive sweep, on 1, 2 and 3 threads, below and above
// 2^16 cases (LSD passes; MSD first): keys made to fit by an offset (one sign; both signs within +-2)
// or by taking out a constant bit (whichever applies to the shapes below); nullopt only when the keys span 2^63 or more and no bit is constant.
void expect_labelled_walk(const problem& p) {
  const score_sweep want = naive_sweep(p);
  std::uint64_t o = 0, d = ~std::uint64_t{0}, mn = ~std::uint64_t{0}, mx = 0;
  for (double s : p.s) {
    const std::uint64_t k = detail::order_key(s);
    o |= k, d &= k, mn = std::min(mn, k), mx = std::max(mx, k);
  }
  const bool room = p.s.empty() || mx - mn < (std::uint64_t{1} << 63) || ~(o ^ d) != 0;
  // Grouping off (0: the keys), with a bound of 5 distinct scores, and the default bound.
  for (const std::size_t max_groups : {std::size_t{0}, std::size_t{5}, kMaxScoreGroups}) {
    for (unsigned threads : {1u, 2u, 3u}) {
      const auto sorted = sort_labelled(p.y, p.s, threads, {}, max_groups);
      const bool grouped = sorted && sorted->grouped();
      if (!grouped) ASSERT_EQ(sorted.has_value(), room);
      // The bound holds per thread: on one thread, more distinct scores than it mean the keys.
      if (max_groups == 0 || (threads == 1 && want.thresholds.size() > max_groups)) ASSERT_FALSE(grouped);
      if (!sorted) continue;
      ASSERT_EQ(sorted->size(), p.y.size());
      expect_same_sweep(walked(*sorted), want);
      EXPECT_EQ(static_cast<double>(sorted->positives()), want.positives);
      const auto keys = sorted->keys();
      EXPECT_EQ(keys.size(), grouped ? 0 : p.y.size());
      EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end(), [](std::uint64_t a, std::uint64_t b) { return (a >> 1) < (b >> 1); }));
      if (!grouped) EXPECT_TRUE(sorted->groups().empty());
    }
  }
}

TEST(ClassSort, LabelledWalkEqualsTheNaiveSweep) {
  std::mt19937_64 rng(404);
  for (int trial = 0; trial < 60; ++trial) {
    const bool kept = trial < 10 || assay::testing::keep_case(static_cast<std::size_t>(trial));
    const std::size_t n = trial < 10 ? static_cast<std::size_t>(trial) : trial < 50 ? 1 + rng() % 3000 : 70000 + rng() % 5000;
    problem p;
    for (std::size_t i = 0; i < n; ++i) {
      p.y.push_back(rng() % 3 == 0 ? 1 : 0);
      const double u = std::uniform_real_distribution<double>(0, 1)(rng);
      double s = 0;
      switch (trial % 6) {
        case 0: s = u; break;                                           // one sign: the sign bit is free
        case 1: s = std::round((u - 0.5) * 250) / 64; break;            // both signs within +-2, ties
        case 2: s = std::ldexp(1.0 + std::round(u * 1024) / 1024, static_cast<int>(rng() % 5)) * (rng() % 2 ? 1 : -1); break;  // both signs to 32: may have no room
        case 3: s = std::round(u * 7) / 7; break;                       // heavy ties
        case 4:  // both signs over 200 binades, keys spanning more than 2^63, mantissa bit 51 set in every key
          s = rng() % 2 ? std::ldexp(1.5, static_cast<int>(rng() % 201) - 100)
                        : -std::ldexp(1.0, static_cast<int>(rng() % 201) - 100);
          break;
        default: s = 0.5; break;                                        // one value
      }
      if (i % 97 == 5 && trial % 6 != 4) s = rng() % 2 ? -0.0 : 0.0;
      p.s.push_back(s);
    }
    if (trial % 11 == 3) std::fill(p.y.begin(), p.y.end(), 0);
    if (kept) expect_labelled_walk(p);
  }
}

TEST(ClassSort, LabelledSortDeclinesWhenEveryKeyBitVaries) {
  // Both signs (bit 63), exponents from tiny to huge, odd and even mantissas: no bit is constant.
  problem p;
  for (double s : {-1.7976931348623157e308, -4.9e-324, 4.9e-324, 1.7976931348623157e308, 1.0, -1.0,
                   std::nextafter(1.0, 2.0), std::nextafter(-1.0, -2.0), 0.75, -3.0}) {
    p.y.push_back(0);
    p.s.push_back(s);
  }
  std::uint64_t o = 0, d = ~std::uint64_t{0};
  for (double s : p.s) {
    const std::uint64_t k = detail::order_key(s);
    o |= k, d &= k;
  }
  if (~(o ^ d) != 0) GTEST_SKIP() << "the sample leaves a constant bit";
  EXPECT_FALSE(sort_labelled(p.y, p.s, 1, {}, 0).has_value());
  const auto grouped = sort_labelled(p.y, p.s, 1);  // grouped, the keys' room does not matter
  ASSERT_TRUE(grouped && grouped->grouped());
  EXPECT_EQ(grouped->groups().size(), p.s.size());
}

// compute_ranking_curves (one sort, one walk) against the separate functions read off the naive sweep.
void expect_ranking_matches(const ranking_curves& r, const score_sweep& sw) {
  const roc_curve_result roc = roc_curve(sw);
  expect_same(r.thresholds, roc.thresholds, "thresholds");
  expect_same(r.fpr, roc.fpr, "fpr");
  expect_same(r.tpr, roc.tpr, "tpr");
  const pr_curve_result pr = precision_recall_curve(sw);
  // The PR curve is the table reversed: point k <-> PR index m - k (the (0, 1) end point last).
  const std::size_t m = sw.size();
  ASSERT_EQ(r.precision.size(), m + 1);
  for (std::size_t k = 0; k <= m; ++k) {
    ASSERT_TRUE(same_bits(r.precision[k], pr.precision[m - k])) << "precision " << k;
    ASSERT_TRUE(same_bits(r.tpr[k], pr.recall[m - k]) || (k == 0 && std::isnan(r.tpr[0]))) << "recall " << k;
    if (k > 0) ASSERT_TRUE(same_bits(r.thresholds[k], pr.thresholds[m - k])) << "pr threshold " << k;
  }
  expect_same(r.roc_auc, roc_auc(sw), "roc_auc");
  expect_same(r.average_precision, average_precision(sw), "average_precision");
}

TEST(RankingCurves, EqualTheSweepFunctionsOnAwkwardInputs) {
  std::mt19937_64 rng(303);
  int defined = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const problem p = make(rng, rng() % 300, trial % 9 == 0 ? 0.0 : trial % 9 == 1 ? 1.0 : 0.3, trial % 2 == 0);
    const ranking_curves r = compute_ranking_curves(p.y, p.s);
    expect_ranking_matches(r, naive_sweep(p));
    defined += r.roc_auc.defined() ? 1 : 0;
  }
  EXPECT_GT(defined, 150);
}

TEST(RankingCurves, WeightedEqualsTheWeightedSweep) {
  std::mt19937_64 rng(404);
  for (int trial = 0; trial < 100; ++trial) {
    const problem p = make(rng, 1 + rng() % 200, 0.4, trial % 2 == 0);
    std::vector<double> w;
    for (std::size_t i = 0; i < p.y.size(); ++i) w.push_back(static_cast<double>(rng() % 4) * 0.75);  // some 0
    const score_sweep sw = sweep_scores("test", p.y, p.s, w);
    expect_ranking_matches(compute_ranking_curves(p.y, p.s, w), sw);
  }
}

TEST(RankingCurves, LargeInputOnSeveralThreads) {
  std::mt19937_64 rng(505);
  const problem p = make(rng, 150000, 0.3, true);
  const score_sweep sw = sweep_scores("test", p.y, p.s);
  // The sweep of a large input against the std::sort reference walk.
  std::vector<double> pos, neg;
  for (std::size_t i = 0; i < p.s.size(); ++i) (p.y[i] ? pos : neg).push_back(p.s[i] + 0.0);
  std::sort(pos.begin(), pos.end());
  std::sort(neg.begin(), neg.end());
  score_sweep ref;
  walk_sorted_classes(pos, neg, [&](double t, double tp, double fp) {
    ref.thresholds.push_back(t), ref.tp.push_back(tp), ref.fp.push_back(fp);
  });
  ref.positives = static_cast<double>(pos.size()), ref.negatives = static_cast<double>(neg.size());
  expect_same(sw.thresholds, ref.thresholds, "thresholds");
  expect_same(sw.tp, ref.tp, "tp");
  expect_same(sw.fp, ref.fp, "fp");
  expect_ranking_matches(compute_ranking_curves(p.y, p.s), ref);
}

TEST(RankingCurves, BadInputIsNamed) {
  const std::vector<std::int32_t> y{0, 1, 2};
  const std::vector<double> s{0.1, 0.2, 0.3};
  try {
    compute_ranking_curves(y, s, {}, "ranking_curves");
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_STREQ(e.what(), "ranking_curves: y[2] = 2 is not 0 or 1");
  }
}

}  // namespace
// The message of the assay::error that f() throws, or "no error".
template <class F>
std::string message(F&& f) {
  try {
    f();
  } catch (const error& e) {
    return std::string(e.what());
  }
  return std::string("no error");
}

// With check_as, sort_by_class checks the input as it reads it (a bad label before any case is
// copied, which a label of 2 would send past its run) and names a bad value as check_binary_input does,
// on one thread and on several, also when the scores' storage is the scratch.
TEST(ClassSort, ClassSortChecksTheInputWhenAsked) {
  for (const std::size_t n : {std::size_t{1000}, std::size_t{1} << 17}) {
    std::mt19937_64 rng(5);
    std::vector<std::int32_t> y(n);
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<std::int32_t>(rng() % 2);
      s[i] = std::uniform_real_distribution<double>(-1, 1)(rng);
    }
    const auto checked = sort_by_class(y, s, {}, 2, "caller");
    const auto plain = sort_by_class(y, s, {}, 2);
    EXPECT_TRUE(std::equal(plain.pos().begin(), plain.pos().end(), checked.pos().begin(), checked.pos().end()));
    EXPECT_TRUE(std::equal(plain.neg().begin(), plain.neg().end(), checked.neg().begin(), checked.neg().end()));
    for (const unsigned threads : {1u, 2u}) {
      auto bad_s = s;
      bad_s[n - 2] = std::numeric_limits<double>::quiet_NaN();
      const std::string want = message([&] { check_binary_input("caller", y, bad_s, {}); });
      EXPECT_NE(want, "no error");
      EXPECT_EQ(message([&] { (void)sort_by_class(y, bad_s, {}, threads, "caller"); }), want);
      std::vector<double> own = bad_s;  // the scores' storage as the sort's scratch
      const std::span<const double> view(own);
      EXPECT_EQ(message([&] { (void)sort_by_class(y, view, std::move(own), threads, "caller"); }), want);
      auto bad_y = y;
      bad_y[n - 1] = 2;
      EXPECT_EQ(message([&] { (void)sort_by_class(bad_y, s, {}, threads, "caller"); }),
                "caller: y[" + std::to_string(n - 1) + "] = 2 is not 0 or 1");
    }
  }
}

// With check_as, sort_labelled checks the input in its first read and names a bad value as
// check_binary_input does; without a bad value it sorts as without the check.
TEST(ClassSort, LabelledSortChecksTheInputWhenAsked) {
  const std::size_t n = std::size_t{1} << 17;
  std::mt19937_64 rng(3);
  std::vector<std::int32_t> y(n);
  std::vector<double> s(n);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = static_cast<std::int32_t>(rng() % 2);
    s[i] = std::uniform_real_distribution<double>(0, 1)(rng);
  }
  const auto plain = sort_labelled(y, s, 2);
  const auto checked = sort_labelled(y, s, 2, "caller");
  ASSERT_TRUE(plain && checked);
  EXPECT_TRUE(std::equal(plain->keys().begin(), plain->keys().end(), checked->keys().begin(), checked->keys().end()));
  auto bad_s = s;
  bad_s[n - 1] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(message([&] { (void)sort_labelled(y, bad_s, 2, "caller"); }),
            message([&] { check_binary_input("caller", y, bad_s, {}); }));
  EXPECT_NE(message([&] { check_binary_input("caller", y, bad_s, {}); }), "no error");
  auto bad_y = y;
  bad_y[5] = 2;
  EXPECT_EQ(message([&] { (void)sort_labelled(bad_y, s, 1, "caller"); }), "caller: y[5] = 2 is not 0 or 1");
}

// The grouped form of sort_labelled against a reference that shares none of its code: a std::map
// from each score (+0.0 for both zeros) to its cases of each class, on inputs with few distinct
// scores drawn from awkward values (+-0.0, +-inf, subnormals, +-max, both signs far apart: keys
// that leave no room for the class bit, which the grouped form does not need), on 1, 2 and 3 threads
// and around the bound on distinct scores. Below the bound (and at most half the cases) the result
// must be grouped; above it, the keys; the walk must see the same groups either way.
TEST(ClassSort, GroupedSortCountsEachDistinctScore) {
  static const double pool[] = {0.0, -0.0, 4.9e-324, -4.9e-324, 2.2250738585072014e-308, 1e-300, -1e-300, 0.5, 0.25,
                                -0.25, 1.0, -1.0, 1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308,
                                std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                                3.0, 1e-10};
  std::mt19937_64 rng(2211);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = trial < 8 ? 1 + rng() % 40 : trial < 24 ? 9000 + rng() % 20000 : 70000 + rng() % 30000;
    // Distinct values: the pool, or pool values plus up to `extra` rounded reals.
    const std::size_t extra = trial % 4 == 0 ? 0 : trial % 4 == 1 ? 50 : trial % 4 == 2 ? 900 : 3000;
    problem p;
    for (std::size_t i = 0; i < n; ++i) {
      p.y.push_back(rng() % 3 == 0 ? 1 : 0);
      const std::size_t pick = rng() % (20 + extra);
      p.s.push_back(pick < 20 ? pool[pick] : static_cast<double>(pick - 20) / 7.0 - 100.0);
    }
    if (trial % 9 == 4) std::fill(p.y.begin(), p.y.end(), 1);
    std::map<double, std::pair<std::uint32_t, std::uint32_t>> want;  // score -> (positives, negatives)
    for (std::size_t i = 0; i < n; ++i) (p.y[i] ? want[p.s[i] + 0.0].first : want[p.s[i] + 0.0].second) += 1;
    const std::size_t D = want.size();
    for (const std::size_t bound : {D - 1, D, kMaxScoreGroups}) {
      for (unsigned threads : {1u, 2u, 3u}) {
        const auto sorted = sort_labelled(p.y, p.s, threads, {}, bound);
        // Grouped when each thread's share has at most min(bound, max(share / 32, 1024)) distinct
        // scores (the rule of 15/16, from 8192 cases read, holds for these few); the bound holds per
        // thread: on one thread more distinct scores than it mean the keys.
        const bool fits = D <= std::min(bound, std::max<std::size_t>(n / threads / 32, 1024));
        ASSERT_TRUE(sorted.has_value() || !fits) << "trial " << trial;
        if (!sorted) continue;
        if (fits) ASSERT_TRUE(sorted->grouped()) << "trial " << trial << " bound " << bound << " threads " << threads;
        if (D > bound && threads == 1) ASSERT_FALSE(sorted->grouped()) << "trial " << trial;
        if (!sorted->grouped()) continue;
        const auto groups = sorted->groups();
        ASSERT_EQ(groups.size(), D);
        std::size_t g = 0, positives = 0;
        for (const auto& [score, counts] : want) {
          EXPECT_TRUE(same_bits(labelled_sorted::score(groups[g]), score)) << labelled_sorted::score(groups[g]) << " vs " << score;
          EXPECT_EQ(groups[g].key, detail::order_key(score));
          EXPECT_EQ(groups[g].positives, counts.first);
          EXPECT_EQ(groups[g].negatives, counts.second);
          positives += counts.first;
          ++g;
        }
        EXPECT_EQ(sorted->positives(), positives);
        EXPECT_EQ(sorted->size(), n);
        EXPECT_TRUE(sorted->keys().empty());
      }
    }
  }
}

// Grouping gives up late (few distinct scores in the first half, all distinct in the second: the
// second thread gives up while the first may have finished) and early (distinct from the start),
// and the keys then serve with the same walk as without grouping.
TEST(ClassSort, GroupingGivesUpToTheKeys) {
  std::mt19937_64 rng(77);
  for (const bool late : {true, false}) {
    const std::size_t n = 80000;
    problem p;
    for (std::size_t i = 0; i < n; ++i) {
      p.y.push_back(static_cast<std::int32_t>(rng() % 2));
      const double u = std::uniform_real_distribution<double>(0, 1)(rng);
      p.s.push_back(late && i < n / 2 ? std::round(u * 10) / 10 : u);
    }
    for (unsigned threads : {1u, 2u}) {
      const auto grouped = sort_labelled(p.y, p.s, threads);
      const auto keys = sort_labelled(p.y, p.s, threads, {}, 0);
      ASSERT_TRUE(grouped && keys);
      EXPECT_FALSE(grouped->grouped());
      EXPECT_TRUE(std::equal(grouped->keys().begin(), grouped->keys().end(), keys->keys().begin(), keys->keys().end(),
                             [](std::uint64_t a, std::uint64_t b) { return (a >> 1) == (b >> 1); }));
      EXPECT_EQ(grouped->positives(), keys->positives());
    }
  }
}

// With check_as, the grouped sort checks the input in its one read and names a bad value (NaN, -inf,
// a label of -1) as check_binary_input does.
TEST(ClassSort, GroupedSortChecksTheInputWhenAsked) {
  const std::size_t n = std::size_t{1} << 17;
  std::mt19937_64 rng(5);
  std::vector<std::int32_t> y(n);
  std::vector<double> s(n);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = static_cast<std::int32_t>(rng() % 2);
    s[i] = static_cast<double>(rng() % 1001) / 1000;
  }
  for (unsigned threads : {1u, 2u}) {
    const auto checked = sort_labelled(y, s, threads, "caller");
    ASSERT_TRUE(checked && checked->grouped());
    auto bad_s = s;
    bad_s[n - 1] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(message([&] { (void)sort_labelled(y, bad_s, threads, "caller"); }),
              message([&] { check_binary_input("caller", y, bad_s, {}); }));
    bad_s[n - 1] = -std::numeric_limits<double>::infinity();
    EXPECT_EQ(message([&] { (void)sort_labelled(y, bad_s, threads, "caller"); }),
              message([&] { check_binary_input("caller", y, bad_s, {}); }));
    EXPECT_NE(message([&] { check_binary_input("caller", y, bad_s, {}); }), "no error");
    auto bad_y = y;
    bad_y[7] = -1;
    EXPECT_EQ(message([&] { (void)sort_labelled(bad_y, s, threads, "caller"); }), "caller: y[7] = -1 is not 0 or 1");
  }
}

// Scores whose order keys share one slot of the grouping's hash table at every table size up to 2^17
// (found by brute force with the table's hash, (k ^ k >> 29) * 0x9E3779B97F4A7C15 >> (64 - bits),
// restated here: change both together): 80 of them make a chain longer than the 64 probes the
// grouping allows, so it gives up, and the keys give the walk of the naive sweep.
TEST(ClassSort, GroupingSurvivesCollidingKeys) {
  auto top17 = [](std::uint64_t k) { return ((k ^ (k >> 29)) * 0x9E3779B97F4A7C15ULL) >> (64 - 17); };
  std::mt19937_64 rng(9);
  std::vector<double> colliding;
  const double first = 0.5;
  const auto target = top17(detail::order_key(first));
  colliding.push_back(first);
  while (colliding.size() < 80) {
    const double x = std::bit_cast<double>((rng() >> 12) | 0x3FF0000000000000ULL);  // in [1, 2)
    if (top17(detail::order_key(x)) == target) colliding.push_back(x);
  }
  problem p;
  for (std::size_t i = 0; i < 20000; ++i) {
    p.y.push_back(static_cast<std::int32_t>(rng() % 2));
    p.s.push_back(colliding[rng() % colliding.size()]);
  }
  const score_sweep want = naive_sweep(p);
  for (unsigned threads : {1u, 2u}) {
    const auto sorted = sort_labelled(p.y, p.s, threads);
    ASSERT_TRUE(sorted);
    EXPECT_FALSE(sorted->grouped());
    expect_same_sweep(walked(*sorted), want);
  }
}

}  // namespace assay::curves
