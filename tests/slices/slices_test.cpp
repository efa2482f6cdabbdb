// The sliced report: every slice's report equals the report of a table built from that slice's rows
// alone (bit for bit), and the DeLong summaries of each slice and of the rest equal an O(n^2)
// brute force over all positive-negative pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "assay/data/predictions.hpp"
#include "assay/error.hpp"
#include "assay/report/slices.hpp"
#include "assay/report/slices_html.hpp"
#include "assay/stats/slices.hpp"

namespace {

using namespace assay;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_value(const value& a, const value& b, const std::string& what) {
  EXPECT_EQ(a.defined(), b.defined()) << what;
  EXPECT_EQ(a.reason, b.reason) << what;
  if (a.defined() && b.defined()) EXPECT_TRUE(same_bits(a.v, b.v)) << what << ": " << a.v << " vs " << b.v;
}

void expect_same_report(const report& a, const report& b, const std::string& where) {
  ASSERT_EQ(a.metrics.size(), b.metrics.size()) << where;
  for (std::size_t i = 0; i < a.metrics.size(); ++i) {
    const std::string what = where + " " + a.metrics[i].name;
    EXPECT_EQ(a.metrics[i].name, b.metrics[i].name) << what;
    expect_same_value(a.metrics[i].v, b.metrics[i].v, what);
    ASSERT_EQ(a.metrics[i].ci.has_value(), b.metrics[i].ci.has_value()) << what;
    if (a.metrics[i].ci) {
      expect_same_value(a.metrics[i].ci->lower, b.metrics[i].ci->lower, what + " lower");
      expect_same_value(a.metrics[i].ci->upper, b.metrics[i].ci->upper, what + " upper");
      EXPECT_EQ(a.metrics[i].ci->method, b.metrics[i].ci->method) << what;
    }
  }
  EXPECT_EQ(a.rows, b.rows) << where;
  EXPECT_EQ(a.labels, b.labels) << where;
  EXPECT_EQ(a.notes, b.notes) << where;
  for (std::size_t i = 0; i < a.labels.size(); ++i)
    for (std::size_t j = 0; j < a.labels.size(); ++j) EXPECT_TRUE(same_bits(a.cm(i, j), b.cm(i, j))) << where;
}

// A slice column from string keys (first-seen codes, as the reader makes them).
slice_column column_of(const std::string& name, const std::vector<std::string>& keys) {
  slice_column c;
  c.name = name;
  for (const auto& k : keys) {
    auto it = std::find(c.levels.begin(), c.levels.end(), k);
    if (it == c.levels.end()) {
      c.levels.push_back(k);
      it = c.levels.end() - 1;
    }
    c.codes.push_back(static_cast<std::int32_t>(it - c.levels.begin()));
  }
  return c;
}

struct data {
  std::vector<double> y, score;
  std::vector<std::string> country, device;
};

data random_data(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  data d;
  const std::vector<std::string> countries{"FR", "DE", "10", "9", "UK"};  // mixed: sorted by bytes
  const std::vector<std::string> devices{"phone", "desktop"};
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = rng() % countries.size();
    const double y = (rng() % 100) < 35 + 8 * c ? 1 : 0;
    // Scores on a grid of 21 values: many ties; better separation in some countries.
    const double noise = static_cast<double>(rng() % 21) / 20.0;
    const double s = std::round(20 * std::clamp(0.5 * noise + (y ? 0.1 * c : 0.0), 0.0, 1.0)) / 20;
    d.y.push_back(y);
    d.score.push_back(s);
    d.country.push_back(countries[c]);
    d.device.push_back(devices[rng() % 2]);
  }
  return d;
}

