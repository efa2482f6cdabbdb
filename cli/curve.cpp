// assay curve: ROC, PR, threshold, rejection, cost and calibration curves of a prediction file.
// Parses options, calls assay::curves::make_curve, writes CSV/JSON and the optional SVG plot.
#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>

#include "assay/curves/curve_report.hpp"
#include "assay/error.hpp"
#include "assay/plot/svg.hpp"
#include "commands.hpp"
#include "mpi.hpp"

namespace assay::cli {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

struct curve_options {
  curves::curve_request q;
  std::string kind, weight, pos_label, format = "csv", output, plot, strategy = "uniform", delimiter;
  double cost_fp = nan, cost_fn = nan, cost_tp = 0, cost_tn = 0, prior = nan;  // NaN = not given
  double max_fpr = nan, min_tpr = nan, min_precision = nan, min_recall = nan;  // NaN = not given
};

// Sends what `produce` writes to standard output (path empty or "-") or to the file `path`, written
// under a temporary name and renamed at the end, as write_output does, so a failure never leaves a
// partial file.
void stream_output(const std::string& path, const std::function<void(const curves::text_sink&)>& produce) {
  const bool to_stdout = path.empty() || path == "-";
  const std::string tmp = path + ".assay-tmp";
  std::FILE* f = to_stdout ? stdout : std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) throw_io(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
  bool failed = false;
  try {
    produce([&](std::string_view piece) {
      if (!failed && std::fwrite(piece.data(), 1, piece.size(), f) != piece.size()) failed = true;
    });
  } catch (...) {
    if (!to_stdout) std::fclose(f), std::remove(tmp.c_str());
    throw;
  }
  if (to_stdout) {
    std::fflush(stdout);
    return;
  }
  if (std::fclose(f) != 0) failed = true;
  std::error_code ec;
  if (!failed) std::filesystem::rename(tmp, path, ec);
  if (failed || ec) {
    std::remove(tmp.c_str());
    throw_io(fmt::format("cannot write '{}': {}", path, failed ? std::strerror(errno) : ec.message()));
  }
}

void run(curve_options& o) {
  current_command = "assay curve";
  auto& q = o.q;
  q.kind = curves::parse_curve_kind(o.kind);
  current_command = "assay curve " + o.kind;
  if (!o.weight.empty()) q.weight = o.weight;
  if (!o.pos_label.empty()) q.pos_label = o.pos_label;
  q.strategy = o.strategy == "quantile" ? curves::bin_strategy::quantile : curves::bin_strategy::uniform;
  const bool fp = !std::isnan(o.cost_fp), fn = !std::isnan(o.cost_fn);
  if (fp != fn) throw_usage("--cost-fp and --cost-fn go together: give both");
  if (fp) {
    curves::cost_model c{o.cost_fp, o.cost_fn, o.cost_tp, o.cost_tn, std::nullopt};
    if (!std::isnan(o.prior)) c.prior = o.prior;
    q.cost = c;
  } else if (!std::isnan(o.prior)) {
    throw_usage("--prior needs --cost-fp and --cost-fn");
  }
  for (auto [v, field] : {std::pair{o.max_fpr, &q.max_fpr}, {o.min_tpr, &q.min_tpr},
                          {o.min_precision, &q.min_precision}, {o.min_recall, &q.min_recall}}) {
    if (!std::isnan(v)) *field = v;
  }
  if (!o.delimiter.empty()) {
    if (o.delimiter == "\\t" || o.delimiter == "tab") q.csv.delimiter = '\t';
    else if (o.delimiter.size() == 1 && o.delimiter != "\"" && o.delimiter != "\n") q.csv.delimiter = o.delimiter[0];
    else throw_usage(fmt::format("--delimiter: \"{}\" is not one character (use 'tab' for a tab)", o.delimiter));
  }
  if (mpi::ranks() > 1) {
    if (q.path == "-") {
      throw_usage(fmt::format("assay curve {} does not work on several MPI ranks with standard input ('-') ({} ranks: it "
                              "cannot be cut into parts); give a file, or run it as one process (mpirun -n 1, or "
                              "without mpirun)",
                              o.kind, mpi::ranks()));
    }
    const auto format = o.format == "json" ? curves::curve_format::json : curves::curve_format::csv;
    const bool sweeps = (q.kind == curves::curve_kind::roc || q.kind == curves::curve_kind::pr ||
                         q.kind == curves::curve_kind::threshold || q.kind == curves::curve_kind::cost) &&
                        !q.scores.empty() && q.proba.empty() && o.plot.empty();
    if (sweeps) {
      // Under mpirun: roc, pr, threshold and cost of score columns from the merged states (cli/mpi.hpp).
      mpi::curve_by_parts(q, [&](curves::swept_models m) {
        stream_output(o.output, [&](const curves::text_sink& sink) { curves::write_curve_of_sweeps(q, std::move(m), format, sink); });
      });
      return;
    }
    // The rest (rejection and calibration, which need every row's order or bins of every row; class
    // probabilities; the chart) from the columns: each rank parses its part, rank 0 gathers them and
    // draws the curve as one process does (cli/mpi.hpp).
    mpi::columns_by_parts(q.path, q.csv, column_specs(curves::prediction_file_of(q)), [&](io::table&& t) {
      const curves::curve_document doc = curves::make_curve(std::move(t), q);
      if (!o.plot.empty()) write_output(o.plot, plot::render_svg(doc.chart));
      if (o.plot.empty() || !o.output.empty()) {
        stream_output(o.output, [&](const curves::text_sink& sink) { sink(format == curves::curve_format::json ? doc.json : doc.csv); });
      }
    });
    return;
  }
  if (o.plot.empty()) {  // no chart: stream the output (roc and pr never hold the whole curve or text)
    stream_output(o.output, [&](const curves::text_sink& sink) {
      curves::write_curve(q, o.format == "json" ? curves::curve_format::json : curves::curve_format::csv, sink);
    });
    return;
  }
  const curves::curve_document doc = curves::make_curve(q);
  write_output(o.plot, plot::render_svg(doc.chart));
  if (!o.output.empty()) write_output(o.output, o.format == "json" ? doc.json : doc.csv);
}

}  // namespace

