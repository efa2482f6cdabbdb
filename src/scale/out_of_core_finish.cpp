// `assay report` out of core, pass 2 (src/scale/out_of_core_impl.hpp, docs/scaling.md): the spilled
// partitions are loaded from the highest range down (lowest first for the ascending walk), each
// sorted in memory (the next one on a second thread while this one is walked) and its runs, highest
// key first, handed to the state's finish; twice when weighted, or unweighted with two threads. A
// partition larger than its share of memory is split again by the quantiles of a sample of its own
// keys. Regression instead walks its residuals in ascending order for the median absolute error.
#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>
#include <future>
#include <map>
#include <optional>
#include <span>

#include "assay/detail/parallel.hpp"
#include "assay/detail/radix.hpp"
#include "assay/error.hpp"
#include "out_of_core_impl.hpp"

namespace assay::scale::detail {

namespace {

// Visits the residual records of `f` (key: order key of |residual|, id: its sign, w: weight > 0) in
// ascending order of (|residual|, weight), median_absolute_error's order: g(key, id, w). A file of
// more than cap_records records is split again by the quantiles of an evenly spread sample of its
// keys; one whose sample is one key k (ties) is split three ways, below k, at k and above k, and the
// records at k are visited by weight (their key replaced by the weight's bits, `at_key` = k), or as
// they come when their weights are equal too. Memory: cap_records records and the sort's second buffer.
class residual_walk {
 public:
  residual_walk(const ooc_plan& plan, bool weighted, out_of_core_info& inf)
      : plan_(plan), weighted_(weighted), inf_(inf), threads_(assay::detail::team_threads(8)) {}

  template <class G>
  void visit(spill_file& f, G& g, int depth = 0, std::optional<std::uint64_t> at_key = std::nullopt) {
    const std::uint64_t n = f.count();
    if (n == 0) return;
    if (n <= plan_.cap_records) return visit_sorted(f, g, at_key);
    // An evenly spread sample of the keys (a sequential read of the file).
    const std::uint64_t want = std::max<std::uint64_t>(plan_.cap_records / 4, 2);
    const std::uint64_t stride = n / want + 1;
    std::vector<std::uint64_t> keys;
    std::uint64_t i = 0;
    each_record(f, step(), [&](const spill_record& r) {
      if (i++ % stride == 0) keys.push_back(r.key);
    });
    std::sort(keys.begin(), keys.end());
    if (depth < 8 && keys.front() != keys.back()) {
      key_spill sub(keys, static_cast<std::size_t>(2 * n / plan_.cap_records + 2), plan_.dir, plan_.spill_buffers,
                    weighted_);
      if (!sub.splitters().empty()) {
        each_record(f, step(), [&](const spill_record& r) { sub.add(r); });
        inf_.spilled_bytes += sub.flush();
        for (std::size_t p = 0; p < sub.size(); ++p) visit(sub[p], g, depth + 1, at_key);
        return;
      }
    }
    visit_three_ways(f, g, depth, at_key, most_frequent(keys));
  }

 private:
  [[nodiscard]] std::uint64_t step() const { return plan_.cap_records / 4; }

  // The most frequent key of sorted `keys`.
  static std::uint64_t most_frequent(const std::vector<std::uint64_t>& keys) {
    std::uint64_t k = keys.front();
    std::size_t best = 0;
    for (std::size_t j = 0; j < keys.size();) {
      std::size_t e = j;
      while (e < keys.size() && keys[e] == keys[j]) ++e;
      if (e - j > best) best = e - j, k = keys[j];
      j = e;
    }
    return k;
  }

  template <class G>
  static void emit(G& g, const spill_record& r, std::optional<std::uint64_t> at_key) {
    if (at_key) g(*at_key, r.id, r.w);
    else g(r.key, r.id, r.w);
  }

