// The mergeable evaluation state (include/assay/scale/state.hpp): the report from any partitioning
// and any merge order, through serialised bytes or not, is evaluate()'s report on all rows, byte for
// byte in JSON; corrupt and foreign blobs are errors.
#include "assay/scale/state.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "assay/error.hpp"

namespace assay::scale {
namespace {

// Random cut points: `parts` contiguous pieces of [0, n) (some may be empty).
std::vector<std::size_t> cuts(std::size_t n, std::size_t parts, std::mt19937_64& g) {
  std::vector<std::size_t> c{0, n};
  std::uniform_int_distribution<std::size_t> u(0, n);
  for (std::size_t k = 1; k < parts; ++k) c.push_back(u(g));
  std::sort(c.begin(), c.end());
  return c;
}

template <class T>
std::span<const T> piece(const std::vector<T>& v, std::size_t b, std::size_t e) {
  return v.empty() ? std::span<const T>{} : std::span<const T>(v).subspan(b, e - b);
}

// Merges the states in a random binary tree, some through their bytes.
evaluation_state merge_randomly(std::vector<evaluation_state> s, std::mt19937_64& g) {
  while (s.size() > 1) {
    std::uniform_int_distribution<std::size_t> u(0, s.size() - 1);
    const std::size_t a = u(g);
    std::size_t b = u(g);
    if (a == b) continue;
    evaluation_state other = (g() & 1) ? read_state(s[b].serialize()) : s[b];
    if (g() & 1) s[a].merge(std::move(other));  // takes other's runs
    else s[a].merge(other);
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(b));
  }
  return std::move(s[0]);
}

struct data {
  std::vector<std::string> y;      // text labels
  std::vector<double> score;
  std::vector<std::string> pred;
  std::vector<double> w;
};

report state_report(const data& d, const state_options& o, std::size_t parts, std::mt19937_64& g,
                    const evaluate_options& eo = {}) {
  const auto c = cuts(d.y.size(), parts, g);
  std::vector<evaluation_state> states;
  for (std::size_t k = 0; k + 1 < c.size(); ++k) {
    evaluation_state s(o);
    // Each piece in one or two batches.
    const std::size_t mid = c[k] + (c[k + 1] - c[k]) / 2;
    for (auto [b, e] : {std::pair{c[k], mid}, std::pair{mid, c[k + 1]}}) {
      row_batch rb;
      rb.y_true = label_column::of_text(piece(d.y, b, e));
      if (o.kind == prediction_kind::scores) rb.y_score = piece(d.score, b, e);
      else rb.y_pred = label_column::of_text(piece(d.pred, b, e));
      if (o.weighted) rb.sample_weight = piece(d.w, b, e);
      rb.first_row_id = b;  // the rows' indices in the data: evaluate's Poisson weights
      s.update(rb);
    }
    states.push_back(std::move(s));
  }
  std::shuffle(states.begin(), states.end(), g);
  return merge_randomly(std::move(states), g).finish(eo);
}

std::string state_json(const data& d, const state_options& o, std::size_t parts, std::mt19937_64& g,
                       const evaluate_options& eo = {}) {
  return to_json(state_report(d, o, parts, g, eo));
}

// The kept curves (not in the JSON) as text, every number in hexadecimal (exact).
std::string curves_text(const report& r) {
  std::string out;
  auto nums = [&](const char* what, const std::vector<double>& v) {
    out += what;
    for (double x : v) out += fmt::format(" {:a}", x);
    out += '\n';
  };
  auto curve = [&](const char* what, const std::optional<curve_sample>& c) {
    if (!c) return void(out += fmt::format("{}: none\n", what));
    out += fmt::format("{}: {} points, band {}\n", what, c->points, c->band_method);
    nums("x", c->x), nums("y", c->y), nums("lo", c->y_lo), nums("hi", c->y_hi);
  };
  curve("roc", r.roc);
  curve("pr", r.pr);
  if (r.thresholds) {
    for (const auto* c : {&r.thresholds->f1, &r.thresholds->precision, &r.thresholds->recall, &r.thresholds->fpr}) {
      curve("threshold", *c);
    }
    for (const auto& v : {r.thresholds->max_f1_threshold, r.thresholds->max_f1, r.thresholds->youden_threshold,
                          r.thresholds->youden_tpr, r.thresholds->youden_fpr}) {
      out += v ? fmt::format(" {:a}", *v) : std::string(" -");
    }
    out += '\n';
  }
  if (r.calibration) {
    nums("pred", r.calibration->prob_pred), nums("true", r.calibration->prob_true), nums("w", r.calibration->weight);
    out += fmt::format("ece {} {}\n", r.calibration->ece.defined() ? fmt::format("{:a}", r.calibration->ece.v) : "-",
                       r.calibration->ece.reason);
  }
  return out;
}

data make(std::size_t n, std::uint64_t seed, std::vector<std::string> classes, bool weighted, int score_levels) {
  std::mt19937_64 g(seed);
  data d;
  std::uniform_int_distribution<std::size_t> cls(0, classes.size() - 1);
  std::uniform_int_distribution<int> lvl(0, score_levels - 1);
  std::uniform_real_distribution<double> u(0, 1);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = cls(g);
    d.y.push_back(classes[c]);
    // Scores with ties, a little informative.
    d.score.push_back(std::min(1.0, (lvl(g) + 3.0 * static_cast<double>(c)) / (score_levels + 3.0)));
    d.pred.push_back(u(g) < 0.6 ? classes[c] : classes[cls(g)]);
    // Weights whose sums are not exact in floating point (0.1 steps, some 0, some tiny).
    const double r = u(g);
    d.w.push_back(r < 0.1 ? 0.0 : r < 0.2 ? 1e-17 * u(g) : std::round(r * 30) * 0.1);
  }
  return d;
}

report evaluate_report(const data& d, const state_options& o, const evaluate_options& eo = {}) {
  prediction_options po;
  po.pos_label = o.pos_label;
  po.task = o.task;
  if (o.weighted) po.sample_weight = d.w;
  prediction_table t = o.kind == prediction_kind::scores ? predictions_from_scores(d.y, d.score, po)
                                                         : predictions_from_labels(d.y, d.pred, po);
  return evaluate(t, eo);
}

std::string evaluate_json(const data& d, const state_options& o, const evaluate_options& eo = {}) {
  return to_json(evaluate_report(d, o, eo));
}

