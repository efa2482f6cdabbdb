// The mergeable evaluation state: update() and check(), their row loops (scores, predicted classes,
// rows with counts, regression values); see state.cpp.
#include "assay/scale/state.hpp"
#include "assay/scale/ranges.hpp"
#include "bytes.hpp"
#include "state_parts.hpp"
#include "state_impl.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <type_traits>
#include <unordered_map>

#include "../data/number_codes.hpp"
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

using detail::update_proba;

namespace {

// The spellings of a batch's label column, update()'s errors naming evaluation_state::update. A
// column of numbers with at most 8 distinct values (the labels of a classification) is coded here
// by assay::detail::number_codes (src/data/number_codes.hpp, as the prediction table codes them), without
// detail::resolve's hash table; the spellings are in order of first appearance and the codes those
// detail::resolve gives. Any other column, or one with a value that is not finite, goes to
// detail::resolve (which also words its errors).
batch_labels resolve(const label_column& c, std::size_t n, const char* name) {
  constexpr std::size_t few = 8;
  if (c.kind != label_column::form::numbers || c.size() != n) return detail::resolve(c, n, name, "evaluation_state::update");
  assay::detail::number_codes seen;
  batch_labels b;
  b.codes.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = c.numbers[i];
    if (!std::isfinite(x)) return detail::resolve(c, n, name, "evaluation_state::update");  // NaN: -1; else its error
    const auto [code, added] = seen.code(x + 0.0);
    if (added) {
      if (seen.size() > few) return detail::resolve(c, n, name, "evaluation_state::update");
      b.spellings.push_back(canonical_number(x));
    }
    b.codes[i] = code;
  }
  return b;
}

}  // namespace

// ---- regression --------------------------------------------------------------------------------------

namespace {

void update_values(evaluation_state::impl& s, const row_batch& b, bool apply) {
  const state_options& o = s.o;
  const std::size_t n = b.y_true.size();
  if (b.y_true.kind != label_column::form::numbers) {
    throw_usage("evaluation_state::update: y_true must be numbers for regression");
  }
  if (b.y_value.size() != n) {
    throw_usage(fmt::format("evaluation_state::update: y_value has {} entries, but y_true has {}", b.y_value.size(), n));
  }
  std::vector<std::uint8_t> skip(n, 0);
  std::uint64_t skipped = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double y = b.y_true.numbers[i], p = b.y_value[i];
    const double w = o.weighted ? b.sample_weight[i] : 1.0;
    const char* what = std::isnan(y) ? "y_true" : std::isnan(p) ? "y_value" : std::isnan(w) ? "sample_weight" : nullptr;
    if (what != nullptr) {
      if (!o.drop_missing) {
        throw_data(fmt::format("evaluation_state::update: {}[{}] is nan; missing values are refused (set drop_missing "
                               "to skip such rows)", what, i));
      }
      skip[i] = 1;
      ++skipped;
      continue;
    }
    if (!std::isfinite(y) || !std::isfinite(p)) {
      throw_data(fmt::format("evaluation_state::update: {}[{}] is {}; values must be finite",
                             std::isfinite(y) ? "y_value" : "y_true", i, std::isfinite(y) ? p : y));
    }
    if (!(w >= 0 && std::isfinite(w))) {
      throw_data(fmt::format("evaluation_state::update: sample_weight[{}] is {}; weights must be finite and >= 0", i, w));
    }
  }
  if (!apply) return;
  for (std::size_t i = 0; i < n; ++i) {
    if (skip[i]) continue;
    const double y = b.y_true.numbers[i], p = b.y_value[i];
    const double w = o.weighted ? b.sample_weight[i] : 1.0;
    const auto wb = std::bit_cast<std::uint64_t>(w);
    if (o.row_ids) {  // for the intervals, which resample rows
      s.kept.push_back({b.id(i), 0, 0, 0, w});
      s.kept_x.push_back(y);
      s.kept_x.push_back(p);
      s.kept_sorted = false;
    }
    if (s.keep_runs) {  // else the out-of-core reader spills them (regression_sums)
      ++s.reg_y[{assay::detail::order_key(y), wb}];
      ++s.reg_r[{assay::detail::order_key(y - p), wb}];
    }
    if (o.weighted) s.total_weight.add(w);
    if (w == 0) continue;
    // The terms of the registry's means of row terms (metrics/regression.hpp), each in its domain.
    const auto& terms = row_terms();
    for (std::size_t k = 0; k < terms.size(); ++k) {
      auto& t = s.terms[k];
      if (terms[k].outside != nullptr && terms[k].outside(y, p) != nullptr) {
        const std::uint64_t id = b.id(i);
        if (!t.first_outside || id < *t.first_outside) t.first_outside = id, t.y = y, t.yhat = p;
        continue;
      }
      t.sum.add(w * terms[k].term(y, p));
    }
  }
  s.rows += n - skipped;
  s.missing += skipped;
}

