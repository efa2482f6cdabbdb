// assay (internal): the representation of scale::evaluation_state, shared by the state (state.cpp
// and the state_*.cpp beside it, whose shared functions are in state_parts.hpp) and the out-of-core
// reader (out_of_core.cpp), which keeps the score runs on disk.
#pragma once

#include <optional>
#include <algorithm>
#include <array>
#include <bit>
#include <tuple>
#include <utility>
#include <cmath>
#include <cstdint>
#include <functional>
#include <span>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "assay/detail/exact_sum.hpp"
#include "assay/detail/msd_sort.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/detail/radix.hpp"
#include "assay/curves/calibration.hpp"
#include "assay/data/predictions.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/metrics/regression.hpp"
#include "assay/scale/state.hpp"

namespace assay::scale {

using assay::detail::exact_sum;

namespace detail {

constexpr char magic[8] = {'A', 'S', 'S', 'A', 'Y', 'S', 'T', '\0'};

// A count and an exact weight sum (the weight is only kept for weighted states).
struct tally {
  std::uint64_t n = 0;
  exact_sum w;
  void add(const tally& o) {
    n += o.n;
    w.add(o.w);
  }
};

// One run of the score list: rows of one score key and one true spelling.
struct run {
  std::uint64_t key;
  std::uint32_t code;
  tally t;
};

// A (score key, true spelling) of the score list tallied as its rows come (evaluation_state::impl::
// tally_in_table), or an empty slot.
struct key_tally {
  std::uint64_t key = 0;
  std::uint32_t code = 0;
  bool used = false;
  bool has_terms = false;  // weighted: the terms below are set (by the first row's update)
  tally t;
  // Weighted: the score's log-loss and Brier terms for either class and its reliability bin, computed
  // once for the (score, spelling): each row then adds w * term, as evaluate's w * term of the row.
  double log_loss[2] = {0, 0}, brier[2] = {0, 0};
  std::size_t bin = 0;
};

// A pending row of the score list, before compaction.
struct pending {
  std::uint64_t key;
  std::uint32_t code;
  double w;
};

// The uniform bins of the reliability curve kept with the curves (calibration_sample::bins).
inline constexpr std::size_t calibration_bins = 10;

// A row kept for the intervals that resample rows (state_options::row_ids): its stable id, score key
// (scores) or predicted spelling (labels), true spelling and weight (1 unweighted).
struct kept_row {
  std::uint64_t id, key;
  std::uint32_t t, p;
  double w;
  auto tie() const { return std::tuple(id, key, t, p, std::bit_cast<std::uint64_t>(w)); }
};

// The loss sums of one true spelling: the log-loss and Brier terms as if the spelling were the
// negative class [0] or the positive class [1] (which it is, is known only in finish()).
struct losses {
  exact_sum log_loss[2], brier[2];
  // Bit k: the sums of class k hold the term of every row added (a state built with one_class_loss
  // sums only the class a spelling was in when its rows came, impl::one_class_loss).
  std::uint8_t have = 3;
  void add(const losses& o) {
    for (int k = 0; k < 2; ++k) {
      log_loss[k].add(o.log_loss[k]);
      brier[k].add(o.brier[k]);
    }
    have &= o.have;
  }
};

// Class probabilities (prediction_kind::proba). What depends on the order in which the columns are
// read as classes: the argmax (the first of equal maxima), the row sums and loss terms (floating
// sums in class order), the rank of a class in its row (ties: the higher class index first). That
// order is known only in finish() (decide_classes on all the classes), and it is one
// of at most two: the columns as given, or sorted by name (when every class names a column). So the
// state keeps these sums once per candidate order (a "view"); the second only when it differs.
struct proba_view_sums {
  std::vector<std::uint32_t> order;  // view column v -> column of the batch
  // (true spelling, argmax as a view column): the confusion matrix.
  std::map<std::pair<std::uint32_t, std::uint32_t>, tally> cells;
  // Per true spelling, for each view column j as its class: the exact sums of w * log-loss term and
  // w * Brier term (rows of weight 0 left out, as weighted_loss_sum), and per (j, r) the rows of weight
  // > 0 in which r columns rank ahead of j (top_k_accuracy's rule), K * K tallies.
  std::map<std::uint32_t, std::vector<exact_sum>> log_loss, brier;
  std::map<std::uint32_t, std::vector<tally>> rank;
  // The top-label reliability curve: (true spelling, uniform bin of the row's largest probability,
  // argmax) -> rows (all) and exact weight.
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, tally> calib;
  // The first row (by id) whose probabilities, summed in view order, do not sum to 1, and the sum.
  std::optional<std::pair<std::uint64_t, double>> off;
};

struct proba_state {
  std::vector<proba_view_sums> views;
  // Per column (as given): its score runs (key of the probability, true spelling), sorted by
  // (key, code), and rows not yet in them: the one-vs-rest, one-vs-one and per-class areas.
  std::vector<std::vector<run>> runs;
  std::vector<std::vector<pending>> buffer;
  std::array<exact_sum, calibration_bins> calib_wp;  // per bin: the exact sum of w * (largest probability)

