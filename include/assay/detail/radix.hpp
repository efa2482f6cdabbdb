// assay (internal): the one LSD radix sort kernel behind every sort of scores, shared by the class
// sort of the curves (curves/class_sort.hpp: plain doubles, two classes; from 2^16 cases that sort
// goes MSD first instead, as plain doubles need no stability) and the (score, index, label) record
// sort of the statistics (stats/detail/radix_sort.hpp); and, through stable_sort_by_key below, the
// (score key, signed weight) record sort of the weighted sweeps (curves/sweep.cpp, the core's; and
// sklearn/ranking.cpp, scikit-learn's to the bit) and the (score key, spelling, weight) record
// sort of the mergeable state's compaction (src/scale/state_impl.hpp).
//
// Method (LSD radix sort, Knuth TAOCP vol. 3, 5.2.5): the caller puts the records in buffer `a`, in
// one or two runs (e.g. positives then negatives) that are sorted independently, and passes the bits
// that differ between some two keys (OR ^ AND of all keys); bits equal in every key are skipped, and
// the remaining W bits are sorted by ceil(W / kBits) stable counting passes of equal width. Each pass
// is split over T threads by position: thread t scatters the elements at positions [lo[t], lo[t+1])
// into its own slice of every (run, bucket), placed after the slices of the threads before it, and
// counts the next digit of each element it writes by the position share the element lands in (one
// thread instead counts every digit in one read pass before the first scatter). The sort is stable,
// so the result does not depend on the thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <boost/sort/spreadsort/integer_sort.hpp>
#include <barrier>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <latch>
#include <memory>
#include <thread>
#include <vector>

#include "assay/detail/parallel.hpp"

namespace assay::detail {

/// Widest digit of the passes (2^13 buckets per run; narrower below 2^15 records, see plan()).
/// Measured at 10^6-10^7 against 11 and 12 bits: 13 bits sort the 16-byte records of the DeLong
/// placements in 5 passes instead of 6 (faster), and the class sort of doubles no slower.
inline constexpr unsigned kRadixDigitBits = 13;

/// The order key of a double that is not NaN and not -0.0: its IEEE 754 bit pattern with all bits
/// flipped when negative, the sign bit set otherwise; unsigned order of keys = order of the doubles.
/// Branch-free, as signs are unpredictable.
inline std::uint64_t order_bits(double x) noexcept {
  const auto u = std::bit_cast<std::uint64_t>(x);
  const auto negative = static_cast<std::uint64_t>(static_cast<std::int64_t>(u) >> 63);
  return u ^ (negative | 0x8000000000000000ULL);
}

/// order_bits of x with -0.0 taken as +0.0 (x + 0.0 is +0.0 for both zeros). x must not be NaN.
inline std::uint64_t order_key(double x) noexcept { return order_bits(x + 0.0); }

/// The double whose order key is k (the inverse of order_bits).
inline double from_order_key(std::uint64_t k) noexcept {
  return std::bit_cast<double>((k >> 63) ? (k & 0x7FFFFFFFFFFFFFFFULL) : ~k);
}

/// Sorts the doubles [first, last) (no NaN) ascending in place, without extra memory: boost's
/// spreadsort on the unsigned order keys (integer_sort with a key functor). Not boost's float_sort:
/// it takes the difference of two signed 64-bit casts, which overflows (undefined behaviour) on data
/// of both signs spread over many binades.
inline void sort_doubles_in_place(double* first, double* last) {
  boost::sort::spreadsort::integer_sort(
      first, last, [](double x, unsigned offset) { return order_bits(x) >> offset; },
      [](double a, double b) { return a < b; });
}

/// Runs f(t, sync) on T threads (the calling thread is t = 0); `sync` is a barrier of T. f must not
/// throw. If a helper thread cannot be created, none runs f and the error is rethrown.
template <class F>
void run_team(unsigned T, F&& f) {
  std::barrier<> sync(static_cast<std::ptrdiff_t>(T));
  if (T <= 1) {
    f(0u, sync);
    return;
  }
  // The helpers wait for `start`, so that if one cannot be created the others are told to leave
  // before they reach a barrier that would never fill.
  std::latch start(1);
  std::atomic<bool> abandon{false};
  std::vector<std::jthread> pool;
  try {
    pool.reserve(T - 1);
    for (unsigned t = 1; t < T; ++t) {
      pool.emplace_back([&, t] {
        start.wait();
        if (!abandon) f(t, sync);
      });
    }
  } catch (...) {
    abandon = true;
    start.count_down();
    throw;
  }
  start.count_down();
  f(0u, sync);
}

/// The parallel LSD radix sort of `n` records of type Rec (at most 2^32 - 1) by the 64-bit key
/// `Key{}(record)`, ascending and stable. Use: construct (allocates everything), fill `a` (e.g. in
/// parallel over input_begin(t)), call plan() on one thread, then sort(t, sync) on all threads() of a
/// run_team; result() is `a` or `b`, whichever holds the sorted records.
template <class Rec, class Key, unsigned kBits = kRadixDigitBits>
class radix_sorter {
  static_assert(kBits >= 8 && kBits <= 16);

