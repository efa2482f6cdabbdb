// Golden tests of `assay report` on the bundled examples. The expected JSON is computed by
// scikit-learn (tests/cli/make_expected.py -> tests/cli/expected/*.json), never taken from assay.
// JSON: every key compared, numbers within 1e-12 relative. Text: the structure, and the confusion
// matrix cells equal to the JSON's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;

const char* const kCases[] = {"breast_binary", "breast_weighted", "iris_pred", "iris_proba", "diabetes_regression"};

json load_case(const std::string& name) {
  return json::parse(read_file(std::filesystem::path(ASSAY_TEST_DIR) / "cli" / "expected" / (name + ".json")));
}

std::vector<std::string> case_args(const json& c) { return c.at("args").get<std::vector<std::string>>(); }

// Compares `actual` with `expected` at `where`, recursively; numbers within 1e-12 relative.
void expect_same(const json& expected, const json& actual, const std::string& where) {
  if (expected.is_number()) {
    ASSERT_TRUE(actual.is_number()) << where << ": expected a number, got " << actual.dump();
    const double e = expected.get<double>(), a = actual.get<double>();
    EXPECT_LE(std::abs(a - e), 1e-12 * std::max(std::abs(e), std::abs(a)))
        << where << ": expected " << e << ", got " << a;
    return;
  }
  if (expected.is_object()) {
    ASSERT_TRUE(actual.is_object()) << where << ": expected an object, got " << actual.dump();
    for (const auto& [k, v] : expected.items()) {
      if (!actual.contains(k)) {
        ADD_FAILURE() << where << ": missing key \"" << k << "\"";
        continue;
      }
      expect_same(v, actual.at(k), where + "." + k);
    }
    return;
  }
  if (expected.is_array()) {
    ASSERT_TRUE(actual.is_array()) << where;
    ASSERT_EQ(actual.size(), expected.size()) << where;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      expect_same(expected[i], actual[i], where + "[" + std::to_string(i) + "]");
    }
    return;
  }
  EXPECT_EQ(actual, expected) << where;
}

// Keys of the report that are not headline metrics.
const std::set<std::string> kNotMetrics{"assay_version", "source", "task", "n", "weighted", "total_weight",
                                        "positive_label", "threshold", "confusion_matrix", "per_class",
                                        "micro_avg", "macro_avg", "weighted_avg", "zero_division", "notes"};

class golden : public ::testing::TestWithParam<const char*> {};

TEST_P(golden, json_matches_scikit_learn) {
  const json c = load_case(GetParam());
  ASSERT_EQ(c.at("sklearn_version"), "1.2.1") << "expected values were made with another scikit-learn: check them";
  const auto args = case_args(c);
  const cli_result r = run_assay(args);
  ASSERT_EQ(r.exit_code, 0) << show_args(args) << "\n" << r.err;
  EXPECT_EQ(r.err, "");
  const json actual = json::parse(r.out);
  const json& expected = c.at("expected");
  expect_same(expected, actual, GetParam());
  // Nothing beyond what scikit-learn vouches for, apart from the provenance keys.
  for (const auto& [k, v] : actual.items()) {
    if (k == "assay_version" || k == "source") continue;
    EXPECT_TRUE(expected.contains(k)) << GetParam() << ": assay printed \"" << k << "\" which the expected file lacks";
  }
  EXPECT_EQ(actual.at("source"), args.at(1));
  EXPECT_EQ(actual.at("assay_version"), ASSAY_VERSION);
}

// Lines of `text` after the line `title`, up to the next blank line.
std::vector<std::string> section(const std::string& text, const std::string& title) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside) {
      inside = line == title;
      continue;
    }
    if (line.empty()) break;
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

