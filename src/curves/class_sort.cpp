// The scores of a binary problem split by class and sorted by the shared radix kernel
// (assay/detail/radix.hpp); see include/assay/curves/class_sort.hpp.
#include "assay/detail/parallel.hpp"
#include "assay/curves/class_sort.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <utility>
#include <span>
#include <vector>

#include "assay/curves/sweep.hpp"
#include "assay/detail/buffer.hpp"
#include "assay/detail/msd_sort.hpp"
#include "assay/detail/radix.hpp"

namespace assay::curves {

namespace {

struct score_key {  // the stored scores are already normalised (-0.0 -> +0.0)
  std::uint64_t operator()(double v) const noexcept { return detail::order_bits(v); }
};

// The sort key of an element of the MSD sort: a stored score (normalised), or a labelled key without
// its class bit (a group of equal scores needs no order among its classes: the walk counts them).
struct order_of_score {
  std::uint64_t operator()(double x) const noexcept { return detail::order_bits(x); }
};
struct order_of_labelled {
  std::uint64_t operator()(std::uint64_t k) const noexcept { return k >> 1; }
};

using detail::msd::kMsdMinCases;
using detail::msd::kTopBits;
using detail::msd::msd_first;

}  // namespace

sorted_runs sort_runs(std::span<double> v, std::size_t P, unsigned threads) {
  const std::size_t n = v.size();
  double* const a = v.data();
  sorted_runs out;
  out.first = {a, P};
  out.second = {a + P, n - P};
  if (n < kMsdMinCases || n > 0xFFFFFFFFu) {  // small (or beyond the 32-bit counts): spreadsort in place
    detail::sort_doubles_in_place(a, a + P);
    detail::sort_doubles_in_place(a + P, a + n);
    return out;
  }
  const unsigned T = threads == 0 ? assay::detail::team_threads(8) : threads;
  // Sorts m scores at src, `dst` being m doubles of scratch; returns where the result is.
  auto sort_one = [T](double* src, double* dst, std::size_t m) -> double* {
    std::uint64_t o = 0, d = ~std::uint64_t{0};
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint64_t k = detail::order_bits(src[i]);
      o |= k, d &= k;
    }
    const std::uint64_t varying = o ^ d;
    if (m < kMsdMinCases || std::bit_width(varying) <= kTopBits + static_cast<unsigned>(std::countr_zero(varying))) {
      detail::sort_doubles_in_place(src, src + m);
      return src;
    }
    return msd_first<double, order_of_score>(src, dst, m, m, varying, T);
  };
  const bool first_larger = P >= n - P;
  double* const big = first_larger ? a : a + P;
  double* const small = first_larger ? a + P : a;
  const std::size_t big_n = first_larger ? P : n - P, small_n = n - big_n;
  out.buffer = assay::detail::make_buffer<double>(big_n);
  const double* big_sorted = sort_one(big, out.buffer.get(), big_n);
  // The larger run's place is free once its result is in the buffer: the smaller run's scratch.
  const double* small_sorted = sort_one(small, big_sorted == big ? out.buffer.get() : big, small_n);
  (first_larger ? out.first : out.second) = {big_sorted, big_n};
  (first_larger ? out.second : out.first) = {small_sorted, small_n};
  return out;
}

