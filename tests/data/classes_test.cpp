// The class rules (assay/data/classes.hpp), table-driven: label sets, with and without a positive
// class, against the classes and positive class the rules give, written by hand from the rules.
#include "assay/data/classes.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "assay/error.hpp"

namespace assay {
namespace {

struct binary_case {
  std::vector<std::string> truth;
  std::optional<std::string> pos_label;
  std::vector<std::string> classes;  // empty: refused
  std::string positive;
};

class_plan decide_binary(const binary_case& c) {
  label_spellings seen;
  seen.truth = c.truth;
  seen.score_columns = 1;
  return decide_classes(seen, {c.pos_label, task_kind::automatic, class_set::truth_and_predictions},
                        {false, "t", "y_true", {}});
}

TEST(DecideClasses, BinaryScoresTable) {
  const std::vector<binary_case> cases = {
      {{"0", "1"}, {}, {"0", "1"}, "1"},
      {{"1", "0"}, {}, {"0", "1"}, "1"},
      {{"-1", "1"}, {}, {"-1", "1"}, "1"},
      {{"2", "5"}, {}, {"2", "5"}, "5"},
      {{"10", "2"}, {}, {"2", "10"}, "10"},  // numerically, not by bytes
      {{"2", "5"}, "2", {"2", "5"}, "2"},
      {{"0.0", "1"}, {}, {"0", "1"}, "1"},
      {{"1.0", "0"}, "1", {"0", "1"}, "1"},
      {{"True", "False"}, {}, {"0", "1"}, "1"},
      {{"TRUE", "FALSE"}, "FALSE", {"0", "1"}, "0"},
      {{"true", "0"}, {}, {"0", "1"}, "1"},
      {{"a", "b"}, {}, {}, ""},
      {{"a", "b"}, "a", {"a", "b"}, "a"},
      {{"yes", "no"}, {}, {}, ""},
      {{"yes", "no"}, "yes", {"no", "yes"}, "yes"},
      {{"True", "maybe"}, {}, {}, ""},  // a boolean among text is text
      {{"1"}, {}, {"0", "1"}, "1"},
      {{"0"}, {}, {"0", "1"}, "1"},
      {{"-1"}, {}, {"-1", "1"}, "1"},
      {{"a"}, {}, {}, ""},
      {{"a"}, "a", {"a", "not a"}, "a"},
      {{"0", "1", "2"}, {}, {}, ""},
      {{"0", "1", "2"}, "1", {}, ""},
  };
  for (const auto& c : cases) {
    std::string what = "{";
    for (const auto& t : c.truth) what += t + ",";
    what += "} pos " + c.pos_label.value_or("(none)");
    if (c.classes.empty()) {
      EXPECT_THROW(decide_binary(c), error) << what;
      continue;
    }
    const class_plan p = decide_binary(c);
    EXPECT_EQ(p.classes, c.classes) << what;
    ASSERT_TRUE(p.positive.has_value()) << what;
    EXPECT_EQ(p.classes[*p.positive], c.positive) << what;
    EXPECT_EQ(p.task, task_kind::binary) << what;
    for (std::size_t i = 0; i < c.truth.size(); ++i) {  // every spelling has its class
      ASSERT_GE(p.truth[i], 0) << what;
      ASSERT_LT(static_cast<std::size_t>(p.truth[i]), p.classes.size()) << what;
    }
  }
}

TEST(DecideClasses, SpellingsOfOneNumberAreOneClass) {
  label_spellings seen;
  seen.truth = {"1", "1.0", "1e0", "True", "0", "-0", "False"};
  const class_plan p = decide_classes(seen, {}, {});
  EXPECT_EQ(p.classes, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(p.truth, (std::vector<std::int32_t>{1, 1, 1, 1, 0, 0, 0}));
}

TEST(DecideClasses, MessagesNameTheFileOrTheFunction) {
  label_spellings seen;
  seen.truth = {"no", "yes"};
  seen.score_columns = 1;
  try {
    decide_classes(seen, {}, {true, "f.csv", "y", {}});
    FAIL();
  } catch (const error& e) {
    EXPECT_EQ(e.render([](std::string_view p) { return "--" + std::string(p); }),
              "f.csv: cannot tell which class is positive among \"no\", \"yes\": name it with --pos_label");
  }
  try {
    decide_classes(seen, {}, {false, "roc", "y_true", {}});
    FAIL();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "roc: cannot tell which class is positive among \"no\", \"yes\": name it with pos_label");
  }
  try {
    decide_classes(seen, {"maybe", task_kind::automatic, class_set::truth_and_predictions}, {false, "roc"});
    FAIL();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "roc: pos_label: class \"maybe\" not found in y_true (classes: \"no\", \"yes\")");
  }
}

TEST(DecideClasses, PredictionsAndProbabilityColumns) {
  label_spellings seen;
  seen.truth = {"b", "a"};
  seen.predicted = {{"a", "c"}};
  const class_plan u = decide_classes(seen, {std::nullopt, task_kind::multiclass, class_set::truth_and_predictions}, {});
  EXPECT_EQ(u.classes, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(u.predicted[0], (std::vector<std::int32_t>{0, 2}));
  const class_plan t = decide_classes(seen, {"a", task_kind::binary, class_set::truth}, {});
  EXPECT_EQ(t.classes, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(t.unknown_classes, (std::vector<std::string>{"c"}));
  EXPECT_EQ(t.predicted[0], (std::vector<std::int32_t>{0, 2}));  // "c" is unknown: index 2 + 0

  label_spellings p;
  p.truth = {"2", "0", "1"};
  p.proba_columns = {"2.0", "1", "0"};  // named after the classes (numbers by value): matched by name
  const class_plan by_name = decide_classes(p, {}, {});
  EXPECT_EQ(by_name.classes, (std::vector<std::string>{"0", "1", "2"}));
  EXPECT_EQ(by_name.proba_column, (std::vector<std::size_t>{2, 1, 0}));
  p.proba_columns = {"x", "y", "z"};  // not named after classes: sorted class order
  EXPECT_EQ(decide_classes(p, {}, {}).proba_column, (std::vector<std::size_t>{0, 1, 2}));
  p.proba_columns = {"x", "y"};
  EXPECT_THROW(decide_classes(p, {}, {}), error);
}

}  // namespace
}  // namespace assay