void register_curve(CLI::App& app) {
  auto o = std::make_shared<curve_options>();
  auto* cmd = app.add_subcommand("curve", "ROC, precision-recall, threshold, rejection, cost and calibration curves");
  cmd->footer(
      "Examples:\n"
      "  assay curve roc preds.csv --label y --score p --plot roc.svg\n"
      "  assay curve roc preds.csv --label y --score model_a model_b --format json   # two models\n"
      "  assay curve pr preds.csv --label diagnosis --score p --pos-label M\n"
      "  assay curve threshold preds.csv --label y --score p --cost-fp 1 --cost-fn 10 --prior 0.02 --format json\n"
      "  assay curve threshold preds.csv --label y --score p --max-fpr 0.05 --min-tpr 0.9 --format json\n"
      "  assay curve rejection iris.csv --label species --proba setosa versicolor virginica\n"
      "  assay curve calibration preds.csv --label y --score p --bins 10 --strategy quantile\n"
      "  assay curve calibration iris.csv --label species --proba setosa versicolor virginica --plot rel.svg\n"
      "Output: CSV (long format, one row per point) or JSON to standard output or --output; with --plot only the\n"
      "SVG is written unless --output is given too. Thresholds: positive when score >= threshold.\n"
      "The best and constrained operating points (--max-fpr, --min-tpr, --min-precision, --min-recall) are in the\n"
      "JSON, under \"best\" (docs/curves.md).");
  cmd->add_option("curve", o->kind, "roc, pr, threshold, rejection, cost or calibration")
      ->required()
      ->check(CLI::IsMember({"roc", "pr", "threshold", "rejection", "cost", "calibration"}));
  cmd->add_option("file", o->q.path, "Prediction file (CSV or TSV with a header row; '-' for stdin)")->required();
  cmd->add_option("--label,-l", o->q.label, "Column of the true class: name or 1-based index")->required();
  cmd->add_option("--score,-s", o->q.scores, "Score column(s) of the positive class, one per model (binary)");
  cmd->add_option("--proba", o->q.proba,
                  "Probability columns, one per class (multiclass: one-vs-rest per class; calibration adds top-label)");
  cmd->add_option("--weight,-w", o->weight, "Column of sample weights (finite, >= 0)");
  cmd->add_option("--pos-label", o->pos_label, "The positive class of a binary task");
  cmd->add_flag("--drop-intermediate", o->q.drop_intermediate,
                "roc: drop collinear points as scikit-learn's drop_intermediate (default: keep every threshold)");
  cmd->add_option("--partial-fpr", o->q.partial_fpr, "roc: LO HI, add the partial AUC over this FPR range (raw and McClish)")
      ->expected(2);
  cmd->add_option("--partial-tpr", o->q.partial_tpr, "roc: LO HI, add the partial AUC over this TPR range (raw and McClish)")
      ->expected(2);
  cmd->add_option("--beta", o->q.beta, "threshold: F-beta for the best-threshold search (default 1)");
  cmd->add_option("--cost-fp", o->cost_fp, "threshold, cost: cost of a false positive (>= 0)");
  cmd->add_option("--cost-fn", o->cost_fn, "threshold, cost: cost of a false negative (>= 0)");
  cmd->add_option("--cost-tp", o->cost_tp, "threshold, cost: cost of a true positive (default 0; negative = benefit)");
  cmd->add_option("--cost-tn", o->cost_tn, "threshold, cost: cost of a true negative (default 0)");
  cmd->add_option("--prior", o->prior, "threshold, cost: P(positive) in deployment (default: the data's prevalence)");
  CLI::Option* max_fpr = cmd->add_option("--max-fpr", o->max_fpr,
                  "threshold: the highest TPR with FPR <= A, A in (0, 1), and the Neyman-Pearson umbrella threshold "
                  "(population FPR <= A with probability --confidence)");
  cmd->add_option("--min-tpr", o->min_tpr, "threshold: the highest specificity with TPR (sensitivity) >= T");
  cmd->add_option("--min-precision", o->min_precision, "threshold: the highest recall with precision >= P");
  cmd->add_option("--min-recall", o->min_recall, "threshold: the highest precision with recall >= R");
  cmd->add_option("--confidence", o->q.confidence, "threshold: 1 - delta of the umbrella threshold (default 0.95)")
      ->needs(max_fpr);  // as in assay report: it qualifies --max-fpr's umbrella threshold only
  cmd->add_option("--threshold,-t", o->q.threshold, "rejection: decision threshold of the score (default 0.5)");
  cmd->add_option("--bins", o->q.bins, "calibration: number of bins (default 10)");
  cmd->add_option("--strategy", o->strategy, "calibration: uniform or quantile bins")
      ->check(CLI::IsMember({"uniform", "quantile"}));
  cmd->add_option("--delimiter", o->delimiter, "Field separator (default: from the file; 'tab' for tab)");
  cmd->add_flag("--drop-missing", o->q.csv.drop_missing,
                "Skip rows with an empty cell in a column that is read (counted in the JSON header's \"missing\"); "
                "without it such rows are refused");
  cmd->add_option("--format,-f", o->format, "csv or json")->check(CLI::IsMember({"csv", "json"}));
  cmd->add_option("--output,-o", o->output, "Write the CSV/JSON to this file instead of standard output");
  cmd->add_option("--plot", o->plot, "Write an SVG chart to this file");
  cmd->callback([o] { run(*o); });
}

}  // namespace assay::cli
