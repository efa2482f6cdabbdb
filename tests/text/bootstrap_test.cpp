// Bootstrap interval of corpus BLEU from per-sentence statistics: the identity resample gives the
// corpus score, integer weights equal repeated sentences, the resampled statistics equal
// re-tokenising the resampled text, and the interval of a proportion-like BLEU matches the
// binomial spread (statistical, failure probability stated).
#include <gtest/gtest.h>

#include <cmath>
#include <unordered_map>
#include <random>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/stats/bootstrap.hpp"
#include "assay/text/bleu.hpp"

namespace assay::text {
namespace {

struct corpus {
  std::vector<std::string> hyps;
  std::vector<std::vector<std::string>> refs;
};

corpus make_corpus(std::size_t n, unsigned seed) {
  static const char* words[] = {"the", "cat", "sat", "on", "a", "mat", ",", "dog", "ran", "3.5", "(it)", "was", "."};
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> len(0, 12), pick(0, 12), coin(0, 9);
  corpus c;
  c.refs.resize(2);
  for (std::size_t i = 0; i < n; ++i) {
    std::string h, r1, r2;
    const int l = len(gen);
    for (int k = 0; k < l; ++k) {
      const std::string w = words[pick(gen)];
      r1 += w + " ";
      r2 += (coin(gen) < 3 ? words[pick(gen)] : w) + std::string(" ");
      h += (coin(gen) < 7 ? w : words[pick(gen)]) + std::string(" ");
    }
    c.hyps.push_back(i % 17 == 0 ? "" : h);  // empty hypotheses are valid input
    c.refs[0].push_back(r1.empty() ? "x" : r1);
    c.refs[1].push_back(r2);
  }
  return c;
}

TEST(BleuBootstrap, IdentityResampleIsTheCorpusScore) {
  const auto c = make_corpus(60, 1);
  const bleu_options o;
  const auto segs = corpus_segment_stats(c.hyps, c.refs, o);
  stats::bootstrap_options b;
  b.replicates = 20;
  const auto r = bootstrap_bleu(segs, o, b);
  EXPECT_EQ(r.estimate, corpus_bleu(c.hyps, c.refs, o).score);
}

TEST(BleuBootstrap, IntegerWeightsEqualRepeatedSentences) {
  const auto c = make_corpus(40, 2);
  for (auto smooth : {bleu_smooth::exp, bleu_smooth::none, bleu_smooth::floor, bleu_smooth::add_k}) {
    bleu_options o;
    o.smooth = smooth;
    const auto segs = corpus_segment_stats(c.hyps, c.refs, o);
    std::mt19937 gen(3);
    std::uniform_int_distribution<int> w(0, 3);
    corpus rep;
    rep.refs.resize(2);
    bleu_stats total;
    for (std::size_t i = 0; i < c.hyps.size(); ++i) {
      const int k = w(gen);
      for (int j = 0; j < k; ++j) {
        rep.hyps.push_back(c.hyps[i]);
        rep.refs[0].push_back(c.refs[0][i]);
        rep.refs[1].push_back(c.refs[1][i]);
        total += segs[i];
      }
    }
    EXPECT_EQ(compute_bleu(total, o).score, corpus_bleu(rep.hyps, rep.refs, o).score);
  }
}

TEST(BleuBootstrap, SameIntervalAsReTokenisingEachResample) {
  // bootstrap_ci with the same seed draws the same rows; there the statistic re-scores the text.
  const auto c = make_corpus(30, 4);
  bleu_options o;
  o.threads = 1;
  const auto segs = corpus_segment_stats(c.hyps, c.refs, o);
  stats::bootstrap_options b;
  b.replicates = 25;
  b.seed = 5;
  b.keep_distribution = true;
  const auto fast = bootstrap_bleu(segs, o, b);
  const auto slow = stats::bootstrap_ci(
      c.hyps.size(),
      [&](std::span<const std::uint32_t> rows) {
        corpus r;
        r.refs.resize(2);
        for (auto i : rows) {
          r.hyps.push_back(c.hyps[i]);
          r.refs[0].push_back(c.refs[0][i]);
          r.refs[1].push_back(c.refs[1][i]);
        }
        return corpus_bleu(r.hyps, r.refs, o).score;
      },
      b);
  EXPECT_EQ(fast.distribution, slow.distribution);
  EXPECT_EQ(fast.lower.v, slow.lower.v);
  EXPECT_EQ(fast.upper.v, slow.upper.v);
}

TEST(BleuBootstrap, ThreadCountDoesNotMatter) {
  const auto c = make_corpus(50, 6);
  bleu_options o;
  const auto segs = corpus_segment_stats(c.hyps, c.refs, o);
  stats::bootstrap_options b;
  b.replicates = 64;
  b.seed = 9;
  b.threads = 1;
  const auto one = bootstrap_bleu(segs, o, b);
  b.threads = 4;
  const auto four = bootstrap_bleu(segs, o, b);
  EXPECT_EQ(one.lower.v, four.lower.v);
  EXPECT_EQ(one.upper.v, four.upper.v);
}

TEST(BleuBootstrap, ProportionLikeBleuHasTheBinomialSpread) {
  // One-word hypotheses and references, max order 1: BLEU = 100 * (share of correct words), a
  // proportion p^ of n = 1000. Its percentile interval is p^ -/+ 1.96 sd, sd = sqrt(p^(1-p^)/n)
  // (normal approximation; skewness 0.03 shifts the quantiles by about 0.01 sd). With B = 2000 the
  // Monte Carlo error of a 2.5% quantile is about 0.06 sd; the tolerance 0.3 sd is 5 of those, so
  // the test fails by chance with probability < 1e-5 (fixed seeds make it deterministic anyway).
  const std::size_t n = 1000;
  std::mt19937 gen(12);
  std::bernoulli_distribution correct(0.3);
  std::vector<std::string> hyps, refs;
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool c = correct(gen);
    k += c;
    hyps.push_back(c ? "yes" : "no");
    refs.push_back("yes");
  }
  bleu_options o;
  o.max_order = 1;
  o.smooth = bleu_smooth::none;
  const auto segs = corpus_segment_stats(hyps, {refs}, o);
  stats::bootstrap_options b;
  b.replicates = 2000;
  b.seed = 1;
  const auto r = bootstrap_bleu(segs, o, b);
  const double p = static_cast<double>(k) / n, sd = 100 * std::sqrt(p * (1 - p) / n);
  EXPECT_NEAR(r.estimate, 100 * p, 1e-9);
  EXPECT_NEAR(r.lower.v, 100 * p - 1.959964 * sd, 0.3 * sd);
  EXPECT_NEAR(r.upper.v, 100 * p + 1.959964 * sd, 0.3 * sd);
}

TEST(BleuBootstrap, BadOptions) {
  const auto c = make_corpus(5, 7);
  const auto segs = corpus_segment_stats(c.hyps, c.refs, {});
  stats::bootstrap_options b;
  b.replicates = 0;
  EXPECT_THROW((void)bootstrap_bleu(segs, {}, b), assay::error);
  b.replicates = 10;
  b.level = 1;
  EXPECT_THROW((void)bootstrap_bleu(segs, {}, b), assay::error);
  EXPECT_THROW((void)bootstrap_bleu({}, {}, {}), assay::error);
}

}  // namespace
}  // namespace assay::text

