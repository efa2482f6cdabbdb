// assay (internal): exact sums of non-negative doubles, rounded once when read.
//
// A floating sum depends on the order of its terms in the last bits; a report computed from pieces
// of the data (scale/state.hpp) must equal the one computed on all rows at once, so every weight and
// loss sum of the report is exact: each double is an integer multiple of 2^-1074, and the sum of such
// integers is held in a fixed-point accumulator wide enough for every finite double (Kulisch's long
// accumulator; Kulisch & Miranker, "The arithmetic of the digital computer: a new approach", SIAM
// Review 28(1), 1986; Neal, "Fast exact summation using small and large superaccumulators",
// arXiv:1505.05571, 2015). The sum is rounded to the nearest double (ties to even) only when read,
// so it does not depend on the order of the terms, on how they were split, or on the thread count.
//
// `long_accumulator` is the accumulator (272 bytes); `exact_sum` is the compact form used per key
// and per cell: a plain double while the running sum is exactly representable (checked with
// Knuth's TwoSum, so the common case costs one addition and a few comparisons), the accumulator
// from the first addition that is not exact.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

namespace assay::detail {

/// A finite double x >= 0 as m * 2^(p - 1074): its significand m (53 bits, or fewer for a subnormal)
/// and the position p of m's lowest bit in units of 2^-1074.
struct fixed_point_parts {
  std::uint64_t m;
  unsigned p;
};
inline fixed_point_parts fixed_point(double x) noexcept {
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const unsigned exp = static_cast<unsigned>(bits >> 52) & 0x7ff;
  const std::uint64_t m = bits & ((std::uint64_t{1} << 52) - 1);
  if (exp == 0) return {m, 0};
  return {m | (std::uint64_t{1} << 52), exp - 1};
}

class long_accumulator {
 public:
  static constexpr std::size_t limbs = 34;  // bits 2^-1074 .. 2^1023 and 2^78 terms of headroom

  /// Adds x (finite, >= 0).
  void add(double x) noexcept {
    const auto [m, p] = fixed_point(x);
    if (m == 0) return;
    add_bits(m, p);
  }
  /// Adds v * 2^(position - 1074), i.e. v placed at bit `position` (< 64 * limbs - 64).
  void add_bits(std::uint64_t v, unsigned position) noexcept {
    const unsigned limb = position / 64, off = position % 64;
    add_at(limb, v << off);
    if (off != 0) add_at(limb + 1, v >> (64 - off));
  }

  void add(const long_accumulator& o) noexcept {
    unsigned carry = 0;
    for (std::size_t i = 0; i < limbs; ++i) {
      const std::uint64_t a = w_[i], s = a + o.w_[i];
      const unsigned c1 = s < a ? 1U : 0U;
      const std::uint64_t t = s + carry;
      const unsigned c2 = t < s ? 1U : 0U;
      w_[i] = t;
      carry = c1 + c2;
    }
  }

  /// Subtracts o, which must not exceed this sum (compare first with less()).
  void subtract(const long_accumulator& o) noexcept {
    unsigned borrow = 0;
    for (std::size_t i = 0; i < limbs; ++i) {
      const std::uint64_t a = w_[i], b = o.w_[i];
      const std::uint64_t d = a - b;
      const unsigned b1 = a < b ? 1U : 0U;
      const std::uint64_t t = d - borrow;
      const unsigned b2 = d < borrow ? 1U : 0U;
      w_[i] = t;
      borrow = b1 + b2;
    }
  }
  /// Whether this sum is smaller than o.
  [[nodiscard]] bool less(const long_accumulator& o) const noexcept {
    for (std::size_t i = limbs; i > 0; --i) {
      if (w_[i - 1] != o.w_[i - 1]) return w_[i - 1] < o.w_[i - 1];
    }
    return false;
  }

  /// The sum rounded to the nearest double, ties to even (+inf beyond the largest double).
  [[nodiscard]] double value() const noexcept {
    int top = static_cast<int>(limbs) - 1;
    while (top >= 0 && w_[static_cast<std::size_t>(top)] == 0) --top;
    if (top < 0) return 0.0;
    const int hb = top * 64 + 63 - std::countl_zero(w_[static_cast<std::size_t>(top)]);
    if (hb < 53) return std::ldexp(static_cast<double>(bits(0, 53)), -1074);  // exact (subnormal or small)
    std::uint64_t m = bits(hb - 52, 53);
    const bool round = bits(hb - 53, 1) != 0;
    const bool sticky = any_below(hb - 53);
    int e = hb - 52 - 1074;
    if (round && (sticky || (m & 1))) {
      ++m;
      if (m == (std::uint64_t{1} << 53)) {
        m >>= 1;
        ++e;
      }
    }
    return std::ldexp(static_cast<double>(m), e);
  }

