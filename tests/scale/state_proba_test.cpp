// The mergeable evaluation state with class probabilities (prediction_kind::proba): the report from
// any partitioning and merge order, through bytes or not, is evaluate()'s on all rows (JSON byte for
// byte, the kept top-label reliability curve bit for bit), whatever the order of the columns, the
// spelling of the classes, the weights and the ties.
#include "assay/scale/state.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "assay/curves/roc.hpp"
#include "assay/error.hpp"

namespace assay::scale {
namespace {

struct pdata {
  std::vector<std::string> y;
  std::vector<std::vector<double>> cols;  // one column per name
  std::vector<double> w;
};

// n rows over `classes` (true label spellings), probabilities of `K` columns with many ties (small
// integers over their sum); column c leans to class c. `off_every` > 0: every such row does not sum
// to 1. Weights with zeros, tiny values and sums that are not exact in floating point.
pdata make(std::size_t n, std::uint64_t seed, const std::vector<std::string>& classes, std::size_t K, int levels,
           std::size_t off_every = 0) {
  std::mt19937_64 g(seed);
  pdata d;
  d.cols.resize(K);
  std::uniform_int_distribution<std::size_t> cls(0, classes.size() - 1);
  std::uniform_int_distribution<int> lvl(0, levels);
  std::uniform_real_distribution<double> u(0, 1);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = cls(g);
    d.y.push_back(classes[c]);
    std::vector<double> q(K);
    double sum = 0;
    for (std::size_t k = 0; k < K; ++k) {
      q[k] = lvl(g) + (k == c % K ? levels / 2 : 0);
      sum += q[k];
    }
    if (sum == 0) q[0] = sum = 1;
    for (std::size_t k = 0; k < K; ++k) d.cols[k].push_back(q[k] / sum);
    if (off_every > 0 && i % off_every == off_every - 1) d.cols[0].back() = std::min(1.0, d.cols[0].back() + 0.25);
    const double r = u(g);
    d.w.push_back(r < 0.1 ? 0.0 : r < 0.2 ? 1e-17 * u(g) : std::round(r * 30) * 0.1);
  }
  return d;
}

template <class T>
std::span<const T> piece(const std::vector<T>& v, std::size_t b, std::size_t e) {
  return std::span<const T>(v).subspan(b, e - b);
}

state_options opts(std::vector<std::string> names, bool weighted, task_kind task = task_kind::automatic,
                   std::optional<std::string> pos = std::nullopt) {
  state_options o;
  o.kind = prediction_kind::proba;
  o.proba_names = std::move(names);
  o.weighted = weighted;
  o.task = task;
  o.pos_label = std::move(pos);
  o.source = "predictions_from_proba";
  return o;
}

report evaluate_report(const pdata& d, const state_options& o, const evaluate_options& eo) {
  prediction_options po;
  po.pos_label = o.pos_label;
  po.task = o.task;
  if (o.weighted) po.sample_weight = d.w;
  const std::size_t n = d.y.size(), K = d.cols.size();
  std::vector<double> m(n * K);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < K; ++k) m[i * K + k] = d.cols[k][i];
  // predictions_from_proba refuses rows that do not sum to 1: such tables are built by hand.
  prediction_table t = predictions_from_proba(labels_view(d.y), std::vector<double>(n * K, 1.0 / static_cast<double>(K)),
                                              o.proba_names, po);
  std::vector<double> in_class_order(n * K);
  for (std::size_t c = 0; c < K; ++c) {
    const auto col = static_cast<std::size_t>(
        std::find(o.proba_names.begin(), o.proba_names.end(), t.proba_names[c]) - o.proba_names.begin());
    for (std::size_t i = 0; i < n; ++i) in_class_order[i * K + c] = m[i * K + col];
  }
  t.proba = std::move(in_class_order);
  t.proba_row_off = curves::first_row_not_summing_to_one(proba_view::matrix(t.proba, K));
  return evaluate(t, eo);
}