state_options opts(prediction_kind k, bool weighted, std::optional<std::string> pos = std::nullopt) {
  state_options o;
  o.kind = k;
  o.weighted = weighted;
  o.pos_label = std::move(pos);
  o.source = k == prediction_kind::scores ? "predictions_from_scores" : "predictions_from_labels";
  return o;
}

TEST(EvaluationState, ScoresEqualEvaluateForAnyPartitioningAndMergeOrder) {
  std::mt19937_64 g(11);
  for (bool weighted : {false, true}) {
    for (int levels : {5, 1000000}) {
      const data d = make(3000, 7 + levels, {"0", "1"}, weighted, levels);
      const state_options o = opts(prediction_kind::scores, weighted);
      const std::string want = evaluate_json(d, o);
      for (std::size_t parts : {1, 2, 3, 17}) {
        for (int rep = 0; rep < 3; ++rep) {
          EXPECT_EQ(state_json(d, o, parts, g), want) << "weighted " << weighted << " parts " << parts;
        }
      }
    }
  }
}

TEST(EvaluationState, LargeBatchesEqualEvaluate) {
  // Batches of more than 2^16 rows: the compaction's radix sort on several threads (from 2^17) and
  // its per-key ordering by spelling, with heavy ties over three spellings, and distinct scores.
  std::mt19937_64 g(17);
  for (bool weighted : {false, true}) {
    for (int levels : {40, 1000000}) {
      const data d = make(300000, 31 + levels, {"0", "1", "1.0"}, weighted, levels);
      const state_options o = opts(prediction_kind::scores, weighted);
      const std::string want = evaluate_json(d, o);
      for (std::size_t parts : {1, 3}) {
        EXPECT_EQ(state_json(d, o, parts, g), want) << "weighted " << weighted << " levels " << levels;
      }
    }
  }
}

TEST(EvaluationState, ManySpellingsOfTwoClassesAtTiedScores) {
  // Ten spellings of the two classes at five scores: each score key holds up to ten spellings, more
  // than the compaction tallies in place (8), so its rows are sorted by spelling instead.
  std::mt19937_64 g(18);
  const std::vector<std::string> spellings{"0", "0.0", "0.00", "0e0", "0.000", "1", "1.0", "1.00", "1e0", "1.000"};
  for (bool weighted : {false, true}) {
    data d = make(20000, 41, spellings, weighted, 5);
    std::uniform_int_distribution<int> lvl(0, 4);
    for (double& x : d.score) x = lvl(g) / 4.0;  // the scores shared by every spelling
    const state_options o = opts(prediction_kind::scores, weighted);
    const std::string want = evaluate_json(d, o);
    for (std::size_t parts : {1, 3}) EXPECT_EQ(state_json(d, o, parts, g), want) << "weighted " << weighted;
    // The run list itself: one state of all rows and two merged halves give the same canonical bytes,
    // which read back (runs checked sorted and unique) into evaluate's report.
    auto state_of = [&](std::size_t b, std::size_t e) {
      evaluation_state st(o);
      row_batch rb;
      rb.y_true = label_column::of_text(piece(d.y, b, e));
      rb.y_score = piece(d.score, b, e);
      if (weighted) rb.sample_weight = piece(d.w, b, e);
      st.update(rb);
      return st;
    };
    evaluation_state all = state_of(0, d.y.size()), half = state_of(0, 7000);
    half.merge(state_of(7000, d.y.size()));
    const std::string bytes = all.serialize();
    EXPECT_EQ(half.serialize(), bytes);
    EXPECT_EQ(to_json(read_state(bytes).finish()), want);
  }
}

TEST(EvaluationState, TextLabelsWithPositiveClassAndBeta) {
  std::mt19937_64 g(12);
  const data d = make(2000, 3, {"spam", "ham"}, true, 20);
  const state_options o = opts(prediction_kind::scores, true, "spam");
  evaluate_options eo;
  eo.beta = 2;
  const std::string want = evaluate_json(d, o, eo);
  for (std::size_t parts : {1, 2, 3, 17}) EXPECT_EQ(state_json(d, o, parts, g, eo), want);
}

TEST(EvaluationState, PredictedLabelsMulticlassWeightedAndNot) {
  std::mt19937_64 g(13);
  for (bool weighted : {false, true}) {
    const data d = make(2500, 5, {"a", "b", "c", "d"}, weighted, 3);
    const state_options o = opts(prediction_kind::labels, weighted);
    const std::string want = evaluate_json(d, o);
    for (std::size_t parts : {1, 2, 3, 17}) EXPECT_EQ(state_json(d, o, parts, g), want);
  }
}

TEST(EvaluationState, NumericSpellingsUnifyWhateverThePartitioning) {
  // "1" in some rows and "1.0" in others: one class, as for evaluate on all rows; with a text class
  // among them they stay two (the rule of data/predictions.hpp), whatever the partitioning.
  std::mt19937_64 g(14);
  for (const std::vector<std::string>& classes : {std::vector<std::string>{"0", "1", "1.0", "2"},
                                                 std::vector<std::string>{"0", "1", "1.0", "x"}}) {
    const data d = make(1500, 9, classes, false, 3);
    const state_options o = opts(prediction_kind::labels, false);
    const std::string want = evaluate_json(d, o);
    for (std::size_t parts : {1, 2, 3, 17}) EXPECT_EQ(state_json(d, o, parts, g), want);
  }
  const data d = make(1500, 10, {"0", "0.0", "1", "1e0"}, true, 50);
  const state_options o = opts(prediction_kind::scores, true);
  const std::string want = evaluate_json(d, o);
  EXPECT_EQ(want.find("\"1e0\""), std::string::npos);  // two classes, "0" and "1"
  EXPECT_EQ(want.find("\"0.0\""), std::string::npos);
  for (std::size_t parts : {1, 3, 17}) EXPECT_EQ(state_json(d, o, parts, g), want);
}