  /// Whether value() is the sum exactly.
  [[nodiscard]] bool exact_double() const noexcept {
    int top = static_cast<int>(limbs) - 1;
    while (top >= 0 && w_[static_cast<std::size_t>(top)] == 0) --top;
    if (top < 0) return true;
    const int hb = top * 64 + 63 - std::countl_zero(w_[static_cast<std::size_t>(top)]);
    if (hb < 53) return true;
    return !any_below(hb - 52) && std::isfinite(value());
  }

  [[nodiscard]] const std::array<std::uint64_t, limbs>& words() const noexcept { return w_; }
  std::array<std::uint64_t, limbs>& words() noexcept { return w_; }
  bool operator==(const long_accumulator&) const = default;

 private:
  void add_at(std::size_t i, std::uint64_t v) noexcept {
    for (; i < limbs && v != 0; ++i) {
      const std::uint64_t s = w_[i] + v;
      v = s < w_[i] ? 1 : 0;
      w_[i] = s;
    }
  }
  // `count` (<= 64) bits starting at bit `lo` (>= 0).
  [[nodiscard]] std::uint64_t bits(int lo, int count) const noexcept {
    std::uint64_t r = 0;
    for (int k = 0; k < count; ++k) {
      const int b = lo + k;
      if ((w_[static_cast<std::size_t>(b / 64)] >> (b % 64)) & 1U) r |= std::uint64_t{1} << k;
    }
    return r;
  }
  // Whether any bit below `b` is set.
  [[nodiscard]] bool any_below(int b) const noexcept {
    if (b <= 0) return false;
    const int full = b / 64;
    for (int i = 0; i < full; ++i) {
      if (w_[static_cast<std::size_t>(i)] != 0) return true;
    }
    const int rest = b % 64;
    return rest != 0 && (w_[static_cast<std::size_t>(full)] & ((std::uint64_t{1} << rest) - 1)) != 0;
  }
  std::array<std::uint64_t, limbs> w_{};
};

/// An exact sum of non-negative doubles: a double while exact, else a long_accumulator.
class exact_sum {
 public:
  exact_sum() = default;
  explicit exact_sum(double x) : v_(x) {}
  exact_sum(const exact_sum& o)
      : v_(o.v_), big_(o.big_ ? std::make_unique<long_accumulator>(*o.big_) : nullptr), plain_(o.plain_) {}
  exact_sum& operator=(const exact_sum& o) {
    if (this != &o) {
      v_ = o.v_;
      big_ = o.big_ ? std::make_unique<long_accumulator>(*o.big_) : nullptr;
      plain_ = o.plain_;
    }
    return *this;
  }
  exact_sum(exact_sum&&) noexcept = default;
  exact_sum& operator=(exact_sum&&) noexcept = default;

