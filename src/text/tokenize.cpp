// UTF-8, Python white space and sacreBLEU tokenizers; see include/assay/text/tokenize.hpp.
#include "assay/text/tokenize.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <cstring>
#include <fstream>
#include <sstream>

#include "assay/error.hpp"
#include "assay/io/text.hpp"
#include "unicode_categories.hpp"

namespace assay::text {

namespace {

// Decodes one code point at s[i] (valid UTF-8 assumed); advances i.
char32_t next_cp(std::string_view s, std::size_t& i) noexcept {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    ++i;
    return c;
  }
  int n = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
  char32_t cp = c & (0x3F >> n);
  ++i;
  for (; n > 0 && i < s.size(); --n, ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
  return cp;
}

}  // namespace

std::size_t find_invalid_utf8(std::string_view s) noexcept {
  const std::size_t k = io::utf8_valid_prefix(s);  // the one UTF-8 check (assay/io/text.hpp)
  return k == s.size() ? std::string::npos : k;
}

std::u32string decode_utf8(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) out.push_back(next_cp(s, i));
  return out;
}

bool is_python_space(char32_t c) noexcept {
  if (c < 0x80) return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

std::vector<std::string_view> split_whitespace(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0, start = std::string::npos;
  while (i < s.size()) {
    const std::size_t at = i;
    const auto b = static_cast<unsigned char>(s[i]);
    bool space;
    if (b < 0x80) {  // ASCII: the common case, without decoding
      ++i;
      space = (b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x20);
    } else {
      space = is_python_space(next_cp(s, i));
    }
    if (space) {
      if (start != std::string::npos) out.push_back(s.substr(start, at - start));
      start = std::string::npos;
    } else if (start == std::string::npos) {
      start = at;
    }
  }
  if (start != std::string::npos) out.push_back(s.substr(start));
  return out;
}

std::string_view rstrip(std::string_view s) noexcept {
  std::size_t end = 0, i = 0;
  while (i < s.size()) {
    const char32_t c = next_cp(s, i);
    if (!is_python_space(c)) end = i;
  }
  return s.substr(0, end);
}

namespace {

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  if (s.find(from) == std::string::npos) return;
  std::string out;
  out.reserve(s.size());
  std::size_t pos = 0;
  while (true) {
    const std::size_t hit = s.find(from, pos);
    if (hit == std::string::npos) break;
    out.append(s, pos, hit - pos);
    out.append(to);
    pos = hit + from.size();
  }
  out.append(s, pos, std::string::npos);
  s.swap(out);
}

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
bool is_period_comma(char c) noexcept { return c == '.' || c == ','; }
// The character class of the first 13a rule: {-~, [-`, space-&, (-+, :-@, /.
bool is_13a_symbol(char c) noexcept {
  return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= ' ' && c <= '&') || (c >= '(' && c <= '+') ||
         (c >= ':' && c <= '@') || c == '/';
}

// A left-to-right pass of non-overlapping matches of a two-character pattern (a)(b). Working on
// bytes is the same as Python working on code points here: the classes that can match a non-ASCII
// code point are "not a digit", and a match that would start or end inside a multi-byte character
// in bytes ends on it in code points, with the same output.
template <class A, class B, class Emit>
void pass2(const std::string& s, std::string& out, A a, B b, Emit emit) {
  out.clear();
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 1 < s.size() && a(s[i]) && b(s[i + 1])) {
      emit(out, s[i], s[i + 1]);
      i += 2;
    } else {
      out.push_back(s[i]);
      ++i;
    }
  }
}

std::string join_words(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (auto w : split_whitespace(s)) {
    if (!out.empty()) out.push_back(' ');
    out.append(w);
  }
  return out;
}

}  // namespace