class_sorted sort_by_class(std::span<const std::int32_t> y, std::span<const double> score, std::vector<double> scratch,
                           unsigned threads, std::string_view check_as) {
  const std::size_t n = y.size();
  class_sorted out;
  out.n_ = n;
  if (n == 0) return out;
  if (n > 0xFFFFFFFFu) {  // beyond the 32-bit counts of the passes: a comparison-free sort per class
    if (!check_as.empty()) check_binary_input(check_as, y, score, {});
    out.own_ = assay::detail::make_buffer<double>(n);
    double* a = out.own_.get();
    std::size_t po = 0, no = n;
    for (std::size_t i = 0; i < n; ++i) (y[i] ? a[po++] : a[--no]) = score[i] + 0.0;
    detail::sort_doubles_in_place(a, a + po);
    detail::sort_doubles_in_place(a + po, a + n);
    out.positives_ = po;
    out.sorted_ = a;
    return out;
  }

  unsigned T = threads;
  if (T == 0) T = n < (std::size_t{1} << 16) ? 1u : assay::detail::team_threads(8);

  out.own_ = assay::detail::make_buffer<double>(n);
  double* const a = out.own_.get();
  double* b = nullptr;
  assay::detail::buffer_ptr<double> second;
  if (scratch.size() >= n) {
    out.reused_ = std::move(scratch);
    b = out.reused_.data();
  } else {
    second = assay::detail::make_buffer<double>(n);
    b = second.get();
  }

  detail::radix_sorter<double, score_key> sorter(a, b, n, T, 2);
  T = sorter.threads();
  std::vector<std::size_t> positives(T);
  std::vector<std::uint64_t> ors(T, 0), ands(T, ~std::uint64_t{0});
  // With check_as: whether each thread's labels are 0 or 1 (read before any copy: a label of 2 would
  // send its case past its run) and its scores finite.
  std::vector<unsigned char> labels_ok(T, 1), scores_ok(T, 1);
  const bool check = !check_as.empty();
  std::size_t P = 0;
  std::uint64_t varying = 0;
  detail::run_team(T, [&](unsigned t, std::barrier<>& sync) {
    // Count, then copy each case to its class's run (positives first), with the OR/AND of the keys.
    const std::size_t begin = sorter.input_begin(t), end = sorter.input_begin(t + 1);
    std::size_t count = 0;
    bool ok = true;
    for (std::size_t i = begin; i < end; ++i) {
      count += static_cast<std::size_t>(y[i]);
      ok &= static_cast<std::uint32_t>(y[i]) <= 1u;
    }
    positives[t] = count;
    labels_ok[t] = ok;
    sync.arrive_and_wait();
    if (check && std::find(labels_ok.begin(), labels_ok.end(), 0) != labels_ok.end()) {
      sync.arrive_and_wait();  // the team's last barrier, which the others reach too
      return;
    }
    std::size_t all = 0, before = 0;
    for (unsigned u = 0; u < T; ++u) {
      all += positives[u];
      if (u < t) before += positives[u];
    }
    std::size_t po = before, no = all + (begin - before);
    std::uint64_t o = 0, d = ~std::uint64_t{0};
    constexpr double max = std::numeric_limits<double>::max();
    bool finite = true;
    for (std::size_t i = begin; i < end; ++i) {
      const double v = score[i] + 0.0;  // -0.0 -> +0.0
      finite &= std::fabs(v) <= max;
      const std::uint64_t k = detail::order_bits(v);
      o |= k;
      d &= k;
      const std::size_t is_pos = static_cast<std::size_t>(y[i]);
      a[is_pos ? po : no] = v;
      po += is_pos;
      no += 1 - is_pos;
    }
    ors[t] = o;
    ands[t] = d;
    scores_ok[t] = finite;
    sync.arrive_and_wait();
    if (t == 0) {
      P = all;
      std::uint64_t or_all = 0, and_all = ~std::uint64_t{0};
      for (unsigned u = 0; u < T; ++u) or_all |= ors[u], and_all &= ands[u];
      varying = or_all ^ and_all;
    }
  });
  if (check && (std::find(labels_ok.begin(), labels_ok.end(), 0) != labels_ok.end() ||
                std::find(scores_ok.begin(), scores_ok.end(), 0) != scores_ok.end())) {
    check_binary_input(check_as, y, score, {});  // names the first bad value and throws
  }
  double* result = nullptr;
  if (n >= kMsdMinCases && std::bit_width(varying) > kTopBits + static_cast<unsigned>(std::countr_zero(varying))) {
    result = msd_first<double, order_of_score>(a, b, n, P, varying, T);
  } else {
    sorter.plan(P, varying);
    detail::run_team(T, [&](unsigned t, std::barrier<>& sync) { sorter.sort(t, sync); });
    result = sorter.result();
  }
  out.positives_ = P;
  const bool in_b = result == b;
  out.sorted_ = result;
  // Free the buffer that does not hold the result.
  if (in_b) {
    if (second) out.own_ = std::move(second);  // b was our own: keep it, drop a
    else out.own_.reset();                     // b is the caller's scratch: keep it, drop a
  } else {
    out.reused_ = std::vector<double>();
  }
  return out;
}

namespace {

// One thread's counts per order key for sort_labelled's grouping: open addressing with linear
// probing, at most half full (it doubles first). Key 0 marks an empty slot: it is the order key of a
// NaN only (all bits set), which no valid input holds.
class group_table {
 public:
  struct slot {
    std::uint64_t key;
    std::uint32_t cases, positives;
  };
  static constexpr unsigned kMaxProbes = 64;  // a longer chain means keys built to collide: give up