TEST(Slices, EachSliceIsTheReportOfItsRowsAlone) {
  const data d = random_data(1500, 7);
  prediction_options po;
  po.pos_label = "1";
  const auto table = predictions_from_scores(d.y, d.score, po);
  for (bool ci : {false, true}) {
    evaluate_options eo;
    if (ci) eo.ci_level = 0.9, eo.replicates = 200, eo.seed = 3;
    const std::vector<slice_column> by{column_of("country", d.country), column_of("device", d.device)};
    for (std::size_t nby : {1, 2}) {
      const auto sr = evaluate_slices(table, std::span<const slice_column>(by.data(), nby), eo);
      expect_same_report(sr.overall, evaluate(table, eo), "overall");
      std::size_t total = 0;
      for (const auto& s : sr.slices) {
        std::vector<double> ys, ss;
        for (std::size_t i = 0; i < d.y.size(); ++i) {
          if (d.country[i] != s.key[0] || (nby == 2 && d.device[i] != s.key[1])) continue;
          ys.push_back(d.y[i]);
          ss.push_back(d.score[i]);
        }
        ASSERT_TRUE(s.r.has_value()) << s.reason;
        EXPECT_EQ(s.rows, ys.size());
        total += s.rows;
        expect_same_report(*s.r, evaluate(predictions_from_scores(ys, ss, po), eo), "slice " + s.key[0]);
      }
      EXPECT_EQ(total, d.y.size());
      // Keys sorted by bytes (the country codes are not all numbers); pairs in (country, device) order.
      EXPECT_EQ(sr.slices.front().key[0], "10");
      EXPECT_EQ(sr.slices.size(), nby == 1 ? 5u : 10u);
      // Table values are the slice reports' values.
      for (const auto& m : sr.metrics) {
        for (const auto& row : m.rows) {
          for (const auto& x : sr.slices[row.slice].r->metrics)
            if (x.name == m.name) expect_same_value(row.v, x.v, m.name);
        }
      }
      EXPECT_EQ(sr.metrics.back().name, "roc_auc");
    }
  }
}

TEST(Slices, MulticlassLabelsKeepTheTableClasses) {
  // Slice "b" never has class "z" as truth or prediction: its report still has the three classes,
  // as a table built with the same rows and class list would.
  const std::vector<std::string> y{"x", "y", "z", "x", "y", "x", "y", "x"};
  const std::vector<std::string> p{"x", "z", "z", "y", "y", "x", "x", "y"};
  const std::vector<std::string> k{"a", "a", "a", "a", "b", "b", "b", "b"};
  const auto table = predictions_from_labels(y, p);
  const std::vector<slice_column> by{column_of("k", k)};
  const auto sr = evaluate_slices(table, by);
  ASSERT_EQ(sr.slices.size(), 2u);
  EXPECT_EQ(sr.slices[1].r->labels, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(sr.metrics.size(), 2u);  // accuracy and error rate
  EXPECT_EQ(sr.metrics[0].rows[1].v.v, 0.5);
  // Too few rows for a test: undefined with the reason.
  EXPECT_FALSE(sr.metrics[0].rows[0].p_value.defined());
  EXPECT_EQ(sr.metrics[0].rows[0].p_value.reason, "4 rows; a test needs at least 10");
}

TEST(Slices, ProbabilitiesAndWeightsToo) {
  // Class probabilities of 3 classes with sample weights: each slice equals the table built from its
  // rows alone (the same class list, named), and weighted rows have no tests.
  std::mt19937_64 rng(17);
  const std::size_t n = 600;
  std::vector<double> y(n), proba(3 * n), w(n);
  std::vector<std::string> k(n);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = static_cast<double>(rng() % 3);
    double a = 1 + rng() % 5, b = 1 + rng() % 5, c = 1 + rng() % 5;
    a += 3 * (y[i] == 0), b += 3 * (y[i] == 1), c += 3 * (y[i] == 2);
    proba[3 * i] = a / (a + b + c), proba[3 * i + 1] = b / (a + b + c), proba[3 * i + 2] = c / (a + b + c);
    w[i] = static_cast<double>(1 + rng() % 4) / 2;
    k[i] = std::string(1, static_cast<char>('p' + rng() % 4));
  }
  const std::vector<std::string> classes{"0", "1", "2"};
  prediction_options po;
  po.sample_weight = w;
  const auto table = predictions_from_proba(y, proba, classes, po);
  evaluate_options eo;
  eo.keep_curves = true;
  const auto sr = evaluate_slices(table, std::vector<slice_column>{column_of("k", k)}, eo);
  ASSERT_EQ(sr.slices.size(), 4u);
  for (const auto& s : sr.slices) {
    std::vector<double> ys, ps, ws;
    for (std::size_t i = 0; i < n; ++i) {
      if (k[i] != s.key[0]) continue;
      ys.push_back(y[i]);
      ps.insert(ps.end(), {proba[3 * i], proba[3 * i + 1], proba[3 * i + 2]});
      ws.push_back(w[i]);
    }
    prediction_options pw;
    pw.sample_weight = ws;
    ASSERT_TRUE(s.r.has_value()) << s.reason;
    expect_same_report(*s.r, evaluate(predictions_from_proba(ys, ps, classes, pw), eo), "slice " + s.key[0]);
    EXPECT_TRUE(same_bits(s.r->total_weight, evaluate(predictions_from_proba(ys, ps, classes, pw), eo).total_weight));
  }
  EXPECT_EQ(sr.metrics[0].rows[0].p_value.reason, "weighted rows");
  EXPECT_FALSE(sr.metrics[0].chi2.has_value());
}

