// Confidence intervals for `assay report --ci`. Which method serves which number is the table in
// docs/definitions/intervals.md:
// - proportions with a count numerator and denominator (accuracy, recall, precision, ...): Wilson
//   (Wilson 1927) by default, or normal / Agresti-Coull / Clopper-Pearson (include/assay/stats/proportion.hpp);
// - ROC AUC without weights: DeLong et al. (1988) with the fast algorithm of Sun & Xu (2014), as pROC;
// - everything else (F1, MCC, kappa, macro averages, log loss, AP, regression errors): the percentile
//   bootstrap (Efron & Tibshirani 1993), stratified by actual class for classification as pROC does.
//   Metrics of the confusion matrix alone are bootstrapped exactly and fast: resampling the rows of
//   class k is a multinomial draw of row k of the matrix, so each replicate costs O(K^2), not O(n).
#include "intervals.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>
#include <random>

#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"
#include "assay/metrics/registry.hpp"
#include "assay/stats/asymptotic.hpp"
#include "assay/stats/bootstrap.hpp"
#include "assay/stats/delong.hpp"
#include "assay/stats/poisson_bootstrap.hpp"
#include "assay/stats/proportion.hpp"
#include "assay/stats/random.hpp"
#include "assay/validation/cancel.hpp"

namespace assay::detail {

namespace {

// std::binomial_distribution needs a UniformRandomBitGenerator; stats::rng is one underneath.
struct bit_source {
  using result_type = std::uint64_t;
  stats::rng& r;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() { return r.next(); }
};

// x successes of n of a metric whose automatic interval is a proportion's (its registry trait), from
// the report's confusion matrix; nullopt for every other metric.
std::optional<std::pair<double, double>> proportion_of(const report& r, const metric_info* m) {
  if (m == nullptr || m->interval != interval_method::proportion) return std::nullopt;
  proportion_counts c;
  if (r.task == task_kind::binary && m->binary_proportion != nullptr) {
    c = m->binary_proportion(binary_counts::one_vs_rest(r.cm, *r.positive));
  } else if (r.task == task_kind::multiclass && m->multiclass_proportion != nullptr) {
    c = m->multiclass_proportion(r.cm);
  } else {
    return std::nullopt;
  }
  return std::pair{c.x, c.n};
}

confidence_interval from_percentiles(std::vector<double>& reps, double level, const std::string& method) {
  auto [lo, hi] = stats::percentile_interval(reps, level);
  return {lo, hi, method};
}

// Exact multinomial bootstrap of every confusion-matrix metric at once, stratified by actual class.
std::map<std::string, confidence_interval> confusion_bootstrap(const report& r, const evaluate_options& q,
                                                               const std::vector<std::string>& names) {
  const std::size_t K = r.cm.classes(), R = q.replicates;
  const metric_kind kind = r.task == task_kind::binary ? metric_kind::binary : metric_kind::multiclass;
  std::vector<const metric_info*> infos;
  for (const auto& n : names) infos.push_back(find_metric(n, kind));
  std::vector<std::vector<double>> reps(names.size(), std::vector<double>(R));
  metric_params params;
  params.zd = r.zd;
  if (q.beta) params.beta = *q.beta;
  for (std::size_t b = 0; b < R; ++b) {
    if (b % 64 == 0 && validation::cancel_requested()) throw validation::interrupted();  // Ctrl-C
    stats::rng g(q.seed, b);
    bit_source bits{g};
    confusion_matrix cm(K);
    for (std::size_t i = 0; i < K; ++i) {
      auto left = static_cast<std::uint64_t>(std::llround(r.cm.row_sum(i)));
      double mass = r.cm.row_sum(i);
      for (std::size_t j = 0; j < K && left > 0; ++j) {
        const double p = mass > 0 ? std::min(1.0, r.cm(i, j) / mass) : 0.0;
        std::uint64_t k = left;
        if (j + 1 < K && p < 1) k = std::binomial_distribution<std::uint64_t>(left, p)(bits);
        cm.add(i, j, static_cast<double>(k));
        left -= k;
        mass -= r.cm(i, j);
      }
    }
    const binary_counts bc = r.positive ? binary_counts::one_vs_rest(cm, *r.positive) : binary_counts{};
    for (std::size_t m = 0; m < infos.size(); ++m) {
      const value v = kind == metric_kind::binary ? infos[m]->binary(bc, params) : infos[m]->multiclass(cm, params);
      reps[m][b] = v.defined() ? v.v : std::numeric_limits<double>::quiet_NaN();
    }
  }
  std::map<std::string, confidence_interval> out;
  const std::string method = fmt::format("bootstrap percentile, stratified by class, {} replicates", R);
  for (std::size_t m = 0; m < names.size(); ++m) out[names[m]] = from_percentiles(reps[m], *q.ci_level, method);
  return out;
}

std::string poisson_method(std::size_t replicates) {
  return fmt::format("poisson bootstrap percentile, {} replicates", replicates);
}

confidence_interval from_bootstrap(const stats::bootstrap_result& b, std::size_t replicates) {
  return {b.lower, b.upper, poisson_method(replicates)};
}

// The positives of a 0/1 truth counted as Kish's effective number (sum w)^2 / sum w^2 (their count
// without weights): the n of Boyd et al.'s logit interval of the average precision.
double effective_positives(std::span<const std::int32_t> y01, std::span<const double> w) {
  double sw = 0, sw2 = 0;
  for (std::size_t i = 0; i < y01.size(); ++i) {
    if (!y01[i]) continue;
    const double wi = w.empty() ? 1.0 : w[i];
    sw += wi;
    sw2 += wi * wi;
  }
  return sw2 > 0 ? sw * sw / sw2 : 0.0;
}

confidence_interval logit_ap_interval(double ap, double positives, double level) {
  const auto ci = stats::average_precision_logit_ci(ap, positives, level);
  return {ci.lower, ci.upper, "logit (Boyd et al. 2013)"};
}

confidence_interval delong_interval(std::span<const std::int32_t> y01, std::span<const double> score, double level) {
  const auto ci = stats::delong_ci(y01, score, level);
  return {ci.lower, ci.upper, "delong"};
}

// The report's headline ranking row whose automatic interval is `method` (the ROC AUC: delong; the
// average precision: logit), or nullptr.
const metric_result* ranking_row(const report& r, interval_method method) {
  for (const auto& m : r.metrics) {
    const metric_info* info = find_report_metric(m.name, r.task);
    if (info != nullptr && info->kind == metric_kind::ranking && info->interval == method) return &m;
  }
  return nullptr;
}

// The intervals of the per-class ROC and PR areas (report::by_class, one class against the rest), by
// the methods of the headline ROC AUC and average precision and with their kernels: DeLong without
// weights (else the Poisson bootstrap), the logit interval of AP, everything by the Poisson bootstrap
// under ci_method::bootstrap (the same row weights poisson1(seed, b, row) for every class). Runs after
// the headline intervals, which the binary score's classes reuse; `other_ap`, when set, is the other
// class's AP interval that the headline's Poisson pass computed alongside (the same numbers as its
// own pass below).
void attach_class_intervals(report& r, const evaluate_options& q, const report_rows& rows,
                            std::span<const std::int32_t> pos_of_row,
                            const std::optional<confidence_interval>& other_ap) {
  const double level = *q.ci_level;
  const bool everything_bootstrap = q.ci_method == ci_method::bootstrap;
  stats::bootstrap_options o;
  o.replicates = q.replicates;
  o.level = level;
  o.seed = q.seed;
  const std::size_t n = rows.y_proba.empty() ? rows.y.size() : rows.y_proba.size();
  // The Poisson bootstrap of one class's areas (truth y01, ranked by score), the ones asked for.
  auto bootstrap = [&](std::span<const std::int32_t> y01, std::span<const double> score, class_detail& d, bool roc,
                       bool ap) {
    if (!roc && !ap) return;
    stats::poisson_statistics st;
    st.rows = n;
    st.weight = rows.w;
    st.row_ids = rows.row_ids;
    st.y_true = y01;
    st.y_score = score;
    st.roc_auc = roc;
    st.average_precision = ap;
    const auto res = stats::poisson_bootstrap(st, o);
    if (roc) d.roc_auc_ci = from_bootstrap(res[0], q.replicates);
    if (ap) d.average_precision_ci = from_bootstrap(res[roc ? 1 : 0], q.replicates);
  };

  if (r.positive && r.by_class.size() == 2 && (rows.groups != nullptr || !pos_of_row.empty())) {
    // A binary score: the positive class's areas are the headline's. The other class is ranked by
    // -score: its ROC area is the same number (P(-s_neg > -s_pos) = P(s_pos > s_neg), ties counting
    // one half alike), and so is each replicate's, so its interval is the headline's too; its AP is
    // another number, with an interval of its own.
    const metric_result* auc = ranking_row(r, interval_method::delong);
    const metric_result* ap = ranking_row(r, interval_method::logit);
    class_detail& pos = r.by_class[*r.positive];
    class_detail& neg = r.by_class[1 - *r.positive];
    if (auc != nullptr && pos.roc_auc.defined()) pos.roc_auc_ci = auc->ci;
    if (ap != nullptr && pos.average_precision.defined()) pos.average_precision_ci = ap->ci;
    if (auc != nullptr && neg.roc_auc.defined()) neg.roc_auc_ci = auc->ci;
    if (!neg.average_precision.defined()) return;
    if (!everything_bootstrap) {
      double negatives = 0;
      if (rows.groups != nullptr) {
        rows.groups->each([&](double, std::uint64_t, std::uint64_t c) { negatives += static_cast<double>(c); });
      } else {
        std::vector<std::int32_t> y_neg(pos_of_row.size());
        for (std::size_t i = 0; i < y_neg.size(); ++i) y_neg[i] = 1 - pos_of_row[i];
        negatives = effective_positives(y_neg, rows.w);
      }
      neg.average_precision_ci = logit_ap_interval(neg.average_precision.v, negatives, level);
      return;
    }
    if (other_ap) {
      neg.average_precision_ci = *other_ap;
      return;
    }
    std::vector<std::int32_t> y_neg(pos_of_row.size());
    std::vector<double> minus(rows.score.size());
    for (std::size_t i = 0; i < y_neg.size(); ++i) {
      y_neg[i] = 1 - pos_of_row[i];
      minus[i] = -rows.score[i];
    }
    bootstrap(y_neg, minus, neg, false, true);
    return;
  }

  if (rows.proba == nullptr || rows.proba->binary_score || rows.groups != nullptr) return;
  // Class probabilities: class k (of the report's classes, the view's columns) against the rest, ranked
  // by its column.
  const proba_view& p = *rows.proba;
  std::vector<std::int32_t> y01(n);
  std::vector<double> column(n);
  for (std::size_t k = 0; k < r.by_class.size() && k < p.cols; ++k) {
    class_detail& d = r.by_class[k];
    const bool roc = d.roc_auc.defined(), ap = d.average_precision.defined();
    if (!roc && !ap) continue;
    for (std::size_t i = 0; i < n; ++i) {
      y01[i] = rows.y_proba[i] == static_cast<std::int32_t>(k);
      column[i] = p(i, k);
    }
    if (everything_bootstrap) {
      bootstrap(y01, column, d, roc, ap);
      continue;
    }
    if (ap) d.average_precision_ci = logit_ap_interval(d.average_precision.v, effective_positives(y01, rows.w), level);
    if (roc && rows.w.empty()) d.roc_auc_ci = delong_interval(y01, column, level);
    else bootstrap(y01, column, d, roc, false);
  }
}

// The metrics of the one-pass Poisson kernel: means of per-row losses (and their losses, in order)
// and the ranking metrics of the score.
struct poisson_pass_metrics {
  const std::vector<metric_result*>& means;
  const std::vector<std::span<const double>>& losses;
  metric_result *auc = nullptr, *ap = nullptr;
};

// Attaches the intervals of the one-pass Poisson bootstrap (stats::poisson_bootstrap) to the metrics
// of `m`. A binary score's other class (ranked by -score) has an AP of its own under the bootstrap:
// its replicates come from the same batches when the pass ranks anyway (a pass without a ranking sums
// the means in row order, so it is not given one for this), and its interval is returned; nullopt
// otherwise, and attach_class_intervals bootstraps it on its own.
std::optional<confidence_interval> attach_poisson_pass(report& r, const evaluate_options& q, const report_rows& rows,
                                                       std::span<const std::int32_t> pos_of_row,
                                                       const poisson_pass_metrics& m,
                                                       const stats::bootstrap_options& o) {
  const bool ranking = m.auc != nullptr || m.ap != nullptr;
  const bool other_ap = q.ci_method == ci_method::bootstrap && ranking && r.positive && r.by_class.size() == 2 &&
                        r.by_class[1 - *r.positive].average_precision.defined();
  stats::poisson_statistics st;
  st.rows = r.task == task_kind::regression ? rows.target.size() : rows.y.size();
  st.weight = rows.w;
  st.row_ids = rows.row_ids;
  st.means = m.losses;
  if (ranking) {
    st.y_true = pos_of_row;
    st.y_score = rows.score;
    st.roc_auc = m.auc != nullptr;
    st.average_precision = m.ap != nullptr;
    st.other_average_precision = other_ap;
  }
  const auto res = stats::poisson_bootstrap(st, o);
  std::size_t k = 0;
  for (auto* mean : m.means) mean->ci = from_bootstrap(res[k++], q.replicates);
  if (m.auc != nullptr) m.auc->ci = from_bootstrap(res[k++], q.replicates);
  if (m.ap != nullptr) m.ap->ci = from_bootstrap(res[k++], q.replicates);
  if (!other_ap) return std::nullopt;
  return from_bootstrap(res[k], q.replicates);
}

}  // namespace

stats::proportion_method proportion_method_of(ci_method m) {
  switch (m) {
    case ci_method::normal: return stats::proportion_method::normal;
    case ci_method::agresti_coull: return stats::proportion_method::agresti_coull;
    case ci_method::clopper_pearson: return stats::proportion_method::clopper_pearson;
    default: return stats::proportion_method::wilson;
  }
}

bool intervals_need_rows(const evaluate_options& q, bool weighted) {
  return q.ci_level && (weighted || q.ci_method == ci_method::bootstrap);
}

namespace {

// One attach_intervals call: its inputs, the registry entry behind each metric of the report, and
// what it derives from the rows once.
struct interval_job {
  report& r;
  const evaluate_options& q;
  const report_rows& rows;
  double level;
  bool everything_bootstrap;  // ci_method::bootstrap: every interval by the bootstrap
  metric_params params;
  std::vector<const metric_info*> info;  // info[i]: the entry of r.metrics[i] (nullptr: none, no interval)
  std::vector<std::int32_t> pos_of_row;  // 0/1 truth for ranking metrics
  std::map<std::string, std::vector<double>> per_row;

