// assay: exact n-gram precision and recall (the "Exact-P_n / Exact-R_n" of Zhang et al., BERTScore,
// ICLR 2020, section 2).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "assay/text/tokenize.hpp"
#include "assay/value.hpp"

namespace assay::text {

/// Counts behind Exact-P_n and Exact-R_n for n = 1..4.
struct ngram_counts {
  std::array<double, 4> hyp_hits{};   ///< candidate n-grams (with multiplicity) that occur in the reference
  std::array<double, 4> hyp_total{};  ///< candidate n-grams
  std::array<double, 4> ref_hits{};   ///< reference n-grams that occur in the candidate
  std::array<double, 4> ref_total{};  ///< reference n-grams
  ngram_counts& operator+=(const ngram_counts& o);
};

/// For candidate x^ and reference x with n-gram lists S^n(x^), S^n(x):
///   Exact-P_n = sum_{w in S^n(x^)} 1[w in S^n(x)] / |S^n(x^)|,
///   Exact-R_n = sum_{w in S^n(x)} 1[w in S^n(x^)] / |S^n(x)|.
/// Membership is not clipped (unlike BLEU). Tokens come from `tok` then white-space splitting.
ngram_counts ngram_segment(const std::string& hyp, const std::string& ref, tokenizer tok);

struct ngram_scores {
  std::array<value, 4> precision, recall;
};

/// Ratios of the counts; undefined when a side has no n-gram of that order.
ngram_scores ngram_from_counts(const ngram_counts& c);

/// Corpus: counts summed over segments (micro average), then the ratios.
ngram_scores corpus_ngram(const std::vector<std::string>& hyps, const std::vector<std::string>& refs, tokenizer tok);

}  // namespace assay::text