// ---- DeLong: slice and rest against all pairs -----------------------------------------------------

struct brute {
  double auc, var;
};

brute brute_force(const std::vector<int>& y, const std::vector<double>& s) {
  std::vector<double> pos, neg;
  for (std::size_t i = 0; i < y.size(); ++i) (y[i] ? pos : neg).push_back(s[i]);
  const double m = pos.size(), n = neg.size();
  auto psi = [](double a, double b) { return a > b ? 1.0 : a == b ? 0.5 : 0.0; };
  std::vector<double> v10(pos.size(), 0), v01(neg.size(), 0);
  double auc = 0;
  for (std::size_t i = 0; i < pos.size(); ++i)
    for (std::size_t j = 0; j < neg.size(); ++j) {
      const double p = psi(pos[i], neg[j]);
      v10[i] += p / n;
      v01[j] += p / m;
      auc += p;
    }
  auc /= m * n;
  double s10 = 0, s01 = 0;
  for (double v : v10) s10 += (v - auc) * (v - auc);
  for (double v : v01) s01 += (v - auc) * (v - auc);
  return {auc, s10 / (m - 1) / m + s01 / (n - 1) / n};
}

TEST(SlicesDelong, SliceAndRestEqualBruteForce) {
  std::mt19937_64 rng(11);
  for (int rep = 0; rep < 20; ++rep) {
    const std::size_t n = 50 + rng() % 300, k = 1 + rng() % 6;
    const int grid = 2 + static_cast<int>(rng() % 30);  // few distinct scores: many ties
    std::vector<std::int32_t> y(n), code(n);
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<std::int32_t>(rng() % 2);
      code[i] = static_cast<std::int32_t>(rng() % k);
      s[i] = static_cast<double>(rng() % grid) + (y[i] ? (rng() % 3) : 0);
    }
    const auto groups = stats::group_rows(code, k);
    const auto got = stats::delong_slices_vs_rest(y, s, groups);
    ASSERT_EQ(got.size(), k);
    for (std::size_t c = 0; c < k; ++c) {
      std::vector<int> ys, yr;
      std::vector<double> ss, sr;
      for (std::size_t i = 0; i < n; ++i) {
        (code[i] == static_cast<std::int32_t>(c) ? ys : yr).push_back(y[i]);
        (code[i] == static_cast<std::int32_t>(c) ? ss : sr).push_back(s[i]);
      }
      auto check = [&](const stats::auc_variance& a, const std::vector<int>& yy, const std::vector<double>& sv,
                       const char* what) {
        std::size_t m = 0;
        for (int v : yy) m += v;
        EXPECT_EQ(a.n_pos, m) << what;
        EXPECT_EQ(a.n_neg, yy.size() - m) << what;
        if (m < 2 || yy.size() - m < 2) {
          EXPECT_FALSE(a.variance.defined()) << what;
          return;
        }
        const brute b = brute_force(yy, sv);
        ASSERT_TRUE(a.variance.defined()) << what;
        EXPECT_NEAR(a.auc.v, b.auc, 1e-12) << what << " rep " << rep << " slice " << c;
        EXPECT_NEAR(a.variance.v, b.var, 1e-12 + 1e-9 * b.var) << what << " rep " << rep << " slice " << c;
      };
      check(got[c].slice, ys, ss, "slice");
      if (k > 1) check(got[c].rest, yr, sr, "rest");
    }
  }
}

