#include "assay/stats/compare_models.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "assay/error.hpp"
#include "assay/metrics/registry.hpp"
#include "assay/stats/detail/radix_sort.hpp"

namespace assay::stats {

namespace {

constexpr const char* kFn = "compare_models";

/// The registered metric `name` usable on this kind of model, or a usage error listing the choices.
const metric_info& find_comparable(const char* fn, const std::string& name, bool scores, bool multiclass) {
  const metric_info* m = nullptr;
  if (multiclass) {
    m = find_metric(name, metric_kind::multiclass);
  } else {
    m = find_metric(name, metric_kind::binary);
    if (scores && !m) m = find_metric(name, metric_kind::ranking);
    if (scores && !m) m = find_metric(name, metric_kind::probabilistic);
    if (m && (m->name == "top_k_accuracy" || m->kind == metric_kind::multiclass)) m = nullptr;
  }
  if (!m) {
    std::string choices;
    for (const auto& c : comparable_metrics(scores, multiclass)) choices += (choices.empty() ? "" : ", ") + c;
    throw_usage(fmt::format("{}: metric \"{}\" cannot compare {}; choose from: {}", fn, name,
                            scores       ? "score columns"
                            : multiclass ? "multiclass predictions"
                                         : "hard predictions",
                            choices));
  }
  return *m;
}

/// metric(y, x) of a multiclass metric: y and x are class codes in [0, codes) (x as doubles). The
/// confusion matrix is counted over every code, then reduced to the classes present in y or x
/// (scikit-learn's unique_labels(y_true, y_pred), its default class set).
value eval_multiclass(const metric_info& m, std::span<const std::int32_t> y, std::span<const double> x,
                      std::size_t codes, const metric_params& params) {
  thread_local std::vector<double> cells, margin;
  thread_local std::vector<std::size_t> present;
  cells.assign(codes * codes, 0.0);
  for (std::size_t i = 0; i < y.size(); ++i) {
    cells[static_cast<std::size_t>(y[i]) * codes + static_cast<std::size_t>(x[i])] += 1;
  }
  margin.assign(codes, 0.0);
  for (std::size_t a = 0; a < codes; ++a) {
    for (std::size_t b = 0; b < codes; ++b) {
      margin[a] += cells[a * codes + b];
      margin[b] += cells[a * codes + b];
    }
  }
  present.clear();
  for (std::size_t a = 0; a < codes; ++a) {
    if (margin[a] > 0) present.push_back(a);
  }
  confusion_matrix cm(present.size());
  for (std::size_t a = 0; a < present.size(); ++a) {
    for (std::size_t b = 0; b < present.size(); ++b) cm.add(a, b, cells[present[a] * codes + present[b]]);
  }
  return m.multiclass(cm, params);
}

/// metric(y, x) where x is the model's 0/1 prediction (binary metrics), its class code in
/// [0, codes) (multiclass metrics) or its score (ranking and probabilistic metrics); NaN when the
/// metric is undefined. The one kernel behind both procedures.
double eval_metric(const metric_info& m, std::span<const std::int32_t> y, std::span<const double> x,
                   std::size_t codes) {
  const metric_params params;
  value v;
  switch (m.kind) {
    case metric_kind::binary: {
      binary_counts c;
      for (std::size_t i = 0; i < y.size(); ++i) {
        const bool p = x[i] == 1;
        if (y[i] == 1) (p ? c.tp : c.fn) += 1;
        else (p ? c.fp : c.tn) += 1;
      }
      v = m.binary(c, params);
      break;
    }
    case metric_kind::multiclass: v = eval_multiclass(m, y, x, codes, params); break;
    case metric_kind::ranking: v = m.ranking(y, x, {}, params); break;
    case metric_kind::probabilistic: v = m.probabilistic(y, proba_view::scores(x), {}, params); break;
    default: break;
  }
  return v.defined() ? v.v : std::numeric_limits<double>::quiet_NaN();
}

/// The same on a resample given as row indices (gathered into per-thread buffers).
double eval_rows(const metric_info& m, std::span<const std::int32_t> y, std::span<const double> x,
                 std::span<const std::uint32_t> rows, std::size_t codes) {
  thread_local std::vector<std::int32_t> yb;
  thread_local std::vector<double> xb;
  yb.resize(rows.size());
  xb.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    yb[i] = y[rows[i]];
    xb[i] = x[rows[i]];
  }
  return eval_metric(m, yb, xb, codes);
}

/// The midranks of x divided by n, in (0, 1]: a strictly increasing function of the scores (ties
/// stay ties), so every ranking metric is unchanged, and two models' values are on one scale.
std::vector<double> normalized_midranks(std::span<const double> x) {
  const auto sorted = detail::sort_by_score(x);
  std::vector<double> r(x.size());
  const double n = static_cast<double>(x.size());
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j < sorted.size() && sorted[j].score == sorted[i].score) ++j;
    const double mid = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t t = i; t < j; ++t) r[sorted[t].index] = mid / n;
    i = j;
  }
  return r;
}