 public:
  static constexpr std::size_t kBuckets = std::size_t{1} << kBits;

  /// `a` and `b`: n records each; `runs`: 1 or 2; `threads` is clamped to [1, n].
  radix_sorter(Rec* a, Rec* b, std::size_t n, unsigned threads, unsigned runs)
      : a_(a), b_(b), n_(n), runs_(runs), hist_size_(runs * kBuckets) {
    T_ = static_cast<unsigned>(std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(n, 1)));
    // Position shares: the share of position j is (j * mul) >> 32, monotone in j, so a thread can
    // tell which share an element lands in with one multiplication; lo[c] is the first j of share c.
    mul_ = T_ == 1 || n == 0 ? 0 : (std::uint64_t{T_} << 32) / n;
    lo_.resize(T_ + 1);
    for (unsigned c = 1; c <= T_; ++c) {
      lo_[c] = c == T_ || mul_ == 0 ? n
                                    : std::min<std::size_t>(n, static_cast<std::size_t>(((std::uint64_t{c} << 32) + mul_ - 1) / mul_));
    }
    // hist_[parity] holds T x T histograms; the one at (writer * T + share) * hist_size_ counts what
    // thread `writer` saw of the elements that sit in position share `share` at the start of a pass.
    for (auto& h : hist_) h.assign(std::size_t{T_} * T_ * hist_size_, 0u);
    offsets_.assign(T_, std::vector<std::size_t>(hist_size_));
    digits_.reserve(64);  // plan() then allocates nothing
    if (T_ == 1) all_hist_.assign(kMaxPasses * hist_size_, 0u);
  }

  [[nodiscard]] unsigned threads() const noexcept { return T_; }
  /// The input share of thread t, [input_begin(t), input_begin(t + 1)), for filling `a` in parallel.
  [[nodiscard]] std::size_t input_begin(unsigned t) const noexcept { return n_ * t / T_; }

  /// The first run is [0, split), the second [split, n) (empty with one run); `varying`: OR ^ AND
  /// of all keys. Called by one thread, between barriers, after `a` is filled.
  void plan(std::size_t split, std::uint64_t varying) {
    split_ = runs_ == 1 ? n_ : split;
    digits_.clear();
    if (varying == 0) return;
    const unsigned low = static_cast<unsigned>(std::countr_zero(varying));
    const unsigned high = 63u - static_cast<unsigned>(std::countl_zero(varying));
    const unsigned width = high - low + 1;
    // Below 2^(kBits + 2) records, narrower digits: the tables need not outnumber the records.
    const unsigned max_bits = static_cast<unsigned>(std::clamp(static_cast<int>(std::bit_width(n_)) - 2, static_cast<int>(kMinBits), static_cast<int>(kBits)));
    const unsigned passes = (width + max_bits - 1) / max_bits;
    const unsigned bits = (width + passes - 1) / passes;
    for (unsigned p = 0; p < passes; ++p) {
      const unsigned shift = low + p * bits;
      const unsigned w = std::min(bits, high + 1 - shift);
      digits_.push_back({shift, (std::uint64_t{1} << w) - 1});
    }
  }

