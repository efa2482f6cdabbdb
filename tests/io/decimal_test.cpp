// The short number path (src/io/decimal.hpp) must give exactly fast_float's double, and
// assay::io::parse_double, which uses it first, must accept and give exactly what fast_float
// alone did (surrounding spaces and tabs and one leading '+' accepted as before).
#include "../../src/io/decimal.hpp"

#include <fast_float/fast_float.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "assay/io/table.hpp"

namespace assay::io {
namespace {

// parse_double as it was before the short path: the reference.
bool reference_parse(std::string_view field, double& out) {
  const char* b = field.data();
  const char* e = b + field.size();
  while (b < e && (*b == ' ' || *b == '\t')) ++b;
  while (e > b && (e[-1] == ' ' || e[-1] == '\t')) --e;
  if (b == e) return false;
  if (*b == '+') {
    ++b;
    if (b == e || *b == '-' || *b == '+') return false;
  }
  auto r = fast_float::from_chars(b, e, out);
  return r.ec == std::errc() && r.ptr == e;
}

std::string digits(std::mt19937_64& rng, std::size_t n, bool leading_zeros) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    const bool zero = leading_zeros && i < n / 2;
    s += static_cast<char>('0' + (zero ? 0 : rng() % 10));
  }
  return s;
}

// Random text near the decimal grammar: signs, leading zeros, 0 to 26 digits on each side of an
// optional point, exponents, spaces, junk at the end.
std::string random_text(std::mt19937_64& rng) {
  std::string s;
  switch (rng() % 8) {
    case 0:
      s += ' ';
      break;
    case 1:
      s += '-';
      break;
    case 2:
      s += '+';
      break;
    default:
      break;
  }
  s += digits(rng, rng() % 27, rng() % 4 == 0);
  if (rng() % 4 != 0) s += '.' + digits(rng, rng() % 27, rng() % 4 == 0);
  if (rng() % 8 == 0) s += fmt::format("e{}", static_cast<int>(rng() % 700) - 350);
  switch (rng() % 10) {
    case 0:
      s += ' ';
      break;
    case 1:
      s += 'x';
      break;
    case 2:
      s += '.';
      break;
    case 3:
      s += ",1";
      break;
    default:
      break;
  }
  return s;
}

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

TEST(Decimal, SameAsFastFloatOnRandomText) {
  std::mt19937_64 rng(20261126);
  int answered = 0;
  for (int i = 0; i < 100000; ++i) {
    const std::string s = random_text(rng);
    double mine = -7, ref = -7;
    const char* end = detail::parse_decimal(s.data(), s.data() + s.size(), mine, true);
    if (end != nullptr) {
      ++answered;
      // What it read is one whole number to fast_float, with the same bits.
      const auto r = fast_float::from_chars(s.data(), end, ref);
      ASSERT_TRUE(r.ec == std::errc() && r.ptr == end) << s;
      ASSERT_EQ(bits(mine), bits(ref)) << s;
    }
    double a = -7, b = -7;
    const bool ok = parse_double(s, a), ref_ok = reference_parse(s, b);
    ASSERT_EQ(ok, ref_ok) << s;
    if (ok) ASSERT_EQ(bits(a), bits(b)) << s;
  }
  EXPECT_GT(answered, 25000);  // the short path is exercised, not only the fallback
}

TEST(Decimal, ShortestRoundTripOfRandomDoubles) {
  // fmt writes the shortest text that reads back as the same double (Python's repr does too):
  // the parse must give the double back exactly, at every magnitude and both signs.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 50000; ++i) {
    double x;
    if (i % 2 == 0) {
      x = std::uniform_real_distribution<double>(0, 1)(rng);
    } else {
      x = std::bit_cast<double>(rng());
      if (!std::isfinite(x)) continue;
    }
    if (i % 3 == 0) x = -x;
    const std::string s = fmt::format("{}", x);
    double y = 0;
    ASSERT_TRUE(parse_double(s, y)) << s;
    ASSERT_EQ(bits(y), bits(x)) << s;
    const std::string fixed = fmt::format("{:.17f}", x);  // plain decimal, often past 19 digits
    double z = 0, ref = 0;
    ASSERT_EQ(parse_double(fixed, z), reference_parse(fixed, ref)) << fixed;
    ASSERT_EQ(bits(z), bits(ref)) << fixed;
  }
}

TEST(Decimal, EdgeCases) {
  struct sample {
    const char* text;
    std::ptrdiff_t end;  // -1: not answered (left to fast_float)
  };
  for (const sample& c : std::initializer_list<sample>{{"0", 1},
                                                       {"-0", 2},
                                                       {"0.5,", 3},
                                                       {"1.", -1},
                                                       {".5", -1},
                                                       {"-", -1},
                                                       {"-.5", -1},
                                                       {"+1", -1},
                                                       {"nan", -1},
                                                       {"1234567890123456789", 19},
                                                       {"12345678901234567890", -1},  // 20 digits
                                                       {"0.00000000000000000000001234567890123456789", 43},
                                                       {"9007199254740993", 16},  // 2^53 + 1: Eisel-Lemire
                                                       {"0.1234567\n", 9},
                                                       {"0.12345678\n", 10},
                                                       {"0.123456789012345\r\n", 17},
                                                       {"1.5e3", 3}}) {
    const std::string s = c.text;
    double x = 0, ref = 0;
    const char* end = detail::parse_decimal(s.data(), s.data() + s.size(), x, true);
    if (c.end < 0) {
      EXPECT_EQ(end, nullptr) << s;
      continue;
    }
    ASSERT_NE(end, nullptr) << s;
    EXPECT_EQ(end - s.data(), c.end) << s;
    fast_float::from_chars(s.data(), end, ref);
    EXPECT_EQ(bits(x), bits(ref)) << s;
  }
}

}  // namespace
}  // namespace assay::io
