// The mergeable evaluation state of class probabilities: its update, merge and finish; see state.cpp.
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


// ---- class probabilities ------------------------------------------------------------------------------

namespace {


// The column order of the second view (docs/scaling.md, "Class probabilities"): the columns sorted as
// classes by their names, by the class rules (decide_classes: numeric names unified and in numeric
// order when every name is a number, else byte order). Empty when that is the order as given or the
// names are not distinct classes.
std::vector<std::uint32_t> sorted_column_order(const state_options& o) {
  const std::size_t K = o.proba_names.size();
  label_spellings seen;
  seen.truth = o.proba_names;
  seen.proba_columns = o.proba_names;
  class_plan t;
  try {
    t = decide_classes(std::move(seen), {std::nullopt, task_kind::multiclass, class_set::truth_and_predictions}, {});
  } catch (const error&) {
    return {};
  }
  if (t.proba_column.size() != K) return {};
  std::vector<std::uint32_t> order(K);
  bool identity = true;
  for (std::size_t c = 0; c < K; ++c) {
    order[c] = static_cast<std::uint32_t>(t.proba_column[c]);
    identity = identity && order[c] == c;
  }
  if (identity) return {};
  return order;
}

// Moves column c's pending rows into its sorted run list, by the state's own compaction (the
// column's vectors are swapped into the state's score list, which a proba state does not use).
void compact_column(evaluation_state::impl& s, std::size_t c) {
  detail::proba_state& p = *s.proba;
  if (p.buffer[c].empty()) return;
  std::swap(s.runs, p.runs[c]);
  std::swap(s.buffer, p.buffer[c]);
  s.compact();
  std::swap(s.runs, p.runs[c]);
  std::swap(s.buffer, p.buffer[c]);
  // Memory between batches: the compaction's reused scratch (sized for the largest batch) is not
  // kept here, as the K columns' pending rows already hold that much each; and a run list that folded
  // many rows into few runs (ties: the usual case for probabilities) gives back the room its merge
  // took. Out of core the state must stay within a quarter of the cap.
  std::vector<pending>().swap(s.sort_scratch);
  std::vector<run>().swap(s.fresh_runs);
  std::vector<run>().swap(s.held);  // empty after compact(); its capacity is the compaction's list
  if (p.runs[c].capacity() > 2 * p.runs[c].size() + 64) p.runs[c].shrink_to_fit();
}

}  // namespace

