// Rows with multiplicities (row_batch::counts): a state updated with the distinct rows of the data
// and how many times each occurs equals, byte for byte, the state updated with every row (its
// serialize()), and its report equals evaluate() on all rows (JSON and kept curves), whatever the
// batches and partitioning; misuse is an error naming the argument.
#include "assay/scale/state.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <random>
#include <tuple>

#include "assay/error.hpp"

namespace assay::scale {
namespace {

struct rows {
  std::vector<std::string> y, pred;
  std::vector<double> score, w;
};

// The distinct rows and their counts: the naive GROUP BY of every column (NaN scores group together
// by their bits, as in Spark), in a shuffled order.
struct groups {
  rows r;
  std::vector<std::uint64_t> count;
};

groups group(const rows& d, bool scores, bool weighted, std::mt19937_64& g) {
  using key = std::tuple<std::string, std::string, std::uint64_t, std::uint64_t>;
  std::map<key, std::uint64_t> m;
  for (std::size_t i = 0; i < d.y.size(); ++i) {
    ++m[{d.y[i], scores ? std::string() : d.pred[i], scores ? std::bit_cast<std::uint64_t>(d.score[i]) : 0,
         weighted ? std::bit_cast<std::uint64_t>(d.w[i]) : 0}];
  }
  std::vector<std::pair<key, std::uint64_t>> v(m.begin(), m.end());
  std::shuffle(v.begin(), v.end(), g);
  groups out;
  for (const auto& [k, c] : v) {
    out.r.y.push_back(std::get<0>(k));
    if (scores) out.r.score.push_back(std::bit_cast<double>(std::get<2>(k)));
    else out.r.pred.push_back(std::get<1>(k));
    if (weighted) out.r.w.push_back(std::bit_cast<double>(std::get<3>(k)));
    out.count.push_back(c);
  }
  return out;
}

template <class T>
std::span<const T> piece(const std::vector<T>& v, std::size_t b, std::size_t e) {
  return v.empty() ? std::span<const T>{} : std::span<const T>(v).subspan(b, e - b);
}

// The rows [b, e) as a batch, with their counts when `count` is given.
row_batch batch(const rows& d, const state_options& o, std::size_t b, std::size_t e,
                const std::vector<std::uint64_t>* count = nullptr) {
  row_batch rb;
  rb.y_true = label_column::of_text(piece(d.y, b, e));
  if (o.kind == prediction_kind::scores) rb.y_score = piece(d.score, b, e);
  else rb.y_pred = label_column::of_text(piece(d.pred, b, e));
  if (o.weighted) rb.sample_weight = piece(d.w, b, e);
  if (count != nullptr) rb.counts = piece(*count, b, e);
  return rb;
}

// The state of the groups split into `parts` states of random batches, merged (some through bytes).
evaluation_state state_of_groups(const groups& gr, const state_options& o, std::size_t parts, std::mt19937_64& g) {
  const std::size_t n = gr.count.size();
  std::vector<std::size_t> cut{0, n};
  std::uniform_int_distribution<std::size_t> u(0, n);
  for (std::size_t k = 1; k < 2 * parts; ++k) cut.push_back(u(g));
  std::sort(cut.begin(), cut.end());
  std::vector<evaluation_state> states(parts, evaluation_state(o));
  for (std::size_t k = 0; k + 1 < cut.size(); ++k) states[k % parts].update(batch(gr.r, o, cut[k], cut[k + 1], &gr.count));
  evaluation_state s(o);
  for (auto& t : states) {
    if (g() & 1) s.merge(read_state(t.serialize()));
    else s.merge(t);
  }
  return s;
}

evaluation_state state_of_rows(const rows& d, const state_options& o) {
  evaluation_state s(o);
  s.update(batch(d, o, 0, d.y.size()));
  return s;
}

report evaluate_rows(const rows& d, const state_options& o, const evaluate_options& eo) {
  prediction_options po;
  po.pos_label = o.pos_label;
  po.task = o.task;
  if (o.weighted) po.sample_weight = d.w;
  const prediction_table t = o.kind == prediction_kind::scores ? predictions_from_scores(d.y, d.score, po)
                                                               : predictions_from_labels(d.y, d.pred, po);
  return evaluate(t, eo);
}

// Heavy ties: few score levels, weights from a few values whose sums are not exact in floating point
// (0.1 steps, 0, tiny), labels with two spellings of one class ("1" and "1.0").
rows make(std::size_t n, std::uint64_t seed, const std::vector<std::string>& classes, int levels) {
  std::mt19937_64 g(seed);
  rows d;
  std::uniform_int_distribution<std::size_t> cls(0, classes.size() - 1);
  std::uniform_int_distribution<int> lvl(0, levels - 1), wl(0, 6);
  std::uniform_real_distribution<double> u(0, 1);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = cls(g);
    d.y.push_back(classes[c]);
    d.score.push_back(std::min(1.0, (lvl(g) + 2.0 * static_cast<double>(c % 2)) / (levels + 2.0)));
    d.pred.push_back(u(g) < 0.6 ? classes[c] : classes[cls(g)]);
    const int k = wl(g);
    d.w.push_back(k == 0 ? 0.0 : k == 1 ? 1e-17 * (1 + lvl(g) % 3) : 0.1 * k + (k == 6 ? 1e-9 : 0.0));
  }
  return d;
}

state_options opts(prediction_kind k, bool weighted, std::optional<std::string> pos = std::nullopt) {
  state_options o;
  o.kind = k;
  o.weighted = weighted;
  o.pos_label = std::move(pos);
  o.source = k == prediction_kind::scores ? "predictions_from_scores" : "predictions_from_labels";
  return o;
}

TEST(EvaluationStateCounts, ScoresGroupedEqualEveryRowBitForBit) {
  std::mt19937_64 g(160);
  for (bool weighted : {false, true}) {
    for (int levels : {3, 40, 1000000}) {  // 1000000: almost every group a single row
      const rows d = make(5000, 161 + levels, {"0", "1", "1.0"}, levels);
      const state_options o = opts(prediction_kind::scores, weighted);
      const groups gr = group(d, true, weighted, g);
      if (levels < 1000) ASSERT_LT(gr.count.size() * 4, d.y.size());  // the groups fold many rows
      const std::string want_bytes = state_of_rows(d, o).serialize();
      evaluate_options eo;
      eo.keep_curves = true;
      const report want = evaluate_rows(d, o, eo);
      for (std::size_t parts : {1, 2, 3, 17}) {
        const evaluation_state s = state_of_groups(gr, o, parts, g);
        EXPECT_EQ(s.rows(), d.y.size());
        EXPECT_EQ(s.serialize(), want_bytes) << "weighted " << weighted << " levels " << levels << " parts " << parts;
        const report got = s.finish(eo);
        EXPECT_EQ(to_json(got), to_json(want)) << "weighted " << weighted << " levels " << levels;
        ASSERT_TRUE(got.roc && want.roc && got.calibration && want.calibration);
        EXPECT_EQ(got.roc->x, want.roc->x);
        EXPECT_EQ(got.roc->y, want.roc->y);
        EXPECT_EQ(got.calibration->weight, want.calibration->weight);
      }
    }
  }
}

TEST(EvaluationStateCounts, PredictedClassesGroupedEqualEveryRow) {
  std::mt19937_64 g(162);
  for (bool weighted : {false, true}) {
    const rows d = make(4000, 163, {"cat", "dog", "emu", "1", "1.0"}, 5);
    const state_options o = opts(prediction_kind::labels, weighted);
    const groups gr = group(d, false, weighted, g);
    const std::string want_bytes = state_of_rows(d, o).serialize();
    const std::string want = to_json(evaluate_rows(d, o, {}));
    for (std::size_t parts : {1, 3, 17}) {
      const evaluation_state s = state_of_groups(gr, o, parts, g);
      EXPECT_EQ(s.serialize(), want_bytes) << "weighted " << weighted << " parts " << parts;
      EXPECT_EQ(to_json(s.finish()), want) << "weighted " << weighted << " parts " << parts;
    }
  }
}

TEST(EvaluationStateCounts, UnweightedIntervalsFromGroupedCounts) {
  // Analytic intervals and the DeLong variance come from the counts and runs: no row ids needed.
  std::mt19937_64 g(164);
  const rows d = make(3000, 165, {"ham", "spam"}, 25);
  const state_options o = opts(prediction_kind::scores, false, "spam");
  evaluate_options eo;
  eo.ci_level = 0.9;
  eo.ci_method = ci_method::wilson;
  const std::string want = to_json(evaluate_rows(d, o, eo));
  EXPECT_NE(want.find("roc_auc_ci"), std::string::npos);
  for (std::size_t parts : {1, 2, 3}) {
    EXPECT_EQ(to_json(state_of_groups(group(d, true, false, g), o, parts, g).finish(eo)), want);
  }
}

TEST(EvaluationStateCounts, LargeCountsAreExact) {
  // A count of 2^40 rows of weight 0.1 (not a binary fraction): the weight sum 0.1 * 2^40 and the
  // loss sums are the exact products rounded once, as the sum of 2^40 rows would be.
  state_options o = opts(prediction_kind::scores, true);
  evaluation_state s(o);
  const std::vector<std::string> y{"1", "0"};
  const std::vector<double> sc{0.75, 0.25}, w{0.1, 0.3};
  const std::uint64_t big = std::uint64_t{1} << 40;
  const std::vector<std::uint64_t> c{big, 3};
  row_batch b;
  b.y_true = label_column::of_text(y);
  b.y_score = sc;
  b.sample_weight = w;
  b.counts = c;
  s.update(b);
  EXPECT_EQ(s.rows(), big + 3);
  const report r = s.finish();
  EXPECT_EQ(r.rows, big + 3);
  // 0.1 * 2^40 is exact (a power of two), plus 3 * 0.3 rounded once: the double nearest the exact sum.
  const long double exact = std::ldexp(static_cast<long double>(0.1), 40) + 3.0L * static_cast<long double>(0.3);
  EXPECT_EQ(r.total_weight, static_cast<double>(exact));
}

TEST(EvaluationStateCounts, DropMissingSkipsTheGroupsRows) {
  state_options o = opts(prediction_kind::scores, false);
  o.drop_missing = true;
  const std::vector<std::string> y{"0", "1", "1"};
  const std::vector<double> sc{0.1, std::nan(""), 0.7};
  const std::vector<std::uint64_t> c{2, 5, 3};
  evaluation_state s(o);
  row_batch b;
  b.y_true = label_column::of_text(y);
  b.y_score = sc;
  b.counts = c;
  s.update(b);
  EXPECT_EQ(s.rows(), 5U);
  EXPECT_EQ(s.missing(), 5U);
  const rows d{{"0", "0", "1", "1", "1"}, {}, {0.1, 0.1, 0.7, 0.7, 0.7}, {}};
  EXPECT_EQ(to_json(s.finish()), to_json(evaluate_rows(d, o, {})));
  o.drop_missing = false;
  evaluation_state refuse(o);
  try {
    refuse.update(b);
    FAIL() << "a missing score without drop_missing";
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::update: y_score[1] is nan; missing values are refused (set drop_missing "
                           "to skip such rows)");
  }
  EXPECT_EQ(refuse.rows(), 0U);  // unchanged
}

TEST(EvaluationStateCounts, MisuseIsAnErrorNamingTheArgument) {
  const std::vector<std::string> y{"0", "1"};
  const std::vector<double> sc{0.2, 0.8};
  auto expect = [&](state_options o, std::vector<std::uint64_t> c, const char* msg) {
    evaluation_state s(o);
    row_batch b;
    b.y_true = label_column::of_text(y);
    b.y_score = sc;
    b.counts = c;
    try {
      s.update(b);
      ADD_FAILURE() << "no error for: " << msg;
    } catch (const error& e) {
      EXPECT_STREQ(e.what(), msg);
    }
    EXPECT_EQ(s.rows(), 0U);
  };
  const state_options o = opts(prediction_kind::scores, false);
  expect(o, {1}, "evaluation_state::update: counts has 1 entries, but y_true has 2");
  expect(o, {1, 0}, "evaluation_state::update: counts[1] is 0; a count must be at least 1");
  state_options ids = o;
  ids.row_ids = true;
  expect(ids, {1, 2},
         "evaluation_state::update: counts cannot be given to a state that keeps row ids (row_ids: each row needs its "
         "own id)");
  expect(o, {std::numeric_limits<std::uint64_t>::max(), 1},
         "evaluation_state::update: the counts overflow a 64-bit row count");
}

}  // namespace
}  // namespace assay::scale