  void shift(std::uint32_t at) {  // a spelling was inserted at code `at`
    auto sh = [at](std::uint32_t c) { return c >= at ? c + 1 : c; };
    for (auto& v : views) {
      std::map<std::pair<std::uint32_t, std::uint32_t>, tally> c2;
      for (auto& [k, t] : v.cells) c2.emplace(std::pair{sh(k.first), k.second}, std::move(t));
      v.cells = std::move(c2);
      for (auto* m : {&v.log_loss, &v.brier}) {
        std::map<std::uint32_t, std::vector<exact_sum>> m2;
        for (auto& [k, x] : *m) m2.emplace(sh(k), std::move(x));
        *m = std::move(m2);
      }
      std::map<std::uint32_t, std::vector<tally>> r2;
      for (auto& [k, x] : v.rank) r2.emplace(sh(k), std::move(x));
      v.rank = std::move(r2);
      std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, tally> k2;
      for (auto& [k, t] : v.calib) k2.emplace(std::tuple{sh(std::get<0>(k)), std::get<1>(k), std::get<2>(k)}, std::move(t));
      v.calib = std::move(k2);
    }
    for (auto& rs : runs)
      for (auto& r : rs) r.code = sh(r.code);  // monotone: the order is kept
    for (auto& bs : buffer)
      for (auto& p : bs) p.code = sh(p.code);
  }
};

}  // namespace detail

using detail::tally;
using detail::run;
using detail::pending;
using detail::key_tally;
using detail::losses;
using detail::kept_row;
using detail::calibration_bins;
using detail::magic;

/// The distinct row terms (term and domain) of the metric registry's regression means of row terms
/// (metric_info::mean_of), in registry order: what a regression state sums (impl::terms).
const std::vector<row_term>& row_terms();
/// The index in row_terms() of the term of `m` (a mean of row terms).
std::size_t row_term_index(const row_term& m);
/// The name of the first registry metric whose term is row_terms()[k] (the term's name in a blob).
std::string_view row_term_name(std::size_t k);

struct evaluation_state::impl {
  state_options o;
  std::uint64_t rows = 0, missing = 0;
  exact_sum total_weight;
  bool all_probabilities = true;        // every score in [0, 1]
  std::optional<double> min_fractional_weight;  // the smallest weight that is not whole (caret's tests)
  // Notes weight w for min_fractional_weight (the rule of report's smallest_fractional_weight, row by row).
  void note_weight(double w) {
    if (w != std::floor(w) && (!min_fractional_weight || w < *min_fractional_weight)) min_fractional_weight = w;
  }
  std::vector<std::string> dict;        // spellings, sorted by bytes, unique
  std::map<std::pair<std::uint32_t, std::uint32_t>, tally> cells;  // (true, predicted spelling or side)
  std::map<std::uint32_t, losses> loss;  // scores: per true spelling
  std::vector<run> runs;                 // scores: sorted by (key, code), unique
  std::vector<pending> buffer;           // scores: rows not yet in `runs`
  // Scores: a second sorted, unique run list not yet merged into `runs`: the runs of the latest
  // compaction (merged into `runs` at the next one) or those taken from a state merged in
  // (merge(evaluation_state&&)). finish() and serialize() read the two lists as their merge
  // (for_each_run), so the last compaction and the last merge before them build no merged list (at
  // 10^7 distinct scores a list of 10^7 runs of 48 bytes, and its page faults); anything else merges
  // them first (compact()).
  std::vector<run> held;
  // false: the out-of-core reader keeps the score runs, or regression's targets and residuals (reg_y,
  // reg_r, then not filled), on disk
  bool keep_runs = true;
  // false: update() leaves out the reliability curve's sums of scores (calib, calib_ws), which only
  // kept curves read (finish with keep_curves): the out-of-core reader's report without them (a
  // bin, a tally and an exact sum a row; rows tallied in the table below still add them when it is
  // flushed, but that reader's state keeps no runs, so no table). finish() with keep_curves refuses
  // such a state.
  bool calibration = true;
  // true: update() sums each score row's log-loss and Brier terms for one class only, the one its
  // spelling is in by finish()'s rules on the spellings seen so far (score_classes), not for both (a
  // logarithm and two exact sums a row less); a spelling seen under another class before is marked
  // (losses::have), and its sums are completed by the caller before finish() (the out-of-core reader
  // from its spill: losses_to_redo). Such a state is not serialised.
  bool one_class_loss = false;
  // Set only while one slice of a sliced state is finished (scale/sliced_state.hpp): the true and
  // the predicted spellings of the other slices. finish() decides the classes from them together with
  // its own, so that every slice is evaluated with the classes of all the slices (as evaluate_slices).
  std::vector<std::string> also_true, also_pred;
  std::size_t compact_at = std::size_t{1} << 16;  // update() looks at the buffer once it holds this many rows
  // The last compaction's rows did not fold (a run per row or nearly: distinct scores). A pending
  // row (24 bytes) is then smaller than its run (48), so update() leaves the rows pending, and sorts
  // them once in finish() or serialize(), as long as the newest rows do not fold either
  // (compact_when_due).
  bool spread = false;
  // Reused by every compaction (empty between them, their capacity kept): the radix sort's second
  // buffer and the runs made from the buffer. Fresh buffers per compaction cost their page faults,
  // about a quarter of the CPU of the per-part path at 10^7 distinct scores.
  std::vector<pending> sort_scratch;
  std::vector<run> fresh_runs;
  // Scores with few distinct values (rounded probabilities, tree ensembles): the rows of a (key,
  // spelling) already seen are tallied at once in a small open-addressing table (linear probing, at
  // most half full), so they are never sorted; rows of other keys go to `buffer` as before. The
  // table is flushed into the run list by compact_buffer(); its tallies are exact (counts, exact
  // weight sums), so the runs, and every byte and number, are those of the rows sorted. After 2^16
  // rows of which more than half missed it (many distinct scores) the state stops using it.
  // The table starts at table_first slots and doubles when half full, up to table_slots (8192 slots of
  // 88 bytes): a state of few (score, spelling) pairs, e.g. one slice of a sliced state
  // (scale/sliced_state.hpp), holds a few KB, not 720 KB.
  static constexpr std::size_t table_slots = std::size_t{1} << 13, table_first = std::size_t{1} << 6;
  std::vector<key_tally> table;
  std::size_t table_used = 0;
  std::uint64_t table_offered = 0, table_missed = 0;
  bool table_off = false;