TEST(SlicesDelong, UnpairedFromVariancesIsTheUnpairedTest) {
  // The same numbers as delong_unpaired_test on the two samples' rows.
  std::mt19937_64 rng(5);
  std::vector<std::int32_t> ya(80), yb(120);
  std::vector<double> sa(80), sb(120);
  for (auto& v : ya) v = static_cast<std::int32_t>(rng() % 2);
  for (auto& v : yb) v = static_cast<std::int32_t>(rng() % 2);
  for (std::size_t i = 0; i < sa.size(); ++i) sa[i] = static_cast<double>(rng() % 10) + ya[i];
  for (std::size_t i = 0; i < sb.size(); ++i) sb[i] = static_cast<double>(rng() % 10) + 2 * yb[i];
  const auto want = stats::delong_unpaired_test(ya, sa, yb, sb);
  const auto got =
      stats::delong_unpaired_from_variances(stats::delong_auc_variance(ya, sa), stats::delong_auc_variance(yb, sb));
  EXPECT_NEAR(got.test.statistic, want.test.statistic, 1e-12);
  EXPECT_NEAR(got.test.df, want.test.df, 1e-9);
  EXPECT_NEAR(got.test.p_value, want.test.p_value, 1e-12);
}

// ---- DeLong from the groups of tied scores ------------------------------------------------------

void expect_same_summary(const stats::auc_variance& a, const stats::auc_variance& b, const std::string& what) {
  EXPECT_EQ(a.n_pos, b.n_pos) << what;
  EXPECT_EQ(a.n_neg, b.n_neg) << what;
  expect_same_value(a.auc, b.auc, what + " auc");
  expect_same_value(a.variance, b.variance, what + " variance");
}

// The groups' counts of rows, built naively (a map from score to each slice's counts), with the
// entries of each group shuffled, entries of no row added for slices absent from the group, and now
// and then a group with no entry or with only entries of no row: none of which may change a bit.
struct tie_groups {
  std::vector<stats::slice_tie_counts> counts;
  std::vector<std::size_t> starts{0};
};

tie_groups groups_of(const std::vector<std::int32_t>& y, const std::vector<double>& s,
                     const std::vector<std::int32_t>& code, std::size_t K, std::mt19937_64& rng) {
  std::map<double, std::vector<std::pair<std::uint64_t, std::uint64_t>>> at;
  for (std::size_t i = 0; i < y.size(); ++i) {
    auto& c = at.try_emplace(s[i], K).first->second[static_cast<std::size_t>(code[i])];
    ++(y[i] ? c.first : c.second);
  }
  tie_groups t;
  auto close = [&] { t.starts.push_back(t.counts.size()); };
  for (const auto& [score, per_slice] : at) {
    if (rng() % 8 == 0) close();  // an empty group
    if (rng() % 8 == 0) {         // a group of entries with no row
      t.counts.push_back({static_cast<std::uint32_t>(rng() % K), 0, 0});
      close();
    }
    const std::size_t first = t.counts.size();
    for (std::size_t k = 0; k < K; ++k) {
      const auto [p, q] = per_slice[k];
      if (p + q > 0 || rng() % 3 == 0) t.counts.push_back({static_cast<std::uint32_t>(k), p, q});
    }
    std::shuffle(t.counts.begin() + static_cast<std::ptrdiff_t>(first), t.counts.end(), rng);
    close();
  }
  return t;
}

