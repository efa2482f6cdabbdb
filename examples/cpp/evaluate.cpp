// Evaluate two models on one prediction file with the assay C++ API: the report of one model with
// 95% confidence intervals, then DeLong's paired test comparing the ROC AUCs of both.
//
//   evaluate FILE LABEL SCORE_A SCORE_B
//   evaluate examples/data/asah.csv label s100b ndka
//
// LABEL holds 0/1 (1 = positive); SCORE_A and SCORE_B are the two models' scores of the positive
// class. Exit status 0 on success, 1 on bad input (the message says what was wrong).
#include <assay/io/table.hpp>
#include <assay/report/report.hpp>
#include <assay/stats/delong.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

// A value is a number or "undefined (why)": never print a made-up 0.
std::string show(const assay::value& x) {
  if (!x.defined()) return "undefined (" + x.reason + ")";
  char buf[32];
  std::snprintf(buf, sizeof buf, std::floor(x.v) == x.v ? "%.0f" : "%.4f", x.v);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s FILE LABEL SCORE_A SCORE_B\n", argv[0]);
    return 2;
  }
  const std::string file = argv[1], label = argv[2], score_a = argv[3], score_b = argv[4];
  try {
    // 1. The report of model A: metrics at threshold 0.5 with 95% intervals (Wilson for proportions,
    //    DeLong for ROC AUC, a seeded bootstrap for the rest).
    assay::report_request request;
    request.path = file;
    request.label = label;
    request.score = score_a;
    request.pos_label.emplace("1");
    request.ci_level = 0.95;
    request.seed = 42;
    const assay::report r = assay::make_report(request);
    std::printf("%s: %zu rows, model %s\n", r.source.c_str(), r.rows, score_a.c_str());
    for (const assay::metric_result& m : r.metrics) {
      std::printf("  %-27s %s", m.title.c_str(), show(m.v).c_str());
      if (m.ci) std::printf("  [%s, %s] %s", show(m.ci->lower).c_str(), show(m.ci->upper).c_str(), m.ci->method.c_str());
      std::printf("\n");
    }

    // 2. Both models' scores as typed columns, then DeLong's test for two correlated ROC curves.
    const assay::io::table t = assay::io::read_table(file, {{label, assay::io::column_type::number, "LABEL"},
                                                            {score_a, assay::io::column_type::number, "SCORE_A"},
                                                            {score_b, assay::io::column_type::number, "SCORE_B"}});
    std::vector<std::int32_t> y(t.rows);
    for (std::size_t i = 0; i < t.rows; ++i) {
      const double v = t.columns[0].numbers[i];
      if (v != 0 && v != 1) {
        std::fprintf(stderr, "evaluate: %s: row %zu: column '%s': expected 0 or 1, got %g\n", file.c_str(), i + 1,
                     label.c_str(), v);
        return 1;
      }
      y[i] = static_cast<std::int32_t>(v);
    }
    const assay::stats::delong_test_result d =
        assay::stats::delong_paired_test(y, t.columns[1].numbers, t.columns[2].numbers);
    std::printf("DeLong paired test, %s vs %s:\n", score_a.c_str(), score_b.c_str());
    std::printf("  AUC %.4f vs %.4f, difference %.4f [%s, %s], z = %.4f, p = %.4g\n", d.auc_a, d.auc_b, d.difference,
                show(d.diff_lower).c_str(), show(d.diff_upper).c_str(), d.test.statistic, d.test.p_value);
    return 0;
  } catch (const std::exception& e) {  // assay::error names the file, line, column and value
    std::fprintf(stderr, "evaluate: %s\n", e.what());
    return 1;
  }
}
