// Unit tests of the UTF-8 rule and message quoting (include/assay/io/text.hpp), against a naive
// decoder written from the definition (RFC 3629 section 4's ABNF) on random byte strings.
#include "assay/io/text.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <utility>

#include "io_test_util.hpp"

namespace assay::io::test {
namespace {

// Naive: decode one code point at a time by its lead byte, then reject overlongs, surrogates and
// values above U+10FFFF by value (not by byte ranges, as the implementation does).
std::size_t naive_valid_prefix(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n;
    std::uint32_t cp;
    if (c < 0x80) n = 1, cp = c;
    else if ((c & 0xE0) == 0xC0) n = 2, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) n = 3, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) n = 4, cp = c & 0x07;
    else return i;
    if (i + n > s.size()) return i;
    for (std::size_t k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (b & 0x3F);
    }
    const std::uint32_t min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n;
  }
  return s.size();
}

TEST(Utf8, MatchesNaiveDecoderOnRandomBytes) {
  std::mt19937_64 rng(20261126);
  // Bytes drawn so that every class shows up often: ASCII, continuation bytes, every lead byte.
  const unsigned char pool[] = {'a', 'Z', '0', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
                                0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
  std::size_t valid = 0, invalid = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    std::string s(rng() % 12, '\0');
    for (auto& ch : s) ch = static_cast<char>(pool[rng() % sizeof pool]);
    const std::size_t want = naive_valid_prefix(s);
    ASSERT_EQ(utf8_valid_prefix(s), want) << quote_text(s);
    (want == s.size() ? valid : invalid)++;
  }
  EXPECT_GT(valid, 10000u);  // both outcomes are exercised
  EXPECT_GT(invalid, 10000u);
}

TEST(Utf8, Boundaries) {
  EXPECT_TRUE(is_utf8(""));
  EXPECT_TRUE(is_utf8("plain ascii longer than eight bytes"));
  EXPECT_TRUE(is_utf8("\x7f"));
  EXPECT_TRUE(is_utf8("\xc2\x80"));              // U+0080
  EXPECT_TRUE(is_utf8("\xed\x9f\xbf"));          // U+D7FF
  EXPECT_TRUE(is_utf8("\xee\x80\x80"));          // U+E000
  EXPECT_TRUE(is_utf8("\xf4\x8f\xbf\xbf"));      // U+10FFFF
  EXPECT_FALSE(is_utf8("\xf4\x90\x80\x80"));     // U+110000
  EXPECT_FALSE(is_utf8("\xe0\x9f\xbf"));         // overlong U+07FF
  EXPECT_FALSE(is_utf8("\xf0\x8f\xbf\xbf"));     // overlong U+FFFF
  EXPECT_FALSE(is_utf8("abcdefgh\xe2\x82"));     // truncated after an ASCII block
  EXPECT_EQ(utf8_valid_prefix("abcdefghij\xff"), 10u);
}

// append_utf8 against hand-encoded boundaries (RFC 3629, section 3), and every encoding decoded
// back by the naive decoder to the code point it came from.
TEST(Utf8, AppendEncodesEveryLength) {
  const std::pair<char32_t, const char*> cases[] = {
      {0x00, ""}, {0x7F, "\x7f"}, {0x80, "\xc2\x80"}, {0x7FF, "\xdf\xbf"},
      {0x800, "\xe0\xa0\x80"}, {0xFFFF, "\xef\xbf\xbf"}, {0x10000, "\xf0\x90\x80\x80"},
      {0x10FFFF, "\xf4\x8f\xbf\xbf"}, {0x20AC, "\xe2\x82\xac"}};
  for (const auto& [cp, bytes] : cases) {
    std::string out;
    append_utf8(out, cp);
    EXPECT_EQ(out, cp == 0 ? std::string(1, '\0') : std::string(bytes)) << static_cast<std::uint32_t>(cp);
  }
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20000; ++trial) {
    char32_t cp = static_cast<char32_t>(rng() % 0x110000);
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;  // surrogates are not characters
    std::string out;
    append_utf8(out, cp);
    ASSERT_EQ(naive_valid_prefix(out), out.size()) << static_cast<std::uint32_t>(cp);
    std::uint32_t back = static_cast<unsigned char>(out[0]) & (out.size() == 1 ? 0x7F : 0x3F >> (out.size() - 1));
    for (std::size_t k = 1; k < out.size(); ++k) back = (back << 6) | (static_cast<unsigned char>(out[k]) & 0x3F);
    ASSERT_EQ(back, static_cast<std::uint32_t>(cp));
  }
}

TEST(Utf8, Quoted) {
  EXPECT_EQ(quote_text("a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(quote_text(std::string("\0\r\n\x7f", 4)), "\"\\x00\\x0d\\x0a\\x7f\"");
  EXPECT_EQ(quote_text("\xc3\xa9\xff\xc3"), "\"\xc3\xa9\\xff\\xc3\"");
  EXPECT_EQ(quote_text("abcdef", 3), "\"abc...\"");
  EXPECT_EQ(quote_text("ab\xe2\x82\xac", 3), "\"ab...\"");  // a character is never shown in part
  EXPECT_EQ(quote_text("ab\xe2\x82\xac", 5), "\"ab\xe2\x82\xac\"");
  expect_error([] { require_utf8("x\xfe", "f.csv:2: column 'y'", "label"); }, error_kind::data,
               "f.csv:2: column 'y': label \"x\\xfe\" is not valid UTF-8 (byte \\xfe at offset 1); "
               "assay reads text as UTF-8");
  require_utf8("fine", "w", "label");
}

}  // namespace
}  // namespace assay::io::test
