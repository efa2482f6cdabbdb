// assay compare: two scoring models on the same cases. Parses options, reads the columns, calls
// assay::stats::compare_models, prints.
#include <fmt/format.h>

#include <algorithm>

#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/stats/compare.hpp"
#include "commands.hpp"

namespace assay::cli {

namespace {

struct compare_cli_options {
  std::string path, label, pos_label, format = "text", output;
  std::vector<std::string> scores;
  stats::compare_options opts;
};

void run(compare_cli_options& o) {
  current_command = "assay compare";
  if (o.scores.size() != 2) {
    throw_usage(fmt::format("--score: give exactly two score columns (--score A --score B); got {}", o.scores.size()));
  }
  const auto t = io::read_table(o.path, {{o.label, io::column_type::label, "--label"},
                                         {o.scores[0], io::column_type::number, "--score"},
                                         {o.scores[1], io::column_type::number, "--score"}});
  const auto& truth = t.columns[0];
  const auto labels = sort_labels(truth.levels);
  if (labels.size() > 2) {
    throw_usage(fmt::format("{}: column '{}' has {} classes; compare needs a binary label", t.source, truth.name,
                            labels.size()));
  }
  std::string pos;
  if (!o.pos_label.empty()) {
    if (std::find(labels.begin(), labels.end(), o.pos_label) == labels.end()) {
      throw_usage(fmt::format("--pos-label: class \"{}\" not found in column '{}'", o.pos_label, truth.name));
    }
    pos = o.pos_label;
  } else if (auto p = default_positive(labels)) {
    pos = *p;
  } else {
    throw_usage(fmt::format("{}: cannot tell which class is positive in column '{}': name it with --pos-label",
                            t.source, truth.name));
  }
  std::vector<std::int32_t> y(t.rows);
  for (std::size_t i = 0; i < t.rows; ++i) y[i] = truth.levels[truth.codes[i]] == pos ? 1 : 0;
  auto c = stats::compare_models(y, t.columns[1].numbers, t.columns[2].numbers, t.columns[1].name,
                                 t.columns[2].name, o.opts);
  c.source = t.source;
  write_output(o.output, o.format == "json" ? stats::to_json(c) : stats::to_text(c));
}

}  // namespace

void register_compare(CLI::App& app) {
  auto o = std::make_shared<compare_cli_options>();
  auto* cmd = app.add_subcommand("compare", "Compare two scoring models on the same cases: DeLong and McNemar tests");
  cmd->footer(
      "Examples:\n"
      "  assay compare asah.csv --label outcome --pos-label Poor --score s100b --score ndka\n"
      "  assay compare preds.csv --label y --score model_a --score model_b --threshold 0.3 --format json");
  cmd->add_option("file", o->path, "Prediction file (CSV or TSV with a header row; '-' for stdin)")->required();
  cmd->add_option("--label,-l", o->label, "Column of the true class (binary): name or 1-based index")->required();
  cmd->add_option("--score,-s", o->scores, "Score column of a model (give it twice: --score A --score B)")->required();
  cmd->add_option("--pos-label", o->pos_label, "The positive class (default: 1 for 0/1 labels)");
  cmd->add_option("--threshold,-t", o->opts.threshold, "Predict positive when score >= threshold, for McNemar (default 0.5)");
  cmd->add_option("--alpha", o->opts.alpha, "Significance level of the verdict; intervals at 1 - alpha (default 0.05)");
  cmd->add_option("--format,-f", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--output,-o", o->output, "Write the result to this file instead of standard output");
  cmd->callback([o] { run(*o); });
}

}  // namespace assay::cli
