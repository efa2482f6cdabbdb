// The text renderings of `assay compare`: k models on the same cases (model_comparison) and one model
// on two independent samples (sample_comparison). The kernels in src/stats/ compute the comparisons.
#include <fmt/format.h>

#include <algorithm>

#include "assay/stats/compare_models.hpp"
#include "assay/stats/compare_samples.hpp"

namespace assay::stats {

namespace {

std::string num_or_undefined(const value& v) { return v.defined() ? fmt::format("{:.4f}", v.v) : "undefined"; }
std::string pct_of(double level) { return fmt::format("{:g}%", 100 * level); }

/// The tests of one pair in text, each on its own line(s).
std::string pair_text(const model_comparison& c, const pair_comparison& p, bool adjusted) {
  const std::string& a = c.models[p.a].name;
  const std::string& b = c.models[p.b].name;
  const std::string pct = pct_of(1 - c.options.alpha);
  auto adj = [&](double v) { return adjusted ? fmt::format(", adjusted p = {:.4g}", v) : std::string(); };
  std::string s;
  if (p.has_delong) {
    const auto& d = p.delong;
    s += fmt::format("DeLong test (paired, two-sided): AUC difference {:.4f}, {} CI [{}, {}], z = {:.4f}, p = {:.4g}{}\n",
                     d.difference, pct, num_or_undefined(d.diff_lower), num_or_undefined(d.diff_upper),
                     d.test.statistic, d.test.p_value, adj(p.delong_p_adjusted));
  }
  s += fmt::format("McNemar test (exact binomial){}: {} right / {} wrong on {} cases, the reverse on {}; p = {:.4g}{}\n",
                   c.scores ? fmt::format(" at threshold {:g}", c.options.threshold) : std::string(), a, b,
                   p.counts.n01, p.counts.n10, p.mcnemar.p_value, adj(p.mcnemar_p_adjusted));
  for (const auto& m : p.metrics) {
    const auto& bs = m.bootstrap;
    s += fmt::format("Paired bootstrap of {} (stratified, {} replicates, seed {}): difference {:.4f}, {} CI [{}, {}], "
                     "p = {:.4g}{}\n",
                     m.metric, bs.difference.replicates, c.options.seed, bs.difference.estimate, pct,
                     num_or_undefined(bs.difference.lower), num_or_undefined(bs.difference.upper), bs.test.p_value,
                     adj(m.bootstrap_p_adjusted));
    s += fmt::format("Paired permutation test of {} ({} permutations, seed {}): difference {:.4f}, p = {:.4g}{}\n",
                     m.metric, m.permutation.permutations, c.options.seed, m.permutation.observed,
                     m.permutation.p_value, adj(m.permutation_p_adjusted));
  }
  return s;
}

std::string num4(const value& v) { return v.defined() ? fmt::format("{:.4f}", v.v) : "undefined"; }

}  // namespace

std::string to_text(const model_comparison& c) {
  std::string s;
  const std::string from = c.source.empty() ? "" : c.source + ": ";
  if (c.multiclass) {
    std::string per;
    for (std::size_t k = 0; k < c.classes.size(); ++k) {
      per += fmt::format("{}{}: {}", k ? ", " : "", c.classes[k], c.class_counts[k]);
    }
    s += fmt::format("{}{} cases, {} classes ({})\n\n", from, c.n, c.classes.size(), per);
  } else {
    s += fmt::format("{}{} cases ({} positive, {} negative)\n\n", from, c.n, c.n_pos, c.n_neg);
  }
  const std::string pct = pct_of(1 - c.options.alpha);
  std::size_t width = 20;
  for (const auto& m : c.models) width = std::max(width, m.name.size());
  const std::string acc = c.scores ? fmt::format("acc@{:g}", c.options.threshold) : std::string("accuracy");
  if (c.scores) {
    s += fmt::format("{:<{}} {:>8}  {:>19}  {:>10}  {:>19}\n", "model", width, "AUC", pct + " CI (DeLong)", acc,
                     pct + " CI (Wilson)");
  } else {
    s += fmt::format("{:<{}} {:>10}  {:>19}\n", "model", width, acc, pct + " CI (Wilson)");
  }
  for (const auto& m : c.models) {
    const auto acc_ci = fmt::format("[{:.4f}, {:.4f}]", m.accuracy.lower, m.accuracy.upper);
    if (c.scores) {
      const auto ci = fmt::format("[{}, {}]", num_or_undefined(m.auc.lower), num_or_undefined(m.auc.upper));
      s += fmt::format("{:<{}} {:>8}  {:>19}  {:>10.4f}  {:>19}\n", m.name, width, num_or_undefined(m.auc.auc), ci,
                       m.accuracy.estimate, acc_ci);
    } else {
      s += fmt::format("{:<{}} {:>10.4f}  {:>19}\n", m.name, width, m.accuracy.estimate, acc_ci);
    }
  }
  for (const auto& m : c.models) {
    if (m.unknown == 0) continue;
    std::string which;
    for (const auto& u : m.unknown_classes) which += fmt::format("{}\"{}\"", which.empty() ? "" : ", ", u);
    s += fmt::format("Note: {} predicts a class the label does not have{} for {} case{}; counted as wrong.\n", m.name,
                     which.empty() ? "" : " (" + which + ")", m.unknown, m.unknown == 1 ? "" : "s");
  }
  s += "\n";
  if (c.pairs.size() == 1) {
    s += pair_text(c, c.pairs[0], false);
  } else {
    s += fmt::format("Cochran's Q test of the {} accuracies{}: Q = {:.4f}, df = {:g}, p = {:.4g}\n", c.models.size(),
                     c.scores ? fmt::format(" at threshold {:g}", c.options.threshold) : std::string(),
                     c.cochran.statistic, c.cochran.df, c.cochran.p_value);
    s += fmt::format("Pairwise tests, A - B; p-values adjusted by {} within each test\n",
                     to_string(c.options.adjust));
    for (const auto& p : c.pairs) {
      s += fmt::format("\n{} vs {}\n", c.models[p.a].name, c.models[p.b].name);
      s += pair_text(c, p, true);
    }
  }
  s += "\n" + c.verdict + "\n";
  return s;
}

std::string to_text(const sample_comparison& c) {
  std::string s;
  const std::string pct = fmt::format("{:g}%", 100 * (1 - c.options.alpha));
  s += fmt::format("Two independent samples{}: label '{}'{}\n\n",
                   c.sample_column.empty() ? "" : fmt::format(" (column '{}')", c.sample_column), c.label,
                   c.positive.empty() ? "" : fmt::format(", positive class \"{}\"", c.positive));
  std::size_t width = 12;
  for (const auto* m : {&c.a, &c.b}) width = std::max(width, m->name.size());
  const std::string err = c.scores ? fmt::format("error@{:g}", c.options.threshold) : std::string("error");
  s += fmt::format("{:<{}} {:>7}  {:>10}  {:>19}", "sample", width, "cases", err, pct + " CI (Wilson)");
  if (c.scores) s += fmt::format("  {:>8}  {:>19}", "AUC", pct + " CI (DeLong)");
  s += "\n";
  for (const auto* m : {&c.a, &c.b}) {
    s += fmt::format("{:<{}} {:>7}  {:>10.4f}  {:>19}", m->name, width, m->n, m->error_rate.estimate,
                     fmt::format("[{:.4f}, {:.4f}]", m->error_rate.lower, m->error_rate.upper));
    if (c.scores) {
      s += fmt::format("  {:>8}  {:>19}", num4(m->auc.auc), fmt::format("[{}, {}]", num4(m->auc.lower), num4(m->auc.upper)));
    }
    s += "\n";
  }
  const auto& e = c.error_difference;
  s += fmt::format("\nDifference of error rates, {} - {}: {:.4f}\n", c.a.name, c.b.name, e.difference);
  s += fmt::format("  {} CI (Wald):     [{:.4f}, {:.4f}]\n", pct, e.wald.lower, e.wald.upper);
  s += fmt::format("  {} CI (Newcombe): [{:.4f}, {:.4f}]\n", pct, e.newcombe.lower, e.newcombe.upper);
  if (e.z_test.undefined.empty()) {
    s += fmt::format("  two-proportion z test (pooled): z = {:.4f}, p = {:.4g}\n", e.z_test.test.statistic, e.z_test.test.p_value);
  } else {
    s += fmt::format("  two-proportion z test: undefined ({})\n", e.z_test.undefined);
  }
  if (e.has_fisher) s += fmt::format("  Fisher's exact test: odds ratio = {:.4g}, p = {:.4g}\n", e.fisher.statistic, e.fisher.p_value);
  if (c.has_delong) {
    s += fmt::format("\nUnpaired DeLong test, AUC {} - {}: {:.4f}, t = {:.4f}, df = {:.2f}, p = {:.4g}\n", c.a.name,
                     c.b.name, c.delong.difference, c.delong.test.statistic, c.delong.test.df, c.delong.test.p_value);
  } else if (c.scores) {
    s += fmt::format("\nUnpaired DeLong test: undefined ({})\n", c.delong_undefined);
  }
  s += "\n" + c.verdict + "\n";
  return s;
}

}  // namespace assay::stats