void add_times(assay::detail::signed_exact_sum& s, double x, std::uint64_t n) {
  if (x >= 0) s.positive().add_times(x, n);
  else s.negative().add_times(-x, n);
}

}  // namespace

namespace detail {

void regression_sums::add_target(double y, double w, std::uint64_t n) {
  if (w == 0) return;
  add_times(sum_y, w * y, n);
  if (!seen) first = y, seen = true;
  else if (y != first) constant = false;
}

void regression_sums::add_residual(double r, double w, std::uint64_t n) {
  if (w == 0) return;
  den.add_times(w, n);
  add_times(sum_r, w * r, n);
  sum_abs.add_times(w * std::abs(r), n);
  sum_sq.add_times(w * (r * r), n);
  max_abs = std::max(max_abs, std::abs(r));
}

value regression_sums::mean_target() const { return ratio(sum_y.value(), den.value(), "no cases"); }
value regression_sums::mean_residual() const { return ratio(sum_r.value(), den.value(), "no cases"); }

void regression_sums::spread_target(double y, double w, std::uint64_t n, double mean_y) {
  const double d = y - mean_y;
  tot.add_times(w * d * d, n);
}

void regression_sums::spread_residual(double r, double w, std::uint64_t n, double mean_r) {
  res.add_times(w * r * r, n);
  const double c = r - mean_r;
  vr.add_times(w * c * c, n);
}
}  // namespace detail

// ---- rows with multiplicities (row_batch::counts) ---------------------------------------------------

