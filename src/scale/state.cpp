// The mergeable evaluation state; see include/assay/scale/state.hpp and docs/scaling.md.
#include "assay/scale/state.hpp"
#include "assay/scale/ranges.hpp"
#include "bytes.hpp"
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

using assay::detail::long_accumulator;
using detail::batch_labels;
using detail::checksum;
using detail::reader;
using detail::writer;
using detail::put_le;
using detail::get_le;

namespace detail {

// The spellings of label column `c` and each row's code among them (NaN numbers: -1, missing).
batch_labels resolve(const label_column& c, std::size_t n, const char* name, const char* fn) {
  batch_labels b;
  if (c.kind == label_column::form::none) throw_usage(fmt::format("{}: {} is missing", fn, name));
  if (c.size() != n) {
    throw_usage(fmt::format("{}: {} has {} entries, but the batch has {} rows", fn, name, c.size(), n));
  }
  b.codes.resize(n);
  if (c.kind == label_column::form::coded) {
    b.spellings.assign(c.dictionary.begin(), c.dictionary.end());
    for (std::size_t i = 0; i < n; ++i) {
      if (c.codes[i] < 0 || static_cast<std::size_t>(c.codes[i]) >= c.dictionary.size()) {
        throw_usage(fmt::format("{}: {}[{}] is code {}, outside the dictionary of {} entries",
                                fn, name, i, c.codes[i], c.dictionary.size()));
      }
      b.codes[i] = c.codes[i];
    }
  } else if (c.kind == label_column::form::text) {
    std::unordered_map<std::string_view, std::int32_t> seen;
    for (std::size_t i = 0; i < n; ++i) {
      auto [it, fresh] = seen.emplace(c.text[i], static_cast<std::int32_t>(b.spellings.size()));
      if (fresh) b.spellings.push_back(c.text[i]);
      b.codes[i] = it->second;
    }
  } else {
    std::unordered_map<std::uint64_t, std::int32_t> seen;
    for (std::size_t i = 0; i < n; ++i) {
      const double x = c.numbers[i];
      if (std::isnan(x)) {
        b.codes[i] = -1;
        continue;
      }
      if (!std::isfinite(x)) {
        throw_usage(fmt::format("{}: {}[{}] is {}; labels must be finite", fn, name, i, x));
      }
      auto [it, fresh] = seen.emplace(std::bit_cast<std::uint64_t>(x + 0.0), static_cast<std::int32_t>(b.spellings.size()));
      if (fresh) b.spellings.push_back(canonical_number(x));
      b.codes[i] = it->second;
    }
  }
  return b;
}

}  // namespace detail

namespace {

// The spellings of a batch's label column, update()'s errors naming evaluation_state::update.
batch_labels resolve(const label_column& c, std::size_t n, const char* name) {
  return detail::resolve(c, n, name, "evaluation_state::update");
}

void check_options(const state_options& o) {
  if ((o.task == task_kind::regression) != (o.kind == prediction_kind::values)) {
    throw_usage(o.kind == prediction_kind::values
                    ? "evaluation_state: kind is values, which needs task regression"
                    : "evaluation_state: task is regression, which needs kind values (predicted values)");
  }
  if (o.kind == prediction_kind::scores && o.task == task_kind::multiclass) {
    throw_usage("evaluation_state: kind is scores, which needs a binary task, but task is multiclass");
  }
  if (o.kind == prediction_kind::proba) {
    if (o.task == task_kind::regression) throw_usage("evaluation_state: kind is proba, which needs a classification task");
    if (o.proba_names.size() < 2) {
      throw_usage(fmt::format("evaluation_state: proba_names has {} names; class probabilities need a column per class "
                              "(at least 2)", o.proba_names.size()));
    }
    for (std::size_t i = 0; i < o.proba_names.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (o.proba_names[i] == o.proba_names[j]) {
          throw_usage(fmt::format("evaluation_state: proba_names names \"{}\" twice", o.proba_names[i]));
        }
      }
    }
  } else if (!o.proba_names.empty()) {
    throw_usage("evaluation_state: proba_names is given, but kind is not proba");
  }
  if (!std::isfinite(o.threshold)) {
    throw_usage(fmt::format("evaluation_state: threshold is {}; it must be a finite number", o.threshold));
  }
}

}  // namespace

// The first option that differs (for merge and read_state), or null.
const char* detail::differing_option(const state_options& a, const state_options& b) {
  if (a.kind != b.kind) return "kind";
  if (a.task != b.task) return "task";
  if (a.pos_label != b.pos_label) return "pos_label";
  if (std::bit_cast<std::uint64_t>(a.threshold) != std::bit_cast<std::uint64_t>(b.threshold)) return "threshold";
  if (a.weighted != b.weighted) return "weighted";
  if (a.drop_missing != b.drop_missing) return "drop_missing";
  if (a.row_ids != b.row_ids) return "row_ids";
  if (a.label_name != b.label_name) return "label_name";
  if (a.prediction_name != b.prediction_name) return "prediction_name";
  if (a.proba_names != b.proba_names) return "proba_names";
  return nullptr;
}

namespace {

using detail::differing_option;

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

class_plan state_classes(label_spellings seen, const state_options& o, const char* fn) {
  if (seen.truth.empty()) throw_usage(fmt::format("{}: y_true is empty; there is nothing to evaluate", fn));
  return decide_classes(std::move(seen), {o.pos_label, o.task, class_set::truth_and_predictions}, {false, fn});
}

class_plan score_classes(const evaluation_state::impl& s, const std::vector<std::uint32_t>& true_codes,
                         std::vector<std::int32_t>& class_of) {
  label_spellings seen;
  for (auto c : true_codes) seen.truth.push_back(s.dict[c]);
  seen.truth.insert(seen.truth.end(), s.also_true.begin(), s.also_true.end());  // after true_codes': class_of reads none
  seen.score_columns = 1;
  class_plan t = state_classes(std::move(seen), s.o, "predictions_from_scores");
  class_of.assign(s.dict.size(), -1);
  for (std::size_t k = 0; k < true_codes.size(); ++k) class_of[true_codes[k]] = t.truth[k];
  return t;
}

std::pair<std::vector<std::string>, std::vector<std::string>> spellings_of(const evaluation_state::impl& s) {
  std::vector<std::uint32_t> t, p;
  auto add = [&](const auto& cells, bool predicted) {
    for (const auto& [k, v] : cells) {
      t.push_back(k.first);
      if (predicted) p.push_back(k.second);
    }
  };
  if (s.o.kind == prediction_kind::proba) {
    if (s.proba && !s.proba->views.empty()) add(s.proba->views[0].cells, false);
  } else if (s.o.kind != prediction_kind::values) {
    add(s.cells, s.o.kind == prediction_kind::labels);
  }
  auto text = [&](std::vector<std::uint32_t>& codes) {
    std::sort(codes.begin(), codes.end());  // dictionary order is byte order
    codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
    std::vector<std::string> out;
    for (auto c : codes) out.push_back(s.dict[c]);
    return out;
  };
  return {text(t), text(p)};
}

void rank_row_ids(evaluation_state::impl& s) {
  if (!s.o.row_ids) throw_usage("rank_row_ids: the state keeps no row ids (build it with row_ids)");
  s.sort_kept();
  for (std::size_t i = 1; i < s.kept.size(); ++i) {
    if (s.kept[i - 1].id == s.kept[i].id) {
      throw_data(fmt::format("evaluation_state::finish: row id {} is given to two rows; each batch's first_row_id must "
                             "be its first row's index among all rows", s.kept[i].id));
    }
  }
  auto rank = [&](std::uint64_t id) {
    return static_cast<std::uint64_t>(
        std::lower_bound(s.kept.begin(), s.kept.end(), id, [](const kept_row& k, std::uint64_t x) { return k.id < x; }) -
        s.kept.begin());
  };
  for (auto& t : s.terms)
    if (t.first_outside) t.first_outside = rank(*t.first_outside);
  if (s.proba) {
    for (auto& v : s.proba->views)
      if (v.off) v.off->first = rank(v.off->first);
  }
  for (std::size_t i = 0; i < s.kept.size(); ++i) s.kept[i].id = i;
}

std::vector<std::pair<std::uint32_t, int>> losses_to_redo(const evaluation_state::impl& s) {
  std::vector<std::pair<std::uint32_t, int>> out;
  if (s.loss.empty() || s.cells.empty()) return out;
  std::vector<std::uint32_t> true_codes;
  for (const auto& [k, v] : s.cells) true_codes.push_back(k.first);
  true_codes.erase(std::unique(true_codes.begin(), true_codes.end()), true_codes.end());
  std::vector<std::int32_t> class_of;
  class_plan t;
  try {
    t = score_classes(s, true_codes, class_of);
  } catch (const error&) {
    return out;  // finish() throws the same error, after its own checks (in their order)
  }
  if (!t.positive) return out;
  for (const auto& [code, l] : s.loss) {
    const int k = class_of[code] == static_cast<std::int32_t>(*t.positive) ? 1 : 0;
    if (((l.have >> k) & 1U) == 0) out.emplace_back(code, k);
  }
  return out;
}

}  // namespace detail