  group_table() { resize(12); }
  // Counts the cases [b, e) of (y, score); adds their positives to `count` and clears `ok` on a label
  // other than 0 and 1 or a score that is not finite. False (the counts then incomplete) when a chain
  // grows too long or the table would hold more than `limit` keys. The table's pointer, mask and
  // shift are held in locals (reloaded after an insertion only): the loop's stores to the slots
  // could otherwise alias them.
  bool count(const std::int32_t* y, const double* score, std::size_t b, std::size_t e, std::size_t limit,
             std::size_t& positives, bool& ok) {
    constexpr double max = std::numeric_limits<double>::max();
    slot* slots = slots_.data();
    std::size_t mask = slots_.size() - 1;
    unsigned shift = 64 - bits_;
    std::size_t pos = 0;
    bool good = true, fits = true;
    for (std::size_t i = b; i < e; ++i) {
      const double v = score[i] + 0.0;  // -0.0 -> +0.0
      const auto label = static_cast<std::uint32_t>(y[i]);
      good &= (label <= 1u) & (std::fabs(v) <= max);
      pos += label;
      const std::uint64_t k = detail::order_bits(v);
      std::size_t h = index(k, shift);
      unsigned probes = 0;
      while (slots[h].key != k) {
        if (slots[h].key == 0) {
          if (!insert(k, h, limit)) {
            fits = false;
            break;
          }
          slots = slots_.data(), mask = slots_.size() - 1, shift = 64 - bits_;
          h = index(k, shift);
          continue;
        }
        if (++probes > kMaxProbes) {
          fits = false;
          break;
        }
        h = (h + 1) & mask;
      }
      if (!fits) break;
      slots[h].cases += 1;
      slots[h].positives += label;
    }
    positives += pos;
    ok = ok && good;
    return fits;
  }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] const std::vector<slot>& slots() const noexcept { return slots_; }

 private:
  // Multiplicative (Fibonacci) hashing of the key with its high half folded in (Knuth TAOCP vol. 3,
  // 6.4); shift = 64 - log2(slots).
  static std::size_t index(std::uint64_t k, unsigned shift) noexcept {
    return static_cast<std::size_t>(((k ^ (k >> 29)) * 0x9E3779B97F4A7C15ULL) >> shift);
  }
  // Puts the new key k, with no cases yet, at the empty slot h, the table first doubled (and rehashed)
  // when it would be over half full; false when it would hold more than `limit` keys.
  [[gnu::noinline]] bool insert(std::uint64_t k, std::size_t h, std::size_t limit) {
    if (size_ + 1 > limit) return false;
    if ((size_ + 1) * 2 > slots_.size()) {
      resize(bits_ + 1);
      h = index(k, 64 - bits_);
      while (slots_[h].key != 0) h = (h + 1) & (slots_.size() - 1);
    }
    slots_[h] = {k, 0, 0};
    ++size_;
    return true;
  }
  void resize(unsigned bits) {
    std::vector<slot> old(std::size_t{1} << bits, slot{0, 0, 0});
    old.swap(slots_);
    bits_ = bits;
    for (const slot& s : old) {
      if (s.key == 0) continue;
      std::size_t h = index(s.key, 64 - bits_);
      while (slots_[h].key != 0) h = (h + 1) & (slots_.size() - 1);
      slots_[h] = s;
    }
  }
  std::vector<slot> slots_;
  std::size_t size_ = 0;
  unsigned bits_ = 0;
};

// The grouped form: the per-thread tables' keys sorted ascending and their counts merged; `positives`
// is set to the positives of all groups. Few tables of few keys: one sort of their concatenation, then
// one pass over equal keys.
std::vector<score_group> merged_groups(const std::vector<group_table>& tables, std::size_t& positives) {
  std::vector<group_table::slot> all;
  all.reserve(tables[0].size() * tables.size());
  for (const group_table& table : tables)
    for (const auto& s : table.slots()) if (s.key != 0) all.push_back(s);
  std::sort(all.begin(), all.end(), [](const group_table::slot& a, const group_table::slot& b) { return a.key < b.key; });
  std::vector<score_group> groups;
  groups.reserve(all.size());
  std::size_t P = 0;
  for (std::size_t i = 0; i < all.size();) {
    score_group grp{all[i].key, 0, 0};
    std::uint32_t cases = 0;
    for (; i < all.size() && all[i].key == grp.key; ++i) cases += all[i].cases, grp.positives += all[i].positives;
    grp.negatives = cases - grp.positives;
    P += grp.positives;
    groups.push_back(grp);
  }
  positives = P;
  return groups;
}