namespace assay::text {
namespace {

// A segment with more than 2^16 distinct words takes the two-word n-gram keys; its statistics must
// equal a naive count with std::map over n-grams of strings.
TEST(BleuStats, MoreThan65536DistinctWordsMatchANaiveCount) {
  const int n_words = 66000;
  std::vector<std::string> hw, rw;
  for (int i = 0; i < n_words; ++i) {
    hw.push_back("w" + std::to_string(i));
    rw.push_back(i % 7 == 0 ? "x" + std::to_string(i % 50) : "w" + std::to_string(i));
  }
  std::string h, r;
  for (int i = 0; i < n_words; ++i) {
    h += hw[i] + " ";
    r += rw[i] + " ";
  }
  bleu_options o;
  o.tok = tokenizer::none;
  const auto s = segment_stats(h, {r}, o);
  for (std::size_t n : {1, 4}) {  // orders 2 and 3 take the same path; kept short for sanitizer builds
    // n-grams as their words joined by single spaces (words have no spaces)
    auto grams = [&](const std::vector<std::string>& w) {
      std::unordered_map<std::string, long> c;
      for (std::size_t i = 0; i + n <= w.size(); ++i) {
        std::string g = w[i];
        for (std::size_t k = 1; k < n; ++k) g += " " + w[i + k];
        ++c[g];
      }
      return c;
    };
    const auto hc = grams(hw), rc = grams(rw);
    long correct = 0, total = 0;
    for (const auto& [g, c] : hc) {
      total += c;
      const auto it = rc.find(g);
      if (it != rc.end()) correct += std::min(c, it->second);
    }
    EXPECT_EQ(s.total[n - 1], static_cast<double>(total)) << n;
    EXPECT_EQ(s.correct[n - 1], static_cast<double>(correct)) << n;
  }
}

}  // namespace
}  // namespace assay::text