  /// The passes, by thread t of threads(); every thread of the team must call it.
  void sort(unsigned t, std::barrier<>& sync) {
    if (digits_.empty()) return;
    if (T_ == 1) return sort_alone();
    const unsigned T = T_;
    std::fill_n(hist_[0].data() + std::size_t{t} * T * hist_size_, T * hist_size_, 0u);
    {
      std::uint32_t* h = hist_[0].data() + (std::size_t{t} * T + t) * hist_size_;
      const digit d0 = digits_[0];
      for_runs(t, [&](std::size_t b0, std::size_t e0, std::size_t run) {
        std::uint32_t* hr = h + run * kBuckets;
        for (std::size_t j = b0; j < e0; ++j) ++hr[d0.of(Key{}(a_[j]))];
      });
    }
    sync.arrive_and_wait();
    std::vector<std::size_t>& offset = offsets_[t];
    for (std::size_t p = 0; p < digits_.size(); ++p) {
      const std::vector<std::uint32_t>& cur = hist_[p & 1];
      std::vector<std::uint32_t>& next = hist_[(p + 1) & 1];
      const Rec* src = (p & 1) ? b_ : a_;
      Rec* dst = (p & 1) ? a_ : b_;
      const digit dg = digits_[p];
      // Where this thread's elements of each (run, bucket) go: after the run's smaller buckets, and
      // within the bucket after the elements of the shares before this one (stability).
      for (std::size_t run = 0; run < runs_; ++run) {
        std::size_t at = run == 0 ? 0 : split_;
        for (std::size_t bk = 0; bk <= dg.mask; ++bk) {
          const std::size_t slot = run * kBuckets + bk;
          std::size_t total = 0, mine = 0;
          for (unsigned u = 0; u < T; ++u) {
            for (unsigned c = 0; c < T; ++c) {
              const std::uint32_t v = cur[(std::size_t{u} * T + c) * hist_size_ + slot];
              total += v;
              if (c < t) mine += v;
            }
          }
          offset[slot] = at + mine;
          at += total;
        }
      }
      if (p + 1 < digits_.size()) {
        std::uint32_t* nh = next.data() + std::size_t{t} * T * hist_size_;  // this writer's T histograms
        std::fill_n(nh, T * hist_size_, 0u);
        for_runs(t, [&](std::size_t b0, std::size_t e0, std::size_t run) {
          scatter<true>(src, b0, e0, dst, offset.data() + run * kBuckets, dg, digits_[p + 1], nh + run * kBuckets);
        });
      } else {
        for_runs(t, [&](std::size_t b0, std::size_t e0, std::size_t run) {
          scatter<false>(src, b0, e0, dst, offset.data() + run * kBuckets, dg, dg, nullptr);
        });
      }
      sync.arrive_and_wait();
    }
  }

  /// The buffer that holds the sorted records (valid after sort()).
  [[nodiscard]] Rec* result() const noexcept { return digits_.size() % 2 == 1 ? b_ : a_; }

 private:
  static constexpr unsigned kMinBits = 8;  // the narrowest digit plan() picks (small n)
  static constexpr std::size_t kMaxPasses = (64 + kMinBits - 1) / kMinBits;

