// The mergeable state of a sliced report; see include/assay/scale/sliced_state.hpp.
#include "assay/scale/sliced_state.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <numeric>
#include <unordered_map>

#include "../report/slices_tables.hpp"
#include "assay/error.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/stats/slices.hpp"
#include "bytes.hpp"
#include "state_impl.hpp"

namespace assay::scale {

namespace {

constexpr char sliced_magic[8] = {'A', 'S', 'S', 'A', 'Y', 'S', 'L', '\0'};

// The options of the slices' states: regression and class probabilities keep every row's id, so a
// slice can number its rows within the slice (header).
state_options part_options(state_options o) {
  if (o.kind == prediction_kind::values || o.kind == prediction_kind::proba) o.row_ids = true;
  return o;
}

std::string names_of(const std::vector<std::string>& by) { return fmt::format("({})", fmt::join(by, ", ")); }

// One label column's rows gathered in a given order, in the column's own form.
struct gathered_labels {
  std::vector<double> numbers;
  std::vector<std::string> text;
  std::vector<std::int32_t> codes;

  label_column gather(const label_column& c, std::span<const std::uint32_t> rows) {
    switch (c.kind) {
      case label_column::form::numbers:
        numbers.resize(rows.size());
        for (std::size_t j = 0; j < rows.size(); ++j) numbers[j] = c.numbers[rows[j]];
        return label_column::of_numbers(numbers);
      case label_column::form::text:
        text.resize(rows.size());
        for (std::size_t j = 0; j < rows.size(); ++j) text[j] = c.text[rows[j]];
        return label_column::of_text(text);
      case label_column::form::coded:
        codes.resize(rows.size());
        for (std::size_t j = 0; j < rows.size(); ++j) codes[j] = c.codes[rows[j]];
        return label_column::of_codes(codes, c.dictionary);
      case label_column::form::none:
        break;
    }
    return {};
  }
};

template <class T>
std::span<const T> gather(std::span<const T> from, std::span<const std::uint32_t> rows, std::vector<T>& to) {
  if (from.empty()) return {};
  to.resize(rows.size());
  for (std::size_t j = 0; j < rows.size(); ++j) to[j] = from[rows[j]];
  return to;
}

}  // namespace

sliced_state::sliced_state(const state_options& options, std::vector<std::string> by) : by_(std::move(by)) {
  if (by_.empty() || by_.size() > 2) {
    throw_usage(fmt::format("sliced_state: by has {} slice columns; give 1 or 2", by_.size()));
  }
  if (by_.size() == 2 && by_[0] == by_[1]) {
    throw_usage(fmt::format("sliced_state: by names the column '{}' twice; give two different columns", by_[0]));
  }
  options_ = evaluation_state(options).options();  // checks the options; fills in the defaults
}

void sliced_state::update(const row_batch& b, std::span<const label_column> by) {
  const char* fn = "sliced_state::update";
  if (by.size() != by_.size()) {
    throw_usage(fmt::format("{}: {} key column(s) given; the state slices by {} {}", fn, by.size(), by_.size(),
                            names_of(by_)));
  }
  const state_options po = part_options(options_);
  evaluation_state(po).check(b);  // the whole batch, before any slice's state changes
  const std::size_t n = b.y_true.size();
  if (n == 0) return;
  if (n >= (std::size_t{1} << 32)) {
    throw_usage(fmt::format("{}: the batch has {} rows; give batches of fewer than 2^32 rows", fn, n));
  }
  // Each row's key: the spellings of the slice columns.
  std::vector<detail::batch_labels> keys;
  for (std::size_t c = 0; c < by.size(); ++c) {
    const std::string name = fmt::format("by[{}]", c);
    keys.push_back(detail::resolve(by[c], n, name.c_str(), fn));
  }
  const std::uint64_t S1 = by.size() == 2 ? keys[1].spellings.size() : 1;
  // The batch's keys in first-seen order, and each row's (UINT32_MAX: a missing key).
  constexpr std::uint32_t none = ~std::uint32_t{0};
  std::vector<std::uint32_t> slot(n);
  std::unordered_map<std::uint64_t, std::uint32_t> slot_of;
  std::vector<std::uint64_t> slot_key;
  std::uint64_t skipped = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t c0 = keys[0].codes[i], c1 = by.size() == 2 ? keys[1].codes[i] : 0;
    if (c0 < 0 || c1 < 0) {
      const std::size_t c = c0 < 0 ? 0 : 1;
      if (!options_.drop_missing) {
        throw_data(fmt::format("{}: by[{}] ('{}') is nan in row {}; missing values are refused (set drop_missing to "
                               "skip such rows)", fn, c, by_[c], i));
      }
      slot[i] = none;
      skipped += b.counts.empty() ? 1 : b.counts[i];
      continue;
    }
    const std::uint64_t k = static_cast<std::uint64_t>(c0) * S1 + static_cast<std::uint64_t>(c1);
    const auto [it, fresh] = slot_of.emplace(k, static_cast<std::uint32_t>(slot_key.size()));
    if (fresh) slot_key.push_back(k);
    slot[i] = it->second;
  }
  // The rows of each key, in batch order (a counting sort).
  std::vector<std::uint32_t> start(slot_key.size() + 1, 0), order;
  {
    std::vector<std::uint32_t> count(slot_key.size(), 0);
    std::size_t kept = 0;
    for (const auto s : slot)
      if (s != none) ++count[s], ++kept;
    order.resize(kept);
    for (std::size_t k = 0; k < count.size(); ++k) start[k + 1] = start[k] + count[k];
    std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
      if (slot[i] != none) order[next[slot[i]]++] = static_cast<std::uint32_t>(i);
  }
  // Each key's rows into its state, with their ids.
  gathered_labels yt, yp;
  std::vector<double> score, weight, value;
  std::vector<std::vector<double>> proba(b.y_proba.size());
  std::vector<std::span<const double>> proba_spans(b.y_proba.size());
  std::vector<std::uint64_t> counts, ids;
  for (std::size_t k = 0; k < slot_key.size(); ++k) {
    const std::span<const std::uint32_t> rows(order.data() + start[k], start[k + 1] - start[k]);
    std::vector<std::string> key{keys[0].spellings[slot_key[k] / S1]};
    if (by.size() == 2) key.push_back(keys[1].spellings[slot_key[k] % S1]);
    row_batch part;
    part.y_true = yt.gather(b.y_true, rows);
    part.y_pred = yp.gather(b.y_pred, rows);
    part.y_score = gather(b.y_score, rows, score);
    part.sample_weight = gather(b.sample_weight, rows, weight);
    part.y_value = gather(b.y_value, rows, value);
    for (std::size_t c = 0; c < b.y_proba.size(); ++c) proba_spans[c] = gather(b.y_proba[c], rows, proba[c]);
    part.y_proba = proba_spans;
    part.counts = gather(b.counts, rows, counts);
    if (po.row_ids) {
      ids.resize(rows.size());
      for (std::size_t j = 0; j < rows.size(); ++j) ids[j] = b.id(rows[j]);
      part.row_ids = ids;
    }
    auto at = parts_.find(key);
    if (at == parts_.end()) at = parts_.emplace(std::move(key), evaluation_state(po)).first;
    at->second.update(part);
  }
  missing_keys_ += skipped;
}