namespace {

// The column of row i of a scores or predicted-classes batch that holds a missing value (a null
// label, a NaN score or weight), or nullptr; without drop_missing such a row is refused, naming the
// column, the row and the value. The rule of update's row loop and of its rows with counts.
const char* missing_in(const row_batch& b, const batch_labels& yt, const batch_labels& yp, bool scores,
                       const state_options& o, std::size_t i) {
  const char* what = nullptr;
  double v = 0;
  if (yt.codes[i] < 0) what = "y_true", v = b.y_true.numbers[i];
  else if (!scores && yp.codes[i] < 0) what = "y_pred", v = b.y_pred.numbers[i];
  else if (scores && std::isnan(b.y_score[i])) what = "y_score", v = b.y_score[i];
  else if (o.weighted && std::isnan(b.sample_weight[i])) what = "sample_weight", v = b.sample_weight[i];
  if (what != nullptr && !o.drop_missing) {
    throw_data(fmt::format("evaluation_state::update: {}[{}] is {}; missing values are refused (set drop_missing "
                           "to skip such rows)", what, i, v));
  }
  return what;
}

// Refuses row i's score when it is not finite and its weight when it is negative or not finite (a
// row with nothing missing): the rule of update's row loop and of its rows with counts.
void check_row_values(const row_batch& b, bool scores, const state_options& o, std::size_t i) {
  if (scores && !std::isfinite(b.y_score[i])) {
    throw_data(fmt::format("evaluation_state::update: y_score[{}] is {}; scores must be finite", i, b.y_score[i]));
  }
  if (o.weighted && !(b.sample_weight[i] >= 0 && std::isfinite(b.sample_weight[i]))) {
    throw_data(fmt::format("evaluation_state::update: sample_weight[{}] is {}; weights must be finite and >= 0", i,
                           b.sample_weight[i]));
  }
}

// evaluation_state::update for a batch whose row i stands for counts[i] identical rows (scores and
// predicted classes, without row ids): every tally and exact sum the row path adds once per row is
// added counts[i] times here (exact_sum::add_times: exact for any count), and the score runs are made
// directly from the batch (one run per (score key, true spelling), its count and exact weight), so
// the state equals, bit for bit, the one updated with the rows repeated. The batch's columns were
// checked for length by update().
void update_counted(evaluation_state::impl& s, const row_batch& b, bool apply) {
  const state_options& o = s.o;
  const bool scores = o.kind == prediction_kind::scores;
  const std::size_t n = b.y_true.size();
  if (b.counts.size() != n) {
    throw_usage(fmt::format("evaluation_state::update: counts has {} entries, but y_true has {}", b.counts.size(), n));
  }
  if (!scores && o.kind != prediction_kind::labels) {
    throw_usage("evaluation_state::update: counts (rows with multiplicities) are taken for scores and predicted "
                "classes only, not for regression or class probabilities");
  }
  if (o.row_ids) {
    throw_usage("evaluation_state::update: counts cannot be given to a state that keeps row ids (row_ids: each "
                "row needs its own id)");
  }
  const batch_labels yt = resolve(b.y_true, n, "y_true");
  batch_labels yp;
  if (!scores) yp = resolve(b.y_pred, n, "y_pred");
  std::vector<std::uint8_t> skip(n, 0);
  std::uint64_t rows = 0, skipped = 0;
  constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t c = b.counts[i];
    if (c == 0) throw_usage(fmt::format("evaluation_state::update: counts[{}] is 0; a count must be at least 1", i));
    const char* what = missing_in(b, yt, yp, scores, o, i);
    if (what != nullptr) {
      skip[i] = 1;
      if (c > top - skipped - s.missing) throw_usage("evaluation_state::update: the counts overflow a 64-bit row count");
      skipped += c;
      continue;
    }
    check_row_values(b, scores, o, i);
    if (c > top - rows - s.rows) throw_usage("evaluation_state::update: the counts overflow a 64-bit row count");
    rows += c;
  }
  if (!apply) return;
  // The batch's spellings, as update() maps them (every spelling of the batch enters the dictionary).
  for (const auto& t : yt.spellings) s.code_of(t);
  for (const auto& t : yp.spellings) s.code_of(t);
  std::vector<std::uint32_t> tmap(yt.spellings.size()), pmap(yp.spellings.size());
  for (std::size_t k = 0; k < tmap.size(); ++k) tmap[k] = s.code_of(yt.spellings[k]);
  for (std::size_t k = 0; k < pmap.size(); ++k) pmap[k] = s.code_of(yp.spellings[k]);

  std::vector<run> fresh;
  if (scores && s.keep_runs) fresh.reserve(n);
  const proba_view pv = proba_view::scores(b.y_score);
  for (std::size_t i = 0; i < n; ++i) {
    if (skip[i]) continue;
    const std::uint64_t c = b.counts[i];
    const double w = o.weighted ? b.sample_weight[i] : 1.0;
    s.note_weight(w);
    const auto bt = static_cast<std::size_t>(yt.codes[i]);
    std::uint32_t side_or_pred;
    if (scores) {
      const double x = b.y_score[i];
      side_or_pred = x >= o.threshold ? 1 : 0;
      s.all_probabilities = s.all_probabilities && x >= 0 && x <= 1;
      if (s.keep_runs) {
        run r{assay::detail::order_key(x), tmap[bt], {}};
        r.t.n = c;
        if (o.weighted) r.t.w.add_times(w, c);
        fresh.push_back(std::move(r));
      }
      if (x >= 0 && x <= 1) {  // the reliability curve's sums (as curves::reliability_curve)
        const auto bin = static_cast<std::uint32_t>(curves::uniform_bin_of(x, calibration_bins));
        tally& k = s.calib[{tmap[bt], bin}];
        k.n += c;
        if (o.weighted) k.w.add_times(w, c);
        s.calib_ws[bin].add_times(w * x, c);
      }
      if (w != 0) {  // the terms of weighted_loss_sum, for either class of the row (as update())
        losses& l = s.loss[tmap[bt]];
        for (std::size_t k = 0; k < 2; ++k) {
          l.log_loss[k].add_times(w * log_loss_term(pv, i, k), c);
          l.brier[k].add_times(w * brier_term(pv, i, k), c);
        }
      }
    } else {
      side_or_pred = pmap[static_cast<std::size_t>(yp.codes[i])];
    }
    tally& cell = s.cells[{tmap[bt], side_or_pred}];
    cell.n += c;
    if (o.weighted) {
      cell.w.add_times(w, c);
      s.total_weight.add_times(w, c);
    }
  }
  if (!fresh.empty()) {  // sorted by (key, code), a run per pair, then merged into the state's runs
    std::sort(fresh.begin(), fresh.end(),
              [](const run& x, const run& y) { return x.key != y.key ? x.key < y.key : x.code < y.code; });
    std::size_t out = 0;
    for (std::size_t i = 0; i < fresh.size(); ++i) {
      if (out > 0 && fresh[out - 1].key == fresh[i].key && fresh[out - 1].code == fresh[i].code) {
        fresh[out - 1].t.add(fresh[i].t);
      } else if (out != i) {
        fresh[out++] = std::move(fresh[i]);
      } else {
        ++out;
      }
    }
    fresh.resize(out);
    s.merge_runs(std::move(fresh));
  }
  s.rows += rows;
  s.missing += skipped;
}

}  // namespace