void check_models(const char* fn, std::span<const std::int32_t> y, const std::vector<model_input>& models,
                  bool& scores, bool multiclass) {
  if (models.size() < 2) throw_usage(fmt::format("{}: give at least two models; got {}", fn, models.size()));
  scores = !models[0].score.empty();
  for (const auto& m : models) {
    const bool has_s = !m.score.empty(), has_p = !m.pred.empty();
    if (has_s && has_p) {
      throw_usage(fmt::format("{}: model '{}' has both scores and predictions; give one", fn, m.name));
    }
    if (has_s != scores || (!has_s && !has_p)) {
      throw_usage(fmt::format("{}: model '{}' has {} but model '{}' has {}; compare models of one kind", fn, m.name,
                              has_s ? "scores" : has_p ? "predictions" : "neither scores nor predictions",
                              models[0].name, scores ? "scores" : "predictions"));
    }
    const std::size_t len = scores ? m.score.size() : m.pred.size();
    if (len != y.size()) {
      throw_usage(fmt::format("{}: model '{}' has {} {} but y_true has {} cases", fn, m.name, len,
                              scores ? "scores" : "predictions", y.size()));
    }
    for (std::size_t i = 0; i < len; ++i) {
      if (scores && !std::isfinite(m.score[i])) {
        throw_usage(fmt::format("{}: model '{}': score[{}] must be finite; got {}", fn, m.name, i, m.score[i]));
      }
      if (!scores && !multiclass && m.pred[i] != 0 && m.pred[i] != 1) {
        throw_usage(fmt::format("{}: model '{}': pred[{}] must be 0 or 1; got {}", fn, m.name, i, m.pred[i]));
      }
    }
  }
}

std::string pvalue(double p) { return fmt::format("{:.3g}", p); }

std::string adjusted_phrase(const model_comparison& c) {
  return c.options.adjust == p_adjust_method::none
             ? std::string("without correction for multiple comparisons")
             : fmt::format("after {} correction over the {} pairs",
                           c.options.adjust == p_adjust_method::holm         ? "Holm's"
                           : c.options.adjust == p_adjust_method::bonferroni ? "Bonferroni's"
                                                                             : "Benjamini-Hochberg's",
                           c.pairs.size());
}

std::string verdict_two(const model_comparison& c) {
  const auto& pr = c.pairs[0];
  const std::string& a = c.models[0].name;
  const std::string& b = c.models[1].name;
  const std::string al = fmt::format("{:g}", c.options.alpha);
  std::string v;
  if (pr.has_delong) {
    const auto& d = pr.delong;
    if (d.test.p_value < c.options.alpha) {
      const bool a_better = d.difference > 0;
      v = fmt::format("The AUCs differ at alpha = {}: {} ranks cases better than {} (DeLong p = {}).", al,
                      a_better ? a : b, a_better ? b : a, pvalue(d.test.p_value));
    } else {
      v = fmt::format("No significant difference in AUC at alpha = {} (DeLong p = {}).", al, pvalue(d.test.p_value));
    }
    v += " ";
  }
  const std::string where = c.scores ? fmt::format("At threshold {:g}, ", c.options.threshold) : std::string();
  const std::string where_cap = c.scores ? where : std::string("With the given predictions, ");
  if (pr.mcnemar.p_value < c.options.alpha) {
    const bool a_better = pr.counts.n01 > pr.counts.n10;
    v += fmt::format("{}{} makes fewer errors than {} (McNemar exact p = {}).", where_cap, a_better ? a : b,
                     a_better ? b : a, pvalue(pr.mcnemar.p_value));
  } else {
    v += fmt::format("{}the error rates do not differ significantly (McNemar exact p = {}).", where_cap,
                     pvalue(pr.mcnemar.p_value));
  }
  for (const auto& mc : pr.metrics) {
    const auto& pm = mc.permutation;
    if (pm.p_value < c.options.alpha) {
      const bool a_better = (pm.observed > 0) == mc.higher_is_better;
      v += fmt::format(" {} differs at alpha = {}: {} is better (difference A - B = {:.4g}, permutation p = {}).",
                       mc.metric, al, a_better ? a : b, pm.observed, pvalue(pm.p_value));
    } else {
      v += fmt::format(" {}: no significant difference (permutation p = {}, paired bootstrap p = {}).", mc.metric,
                       pvalue(pm.p_value), pvalue(mc.bootstrap.test.p_value));
    }
  }
  return v;
}