  [[nodiscard]] std::size_t table_slot(std::uint64_t key, std::uint32_t code) const {
    return static_cast<std::size_t>(((key ^ (std::uint64_t{code} << 59)) * 0x9E3779B97F4A7C15ULL) >>
                                    (64 - std::countr_zero(table.size())));
  }

  // The table at twice its slots, its entries placed again.
  void grow_table() {
    std::vector<key_tally> old(table.size() * 2);
    old.swap(table);
    for (key_tally& e : old) {
      if (!e.used) continue;
      std::size_t h = table_slot(e.key, e.code);
      while (table[h].used) h = (h + 1) & (table.size() - 1);
      table[h] = std::move(e);
    }
  }

  // Tallies a row of score key `key` and spelling `code` in the table: its entry, or nullptr when it
  // must go to the buffer (the table is full, or no longer used).
  key_tally* tally_in_table(std::uint64_t key, std::uint32_t code, double w) {
    if (table_off) return nullptr;
    if (table.empty()) table.resize(table_first);
    ++table_offered;
    if (table_used == table.size() / 2 && table.size() < table_slots) grow_table();
    std::size_t h = table_slot(key, code);
    for (;; h = (h + 1) & (table.size() - 1)) {
      key_tally& e = table[h];
      if (e.used && e.key == key && e.code == code) break;
      if (e.used) continue;
      if (table_used == table.size() / 2) {
        if (++table_missed * 2 > table_offered && table_offered >= (std::uint64_t{1} << 16)) table_off = true;
        return nullptr;
      }
      e.used = true;
      e.key = key;
      e.code = code;
      ++table_used;
      break;
    }
    key_tally& e = table[h];
    ++e.t.n;
    if (o.weighted) e.t.w.add(w);
    return &e;
  }

  // Unweighted, what update() leaves out for a tabled row: its reliability bin's count and score
  // sum, and its log-loss and Brier terms for either class, n times (w = 1, so each row's term is the
  // term itself; exact sums, so n copies added one by one or at once are the same sum).
  void add_deferred_sums(std::uint64_t key, std::uint32_t code, std::uint64_t n) {
    const double x = assay::detail::from_order_key(key);
    if (x >= 0 && x <= 1) {
      const std::size_t bin = curves::uniform_bin_of(x, calibration_bins);
      calib[{code, static_cast<std::uint32_t>(bin)}].n += n;
      calib_ws[bin].add_times(x, n);
    }
    const proba_view pv = proba_view::scores(std::span<const double>(&x, 1));
    losses& l = loss[code];
    for (std::size_t k = 0; k < 2; ++k) {
      l.log_loss[k].add_times(log_loss_term(pv, 0, k), n);
      l.brier[k].add_times(brier_term(pv, 0, k), n);
    }
  }

  // Whether update() leaves every score row's reliability and loss terms to the compaction that
  // folds the row into a run (add_run_sums; tabled rows: take_table): unweighted, a row's terms are
  // those of its (score, spelling), so a run of n rows adds n times its score's terms, the same exact
  // sums as the rows one by one, computed once per run instead of once per row, and not in the row
  // loop of update(). Not for a state that sums one class's terms (one_class_loss) or leaves out the
  // reliability sums (calibration false), nor one whose runs are kept elsewhere (keep_runs false).
  [[nodiscard]] bool defers_terms() const {
    return o.kind == prediction_kind::scores && !o.weighted && keep_runs && calibration && !one_class_loss;
  }

