// The ranking metrics of a binary score range by range; see include/assay/scale/ranges.hpp and
// docs/scaling.md (section "MPI", "the range-partitioned report").
#include "assay/scale/ranges.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <new>

#include "assay/curves/class_sort.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/data/predictions.hpp"
#include "assay/detail/exact_sum.hpp"
#include "assay/detail/radix.hpp"
#include "assay/error.hpp"
#include "state_impl.hpp"

namespace assay::scale {

std::vector<std::uint8_t> positive_spellings(const std::vector<std::string>& spellings, const state_options& o) {
  // finish()'s rules (decide_classes under the state's options, its messages), on the union of every
  // part's spellings; the order of the spellings does not change the classes.
  if (spellings.empty()) throw_usage("predictions_from_scores: y_true is empty; there is nothing to evaluate");
  return positive_of_spellings(spellings, {o.pos_label, o.task, class_set::truth_and_predictions},
                               label_source::of_function("predictions_from_scores"));
}

namespace {

template <class AfterBatch>
void fill_state(ranked_part& part, const std::vector<std::string>& spellings, AfterBatch&& after_batch) {
  evaluation_state::impl& s = detail::state_access::of(part.state);
  if (s.rows != 0 || s.keep_runs || !s.one_class_loss) {
    throw_usage("fill_ranked_state: the part's state is not the fresh state of ranked_part_of_file");
  }
  const std::size_t n = part.scores.size();
  if (part.codes.size() != n || (!part.weights.empty() && part.weights.size() != n)) {
    throw_usage(fmt::format("fill_ranked_state: {} scores, {} labels and {} weights", n, part.codes.size(),
                            part.weights.size()));
  }
  // Every part's spellings, so that each row sums the terms of its spelling's final class only.
  s.also_true = spellings;
  try {
    // In batches of 2^16 rows: update's per-batch arrays (codes, flags) stay in cache.
    constexpr std::size_t batch = std::size_t{1} << 16;
    for (std::size_t at = 0; at < n; at += batch) {
      const std::size_t k = std::min(batch, n - at);
      row_batch b;
      b.y_true = label_column::of_codes(std::span(part.codes).subspan(at, k), part.spellings);
      b.y_score = std::span(part.scores).subspan(at, k);
      if (!part.weights.empty()) b.sample_weight = std::span(part.weights).subspan(at, k);
      b.first_row_id = at;
      part.state.update(b);
      after_batch(at, at + k);
    }
  } catch (...) {
    s.also_true.clear();
    throw;
  }
  s.also_true.clear();  // the merged state's cells hold every spelling: finish() needs no more
  if (s.rows != n) {  // a row the state skipped would still be in the ranges
    throw_usage(fmt::format("fill_ranked_state: the state took {} of {} rows", s.rows, n));
  }
}

}  // namespace

void fill_ranked_state(ranked_part& part, const std::vector<std::string>& spellings) {
  fill_state(part, spellings, [](std::size_t, std::size_t) {});
}

bool mostly_distinct(std::span<const double> scores) {
  constexpr std::size_t most = std::size_t{1} << 16;
  const std::size_t step = std::max<std::size_t>(1, scores.size() / most);
  std::vector<double> s;
  s.reserve(std::min(scores.size(), most + 1));
  for (std::size_t i = 0; i < scores.size(); i += step) s.push_back(scores[i] + 0.0);
  if (s.empty()) return true;
  std::sort(s.begin(), s.end());
  const auto distinct = static_cast<std::size_t>(std::unique(s.begin(), s.end()) - s.begin());
  return 2 * distinct > s.size();
}

std::vector<std::uint64_t> sample_keys(std::span<const double> scores, std::size_t count) {
  std::vector<std::uint64_t> out;
  if (scores.empty() || count == 0) return out;
  const std::size_t step = std::max<std::size_t>(1, scores.size() / count);
  for (std::size_t i = 0; i < scores.size(); i += step) out.push_back(assay::detail::order_key(scores[i]));
  return out;
}

std::vector<std::uint64_t> range_splitters(std::vector<std::uint64_t> pooled, std::size_t ranges) {
  if (ranges == 0) throw_usage("range_splitters: ranges is 0; it must be >= 1");
  std::sort(pooled.begin(), pooled.end());
  std::vector<std::uint64_t> out(ranges - 1, 0);
  if (pooled.empty()) return out;  // any cut is right; these put every row in range 0
  for (std::size_t k = 1; k < ranges; ++k) out[k - 1] = pooled[k * pooled.size() / ranges];
  return out;
}

std::size_t range_of(double score, std::span<const std::uint64_t> splitters) {
  const std::uint64_t key = assay::detail::order_key(score);
  const auto below = static_cast<std::size_t>(std::upper_bound(splitters.begin(), splitters.end(), key) -
                                              splitters.begin());  // cuts at or under the key
  return splitters.size() - below;
}

namespace {

std::array<std::uint64_t, 4> counts_of(std::string_view bytes);

void put_u64(std::string& out, std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

void put_doubles(std::string& out, const std::vector<double>& v) {
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}

}  // namespace

std::string range_rows::to_bytes() const {
  std::string out;
  out.reserve(32 + 8 * (pos.size() + neg.size() + pos_w.size() + neg_w.size()));
  for (const auto* v : {&pos, &neg, &pos_w, &neg_w}) put_u64(out, v->size());
  for (const auto* v : {&pos, &neg, &pos_w, &neg_w}) put_doubles(out, *v);
  return out;
}

range_rows range_rows::from_bytes(std::string_view bytes) {
  range_rows r;
  const std::array<std::uint64_t, 4> n = counts_of(bytes);
  std::size_t at = sizeof n;
  std::vector<double>* v[4] = {&r.pos, &r.neg, &r.pos_w, &r.neg_w};
  for (int k = 0; k < 4; ++k) {
    v[k]->resize(n[k]);
    if (n[k] > 0) std::memcpy(v[k]->data(), bytes.data() + at, 8 * n[k]);  // an empty vector's data() may be null
    at += 8 * n[k];
  }
  return r;
}

void range_rows::append(const range_rows& more) {
  pos.insert(pos.end(), more.pos.begin(), more.pos.end());
  neg.insert(neg.end(), more.neg.begin(), more.neg.end());
  pos_w.insert(pos_w.end(), more.pos_w.begin(), more.pos_w.end());
  neg_w.insert(neg_w.end(), more.neg_w.begin(), more.neg_w.end());
}

std::vector<range_rows> split_into_ranges(std::span<const double> scores, std::span<const std::uint8_t> positive,
                                          std::span<const double> weights, std::span<const std::uint64_t> splitters) {
  const std::size_t n = scores.size(), R = splitters.size() + 1;
  if (positive.size() != n || (!weights.empty() && weights.size() != n)) {
    throw_usage(fmt::format("split_into_ranges: {} scores, {} classes and {} weights", n, positive.size(),
                            weights.size()));
  }
  const bool weighted = !weights.empty();
  std::vector<std::uint32_t> where(n);
  std::vector<std::size_t> count(2 * R, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = static_cast<std::uint32_t>(R == 1 ? 0 : range_of(scores[i], splitters));
    where[i] = r;
    ++count[2 * r + (positive[i] != 0 ? 1 : 0)];
  }
  std::vector<range_rows> out(R);
  for (std::size_t r = 0; r < R; ++r) {
    out[r].neg.reserve(count[2 * r]);
    out[r].pos.reserve(count[2 * r + 1]);
    if (weighted) out[r].neg_w.reserve(count[2 * r]), out[r].pos_w.reserve(count[2 * r + 1]);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (weighted && weights[i] == 0) continue;  // as sweep_scores: no threshold of its own, no weight
    range_rows& to = out[where[i]];
    const double x = scores[i] + 0.0;           // -0.0 and +0.0: one threshold
    if (positive[i] != 0) {
      to.pos.push_back(x);
      if (weighted) to.pos_w.push_back(weights[i]);
    } else {
      to.neg.push_back(x);
      if (weighted) to.neg_w.push_back(weights[i]);
    }
  }
  return out;
}

namespace {

// The rows of a part on their way to their ranges (split_into_range_bytes, fill_and_split): pass 1
// counts each range's rows by class (count, on any stretch of rows), pass 2 writes each row straight
// into its range's bytes (scatter; range_rows::to_bytes's layout: four counts, then scores and
// weights by class). One cut (two ranges) is one comparison a row; more cuts, a binary search.
struct range_splitter {
  std::span<const double> scores;
  std::span<const std::int32_t> codes;
  const std::uint8_t* pos_of;
  std::span<const double> weights;
  std::span<const std::uint64_t> splitters;
  std::size_t R;
  bool weighted;
  std::uint64_t cut;
  std::vector<std::uint64_t> count;  // [2r] negatives, [2r + 1] positives of range r

