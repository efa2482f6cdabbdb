// The parallel LSD radix sort of scores by class; see include/assay/curves/class_sort.hpp.
#include "assay/curves/class_sort.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <boost/sort/spreadsort/float_sort.hpp>
#include <bit>
#include <latch>
#include <thread>
#include <vector>

namespace assay::curves {

namespace {

constexpr unsigned kMaxDigitBits = 11;  // 2048 buckets per class: the scatter targets stay in cache
constexpr std::size_t kBuckets = std::size_t{1} << kMaxDigitBits;

// Unsigned key with the order of the doubles (x is never -0.0 here: it was normalised to +0.0): all
// bits flipped for a negative x, the sign bit set otherwise. Branch-free, as signs are unpredictable.
inline std::uint64_t key_of(double x) {
  const auto u = std::bit_cast<std::uint64_t>(x);
  const auto negative = static_cast<std::uint64_t>(static_cast<std::int64_t>(u) >> 63);
  return u ^ (negative | 0x8000000000000000ULL);
}

struct digit {
  unsigned shift = 0;
  std::uint64_t mask = 0;
  [[nodiscard]] std::size_t of(std::uint64_t k) const { return static_cast<std::size_t>((k >> shift) & mask); }
};

// A histogram holds counts per class (run 0 = positives, 1 = negatives) and bucket, at
// [run * kBuckets + bucket]; kHist counts in all.
constexpr std::size_t kHist = 2 * kBuckets;

// One counting pass over src[begin, end) (one class's part of a thread's share): each element goes to
// dst[off[bucket]++]. With `next`, also counts the next digit of each element into the histogram of
// the position share it lands in. Arguments by value so that they stay in registers.
template <bool kNext>
void scatter(const double* src, std::size_t begin, std::size_t end, double* dst, std::size_t* off, digit dg, digit dn,
             std::uint32_t* next, std::uint64_t mul, std::size_t share_stride) {
  for (std::size_t j = begin; j < end; ++j) {
    const double v = src[j];
    const std::uint64_t k = key_of(v);
    const std::size_t to = off[dg.of(k)]++;
    dst[to] = v;
    if constexpr (kNext) ++next[((static_cast<std::uint64_t>(to) * mul) >> 32) * share_stride + dn.of(k)];
  }
}

}  // namespace

class_sorted sort_by_class(std::span<const std::int32_t> y, std::span<const double> score, std::vector<double> scratch,
                           unsigned threads) {
  const std::size_t n = y.size();
  class_sorted out;
  out.n_ = n;
  if (n == 0) return out;
  if (n > 0xFFFFFFFFu) {  // beyond the 32-bit counts of the passes: a comparison-free sort per class
    out.own_.reset(new double[n]);
    double* a = out.own_.get();
    std::size_t po = 0, no = n;
    for (std::size_t i = 0; i < n; ++i) (y[i] ? a[po++] : a[--no]) = score[i] + 0.0;
    boost::sort::spreadsort::float_sort(a, a + po);
    boost::sort::spreadsort::float_sort(a + po, a + n);
    out.positives_ = po;
    out.sorted_ = a;
    return out;
  }

  unsigned T = threads;
  if (T == 0) T = n < (std::size_t{1} << 16) ? 1u : std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
  T = static_cast<unsigned>(std::min<std::size_t>(T, n));

  out.own_.reset(new double[n]);
  double* const a = out.own_.get();
  double* b = nullptr;
  std::unique_ptr<double[]> second;
  if (scratch.size() >= n) {
    out.reused_ = std::move(scratch);
    b = out.reused_.data();
  } else {
    second.reset(new double[n]);
    b = second.get();
  }

  // Input shares (step 1) and position shares (the passes): thread t owns positions [lo[t], lo[t+1]).
  // The position share of an index j is (j * mul) >> 32, monotone in j, so a thread can tell which
  // share an element lands in with one multiplication.
  std::vector<std::size_t> in_lo(T + 1), lo(T + 1);
  for (unsigned t = 0; t <= T; ++t) in_lo[t] = n * t / T;
  const std::uint64_t mul = T == 1 ? 0 : (std::uint64_t{T} << 32) / n;
  lo[0] = 0;
  for (unsigned c = 1; c <= T; ++c) {
    lo[c] = c == T || mul == 0 ? n : std::min<std::size_t>(n, static_cast<std::size_t>(((std::uint64_t{c} << 32) + mul - 1) / mul));
  }

  std::vector<std::size_t> positives(T);
  std::vector<std::uint64_t> ors(T, 0), ands(T, ~std::uint64_t{0});
  // hist[parity] holds T x T histograms; the one at (writer * T + share) * kHist counts what thread
  // `writer` saw of the elements that sit in position share `share` at the start of the next pass.
  std::array<std::vector<std::uint32_t>, 2> hist{std::vector<std::uint32_t>(std::size_t{T} * T * kHist),
                                                 std::vector<std::uint32_t>(std::size_t{T} * T * kHist)};
  std::size_t P = 0;
  std::vector<digit> digits;
  std::vector<std::vector<std::size_t>> offsets(T, std::vector<std::size_t>(2 * kBuckets));
  std::barrier sync(static_cast<std::ptrdiff_t>(T));

  auto work = [&](unsigned t) {
    // Step 1: count, then copy each case to its class's run (positives first), OR/AND of the keys.
    std::size_t count = 0;
    for (std::size_t i = in_lo[t]; i < in_lo[t + 1]; ++i) count += static_cast<std::size_t>(y[i]);
    positives[t] = count;
    sync.arrive_and_wait();
    std::size_t all = 0, before = 0;
    for (unsigned u = 0; u < T; ++u) {
      all += positives[u];
      if (u < t) before += positives[u];
    }
    std::size_t po = before, no = all + (in_lo[t] - before);
    std::uint64_t o = 0, d = ~std::uint64_t{0};
    for (std::size_t i = in_lo[t]; i < in_lo[t + 1]; ++i) {
      const double v = score[i] + 0.0;  // -0.0 -> +0.0
      const std::uint64_t k = key_of(v);
      o |= k;
      d &= k;
      const std::size_t is_pos = static_cast<std::size_t>(y[i]);
      a[is_pos ? po : no] = v;
      po += is_pos;
      no += 1 - is_pos;
    }
    ors[t] = o;
    ands[t] = d;
    sync.arrive_and_wait();
    if (t == 0) {
      P = all;
      std::uint64_t or_all = 0, and_all = ~std::uint64_t{0};
      for (unsigned u = 0; u < T; ++u) or_all |= ors[u], and_all &= ands[u];
      const std::uint64_t varying = or_all ^ and_all;  // bits that differ between some two keys
      if (varying != 0) {
        const unsigned low = static_cast<unsigned>(std::countr_zero(varying));
        const unsigned high = 63u - static_cast<unsigned>(std::countl_zero(varying));
        const unsigned width = high - low + 1;
        const unsigned passes = (width + kMaxDigitBits - 1) / kMaxDigitBits;
        const unsigned bits = (width + passes - 1) / passes;
        for (unsigned p = 0; p < passes; ++p) {
          const unsigned shift = low + p * bits;
          const unsigned w = std::min(bits, high + 1 - shift);
          digits.push_back({shift, (std::uint64_t{1} << w) - 1});
        }
      }
    }
    // Histogram of the first digit over this thread's position share.
    auto runs = [&](unsigned share, auto&& f) {  // f(begin, end, run) for the parts of a share in each run
      const std::size_t b0 = lo[share], e0 = lo[share + 1];
      if (b0 < std::min(e0, P)) f(b0, std::min(e0, P), 0);
      if (std::max(b0, P) < e0) f(std::max(b0, P), e0, 1);
    };
    sync.arrive_and_wait();
    if (digits.empty()) return;
    std::fill_n(hist[0].data() + std::size_t{t} * T * kHist, T * kHist, 0u);
    {
      std::uint32_t* h = hist[0].data() + (std::size_t{t} * T + t) * kHist;
      const digit d0 = digits[0];
      runs(t, [&](std::size_t b0, std::size_t e0, std::size_t run) {
        std::uint32_t* hr = h + run * kBuckets;
        for (std::size_t j = b0; j < e0; ++j) ++hr[d0.of(key_of(a[j]))];
      });
    }
    sync.arrive_and_wait();

    std::vector<std::size_t>& offset = offsets[t];  // allocated before: nothing in a thread throws
    for (std::size_t p = 0; p < digits.size(); ++p) {
      const std::vector<std::uint32_t>& cur = hist[p & 1];
      std::vector<std::uint32_t>& next = hist[(p + 1) & 1];
      const double* src = (p & 1) ? b : a;
      double* dst = (p & 1) ? a : b;
      // Where this thread's elements of each (run, bucket) go: after the run's smaller buckets, and
      // within the bucket after the elements of the shares before this one (stability).
      for (std::size_t run = 0; run < 2; ++run) {
        std::size_t at = run == 0 ? 0 : P;
        for (std::size_t bk = 0; bk < kBuckets; ++bk) {
          const std::size_t slot = run * kBuckets + bk;
          std::size_t total = 0, mine = 0;
          for (unsigned u = 0; u < T; ++u) {
            for (unsigned c = 0; c < T; ++c) {
              const std::uint32_t v = cur[(std::size_t{u} * T + c) * kHist + slot];
              total += v;
              if (c < t) mine += v;
            }
          }
          offset[slot] = at + mine;
          at += total;
        }
      }
      const digit dg = digits[p];
      const bool more = p + 1 < digits.size();
      if (more) {
        std::uint32_t* nh = next.data() + std::size_t{t} * T * kHist;  // this writer's T histograms
        std::fill_n(nh, T * kHist, 0u);
        runs(t, [&](std::size_t b0, std::size_t e0, std::size_t run) {
          scatter<true>(src, b0, e0, dst, offset.data() + run * kBuckets, dg, digits[p + 1], nh + run * kBuckets, mul, kHist);
        });
      } else {
        runs(t, [&](std::size_t b0, std::size_t e0, std::size_t run) {
          scatter<false>(src, b0, e0, dst, offset.data() + run * kBuckets, dg, dg, nullptr, 0, 0);
        });
      }
      sync.arrive_and_wait();
    }
  };
  {
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
          if (!abandon) work(t);
        });
      }
    } catch (...) {
      abandon = true;
      start.count_down();
      throw;
    }
    start.count_down();
    work(0);
  }
  out.positives_ = P;
  const bool in_b = digits.size() % 2 == 1;
  out.sorted_ = in_b ? b : a;
  // Free the buffer that does not hold the result.
  if (in_b) {
    if (second) out.own_ = std::move(second);  // b was our own: keep it, drop a
    else out.own_.reset();                     // b is the caller's scratch: keep it, drop a
  } else {
    out.reused_ = std::vector<double>();
  }
  return out;
}

}  // namespace assay::curves
