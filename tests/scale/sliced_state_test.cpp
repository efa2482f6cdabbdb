// The mergeable sliced state (include/assay/scale/sliced_state.hpp): the sliced report from any
// partitioning and merge order, through bytes or not, is evaluate_slices' on all the rows, byte for
// byte in JSON (every slice's report, the headline tables and their tests); corrupt and foreign blobs
// and bad rows are errors naming what is wrong.
#include "assay/scale/sliced_state.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "assay/error.hpp"

namespace assay::scale {
namespace {

// Rows of every kind, with two slice columns: `a` (numbers, ordered numerically: "10" after "9"),
// one rare level that holds negatives only, and `b` (text).
struct rows {
  std::vector<std::string> y, pred, a, b;
  std::vector<double> score, w, proba, target, value;  // proba: n x 3, rows exact sums of 1
};

rows make(std::size_t n, std::uint64_t seed, int levels) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const std::vector<std::string> classes{"neg", "pos", "mid"};
  const double dyadic[4][3] = {{0.25, 0.25, 0.5}, {0.125, 0.375, 0.5}, {0.75, 0.125, 0.125}, {1, 0, 0}};
  rows d;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = g() % 2;
    d.y.push_back(classes[c]);
    d.score.push_back(std::floor((u(g) + 0.4 * static_cast<double>(c)) * levels) / levels);
    d.pred.push_back(u(g) < 0.7 ? classes[c] : classes[g() % 3]);
    const double r = u(g);
    d.w.push_back(r < 0.1 ? 0.0 : std::round(r * 30) * 0.1);
    const auto& p = dyadic[g() % 4];
    const std::size_t shift = g() % 3;
    for (std::size_t k = 0; k < 3; ++k) d.proba.push_back(p[(k + shift) % 3]);
    d.target.push_back(i == n / 3 ? 0.0 : std::round(u(g) * 20) - 5);
    d.value.push_back(d.target.back() + std::round(u(g) * 8) * 0.25);
    const std::size_t level = g() % 4;
    d.a.push_back(c == 0 && g() % 40 == 0 ? "100" : std::vector<std::string>{"2", "9", "10", "-1"}[level]);
    d.b.push_back(g() % 3 == 0 ? "web" : "app");
  }
  return d;
}

enum class kind { scores, labels, proba, values };

state_options options_of(kind k, bool weighted) {
  state_options o;
  o.weighted = weighted;
  switch (k) {
    case kind::scores:
      o.kind = prediction_kind::scores;
      o.pos_label = "pos";
      o.source = "predictions_from_scores";
      break;
    case kind::labels:
      o.kind = prediction_kind::labels;
      o.source = "predictions_from_labels";
      break;
    case kind::proba:
      o.kind = prediction_kind::proba;
      o.proba_names = {"mid", "neg", "pos"};
      o.source = "predictions_from_proba";
      break;
    case kind::values:
      o.kind = prediction_kind::values;
      o.task = task_kind::regression;
      o.source = "predictions_from_values";
      break;
  }
  return o;
}

slice_column column_of(const std::string& name, const std::vector<std::string>& keys) {
  slice_column c;
  c.name = name;
  for (const auto& k : keys) {
    auto it = std::find(c.levels.begin(), c.levels.end(), k);
    if (it == c.levels.end()) it = c.levels.insert(c.levels.end(), k);
    c.codes.push_back(static_cast<std::int32_t>(it - c.levels.begin()));
  }
  return c;
}

sliced_report in_memory(const rows& d, kind k, bool weighted, std::size_t columns, const evaluate_options& eo) {
  prediction_options po;
  if (weighted) po.sample_weight = d.w;
  prediction_table t;
  switch (k) {
    case kind::scores:
      po.pos_label = "pos";
      t = predictions_from_scores(d.y, d.score, po);
      break;
    case kind::labels:
      t = predictions_from_labels(d.y, d.pred, po);
      break;
    case kind::proba:
      t = predictions_from_proba(d.y, d.proba, {"mid", "neg", "pos"}, po);
      break;
    case kind::values:
      t = predictions_from_values(d.target, d.value, po);
      break;
  }
  std::vector<slice_column> by{column_of("a", d.a)};
  if (columns == 2) by.push_back(column_of("b", d.b));
  return evaluate_slices(t, by, eo);
}