void sliced_state::merge(const sliced_state& other) {
  if (other.by_ != by_) {
    throw_usage(fmt::format("sliced_state::merge: the other state slices by {}, this one by {}", names_of(other.by_),
                            names_of(by_)));
  }
  if (const char* f = detail::differing_option(options_, other.options_)) {
    throw_usage(fmt::format("sliced_state::merge: the states have different options (their {} differs)", f));
  }
  if (this == &other) {
    const sliced_state copy(other);
    merge(copy);
    return;
  }
  for (const auto& [key, part] : other.parts_) {
    auto at = parts_.find(key);
    if (at == parts_.end()) parts_.emplace(key, part);
    else at->second.merge(part);
  }
  missing_keys_ += other.missing_keys_;
}

std::uint64_t sliced_state::rows() const {
  std::uint64_t n = 0;
  for (const auto& [key, part] : parts_) n += part.rows();
  return n;
}

std::uint64_t sliced_state::missing() const {
  std::uint64_t n = missing_keys_;
  for (const auto& [key, part] : parts_) n += part.missing();
  return n;
}

std::size_t sliced_state::memory_bytes() const {
  std::size_t n = sizeof *this;
  for (const auto& [key, part] : parts_) {
    n += part.memory_bytes() + 64;
    for (const auto& k : key) n += k.capacity();
  }
  return n;
}

void sliced_state::offset_row_ids(std::uint64_t by) {
  for (auto& [key, part] : parts_) part.offset_row_ids(by);
}

std::string sliced_state::serialize() const {
  detail::writer w;
  w.out.append(sliced_magic, sizeof sliced_magic);
  w.u32(sliced_state_format_version);
  w.str(ASSAY_VERSION);
  w.u64(by_.size());
  for (const auto& name : by_) w.str(name);
  w.str(evaluation_state(options_).serialize());  // the options, as an empty state's blob
  w.u64(missing_keys_);
  w.u64(parts_.size());
  for (const auto& [key, part] : parts_) {  // in key order (std::map): canonical
    for (const auto& k : key) w.str(k);
    w.str(part.serialize());
  }
  w.u64(detail::checksum(w.out));
  return std::move(w.out);
}