/// The pairs of one family whose adjusted p is below alpha, as "A vs B (A better, p = ...)".
template <class Adjusted, class ABetter>
std::string significant_pairs(const model_comparison& c, Adjusted adjusted, ABetter a_better) {
  std::string list;
  for (const auto& pr : c.pairs) {
    const double p = adjusted(pr);
    if (!(p < c.options.alpha)) continue;
    const std::string& a = c.models[pr.a].name;
    const std::string& b = c.models[pr.b].name;
    list += fmt::format("{}{} vs {} ({} better, adjusted p = {})", list.empty() ? "" : "; ", a, b,
                        a_better(pr) ? a : b, pvalue(p));
  }
  return list;
}

std::string verdict_many(const model_comparison& c) {
  const std::string al = fmt::format("{:g}", c.options.alpha);
  const std::string adj = adjusted_phrase(c);
  std::string v;
  if (c.scores) {
    const auto list = significant_pairs(
        c, [](const pair_comparison& p) { return p.delong_p_adjusted; },
        [](const pair_comparison& p) { return p.delong.difference > 0; });
    v = list.empty() ? fmt::format("No pair of AUCs differs significantly at alpha = {} {} (DeLong).", al, adj)
                     : fmt::format("AUCs that differ at alpha = {} {} (DeLong): {}.", al, adj, list);
    v += " ";
  }
  const std::string where = c.scores ? fmt::format(" at threshold {:g}", c.options.threshold) : std::string();
  if (c.cochran.p_value < c.options.alpha) {
    v += fmt::format("The {} accuracies{} differ (Cochran's Q p = {})", c.models.size(), where, pvalue(c.cochran.p_value));
    const auto list = significant_pairs(
        c, [](const pair_comparison& p) { return p.mcnemar_p_adjusted; },
        [](const pair_comparison& p) { return p.counts.n01 > p.counts.n10; });
    v += list.empty() ? fmt::format("; no single pair differs {} (McNemar).", adj)
                      : fmt::format("; pairs that differ {} (McNemar): {}.", adj, list);
  } else {
    v += fmt::format("No significant difference among the {} accuracies{} (Cochran's Q p = {}).", c.models.size(),
                     where, pvalue(c.cochran.p_value));
  }
  for (std::size_t k = 0; k < c.options.metrics.size(); ++k) {
    const bool hib = c.pairs[0].metrics[k].higher_is_better;
    const auto list = significant_pairs(
        c, [k](const pair_comparison& p) { return p.metrics[k].permutation_p_adjusted; },
        [k, hib](const pair_comparison& p) { return (p.metrics[k].permutation.observed > 0) == hib; });
    v += list.empty() ? fmt::format(" {}: no pair differs significantly {} (permutation test).", c.options.metrics[k], adj)
                      : fmt::format(" {}: pairs that differ {} (permutation test): {}.", c.options.metrics[k], adj, list);
  }
  return v;
}

}  // namespace