// The state's report from `parts` random pieces (each in two batches), merged in a random tree, some
// through bytes.
report state_report(const pdata& d, const state_options& o, std::size_t parts, std::mt19937_64& g,
                    const evaluate_options& eo) {
  const std::size_t n = d.y.size();
  std::vector<std::size_t> c{0, n};
  std::uniform_int_distribution<std::size_t> u(0, n);
  for (std::size_t k = 1; k < parts; ++k) c.push_back(u(g));
  std::sort(c.begin(), c.end());
  std::vector<evaluation_state> states;
  for (std::size_t k = 0; k + 1 < c.size(); ++k) {
    evaluation_state s(o);
    const std::size_t mid = c[k] + (c[k + 1] - c[k]) / 2;
    for (auto [b, e] : {std::pair{c[k], mid}, std::pair{mid, c[k + 1]}}) {
      std::vector<std::span<const double>> cols;
      for (const auto& col : d.cols) cols.push_back(piece(col, b, e));
      row_batch rb;
      rb.y_true = label_column::of_text(piece(d.y, b, e));
      rb.y_proba = cols;
      if (o.weighted) rb.sample_weight = piece(d.w, b, e);
      rb.first_row_id = b;
      s.update(rb);
    }
    states.push_back(std::move(s));
  }
  std::shuffle(states.begin(), states.end(), g);
  while (states.size() > 1) {
    std::uniform_int_distribution<std::size_t> pick(0, states.size() - 1);
    const std::size_t a = pick(g), b = pick(g);
    if (a == b) continue;
    evaluation_state other = (g() & 1) ? read_state(states[b].serialize()) : states[b];
    states[a].merge(other);
    states.erase(states.begin() + static_cast<std::ptrdiff_t>(b));
  }
  return states[0].finish(eo);
}

std::string calibration_text(const report& r) {
  if (!r.calibration) return "none";
  std::string out = fmt::format("top_label {} bins {}\n", r.calibration->top_label, r.calibration->bins);
  for (const auto* v : {&r.calibration->prob_pred, &r.calibration->prob_true, &r.calibration->weight}) {
    for (double x : *v) out += fmt::format(" {:a}", x);
    out += '\n';
  }
  out += r.calibration->ece.defined() ? fmt::format("{:a}", r.calibration->ece.v) : r.calibration->ece.reason;
  return out;
}

void expect_equal(const pdata& d, const state_options& o, std::mt19937_64& g, const std::string& what,
                  evaluate_options eo = {}) {
  for (const bool curves : {false, true}) {
    eo.keep_curves = curves;
    const report want = evaluate_report(d, o, eo);
    const std::string want_json = to_json(want), want_curve = calibration_text(want);
    for (std::size_t parts : {1, 2, 3, 17}) {
      const report got = state_report(d, o, parts, g, eo);
      EXPECT_EQ(to_json(got), want_json) << what << ", parts " << parts << ", curves " << curves;
      EXPECT_EQ(calibration_text(got), want_curve) << what << ", parts " << parts;
      EXPECT_EQ(got.notes, want.notes) << what;
    }
  }
}

TEST(EvaluationStateProba, MulticlassEqualsEvaluateForAnyPartitioningAndMergeOrder) {
  std::mt19937_64 g(31);
  for (bool weighted : {false, true}) {
    for (int levels : {3, 1000}) {
      const pdata d = make(1500, 5 + levels, {"a", "b", "c", "d"}, 4, levels);
      expect_equal(d, opts({"a", "b", "c", "d"}, weighted), g, fmt::format("weighted {} levels {}", weighted, levels));
    }
  }
}

TEST(EvaluationStateProba, ColumnsInAnyOrderNamedOrNot) {
  std::mt19937_64 g(32);
  const pdata d = make(1200, 6, {"a", "b", "c"}, 3, 4);
  // Named after the classes in another order (the classes are sorted: the columns are permuted).
  expect_equal(d, opts({"c", "a", "b"}, true), g, "c,a,b");
  // Not named after the classes: taken in sorted class order.
  expect_equal(d, opts({"p2", "p0", "p1"}, false), g, "p2,p0,p1");
  // Numeric classes spelled two ways; columns named by other spellings, in numeric order "10" > "9".
  const pdata e = make(1200, 7, {"9", "10", "10.0", "2"}, 3, 5);
  expect_equal(e, opts({"10", "2.0", "9"}, true), g, "numeric");
  // A class named by a column but absent from the data.
  const pdata f = make(600, 8, {"a", "b"}, 3, 3);
  expect_equal(f, opts({"a", "b", "z"}, false), g, "absent class");
}

TEST(EvaluationStateProba, TopKAndBinaryProbabilities) {
  std::mt19937_64 g(33);
  const pdata d = make(1000, 9, {"a", "b", "c", "d", "e"}, 5, 3);
  for (std::size_t k : {1, 3, 5}) {
    evaluate_options eo;
    eo.top_k = k;
    expect_equal(d, opts({"a", "b", "c", "d", "e"}, true), g, fmt::format("top {}", k), eo);
  }
  // Two columns: a binary task (positive class named, or "1" of {0, 1}).
  const pdata b = make(900, 10, {"no", "yes"}, 2, 6);
  expect_equal(b, opts({"no", "yes"}, true, task_kind::binary, "yes"), g, "binary named");
  const pdata c = make(900, 11, {"0", "1"}, 2, 1000);
  expect_equal(c, opts({"0", "1"}, false), g, "binary 0/1");
}

