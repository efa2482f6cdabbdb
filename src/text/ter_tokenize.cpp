// TER's tokenizer (sacreBLEU's TercomTokenizer); see include/assay/text/ter.hpp.
//
// sacreBLEU applies a series of regular-expression substitutions (tokenizers/tokenizer_ter.py,
// after Tercom's Normalizer.java); each one here is the same left-to-right pass of non-overlapping
// matches, written over code points.
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "assay/text/ter.hpp"
#include "assay/io/text.hpp"
#include "assay/text/tokenize.hpp"
#include "ter_internal.hpp"
#include "unicode_lower.hpp"

namespace assay::text {

namespace {

bool in_ranges(char32_t c, const detail::lower_pair* b, const detail::lower_pair* e) {
  const auto* it = std::upper_bound(b, e, c, [](char32_t x, const detail::lower_pair& r) { return x < r.from; });
  return it != b && c <= std::prev(it)->to;
}

bool case_ignorable(char32_t c) {
  return in_ranges(c, std::begin(detail::case_ignorable_ranges), std::end(detail::case_ignorable_ranges));
}
bool cased(char32_t c) { return in_ranges(c, std::begin(detail::cased_ranges), std::end(detail::cased_ranges)); }

// Python's str.lower(): the full lower-case mapping, with capital sigma becoming final sigma at the
// end of a word (Unicode's Final_Sigma condition, read on the original text as CPython does).
std::u32string lower(const std::u32string& s) {
  std::u32string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char32_t c = s[i];
    if (c < 0x80) {
      out.push_back(c >= 'A' && c <= 'Z' ? c + 32 : c);
      continue;
    }
    if (c == 0x3A3) {
      std::size_t j = i;
      while (j > 0 && case_ignorable(s[j - 1])) --j;
      bool final_sigma = j > 0 && cased(s[j - 1]);
      if (final_sigma) {
        std::size_t k = i + 1;
        while (k < s.size() && case_ignorable(s[k])) ++k;
        final_sigma = k == s.size() || !cased(s[k]);
      }
      out.push_back(final_sigma ? 0x3C2 : 0x3C3);
      continue;
    }
    bool done = false;
    for (const auto& m : detail::lower_multiple)
      if (m.from == c) {
        for (char32_t t : m.to)
          if (t != 0) out.push_back(t);
        done = true;
      }
    if (done) continue;
    const auto* b = std::begin(detail::lower_single);
    const auto* e = std::end(detail::lower_single);
    const auto* it = std::lower_bound(b, e, c, [](const detail::lower_pair& p, char32_t x) { return p.from < x; });
    out.push_back(it != e && it->from == c ? it->to : c);
  }
  return out;
}

void replace_all(std::u32string& s, const std::u32string& from, const std::u32string& to) {
  std::u32string out;
  std::size_t i = 0;
  while (true) {
    const std::size_t at = s.find(from, i);
    if (at == std::u32string::npos) break;
    out.append(s, i, at - i);
    out += to;
    i = at + from.size();
  }
  out.append(s, i, std::u32string::npos);
  s.swap(out);
}

bool ascii_digit(char32_t c) { return c >= '0' && c <= '9'; }

// One pass of re.sub("(A)(B)", ...) over code points: where c = s[i] matches `first` and s[i + 1]
// matches `second`, writes `emit(c, d)` and moves past both; otherwise copies c.
template <class First, class Second, class Emit>
void pair_pass(std::u32string& s, First first, Second second, Emit emit) {
  std::u32string out;
  out.reserve(s.size() + 8);
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 1 < s.size() && first(s[i]) && second(s[i + 1])) {
      emit(out, s[i], s[i + 1]);
      i += 2;
    } else {
      out.push_back(s[i++]);
    }
  }
  s.swap(out);
}

