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

// The MSD-first plan (see sort_by_class): from kMsdMinCases cases, one parallel pass into about
// 2^kTopBits buckets (msd_first); then each bucket by one thread: again a top digit while it holds more than
// kCacheCases cases (about 512 KB: it then fits in a core's cache), then LSD passes of at most
// kBucketDigitBits (2^11 counters: in L1).
constexpr std::size_t kMsdMinCases = std::size_t{1} << 16;
constexpr unsigned kTopBits = 12;
// The smallest bucket msd_first aims at (instead of n / 2^kTopBits below 2^24 cases): 4096 doubles (32 KB, in L1
// with their scratch half in L2) sort in fewer passes per case than smaller ones. Measured at 10^6
// uniform scores on one thread: 42 ms with buckets of about n / 2^12 = 244 cases, 27 ms with 4096
// (1024: 31 ms; 8192 and 16384: no faster); at 10^7 no slower.
constexpr std::size_t kMinBucketCases = 4096;
constexpr std::size_t kCacheCases = std::size_t{1} << 16;
constexpr unsigned kBucketDigitBits = 11;

template <class Key, class E>
std::size_t top_digit(E x, unsigned shift) {
  return static_cast<std::size_t>((Key{}(x) >> shift) & ((1u << kTopBits) - 1));
}

// Sorts v[0, m) ascending (normalised doubles, no NaN) by one thread, `tmp` being m doubles of
// scratch: insertion sort when short; else, over the bits that vary in v, a top digit first while
// the bucket is large, then LSD counting passes with the counts of every pass taken in one read.
template <class E, class Key>
void sort_bucket(E* v, E* tmp, std::size_t m) {
  constexpr Key key_of{};
  if (m <= 32) {
    for (std::size_t i = 1; i < m; ++i) {
      const E x = v[i];
      std::size_t j = i;
      for (; j > 0 && key_of(v[j - 1]) > key_of(x); --j) v[j] = v[j - 1];
      v[j] = x;
    }
    return;
  }
  std::uint64_t o = 0, d = ~std::uint64_t{0};
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint64_t k = key_of(v[i]);
    o |= k, d &= k;
  }
  const std::uint64_t varying = o ^ d;
  if (varying == 0) return;
  const auto low = static_cast<unsigned>(std::countr_zero(varying));
  const auto width = static_cast<unsigned>(std::bit_width(varying)) - low;
  if (m > kCacheCases && width > kTopBits) {
    const unsigned shift = static_cast<unsigned>(std::bit_width(varying)) - kTopBits;
    std::vector<std::size_t> at(std::size_t{1} << kTopBits, 0), start;
    for (std::size_t i = 0; i < m; ++i) ++at[top_digit<Key>(v[i], shift)];
    std::size_t sum = 0;
    for (auto& c : at) start.push_back(sum), sum += std::exchange(c, sum);
    start.push_back(m);
    for (std::size_t i = 0; i < m; ++i) tmp[at[top_digit<Key>(v[i], shift)]++] = v[i];
    for (std::size_t k = 0; k + 1 < start.size(); ++k) sort_bucket<E, Key>(tmp + start[k], v + start[k], start[k + 1] - start[k]);
    std::copy(tmp, tmp + m, v);
    return;
  }
  // Narrower digits for short buckets, so that the counters do not outnumber the cases.
  const unsigned max_bits = std::clamp(static_cast<unsigned>(std::bit_width(m)) - 1, 8u, kBucketDigitBits);
  // Stable LSD counting passes over the bits [from, from + w) of the keys.
  auto lsd = [&](unsigned from, unsigned w) {
    const unsigned passes = (w + max_bits - 1) / max_bits;
    const unsigned bits = (w + passes - 1) / passes;
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    constexpr std::size_t kMaxPasses = (64 + 8 - 1) / 8;
    std::uint32_t count[kMaxPasses][std::size_t{1} << kBucketDigitBits];
    for (unsigned p = 0; p < passes; ++p) std::fill_n(count[p], mask + 1, 0u);
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint64_t k = key_of(v[i]) >> from;
      for (unsigned p = 0; p < passes; ++p) ++count[p][(k >> (p * bits)) & mask];
    }
    E* src = v;
    E* dst = tmp;
    for (unsigned p = 0; p < passes; ++p) {
      std::uint32_t at = 0;
      for (std::size_t b = 0; b <= mask; ++b) at += std::exchange(count[p][b], at);
      const unsigned shift = from + p * bits;
      for (std::size_t i = 0; i < m; ++i) dst[count[p][(key_of(src[i]) >> shift) & mask]++] = src[i];
      std::swap(src, dst);
    }
    if (src != v) std::copy(src, src + m, v);
  };
  // Wide keys: two passes over the top 2 x max_bits varying bits only, then an insertion sort, which
  // has little to do when few keys share those top bits (m^2 / 2^(2 max_bits + 1) pairs expected of
  // spread-out keys: about 7 for 7800 cases); it gives up after 4m moves (keys that share their top
  // bits: clusters, heavy ties) and the full LSD passes sort the bucket instead. Measured at 10^6
  // uniform scores: 5 passes of 10 bits per bucket became 2 passes and one nearly idle read.
  if (width > 2 * max_bits && m >= 256) {
    const unsigned top = 2 * max_bits;
    lsd(low + width - top, top);
    std::size_t moved = 0;
    bool done = true;
    for (std::size_t i = 1; i < m && done; ++i) {
      const E x = v[i];
      std::size_t j = i;
      for (; j > 0 && key_of(v[j - 1]) > key_of(x); --j) v[j] = v[j - 1];
      v[j] = x;
      moved += i - j;
      done = moved <= 4 * i + 64;
    }
    if (done) return;
  }
  lsd(low, width);
}

}  // namespace