  /// Adds x. Exact for finite x >= 0 (every caller's case: weights and losses); a negative or
  /// non-finite x (a caller whose input check comes later) turns the sum into a plain floating sum,
  /// so such input is never silently mis-summed.
  void add(double x) {
    if (plain_ || !(x >= 0) || !std::isfinite(x)) {
      to_plain();
      v_ += x;
      return;
    }
    if (big_) {
      big_->add(x);
      return;
    }
    const double s = v_ + x;
    const double bv = s - v_;
    const double err = (v_ - (s - bv)) + (x - bv);  // Knuth's TwoSum: s + err == v_ + x exactly
    if (err == 0 && std::isfinite(s)) {
      v_ = s;
      return;
    }
    big_ = std::make_unique<long_accumulator>();
    big_->add(v_);
    big_->add(x);
  }
  /// Adds n copies of x, exactly for finite x >= 0: x 2^j for each set bit j of n (a scaling by a
  /// power of two is exact while it stays finite; else the copies are added one by one).
  void add_times(double x, std::uint64_t n) {
    if (n == 0) return;
    if (!std::isfinite(x) || !(x >= 0)) {  // the sum turns plain (see add): n copies as one product
      add(x * static_cast<double>(n));
      return;
    }
    if (!std::isfinite(std::ldexp(x, std::bit_width(n)))) {
      for (std::uint64_t k = 0; k < n; ++k) add(x);
      return;
    }
    for (int j = 0; n != 0; ++j, n >>= 1) {
      if (n & 1U) add(std::ldexp(x, j));
    }
  }
  void add(const exact_sum& o) {
    if (plain_ || o.plain_) {
      to_plain();
      v_ += o.value();
      return;
    }
    if (!o.big_) {
      add(o.v_);
      return;
    }
    if (!big_) {
      big_ = std::make_unique<long_accumulator>();
      big_->add(v_);
    }
    big_->add(*o.big_);
  }
  /// The sum rounded to the nearest double, ties to even.
  [[nodiscard]] double value() const noexcept { return big_ ? big_->value() : v_; }
  /// Whether value() is exact (then the sum is written as one double).
  [[nodiscard]] bool exact_double() const noexcept { return !plain_ && (!big_ || big_->exact_double()); }
  [[nodiscard]] const long_accumulator* accumulator() const noexcept { return big_.get(); }
  /// Sets the exact value from accumulator words (reading a serialised state).
  void set_words(const std::array<std::uint64_t, long_accumulator::limbs>& w) {
    big_ = std::make_unique<long_accumulator>();
    big_->words() = w;
  }
  [[nodiscard]] bool is_zero() const noexcept { return value() == 0; }

 private:
  void to_plain() {
    if (plain_) return;
    v_ = value();
    big_.reset();
    plain_ = true;
  }
  double v_ = 0;
  std::unique_ptr<long_accumulator> big_;
  bool plain_ = false;
};

/// The counters of chunked_sum (Neal's "small superaccumulator", arXiv:1505.05571, section 3, with
/// unsigned chunks as every term is >= 0): each term's 53-bit significand is split over 32-bit chunks
/// held in 64-bit counters, so an addition is two or three integer additions with no carry to
/// propagate; the chunks are carried into the long accumulator every 2^31 terms and when read. Under
/// 1 KB: cheap to create and to read.
class chunk_counters {
 public:
  /// Adds x (finite, >= 0).
  void add(double x, long_accumulator& acc) noexcept {
    const auto [m, p] = fixed_point(x);
    const unsigned i = p / 32, off = p % 32;
    constexpr std::uint64_t low32 = 0xffffffffU;
    if (off == 0) {
      chunk_[i] += m & low32;
      chunk_[i + 1] += m >> 32;
    } else {
      chunk_[i] += (m << off) & low32;
      chunk_[i + 1] += (m >> (32 - off)) & low32;
      chunk_[i + 2] += m >> (64 - off);
    }
    if (++terms_ == max_terms) [[unlikely]] carry(acc);
  }
  /// Moves the counters into acc.
  void carry(long_accumulator& acc) noexcept {
    for (unsigned i = 0; i < chunks; ++i) {
      if (chunk_[i] != 0) acc.add_bits(chunk_[i], 32 * i);
      chunk_[i] = 0;
    }
    terms_ = 0;
  }

 private:
  static constexpr std::size_t chunks = 66;  // bits 2^-1074 .. 2^1038: every finite double's bits
  static constexpr std::uint64_t max_terms = std::uint64_t{1} << 31;  // chunks stay below 2^63
  std::array<std::uint64_t, chunks> chunk_{};
  std::uint64_t terms_ = 0;
};

/// The counters of binned_sum (Neal's "large superaccumulator", arXiv:1505.05571, section 4, with a
/// carry word per exponent instead of a count of additions, as every term is >= 0): each term's
/// 53-bit significand is added, unshifted, into a 64-bit counter chosen by the term's biased exponent
/// (2048 of them), whose carries are counted in a second word; an addition is one integer addition
/// and a rarely taken branch, with no shift and no carry to propagate. 32 KiB, all of it scanned when
/// read (microseconds).
class exponent_counters {
 public:
  /// Adds x (finite, >= 0; -0.0 has the sign bit, which the exponent's mask drops).
  void add(double x, long_accumulator&) noexcept {
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const unsigned e = static_cast<unsigned>(bits >> 52) & 0x7ff;
    const std::uint64_t m = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{e != 0} << 52);
    const std::uint64_t s = low_[e] + m;
    if (s < m) [[unlikely]] ++high_[e];
    low_[e] = s;
  }
  /// Moves the counters into acc: the counter of biased exponent e holds significands of unit
  /// 2^(max(e, 1) - 1075), i.e. bit position max(e, 1) - 1 of the accumulator (fixed_point).
  void carry(long_accumulator& acc) noexcept {
    for (unsigned e = 0; e < exponents; ++e) {
      const unsigned p = e == 0 ? 0 : e - 1;
      if (low_[e] != 0) acc.add_bits(low_[e], p);
      if (high_[e] != 0) acc.add_bits(high_[e], p + 64);
      low_[e] = high_[e] = 0;
    }
  }

