// assay: the self-contained HTML report (one file, inline CSS and SVG, no script, no network).
//
// Two layers:
//  - assay::html: a small document builder. Every function that takes text escapes it; the only
//    raw markup it accepts is the SVG of a figure, which must come from assay's own plot writers.
//  - assay::to_html(report, extras): the page of `assay report --html FILE`. Later commands add
//    their own sections and figures (curves, calibration, learning curves) through html_extras or
//    by assembling an html::document themselves.
// What the page contains and how it is tested: docs/html-report.md.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "assay/metrics/confusion.hpp"
#include "assay/report/report.hpp"
#include "assay/value.hpp"

namespace assay::html {

/// Text made safe for HTML element content and quoted attribute values (also valid in SVG/XML):
/// & < > " ' become entities; control characters other than tab, newline and carriage return
/// become U+FFFD, so no input can open a tag, end an attribute or start a script.
std::string escape(std::string_view text);

/// A number as the report prints it: integers without a decimal point, others with 6 significant
/// digits (the same as the text report).
std::string number(double x);

/// A confidence interval of a headline number: [lo, hi] and the name of the method that made it
/// (e.g. "Wilson", "BCa bootstrap, 2000 resamples").
struct interval {
  double lo = 0, hi = 0;
  std::string method;
};

/// One row of the headline-numbers table.
struct headline {
  std::string title;           ///< shown to the reader
  value v;                     ///< undefined values show their reason
  std::optional<interval> ci;  ///< shown when present
};

/// A plot with a title and a caption. `svg` is a complete <svg> element written by assay code
/// (trusted markup, inserted as is); title and caption are text and are escaped.
struct figure {
  std::string id;  ///< anchor (letters, digits, '-' and '_'; anything else is replaced by '-')
  std::string title;
  std::string caption;
  std::string svg;
};

/// Key/value table of the data and options used ("enough to reproduce").
std::string setup_table(const std::vector<std::pair<std::string, std::string>>& rows);

/// A shell word: `text` unchanged when the shell would not split or expand it, else single-quoted
/// (a ' inside becomes '\'').
std::string shell_quote(const std::string& text);

/// "To reproduce:" and the command in a code block (escaped).
std::string command_block(std::string_view command);

/// Headline numbers: metric, value, and (only when some row has one) a confidence interval column
/// "[lo, hi]" and a method column.
std::string headline_table(const std::vector<headline>& rows);

/// Limits for graceful degradation on many classes.
struct heat_map_limits {
  std::size_t max_classes = 40;  ///< above this the matrix is replaced by the most confused pairs
  std::size_t top_pairs = 30;    ///< how many pairs that table lists
};

/// The confusion matrix as an accessible heat map: a <table> (rows = actual, columns = predicted)
/// whose cells show the count and the row percentage (count / support of the actual class), shaded
/// by that row percentage, correct cells and errors in two colours. Above `max_classes` classes it
/// is a table of the `top_pairs` largest off-diagonal cells instead (ties: lower actual, then lower
/// predicted index first).
std::string confusion_heat_map(const std::vector<std::string>& labels, const confusion_matrix& cm,
                               const heat_map_limits& limits = {});

/// The off-diagonal cells with the largest (weighted) counts, largest first, zero cells left out.
struct confused_pair {
  std::size_t actual = 0, predicted = 0;
  double count = 0;
};
std::vector<confused_pair> most_confused_pairs(const confusion_matrix& cm, std::size_t top);

/// WEKA-style per-class table (TP rate, FP rate, precision, recall, F-measure, MCC, ROC area, PRC
/// area, support) with weighted, macro and micro averages in the footer, then the table of R caret's
/// statistics by class (report::by_class). At most `max_rows` classes are listed (the largest by
/// support; a note says how many were left out).
std::string per_class_table(const report& r, std::size_t max_rows = 1000);

/// A <figure> holding the SVG, its title and caption.
std::string figure_block(const figure& f);

/// An HTML page: a header (title and subtitle), a table of contents and sections in order.
class document {
 public:
  explicit document(std::string title, std::string subtitle = {});
  /// Adds a section. `heading` is text (escaped); `body` is markup built by the functions above.
  void add_section(std::string_view id, std::string_view heading, std::string body);
  /// A paragraph of text (escaped), for use in section bodies.
  static std::string paragraph(std::string_view text, std::string_view css_class = {});
  /// The whole page: <!doctype html> to </html>, with inline CSS (light, dark and print) and a
  /// Content-Security-Policy that forbids scripts and every network request.
  [[nodiscard]] std::string render() const;

 private:
  struct section {
    std::string id, heading, body;
  };
  std::string title_, subtitle_;
  std::vector<section> sections_;
};

}  // namespace assay::html

namespace assay {

/// What the caller adds to the report page beyond the report itself.
struct html_extras {
  /// The request that made the report: the page then shows an equivalent `assay report` command.
  std::optional<report_request> request;
  /// More rows for the "Data and options" table (e.g. seed, resamples).
  std::vector<std::pair<std::string, std::string>> setup;
  /// Confidence intervals by metric name (metric_result::name), shown next to the value.
  std::map<std::string, html::interval> intervals;
  /// Figures (ROC, PR, calibration, ...) shown after the built-in ones, in order.
  std::vector<html::figure> figures;
};

/// The self-contained HTML page of a report: data and options, headline numbers (with intervals
/// when given), confusion-matrix heat map, per-class table, figures and notes. Its size does not
/// depend on the number of rows (no per-row data is written).
std::string to_html(const report& r, const html_extras& extras = {});

/// A shell command that reproduces the report: `assay report FILE --label ...` with every option
/// that differs from its default, each argument single-quoted when the shell would change it.
std::string command_line(const report_request& q);

}  // namespace assay