namespace {

// update()'s refusals of a batch whose columns do not fit the state (lengths, weights).
void check_batch(const state_options& o, const row_batch& b) {
  const bool scores = o.kind == prediction_kind::scores;
  const std::size_t n = b.y_true.size();
  if (scores && b.y_score.size() != n) {
    throw_usage(fmt::format("evaluation_state::update: y_score has {} entries, but y_true has {}", b.y_score.size(), n));
  }
  if (o.weighted && b.sample_weight.size() != n) {
    throw_usage(fmt::format("evaluation_state::update: sample_weight has {} entries, but y_true has {} (the state is "
                            "weighted)", b.sample_weight.size(), n));
  }
  if (!o.weighted && !b.sample_weight.empty()) {
    throw_usage("evaluation_state::update: sample_weight given, but the state is unweighted (set weighted)");
  }
  if (!b.row_ids.empty() && b.row_ids.size() != n) {
    throw_usage(fmt::format("evaluation_state::update: row_ids has {} entries, but y_true has {}", b.row_ids.size(), n));
  }
}

// The rows of a batch of scores or predicted classes that drop_missing skips (1; empty: none), their
// number in `skipped`; a missing or refused value without drop_missing throws, naming it.
std::vector<std::uint8_t> rows_to_skip(const row_batch& b, const batch_labels& yt, const batch_labels& yp,
                                       const state_options& o, std::uint64_t& skipped) {
  const bool scores = o.kind == prediction_kind::scores;
  const std::size_t n = b.y_true.size();
  // A branch-free scan first (it vectorises): in the common batch nothing is missing or refused, and
  // update_rows' row loop needs no per-row checks. Otherwise the loop after it finds the rows to skip
  // and the first refused value, naming it.
  bool clean = true;
  {
    constexpr double most = std::numeric_limits<double>::max();
    for (std::size_t i = 0; i < n; ++i) {
      bool ok = (yt.codes[i] >= 0) & (scores ? std::fabs(b.y_score[i]) <= most : yp.codes[i] >= 0);
      if (o.weighted) ok &= (b.sample_weight[i] >= 0) & (b.sample_weight[i] <= most);
      clean &= ok;
    }
  }
  std::vector<std::uint8_t> skip;
  if (!clean) {
    skip.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const char* what = missing_in(b, yt, yp, scores, o, i);
      if (what != nullptr) {
        skip[i] = 1;
        ++skipped;
        continue;
      }
      check_row_values(b, scores, o, i);
    }
  }
  return skip;
}