namespace detail {

void init_proba(evaluation_state::impl& s) {
  const state_options& o = s.o;
  const std::size_t K = o.proba_names.size();
  detail::proba_state p;
  p.views.resize(1);
  p.views[0].order.resize(K);
  for (std::size_t c = 0; c < K; ++c) p.views[0].order[c] = static_cast<std::uint32_t>(c);
  if (auto sorted = sorted_column_order(o); !sorted.empty()) {
    p.views.emplace_back();
    p.views[1].order = std::move(sorted);
  }
  p.runs.resize(K);
  p.buffer.resize(K);
  s.proba = std::move(p);
}

void compact_proba(evaluation_state::impl& s) {
  for (std::size_t c = 0; c < s.proba->runs.size(); ++c) compact_column(s, c);
}

namespace {

// update()'s checks of a batch of class probabilities: its columns' lengths, then each row's values;
// the rows drop_missing skips (1), their number in `skipped`.
std::vector<std::uint8_t> proba_rows_to_skip(const state_options& o, const row_batch& b, const batch_labels& yt,
                                             std::uint64_t& skipped) {
  const std::size_t n = b.y_true.size(), K = o.proba_names.size();
  if (b.y_proba.size() != K) {
    throw_usage(fmt::format("evaluation_state::update: y_proba has {} columns, but the state has {} (proba_names)",
                            b.y_proba.size(), K));
  }
  for (std::size_t c = 0; c < K; ++c) {
    if (b.y_proba[c].size() != n) {
      throw_usage(fmt::format("evaluation_state::update: y_proba[{}] has {} entries, but y_true has {}", c,
                              b.y_proba[c].size(), n));
    }
  }
  std::vector<std::uint8_t> skip(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const char* what = nullptr;
    std::size_t col = 0;
    if (yt.codes[i] < 0) what = "y_true";
    for (std::size_t c = 0; c < K && what == nullptr; ++c) {
      if (std::isnan(b.y_proba[c][i])) what = "y_proba", col = c;
    }
    if (what == nullptr && o.weighted && std::isnan(b.sample_weight[i])) what = "sample_weight";
    if (what != nullptr) {
      if (!o.drop_missing) {
        throw_data(fmt::format("evaluation_state::update: {}{}[{}] is nan; missing values are refused (set drop_missing "
                               "to skip such rows)", what, std::string_view(what) == "y_proba" ? fmt::format("[{}]", col)
                                                                                                : std::string(), i));
      }
      skip[i] = 1;
      ++skipped;
      continue;
    }
    for (std::size_t c = 0; c < K; ++c) {
      const double x = b.y_proba[c][i];
      if (!(x >= 0 && x <= 1)) {
        throw_data(fmt::format("evaluation_state::update: y_proba[{}][{}] is {}; probabilities must be in [0, 1]", c, i, x));
      }
    }
    if (o.weighted && !(b.sample_weight[i] >= 0 && std::isfinite(b.sample_weight[i]))) {
      throw_data(fmt::format("evaluation_state::update: sample_weight[{}] is {}; weights must be finite and >= 0", i,
                             b.sample_weight[i]));
    }
  }
  return skip;
}

}  // namespace

void update_proba(evaluation_state::impl& s, const row_batch& b, const batch_labels& yt, bool apply) {
  const state_options& o = s.o;
  const std::size_t n = b.y_true.size(), K = o.proba_names.size();
  std::uint64_t skipped = 0;
  const std::vector<std::uint8_t> skip = proba_rows_to_skip(o, b, yt, skipped);
  if (!apply) return;
  std::vector<std::uint32_t> tmap(yt.spellings.size());
  for (std::size_t k = 0; k < yt.spellings.size(); ++k) s.code_of(yt.spellings[k]);
  for (std::size_t k = 0; k < yt.spellings.size(); ++k) tmap[k] = s.code_of(yt.spellings[k]);
  detail::proba_state& p = *s.proba;

  // The batch's sums per view, by batch spelling, folded into the state's maps at the end.
  const std::size_t T = yt.spellings.size(), B = calibration_bins;
  struct local_view {
    std::vector<tally> cells, rank, calib;
    std::vector<exact_sum> ll, br;
    std::vector<std::uint8_t> seen;
    std::optional<std::pair<std::uint64_t, double>> off;
  };
  std::vector<local_view> lv(p.views.size());
  for (auto& v : lv) {
    v.cells.resize(T * K);
    v.rank.resize(T * K * K);
    v.calib.resize(T * B * K);
    v.ll.resize(T * K);
    v.br.resize(T * K);
    v.seen.assign(T, 0);
  }
  for (std::size_t c = 0; c < K; ++c) p.buffer[c].reserve(p.buffer[c].size() + n - skipped);
  std::vector<double> x(K);
  const proba_view row = proba_view::matrix(x, K);
  for (std::size_t i = 0; i < n; ++i) {
    if (!skip.empty() && skip[i]) continue;
    const double w = o.weighted ? b.sample_weight[i] : 1.0;
    if (o.weighted) s.note_weight(w);  // 1.0 is whole
    const auto bt = static_cast<std::size_t>(yt.codes[i]);
    for (std::size_t c = 0; c < K; ++c) {
      p.buffer[c].push_back({assay::detail::order_key(b.y_proba[c][i]), tmap[bt], w});
    }
    if (o.row_ids) {  // for the intervals, which resample rows
      s.kept.push_back({b.id(i), 0, tmap[bt], 0, w});
      for (std::size_t c = 0; c < K; ++c) s.kept_x.push_back(b.y_proba[c][i]);
      s.kept_sorted = false;
    }
    for (std::size_t v = 0; v < p.views.size(); ++v) {
      const auto& order = p.views[v].order;
      local_view& L = lv[v];
      for (std::size_t c = 0; c < K; ++c) x[c] = b.y_proba[order[c]][i];
      // evaluate's argmax: the first of equal maxima (std::max_element; top_label's strict >)
      const auto best = static_cast<std::size_t>(std::max_element(x.begin(), x.end()) - x.begin());
      tally& cell = L.cells[bt * K + best];
      ++cell.n;
      if (o.weighted) cell.w.add(w);
      const std::size_t bin = curves::uniform_bin_of(x[best], B);
      tally& cal = L.calib[(bt * B + bin) * K + best];
      ++cal.n;
      if (o.weighted) cal.w.add(w);
      if (v == 0) p.calib_wp[bin].add(w * x[best]);
      const std::uint64_t id = b.id(i);
      if (!L.off) {
        if (const auto bad = curves::first_row_not_summing_to_one(row)) L.off = std::pair{id, bad->second};
      }
      if (w == 0) continue;
      L.seen[bt] = 1;
      for (std::size_t j = 0; j < K; ++j) {
        L.ll[bt * K + j].add(w * log_loss_term(row, 0, j));
        L.br[bt * K + j].add(w * brier_term(row, 0, j));
        std::size_t ahead = 0;  // top_k_accuracy's rank of j: columns scoring higher, ties of a higher index
        for (std::size_t c = 0; c < K; ++c) {
          if (x[c] > x[j] || (x[c] == x[j] && c > j)) ++ahead;
        }
        tally& rk = L.rank[(bt * K + j) * K + ahead];
        ++rk.n;
        if (o.weighted) rk.w.add(w);
      }
    }
  }
  for (std::size_t v = 0; v < p.views.size(); ++v) {
    detail::proba_view_sums& V = p.views[v];
    local_view& L = lv[v];
    for (std::size_t bt = 0; bt < T; ++bt) {
      const std::uint32_t code = tmap[bt];
      for (std::size_t k = 0; k < K; ++k) {
        const tally& c = L.cells[bt * K + k];
        if (c.n > 0) V.cells[{code, static_cast<std::uint32_t>(k)}].add(c);
        for (std::size_t bin = 0; bin < B; ++bin) {
          const tally& t = L.calib[(bt * B + bin) * K + k];
          if (t.n > 0) V.calib[{code, static_cast<std::uint32_t>(bin), static_cast<std::uint32_t>(k)}].add(t);
        }
      }
      if (!L.seen[bt]) continue;
      auto& ll = V.log_loss[code];
      auto& br = V.brier[code];
      auto& rk = V.rank[code];
      if (ll.empty()) ll.resize(K), br.resize(K), rk.resize(K * K);
      for (std::size_t j = 0; j < K; ++j) {
        ll[j].add(L.ll[bt * K + j]);
        br[j].add(L.br[bt * K + j]);
      }
      for (std::size_t m = 0; m < K * K; ++m) {
        if (L.rank[bt * K * K + m].n > 0) rk[m].add(L.rank[bt * K * K + m]);
      }
    }
    if (L.off && (!V.off || L.off->first < V.off->first)) V.off = L.off;
  }
  if (o.weighted) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!skip[i]) s.total_weight.add(b.sample_weight[i]);
    }
  }
  s.rows += n - skipped;
  s.missing += skipped;
  // Pending rows at most as many as runs (and 4096): memory within about twice the runs' (the
  // out-of-core reader holds these lists in memory), amortised O(1) merging per row.
  for (std::size_t c = 0; c < K; ++c) {
    if (p.buffer[c].size() >= std::max<std::size_t>(p.runs[c].size(), std::size_t{1} << 12)) compact_column(s, c);
  }
}

