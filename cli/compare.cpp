// assay compare: two scoring models on the same cases. Parses options, reads the columns, calls
// assay::stats::compare_models, prints.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/report/html.hpp"
#include "assay/stats/compare.hpp"
#include "commands.hpp"

namespace assay::cli {

namespace {

struct compare_cli_options {
  std::string path, label, pos_label, format = "text", output, html;
  std::vector<std::string> scores;
  stats::compare_options opts;
};

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

// The self-contained page of `assay compare --html`: data and options, each model's AUC with its
// DeLong interval, DeLong's paired test, McNemar's test at the threshold, and the verdict.
std::string to_html(const stats::comparison& c, const compare_cli_options& o, const std::string& pos) {
  html::document doc("assay compare: " + c.a.name + " vs " + c.b.name, c.source);
  const double level = 1 - c.options.alpha;
  std::string command = "assay compare " + shell_arg(o.path) + " --label " + shell_arg(o.label) + " --pos-label " +
                        shell_arg(pos) + " --score " + shell_arg(o.scores[0]) + " --score " + shell_arg(o.scores[1]);
  if (c.options.threshold != 0.5) command += " --threshold " + html::number(c.options.threshold);
  if (c.options.alpha != 0.05) command += " --alpha " + html::number(c.options.alpha);
  doc.add_section("setup", "Data and options",
                  html::setup_table({{"File", c.source},
                                     {"Label column", o.label},
                                     {"Positive class", pos},
                                     {"Model A (score column)", c.a.name},
                                     {"Model B (score column)", c.b.name},
                                     {"Cases", std::to_string(c.n)},
                                     {"Positives / negatives", fmt::format("{} / {}", c.n_pos, c.n_neg)},
                                     {"Threshold (McNemar)", html::number(c.options.threshold)},
                                     {"Significance level alpha", html::number(c.options.alpha)},
                                     {"Random seed", "none (no resampling: DeLong and McNemar are exact computations)"},
                                     {"assay version", ASSAY_VERSION}}) +
                      html::command_block(command));
  auto auc_row = [&](const stats::model_summary& m) {
    html::headline h{"ROC AUC of " + m.name, m.auc.auc, std::nullopt};
    if (m.auc.lower.defined() && m.auc.upper.defined())
      h.ci = html::interval{m.auc.lower.v, m.auc.upper.v, fmt::format("DeLong, {}%", html::number(100 * level))};
    return h;
  };
  doc.add_section("auc", "Each model",
                  html::headline_table({auc_row(c.a), auc_row(c.b),
                                        {"Accuracy of " + c.a.name + " at the threshold", c.a.accuracy, std::nullopt},
                                        {"Accuracy of " + c.b.name + " at the threshold", c.b.accuracy, std::nullopt}}));
  html::headline diff{"AUC difference (A - B)", c.delong.difference, std::nullopt};
  if (c.delong.diff_lower.defined() && c.delong.diff_upper.defined())
    diff.ci = html::interval{c.delong.diff_lower.v, c.delong.diff_upper.v,
                             fmt::format("DeLong, {}%", html::number(100 * level))};
  doc.add_section("delong", "DeLong's test of the two AUCs (paired, two-sided)",
                  html::headline_table({diff,
                                        {"Standard error of the difference", c.delong.std_error, std::nullopt},
                                        {"z", c.delong.test.statistic, std::nullopt},
                                        {"p-value", c.delong.test.p_value, std::nullopt}}));
  // The 2 x 2 agreement table (rows: model A, columns: model B), then the test.
  const std::string a = html::escape(c.a.name), b = html::escape(c.b.name);
  std::string agree = fmt::format(
      "<table class=\"agreement\"><caption>Cases by whether each model is right at threshold {}</caption><thead><tr>"
      "<td></td><th scope=\"col\">{} right</th><th scope=\"col\">{} wrong</th></tr></thead><tbody>"
      "<tr><th scope=\"row\">{} right</th><td>{}</td><td>{}</td></tr>"
      "<tr><th scope=\"row\">{} wrong</th><td>{}</td><td>{}</td></tr></tbody></table>",
      html::number(c.options.threshold), b, b, a, c.counts.n11, c.counts.n01, a, c.counts.n10, c.counts.n00);
  doc.add_section("mcnemar", "McNemar's test at the threshold",
                  agree + html::headline_table({{"Statistic (" + c.mcnemar.method + ")", c.mcnemar.statistic, std::nullopt},
                                                {"p-value", c.mcnemar.p_value, std::nullopt}}));
  doc.add_section("verdict", "Verdict", html::document::paragraph(c.verdict));
  return doc.render();
}

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
  const std::string out = o.format == "json" ? stats::to_json(c) : stats::to_text(c);
  if (!o.html.empty()) write_output(o.html, to_html(c, o, pos));  // first: a write failure comes before any output
  write_output(o.output, out);
}

}  // namespace

void register_compare(CLI::App& app) {
  auto o = std::make_shared<compare_cli_options>();
  auto* cmd = app.add_subcommand("compare", "Compare two scoring models on the same cases: DeLong and McNemar tests");
  cmd->footer(
      "Examples:\n"
      "  assay compare asah.csv --label outcome --pos-label Poor --score s100b --score ndka\n"
      "  assay compare preds.csv --label y --score model_a --score model_b --threshold 0.3 --format json\n"
      "  assay compare asah.csv --label outcome --pos-label Poor --score s100b --score ndka --html compare.html");
  cmd->add_option("file", o->path, "Prediction file (CSV or TSV with a header row; '-' for stdin)")->required();
  cmd->add_option("--label,-l", o->label, "Column of the true class (binary): name or 1-based index")->required();
  cmd->add_option("--score,-s", o->scores, "Score column of a model (give it twice: --score A --score B)")->required();
  cmd->add_option("--pos-label", o->pos_label, "The positive class (default: 1 for 0/1 labels)");
  cmd->add_option("--threshold,-t", o->opts.threshold, "Predict positive when score >= threshold, for McNemar (default 0.5)");
  cmd->add_option("--alpha", o->opts.alpha, "Significance level of the verdict; intervals at 1 - alpha (default 0.05)");
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