// The class each batch spelling's loss terms are summed for (tmap: batch spelling -> state code).
std::vector<std::uint8_t> classes_of_losses(const evaluation_state::impl& s, const std::vector<std::uint32_t>& tmap,
                                            std::size_t T) {
  const bool scores = s.o.kind == prediction_kind::scores;
  // one_class_loss: the one class whose terms each batch spelling's rows add (2: both, when the
  // classes cannot be told yet), by finish()'s rules on the spellings seen so far and the batch's.
  std::vector<std::uint8_t> only(scores ? T : 0, 2);
  if (scores && s.one_class_loss && T > 0) {
    std::vector<std::uint32_t> true_codes(tmap.begin(), tmap.end());
    for (const auto& [k, v] : s.cells) true_codes.push_back(k.first);
    std::sort(true_codes.begin(), true_codes.end());
    true_codes.erase(std::unique(true_codes.begin(), true_codes.end()), true_codes.end());
    std::vector<std::int32_t> class_of;
    try {
      const class_plan t = detail::score_classes(s, true_codes, class_of);
      if (t.positive) {
        for (std::size_t bt = 0; bt < T; ++bt) only[bt] = class_of[tmap[bt]] == static_cast<std::int32_t>(*t.positive) ? 1 : 0;
      }
    } catch (const error&) {
      // not two classes yet (or an error finish() reports): both terms
    }
  }
  return only;
}

// The tallies and sums of one batch of scores or predicted classes by (batch true spelling, batch
// predicted spelling or score side), folded into the state's maps once per batch (fold_sums); exact
// sums, so the folding order does not matter.
struct batch_sums {
  // The batch's loss sums per true spelling: chunked_sum, the same exact value as exact_sum at a few
  // integer additions a term (the in-memory weighted_loss_sum's accumulator).
  struct batch_losses {
    assay::detail::chunked_sum log_loss[2], brier[2];
  };
  std::size_t T = 0, Pn = 0;
  bool dense = false;            // the (true, predicted) cells in `local`; else in the state's map
  bool chunked_weights = false;  // weighted scores: the weight sums of the cells in chunked_sum too
  std::vector<tally> local;
  std::vector<batch_losses> loss;
  std::vector<assay::detail::chunked_sum> ws;  // per reliability bin: w * score
  std::vector<tally> calib;                    // per (true spelling, bin)
  std::vector<assay::detail::chunked_sum> w, calib_w;
  std::vector<std::uint8_t> has_loss;
  std::vector<std::uint8_t> only;  // classes_of_losses
};

batch_sums make_sums(const evaluation_state::impl& s, const batch_labels& yt, const batch_labels& yp,
                     const std::vector<std::uint32_t>& tmap) {
  const bool scores = s.o.kind == prediction_kind::scores;
  batch_sums m;
  m.T = yt.spellings.size();
  m.Pn = scores ? 2 : yp.spellings.size();
  m.dense = m.T * m.Pn <= (std::size_t{1} << 16);
  m.local.resize(m.dense ? m.T * m.Pn : 0);
  // Scores whose terms are left to the compaction (impl::defers_terms) need no loss or reliability sums.
  const bool sums = scores && !s.defers_terms();
  m.loss.resize(sums ? m.T : 0);
  m.ws.resize(sums ? calibration_bins : 0);
  m.calib.resize(sums ? m.T * calibration_bins : 0);
  m.chunked_weights = scores && s.o.weighted && m.dense;
  m.w.resize(m.chunked_weights ? m.T * m.Pn : 0);
  m.calib_w.resize(m.chunked_weights ? m.T * calibration_bins : 0);
  m.has_loss.assign(sums ? m.T : 0, 0);
  if (sums) m.only = classes_of_losses(s, tmap, m.T);
  return m;
}

