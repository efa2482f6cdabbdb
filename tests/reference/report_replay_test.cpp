// End to end through the file layer: assay::make_report on the CSV files of tests/reference/data/
// (written by generate_sklearn.py, every float with Python's repr()) against scikit-learn 1.2.1's
// numbers in sklearn_reports.json. Because the files hold exact decimal representations of the
// doubles sklearn used, any rounding in the CSV reader (pandas-style float parsing, a lossy
// strtod) shows up as a difference beyond the 1e-12 relative tolerance (reference_util.hpp).
//
// Every key of the report's JSON is compared: each headline metric, each confusion-matrix cell,
// each per-class and averaged entry. A key the report prints must have an expected value (or a
// stated reason under "not_compared"), and every expected key must be in the report.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include "assay/io/table.hpp"
#include "assay/report/report.hpp"
#include "reference/reference_util.hpp"

namespace assay::reference {
namespace {

const json& reports() {
  static const json j = load_json(reference_path("sklearn_reports.json"));
  return j;
}

report_request request_of(const json& c) {
  const json& q = c.at("request");
  report_request r;
  r.path = reference_path(c.at("file").get<std::string>());
  r.label = q.at("label");
  if (q.contains("score")) r.score = q.at("score").get<std::string>();
  if (q.contains("pred")) r.pred = q.at("pred").get<std::string>();
  if (q.contains("proba")) r.proba = q.at("proba").get<std::vector<std::string>>();
  if (q.contains("weight")) r.weight = q.at("weight").get<std::string>();
  if (q.contains("pos_label")) r.pos_label = q.at("pos_label").get<std::string>();
  if (q.contains("threshold")) r.threshold = q.at("threshold");
  if (q.contains("beta")) r.beta = q.at("beta").get<double>();
  if (q.contains("top_k")) r.top_k = q.at("top_k");
  if (q.contains("task")) {
    EXPECT_EQ(q.at("task"), "regression");
    r.task = task_kind::regression;
  }
  return r;
}

// Every number-or-null key of `got` (ignoring "<key>_undefined" reasons and `skip`) is in `want`
// or `not_compared`, and every key of `want` is compared.
void compare_block(const json& got, const json& want, const json& not_compared, const std::string& where,
                   const std::set<std::string>& skip = {}) {
  for (const auto& [key, v] : got.items()) {
    if (skip.count(key) || key.ends_with("_undefined")) continue;
    if (!v.is_number() && !v.is_null()) continue;
    EXPECT_TRUE(want.contains(key) || not_compared.contains(key)) << where << ": report key '" << key
                                                                  << "' has no sklearn value";
  }
  for (const auto& [key, v] : want.items()) expect_json(got, key, v, where + "." + key);
}

TEST(ReportReplay, EveryFileEveryKey) {
  EXPECT_EQ(reports().at("versions").at("sklearn"), "1.2.1");
  const json& all = reports().at("reports");
  ASSERT_EQ(all.size(), 8u);
  const std::size_t before = comparisons();
  for (const json& c : all) {
    const std::string name = c.at("name");
    SCOPED_TRACE(name);
    const report r = make_report(request_of(c));
    const json got = json::parse(to_json(r));
    const json& e = c.at("expected");
    const json none = json::object();
    const json& not_compared = c.contains("not_compared") ? c.at("not_compared") : none;
    for (const auto& [key, why] : not_compared.items()) {
      EXPECT_FALSE(why.get<std::string>().empty()) << key;
      EXPECT_TRUE(got.contains(key)) << key;
    }
    EXPECT_EQ(got.at("n"), c.at("n"));

    // Headline metrics: the report's own list (not only the JSON) must be covered.
    for (const auto& m : r.metrics) {
      EXPECT_TRUE(e.at("metrics").contains(m.name) || not_compared.contains(m.name))
          << "metric '" << m.name << "' has no sklearn value";
    }
    std::set<std::string> structural = {"n", "total_weight", "threshold"};
    compare_block(got, e.at("metrics"), not_compared, name, structural);

    if (r.task == task_kind::regression) {
      EXPECT_EQ(e.at("metrics").size() + not_compared.size(), r.metrics.size());
      continue;
    }
    const auto labels = e.at("labels").get<std::vector<std::string>>();
    ASSERT_EQ(got.at("confusion_matrix").at("labels").get<std::vector<std::string>>(), labels);
    const json& m = got.at("confusion_matrix").at("matrix");
    const json& want_m = e.at("confusion_matrix");
    ASSERT_EQ(m.size(), labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i) {
      ASSERT_EQ(m.at(i).size(), labels.size());
      for (std::size_t j = 0; j < labels.size(); ++j) {
        ++comparisons();
        const double g = m.at(i).at(j), w = want_m.at(i).at(j);
        EXPECT_TRUE(close(g, w)) << "confusion_matrix[" << labels[i] << "][" << labels[j] << "]: report " << g
                                 << " vs sklearn " << w;
      }
    }
    if (c.at("request").contains("pos_label")) EXPECT_EQ(got.at("positive_label"), c.at("request").at("pos_label"));

    const json& pc = got.at("per_class");
    EXPECT_EQ(pc.size(), labels.size());
    for (const auto& label : labels) {
      ASSERT_TRUE(pc.contains(label)) << label;
      compare_block(pc.at(label), e.at("per_class").at(label), none, "per_class." + label);
    }
    for (const char* avg : {"micro_avg", "macro_avg", "weighted_avg"}) {
      compare_block(got.at(avg), e.at(avg), none, avg);
    }
  }
  EXPECT_GT(comparisons() - before, 300u);
  log_comparisons(::testing::UnitTest::GetInstance()->current_test_info()->name(), comparisons() - before);
}

// The reader gives Python's doubles bit for bit: every number of every data file against its
// float.hex() (hexadecimal floats parse exactly, so std::strtod is a safe judge here).
TEST(ReportReplay, CsvNumbersAreExact) {
  std::size_t checked = 0;
  for (const auto& [file, columns] : reports().at("exact_columns").items()) {
    SCOPED_TRACE(file);
    std::vector<io::column_spec> specs;
    for (const auto& [name, hex] : columns.items()) specs.push_back({name, io::column_type::number, "test"});
    const io::table t = io::read_table(reference_path(file), specs);
    std::size_t c = 0;
    for (const auto& [name, hex] : columns.items()) {
      ASSERT_EQ(t.columns[c].numbers.size(), hex.size()) << name;
      for (std::size_t i = 0; i < hex.size(); ++i) {
        const std::string h = hex.at(i);
        const double want = std::strtod(h.c_str(), nullptr), got = t.columns[c].numbers[i];
        EXPECT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(want))
            << name << " row " << i + 1 << ": read " << got << ", Python wrote " << h;
        ++checked;
      }
      ++c;
    }
  }
  EXPECT_EQ(checked, 120u + 180u + 400u + 150u + 240u + 270u);
}

}  // namespace
}  // namespace assay::reference