namespace {

// The registry's means of row terms, one entry per distinct term (metrics sharing a term, as MSPE
// and RMSPE, share its sum), each with the name of its first metric.
struct term_list {
  std::vector<row_term> terms;
  std::vector<std::string_view> names;
};

bool same_term(const row_term& a, const row_term& b) { return a.term == b.term && a.outside == b.outside; }

const term_list& registry_terms() {
  static const term_list list = [] {
    term_list l;
    for (const auto& m : metric_registry()) {
      if (m.kind != metric_kind::regression || m.mean_of.term == nullptr) continue;
      if (std::none_of(l.terms.begin(), l.terms.end(), [&](const row_term& t) { return same_term(t, m.mean_of); })) {
        l.terms.push_back(m.mean_of);
        l.names.push_back(m.name);
      }
    }
    return l;
  }();
  return list;
}

}  // namespace

const std::vector<row_term>& row_terms() { return registry_terms().terms; }

std::size_t row_term_index(const row_term& m) {
  const auto& t = row_terms();
  return static_cast<std::size_t>(
      std::find_if(t.begin(), t.end(), [&](const row_term& x) { return same_term(x, m); }) - t.begin());
}

std::string_view row_term_name(std::size_t k) { return registry_terms().names.at(k); }

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
  const std::string_view name = m.name;
  if (name == "mean_absolute_error") return mean_of(t.sum_abs.value());
  if (name == "mean_squared_error") return mean_of(t.sum_sq.value());
  if (name == "root_mean_squared_error") return sqrt_of(mean_of(t.sum_sq.value()));
  if (name == "max_error") return t.max_abs < 0 ? value::undefined("no cases") : value(t.max_abs);
  if (name == "r2" || name == "explained_variance") {
    const value mean = t.mean_target();
    if (!mean) return mean;
    if (t.constant) return value::undefined("the target is constant");
    const double ss_tot = t.tot.value(), ss_res = name == "r2" ? t.res.value() : t.vr.value();
    if (ss_tot == 0) return value::undefined("the target is constant");
    return value(1 - ss_res / ss_tot);
  }
  if (name == "median_absolute_error") return t.seen ? value(t.median) : value::undefined("no cases");
  throw_usage(fmt::format("evaluation_state::finish: no regression metric {}", m.name));
}

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

void compact_proba(evaluation_state::impl& s) {
  for (std::size_t c = 0; c < s.proba->runs.size(); ++c) compact_column(s, c);
}

void update_proba(evaluation_state::impl& s, const row_batch& b, const batch_labels& yt, bool apply) {
  const state_options& o = s.o;
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
  std::uint64_t skipped = 0;
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

}  // namespace

// ---- class probabilities: bytes ------------------------------------------------------------------------

namespace {

void write_tally(writer& w, const tally& t, bool weighted) {
  w.u64(t.n);
  if (weighted) w.sum(t.w);
}

void write_proba(writer& w, evaluation_state::impl& s) {
  compact_proba(s);
  const detail::proba_state& p = *s.proba;
  const bool weighted = s.o.weighted;
  w.u64(p.views.size());
  for (const auto& v : p.views) {
    for (auto c : v.order) w.u32(c);
    w.u64(v.cells.size());
    for (const auto& [k, t] : v.cells) {
      w.u32(k.first);
      w.u32(k.second);
      write_tally(w, t, weighted);
    }
    w.u64(v.log_loss.size());
    for (const auto& [code, ll] : v.log_loss) {
      w.u32(code);
      for (const auto& x : ll) w.sum(x);
      for (const auto& x : v.brier.at(code)) w.sum(x);
      for (const auto& t : v.rank.at(code)) write_tally(w, t, weighted);
    }
    w.u64(v.calib.size());
    for (const auto& [k, t] : v.calib) {
      w.u32(std::get<0>(k));
      w.u32(std::get<1>(k));
      w.u32(std::get<2>(k));
      write_tally(w, t, weighted);
    }
    w.u8(v.off ? 1 : 0);
    w.u64(v.off ? v.off->first : 0);
    w.f64(v.off ? v.off->second : 0.0);
  }
  for (const auto& x : p.calib_wp) w.sum(x);
  for (const auto& rs : p.runs) {
    w.u64(rs.size());
    for (const auto& r : rs) {
      w.u64(r.key);
      w.u32(r.code);
      write_tally(w, r.t, weighted);
    }
  }
}

tally read_tally(reader& r, bool weighted) {
  tally t;
  t.n = r.u64();
  if (weighted) t.w = r.sum();
  return t;
}

// Reads what write_proba wrote into `s` (built with the blob's options: its views are there).
void read_proba(reader& r, evaluation_state::impl& s) {
  detail::proba_state& p = *s.proba;
  const bool weighted = s.o.weighted;
  const std::size_t K = s.o.proba_names.size(), nd = s.dict.size();
  if (r.u64() != p.views.size()) reader::malformed("the class probabilities have another number of views");
  for (auto& v : p.views) {
    for (auto want : std::vector<std::uint32_t>(v.order)) {
      if (r.u32() != want) reader::malformed("a view of the class probabilities has another column order");
    }
    const std::uint64_t nc = r.count(16);
    std::uint64_t counted = 0;
    for (std::uint64_t k = 0; k < nc; ++k) {
      const std::uint32_t a = r.u32(), b = r.u32();
      tally t = read_tally(r, weighted);
      if (a >= nd || b >= K || t.n == 0) reader::malformed("a cell of the class probabilities is not valid");
      if (!v.cells.empty() && !(v.cells.rbegin()->first < std::pair{a, b})) reader::malformed("cells are not sorted");
      counted += t.n;
      v.cells.emplace_hint(v.cells.end(), std::pair{a, b}, std::move(t));
    }
    if (counted != s.rows) reader::malformed("the cells do not add up to the rows");
    const std::uint64_t nl = r.count(4 + 2 * K * 9 + K * K * 8);
    for (std::uint64_t k = 0; k < nl; ++k) {
      const std::uint32_t code = r.u32();
      if (code >= nd || (!v.log_loss.empty() && !(v.log_loss.rbegin()->first < code))) {
        reader::malformed("a loss entry of the class probabilities is not valid");
      }
      std::vector<exact_sum> ll(K), br(K);
      std::vector<tally> rk(K * K);
      for (auto& x : ll) x = r.sum();
      for (auto& x : br) x = r.sum();
      for (auto& t : rk) t = read_tally(r, weighted);
      v.log_loss.emplace_hint(v.log_loss.end(), code, std::move(ll));
      v.brier.emplace_hint(v.brier.end(), code, std::move(br));
      v.rank.emplace_hint(v.rank.end(), code, std::move(rk));
    }
    const std::uint64_t ncal = r.count(20);
    std::uint64_t in_bins = 0;
    for (std::uint64_t k = 0; k < ncal; ++k) {
      const std::uint32_t a = r.u32(), bin = r.u32(), b = r.u32();
      tally t = read_tally(r, weighted);
      const std::tuple key{a, bin, b};
      if (a >= nd || bin >= calibration_bins || b >= K || t.n == 0) reader::malformed("a calibration bin is not valid");
      if (!v.calib.empty() && !(v.calib.rbegin()->first < key)) reader::malformed("calibration bins are not sorted");
      in_bins += t.n;
      v.calib.emplace_hint(v.calib.end(), key, std::move(t));
    }
    if (in_bins != s.rows) reader::malformed("the calibration bins do not add up to the rows");
    const std::uint8_t has_off = r.u8();
    const std::uint64_t id = r.u64();
    const double sum = r.f64();
    if (has_off > 1 || (has_off == 0 && (id != 0 || std::bit_cast<std::uint64_t>(sum) != 0))) {
      reader::malformed("bad row sum entry");
    }
    if (has_off == 1) v.off = std::pair{id, sum};
  }
  for (auto& x : p.calib_wp) x = r.sum();
  for (auto& rs : p.runs) {
    const std::uint64_t nr = r.count(20);
    rs.reserve(nr);
    std::uint64_t in_runs = 0;
    for (std::uint64_t k = 0; k < nr; ++k) {
      run x{r.u64(), r.u32(), {}};
      x.t = read_tally(r, weighted);
      const double pr = assay::detail::from_order_key(x.key);
      if (x.code >= nd || x.t.n == 0 || !(pr >= 0 && pr <= 1)) reader::malformed("a probability run is not valid");
      if (!rs.empty() && !(rs.back().key < x.key || (rs.back().key == x.key && rs.back().code < x.code))) {
        reader::malformed("probability runs are not sorted");
      }
      in_runs += x.t.n;
      rs.push_back(std::move(x));
    }
    if (in_runs != s.rows) reader::malformed("the probability runs do not add up to the rows");
  }
}

}  // namespace