// The rows of a state that keeps no score runs, reliability sums or rows (a ranked part's,
// scale/ranges.hpp) and skips none: the same tallies and sums as general_rows, without its per-row
// branches on what this state does not keep, the flag of scores in [0, 1] in a register, and with at
// most two spellings their four cells counted in registers (an increment of a cell the previous row
// also touched waits on that row's store).
void lean_rows(evaluation_state::impl& s, const row_batch& b, const batch_labels& yt, batch_sums& m) {
  const state_options& o = s.o;
  const std::size_t n = b.y_true.size();
  bool unit = true;
  std::uint64_t cell[4] = {0, 0, 0, 0};
  const bool two = m.T <= 2;
  for (std::size_t i = 0; i < n; ++i) {
    const double w = o.weighted ? b.sample_weight[i] : 1.0;
    if (o.weighted) s.note_weight(w);  // 1.0 is whole
    const auto bt = static_cast<std::size_t>(yt.codes[i]);
    const double x = b.y_score[i];
    const std::size_t bp = x >= o.threshold ? 1 : 0;
    unit &= (x >= 0) & (x <= 1);
    if (w != 0) {  // as general_rows: the terms of the classes `only` names, rows of weight 0 left out
      batch_sums::batch_losses& l = m.loss[bt];
      m.has_loss[bt] = 1;
      const std::size_t k0 = m.only[bt] == 1 ? 1 : 0, k1 = m.only[bt] == 0 ? 1 : 2;
      for (std::size_t k = k0; k < k1; ++k) {
        l.log_loss[k].add(w * binary_log_loss_term(x, k));
        l.brier[k].add(w * binary_brier_term(x, k));
      }
    }
    const std::size_t at = bt * m.Pn + bp;
    if (two) {
      cell[0] += at == 0;
      cell[1] += at == 1;
      cell[2] += at == 2;
      cell[3] += at == 3;
    } else {
      ++m.local[at].n;
    }
    if (m.chunked_weights) m.w[at].add(w);
  }
  for (std::size_t c = 0; two && c < m.local.size(); ++c) m.local[c].n += cell[c];
  s.all_probabilities = s.all_probabilities && unit;
}

// The rows of an unweighted state that keeps score runs and leaves their terms to the compaction
// (impl::defers_terms), without row ids, skipping none: each row goes to the table or the buffer of
// pending rows, and is counted in its cell; nothing else is computed per row. The buffer has room
// for the batch (update_rows).
void deferred_rows(evaluation_state::impl& s, const row_batch& b, const batch_labels& yt,
                   const std::vector<std::uint32_t>& tmap, batch_sums& m) {
  const std::size_t n = b.y_true.size();
  const double threshold = s.o.threshold;
  bool unit = true;
  std::uint64_t cell[4] = {0, 0, 0, 0};
  const bool two = m.T <= 2;
  for (std::size_t i = 0; i < n; ++i) {
    const auto bt = static_cast<std::size_t>(yt.codes[i]);
    const double x = b.y_score[i];
    unit &= (x >= 0) & (x <= 1);
    const std::uint64_t key = assay::detail::order_key(x);
    if (s.table_off || s.tally_in_table(key, tmap[bt], 1.0) == nullptr) s.buffer.push_back({key, tmap[bt], 1.0});
    const std::size_t at = bt * 2 + (x >= threshold ? 1 : 0);
    if (two) {
      cell[0] += at == 0;
      cell[1] += at == 1;
      cell[2] += at == 2;
      cell[3] += at == 3;
    } else {
      ++m.local[at].n;
    }
  }
  for (std::size_t c = 0; two && c < m.local.size(); ++c) m.local[c].n += cell[c];
  s.all_probabilities = s.all_probabilities && unit;
}