template <class T>
std::span<const T> piece(const std::vector<T>& v, std::size_t b, std::size_t e, std::size_t width = 1) {
  return std::span<const T>(v).subspan(b * width, (e - b) * width);
}

// Rows [b, e) into `s`; the slice columns as text, or `a` as numbers when `numeric`.
void add(sliced_state& s, const rows& d, kind k, std::size_t b, std::size_t e, bool numeric) {
  row_batch rb;
  rb.first_row_id = b;
  std::vector<double> a_num, cols[3];
  std::vector<std::span<const double>> spans;
  if (k == kind::values) {
    rb.y_true = label_column::of_numbers(piece(d.target, b, e));
    rb.y_value = piece(d.value, b, e);
  } else {
    rb.y_true = label_column::of_text(piece(d.y, b, e));
  }
  if (k == kind::scores) rb.y_score = piece(d.score, b, e);
  if (k == kind::labels) rb.y_pred = label_column::of_text(piece(d.pred, b, e));
  if (k == kind::proba) {
    for (std::size_t c = 0; c < 3; ++c) {
      for (std::size_t i = b; i < e; ++i) cols[c].push_back(d.proba[i * 3 + c]);
      spans.push_back(cols[c]);
    }
    rb.y_proba = spans;
  }
  if (s.options().weighted) rb.sample_weight = piece(d.w, b, e);
  std::vector<label_column> by;
  if (numeric) {
    for (std::size_t i = b; i < e; ++i) a_num.push_back(std::stod(d.a[i]));
    by.push_back(label_column::of_numbers(a_num));
  } else {
    by.push_back(label_column::of_text(piece(d.a, b, e)));
  }
  if (s.by().size() == 2) by.push_back(label_column::of_text(piece(d.b, b, e)));
  s.update(rb, by);
}

// The rows cut into `parts` pieces (each in two batches), merged in a random tree, some through bytes.
sliced_state partitioned(const rows& d, kind k, bool weighted, std::size_t columns, std::size_t parts,
                         std::mt19937_64& g) {
  const std::size_t n = d.y.size();
  std::vector<std::size_t> cut{0, n};
  for (std::size_t p = 1; p < parts; ++p) cut.push_back(g() % (n + 1));
  std::sort(cut.begin(), cut.end());
  const std::vector<std::string> by = columns == 1 ? std::vector<std::string>{"a"} : std::vector<std::string>{"a", "b"};
  std::vector<sliced_state> states;
  for (std::size_t p = 0; p + 1 < cut.size(); ++p) {
    sliced_state s(options_of(k, weighted), by);
    const std::size_t mid = (cut[p] + cut[p + 1]) / 2;
    add(s, d, k, cut[p], mid, (g() & 1) != 0);
    add(s, d, k, mid, cut[p + 1], (g() & 1) != 0);
    states.push_back(std::move(s));
  }
  std::shuffle(states.begin(), states.end(), g);
  while (states.size() > 1) {
    const std::size_t i = g() % states.size(), j = g() % states.size();
    if (i == j) continue;
    states[i].merge((g() & 1) ? read_sliced_state(states[j].serialize(), options_of(k, weighted), by) : states[j]);
    states.erase(states.begin() + static_cast<std::ptrdiff_t>(j));
  }
  return std::move(states[0]);
}

TEST(SlicedState, EveryKindEqualsEvaluateSlicesForAnyPartitioning) {
  std::mt19937_64 g(7);
  const rows d = make(1500, 3, 12);
  for (kind k : {kind::scores, kind::labels, kind::proba, kind::values}) {
    for (bool weighted : {false, true}) {
      for (std::size_t columns : {1, 2}) {
        const std::string want = to_json(in_memory(d, k, weighted, columns, {}));
        for (std::size_t parts : {1, 2, 3, 17}) {
          const sliced_state s = partitioned(d, k, weighted, columns, parts, g);
          EXPECT_EQ(to_json(s.finish()), want) << "kind " << static_cast<int>(k) << " weighted " << weighted
                                               << " columns " << columns << " parts " << parts;
        }
      }
    }
  }
}

