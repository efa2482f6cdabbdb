// assay: the sliced report: the report of every slice of a prediction table (the rows of one
// country, one device, one age band; or of one pair of two such keys), the overall report, and for
// each headline metric a table of the slices with the value, its interval and a test of whether the
// slice differs from the rest (stats/slices.hpp), adjusted over the slices for multiple testing
// (stats/multiple.hpp, Holm by default). What `assay report --by COL` computes.
//
// Cost: the rows are grouped by slice with one stable counting sort of the row indices (one pass
// over the table), then each slice's rows are gathered into a table of its own and evaluated; the
// DeLong tests of every slice against the rest share one sort of the scores. Nothing is one pass
// over the whole table per slice.
#pragma once

#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "assay/report/report.hpp"
#include "assay/stats/multiple.hpp"

namespace assay {

/// The keys of one slice column: a code per row into `levels` (as io::column of type label).
struct slice_column {
  std::string name;
  std::vector<std::int32_t> codes;
  std::vector<std::string> levels;
};

/// How evaluate_slices works besides the report's own options.
struct slice_options {
  stats::p_adjust_method p_adjust = stats::p_adjust_method::holm;  ///< over the slices, per metric
  /// A slice with fewer rows than this gets its report and values but no test (undefined, with the
  /// reason): the tests are large-sample approximations.
  std::size_t min_rows = 10;
};

/// One slice: its key (one value per slice column), its rows and its report.
struct slice {
  std::vector<std::string> key;
  std::size_t rows = 0;
  std::optional<report> r;  ///< absent when the slice's rows cannot be evaluated (the reason says why)
  std::string reason;
};

/// One slice in a headline metric's table.
struct slice_metric_row {
  std::size_t slice = 0;                  ///< index into sliced_report::slices
  value v = value::undefined("no report");  ///< the slice report's value (bit-identical)
  std::optional<confidence_interval> ci;  ///< the slice report's interval, with options.ci_level
  double successes = 0, trials = 0;       ///< rates: the proportion's counts (0 for the AUC)
  /// The test of this slice against the rest: z (two-proportion) or t (DeLong, unpaired), its
  /// degrees of freedom (DeLong only; NaN otherwise), the p-value and the adjusted p-value.
  value statistic = value::undefined("no test"), p_value = value::undefined("no test"),
        p_adjusted = value::undefined("no test");
  double df = std::numeric_limits<double>::quiet_NaN();
};

/// A headline metric across the slices.
struct slice_metric {
  std::string name, title;
  value overall;
  std::string test;  ///< "two_proportion_z" or "delong_unpaired"
  std::vector<slice_metric_row> rows;  ///< one per slice, in slice order
  /// Rates: Pearson's chi-square test of homogeneity over all slices (no continuity correction).
  std::optional<value> chi2, chi2_p;
  double chi2_df = 0;
};

struct sliced_report {
  std::vector<std::string> by;      ///< the slice columns' names
  report overall;
  std::vector<slice> slices;        ///< every observed key (pair of keys), sorted by key
  std::vector<slice_metric> metrics;
  stats::p_adjust_method p_adjust = stats::p_adjust_method::holm;
  std::size_t min_rows = 10;
  std::vector<std::string> notes;   ///< caveats about the slices as a whole
};

/// The sliced report of `table` by one or two slice columns of table.rows entries. Slices are every
/// value of the column (with two, every pair that occurs), ordered by their keys (numerically when
/// every value of a column is a number, else by bytes). Every slice's report is
/// evaluate(its rows, options) on a table with the whole table's classes: the same numbers, bit for
/// bit, as evaluating a table holding only those rows. The headline metrics are accuracy, error
/// rate, precision, recall (TPR), specificity, FPR and ROC AUC (binary; AUC with a score), accuracy
/// and error rate (multiclass); regression has slice reports but no headline tables. Tests need
/// unweighted rows. Throws a usage error naming evaluate_slices and the argument for 0 or more
/// than 2 columns, a column of the wrong length, or two columns of the same name.
sliced_report evaluate_slices(const prediction_table& table, std::span<const slice_column> by,
                              const evaluate_options& options = {}, const slice_options& slicing = {});

/// Reads the file with its slice columns (as labels, through the same reader) and evaluates it.
/// `by` names the slice columns (header names or 1-based indices).
sliced_report make_sliced_report(const report_request& request, const std::vector<std::string>& by,
                                 const slice_options& slicing = {});

/// The text: the overall report, a table per headline metric, then every slice's report.
std::string to_text(const sliced_report& r);
/// The JSON; the schema is in docs/report-json.md ("Sliced report").
std::string to_json(const sliced_report& r);

}  // namespace assay
