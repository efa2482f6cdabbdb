// assay report: metrics of one prediction file. Parses options, calls assay::make_report, prints.
#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/report/html.hpp"
#include "assay/report/report.hpp"
#include "assay/report/slices.hpp"
#include "assay/report/slices_html.hpp"
#include "assay/scale/out_of_core.hpp"
#include "assay/scale/support.hpp"
#include "commands.hpp"
#include "mpi.hpp"

namespace assay::cli {

namespace {

struct report_options {
  report_request q;
  const CLI::Option* ci_option = nullptr;
  std::string ci, ci_method = "auto";
  std::string score, pred, weight, pos_label, format = "text", output, html, task = "auto", zero_div = "0", delimiter;
  std::string threshold, beta, top_k;  // parsed here, for messages that quote the value
  std::vector<std::string> by;         // slice columns
  std::string max_memory;              // --max-memory SIZE
  std::string max_fpr, min_tpr, min_precision, min_recall, confidence;  // operating points
};

// "256M", "2G", "512K", "1048576": bytes (K, M, G, T are powers of 1024; a trailing B or iB is allowed).
std::uint64_t size_option(const char* option, const std::string& text) {
  std::size_t end = 0;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  std::string unit = text.substr(end);
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'B') unit.pop_back();
  if (unit.size() > 1 && unit.back() == 'I') unit.pop_back();
  static const std::map<std::string, int> shift{{"", 0}, {"K", 10}, {"M", 20}, {"G", 30}, {"T", 40}};
  const auto it = shift.find(unit);
  if (end == 0 || end > 15 || it == shift.end()) {
    throw_usage(fmt::format("{}: cannot parse \"{}\" as a size (e.g. 256M, 2G, 1048576)", option, text));
  }
  return std::stoull(text.substr(0, end)) << it->second;
}

// The cap of a file that may not fit in memory (the out-of-core reader chosen by itself, said on
// standard error); none when it fits or the memory available is unknown.
std::optional<std::uint64_t> automatic_max_memory(const report_request& q) {
  const std::uint64_t need = scale::in_memory_estimate(q.path), have = scale::available_memory();
  if (have == 0 || need <= have) return std::nullopt;
  const std::uint64_t cap = std::max<std::uint64_t>(have / 2, std::uint64_t{16} << 20);
  fmt::print(stderr, "assay report: {} may need about {} MiB in memory, more than the {} MiB available; reading it "
             "in pieces within {} MiB (as --max-memory)\n", q.path, need >> 20, have >> 20, cap >> 20);
  return cap;
}

double number_option(const char* option, const std::string& text) {
  double x;
  if (!io::parse_double(text, x) || !std::isfinite(x)) {
    throw_usage(fmt::format("{}: cannot parse \"{}\" as a finite number", option, text));
  }
  return x;
}

// The progress line of a long bootstrap: once the command has run for a second, at most four
// updates a second of "assay report: bootstrap D/N replicates" on one line of standard error (a
// terminal only: redirected output stays clean), ended by a newline when the report is done.
class progress_line {
 public:
  progress_line() : start_(std::chrono::steady_clock::now()), last_(start_), tty_(isatty(fileno(stderr)) != 0) {}
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;
  ~progress_line() {
    if (shown_) std::fputc('\n', stderr);
  }
  void operator()(std::size_t done, std::size_t total) {
    if (!tty_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::seconds(1) || (now - last_ < std::chrono::milliseconds(250) && done < total)) return;
    last_ = now;
    shown_ = true;
    std::fputs(fmt::format("\rassay report: bootstrap {}/{} replicates", done, total).c_str(), stderr);
    std::fflush(stderr);
  }