sliced_state read_sliced_state(std::string_view blob, const std::optional<state_options>& expect,
                               const std::optional<std::vector<std::string>>& expect_by) {
  const char* fn = "read_sliced_state";
  if (blob.size() < sizeof sliced_magic + 4 + 8 || std::memcmp(blob.data(), sliced_magic, sizeof sliced_magic) != 0) {
    throw_data(fmt::format("{}: the blob is not an assay sliced state (its first bytes are not \"ASSAYSL\")", fn));
  }
  detail::reader tail{blob.substr(blob.size() - 8)};
  if (tail.u64() != detail::checksum(blob.substr(0, blob.size() - 8))) {
    throw_data(fmt::format("{}: the blob is corrupt: its checksum does not match its content", fn));
  }
  detail::reader r{blob.substr(0, blob.size() - 8), sizeof sliced_magic};
  r.fn = fn;
  const std::uint32_t version = r.u32();
  if (version != sliced_state_format_version) {
    throw_data(fmt::format("{}: the blob has sliced state format version {}; this assay reads version {}", fn, version,
                           sliced_state_format_version));
  }
  const std::string made_by = r.str();
  if (made_by != ASSAY_VERSION) {
    throw_data(fmt::format("{}: the blob was written by assay {}; this is assay {} (merge states of one version)", fn,
                           made_by, ASSAY_VERSION));
  }
  const std::uint64_t columns = r.count(8);
  std::vector<std::string> by;
  for (std::uint64_t c = 0; c < columns; ++c) by.push_back(r.str());
  if (expect_by && *expect_by != by) {
    throw_data(fmt::format("{}: the blob slices by {}, not by {}", fn, names_of(by), names_of(*expect_by)));
  }
  const evaluation_state probe = read_state(r.str(), expect);
  sliced_state out(probe.options(), by);  // checks the slice columns
  const state_options po = part_options(out.options_);
  out.missing_keys_ = r.u64();
  const std::uint64_t parts = r.count(8 * (columns + 1));
  for (std::uint64_t p = 0; p < parts; ++p) {
    std::vector<std::string> key;
    for (std::uint64_t c = 0; c < columns; ++c) key.push_back(r.str());
    if (!out.parts_.empty() && !(out.parts_.rbegin()->first < key)) r.fail("the slices are not in key order");
    evaluation_state part = read_state(r.str(), po);
    if (part.rows() == 0 && part.missing() == 0) r.fail("a slice has no rows");
    out.parts_.emplace_hint(out.parts_.end(), std::move(key), std::move(part));
  }
  if (r.at != r.in.size()) r.fail("it has bytes after its content");
  return out;
}