  // The reliability and loss sums of the rows of `made` (runs just folded from pending rows of a
  // state that defers_terms()): per run, its score's terms for either class, added count times.
  // Runs of one row (distinct scores) go through chunked sums (a few integer additions a term);
  // runs of more through exact_sum::add_times; both exact, so the sums are those of the rows.
  void add_run_sums(std::span<const run> made) {
    if (made.empty()) return;
    struct code_sums {
      assay::detail::chunked_sum log_loss[2], brier[2];
      losses more;  // runs of several rows
      std::array<std::uint64_t, calibration_bins> rows{};
      bool any_calib = false;
    };
    std::vector<std::unique_ptr<code_sums>> per(dict.size());
    std::vector<assay::detail::chunked_sum> ws(calibration_bins);
    std::array<exact_sum, calibration_bins> ws_more;
    for (const run& r : made) {
      auto& slot = per[r.code];
      if (!slot) slot = std::make_unique<code_sums>();
      code_sums& c = *slot;
      const double x = assay::detail::from_order_key(r.key);
      const std::uint64_t n = r.t.n;
      if (x >= 0 && x <= 1) {
        const std::size_t bin = curves::uniform_bin_of(x, calibration_bins);
        c.rows[bin] += n;
        c.any_calib = true;
        if (n == 1) ws[bin].add(x);
        else ws_more[bin].add_times(x, n);
      }
      for (std::size_t k = 0; k < 2; ++k) {
        const double ll = binary_log_loss_term(x, k), br = binary_brier_term(x, k);
        if (n == 1) {
          c.log_loss[k].add(ll);
          c.brier[k].add(br);
        } else {
          c.more.log_loss[k].add_times(ll, n);
          c.more.brier[k].add_times(br, n);
        }
      }
    }
    for (std::size_t bin = 0; bin < calibration_bins; ++bin) {
      calib_ws[bin].add(ws[bin].result());
      calib_ws[bin].add(ws_more[bin]);
    }
    for (std::uint32_t code = 0; code < per.size(); ++code) {
      if (!per[code]) continue;
      code_sums& c = *per[code];
      losses l;
      for (std::size_t k = 0; k < 2; ++k) {
        l.log_loss[k] = c.log_loss[k].result();
        l.brier[k] = c.brier[k].result();
      }
      l.add(c.more);
      loss[code].add(l);
      for (std::size_t bin = 0; c.any_calib && bin < calibration_bins; ++bin) {
        if (c.rows[bin] > 0) calib[{code, static_cast<std::uint32_t>(bin)}].n += c.rows[bin];
      }
    }
  }

  // The table's tallies as runs sorted by (key, code); the table emptied.
  std::vector<run> take_table() {
    std::vector<run> out;
    if (table_used == 0) return out;
    out.reserve(table_used);
    for (key_tally& e : table) {
      if (!e.used) continue;
      if (!o.weighted) add_deferred_sums(e.key, e.code, e.t.n);
      out.push_back({e.key, e.code, std::move(e.t)});
      e = key_tally{};
    }
    table_used = 0;
    std::sort(out.begin(), out.end(),
              [](const run& a, const run& b) { return a.key != b.key ? a.key < b.key : a.code < b.code; });
    return out;
  }
  // Scores in [0, 1], for the reliability curve (keep_curves): per (true spelling, uniform bin) a row
  // count and exact weight sum; per bin the exact sum of the terms w_i s_i.
  std::map<std::pair<std::uint32_t, std::uint32_t>, tally> calib;
  std::array<exact_sum, calibration_bins> calib_ws;
  // Regression: row counts by (order key of the target, weight bits) and by (order key of the residual
  // y - yhat, weight bits); per row term of the registry's means of row terms (row_terms()), the
  // exact sum of w term(y, yhat) over rows of positive weight inside its domain and the first row (the
  // smallest row id) of positive weight outside it, with its values (the term's reason names them).
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> reg_y, reg_r;
  struct term_sum {
    assay::detail::signed_exact_sum sum;
    std::optional<std::uint64_t> first_outside;
    double y = 0, yhat = 0;  // the values of that first row
  };
  std::vector<term_sum> terms = std::vector<term_sum>(row_terms().size());
  std::optional<detail::proba_state> proba;  // prediction_kind::proba
  std::vector<kept_row> kept;            // row_ids: every row; sorted by tie() when kept_sorted
  // row_ids of regression and class probabilities: kept_stride() numbers per kept row, in the order of
  // `kept` (regression: the target and the predicted value; class probabilities: the row's
  // probabilities in the batch's column order).
  std::vector<double> kept_x;
  bool kept_sorted = true;

  [[nodiscard]] std::size_t kept_stride() const {
    return o.kind == prediction_kind::values ? 2 : o.kind == prediction_kind::proba ? o.proba_names.size() : 0;
  }