std::vector<std::string> comparable_metrics(bool scores, bool multiclass) {
  std::vector<std::string> out;
  for (const auto& m : metric_registry()) {
    const bool ok = multiclass ? !scores && m.kind == metric_kind::multiclass
                               : m.kind == metric_kind::binary ||
                                     (scores && (m.kind == metric_kind::ranking ||
                                                 (m.kind == metric_kind::probabilistic && m.name != "top_k_accuracy")));
    if (ok) out.emplace_back(m.name);
  }
  return out;
}

namespace {

void check_options(const char* fn, const compare_options& opts) {
  if (!(opts.alpha > 0 && opts.alpha < 1)) {
    throw_usage(fmt::format("{}: alpha must be in (0, 1); got {}", fn, opts.alpha));
  }
  if (!std::isfinite(opts.threshold)) {
    throw_usage(fmt::format("{}: threshold must be finite; got {}", fn, opts.threshold));
  }
  if (opts.replicates < 1) throw_usage(fmt::format("{}: replicates must be >= 1; got 0", fn));
  if (opts.permutations < 1) throw_usage(fmt::format("{}: permutations must be >= 1; got 0", fn));
}

/// Everything after the input checks, for both tasks. `pred` holds each model's hard predictions
/// (binary: 0/1, given or score >= threshold; multiclass: class codes in [0, codes)); a case is right
/// when its prediction equals y_true.
model_comparison run_comparison(const char* fn, std::span<const std::int32_t> y_true,
                          const std::vector<model_input>& models, const compare_options& opts, model_comparison c,
                          const std::vector<std::vector<std::int32_t>>& pred, std::size_t codes) {
  const double level = 1 - opts.alpha;
  const std::size_t k = models.size();
  std::vector<const metric_info*> metric_infos;
  for (const auto& name : opts.metrics) metric_infos.push_back(&find_comparable(fn, name, c.scores, c.multiclass));

  // Per model the hard predictions as doubles: the input of binary and multiclass metrics (the
  // scores are the input of the others).
  std::vector<std::vector<double>> pred_d(k);
  for (std::size_t j = 0; j < k; ++j) pred_d[j].assign(pred[j].begin(), pred[j].end());
  auto metric_input = [&](const metric_info& m, std::size_t j) -> std::span<const double> {
    return m.kind == metric_kind::binary || m.kind == metric_kind::multiclass ? std::span<const double>(pred_d[j])
                                                                              : models[j].score;
  };
  for (const auto* m : metric_infos) {
    for (std::size_t j = 0; j < k; ++j) {
      if (m->kind == metric_kind::probabilistic) {
        for (std::size_t i = 0; i < c.n; ++i) {
          const double s = models[j].score[i];
          if (!(s >= 0 && s <= 1)) {
            throw_usage(fmt::format("{}: metric \"{}\" needs probabilities in [0, 1]; model '{}' has score[{}] = {}",
                                    fn, m->name, models[j].name, i, s));
          }
        }
      }
      const double v = eval_metric(*m, y_true, metric_input(*m, j), codes);
      if (std::isnan(v)) {
        throw_data(fmt::format("{}: metric \"{}\" is undefined for model '{}' on these cases", fn, m->name,
                               models[j].name));
      }
    }
  }

  for (std::size_t j = 0; j < k; ++j) {
    model_summary s;
    s.name = models[j].name;
    if (c.scores) {
      s.has_auc = true;
      s.auc = delong_ci(y_true, models[j].score, level);
    }
    for (std::size_t i = 0; i < c.n; ++i) {
      s.correct += pred[j][i] == y_true[i];
      if (c.multiclass) s.unknown += static_cast<std::size_t>(pred[j][i]) >= c.classes.size();
    }
    s.accuracy = proportion_ci(static_cast<double>(s.correct), static_cast<double>(c.n), level,
                               proportion_method::wilson);
    c.models.push_back(std::move(s));
  }

  std::vector<double> y_d(y_true.begin(), y_true.end());
  bootstrap_options bo;
  bo.replicates = opts.replicates;
  bo.level = level;
  bo.seed = opts.seed;
  bo.threads = opts.threads;
  bo.strata = y_true;  // stratified by class: every replicate keeps the number of cases of each class
  permutation_options po;
  po.permutations = opts.permutations;
  po.seed = opts.seed;
  po.threads = opts.threads;
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = a + 1; b < k; ++b) {
      pair_comparison p;
      p.a = a;
      p.b = b;
      if (c.scores) {
        p.has_delong = true;
        p.delong = delong_paired_test(y_true, models[a].score, models[b].score, alternative::two_sided, level);
      }
      p.counts = count_discordant(y_true, pred[a], pred[b]);
      p.mcnemar = mcnemar(p.counts.n01, p.counts.n10, mcnemar_method::exact);
      for (const auto* m : metric_infos) {
        metric_comparison mc;
        mc.metric = std::string(m->name);
        mc.higher_is_better = m->traits.higher_is_better;
        const auto xa = metric_input(*m, a), xb = metric_input(*m, b);
        if (m->name == "roc_auc") {  // one sort per model for all replicates; the same draws
          mc.bootstrap = paired_bootstrap_auc(y_true, xa, xb, bo);
        } else {
          mc.bootstrap = paired_bootstrap(
              c.n, [&](std::span<const std::uint32_t> rows) { return eval_rows(*m, y_true, xa, rows, codes); },
              [&](std::span<const std::uint32_t> rows) { return eval_rows(*m, y_true, xb, rows, codes); }, bo);
        }
        // Swapping raw scores between models on different scales would be meaningless: a ranking
        // metric swaps the models' normalized midranks instead (the same observed metric values).
        std::vector<double> ra, rb;
        if (m->kind == metric_kind::ranking) {
          ra = normalized_midranks(xa);
          rb = normalized_midranks(xb);
        }
        const bool ranks = m->kind == metric_kind::ranking;
        mc.permutation = paired_permutation_test(
            y_d, ranks ? std::span<const double>(ra) : xa, ranks ? std::span<const double>(rb) : xb,
            [m, codes](std::span<const double> y, std::span<const double> x) {
              thread_local std::vector<std::int32_t> yi;
              yi.assign(y.begin(), y.end());
              return eval_metric(*m, yi, x, codes);
            },
            po);
        p.metrics.push_back(std::move(mc));
      }
      c.pairs.push_back(std::move(p));
    }
  }

  // Each family of pairwise tests is corrected on its own.
  auto adjust = [&](auto get, auto set) {
    std::vector<double> raw;
    for (const auto& p : c.pairs) raw.push_back(get(p));
    const auto adj = adjust_p_values(raw, opts.adjust);
    for (std::size_t i = 0; i < c.pairs.size(); ++i) set(c.pairs[i], adj[i]);
  };
  if (c.scores) {
    adjust([](const pair_comparison& p) { return p.delong.test.p_value; },
           [](pair_comparison& p, double v) { p.delong_p_adjusted = v; });
  }
  adjust([](const pair_comparison& p) { return p.mcnemar.p_value; },
         [](pair_comparison& p, double v) { p.mcnemar_p_adjusted = v; });
  for (std::size_t m = 0; m < metric_infos.size(); ++m) {
    adjust([m](const pair_comparison& p) { return p.metrics[m].bootstrap.test.p_value; },
           [m](pair_comparison& p, double v) { p.metrics[m].bootstrap_p_adjusted = v; });
    adjust([m](const pair_comparison& p) { return p.metrics[m].permutation.p_value; },
           [m](pair_comparison& p, double v) { p.metrics[m].permutation_p_adjusted = v; });
  }
  if (k > 2) {
    std::vector<std::int32_t> success(c.n * k);
    for (std::size_t i = 0; i < c.n; ++i) {
      for (std::size_t j = 0; j < k; ++j) success[i * k + j] = pred[j][i] == y_true[i] ? 1 : 0;
    }
    c.has_cochran = true;
    c.cochran = cochrans_q(success, c.n, k);
  }
  c.verdict = k == 2 ? verdict_two(c) : verdict_many(c);
  return c;
}

}  // namespace