TEST(EvaluationState, NumericLabelsAndCodedLabelsAreTheSameAsText) {
  const data d = make(500, 21, {"0", "1"}, false, 10);
  std::vector<double> yn;
  std::vector<std::int32_t> codes;
  const std::vector<std::string> dict{"1.0", "0"};
  for (const auto& s : d.y) {
    yn.push_back(std::stod(s));
    codes.push_back(s == "0" ? 1 : 0);
  }
  const state_options o = opts(prediction_kind::scores, false);
  evaluation_state a(o), b(o), c(o);
  a.update({label_column::of_text(d.y), d.score, {}, {}, 0});
  b.update({label_column::of_numbers(yn), d.score, {}, {}, 0});
  c.update({label_column::of_codes(codes, dict), d.score, {}, {}, 0});
  EXPECT_EQ(to_json(a.finish()), evaluate_json(d, o));
  EXPECT_EQ(to_json(b.finish()), to_json(a.finish()));
  EXPECT_EQ(to_json(c.finish()), to_json(a.finish()));
}

TEST(EvaluationState, SerialisationIsCanonicalAndRoundTrips) {
  std::mt19937_64 g(15);
  const data d = make(800, 4, {"0", "1"}, true, 30);
  const state_options o = opts(prediction_kind::scores, true);
  evaluation_state all(o);
  all.update({label_column::of_text(d.y), d.score, {}, d.w, 0});
  const std::string blob = all.serialize();
  EXPECT_EQ(read_state(blob).serialize(), blob);
  EXPECT_EQ(to_json(read_state(blob, o).finish()), to_json(all.finish()));
  // Any partitioning and merge order: the same bytes.
  for (std::size_t parts : {2, 3, 17}) {
    const auto c = cuts(d.y.size(), parts, g);
    std::vector<evaluation_state> states;
    for (std::size_t k = 0; k + 1 < c.size(); ++k) {
      evaluation_state s(o);
      s.update({label_column::of_text(piece(d.y, c[k], c[k + 1])), piece(d.score, c[k], c[k + 1]), {},
                piece(d.w, c[k], c[k + 1]), 0});
      states.push_back(std::move(s));
    }
    EXPECT_EQ(merge_randomly(std::move(states), g).serialize(), blob);
  }
}

TEST(EvaluationState, EveryCorruptByteIsAnErrorNeverAnotherAnswer) {
  const data d = make(40, 5, {"0", "1"}, true, 4);
  const state_options o = opts(prediction_kind::scores, true);
  evaluation_state s(o);
  s.update({label_column::of_text(d.y), d.score, {}, d.w, 0});
  const std::string blob = s.serialize();
  const std::string want = to_json(s.finish());
  for (std::size_t i = 0; i < blob.size(); ++i) {
    for (unsigned char flip : {0x01, 0x80, 0xff}) {
      std::string bad = blob;
      bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ flip);
      try {
        const std::string got = to_json(read_state(bad).finish());
        ADD_FAILURE() << "byte " << i << " flipped by " << int(flip) << " was accepted";
        EXPECT_EQ(got, want);
      } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::data);
      }
    }
  }
  for (std::size_t n : {0UL, 5UL, blob.size() - 1}) EXPECT_THROW((void)read_state(blob.substr(0, n)), error);
  EXPECT_THROW((void)read_state(blob + "x"), error);
}

TEST(EvaluationState, ForeignStatesAndBadInputAreErrors) {
  state_options o = opts(prediction_kind::scores, false);
  evaluation_state s(o);
  const std::vector<std::string> y{"0", "1", "1"};
  const std::vector<double> sc{0.1, std::nan(""), 0.7};
  try {
    s.update({label_column::of_text(y), sc, {}, {}, 0});
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::update: y_score[1] is nan; missing values are refused (set drop_missing "
                           "to skip such rows)");
  }
  EXPECT_EQ(s.rows(), 0U);
  try {
    (void)s.finish();
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::finish: no rows were added; there is nothing to evaluate");
  }
  state_options other = o;
  other.threshold = 0.3;
  evaluation_state t(other);
  try {
    s.merge(t);
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::merge: the states differ in their option threshold; only states with "
                           "the same options merge");
  }
  try {
    (void)read_state(t.serialize(), o);
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "read_state: the blob is a state of other options (its threshold differs: another task or "
                           "evaluation)");
  }
  std::string blob = s.serialize();
  blob[8] = static_cast<char>(state_format_version + 1);  // another format version (and a bad checksum)
  EXPECT_THROW((void)read_state(blob), error);
  try {
    (void)read_state("PK\3\4 not a state at all");
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "read_state: the blob is not an assay evaluation state (its first bytes are not \"ASSAYST\")");
  }
}

TEST(EvaluationState, DropMissingCountsAndSkips) {
  state_options o = opts(prediction_kind::scores, false);
  o.drop_missing = true;
  const std::vector<std::string> y{"0", "1", "1", "0", "1"};
  const std::vector<double> sc{0.1, std::nan(""), 0.7, 0.4, 0.9};
  evaluation_state s(o);
  s.update({label_column::of_text(y), sc, {}, {}, 0});
  EXPECT_EQ(s.rows(), 4U);
  EXPECT_EQ(s.missing(), 1U);
  data d{{"0", "1", "0", "1"}, {0.1, 0.7, 0.4, 0.9}, {}, {}};
  EXPECT_EQ(to_json(s.finish()), evaluate_json(d, o));
}


TEST(EvaluationState, EmptyPartitionsChangeNothing) {
  const data d = make(300, 31, {"0", "1"}, true, 7);
  const state_options o = opts(prediction_kind::scores, true);
  evaluation_state full(o), empty(o);
  full.update({label_column::of_text(d.y), d.score, {}, d.w, 0});
  empty.update({label_column::of_text(piece(d.y, 0, 0)), piece(d.score, 0, 0), {}, piece(d.w, 0, 0), 0});
  const std::string want = full.serialize();
  evaluation_state a = empty, b = full;
  a.merge(full);
  b.merge(empty);
  EXPECT_EQ(a.serialize(), want);
  EXPECT_EQ(b.serialize(), want);
  EXPECT_EQ(to_json(a.finish()), evaluate_json(d, o));
}

TEST(EvaluationState, OneClassOnlyIsUndefinedAsInEvaluate) {
  // Only negatives: AUC, AP and the best thresholds are undefined with evaluate's reasons.
  std::mt19937_64 g(32);
  for (bool weighted : {false, true}) {
    data d = make(400, 33, {"0"}, weighted, 9);
    const state_options o = opts(prediction_kind::scores, weighted);
    const std::string want = evaluate_json(d, o);
    for (std::size_t parts : {1, 3}) EXPECT_EQ(state_json(d, o, parts, g), want) << "weighted " << weighted;
  }
}

