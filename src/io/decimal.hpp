// Internal: a short path for the plain decimal numbers that fill most data files, giving exactly
// the double fast_float::from_chars gives (the same two exact methods, the same order).
#pragma once

#include <fast_float/fast_float.h>

#include <cstdint>

namespace assay::io::detail {

/// Parses `-?[0-9]+(\.[0-9]+)?` with at most 19 significant digits at the start of [p, e), into
/// `out`. Returns the end of the number, or nullptr when the text does not start that way, has
/// more significant digits, or needs fast_float's slow (big-number) path: the caller then parses
/// the whole field with fast_float. Where it answers, the answer is fast_float's, by construction:
/// the mantissa w and decimal exponent q are the ones fast_float's parse_number_string finds; then
/// Clinger's exact fast path (w <= 2^53, -22 <= q <= 0, only when `nearest`: the rounding mode is
/// to nearest, see fast_float::detail::rounds_to_nearest) or else Eisel-Lemire
/// (fast_float::compute_float), exactly as fast_float::from_chars_advanced, with its digit
/// comparison fallback left to the caller. Reads no byte at or after `e`. (Clinger, "How to read
/// floating point numbers accurately", PLDI 1990; Lemire, "Number parsing at a gigabyte per
/// second", Software: Practice and Experience 51(8), 2021.)
[[gnu::always_inline]] inline const char* parse_decimal(const char* p, const char* e, double& out,
                                                        bool nearest) noexcept {
  const bool negative = p < e && *p == '-';
  if (negative) ++p;
  const char* const digits = p;
  std::uint64_t w = 0;
  while (p < e && static_cast<unsigned char>(*p - '0') < 10) w = 10 * w + static_cast<unsigned char>(*p++ - '0');
  if (p == digits) return nullptr;
  std::int64_t count = p - digits, q = 0;
  if (p < e && *p == '.') {
    const char* const fraction = ++p;
    while (e - p >= 8 && fast_float::is_made_of_eight_digits_fast(p)) {
      w = w * 100000000 + fast_float::parse_eight_digits_unrolled(p);  // may wrap: checked below
      p += 8;
    }
    while (p < e && static_cast<unsigned char>(*p - '0') < 10) w = 10 * w + static_cast<unsigned char>(*p++ - '0');
    if (p == fraction) return nullptr;  // "1." is left to fast_float
    q = fraction - p;
    count -= q;
  }
  if (count > 19) {  // leading zeros are not significant (as in fast_float); more than 19 that are is its slow path
    for (const char* s = digits; s < p && (*s == '0' || *s == '.'); ++s) count -= *s == '0';
    if (count > 19) return nullptr;
  }
  using format = fast_float::binary_format<double>;
  if (nearest && q >= format::min_exponent_fast_path() && w <= format::max_mantissa_fast_path()) {
    double x = static_cast<double>(w);
    x = x / format::exact_power_of_ten(-q);
    out = negative ? -x : x;
    return p;
  }
  const fast_float::adjusted_mantissa am = fast_float::compute_float<format>(q, w);
  if (am.power2 < 0) return nullptr;  // fast_float would compare digits: let it
  fast_float::to_float(negative, am, out);
  return p;
}

/// Whether the rounding mode is to nearest, as fast_float checks it before its fast path.
inline bool rounds_to_nearest() noexcept { return fast_float::detail::rounds_to_nearest(); }

}  // namespace assay::io::detail
