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
#include <random>

#include "assay/curves/pr.hpp"
#include "assay/metrics/registry.hpp"
#include "assay/stats/bootstrap.hpp"
#include "assay/stats/delong.hpp"
#include "assay/stats/proportion.hpp"
#include "assay/stats/random.hpp"
#include "assay/validation/cancel.hpp"

namespace assay::detail {

namespace {

// Row resampling costs n operations per replicate; beyond this many in all it is skipped (with the
// reason shown) rather than taking minutes.
constexpr double max_bootstrap_work = 5e8;

// std::binomial_distribution needs a UniformRandomBitGenerator; stats::rng is one underneath.
struct bit_source {
  using result_type = std::uint64_t;
  stats::rng& r;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() { return r.next(); }
};

confidence_interval no_interval(std::string why, std::string method) {
  return {value::undefined(why), value::undefined(why), std::move(method)};
}

// x successes of n for the proportion metrics of a binary or multiclass report.
std::optional<std::pair<double, double>> proportion_counts(const report& r, const std::string& name) {
  if (r.task == task_kind::binary) {
    const binary_counts c = binary_counts::one_vs_rest(r.cm, *r.positive);
    static const std::map<std::string, std::pair<double binary_counts::*, double binary_counts::*>> pairs{
        {"recall", {&binary_counts::tp, &binary_counts::fn}},      {"fnr", {&binary_counts::fn, &binary_counts::tp}},
        {"specificity", {&binary_counts::tn, &binary_counts::fp}}, {"fpr", {&binary_counts::fp, &binary_counts::tn}},
        {"precision", {&binary_counts::tp, &binary_counts::fp}},   {"npv", {&binary_counts::tn, &binary_counts::fn}}};
    if (auto it = pairs.find(name); it != pairs.end()) {
      const double x = c.*(it->second.first), other = c.*(it->second.second);
      return std::pair{x, x + other};
    }
    if (name == "accuracy") return std::pair{c.tp + c.tn, c.total()};
    if (name == "error_rate") return std::pair{c.fp + c.fn, c.total()};
    if (name == "prevalence") return std::pair{c.tp + c.fn, c.total()};
    return std::nullopt;
  }
  if (r.task == task_kind::multiclass) {
    if (name == "accuracy") return std::pair{r.cm.trace(), r.cm.total()};
    if (name == "error_rate") return std::pair{r.cm.total() - r.cm.trace(), r.cm.total()};
  }
  return std::nullopt;
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

// Row bootstrap of a statistic of the rows (weights, scores and probabilities follow their rows).
confidence_interval row_bootstrap(const report& r, const evaluate_options& q, std::span<const std::int32_t> strata,
                                  const stats::resample_statistic& stat) {
  const std::string method = fmt::format("bootstrap percentile{}, {} replicates",
                                         strata.empty() ? "" : ", stratified by class", q.replicates);
  if (static_cast<double>(r.rows) * static_cast<double>(q.replicates) > max_bootstrap_work) {
    return no_interval(fmt::format("{} rows x {} replicates is too much resampling; lower --bootstrap-replicates",
                                   r.rows, q.replicates),
                       method);
  }
  stats::bootstrap_options o;
  o.replicates = q.replicates;
  o.level = *q.ci_level;
  o.seed = q.seed;
  o.strata = strata;
  const stats::bootstrap_result b = stats::bootstrap_ci(r.rows, stat, o);
  return {b.lower, b.upper, method};
}

template <class T>
std::vector<T> gather(std::span<const T> v, std::span<const std::uint32_t> rows) {
  std::vector<T> out;
  if (v.empty()) return out;
  out.reserve(rows.size());
  for (auto i : rows) out.push_back(v[i]);
  return out;
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

void attach_intervals(report& r, const evaluate_options& q, const report_rows& rows) {
  r.ci_level = q.ci_level;
  const double level = *q.ci_level;
  const bool everything_bootstrap = q.ci_method == ci_method::bootstrap;
  metric_params params;
  params.zd = r.zd;
  params.k = q.top_k;
  if (q.beta) params.beta = *q.beta;

  // Confusion-matrix metrics without weights: one multinomial bootstrap serves them all.
  std::vector<std::string> cm_names;
  const metric_kind cm_kind = r.task == task_kind::binary ? metric_kind::binary : metric_kind::multiclass;
  for (const auto& m : r.metrics) {
    if (r.task == task_kind::regression || find_metric(m.name, cm_kind) == nullptr) continue;
    if (m.name == "tp" || m.name == "fp" || m.name == "fn" || m.name == "tn") continue;
    if (!everything_bootstrap && proportion_counts(r, m.name)) continue;
    cm_names.push_back(m.name);
  }
  std::map<std::string, confidence_interval> cm_cis;
  if (!cm_names.empty() && rows.w.empty()) cm_cis = confusion_bootstrap(r, q, cm_names);

  std::vector<std::int32_t> pos_of_row;  // 0/1 truth for ranking metrics
  if (r.positive && !rows.score.empty()) {
    pos_of_row.resize(rows.y.size());
    for (std::size_t i = 0; i < rows.y.size(); ++i) pos_of_row[i] = rows.y[i] == static_cast<std::int32_t>(*r.positive);
  }
  const std::span<const std::int32_t> strata = r.task == task_kind::regression ? std::span<const std::int32_t>{} : rows.y;

  for (auto& m : r.metrics) {
    if (!m.v.defined()) continue;  // nothing to put an interval around
    if (m.name == "tp" || m.name == "fp" || m.name == "fn" || m.name == "tn" || m.name.starts_with("best_threshold")) {
      continue;  // counts and chosen thresholds: no interval
    }
    if (!everything_bootstrap) {
      if (auto xn = proportion_counts(r, m.name); xn && xn->second > 0) {
        const auto method = proportion_method_of(q.ci_method);
        const auto ci = stats::proportion_ci(xn->first, xn->second, level, method);
        m.ci = confidence_interval{ci.lower, ci.upper, std::string(stats::to_string(method))};
        continue;
      }
      if (m.name == "roc_auc" && rows.w.empty()) {
        const auto ci = stats::delong_ci(pos_of_row, rows.score, level);
        m.ci = confidence_interval{ci.lower, ci.upper, "delong"};
        continue;
      }
    }
    if (auto it = cm_cis.find(m.name); it != cm_cis.end()) {
      m.ci = it->second;
      continue;
    }
    // Row bootstrap for the rest.
    stats::resample_statistic stat;
    if (r.task == task_kind::regression) {
      const metric_info* info = find_metric(m.name, metric_kind::regression);
      stat = [&, info](std::span<const std::uint32_t> idx) {
        const auto y = gather(rows.target, idx), p = gather(rows.predicted, idx), w = gather(rows.w, idx);
        const value v = info->regression(y, p, w, params);
        return v.defined() ? v.v : std::numeric_limits<double>::quiet_NaN();
      };
    } else if (const metric_info* info = find_metric(m.name, cm_kind); info != nullptr) {
      stat = [&, info](std::span<const std::uint32_t> idx) {
        const auto y = gather(rows.y, idx), p = gather(rows.yhat, idx);
        const auto w = gather(rows.w, idx);
        const auto cm = confusion_matrix::from_labels(y, p, r.cm.classes(), w);
        const value v = cm_kind == metric_kind::binary ? info->binary(binary_counts::one_vs_rest(cm, *r.positive), params)
                                                       : info->multiclass(cm, params);
        return v.defined() ? v.v : std::numeric_limits<double>::quiet_NaN();
      };
    } else if (const metric_info* pinfo = find_metric(m.name, metric_kind::probabilistic);
               pinfo != nullptr && rows.proba != nullptr) {
      stat = [&, pinfo](std::span<const std::uint32_t> idx) {
        const proba_view& pv = *rows.proba;
        std::vector<double> data;
        data.reserve(idx.size() * (pv.binary_score ? 1 : pv.cols));
        for (auto i : idx) {
          if (pv.binary_score) data.push_back(pv.data[i]);
          else data.insert(data.end(), pv.data + i * pv.cols, pv.data + (i + 1) * pv.cols);
        }
        const proba_view sub = pv.binary_score ? proba_view::scores(data) : proba_view::matrix(data, pv.cols);
        const auto y = gather(rows.y_proba, idx);
        const auto w = gather(rows.w, idx);
        const value v = pinfo->probabilistic(y, sub, w, params);
        return v.defined() ? v.v : std::numeric_limits<double>::quiet_NaN();
      };
    } else if ((m.name == "roc_auc" || m.name == "average_precision") && !pos_of_row.empty()) {
      const metric_info* rinfo = find_metric(m.name, metric_kind::ranking);
      stat = [&, rinfo](std::span<const std::uint32_t> idx) {
        const auto y = gather(std::span<const std::int32_t>(pos_of_row), idx);
        const auto s = gather(rows.score, idx), w = gather(rows.w, idx);
        const value v = rinfo->ranking(y, s, w, params);
        return v.defined() ? v.v : std::numeric_limits<double>::quiet_NaN();
      };
    } else {
      continue;
    }
    m.ci = row_bootstrap(r, q, strata, stat);
  }
}

}  // namespace assay::detail