// ---- intervals (evaluate_options::ci_level) ---------------------------------------------------------

TEST(EvaluationState, OperatingPointsUnderConstraintsEqualEvaluate) {
  // evaluate's operating points (max_fpr with its Neyman-Pearson umbrella threshold, an order statistic
  // of the negatives' scores expanded from the runs; min_tpr, min_precision, min_recall), weighted or
  // not, on any partitioning; one class only too (evaluate then reads the sweep functions).
  std::mt19937_64 g(31);
  evaluate_options eo;
  eo.constraints.max_fpr = 0.1;
  eo.constraints.confidence = 0.9;
  eo.constraints.min_tpr = 0.8;
  eo.constraints.min_precision = 0.6;
  eo.constraints.min_recall = 0.5;
  for (bool weighted : {false, true}) {
    for (int levels : {7, 1000000}) {
      const data d = make(2000, 40 + levels, {"ham", "spam"}, weighted, levels);
      const state_options o = opts(prediction_kind::scores, weighted, "spam");
      const std::string want = evaluate_json(d, o, eo);
      ASSERT_NE(want.find("operating_points"), std::string::npos);
      for (std::size_t parts : {1, 3, 17}) EXPECT_EQ(state_json(d, o, parts, g, eo), want) << weighted << " " << parts;
    }
  }
  data one = make(300, 44, {"ham"}, false, 9);
  const state_options o = opts(prediction_kind::scores, false, "spam");
  EXPECT_EQ(state_json(one, o, 3, g, eo), evaluate_json(one, o, eo));
  // Predicted classes: evaluate's refusal, word for word.
  const data d = make(200, 45, {"a", "b", "c"}, false, 5);
  const state_options lo = opts(prediction_kind::labels, false);
  std::string want, got;
  try {
    (void)evaluate_report(d, lo, eo);
  } catch (const error& e) {
    want = e.what();
  }
  try {
    (void)state_report(d, lo, 2, g, eo);
  } catch (const error& e) {
    got = e.what();
  }
  EXPECT_NE(want.find("operating points under a constraint need a binary score"), std::string::npos) << want;
  EXPECT_EQ(got, want);
}

evaluate_options with_ci(ci_method m, std::size_t replicates = 120, std::uint64_t seed = 5) {
  evaluate_options eo;
  eo.ci_level = 0.9;
  eo.ci_method = m;
  eo.replicates = replicates;
  eo.seed = seed;
  return eo;
}

TEST(EvaluationStateIntervals, AnalyticIntervalsFromCountsAndRunsEqualEvaluate) {
  // Without weights, Wilson (or another proportion method), the multinomial bootstrap of the
  // confusion matrix, DeLong, the normal interval of log loss and Brier, and the logit interval of AP
  // come from the counts and the score runs: no row ids needed.
  std::mt19937_64 g(41);
  for (int levels : {6, 1000000}) {
    const data d = make(1500, 40 + levels, {"neg", "pos"}, false, levels);
    for (ci_method m : {ci_method::automatic, ci_method::clopper_pearson, ci_method::normal}) {
      const state_options o = opts(prediction_kind::scores, false, "pos");
      const evaluate_options eo = with_ci(m);
      const std::string want = evaluate_json(d, o, eo);
      ASSERT_NE(want.find("\"delong\""), std::string::npos);
      ASSERT_NE(want.find("normal, from the variance"), std::string::npos);
      ASSERT_NE(want.find("logit (Boyd"), std::string::npos);
      for (std::size_t parts : {1, 2, 3, 17}) {
        EXPECT_EQ(state_json(d, o, parts, g, eo), want) << "levels " << levels << " parts " << parts;
      }
    }
  }
  const data d = make(1200, 43, {"a", "b", "c"}, false, 3);
  const state_options o = opts(prediction_kind::labels, false);
  const std::string want = evaluate_json(d, o, with_ci(ci_method::automatic));
  for (std::size_t parts : {1, 2, 3, 17}) EXPECT_EQ(state_json(d, o, parts, g, with_ci(ci_method::automatic)), want);
}

TEST(EvaluationStateIntervals, PoissonBootstrapOnRowIdsEqualsEvaluate) {
  // With weights or ci_method bootstrap, rows are resampled with Poisson(1) weights drawn on their
  // ids: the state keeps the rows (row_ids) and gives evaluate's intervals on the rows in id order.
  std::mt19937_64 g(42);
  for (bool weighted : {false, true}) {
    for (ci_method m : {ci_method::automatic, ci_method::bootstrap}) {
      if (!weighted && m == ci_method::automatic) continue;  // the analytic case above
      for (int levels : {6, 1000000}) {
        const data d = make(900, 50 + levels, {"0", "1"}, weighted, levels);
        state_options o = opts(prediction_kind::scores, weighted);
        o.row_ids = true;
        const evaluate_options eo = with_ci(m, 64, 9);
        const std::string want = evaluate_json(d, o, eo);
        ASSERT_NE(want.find("poisson bootstrap"), std::string::npos);
        for (std::size_t parts : {1, 2, 3, 17}) {
          EXPECT_EQ(state_json(d, o, parts, g, eo), want) << "weighted " << weighted << " parts " << parts;
        }
      }
      const data d = make(900, 60, {"x", "y", "z"}, weighted, 3);
      state_options o = opts(prediction_kind::labels, weighted);
      o.row_ids = true;
      const evaluate_options eo = with_ci(m, 64, 9);
      const std::string want = evaluate_json(d, o, eo);
      for (std::size_t parts : {1, 2, 3, 17}) {
        EXPECT_EQ(state_json(d, o, parts, g, eo), want) << "labels, weighted " << weighted << " parts " << parts;
      }
    }
  }
}

