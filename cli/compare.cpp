// assay compare: two or more models on the same cases, given as score columns (--score) or as hard
// predictions (--pred). Parses options, reads the columns, calls assay::stats::compare_models, prints.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

#include "assay/data/predictions.hpp"
#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/report/compare_html.hpp"
#include "assay/report/html.hpp"
#include "assay/stats/compare_models.hpp"
#include "assay/stats/compare_samples.hpp"
#include "commands.hpp"
#include "mpi.hpp"

namespace assay::cli {

namespace {

struct compare_cli_options {
  std::vector<std::string> files;  // one file (models on the same cases) or two (two independent samples)
  std::string path, label, pos_label, sample, format = "text", output, html, adjust = "holm";
  std::vector<std::string> scores, preds, metrics;
  std::int64_t replicates = 2000, permutations = 2000, threads = 0;
  std::uint64_t seed = 0;
  bool drop_missing = false;  // --drop-missing
  stats::compare_options opts;
};

// The note on standard error of rows skipped by --drop-missing.
void note_missing(const prediction_table& t) {
  if (t.missing > 0) {
    fmt::print(stderr, "assay compare: {}: skipped {} row{} with a missing value (an empty cell; --drop-missing)\n",
               t.source, t.missing, t.missing == 1 ? "" : "s");
  }
}

// Reads a prediction file (--drop-missing: rows with an empty cell skipped, and counted on stderr).
prediction_table read_counted(prediction_file f, bool drop_missing) {
  f.csv.drop_missing = drop_missing;
  prediction_table t = read_predictions(f);
  note_missing(t);
  return t;
}

// Single-quotes an argument when the shell would split or expand it.
std::string shell_arg(const std::string& a) {
  const bool plain = !a.empty() && std::all_of(a.begin(), a.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_-./,:=+@%").find(c) != std::string_view::npos;
  });
  if (plain) return a;
  std::string out = "'";
  for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string reproduce_command(const stats::model_comparison& c, const compare_cli_options& o) {
  std::string command = "assay compare " + shell_arg(o.path) + " --label " + shell_arg(o.label);
  if (!c.multiclass) command += " --pos-label " + shell_arg(c.positive);
  for (const auto& m : c.models) command += (c.scores ? " --score " : " --pred ") + shell_arg(m.name);
  if (c.scores && c.options.threshold != 0.5) command += " --threshold " + html::number(c.options.threshold);
  if (c.options.alpha != 0.05) command += " --alpha " + html::number(c.options.alpha);
  if (c.models.size() > 2 && c.options.adjust != stats::p_adjust_method::holm)
    command += " --adjust " + std::string(stats::to_string(c.options.adjust));
  for (const auto& m : c.options.metrics) command += " --metric " + shell_arg(m);
  if (!c.options.metrics.empty()) {
    if (c.options.replicates != 2000) command += " --replicates " + std::to_string(c.options.replicates);
    if (c.options.permutations != 2000) command += " --permutations " + std::to_string(c.options.permutations);
    command += " --seed " + std::to_string(c.options.seed);
  }
  return command;
}

void check_options(const compare_cli_options& o) {
  if (!o.scores.empty() && !o.preds.empty()) {
    throw_usage("--pred: cannot be mixed with --score; compare either score columns or prediction columns");
  }
  const auto& cols = o.scores.empty() ? o.preds : o.scores;
  const char* opt = o.scores.empty() ? "--pred" : "--score";
  if (cols.size() < 2) {
    throw_usage(fmt::format("{}: give at least two columns ({} A {} B); got {}", opt, opt, opt, cols.size()));
  }
  for (std::size_t i = 0; i < cols.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (cols[i] == cols[j]) throw_usage(fmt::format("{}: column '{}' is given twice", opt, cols[i]));
    }
  }
  if (!(o.opts.alpha > 0 && o.opts.alpha < 1)) throw_usage(fmt::format("--alpha: must be in (0, 1); got {}", o.opts.alpha));
  if (!std::isfinite(o.opts.threshold)) throw_usage(fmt::format("--threshold: must be finite; got {}", o.opts.threshold));
  if (o.replicates < 1) throw_usage(fmt::format("--replicates: must be >= 1; got {}", o.replicates));
  if (o.permutations < 1) throw_usage(fmt::format("--permutations: must be >= 1; got {}", o.permutations));
  if (o.threads < 0) throw_usage(fmt::format("--threads: must be >= 0; got {}", o.threads));
}

// Two independent samples: two files, or one file split by --sample. One model column, no paired
// resampling; the error rates and (scores) the AUCs are compared (stats/compare_samples.hpp).
void run_samples(compare_cli_options& o) {
  const bool scores = !o.scores.empty();
  const auto& cols = scores ? o.scores : o.preds;
  const char* opt = scores ? "--score" : "--pred";
  if (o.scores.empty() && o.preds.empty()) throw_usage("--score or --pred: give the model column of the two samples");
  if (!o.scores.empty() && !o.preds.empty()) throw_usage("--pred: cannot be mixed with --score");
  const std::string what = o.files.size() == 2 ? "two files" : "--sample";
  if (cols.size() != 1) {
    throw_usage(fmt::format("{}: {} compare one model column across two samples; got {} columns", opt, what, cols.size()));
  }
  if (!o.metrics.empty()) throw_usage(fmt::format("--metric: the paired tests need the same cases; not with {}", what));
  if (!(o.opts.alpha > 0 && o.opts.alpha < 1)) throw_usage(fmt::format("--alpha: must be in (0, 1); got {}", o.opts.alpha));
  if (!std::isfinite(o.opts.threshold)) throw_usage(fmt::format("--threshold: must be finite; got {}", o.opts.threshold));
  const std::optional<std::string> pos = o.pos_label.empty() ? std::nullopt : std::optional<std::string>(o.pos_label);
  stats::sample_comparison c;
  if (o.files.size() == 2) {
    prediction_table t[2];
    for (int k = 0; k < 2; ++k) {
      prediction_file f;
      f.path = o.files[static_cast<std::size_t>(k)];
      f.label = o.label;
      (scores ? f.scores : f.predictions) = cols;
      f.pos_label = pos;
      f.classes = class_set::truth;
      t[k] = read_counted(f, o.drop_missing);
    }
    c = stats::compare_samples(t[0], t[1], o.opts);
  } else {
    std::vector<io::column_spec> specs{{o.label, io::column_type::label, "--label"},
                                       {cols[0], scores ? io::column_type::number : io::column_type::label, opt},
                                       {o.sample, io::column_type::label, "--sample"}};
    io::csv_options csv;
    csv.drop_missing = o.drop_missing;
    io::table t = io::read_table(o.files[0], specs, csv);
    if (t.missing.rows > 0) {
      fmt::print(stderr, "assay compare: {}: skipped {} row{} with a missing value (an empty cell; --drop-missing)\n",
                 t.source, t.missing.rows, t.missing.rows == 1 ? "" : "s");
    }
    c = stats::compare_samples_table(std::move(t), scores, pos, o.opts);
  }
  if (!o.html.empty()) {  // written first, so a failure to write it comes before any other output
    std::string command = "assay compare";
    for (const auto& f : o.files) command += " " + shell_arg(f);
    command += " --label " + shell_arg(o.label);
    if (!o.sample.empty()) command += " --sample " + shell_arg(o.sample);
    if (!c.multiclass) command += " --pos-label " + shell_arg(c.positive);
    command += std::string(scores ? " --score " : " --pred ") + shell_arg(cols[0]);
    if (scores && c.options.threshold != 0.5) command += " --threshold " + html::number(c.options.threshold);
    if (c.options.alpha != 0.05) command += " --alpha " + html::number(c.options.alpha);
    write_output(o.html, html::compare_samples_page(c, command));
  }
  write_output(o.output, o.format == "json" ? stats::to_json(c) : stats::to_text(c));
}

void run(compare_cli_options& o) {
  current_command = "assay compare";
  if (o.files.size() > 2) throw_usage(fmt::format("file: give one prediction file, or two for two independent samples; got {}", o.files.size()));
  if (o.files.size() == 2 && !o.sample.empty()) {
    throw_usage("--sample: splits one file into two samples; with two files each file is a sample");
  }
  if (o.files.size() == 2 || !o.sample.empty()) {
    if (mpi::ranks() > 1) {
      throw_usage(fmt::format("{} does not work on several MPI ranks yet ({} ranks: only the models of one file are "
                              "compared by parts); run it as one process (mpirun -n 1, or without mpirun)",
                              o.files.size() == 2 ? "two files (two independent samples)" : "--sample", mpi::ranks()));
    }
    run_samples(o);
    return;
  }
  o.path = o.files[0];
  if (o.scores.empty() && o.preds.empty()) throw_usage("--score or --pred: give at least two model columns");
  check_options(o);
  o.opts.adjust = stats::parse_p_adjust(o.adjust, "--adjust");
  o.opts.replicates = static_cast<std::size_t>(o.replicates);
  o.opts.permutations = static_cast<std::size_t>(o.permutations);
  o.opts.threads = static_cast<unsigned>(o.threads);
  o.opts.seed = o.seed;
  o.opts.metrics = o.metrics;
  const bool scores = !o.scores.empty();
  prediction_file f;
  f.path = o.path;
  f.label = o.label;
  (scores ? f.scores : f.predictions) = scores ? o.scores : o.preds;
  if (!o.pos_label.empty()) f.pos_label = o.pos_label;
  f.classes = class_set::truth;  // compare's classes are the label's
  f.csv.drop_missing = o.drop_missing;
  const auto compare_and_write = [&](prediction_table&& t) {
    note_missing(t);
    const auto c = stats::compare_predictions(t, o.opts);
    const std::string out = o.format == "json" ? stats::to_json(c) : stats::to_text(c);
    // The page first: a failure to write it comes before any output.
    if (!o.html.empty()) write_output(o.html, html::compare_page(c, reproduce_command(c, o)));
    write_output(o.output, out);
  };
  if (mpi::ranks() > 1) {
    // Under mpirun: each rank parses one part of the file, rank 0 joins the columns in file order and
    // compares them as one process does (cli/mpi.hpp).
    if (o.path == "-") {
      throw_usage(fmt::format("standard input ('-') does not work on several MPI ranks ({} ranks: it cannot be cut "
                              "into parts); give a file, or run it as one process (mpirun -n 1, or without mpirun)",
                              mpi::ranks()));
    }
    mpi::columns_by_parts(f.path, f.csv, column_specs(f),
                          [&](io::table&& t) { compare_and_write(make_predictions(std::move(t), f)); });
    return;
  }
  compare_and_write(read_predictions(f));
}

}  // namespace