namespace {

// tokenize_13a before the final join: the same tokens under split_whitespace().
std::string tokenize_13a_unjoined(std::string_view line_in) {
  std::string line(line_in);
  replace_all(line, "<skipped>", "");
  replace_all(line, "-\n", "");
  replace_all(line, "\n", " ");
  if (line.find('&') != std::string::npos) {
    replace_all(line, "&quot;", "\"");
    replace_all(line, "&amp;", "&");
    replace_all(line, "&lt;", "<");
    replace_all(line, "&gt;", ">");
  }
  thread_local std::string s, t;
  s.clear();
  s.push_back(' ');
  for (char c : line) {
    if (is_13a_symbol(c)) {
      s.push_back(' ');
      s.push_back(c);
      s.push_back(' ');
    } else {
      s.push_back(c);
    }
  }
  s.push_back(' ');
  // period and comma unless preceded by a digit: ([^0-9])([\.,]) -> "\1 \2 "
  pass2(
      s, t, [](char c) { return !is_digit(c); }, is_period_comma,
      [](std::string& o, char x, char y) {
        o.push_back(x);
        o.push_back(' ');
        o.push_back(y);
        o.push_back(' ');
      });
  // period and comma unless followed by a digit: ([\.,])([^0-9]) -> " \1 \2"
  pass2(
      t, s, is_period_comma, [](char c) { return !is_digit(c); },
      [](std::string& o, char x, char y) {
        o.push_back(' ');
        o.push_back(x);
        o.push_back(' ');
        o.push_back(y);
      });
  // dash preceded by a digit: ([0-9])(-) -> "\1 \2 "
  pass2(
      s, t, is_digit, [](char c) { return c == '-'; },
      [](std::string& o, char x, char y) {
        o.push_back(x);
        o.push_back(' ');
        o.push_back(y);
        o.push_back(' ');
      });
  return t;
}

}  // namespace

std::string tokenize_13a(std::string_view line) { return join_words(tokenize_13a_unjoined(line)); }

namespace {

template <std::size_t N>
bool in_ranges(const detail::code_point_range (&r)[N], char32_t c) noexcept {
  const auto* it = std::upper_bound(std::begin(r), std::end(r), c,
                                    [](char32_t x, const detail::code_point_range& e) { return x < e.lo; });
  return it != std::begin(r) && c <= (it - 1)->hi;
}

bool is_punct(char32_t c) noexcept { return in_ranges(detail::punctuation_ranges, c); }
bool is_symbol(char32_t c) noexcept { return in_ranges(detail::symbol_ranges, c); }
bool is_number(char32_t c) noexcept { return in_ranges(detail::number_ranges, c); }

// One pass of (a)(b) -> emit over code points, non-overlapping, left to right.
template <class A, class B, class Emit>
void pass2_cp(const std::u32string& s, std::u32string& out, A a, B b, Emit emit) {
  out.clear();
  for (std::size_t i = 0; i < s.size();) {
    if (i + 1 < s.size() && a(s[i]) && b(s[i + 1])) {
      emit(out, s[i], s[i + 1]);
      i += 2;
    } else {
      out.push_back(s[i++]);
    }
  }
}

}  // namespace

namespace {

// tokenize_intl before the final join.
std::string tokenize_intl_unjoined(std::string_view line) {
  std::u32string s = decode_utf8(line), t;
  auto not_number = [](char32_t c) { return !is_number(c); };
  pass2_cp(s, t, not_number, is_punct, [](std::u32string& o, char32_t x, char32_t y) {
    o.push_back(x);
    o.push_back(U' ');
    o.push_back(y);
    o.push_back(U' ');
  });
  pass2_cp(t, s, is_punct, not_number, [](std::u32string& o, char32_t x, char32_t y) {
    o.push_back(U' ');
    o.push_back(x);
    o.push_back(U' ');
    o.push_back(y);
  });
  std::string out;
  out.reserve(s.size() + 8);
  for (char32_t c : s) {
    if (is_symbol(c)) {
      out.push_back(' ');
      io::append_utf8(out, c);
      out.push_back(' ');
    } else {
      io::append_utf8(out, c);
    }
  }
  return out;
}

}  // namespace

std::string tokenize_intl(std::string_view line) { return join_words(tokenize_intl_unjoined(line)); }

const char* unicode_version() noexcept { return detail::unicode_tables_version; }

std::string tokenize(std::string_view line, tokenizer how) {
  if (how == tokenizer::v13a) return tokenize_13a_unjoined(line);
  if (how == tokenizer::intl) return tokenize_intl_unjoined(line);
  return std::string(line);
}

const char* tokenizer_name(tokenizer how) noexcept {
  return how == tokenizer::v13a ? "13a" : how == tokenizer::intl ? "intl" : "none";
}

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw_io(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) throw_io(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  const std::string all = ss.str();
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < all.size()) {
    std::size_t end = all.find('\n', pos);
    if (end == std::string::npos) end = all.size();
    std::string_view line(all.data() + pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    io::require_utf8(line, fmt::format("{}:{}", path, lines.size() + 1), "line");
    lines.emplace_back(line);
    pos = end + 1;
  }
  return lines;
}

}  // namespace assay::text