sliced_report sliced_state::finish(const evaluate_options& q, const slice_options& slicing) const {
  if (parts_.empty()) throw_usage("sliced_state::finish: no rows were added; there is nothing to evaluate");
  const state_options po = part_options(options_);
  sliced_report out;
  out.by = by_;
  out.p_adjust = slicing.p_adjust;
  out.min_rows = slicing.min_rows;
  {  // the state of every row: the slices' states merged pairwise, O(runs x log2 slices)
    std::vector<evaluation_state> level;
    for (const auto& [key, part] : parts_) level.push_back(part);
    while (level.size() > 1) {
      std::vector<evaluation_state> next;
      for (std::size_t i = 0; i + 1 < level.size(); i += 2) {
        level[i].merge(std::move(level[i + 1]));
        next.push_back(std::move(level[i]));
      }
      if (level.size() % 2 == 1) next.push_back(std::move(level.back()));
      level = std::move(next);
    }
    out.overall = level[0].finish(q);
  }

  // The slices in evaluate_slices' order: each column's keys sorted by sort_labels (numerically when
  // all are numbers, else by bytes), the pairs by the first column, then the second.
  std::vector<std::vector<std::size_t>> rank(by_.size());
  std::vector<std::unordered_map<std::string, std::size_t>> rank_of(by_.size());
  for (std::size_t c = 0; c < by_.size(); ++c) {
    std::vector<std::string> levels;
    for (const auto& [key, part] : parts_) levels.push_back(key[c]);
    const auto sorted = sort_labels(std::move(levels));
    for (std::size_t l = 0; l < sorted.size(); ++l) rank_of[c].emplace(sorted[l], l);
  }
  std::vector<std::pair<const std::vector<std::string>, evaluation_state>*> order;  // parts_ is mutable
  for (auto& e : parts_) order.push_back(&e);
  auto ranks = [&](const std::vector<std::string>& key) {
    std::pair<std::size_t, std::size_t> r{rank_of[0].at(key[0]), 0};
    if (key.size() == 2) r.second = rank_of[1].at(key[1]);
    return r;
  };
  std::stable_sort(order.begin(), order.end(), [&](auto* a, auto* b) { return ranks(a->first) < ranks(b->first); });

  // Every slice's report, with the classes of all the slices.
  std::vector<std::string> all_true, all_pred;
  for (const auto& [key, part] : parts_) {
    auto [t, p] = detail::spellings_of(detail::state_access::of(part));
    all_true.insert(all_true.end(), t.begin(), t.end());
    all_pred.insert(all_pred.end(), p.begin(), p.end());
  }
  for (auto* v : {&all_true, &all_pred}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  out.slices.resize(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    slice& s = out.slices[k];
    s.key = order[k]->first;
    const evaluation_state& part = order[k]->second;
    s.rows = part.rows();
    // (finish() changes no result of a state: it compacts its lists.)
    try {
      if (po.row_ids) {
        evaluation_state one(part);  // a copy: its row ids are renumbered within the slice
        auto& impl = detail::state_access::of(one);
        impl.also_true = all_true;
        impl.also_pred = all_pred;
        detail::rank_row_ids(impl);
        s.r = one.finish(q);
      } else {  // the slice's own state, told the other slices' spellings while it is finished
        auto& impl = detail::state_access::of(order[k]->second);
        impl.also_true = all_true;
        impl.also_pred = all_pred;
        struct forget {
          evaluation_state::impl& s;
          ~forget() {
            s.also_true.clear();
            s.also_pred.clear();
          }
        } guard{impl};
        s.r = order[k]->second.finish(q);
      }
    } catch (const error& e) {
      s.reason = e.what();
    }
  }

  // The DeLong summaries of each slice and of the rest, from the slices' score runs walked in
  // ascending score order: the groups of equal keys with each slice's positives and negatives.
  std::vector<stats::auc_slice_vs_rest> aucs;
  if (options_.kind == prediction_kind::scores && !options_.weighted && order.size() > 1 &&
      out.overall.task == task_kind::binary && out.overall.positive) {
    // The positive class's true spellings, by the classes of all the slices (as finish decides them:
    // decide_classes on the true spellings).
    const std::vector<std::uint8_t> is_positive = positive_of_spellings(
        all_true, {options_.pos_label, options_.task, class_set::truth_and_predictions}, label_source::of_function("predictions_from_scores"));
    std::vector<std::string> positives;
    for (std::size_t i = 0; i < all_true.size(); ++i)
      if (is_positive[i] != 0) positives.push_back(all_true[i]);
    // Each slice's runs are sorted by (key, code): a k-way merge by key (a heap of the slices' next
    // runs) visits every run in ascending key order, a slice's runs of one key one after another.
    struct cursor {
      const run* at;
      const run* end;
      std::uint32_t slice;
      std::vector<char> is_pos;  // per spelling code of the slice's state
    };
    std::vector<cursor> cursors;
    for (std::size_t k = 0; k < order.size(); ++k) {
      evaluation_state& part = order[k]->second;
      part.compact();  // one sorted run list; changes no result
      const auto& impl = detail::state_access::of(part);
      cursor c{impl.runs.data(), impl.runs.data() + impl.runs.size(), static_cast<std::uint32_t>(k), {}};
      c.is_pos.resize(impl.dict.size());
      for (std::size_t d = 0; d < impl.dict.size(); ++d) {
        c.is_pos[d] = std::binary_search(positives.begin(), positives.end(), impl.dict[d]) ? 1 : 0;
      }
      if (c.at != c.end) cursors.push_back(std::move(c));
    }
    auto later = [&](std::size_t a, std::size_t b) {  // a heap whose top is the lowest (key, slice)
      const cursor &x = cursors[a], &y = cursors[b];
      return x.at->key != y.at->key ? x.at->key > y.at->key : x.slice > y.slice;
    };
    std::vector<std::size_t> heap(cursors.size());
    std::iota(heap.begin(), heap.end(), 0);
    std::make_heap(heap.begin(), heap.end(), later);
    std::vector<stats::slice_tie_counts> counts;
    std::vector<std::size_t> starts;
    std::uint64_t last = 0;
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), later);
      cursor& c = cursors[heap.back()];
      const std::uint64_t key = c.at->key;
      if (starts.empty() || key != last) starts.push_back(counts.size());
      last = key;
      stats::slice_tie_counts e{c.slice, 0, 0};
      for (; c.at != c.end && c.at->key == key; ++c.at) (c.is_pos[c.at->code] ? e.pos : e.neg) += c.at->t.n;
      counts.push_back(e);
      if (c.at == c.end) heap.pop_back();
      else std::push_heap(heap.begin(), heap.end(), later);
    }
    starts.push_back(counts.size());
    aucs = stats::delong_slices_vs_rest(counts, starts, order.size());
  }
  assay::detail::add_slice_tables(out, out.overall.task, options_.kind == prediction_kind::scores, options_.weighted,
                                  aucs, slicing);
  return out;
}

}  // namespace assay::scale
