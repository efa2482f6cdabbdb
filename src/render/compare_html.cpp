// assay: the HTML page of `assay compare --html` (include/assay/report/compare_html.hpp).
#include "assay/report/compare_html.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "assay/report/html.hpp"

namespace assay::html {

namespace {

// The tests of one pair as tables (adjusted p-values when there are several pairs): DeLong's test,
// McNemar's test with the agreement table, the resampling tests of each metric.
std::string delong_block(const stats::model_comparison& c, const stats::pair_comparison& p) {
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

std::string mcnemar_block(const stats::model_comparison& c, const stats::pair_comparison& p) {
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

std::string metrics_block(const stats::model_comparison& c, const stats::pair_comparison& p) {
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

}  // namespace

std::string compare_page(const stats::model_comparison& c, const std::string& command) {
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
  doc.add_section("setup", "Data and options", html::setup_table(setup) + html::command_block(command));
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

std::string compare_samples_page(const stats::sample_comparison& c, const std::string& command) {
  const std::string title = "assay compare: " + c.a.name + " vs " + c.b.name;
  html::document doc(title, "two independent samples");
  const std::string pct = html::number(100 * (1 - c.options.alpha)) + "%";
  std::vector<std::pair<std::string, std::string>> setup;
  if (c.sample_column.empty()) {
    setup.emplace_back("Sample A (file)", c.a.name);
    setup.emplace_back("Sample B (file)", c.b.name);
  } else {
    setup.emplace_back("Sample column", c.sample_column);
    setup.emplace_back("Sample A", c.a.name);
    setup.emplace_back("Sample B", c.b.name);
  }
  setup.emplace_back("Label column", c.label);
  if (!c.multiclass) setup.emplace_back("Positive class", c.positive);
  else setup.emplace_back("Classes", std::to_string(c.classes.size()));
  setup.emplace_back(c.scores ? "Score column" : "Prediction column",
                     c.a.model == c.b.model ? c.a.model : c.a.model + " / " + c.b.model);
  for (const auto* s : {&c.a, &c.b}) {
    setup.emplace_back("Cases, " + s->name, c.multiclass ? std::to_string(s->n)
                                                         : fmt::format("{} ({} positive, {} negative)", s->n, s->n_pos,
                                                                       s->n_neg));
  }
  if (c.scores) setup.emplace_back("Threshold (errors)", html::number(c.options.threshold));
  setup.emplace_back("Significance level alpha", html::number(c.options.alpha));
  setup.emplace_back("Random seed", "none (no resampling: every interval and test is a closed form)");
  setup.emplace_back("assay version", ASSAY_VERSION);
  doc.add_section("setup", "Data and options", html::setup_table(setup) + html::command_block(command));

  std::vector<html::headline> each;
  for (const auto* s : {&c.a, &c.b}) {
    each.push_back({"Error rate of " + s->name + (c.scores ? " at the threshold" : ""), s->error_rate.estimate,
                    html::interval{s->error_rate.lower, s->error_rate.upper, "Wilson, " + pct}});
  }
  for (const auto* s : {&c.a, &c.b}) {
    if (!s->has_auc) continue;
    html::headline h{"ROC AUC of " + s->name, s->auc.auc, std::nullopt};
    if (s->auc.lower.defined() && s->auc.upper.defined()) h.ci = html::interval{s->auc.lower.v, s->auc.upper.v, "DeLong, " + pct};
    each.push_back(h);
  }
  doc.add_section("samples", "Each sample", html::headline_table(each));

  const auto& e = c.error_difference;
  html::headline wald{"Difference of error rates (A - B)", e.difference,
                      html::interval{e.wald.lower, e.wald.upper, "Wald, " + pct}};
  html::headline newcombe{"Difference of error rates (A - B)", e.difference,
                          html::interval{e.newcombe.lower, e.newcombe.upper, "Newcombe hybrid score, " + pct}};
  std::vector<html::headline> diff{wald, newcombe, {"Standard error (unpooled)", e.wald_std_error, std::nullopt}};
  if (e.z_test.undefined.empty()) {
    diff.push_back({"Two-proportion z (pooled)", e.z_test.test.statistic, std::nullopt});
    diff.push_back({"Two-proportion z test p-value", e.z_test.test.p_value, std::nullopt});
  } else {
    diff.push_back({"Two-proportion z test", value::undefined(e.z_test.undefined), std::nullopt});
  }
  if (e.has_fisher) diff.push_back({"Fisher's exact test p-value", e.fisher.p_value, std::nullopt});
  doc.add_section("errors", "Difference of error rates", html::headline_table(diff));

  if (c.scores) {
    std::vector<html::headline> dl;
    if (c.has_delong) {
      dl = {{"AUC difference (A - B)", c.delong.difference, std::nullopt},
            {"Standard error of the difference", c.delong.std_error, std::nullopt},
            {"t (Welch-Satterthwaite)", c.delong.test.statistic, std::nullopt},
            {"degrees of freedom", c.delong.test.df, std::nullopt},
            {"p-value", c.delong.test.p_value, std::nullopt}};
    } else {
      dl = {{"Unpaired DeLong test", value::undefined(c.delong_undefined), std::nullopt}};
    }
    doc.add_section("delong", "Unpaired DeLong test of the two AUCs (two-sided)", html::headline_table(dl));
  }
  doc.add_section("verdict", "Verdict", html::document::paragraph(c.verdict));
  return doc.render();
}

}  // namespace assay::html