// The second read, for scores of both signs: a[i] = labelled(score[i], y[i]) on T threads; returns the
// bits that vary among the keys without their class bit.
template <typename Labelled>
std::uint64_t write_labelled_keys(std::span<const std::int32_t> y, std::span<const double> score,
                                  const Labelled& labelled, std::uint64_t* a, unsigned T) {
  const std::size_t n = y.size();
  std::vector<std::uint64_t> ors(T, 0), ands(T, ~std::uint64_t{0});
  detail::run_team(T, [&](unsigned t, std::barrier<>&) {
    const std::size_t lo = n * t / T, hi = n * (t + 1) / T;
    std::uint64_t to = 0, td = ~std::uint64_t{0};
    for (std::size_t i = lo; i < hi; ++i) {
      const std::uint64_t k = labelled(score[i], y[i]);
      a[i] = k;
      to |= k, td &= k;
    }
    ors[t] = to, ands[t] = td;
  });
  std::uint64_t o = 0, d = ~std::uint64_t{0};
  for (unsigned t = 0; t < T; ++t) o |= ors[t], d &= ands[t];
  return (o ^ d) >> 1;
}

// The labelled keys a[0, n) sorted, b the other buffer; returns the one holding the result. Keys whose
// varying bits span more than the top digit go most significant digit first.
const std::uint64_t* sort_labelled_keys(std::uint64_t* a, std::uint64_t* b, std::size_t n, std::uint64_t varying,
                                        unsigned T) {
  if (n >= kMsdMinCases && std::bit_width(varying) > kTopBits + static_cast<unsigned>(std::countr_zero(varying))) {
    return msd_first<std::uint64_t, order_of_labelled>(a, b, n, n, varying, T);
  }
  detail::radix_sorter<std::uint64_t, order_of_labelled> sorter(a, b, n, T, 1);
  sorter.plan(n, varying);
  detail::run_team(sorter.threads(), [&](unsigned t, std::barrier<>& sync) { sorter.sort(t, sync); });
  return sorter.result();
}

}  // namespace