  void sort_kept() {
    if (kept_sorted) return;
    const auto before = [](const kept_row& a, const kept_row& b) { return a.tie() < b.tie(); };
    const std::size_t m = kept_stride();
    if (m == 0) {
      std::sort(kept.begin(), kept.end(), before);
    } else {  // the rows' numbers move with them
      std::vector<std::size_t> order(kept.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return before(kept[a], kept[b]); });
      std::vector<kept_row> rows(kept.size());
      std::vector<double> x(kept_x.size());
      for (std::size_t i = 0; i < order.size(); ++i) {
        rows[i] = kept[order[i]];
        std::copy_n(kept_x.begin() + static_cast<std::ptrdiff_t>(order[i] * m), m, x.begin() + static_cast<std::ptrdiff_t>(i * m));
      }
      kept = std::move(rows);
      kept_x = std::move(x);
    }
    kept_sorted = true;
  }

  // Code of a spelling, inserting it (and renumbering everything) when new.
  std::uint32_t code_of(const std::string& s) {
    auto it = std::lower_bound(dict.begin(), dict.end(), s);
    if (it != dict.end() && *it == s) return static_cast<std::uint32_t>(it - dict.begin());
    const auto at = static_cast<std::uint32_t>(it - dict.begin());
    compact();
    dict.insert(it, s);
    auto shift = [at](std::uint32_t c) { return c >= at ? c + 1 : c; };
    std::map<std::pair<std::uint32_t, std::uint32_t>, tally> c2;
    for (auto& [k, v] : cells) {
      const std::uint32_t b = o.kind == prediction_kind::labels ? shift(k.second) : k.second;
      c2.emplace(std::pair{shift(k.first), b}, std::move(v));
    }
    cells = std::move(c2);
    std::map<std::uint32_t, losses> l2;
    for (auto& [k, v] : loss) l2.emplace(shift(k), std::move(v));
    loss = std::move(l2);
    std::map<std::pair<std::uint32_t, std::uint32_t>, tally> k2;
    for (auto& [k, v] : calib) k2.emplace(std::pair{shift(k.first), k.second}, std::move(v));
    calib = std::move(k2);
    for (auto& r : runs) r.code = shift(r.code);  // monotone: the order is kept
    if (proba) proba->shift(at);
    for (auto& k : kept) {
      k.t = shift(k.t);
      if (o.kind == prediction_kind::labels) k.p = shift(k.p);
    }
    return at;
  }

  // Moves the pending rows and the held runs into the sorted run list.
  void compact() {
    compact_buffer();
    settle();
  }

  // Merges the held runs into `runs` (held keeps its capacity for the next compaction).
  void settle() {
    if (held.empty()) return;
    if (runs.empty()) {
      std::swap(runs, held);
      return;
    }
    merge_runs(std::move(held));
    held.clear();
  }

  // Visits every run of `runs` and `held` as their merge would hold them, ascending by (key, code) or
  // descending: g(key, code, tally), a (key, code) in both lists once with the two tallies added (in
  // the order merge_runs adds them). Which list holds the next run is a coin flip for distinct
  // scores: chosen without a branch; equal runs are rare.
  template <class G>
  void for_each_run(bool descending, G&& g) const {
    const run *x = runs.data(), *xe = x + runs.size(), *y = held.data(), *ye = y + held.size();
    auto same = [](const run& a, const run& b) { return a.key == b.key && a.code == b.code; };
    auto before = [](const run& a, const run& b) { return a.key < b.key || (a.key == b.key && a.code < b.code); };
    auto both = [](const run& a, const run& b) {
      tally t = a.t;
      t.add(b.t);
      return t;
    };
    if (!descending) {
      while (x != xe && y != ye) {
        if (same(*x, *y)) {
          g(x->key, x->code, both(*x, *y));
          ++x, ++y;
          continue;
        }
        const bool take_x = before(*x, *y);
        const run* r = take_x ? x : y;
        x += take_x;
        y += !take_x;
        g(r->key, r->code, r->t);
      }
      for (; x != xe; ++x) g(x->key, x->code, x->t);
      for (; y != ye; ++y) g(y->key, y->code, y->t);
      return;
    }
    const run *xb = x, *yb = y;
    x = xe, y = ye;
    while (x != xb && y != yb) {
      if (same(x[-1], y[-1])) {
        --x, --y;
        g(x->key, x->code, both(*x, *y));
        continue;
      }
      const bool take_x = before(y[-1], x[-1]);
      x -= take_x;
      y -= !take_x;
      const run* r = take_x ? x : y;
      g(r->key, r->code, r->t);
    }
    while (x != xb) --x, g(x->key, x->code, x->t);
    while (y != yb) --y, g(y->key, y->code, y->t);
  }