// ---- the state -------------------------------------------------------------------------------------

evaluation_state::evaluation_state(const state_options& options) : impl_(std::make_unique<impl>()) {
  check_options(options);
  impl_->o = options;
  if (impl_->o.prediction_name.empty()) {
    impl_->o.prediction_name = options.kind == prediction_kind::scores ? "y_score" : "y_pred";
  }
  if (options.kind == prediction_kind::proba) init_proba(*impl_);
}
evaluation_state::~evaluation_state() = default;
evaluation_state::evaluation_state(const evaluation_state& o) : impl_(std::make_unique<impl>(*o.impl_)) {}
evaluation_state& evaluation_state::operator=(const evaluation_state& o) {
  if (this != &o) impl_ = std::make_unique<impl>(*o.impl_);
  return *this;
}
evaluation_state::evaluation_state(evaluation_state&&) noexcept = default;
evaluation_state& evaluation_state::operator=(evaluation_state&&) noexcept = default;

const state_options& evaluation_state::options() const { return impl_->o; }
std::uint64_t evaluation_state::rows() const { return impl_->rows; }
std::uint64_t evaluation_state::missing() const { return impl_->missing; }

std::size_t evaluation_state::memory_bytes() const {
  const impl& s = *impl_;
  std::size_t bytes = sizeof(impl) + (s.runs.capacity() + s.held.capacity() + s.fresh_runs.capacity()) * sizeof(run) +
                      (s.buffer.capacity() + s.sort_scratch.capacity()) * sizeof(pending) +
                      s.table.capacity() * sizeof(key_tally);
  for (const auto& d : s.dict) bytes += d.capacity() + sizeof(std::string);
  bytes += s.cells.size() * (sizeof(tally) + 48) + s.loss.size() * (sizeof(losses) + 48);
  bytes += s.kept.capacity() * sizeof(kept_row) + s.kept_x.capacity() * sizeof(double) +
           s.calib.size() * (sizeof(tally) + 48);
  bytes += (s.reg_y.size() + s.reg_r.size()) * (sizeof(std::uint64_t) * 3 + 48);
  if (s.proba) {
    const std::size_t K = s.o.proba_names.size();
    for (std::size_t c = 0; c < K; ++c) {
      bytes += s.proba->runs[c].capacity() * sizeof(run) + s.proba->buffer[c].capacity() * sizeof(pending);
    }
    for (const auto& v : s.proba->views) {
      bytes += (v.cells.size() + v.calib.size()) * (sizeof(tally) + 56);
      bytes += v.log_loss.size() * (2 * K * sizeof(exact_sum) + K * K * sizeof(tally) + 3 * 64);
    }
  }
  return bytes;
}

void evaluation_state::offset_row_ids(std::uint64_t by) {
  impl& s = *impl_;
  if (by == 0) return;
  std::uint64_t largest = 0;
  for (const auto& k : s.kept) largest = std::max(largest, k.id);
  for (const auto& t : s.terms)
    if (t.first_outside) largest = std::max(largest, *t.first_outside);
  if (s.proba) {
    for (const auto& v : s.proba->views)
      if (v.off) largest = std::max(largest, v.off->first);
  }
  if (largest > std::numeric_limits<std::uint64_t>::max() - by) {
    throw_usage(fmt::format("evaluation_state::offset_row_ids: {} + {} overflows a 64-bit row id", largest, by));
  }
  for (auto& k : s.kept) k.id += by;  // the order of the kept rows is kept
  for (auto& t : s.terms)
    if (t.first_outside) *t.first_outside += by;
  if (s.proba) {
    for (auto& v : s.proba->views)
      if (v.off) v.off->first += by;
  }
}