// The ASCII characters Tercom's Western rules surround with spaces: the class
// [{-~[-` -&(-+:-@/] of tokenizer_ter.py.
bool western_symbol(char32_t c) {
  return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
         (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == '/';
}

bool asian_punct(char32_t c) {
  return c == 0x3001 || c == 0x3002 || (c >= 0x3008 && c <= 0x3011) || (c >= 0x3014 && c <= 0x301F) ||
         (c >= 0xFF61 && c <= 0xFF65) || c == 0x30FB;
}

bool full_width_punct(char32_t c) {
  switch (c) {
    case 0xFF0E: case 0xFF0C: case 0xFF1F: case 0xFF1A: case 0xFF1B: case 0xFF01: case 0xFF02: case 0xFF08:
    case 0xFF09: return true;
    default: return false;
  }
}

// CJK ideographs, strokes, radicals, compatibility forms and enclosed letters: split to single
// characters by the Asian normalisation. (Its Hiragana/Katakana rules are anchored at the start of
// the text, which the Western rules always make a space, so they never apply and are left out.)
bool cjk_split(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x31C0 && c <= 0x31EF) ||
         (c >= 0x2E80 && c <= 0x2EFF) || (c >= 0x3300 && c <= 0x33FF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0x3200 && c <= 0x3F22) || asian_punct(c) || full_width_punct(c);
}

template <class Pred>
void pad(std::u32string& s, Pred p) {
  std::u32string out;
  out.reserve(s.size() + 16);
  for (char32_t c : s) {
    if (p(c)) {
      out.push_back(' ');
      out.push_back(c);
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  s.swap(out);
}

template <class Pred>
void remove_if_(std::u32string& s, Pred p) {
  s.erase(std::remove_if(s.begin(), s.end(), p), s.end());
}

void normalize_western(std::u32string& s) {
  replace_all(s, U"\n-", U"");
  replace_all(s, U"\n", U" ");
  replace_all(s, U"&quot;", U"\"");
  replace_all(s, U"&amp;", U"&");
  replace_all(s, U"&lt;", U"<");
  replace_all(s, U"&gt;", U">");
  s = U" " + s + U" ";
  pad(s, western_symbol);
  // Possessives: "'s " becomes " 's ". (The second rule, "'s" at the very end, cannot match: the
  // text ends with the space added above.)
  replace_all(s, U"'s ", U" 's ");
  auto period_comma = [](char32_t c) { return c == '.' || c == ','; };
  auto not_digit = [](char32_t c) { return !ascii_digit(c); };
  pair_pass(s, not_digit, period_comma, [](std::u32string& o, char32_t a, char32_t b) {
    o.push_back(a), o.push_back(' '), o.push_back(b), o.push_back(' ');
  });
  pair_pass(s, period_comma, not_digit, [](std::u32string& o, char32_t a, char32_t b) {
    o.push_back(' '), o.push_back(a), o.push_back(' '), o.push_back(b);
  });
  pair_pass(s, ascii_digit, [](char32_t c) { return c == '-'; }, [](std::u32string& o, char32_t a, char32_t b) {
    o.push_back(a), o.push_back(' '), o.push_back(b), o.push_back(' ');
  });
}

bool plain_ascii(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

}  // namespace

namespace detail {

std::string ter_normalize(std::string_view line, const ter_options& o) {
  line = rstrip(line);
  if (!o.normalized && !o.no_punct && plain_ascii(line)) {  // the common case, without decoding
    std::string out(line);
    if (!o.case_sensitive)
      for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    return out;
  }
  std::u32string s = decode_utf8(line);
  if (!o.case_sensitive) s = lower(s);
  if (o.normalized) {
    normalize_western(s);
    if (o.asian_support) pad(s, cjk_split);
  }
  if (o.no_punct) {
    remove_if_(s, [](char32_t c) {
      return c == '.' || c == ',' || c == '?' || c == ':' || c == ';' || c == '!' || c == '"' || c == '(' || c == ')';
    });
    if (o.asian_support) remove_if_(s, [](char32_t c) { return asian_punct(c) || full_width_punct(c); });
  }
  std::string out;
  out.reserve(s.size());
  for (char32_t c : s) io::append_utf8(out, c);
  return out;
}

}  // namespace detail

std::vector<std::string> ter_tokenize(const std::string& line, const ter_options& o) {
  const std::string norm = detail::ter_normalize(line, o);
  std::vector<std::string> out;
  for (auto w : split_whitespace(norm)) out.emplace_back(w);
  return out;
}

}  // namespace assay::text
