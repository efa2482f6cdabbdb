// assay: UTF-8 text, Python-compatible white space and the tokenizers of sacreBLEU.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace assay::text {

/// Returns the byte offset of the first invalid UTF-8 sequence in `s` (overlong forms, surrogates,
/// code points above U+10FFFF and truncated sequences are invalid), or std::string::npos.
[[nodiscard]] std::size_t find_invalid_utf8(std::string_view s) noexcept;

/// Decodes valid UTF-8 to code points.
[[nodiscard]] std::u32string decode_utf8(std::string_view s);

/// True for the code points Python's str.isspace() accepts (U+0009-000D, U+001C-0020, U+0085,
/// U+00A0, U+1680, U+2000-200A, U+2028, U+2029, U+202F, U+205F, U+3000): the separators of
/// str.split(), which sacreBLEU uses to cut tokens.
[[nodiscard]] bool is_python_space(char32_t c) noexcept;

/// str.split() with no argument on valid UTF-8: the maximal runs of non-space code points.
[[nodiscard]] std::vector<std::string_view> split_whitespace(std::string_view s);

/// str.rstrip(): `s` without trailing white space.
[[nodiscard]] std::string_view rstrip(std::string_view s) noexcept;

enum class tokenizer {
  none,  ///< no tokenisation: tokens are the white-space separated words
  v13a,  ///< mteval-v13a.pl, sacreBLEU's default "13a"
  intl,  ///< mteval-v14.pl's international tokenisation, sacreBLEU's "intl"
};

/// sacreBLEU's tokenizer "13a" (Tokenizer13a): removes "<skipped>", joins "-\n", turns newlines into
/// spaces, unescapes &quot; &amp; &lt; &gt;, then splits off the ASCII symbols { | } ~ [ \ ] ^ _ `
/// ! " # $ % & ( ) * + : ; < = > ? @ /, a period or comma unless preceded by a digit, a period or
/// comma unless followed by a digit, and a dash preceded by a digit (each rule a left-to-right pass
/// of non-overlapping matches, like Python's re.sub), and joins the words with single spaces.
/// Reference: sacrebleu/tokenizers/tokenizer_13a.py and tokenizer_re.py (Post, 2018).
[[nodiscard]] std::string tokenize_13a(std::string_view line);

/// sacreBLEU's tokenizer "intl" (TokenizerV14International, sacreBLEU 2.x): three left-to-right passes
/// of non-overlapping matches over code points, as Python's regex.sub does,
///   (\P{N})(\p{P}) -> "\1 \2 "   punctuation preceded by a non-number,
///   (\p{P})(\P{N}) -> " \1 \2"   punctuation followed by a non-number,
///   (\p{S})        -> " \1 "     every symbol,
/// then words joined by single spaces. P, S, N are the Unicode general categories P*, S*, N*
/// (src/text/unicode_categories.hpp, generated from Python's unicodedata; version in
/// unicode_version()). No HTML entities are unescaped (sacreBLEU >= 2.0; see docs/definitions/text.md).
/// A number followed by a final period keeps it ("in 2019." gives "in", "2019."), as sacreBLEU documents.
/// Reference: sacrebleu/tokenizers/tokenizer_intl.py; mteval-v14.pl (NIST).
[[nodiscard]] std::string tokenize_intl(std::string_view line);

/// The Unicode version of the category tables behind tokenize_intl, e.g. "14.0.0".
[[nodiscard]] const char* unicode_version() noexcept;

/// Applies `how` and returns the text whose split_whitespace() gives the tokens (not joined: words
/// may be separated by several spaces; tokenize_13a and tokenize_intl give the joined form).
[[nodiscard]] std::string tokenize(std::string_view line, tokenizer how);

/// The name used in signatures: "13a", "intl" or "none".
[[nodiscard]] const char* tokenizer_name(tokenizer how) noexcept;

/// Reads a text file as lines (LF or CRLF ends; a final line end does not start an empty line),
/// checking UTF-8. Throws assay::error naming file, line and byte for invalid UTF-8.
[[nodiscard]] std::vector<std::string> read_lines(const std::string& path);

}  // namespace assay::text
