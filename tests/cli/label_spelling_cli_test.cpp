// One set of class rules for every command (data/predictions.hpp): the same labels, however they are
// spelled (0.0/1.0 with --pos-label 1, -1/1 with --pos-label 1.0, yes/no), give two classes and the
// same positive class in `assay report`, `assay curve roc` and `assay compare`, and the same ROC AUC.
// Regression test of the drifted copies: `curve roc` read 0.0/1.0 with --pos-label 1 as the three
// classes "0.0", "1", "1.0".
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;

struct spelling {
  const char* name;
  const char* negative;
  const char* positive;
  const char* pos_label;        // as given on the command line
  const char* want_negative;    // the class names every command prints
  const char* want_positive;
};

// Two models' scores of ten cases (positive cases first); AUC(a) = 20/25 = 0.8 by hand: of the 25
// (positive, negative) pairs, a ranks the positive higher in 20 (no ties).
const char* const kScoresA[] = {"0.9", "0.8", "0.7", "0.35", "0.2", "0.6", "0.4", "0.3", "0.1", "0.05"};
const char* const kScoresB[] = {"0.5", "0.9", "0.3", "0.6", "0.1", "0.2", "0.8", "0.4", "0.7", "0.15"};

std::string csv(const spelling& s) {
  std::string text = "y,a,b\n";
  for (int i = 0; i < 10; ++i) {
    text += std::string(i < 5 ? s.positive : s.negative) + "," + kScoresA[i] + "," + kScoresB[i] + "\n";
  }
  return text;
}

json run_json(const std::vector<std::string>& args) {
  const cli_result r = run_assay(args);
  EXPECT_EQ(r.exit_code, 0) << show_args(args) << "\n" << r.err;
  EXPECT_EQ(r.err, "") << show_args(args);
  return r.exit_code == 0 ? json::parse(r.out) : json();
}

class label_spelling : public ::testing::TestWithParam<spelling> {
 protected:
  temp_dir dir;
};

TEST_P(label_spelling, report_curve_and_compare_agree_on_the_classes) {
  const spelling& s = GetParam();
  const std::string f = dir.file("f.csv", csv(s));
  const std::vector<std::string> classes{s.want_negative, s.want_positive};

  const json rep = run_json({"report", f, "--label", "y", "--score", "a", "--pos-label", s.pos_label, "-f", "json"});
  ASSERT_FALSE(rep.is_null());
  EXPECT_EQ(rep["confusion_matrix"]["labels"], json(classes));
  EXPECT_EQ(rep["positive_label"], s.want_positive);
  EXPECT_DOUBLE_EQ(rep["roc_auc"].get<double>(), 0.8);

  const json roc = run_json({"curve", "roc", f, "--label", "y", "--score", "a", "--pos-label", s.pos_label,
                             "--format", "json"});
  ASSERT_FALSE(roc.is_null());
  EXPECT_EQ(roc["classes"], json(classes));
  EXPECT_EQ(roc["positive"], s.want_positive);
  EXPECT_DOUBLE_EQ(roc["models"][0]["roc_auc"].get<double>(), 0.8);

  const json cmp = run_json({"compare", f, "--label", "y", "--score", "a", "--score", "b", "--pos-label", s.pos_label,
                             "--format", "json"});
  ASSERT_FALSE(cmp.is_null());
  EXPECT_EQ(cmp["positive_class"], s.want_positive);
  EXPECT_EQ(cmp["n_positive"], 5);
  EXPECT_DOUBLE_EQ(cmp["models"][0]["auc"].get<double>(), 0.8);
}

// Without --pos-label the numeric spellings take the default positive class 1 in every command, and
// text labels are refused by every command (exit 2, usage), none of them guessing a positive class.
TEST_P(label_spelling, default_positive_class_is_the_same_everywhere) {
  const spelling& s = GetParam();
  const std::string f = dir.file("f.csv", csv(s));
  if (std::string(s.name) == "yes_no") {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"report", f, "--label", "y", "--score", "a"},
             {"curve", "roc", f, "--label", "y", "--score", "a"},
             {"compare", f, "--label", "y", "--score", "a", "--score", "b"}}) {
      const cli_result r = run_assay(args);
      EXPECT_EQ(r.exit_code, 2) << show_args(args) << "\n" << r.err;
      EXPECT_NE(r.err.find("--pos-label"), std::string::npos) << show_args(args) << "\n" << r.err;
    }
    return;
  }
  const json rep = run_json({"report", f, "--label", "y", "--score", "a", "-f", "json"});
  const json roc = run_json({"curve", "roc", f, "--label", "y", "--score", "a", "--format", "json"});
  const json cmp = run_json({"compare", f, "--label", "y", "--score", "a", "--score", "b", "--format", "json"});
  EXPECT_EQ(rep["positive_label"], s.want_positive);
  EXPECT_EQ(roc["positive"], s.want_positive);
  EXPECT_EQ(cmp["positive_class"], s.want_positive);
}

INSTANTIATE_TEST_SUITE_P(spellings, label_spelling,
                         ::testing::Values(spelling{"zero_one_decimals", "0.0", "1.0", "1", "0", "1"},
                                           spelling{"minus_one_one", "-1", "1", "1.0", "-1", "1"},
                                           spelling{"yes_no", "no", "yes", "yes", "no", "yes"}),
                         [](const auto& info) { return std::string(info.param.name); });

// Predicted classes spelled differently from the truth (1.0 predicts 1) are one class in report and
// compare alike.
TEST(label_spelling_pred, predicted_classes_unify_with_the_truth) {
  temp_dir dir;
  const std::string f = dir.file("p.csv", "y,p,q\n1,1.0,1\n0,0.0,1.0\n1,1.0,0\n0,1.0,0.0\n1,0.0,1\n0,0.0,0\n");
  const json rep = run_json({"report", f, "--label", "y", "--pred", "p", "-f", "json"});
  EXPECT_EQ(rep["confusion_matrix"]["labels"], json(std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(rep["confusion_matrix"]["matrix"], json::parse("[[2, 1], [1, 2]]"));
  const json cmp = run_json({"compare", f, "--label", "y", "--pred", "p", "--pred", "q", "--format", "json"});
  EXPECT_EQ(cmp["positive_class"], "1");
  EXPECT_EQ(cmp["models"][0]["correct"], 4);
  EXPECT_EQ(cmp["models"][1]["correct"], 4);
}

}  // namespace
}  // namespace assay::test