std::optional<labelled_sorted> sort_labelled(std::span<const std::int32_t> y, std::span<const double> score,
                                             unsigned threads, std::string_view check_as, std::size_t max_groups) {
  const std::size_t n = y.size();
  labelled_sorted out;
  out.n_ = n;
  if (n == 0) return out;
  if (n > 0xFFFFFFFFu) {  // beyond the 32-bit counts of the passes
    if (!check_as.empty()) check_binary_input(check_as, y, score, {});
    return std::nullopt;
  }
  unsigned T = threads;
  if (T == 0) T = n < (std::size_t{1} << 16) ? 1u : assay::detail::team_threads(8);
  T = static_cast<unsigned>(std::min<std::size_t>(T, n));
  // The first read: the cases counted per distinct score while they are few (grouping); else (or
  // once grouping gives up) the range of the scores' keys, the bits that vary among them, and the
  // positives.
  std::vector<std::uint64_t> ors(T, 0), ands(T, ~std::uint64_t{0}), mins(T, ~std::uint64_t{0}), maxs(T, 0);
  std::vector<std::size_t> positives(T, 0);
  std::vector<unsigned char> valid(T, 1);
  const bool grouping = max_groups > 0;
  std::vector<group_table> tables(grouping ? T : 0);
  std::atomic<bool> give_up{!grouping};
  constexpr std::size_t kBlock = 1024;        // cases between two looks at the give-up rules
  constexpr std::size_t kJudgeFrom = 8192;    // cases a thread reads before the rule of 15/16
  constexpr double max = std::numeric_limits<double>::max();
  // The keys' buffer (its pages untouched, so free of cost, when the cases end up grouped). The
  // plain read writes the labelled keys of scores of one sign, whose order keys share their top bit:
  // that bit taken out leaves room for the class; scores of both signs are written again below.
  auto first = assay::detail::make_buffer<std::uint64_t>(n);
  std::uint64_t* const a = first.get();
  detail::run_team(T, [&](unsigned t, std::barrier<>& sync) {
    const std::size_t lo = n * t / T, hi = n * (t + 1) / T;
    auto plain = [&] {
      std::uint64_t o = 0, d = ~std::uint64_t{0}, mn = ~std::uint64_t{0}, mx = 0;
      std::size_t count = 0;
      bool ok = true;
      for (std::size_t i = lo; i < hi; ++i) {
        const std::uint64_t k = detail::order_bits(score[i] + 0.0);
        const auto label = static_cast<std::uint64_t>(static_cast<std::uint32_t>(y[i]));
        a[i] = (k << 1) | (label & 1u);
        o |= k, d &= k;
        mn = k < mn ? k : mn;
        mx = k > mx ? k : mx;
        count += label;
        ok &= (label <= 1u) & (std::fabs(score[i]) <= max);
      }
      ors[t] = o, ands[t] = d, mins[t] = mn, maxs[t] = mx, positives[t] = count, valid[t] = ok;
    };
    bool done_plain = false;
    if (grouping) {
      group_table& g = tables[t];
      // At most one distinct score per 32 cases of the share (and at least 1024 allowed): a distinct
      // score costs the table growth, the merge and the sort about what 30 cases cost the key sort
      // (measured at 10^5 cases on one thread: 4000 distinct scores grouped in 0.97 ms, sorted as
      // keys in 0.93 ms; 1000 grouped in 0.5 ms, sorted in 1.0 ms).
      const std::size_t limit = std::min(max_groups, std::max<std::size_t>((hi - lo) / 32, 1024));
      std::size_t count = 0;
      bool ok = true, fits = true;
      for (std::size_t b = lo; fits && b < hi;) {
        if (give_up.load(std::memory_order_relaxed)) {
          fits = false;
          break;
        }
        const std::size_t e = std::min(hi, b + kBlock);
        fits = g.count(y.data(), score.data(), b, e, limit, count, ok);
        b = e;
        if (fits && b - lo >= kJudgeFrom && g.size() * 16 > (b - lo) * 15) fits = false;
      }
      if (fits) {
        positives[t] = count, valid[t] = ok;
      } else {
        give_up.store(true, std::memory_order_relaxed);
        plain();
        done_plain = true;
      }
    } else {
      plain();
      done_plain = true;
    }
    sync.arrive_and_wait();
    if (!done_plain && give_up.load(std::memory_order_relaxed)) plain();  // another thread gave up late
  });
  if (!check_as.empty() && std::find(valid.begin(), valid.end(), 0) != valid.end()) {
    check_binary_input(check_as, y, score, {});  // names the first bad value and throws
  }
  if (!give_up.load()) {
    out.groups_ = merged_groups(tables, out.positives_);
    out.grouped_ = true;
    return out;
  }
  std::uint64_t o = 0, d = ~std::uint64_t{0}, mn = ~std::uint64_t{0}, mx = 0;
  std::size_t P = 0;
  for (unsigned t = 0; t < T; ++t) {
    o |= ors[t], d &= ands[t], P += positives[t];
    mn = std::min(mn, mins[t]), mx = std::max(mx, maxs[t]);
  }
  const std::uint64_t constant = ~(o ^ d);
  const bool one_sign = (constant >> 63) != 0;  // the keys written by the first read serve
  const bool offset = !one_sign && mx - mn < (std::uint64_t{1} << 63);
  if (!offset && constant == 0) return std::nullopt;
  // The sign bit taken out when it is constant (the keys are written); else an offset when the range
  // allows; else the highest constant bit is taken out.
  const unsigned gap = offset ? 64u : 63u - static_cast<unsigned>(std::countl_zero(constant));
  out.gap_ = gap;
  out.gap_value_ = offset ? 0 : (d >> gap) & 1u;
  out.offset_ = offset ? mn : 0;
  out.positives_ = P;
  const std::uint64_t low_mask = gap >= 63 ? ~std::uint64_t{0} >> 1 : (std::uint64_t{1} << gap) - 1;
  auto labelled = [gap, low_mask, mn](double x, std::int32_t label) {
    std::uint64_t k = detail::order_bits(x + 0.0);
    if (gap > 63) {
      k -= mn;
    } else {
      const std::uint64_t high = gap == 63 ? 0 : (k >> (gap + 1)) << gap;
      k = high | (k & low_mask);
    }
    return (k << 1) | static_cast<std::uint64_t>(label);
  };
  out.own_ = std::move(first);
  auto second = assay::detail::make_buffer<std::uint64_t>(n);
  std::uint64_t* const b = second.get();
  std::uint64_t varying = (o ^ d) & (~std::uint64_t{0} >> 1);  // of the keys without their class bit
  if (!one_sign) varying = write_labelled_keys(y, score, labelled, a, T);
  const std::uint64_t* result = sort_labelled_keys(a, b, n, varying, T);
  if (result == b) std::swap(out.own_, second);
  out.spare_ = std::move(second);
  out.sorted_ = result;
  return out;
}

}  // namespace assay::curves