// The rows of any other batch of scores or predicted classes, row by row (skip: the rows to skip;
// empty, none).
void general_rows(evaluation_state::impl& s, const row_batch& b, const batch_labels& yt, const batch_labels& yp,
                  const std::vector<std::uint32_t>& tmap, const std::vector<std::uint32_t>& pmap,
                  const std::vector<std::uint8_t>& skip, batch_sums& m) {
  const state_options& o = s.o;
  const bool scores = o.kind == prediction_kind::scores;
  const bool defer = s.defers_terms();
  const std::size_t n = b.y_true.size();
  const proba_view pv = proba_view::scores(b.y_score);
  for (std::size_t i = 0; i < n; ++i) {
    if (!skip.empty() && skip[i]) continue;
    const double w = o.weighted ? b.sample_weight[i] : 1.0;
    if (o.weighted) s.note_weight(w);  // 1.0 is whole
    const auto bt = static_cast<std::size_t>(yt.codes[i]);
    std::size_t bp;
    if (scores) {
      const double x = b.y_score[i];
      bp = x >= o.threshold ? 1 : 0;
      s.all_probabilities = s.all_probabilities && x >= 0 && x <= 1;
      // Unweighted, a row's reliability and loss terms are those of its (score, spelling): added as
      // count x term when its run is made (impl::add_run_sums, and impl::take_table for a tabled
      // row), the same exact sums. Weighted, a tabled row's terms and bin are computed once per
      // (score, spelling) in the table.
      bool deferred = false;
      key_tally* e = nullptr;
      if (s.keep_runs) {
        const std::uint64_t key = assay::detail::order_key(x);
        e = s.tally_in_table(key, tmap[bt], w);
        if (e == nullptr) {
          s.buffer.push_back({key, tmap[bt], w});
          deferred = defer;
        } else if (!o.weighted) {
          deferred = true;
        } else if (!e->has_terms) {
          e->has_terms = true;
          for (std::size_t k = 0; k < 2; ++k) e->log_loss[k] = log_loss_term(pv, i, k), e->brier[k] = brier_term(pv, i, k);
          e->bin = x >= 0 && x <= 1 ? curves::uniform_bin_of(x, calibration_bins) : 0;
        }
      }
      if (!deferred && s.calibration && x >= 0 && x <= 1) {  // the reliability curve's sums (as curves::reliability_curve)
        const std::size_t bin = e != nullptr ? e->bin : curves::uniform_bin_of(x, calibration_bins);
        tally& c = m.calib[bt * calibration_bins + bin];
        ++c.n;
        if (m.chunked_weights) m.calib_w[bt * calibration_bins + bin].add(w);
        else if (o.weighted) c.w.add(w);
        m.ws[bin].add(w * x);
      }
      if (!deferred && w != 0) {
        // As evaluate: the terms of weighted_loss_sum (w * term, rows of weight 0 left out), for
        // either class of the row, the class being decided in finish() (with one_class_loss, the
        // class `only` names when it is known).
        batch_sums::batch_losses& l = m.loss[bt];
        m.has_loss[bt] = 1;
        const std::size_t k0 = m.only[bt] == 1 ? 1 : 0, k1 = m.only[bt] == 0 ? 1 : 2;  // the classes [k0, k1)
        for (std::size_t k = k0; k < k1; ++k) {
          l.log_loss[k].add(w * (e != nullptr ? e->log_loss[k] : log_loss_term(pv, i, k)));
          l.brier[k].add(w * (e != nullptr ? e->brier[k] : brier_term(pv, i, k)));
        }
      }
    } else {
      bp = static_cast<std::size_t>(yp.codes[i]);
    }
    if (o.row_ids) {
      s.kept.push_back({b.id(i), scores ? assay::detail::order_key(b.y_score[i]) : 0, tmap[bt],
                        scores ? 0 : pmap[bp], w});
      s.kept_sorted = false;
    }
    tally& c = m.dense ? m.local[bt * m.Pn + bp]
                       : s.cells[{tmap[bt], scores ? static_cast<std::uint32_t>(bp) : pmap[bp]}];
    ++c.n;
    if (m.chunked_weights) m.w[bt * m.Pn + bp].add(w);
    else if (o.weighted) c.w.add(w);
  }
}

// The batch's tallies and sums into the state's maps.
void fold_sums(evaluation_state::impl& s, const row_batch& b, const std::vector<std::uint8_t>& skip,
               const std::vector<std::uint32_t>& tmap, const std::vector<std::uint32_t>& pmap, batch_sums& m) {
  const state_options& o = s.o;
  const bool scores = o.kind == prediction_kind::scores;
  if (m.chunked_weights) {
    for (std::size_t k = 0; k < m.local.size(); ++k) m.local[k].w = m.w[k].result();
    for (std::size_t k = 0; k < m.calib.size(); ++k) m.calib[k].w = m.calib_w[k].result();
  }
  if (m.dense) {
    for (std::size_t bt = 0; bt < m.T; ++bt) {
      for (std::size_t bp = 0; bp < m.Pn; ++bp) {
        const tally& c = m.local[bt * m.Pn + bp];
        if (c.n == 0) continue;
        s.cells[{tmap[bt], scores ? static_cast<std::uint32_t>(bp) : pmap[bp]}].add(c);
        if (o.weighted) s.total_weight.add(c.w);
      }
    }
  } else if (o.weighted) {
    for (std::size_t i = 0; i < b.y_true.size(); ++i) {
      if (skip.empty() || !skip[i]) s.total_weight.add(b.sample_weight[i]);
    }
  }
  for (std::size_t bin = 0; bin < m.ws.size(); ++bin) s.calib_ws[bin].add(m.ws[bin].result());
  for (std::size_t bt = 0; bt < m.loss.size(); ++bt) {
    if (m.has_loss[bt]) {
      losses l;
      for (std::size_t k = 0; k < 2; ++k) {
        l.log_loss[k] = m.loss[bt].log_loss[k].result();
        l.brier[k] = m.loss[bt].brier[k].result();
      }
      l.have = m.only[bt] == 2 ? 3 : static_cast<std::uint8_t>(1U << m.only[bt]);
      s.loss[tmap[bt]].add(l);
    }
    for (std::size_t bin = 0; bin < calibration_bins; ++bin) {
      const tally& c = m.calib[bt * calibration_bins + bin];
      if (c.n > 0) s.calib[{tmap[bt], static_cast<std::uint32_t>(bin)}].add(c);
    }
  }
}