 private:
  std::chrono::steady_clock::time_point start_, last_;
  bool tty_, shown_ = false;
};

// The note on standard error of rows skipped by --drop-missing (the count is also in the report).
void note_missing(const report& r) {
  if (r.missing && *r.missing > 0) {
    fmt::print(stderr, "assay report: skipped {} row{} with a missing value (an empty cell; --drop-missing)\n",
               *r.missing, *r.missing == 1 ? "" : "s");
  }
}

// Under mpirun with several ranks (a build with MPI): each rank reads one part of the file, the
// merged state gives the report on rank 0 (cli/mpi.hpp). What the state does not compute yet is
// refused, naming the option.
void run_ranks(report_options& o) {
  const auto& q = o.q;
  const char* refused = !o.max_memory.empty()             ? "--max-memory"
                        : q.path == "-"                   ? "standard input ('-')"
                                                          : nullptr;
  if (refused != nullptr) {
    throw_usage(fmt::format("{} does not work on several MPI ranks yet ({} rank{}: the merged evaluation state does "
                            "not support it); run it as one process (mpirun -n 1, or without mpirun)",
                            refused, mpi::ranks(), mpi::ranks() == 1 ? "" : "s"));
  }
  if (!o.by.empty()) {
    mpi::sliced_report_by_parts(q, o.by, [&](const sliced_report& r) {
      note_missing(r.overall);
      const std::string text = o.format == "json" ? to_json(r) : to_text(r);
      if (!o.html.empty()) write_output(o.html, to_html(r));
      write_output(o.output, text);
    });
    return;
  }
  mpi::report_by_parts(q, [&](const report& r) {
    note_missing(r);
    const std::string text = o.format == "json" ? to_json(r) : to_text(r);
    if (!o.html.empty()) {  // written first, as one process does
      html_extras extras;
      extras.request = q;
      write_output(o.html, to_html(r, extras));
    }
    write_output(o.output, text);
  });
}

void run(report_options& o) {
  auto& q = o.q;
  auto progress = std::make_shared<progress_line>();
  q.progress = [progress](std::size_t done, std::size_t total) { (*progress)(done, total); };
  if (!o.score.empty()) q.score = o.score;
  if (!o.pred.empty()) q.pred = o.pred;
  if (!o.weight.empty()) q.weight = o.weight;
  if (!o.pos_label.empty()) q.pos_label = o.pos_label;
  if (!o.threshold.empty()) q.threshold = number_option("--threshold", o.threshold);
  if (!o.beta.empty()) q.beta = number_option("--beta", o.beta);
  if (!o.top_k.empty()) {
    if (o.top_k.size() > 6 || o.top_k.find_first_not_of("0123456789") != std::string::npos) {
      throw_usage(fmt::format("--top-k: \"{}\" is not a whole number between 1 and 999999", o.top_k));
    }
    q.top_k = std::stoul(o.top_k);
  }
  static const std::map<std::string, task_kind> tasks{{"auto", task_kind::automatic},
                                                      {"binary", task_kind::binary},
                                                      {"multiclass", task_kind::multiclass},
                                                      {"regression", task_kind::regression}};
  q.task = tasks.at(o.task);
  q.zd = o.zero_div == "0" ? zero_division::zero : o.zero_div == "1" ? zero_division::one : zero_division::skip;
  if (!o.delimiter.empty()) {
    if (o.delimiter == "\\t" || o.delimiter == "tab") q.csv.delimiter = '\t';
    else if (o.delimiter.size() == 1 && o.delimiter != "\"" && o.delimiter != "\n") q.csv.delimiter = o.delimiter[0];
    else throw_usage(fmt::format("--delimiter: \"{}\" is not one character (use 'tab' for a tab)", o.delimiter));
  }
  q.keep_curves = !o.html.empty();
  for (auto [option, text, field] : {std::tuple{"--max-fpr", &o.max_fpr, &q.constraints.max_fpr},
                                     {"--min-tpr", &o.min_tpr, &q.constraints.min_tpr},
                                     {"--min-precision", &o.min_precision, &q.constraints.min_precision},
                                     {"--min-recall", &o.min_recall, &q.constraints.min_recall}}) {
    if (!text->empty()) *field = number_option(option, *text);
  }
  if (!o.confidence.empty()) {
    if (!q.constraints.max_fpr) throw_usage("--confidence needs --max-fpr (it is the umbrella threshold's 1 - delta)");
    q.constraints.confidence = number_option("--confidence", o.confidence);
  }
  const bool ci_given = o.ci_option->count() > 0;
  if (ci_given) q.ci_level = o.ci.empty() ? 0.95 : number_option("--ci", o.ci);
  static const std::map<std::string, ci_method> ci_methods{
      {"auto", ci_method::automatic},         {"wilson", ci_method::wilson},
      {"normal", ci_method::normal},          {"agresti-coull", ci_method::agresti_coull},
      {"exact", ci_method::clopper_pearson},  {"bootstrap", ci_method::bootstrap}};
  q.ci = ci_methods.at(o.ci_method);
  if (!ci_given && o.ci_method != "auto") throw_usage("--ci-method needs --ci");
  if (!o.by.empty()) {
    if (o.by.size() > 2) throw_usage(fmt::format("--by: given {} times; give 1 or 2 slice columns", o.by.size()));
    if (o.by.size() == 2 && o.by[0] == o.by[1]) {
      throw_usage(fmt::format("--by: '{}' is given twice; give two different columns", o.by[0]));
    }
  }
  // ASSAY_REPORT_BY_PARTS=1: the per-part path on one rank too (the same output), to time the MPI
  // path's own scaling from 1 rank (bench/mpi_scaling.sh).
  const char* by_parts = std::getenv("ASSAY_REPORT_BY_PARTS");
  if (mpi::ranks() > 1 || (by_parts != nullptr && std::string(by_parts) == "1")) {
    run_ranks(o);
    return;
  }
  std::optional<std::uint64_t> max_memory;
  if (!o.max_memory.empty()) max_memory = size_option("--max-memory", o.max_memory);
  if (!o.by.empty()) {
    if (!max_memory && !scale::why_not(q, scale::engine::sliced_out_of_core, true)) {
      // A file that may not fit in memory is read in pieces into a sliced state by itself.
      max_memory = automatic_max_memory(q);
    }
    if (max_memory) {
      if (auto no = scale::why_not(q, scale::engine::sliced_out_of_core, false)) throw_usage(*no);
    }
    sliced_report r;
    if (max_memory) {
      scale::out_of_core_options oo;
      oo.max_memory = *max_memory;
      r = scale::make_sliced_report_out_of_core(q, o.by, oo);
    } else {
      r = make_sliced_report(q, o.by);
    }
    q.progress = nullptr;
    progress.reset();  // ends the progress line before the report is written
    note_missing(r.overall);
    const std::string text = o.format == "json" ? to_json(r) : to_text(r);
    if (!o.html.empty()) write_output(o.html, to_html(r));
    write_output(o.output, text);
    return;
  }
  if (!max_memory && !scale::why_not(q, scale::engine::out_of_core, true)) {
    // A file that may not fit in memory switches to the out-of-core reader by itself.
    max_memory = automatic_max_memory(q);
  }
  if (max_memory) {
    if (auto no = scale::why_not(q, scale::engine::out_of_core, false)) throw_usage(*no);
  }
  report r;
  if (max_memory) {
    scale::out_of_core_options oo;
    oo.max_memory = *max_memory;
    r = scale::make_report_out_of_core(q, oo);
  } else {
    r = make_report(q);
  }
  q.progress = nullptr;
  progress.reset();  // ends the progress line before the report is written
  note_missing(r);
  const std::string text = o.format == "json" ? to_json(r) : to_text(r);
  if (!o.html.empty()) {  // written first, so a failure to write it comes before any report output
    html_extras extras;
    extras.request = q;
    write_output(o.html, to_html(r, extras));
  }
  write_output(o.output, text);
}

}  // namespace

