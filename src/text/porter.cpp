// The Porter stemmer with NLTK's extensions; see include/assay/text/porter.hpp.
// Written from Porter (1980) and the description of the NLTK_EXTENSIONS mode in NLTK's documentation;
// tests/text/generate_rouge.py checks it against nltk's PorterStemmer on a large word list.
#include "assay/text/porter.hpp"

#include <array>
#include <cstddef>

namespace assay::text {

namespace {

bool is_aeiou(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

// Whether s[i] is a consonant: not a, e, i, o, u, and not a y following a consonant.
bool consonant_at(std::string_view s, std::size_t i) {
  bool cons = true;
  for (std::size_t k = 0; k <= i; ++k) {
    const char c = s[k];
    if (is_aeiou(c)) cons = false;
    else if (c == 'y') cons = k == 0 ? true : !cons;
    else cons = true;
  }
  return cons;
}

// m: the number of times a vowel is followed by a consonant.
int measure(std::string_view s) {
  int m = 0;
  bool prev_cons = true, cons = true;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const char c = s[k];
    if (is_aeiou(c)) cons = false;
    else if (c == 'y') cons = k == 0 ? true : !prev_cons;
    else cons = true;
    if (k > 0 && cons && !prev_cons) ++m;
    prev_cons = cons;
  }
  return m;
}

bool has_vowel(std::string_view s) {
  for (std::size_t k = 0; k < s.size(); ++k)
    if (!consonant_at(s, k)) return true;
  return false;
}

// *d: ends with two equal consonants.
bool ends_double(std::string_view s) {
  const std::size_t n = s.size();
  return n >= 2 && s[n - 1] == s[n - 2] && consonant_at(s, n - 1);
}

// *o: ends consonant-vowel-consonant with the last not w, x or y; or (NLTK) is vowel-consonant.
bool ends_cvc(std::string_view s) {
  const std::size_t n = s.size();
  if (n >= 3 && consonant_at(s, n - 3) && !consonant_at(s, n - 2) && consonant_at(s, n - 1))
    return s[n - 1] != 'w' && s[n - 1] != 'x' && s[n - 1] != 'y';
  return n == 2 && !consonant_at(s, 0) && consonant_at(s, 1);
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

enum class cond { m_gt_0, m_gt_1, ion, logi };

struct rule {
  std::string_view suffix, replacement;
  cond c;
};

bool holds(cond c, std::string_view stem, std::string_view word) {
  switch (c) {
    case cond::m_gt_0: return measure(stem) > 0;
    case cond::m_gt_1: return measure(stem) > 1;
    case cond::ion: return measure(stem) > 1 && !stem.empty() && (stem.back() == 's' || stem.back() == 't');
    case cond::logi: return measure(word.substr(0, word.size() - 3)) > 0;  // the stem keeps the l of logi
  }
  return false;
}

// The first rule whose suffix ends the word decides: replaced if its condition holds, else unchanged.
template <std::size_t N>
void apply_first(std::string& w, const std::array<rule, N>& rules) {
  for (const auto& r : rules) {
    if (!ends_with(w, r.suffix)) continue;
    const std::string_view stem = std::string_view(w).substr(0, w.size() - r.suffix.size());
    if (holds(r.c, stem, w)) w = std::string(stem) + std::string(r.replacement);
    return;
  }
}

void step1a(std::string& w) {
  if (w.size() == 4 && ends_with(w, "ies")) {
    w.pop_back();  // ties -> tie
    return;
  }
  if (ends_with(w, "sses") || ends_with(w, "ies")) w.erase(w.size() - 2);
  else if (ends_with(w, "ss")) return;
  else if (ends_with(w, "s")) w.pop_back();
}

void step1b(std::string& w) {
  if (ends_with(w, "ied")) {
    w.erase(w.size() - (w.size() == 4 ? 1 : 2));  // died -> die, spied -> spi
    return;
  }
  if (ends_with(w, "eed")) {
    if (measure(std::string_view(w).substr(0, w.size() - 3)) > 0) w.pop_back();
    return;
  }
  std::size_t cut = 0;
  if (ends_with(w, "ed") && has_vowel(std::string_view(w).substr(0, w.size() - 2))) cut = 2;
  else if (ends_with(w, "ing") && has_vowel(std::string_view(w).substr(0, w.size() - 3))) cut = 3;
  if (cut == 0) return;
  w.erase(w.size() - cut);
  if (ends_with(w, "at") || ends_with(w, "bl") || ends_with(w, "iz")) {
    w += 'e';
  } else if (ends_double(w)) {
    const char last = w.back();
    if (last != 'l' && last != 's' && last != 'z') w.pop_back();
  } else if (measure(w) == 1 && ends_cvc(w)) {
    w += 'e';
  }
}

void step1c(std::string& w) {
  if (w.size() >= 3 && w.back() == 'y' && consonant_at(w, w.size() - 2)) w.back() = 'i';
}

void step2(std::string& w) {
  if (ends_with(w, "alli") && measure(std::string_view(w).substr(0, w.size() - 4)) > 0) {
    w.erase(w.size() - 2);  // alli -> al, then step 2 again
    step2(w);
    return;
  }
  static constexpr std::array<rule, 22> rules{{
      {"ational", "ate", cond::m_gt_0}, {"tional", "tion", cond::m_gt_0}, {"enci", "ence", cond::m_gt_0},
      {"anci", "ance", cond::m_gt_0},   {"izer", "ize", cond::m_gt_0},    {"bli", "ble", cond::m_gt_0},
      {"alli", "al", cond::m_gt_0},     {"entli", "ent", cond::m_gt_0},   {"eli", "e", cond::m_gt_0},
      {"ousli", "ous", cond::m_gt_0},   {"ization", "ize", cond::m_gt_0}, {"ation", "ate", cond::m_gt_0},
      {"ator", "ate", cond::m_gt_0},    {"alism", "al", cond::m_gt_0},    {"iveness", "ive", cond::m_gt_0},
      {"fulness", "ful", cond::m_gt_0}, {"ousness", "ous", cond::m_gt_0}, {"aliti", "al", cond::m_gt_0},
      {"iviti", "ive", cond::m_gt_0},   {"biliti", "ble", cond::m_gt_0},  {"fulli", "ful", cond::m_gt_0},
      {"logi", "log", cond::logi},
  }};
  apply_first(w, rules);
}

void step3(std::string& w) {
  static constexpr std::array<rule, 7> rules{{
      {"icate", "ic", cond::m_gt_0},
      {"ative", "", cond::m_gt_0},
      {"alize", "al", cond::m_gt_0},
      {"iciti", "ic", cond::m_gt_0},
      {"ical", "ic", cond::m_gt_0},
      {"ful", "", cond::m_gt_0},
      {"ness", "", cond::m_gt_0},
  }};
  apply_first(w, rules);
}

void step4(std::string& w) {
  static constexpr std::array<rule, 19> rules{{
      {"al", "", cond::m_gt_1},   {"ance", "", cond::m_gt_1}, {"ence", "", cond::m_gt_1}, {"er", "", cond::m_gt_1},
      {"ic", "", cond::m_gt_1},   {"able", "", cond::m_gt_1}, {"ible", "", cond::m_gt_1}, {"ant", "", cond::m_gt_1},
      {"ement", "", cond::m_gt_1}, {"ment", "", cond::m_gt_1}, {"ent", "", cond::m_gt_1}, {"ion", "", cond::ion},
      {"ou", "", cond::m_gt_1},   {"ism", "", cond::m_gt_1},  {"ate", "", cond::m_gt_1},  {"iti", "", cond::m_gt_1},
      {"ous", "", cond::m_gt_1},  {"ive", "", cond::m_gt_1},  {"ize", "", cond::m_gt_1},
  }};
  apply_first(w, rules);
}

void step5a(std::string& w) {
  if (!ends_with(w, "e")) return;
  const std::string_view stem = std::string_view(w).substr(0, w.size() - 1);
  const int m = measure(stem);
  if (m > 1 || (m == 1 && !ends_cvc(stem))) w.pop_back();
}

void step5b(std::string& w) {
  if (ends_with(w, "ll") && measure(std::string_view(w).substr(0, w.size() - 1)) > 1) w.pop_back();
}

// NLTK's table of irregular forms, looked up before any step.
std::string_view irregular(std::string_view w) {
  struct form {
    std::string_view word, stem;
  };
  static constexpr std::array<form, 16> forms{{
      {"sky", "sky"},         {"skies", "sky"},     {"dying", "die"},      {"lying", "lie"},
      {"tying", "tie"},       {"news", "news"},     {"innings", "inning"}, {"inning", "inning"},
      {"outings", "outing"},  {"outing", "outing"}, {"cannings", "canning"}, {"canning", "canning"},
      {"howe", "howe"},       {"proceed", "proceed"}, {"exceed", "exceed"}, {"succeed", "succeed"},
  }};
  for (const auto& f : forms)
    if (f.word == w) return f.stem;
  return {};
}

}  // namespace

std::string porter_stem(std::string_view word) {
  std::string w(word);
  for (char& c : w)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  if (const auto s = irregular(w); !s.empty()) return std::string(s);
  if (w.size() <= 2) return w;
  step1a(w);
  step1b(w);
  step1c(w);
  step2(w);
  step3(w);
  step4(w);
  step5a(w);
  step5b(w);
  return w;
}

}  // namespace assay::text