  // Sorts the pending rows by score key. The order of the rows of one key does not matter (they are
  // tallied by spelling, with exact sums). From 2^16 rows whose keys vary in more than a top digit,
  // the curves' MSD-first kernel (assay/detail/msd_sort.hpp: one pass into buckets of neighbouring
  // keys, each finished in cache; the sorted rows end in the scratch buffer, which becomes the
  // buffer); else the shared LSD kernel (stable_sort_by_key). Either way the tallies, and so the
  // state, do not depend on the thread count. Measured (bench_state, 10^7 distinct scores in 2
  // parts, one thread, CPU time): update and final compaction of a part 1.13 s with the LSD kernel's
  // five passes of 13 bits, 0.99 s with this one.
  void sort_buffer() {
    namespace msd = assay::detail::msd;
    const std::size_t n = buffer.size();
    std::uint64_t o = 0, d = ~std::uint64_t{0};
    for (const pending& p : buffer) o |= p.key, d &= p.key;
    const std::uint64_t varying = o ^ d;
    if (n < msd::kMsdMinCases || n > 0xFFFFFFFFu ||
        std::bit_width(varying) <= msd::kTopBits + static_cast<unsigned>(std::countr_zero(varying))) {
      assay::detail::stable_sort_by_key(buffer, sort_scratch);
      sort_scratch.clear();
      return;
    }
    if (sort_scratch.size() < n) {  // grows once to the largest compaction, then reused
      sort_scratch.clear();
      sort_scratch.resize(n);
    }
    const unsigned T = n < (std::size_t{1} << 17) ? 1u : assay::detail::team_threads(8);
    struct key_of {
      std::uint64_t operator()(const pending& p) const noexcept { return p.key; }
    };
    pending* sorted = msd::msd_first<pending, key_of>(buffer.data(), sort_scratch.data(), n, n, varying, T);
    if (sorted == sort_scratch.data()) {
      std::swap(buffer, sort_scratch);
      buffer.resize(n);
    }
  }

  // Whether the newest pending rows (the last 2^16) fold: at most three quarters as many distinct
  // (key, code) pairs as rows, compact_buffer's rule for its runs.
  [[nodiscard]] bool newest_rows_fold() const {
    const std::size_t m = std::min<std::size_t>(buffer.size(), std::size_t{1} << 16);
    std::vector<std::pair<std::uint64_t, std::uint32_t>> pairs(m);
    for (std::size_t i = 0; i < m; ++i) {
      const pending& p = buffer[buffer.size() - m + i];
      pairs[i] = {p.key, p.code};
    }
    std::sort(pairs.begin(), pairs.end());
    const auto distinct = static_cast<std::size_t>(std::unique(pairs.begin(), pairs.end()) - pairs.begin());
    return 4 * distinct <= 3 * m;
  }

  // update()'s compaction, once the buffer holds compact_at rows. While rows do not fold (spread,
  // and the newest rows do not fold), none: the next look is at twice the rows, so that a stream
  // whose scores start to tie is compacted before its buffer has doubled. Memory then stays within
  // about twice what the rows would take as runs, and the rows are sorted once.
  void compact_when_due() {
    if (buffer.size() < compact_at) return;
    if (spread && !newest_rows_fold()) {
      compact_at = 2 * buffer.size();
      return;
    }
    compact_buffer();
  }

  // Moves the pending rows into the sorted run list: sorted by score key (sort_buffer); the rows of
  // one key, few but for heavy ties, are then folded into one run per (key, code), in code order.
  void compact_buffer() {
    if (buffer.empty() && table_used == 0) return;
    std::vector<run> tabled = take_table();
    if (!buffer.empty()) sort_buffer();
    std::vector<run>& fresh = fresh_runs;
    fresh.clear();
    fresh.reserve(buffer.size());
    const auto by_code = [](const pending& a, const pending& b) { return a.code < b.code; };
    const auto run_by_code = [](const run& a, const run& b) { return a.code < b.code; };
    for (std::size_t i = 0; i < buffer.size();) {
      std::size_t end = i + 1;
      while (end < buffer.size() && buffer[end].key == buffer[i].key) ++end;
      // The key's rows are tallied by spelling in place (a key holds few spellings: scores are of
      // a binary task), the tallies then put in code order; past 8 spellings, the rows are sorted.
      const std::size_t first = fresh.size();
      std::size_t k = i;
      for (; k < end; ++k) {
        auto it = std::find_if(fresh.begin() + static_cast<std::ptrdiff_t>(first), fresh.end(),
                               [&](const run& r) { return r.code == buffer[k].code; });
        if (it == fresh.end()) {
          if (fresh.size() - first == 8) break;
          it = fresh.insert(fresh.end(), run{buffer[k].key, buffer[k].code, {}});
        }
        ++it->t.n;
        if (o.weighted) it->t.w.add(buffer[k].w);
      }
      if (k == end) {
        std::sort(fresh.begin() + static_cast<std::ptrdiff_t>(first), fresh.end(), run_by_code);
        i = end;
        continue;
      }
      fresh.resize(first);  // many spellings: sort the key's rows by code, then fold
      std::sort(buffer.begin() + static_cast<std::ptrdiff_t>(i), buffer.begin() + static_cast<std::ptrdiff_t>(end), by_code);
      while (i < end) {
        run r{buffer[i].key, buffer[i].code, {}};
        for (; i < end && buffer[i].code == r.code; ++i) {
          ++r.t.n;
          if (o.weighted) r.t.w.add(buffer[i].w);
        }
        fresh.push_back(std::move(r));
      }
    }
    const std::size_t rows = buffer.size(), made = fresh.size();
    if (defers_terms()) add_run_sums(fresh);
    buffer.clear();
    merge_into(fresh, std::move(tabled));
    // The previous compaction's runs into `runs`; these are held (merged at the next compaction, or
    // read as the merge by finish() and serialize()). The lists' storage rotates: no allocation
    // once they have grown.
    settle();
    if (runs.empty()) std::swap(runs, fresh);
    else std::swap(held, fresh);
    fresh.clear();
    // The next compaction: where runs fold rows (ties: a quarter or more fewer runs than rows), once
    // the buffer is as long as the run list, so memory stays within about twice the runs; where they
    // do not (distinct scores, a run being larger than a pending row), after four times as many rows,
    // so that the run list is merged and regrown a few times rather than at every doubling.
    const std::size_t all = runs.size() + held.size();
    spread = !(4 * made <= 3 * rows);
    compact_at = !spread ? std::max<std::size_t>(all, std::size_t{1} << 16) : std::max<std::size_t>(4 * rows, all);
    if (spread && rows >= (std::size_t{1} << 16)) {
      // Many rows that did not fold (the one sort of compact_when_due's pending rows): the next
      // compaction is far off, so the buffer and the sort's scratch give their room back rather than
      // hold 48 bytes a row beside the runs until then.
      std::vector<pending>().swap(buffer);
      std::vector<pending>().swap(sort_scratch);
    }
  }

