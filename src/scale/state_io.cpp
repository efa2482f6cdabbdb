// The mergeable evaluation state: merge, compact, serialize and read_state; see state.cpp.
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
using detail::compact_proba;
using detail::merge_proba;

namespace {

using detail::differing_option;

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

namespace {

// read_state's options, as serialize() writes them (after the magic, version and writer).
state_options read_options(reader& r) {
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
  return o;
}

// read_state's loss sums, calibration bins, regression entries and row terms.
void read_sums(reader& r, evaluation_state::impl& s, std::uint64_t nd) {
  const state_options& o = s.o;
  const bool labels = o.kind == prediction_kind::labels;
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
}

// read_state's score runs; their number.
std::uint64_t read_runs(reader& r, evaluation_state::impl& s, std::uint64_t nd) {
  const state_options& o = s.o;
  const bool labels = o.kind == prediction_kind::labels;
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
  return nr;
}

// read_state's kept rows (row_ids).
void read_kept(reader& r, evaluation_state::impl& s, std::uint64_t nd) {
  const state_options& o = s.o;
  const bool labels = o.kind == prediction_kind::labels;
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

}  // namespace

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
  const state_options o = read_options(r);
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
  read_sums(r, s, nd);
  const std::uint64_t nr = read_runs(r, s, nd);
  if (o.row_ids) read_kept(r, s, nd);
  if (o.kind == prediction_kind::proba) {
    if (!s.cells.empty() || !s.loss.empty() || !s.calib.empty() || nr != 0) {
      reader::malformed("a state of class probabilities has the entries of another kind");
    }
    read_proba(r, s);
  }
  if (r.at != r.in.size()) reader::malformed("bytes follow its content");
  return st;
}

}  // namespace assay::scale