  interval_job(report& r_, const evaluate_options& q_, const report_rows& rows_)
      : r(r_), q(q_), rows(rows_), level(*q_.ci_level), everything_bootstrap(q_.ci_method == ci_method::bootstrap) {
    params.zd = r.zd;
    params.k = q.top_k;
    if (q.beta) params.beta = *q.beta;
    for (const auto& m : r.metrics) info.push_back(find_report_metric(m.name, r.task));
    if (r.positive && !rows.score.empty()) {
      pos_of_row.resize(rows.y.size());
      for (std::size_t i = 0; i < rows.y.size(); ++i) pos_of_row[i] = rows.y[i] == static_cast<std::int32_t>(*r.positive);
    }
  }

  // The per-row losses of a metric that is a mean of them (interval_method::normal_mean), computed
  // when first needed; nullptr for every other metric.
  const std::vector<double>* losses_of(const std::string& name, const metric_info* m) {
    if (m == nullptr || m->interval != interval_method::normal_mean) return nullptr;
    if (auto it = per_row.find(name); it != per_row.end()) return &it->second;
    std::vector<double> l;
    if (r.task == task_kind::regression && m->row_loss != nullptr) {
      l.resize(rows.target.size());
      for (std::size_t i = 0; i < l.size(); ++i) l[i] = m->row_loss(rows.target[i], rows.predicted[i]);
    } else if (rows.proba != nullptr && m->proba_losses != nullptr) {
      l = m->proba_losses(rows.y_proba, *rows.proba);
    } else {
      return nullptr;
    }
    return &(per_row[name] = std::move(l));
  }
};

// The confusion-matrix metrics without weights: one multinomial bootstrap serves them all (the
// proportions keep their own interval unless every interval is the bootstrap's).
std::map<std::string, confidence_interval> attach_confusion_bootstrap(const interval_job& j) {
  if (j.r.task == task_kind::regression || !j.rows.w.empty()) return {};
  const metric_kind cm_kind = j.r.task == task_kind::binary ? metric_kind::binary : metric_kind::multiclass;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < j.r.metrics.size(); ++i) {
    const metric_info* m = j.info[i];
    if (m == nullptr || m->kind != cm_kind || m->interval == interval_method::none) continue;
    if (!j.everything_bootstrap && proportion_of(j.r, m)) continue;
    names.push_back(j.r.metrics[i].name);
  }
  if (names.empty()) return {};
  return confusion_bootstrap(j.r, j.q, names);
}

// DeLong's interval of the ROC AUC from the score's tie groups (the counts of positives and negatives
// at each distinct score).
confidence_interval grouped_delong(const score_groups& groups, double level) {
  std::uint64_t n_pos = 0, n_neg = 0;
  groups.each([&](double, std::uint64_t p, std::uint64_t n) { n_pos += p, n_neg += n; });
  const auto ci = stats::delong_ci_grouped(
      n_pos, n_neg,
      [&](const std::function<void(std::uint64_t, std::uint64_t)>& f) {
        groups.each([&](double, std::uint64_t p, std::uint64_t n) { f(p, n); });
      },
      level);
  return {ci.lower, ci.upper, "delong"};
}

// The normal interval of a mean of per-row losses from the score's tie groups: each group's positive
// and negative cases have the per-row terms of their class (1 = positive, as the score's probability
// view counts them), a count of each. Visited, not held (24 bytes a distinct score read twice instead
// of 32 held).
confidence_interval grouped_mean_interval(const score_groups& groups, const metric_info& m, double level) {
  const auto ci = stats::mean_normal_ci_grouped(
      [&](const std::function<void(double, std::uint64_t)>& f) {
        groups.each([&](double score, std::uint64_t p, std::uint64_t n) {
          const proba_view pv = proba_view::scores(std::span<const double>(&score, 1));
          for (std::size_t k = 0; k < 2; ++k) f(m.proba_loss(pv, 0, k), k == 1 ? p : n);
        });
      },
      level, 0.0);
  return {ci.lower, ci.upper, "normal, from the variance of the per-row losses"};
}

// The interval of metric i by its automatic method when that method needs no resampling of rows
// (proportions, DeLong, the normal interval of mean losses, the logit interval of AP); false when
// the metric is left to the bootstrap.
bool attach_closed_form(interval_job& j, std::size_t i) {
  metric_result& m = j.r.metrics[i];
  const metric_info& info = *j.info[i];
  const score_groups* groups = j.rows.groups;
  switch (info.interval) {
    case interval_method::proportion:
      if (auto xn = proportion_of(j.r, &info); xn && xn->second > 0) {
        const auto method = proportion_method_of(j.q.ci_method);
        const auto ci = stats::proportion_ci(xn->first, xn->second, j.level, method);
        m.ci = confidence_interval{ci.lower, ci.upper, std::string(stats::to_string(method))};
        return true;
      }
      return false;
    case interval_method::delong:
      if (!j.rows.w.empty()) return false;
      m.ci = groups != nullptr ? grouped_delong(*groups, j.level) : delong_interval(j.pos_of_row, j.rows.score, j.level);
      return true;
    case interval_method::normal_mean:
      if (groups != nullptr && info.proba_loss != nullptr) {
        m.ci = grouped_mean_interval(*groups, info, j.level);
        return true;
      }
      if (const auto* l = j.losses_of(m.name, &info)) {
        const auto ci = stats::mean_normal_ci(*l, j.rows.w, j.level, 0.0);
        m.ci = confidence_interval{ci.lower, ci.upper, "normal, from the variance of the per-row losses"};
        return true;
      }
      return false;
    case interval_method::logit:
      if (groups != nullptr) {
        double sw = 0;  // without weights: the count of positives (sum w = sum w^2)
        groups->each([&](double, std::uint64_t c, std::uint64_t) { sw += static_cast<double>(c); });
        m.ci = logit_ap_interval(m.v.v, sw > 0 ? sw * sw / sw : 0.0, j.level);
        return true;
      }
      if (!j.pos_of_row.empty()) {
        // Positives counted as Kish's effective number (sum w)^2 / sum w^2 (= their count without weights).
        m.ci = logit_ap_interval(m.v.v, effective_positives(j.pos_of_row, j.rows.w), j.level);
        return true;
      }
      return false;
    default: return false;
  }
}

// The metrics left to the Poisson bootstrap: means of per-row losses and the ranking metrics go
// through its one-pass kernel, the rest through their registry functions under Poisson row weights.
struct bootstrap_plan {
  std::vector<metric_result*> fast_means;
  metric_result *fast_auc = nullptr, *fast_ap = nullptr;
  std::vector<metric_result*> generic;
  std::vector<const metric_info*> generic_info;
  [[nodiscard]] bool any() const {
    return !fast_means.empty() || fast_auc != nullptr || fast_ap != nullptr || !generic.empty();
  }
};

void plan_bootstrap(interval_job& j, std::size_t i, bootstrap_plan& plan) {
  metric_result& m = j.r.metrics[i];
  const metric_info& info = *j.info[i];
  if (j.losses_of(m.name, &info) != nullptr) {
    plan.fast_means.push_back(&m);
    return;
  }
  if (info.kind == metric_kind::ranking) {
    if (j.pos_of_row.empty()) return;
    if (info.interval == interval_method::delong) plan.fast_auc = &m;
    if (info.interval == interval_method::logit) plan.fast_ap = &m;
    return;
  }
  if (info.kind == metric_kind::probabilistic && j.rows.proba == nullptr) return;
  plan.generic.push_back(&m);
  plan.generic_info.push_back(&info);
}

// The Poisson bootstrap of metrics through their registry functions: each replicate computes them
// under its row weights.
void attach_generic_bootstrap(const interval_job& j, const bootstrap_plan& plan, const stats::bootstrap_options& o) {
  const report& r = j.r;
  const report_rows& rows = j.rows;
  const auto& infos = plan.generic_info;
  const auto stat = [&](std::span<const double> w, std::span<double> out) {
    std::optional<confusion_matrix> cm;
    for (std::size_t k = 0; k < infos.size(); ++k) {
      const metric_info* info = infos[k];
      value v;
      if (info->kind == metric_kind::regression) {
        v = info->regression(rows.target, rows.predicted, w, j.params);
      } else if (info->kind == metric_kind::probabilistic) {
        v = info->probabilistic(rows.y_proba, *rows.proba, w, j.params);
      } else {
        if (!cm) cm = confusion_matrix::from_labels(rows.y, rows.yhat, r.cm.classes(), w);
        v = info->kind == metric_kind::binary ? info->binary(binary_counts::one_vs_rest(*cm, *r.positive), j.params)
                                              : info->multiclass(*cm, j.params);
      }
      out[k] = v.defined() ? v.v : std::numeric_limits<double>::quiet_NaN();
    }
  };
  const std::size_t n = r.task == task_kind::regression ? rows.target.size() : rows.y.size();
  const auto res = stats::poisson_bootstrap_weighted(n, rows.w, rows.row_ids, infos.size(), stat, o);
  for (std::size_t k = 0; k < plan.generic.size(); ++k) plan.generic[k]->ci = from_bootstrap(res[k], j.q.replicates);
}

}  // namespace