  // Merges the sorted, unique runs `other` into `runs` in place: runs grows to hold both, the larger
  // keys are moved to the back from both ends (a backward two-way merge, so no second list is
  // allocated), and a run of one (key, code) in both lists is summed; the gap such sums leave
  // between the untouched front and the merged back is then closed.
  void merge_runs(std::vector<run>&& other) { merge_into(runs, std::move(other)); }

  // merge_runs into the sorted, unique list `runs` (a member or not).
  static void merge_into(std::vector<run>& runs, std::vector<run>&& other) {
    if (runs.empty()) {
      runs = std::move(other);
      return;
    }
    if (other.empty()) return;
    auto before = [](const run& a, const run& b) { return a.key != b.key ? a.key < b.key : a.code < b.code; };
    std::size_t i = runs.size(), j = other.size();
    runs.resize(i + j);
    std::size_t k = runs.size();  // k == i + j + (runs summed so far) > i while j > 0
    while (j > 0) {
      if (i > 0 && before(other[j - 1], runs[i - 1])) {
        runs[--k] = std::move(runs[--i]);
      } else if (i > 0 && !before(runs[i - 1], other[j - 1])) {  // the same key and code
        runs[i - 1].t.add(other[--j].t);
        runs[--k] = std::move(runs[--i]);
      } else {
        runs[--k] = std::move(other[--j]);
      }
    }
    if (k > i) {
      std::move(runs.begin() + static_cast<std::ptrdiff_t>(k), runs.end(), runs.begin() + static_cast<std::ptrdiff_t>(i));
      runs.resize(runs.size() - (k - i));
    }
  }
};


