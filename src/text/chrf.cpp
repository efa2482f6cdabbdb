// chrF / chrF++ as sacreBLEU 2 computes them; see include/assay/text/chrf.hpp.
#include "assay/text/chrf.hpp"

#include <fmt/format.h>

#include <cstring>

#include "assay/error.hpp"
#include "assay/text/tokenize.hpp"
#include "counts.hpp"

namespace assay::text {

chrf_stats& chrf_stats::operator+=(const chrf_stats& o) {
  if (v.empty()) v.assign(o.v.size(), 0.0);
  for (std::size_t i = 0; i < v.size() && i < o.v.size(); ++i) v[i] += o.v[i];
  return *this;
}

namespace {

using grams = detail::counts<detail::key>;

struct prepared {
  std::vector<std::string_view> words;  // views into the segment's text
  std::vector<grams> c;
};

bool is_ascii_punct(char ch) { return ch != 0 && std::strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", ch) != nullptr; }

std::size_t cp_count(std::string_view s) {
  std::size_t n = 0;
  for (char ch : s) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return n;
}

void prepare(const std::string& line, const chrf_options& o, prepared& p) {
  std::u32string chars;
  if (o.whitespace) {
    chars = decode_utf8(line);
  } else {
    std::string joined;
    for (auto w : split_whitespace(line)) joined.append(w);
    chars = decode_utf8(joined);
  }
  p.c.clear();
  for (int n = 1; n <= o.char_order; ++n) p.c.push_back(detail::char_ngrams(chars, static_cast<std::size_t>(n)));
  p.words.clear();
  if (o.word_order > 0) {
    // sacreBLEU's _remove_punctuation: split a trailing, else a leading, punctuation mark off words.
    auto& words = p.words;
    for (auto w : split_whitespace(line)) {
      if (cp_count(w) == 1) words.push_back(w);
      else if (is_ascii_punct(w.back())) {
        words.push_back(w.substr(0, w.size() - 1));
        words.push_back(w.substr(w.size() - 1));
      } else if (is_ascii_punct(w.front())) {
        words.push_back(w.substr(0, 1));
        words.push_back(w.substr(1));
      } else {
        words.push_back(w);
      }
    }
  }
}

template <class K>
void add_match(std::vector<double>& v, const detail::counts<K>& h, const detail::counts<K>& r) {
  const long hyp = detail::total(h), ref = detail::total(r);
  v.push_back(ref > 0 ? static_cast<double>(hyp) : 0.0);
  v.push_back(static_cast<double>(ref));
  v.push_back(static_cast<double>(detail::clipped_matches(h, r)));
}

void check(const chrf_options& o) {
  if (o.char_order < 0 || o.char_order > 6 || o.word_order < 0 || o.word_order > 4 || o.char_order + o.word_order == 0)
    throw_usage(fmt::format("chrF: character order must be 0..6 and word order 0..4, not both 0 (got {} and {})",
                            o.char_order, o.word_order));
  if (!(o.beta > 0)) throw_usage(fmt::format("chrF: beta must be > 0, got {}", o.beta));
}

}  // namespace

double chrf_from_stats(const chrf_stats& s, const chrf_options& o) {
  const double eps = 1e-16;
  const double factor = o.beta * o.beta;
  const std::size_t order = s.v.size() / 3;
  double score = 0, avg_p = 0, avg_r = 0;
  int eff = 0;
  for (std::size_t i = 0; i < order; ++i) {
    const double hyp = s.v[3 * i], ref = s.v[3 * i + 1], match = s.v[3 * i + 2];
    const double p = hyp > 0 ? match / hyp : eps;
    const double r = ref > 0 ? match / ref : eps;
    const double denom = factor * p + r;
    score += denom > 0 ? (1 + factor) * p * r / denom : eps;
    if (hyp > 0 && ref > 0) {
      avg_p += p;
      avg_r += r;
      ++eff;
    }
  }
  if (o.eps_smoothing) return 100 * score / static_cast<double>(order);
  if (eff == 0) {
    avg_p = avg_r = 0;
  } else {
    avg_p /= eff;
    avg_r /= eff;
  }
  if (avg_p + avg_r != 0) {
    double f = (1 + factor) * avg_p * avg_r;
    f /= (factor * avg_p) + avg_r;
    return 100 * f;
  }
  return 0.0;
}

chrf_stats chrf_segment_stats(const std::string& hyp, const std::vector<std::string>& refs, const chrf_options& o) {
  check(o);
  prepared h;
  prepare(hyp, o, h);
  chrf_stats best;
  double best_f = -1.0;
  prepared r;
  for (const auto& ref : refs) {  // an empty reference counts too (its F is 0), as in sacreBLEU 2.6
    prepare(ref, o, r);
    chrf_stats s;
    for (std::size_t n = 0; n < h.c.size(); ++n) add_match(s.v, h.c[n], r.c[n]);
    if (o.word_order > 0) {
      const auto ids = detail::intern({&h.words, &r.words});
      for (std::size_t n = 1; n <= static_cast<std::size_t>(o.word_order); ++n)
        add_match(s.v, detail::id_ngrams(ids[0], n), detail::id_ngrams(ids[1], n));
    }
    const double f = chrf_from_stats(s, o);
    if (f > best_f) {
      best_f = f;
      best = std::move(s);
    }
  }
  return best;
}

namespace {
void check_refs(std::size_t n, const std::vector<std::vector<std::string>>& refs) {
  if (refs.empty()) throw_usage("chrF: no reference given");
  for (std::size_t j = 0; j < refs.size(); ++j)
    if (refs[j].size() != n)
      throw_data(fmt::format("reference stream {} has {} lines but the hypothesis has {}", j + 1, refs[j].size(), n));
}
}  // namespace

double corpus_chrf(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                   const chrf_options& o) {
  check_refs(hyps.size(), refs);
  chrf_stats total;
  total.v.assign(3 * static_cast<std::size_t>(o.char_order + o.word_order), 0.0);
  std::vector<std::string> seg(refs.size());
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    for (std::size_t j = 0; j < refs.size(); ++j) seg[j] = refs[j][i];
    try {
      total += chrf_segment_stats(hyps[i], seg, o);
    } catch (const assay::error& e) {
      throw assay::error(e.kind(), fmt::format("line {}: {}", i + 1, e.marked()));
    }
  }
  return chrf_from_stats(total, o);
}

std::vector<double> sentence_chrf(const std::vector<std::string>& hyps,
                                  const std::vector<std::vector<std::string>>& refs, const chrf_options& o) {
  check_refs(hyps.size(), refs);
  std::vector<double> out;
  std::vector<std::string> seg(refs.size());
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    for (std::size_t j = 0; j < refs.size(); ++j) seg[j] = refs[j][i];
    try {
      out.push_back(chrf_from_stats(chrf_segment_stats(hyps[i], seg, o), o));
    } catch (const assay::error& e) {
      throw assay::error(e.kind(), fmt::format("line {}: {}", i + 1, e.marked()));
    }
  }
  return out;
}

std::string chrf_signature(std::size_t nrefs, const chrf_options& o) {
  return fmt::format("nrefs:{}|case:mixed|eff:{}|nc:{}|nw:{}|space:{}|version:assay-{}", nrefs,
                     o.eps_smoothing ? "no" : "yes", o.char_order, o.word_order, o.whitespace ? "yes" : "no",
                     ASSAY_VERSION);
}

}  // namespace assay::text