void register_compare(CLI::App& app) {
  auto o = std::make_shared<compare_cli_options>();
  auto* cmd = app.add_subcommand(
      "compare", "Compare models on the same cases: DeLong, McNemar, Cochran's Q, paired bootstrap and permutation tests");
  cmd->footer(
      "Two or more score columns (--score) or hard-prediction columns (--pred), not both. Scores: each AUC with its\n"
      "DeLong interval and DeLong's paired test of every pair; both kinds: accuracies with Wilson intervals and\n"
      "McNemar's exact test of every pair (scores: at --threshold), Cochran's Q for more than two models. With\n"
      "more than two models the p-values of each pairwise test are adjusted (--adjust, Holm by default).\n"
      "--metric NAME adds the paired bootstrap (stratified by class; percentile interval of the difference,\n"
      "bootstrap-z p-value) and the paired permutation test of that registered metric, seeded (--seed): the\n"
      "numbers do not depend on the thread count.\n"
      "A label of more than two classes takes --pred columns only: a case is right when the predicted class is\n"
      "the true one (a class the label does not have counts as wrong); accuracies, McNemar and Cochran's Q as\n"
      "above, and --metric takes the multiclass metrics (accuracy, balanced_accuracy, cohen_kappa,\n"
      "matthews_corrcoef, f1_macro, f1_micro, f1_weighted, precision_*, recall_*, error_rate), bootstrapped\n"
      "within each true class.\n"
      "Two independent samples (two files, or one file and --sample COL), one model column: the error rates with\n"
      "Wilson intervals, their difference with the Wald and Newcombe intervals, the pooled two-proportion z test and\n"
      "Fisher's exact test; scores add each AUC and the unpaired DeLong test (pROC's roc.test(paired = FALSE)).\n\n"
      "Examples:\n"
      "  assay compare asah.csv --label outcome --pos-label Poor --score s100b --score ndka\n"
      "  assay compare asah.csv --label outcome --pos-label Poor --score s100b --score ndka --score wfns\n"
      "  assay compare preds.csv --label y --score model_a --score model_b --metric f1 --metric roc_auc --seed 7\n"
      "  assay compare preds.csv --label y --pred tree --pred forest --pred knn --format json\n"
      "  assay compare iris_preds.csv --label species --pred tree --pred knn --pred svm --metric f1_macro\n"
      "  assay compare asah.csv --label outcome --pos-label Poor --score s100b --score ndka --html compare.html\n"
      "  assay compare site_a.csv site_b.csv --label y --score p        # one model, two test sets\n"
      "  assay compare all.csv --label y --pred h --sample test_set      # rows split by the column test_set");
  cmd->add_option("file", o->files,
                  "Prediction file (CSV or TSV with a header row; '-' for stdin); two files: two independent samples")
      ->required()
      ->expected(1, 2);
  cmd->add_option("--sample", o->sample,
                  "Column saying which of two independent samples each row belongs to (exactly two values)")
      ->type_name("COL");
  cmd->add_option("--label,-l", o->label, "Column of the true class (two classes; more with --pred): name or 1-based index")->required();
  cmd->add_option("--score,-s", o->scores, "Score column of a model, binary label only (give two or more: --score A --score B)")
      ->type_name("COL");
  cmd->add_option("--pred,-p", o->preds, "Hard-prediction column (class labels) of a model (two or more; not with --score)")
      ->type_name("COL");
  cmd->add_option("--pos-label", o->pos_label, "The positive class of a binary label (default: 1 for 0/1 labels); not with more classes");
  cmd->add_option("--threshold,-t", o->opts.threshold,
                  "Scores: predict positive when score >= threshold, for McNemar, accuracy and binary metrics (default 0.5)");
  cmd->add_option("--alpha", o->opts.alpha, "Significance level of the verdict; intervals at 1 - alpha (default 0.05)");
  cmd->add_option("--metric,-m", o->metrics,
                  "Registered metric for the paired bootstrap and permutation tests (repeatable), e.g. accuracy, f1, "
                  "roc_auc, average_precision, brier_score_loss; multiclass: f1_macro, cohen_kappa, ...")
      ->type_name("NAME");
  cmd->add_option("--adjust", o->adjust, "Multiple-comparison correction over the pairs: holm, bonferroni, fdr_bh, none (default holm)");
  cmd->add_option("--replicates", o->replicates, "Paired bootstrap replicates (default 2000)");
  cmd->add_option("--permutations", o->permutations, "Permutations of the paired permutation test (default 2000)");
  cmd->add_option("--seed", o->seed, "Seed of the bootstrap and permutation streams (default 0)");
  cmd->add_option("--threads", o->threads, "Threads for resampling (default 0 = all); results do not depend on it");
  cmd->add_flag("--drop-missing", o->drop_missing,
                "Skip rows with an empty cell in a column that is read (counted on stderr); without it such rows are "
                "refused");
  cmd->add_option("--format,-f", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--output,-o", o->output, "Write the result to this file instead of standard output");
  cmd->add_option("--html", o->html, "Also write a self-contained HTML page (no network, no scripts) to this file")
      ->type_name("PATH")
      ->check([](const std::string& p) {
        return p == "-" ? std::string("needs a file name, not '-' (standard output carries the result)") : "";
      });
  cmd->callback([o] { run(*o); });
}

}  // namespace assay::cli