  range_splitter(std::span<const double> s, std::span<const std::int32_t> c, std::span<const std::uint8_t> flags,
                 std::span<const double> w, std::span<const std::uint64_t> cuts, const char* fn)
      : scores(s), codes(c), pos_of(flags.data()), weights(w), splitters(cuts), R(cuts.size() + 1),
        weighted(!w.empty()), cut(cuts.size() == 1 ? cuts[0] : 0), count(2 * R, 0) {
    const std::size_t n = s.size();
    if (c.size() != n || (!w.empty() && w.size() != n)) {
      throw_usage(fmt::format("{}: {} scores, {} labels and {} weights", fn, n, c.size(), w.size()));
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (c[i] < 0 || static_cast<std::size_t>(c[i]) >= flags.size()) {
        throw_usage(fmt::format("{}: codes[{}] is {}, outside the {} classes' flags", fn, i, c[i], flags.size()));
      }
    }
  }

  [[nodiscard]] std::size_t range_of_row(std::size_t i) const {
    if (R == 1) return 0;
    if (R == 2) return assay::detail::order_key(scores[i]) >= cut ? 0 : 1;
    return range_of(scores[i], splitters);
  }

  void count_rows(std::size_t from, std::size_t to) {
    if (R == 2) {
      // Counters in registers: an increment of count[k] for a k that changes from row to row waits on
      // the store of the previous increment (store-to-load forwarding), several cycles a row.
      std::uint64_t top_pos = 0, top_neg = 0, pos = 0, neg = 0;
      for (std::size_t i = from; i < to; ++i) {
        const std::uint64_t kept = (!weighted || weights[i] != 0) ? 1 : 0;  // weight 0: no threshold of its own
        const std::uint64_t p = pos_of[codes[i]] != 0 ? kept : 0, q = kept - p;
        const std::uint64_t top = assay::detail::order_key(scores[i]) >= cut ? 1 : 0;
        top_pos += top & p;
        top_neg += top & q;
        pos += p;
        neg += q;
      }
      count[0] += top_neg;
      count[1] += top_pos;
      count[2] += neg - top_neg;
      count[3] += pos - top_pos;
      return;
    }
    for (std::size_t i = from; i < to; ++i) {
      const bool kept = !weighted || weights[i] != 0;  // as sweep_scores: weight 0, no threshold of its own
      count[2 * range_of_row(i) + (pos_of[codes[i]] != 0 ? 1 : 0)] += kept ? 1 : 0;
    }
  }