  // A file that fits: sorted in memory, a key's records by weight when weighted.
  template <class G>
  void visit_sorted(spill_file& f, G& g, std::optional<std::uint64_t> at_key) {
    const std::uint64_t n = f.count();
    recs_.clear();
    f.read(0, n, recs_);
    inf_.largest_partition = std::max<std::uint64_t>(inf_.largest_partition, n);
    sort_by_key(recs_, scratch_, threads_);
    if (weighted_ && !at_key) {  // a key's records by weight (positive: their bits are in order)
      for (std::size_t j = 0; j < recs_.size();) {
        std::size_t i = j + 1;
        while (i < recs_.size() && recs_[i].key == recs_[j].key) ++i;
        if (i - j > 1) {
          std::sort(recs_.begin() + static_cast<std::ptrdiff_t>(j), recs_.begin() + static_cast<std::ptrdiff_t>(i),
                    [](const spill_record& a, const spill_record& b) { return a.w < b.w; });
        }
        j = i;
      }
    }
    for (const spill_record& r : recs_) emit(g, r, at_key);
  }

  // The records below k, at k and above k; those at k by weight when weighted (else they are equal
  // but for the sign, visited as they come).
  template <class G>
  void visit_three_ways(spill_file& f, G& g, int depth, std::optional<std::uint64_t> at_key, std::uint64_t k) {
    const bool by_weight = weighted_ && !at_key;
    std::vector<std::uint64_t> at_k{k, k + 1};
    if (k == ~std::uint64_t{0}) at_k.pop_back();
    key_spill three = key_spill::at(std::move(at_k), plan_.dir, plan_.spill_buffers, weighted_);
    each_record(f, step(), [&](spill_record r) {
      const std::size_t p = three.of(r.key);
      if (p == 1 && by_weight) r.key = std::bit_cast<std::uint64_t>(r.w);
      three[p].add(r);
    });
    inf_.spilled_bytes += three.flush();
    visit(three[0], g, depth + 1, at_key);
    if (by_weight) {
      visit(three[1], g, depth + 1, at_key ? at_key : std::optional<std::uint64_t>(k));
    } else {
      each_record(three[1], step(), [&](const spill_record& r) { emit(g, r, at_key); });
    }
    if (three.size() > 2) visit(three[2], g, depth + 1, at_key);
  }

  const ooc_plan& plan_;
  bool weighted_;
  out_of_core_info& inf_;
  unsigned threads_;  // the sorts' team, decided on the calling thread
  std::vector<spill_record> recs_, scratch_;
};

// The runs of the sorted partitions, handed to the finish in batches (run_batch_source: one call per
// batch, not per run).
class score_walk {
 public:
  score_walk(const ooc_plan& plan, bool weighted, key_spill* parts, const std::vector<std::uint32_t>& code_of_id,
             out_of_core_info& inf)
      : plan_(plan), weighted_(weighted), parts_(parts), code_of_id_(code_of_id), inf_(inf),
        // The sort's team, decided here: the helper thread that sorts the next partition does not
        // carry the caller's thread_limit (threads.hpp).
        sort_threads_(assay::detail::team_threads(8)),
        // Partitions are walked again after the first walk with two threads (the ascending walk)
        // and when weighted (the totals, then the sweep); unweighted on one thread the runs file
        // serves instead.
        write_back_(plan.pipelined || weighted) {}

  void walk(const run_batch_visitor& g, bool up);
  void put_run(std::uint64_t key, std::uint32_t code, std::uint64_t n, const exact_sum* w, const run_batch_visitor& g) {
    run& r = batch_[batch_size_];
    r.key = key;
    r.code = code;
    r.t.n = n;
    if (w != nullptr) r.t.w = *w;
    if (++batch_size_ == kBatchCap) {
      g(std::span<const run>(batch_.data(), batch_size_));
      batch_size_ = 0;
    }
  }
  void flush_runs(const run_batch_visitor& g) {
    if (batch_size_ > 0) g(std::span<const run>(batch_.data(), batch_size_));
    batch_size_ = 0;
  }