TEST(EvaluationStateIntervals, RowIdsRoundTripAndAreCanonical) {
  std::mt19937_64 g(43);
  const data d = make(300, 61, {"0", "1"}, true, 12);
  state_options o = opts(prediction_kind::scores, true);
  o.row_ids = true;
  evaluation_state all(o);
  all.update({label_column::of_text(d.y), d.score, {}, d.w, 0});
  const std::string blob = all.serialize();
  EXPECT_EQ(read_state(blob).serialize(), blob);
  const evaluate_options eo = with_ci(ci_method::automatic, 50);
  EXPECT_EQ(to_json(read_state(blob, o).finish(eo)), to_json(all.finish(eo)));
  for (std::size_t parts : {2, 3, 17}) {
    const auto c = cuts(d.y.size(), parts, g);
    std::vector<evaluation_state> states;
    for (std::size_t k = 0; k + 1 < c.size(); ++k) {
      evaluation_state s(o);
      s.update({label_column::of_text(piece(d.y, c[k], c[k + 1])), piece(d.score, c[k], c[k + 1]), {},
                piece(d.w, c[k], c[k + 1]), c[k]});
      states.push_back(std::move(s));
    }
    EXPECT_EQ(merge_randomly(std::move(states), g).serialize(), blob);
  }
  // A state without row ids is another state (the option is part of the fingerprint).
  state_options plain = o;
  plain.row_ids = false;
  EXPECT_THROW((void)read_state(blob, plain), error);
  evaluation_state p(plain);
  EXPECT_THROW(p.merge(all), error);
}

TEST(EvaluationStateIntervals, EveryCorruptByteOfKeptRowsIsAnError) {
  for (prediction_kind k : {prediction_kind::scores, prediction_kind::labels}) {
    const data d = make(12, 62, {"0", "1"}, true, 4);
    state_options o = opts(k, true);
    o.row_ids = true;
    evaluation_state s(o);
    row_batch b;
    b.y_true = label_column::of_text(d.y);
    if (k == prediction_kind::scores) b.y_score = d.score;
    else b.y_pred = label_column::of_text(d.pred);
    b.sample_weight = d.w;
    b.first_row_id = 1000;
    s.update(b);
    const std::string blob = s.serialize();
    for (std::size_t i = 0; i < blob.size(); ++i) {
      for (unsigned char flip : {0x01, 0x80, 0xff}) {
        std::string bad = blob;
        bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ flip);
        try {
          (void)read_state(bad);
          ADD_FAILURE() << "byte " << i << " flipped by " << int(flip) << " was accepted";
        } catch (const error& e) {
          EXPECT_EQ(e.kind(), error_kind::data);
        }
      }
    }
  }
}

TEST(EvaluationStateIntervals, MissingRowIdsAndRepeatedIdsAreErrors) {
  const data d = make(200, 63, {"0", "1"}, true, 5);
  state_options o = opts(prediction_kind::scores, true);
  evaluation_state s(o);
  s.update({label_column::of_text(d.y), d.score, {}, d.w, 0});
  try {
    (void)s.finish(with_ci(ci_method::automatic));
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::finish: ci_level with weights resamples rows (the Poisson bootstrap), "
                           "which needs every row's id: build the state with row_ids");
  }
  o.row_ids = true;
  evaluation_state a(o), b(o);
  a.update({label_column::of_text(d.y), d.score, {}, d.w, 0});
  b.update({label_column::of_text(piece(d.y, 0, 10)), piece(d.score, 0, 10), {}, piece(d.w, 0, 10), 150});
  a.merge(b);  // rows 150..159 twice
  try {
    (void)a.finish(with_ci(ci_method::automatic));
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::finish: row id 150 is given to two rows; each batch's first_row_id "
                           "must be its first row's index among all rows");
  }
  EXPECT_NO_THROW((void)a.finish());  // without intervals the ids are not read
}

// ---- kept curves (evaluate_options::keep_curves) -----------------------------------------------------

TEST(EvaluationStateCurves, KeptCurvesEqualEvaluate) {
  // ROC and PR curves thinned to curve_sample::max_points, the threshold sweep and the reliability
  // curve, from the score runs and the per-bin sums; with intervals, the pointwise bands too.
  std::mt19937_64 g(71);
  for (bool weighted : {false, true}) {
    for (int levels : {6, 1000000}) {
      for (bool ci : {false, true}) {
        const data d = make(3000, 70 + levels, {"ham", "spam"}, weighted, levels);
        state_options o = opts(prediction_kind::scores, weighted, "spam");
        o.row_ids = ci && weighted;
        evaluate_options eo = ci ? with_ci(ci_method::wilson, 40) : evaluate_options{};
        eo.keep_curves = true;
        const report want = evaluate_report(d, o, eo);
        ASSERT_TRUE(want.roc && want.pr && want.thresholds && want.calibration);
        EXPECT_EQ(want.roc->points > curve_sample::max_points, levels > 6);  // thinned
        EXPECT_EQ(want.roc->y_lo.empty(), !ci);                             // bands with intervals
        const std::string json = to_json(want), curves = curves_text(want);
        for (std::size_t parts : {1, 2, 3, 17}) {
          const report got = state_report(d, o, parts, g, eo);
          EXPECT_EQ(to_json(got), json) << "weighted " << weighted << " levels " << levels << " parts " << parts;
          EXPECT_EQ(curves_text(got), curves)
              << "weighted " << weighted << " levels " << levels << " ci " << ci << " parts " << parts;
        }
      }
    }
  }
}

TEST(EvaluationState, HeldRunsOfAMergeByMoveEqualEvaluate) {
  // merge(evaluation_state&&) keeps the runs it takes apart, and finish() walks both lists together
  // (a (score, spelling) in both counted once, with both tallies); rows added after the merge go to the
  // receiver's own list. Three pieces: the receiver's rows, the moved state's, then more rows.
  for (bool weighted : {false, true}) {
    for (int levels : {5, 1000000}) {
      const data d = make(3000, 90 + levels, {"ham", "spam"}, weighted, levels);
      state_options o = opts(prediction_kind::scores, weighted, "spam");
      evaluate_options eo = with_ci(ci_method::wilson, 40);
      eo.keep_curves = true;
      o.row_ids = weighted;
      const report want = evaluate_report(d, o, eo);
      auto batch = [&](evaluation_state& s, std::size_t b, std::size_t e) {
        row_batch rb;
        rb.y_true = label_column::of_text(piece(d.y, b, e));
        rb.y_score = piece(d.score, b, e);
        if (weighted) rb.sample_weight = piece(d.w, b, e);
        rb.first_row_id = b;
        s.update(rb);
      };
      evaluation_state a(o), b(o);
      batch(a, 0, 1000);
      batch(b, 1000, 2000);
      evaluation_state copy = a;
      copy.merge(b);
      a.merge(std::move(b));
      batch(a, 2000, 3000);
      batch(copy, 2000, 3000);
      evaluation_state compacted = a;  // compact() changes no result and no byte
      compacted.compact();
      EXPECT_EQ(to_json(compacted.finish(eo)), to_json(want)) << "weighted " << weighted << " levels " << levels;
      EXPECT_EQ(compacted.serialize(), copy.serialize()) << "weighted " << weighted << " levels " << levels;
      const report got = a.finish(eo);
      EXPECT_EQ(to_json(got), to_json(want)) << "weighted " << weighted << " levels " << levels;
      EXPECT_EQ(curves_text(got), curves_text(want)) << "weighted " << weighted << " levels " << levels;
      EXPECT_EQ(a.serialize(), copy.serialize()) << "weighted " << weighted << " levels " << levels;
    }
  }
}