TEST(EvaluationStateProba, RowsThatDoNotSumToOneAndOneClassOnly) {
  std::mt19937_64 g(34);
  // Rows 7, 15, ... do not sum to 1: the multiclass AUCs are undefined naming the first, the reliability
  // diagram is left out with a note; the per-class areas and losses are still given.
  const pdata d = make(700, 12, {"a", "b", "c"}, 3, 4, 8);
  expect_equal(d, opts({"a", "b", "c"}, true), g, "off");
  const std::string json = to_json(state_report(d, opts({"a", "b", "c"}, true), 3, g, {}));
  EXPECT_NE(json.find("data row 8 sum"), std::string::npos) << json;
  // Every row of one class: the one-vs-rest AUC of the others is undefined, as in evaluate.
  const pdata e = make(300, 13, {"b"}, 3, 4);
  expect_equal(e, opts({"a", "b", "c"}, false), g, "one class");
}

// Intervals of class probabilities: the normal interval of log loss and Brier (each row's loss), DeLong
// and the logit interval of the per-class areas, the multinomial bootstrap of the confusion matrix and
// the Poisson bootstrap of the multiclass AUCs and top-k accuracy, all from the kept rows in id order
// (row_ids): evaluate's, bit for bit, from 1, 2, 3 and 17 parts in random merge trees, weighted or
// not, any method, columns named in another order, rows that do not sum to 1, two classes.
TEST(EvaluationStateProba, IntervalsFromKeptRowsEqualEvaluate) {
  std::mt19937_64 g(61);
  for (const bool weighted : {false, true}) {
    for (const ci_method m : {ci_method::automatic, ci_method::bootstrap}) {
      evaluate_options eo;
      eo.ci_level = 0.9;
      eo.ci_method = m;
      eo.replicates = 48;
      eo.seed = 13;
      const pdata d = make(700, 62 + (weighted ? 1 : 0), {"a", "b", "c"}, 3, 5);
      state_options o = opts({"c", "a", "b"}, weighted);
      o.row_ids = true;
      const std::string want = to_json(evaluate_report(d, o, eo));
      ASSERT_NE(want.find("poisson bootstrap"), std::string::npos);
      if (m == ci_method::automatic && !weighted) {
        ASSERT_NE(want.find("normal, from the variance"), std::string::npos);
        ASSERT_NE(want.find("\"delong\""), std::string::npos);
      }
      expect_equal(d, o, g, fmt::format("weighted {} method {}", weighted, int(m)), eo);
      // Columns not named after the classes (taken in sorted class order); one row in 97 off 1.
      const pdata off = make(500, 64, {"0", "1", "2", "3"}, 4, 3, 97);
      state_options o4 = opts({"p0", "p1", "p2", "p3"}, weighted);
      o4.row_ids = true;
      expect_equal(off, o4, g, fmt::format("unnamed, off 1, weighted {}", weighted), eo);
      // Two classes: a binary task of class probabilities.
      const pdata two = make(400, 65, {"no", "yes"}, 2, 6);
      state_options o2 = opts({"yes", "no"}, weighted, task_kind::automatic, "yes");
      o2.row_ids = true;
      expect_equal(two, o2, g, fmt::format("binary, weighted {}", weighted), eo);
    }
  }
  // Without row_ids: refused, naming the reason.
  evaluation_state s(opts({"a", "b"}, false));
  const pdata d = make(10, 66, {"a", "b"}, 2, 3);
  row_batch rb;
  rb.y_true = label_column::of_text(d.y);
  std::vector<std::span<const double>> cols{d.cols[0], d.cols[1]};
  rb.y_proba = cols;
  s.update(rb);
  evaluate_options eo;
  eo.ci_level = 0.95;
  try {
    (void)s.finish(eo);
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::finish: ci_level is set; the intervals of class probabilities need every "
                           "row (the normal interval of a mean loss reads each row's loss, the Poisson bootstrap of the "
                           "other numbers resamples rows): build the state with row_ids");
  }
}