namespace {

// update() (apply) or check() (not apply: every check of the batch, then nothing changed).
void update_rows(evaluation_state::impl& s, const row_batch& b, bool apply) {
  const state_options& o = s.o;
  const bool scores = o.kind == prediction_kind::scores;
  const std::size_t n = b.y_true.size();
  // Check the whole batch before changing anything.
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
  // A branch-free scan first (it vectorises): in the common batch nothing is missing or refused, and
  // the row loop below needs no per-row checks. Otherwise the loop after it finds the rows to skip
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
  std::vector<std::uint8_t> skip;  // empty: no row skipped
  std::uint64_t skipped = 0;
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
  // Tallies of the batch by (batch true spelling, batch predicted spelling or score side), folded
  // into the state's maps once per batch; exact sums, so the folding order does not matter.
  const std::size_t T = yt.spellings.size(), Pn = scores ? 2 : yp.spellings.size();
  const bool dense = T * Pn <= (std::size_t{1} << 16);
  std::vector<tally> local(dense ? T * Pn : 0);
  // The batch's loss and reliability sums: chunked_sum, the same exact value as exact_sum at a few
  // integer additions a term (the in-memory weighted_loss_sum's accumulator), folded in once.
  struct batch_losses {
    assay::detail::chunked_sum log_loss[2], brier[2];
  };
  std::vector<batch_losses> local_loss(scores ? T : 0);
  std::vector<assay::detail::chunked_sum> local_ws(scores ? calibration_bins : 0);
  std::vector<tally> local_calib(scores ? T * calibration_bins : 0);
  // Weighted scores: the weight sums of those tallies in chunked_sum too (2 + 10 per spelling).
  const bool chunked_weights = scores && o.weighted && dense;
  std::vector<assay::detail::chunked_sum> local_w(chunked_weights ? T * Pn : 0);
  std::vector<assay::detail::chunked_sum> local_calib_w(chunked_weights ? T * calibration_bins : 0);
  std::vector<std::uint8_t> has_loss(scores ? T : 0, 0);
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
  const proba_view pv = proba_view::scores(b.y_score);
  // The rows of a state that keeps no score runs, reliability sums or rows (a ranked part's,
  // scale/ranges.hpp) and skips none: the same tallies and sums as the general loop below, without
  // its per-row branches on what this state does not keep, the flag of scores in [0, 1] in a
  // register, and with at most two spellings their four cells counted in registers (an increment of
  // a cell the previous row also touched waits on that row's store).
  const bool lean = scores && !s.keep_runs && !s.calibration && !o.row_ids && dense && skip.empty();
  if (lean) {
    bool unit = true;
    std::uint64_t cell[4] = {0, 0, 0, 0};
    const bool two = T <= 2;
    for (std::size_t i = 0; i < n; ++i) {
      const double w = o.weighted ? b.sample_weight[i] : 1.0;
      if (o.weighted) s.note_weight(w);  // 1.0 is whole
      const auto bt = static_cast<std::size_t>(yt.codes[i]);
      const double x = b.y_score[i];
      const std::size_t bp = x >= o.threshold ? 1 : 0;
      unit &= (x >= 0) & (x <= 1);
      if (w != 0) {  // as the general loop: the terms of the classes `only` names, rows of weight 0 left out
        batch_losses& l = local_loss[bt];
        has_loss[bt] = 1;
        const std::size_t k0 = only[bt] == 1 ? 1 : 0, k1 = only[bt] == 0 ? 1 : 2;
        for (std::size_t k = k0; k < k1; ++k) {
          l.log_loss[k].add(w * binary_log_loss_term(x, k));
          l.brier[k].add(w * binary_brier_term(x, k));
        }
      }
      const std::size_t at = bt * Pn + bp;
      if (two) {
        cell[0] += at == 0;
        cell[1] += at == 1;
        cell[2] += at == 2;
        cell[3] += at == 3;
      } else {
        ++local[at].n;
      }
      if (chunked_weights) local_w[at].add(w);
    }
    for (std::size_t c = 0; two && c < local.size(); ++c) local[c].n += cell[c];
    s.all_probabilities = s.all_probabilities && unit;
  }
  for (std::size_t i = 0; !lean && i < n; ++i) {
    if (!skip.empty() && skip[i]) continue;
    const double w = o.weighted ? b.sample_weight[i] : 1.0;
    if (o.weighted) s.note_weight(w);  // 1.0 is whole
    const auto bt = static_cast<std::size_t>(yt.codes[i]);
    std::size_t bp;
    if (scores) {
      const double x = b.y_score[i];
      bp = x >= o.threshold ? 1 : 0;
      s.all_probabilities = s.all_probabilities && x >= 0 && x <= 1;
      // Unweighted, a tabled row's reliability and loss terms are those of its (score, spelling):
      // added as count x term when the table is flushed (impl::take_table), the same exact sums.
      // Weighted, its terms and bin are computed once per (score, spelling) in the table.
      bool deferred = false;
      key_tally* e = nullptr;
      if (s.keep_runs) {
        const std::uint64_t key = assay::detail::order_key(x);
        e = s.tally_in_table(key, tmap[bt], w);
        if (e == nullptr) {
          s.buffer.push_back({key, tmap[bt], w});
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
        tally& c = local_calib[bt * calibration_bins + bin];
        ++c.n;
        if (chunked_weights) local_calib_w[bt * calibration_bins + bin].add(w);
        else if (o.weighted) c.w.add(w);
        local_ws[bin].add(w * x);
      }
      if (!deferred && w != 0) {
        // As evaluate: the terms of weighted_loss_sum (w * term, rows of weight 0 left out), for
        // either class of the row, the class being decided in finish() (with one_class_loss, the
        // class `only` names when it is known).
        batch_losses& l = local_loss[bt];
        has_loss[bt] = 1;
        const std::size_t k0 = only[bt] == 1 ? 1 : 0, k1 = only[bt] == 0 ? 1 : 2;  // the classes [k0, k1)
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
    tally& c = dense ? local[bt * Pn + bp]
                     : s.cells[{tmap[bt], scores ? static_cast<std::uint32_t>(bp) : pmap[bp]}];
    ++c.n;
    if (chunked_weights) local_w[bt * Pn + bp].add(w);
    else if (o.weighted) c.w.add(w);
  }
  if (chunked_weights) {
    for (std::size_t k = 0; k < local.size(); ++k) local[k].w = local_w[k].result();
    for (std::size_t k = 0; k < local_calib.size(); ++k) local_calib[k].w = local_calib_w[k].result();
  }
  if (dense) {
    for (std::size_t bt = 0; bt < T; ++bt) {
      for (std::size_t bp = 0; bp < Pn; ++bp) {
        const tally& c = local[bt * Pn + bp];
        if (c.n == 0) continue;
        s.cells[{tmap[bt], scores ? static_cast<std::uint32_t>(bp) : pmap[bp]}].add(c);
        if (o.weighted) s.total_weight.add(c.w);
      }
    }
  } else if (o.weighted) {
    for (std::size_t i = 0; i < n; ++i) {
      if (skip.empty() || !skip[i]) s.total_weight.add(b.sample_weight[i]);
    }
  }
  for (std::size_t bin = 0; bin < local_ws.size(); ++bin) s.calib_ws[bin].add(local_ws[bin].result());
  for (std::size_t bt = 0; bt < local_loss.size(); ++bt) {
    if (has_loss[bt]) {
      losses l;
      for (std::size_t k = 0; k < 2; ++k) {
        l.log_loss[k] = local_loss[bt].log_loss[k].result();
        l.brier[k] = local_loss[bt].brier[k].result();
      }
      l.have = only[bt] == 2 ? 3 : static_cast<std::uint8_t>(1U << only[bt]);
      s.loss[tmap[bt]].add(l);
    }
    for (std::size_t bin = 0; bin < calibration_bins; ++bin) {
      const tally& c = local_calib[bt * calibration_bins + bin];
      if (c.n > 0) s.calib[{tmap[bt], static_cast<std::uint32_t>(bin)}].add(c);
    }
  }
  s.rows += n - skipped;
  s.missing += skipped;
  if (s.buffer.size() >= s.compact_at) s.compact_buffer();  // held runs (of a merge) stay apart
}

}  // namespace

void evaluation_state::update(const row_batch& b) { update_rows(*impl_, b, true); }

void evaluation_state::check(const row_batch& b) const { update_rows(*impl_, b, false); }

void evaluation_state::merge(const evaluation_state& other) {
  if (this == &other) {
    const evaluation_state copy(other);
    merge(copy);
    return;
  }
  impl& s = *impl_;
  other.impl_->compact();  // its held runs and pending rows into its run list (as serialize() does)
  const impl& t = *other.impl_;
  if (const char* f = differing_option(s.o, t.o)) {
    throw_usage(fmt::format("evaluation_state::merge: the states differ in their option {}; only states with the "
                            "same options merge", f));
  }
  std::vector<std::uint32_t> map(t.dict.size());
  for (const auto& d : t.dict) s.code_of(d);
  for (std::size_t k = 0; k < t.dict.size(); ++k) map[k] = s.code_of(t.dict[k]);
  s.compact();
  const bool labels = s.o.kind == prediction_kind::labels;
  for (const auto& [k, v] : t.cells) s.cells[{map[k.first], labels ? map[k.second] : k.second}].add(v);
  for (const auto& [k, v] : t.loss) s.loss[map[k]].add(v);
  for (const auto& [k, v] : t.calib) s.calib[{map[k.first], k.second}].add(v);
  for (const auto& [k, n] : t.reg_y) s.reg_y[k] += n;
  for (const auto& [k, n] : t.reg_r) s.reg_r[k] += n;
  for (std::size_t k = 0; k < s.terms.size(); ++k) {
    auto& mine = s.terms[k];
    const auto& theirs = t.terms[k];
    mine.sum.add(theirs.sum);
    if (theirs.first_outside && (!mine.first_outside || *theirs.first_outside < *mine.first_outside)) {
      mine.first_outside = theirs.first_outside, mine.y = theirs.y, mine.yhat = theirs.yhat;
    }
  }
  for (std::size_t bin = 0; bin < calibration_bins; ++bin) s.calib_ws[bin].add(t.calib_ws[bin]);
  if (s.proba) merge_proba(s, t, map);
  std::vector<run> theirs;
  theirs.reserve(t.runs.size() + t.buffer.size());
  for (const auto& r : t.runs) theirs.push_back({r.key, map[r.code], r.t});  // map is monotone: still sorted
  s.merge_runs(std::move(theirs));
  for (const auto& p : t.buffer) s.buffer.push_back({p.key, map[p.code], p.w});
  s.compact();
  if (!t.kept.empty()) {
    s.kept.reserve(s.kept.size() + t.kept.size());
    const bool values = s.o.kind == prediction_kind::values;  // no spellings
    for (const auto& k : t.kept) s.kept.push_back({k.id, k.key, values ? k.t : map[k.t], labels ? map[k.p] : k.p, k.w});
    s.kept_x.insert(s.kept_x.end(), t.kept_x.begin(), t.kept_x.end());
    s.kept_sorted = false;
  }
  s.rows += t.rows;
  s.missing += t.missing;
  s.total_weight.add(t.total_weight);
  s.all_probabilities = s.all_probabilities && t.all_probabilities;
  s.keep_runs = s.keep_runs && t.keep_runs;  // runs of some rows only: none to read
  if (!s.keep_runs && s.o.kind == prediction_kind::scores) {
    // Drop the runs of the side that kept them: nothing reads them, and serialize() must write none
    // (read_state refuses a state without runs that has runs). The pending rows were compacted above.
    std::vector<run>().swap(s.runs);
    std::vector<run>().swap(s.held);
  }
  s.calibration = s.calibration && t.calibration;
  if (t.min_fractional_weight && (!s.min_fractional_weight || *t.min_fractional_weight < *s.min_fractional_weight)) {
    s.min_fractional_weight = t.min_fractional_weight;
  }
}

void evaluation_state::merge(evaluation_state&& other) {
  if (this == &other || other.impl_->o.kind != prediction_kind::scores ||
      differing_option(impl_->o, other.impl_->o) != nullptr) {
    merge(static_cast<const evaluation_state&>(other));  // nothing to take, or the error
    return;
  }
  impl& t = *other.impl_;
  t.compact();
  std::vector<run> taken = std::move(t.runs);
  t.runs.clear();
  merge(static_cast<const evaluation_state&>(other));  // everything but the runs; t.dict is now in s.dict
  impl& s = *impl_;
  if (!s.keep_runs) return;  // one side kept no runs: the merge keeps none (merge(const&))
  std::vector<std::uint32_t> map(t.dict.size());
  for (std::size_t k = 0; k < t.dict.size(); ++k) map[k] = s.code_of(t.dict[k]);
  for (auto& r : taken) r.code = map[r.code];  // monotone: still sorted
  // Held apart until something needs one list (compact()); finish() walks both (s.held is empty
  // here: merge(const&) compacted).
  if (s.held.empty()) s.held = std::move(taken);
  else s.merge_runs(std::move(taken));
}

void evaluation_state::compact() {
  impl& s = *impl_;
  s.compact();
  if (s.proba) compact_proba(s);
}

std::string evaluation_state::serialize() const {
  impl& s = *impl_;
  s.compact_buffer();  // the held runs are written as their merge with s.runs (for_each_run)
  writer w;
  w.out.append(magic, sizeof magic);
  w.u32(state_format_version);
  w.str(ASSAY_VERSION);
  const state_options& o = s.o;
  w.u8(static_cast<std::uint8_t>(o.kind));
  w.u8(static_cast<std::uint8_t>(o.task));
  w.u8(o.pos_label ? 1 : 0);
  w.str(o.pos_label.value_or(""));
  w.f64(o.threshold);
  w.u8(o.weighted ? 1 : 0);
  w.u8(o.drop_missing ? 1 : 0);
  w.u8(o.row_ids ? 1 : 0);
  w.str(o.label_name);
  w.str(o.prediction_name);
  w.u64(o.proba_names.size());
  for (const auto& name : o.proba_names) w.str(name);
  w.str(o.source);
  w.u64(s.rows);
  w.u64(s.missing);
  w.sum(s.total_weight);
  // Flags: bit 0 every score in [0, 1]; bit 1 no score runs kept, bit 2 no reliability sums (a
  // ranked part's state, scale/ranges.hpp, finished only with finish_with_ranking).
  const bool scores = o.kind == prediction_kind::scores;
  const bool keeps = !scores || s.keep_runs;
  w.u8(static_cast<std::uint8_t>((s.all_probabilities ? 1 : 0) | (!keeps ? 2 : 0) |
                                 (scores && !s.calibration ? 4 : 0)));
  w.u8(s.min_fractional_weight ? 1 : 0);
  w.f64(s.min_fractional_weight.value_or(0.0));
  w.u64(s.dict.size());
  for (const auto& d : s.dict) w.str(d);
  w.u64(s.cells.size());
  for (const auto& [k, v] : s.cells) {
    w.u32(k.first);
    w.u32(k.second);
    w.u64(v.n);
    w.sum(v.w);
  }
  w.u64(s.loss.size());
  for (const auto& [k, v] : s.loss) {
    // A state without runs (flag bit 1) says which classes' sums are whole (a ranked part's state
    // sums one class per spelling: ranked_part::fill_state); any other holds both.
    if (v.have != 3 && keeps) {
      throw_usage("evaluation_state::serialize: the state sums the loss terms of one class only (one_class_loss); "
                  "it cannot be serialised");
    }
    w.u32(k);
    for (int c = 0; c < 2; ++c) w.sum(v.log_loss[c]), w.sum(v.brier[c]);
    if (!keeps) w.u8(v.have);
  }
  w.u64(s.calib.size());
  for (const auto& [k, v] : s.calib) {
    w.u32(k.first);
    w.u32(k.second);
    w.u64(v.n);
    if (o.weighted) w.sum(v.w);
  }
  for (const auto& x : s.calib_ws) w.sum(x);
  for (const auto* m : {&s.reg_y, &s.reg_r}) {
    w.u64(m->size());
    for (const auto& [k, n] : *m) {
      w.u64(k.first);
      w.u64(k.second);
      w.u64(n);
    }
  }
  // The row terms, each under its metric's name: a build with other terms refuses the blob.
  w.u64(s.terms.size());
  for (std::size_t k = 0; k < s.terms.size(); ++k) {
    const auto& t = s.terms[k];
    w.str(row_term_name(k));
    w.sum(t.sum.positive());
    w.sum(t.sum.negative());
    w.u8(t.first_outside ? 1 : 0);
    w.u64(t.first_outside.value_or(0));
    w.f64(t.y);
    w.f64(t.yhat);
  }
  // The run list (and the kept rows) are most of a large blob: one allocation for them.
  std::size_t nr = 0;  // runs of the merge of s.runs and s.held
  if (s.held.empty()) nr = s.runs.size();
  else s.for_each_run(false, [&nr](std::uint64_t, std::uint32_t, const tally&) { ++nr; });
  w.out.reserve(w.out.size() + 8 + nr * (20 + (o.weighted ? 9 : 0)) +
                (o.row_ids ? 8 + s.kept.size() * (24 + (o.weighted ? 8 : 0)) : 0) + 8);
  w.u64(nr);
  {
    // The runs go through a small buffer appended in blocks: three appends a run (each a call with a
    // capacity check) were a third of serialize()'s time at 10^7 distinct scores. The same bytes.
    constexpr std::size_t block = std::size_t{1} << 16, most = 29;  // a run with a compact sum: 29 bytes
    char buf[block];
    std::size_t at = 0;
    s.for_each_run(false, [&](std::uint64_t key, std::uint32_t code, const tally& t) {
      if (at + most > block) {
        w.out.append(buf, at);
        at = 0;
      }
      put_le(buf + at, key);
      put_le(buf + at + 8, code);
      put_le(buf + at + 12, t.n);
      at += 20;
      if (!o.weighted) return;
      if (t.w.exact_double()) {  // writer::sum's compact form
        buf[at] = 0;
        put_le(buf + at + 1, std::bit_cast<std::uint64_t>(t.w.value()));
        at += 9;
        return;
      }
      w.out.append(buf, at);
      at = 0;
      w.sum(t.w);
    });
    w.out.append(buf, at);
  }
  if (o.row_ids) {
    s.sort_kept();
    const bool labels = o.kind == prediction_kind::labels, scores = o.kind == prediction_kind::scores;
    const std::size_t m = s.kept_stride();
    w.u64(s.kept.size());
    for (std::size_t i = 0; i < s.kept.size(); ++i) {
      const kept_row& k = s.kept[i];
      w.u64(k.id);
      if (labels) w.u32(k.p);
      else if (scores) w.u64(k.key);
      if (o.kind != prediction_kind::values) w.u32(k.t);
      if (o.weighted) w.f64(k.w);
      for (std::size_t j = 0; j < m; ++j) w.f64(s.kept_x[i * m + j]);  // regression, class probabilities
    }
  }
  if (s.proba) write_proba(w, s);
  w.u64(checksum(w.out));
  return std::move(w.out);
}

evaluation_state read_state(std::string_view blob, const std::optional<state_options>& expect) {
  if (blob.size() < sizeof magic + 4 + 8 || std::memcmp(blob.data(), magic, sizeof magic) != 0) {
    throw_data("read_state: the blob is not an assay evaluation state (its first bytes are not \"ASSAYST\")");
  }
  reader tail{blob.substr(blob.size() - 8)};
  if (tail.u64() != checksum(blob.substr(0, blob.size() - 8))) {
    throw_data("read_state: the blob is corrupt: its checksum does not match its content");
  }
  reader r{blob.substr(0, blob.size() - 8), sizeof magic};
  const std::uint32_t version = r.u32();
  if (version != state_format_version) {
    throw_data(fmt::format("read_state: the blob has state format version {}; this assay reads version {}", version,
                           state_format_version));
  }
  const std::string made_by = r.str();
  if (made_by != ASSAY_VERSION) {
    throw_data(fmt::format("read_state: the blob was written by assay {}; this is assay {} (merge states of one "
                           "version)", made_by, ASSAY_VERSION));
  }
  state_options o;
  const std::uint8_t kind = r.u8(), task = r.u8();
  if (kind > 3) reader::malformed("unknown prediction kind");
  if (task > 3) reader::malformed("unknown task");
  o.kind = static_cast<prediction_kind>(kind);
  o.task = static_cast<task_kind>(task);
  const std::uint8_t has_pos = r.u8();
  std::string pos = r.str();
  if (has_pos > 1 || (has_pos == 0 && !pos.empty())) reader::malformed("bad pos_label");
  if (has_pos) o.pos_label = pos;
  o.threshold = r.f64();
  const std::uint8_t weighted = r.u8(), drop = r.u8(), ids = r.u8();
  if (weighted > 1 || drop > 1 || ids > 1) reader::malformed("bad flags");
  o.weighted = weighted == 1;
  o.drop_missing = drop == 1;
  o.row_ids = ids == 1;
  o.label_name = r.str();
  o.prediction_name = r.str();
  const std::uint64_t names = r.count(8);
  for (std::uint64_t k = 0; k < names; ++k) o.proba_names.push_back(r.str());
  o.source = r.str();
  if (expect) {
    state_options want = *expect;
    if (want.prediction_name.empty()) want.prediction_name = want.kind == prediction_kind::scores ? "y_score" : "y_pred";
    if (const char* f = differing_option(o, want)) {
      throw_data(fmt::format("read_state: the blob is a state of other options (its {} differs: another task or "
                             "evaluation)", f));
    }
  }
  try {
    check_options(o);
  } catch (const error&) {
    reader::malformed("its options are not valid");
  }
  evaluation_state st(o);
  auto& s = *st.impl_;
  s.rows = r.u64();
  s.missing = r.u64();
  s.total_weight = r.sum();
  const std::uint8_t flags = r.u8();
  if (flags > 7 || (flags > 1 && o.kind != prediction_kind::scores)) reader::malformed("bad flags");
  s.all_probabilities = (flags & 1) != 0;
  s.keep_runs = (flags & 2) == 0;
  s.calibration = (flags & 4) == 0;
  const std::uint8_t has_fraction = r.u8();
  const double fraction = r.f64();
  if (has_fraction > 1 || (has_fraction == 1 && !(std::isfinite(fraction) && fraction != std::floor(fraction)))) {
    reader::malformed("bad weight summary");
  }
  if (has_fraction == 1) s.min_fractional_weight = fraction;
  const std::uint64_t nd = r.count(8);
  for (std::uint64_t k = 0; k < nd; ++k) {
    s.dict.push_back(r.str());
    if (k > 0 && !(s.dict[k - 1] < s.dict[k])) reader::malformed("the class dictionary is not sorted");
  }
  const bool labels = o.kind == prediction_kind::labels;
  const std::uint64_t nc = r.count(25);
  std::uint64_t counted = 0;
  for (std::uint64_t k = 0; k < nc; ++k) {
    const std::uint32_t a = r.u32(), b = r.u32();
    tally t;
    t.n = r.u64();
    t.w = r.sum();
    if (a >= nd || (labels ? b >= nd : b > 1)) reader::malformed("a cell names a class outside the dictionary");
    if (!s.cells.empty() && !(s.cells.rbegin()->first < std::pair{a, b})) reader::malformed("cells are not sorted");
    if (t.n == 0) reader::malformed("a cell has no rows");
    counted += t.n;
    s.cells.emplace_hint(s.cells.end(), std::pair{a, b}, std::move(t));
  }
  const bool by_views = o.kind == prediction_kind::values || o.kind == prediction_kind::proba;
  if (counted != (by_views ? 0 : s.rows)) reader::malformed("the cells do not add up to the rows");
  const std::uint64_t nl = r.count(4 + 4 * 9);
  for (std::uint64_t k = 0; k < nl; ++k) {
    const std::uint32_t c = r.u32();
    losses l;
    for (int j = 0; j < 2; ++j) l.log_loss[j] = r.sum(), l.brier[j] = r.sum();
    if (!s.keep_runs) {
      l.have = r.u8();
      if (l.have == 0 || l.have > 3) reader::malformed("a loss entry has no class's sums");
    }
    if (c >= nd || labels) reader::malformed("a loss entry names a class outside the dictionary");
    if (!s.loss.empty() && !(s.loss.rbegin()->first < c)) reader::malformed("loss entries are not sorted");
    s.loss.emplace_hint(s.loss.end(), c, std::move(l));
  }
  const std::uint64_t ncal = r.count(16);
  std::uint64_t in_bins = 0;
  for (std::uint64_t k = 0; k < ncal; ++k) {
    const std::uint32_t c = r.u32(), bin = r.u32();
    tally t;
    t.n = r.u64();
    if (o.weighted) t.w = r.sum();
    if (labels || c >= nd || bin >= calibration_bins || t.n == 0) reader::malformed("a calibration bin is not valid");
    if (!s.calib.empty() && !(s.calib.rbegin()->first < std::pair{c, bin})) reader::malformed("calibration bins are not sorted");
    in_bins += t.n;
    s.calib.emplace_hint(s.calib.end(), std::pair{c, bin}, std::move(t));
  }
  if (in_bins > s.rows) reader::malformed("the calibration bins hold more rows than the state");
  for (auto& x : s.calib_ws) x = r.sum();
  const bool values = o.kind == prediction_kind::values;
  for (auto* m : {&s.reg_y, &s.reg_r}) {
    const std::uint64_t nv = r.count(24);
    std::uint64_t in_values = 0;
    for (std::uint64_t k = 0; k < nv; ++k) {
      const std::uint64_t key = r.u64(), wb = r.u64(), n = r.u64();
      const double x = assay::detail::from_order_key(key), w = std::bit_cast<double>(wb);
      if (!values || n == 0 || !std::isfinite(x) || !(w >= 0 && std::isfinite(w)) || (!o.weighted && w != 1.0)) {
        reader::malformed("a regression entry is not valid");
      }
      if (!m->empty() && !(m->rbegin()->first < std::pair{key, wb})) reader::malformed("regression entries are not sorted");
      in_values += n;
      m->emplace_hint(m->end(), std::pair{key, wb}, n);
    }
    if (values && in_values != s.rows) reader::malformed("the regression entries do not add up to the rows");
  }
  if (r.u64() != s.terms.size()) reader::malformed("its regression row terms are not this build's");
  for (std::size_t k = 0; k < s.terms.size(); ++k) {
    auto& t = s.terms[k];
    if (r.str() != row_term_name(k)) reader::malformed("its regression row terms are not this build's");
    t.sum.positive() = r.sum();
    t.sum.negative() = r.sum();
    const std::uint8_t has = r.u8();
    const std::uint64_t id = r.u64();
    t.y = r.f64();
    t.yhat = r.f64();
    if (has > 1 || (has == 0 && (id != 0 || t.y != 0 || t.yhat != 0)) || (has == 1 && !values)) {
      reader::malformed("a regression row term's first row outside its domain is not valid");
    }
    if (has == 1) t.first_outside = id;
  }
  const std::uint64_t nr = r.count(20);
  if (labels && nr != 0) reader::malformed("a state of predicted labels has scores");
  s.runs.reserve(nr);
  std::uint64_t in_runs = 0;
  if (!o.weighted) {  // 20 bytes a run (count() checked that they are there): read without a check per field
    s.runs.resize(nr);
    const char* p = r.in.data() + r.at;
    for (std::uint64_t k = 0; k < nr; ++k, p += 20) {
      run& x = s.runs[k];
      x.key = get_le<std::uint64_t>(p);
      x.code = get_le<std::uint32_t>(p + 8);
      x.t.n = get_le<std::uint64_t>(p + 12);
      if (x.code >= nd || x.t.n == 0) reader::malformed("a score run is not valid");
      if (k > 0 && !(s.runs[k - 1].key < x.key || (s.runs[k - 1].key == x.key && s.runs[k - 1].code < x.code))) {
        reader::malformed("score runs are not sorted");
      }
      in_runs += x.t.n;
    }
    r.at += 20 * nr;
  }
  for (std::uint64_t k = 0; o.weighted && k < nr; ++k) {
    run x{r.u64(), r.u32(), {}};
    x.t.n = r.u64();
    x.t.w = r.sum();
    if (x.code >= nd || x.t.n == 0) reader::malformed("a score run is not valid");
    if (!s.runs.empty() && !(s.runs.back().key < x.key || (s.runs.back().key == x.key && s.runs.back().code < x.code))) {
      reader::malformed("score runs are not sorted");
    }
    in_runs += x.t.n;
    s.runs.push_back(std::move(x));
  }
  if (o.kind == prediction_kind::scores && in_runs != (s.keep_runs ? s.rows : 0)) {
    reader::malformed(s.keep_runs ? "the score runs do not add up to the rows" : "a state without score runs has runs");
  }
  if (o.kind == prediction_kind::values && nr != 0) reader::malformed("a regression state has scores");
  if (o.row_ids) {
    const std::uint64_t nk = r.count(16);
    if (nk != s.rows) reader::malformed("the kept rows do not add up to the rows");
    s.kept.reserve(nk);
    const bool scores = o.kind == prediction_kind::scores, values = o.kind == prediction_kind::values;
    const std::size_t m = s.kept_stride();
    s.kept_x.reserve(nk * m);
    for (std::uint64_t k = 0; k < nk; ++k) {
      kept_row x{r.u64(), 0, 0, 0, 1.0};
      if (labels) x.p = r.u32();
      else if (scores) x.key = r.u64();
      if (!values) x.t = r.u32();
      if (o.weighted) x.w = r.f64();
      if ((!values && x.t >= nd) || (labels && x.p >= nd)) reader::malformed("a kept row names a class outside the dictionary");
      if (!(x.w >= 0 && std::isfinite(x.w))) reader::malformed("a kept row has a weight that is negative or not finite");
      if (scores && !std::isfinite(assay::detail::from_order_key(x.key))) {
        reader::malformed("a kept row has a score that is not a finite number");
      }
      for (std::size_t j = 0; j < m; ++j) {
        const double v = r.f64();
        if (!std::isfinite(v)) reader::malformed("a kept row has a value or probability that is not a finite number");
        s.kept_x.push_back(v);
      }
      if (!s.kept.empty() && !(s.kept.back().tie() <= x.tie())) reader::malformed("kept rows are not sorted");
      s.kept.push_back(x);
    }
  }
  if (o.kind == prediction_kind::proba) {
    if (!s.cells.empty() || !s.loss.empty() || !s.calib.empty() || nr != 0) {
      reader::malformed("a state of class probabilities has the entries of another kind");
    }
    read_proba(r, s);
  }
  if (r.at != r.in.size()) reader::malformed("bytes follow its content");
  return st;
}

// ---- finish ----------------------------------------------------------------------------------------

namespace detail {

namespace {

// The intervals of evaluate (report/intervals.cpp) on the state's rows: from the score runs' tie
// groups when no interval resamples rows, else from the kept rows in id order (the Poisson weights
// drawn on the ids).
void attach_state_intervals(evaluation_state::impl& s, const evaluate_options& q, report& r,
                            const std::vector<std::int32_t>& class_of, const run_source& runs_descending,
                            const run_source* runs_ascending) {
  const state_options& o = s.o;
  const bool scores = o.kind == prediction_kind::scores;
  const auto pos = r.positive ? static_cast<std::int32_t>(*r.positive) : -1;
  assay::detail::report_rows rows;
  if (!assay::detail::intervals_need_rows(q, o.weighted)) {
    assay::detail::score_groups groups;
    if (scores && runs_ascending != nullptr) {
      // The groups visited from the ascending runs each time they are asked for, not held (the
      // out-of-core reader's cap: they are read back from its file of runs).
      groups.ascending = [&](const std::function<void(double, std::uint64_t, std::uint64_t)>& f) {
        bool open = false;
        std::uint64_t key = 0, np = 0, nn = 0;
        (*runs_ascending)([&](std::uint64_t k, std::uint32_t code, const tally& t) {
          if (open && k != key) {
            f(assay::detail::from_order_key(key) + 0.0, np, nn);
            np = nn = 0;
          }
          open = true;
          key = k;
          (class_of[code] == pos ? np : nn) += t.n;
        });
        if (open) f(assay::detail::from_order_key(key) + 0.0, np, nn);
      };
    } else if (scores) {
      bool open = false;
      std::uint64_t key = 0;
      runs_descending([&](std::uint64_t k, std::uint32_t code, const tally& t) {
        if (!open || k != key) {
          groups.score.push_back(assay::detail::from_order_key(k) + 0.0);
          groups.pos.push_back(0);
          groups.neg.push_back(0);
          open = true;
          key = k;
        }
        (class_of[code] == pos ? groups.pos : groups.neg).back() += t.n;
      });
      std::reverse(groups.score.begin(), groups.score.end());
      std::reverse(groups.pos.begin(), groups.pos.end());
      std::reverse(groups.neg.begin(), groups.neg.end());
    }
    rows.groups = &groups;
    assay::detail::attach_intervals(r, q, rows);
    return;
  }
  s.sort_kept();
  const std::size_t n = s.kept.size();
  std::vector<std::int32_t> y(n), yhat(n), y01;
  std::vector<double> w, score;
  std::vector<std::uint64_t> ids(n);
  if (o.weighted) w.resize(n);
  if (scores) score.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const kept_row& k = s.kept[i];
    if (i > 0 && s.kept[i - 1].id == k.id) {
      throw_data(fmt::format("evaluation_state::finish: row id {} is given to two rows; each batch's first_row_id must "
                             "be its first row's index among all rows", k.id));
    }
    ids[i] = k.id;
    y[i] = class_of[k.t];
    if (o.weighted) w[i] = k.w;
    if (scores) {
      score[i] = assay::detail::from_order_key(k.key);
      yhat[i] = score[i] >= o.threshold ? pos : 1 - pos;
    } else {
      yhat[i] = class_of[k.p];
    }
  }
  rows.y = y;
  rows.yhat = yhat;
  rows.w = w;
  rows.row_ids = ids;
  std::optional<proba_view> pv;
  if (scores) {
    rows.score = score;
    pv = proba_view::scores(score);
    rows.proba = &*pv;
    if (pos == 0) {  // the score is P(labels[0]): class 1 of the view
      y01.resize(n);
      for (std::size_t i = 0; i < n; ++i) y01[i] = 1 - y[i];
      rows.y_proba = y01;
    } else {
      rows.y_proba = y;
    }
  }
  assay::detail::attach_intervals(r, q, rows);
}

// The intervals of evaluate on the kept rows of regression or class probabilities, in id order (the
// Poisson weights drawn on the ids): the rows evaluate would have, i.e. the targets and predicted
// values, or the classes (class_of: spelling code -> class), the probabilities in class order (order:
// class -> batch column) and their argmax (the first of equal maxima), with the weights.
void attach_kept_intervals(evaluation_state::impl& s, const evaluate_options& q, report& r,
                           const std::vector<std::int32_t>& class_of, const std::vector<std::uint32_t>& order) {
  const state_options& o = s.o;
  s.sort_kept();
  const std::size_t n = s.kept.size(), m = s.kept_stride();
  std::vector<std::uint64_t> ids(n);
  std::vector<double> w;
  if (o.weighted) w.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const kept_row& k = s.kept[i];
    if (i > 0 && s.kept[i - 1].id == k.id) {
      throw_data(fmt::format("evaluation_state::finish: row id {} is given to two rows; each batch's first_row_id must "
                             "be its first row's index among all rows", k.id));
    }
    ids[i] = k.id;
    if (o.weighted) w[i] = k.w;
  }
  assay::detail::report_rows rows;
  rows.w = w;
  rows.row_ids = ids;
  if (o.kind == prediction_kind::values) {
    std::vector<double> target(n), predicted(n);
    for (std::size_t i = 0; i < n; ++i) target[i] = s.kept_x[2 * i], predicted[i] = s.kept_x[2 * i + 1];
    rows.target = target;
    rows.predicted = predicted;
    assay::detail::attach_intervals(r, q, rows);
    return;
  }
  std::vector<std::int32_t> y(n), yhat(n);
  std::vector<double> matrix(n * m);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = class_of[s.kept[i].t];
    const double* x = &s.kept_x[i * m];
    double* row = &matrix[i * m];
    for (std::size_t c = 0; c < m; ++c) row[c] = x[order[c]];
    yhat[i] = static_cast<std::int32_t>(std::max_element(row, row + m) - row);
  }
  const proba_view pv = proba_view::matrix(matrix, m);
  rows.y = y;
  rows.yhat = yhat;
  rows.proba = &pv;
  rows.y_proba = y;
  assay::detail::attach_intervals(r, q, rows);
}

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
      r.calibration = std::move(c);
    }
  }
  auto column_runs = [&](std::size_t k) -> const std::vector<run>& { return p.runs[order[k]]; };
  auto all = [](std::uint32_t) { return true; };
  if (K > 2) {
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

// finish_state's body, on any run source: a callable taking a visitor g(key, code, tally) (a
// run_source, or evaluation_state::finish's walks of the in-memory lists, whose visitors are then
// inlined: a std::function call per run was a fifth of rank 0's finish at 10^7 distinct scores).
template <class Descending, class Ascending>
report finish_runs(evaluation_state::impl& s, const evaluate_options& q, const Descending& runs_descending,
                   const Ascending* runs_ascending, sweep_store* store, const regression_sums* values,
                   const given_ranking* given = nullptr) {
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
  const bool scores = o.kind == prediction_kind::scores;
  if (o.kind == prediction_kind::values) {
    report r = finish_regression(s, q, values != nullptr ? *values : regression_sums_of(s));
    if (q.ci_level) attach_kept_intervals(s, q, r, {}, {});
    return r;
  }
  if (o.kind == prediction_kind::proba) return finish_proba(s, q);

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
  std::vector<std::int32_t> class_of(s.dict.size(), -1);
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

  report r;
  header_of(r, s, q);
  r.labels = t.classes;
  r.positive = t.positive;
  r.task = t.task;
  r.prediction_column = o.prediction_name;
  const std::size_t K = r.labels.size();
  const auto pos = r.positive ? static_cast<std::int32_t>(*r.positive) : -1;
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
  if (scores) r.threshold = o.threshold;
  assay::detail::add_confusion_metrics(
      r, q, assay::detail::not_counts_reason(o.weighted ? s.min_fractional_weight : std::nullopt));

  if (scores) {
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
    if ((one_class && (o.weighted || q.ci_level || q.keep_curves || q.constraints.any())) || (q.ci_level && o.weighted)) {
      // One class only: evaluate's weighted path reads the sweep functions, whose reasons for the
      // undefined values differ from the streaming summary's; build the sweep as it does. With
      // intervals, kept curves or constraints evaluate reads the sweep functions too: with both classes their
      // numbers are the streaming summary's (the same running sums and accumulators; weighted
      // reports without either already take them from it), so kept curves and intervals without
      // weights stream (the out-of-core reader's cap); weighted intervals keep every row anyway.
      const curves::score_sweep& sw = sweep();
      auto threshold_of = [](const curves::operating_point& p) {
        return p.criterion.defined() ? value(p.threshold) : p.criterion;
      };
      r.metrics.push_back({"roc_auc", "ROC AUC", curves::roc_auc(sw)});
      r.metrics.push_back({"average_precision", "average precision", curves::average_precision(sw)});
      r.metrics.push_back({"best_threshold_youden", "best threshold, Youden's J", threshold_of(curves::best_youden(sw))});
      r.metrics.push_back({"best_threshold_f1", "best threshold, max F1", threshold_of(curves::best_fbeta(sw, 1))});
    } else {
      const curves::ranking_summary sum = given != nullptr ? given->positive : curves::summarize_walk(P, N, walk);
      r.metrics.push_back({"roc_auc", "ROC AUC", sum.roc_auc});
      r.metrics.push_back({"average_precision", "average precision", sum.average_precision});
      r.metrics.push_back({"best_threshold_youden", "best threshold, Youden's J", sum.best_threshold_youden});
      r.metrics.push_back({"best_threshold_f1", "best threshold, max F1", sum.best_threshold_f1});
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
      const std::size_t positive = *r.positive;
      const auto headline = [&](std::string_view name) {
        for (const auto& m : r.metrics)
          if (m.name == name) return m.v;
        return value::undefined("missing");
      };
      r.by_class[positive].roc_auc = headline("roc_auc");
      r.by_class[positive].average_precision = headline("average_precision");
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
