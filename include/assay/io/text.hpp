// assay: the one rule for text that assay keeps from its inputs, and how bytes are shown in messages.
//
// assay reads and writes UTF-8 (RFC 3629). Every piece of text kept from an input and echoed in an
// output -- the name of a column that is read, each distinct label, every command-line argument --
// must be well-formed UTF-8: no overlong forms, no surrogates (U+D800..U+DFFF), nothing above
// U+10FFFF (the Unicode Standard, table 3-7 "Well-Formed UTF-8 Byte Sequences"). Text that breaks it
// is refused where it is read, with its file, line and column, and its bytes shown as \xNN; it is
// never carried on to be written, so the text, JSON, HTML and SVG writers only ever see valid UTF-8.
// Fields assay does not keep (columns it does not read, numbers) are not checked.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace assay::io {

/// The length of the longest prefix of `s` that is well-formed UTF-8: `s.size()` when all of it is.
[[nodiscard]] std::size_t utf8_valid_prefix(std::string_view s) noexcept;

/// Appends the UTF-8 encoding of the code point `c` (at most 0x10FFFF) to `out`.
inline void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

/// Whether all of `s` is well-formed UTF-8.
[[nodiscard]] inline bool is_utf8(std::string_view s) noexcept { return utf8_valid_prefix(s) == s.size(); }

/// `s` in double quotes for a message: a quote as \", control bytes (below 0x20, and 0x7f) and every
/// byte that is not part of a well-formed UTF-8 sequence as \xNN (two lower-case hex digits); valid
/// multi-byte characters as they are. At most `max_bytes` bytes of `s` are shown, then "...".
[[nodiscard]] std::string quote_text(std::string_view s, std::size_t max_bytes = 40);

/// Throws assay::error (error_kind::data) unless `s` is well-formed UTF-8. The message is
/// `<where>: <what> <quote_text(s)> is not valid UTF-8 (byte \xNN at offset k); assay reads text as UTF-8`.
void require_utf8(std::string_view s, std::string_view where, std::string_view what);

}  // namespace assay::io