// The rows of a (score, spelling) seen before are tallied in a small table as they come (at most
// 4096 pairs), the rest sorted as before; the table is left after 2^16 rows of which most missed it.
// Every path gives the bytes and the report of the rows sorted: few distinct scores (the table
// only), more pairs than the table holds (both), distinct scores then few (the table given up, then
// the buffer alone), few then distinct; 1 to 4 parts merged in any order, some through bytes.
TEST(EvaluationState, RepeatedScoresTalliedAsTheyComeEqualEvaluate) {
  std::mt19937_64 g(23);
  auto concat = [](std::vector<data> ds) {
    data all;
    for (const data& d : ds) {
      all.y.insert(all.y.end(), d.y.begin(), d.y.end());
      all.score.insert(all.score.end(), d.score.begin(), d.score.end());
      all.pred.insert(all.pred.end(), d.pred.begin(), d.pred.end());
      all.w.insert(all.w.end(), d.w.begin(), d.w.end());
    }
    return all;
  };
  const std::vector<std::string> spellings{"0", "1", "1.0"};
  for (bool weighted : {false, true}) {
    const std::vector<std::pair<const char*, data>> cases = {
        {"20 levels", make(150000, 3, spellings, weighted, 20)},
        {"3000 levels", make(150000, 4, spellings, weighted, 3000)},
        {"distinct, then 20 levels",
         concat({make(100000, 5, spellings, weighted, 1000000000), make(60000, 6, spellings, weighted, 20)})},
        {"20 levels, then distinct",
         concat({make(60000, 7, spellings, weighted, 20), make(100000, 8, spellings, weighted, 1000000000)})},
    };
    for (const auto& [what, d] : cases) {
      const state_options o = opts(prediction_kind::scores, weighted);
      evaluate_options eo;
      eo.keep_curves = true;  // the reliability curve: the per-bin sums a tabled row adds late
      const report want_report = evaluate_report(d, o, eo);
      const std::string want = to_json(want_report), want_curves = curves_text(want_report);
      evaluation_state one(o);
      one.update({label_column::of_text(d.y), d.score, {}, weighted ? std::span<const double>(d.w) : std::span<const double>{}, 0});
      const std::string blob = one.serialize();
      const report got = one.finish(eo);
      EXPECT_EQ(to_json(got), want) << what << ", weighted " << weighted;
      EXPECT_EQ(curves_text(got), want_curves) << what << ", weighted " << weighted;
      for (std::size_t parts : {2, 3, 4}) {
        const auto c = cuts(d.y.size(), parts, g);
        std::vector<evaluation_state> states;
        for (std::size_t k = 0; k + 1 < c.size(); ++k) {
          evaluation_state st(o);
          // In batches of 7000 rows: compactions between them, with the table's tallies pending.
          for (std::size_t b = c[k]; b < c[k + 1]; b += 7000) {
            const std::size_t e = std::min(c[k + 1], b + 7000);
            st.update({label_column::of_text(piece(d.y, b, e)), piece(d.score, b, e), {},
                       weighted ? piece(d.w, b, e) : std::span<const double>{}, b});
          }
          states.push_back(std::move(st));
        }
        std::shuffle(states.begin(), states.end(), g);
        evaluation_state merged = merge_randomly(std::move(states), g);
        EXPECT_EQ(merged.serialize(), blob) << what << ", weighted " << weighted << ", parts " << parts;
        const report got_parts = merged.finish(eo);
        EXPECT_EQ(to_json(got_parts), want) << what << ", weighted " << weighted << ", parts " << parts;
        EXPECT_EQ(curves_text(got_parts), want_curves) << what << ", weighted " << weighted << ", parts " << parts;
      }
    }
  }
}

// Distinct scores stay pending rows until serialize() or finish() sorts them (impl::
// compact_when_due), their reliability and loss terms added when their runs are made
// (impl::add_run_sums), and numeric labels are coded by update's scan of a few values. 300,000
// distinct scores then 80,000 of 20 levels in batches of 10,000: the first compaction (at 70,000
// rows) finds its rows spread, the look at 280,000 finds the newest rows spread too and leaves them
// pending, with the tied rows after them. The report, the kept curves and the bytes are evaluate's
// and those of one update with the labels as text, whatever the partitioning and merge order.
TEST(EvaluationState, PendingDistinctScoresThenTiesWithNumericLabelsEqualEvaluate) {
  std::mt19937_64 g(29);
  data d = make(300000, 9, {"0", "1"}, false, 1000000000);
  const data tied = make(80000, 10, {"0", "1"}, false, 20);
  d.y.insert(d.y.end(), tied.y.begin(), tied.y.end());
  d.score.insert(d.score.end(), tied.score.begin(), tied.score.end());
  std::vector<double> yn;
  for (const auto& s : d.y) yn.push_back(std::stod(s));
  const state_options o = opts(prediction_kind::scores, false);
  evaluate_options eo;
  eo.keep_curves = true;
  const report want_report = evaluate_report(d, o, eo);
  const std::string want = to_json(want_report), want_curves = curves_text(want_report);
  evaluation_state text(o);
  text.update({label_column::of_text(d.y), d.score, {}, {}, 0});
  const std::string blob = text.serialize();
  for (std::size_t parts : {1, 2}) {
    const auto c = cuts(d.y.size(), parts, g);
    std::vector<evaluation_state> states;
    for (std::size_t k = 0; k + 1 < c.size(); ++k) {
      evaluation_state st(o);
      for (std::size_t b = c[k]; b < c[k + 1]; b += 10000) {
        const std::size_t e = std::min(c[k + 1], b + 10000);
        st.update({label_column::of_numbers(piece(yn, b, e)), piece(d.score, b, e), {}, {}, b});
      }
      states.push_back(std::move(st));
    }
    evaluation_state merged = merge_randomly(std::move(states), g);
    EXPECT_EQ(merged.serialize(), blob) << "parts " << parts;
    const report got = merged.finish(eo);
    EXPECT_EQ(to_json(got), want) << "parts " << parts;
    EXPECT_EQ(curves_text(got), want_curves) << "parts " << parts;
  }
  // Ten numeric classes (past the scan's 8 values: detail::resolve's table) and a NaN label (dropped):
  // the state of the same labels as text.
  state_options lo = opts(prediction_kind::labels, false);
  lo.drop_missing = true;
  std::vector<double> yt, yp;
  std::vector<std::string> yt_text, yp_text;
  for (std::size_t i = 0; i < 500; ++i) {
    yt.push_back(static_cast<double>(i % 10));
    yp.push_back(static_cast<double>(i * 7 % 10));
    yt_text.push_back(std::to_string(i % 10));
    yp_text.push_back(std::to_string(i * 7 % 10));
  }
  evaluation_state by_number(lo), by_text(lo), with_nan(lo);
  by_number.update({label_column::of_numbers(yt), {}, label_column::of_numbers(yp), {}, 0});
  by_text.update({label_column::of_text(yt_text), {}, label_column::of_text(yp_text), {}, 0});
  EXPECT_EQ(by_number.serialize(), by_text.serialize());
  std::vector<double> two{0, 1, 1, 0}, nan{0, std::nan(""), 1, 1};
  with_nan.update({label_column::of_numbers(nan), {}, label_column::of_numbers(two), {}, 0});
  EXPECT_EQ(with_nan.rows(), 3U);
  EXPECT_EQ(with_nan.missing(), 1U);
}