namespace {

// The MSD-first sort of the two runs a[0, P) and a[P, n) (the bits in `varying` differ between
// some keys, and more than kTopBits of them). One parallel read counts the cases of each (run, cell),
// a cell being the top 16 varying bits (fewer below 2^20 cases: 2^(bit_width(n) - 4) cells per run,
// at least 2^10, so that the tables do not cost more than the cases); neighbouring cells are grouped
// into buckets of about max(n / 2^kTopBits, kMinBucketCases) cases (the cells adapt the buckets to
// where the scores are: doubles crowd into few exponents); one parallel pass scatters a into b bucket by bucket; then the threads take the
// buckets, largest first, and finish each in place (sort_bucket, a as scratch). Returns b.
template <class E, class Key>
E* msd_first(E* a, E* b, std::size_t n, std::size_t P, std::uint64_t varying, unsigned T) {
  const unsigned cell_bits = std::clamp(static_cast<unsigned>(std::bit_width(n)) - 4u, 10u, 16u);
  const std::size_t cells = std::size_t{1} << cell_bits;
  const auto top = static_cast<unsigned>(std::bit_width(varying));
  const unsigned shift = top - std::min(cell_bits, top - static_cast<unsigned>(std::countr_zero(varying)));
  auto cell_of = [shift, cells](E x, std::size_t run) {
    return run * cells + static_cast<std::size_t>((Key{}(x) >> shift) & (cells - 1));
  };
  std::vector<std::vector<std::uint32_t>> count(T, std::vector<std::uint32_t>(2 * cells));
  std::vector<std::uint32_t> bucket_of(2 * cells);
  std::vector<std::vector<std::size_t>> at(T);  // per thread: its next place in each bucket
  std::vector<std::size_t> start, order;
  std::atomic<std::size_t> next{0};
  detail::run_team(T, [&](unsigned t, std::barrier<>& sync) {
    const std::size_t lo = n * t / T, hi = n * (t + 1) / T;
    std::uint32_t* c = count[t].data();
    for (std::size_t j = lo; j < hi; ++j) ++c[cell_of(a[j], j >= P)];
    sync.arrive_and_wait();
    if (t == 0) {
      // Buckets: runs of neighbouring cells (never across the runs) up to `target` cases.
      const std::size_t target = std::max<std::size_t>(n >> kTopBits, kMinBucketCases);
      std::vector<std::size_t> cells_end;  // one past each bucket's last cell
      std::size_t size = 0;
      for (std::size_t k = 0; k < 2 * cells; ++k) {
        std::size_t m = 0;
        for (unsigned u = 0; u < T; ++u) m += count[u][k];
        if ((size > 0 && size + m > target) || k == cells) cells_end.push_back(k), size = 0;
        bucket_of[k] = static_cast<std::uint32_t>(cells_end.size());
        size += m;
      }
      cells_end.push_back(2 * cells);
      const std::size_t buckets = cells_end.size();
      for (auto& v : at) v.resize(buckets);
      std::size_t pos = 0, first = 0;
      for (std::size_t bk = 0; bk < buckets; ++bk) {
        start.push_back(pos);
        for (unsigned u = 0; u < T; ++u) {
          at[u][bk] = pos;
          for (std::size_t k = first; k < cells_end[bk]; ++k) pos += count[u][k];
        }
        first = cells_end[bk];
      }
      start.push_back(pos);
      order.resize(buckets);
      for (std::size_t k = 0; k < buckets; ++k) order[k] = k;
      std::sort(order.begin(), order.end(), [&start](std::size_t x, std::size_t y) {
        return start[x + 1] - start[x] > start[y + 1] - start[y];
      });
    }
    sync.arrive_and_wait();
    std::size_t* place = at[t].data();
    const std::uint32_t* bucket = bucket_of.data();
    for (std::size_t j = lo; j < hi; ++j) b[place[bucket[cell_of(a[j], j >= P)]]++] = a[j];
    sync.arrive_and_wait();
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < order.size();) {
      const std::size_t k = order[i];
      sort_bucket<E, Key>(b + start[k], a + start[k], start[k + 1] - start[k]);
    }
  });
  return b;
}

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