TEST(SlicesDelong, GroupVersionEqualsRowVersionBitForBit) {
  std::mt19937_64 rng(24);
  for (int rep = 0; rep < 140; ++rep) {
    const std::size_t K = 1 + static_cast<std::size_t>(rep) % 7;
    const std::size_t n = 1 + rng() % (rep % 10 == 0 ? 5 : 400);
    const int grid = 1 + static_cast<int>(rng() % 25);  // few distinct scores: many ties
    std::vector<std::int32_t> y(n), code(n);
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = static_cast<std::int32_t>(rng() % 2);
      code[i] = static_cast<std::int32_t>(rng() % K);
      s[i] = static_cast<double>(rng() % grid) * 0.25 + (y[i] ? static_cast<double>(rng() % 3) : 0.0);
    }
    if (K > 2 && rep % 5 == 2) {  // slice 1 without a row
      for (auto& c : code) c = c == 1 ? 0 : c;
    }
    if (K > 1 && rep % 4 == 1) {  // the last slice with one row
      for (auto& c : code) c = c == static_cast<std::int32_t>(K - 1) ? 0 : c;
      code[rng() % n] = static_cast<std::int32_t>(K - 1);
    }
    if (rep % 3 == 0) {  // slice 0 with one class only
      for (std::size_t i = 0; i < n; ++i) y[i] = code[i] == 0 ? rep % 2 : y[i];
    }
    const auto want = stats::delong_slices_vs_rest(y, s, stats::group_rows(code, K));
    const tie_groups t = groups_of(y, s, code, K, rng);
    const auto got = stats::delong_slices_vs_rest(t.counts, t.starts, K);
    ASSERT_EQ(got.size(), K);
    for (std::size_t k = 0; k < K; ++k) {
      const std::string where = "rep " + std::to_string(rep) + " slice " + std::to_string(k);
      expect_same_summary(got[k].slice, want[k].slice, where + " (slice)");
      expect_same_summary(got[k].rest, want[k].rest, where + " (rest)");
    }
  }
}

// DeLong's placements from the counts by brute force over pairs of groups, in long double: a positive
// at group g is placed at (negatives below g + half the negatives at g) / n, a negative at
// (positives above g + half the positives at g) / m; AUC = mean placement of the positives,
// Var = S10 / m + S01 / n with S10, S01 the sample variances of the placements.
brute brute_from_counts(const std::vector<std::uint64_t>& p, const std::vector<std::uint64_t>& q) {
  using real = long double;
  const std::size_t G = p.size();
  real m = 0, n = 0;
  for (std::size_t g = 0; g < G; ++g) m += p[g], n += q[g];
  std::vector<real> v10(G), v01(G);
  for (std::size_t g = 0; g < G; ++g) {
    real below = 0, above = 0;
    for (std::size_t h = 0; h < G; ++h) {
      if (h < g) below += q[h];
      if (h > g) above += p[h];
    }
    v10[g] = (below + static_cast<real>(q[g]) / 2) / n;
    v01[g] = (above + static_cast<real>(p[g]) / 2) / m;
  }
  real auc = 0;
  for (std::size_t g = 0; g < G; ++g) auc += p[g] * v10[g];
  auc /= m;
  real s10 = 0, s01 = 0;
  for (std::size_t g = 0; g < G; ++g) {
    s10 += p[g] * (v10[g] - auc) * (v10[g] - auc);
    s01 += q[g] * (v01[g] - auc) * (v01[g] - auc);
  }
  return {static_cast<double>(auc), static_cast<double>(s10 / (m - 1) / m + s01 / (n - 1) / n)};
}