 private:
  std::uint64_t load_sorted(spill_file& f, std::vector<spill_record>& recs, std::vector<spill_record>& scratch,
                            bool write_back);
  void emit_sorted(std::vector<spill_record>& recs, const run_batch_visitor& g, bool up);
  void emit_key(const std::vector<spill_record>& recs, std::size_t j, std::size_t i, const run_batch_visitor& g);
  void visit_part(spill_file& f, const run_batch_visitor& g, int depth, bool up);
  bool split_part(spill_file& f, const run_batch_visitor& g, int depth, bool up);
  void tally_part(spill_file& f, const run_batch_visitor& g, bool up);

  static constexpr std::size_t kBatchCap = 4096;
  const ooc_plan& plan_;
  bool weighted_;
  key_spill* parts_;
  const std::vector<std::uint32_t>& code_of_id_;
  out_of_core_info& inf_;
  unsigned sort_threads_;
  bool write_back_;
  std::vector<spill_record> recs_, sort_scratch_;  // one partition's records and the sort's second buffer, reused
  std::vector<spill_record> ahead_recs_;           // the next partition's, sorted on a second thread
  std::vector<std::pair<std::uint32_t, tally>> codes_seen_;  // one key's tallies by spelling (few)
  std::vector<run> batch_ = std::vector<run>(kBatchCap);     // `batch_size_` filled, then handed over
  std::size_t batch_size_ = 0;
};

// Reads a partition's records into `recs` with their spellings' codes, sorted by key. A partition is
// sorted once: with `write_back` (another walk will read it) the sorted records replace the file's,
// which later walks read as they are (writing 12 bytes a record costs less than a second sort).
// Returns the bytes written.
std::uint64_t score_walk::load_sorted(spill_file& f, std::vector<spill_record>& recs,
                                      std::vector<spill_record>& scratch, bool write_back) {
  recs.clear();
  if (f.sorted()) {
    f.read(0, f.count(), recs);
    return 0;
  }
  f.read(0, f.count(), recs, code_of_id_.data());  // the spellings' codes in place of the ids
  sort_by_key(recs, scratch, sort_threads_);
  return write_back ? f.rewrite_sorted(recs) : 0;
}

// The runs of the records [j, i) of one key: one tally per spelling (in any order: the walk sums a
// key's spellings exactly).
void score_walk::emit_key(const std::vector<spill_record>& recs, std::size_t j, std::size_t i,
                          const run_batch_visitor& g) {
  if (i - j == 1) {  // a distinct score: its one record
    if (weighted_) {
      exact_sum w;
      w.add(recs[j].w);
      put_run(recs[j].key, recs[j].id, 1, &w, g);
    } else {
      put_run(recs[j].key, recs[j].id, 1, nullptr, g);
    }
    return;
  }
  codes_seen_.clear();
  for (std::size_t k = j; k < i; ++k) {
    auto it = std::find_if(codes_seen_.begin(), codes_seen_.end(), [&](const auto& c) { return c.first == recs[k].id; });
    if (it == codes_seen_.end()) it = codes_seen_.emplace(codes_seen_.end(), recs[k].id, tally{});
    ++it->second.n;
    if (weighted_) it->second.w.add(recs[k].w);
  }
  for (const auto& [code, t] : codes_seen_) put_run(recs[j].key, code, t.n, weighted_ ? &t.w : nullptr, g);
}

// Hands the runs of sorted records `recs` to g (in batches, the last one at the caller's flush_runs):
// highest key first (lowest when up). Leaves `recs` empty (its capacity serves the next partition).
void score_walk::emit_sorted(std::vector<spill_record>& recs, const run_batch_visitor& g, bool up) {
  if (up) {
    for (std::size_t j = 0; j < recs.size();) {
      std::size_t i = j + 1;
      while (i < recs.size() && recs[i].key == recs[j].key) ++i;
      emit_key(recs, j, i, g);
      j = i;
    }
  } else {
    for (std::size_t i = recs.size(); i > 0;) {
      std::size_t j = i - 1;
      while (j > 0 && recs[j - 1].key == recs[i - 1].key) --j;
      emit_key(recs, j, i, g);
      i = j;
    }
  }
  recs.clear();
}

// A partition of more than cap_records records split again by the quantiles of a sample of its keys,
// each piece visited in turn; false when the sample is one key (nothing was visited).
bool score_walk::split_part(spill_file& f, const run_batch_visitor& g, int depth, bool up) {
  const std::uint64_t n = f.count(), cap = plan_.cap_records;
  std::vector<spill_record> sample;
  f.read(0, std::min<std::uint64_t>(n, cap / 2), sample);
  std::vector<std::uint64_t> keys(sample.size());
  for (std::size_t i = 0; i < sample.size(); ++i) keys[i] = sample[i].key;
  sample = std::vector<spill_record>();
  key_spill sub(std::move(keys), static_cast<std::size_t>(2 * n / cap + 1), plan_.dir, plan_.spill_buffers, weighted_);
  if (sub.splitters().empty()) return false;  // one key fills the sample
  std::vector<spill_record> chunk;
  for (std::uint64_t from = 0; from < n; from += cap / 4) {
    chunk.clear();
    f.read(from, std::min<std::uint64_t>(n - from, cap / 4), chunk);
    for (const auto& r : chunk) sub.add(r);
  }
  inf_.spilled_bytes += sub.flush();
  for (std::size_t p = 0; p < sub.size(); ++p) visit_part(sub[up ? p : sub.size() - 1 - p], g, depth + 1, up);
  return true;
}

// Few distinct keys among many records (heavy ties): aggregated chunk by chunk into one tally per
// (key, spelling) instead of holding the records.
void score_walk::tally_part(spill_file& f, const run_batch_visitor& g, bool up) {
  const std::uint64_t n = f.count(), cap = plan_.cap_records;
  std::map<std::pair<std::uint64_t, std::uint32_t>, tally, std::greater<>> agg;
  std::vector<spill_record> chunk;
  for (std::uint64_t from = 0; from < n; from += cap / 4) {
    chunk.clear();
    f.read(from, std::min<std::uint64_t>(n - from, cap / 4), chunk);
    for (const auto& r : chunk) {
      tally& t = agg[{r.key, code_of_id_[r.id]}];
      ++t.n;
      if (weighted_) t.w.add(r.w);
    }
  }
  auto put = [&](const std::pair<std::uint64_t, std::uint32_t>& k, const tally& t) {
    put_run(k.first, k.second, t.n, weighted_ ? &t.w : nullptr, g);
  };
  if (up) {
    for (auto it = agg.rbegin(); it != agg.rend(); ++it) put(it->first, it->second);
  } else {
    for (const auto& [k, t] : agg) put(k, t);
  }
}

// Visits a partition's runs, highest key first, or lowest first when `up`.
void score_walk::visit_part(spill_file& f, const run_batch_visitor& g, int depth, bool up) {
  const std::uint64_t n = f.count();
  if (n == 0) return;
  if (n > plan_.cap_records && depth < 6 && split_part(f, g, depth, up)) return;
  if (n > plan_.cap_records) return tally_part(f, g, up);
  inf_.largest_partition = std::max<std::uint64_t>(inf_.largest_partition, n);
  load_sorted(f, recs_, sort_scratch_, false);  // a piece of a split partition: split again next walk
  emit_sorted(recs_, g, up);
}

// The partitions' runs, highest range first (lowest when `up`). The partitions overlap: while the
// runs of one are walked (on this thread: the finish's accumulators are serial), the next one that
// fits in memory is read and sorted on a second thread into a second buffer (the sort's second
// buffer is the helper's; the partition walked keeps its own). The runs handed to the finish are the
// same, in the same order: only the time they are sorted at changes. Memory: three partitions' worth
// of records instead of two (docs/scaling.md).
void score_walk::walk(const run_batch_visitor& g, bool up) {
  if (parts_ == nullptr) return;
  const std::size_t m = parts_->size();
  auto at = [&](std::size_t p) -> spill_file& { return (*parts_)[up ? p : m - 1 - p]; };
  auto fits = [&](std::size_t p) { return at(p).count() <= plan_.cap_records; };
  std::future<std::uint64_t> next;  // reads and sorts partition p + 1 into ahead_recs_
  for (std::size_t p = 0; p < m; ++p) {
    bool loaded = false;
    if (next.valid()) {
      inf_.spilled_bytes += next.get();
      std::swap(recs_, ahead_recs_);
      loaded = true;
    }
    if (!fits(p)) {  // split again or tallied, on this thread alone (it uses both buffers)
      visit_part(at(p), g, 0, up);
      continue;
    }
    if (!loaded) inf_.spilled_bytes += load_sorted(at(p), recs_, sort_scratch_, write_back_);
    inf_.largest_partition = std::max<std::uint64_t>(inf_.largest_partition, at(p).count());
    if (plan_.pipelined && p + 1 < m && fits(p + 1) && at(p + 1).count() > 0) {
      next = std::async(std::launch::async,
                        [&, q = p + 1] { return load_sorted(at(q), ahead_recs_, sort_scratch_, write_back_); });
    }
    emit_sorted(recs_, g, up);
  }
  flush_runs(g);
}

// Calls g(record) for every record of `f` from the last to the first, `step` at a time.
template <class G>
void each_record_backwards(spill_file& f, std::uint64_t step, G&& g) {
  std::vector<spill_record> chunk;
  step = std::max<std::uint64_t>(step, 1);
  for (std::uint64_t end = f.count(); end > 0;) {
    const std::uint64_t from = end > step ? end - step : 0;
    chunk.clear();
    f.read(from, end - from, chunk);
    for (std::size_t k = chunk.size(); k > 0; --k) g(chunk[k - 1]);
    end = from;
  }
}

// The loss sums of the spellings whose class changed during pass 1 (one_class_loss: a spelling's rows
// added before its class was known for good, e.g. a file whose first piece holds one class only):
// that class's terms again, over every row of the spelling, from the spill (every row of positive
// weight is there: the same terms, w * term as update() takes them, summed exactly).
void redo_losses(evaluation_state::impl& s, key_spill* spilled, const std::vector<std::uint32_t>& code_of_id,
                 std::uint64_t cap_records, out_of_core_info& inf) {
  const auto redo = losses_to_redo(s);
  if (redo.empty() || spilled == nullptr) return;
  key_spill& parts = *spilled;
  std::vector<int> class_k(s.dict.size(), -1);
  for (const auto& [code, k] : redo) {
    class_k[code] = k;
    s.loss[code].log_loss[k] = exact_sum();
    s.loss[code].brier[k] = exact_sum();
  }
  for (std::size_t p = 0; p < parts.size(); ++p) {
    each_record(parts[p], cap_records / 4, [&](const spill_record& r) {
      const std::uint32_t code = code_of_id[r.id];
      const int k = class_k[code];
      if (k < 0 || r.w == 0) return;
      const double x = assay::detail::from_order_key(r.key);
      losses& l = s.loss[code];
      l.log_loss[k].add(r.w * binary_log_loss_term(x, static_cast<std::size_t>(k)));
      l.brier[k].add(r.w * binary_brier_term(x, static_cast<std::size_t>(k)));
    });
  }
  for (const auto& [code, k] : redo) s.loss[code].have |= static_cast<std::uint8_t>(1U << k);
  inf.loss_rereads += parts.size();
}

}  // namespace

// Regression's second pass: the spreads of the targets and residuals about their means (any order)
// and the median absolute error (the residuals in ascending (|residual|, weight) order, partition by
// partition from the lowest range; once the median is found, the rest are only summed, unsorted).
report finish_regression_out_of_core(evaluation_state::impl& s, const evaluate_options& eo, const ooc_plan& plan,
                                     bool weighted, pass_one& p1, out_of_core_info& inf) {
  regression_sums& sums = p1.rsum;
  if (p1.targets) {
    p1.targets->flush();
    inf.spilled_bytes += p1.targets->written();
  }
  if (sums.seen) {
    const double mean_y = sums.mean_target().v, mean_r = sums.mean_residual().v;
    each_record(*p1.targets, plan.cap_records / 4,
                [&](const spill_record& r) { sums.spread_target(std::bit_cast<double>(r.key), r.w, 1, mean_y); });
    median_walk median(sums.den.value());
    auto residual = [&](std::uint64_t key, std::uint32_t sign, double w) {
      const double a = assay::detail::from_order_key(key);
      sums.spread_residual(sign != 0 ? -a : a, w, 1, mean_r);
      if (!median.done) median.add(a, w);
    };
    residual_walk walk(plan, weighted, inf);
    key_spill& residuals = *p1.parts;
    for (std::size_t p = 0; p < residuals.size(); ++p) {
      if (!median.done) {
        walk.visit(residuals[p], residual);
      } else {
        each_record(residuals[p], plan.cap_records / 4,
                    [&](const spill_record& r) { residual(r.key, r.id, r.w); });
      }
    }
    sums.median = median.result();
  }
  return finish_state(s, eo, [](const run_visitor&) {}, nullptr, nullptr, &sums);
}

report finish_scores_out_of_core(evaluation_state::impl& s, const evaluate_options& eo, const ooc_plan& plan,
                                 bool weighted, pass_one& p1, out_of_core_info& inf) {
  std::vector<std::uint32_t> code_of_id(p1.ids.size());
  for (std::size_t k = 0; k < p1.ids.size(); ++k) {
    code_of_id[k] =
        static_cast<std::uint32_t>(std::lower_bound(s.dict.begin(), s.dict.end(), p1.ids[k]) - s.dict.begin());
  }
  redo_losses(s, p1.parts.get(), code_of_id, plan.cap_records, inf);
  score_walk walker(plan, weighted, p1.parts.get(), code_of_id, inf);
  // The ascending walk lets an unweighted finish stream the other class's areas instead of holding
  // the sweep of every distinct score. With two threads it reads the partitions again, lowest range
  // first, as the first walk rewrote them sorted, on the second thread (above), so this thread only
  // walks. On one thread, unweighted, the first descending walk instead writes its runs (key,
  // spelling, count: 20 bytes a run, at most 20 bytes a row) to a file that the ascending walk then
  // reads backwards: less CPU than a second sort, but all of it on the one thread that also walks
  // (measured at 10^7 rows, 32M: the walking thread's share of the CPU fell from 57% to 42% without
  // the file).
  std::unique_ptr<spill_file> walked;
  bool recorded = false;
  const run_batch_source descending = [&](const run_batch_visitor& g) {
    if (weighted || plan.pipelined || recorded || walked) return walker.walk(g, false);
    walked = std::make_unique<spill_file>(plan.dir, plan.spill_buffers, true);
    walker.walk([&](std::span<const run> runs) {
      for (const run& r : runs) walked->add({r.key, r.code, static_cast<double>(r.t.n)});  // a count below 2^53: exact
      g(runs);
    }, false);
    walked->flush();
    inf.spilled_bytes += walked->written();
    recorded = true;
  };
  const run_batch_source ascending = [&](const run_batch_visitor& g) {
    if (!recorded) return walker.walk(g, true);
    each_record_backwards(*walked, plan.cap_records / 4, [&](const spill_record& r) {
      walker.put_run(r.key, r.id, static_cast<std::uint64_t>(r.w), nullptr, g);
    });
    walker.flush_runs(g);
  };
  // Weighted: the other class's areas read the forward sweep's running sums backwards; they go to one
  // more temporary file (20 bytes a distinct score: the record's key holds tp's bits, its weight fp)
  // instead of a sweep in memory.
  std::unique_ptr<spill_file> sums;
  sweep_store store;
  store.put = [&](double tp, double fp) {
    if (!sums) sums = std::make_unique<spill_file>(plan.dir, plan.spill_buffers, true);
    sums->add({std::bit_cast<std::uint64_t>(tp), 0, fp});
  };
  store.backwards = [&](const std::function<void(double, double)>& g) {
    if (!sums) return;
    sums->flush();
    inf.spilled_bytes += sums->written();
    each_record_backwards(*sums, plan.cap_records / 4,
                          [&](const spill_record& r) { g(std::bit_cast<double>(r.key), r.w); });
  };
  return finish_state(s, eo, descending, &ascending, weighted ? &store : nullptr);
}

}  // namespace assay::scale::detail
