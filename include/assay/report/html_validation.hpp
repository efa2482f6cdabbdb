// assay: the self-contained HTML pages of the validation commands (`assay cv --html`,
// learning-curve, validation-curve, permutation-test, bias-variance, lesion, compare-learners,
// nested-cv). Each page is an html::document (include/assay/report/html.hpp: one stylesheet, one
// escaping function) with the sections
//   setup    the data and options and the command that made the page (enough to rerun it),
//   summary  the headline numbers, with an interval where one is defined (the method is named),
//   <plot>   the command's figure (learning curve, validation curve, null distribution, scatter),
//   table    one row per split (or per size / value / group / permutation bin),
//   notes    when there are any.
// Section ids and what each page shows: docs/html-report.md.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "assay/report/html.hpp"
#include "assay/validation/bias_variance.hpp"
#include "assay/validation/compare_learners.hpp"
#include "assay/validation/engine.hpp"
#include "assay/validation/learning_curve.hpp"
#include "assay/validation/lesion.hpp"
#include "assay/validation/nested.hpp"
#include "assay/validation/permutation.hpp"
#include "assay/validation/validation_curve.hpp"

namespace assay::html {

/// What the caller knows about the run: the page title and subtitle, the "Data and options" rows
/// and the command line that reproduces the page ("" = none shown).
struct run_setup {
  std::string title, subtitle;
  std::vector<std::pair<std::string, std::string>> rows;
  std::string command;
};

/// Interval for the mean of J per-split scores from resampling whose training sets overlap:
/// stats::corrected_resampled_interval (Nadeau & Bengio 2003) of the finite scores. Empty (no
/// interval) for fewer than 2 finite scores, a non-positive n_train or a negative n_test.
std::optional<interval> corrected_mean_interval(std::span<const double> scores, double n_train, double n_test,
                                                double level = 0.95);

std::string validation_page(const validation::cv_result& r, const run_setup& setup);
std::string validation_page(const validation::learning_curve_result& r, const run_setup& setup);
std::string validation_page(const validation::validation_curve_result& r, const run_setup& setup);
std::string validation_page(const validation::permutation_result& r, const run_setup& setup);
std::string validation_page(const validation::bias_variance_result& r, const run_setup& setup);
std::string validation_page(const validation::lesion_result& r, const run_setup& setup);
std::string validation_page(const validation::learner_comparison& r, const run_setup& setup);
std::string validation_page(const validation::nested_cv_result& r, const run_setup& setup);

}  // namespace assay::html
