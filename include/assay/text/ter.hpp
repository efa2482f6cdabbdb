// assay: TER, the translation edit rate (Snover et al. 2006), as sacreBLEU 2 computes it, with its
// signature string.
//
// References: M. Snover, B. Dorr, R. Schwartz, L. Micciulla, J. Makhoul, "A Study of Translation
// Edit Rate with Targeted Human Annotation", AMTA 2006 (the metric and the greedy shift search);
// Tercom (github.com/jhclark/tercom), its reference implementation; sacreBLEU 2.x
// (sacrebleu/metrics/ter.py, lib_ter.py, tokenizers/tokenizer_ter.py), whose beam-limited edit
// distance and shift limits are reproduced here. Choices: docs/definitions/text.md.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "assay/stats/bootstrap.hpp"

namespace assay::text {

/// The options of sacreBLEU's TER (its Tercom tokenizer); all off by default, as in sacreBLEU.
struct ter_options {
  bool normalized = false;      ///< Tercom's normalisation: entities, punctuation split off (Western rules)
  bool no_punct = false;        ///< remove . , ? : ; ! " ( ) (and CJK punctuation with asian_support)
  bool asian_support = false;   ///< with normalized: CJK ideographs and punctuation become single tokens
  bool case_sensitive = false;  ///< false: lower-case the text as Python's str.lower() does
  unsigned threads = 0;         ///< segments are scored on this many threads (0 = all); results do not depend on it
};

/// Sufficient statistics of one or more segments: the edits of the best reference and the average
/// reference length (both summed over segments).
struct ter_stats {
  double edits = 0, ref_len = 0;
  ter_stats& operator+=(const ter_stats& o) {
    edits += o.edits;
    ref_len += o.ref_len;
    return *this;
  }
};

/// The words TER compares: `line` right-stripped, then lower-cased (unless case_sensitive),
/// normalised and stripped of punctuation as the options say, split on white space.
std::vector<std::string> ter_tokenize(const std::string& line, const ter_options& o);

/// The number of edits turning `hyp` into `ref` (insertions, deletions, substitutions and shifts of
/// a word sequence, each costing 1), found as sacreBLEU finds it: greedily apply the shift that
/// lowers the edit distance most (ties: the longer, then the earlier source, then the earlier
/// target) until none does; shifted blocks are at most 10 words long and move at most 50
/// positions; the search stops after 1000 candidate shifts in all; the edit distance is computed on
/// a band of 25 cells either side of the length-scaled diagonal (full width on the last row).
/// An empty reference costs one deletion per hypothesis word.
long ter_edits(const std::vector<std::string>& hyp, const std::vector<std::string>& ref);

/// The statistics of one hypothesis against its references: the fewest edits over the references
/// and the mean of their lengths (empty references count, with length 0).
ter_stats ter_segment_stats(const std::string& hyp, const std::vector<std::string>& refs, const ter_options& o);

/// TER (0..100, may exceed 100) from statistics: 100 * edits / ref_len; 100 when ref_len = 0 and
/// there are edits, 0 when there are none (sacreBLEU's conventions for empty references).
double ter_from_stats(const ter_stats& s);

/// The statistics of every segment (hyps[i] against refs[j][i]), on o.threads threads; every
/// reference stream must have as many lines as `hyps`; an error names the line.
std::vector<ter_stats> ter_corpus_stats(const std::vector<std::string>& hyps,
                                        const std::vector<std::vector<std::string>>& refs, const ter_options& o);

struct ter_score {
  double score = 0;  ///< 0..100 (may exceed 100)
  ter_stats stats;   ///< summed over segments
};

/// Corpus TER: total edits over the total average reference length.
ter_score corpus_ter(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                     const ter_options& o);

/// Percentile (or BCa) bootstrap interval of corpus TER, resampling segments: each replicate sums
/// the stored per-segment statistics of the drawn segments; no text is tokenised again (Koehn 2004;
/// Efron & Tibshirani 1993, ch. 13). Results do not depend on the thread count.
stats::bootstrap_result bootstrap_ter(const std::vector<ter_stats>& segments, const stats::bootstrap_options& opts);

/// One TER per segment.
std::vector<double> sentence_ter(const std::vector<std::string>& hyps,
                                 const std::vector<std::vector<std::string>>& refs, const ter_options& o);

/// sacreBLEU-style signature, e.g. "nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:assay-0.1.0".
std::string ter_signature(std::size_t nrefs, const ter_options& o);

}  // namespace assay::text