TEST_P(golden, text_has_the_sections_and_the_same_confusion_matrix) {
  const json c = load_case(GetParam());
  auto args = case_args(c);
  args.resize(args.size() - 2);  // drop "--format json": text is the default
  const cli_result r = run_assay(args);
  ASSERT_EQ(r.exit_code, 0) << show_args(args) << "\n" << r.err;
  EXPECT_EQ(r.err, "");
  const json& e = c.at("expected");
  const std::string first = r.out.substr(0, r.out.find('\n'));
  std::string weight;  // the weights here sum to an integer, printed without decimals
  if (e.at("weighted").get<bool>()) {
    weight = ", total weight " + std::to_string(static_cast<long long>(e.at("total_weight").get<double>()));
  }
  const std::string rows = std::to_string(e.at("n").get<int>()) + " rows";
  EXPECT_EQ(first, "assay report: " + args.at(1) + " (" + rows + weight + ")");

  // One line per headline metric, each "title  value".
  std::size_t headline = 0;
  for (const auto& [k, v] : e.items()) headline += kNotMetrics.count(k) == 0 && !k.ends_with("_undefined") ? 1 : 0;
  const auto metric_lines = section(r.out, "Metrics");
  EXPECT_EQ(metric_lines.size(), headline) << r.out;
  for (const auto& l : metric_lines) EXPECT_TRUE(l.rfind("  ", 0) == 0) << l;

  if (e.at("task") == "regression") {
    EXPECT_EQ(r.out.find("Confusion matrix"), std::string::npos);
    EXPECT_EQ(r.out.find("Detailed accuracy by class"), std::string::npos);
    return;
  }
  const auto& labels = e.at("confusion_matrix").at("labels");
  const auto& matrix = e.at("confusion_matrix").at("matrix");
  const auto cm = section(r.out, "Confusion matrix (rows = actual class, columns = predicted class)");
  ASSERT_EQ(cm.size(), labels.size() + 1) << r.out;  // the header line and one line per actual class
  std::vector<std::string> header = words(cm[0]);
  ASSERT_EQ(header.size(), labels.size());
  for (std::size_t j = 0; j < labels.size(); ++j) EXPECT_EQ(header[j], labels[j].get<std::string>());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const auto w = words(cm[i + 1]);
    ASSERT_EQ(w.size(), labels.size() + 1) << cm[i + 1];
    EXPECT_EQ(w[0], labels[i].get<std::string>());
    for (std::size_t j = 0; j < labels.size(); ++j) {
      EXPECT_EQ(std::stod(w[j + 1]), matrix[i][j].get<double>()) << "row " << labels[i] << ", column " << labels[j];
    }
  }
  // Per-class block: a header, one line per class ending with its name, three averages, a legend of
  // two lines (three when the ROC and PRC areas are undefined: hard predictions, the reason).
  const bool ranked = std::find(args.begin(), args.end(), "--pred") == args.end();
  const auto pc = section(r.out, "Detailed accuracy by class");
  ASSERT_EQ(pc.size(), 1 + labels.size() + 3 + (ranked ? 2 : 3)) << r.out;
  EXPECT_EQ(words(pc[0]).back(), "Class");
  for (std::size_t k = 0; k < labels.size(); ++k) {
    const auto w = words(pc[1 + k]);
    EXPECT_EQ(w.back(), labels[k].get<std::string>());
    // Support (an integer count here) is the column before the class name.
    const json& cls = e.at("per_class").at(labels[k].get<std::string>());
    EXPECT_EQ(std::stod(w[w.size() - 2]), cls.at("support").get<double>());
    // Precision with 3 decimals; ROC and PRC areas (the columns before the support) likewise, or "?".
    EXPECT_NEAR(std::stod(w[2]), cls.at("precision").get<double>(), 0.0005 + 1e-12) << pc[1 + k];
    if (ranked) {
      EXPECT_NEAR(std::stod(w[w.size() - 4]), cls.at("roc_auc").get<double>(), 0.0005 + 1e-12) << pc[1 + k];
      EXPECT_NEAR(std::stod(w[w.size() - 3]), cls.at("average_precision").get<double>(), 0.0005 + 1e-12) << pc[1 + k];
    } else {
      EXPECT_EQ(w[w.size() - 4], "?") << pc[1 + k];
      EXPECT_EQ(w[w.size() - 3], "?") << pc[1 + k];
    }
  }
  // The reason of the undefined areas is the legend's second line (the last says what the areas are).
  if (!ranked) EXPECT_NE(pc[pc.size() - 2].find(e.at("per_class").at(labels[0].get<std::string>()).at("roc_auc_undefined")
                                            .get<std::string>()), std::string::npos) << pc[pc.size() - 2];
  // caret's statistics by class: a header and one line per class; sensitivity, then balanced accuracy.
  const auto caret = section(r.out, "Statistics by class (one against the rest, as R's caret)");
  ASSERT_EQ(caret.size(), 1 + labels.size()) << r.out;
  for (std::size_t k = 0; k < labels.size(); ++k) {
    const auto w = words(caret[1 + k]);
    ASSERT_EQ(w.size(), 10u) << caret[1 + k];
    const json& cls = e.at("per_class").at(labels[k].get<std::string>());
    EXPECT_EQ(w.back(), labels[k].get<std::string>());
    EXPECT_NEAR(std::stod(w[0]), cls.at("sensitivity").get<double>(), 0.0005 + 1e-12) << caret[1 + k];
    EXPECT_NEAR(std::stod(w[8]), cls.at("balanced_accuracy").get<double>(), 0.0005 + 1e-12) << caret[1 + k];
  }
  EXPECT_NE(pc[1 + labels.size()].find("Weighted avg."), std::string::npos);
  EXPECT_NE(pc[2 + labels.size()].find("Macro avg."), std::string::npos);
  EXPECT_NE(pc[3 + labels.size()].find("Micro avg."), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(examples, golden, ::testing::ValuesIn(kCases));

}  // namespace
}  // namespace assay::test
