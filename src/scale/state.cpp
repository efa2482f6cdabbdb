// The mergeable evaluation state; see include/assay/scale/state.hpp and docs/scaling.md.
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

using detail::check_options;
using detail::init_proba;

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

namespace detail {

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

}  // namespace detail

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

namespace detail {

class_plan state_classes(label_spellings seen, const state_options& o, const char* fn) {
  if (seen.truth.empty()) throw_usage(fmt::format("{}: y_true is empty; there is nothing to evaluate", fn));
  return decide_classes(std::move(seen), {o.pos_label, o.task, class_set::truth_and_predictions}, label_source::of_function(fn));
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

}  // namespace assay::scale