TEST(EvaluationStateCurves, ScoresOutsideZeroOneAndPredictedClasses) {
  std::mt19937_64 g(72);
  data d = make(800, 73, {"0", "1"}, true, 50);
  for (auto& x : d.score) x = 3 * x - 1;  // not probabilities: no reliability curve
  evaluate_options eo;
  eo.keep_curves = true;
  state_options o = opts(prediction_kind::scores, true);
  const report want = evaluate_report(d, o, eo);
  EXPECT_FALSE(want.calibration.has_value());
  EXPECT_TRUE(want.roc.has_value());
  for (std::size_t parts : {1, 3, 17}) {
    const report got = state_report(d, o, parts, g, eo);
    EXPECT_EQ(to_json(got), to_json(want));
    EXPECT_EQ(curves_text(got), curves_text(want));
  }
  o = opts(prediction_kind::labels, true);  // hard predictions: nothing to draw, as evaluate
  for (std::size_t parts : {1, 3}) {
    const report got = state_report(d, o, parts, g, eo);
    EXPECT_EQ(to_json(got), evaluate_json(d, o, eo));
    EXPECT_EQ(curves_text(got), curves_text(evaluate_report(d, o, eo)));
  }
}

// ---- regression -------------------------------------------------------------------------------------

struct values_data {
  std::vector<double> y, yhat, w;
};

values_data make_values(std::size_t n, std::uint64_t seed, int levels, bool zero_target) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  values_data d;
  for (std::size_t i = 0; i < n; ++i) {
    // Targets of both signs with ties (levels), predictions near them, weights with ties and zeros.
    double y = std::round(u(g) * levels) / levels * 50 + 3;
    if (!zero_target && y == 0) y = 0.25;
    if (zero_target && i == n / 2 + 7) y = 0;
    d.y.push_back(y);
    d.yhat.push_back(y + (g() % 4 == 0 ? 0.0 : std::round(u(g) * 8) * 0.1 + 1e-3 * u(g)));
    const double r = (u(g) + 1) / 2;
    d.w.push_back(r < 0.1 ? 0.0 : std::round(r * 30) * 0.1);
  }
  return d;
}

std::string values_state_json(const values_data& d, const state_options& o, std::size_t parts, std::mt19937_64& g) {
  const auto c = cuts(d.y.size(), parts, g);
  std::vector<evaluation_state> states;
  for (std::size_t k = 0; k + 1 < c.size(); ++k) {
    evaluation_state s(o);
    row_batch rb;
    rb.y_true = label_column::of_numbers(piece(d.y, c[k], c[k + 1]));
    rb.y_value = piece(d.yhat, c[k], c[k + 1]);
    if (o.weighted) rb.sample_weight = piece(d.w, c[k], c[k + 1]);
    rb.first_row_id = c[k];
    s.update(rb);
    states.push_back(std::move(s));
  }
  std::shuffle(states.begin(), states.end(), g);
  return to_json(merge_randomly(std::move(states), g).finish());
}

state_options values_opts(bool weighted) {
  state_options o;
  o.kind = prediction_kind::values;
  o.task = task_kind::regression;
  o.weighted = weighted;
  o.source = "predictions_from_values";
  return o;
}

std::string values_evaluate_json(const values_data& d, bool weighted) {
  prediction_options po;
  if (weighted) po.sample_weight = d.w;
  return to_json(evaluate(predictions_from_values(d.y, d.yhat, po)));
}

TEST(EvaluationStateRegression, EveryRegressionNumberEqualsEvaluate) {
  // MAE, MSE, RMSE, MAPE, MSPE, RMSPE, R^2, explained variance, median absolute error and max error,
  // weighted (with zero weights) or not, targets of both signs with ties; a zero target makes the
  // percentage errors undefined naming evaluate's row.
  std::mt19937_64 g(81);
  for (bool weighted : {false, true}) {
    for (int levels : {4, 1000000}) {
      for (bool zero : {false, true}) {
        const values_data d = make_values(2500, 80 + levels, levels, zero);
        const std::string want = values_evaluate_json(d, weighted);
        ASSERT_NE(want.find("median_absolute_error"), std::string::npos);
        EXPECT_EQ(want.find("the target is 0 in case") != std::string::npos, zero);
        for (std::size_t parts : {1, 2, 3, 17}) {
          EXPECT_EQ(values_state_json(d, values_opts(weighted), parts, g), want)
              << "weighted " << weighted << " levels " << levels << " zero " << zero << " parts " << parts;
        }
      }
    }
  }
  // A constant target: R^2 and explained variance undefined, as evaluate.
  values_data d = make_values(300, 82, 4, false);
  std::fill(d.y.begin(), d.y.end(), 2.5);
  for (std::size_t parts : {1, 3}) EXPECT_EQ(values_state_json(d, values_opts(true), parts, g), values_evaluate_json(d, true));
}

