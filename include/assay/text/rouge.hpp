// assay: ROUGE-N, ROUGE-L and ROUGE-Lsum (Lin 2004) as Google's rouge-score package (0.1.2)
// computes them: its tokenizer, its optional Porter stemmer, its best-of-references rule and its
// corpus mean with a bootstrap interval.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "assay/stats/bootstrap.hpp"
#include "assay/value.hpp"

namespace assay::text {

/// One ROUGE variant: "rouge1" .. "rouge9" (n-gram overlap of that order), "rougeL" (longest
/// common subsequence of the whole texts) or "rougeLsum" (summary-level LCS over sentences).
struct rouge_type {
  enum class kind { ngram, lcs, lcs_sum } k = kind::ngram;
  int n = 1;  ///< the order, for kind::ngram
  std::string name;
};

/// Parses a name as rouge-score spells it ("rouge1", "rouge2", "rougeL", "rougeLsum"); throws a
/// usage error naming `param` otherwise.
[[nodiscard]] rouge_type rouge_type_of(std::string_view name, std::string_view param = "rouge_types");

struct rouge_options {
  std::vector<rouge_type> types;  ///< empty: rouge1, rouge2, rougeL, rougeLsum
  bool use_stemmer = false;       ///< Porter-stem tokens longer than 3 characters (porter.hpp)
  unsigned threads = 0;           ///< segments are scored on this many threads (0 = all); results do not depend on it
};

/// rouge-score's Score: precision, recall and their harmonic mean F (0 when P + R = 0).
struct rouge_score {
  double precision = 0, recall = 0, fmeasure = 0;
};

/// rouge-score's tokenizer: the text lowercased as Python's str.lower() does, every run of
/// characters other than ASCII a-z and 0-9 taken as a separator (so non-ASCII letters separate
/// words; İ U+0130 lowers to "i" and the Kelvin sign U+212A to "k", the only non-ASCII code
/// points whose lowercase holds ASCII letters or digits), and, with `stem`, tokens of more than 3
/// characters replaced by porter_stem(token). Invalid UTF-8 is a data error.
[[nodiscard]] std::vector<std::string> rouge_tokenize(std::string_view text, bool stem);

/// The scores of one hypothesis (prediction) against one reference (target), one per type:
///  ROUGE-N: matches = sum over reference n-grams g of min(count_ref(g), count_hyp(g));
///           P = matches / max(hyp n-grams, 1), R = matches / max(ref n-grams, 1).
///  ROUGE-L: P = LCS / |hyp|, R = LCS / |ref| over the token sequences; 0 if either is empty.
///  ROUGE-Lsum: both texts are split on "\n" into sentences (empty strings dropped); for each
///           reference sentence r, the union over hypothesis sentences c of the positions in r of one
///           LCS of r and c (read back from the end of the table; on a tie the reference token is
///           dropped, as rouge-score does); each token of that union counts a hit if neither
///           side's budget of that token (its count in the whole text) is spent. P = hits / hyp tokens, R = hits / ref tokens; 0 if either is empty.
///  F = 2 P R / (P + R), 0 when P + R = 0.
/// Reference: C.-Y. Lin, "ROUGE: A Package for Automatic Evaluation of Summaries", Text
/// Summarization Branches Out (ACL workshop), 2004, sections 2 and 3.
/// Invalid UTF-8 in either text is a data error naming it.
[[nodiscard]] std::vector<rouge_score> rouge_pair(std::string_view hyp, std::string_view ref, const rouge_options& o);

/// rouge-score's score_multi: per type, the scores against the reference with the highest F (the
/// first on ties). `refs` must not be empty.
[[nodiscard]] std::vector<rouge_score> rouge_multi(std::string_view hyp, const std::vector<std::string>& refs,
                                                   const rouge_options& o);

/// Per segment i, rouge_multi(hyps[i], {refs[0][i], refs[1][i], ...}): result[i][t] for type t.
/// Every reference stream must have as many lines as `hyps`; computed on o.threads threads.
[[nodiscard]] std::vector<std::vector<rouge_score>> sentence_rouge(const std::vector<std::string>& hyps,
                                                                   const std::vector<std::vector<std::string>>& refs,
                                                                   const rouge_options& o);

/// The corpus figure of one type: the mean over segments of P, R and F (what rouge-score's
/// BootstrapAggregator centres on), with, when asked, percentile bootstrap intervals of each mean.
struct rouge_aggregate {
  std::string type;
  value precision, recall, fmeasure;  ///< means over segments; undefined when there are none
  stats::bootstrap_result precision_ci, recall_ci, fmeasure_ci;  ///< filled only with intervals
};

/// Means over segments (scores[i][t]) of every type in `o.types` (or the default four), and with
/// `boot`, percentile bootstrap intervals of the three means from the same resamples of segments
/// (Efron & Tibshirani 1993, ch. 13), seeded and so reproducible. With no segments the means are
/// undefined (and no interval is formed).
[[nodiscard]] std::vector<rouge_aggregate> aggregate_rouge(const std::vector<std::vector<rouge_score>>& scores,
                                                           const rouge_options& o,
                                                           const stats::bootstrap_options* boot = nullptr);

/// The types named by `o` (the default four when o.types is empty).
[[nodiscard]] std::vector<rouge_type> rouge_types_of(const rouge_options& o);

/// e.g. "nrefs:1|stem:no|tok:rouge-score|version:assay-0.1.0".
[[nodiscard]] std::string rouge_signature(std::size_t nrefs, const rouge_options& o);

}  // namespace assay::text