TEST(EvaluationStateProba, KeptRowsRoundTripAndEveryCorruptByteIsAnError) {
  const pdata d = make(40, 67, {"a", "b", "c"}, 3, 4);
  state_options o = opts({"b", "c", "a"}, true);
  o.row_ids = true;
  evaluation_state s(o);
  row_batch rb;
  rb.y_true = label_column::of_text(d.y);
  std::vector<std::span<const double>> cols{d.cols[0], d.cols[1], d.cols[2]};
  rb.y_proba = cols;
  rb.sample_weight = d.w;
  rb.first_row_id = 7;
  s.update(rb);
  const std::string blob = s.serialize();
  EXPECT_EQ(read_state(blob, o).serialize(), blob);
  for (std::size_t i = 0; i < blob.size(); ++i) {
    std::string bad = blob;
    bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ 0x04);
    EXPECT_THROW((void)read_state(bad), error) << "byte " << i;
  }
}

TEST(EvaluationStateProba, BytesAreCanonicalAndEveryCorruptByteIsAnError) {
  std::mt19937_64 g(35);
  const pdata d = make(60, 14, {"a", "b", "c"}, 3, 2);
  const state_options o = opts({"c", "a", "b"}, true);
  evaluation_state all(o);
  std::vector<std::span<const double>> cols(d.cols.begin(), d.cols.end());
  row_batch rb;
  rb.y_true = label_column::of_text(d.y);
  rb.y_proba = cols;
  rb.sample_weight = d.w;
  all.update(rb);
  const std::string blob = all.serialize();
  EXPECT_EQ(read_state(blob, o).serialize(), blob);
  // Two halves merged either way: the same bytes.
  for (int order = 0; order < 2; ++order) {
    evaluation_state a(o), b(o);
    for (auto [s, lo, hi] : {std::tuple{&a, 0, 25}, std::tuple{&b, 25, 60}}) {
      std::vector<std::span<const double>> c;
      for (const auto& col : d.cols) c.push_back(piece(col, lo, hi));
      row_batch x;
      x.y_true = label_column::of_text(piece(d.y, lo, hi));
      x.y_proba = c;
      x.sample_weight = piece(d.w, lo, hi);
      x.first_row_id = static_cast<std::uint64_t>(lo);
      s->update(x);
    }
    if (order == 0) {
      a.merge(b);
      EXPECT_EQ(a.serialize(), blob);
    } else {
      b.merge(a);
      EXPECT_EQ(b.serialize(), blob);
    }
  }
  const std::string want = to_json(all.finish());
  for (std::size_t i = 0; i < blob.size(); ++i) {
    std::string bad = blob;
    bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ 0x01);
    try {
      (void)read_state(bad).finish();
      ADD_FAILURE() << "byte " << i << " was accepted";
    } catch (const error& e) {
      EXPECT_EQ(e.kind(), error_kind::data) << e.what();
    }
  }
  // Another set of columns is another state.
  try {
    (void)read_state(blob, opts({"a", "b", "c"}, true));
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "read_state: the blob is a state of other options (its proba_names differs: another task "
                           "or evaluation)");
  }
}

TEST(EvaluationStateProba, BadInputIsRefusedOrSkipped) {
  state_options o = opts({"a", "b"}, false);
  evaluation_state s(o);
  const std::vector<std::string> y{"a", "b", "a"};
  const std::vector<double> pa{0.2, std::nan(""), 0.5}, pb{0.8, 0.5, 0.5}, big{0.8, 0.5, 1.5};
  std::vector<std::span<const double>> cols{pa, pb};
  row_batch rb;
  rb.y_true = label_column::of_text(y);
  rb.y_proba = cols;
  try {
    s.update(rb);
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::update: y_proba[0][1] is nan; missing values are refused (set "
                           "drop_missing to skip such rows)");
  }
  std::vector<std::span<const double>> one{pa};
  rb.y_proba = one;
  EXPECT_THROW(s.update(rb), error);
  const std::vector<double> ok{0.2, 0.5, 0.5};
  std::vector<std::span<const double>> bad{ok, big};
  rb.y_proba = bad;
  try {
    s.update(rb);
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::update: y_proba[1][2] is 1.5; probabilities must be in [0, 1]");
  }
  EXPECT_EQ(s.rows(), 0U);
  o.drop_missing = true;
  evaluation_state t(o);
  rb.y_proba = cols;
  t.update(rb);
  EXPECT_EQ(t.rows(), 2U);
  EXPECT_EQ(t.missing(), 1U);
  EXPECT_THROW(evaluation_state(opts({"a", "a"}, false)), error);
  EXPECT_THROW(evaluation_state(opts({"a"}, false)), error);
  evaluate_options eo;
  eo.ci_level = 0.95;
  EXPECT_THROW((void)t.finish(eo), error);
}

}  // namespace
}  // namespace assay::scale
