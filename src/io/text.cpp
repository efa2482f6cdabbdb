// UTF-8 validation and quoting for messages; see include/assay/io/text.hpp.
#include "assay/io/text.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "assay/error.hpp"

namespace assay::io {

namespace {

// The length of the well-formed UTF-8 sequence starting at s[i], or 0 if none starts there
// (the Unicode Standard, table 3-7).
std::size_t sequence_length(std::string_view s, std::size_t i) noexcept {
  const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = at(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC) n = 3;
  else if (c == 0xED) n = 3, hi = 0x9F;  // no surrogates
  else if (c >= 0xEE && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;  // nothing above U+10FFFF
  else return 0;
  if (i + n > s.size()) return 0;
  if (at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
  }
  return n;
}

}  // namespace

std::size_t utf8_valid_prefix(std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size()) {
    // ASCII eight bytes at a time: the common label or column name is plain ASCII.
    while (i + 8 <= s.size()) {
      std::uint64_t w = 0;
      for (std::size_t k = 0; k < 8; ++k) w |= std::uint64_t{static_cast<unsigned char>(s[i + k])} << (8 * k);
      if ((w & 0x8080808080808080ull) != 0) break;
      i += 8;
    }
    if (i >= s.size()) break;
    const std::size_t n = sequence_length(s, i);
    if (n == 0) return i;
    i += n;
  }
  return s.size();
}

std::string quote_text(std::string_view s, std::size_t max_bytes) {
  std::string out = "\"";
  std::size_t i = 0;
  while (i < s.size() && i < max_bytes) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"') {
      out += "\\\"";
      ++i;
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else if (const std::size_t n = sequence_length(s, i); n > 0 && i + n <= max_bytes) {
      out.append(s.data() + i, n);
      i += n;
    } else if (n > 0) {
      break;  // a character cut by the limit is not shown in part
    } else {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    }
  }
  if (i < s.size()) out += "...";
  return out + "\"";
}

void require_utf8(std::string_view s, std::string_view where, std::string_view what) {
  const std::size_t k = utf8_valid_prefix(s);
  if (k == s.size()) return;
  throw_data(fmt::format("{}: {} {} is not valid UTF-8 (byte \\x{:02x} at offset {}); assay reads text as UTF-8",
                         where, what, quote_text(s), static_cast<unsigned char>(s[k]), k));
}

}  // namespace assay::io