  // One thread: the histograms of every digit in one read pass, then plain scatters (no counting).
  void sort_alone() {
    const std::size_t P = digits_.size();
    for (std::size_t p = 0; p < P; ++p) {
      for (std::size_t run = 0; run < runs_; ++run) {
        std::fill_n(all_hist_.data() + p * hist_size_ + run * kBuckets, digits_[p].mask + 1, 0u);
      }
    }
    for_runs(0, [&](std::size_t b0, std::size_t e0, std::size_t run) {
      std::uint32_t* h = all_hist_.data() + run * kBuckets;
      for (std::size_t j = b0; j < e0; ++j) {
        const std::uint64_t k = Key{}(a_[j]);
        for (std::size_t p = 0; p < P; ++p) ++h[p * hist_size_ + digits_[p].of(k)];
      }
    });
    std::vector<std::size_t>& offset = offsets_[0];
    for (std::size_t p = 0; p < P; ++p) {
      const std::uint32_t* h = all_hist_.data() + p * hist_size_;
      for (std::size_t run = 0; run < runs_; ++run) {
        std::size_t at = run == 0 ? 0 : split_;
        for (std::size_t bk = 0; bk <= digits_[p].mask; ++bk) {
          offset[run * kBuckets + bk] = at;
          at += h[run * kBuckets + bk];
        }
      }
      const Rec* src = (p & 1) ? b_ : a_;
      Rec* dst = (p & 1) ? a_ : b_;
      for_runs(0, [&](std::size_t b0, std::size_t e0, std::size_t run) {
        scatter<false>(src, b0, e0, dst, offset.data() + run * kBuckets, digits_[p], digits_[p], nullptr);
      });
    }
  }

  struct digit {
    unsigned shift = 0;
    std::uint64_t mask = 0;
    [[nodiscard]] std::size_t of(std::uint64_t k) const { return static_cast<std::size_t>((k >> shift) & mask); }
  };

  // f(begin, end, run) for the parts of position share `share` in each run.
  template <class F>
  void for_runs(unsigned share, F&& f) const {
    const std::size_t b0 = lo_[share], e0 = lo_[share + 1];
    if (b0 < std::min(e0, split_)) f(b0, std::min(e0, split_), 0);
    if (std::max(b0, split_) < e0) f(std::max(b0, split_), e0, 1);
  }

  // One counting pass over src[begin, end): each element goes to dst[off[bucket]++]. With kNext,
  // also counts the next digit of each element into the histogram of the share it lands in.
  template <bool kNext>
  void scatter(const Rec* src, std::size_t begin, std::size_t end, Rec* dst, std::size_t* off, digit dg, digit dn,
               std::uint32_t* next) const {
    const std::uint64_t mul = mul_;
    const std::size_t stride = hist_size_;
    for (std::size_t j = begin; j < end; ++j) {
      const Rec v = src[j];
      const std::uint64_t k = Key{}(v);
      const std::size_t to = off[dg.of(k)]++;
      dst[to] = v;
      if constexpr (kNext) ++next[((static_cast<std::uint64_t>(to) * mul) >> 32) * stride + dn.of(k)];
    }
  }

  Rec* a_;
  Rec* b_;
  std::size_t n_;
  unsigned runs_;
  std::size_t hist_size_;
  unsigned T_ = 1;
  std::uint64_t mul_ = 0;
  std::size_t split_ = 0;
  std::vector<std::size_t> lo_;
  std::vector<std::uint32_t> hist_[2];
  std::vector<std::uint32_t> all_hist_;  // one thread: the histograms of every pass
  std::vector<std::vector<std::size_t>> offsets_;
  std::vector<digit> digits_;
};

/// The key functor of records with a 64-bit member `key`.
struct member_key {
  template <class Rec>
  std::uint64_t operator()(const Rec& r) const noexcept {
    return r.key;
  }
};