TEST(SlicesDelong, GroupVersionWithLargeCountsEqualsBruteForce) {
  std::mt19937_64 rng(53);
  for (int rep = 0; rep < 40; ++rep) {
    const std::size_t K = 1 + static_cast<std::size_t>(rep) % 7, G = 3 + rng() % 40;
    std::vector<std::vector<std::uint64_t>> sp(K, std::vector<std::uint64_t>(G, 0)), sn = sp;
    tie_groups t;
    for (std::size_t g = 0; g < G; ++g) {
      for (std::size_t k = 0; k < K; ++k) {
        if (rng() % 2) continue;
        // up to 10^6 of each class; now and then a slice with at most one row of a class
        const std::uint64_t top = (k == 0 && rep % 4 == 0) ? 1 : 1'000'000;
        sp[k][g] = rng() % (top + 1);
        sn[k][g] = rng() % 5 == 0 ? 0 : rng() % (top + 1);
        t.counts.push_back({static_cast<std::uint32_t>(k), sp[k][g], sn[k][g]});
      }
      t.starts.push_back(t.counts.size());
    }
    const auto got = stats::delong_slices_vs_rest(t.counts, t.starts, K);
    ASSERT_EQ(got.size(), K);
    for (std::size_t k = 0; k < K; ++k) {
      std::vector<std::uint64_t> rp(G, 0), rn(G, 0);
      for (std::size_t j = 0; j < K; ++j) {
        if (j == k) continue;
        for (std::size_t g = 0; g < G; ++g) rp[g] += sp[j][g], rn[g] += sn[j][g];
      }
      auto check = [&](const stats::auc_variance& a, const std::vector<std::uint64_t>& p,
                       const std::vector<std::uint64_t>& q, const char* what) {
        const std::string where = std::string(what) + " rep " + std::to_string(rep) + " slice " + std::to_string(k);
        std::uint64_t m = 0, n = 0;
        for (std::size_t g = 0; g < G; ++g) m += p[g], n += q[g];
        EXPECT_EQ(a.n_pos, m) << where;
        EXPECT_EQ(a.n_neg, n) << where;
        EXPECT_EQ(a.auc.defined(), m > 0 && n > 0) << where;
        EXPECT_EQ(a.variance.defined(), m > 1 && n > 1) << where;
        if (m < 2 || n < 2) return;
        const brute b = brute_from_counts(p, q);
        EXPECT_NEAR(a.auc.v, b.auc, 1e-12 * b.auc) << where;
        EXPECT_NEAR(a.variance.v, b.var, 1e-12 * b.var) << where;
      };
      check(got[k].slice, sp[k], sn[k], "slice");
      check(got[k].rest, rp, rn, "rest");
    }
  }
}

// Near the bound of 2^42 rows: counts up to 2^37 in 3 slices x 5 groups (the 128-bit sums must not
// overflow), against the brute force.
TEST(SlicesDelong, GroupVersionNearTheBoundEqualsBruteForce) {
  std::mt19937_64 rng(97);
  for (int rep = 0; rep < 10; ++rep) {
    const std::size_t K = 3, G = 5;
    std::vector<std::vector<std::uint64_t>> sp(K, std::vector<std::uint64_t>(G)), sn = sp;
    tie_groups t;
    for (std::size_t g = 0; g < G; ++g) {
      for (std::size_t k = 0; k < K; ++k) {
        sp[k][g] = rng() % (std::uint64_t{1} << 37), sn[k][g] = rng() % (std::uint64_t{1} << 37);
        t.counts.push_back({static_cast<std::uint32_t>(k), sp[k][g], sn[k][g]});
      }
      t.starts.push_back(t.counts.size());
    }
    const auto got = stats::delong_slices_vs_rest(t.counts, t.starts, K);
    for (std::size_t k = 0; k < K; ++k) {
      std::vector<std::uint64_t> rp(G, 0), rn(G, 0);
      for (std::size_t j = 0; j < K; ++j)
        for (std::size_t g = 0; g < G && j != k; ++g) rp[g] += sp[j][g], rn[g] += sn[j][g];
      const brute bs = brute_from_counts(sp[k], sn[k]), br = brute_from_counts(rp, rn);
      EXPECT_NEAR(got[k].slice.auc.v, bs.auc, 1e-12 * bs.auc) << rep << " " << k;
      EXPECT_NEAR(got[k].slice.variance.v, bs.var, 1e-12 * bs.var) << rep << " " << k;
      EXPECT_NEAR(got[k].rest.auc.v, br.auc, 1e-12 * br.auc) << rep << " " << k;
      EXPECT_NEAR(got[k].rest.variance.v, br.var, 1e-12 * br.var) << rep << " " << k;
    }
  }
}