TEST(SlicedState, TheTestsAreThoseOfEvaluateSlices) {
  // Scores with many ties: the z, chi-square and DeLong tests of every slice, and the rare slice of
  // negatives only (its AUC undefined) and the slices below min_rows (no test).
  std::mt19937_64 g(8);
  const rows d = make(4000, 4, 6);
  const sliced_report want = in_memory(d, kind::scores, false, 2, {});
  bool delong = false;
  for (const auto& m : want.metrics)
    if (m.name == "roc_auc")
      for (const auto& r : m.rows) delong = delong || r.statistic.defined();
  ASSERT_TRUE(delong);
  for (std::size_t parts : {1, 3, 17}) {
    EXPECT_EQ(to_json(partitioned(d, kind::scores, false, 2, parts, g).finish()), to_json(want)) << parts;
    EXPECT_EQ(to_text(partitioned(d, kind::scores, false, 1, parts, g).finish()),
              to_text(in_memory(d, kind::scores, false, 1, {})));
  }
}

TEST(SlicedState, ASliceOfOneClassHasTheClassesOfAllTheSlices) {
  // A slice whose rows are all of one class ("0"; "a", and "c" only a true class of other slices) is
  // evaluated with the classes of every slice, as evaluate_slices: on its own it would have fewer.
  std::mt19937_64 g(12);
  const std::size_t n = 600;
  std::vector<std::string> y01, yabc, pred, key;
  std::vector<double> score;
  for (std::size_t i = 0; i < n; ++i) {
    const bool rare = i % 50 == 0;
    y01.push_back(rare ? "0" : std::to_string(g() % 2));
    yabc.push_back(rare ? "a" : std::string(1, static_cast<char>('a' + g() % 3)));
    pred.push_back(rare ? "a" : std::string(1, static_cast<char>('a' + g() % 2)));  // "c" is never predicted
    score.push_back(static_cast<double>(g() % 7) / 7);
    key.push_back(rare ? "rare" : (g() % 2 ? "x" : "y"));
  }
  for (const bool scores : {true, false}) {
    state_options o;
    o.kind = scores ? prediction_kind::scores : prediction_kind::labels;
    o.source = scores ? "predictions_from_scores" : "predictions_from_labels";
    const auto& y = scores ? y01 : yabc;
    const prediction_table t = scores ? predictions_from_scores(y, score) : predictions_from_labels(y, pred);
    const std::string want = to_json(evaluate_slices(t, std::vector<slice_column>{column_of("k", key)}));
    ASSERT_NE(want.find("\"rare\""), std::string::npos);
    for (std::size_t parts : {1, 3}) {
      sliced_state all(o, {"k"});
      for (std::size_t p = 0; p < parts; ++p) {
        const std::size_t b = n * p / parts, e = n * (p + 1) / parts;
        sliced_state one(o, {"k"});
        row_batch rb;
        rb.y_true = label_column::of_text(piece(y, b, e));
        if (scores) rb.y_score = piece(score, b, e);
        else rb.y_pred = label_column::of_text(piece(pred, b, e));
        rb.first_row_id = b;
        const std::vector<label_column> by{label_column::of_text(piece(key, b, e))};
        one.update(rb, by);
        all.merge(one);
      }
      EXPECT_EQ(to_json(all.finish()), want) << "scores " << scores << " parts " << parts;
    }
  }
}

TEST(SlicedState, IntervalsNumberEachSlicesRowsWithinTheSlice) {
  // Poisson bootstrap intervals (weighted, or ci_method bootstrap) resample each slice's rows by their
  // index within the slice, as evaluate_slices evaluates a slice as a table of its own rows.
  std::mt19937_64 g(9);
  const rows d = make(900, 5, 10);
  evaluate_options eo;
  eo.ci_level = 0.9;
  eo.replicates = 60;
  eo.seed = 3;
  for (auto [k, weighted] : {std::pair{kind::scores, true}, std::pair{kind::values, false}, std::pair{kind::proba, false}}) {
    state_options o = options_of(k, weighted);
    const std::string want = to_json(in_memory(d, k, weighted, 1, eo));
    if (k == kind::scores) {  // regression and class probabilities keep their ids anyway
      sliced_state s(o, {"a"});
      add(s, d, k, 0, 10, false);
      EXPECT_THROW((void)s.finish(eo), error);
    }
    o.row_ids = true;
    for (std::size_t parts : {1, 3}) {
      std::vector<sliced_state> states;
      const std::size_t n = d.y.size();
      sliced_state all(o, {"a"});
      for (std::size_t p = 0; p < parts; ++p) {
        sliced_state one(o, {"a"});
        add(one, d, k, n * p / parts, n * (p + 1) / parts, false);
        all.merge(read_sliced_state(one.serialize(), o, std::vector<std::string>{"a"}));
      }
      EXPECT_EQ(to_json(all.finish(eo)), want) << static_cast<int>(k) << " parts " << parts;
    }
  }
}

