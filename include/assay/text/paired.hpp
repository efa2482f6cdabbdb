// assay: sacreBLEU's paired significance tests between a baseline and other systems on the same
// segments, for BLEU, chrF and TER: paired bootstrap resampling and paired approximate
// randomisation, with the p-values (and, for the bootstrap, the mean and 95% interval) sacreBLEU
// reports for the same seed.
//
// References: P. Koehn, "Statistical Significance Tests for Machine Translation Evaluation", EMNLP
// 2004 (paired bootstrap resampling); S. Riezler & J. T. Maxwell, "On Some Pitfalls in Automatic
// Evaluation and Significance Testing for MT", ACL 2005 workshop (approximate randomisation);
// J. Clark et al., MultEval (the p-value convention); sacreBLEU 2.x (sacrebleu/significance.py),
// whose resampling this reproduces draw for draw (NumPy's default_rng; src/text/numpy_pcg64.hpp).
// Choices: docs/definitions/text.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "assay/text/bleu.hpp"
#include "assay/text/chrf.hpp"
#include "assay/text/ter.hpp"
#include "assay/value.hpp"

namespace assay::text {

enum class paired_method {
  bootstrap,                  ///< sacreBLEU --paired-bs (Koehn 2004)
  approximate_randomization,  ///< sacreBLEU --paired-ar (Riezler & Maxwell 2005)
};

struct paired_options {
  paired_method method = paired_method::bootstrap;
  std::size_t samples = 0;     ///< resamples or trials (at most 10^7); 0: sacreBLEU's defaults (1000 bootstrap, 10000 AR)
  std::uint64_t seed = 12345;  ///< sacreBLEU's default seed (SACREBLEU_SEED)
  unsigned threads = 0;        ///< 0 = all; results do not depend on it
};

/// The result of one system (the baseline is the first).
struct paired_result {
  double score = 0;  ///< the corpus score
  value p_value;     ///< undefined for the baseline
  value mean;        ///< bootstrap: mean of the resampled scores; undefined for AR
  value ci;          ///< bootstrap: half-width of the 95% interval around the mean; undefined for AR
};

/// Per-segment sufficient statistics: n rows of k numbers, row-major.
struct segment_table {
  std::size_t k = 0;
  std::vector<double> v;
  std::size_t rows() const { return k == 0 ? 0 : v.size() / k; }
};

/// The corpus score from summed statistics (k numbers).
using score_of_stats = std::function<double(std::span<const double>)>;

/// The paired test of systems[1..] against systems[0] (the baseline), all with the same number of
/// segments:
///  - bootstrap: S resamples of the segment indices, the same for every system (numpy
///    default_rng(seed).choice(n, (S, n))); the statistics of each resample are summed in single
///    precision as sacreBLEU does; mean and ci from the sorted scores (ci = half the distance between
///    the (S // 40)-th smallest and largest); p = (1 + #{s : |d_s| - mean|d| > |d|}) / (S + 1), where
///    d_s is the system-minus-baseline difference on resample s and d the observed one;
///  - approximate randomisation: S trials each swapping every segment's statistics between the two
///    systems with probability 1/2 (default_rng(seed).integers(2, (S, n), bool)),
///    p = (1 + #{s : |a_s - b_s| > |d|}) / (S + 1).
std::vector<paired_result> paired_test(const std::vector<segment_table>& systems, const score_of_stats& score,
                                       const paired_options& o);

/// Per-segment statistics of a metric for one system (row i: hyps[i] against refs[j][i]).
segment_table bleu_table(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                         const bleu_options& o);
segment_table chrf_table(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                         const chrf_options& o);
segment_table ter_table(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                        const ter_options& o);

/// The score functions matching the tables above.
score_of_stats bleu_scorer(const bleu_options& o);
score_of_stats chrf_scorer(const chrf_options& o);
score_of_stats ter_scorer();

/// A metric's signature with the test's fields where sacreBLEU puts them, after "nrefs:N":
/// "nrefs:1|bs:1000|seed:12345|case:..." or "nrefs:1|ar:10000|seed:12345|case:..." (the number of
/// samples actually used).
std::string paired_signature(const std::string& metric_signature, const paired_options& o);

/// The number of samples used: o.samples, or sacreBLEU's default for the method when 0.
std::size_t paired_samples(const paired_options& o);

}  // namespace assay::text