void attach_intervals(report& r, const evaluate_options& q, const report_rows& rows) {
  r.ci_level = q.ci_level;
  if (rows.groups != nullptr && (intervals_need_rows(q, !rows.w.empty()) || !rows.y.empty())) {
    throw_usage("attach_intervals: tie groups serve only unweighted intervals that do not resample rows");
  }
  interval_job j(r, q, rows);
  const std::map<std::string, confidence_interval> cm_cis = attach_confusion_bootstrap(j);

  bootstrap_plan plan;
  for (std::size_t i = 0; i < r.metrics.size(); ++i) {
    metric_result& m = r.metrics[i];
    // Nothing to put an interval around; or a count, a chosen threshold, a row of no registry entry.
    if (!m.v.defined() || j.info[i] == nullptr || j.info[i]->interval == interval_method::none) continue;
    if (!j.everything_bootstrap && attach_closed_form(j, i)) continue;
    if (auto it = cm_cis.find(m.name); it != cm_cis.end()) {
      m.ci = it->second;
      continue;
    }
    plan_bootstrap(j, i, plan);
  }

  if (rows.groups != nullptr && plan.any()) {
    throw_usage("attach_intervals: an interval resamples rows, but only tie groups were given");
  }
  stats::bootstrap_options o;
  o.replicates = q.replicates;
  o.level = j.level;
  o.seed = q.seed;
  o.progress = q.progress;

  std::optional<confidence_interval> other_ap_ci;
  if (!plan.fast_means.empty() || plan.fast_auc != nullptr || plan.fast_ap != nullptr) {
    std::vector<std::span<const double>> means;
    for (auto* m : plan.fast_means) means.emplace_back(j.per_row.at(m->name));
    other_ap_ci =
        attach_poisson_pass(r, q, rows, j.pos_of_row, {plan.fast_means, means, plan.fast_auc, plan.fast_ap}, o);
  }
  if (!plan.generic.empty()) attach_generic_bootstrap(j, plan, o);

  if (r.task != task_kind::regression) attach_class_intervals(r, q, rows, j.pos_of_row, other_ap_ci);
}

}  // namespace assay::detail