TEST(SlicedState, BytesAreCanonicalAndCorruptOrForeignBlobsAreErrors) {
  std::mt19937_64 g(10);
  const rows d = make(400, 6, 8);
  const std::string a = partitioned(d, kind::scores, false, 2, 1, g).serialize();
  const std::string b = partitioned(d, kind::scores, false, 2, 5, g).serialize();
  EXPECT_EQ(a, b);
  for (std::size_t i = 0; i < a.size(); i += 1 + a.size() / 300) {
    std::string bad = a;
    bad[i] = static_cast<char>(bad[i] ^ 0x20);
    EXPECT_THROW((void)read_sliced_state(bad), error) << "byte " << i;
  }
  EXPECT_THROW((void)read_sliced_state(a.substr(0, a.size() - 9)), error);
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // Another kind of blob, other options, other slice columns.
  const std::string plain = evaluation_state(options_of(kind::scores, false)).serialize();
  EXPECT_EQ(message([&] { (void)read_sliced_state(plain); }),
            "read_sliced_state: the blob is not an assay sliced state (its first bytes are not \"ASSAYSL\")");
  EXPECT_NE(message([&] { (void)read_sliced_state(a, options_of(kind::scores, true)); }).find("its weighted differs"),
            std::string::npos);
  EXPECT_EQ(message([&] { (void)read_sliced_state(a, std::nullopt, std::vector<std::string>{"a"}); }),
            "read_sliced_state: the blob slices by (a, b), not by (a)");
  sliced_state one(options_of(kind::scores, false), {"a"});
  EXPECT_EQ(message([&] { one.merge(read_sliced_state(a)); }),
            "sliced_state::merge: the other state slices by (a, b), this one by (a)");
  EXPECT_EQ(message([&] { sliced_state(options_of(kind::scores, false), {"a", "a"}); }),
            "sliced_state: by names the column 'a' twice; give two different columns");
  EXPECT_EQ(message([&] { (void)one.finish(); }), "sliced_state::finish: no rows were added; there is nothing to evaluate");
}

TEST(SlicedState, BadRowsNameTheBatchRowAndLeaveTheStateUnchanged) {
  const rows d = make(50, 11, 8);
  sliced_state s(options_of(kind::scores, false), {"a"});
  add(s, d, kind::scores, 0, 20, false);
  const std::string before = s.serialize();
  std::vector<double> score(d.score.begin() + 20, d.score.end());
  score[17] = std::nan("");
  row_batch rb;
  rb.y_true = label_column::of_text(std::span<const std::string>(d.y).subspan(20));
  rb.y_score = score;
  const std::vector<label_column> by{label_column::of_text(std::span<const std::string>(d.a).subspan(20))};
  try {
    s.update(rb, by);
    ADD_FAILURE() << "no error";
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "evaluation_state::update: y_score[17] is nan; missing values are refused (set drop_missing "
                           "to skip such rows)");
  }
  EXPECT_EQ(s.serialize(), before);
  // A missing key: refused, naming the column and the row; with drop_missing counted and skipped.
  score[17] = 0.5;
  std::vector<double> key(score.size(), 1.0);
  key[4] = std::nan("");
  const std::vector<label_column> numeric{label_column::of_numbers(key)};
  try {
    s.update(rb, numeric);
    ADD_FAILURE() << "no error";
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "sliced_state::update: by[0] ('a') is nan in row 4; missing values are refused (set "
                           "drop_missing to skip such rows)");
  }
  EXPECT_EQ(s.serialize(), before);
  state_options o = options_of(kind::scores, false);
  o.drop_missing = true;
  sliced_state dropping(o, {"a"});
  score[9] = std::nan("");
  dropping.update(rb, numeric);
  EXPECT_EQ(dropping.missing(), 2U);
  EXPECT_EQ(dropping.rows(), score.size() - 2);
  EXPECT_THROW(s.update(rb, {}), error);  // no key column
}

}  // namespace
}  // namespace assay::scale