// A small rest beside a large slice: slice 0 has 10^9 positives and 10^9 negatives in every other
// of 20 groups, slice 1 (the rest of slice 0) 7 rows. Over the groups without slice 0, the rest's
// sums come from the whole's prefix sums (about 10^30) less the slice's share, which must not
// cancel the rest's variance away.
TEST(SlicesDelong, SmallRestBesideALargeSliceEqualsBruteForce) {
  const std::size_t G = 20;
  std::vector<std::uint64_t> p(G, 0), q(G, 0);
  p[3] = 1, q[5] = 2, p[9] = 1, q[9] = 1, p[14] = 1, q[17] = 1;
  tie_groups t;
  for (std::size_t g = 0; g < G; ++g) {
    if (g % 2 == 0) t.counts.push_back({0, 1'000'000'000, 1'000'000'000});
    if (p[g] + q[g] > 0) t.counts.push_back({1, p[g], q[g]});
    t.starts.push_back(t.counts.size());
  }
  const auto got = stats::delong_slices_vs_rest(t.counts, t.starts, 2);
  const brute b = brute_from_counts(p, q);
  EXPECT_NEAR(got[0].rest.auc.v, b.auc, 1e-12 * b.auc);
  EXPECT_NEAR(got[0].rest.variance.v, b.var, 1e-12 * b.var);
  EXPECT_NEAR(got[1].slice.variance.v, b.var, 1e-12 * b.var);
}