void register_report(CLI::App& app) {
  auto o = std::make_shared<report_options>();
  auto* cmd = app.add_subcommand("report", "Metrics of a prediction file: confusion matrix, rates, per-class table");
  cmd->description(
      "Metrics of a prediction file: the confusion matrix (rows = actual class), the metrics and a per-class\n"
      "table. Give the predictions with exactly one of --score, --pred or --proba. Columns are header names or\n"
      "1-based indices. Undefined values (0/0) are printed as 'undefined (reason)', or null in JSON.\n"
      "Full guide: docs/cli.md; JSON schema: docs/report-json.md.");
  cmd->footer(
      "Input: CSV or TSV per RFC 4180 with a header row (quotes, CRLF, UTF-8 BOM; tab-separated for *.tsv or a\n"
      "tab-only first line). Classes are sorted numerically when all are numbers, else by bytes. The positive\n"
      "class is --pos-label, else 1 (with 0 or -1) or the larger of two numbers; text labels need --pos-label.\n"
      "\n"
      "Examples:\n"
      "  assay report preds.csv --label y --score p                 # binary, positive when p >= 0.5\n"
      "  assay report preds.csv --label diagnosis --score p --pos-label M --threshold 0.3\n"
      "  assay report iris.csv --label species --pred predicted --format json --output report.json\n"
      "  assay report iris.csv --label species --proba setosa versicolor virginica\n"
      "  assay report house.tsv --task regression --label price --pred predicted\n"
      "  cat preds.csv | assay report - --label 1 --score 2           # stdin, columns by index\n"
      "  assay report preds.csv --label y --score p --by country --ci  # per country, each vs the rest\n"
      "  assay report preds.csv --label y --score p --max-fpr 0.05      # best TPR at FPR <= 5%, NP umbrella\n"
      "\n"
      "Exit codes: 0 success, 1 internal error, 2 usage error, 3 bad input data, 4 file I/O error.");
  cmd->add_option("file", o->q.path, "Prediction file (CSV or TSV with a header row); '-' reads standard input")
      ->type_name("FILE")
      ->required();
  cmd->add_option("--label,-l", o->q.label, "Column of the true class (or the true value with --task regression)")
      ->type_name("COL")
      ->required();
  cmd->add_option("--score,-s", o->score,
                  "Column of scores for the positive class (binary; positive when >= threshold)")
      ->type_name("COL");
  cmd->add_option("--pred,-p", o->pred, "Column of predicted classes (or predicted values with --task regression)")
      ->type_name("COL");
  cmd->add_option("--proba", o->q.proba,
                  "Probability columns, one per class: named after the classes, or in sorted class order")
      ->type_name("COL");
  cmd->add_option("--weight,-w", o->weight, "Column of sample weights (finite, >= 0, not all 0)")->type_name("COL");
  cmd->add_option("--task", o->task, "auto (binary for <= 2 classes, else multiclass), binary, multiclass, regression")
      ->type_name("TASK")
      ->check(CLI::IsMember({"auto", "binary", "multiclass", "regression"}));
  cmd->add_option("--pos-label", o->pos_label, "The positive class of a binary task")->type_name("CLASS");
  cmd->add_option("--threshold,-t", o->threshold, "With --score: predict positive when score >= X (default 0.5)")
      ->type_name("X");
  cmd->add_option("--beta", o->beta, "Binary: also report F-beta for this beta (finite, > 0)")->type_name("BETA");
  cmd->add_option("--top-k", o->top_k, "With --proba and > 2 classes: k of top_k_accuracy (default 2)")
      ->type_name("K");
  cmd->add_option("--zero-division", o->zero_div,
                  "Undefined per-class values in macro/weighted averages: 0 (default, as scikit-learn), 1, or skip")
      ->type_name("RULE")
      ->check(CLI::IsMember({"0", "1", "skip"}));
  cmd->add_option("--delimiter", o->delimiter, "Field separator, one character or 'tab' (default: from the file)")
      ->type_name("CHAR");
  cmd->add_flag("--drop-missing", o->q.csv.drop_missing,
                "Skip rows with an empty cell in a column that is read (counted: stderr, JSON \"missing\"); "
                "without it such rows are refused");
  cmd->add_option("--max-fpr", o->max_fpr,
                  "With --score: the operating point of highest TPR with FPR <= A (Neyman-Pearson), and the NP umbrella "
                  "threshold (population FPR <= A with probability --confidence)")
      ->type_name("A");
  cmd->add_option("--min-tpr", o->min_tpr, "With --score: the highest specificity with TPR (sensitivity) >= T")
      ->type_name("T");
  cmd->add_option("--min-precision", o->min_precision, "With --score: the highest recall with precision >= P")
      ->type_name("P");
  cmd->add_option("--min-recall", o->min_recall, "With --score: the highest precision with recall >= R")
      ->type_name("R");
  cmd->add_option("--confidence", o->confidence, "1 - delta of the umbrella threshold of --max-fpr (default 0.95)")
      ->type_name("C");
  cmd->add_option("--by", o->by,
                  "Slice the report by this column (give it twice for pairs of two columns): a report per slice, and "
                  "per headline metric each slice against the rest (Holm-adjusted)")
      ->type_name("COL")
      ->allow_extra_args(false);
  cmd->add_option("--format,-f", o->format, "text (default) or json")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--output,-o", o->output,
                  "Write the report to this file (atomically: whole or not at all) instead of standard output")
      ->type_name("PATH");
  o->ci_option = cmd->add_option("--ci", o->ci,
                  "Attach a confidence interval of this level (default 0.95) to every number that has one")
      ->type_name("[LEVEL]")
      ->expected(0, 1);
  cmd->add_option("--ci-method", o->ci_method,
                  "auto (Wilson for proportions, DeLong for ROC AUC, normal for mean losses, logit for average "
                  "precision, bootstrap for the rest), wilson, normal, "
                  "agresti-coull, exact (Clopper-Pearson) or bootstrap (everything)")
      ->type_name("METHOD")
      ->check(CLI::IsMember({"auto", "wilson", "normal", "agresti-coull", "exact", "bootstrap"}));
  cmd->add_option("--bootstrap-replicates,--replicates", o->q.bootstrap_replicates, "Bootstrap replicates (default 2000)")
      ->type_name("N");
  cmd->add_option("--seed", o->q.seed, "Seed of the bootstrap (default 0); results do not depend on threads")
      ->type_name("N");
  cmd->add_option("--max-memory", o->max_memory,
                  "Read the file in pieces within about SIZE bytes (e.g. 256M, 2G), spilling to $TMPDIR; the same report. "
                  "With --by the slices' state (one run per distinct score, class and slice) must fit in SIZE. "
                  "Chosen by itself for a file larger than the available memory (docs/scaling.md)")
      ->type_name("SIZE");
  cmd->add_option("--html", o->html, "Also write a self-contained HTML report (no network, no scripts) to this file")
      ->type_name("PATH")
      ->check([](const std::string& p) {
        return p == "-" ? std::string("needs a file name, not '-' (standard output carries the report)") : "";
      });
  // Name the command in every message, CLI11's own parse errors included.
  cmd->preparse_callback([](std::size_t) { current_command = "assay report"; });
  cmd->callback([o] { run(*o); });
}

}  // namespace assay::cli