  [[nodiscard]] std::vector<range_bytes> scatter() const {
    const std::size_t n = scores.size();
    std::vector<range_bytes> out(R);
    std::vector<double*> to(4 * R);  // per range: positives, negatives, their weights
    for (std::size_t r = 0; r < R; ++r) {
      const std::uint64_t np = count[2 * r + 1], nn = count[2 * r], nw = weighted ? 1 : 0;
      const std::uint64_t head[4] = {np, nn, np * nw, nn * nw};
      out[r] = range_bytes::of_size(sizeof head + 8 * (np + nn) * (1 + nw));  // every byte written below
      std::memcpy(out[r].data.get(), head, sizeof head);
      auto* d = reinterpret_cast<double*>(out[r].data.get() + sizeof head);
      to[4 * r] = d;
      to[4 * r + 1] = d + np;
      to[4 * r + 2] = d + np + nn;
      to[4 * r + 3] = d + 2 * np + nn;
    }
    if (R == 2 && !weighted) {
      // Four write positions in registers, the destination chosen by selects (the rows' ranges and
      // classes come in random order: a branch would mispredict, an array of pointers would wait on
      // its own stores as the counters above).
      double *a = to[0], *b = to[1], *c = to[4], *d = to[5];  // range 0 pos, neg; range 1 pos, neg
      for (std::size_t i = 0; i < n; ++i) {
        const double x = scores[i] + 0.0;  // -0.0 and +0.0: one threshold
        const bool top = assay::detail::order_key(scores[i]) >= cut, p = pos_of[codes[i]] != 0;
        double* const at = top ? (p ? a : b) : (p ? c : d);
        *at = x;
        a += top & p;
        b += top & !p;
        c += !top & p;
        d += !top & !p;
      }
      return out;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (weighted && weights[i] == 0) continue;
      const std::size_t slot = 4 * range_of_row(i) + (pos_of[codes[i]] != 0 ? 0 : 1);
      *to[slot]++ = scores[i] + 0.0;  // -0.0 and +0.0: one threshold
      if (weighted) *to[slot + 2]++ = weights[i];
    }
    return out;
  }
};

}  // namespace

namespace {

// n uninitialised T from the heap (std::malloc): not detail::make_buffer's huge pages, whose faults
// made the kernel compact memory (the 10^8-row sort input's first touch took 1.8 s instead of 1.1 s),
// and not a container's zero fill. Under cli/mpi_report.cpp's allocator settings a large block comes
// from memory freed earlier in the run (the part's columns), so its pages are not faulted in again.
template <class T>
assay::detail::buffer_ptr<T> heap_array(std::size_t n) {
  void* p = std::malloc(n == 0 ? sizeof(T) : n * sizeof(T));
  if (p == nullptr) throw std::bad_alloc();
  return assay::detail::buffer_ptr<T>(static_cast<T*>(p));
}

}  // namespace

range_bytes range_bytes::of_size(std::size_t size) {
  range_bytes b;
  b.data = heap_array<char>(size);
  b.size = size;
  return b;
}

std::vector<range_bytes> split_into_range_bytes(std::span<const double> scores, std::span<const std::int32_t> codes,
                                                std::span<const std::uint8_t> positive_of_code,
                                                std::span<const double> weights,
                                                std::span<const std::uint64_t> splitters) {
  range_splitter sp(scores, codes, positive_of_code, weights, splitters, "split_into_range_bytes");
  sp.count_rows(0, scores.size());
  return sp.scatter();
}

std::vector<range_bytes> fill_and_split(ranked_part& part, const std::vector<std::string>& spellings,
                                        std::span<const std::uint8_t> positive_of_code,
                                        std::span<const std::uint64_t> splitters) {
  range_splitter sp(part.scores, part.codes, positive_of_code, part.weights, splitters, "fill_and_split");
  // Each batch's rows are counted right after the state took them, while they are in cache: one read
  // of the part's columns fewer than fill_ranked_state, then split_into_range_bytes.
  fill_state(part, spellings, [&](std::size_t from, std::size_t to) { sp.count_rows(from, to); });
  return sp.scatter();
}

namespace {

// The four counts at the head of range_rows::to_bytes, checked against the length.
std::array<std::uint64_t, 4> counts_of(std::string_view bytes) {
  std::array<std::uint64_t, 4> n{};
  if (bytes.size() < sizeof n) {
    throw_data(fmt::format("range_rows::from_bytes: {} bytes, fewer than the 32 of the counts", bytes.size()));
  }
  std::memcpy(n.data(), bytes.data(), sizeof n);
  const std::uint64_t limit = bytes.size() / 8;
  if (n[0] > limit || n[1] > limit || n[2] > limit || n[3] > limit ||
      bytes.size() != sizeof n + 8 * (n[0] + n[1] + n[2] + n[3])) {
    throw_data(fmt::format("range_rows::from_bytes: {} bytes do not hold {} + {} scores and {} + {} weights",
                           bytes.size(), n[0], n[1], n[2], n[3]));
  }
  return n;
}

// A weighted row: the order key of the negated score (ascending = highest score first) and the weight,
// signed by the class (+ positive, - negative), as curves::sweep_scores sorts them.
struct signed_record {
  std::uint64_t key;
  double signed_weight;
};

}  // namespace

score_range::score_range(range_rows rows, bool weighted) : weighted_(weighted) {
  if (weighted && (rows.pos_w.size() != rows.pos.size() || rows.neg_w.size() != rows.neg.size())) {
    throw_usage(fmt::format("score_range: {} positive scores with {} weights, {} negative with {}", rows.pos.size(),
                            rows.pos_w.size(), rows.neg.size(), rows.neg_w.size()));
  }
  rows_ = rows.pos.size() + rows.neg.size();
  if (!weighted) {  // make_report's sort of the two classes (curves::sort_runs: radix, MSD first)
    const std::size_t P = rows.pos.size();
    data_ = heap_array<double>(rows_);
    std::copy(rows.pos.begin(), rows.pos.end(), data_.get());
    std::copy(rows.neg.begin(), rows.neg.end(), data_.get() + P);
    rows = range_rows();
    sorted_ = curves::sort_runs(std::span(data_.get(), rows_), P);
    return;
  }
  std::vector<score_range::signed_record> recs;
  recs.reserve(rows_);
  for (std::size_t i = 0; i < rows.pos.size(); ++i) recs.push_back({assay::detail::order_key(-rows.pos[i]), rows.pos_w[i]});
  for (std::size_t i = 0; i < rows.neg.size(); ++i) recs.push_back({assay::detail::order_key(-rows.neg[i]), -rows.neg_w[i]});
  rows = range_rows();
  group(std::move(recs));
}

score_range score_range::of_bytes(std::vector<range_bytes>&& pieces, bool weighted) {
  std::array<std::uint64_t, 4> total{};
  for (const auto& p : pieces) {
    const std::array<std::uint64_t, 4> n = counts_of(p.view());
    if (weighted ? (n[2] != n[0] || n[3] != n[1]) : (n[2] != 0 || n[3] != 0)) {
      throw_data(fmt::format("score_range::of_bytes: {} + {} scores with {} + {} weights in a{} range", n[0], n[1], n[2],
                             n[3], weighted ? " weighted" : "n unweighted"));
    }
    for (int k = 0; k < 4; ++k) total[k] += n[k];
  }
  score_range out(range_rows(), weighted);
  out.rows_ = total[0] + total[1];
  auto scores_of = [](std::string_view p, int k) {
    std::array<std::uint64_t, 4> n{};
    std::memcpy(n.data(), p.data(), sizeof n);
    std::uint64_t at = 0;
    for (int j = 0; j < k; ++j) at += n[j];
    return std::span(reinterpret_cast<const double*>(p.data() + sizeof n) + at, n[k]);
  };
  if (!weighted) {  // every piece's positives, then every piece's negatives: one copy, then the sort
    out.data_ = heap_array<double>(out.rows_);
    double* at = out.data_.get();
    for (int k = 0; k < 2; ++k) {
      for (auto& p : pieces) {
        const auto s = scores_of(p.view(), k);
        if (!s.empty()) std::memcpy(at, s.data(), s.size() * sizeof(double));
        at += s.size();
        if (k == 1) p = range_bytes();
      }
    }
    // The pieces are freed before the sort takes its buffer, which then reuses their pages (fresh
    // huge pages made the kernel compact memory: the sort took 1.8 s instead of 1.1 s at 10^8 rows).
    out.sorted_ = curves::sort_runs(std::span(out.data_.get(), out.rows_), total[0]);
    return out;
  }
  std::vector<signed_record> recs;
  recs.reserve(out.rows_);
  for (auto& p : pieces) {
    const auto v = p.view();
    const auto ps = scores_of(v, 0), ns = scores_of(v, 1), pw = scores_of(v, 2), nw = scores_of(v, 3);
    for (std::size_t i = 0; i < ps.size(); ++i) recs.push_back({assay::detail::order_key(-ps[i]), pw[i]});
    for (std::size_t i = 0; i < ns.size(); ++i) recs.push_back({assay::detail::order_key(-ns[i]), -nw[i]});
    p = range_bytes();
  }
  out.group(std::move(recs));
  return out;
}

void score_range::group(std::vector<signed_record> recs) {
  assay::detail::stable_sort_by_key(recs);
  // Tie groups, highest score first, each side summed exactly and rounded once (as sweep_scores).
  for (std::size_t i = 0; i < recs.size();) {
    const std::uint64_t key = recs[i].key;
    assay::detail::exact_sum gp, gn;
    for (; i < recs.size() && recs[i].key == key; ++i) {
      const double sw = recs[i].signed_weight;
      if (sw > 0) gp.add(sw);
      else gn.add(-sw);
    }
    t_.push_back(-assay::detail::from_order_key(key) + 0.0);
    gp_.push_back(gp.value());
    gn_.push_back(gn.value());
  }
}

running_edge score_range::running_sums(running_edge above) {
  above_ = above;
  if (!weighted_) {  // counts: integers, exact in doubles below 2^53
    return {above.tp + static_cast<double>(sorted_.first.size()), above.fp + static_cast<double>(sorted_.second.size())};
  }
  tp_.resize(t_.size());
  fp_.resize(t_.size());
  double tp = above.tp, fp = above.fp;
  for (std::size_t g = 0; g < t_.size(); ++g) {
    tp += gp_[g];
    fp += gn_[g];
    tp_[g] = tp;
    fp_[g] = fp;
  }
  return {tp, fp};
}

void score_range::walk_down(curves::summary_walker<true>& out) const {
  curves::summary_walker<true> w = out;  // a local: its fields stay in registers through the walk
  if (!weighted_) {
    const double tp0 = above_.tp, fp0 = above_.fp;
    curves::walk_sorted_classes(sorted_.first, sorted_.second, [&](double t, double tp, double fp) { w.add(t, tp0 + tp, fp0 + fp); });
  } else {
    for (std::size_t g = 0; g < t_.size(); ++g) w.add(t_[g], tp_[g], fp_[g]);
  }
  out = w;
}

void score_range::walk_up(curves::areas_walker& out) const {
  curves::areas_walker w = out;  // a local, as in walk_down
  walk_up_into(w);
  out = w;
}

void score_range::walk_up_into(curves::areas_walker& w) const {
  // Entry of the distinct score t: tp' = N - (negative weight above t), fp' = P - (positive weight
  // above t), i.e. the running sums of the next higher score (or of the range above; 0 at the top).
  // w.P is the negatives' total N, w.N the positives' P (the complement's classes).
  if (!weighted_) {
    const double Pl = static_cast<double>(sorted_.first.size()), Nl = static_cast<double>(sorted_.second.size());
    const double tp0 = above_.tp, fp0 = above_.fp;
    curves::walk_sorted_classes_up(sorted_.second, sorted_.first, [&](double, double cn, double cp) {
      w.add(w.P - (fp0 + (Nl - cn)), w.N - (tp0 + (Pl - cp)));
    });
    return;
  }
  for (std::size_t g = t_.size(); g-- > 0;) {
    const double tp = g > 0 ? tp_[g - 1] : above_.tp, fp = g > 0 ? fp_[g - 1] : above_.fp;
    w.add(w.P - fp, w.N - tp);
  }
}

}  // namespace assay::scale