void merge_proba(evaluation_state::impl& s, const evaluation_state::impl& t, const std::vector<std::uint32_t>& map) {
  detail::proba_state& p = *s.proba;
  const detail::proba_state& q = *t.proba;
  for (std::size_t v = 0; v < p.views.size(); ++v) {
    detail::proba_view_sums& V = p.views[v];
    const detail::proba_view_sums& W = q.views[v];
    for (const auto& [k, x] : W.cells) V.cells[{map[k.first], k.second}].add(x);
    for (const auto& [k, x] : W.calib) V.calib[{map[std::get<0>(k)], std::get<1>(k), std::get<2>(k)}].add(x);
    for (auto [mine, theirs] : {std::pair{&V.log_loss, &W.log_loss}, std::pair{&V.brier, &W.brier}}) {
      for (const auto& [k, x] : *theirs) {
        auto& into = (*mine)[map[k]];
        if (into.empty()) into.resize(x.size());
        for (std::size_t j = 0; j < x.size(); ++j) into[j].add(x[j]);
      }
    }
    for (const auto& [k, x] : W.rank) {
      auto& into = V.rank[map[k]];
      if (into.empty()) into.resize(x.size());
      for (std::size_t j = 0; j < x.size(); ++j) into[j].add(x[j]);
    }
    if (W.off && (!V.off || W.off->first < V.off->first)) V.off = W.off;
  }
  for (std::size_t bin = 0; bin < calibration_bins; ++bin) p.calib_wp[bin].add(q.calib_wp[bin]);
  for (std::size_t c = 0; c < p.runs.size(); ++c) {
    compact_column(s, c);
    std::vector<run> theirs;
    theirs.reserve(q.runs[c].size());
    for (const auto& r : q.runs[c]) theirs.push_back({r.key, map[r.code], r.t});  // map is monotone: still sorted
    std::swap(s.runs, p.runs[c]);
    s.merge_runs(std::move(theirs));
    std::swap(s.runs, p.runs[c]);
    for (const auto& r : q.buffer[c]) p.buffer[c].push_back({r.key, map[r.code], r.w});
    compact_column(s, c);
  }
}

}  // namespace detail