std::optional<labelled_sorted> sort_labelled(std::span<const std::int32_t> y, std::span<const double> score,
                                             unsigned threads, std::string_view check_as) {
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
  // The range of the scores' keys, the bits that vary among them, and the positives.
  std::vector<std::uint64_t> ors(T, 0), ands(T, ~std::uint64_t{0}), mins(T, ~std::uint64_t{0}), maxs(T, 0);
  std::vector<std::size_t> positives(T, 0);
  std::vector<unsigned char> valid(T, 1);
  detail::run_team(T, [&](unsigned t, std::barrier<>&) {
    const std::size_t lo = n * t / T, hi = n * (t + 1) / T;
    std::uint64_t o = 0, d = ~std::uint64_t{0}, mn = ~std::uint64_t{0}, mx = 0;
    std::size_t count = 0;
    bool ok = true;
    constexpr double max = std::numeric_limits<double>::max();
    for (std::size_t i = lo; i < hi; ++i) {
      const std::uint64_t k = detail::order_bits(score[i] + 0.0);
      o |= k, d &= k;
      mn = k < mn ? k : mn;
      mx = k > mx ? k : mx;
      count += static_cast<std::size_t>(y[i]);
      ok &= (static_cast<std::uint32_t>(y[i]) <= 1u) & (std::fabs(score[i]) <= max);
    }
    ors[t] = o, ands[t] = d, mins[t] = mn, maxs[t] = mx, positives[t] = count, valid[t] = ok;
  });
  if (!check_as.empty() && std::find(valid.begin(), valid.end(), 0) != valid.end()) {
    check_binary_input(check_as, y, score, {});  // names the first bad value and throws
  }
  std::uint64_t o = 0, d = ~std::uint64_t{0}, mn = ~std::uint64_t{0}, mx = 0;
  std::size_t P = 0;
  for (unsigned t = 0; t < T; ++t) {
    o |= ors[t], d &= ands[t], P += positives[t];
    mn = std::min(mn, mins[t]), mx = std::max(mx, maxs[t]);
  }
  const std::uint64_t constant = ~(o ^ d);
  const bool offset = mx - mn < (std::uint64_t{1} << 63);
  if (!offset && constant == 0) return std::nullopt;
  // Offset when the range allows; else the highest constant bit is taken out.
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
  out.own_ = assay::detail::make_buffer<std::uint64_t>(n);
  auto second = assay::detail::make_buffer<std::uint64_t>(n);
  std::uint64_t* const a = out.own_.get();
  std::uint64_t* const b = second.get();
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
  o = 0, d = ~std::uint64_t{0};
  for (unsigned t = 0; t < T; ++t) o |= ors[t], d &= ands[t];
  const std::uint64_t varying = (o ^ d) >> 1;  // of the keys without their class bit
  const std::uint64_t* result = a;
  if (n >= kMsdMinCases && std::bit_width(varying) > kTopBits + static_cast<unsigned>(std::countr_zero(varying))) {
    result = msd_first<std::uint64_t, order_of_labelled>(a, b, n, n, varying, T);
  } else {
    detail::radix_sorter<std::uint64_t, order_of_labelled> sorter(a, b, n, T, 1);
    sorter.plan(n, varying);
    detail::run_team(sorter.threads(), [&](unsigned t, std::barrier<>& sync) { sorter.sort(t, sync); });
    result = sorter.result();
  }
  if (result == b) std::swap(out.own_, second);
  out.spare_ = std::move(second);
  out.sorted_ = result;
  return out;
}

}  // namespace assay::curves
