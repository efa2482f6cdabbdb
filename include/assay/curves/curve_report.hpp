// assay: what `assay curve` computes: reads a prediction file, builds one kind of curve for every
// score column (or every class of a probability matrix) and renders it as CSV, JSON and an SVG chart.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assay/curves/calibration.hpp"
#include "assay/curves/pr.hpp"
#include "assay/curves/threshold.hpp"
#include "assay/data/predictions.hpp"
#include "assay/io/csv.hpp"
#include "assay/plot/svg.hpp"

namespace assay::curves {

enum class curve_kind { roc, pr, threshold, rejection, cost, calibration };

/// Parses "roc", "pr", "threshold", "rejection", "cost", "calibration" (kind usage otherwise).
curve_kind parse_curve_kind(const std::string& name);

/// What to draw and how (everything but where the predictions come from).
/// The constrained operating points (operating_constraints: max_fpr, min_tpr, min_precision,
/// min_recall and the umbrella's confidence) are the threshold curve's.
struct curve_options : operating_constraints {
  curve_kind kind = curve_kind::roc;
  bool drop_intermediate = false;       ///< roc: drop collinear points as scikit-learn does
  std::vector<double> partial_fpr;      ///< roc: {lo, hi} adds the partial AUC over this FPR range
  std::vector<double> partial_tpr;      ///< roc: {lo, hi} adds the partial AUC over this TPR range
  double beta = 1;                      ///< threshold: F-beta of the best-threshold search
  std::optional<cost_model> cost;       ///< threshold, cost: adds the minimum-expected-cost point
  double threshold = 0.5;               ///< rejection (binary): the decision threshold
  std::size_t bins = 10;                ///< calibration
  bin_strategy strategy = bin_strategy::uniform;  ///< calibration
};

/// A file to read and the curve to draw (`assay curve`).
struct curve_request : curve_options {
  std::string path;                     ///< "-" for standard input
  std::string label;                    ///< the true class column
  std::vector<std::string> scores;      ///< binary: one or more score columns (one model each)
  std::vector<std::string> proba;       ///< multiclass: one probability column per class
  std::optional<std::string> weight;
  std::optional<std::string> pos_label;
  io::csv_options csv;
};

struct curve_document {
  std::string csv;     ///< long format: one row per point, first column the model (score column or class)
  std::string json;    ///< schema in docs/curves.md
  plot::chart chart;   ///< for --plot
};

/// Reads the file (io::read_table), decides the positive class as `assay report` does
/// (require_positive), computes the curves and renders them. Errors are assay::error naming the file,
/// the option and the value.
curve_document make_curve(const curve_request& request);

/// The prediction file `request` reads (read_predictions): its columns are column_specs of it.
prediction_file prediction_file_of(const curve_request& request);

/// make_curve(request) on the file's columns read already: `columns` as io::read_table gives them for
/// column_specs(prediction_file_of(request)) (e.g. the parts of the file joined in file order, as
/// `assay curve` under MPI gathers them on rank 0). The same document, byte for byte.
curve_document make_curve(io::table&& columns, const curve_request& request);

/// The curves of a prediction table (data/predictions.hpp): one per score column of a binary table,
/// or one-vs-rest per class of class probabilities (also the multiclass AUCs and, for calibration, the
/// top-label curve). A table of predicted classes has no curve. The same document as make_curve on a
/// file with the same numbers. Throws assay::error naming the function and the option, e.g.
/// `curve: beta is 0; it must be a finite number > 0`.
curve_document make_curve(const prediction_table& table, const curve_options& options);

/// Receives output text in consecutive pieces.
using text_sink = std::function<void(std::string_view)>;
enum class curve_format { csv, json };

/// Writes the same bytes as make_curve(request).csv (or .json) to `sink`, without a chart. roc and pr
/// are streamed: each model's scores are sorted once by class (class_sort.hpp, or the weighted sweep),
/// and the points are formatted straight from the sorted runs in pieces of about a megabyte (on
/// several threads when unweighted; with drop_intermediate each piece is given the curve's points
/// just outside it, so the thinning is decided piece by piece too), so no curve array and no whole
/// output text is held. Memory beyond the loaded columns: one sort buffer (8 bytes per row; the
/// weighted sweep, partial AUCs and the pr JSON, which needs the interpolated AP variants, also hold
/// the 24-byte-per-threshold sweep). Other kinds are rendered whole by make_curve, then written.
void write_curve(const curve_request& request, curve_format format, const text_sink& sink);

/// Binary models already swept elsewhere (e.g. from merged evaluation states, scale/state.hpp: an
/// MPI rank's part of a file each): what write_curve reads from the file, reduced to the sweeps.
struct swept_models {
  std::string source, label_column;
  std::vector<std::string> classes;  ///< the two classes, sorted
  std::string positive;
  bool weighted = false;
  std::optional<std::uint64_t> missing;  ///< rows skipped for an empty cell (csv drop_missing), as the header shows
  std::vector<std::pair<std::string, score_sweep>> models;  ///< (score column, sweep_scores of it)
  /// threshold with max_fpr, unweighted: each model's scores of the negative cases (any order), for
  /// the Neyman-Pearson umbrella threshold (an order statistic of them)
  std::vector<std::vector<double>> negatives;
};

/// write_curve(request, format, sink) for request.kind roc, pr, threshold or cost from the models'
/// sweeps: the same bytes as write_curve on the rows the sweeps were made of (sweep_scores with the
/// rows' weights). Throws assay::error (usage) for rejection and calibration (they need every row).
void write_curve_of_sweeps(const curve_options& options, swept_models models, curve_format format,
                           const text_sink& sink);

}  // namespace assay::curves
