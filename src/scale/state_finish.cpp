// The mergeable evaluation state: finish() (score runs, predicted classes, regression),
// finish_with_ranking and sweep_of_scores; see state.cpp.
#include "assay/scale/state.hpp"
#include "assay/scale/ranges.hpp"
#include "bytes.hpp"
#include "state_parts.hpp"
#include "state_impl.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <type_traits>
#include <unordered_map>

#include "../report/assemble.hpp"
#include "../report/by_class.hpp"
#include "../report/intervals.hpp"
#include "../report/kept_curves.hpp"
#include "assay/curves/accumulate.hpp"
#include "assay/curves/calibration.hpp"
#include "assay/curves/roc.hpp"
#include "assay/curves/pr.hpp"
#include "assay/curves/summary.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/curves/threshold.hpp"
#include "assay/detail/exact_sum.hpp"
#include "assay/detail/radix.hpp"
#include "assay/error.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/metrics/registry.hpp"

namespace assay::scale {

using detail::header_of;
using detail::true_spellings;

namespace {

using detail::regression_sums;

// The regression sums of the state's counts: the targets and residuals of its maps (keep_runs), then
// their spreads about the means, then the median of |residual| by (|residual|, weight).
regression_sums regression_sums_of(const evaluation_state::impl& s) {
  auto weight_of = [](std::uint64_t bits) { return std::bit_cast<double>(bits); };
  using assay::detail::from_order_key;
  regression_sums t;
  for (const auto& [k, n] : s.reg_y) t.add_target(from_order_key(k.first), weight_of(k.second), n);
  for (const auto& [k, n] : s.reg_r) t.add_residual(from_order_key(k.first), weight_of(k.second), n);
  if (!t.seen) return t;
  const double mean_y = t.mean_target().v, mean_r = t.mean_residual().v;
  for (const auto& [k, n] : s.reg_y) t.spread_target(from_order_key(k.first), weight_of(k.second), n, mean_y);
  for (const auto& [k, n] : s.reg_r) t.spread_residual(from_order_key(k.first), weight_of(k.second), n, mean_r);
  // (|error|, weight) pairs of positive weight in ascending order, each row's weight added in turn.
  std::map<std::pair<double, double>, std::uint64_t> e;
  for (const auto& [k, n] : s.reg_r) {
    const double w = weight_of(k.second);
    if (w != 0) e[{std::abs(from_order_key(k.first)), w}] += n;
  }
  detail::median_walk m(t.den.value());
  for (const auto& [xw, n] : e) {
    for (std::uint64_t c = 0; c < n && !m.done; ++c) m.add(xw.first, xw.second);
    if (m.done) break;
  }
  t.median = m.result();
  return t;
}

// The regression numbers of metrics/regression.cpp from the sums, term for term.
value regression_metric(const evaluation_state::impl& s, const regression_sums& t, const metric_info& m) {
  const double total = t.den.value();
  auto mean_of = [&](double num) { return ratio(num, total, "no cases"); };
  auto sqrt_of = [](value v) {
    if (v.defined()) v.v = std::sqrt(v.v);
    return v;
  };
  if (m.mean_of.term != nullptr) {  // a mean of row terms: its sum (mean_of_terms in memory)
    const auto& sums = s.terms[row_term_index(m.mean_of)];
    if (sums.first_outside) {
      return value::undefined(
          fmt::format("{} in case {}", m.mean_of.outside(sums.y, sums.yhat), *sums.first_outside + 1));
    }
    const value mean = mean_of(sums.sum.value());
    return m.mean_of.root ? sqrt_of(mean) : mean;
  }
  switch (m.state_sum) {
    case regression_sum::mean_absolute: return mean_of(t.sum_abs.value());
    case regression_sum::mean_squared: return mean_of(t.sum_sq.value());
    case regression_sum::root_mean_squared: return sqrt_of(mean_of(t.sum_sq.value()));
    case regression_sum::max_absolute: return t.max_abs < 0 ? value::undefined("no cases") : value(t.max_abs);
    case regression_sum::r2:
    case regression_sum::explained_variance: {
      const value mean = t.mean_target();
      if (!mean) return mean;
      if (t.constant) return value::undefined("the target is constant");
      const double ss_tot = t.tot.value(), ss_res = m.state_sum == regression_sum::r2 ? t.res.value() : t.vr.value();
      if (ss_tot == 0) return value::undefined("the target is constant");
      return value(1 - ss_res / ss_tot);
    }
    case regression_sum::median_absolute: return t.seen ? value(t.median) : value::undefined("no cases");
    case regression_sum::terms: break;
  }
  throw_usage(fmt::format("evaluation_state::finish: no regression metric {}", m.name));
}


report finish_regression(const evaluation_state::impl& s, const evaluate_options& q, const regression_sums& sums) {
  const state_options& o = s.o;
  report r;
  header_of(r, s, q);
  r.task = task_kind::regression;
  r.prediction_column = o.prediction_name;
  for (const auto& m : metric_registry()) {
    if (m.kind != metric_kind::regression) continue;
    r.metrics.push_back({std::string(m.name), std::string(m.title), regression_metric(s, sums, m)});
  }
  return r;
}

}  // namespace

namespace detail {

// The report's header, the same for every kind of prediction: the options, the source, the row
// count, the label column and the total weight.
void header_of(report& r, const evaluation_state::impl& s, const evaluate_options& q) {
  const state_options& o = s.o;
  r.zd = q.zero_division;
  r.source = o.source;
  r.rows = s.rows;
  r.label_column = o.label_name;
  r.weighted = o.weighted;
  r.total_weight = o.weighted ? s.total_weight.value() : static_cast<double>(s.rows);
}

}  // namespace detail

// ---- finish ----------------------------------------------------------------------------------------

namespace detail {

namespace {

// The curves evaluate keeps for a binary score (report.cpp): ROC, PR (with pointwise bands when
// intervals are asked for), the threshold sweep, and the reliability curve of probabilities from the
// state's per-bin sums.
// The entries of a sweep of `full` entries that the kept curves read, as a sweep of their own (a
// subsequence of a sweep is a sweep, with the same counts at its thresholds): entry j of `sw` is
// entry index[j] of the full sweep (index empty: all of them, in order).
struct sparse_sweep {
  const curves::score_sweep* sw = nullptr;
  std::vector<std::size_t> index;
  std::size_t full = 0;
  curves::score_sweep owned;  // the kept entries, when not the full sweep
  // The position in `sw` of the full sweep's entry i (one of the kept).
  [[nodiscard]] std::size_t at(std::size_t i) const {
    if (index.empty()) return i;
    return static_cast<std::size_t>(std::lower_bound(index.begin(), index.end(), i) - index.begin());
  }
};

// The points curve_sample::thin keeps of a curve of n points: thinned_index(k, n, min(n, max_points)).
template <class F>
void each_kept_point(std::size_t n, F&& f) {
  const std::size_t kept = std::min(n, curve_sample::max_points);
  for (std::size_t k = 0; k < kept; ++k) f(assay::detail::thinned_index(k, n, kept));
}

// The sweep entries keep_state_curves reads, from two walks of the sweep (`walk(f)`: f(t, tp, fp)
// per distinct score, highest first) instead of the sweep: the first counts the entries and finds,
// chunk by chunk of 2^16 entries, each chunk's best thresholds by F1 and by Youden's J
// (curves::best_fbeta, best_youden: the first best of a chunk); the second keeps the entries of the
// thinned ROC curve, PR curve and threshold sweep and those candidates. The first best of the whole
// sweep is the first best of its chunk, and no earlier kept entry beats it, so the functions give the
// same best thresholds on the kept entries. Memory: O(max_points + entries / 2^16).
template <class Walk>
sparse_sweep kept_entries(double P, double N, Walk&& walk) {
  std::vector<std::size_t> need;
  std::size_t m = 0, chunk_start = 0;
  curves::score_sweep chunk;
  chunk.positives = P;
  chunk.negatives = N;
  auto flush = [&] {
    for (const curves::operating_point& op : {curves::best_fbeta(chunk, 1), curves::best_youden(chunk)}) {
      if (!op.criterion.defined() || !std::isfinite(op.threshold)) continue;
      const auto it = std::find(chunk.thresholds.begin(), chunk.thresholds.end(), op.threshold);
      if (it != chunk.thresholds.end()) need.push_back(chunk_start + static_cast<std::size_t>(it - chunk.thresholds.begin()));
    }
    chunk_start += chunk.size();
    chunk.thresholds.clear();
    chunk.tp.clear();
    chunk.fp.clear();
  };
  walk([&](double t, double tp, double fp) {
    chunk.thresholds.push_back(t);
    chunk.tp.push_back(tp);
    chunk.fp.push_back(fp);
    ++m;
    if (chunk.size() == (std::size_t{1} << 16)) flush();
  });
  flush();
  each_kept_point(m + 1, [&](std::size_t i) {  // ROC: point 0 the origin, point i entry i - 1
    if (i > 0) need.push_back(i - 1);
  });
  each_kept_point(m + 1, [&](std::size_t j) {  // PR: point j < m entry m - 1 - j, point m the closing one
    if (j < m) need.push_back(m - 1 - j);
  });
  each_kept_point(m, [&](std::size_t i) { need.push_back(i); });  // the threshold sweep
  std::sort(need.begin(), need.end());
  need.erase(std::unique(need.begin(), need.end()), need.end());
  sparse_sweep out;
  out.full = m;
  out.owned.positives = P;
  out.owned.negatives = N;
  std::size_t i = 0, p = 0;
  walk([&](double t, double tp, double fp) {
    if (p < need.size() && need[p] == i) {
      out.owned.thresholds.push_back(t);
      out.owned.tp.push_back(tp);
      out.owned.fp.push_back(fp);
      ++p;
    }
    ++i;
  });
  out.index = std::move(need);
  if (out.index.empty()) out.index.push_back(0);  // no entries: at() is never asked
  return out;
}

// keep_state_curves on the whole sweep.
sparse_sweep sparse_of(const curves::score_sweep& sw) {
  sparse_sweep out;
  out.sw = &sw;
  out.full = sw.size();
  return out;
}

// The curves evaluate keeps (report.cpp: ROC and PR thinned by curve_sample::thin, their pointwise
// bands, the threshold sweep, the reliability curve) from the kept entries of the sweep.
template <class IsPositive>
void keep_state_curves(const evaluation_state::impl& s, const evaluate_options& q, report& r,
                       const sparse_sweep& t, const IsPositive& is_pos) {
  const auto band_method = assay::detail::proportion_method_of(q.ci_method);
  const curves::score_sweep& sw = t.sw != nullptr ? *t.sw : t.owned;
  const std::size_t m = t.full;
  const auto roc = curves::roc_curve(sw);
  if (roc.undefined.empty()) {
    // Point i of the full ROC curve: the origin (i = 0) or entry i - 1.
    auto at = [&](std::size_t i) { return i == 0 ? 0 : t.at(i - 1) + 1; };
    curve_sample c;
    c.points = m + 1;
    each_kept_point(m + 1, [&](std::size_t i) {
      c.x.push_back(roc.fpr[at(i)]);
      c.y.push_back(roc.tpr[at(i)]);
    });
    r.roc = std::move(c);
    if (q.ci_level)
      assay::detail::set_proportion_band(*r.roc, [&](std::size_t i) { return std::pair{roc.tps[at(i)], sw.positives}; },
                                         *q.ci_level, band_method);
  }
  const auto pr = curves::precision_recall_curve(sw);
  if (pr.undefined.empty()) {
    // Point j of the full PR curve: entry m - 1 - j, or the closing point (j = m).
    const std::size_t ms = sw.size();
    auto at = [&](std::size_t j) { return j >= m ? ms : ms - 1 - t.at(m - 1 - j); };
    curve_sample c;
    c.points = m + 1;
    each_kept_point(m + 1, [&](std::size_t j) {
      c.x.push_back(pr.recall[at(j)]);
      c.y.push_back(pr.precision[at(j)]);
    });
    r.pr = std::move(c);
    if (q.ci_level)
      assay::detail::set_proportion_band(
          *r.pr,
          [&](std::size_t j) {
            if (j >= m) return std::pair{0.0, 0.0};
            const std::size_t k = t.at(m - 1 - j);
            return std::pair{sw.tp[k], sw.tp[k] + sw.fp[k]};
          },
          *q.ci_level, band_method);
  }
  curves::score_sweep thin;
  thin.positives = sw.positives;
  thin.negatives = sw.negatives;
  each_kept_point(m, [&](std::size_t i) {
    const std::size_t k = t.at(i);
    thin.thresholds.push_back(sw.thresholds[k]);
    thin.tp.push_back(sw.tp[k]);
    thin.fp.push_back(sw.fp[k]);
  });
  r.thresholds = assay::detail::keep_threshold_sample(thin, m, curves::best_fbeta(sw, 1), curves::best_youden(sw));
  if (!s.all_probabilities) return;
  std::vector<std::uint64_t> count(calibration_bins, 0);
  std::vector<exact_sum> w(calibration_bins), wy(calibration_bins);
  for (const auto& [k, t] : s.calib) {
    const exact_sum tw = s.o.weighted ? t.w : exact_sum(static_cast<double>(t.n));
    count[k.second] += t.n;
    w[k.second].add(tw);
    if (is_pos(k.first)) wy[k.second].add(tw);
  }
  std::vector<double> vw(calibration_bins), vy(calibration_bins), vp(calibration_bins);
  for (std::size_t b = 0; b < calibration_bins; ++b) {
    vw[b] = w[b].value(), vy[b] = wy[b].value(), vp[b] = s.calib_ws[b].value();
  }
  calibration_sample c;
  if (c.bins != calibration_bins) throw_usage("evaluation_state: the reliability curve's bins changed");
  const curves::reliability_result rr =
      curves::reliability_from_bins(curves::uniform_bin_edges(c.bins), count, vw, vy, vp);
  c.prob_pred = rr.prob_pred, c.prob_true = rr.prob_true, c.weight = rr.weight;
  c.ece = curves::expected_calibration_error(rr);
  r.calibration = std::move(c);
}

}  // namespace

namespace {

// A walk of the in-memory run lists (runs and held, as their merge), as a run source whose visitor is
// inlined.
struct list_walk {
  const evaluation_state::impl* s;
  bool descending;
  template <class G>
  void operator()(G&& g) const {
    s->for_each_run(descending, g);
  }
};

// A batched run source (run_batch_source) as a run source whose visitor is inlined into the loop over
// each batch: one std::function call per batch.
struct batch_walk {
  const run_batch_source* source;
  template <class G>
  void operator()(G&& g) const {
    (*source)([&g](std::span<const run> batch) {
      for (const run& r : batch) g(r.key, r.code, r.t);
    });
  }
};

// finish()'s refusals before anything is evaluated: options the state cannot answer, no rows, no weight.
void check_finish(const evaluation_state::impl& s, const evaluate_options& q) {
  const state_options& o = s.o;
  if (q.ci_level && (o.kind == prediction_kind::values || o.kind == prediction_kind::proba) && !o.row_ids) {
    throw_usage(fmt::format("evaluation_state::finish: ci_level is set; the intervals of {} need every row (the normal "
                            "interval of a mean loss reads each row's loss, the Poisson bootstrap of the other numbers "
                            "resamples rows): build the state with row_ids",
                            o.kind == prediction_kind::values ? "regression" : "class probabilities"));
  }
  if (q.ci_level && assay::detail::intervals_need_rows(q, o.weighted) && !o.row_ids) {
    throw_usage(fmt::format("evaluation_state::finish: ci_level with {} resamples rows (the Poisson bootstrap), which "
                            "needs every row's id: build the state with row_ids",
                            o.weighted ? "weights" : "ci_method bootstrap"));
  }
  if (o.kind == prediction_kind::scores &&
      std::bit_cast<std::uint64_t>(q.threshold) != std::bit_cast<std::uint64_t>(o.threshold)) {
    throw_usage(fmt::format("evaluation_state::finish: threshold is {}, but the state was built with threshold {}",
                            q.threshold, o.threshold));
  }
  if (q.beta && !(*q.beta > 0 && std::isfinite(*q.beta))) {
    throw_usage(fmt::format("evaluate: beta is {}; it must be a finite number > 0", *q.beta));
  }
  assay::detail::check_constraints_apply(q, o.kind == prediction_kind::scores,
                                         o.kind == prediction_kind::values  ? "regression predictions"
                                         : o.kind == prediction_kind::proba ? "class probabilities"
                                                                            : "predicted classes");
  if (s.rows == 0) throw_usage("evaluation_state::finish: no rows were added; there is nothing to evaluate");
  if (q.keep_curves && o.kind == prediction_kind::scores && !s.calibration) {
    throw_usage("evaluation_state::finish: keep_curves is set, but the state left out the reliability curve's sums "
                "(built without calibration)");
  }
  if (o.weighted && s.total_weight.is_zero()) {
    throw_data(fmt::format("{}: sample_weight: every weight is 0; there is nothing to evaluate", o.source));
  }
}

// The classes of the score or predicted-class cells, by the prediction table's rules on the union of
// the spellings (data/predictions.hpp), and class_of[code] the class of each spelling code.
class_plan classes_of_cells(const evaluation_state::impl& s, std::vector<std::int32_t>& class_of) {
  const state_options& o = s.o;
  const bool scores = o.kind == prediction_kind::scores;
  // The classes, by the prediction table's rules on the union of the spellings (data/predictions.hpp).
  std::vector<std::uint32_t> true_codes, pred_codes;
  for (const auto& [k, v] : s.cells) {
    true_codes.push_back(k.first);
    if (!scores) pred_codes.push_back(k.second);
  }
  std::sort(true_codes.begin(), true_codes.end());
  true_codes.erase(std::unique(true_codes.begin(), true_codes.end()), true_codes.end());
  std::sort(pred_codes.begin(), pred_codes.end());
  pred_codes.erase(std::unique(pred_codes.begin(), pred_codes.end()), pred_codes.end());
  class_plan t;
  if (scores) {
    t = score_classes(s, true_codes, class_of);
  } else {
    // The other slices' spellings (impl::also_true, also_pred) after those class_of reads.
    label_spellings seen;
    seen.predicted.emplace_back();
    for (auto c : true_codes) seen.truth.push_back(s.dict[c]);
    for (auto c : pred_codes) seen.predicted[0].push_back(s.dict[c]);
    seen.truth.insert(seen.truth.end(), s.also_true.begin(), s.also_true.end());
    seen.predicted[0].insert(seen.predicted[0].end(), s.also_pred.begin(), s.also_pred.end());
    t = detail::state_classes(std::move(seen), o, "predictions_from_labels");
    for (std::size_t k = 0; k < true_codes.size(); ++k) class_of[true_codes[k]] = t.truth[k];
    for (std::size_t k = 0; k < pred_codes.size(); ++k) class_of[pred_codes[k]] = t.predicted[0][k];
  }
  return t;
}

// The confusion matrix of the cells (weighted: each cell's weights summed exactly).
void add_cells(report& r, const evaluation_state::impl& s, const std::vector<std::int32_t>& class_of, std::int32_t pos) {
  const state_options& o = s.o;
  const bool scores = o.kind == prediction_kind::scores;
  const std::size_t K = r.labels.size();
  auto predicted_class = [&](std::uint32_t p) -> std::size_t {
    if (!scores) return static_cast<std::size_t>(class_of[p]);
    return static_cast<std::size_t>(p == 1 ? pos : 1 - pos);
  };

  std::vector<exact_sum> cells(K * K);
  std::vector<std::uint64_t> counts(K * K, 0);
  for (const auto& [k, v] : s.cells) {
    const std::size_t c = static_cast<std::size_t>(class_of[k.first]) * K + predicted_class(k.second);
    cells[c].add(v.w);
    counts[c] += v.n;
  }
  r.cm = confusion_matrix(K);
  for (std::size_t c = 0; c < K * K; ++c) {
    r.cm.add(c / K, c % K, o.weighted ? cells[c].value() : static_cast<double>(counts[c]));  // 0 + x: x exactly
  }
}

// Log loss and Brier score of binary scores.
void add_losses(report& r, const evaluation_state::impl& s, const std::vector<std::int32_t>& class_of, std::int32_t pos) {
  // Log loss and Brier: each spelling's sums for its class, added exactly, over the total weight.
  exact_sum ll, br;
  for (const auto& [code, l] : s.loss) {
    const int k = class_of[code] == pos ? 1 : 0;
    if (((l.have >> k) & 1U) == 0) {
      throw_usage(fmt::format("evaluation_state::finish: the loss sums of the spelling '{}' lack its class's terms "
                              "(one_class_loss; losses_to_redo names them)", s.dict[code]));
    }
    ll.add(l.log_loss[k]);
    br.add(l.brier[k]);
  }
  const double den = r.total_weight;
  for (auto [name, sum] : {std::pair{"log_loss", &ll}, std::pair{"brier_score_loss", &br}}) {
    const metric_info* mi = find_metric(name, metric_kind::probabilistic);
    value v = !s.all_probabilities ? value::undefined("the scores are not probabilities (some are outside [0, 1])")
                                   : value(sum->value() / den);
    r.metrics.push_back({std::string(name), std::string(mi->title), std::move(v)});
  }
}

// The ROC AUC and average precision of the other class of a binary report (ranked by -score).
template <class Ascending, class Walk, class Sweep, class IsPositive>
std::pair<value, value> other_class_areas(const state_options& o, const given_ranking* given,
                                          const Ascending* runs_ascending, sweep_store* store, bool have_forward,
                                          bool one_class, double P, double N, const Walk& walk, const Sweep& sweep,
                                          const IsPositive& is_pos) {
  value other_auc, other_ap;
  if (given != nullptr) {
    other_auc = given->negative.roc_auc;
    other_ap = given->negative.average_precision;
  } else if (!o.weighted && !have_forward && runs_ascending != nullptr) {
    // The complement of the sweep (curves::complement) entry by entry, lowest score first: at
    // distinct score t, threshold -t, "tp" the negatives and "fp" the positives with score <= t.
    // Counts are integers, exact in doubles, so these are complement()'s values to the bit.
    const curves::ranking_areas s2 = curves::areas_walk(N, P, [&](auto&& f) {
      std::uint64_t below_p = 0, below_n = 0, key = 0;
      bool open = false;
      auto close = [&] {
        if (open) f(-(assay::detail::from_order_key(key) + 0.0) + 0.0, static_cast<double>(below_n),
                    static_cast<double>(below_p));
      };
      (*runs_ascending)([&](std::uint64_t k, std::uint32_t code, const tally& t) {
        if (open && k != key) close();
        open = true;
        key = k;
        (is_pos(code) ? below_p : below_n) += t.n;
      });
      close();
    });
    other_auc = s2.roc_auc;
    other_ap = s2.average_precision;
  } else if (o.weighted && !have_forward && store != nullptr) {
    // The complement of the sweep without holding it: entry k (ascending scores) of the complement
    // is entry j = m - 1 - k of the sweep, (N - fp[j - 1], P - tp[j - 1]), and (N, P) for j = 0:
    // the forward running sums read backwards, one entry late. The same numbers, in the same order,
    // as curves::complement, fed to the same accumulators as roc_auc and average_precision (step).
    walk([&](double, double tp, double fp) { store->put(tp, fp); });
    curves::auc_sum auc;
    curves::ap_step_sum ap;
    bool last = true;  // the forward sweep's last entry (all rows) has no complement entry of its own
    const auto add = [&](double tp, double fp) {
      auc.add(tp, fp);
      ap.add(tp, fp, N);
    };
    store->backwards([&](double tp, double fp) {
      if (last) {
        last = false;
        return;
      }
      add(N - fp, P - tp);
    });
    add(N - 0.0, P - 0.0);
    other_auc = value(auc.auc(N, P));
    other_ap = value(ap.sum);
  } else if (o.weighted) {
    const curves::score_sweep other = curves::complement(sweep());
    other_auc = curves::roc_auc(other);
    other_ap = curves::average_precision(other);
  } else if (one_class) {
    // One class (the sweep was built for intervals or kept curves, as evaluate builds it): evaluate
    // reads the sweep functions, whose reasons for the undefined values are not areas_walk's.
    const curves::score_sweep other = curves::complement(sweep());
    other_auc = curves::roc_auc(other);
    other_ap = curves::average_precision(other);
  } else {
    const curves::score_sweep other = curves::complement(sweep());
    const curves::ranking_areas s2 = curves::areas_walk(N, P, [&](auto&& f) {
      for (std::size_t k = 0; k < other.size(); ++k) f(other.thresholds[k], other.tp[k], other.fp[k]);
    });
    other_auc = s2.roc_auc;
    other_ap = s2.average_precision;
  }
  return {other_auc, other_ap};
}

// finish_state's body, on any run source: a callable taking a visitor g(key, code, tally) (a
// run_source, or evaluation_state::finish's walks of the in-memory lists, whose visitors are then
// inlined: a std::function call per run was a fifth of rank 0's finish at 10^7 distinct scores).
template <class Descending, class Ascending>
report finish_runs(evaluation_state::impl& s, const evaluate_options& q, const Descending& runs_descending,
                   const Ascending* runs_ascending, sweep_store* store, const regression_sums* values,
                   const given_ranking* given = nullptr) {
  const state_options& o = s.o;
  check_finish(s, q);
  const bool scores = o.kind == prediction_kind::scores;
  if (o.kind == prediction_kind::values) {
    report r = finish_regression(s, q, values != nullptr ? *values : regression_sums_of(s));
    if (q.ci_level) attach_kept_intervals(s, q, r, {}, {});
    return r;
  }
  if (o.kind == prediction_kind::proba) return finish_proba(s, q);

  std::vector<std::int32_t> class_of(s.dict.size(), -1);
  const class_plan t = classes_of_cells(s, class_of);

  report r;
  header_of(r, s, q);
  r.labels = t.classes;
  r.positive = t.positive;
  r.task = t.task;
  r.prediction_column = o.prediction_name;
  const auto pos = r.positive ? static_cast<std::int32_t>(*r.positive) : -1;
  add_cells(r, s, class_of, pos);
  if (scores) r.threshold = o.threshold;
  assay::detail::add_confusion_metrics(
      r, q, assay::detail::not_counts_reason(o.weighted ? s.min_fractional_weight : std::nullopt));

  if (scores) {
    add_losses(r, s, class_of, pos);

    // The ranking metrics: walks of the runs, highest score first, with evaluate's running sums:
    // unweighted, counts; weighted (as sweep_scores), tie groups of positive weight whose two sides
    // are summed exactly, then running sums of the rounded group sums. A first walk gives the totals
    // (weighted: the running sums' end values, as the sweep's), the second the summary.
    auto is_pos = [&](std::uint32_t code) { return class_of[code] == pos; };
    auto walk = [&](auto&& f) {
      walk_runs(runs_descending, o.weighted, [](std::uint32_t) { return true; }, is_pos, f);
    };
    double P = 0, N = 0;
    if (given != nullptr) {  // computed range by range (scale/ranges.hpp): the runs are not here
      P = given->P;
      N = given->N;
    } else if (o.weighted) {
      walk([&](double, double tp, double fp) { P = tp, N = fp; });
    } else {  // counts: exact, from the cells (no walk)
      std::uint64_t np = 0, nn = 0;
      for (const auto& [k, v] : s.cells) (is_pos(k.first) ? np : nn) += v.n;
      P = static_cast<double>(np);
      N = static_cast<double>(nn);
    }
    // The sweep of the walk (distinct thresholds, running sums), built once when needed.
    auto swept = [&](curves::score_sweep& sw) {
      walk([&](double t, double tp, double fp) {
        sw.thresholds.push_back(t);
        sw.tp.push_back(tp);
        sw.fp.push_back(fp);
      });
      sw.positives = P;
      sw.negatives = N;
    };
    curves::score_sweep forward;
    bool have_forward = false;
    auto sweep = [&]() -> const curves::score_sweep& {
      if (!have_forward) swept(forward);
      have_forward = true;
      return forward;
    };
    const bool one_class = P == 0 || N == 0;
    const std::size_t first_ranking_row = r.metrics.size();
    if ((one_class && (o.weighted || q.ci_level || q.keep_curves || q.constraints.any())) || (q.ci_level && o.weighted)) {
      // One class only: evaluate's weighted path reads the sweep functions, whose reasons for the
      // undefined values differ from the streaming summary's; build the sweep as it does. With
      // intervals, kept curves or constraints evaluate reads the sweep functions too: with both classes their
      // numbers are the streaming summary's (the same running sums and accumulators; weighted
      // reports without either already take them from it), so kept curves and intervals without
      // weights stream (the out-of-core reader's cap); weighted intervals keep every row anyway.
      const curves::score_sweep& sw = sweep();
      for (const metric_info* m : ranking_rows()) r.metrics.push_back({std::string(m->name), std::string(m->title), m->from_sweep(sw)});
    } else {
      const curves::ranking_summary sum = given != nullptr ? given->positive : curves::summarize_walk(P, N, walk);
      for (const metric_info* m : ranking_rows()) r.metrics.push_back({std::string(m->name), std::string(m->title), m->from_summary(sum)});
    }
    if (q.constraints.any()) {
      // evaluate's operating points under a constraint, from the sweep; the umbrella threshold of
      // max_fpr without weights is an order statistic of the negatives' scores, expanded from the runs
      // (one double per negative row, as evaluate holds them).
      std::vector<double> negatives;
      if (q.constraints.max_fpr && !o.weighted) {
        if (runs_ascending == nullptr) {
          throw_usage("evaluation_state::finish: max_fpr's umbrella threshold needs the score runs in ascending "
                      "order, which this reader does not give");
        }
        (*runs_ascending)([&](std::uint64_t key, std::uint32_t code, const tally& t) {
          if (!is_pos(code)) negatives.insert(negatives.end(), t.n, assay::detail::from_order_key(key));
        });
      }
      // The sweep of the walk, built apart when the report has not built it: what the areas below
      // read depends on whether it was (evaluate's reasons for the undefined values of one class).
      curves::score_sweep own;
      if (!have_forward) swept(own);
      r.operating_points = curves::constrained_thresholds("evaluate", have_forward ? forward : own, q.constraints,
                                                          negatives, o.weighted);
    }
    // The per-class areas, as evaluate: the positive class's are the headline's; the other class is
    // ranked by -score, the complement of the sweep (curves::complement), read by the same kernels
    // evaluate uses (counts: the areas of the summary walk, as summarize_in_place, its thresholds
    // being read by nobody; weights: the sweep functions).
    if (r.positive && r.by_class.size() == 2) {
      const auto [other_auc, other_ap] = other_class_areas(o, given, runs_ascending, store, have_forward, one_class, P,
                                                           N, walk, sweep, is_pos);
      const std::size_t positive = *r.positive;
      r.by_class[positive].roc_auc = r.metrics[first_ranking_row].v;  // ranking_rows: ROC AUC, then AP
      r.by_class[positive].average_precision = r.metrics[first_ranking_row + 1].v;
      r.by_class[1 - positive].roc_auc = other_auc;
      r.by_class[1 - positive].average_precision = other_ap;
      assay::detail::set_ranking_averages(r);
    }
    if (q.keep_curves) {
      // With both classes and no sweep built, from the entries the curves read (two more walks),
      // not the sweep of every distinct score (the out-of-core reader's cap).
      if (have_forward || one_class) keep_state_curves(s, q, r, sparse_of(sweep()), is_pos);
      else keep_state_curves(s, q, r, kept_entries(P, N, walk), is_pos);
    }
  }
  assay::detail::add_undefined_notes(r, q);
  if (q.ci_level) {
    if constexpr (std::is_same_v<Descending, run_source> && std::is_same_v<Ascending, run_source>) {
      attach_state_intervals(s, q, r, class_of, runs_descending, runs_ascending);
    } else {
      const run_source descending = [&](const run_visitor& g) { runs_descending(g); };
      const run_source ascending = [&](const run_visitor& g) { (*runs_ascending)(g); };
      attach_state_intervals(s, q, r, class_of, descending, runs_ascending != nullptr ? &ascending : nullptr);
    }
  }
  return r;
}

}  // namespace

report finish_state(evaluation_state::impl& s, const evaluate_options& q, const run_source& runs_descending,
                    const run_source* runs_ascending, sweep_store* store, const regression_sums* values) {
  return finish_runs(s, q, runs_descending, runs_ascending, store, values);
}

report finish_state(evaluation_state::impl& s, const evaluate_options& q, const run_batch_source& runs_descending,
                    const run_batch_source* runs_ascending, sweep_store* store) {
  const batch_walk descending{&runs_descending};
  const batch_walk ascending{runs_ascending};
  return finish_runs(s, q, descending, runs_ascending != nullptr ? &ascending : nullptr, store, nullptr);
}

}  // namespace detail

namespace {

void check_runs_kept(const evaluation_state::impl& s, const char* fn) {
  if (s.o.kind == prediction_kind::scores && !s.keep_runs) {
    throw_usage(fmt::format("evaluation_state::{}: the state keeps no score runs (a ranked part's state, "
                            "scale/ranges.hpp): finish it with finish_with_ranking", fn));
  }
}

}  // namespace

report evaluation_state::finish(const evaluate_options& q) const {
  impl& s = *impl_;
  check_runs_kept(s, "finish");
  s.compact_buffer();  // the held runs stay apart: the walks read them with s.runs as their merge
  const detail::list_walk descending{&s, true}, ascending{&s, false};
  return detail::finish_runs(s, q, descending, &ascending, nullptr, nullptr);
}

report finish_with_ranking(const evaluation_state& state, const evaluate_options& q, const given_ranking& ranking) {
  // As finish(): const for the caller; the held runs may be compacted (no result changes).
  evaluation_state::impl& s = const_cast<evaluation_state::impl&>(detail::state_access::of(state));
  if (s.o.kind != prediction_kind::scores) {
    throw_usage("finish_with_ranking: the state holds no binary scores (its kind is not scores)");
  }
  if (q.ci_level || q.keep_curves || q.constraints.any()) {
    throw_usage("finish_with_ranking: intervals, kept curves and constraints read the score runs, which a state "
                "finished with given ranking metrics does not hold");
  }
  if (!(ranking.P > 0 && ranking.N > 0)) {
    throw_usage(fmt::format("finish_with_ranking: the given totals are P = {} and N = {}; both classes are needed "
                            "(with one class evaluate reads the sweep's own reasons)", ranking.P, ranking.N));
  }
  s.compact_buffer();
  const detail::list_walk descending{&s, true}, ascending{&s, false};
  return detail::finish_runs(s, q, descending, &ascending, nullptr, nullptr, &ranking);
}

evaluation_state::scores_swept evaluation_state::sweep_of_scores(bool negatives) const {
  impl& s = *impl_;
  const state_options& o = s.o;
  if (o.kind != prediction_kind::scores) {
    throw_usage("evaluation_state::sweep_of_scores: the state holds no binary scores (its kind is not scores)");
  }
  if (s.rows == 0) throw_usage("evaluation_state::sweep_of_scores: no rows were added; there is nothing to sweep");
  check_runs_kept(s, "sweep_of_scores");
  s.compact();
  // The classes, as finish() decides them (decide_classes on the union of the spellings).
  const auto [true_codes, yt] = true_spellings(s.cells, s.dict);
  label_spellings seen;
  seen.truth = yt;
  seen.score_columns = 1;
  const class_plan t = detail::state_classes(std::move(seen), o, "predictions_from_scores");
  std::vector<std::int32_t> class_of(s.dict.size(), -1);
  for (std::size_t k = 0; k < true_codes.size(); ++k) class_of[true_codes[k]] = t.truth[k];
  const auto pos = static_cast<std::int32_t>(*t.positive);
  scores_swept out;
  out.classes = t.classes;
  out.positive = *t.positive;
  out.sweep = detail::sweep_of_runs(s.runs, o.weighted, [](std::uint32_t) { return true; },
                                    [&](std::uint32_t c) { return class_of[c] == pos; });
  if (negatives) {
    for (const auto& r : s.runs) {
      if (class_of[r.code] != pos) out.negatives.insert(out.negatives.end(), r.t.n, assay::detail::from_order_key(r.key));
    }
  }
  return out;
}

}  // namespace assay::scale