/// Sorts `recs` (any type with a std::uint64_t member `key`, trivially copyable) ascending by key,
/// stably: records of equal key keep their order, so that sums over a group of tied keys are taken in
/// input order (scikit-learn's stable argsort). Below 2^16 records one thread's LSD passes (8-bit
/// digits below 4096 records, else 11-bit) with every histogram counted in one read and no set-up
/// beyond one table (radix_sorter's tables cost tens of microseconds per call); from 2^16 the
/// radix_sorter above, on every core (team_threads) from 2^17; beyond 2^32 - 1 records std::stable_sort.
/// Digits on which every key agrees are skipped. The result does not depend on the thread count.
/// `scratch`: the second buffer of the large sorts, kept by a caller that sorts again and again (its
/// capacity is reused; a fresh buffer per sort costs its page faults, which at 10^6-10^7 records
/// rival the sort itself); without it (or with a null `scratch`), one is allocated per call.
template <class Rec>
void stable_sort_by_key(std::vector<Rec>& recs, std::vector<Rec>* scratch);

template <class Rec>
void stable_sort_by_key(std::vector<Rec>& recs) {
  stable_sort_by_key(recs, static_cast<std::vector<Rec>*>(nullptr));
}

template <class Rec>
void stable_sort_by_key(std::vector<Rec>& recs, std::vector<Rec>& scratch) {
  stable_sort_by_key(recs, &scratch);
}

template <class Rec>
void stable_sort_by_key(std::vector<Rec>& recs, std::vector<Rec>* scratch) {
  const std::size_t n = recs.size();
  if (n < 2) return;
  if (n > 0xFFFFFFFFu) {
    std::stable_sort(recs.begin(), recs.end(), [](const Rec& a, const Rec& b) { return a.key < b.key; });
    return;
  }
  if (n < (std::size_t{1} << 16)) {
    auto lsd = [&recs, n]<unsigned kBits>() {
      constexpr std::size_t R = std::size_t{1} << kBits;
      constexpr unsigned P = (64 + kBits - 1) / kBits;
      std::vector<std::uint32_t> hist(P * R, 0u);
      for (const Rec& r : recs) {
        std::uint64_t k = r.key;
        for (unsigned p = 0; p < P; ++p, k >>= kBits) ++hist[p * R + (k & (R - 1))];
      }
      std::vector<Rec> tmp(n);
      Rec* src = recs.data();
      Rec* dst = tmp.data();
      for (unsigned p = 0; p < P; ++p) {
        std::uint32_t* h = hist.data() + p * R;
        const unsigned shift = p * kBits;
        if (h[(src[0].key >> shift) & (R - 1)] == n) continue;  // every key has this digit
        std::uint32_t sum = 0;
        for (std::size_t b = 0; b < R; ++b) {
          const std::uint32_t c = h[b];
          h[b] = sum;
          sum += c;
        }
        for (std::size_t i = 0; i < n; ++i) dst[h[(src[i].key >> shift) & (R - 1)]++] = src[i];
        std::swap(src, dst);
      }
      if (src != recs.data()) std::copy(src, src + n, recs.data());
    };
    if (n < 4096) lsd.template operator()<8>();
    else lsd.template operator()<11>();
    return;
  }
  const unsigned T = n < (std::size_t{1} << 17) ? 1u : team_threads(8);
  std::unique_ptr<Rec[]> spare;
  Rec* second = nullptr;
  if (scratch != nullptr) {
    if (scratch->size() < n) {  // grows once to the largest sort, then reused
      scratch->clear();
      scratch->resize(n);
    }
    second = scratch->data();
  } else {
    spare.reset(new Rec[n]);  // not value-initialised: no wasted page touches
    second = spare.get();
  }
  radix_sorter<Rec, member_key> sorter(recs.data(), second, n, T, 1);
  std::uint64_t o = 0, d = ~std::uint64_t{0};
  for (const Rec& r : recs) o |= r.key, d &= r.key;
  sorter.plan(n, o ^ d);
  run_team(sorter.threads(), [&sorter](unsigned t, std::barrier<>& sync) { sorter.sort(t, sync); });
  if (sorter.result() != recs.data()) std::copy(sorter.result(), sorter.result() + n, recs.data());
}

}  // namespace assay::detail