namespace detail {

/// Called once per run: (score key, spelling code, tally).
using run_visitor = std::function<void(std::uint64_t, std::uint32_t, const tally&)>;
/// Visits every run in descending key order (the codes of one key in any order); may be called
/// more than once (a weighted walk takes two).
using run_source = std::function<void(const run_visitor&)>;
/// Called once per batch of consecutive runs of a walk (in the walk's order; a key's runs may be
/// cut between two batches).
using run_batch_visitor = std::function<void(std::span<const run>)>;
/// A run_source that hands its runs over in batches: one call through std::function per batch
/// instead of per run, so that the finish's accumulators are inlined into the loop over a batch
/// (at 10^7 distinct scores the two calls per run were a third of the out-of-core finish's walk).
using run_batch_source = std::function<void(const run_batch_visitor&)>;

struct state_access {
  static evaluation_state::impl& of(evaluation_state& s) { return *s.impl_; }
  static const evaluation_state::impl& of(const evaluation_state& s) { return *s.impl_; }
};

/// The first field of state_options (by name) in which `a` and `b` differ, besides `source`; null
/// when they are equal. The states of equal options merge.
const char* differing_option(const state_options& a, const state_options& b);

/// A column of labels of one batch as spellings: each row's code into `spellings` (-1: a missing
/// number, NaN), numbers spelled by canonical_number.
struct batch_labels {
  std::vector<std::string> spellings;
  std::vector<std::int32_t> codes;
};
/// The spellings of label column `c` of an n-row batch; usage errors name `fn` and the column `name`
/// (a code outside the dictionary, an infinite number, a wrong length, no column).
batch_labels resolve(const label_column& c, std::size_t n, const char* name, const char* fn);

/// The true spellings (those of rows' labels) and the predicted spellings (predicted classes) the
/// state holds, each sorted by bytes: what finish() decides the classes from.
std::pair<std::vector<std::string>, std::vector<std::string>> spellings_of(const evaluation_state::impl& s);

/// Replaces every row id the state holds (kept rows, the first zero target, the first row of
/// probabilities that do not sum to 1) by its rank among the kept rows' ids: the state of a slice
/// then numbers its rows 0, 1, ... in id order, as a table of the slice's rows alone. Needs
/// state_options::row_ids (else a usage error naming the function).
void rank_row_ids(evaluation_state::impl& s);

/// Somewhere to put the running sums (tp, fp) of a descending walk, one entry per distinct score, and
/// to read them back lowest score first: the out-of-core reader keeps them in a temporary file.
struct sweep_store {
  std::function<void(double tp, double fp)> put;
  std::function<void(const std::function<void(double tp, double fp)>&)> backwards;
};

/// The sums behind the regression metrics, term for term those of metrics/regression.cpp (each term
/// rounded once and summed exactly, so any order of the rows gives the same bits). First the rows'
/// targets and residuals y - yhat (add_target, add_residual; rows of weight 0 are left out), then,
/// once the means are known, their spreads about them (spread_target, spread_residual: sum w (y -
/// mean y)^2 for R^2 and explained variance, sum w r^2 and sum w (r - mean r)^2), and the median
/// absolute error (median_walk). The state fills it from its maps; the out-of-core reader from the
/// targets and residuals it spills (scale/out_of_core.hpp), which is why the pieces are separate.
struct regression_sums {
  exact_sum den;                                   // weights > 0
  assay::detail::signed_exact_sum sum_y, sum_r;    // w y, w r
  exact_sum sum_abs, sum_sq;                       // w |r|, w r^2
  double max_abs = -1;                             // max |r|; -1: no rows of positive weight
  bool seen = false, constant = true;              // a row of positive weight; all their targets equal
  double first = 0;                                // the first such target seen
  exact_sum tot, res, vr;                          // w (y - mean y)^2, w r^2, w (r - mean r)^2
  double median = 0;                               // the median absolute error, when seen
  void add_target(double y, double w, std::uint64_t n);
  void add_residual(double r, double w, std::uint64_t n);
  [[nodiscard]] value mean_target() const;
  [[nodiscard]] value mean_residual() const;
  void spread_target(double y, double w, std::uint64_t n, double mean_y);
  void spread_residual(double r, double w, std::uint64_t n, double mean_r);
};

/// median_absolute_error's rule (metrics/regression.cpp): the cases of positive weight in ascending
/// order of (|error|, weight), each case's weight added in turn to a running floating-point sum; the
/// lower median is the first value where the sum reaches half the total weight, the upper the first
/// where it passes it, the result their mean (the largest value for one never reached). The running
/// sum is rounded after each case, so the cases must come in exactly this order.
struct median_walk {
  explicit median_walk(double total) : half(total / 2) {}
  void add(double x, double w) {
    cum += w;
    last = x;
    if (!have_lower && cum >= half) lower = x, have_lower = true;
    if (cum > half) upper = x, done = true;
  }
  [[nodiscard]] double result() const { return ((have_lower ? lower : last) + (done ? upper : last)) / 2; }
  double half, cum = 0, lower = 0, upper = 0, last = 0;
  bool have_lower = false, done = false;  ///< done: add no more cases
};

/// evaluation_state::finish on `s` with the score runs given by `runs` (s.runs are not read).
/// `runs_ascending`, when given, visits the same runs in ascending key order: an unweighted report
/// then streams the other class's areas (ranked by -score) from it instead of building the sweep of
/// every distinct score in memory (the out-of-core reader's cap). `store`, when given, does the same
/// for a weighted report: the other class's areas are the complement of the sweep (curves::complement),
/// whose entries are the forward running sums read backwards, so they are put there and read back.
/// `values`, when given, are the regression sums of every row (the state's maps are then not read).
report finish_state(evaluation_state::impl& s, const evaluate_options& q, const run_source& runs,
                    const run_source* runs_ascending = nullptr, sweep_store* store = nullptr,
                    const regression_sums* values = nullptr);

/// The classes of the spellings a state has seen, by decide_classes under the state's options (its
/// pos_label and task). Messages are those of the in-memory builder `fn` of the same prediction kind
/// (predictions_from_scores, _labels or _proba), whose rules a state follows.
class_plan state_classes(label_spellings seen, const state_options& o, const char* fn);

/// finish()'s classes of binary scores on the true spellings `true_codes` (codes of s.dict,
/// ascending, unique) and the other slices' (impl::also_true), and class_of[code] the class of each
/// such code (-1 for the other codes of s.dict).
class_plan score_classes(const evaluation_state::impl& s, const std::vector<std::uint32_t>& true_codes,
                         std::vector<std::int32_t>& class_of);

/// A state built with one_class_loss: the spellings (codes) whose loss sums lack the terms of the
/// class finish() puts them in (their class changed as spellings came), with that class (0 or 1).
/// The caller sums those terms over every row of the spelling again and sets the class's bit of
/// losses::have, else finish() refuses the state. Empty when the classes cannot be told (finish()
/// then says why).
std::vector<std::pair<std::uint32_t, int>> losses_to_redo(const evaluation_state::impl& s);

/// finish_state with the runs handed over in batches (run_batch_source): the same report.
report finish_state(evaluation_state::impl& s, const evaluate_options& q, const run_batch_source& runs,
                    const run_batch_source* runs_ascending, sweep_store* store);

}  // namespace detail
}  // namespace assay::scale