model_comparison compare_models(std::span<const std::int32_t> y_true, const std::vector<model_input>& models,
                          const compare_options& opts) {
  check_options(kFn, opts);
  model_comparison c;
  check_models(kFn, y_true, models, c.scores, false);
  c.options = opts;
  c.n = y_true.size();
  for (std::size_t i = 0; i < c.n; ++i) {
    if (y_true[i] != 0 && y_true[i] != 1) {
      throw_usage(fmt::format("{}: y_true[{}] must be 0 or 1; got {}", kFn, i, y_true[i]));
    }
    (y_true[i] == 1 ? c.n_pos : c.n_neg) += 1;
  }
  if (c.n_pos < 2 || c.n_neg < 2) {
    throw_data(fmt::format("{}: y_true has {} positive and {} negative cases; a comparison needs at least 2 of each",
                           kFn, c.n_pos, c.n_neg));
  }
  // The 0/1 predictions: given, or score >= threshold.
  std::vector<std::vector<std::int32_t>> pred(models.size(), std::vector<std::int32_t>(c.n));
  for (std::size_t j = 0; j < models.size(); ++j) {
    for (std::size_t i = 0; i < c.n; ++i) {
      pred[j][i] = c.scores ? (models[j].score[i] >= opts.threshold ? 1 : 0) : models[j].pred[i];
    }
  }
  return run_comparison(kFn, y_true, models, opts, std::move(c), pred, 2);
}