// ---- class probabilities: finish ----------------------------------------------------------------------

namespace detail {

namespace {

// The top-label reliability curve of class probabilities (curves::top_label_reliability_curve) from
// the view's per-bin sums.
calibration_sample proba_reliability(const evaluation_state::impl& s, const detail::proba_view_sums& v,
                                     const std::vector<std::int32_t>& class_of) {
  const state_options& o = s.o;
  const detail::proba_state& p = *s.proba;
  const detail::proba_view_sums* view = &v;
  std::vector<std::uint64_t> count(calibration_bins, 0);
  std::vector<exact_sum> w(calibration_bins), wy(calibration_bins);
  for (const auto& [k, x] : view->calib) {
    const auto [code, bin, best] = k;
    const exact_sum tw = o.weighted ? x.w : exact_sum(static_cast<double>(x.n));
    count[bin] += x.n;
    w[bin].add(tw);
    if (static_cast<std::uint32_t>(class_of[code]) == best) wy[bin].add(tw);
  }
  std::vector<double> vw(calibration_bins), vy(calibration_bins), vp(calibration_bins);
  for (std::size_t b = 0; b < calibration_bins; ++b) {
    vw[b] = w[b].value(), vy[b] = wy[b].value(), vp[b] = p.calib_wp[b].value();
  }
  calibration_sample c;
  c.top_label = true;
  if (c.bins != calibration_bins) throw_usage("evaluation_state: the reliability curve's bins changed");
  const curves::reliability_result rr =
      curves::reliability_from_bins(curves::uniform_bin_edges(c.bins), count, vw, vy, vp);
  c.prob_pred = rr.prob_pred, c.prob_true = rr.prob_true, c.weight = rr.weight;
  c.ece = curves::expected_calibration_error(rr);
  return c;
}

// The multiclass ranking numbers (more than two classes): top-k accuracy and ROC AUC one-vs-rest and
// one-vs-one, from the columns' runs.
void add_multiclass_ranking(report& r, const evaluation_state::impl& s, const evaluate_options& q,
                            const detail::proba_view_sums& v, const std::vector<std::uint32_t>& order,
                            const std::vector<std::int32_t>& class_of, const std::vector<exact_sum>& class_weight,
                            const exact_sum& den_rows, const std::string& off) {
  const state_options& o = s.o;
  const detail::proba_state& p = *s.proba;
  const detail::proba_view_sums* view = &v;
  const std::size_t K = o.proba_names.size();
  auto column_runs = [&](std::size_t k) -> const std::vector<run>& { return p.runs[order[k]]; };
  auto all = [](std::uint32_t) { return true; };
  if (q.top_k == 0) throw_usage("top_k_accuracy: k is 0, but must be >= 1");
  exact_sum num;
  for (const auto& [code, rk] : view->rank) {
    const auto k = static_cast<std::size_t>(class_of[code]);
    for (std::size_t m = 0; m < K && m < q.top_k; ++m) num.add(o.weighted ? rk[k * K + m].w : exact_sum(static_cast<double>(rk[k * K + m].n)));
  }
  r.metrics.push_back({"top_k_accuracy", fmt::format("top-{} accuracy", q.top_k), ratio(num.value(), den_rows.value(), "no cases")});
  // curves::roc_auc_ovr and roc_auc_ovo from the columns' runs.
  auto ovr = [&](curves::multiclass_average avg) -> value {
    double sum = 0, total = 0;
    for (std::size_t k = 0; k < K; ++k) {
      const auto sw = sweep_of_runs(column_runs(k), o.weighted, all,
                                    [&](std::uint32_t c) { return class_of[c] == static_cast<std::int32_t>(k); });
      const value a = curves::roc_auc(sw);
      if (!a) return value::undefined(fmt::format("class {} against the rest: {}", k, a.reason));
      const double wk = avg == curves::multiclass_average::weighted ? sw.positives : 1.0;
      sum += wk * a.v;
      total += wk;
    }
    return value(sum / total);
  };
  auto ovo = [&](curves::multiclass_average avg) -> value {
    double sum = 0, total = 0;
    const double everything = o.weighted ? s.total_weight.value() : static_cast<double>(s.rows);
    for (std::size_t a = 0; a < K; ++a) {
      for (std::size_t b = a + 1; b < K; ++b) {
        auto in_pair = [&](std::uint32_t c) {
          return class_of[c] == static_cast<std::int32_t>(a) || class_of[c] == static_cast<std::int32_t>(b);
        };
        // (evaluate passes the pair's weights, 1 each unweighted: the same sums as counts)
        const value auc_a = curves::roc_auc(sweep_of_runs(
            column_runs(a), o.weighted, in_pair, [&](std::uint32_t c) { return class_of[c] == static_cast<std::int32_t>(a); }));
        if (!auc_a) return value::undefined(fmt::format("classes {} and {}: {}", a, b, auc_a.reason));
        const value auc_b = curves::roc_auc(sweep_of_runs(
            column_runs(b), o.weighted, in_pair, [&](std::uint32_t c) { return class_of[c] == static_cast<std::int32_t>(b); }));
        if (!auc_b) return value::undefined(fmt::format("classes {} and {}: {}", b, a, auc_b.reason));
        exact_sum pair = class_weight[a];
        pair.add(class_weight[b]);
        const double wp = avg == curves::multiclass_average::weighted ? pair.value() / everything : 1.0;
        sum += wp * (auc_a.v + auc_b.v) / 2;
        total += wp;
      }
    }
    return value(sum / total);
  };
  for (const bool one_vs_rest : {true, false}) {
    for (const auto avg : {curves::multiclass_average::macro, curves::multiclass_average::weighted}) {
      const bool macro = avg == curves::multiclass_average::macro;
      std::string name = fmt::format("roc_auc_{}_{}", one_vs_rest ? "ovr" : "ovo", macro ? "macro" : "weighted");
      std::string title = fmt::format("ROC AUC, {}, {}", one_vs_rest ? "one-vs-rest" : "one-vs-one (Hand & Till)",
                                      macro ? "macro" : "weighted");
      value v = view->off ? value::undefined(off) : one_vs_rest ? ovr(avg) : ovo(avg);
      r.metrics.push_back({std::move(name), std::move(title), std::move(v)});
    }
  }
}

}  // namespace

// finish() of class probabilities: evaluate's report.cpp for a probability matrix, number for number.
report finish_proba(evaluation_state::impl& s, const evaluate_options& q) {
  const state_options& o = s.o;
  compact_proba(s);
  const detail::proba_state& p = *s.proba;
  const std::size_t K = o.proba_names.size();
  // The classes, by decide_classes on the union of the spellings and the columns' names.
  auto [true_codes, yt] = true_spellings(p.views[0].cells, s.dict);
  yt.insert(yt.end(), s.also_true.begin(), s.also_true.end());  // after true_codes': class_of reads none
  label_spellings seen;
  seen.truth = std::move(yt);
  seen.proba_columns = o.proba_names;
  const class_plan t = detail::state_classes(std::move(seen), o, "predictions_from_proba");
  // The view whose column order is the classes' order.
  std::vector<std::uint32_t> order(t.proba_column.begin(), t.proba_column.end());
  const detail::proba_view_sums* view = nullptr;
  for (const auto& v : p.views) {
    if (v.order == order) view = &v;
  }
  if (view == nullptr || t.classes.size() != K) {
    throw_usage("evaluation_state::finish: the classes of the probability columns are in an order the state did not "
                "foresee; evaluate these rows in memory");
  }
  std::vector<std::int32_t> class_of(s.dict.size(), -1);
  for (std::size_t k = 0; k < true_codes.size(); ++k) class_of[true_codes[k]] = t.truth[k];

  report r;
  header_of(r, s, q);
  r.labels = t.classes;
  r.positive = t.positive;
  r.task = t.task;
  r.prediction_column = fmt::format("argmax of {} probability columns", K);

  std::vector<exact_sum> cells(K * K);
  std::vector<std::uint64_t> counts(K * K, 0);
  std::vector<exact_sum> class_weight(K);  // per actual class, the exact weight (unweighted: count)
  for (const auto& [k, v] : view->cells) {
    const auto a = static_cast<std::size_t>(class_of[k.first]);
    const std::size_t c = a * K + k.second;
    cells[c].add(v.w);
    counts[c] += v.n;
    class_weight[a].add(o.weighted ? v.w : exact_sum(static_cast<double>(v.n)));
  }
  r.cm = confusion_matrix(K);
  for (std::size_t c = 0; c < K * K; ++c) {
    r.cm.add(c / K, c % K, o.weighted ? cells[c].value() : static_cast<double>(counts[c]));
  }
  assay::detail::add_confusion_metrics(
      r, q, assay::detail::not_counts_reason(o.weighted ? s.min_fractional_weight : std::nullopt));

  // Log loss and Brier: each spelling's sums for its class; the weight of the rows of weight > 0.
  exact_sum ll, br, den_rows;
  for (const auto& [code, sums] : view->log_loss) {
    const auto k = static_cast<std::size_t>(class_of[code]);
    ll.add(sums[k]);
    br.add(view->brier.at(code)[k]);
  }
  // Each row of weight > 0 is in exactly one rank entry (k, m) of its class k.
  for (const auto& [code, rk] : view->rank) {
    const auto k = static_cast<std::size_t>(class_of[code]);
    for (std::size_t m = 0; m < K; ++m) den_rows.add(o.weighted ? rk[k * K + m].w : exact_sum(static_cast<double>(rk[k * K + m].n)));
  }
  for (auto [name, sum] : {std::pair{"log_loss", &ll}, std::pair{"brier_score_loss", &br}}) {
    const metric_info* mi = find_metric(name, metric_kind::probabilistic);
    r.metrics.push_back({std::string(name), std::string(mi->title), ratio(sum->value(), den_rows.value(), "no cases")});
  }
  const std::string off =
      view->off ? fmt::format("the probability columns of data row {} sum to {}, not 1 (rule: |sum - 1| <= 1e-8 + "
                              "1e-5 |sum|)", view->off->first + 1, view->off->second)
                : std::string();
  if (q.keep_curves) {  // the top-label reliability curve (curves::top_label_reliability_curve)
    if (view->off) {
      r.notes.push_back(fmt::format("no reliability diagram: the class probabilities of data row {} sum to {}, not 1 "
                                    "(rule: |sum - 1| <= 1e-8 + 1e-5 |sum|)", view->off->first + 1, view->off->second));
    } else {
      r.calibration = proba_reliability(s, *view, class_of);
    }
  }
  auto column_runs = [&](std::size_t k) -> const std::vector<run>& { return p.runs[order[k]]; };
  auto all = [](std::uint32_t) { return true; };
  if (K > 2) add_multiclass_ranking(r, s, q, *view, order, class_of, class_weight, den_rows, off);
  // The per-class ROC and PR areas (curves::areas_one_vs_rest; rows need not sum to 1).
  for (std::size_t k = 0; k < K; ++k) {
    const auto sw = sweep_of_runs(column_runs(k), o.weighted, all,
                                  [&](std::uint32_t c) { return class_of[c] == static_cast<std::int32_t>(k); });
    r.by_class[k].roc_auc = curves::roc_auc(sw);
    r.by_class[k].average_precision = curves::average_precision(sw);
  }
  assay::detail::set_ranking_averages(r);
  assay::detail::add_undefined_notes(r, q);
  if (q.ci_level) attach_kept_intervals(s, q, r, class_of, order);
  return r;
}

}  // namespace detail

}  // namespace assay::scale
