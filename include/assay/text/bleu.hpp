// assay: BLEU (Papineni et al. 2002) as sacreBLEU 2 computes it, with its signature string.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "assay/stats/bootstrap.hpp"
#include "assay/text/tokenize.hpp"

namespace assay::text {

/// sacreBLEU's smoothing methods (Chen & Cherry 2014 numbering in brackets).
enum class bleu_smooth {
  none,   ///< no smoothing: a zero n-gram precision makes BLEU 0
  floor,  ///< zero matches at order n count as smooth_value (default 0.1) matches [method 1]
  add_k,  ///< add smooth_value (default 1) to matches and totals for n > 1 [method 2]
  exp,    ///< the k-th order with zero matches gets precision 1/(2^k * total) (mteval-v13a) [method 3]
};

struct bleu_options {
  tokenizer tok = tokenizer::v13a;
  bleu_smooth smooth = bleu_smooth::exp;
  double smooth_value = -1;     ///< < 0: the method's default (floor 0.1, add-k 1)
  bool effective_order = false;  ///< average only over orders with at least one hypothesis n-gram
  int max_order = 4;
  unsigned threads = 0;  ///< segments are scored on this many threads (0 = all); results do not depend on it
};

/// Sufficient statistics of one or more segments: lengths and per-order matches and totals.
struct bleu_stats {
  double hyp_len = 0, ref_len = 0;
  std::array<double, 4> correct{}, total{};
  bleu_stats& operator+=(const bleu_stats& o);
};

struct bleu_score {
  double score = 0;  ///< 0..100
  std::array<double, 4> precisions{};  ///< 0..100, after smoothing
  double bp = 0;     ///< brevity penalty
  bleu_stats stats;
};

/// The statistics of one hypothesis against its references (empty references are skipped, as
/// sacreBLEU skips them; at least one must remain). Both sides are right-stripped, tokenized, and
/// split on white space. Matches of each n-gram are clipped to its largest count in any one
/// reference; the reference length is the closest to the hypothesis length (the shorter on ties).
bleu_stats segment_stats(const std::string& hyp, const std::vector<std::string>& refs, const bleu_options& o);

/// BLEU from statistics (sacreBLEU's compute_bleu): BP = 1 if c >= r else exp(1 - r/c) (0 when c = 0),
/// p_n = 100 * correct_n / total_n with the chosen smoothing, BLEU = BP * exp(sum_n log p_n / N);
/// 0 when no n-gram matches at all.
bleu_score compute_bleu(const bleu_stats& s, const bleu_options& o);

/// Corpus BLEU: statistics summed over segments, then compute_bleu. `refs[j][i]` is reference j of
/// segment i; every reference stream must have as many lines as `hyps`.
bleu_score corpus_bleu(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                       const bleu_options& o);

/// The statistics of every segment (segment_stats of line i against refs[j][i]), computed on
/// o.threads threads; an error names the line.
std::vector<bleu_stats> corpus_segment_stats(const std::vector<std::string>& hyps,
                                             const std::vector<std::vector<std::string>>& refs, const bleu_options& o);

/// Percentile bootstrap interval of corpus BLEU, resampling segments: each replicate sums the
/// stored per-segment statistics of the drawn segments (with repeats) and applies compute_bleu; no
/// text is tokenized again. The counts are integers, so the sums (and the result) do not depend on
/// the order or the thread count. Reference: Koehn, "Statistical Significance Tests for Machine
/// Translation Evaluation", EMNLP 2004 (bootstrap resampling of test sentences); Efron &
/// Tibshirani (1993), ch. 13.
stats::bootstrap_result bootstrap_bleu(const std::vector<bleu_stats>& segments, const bleu_options& o,
                                       const stats::bootstrap_options& opts);

/// One BLEU per segment.
std::vector<bleu_score> sentence_bleu(const std::vector<std::string>& hyps,
                                      const std::vector<std::vector<std::string>>& refs, const bleu_options& o);

/// sacreBLEU-style signature naming every option, e.g.
/// "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:assay-0.1.0".
std::string bleu_signature(std::size_t nrefs, const bleu_options& o);

}  // namespace assay::text
