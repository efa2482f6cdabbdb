#include "assay/stats/compare.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "assay/error.hpp"

namespace assay::stats {

comparison compare_models(std::span<const std::int32_t> y_true, std::span<const double> score_a,
                          std::span<const double> score_b, std::string name_a, std::string name_b,
                          const compare_options& opts) {
  if (!(opts.alpha > 0 && opts.alpha < 1)) {
    throw_usage(fmt::format("compare_models: alpha must be in (0, 1); got {}", opts.alpha));
  }
  if (!std::isfinite(opts.threshold)) {
    throw_usage(fmt::format("compare_models: threshold must be finite; got {}", opts.threshold));
  }
  const double level = 1 - opts.alpha;
  comparison c;
  c.options = opts;
  c.n = y_true.size();
  c.delong = delong_paired_test(y_true, score_a, score_b, alternative::two_sided, level);
  for (auto v : y_true) (v == 1 ? c.n_pos : c.n_neg) += 1;
  c.a.name = std::move(name_a);
  c.b.name = std::move(name_b);
  c.a.auc = delong_ci(y_true, score_a, level);
  c.b.auc = delong_ci(y_true, score_b, level);
  std::vector<std::int32_t> pa(c.n), pb(c.n);
  for (std::size_t i = 0; i < c.n; ++i) {
    pa[i] = score_a[i] >= opts.threshold ? 1 : 0;
    pb[i] = score_b[i] >= opts.threshold ? 1 : 0;
  }
  c.counts = count_discordant(y_true, pa, pb);
  c.a.accuracy = static_cast<double>(c.counts.n11 + c.counts.n01) / static_cast<double>(c.n);
  c.b.accuracy = static_cast<double>(c.counts.n11 + c.counts.n10) / static_cast<double>(c.n);
  c.mcnemar = mcnemar(c.counts.n01, c.counts.n10, mcnemar_method::exact);

  const std::string pct = fmt::format("{:g}", opts.alpha);
  const auto& d = c.delong;
  if (d.test.p_value < opts.alpha) {
    const bool a_better = d.difference > 0;
    c.verdict = fmt::format("The AUCs differ at alpha = {}: {} ranks cases better than {} (DeLong p = {:.3g}).", pct,
                            a_better ? c.a.name : c.b.name, a_better ? c.b.name : c.a.name, d.test.p_value);
  } else {
    c.verdict = fmt::format("No significant difference in AUC at alpha = {} (DeLong p = {:.3g}).", pct, d.test.p_value);
  }
  if (c.mcnemar.p_value < opts.alpha) {
    const bool a_better = c.counts.n01 > c.counts.n10;
    c.verdict += fmt::format(" At threshold {:g}, {} makes fewer errors than {} (McNemar exact p = {:.3g}).",
                             opts.threshold, a_better ? c.a.name : c.b.name, a_better ? c.b.name : c.a.name,
                             c.mcnemar.p_value);
  } else {
    c.verdict += fmt::format(" At threshold {:g}, the error rates do not differ significantly (McNemar exact p = {:.3g}).",
                             opts.threshold, c.mcnemar.p_value);
  }
  return c;
}

namespace {
std::string num_or_undefined(const value& v) { return v.defined() ? fmt::format("{:.4f}", v.v) : "undefined"; }
nlohmann::json json_value(const value& v) { return v.defined() ? nlohmann::json(v.v) : nlohmann::json(nullptr); }
}  // namespace

std::string to_text(const comparison& c) {
  std::string s;
  s += fmt::format("{}{} cases ({} positive, {} negative)\n\n", c.source.empty() ? "" : c.source + ": ", c.n, c.n_pos,
                   c.n_neg);
  const int pct = static_cast<int>(std::lround((1 - c.options.alpha) * 100));
  s += fmt::format("{:<20} {:>8}  {:>19}  {:>10}\n", "model", "AUC", fmt::format("{}% CI (DeLong)", pct),
                   fmt::format("acc@{:g}", c.options.threshold));
  for (const auto* m : {&c.a, &c.b}) {
    const auto ci = fmt::format("[{}, {}]", num_or_undefined(m->auc.lower), num_or_undefined(m->auc.upper));
    s += fmt::format("{:<20} {:>8}  {:>19}  {:>10.4f}\n", m->name, num_or_undefined(m->auc.auc), ci, m->accuracy);
  }
  const auto& d = c.delong;
  s += fmt::format("\nDeLong test (paired, two-sided): AUC difference {:.4f}, {}% CI [{}, {}], z = {:.4f}, p = {:.4g}\n",
                   d.difference, pct, num_or_undefined(d.diff_lower), num_or_undefined(d.diff_upper),
                   d.test.statistic, d.test.p_value);
  s += fmt::format("McNemar test (exact binomial) at threshold {:g}: {} right / {} wrong on {} cases, the reverse on "
                   "{}; p = {:.4g}\n",
                   c.options.threshold, c.a.name, c.b.name, c.counts.n01, c.counts.n10, c.mcnemar.p_value);
  s += "\n" + c.verdict + "\n";
  return s;
}

std::string to_json(const comparison& c) {
  nlohmann::json j;
  j["source"] = c.source;
  j["n"] = c.n;
  j["n_positive"] = c.n_pos;
  j["n_negative"] = c.n_neg;
  j["alpha"] = c.options.alpha;
  j["threshold"] = c.options.threshold;
  for (const auto* m : {&c.a, &c.b}) {
    j["models"].push_back({{"name", m->name},
                           {"auc", json_value(m->auc.auc)},
                           {"auc_ci", {json_value(m->auc.lower), json_value(m->auc.upper)}},
                           {"auc_ci_method", "delong"},
                           {"accuracy", m->accuracy}});
  }
  const auto& d = c.delong;
  j["delong"] = {{"method", d.test.method},
                 {"auc_difference", d.difference},
                 {"z", d.test.statistic},
                 {"p_value", d.test.p_value},
                 {"diff_ci", {json_value(d.diff_lower), json_value(d.diff_upper)}},
                 {"level", d.level}};
  j["mcnemar"] = {{"method", "exact"},
                  {"statistic", c.mcnemar.statistic},
                  {"p_value", c.mcnemar.p_value},
                  {"n01", c.counts.n01},
                  {"n10", c.counts.n10}};
  j["verdict"] = c.verdict;
  return j.dump(2) + "\n";
}

}  // namespace assay::stats
