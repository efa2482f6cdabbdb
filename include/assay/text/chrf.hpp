// assay: chrF and chrF++ (Popović 2015, 2017) as sacreBLEU 2 computes them.
#pragma once

#include <string>
#include <vector>

namespace assay::text {

struct chrf_options {
  int char_order = 6;
  int word_order = 0;  ///< 2 gives chrF++
  double beta = 2;
  bool whitespace = false;     ///< keep spaces inside character n-grams
  bool eps_smoothing = false;  ///< chrF++.py style: average F over all orders, 1e-16 for empty ones
};

/// Per order (characters 1..char_order, then words 1..word_order): hypothesis n-grams (counted only
/// when the reference has n-grams of that order), reference n-grams, matches.
struct chrf_stats {
  std::vector<double> v;  ///< 3 per order
  chrf_stats& operator+=(const chrf_stats& o);
};

/// The statistics of one hypothesis against the best of its references (the reference giving the
/// highest sentence chrF, the first on ties). Character n-grams are taken over code points after
/// removing white space; words are split on white space and a leading or trailing ASCII punctuation
/// mark is cut off words longer than one character (trailing first).
chrf_stats chrf_segment_stats(const std::string& hyp, const std::vector<std::string>& refs, const chrf_options& o);

/// chrF (0..100) from statistics: per order P = matches/hyp, R = matches/ref; P and R are averaged
/// over the orders where both hypothesis and reference have n-grams, and
/// chrF = 100 (1 + beta^2) P R / (beta^2 P + R) (0 when P + R = 0).
double chrf_from_stats(const chrf_stats& s, const chrf_options& o);

/// Corpus chrF: statistics summed over segments.
double corpus_chrf(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                   const chrf_options& o);
/// One chrF per segment.
std::vector<double> sentence_chrf(const std::vector<std::string>& hyps,
                                  const std::vector<std::vector<std::string>>& refs, const chrf_options& o);

/// e.g. "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:assay-0.1.0".
std::string chrf_signature(std::size_t nrefs, const chrf_options& o);

}  // namespace assay::text