TEST(EvaluationStateRegression, BytesRoundTripCorruptionAndRefusals) {
  const values_data d = make_values(30, 83, 4, true);
  evaluation_state s(values_opts(true));
  row_batch b;
  b.y_true = label_column::of_numbers(d.y);
  b.y_value = d.yhat;
  b.sample_weight = d.w;
  s.update(b);
  const std::string blob = s.serialize();
  EXPECT_EQ(read_state(blob).serialize(), blob);
  EXPECT_EQ(to_json(read_state(blob, values_opts(true)).finish()), values_evaluate_json(d, true));
  for (std::size_t i = 0; i < blob.size(); ++i) {
    for (unsigned char flip : {0x01, 0x80}) {
      std::string bad = blob;
      bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ flip);
      try {
        (void)read_state(bad);
        ADD_FAILURE() << "byte " << i << " flipped by " << int(flip) << " was accepted";
      } catch (const error& e) {
        EXPECT_EQ(e.kind(), error_kind::data);
      }
    }
  }
  state_options bad = values_opts(false);
  bad.task = task_kind::binary;
  EXPECT_THROW(evaluation_state{bad}, error);
  evaluate_options ci;
  ci.ci_level = 0.95;
  try {
    (void)s.finish(ci);
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::finish: ci_level is set; the intervals of regression need every row (the "
                           "normal interval of a mean loss reads each row's loss, the Poisson bootstrap of the other "
                           "numbers resamples rows): build the state with row_ids");
  }
  // With row_ids the kept rows round-trip, every flipped byte of them is an error too.
  state_options ids = values_opts(true);
  ids.row_ids = true;
  evaluation_state k(ids);
  b.first_row_id = 100;
  k.update(b);
  const std::string kept = k.serialize();
  EXPECT_EQ(read_state(kept).serialize(), kept);
  EXPECT_GT(kept.size(), blob.size() + d.y.size() * 32);  // id, weight, target and predicted value a row
  for (std::size_t i = 0; i < kept.size(); ++i) {
    std::string bad = kept;
    bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ 0x10);
    EXPECT_THROW((void)read_state(bad), error) << "byte " << i;
  }
}

// The intervals of regression (the normal interval of MAE and MSE from the per-row losses, the Poisson
// bootstrap of the others) from the kept rows, in id order: evaluate's, from 1, 2, 3 and 17 parts
// merged in random trees (some through bytes), weighted or not, any method.
std::string values_state_json_ci(const values_data& d, const state_options& o, std::size_t parts, std::mt19937_64& g,
                                 const evaluate_options& eo) {
  const auto c = cuts(d.y.size(), parts, g);
  std::vector<evaluation_state> states;
  for (std::size_t k = 0; k + 1 < c.size(); ++k) {
    evaluation_state s(o);
    const std::size_t mid = c[k] + (c[k + 1] - c[k]) / 3;
    for (auto [b, e] : {std::pair{mid, c[k + 1]}, std::pair{c[k], mid}}) {  // two batches, the second first
      row_batch rb;
      rb.y_true = label_column::of_numbers(piece(d.y, b, e));
      rb.y_value = piece(d.yhat, b, e);
      if (o.weighted) rb.sample_weight = piece(d.w, b, e);
      rb.first_row_id = b;
      s.update(rb);
    }
    states.push_back(std::move(s));
  }
  std::shuffle(states.begin(), states.end(), g);
  return to_json(merge_randomly(std::move(states), g).finish(eo));
}

TEST(EvaluationStateRegression, IntervalsFromKeptRowsEqualEvaluate) {
  std::mt19937_64 g(84);
  for (bool weighted : {false, true}) {
    for (ci_method m : {ci_method::automatic, ci_method::bootstrap}) {
      for (int levels : {4, 1000000}) {
        const values_data d = make_values(700, 85 + levels, levels, levels == 4);
        prediction_options po;
        if (weighted) po.sample_weight = d.w;
        const evaluate_options eo = with_ci(m, 64, 11);
        const std::string want = to_json(evaluate(predictions_from_values(d.y, d.yhat, po), eo));
        ASSERT_NE(want.find("poisson bootstrap"), std::string::npos);
        if (m == ci_method::automatic) ASSERT_NE(want.find("normal, from the variance"), std::string::npos);
        state_options o = values_opts(weighted);
        o.row_ids = true;
        for (std::size_t parts : {1, 2, 3, 17}) {
          EXPECT_EQ(values_state_json_ci(d, o, parts, g, eo), want)
              << "weighted " << weighted << " method " << int(m) << " levels " << levels << " parts " << parts;
        }
      }
    }
  }
}

TEST(EvaluationStateRegression, MissingAndNonFiniteValues) {
  const std::vector<double> y{1, std::nan(""), 3, 4, 2}, p{1.5, 2, std::nan(""), 3, 2.5};
  row_batch b;
  b.y_true = label_column::of_numbers(y);
  b.y_value = p;
  evaluation_state s(values_opts(false));
  try {
    s.update(b);
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::update: y_true[1] is nan; missing values are refused (set drop_missing "
                           "to skip such rows)");
  }
  EXPECT_EQ(s.rows(), 0U);
  state_options o = values_opts(false);
  o.drop_missing = true;
  evaluation_state d(o);
  d.update(b);
  EXPECT_EQ(d.rows(), 3U);
  EXPECT_EQ(d.missing(), 2U);
  values_data kept{{1, 4, 2}, {1.5, 3, 2.5}, {}};
  EXPECT_EQ(to_json(d.finish()), values_evaluate_json(kept, false));
  const std::vector<double> two{1, 2}, inf{1, std::numeric_limits<double>::infinity()};
  row_batch bad;
  bad.y_true = label_column::of_numbers(two);
  bad.y_value = inf;
  try {
    d.update(bad);
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::update: y_value[1] is inf; values must be finite");
  }
  EXPECT_EQ(d.rows(), 3U);  // unchanged
}

}  // namespace
}  // namespace assay::scale