TEST(SlicesDelong, GroupVersionUsageErrors) {
  using tc = stats::slice_tie_counts;
  auto msg = [](std::vector<tc> counts, std::vector<std::size_t> starts, std::size_t slices) {
    try {
      stats::delong_slices_vs_rest(counts, starts, slices);
    } catch (const error& e) {
      EXPECT_EQ(e.kind(), error_kind::usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::vector<tc> two{{0, 1, 1}, {1, 2, 0}};
  EXPECT_EQ(msg({{0, 1, 1}, {5, 1, 0}}, {0, 1, 2}, 3),
            "delong_slices_vs_rest: counts[1].slice is 5; it must be < slices = 3");
  EXPECT_EQ(msg(two, {}, 2),
            "delong_slices_vs_rest: group_starts is empty; it must start at 0 and end at counts.size() = 2");
  EXPECT_EQ(msg(two, {1, 2}, 2), "delong_slices_vs_rest: group_starts[0] is 1; it must be 0");
  EXPECT_EQ(msg(two, {0, 2, 1, 2}, 2),
            "delong_slices_vs_rest: group_starts[2] is 1, less than group_starts[1] = 2; it must never decrease");
  EXPECT_EQ(msg(two, {0, 1}, 2), "delong_slices_vs_rest: group_starts[1] is 1; the last entry must be counts.size() = 2");
  EXPECT_EQ(msg(two, {0, 3}, 2), "delong_slices_vs_rest: group_starts[1] is 3; the last entry must be counts.size() = 2");
  EXPECT_EQ(msg({{0, 1, 0}, {1, 0, 1}, {0, 0, 1}}, {0, 1, 3}, 2), "no error");  // once in each of two groups
  EXPECT_EQ(msg({{0, 1, 0}, {1, 0, 1}, {0, 0, 0}}, {0, 3}, 2),
            "delong_slices_vs_rest: counts[2].slice is 0, as is counts[0], in the same group 0 (counts[0 .. 3)); "
            "a slice has at most one entry per group");
  const std::uint64_t half = std::uint64_t{1} << 41;
  EXPECT_EQ(msg({{0, half, 0}, {1, 0, half - 1}}, {0, 1, 2}, 2), "no error");  // 2^42 - 1 rows
  EXPECT_EQ(msg({{0, half, 0}, {1, 0, half}}, {0, 1, 2}, 2),
            "delong_slices_vs_rest: at counts[1] (pos 0, neg 2199023255552) the rows add up to 2^42 or more; "
            "the total of pos and neg must stay below 2^42 = 4398046511104");
  EXPECT_EQ(msg({{0, ~std::uint64_t{0}, 1}}, {0, 1}, 1),
            "delong_slices_vs_rest: at counts[0] (pos 18446744073709551615, neg 1) the rows add up to 2^42 or more; "
            "the total of pos and neg must stay below 2^42 = 4398046511104");
  EXPECT_EQ(msg({}, {0}, 3), "no error");  // no group, no row: every AUC undefined
  const auto none = stats::delong_slices_vs_rest({}, std::vector<std::size_t>{0}, 3);
  ASSERT_EQ(none.size(), 3u);
  EXPECT_EQ(none[2].slice.auc.reason, "no positive case");
}

// ---- bad input ------------------------------------------------------------------------------------

TEST(Slices, BadArgumentsNameTheFunction) {
  const std::vector<double> y{0, 1, 0, 1}, s{0.1, 0.9, 0.2, 0.8};
  const auto table = predictions_from_scores(y, s);
  auto msg = [&](const std::vector<slice_column>& by) {
    try {
      evaluate_slices(table, by);
    } catch (const error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(msg({}), "evaluate_slices: by has 0 slice columns; give 1 or 2");
  EXPECT_EQ(msg({column_of("k", {"a", "b", "a"})}), "evaluate_slices: by[0] ('k') has 3 entries, but the table has 4 rows");
  EXPECT_EQ(msg({column_of("k", {"a", "b", "a", "b"}), column_of("k", {"a", "b", "a", "b"})}),
            "evaluate_slices: by names the column 'k' twice; give two different columns");
  slice_column bad = column_of("k", {"a", "b", "a", "b"});
  bad.codes[2] = 7;
  EXPECT_EQ(msg({bad}), "evaluate_slices: by[0].codes[2] is 7; codes must be in [0, 2)");
}

TEST(Slices, OneSliceIsTheWholeTableWithANote) {
  const std::vector<double> y{0, 1, 0, 1}, s{0.1, 0.9, 0.2, 0.8};
  const auto table = predictions_from_scores(y, s);
  const auto sr = evaluate_slices(table, std::vector<slice_column>{column_of("k", {"a", "a", "a", "a"})});
  ASSERT_EQ(sr.slices.size(), 1u);
  ASSERT_EQ(sr.notes.size(), 1u);
  EXPECT_EQ(sr.notes[0], "every row has the same key (a): one slice, the whole table; no test");
  EXPECT_EQ(sr.metrics[0].rows[0].p_value.reason, "one slice: there is no rest to compare with");
}

TEST(Slices, RendersWithoutThrowing) {
  const data d = random_data(400, 3);
  prediction_options po;
  po.pos_label = "1";
  evaluate_options eo;
  eo.ci_level = 0.95;
  eo.replicates = 50;
  const auto sr = evaluate_slices(predictions_from_scores(d.y, d.score, po),
                                  std::vector<slice_column>{column_of("country", d.country)}, eo);
  EXPECT_NE(to_text(sr).find("ROC AUC (overall"), std::string::npos);
  EXPECT_NE(to_json(sr).find("\"homogeneity_chi2\""), std::string::npos);
  EXPECT_NE(to_html(sr).find("<svg"), std::string::npos);
}

}  // namespace