// update() (apply) or check() (not apply: every check of the batch, then nothing changed).
void update_rows(evaluation_state::impl& s, const row_batch& b, bool apply) {
  const state_options& o = s.o;
  const bool scores = o.kind == prediction_kind::scores;
  const std::size_t n = b.y_true.size();
  // Check the whole batch before changing anything.
  check_batch(o, b);
  if (n == 0) return;
  if (b.row_ids.empty() && b.first_row_id > std::numeric_limits<std::uint64_t>::max() - (n - 1)) {
    throw_usage(fmt::format("evaluation_state::update: first_row_id {} + {} rows overflows a 64-bit row id",
                            b.first_row_id, n));
  }
  if (!b.counts.empty()) {
    update_counted(s, b, apply);
    return;
  }
  if (o.kind == prediction_kind::values) {
    update_values(s, b, apply);
    return;
  }
  const batch_labels yt = resolve(b.y_true, n, "y_true");
  if (o.kind == prediction_kind::proba) {
    update_proba(s, b, yt, apply);
    return;
  }
  batch_labels yp;
  if (!scores) yp = resolve(b.y_pred, n, "y_pred");
  std::uint64_t skipped = 0;
  const std::vector<std::uint8_t> skip = rows_to_skip(b, yt, yp, o, skipped);  // empty: no row skipped
  if (!apply) return;
  // Map the batch's spellings to the state's codes (new spellings renumber the state).
  std::vector<std::uint32_t> tmap(yt.spellings.size()), pmap(yp.spellings.size());
  for (std::size_t k = 0; k < yt.spellings.size(); ++k) s.code_of(yt.spellings[k]);
  for (std::size_t k = 0; k < yp.spellings.size(); ++k) s.code_of(yp.spellings[k]);
  for (std::size_t k = 0; k < yt.spellings.size(); ++k) tmap[k] = s.code_of(yt.spellings[k]);
  for (std::size_t k = 0; k < yp.spellings.size(); ++k) pmap[k] = s.code_of(yp.spellings[k]);

  // Room for the batch, growing geometrically (an exact reserve per batch would copy the whole
  // buffer at every batch).
  auto make_room = [&](auto& v) {
    const std::size_t need = v.size() + (n - skipped);
    if (need > v.capacity()) v.reserve(std::max(need, 2 * v.capacity()));
  };
  if (scores && s.keep_runs) make_room(s.buffer);
  if (o.row_ids) make_room(s.kept);
  batch_sums m = make_sums(s, yt, yp, tmap);
  const bool plain = scores && !o.row_ids && m.dense && skip.empty();
  if (plain && !s.keep_runs && !s.calibration) lean_rows(s, b, yt, m);
  else if (plain && s.defers_terms()) deferred_rows(s, b, yt, tmap, m);
  else general_rows(s, b, yt, yp, tmap, pmap, skip, m);
  fold_sums(s, b, skip, tmap, pmap, m);
  s.rows += n - skipped;
  s.missing += skipped;
  s.compact_when_due();  // held runs (of a merge) stay apart
}

}  // namespace

void evaluation_state::update(const row_batch& b) { update_rows(*impl_, b, true); }

void evaluation_state::check(const row_batch& b) const { update_rows(*impl_, b, false); }

}  // namespace assay::scale
