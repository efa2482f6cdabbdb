// assay: one classifier (or two) evaluated on two independent samples: the question "is the error
// rate on sample A different from the error rate on sample B?" (two hypotheses tested on their own
// test sets, or one model on two populations), as `assay compare A.csv B.csv` and
// `assay compare FILE --sample COL` print it. Cases are not paired, so the paired tests of
// compare_models.hpp (McNemar, paired DeLong) do not apply; instead:
// - the error rates e_A = wrong_A / n_A and e_B with Wilson intervals, and their difference
//   d = e_A - e_B with the Wald interval d -+ z sqrt(e_A (1 - e_A) / n_A + e_B (1 - e_B) / n_B)
//   (Mitchell 1997, section 5.5) and Newcombe's hybrid score interval, the pooled two-proportion z
//   test and Fisher's exact test (two_proportions.hpp);
// - for scores, each AUC with its DeLong interval and the unpaired DeLong test of AUC_A - AUC_B
//   (pROC's roc.test(paired = FALSE, method = "delong"): t = (AUC_A - AUC_B) / sqrt(V_A + V_B) with
//   Welch-Satterthwaite df; delong.hpp).
// A case is wrong when its prediction is not its class (scores: score >= threshold predicts the
// positive class; multiclass: a predicted class the label does not have counts as wrong, while a
// binary prediction must be one of the label's two classes). Both samples must have the same classes (the same label set) and one model
// column each. Choices: docs/definitions/stats.md ("Two independent samples").
#pragma once

#include <optional>
#include <string>

#include "assay/stats/compare_models.hpp"
#include "assay/stats/two_proportions.hpp"

namespace assay {
struct prediction_table;  // assay/data/predictions.hpp
}  // namespace assay

namespace assay::io {
struct table;  // assay/io/table.hpp
}  // namespace assay::io

namespace assay::stats {

/// One sample's evaluation.
struct sample_summary {
  std::string name;    ///< the file, or the sample column's value
  std::string model;   ///< the score or prediction column
  std::size_t n = 0, n_pos = 0, n_neg = 0;  ///< n_pos, n_neg: binary only
  std::int64_t errors = 0;
  proportion_interval error_rate;  ///< Wilson interval of errors / n at level 1 - alpha
  bool has_auc = false;            ///< scores
  auc_interval auc;                ///< DeLong interval (undefined with fewer than 2 cases of a class)
};

struct sample_comparison {
  bool scores = true;
  bool multiclass = false;  ///< hard predictions of a label with more than two classes
  std::string label;        ///< the label column
  std::string positive;     ///< binary: the positive class
  std::vector<std::string> classes;
  std::string sample_column;  ///< --sample: the column that splits the rows (empty for two files)
  compare_options options;    ///< threshold and alpha are used
  sample_summary a, b;
  two_proportions_result error_difference;  ///< e_A - e_B at level 1 - alpha, two-sided tests
  bool has_delong = false;                  ///< scores
  delong_test_result delong;                ///< unpaired, two-sided, AUC_A - AUC_B
  std::string delong_undefined;             ///< why the DeLong test is missing (empty when it is there)
  std::string verdict;                      ///< plain sentences
};

/// Compares the model of table `a` on its rows with the model of table `b` on its rows. Each table
/// has exactly one score column or one prediction column (both tables of one kind), is a binary or
/// (predictions only) multiclass classification table built with class_set::truth, and both have the
/// same classes (and the same positive class). Throws assay::error (usage for the columns, data for
/// different class sets) naming both sources.
sample_comparison compare_samples(const prediction_table& a, const prediction_table& b,
                                  const compare_options& opts = {});

/// The same on one table read with an extra label column `sample` saying which sample each row
/// belongs to: t.columns = {label, the model column (number for scores, label for predictions),
/// sample}. The sample column must have exactly two values; the samples are taken in sorted order of
/// them (A = the first). Both samples keep the label's whole class list. Throws assay::error (data)
/// naming the file and the column for one value or more than two.
sample_comparison compare_samples_table(io::table&& t, bool scores, const std::optional<std::string>& pos_label,
                                        const compare_options& opts = {});

/// Text report and JSON (docs/stats.md, "assay compare on two samples").
std::string to_text(const sample_comparison& c);
std::string to_json(const sample_comparison& c);

}  // namespace assay::stats
