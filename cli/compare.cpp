// assay compare: two or more models on the same cases, given as score columns (--score) or as hard
// predictions (--pred). Parses options, reads the columns, calls assay::stats::compare_models, prints.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string_view>

#include "assay/data/predictions.hpp"
#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/report/html.hpp"
#include "assay/stats/compare.hpp"
#include "commands.hpp"

namespace assay::cli {

namespace {

struct compare_cli_options {
  std::string path, label, pos_label, format = "text", output, html, adjust = "holm";
  std::vector<std::string> scores, preds, metrics;
  std::int64_t replicates = 2000, permutations = 2000, threads = 0;
  std::uint64_t seed = 0;
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

std::string reproduce_command(const stats::comparison& c, const compare_cli_options& o) {
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

// The tests of one pair as tables (adjusted p-values when there are several pairs): DeLong's test,
// McNemar's test with the agreement table, the resampling tests of each metric.
std::string delong_block(const stats::comparison& c, const stats::pair_comparison& p) {
  const bool many = c.pairs.size() > 1;
  const std::string pct = html::number(100 * (1 - c.options.alpha)) + "%";
  std::string body;
  if (p.has_delong) {
    html::headline diff{"AUC difference (A - B)", p.delong.difference, std::nullopt};
    if (p.delong.diff_lower.defined() && p.delong.diff_upper.defined())
      diff.ci = html::interval{p.delong.diff_lower.v, p.delong.diff_upper.v, "DeLong, " + pct};
    std::vector<html::headline> rows{diff,
                                     {"Standard error of the difference", p.delong.std_error, std::nullopt},
                                     {"z", p.delong.test.statistic, std::nullopt},
                                     {"p-value", p.delong.test.p_value, std::nullopt}};
    if (many) rows.push_back({"p-value, adjusted (" + std::string(stats::to_string(c.options.adjust)) + ")",
                              p.delong_p_adjusted, std::nullopt});
    if (many) body += html::document::paragraph("DeLong's test of the two AUCs (paired, two-sided)");
    body += html::headline_table(rows);
  }
  return body;
}

std::string mcnemar_block(const stats::comparison& c, const stats::pair_comparison& p) {
  const bool many = c.pairs.size() > 1;
  std::string body;
  const std::string a = html::escape(c.models[p.a].name), b = html::escape(c.models[p.b].name);
  const std::string where = c.scores ? " at threshold " + html::number(c.options.threshold) : "";
  body += fmt::format(
      "<table class=\"agreement\"><caption>Cases by whether each model is right{}</caption><thead><tr>"
      "<td></td><th scope=\"col\">{} right</th><th scope=\"col\">{} wrong</th></tr></thead><tbody>"
      "<tr><th scope=\"row\">{} right</th><td>{}</td><td>{}</td></tr>"
      "<tr><th scope=\"row\">{} wrong</th><td>{}</td><td>{}</td></tr></tbody></table>",
      html::escape(where), b, b, a, p.counts.n11, p.counts.n01, a, p.counts.n10, p.counts.n00);
  std::vector<html::headline> mc{{"McNemar statistic (" + p.mcnemar.method + ")", p.mcnemar.statistic, std::nullopt},
                                 {"McNemar p-value", p.mcnemar.p_value, std::nullopt}};
  if (many) mc.push_back({"McNemar p-value, adjusted", p.mcnemar_p_adjusted, std::nullopt});
  body += html::headline_table(mc);
  return body;
}

std::string metrics_block(const stats::comparison& c, const stats::pair_comparison& p) {
  const bool many = c.pairs.size() > 1;
  const std::string pct = html::number(100 * (1 - c.options.alpha)) + "%";
  std::string body;
  for (const auto& m : p.metrics) {
    const auto& d = m.bootstrap.difference;
    html::headline diff{m.metric + " difference (A - B)", d.estimate, std::nullopt};
    if (d.lower.defined() && d.upper.defined())
      diff.ci = html::interval{d.lower.v, d.upper.v,
                               fmt::format("paired bootstrap percentile, stratified, {} replicates, {}", d.replicates,
                                           pct)};
    std::vector<html::headline> rows{
        {m.metric + " of " + c.models[p.a].name, m.bootstrap.estimate_a, std::nullopt},
        {m.metric + " of " + c.models[p.b].name, m.bootstrap.estimate_b, std::nullopt},
        diff,
        {"Paired bootstrap p-value (bootstrap z)", m.bootstrap.test.p_value, std::nullopt},
        {fmt::format("Paired permutation p-value ({} permutations)", m.permutation.permutations),
         m.permutation.p_value, std::nullopt}};
    if (many) {
      rows.push_back({"Paired bootstrap p-value, adjusted", m.bootstrap_p_adjusted, std::nullopt});
      rows.push_back({"Paired permutation p-value, adjusted", m.permutation_p_adjusted, std::nullopt});
    }
    body += html::document::paragraph("Resampling tests of " + m.metric) + html::headline_table(rows);
  }
  return body;
}

// The self-contained page of `assay compare --html`: data and options, each model's AUC with its
// DeLong interval and accuracy with its Wilson interval, the tests of each pair, and the verdict.
std::string to_html(const stats::comparison& c, const compare_cli_options& o) {
  std::string title = "assay compare: ";
  for (std::size_t i = 0; i < c.models.size(); ++i) title += (i ? " vs " : "") + c.models[i].name;
  html::document doc(title, c.source);
  const double level = 1 - c.options.alpha;
  const std::string pct = html::number(100 * level) + "%";
  std::vector<std::pair<std::string, std::string>> setup{{"File", c.source}, {"Label column", c.label}};
  if (!c.multiclass) setup.emplace_back("Positive class", c.positive);
  for (std::size_t i = 0; i < c.models.size(); ++i) {
    const std::string which = c.models.size() == 2 ? (i == 0 ? "A" : "B") : std::to_string(i + 1);
    setup.emplace_back(fmt::format("Model {} ({} column)", which, c.scores ? "score" : "prediction"), c.models[i].name);
  }
  setup.emplace_back("Cases", std::to_string(c.n));
  if (c.multiclass) {
    std::string per;
    for (std::size_t k = 0; k < c.classes.size(); ++k)
      per += fmt::format("{}{}: {}", k ? ", " : "", c.classes[k], c.class_counts[k]);
    setup.emplace_back("Classes", fmt::format("{} ({})", c.classes.size(), per));
    for (const auto& m : c.models) {
      if (m.unknown > 0)
        setup.emplace_back("Predictions of other classes (counted wrong), " + m.name, std::to_string(m.unknown));
    }
  } else {
    setup.emplace_back("Positives / negatives", fmt::format("{} / {}", c.n_pos, c.n_neg));
  }
  if (c.scores) setup.emplace_back("Threshold (McNemar)", html::number(c.options.threshold));
  setup.emplace_back("Significance level alpha", html::number(c.options.alpha));
  if (c.models.size() > 2) setup.emplace_back("Multiple-comparison correction", std::string(stats::to_string(c.options.adjust)));
  if (c.options.metrics.empty()) {
    setup.emplace_back("Random seed", "none (no resampling: DeLong and McNemar are exact computations)");
  } else {
    setup.emplace_back("Random seed", std::to_string(c.options.seed));
    setup.emplace_back("Bootstrap replicates / permutations",
                       fmt::format("{} / {}", c.options.replicates, c.options.permutations));
  }
  setup.emplace_back("assay version", ASSAY_VERSION);
  doc.add_section("setup", "Data and options", html::setup_table(setup) + html::command_block(reproduce_command(c, o)));
  std::vector<html::headline> each;
  for (const auto& m : c.models) {
    if (m.has_auc) {
      html::headline h{"ROC AUC of " + m.name, m.auc.auc, std::nullopt};
      if (m.auc.lower.defined() && m.auc.upper.defined()) h.ci = html::interval{m.auc.lower.v, m.auc.upper.v, "DeLong, " + pct};
      each.push_back(h);
    }
  }
  for (const auto& m : c.models) {
    each.push_back({"Accuracy of " + m.name + (c.scores ? " at the threshold" : ""), m.accuracy.estimate,
                    html::interval{m.accuracy.lower, m.accuracy.upper, "Wilson, " + pct}});
  }
  doc.add_section("auc", "Each model", html::headline_table(each));
  if (c.pairs.size() == 1) {
    const auto& p = c.pairs[0];
    if (p.has_delong) doc.add_section("delong", "DeLong's test of the two AUCs (paired, two-sided)", delong_block(c, p));
    doc.add_section("mcnemar", "McNemar's test" + std::string(c.scores ? " at the threshold" : ""), mcnemar_block(c, p));
    if (!p.metrics.empty()) doc.add_section("resampling", "Paired bootstrap and permutation tests", metrics_block(c, p));
  } else {
    doc.add_section("cochran", "Cochran's Q test of all accuracies",
                    html::headline_table({{"Q", c.cochran.statistic, std::nullopt},
                                          {"degrees of freedom", c.cochran.df, std::nullopt},
                                          {"p-value", c.cochran.p_value, std::nullopt}}));
    std::string body = html::document::paragraph(
        fmt::format("Every pair, A - B. The p-values of each test are adjusted over the {} pairs by {}.", c.pairs.size(),
                    stats::to_string(c.options.adjust)));
    for (const auto& p : c.pairs) {
      body += "<h3>" + html::escape(c.models[p.a].name + " vs " + c.models[p.b].name) + "</h3>" + delong_block(c, p) + mcnemar_block(c, p) +
              metrics_block(c, p);
    }
    doc.add_section("pairs", "Pairwise tests", body);
  }
  doc.add_section("verdict", "Verdict", html::document::paragraph(c.verdict));
  return doc.render();
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

void run(compare_cli_options& o) {
  current_command = "assay compare";
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
  const auto c = stats::compare_predictions(read_predictions(f), o.opts);
  const std::string out = o.format == "json" ? stats::to_json(c) : stats::to_text(c);
  if (!o.html.empty()) write_output(o.html, to_html(c, o));  // first: a write failure comes before any output
  write_output(o.output, out);
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
      "within each true class.\n\n"
      "Examples:\n"
      "  assay compare asah.csv --label outcome --pos-label Poor --score s100b --score ndka\n"
      "  assay compare asah.csv --label outcome --pos-label Poor --score s100b --score ndka --score wfns\n"
      "  assay compare preds.csv --label y --score model_a --score model_b --metric f1 --metric roc_auc --seed 7\n"
      "  assay compare preds.csv --label y --pred tree --pred forest --pred knn --format json\n"
      "  assay compare iris_preds.csv --label species --pred tree --pred knn --pred svm --metric f1_macro\n"
      "  assay compare asah.csv --label outcome --pos-label Poor --score s100b --score ndka --html compare.html");
  cmd->add_option("file", o->path, "Prediction file (CSV or TSV with a header row; '-' for stdin)")->required();
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
