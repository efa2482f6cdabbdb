// assay: the comparison of two scoring models on the same cases, as printed by `assay compare`:
// each model's AUC with its DeLong interval, DeLong's paired test, and McNemar's exact test of the
// hard predictions at a threshold, with a plain-language verdict at a chosen alpha.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "assay/stats/delong.hpp"
#include "assay/stats/tests.hpp"

namespace assay::stats {

struct compare_options {
  double threshold = 0.5;  ///< predict positive when score >= threshold (for McNemar)
  double alpha = 0.05;     ///< significance level of the verdicts; intervals at level 1 - alpha
};

struct model_summary {
  std::string name;
  auc_interval auc;  ///< DeLong interval at level 1 - alpha
  double accuracy = 0;  ///< of score >= threshold
};

struct comparison {
  std::string source;  ///< where the data came from (for the report)
  std::size_t n = 0, n_pos = 0, n_neg = 0;
  compare_options options;
  model_summary a, b;
  delong_test_result delong;  ///< paired, two-sided, A - B
  discordant_counts counts;   ///< at the threshold
  test_result mcnemar;        ///< exact binomial McNemar
  std::string verdict;        ///< one or two plain sentences
};

/// Runs the comparison. y_true is 0/1 (1 = positive); the scores must be finite, of equal length,
/// with at least 2 positives and 2 negatives. Throws assay::error naming the argument otherwise.
comparison compare_models(std::span<const std::int32_t> y_true, std::span<const double> score_a,
                          std::span<const double> score_b, std::string name_a, std::string name_b,
                          const compare_options& opts = {});

/// Text report (for people) and JSON (each test under its own key with named fields:
/// "delong": {"z", "p_value", "diff_ci"}, "mcnemar": {"method", "statistic", "p_value", ...}).
std::string to_text(const comparison& c);
std::string to_json(const comparison& c);

}  // namespace assay::stats