model_comparison compare_models_multiclass(std::span<const std::int32_t> y_true, std::size_t n_classes,
                                     const std::vector<model_input>& models, const compare_options& opts) {
  constexpr const char* fn = "compare_models_multiclass";
  check_options(fn, opts);
  if (n_classes < 2 || n_classes > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw_usage(fmt::format("{}: n_classes must be >= 2; got {}", fn, n_classes));
  }
  model_comparison c;
  check_models(fn, y_true, models, c.scores, true);
  if (c.scores) {
    throw_usage(fmt::format("{}: model '{}' has scores; a multiclass comparison takes hard predictions", fn,
                            models[0].name));
  }
  c.multiclass = true;
  c.options = opts;
  c.n = y_true.size();
  c.class_counts.assign(n_classes, 0);
  for (std::size_t i = 0; i < c.n; ++i) {
    if (y_true[i] < 0 || static_cast<std::size_t>(y_true[i]) >= n_classes) {
      throw_usage(fmt::format("{}: y_true[{}] must be a class index in [0, {}); got {}", fn, i, n_classes, y_true[i]));
    }
    ++c.class_counts[static_cast<std::size_t>(y_true[i])];
  }
  for (std::size_t k = 0; k < n_classes; ++k) {
    if (c.class_counts[k] == 0) {
      throw_usage(fmt::format("{}: class {} has no case in y_true; every one of the {} classes needs one", fn, k,
                              n_classes));
    }
    c.classes.push_back(std::to_string(k));
  }
  // Predicted values that are not classes of the label get the codes n_classes, n_classes + 1, ...
  // in increasing order of value: distinct values stay distinct classes for the metrics.
  std::vector<std::int32_t> unknown;
  for (const auto& m : models) {
    for (const std::int32_t v : m.pred) {
      if (v < 0 || static_cast<std::size_t>(v) >= n_classes) unknown.push_back(v);
    }
  }
  std::sort(unknown.begin(), unknown.end());
  unknown.erase(std::unique(unknown.begin(), unknown.end()), unknown.end());
  std::vector<std::vector<std::int32_t>> pred(models.size(), std::vector<std::int32_t>(c.n));
  for (std::size_t j = 0; j < models.size(); ++j) {
    for (std::size_t i = 0; i < c.n; ++i) {
      const std::int32_t v = models[j].pred[i];
      pred[j][i] = v >= 0 && static_cast<std::size_t>(v) < n_classes
                       ? v
                       : static_cast<std::int32_t>(
                             n_classes + static_cast<std::size_t>(std::lower_bound(unknown.begin(), unknown.end(), v) -
                                                                  unknown.begin()));
    }
  }
  return run_comparison(fn, y_true, models, opts, std::move(c), pred, n_classes + unknown.size());
}
model_comparison compare_models(std::span<const std::int32_t> y_true, std::span<const double> score_a,
                          std::span<const double> score_b, std::string name_a, std::string name_b,
                          const compare_options& opts) {
  return compare_models(y_true, {{std::move(name_a), score_a, {}}, {std::move(name_b), score_b, {}}}, opts);
}

}  // namespace assay::stats
