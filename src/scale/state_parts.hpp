// assay (internal): the functions the source files of scale::evaluation_state share (state.cpp,
// state_update.cpp, state_proba.cpp, state_io.cpp, state_finish.cpp); the representation they work
// on is in state_impl.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "assay/curves/sweep.hpp"
#include "assay/detail/exact_sum.hpp"
#include "state_impl.hpp"

namespace assay::scale::detail {

/// The usage errors of a state's options (the constructor and read_state).
void check_options(const state_options& o);

// ---- class probabilities (state_proba.cpp) ---------------------------------------------------------

/// The proba state of a new state: a view of the columns as given, and one in sorted class order.
void init_proba(evaluation_state::impl& s);
/// Moves every column's pending rows into its sorted run list.
void compact_proba(evaluation_state::impl& s);
/// update() (apply) or check() of a batch of class probabilities; yt: its true spellings.
void update_proba(evaluation_state::impl& s, const row_batch& b, const batch_labels& yt, bool apply);
/// Adds t's class probabilities to s's; map: t's spelling codes -> s's.
void merge_proba(evaluation_state::impl& s, const evaluation_state::impl& t, const std::vector<std::uint32_t>& map);
/// finish() of class probabilities.
report finish_proba(evaluation_state::impl& s, const evaluate_options& q);

// ---- finish (state_finish.cpp, state_intervals.cpp) --------------------------------------------------------------------

/// The report's header, the same for every kind of prediction.
void header_of(report& r, const evaluation_state::impl& s, const evaluate_options& q);
/// The intervals of evaluate on the state's rows, from the score runs' tie groups or the kept rows.
void attach_state_intervals(evaluation_state::impl& s, const evaluate_options& q, report& r,
                            const std::vector<std::int32_t>& class_of, const run_source& runs_descending,
                            const run_source* runs_ascending);
/// The intervals of evaluate on the kept rows of regression or class probabilities.
void attach_kept_intervals(evaluation_state::impl& s, const evaluate_options& q, report& r,
                           const std::vector<std::int32_t>& class_of, const std::vector<std::uint32_t>& order);

// The true spellings the cells hold, (true spelling, other) -> tally in key order: their codes,
// ascending and unique, and their text: the rows from which the classes are decided.
template <class Cells>
std::pair<std::vector<std::uint32_t>, std::vector<std::string>> true_spellings(const Cells& cells,
                                                                                const std::vector<std::string>& dict) {
  std::pair<std::vector<std::uint32_t>, std::vector<std::string>> out;
  for (const auto& [k, v] : cells) out.first.push_back(k.first);
  out.first.erase(std::unique(out.first.begin(), out.first.end()), out.first.end());
  for (auto c : out.first) out.second.push_back(dict[c]);
  return out;
}

// The walk of evaluate's sweep over score runs (curves::sweep_scores): runs visited from the highest
// key down by `source(visitor)`, those whose spelling `include`s, grouped by key; unweighted, counts;
// weighted, tie groups of positive weight whose two sides are summed exactly, then running sums of
// the rounded group sums. Calls f(threshold, tp, fp) once per group.
template <class Source, class Include, class IsPositive, class F>
void walk_runs(const Source& source, bool weighted, const Include& include, const IsPositive& is_pos, F&& f) {
  if (!weighted) {  // counts only: no exact sums to reset per group (the same running sums)
    double tp = 0, fp = 0;
    bool open = false;
    std::uint64_t key = 0, np = 0, nn = 0;
    source([&](std::uint64_t k, std::uint32_t code, const tally& t) {
      if (!include(code)) return;
      if (open && k != key) {
        tp += static_cast<double>(np);
        fp += static_cast<double>(nn);
        f(assay::detail::from_order_key(key) + 0.0, tp, fp);
        np = nn = 0;
      }
      open = true;
      key = k;
      (is_pos(code) ? np : nn) += t.n;
    });
    if (open) {
      tp += static_cast<double>(np);
      fp += static_cast<double>(nn);
      f(assay::detail::from_order_key(key) + 0.0, tp, fp);
    }
    return;
  }
  double tp = 0, fp = 0;
  bool open = false;
  std::uint64_t key = 0;
  exact_sum wp, wn;
  auto close = [&] {
    if (!open) return;
    open = false;
    if (wp.is_zero() && wn.is_zero()) return;  // rows of weight 0 only: no threshold
    tp += wp.value();
    fp += wn.value();
    f(assay::detail::from_order_key(key) + 0.0, tp, fp);
  };
  source([&](std::uint64_t k, std::uint32_t code, const tally& t) {
    if (!include(code)) return;
    if (!open || k != key) {
      close();
      open = true;
      key = k;
      wp = exact_sum();
      wn = exact_sum();
    }
    (is_pos(code) ? wp : wn).add(t.w);
  });
  close();
}

// The sweep of one probability column's runs: the rows whose spelling `include`s, positive when
// `is_pos` (curves::sweep_scores on those rows, bit for bit).
template <class Include, class IsPositive>
curves::score_sweep sweep_of_runs(const std::vector<run>& runs, bool weighted, const Include& include,
                                  const IsPositive& is_pos) {
  curves::score_sweep sw;
  walk_runs([&](const auto& g) { for (std::size_t i = runs.size(); i > 0; --i) g(runs[i - 1].key, runs[i - 1].code, runs[i - 1].t); },
            weighted, include, is_pos, [&](double t, double tp, double fp) {
              sw.thresholds.push_back(t);
              sw.tp.push_back(tp);
              sw.fp.push_back(fp);
            });
  sw.positives = sw.empty() ? 0.0 : sw.tp.back();
  sw.negatives = sw.empty() ? 0.0 : sw.fp.back();
  return sw;
}

}  // namespace assay::scale::detail

namespace assay::scale {

// The names every part of the state's source uses unqualified.
using assay::detail::long_accumulator;
using detail::batch_labels;
using detail::checksum;
using detail::get_le;
using detail::put_le;
using detail::reader;
using detail::writer;

}  // namespace assay::scale
