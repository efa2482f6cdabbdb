// Evaluate predictions held in memory with the assay C++ API: the full report of a binary classifier
// from two std::vectors (true labels, scores), with 95% intervals, rendered as text and as JSON.
//
//   evaluate_memory
//
// Exit status 0 on success, 1 on bad input (the message names the function, the parameter and the value).
#include <assay/data/predictions.hpp>
#include <assay/error.hpp>
#include <assay/report/report.hpp>

#include <cstdio>
#include <exception>
#include <limits>
#include <vector>

int main() {
  // Twelve cases: the true class (1 = positive) and the model's score of the positive class.
  const std::vector<double> y_true{1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1};
  const std::vector<double> y_score{0.92, 0.40, 0.75, 0.35, 0.10, 0.55, 0.81, 0.22, 0.64, 0.48, 0.05, 0.58};
  try {
    // The table of predictions: classes sorted ("0", "1"), the positive class 1 (the default for 0/1).
    const assay::prediction_table table = assay::predictions_from_scores(y_true, y_score);

    // Every metric at threshold 0.5, the per-class table and intervals (Wilson for proportions,
    // DeLong for ROC AUC, a seeded bootstrap for the rest).
    assay::evaluate_options options;
    options.threshold = 0.5;
    options.ci_level = 0.95;
    options.replicates = 500;
    options.seed = 42;
    const assay::report report = assay::evaluate(table, options);

    std::fputs(assay::to_text(report).c_str(), stdout);
    std::fputs(assay::to_json(report).c_str(), stdout);

    // Bad input is an assay::error naming the function, the parameter, the index and the value.
    try {
      assay::predictions_from_scores(y_true, std::vector<double>(y_true.size(), std::numeric_limits<double>::quiet_NaN()));
    } catch (const assay::error& e) {
      std::printf("rejected: %s\n", e.what());
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "evaluate_memory: %s\n", e.what());
    return 1;
  }
}
