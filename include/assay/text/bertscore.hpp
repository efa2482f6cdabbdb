// assay: BERTScore (Zhang et al., "BERTScore: Evaluating Text Generation with BERT", ICLR 2020) from
// token embeddings supplied by the user.
#pragma once

#include <string>
#include <vector>

#include "assay/value.hpp"

namespace assay::text {

/// One sentence: its tokens, one embedding per token (all of one dimension) and optional idf weights.
struct embedded_sentence {
  std::vector<std::string> tokens;
  std::vector<std::vector<double>> vectors;
  std::vector<double> idf;  ///< empty: no weights given
};

struct bertscore_options {
  /// Weight tokens by idf. Weights given in the file are used; otherwise idf(w) = log((M + 1) / (df(w) + 1))
  /// over the M references (bert_score's formula; a token absent from every reference gets log(M + 1)).
  bool idf = false;
  /// Baseline rescaling: each score s becomes (s - b) / (1 - b) with b from {P, R, F}.
  bool rescale = false;
  double baseline_p = 0, baseline_r = 0, baseline_f = 0;
};

struct bertscore_result {
  std::vector<value> p, r, f;  ///< per sentence
  value mean_p, mean_r, mean_f;  ///< means over sentences where defined
};

/// Embeddings are normalised to unit length; with cosine similarities s_ij = x_i . x^_j,
///   R = sum_i w(x_i) max_j s_ij / sum_i w(x_i),  P = sum_j w(x^_j) max_i s_ij / sum_j w(x^_j),
///   F = 2 P R / (P + R)  (w = 1 without idf; F computed before rescaling, then rescaled).
/// Undefined for a sentence with no tokens or zero total weight.
bertscore_result bertscore(const std::vector<embedded_sentence>& hyps, const std::vector<embedded_sentence>& refs,
                           const bertscore_options& o = {});

/// Reads embeddings in JSON Lines: one JSON object per line and sentence,
///   {"tokens": ["the", "cat"], "embeddings": [[0.1, 0.2, ...], [...]], "idf": [1.2, 0.7]}
/// ("tokens" and "idf" optional; "embeddings" required, one row per token, one dimension for the
/// whole file). Throws assay::error naming file, line and field.
std::vector<embedded_sentence> read_embeddings(const std::string& path);
/// The same from text in memory.
std::vector<embedded_sentence> parse_embeddings(const std::string& text, const std::string& name);

}  // namespace assay::text