 private:
  static constexpr unsigned exponents = 2048;
  std::array<std::uint64_t, exponents> low_{};
  std::array<std::uint64_t, exponents> high_{};
};

/// An exact sum for long loops of additions: the same value as exact_sum (the exact sum, rounded once
/// when read; a negative or non-finite term turns it into a plain floating sum from there on, as
/// exact_sum does), several times faster per term. The counters are carried into a long_accumulator
/// when read, so result() may be called more than once, and terms added after it.
template <class Counters>
class fast_exact_sum {
 public:
  // Always inlined: called once or more per row in the hot loops of evaluate and of the mergeable
  // state's update, where GCC otherwise keeps it out of line (a call per term: 8% of the state's
  // per-part path at 10^7 distinct scores, perf).
  [[gnu::always_inline]] void add(double x) {
    if (delegated_ || !(x >= 0) || !std::isfinite(x)) [[unlikely]] {
      add_rare(x);
      return;
    }
    counters_.add(x, acc_);
  }
  /// The sum as an exact_sum (to merge with others or read).
  [[nodiscard]] exact_sum result() {
    if (delegated_) return rest_;
    counters_.carry(acc_);
    exact_sum r;
    r.set_words(acc_.words());
    return r;
  }

 private:
  // A term after delegation, or a negative or non-finite one: exact_sum's rule from here on.
  [[gnu::noinline]] void add_rare(double x) {
    if (!delegated_) {
      rest_ = result();
      delegated_ = true;
    }
    rest_.add(x);
  }
  Counters counters_;
  long_accumulator acc_;
  exact_sum rest_;
  bool delegated_ = false;
};

/// The small superaccumulator: under 1 KB, for sums created often (the state's per-batch sums).
using chunked_sum = fast_exact_sum<chunk_counters>;
/// The large one: a third faster per term than chunked_sum but 32 KiB to create and to read, so for
/// sums of very many terms only (evaluate's log-loss and Brier sums from 2^16 rows).
using binned_sum = fast_exact_sum<exponent_counters>;

/// An exact sum of doubles of any sign, rounded once when read: the non-negative terms and the
/// magnitudes of the negative ones are summed apart (exact_sum) and their difference is formed
/// exactly in the long accumulator. A non-finite term makes it a plain floating sum (as exact_sum).
class signed_exact_sum {
 public:
  void add(double x) {
    if (x >= 0 || !std::isfinite(x)) pos_.add(x);
    else neg_.add(-x);
  }
  void add(const signed_exact_sum& o) {
    pos_.add(o.pos_);
    neg_.add(o.neg_);
  }
  /// The positive part and the magnitude of the negative part (for serialisation).
  [[nodiscard]] const exact_sum& positive() const noexcept { return pos_; }
  [[nodiscard]] const exact_sum& negative() const noexcept { return neg_; }
  exact_sum& positive() noexcept { return pos_; }
  exact_sum& negative() noexcept { return neg_; }
  [[nodiscard]] double value() const {
    if (neg_.is_zero()) return pos_.value();
    if (!std::isfinite(pos_.value()) || !std::isfinite(neg_.value())) return pos_.value() - neg_.value();
    if (pos_.is_zero()) return -neg_.value();
    long_accumulator a = accumulator_of(pos_), b = accumulator_of(neg_);
    if (a.less(b)) {
      b.subtract(a);
      return -b.value();
    }
    a.subtract(b);
    return a.value();
  }

 private:
  static long_accumulator accumulator_of(const exact_sum& s) {
    if (s.accumulator() != nullptr) return *s.accumulator();
    long_accumulator a;
    a.add(s.value());
    return a;
  }
  exact_sum pos_, neg_;
};

}  // namespace assay::detail
