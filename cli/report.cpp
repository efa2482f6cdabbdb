// assay report: metrics of one prediction file. Parses options, calls assay::make_report, prints.
#include <fmt/format.h>

#include <map>

#include "assay/error.hpp"
#include "assay/report/html.hpp"
#include "assay/report/report.hpp"
#include "commands.hpp"

namespace assay::cli {

namespace {

struct report_options {
  report_request q;
  std::string score, pred, weight, pos_label, format = "text", output, html, task = "auto", zero_div = "0", delimiter;
  double beta = 0;
};

void run(report_options& o) {
  current_command = "assay report";
  auto& q = o.q;
  if (!o.score.empty()) q.score = o.score;
  if (!o.pred.empty()) q.pred = o.pred;
  if (!o.weight.empty()) q.weight = o.weight;
  if (!o.pos_label.empty()) q.pos_label = o.pos_label;
  if (o.beta != 0) q.beta = o.beta;
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
  const report r = make_report(q);
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
  cmd->footer(
      "Examples:\n"
      "  assay report preds.csv --label y --score p                 # binary, positive when p >= 0.5\n"
      "  assay report preds.csv --label diagnosis --score p --pos-label M --threshold 0.3\n"
      "  assay report iris.csv --label species --pred predicted --format json\n"
      "  assay report iris.csv --label species --proba setosa versicolor virginica\n"
      "  assay report house.tsv --task regression --label price --pred predicted");
  cmd->add_option("file", o->q.path, "Prediction file (CSV or TSV with a header row; '-' for stdin)")->required();
  cmd->add_option("--label,-l", o->q.label, "Column of the true class (or true value for regression): name or 1-based index")
      ->required();
  cmd->add_option("--score,-s", o->score, "Column of scores for the positive class (binary)");
  cmd->add_option("--pred,-p", o->pred, "Column of predicted classes (or predicted values for regression)");
  cmd->add_option("--proba", o->q.proba, "Probability columns, one per class (named after the classes or in sorted class order)");
  cmd->add_option("--weight,-w", o->weight, "Column of sample weights (finite, >= 0)");
  cmd->add_option("--task", o->task, "auto, binary, multiclass or regression")
      ->check(CLI::IsMember({"auto", "binary", "multiclass", "regression"}));
  cmd->add_option("--pos-label", o->pos_label, "The positive class of a binary task");
  cmd->add_option("--threshold,-t", o->q.threshold, "Predict positive when score >= threshold (default 0.5)");
  cmd->add_option("--beta", o->beta, "Also report F-beta for this beta (> 0)");
  cmd->add_option("--top-k", o->q.top_k, "k of top_k_accuracy with --proba (default 2)");
  cmd->add_option("--zero-division", o->zero_div,
                  "Undefined per-class values in macro/weighted averages: 0 (scikit-learn), 1, or skip")
      ->check(CLI::IsMember({"0", "1", "skip"}));
  cmd->add_option("--delimiter", o->delimiter, "Field separator (default: from the file; 'tab' for tab)");
  cmd->add_option("--format,-f", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--output,-o", o->output, "Write the report to this file instead of standard output");
  cmd->add_option("--html", o->html, "Also write a self-contained HTML report (no network, no scripts) to this file")
      ->check([](const std::string& p) {
        return p == "-" ? std::string("needs a file name, not '-' (standard output carries the report)") : "";
      });
  cmd->callback([o] { run(*o); });
}

}  // namespace assay::cli
