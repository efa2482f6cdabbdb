// The prediction table (include/assay/data/predictions.hpp): arrays in memory give the same report,
// byte for byte in JSON, as the file with the same numbers (binary scores, multiclass predictions,
// multiclass probabilities, regression, weights, intervals); the class rules (numeric spellings, the
// positive class, probability columns by name); and every bad input, with the whole message.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "assay/curves/curve_report.hpp"
#include "assay/data/predictions.hpp"
#include "assay/error.hpp"
#include "assay/report/report.hpp"
#include "assay/stats/compare_models.hpp"

namespace assay {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

// A file in the test's temporary directory.
std::string temp_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("assay_data_test_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// A CSV of columns (name, cells); numbers are written in their shortest round-trip form, so the file
// holds exactly the doubles of the arrays.
std::string csv(const std::vector<std::pair<std::string, std::vector<std::string>>>& cols) {
  std::string s;
  for (std::size_t c = 0; c < cols.size(); ++c) s += (c ? "," : "") + cols[c].first;
  s += "\n";
  for (std::size_t i = 0; i < cols[0].second.size(); ++i) {
    for (std::size_t c = 0; c < cols.size(); ++c) s += (c ? "," : "") + cols[c].second[i];
    s += "\n";
  }
  return s;
}
std::vector<std::string> cells(const std::vector<double>& v) {
  std::vector<std::string> out;
  for (double x : v) out.push_back(fmt::format("{}", x));
  return out;
}

// Deterministic pseudo-random numbers in [0, 1) (a 64-bit LCG), so the data has ties and no pattern.
struct lcg {
  std::uint64_t s;
  double next() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(s >> 11) / 9007199254740992.0;
  }
};

// The report's JSON without the source (a file name on one side, the builder's name on the other).
std::string json_of(report r) {
  r.source = "same";
  return to_json(r);
}

struct binary_data {
  std::vector<double> y, score, weight;
};
binary_data binary(std::size_t n, std::uint64_t seed) {
  lcg g{seed};
  binary_data d;
  for (std::size_t i = 0; i < n; ++i) {
    const double y = g.next() < 0.4 ? 1 : 0;
    d.y.push_back(y);
    d.score.push_back(std::round((0.35 * y + 0.65 * g.next()) * 100) / 100);  // ties
    d.weight.push_back(std::round(g.next() * 40) / 10);                     // some 0
  }
  return d;
}

TEST(predictions_memory_vs_file, binary_scores) {
  const binary_data d = binary(500, 1);
  const std::string path = temp_file("binary.csv", csv({{"y_true", cells(d.y)}, {"y_score", cells(d.score)}}));
  report_request q;
  q.path = path;
  q.label = "y_true";
  q.score = "y_score";
  q.beta = 2;
  q.threshold = 0.4;
  const report from_file = make_report(q);
  const report from_memory = evaluate(predictions_from_scores(d.y, d.score), options_of(q));
  EXPECT_EQ(json_of(from_memory), json_of(from_file));
  EXPECT_EQ(to_text(from_memory).substr(to_text(from_memory).find('\n')),
            to_text(from_file).substr(to_text(from_file).find('\n')));
  // The const overload (copies the columns it sorts) gives the same report and leaves the table alone.
  const prediction_table t = predictions_from_scores(d.y, d.score);
  const std::vector<double> before = t.scores[0].values;
  EXPECT_EQ(json_of(evaluate(t, options_of(q))), json_of(from_file));
  EXPECT_EQ(t.scores[0].values, before);
}

TEST(predictions_memory_vs_file, weighted_binary_scores_with_intervals_and_curves) {
  const binary_data d = binary(300, 2);
  const std::string path = temp_file(
      "weighted.csv", csv({{"y_true", cells(d.y)}, {"y_score", cells(d.score)}, {"sample_weight", cells(d.weight)}}));
  report_request q;
  q.path = path;
  q.label = "y_true";
  q.score = "y_score";
  q.weight = "sample_weight";
  q.ci_level = 0.9;
  q.bootstrap_replicates = 200;
  q.seed = 7;
  q.keep_curves = true;
  prediction_options o;
  o.sample_weight = d.weight;
  const report from_file = make_report(q);
  const report from_memory = evaluate(predictions_from_scores(d.y, d.score, o), options_of(q));
  EXPECT_EQ(json_of(from_memory), json_of(from_file));
  ASSERT_TRUE(from_memory.roc && from_file.roc);
  EXPECT_EQ(from_memory.roc->y, from_file.roc->y);
}

TEST(predictions_memory_vs_file, multiclass_predicted_labels_as_text) {
  lcg g{3};
  const std::vector<std::string> names{"setosa", "versicolor", "virginica", "unseen"};
  std::vector<std::string> y, p;
  for (int i = 0; i < 200; ++i) {
    y.push_back(names[static_cast<std::size_t>(g.next() * 3)]);
    p.push_back(g.next() < 0.7 ? y.back() : names[static_cast<std::size_t>(g.next() * 4)]);  // "unseen" predicted
  }
  const std::string path = temp_file("multi.csv", csv({{"y_true", y}, {"y_pred", p}}));
  report_request q;
  q.path = path;
  q.label = "y_true";
  q.pred = "y_pred";
  q.ci_level = 0.95;
  q.bootstrap_replicates = 100;
  const report from_file = make_report(q);
  const report from_memory = evaluate(predictions_from_labels(y, p), options_of(q));
  EXPECT_EQ(json_of(from_memory), json_of(from_file));
  EXPECT_EQ(from_memory.labels, (std::vector<std::string>{"setosa", "unseen", "versicolor", "virginica"}));
}

TEST(predictions_memory_vs_file, multiclass_probabilities_named_out_of_order) {
  lcg g{4};
  const std::size_t n = 240, K = 3;
  std::vector<double> y(n), proba(n * K);
  std::vector<std::vector<double>> col(K, std::vector<double>(n));
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = std::floor(g.next() * 3);
    // Quarters, so every row sums to exactly 1.
    const double a = std::floor(g.next() * 3) / 4, b = std::floor(g.next() * (4 - 4 * a)) / 4;
    const double p[3] = {a, b, 1 - a - b};
    for (std::size_t c = 0; c < K; ++c) proba[i * K + c] = col[c][i] = p[c];
  }
  // The columns of y_proba are the classes 2, 0, 1 (as named by `classes`); the file names them so too.
  const std::vector<std::string> classes{"2", "0", "1.0"};
  const std::string path =
      temp_file("proba.csv", csv({{"y_true", cells(y)}, {"2", cells(col[0])}, {"0", cells(col[1])}, {"1.0", cells(col[2])}}));
  report_request q;
  q.path = path;
  q.label = "y_true";
  q.proba = {"2", "0", "1.0"};
  q.top_k = 2;
  const report from_file = make_report(q);
  const prediction_table t = predictions_from_proba(y, proba, classes);
  EXPECT_EQ(t.classes, (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(t.proba_names, (std::vector<std::string>{"0", "1.0", "2"}));
  EXPECT_EQ(json_of(evaluate(t, options_of(q))), json_of(from_file));
}

TEST(predictions_memory_vs_file, regression_weighted) {
  lcg g{5};
  std::vector<double> y, yhat, w;
  for (int i = 0; i < 150; ++i) {
    y.push_back(std::round(g.next() * 1000) / 10);
    yhat.push_back(y.back() + std::round((g.next() - 0.5) * 200) / 10);
    w.push_back(1 + std::floor(g.next() * 3));
  }
  const std::string path = temp_file(
      "reg.csv", csv({{"y_true", cells(y)}, {"y_pred", cells(yhat)}, {"sample_weight", cells(w)}}));
  report_request q;
  q.path = path;
  q.label = "y_true";
  q.pred = "y_pred";
  q.weight = "sample_weight";
  q.task = task_kind::regression;
  q.ci_level = 0.95;
  q.bootstrap_replicates = 100;
  prediction_options o;
  o.sample_weight = w;
  EXPECT_EQ(json_of(evaluate(predictions_from_values(y, yhat, o), options_of(q))), json_of(make_report(q)));
}

TEST(predictions_memory_vs_file, curves_and_comparison) {
  const binary_data d = binary(400, 6);
  const std::string path = temp_file("curve.csv", csv({{"y_true", cells(d.y)}, {"y_score", cells(d.score)}}));
  curves::curve_request q;
  q.path = path;
  q.label = "y_true";
  q.scores = {"y_score"};
  for (auto kind : {curves::curve_kind::roc, curves::curve_kind::pr, curves::curve_kind::threshold,
                    curves::curve_kind::calibration}) {
    q.kind = kind;
    const auto from_file = curves::make_curve(q);
    const auto from_memory = curves::make_curve(predictions_from_scores(d.y, d.score), q);
    EXPECT_EQ(from_memory.csv, from_file.csv) << static_cast<int>(kind);
  }
}

TEST(predictions_memory_vs_file, compare_scores_and_multiclass_labels) {
  const binary_data d = binary(300, 8);
  lcg g{9};
  std::vector<double> other(d.score.size());
  for (auto& x : other) x = std::round(g.next() * 100) / 100;
  const std::string path =
      temp_file("cmp.csv", csv({{"y_true", cells(d.y)}, {"a", cells(d.score)}, {"b", cells(other)}}));
  stats::compare_options o;
  o.metrics = {"f1", "roc_auc"};
  o.replicates = 200;
  o.permutations = 200;
  o.seed = 3;
  prediction_file f;
  f.path = path;
  f.label = "y_true";
  f.scores = {"a", "b"};
  f.classes = class_set::truth;
  stats::model_comparison from_file = stats::compare_predictions(read_predictions(f), o);
  stats::model_comparison from_memory = stats::compare_predictions(
      predictions_from_model_scores(d.y, {{"a", d.score}, {"b", other}}), o);
  from_file.source = from_memory.source = "same";
  EXPECT_EQ(stats::to_json(from_memory), stats::to_json(from_file));

  // Multiclass predictions with a class the label lacks ("unseen" counts as wrong).
  const std::vector<std::string> names{"a", "b", "c", "unseen"};
  std::vector<std::string> y, p, q;
  for (int i = 0; i < 150; ++i) {
    y.push_back(names[static_cast<std::size_t>(g.next() * 3)]);
    p.push_back(g.next() < 0.6 ? y.back() : names[static_cast<std::size_t>(g.next() * 4)]);
    q.push_back(g.next() < 0.5 ? y.back() : names[static_cast<std::size_t>(g.next() * 3)]);
  }
  f.path = temp_file("cmp_multi.csv", csv({{"y_true", y}, {"p", p}, {"q", q}}));
  f.scores.clear();
  f.predictions = {"p", "q"};
  o.metrics = {"f1_macro"};
  prediction_options po;
  po.classes = class_set::truth;
  from_file = stats::compare_predictions(read_predictions(f), o);
  from_memory = stats::compare_predictions(predictions_from_model_labels(y, {{"p", p}, {"q", q}}, po), o);
  from_file.source = from_memory.source = "same";
  EXPECT_EQ(stats::to_json(from_memory), stats::to_json(from_file));
  EXPECT_EQ(from_memory.models[0].unknown_classes, std::vector<std::string>{"unseen"});
}

// ---- the class rules ------------------------------------------------------------------------------

TEST(predictions_classes, numeric_spellings_are_one_class) {
  const std::vector<std::string> y{"0.0", "1.0", "1", "0"};
  const std::vector<double> s{0.1, 0.9, 0.8, 0.3};
  prediction_options o;
  o.pos_label = "1.0";
  const prediction_table t = predictions_from_scores(y, s, o);
  EXPECT_EQ(t.classes, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(t.positive, 1u);
  EXPECT_EQ(t.y, (std::vector<std::int32_t>{0, 1, 1, 0}));
}

TEST(predictions_classes, numbers_and_text_of_numbers_agree) {
  const std::vector<double> y{-1, 1, 1, -1};
  const std::vector<std::string> p{"-1.0", "1", "-1", "-1"};
  const prediction_table t = predictions_from_labels(y, p);
  EXPECT_EQ(t.classes, (std::vector<std::string>{"-1", "1"}));
  EXPECT_EQ(t.positive, 1u);  // 1 of {-1, 1}
  EXPECT_EQ(t.predictions[0].codes, (std::vector<std::int32_t>{0, 1, 0, 0}));
}

// Numbers are coded without hashing while they take few values and with a hash map past 32: the
// classes and codes equal those of the same labels given as text, for 1 to 100 classes, with
// repeats before and after the switch, and -0 one class with 0.
TEST(predictions_classes, many_numeric_classes_code_as_their_text) {
  std::mt19937_64 rng(7);
  for (const int k : {1, 2, 31, 32, 33, 100}) {
    std::vector<double> y, p;
    std::vector<std::string> yt, pt;
    for (int i = 0; i < 40 * k + 3; ++i) {
      const int a = static_cast<int>(rng() % static_cast<std::uint64_t>(k)), b = (a * 7 + i) % k;
      y.push_back(a == k / 2 && i % 2 ? -0.0 : a - k / 2);  // the class 0 also spelt -0
      p.push_back(b - k / 2);
      yt.push_back(std::to_string(a - k / 2));
      pt.push_back(std::to_string(b - k / 2));
    }
    const prediction_table numbers = predictions_from_labels(y, p), text = predictions_from_labels(yt, pt);
    EXPECT_EQ(numbers.classes, text.classes) << k;
    EXPECT_EQ(numbers.y, text.y) << k;
    EXPECT_EQ(numbers.predictions[0].codes, text.predictions[0].codes) << k;
  }
}

// Small integers are coded through a table indexed by the value, everything else through the scan or
// the hash map: a mix of small integers, integers beyond the table (-129, 128, 1e6), fractions near
// integers (0.5, -127.5) and -0 gives the classes and codes of the same labels as text.
TEST(predictions_classes, small_integers_large_numbers_and_fractions_code_as_their_text) {
  const std::vector<double> values{0, 1, -1, 127, -128, 128, -129, 0.5, -127.5, 1e6, 2, -0.0};
  const std::vector<std::string> spelt{"0", "1", "-1", "127", "-128", "128", "-129", "0.5", "-127.5", "1000000", "2", "0"};
  std::mt19937_64 rng(11);
  std::vector<double> y, p;
  std::vector<std::string> yt, pt;
  for (int i = 0; i < 600; ++i) {
    const std::size_t a = rng() % values.size(), b = rng() % values.size();
    y.push_back(values[a]);
    p.push_back(values[b]);
    yt.push_back(spelt[a]);
    pt.push_back(spelt[b]);
  }
  const prediction_table numbers = predictions_from_labels(y, p), text = predictions_from_labels(yt, pt);
  EXPECT_EQ(numbers.classes, text.classes);
  EXPECT_EQ(numbers.classes.size(), 11u);
  EXPECT_EQ(numbers.y, text.y);
  EXPECT_EQ(numbers.predictions[0].codes, text.predictions[0].codes);
}

TEST(predictions_classes, one_class_gets_its_partner) {
  const std::vector<std::string> y{"yes", "yes"};
  prediction_options o;
  o.pos_label = "yes";
  const prediction_table t = predictions_from_scores(y, std::vector<double>{0.2, 0.7}, o);
  EXPECT_EQ(t.classes, (std::vector<std::string>{"not yes", "yes"}));
  EXPECT_EQ(t.positive, 1u);
}

// ---- bad input: whole messages --------------------------------------------------------------------

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(predictions_errors, lengths_empty_and_values) {
  const std::vector<double> y{0, 1, 1, 0}, s{0.1, 0.9, 0.8, 0.3};
  EXPECT_EQ(message_of([&] { predictions_from_scores(y, std::vector<double>{0.1, 0.2}); }),
            "predictions_from_scores: y_score has 2 values but y_true has 4; they must have the same length");
  EXPECT_EQ(message_of([&] { predictions_from_scores(std::vector<double>{}, std::vector<double>{}); }),
            "predictions_from_scores: y_true is empty; there is nothing to evaluate");
  EXPECT_EQ(message_of([&] { predictions_from_scores(y, std::vector<double>{0.1, 0.2, 0.3, nan}); }),
            "predictions_from_scores: y_score[3] is nan; scores must be finite");
  EXPECT_EQ(message_of([&] { predictions_from_scores(y, std::vector<double>{0.1, -inf, 0.3, 0.4}); }),
            "predictions_from_scores: y_score[1] is -inf; scores must be finite");
  EXPECT_EQ(message_of([&] { predictions_from_scores(std::vector<double>{0, nan, 1, 0}, s); }),
            "predictions_from_scores: y_true[1] is nan; numeric labels must be finite");
  EXPECT_EQ(message_of([&] { predictions_from_labels(y, std::vector<double>{1, 0}); }),
            "predictions_from_labels: y_pred has 2 values but y_true has 4; they must have the same length");
  EXPECT_EQ(message_of([&] { predictions_from_values(y, std::vector<double>{1, 2, inf, 0}); }),
            "predictions_from_values: y_pred[2] is inf; values must be finite");
}

TEST(predictions_errors, several_models) {
  const std::vector<double> y{0, 1, 1, 0}, s{0.1, 0.9, 0.8, 0.3}, bad{0.2, 0.4, 0.6, nan};
  EXPECT_EQ(message_of([&] { predictions_from_model_scores(y, {}); }),
            "predictions_from_model_scores: models is empty; give at least one model");
  EXPECT_EQ(message_of([&] { predictions_from_model_scores(y, {{"a", s}, {"b", bad}}); }),
            "predictions_from_model_scores: models[1].y_score[3] is nan; scores must be finite");
  EXPECT_EQ(message_of([&] { predictions_from_model_scores(y, {{"a", s}, {"", std::span(s).first(3)}}); }),
            "predictions_from_model_scores: models[1].y_score has 3 values but y_true has 4; they must have the same "
            "length");
  EXPECT_EQ(message_of([&] { predictions_from_model_labels(y, {{"a", y}, {"b", bad}}); }),
            "predictions_from_model_labels: models[1].y_pred[3] is nan; numeric labels must be finite");
  const prediction_table t = predictions_from_model_scores(y, {{"a", s}, {"", s}});
  EXPECT_EQ(t.scores[1].name, "model 2");
  // A table of several models is for compare_predictions and make_curve, not evaluate.
  EXPECT_EQ(message_of([&] { evaluate(t); }),
            "evaluate: the table has 2 prediction columns; evaluate takes exactly one (compare several models with "
            "stats::compare_predictions)");
}

TEST(predictions_errors, weights) {
  const std::vector<double> y{0, 1, 1, 0}, s{0.1, 0.9, 0.8, 0.3};
  prediction_options o;
  const std::vector<double> negative{1, -0.5, 1, 1}, not_a_number{1, 1, nan, 1}, zero{0, 0, 0, 0}, short_w{1};
  o.sample_weight = negative;
  EXPECT_EQ(message_of([&] { predictions_from_scores(y, s, o); }),
            "predictions_from_scores: sample_weight[1] is -0.5; weights must be finite and >= 0");
  o.sample_weight = not_a_number;
  EXPECT_EQ(message_of([&] { predictions_from_labels(y, y, o); }),
            "predictions_from_labels: sample_weight[2] is nan; weights must be finite and >= 0");
  o.sample_weight = zero;
  EXPECT_EQ(message_of([&] { predictions_from_scores(y, s, o); }),
            "predictions_from_scores: sample_weight: every weight is 0; there is nothing to evaluate");
  o.sample_weight = short_w;
  EXPECT_EQ(message_of([&] { predictions_from_values(y, s, o); }),
            "predictions_from_values: sample_weight has 1 values but y_true has 4; they must have the same length");
}

TEST(predictions_errors, probabilities) {
  const std::vector<double> y{0, 1, 2};
  EXPECT_EQ(message_of([&] { predictions_from_proba(y, std::vector<double>{0.5, 0.5, 0.2, 0.8, 1}); }),
            "predictions_from_proba: y_proba has 5 values, not a whole number of rows of y_true's 3 (rows x classes, "
            "row-major)");
  EXPECT_EQ(message_of([&] {
              predictions_from_proba(y, std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1}, {"0", "1"});
            }),
            "predictions_from_proba: classes has 2 names but y_proba has 3 columns (9 values for 3 rows)");
  EXPECT_EQ(message_of([&] { predictions_from_proba(y, std::vector<double>{1, 0, 0, 0, 1.5, 0, 0, 0, 1}); }),
            "predictions_from_proba: y_proba[1, 1] is 1.5; probabilities must be in [0, 1]");
  EXPECT_EQ(message_of([&] { predictions_from_proba(y, std::vector<double>{1, 0, 0, 0, 0.5, 0.4, 0, 0, 1}); }),
            "predictions_from_proba: y_proba row 1 sums to 0.9; each row must sum to 1 (rule: |sum - 1| <= 1e-8 + "
            "1e-5 |sum|)");
  EXPECT_EQ(message_of([&] {
              predictions_from_proba(y, std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1}, {"0", "1", "x"});
            }),
            "predictions_from_proba: y_proba: class \"2\" of y_true has no probability column (columns: \"0\", \"1\", "
            "\"x\"; name them after the classes or none of them)");
}

TEST(predictions_errors, classes_and_positive) {
  const std::vector<std::string> y{"no", "yes", "yes", "no"};
  const std::vector<double> s{0.1, 0.9, 0.8, 0.3};
  EXPECT_EQ(message_of([&] { predictions_from_scores(y, s); }),
            "predictions_from_scores: cannot tell which class is positive among \"no\", \"yes\": name it with "
            "pos_label");
  prediction_options o;
  o.pos_label = "maybe";
  EXPECT_EQ(message_of([&] { predictions_from_scores(y, s, o); }),
            "predictions_from_scores: pos_label: class \"maybe\" not found in y_true (classes: \"no\", \"yes\")");
  const std::vector<std::string> three{"a", "b", "c", "a"};
  EXPECT_EQ(message_of([&] { predictions_from_scores(three, s); }),
            "predictions_from_scores: y_true has 3 classes (\"a\", \"b\", \"c\"), but scores make a binary task (use "
            "predictions_from_labels or predictions_from_proba for more than 2 classes)");
  o.pos_label = "a";
  EXPECT_EQ(message_of([&] { predictions_from_labels(three, three, o); }),
            "predictions_from_labels: pos_label: y_true has 3 classes (\"a\", \"b\", \"c\"); a positive class has no "
            "meaning for a multiclass task: leave pos_label out");
}

TEST(predictions_errors, evaluate_options) {
  const std::vector<double> y{0, 1, 1, 0}, s{0.1, 0.9, 0.8, 0.3};
  const prediction_table t = predictions_from_scores(y, s);
  evaluate_options o;
  o.threshold = nan;
  EXPECT_EQ(message_of([&] { evaluate(t, o); }), "evaluate: threshold is nan; it must be a finite number");
  o = {};
  o.beta = 0;
  EXPECT_EQ(message_of([&] { evaluate(t, o); }), "evaluate: beta is 0; it must be a finite number > 0");
  o = {};
  o.top_k = 0;
  EXPECT_EQ(message_of([&] { evaluate(t, o); }), "evaluate: top_k is 0; it must be >= 1");
  o = {};
  o.ci_level = 1.5;
  EXPECT_EQ(message_of([&] { evaluate(t, o); }), "evaluate: ci_level is 1.5; it must be between 0 and 1 (e.g. 0.95)");
  o = {};
  o.ci_level = 0.95;
  o.replicates = 0;
  EXPECT_EQ(message_of([&] { evaluate(t, o); }), "evaluate: replicates is 0; it must be in [1, 1000000]");
  curves::curve_options c;
  c.beta = -1;
  EXPECT_EQ(message_of([&] { curves::make_curve(t, c); }), "curve: beta is -1; it must be a finite number > 0");
}

// A table filled by hand is checked, never read out of bounds.
TEST(predictions_errors, hand_made_tables) {
  prediction_table t = predictions_from_scores(std::vector<double>{0, 1, 1, 0}, std::vector<double>{0.1, 0.9, 0.8, 0.3});
  t.y[2] = 5;
  EXPECT_EQ(message_of([&] { evaluate(t); }), "evaluate: y[2] is 5; class indices must be in [0, 2)");
  t.y[2] = 1;
  t.scores[0].values.pop_back();
  EXPECT_EQ(message_of([&] { evaluate(t); }), "evaluate: scores has 3 entries, but the table has 4");
  t.scores.clear();
  EXPECT_EQ(message_of([&] { evaluate(t); }),
            "evaluate: the table has 0 prediction columns; evaluate takes exactly one (compare several models with "
            "stats::compare_predictions)");
}

}  // namespace
}  // namespace assay
