// Text metrics: hand-derived BLEU, replay of tests/text/generate_sacrebleu.py, properties, bad input.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "assay/error.hpp"
#include "assay/text/bertscore.hpp"
#include "assay/text/bleu.hpp"
#include "assay/text/chrf.hpp"
#include "assay/text/ngram.hpp"
#include "assay/text/tokenize.hpp"

namespace assay::text {
namespace {

using json = nlohmann::json;

json load(const char* name) {
  std::ifstream f(std::string(ASSAY_TEST_DIR "/text/data/") + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str());
}

TEST(Tokenize, PythonWhitespaceAndThirteenA) {
  EXPECT_EQ(split_whitespace("a\u00a0b\u3000c\td  e\u200bf").size(), 5u);  // a b c d e\u200bf: U+200B is not space
  EXPECT_EQ(std::string(rstrip("abc \u2009\n")), "abc");
  EXPECT_EQ(tokenize_13a("Hello, world."), "Hello , world .");
  EXPECT_EQ(tokenize_13a("3.5 and 1,000"), "3.5 and 1,000");
  EXPECT_EQ(tokenize_13a("5-3 co-op"), "5 - 3 co-op");
  EXPECT_EQ(tokenize_13a("&quot;x&quot; &amp;"), "\" x \" &");
  EXPECT_EQ(tokenize_13a("a<skipped>b"), "ab");
  EXPECT_EQ(find_invalid_utf8("ok\xc3("), 2u);
  EXPECT_EQ(find_invalid_utf8("\xed\xa0\x80"), 0u);  // a surrogate
  EXPECT_EQ(find_invalid_utf8("caf\xc3\xa9"), std::string::npos);
}

TEST(Bleu, HandDerived) {
  // hyp "the cat sat on the mat", ref "the cat is on the mat": matches 5/6, 3/5, 1/4, 0/3.
  bleu_options o;
  o.smooth = bleu_smooth::none;
  const std::vector<std::string> h{"the cat sat on the mat"};
  const std::vector<std::vector<std::string>> r{{"the cat is on the mat"}};
  EXPECT_EQ(corpus_bleu(h, r, o).score, 0.0);  // a zero precision without smoothing
  // exp: the first zero order gets 1/(2 * 3): BLEU = 100 (5/6 * 3/5 * 1/4 * 1/6)^(1/4) = 100 / 48^(1/4).
  o.smooth = bleu_smooth::exp;
  EXPECT_NEAR(corpus_bleu(h, r, o).score, 100.0 / std::pow(48.0, 0.25), 1e-12);
  // floor 0.1: p4 = 0.1/3.
  o.smooth = bleu_smooth::floor;
  EXPECT_NEAR(corpus_bleu(h, r, o).score, 100.0 * std::pow(5.0 / 6 * 3.0 / 5 * 1.0 / 4 * 0.1 / 3, 0.25), 1e-12);
  // add-k 1 for n > 1: (5/6)(4/6)(2/5)(1/4).
  o.smooth = bleu_smooth::add_k;
  EXPECT_NEAR(corpus_bleu(h, r, o).score, 100.0 * std::pow(5.0 / 6 * 4.0 / 6 * 2.0 / 5 * 1.0 / 4, 0.25), 1e-12);
  // Brevity: hyp "the cat" (2 words) vs a 6-word reference, both orders up to 2 match, exp smoothing
  // for orders 3 and 4 have no hypothesis n-grams -> loop stops, log(0) terms make BLEU 0 unless
  // effective order: then BLEU = BP * (1 * 1)^(1/2) with BP = exp(1 - 6/2).
  o.smooth = bleu_smooth::exp;
  o.effective_order = true;
  EXPECT_NEAR(corpus_bleu({"the cat"}, {{"the cat is on the mat"}}, o).score, 100.0 * std::exp(1.0 - 3.0), 1e-12);
}

TEST(Bleu, IdenticalIsHundredAndEmptyHypothesisIsZero) {
  const bleu_options o;
  EXPECT_DOUBLE_EQ(corpus_bleu({"A quick test, of 3.5 things."}, {{"A quick test, of 3.5 things."}}, o).score, 100.0);
  EXPECT_EQ(corpus_bleu({""}, {{"a reference"}}, o).score, 0.0);
  EXPECT_EQ(bleu_signature(1, o), std::string("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:assay-") + ASSAY_VERSION);
}

class Replay : public ::testing::TestWithParam<std::string> {};

TEST_P(Replay, BleuChrfNgramMatchReference) {
  const json cases = load("cases.json"), expected = load("expected.json");
  const auto& c = cases[GetParam()];
  const auto& e = expected["corpora"][GetParam()];
  const auto hyps = c["hyps"].get<std::vector<std::string>>();
  const auto refs = c["refs"].get<std::vector<std::vector<std::string>>>();
  // Tokenisation and white-space splitting, line by line.
  std::vector<std::string> all = hyps;
  for (auto& r : refs) all.insert(all.end(), r.begin(), r.end());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(tokenize_13a(rstrip(all[i])), e["tok13a"][i].get<std::string>()) << all[i];
    const auto words = split_whitespace(all[i]);
    const auto want = e["split"][i].get<std::vector<std::string>>();
    ASSERT_EQ(words.size(), want.size()) << all[i];
    for (std::size_t k = 0; k < words.size(); ++k) EXPECT_EQ(std::string(words[k]), want[k]);
  }
  // BLEU: every tokenizer, number of references, smoothing and effective-order setting. The
  // operations are the reference's, in its order, so the doubles must agree exactly.
  for (const char* tok : {"13a", "none"})
    for (std::size_t nrefs : {1, 2}) {
      const std::vector<std::vector<std::string>> rs(refs.begin(), refs.begin() + static_cast<std::ptrdiff_t>(nrefs));
      for (auto [sname, smooth] : {std::pair{"none", bleu_smooth::none}, std::pair{"floor", bleu_smooth::floor},
                                   std::pair{"add-k", bleu_smooth::add_k}, std::pair{"exp", bleu_smooth::exp}})
        for (bool eff : {false, true}) {
          bleu_options o;
          o.tok = std::string(tok) == "13a" ? tokenizer::v13a : tokenizer::none;
          o.smooth = smooth;
          o.effective_order = eff;
          const std::string key = fmt::format("bleu|{}|{}|{}|{}", tok, nrefs, sname, eff ? "eff" : "noeff");
          const auto& want = e[key];
          EXPECT_EQ(corpus_bleu(hyps, rs, o).score, want["corpus"].get<double>()) << key;
          const auto sent = sentence_bleu(hyps, rs, o);
          for (std::size_t i = 0; i < hyps.size(); ++i)
            EXPECT_EQ(sent[i].score, want["sentence"][i].get<double>()) << key << " line " << i + 1;
        }
    }
  for (std::size_t nrefs : {1, 2})
    for (int wo : {0, 2}) {
      const std::vector<std::vector<std::string>> rs(refs.begin(), refs.begin() + static_cast<std::ptrdiff_t>(nrefs));
      chrf_options o;
      o.word_order = wo;
      const std::string key = fmt::format("chrf|{}|{}", nrefs, wo);
      EXPECT_EQ(corpus_chrf(hyps, rs, o), e[key]["corpus"].get<double>()) << key;
      const auto sent = sentence_chrf(hyps, rs, o);
      for (std::size_t i = 0; i < hyps.size(); ++i)
        EXPECT_EQ(sent[i], e[key]["sentence"][i].get<double>()) << key << " line " << i + 1;
    }
  for (const char* tok : {"13a", "none"}) {
    const auto& want = e[std::string("exact|") + tok]["per_sentence"];
    for (std::size_t i = 0; i < hyps.size(); ++i) {
      const auto got = ngram_segment(hyps[i], refs[0][i], std::string(tok) == "13a" ? tokenizer::v13a : tokenizer::none);
      for (std::size_t n = 0; n < 4; ++n) {
        EXPECT_EQ(got.hyp_hits[n], want[i][n][0].get<double>());
        EXPECT_EQ(got.hyp_total[n], want[i][n][1].get<double>());
        EXPECT_EQ(got.ref_hits[n], want[i][n][2].get<double>());
        EXPECT_EQ(got.ref_total[n], want[i][n][3].get<double>());
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Generated, Replay, ::testing::Values("handmade", "synthetic"));

TEST(Bleu, PermutingSentencesChangesNothing) {
  const json cases = load("cases.json");
  auto hyps = cases["synthetic"]["hyps"].get<std::vector<std::string>>();
  auto refs = cases["synthetic"]["refs"].get<std::vector<std::vector<std::string>>>();
  const bleu_options o;
  const double a = corpus_bleu(hyps, refs, o).score;
  const double ca = corpus_chrf(hyps, refs, {});
  std::reverse(hyps.begin(), hyps.end());
  for (auto& r : refs) std::reverse(r.begin(), r.end());
  EXPECT_EQ(corpus_bleu(hyps, refs, o).score, a);  // integer statistics: exact
  EXPECT_EQ(corpus_chrf(hyps, refs, {}), ca);
  EXPECT_GT(a, 0.0);
  EXPECT_LT(a, 100.0);
}

TEST(Chrf, HandDerivedAndIdentical) {
  EXPECT_DOUBLE_EQ(corpus_chrf({"abc def"}, {{"abc def"}}, {}), 100.0);
  // "ab" vs "ac": chars 1-grams: hyp a,b ref a,c -> P = R = 1/2; 2-grams ab vs ac: 0/1. Orders 3..6 have
  // no n-grams and are left out of the average: P = R = (1/2 + 0)/2 = 1/4, chrF = 25.
  EXPECT_DOUBLE_EQ(corpus_chrf({"ab"}, {{"ac"}}, {}), 25.0);
  EXPECT_EQ(corpus_chrf({""}, {{"abc"}}, {}), 0.0);
}

TEST(Ngram, SeedDefinition) {
  // Seed 002's example: "people like foreign cars" vs "people like visiting places abroad".
  const auto c = ngram_segment("people like visiting places abroad", "people like foreign cars", tokenizer::none);
  const auto s = ngram_from_counts(c);
  EXPECT_DOUBLE_EQ(s.precision[0].v, 2.0 / 5.0);
  EXPECT_DOUBLE_EQ(s.recall[0].v, 2.0 / 4.0);
  EXPECT_DOUBLE_EQ(s.precision[1].v, 1.0 / 4.0);  // "people like"
  EXPECT_DOUBLE_EQ(s.recall[1].v, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.precision[2].v, 0.0);
  // Unclipped membership: "the the the" against "the cat" has unigram precision 3/3.
  EXPECT_DOUBLE_EQ(ngram_from_counts(ngram_segment("the the the", "the cat", tokenizer::none)).precision[0].v, 1.0);
  EXPECT_FALSE(ngram_from_counts(ngram_segment("one", "one two", tokenizer::none)).precision[1].defined());
}

TEST(BertScore, GreedyCosineMatching) {
  // Candidate tokens e1, e2; reference tokens e1, (e1+e2)/sqrt2, e3.
  const double h = std::sqrt(0.5);
  std::vector<embedded_sentence> cand{{{"a", "b"}, {{1, 0, 0}, {0, 2, 0}}, {}}};
  std::vector<embedded_sentence> ref{{{"a", "ab", "c"}, {{3, 0, 0}, {1, 1, 0}, {0, 0, 1}}, {}}};
  const auto r = bertscore(cand, ref);
  // P: a -> 1, b -> max(0, h, 0) = h: (1 + h)/2. R: a -> 1, ab -> h, c -> 0: (1 + h)/3.
  const double P = (1 + h) / 2, R = (1 + h) / 3;
  EXPECT_NEAR(r.p[0].v, P, 1e-15);
  EXPECT_NEAR(r.r[0].v, R, 1e-15);
  EXPECT_NEAR(r.f[0].v, 2 * P * R / (P + R), 1e-15);
  // idf from one reference: M = 1, every reference token df 1 -> log(2/2) = 0, unseen candidate
  // tokens log 2. Candidate "b" is unseen, "a" is seen: P = (0*1 + log2 * h)/(log 2) = h.
  bertscore_options o;
  o.idf = true;
  const auto ri = bertscore(cand, ref, o);
  EXPECT_NEAR(ri.p[0].v, h, 1e-15);
  EXPECT_FALSE(ri.r[0].defined());  // all reference weights are 0
  o.idf = false;
  o.rescale = true;
  o.baseline_p = 0.5;
  EXPECT_NEAR(bertscore(cand, ref, o).p[0].v, (P - 0.5) / 0.5, 1e-15);
}

TEST(BadInput, Messages) {
  try {
    (void)corpus_bleu({"a", "b"}, {{"a"}}, {});
    FAIL();
  } catch (const assay::error& e) {
    EXPECT_STREQ(e.what(), "reference stream 1 has 1 lines but the hypothesis has 2");
  }
  try {
    (void)parse_embeddings("{\"embeddings\": [[1, 2]]}\n{\"embeddings\": [[1, 2, 3]]}\n", "e.jsonl");
    FAIL();
  } catch (const assay::error& e) {
    EXPECT_STREQ(e.what(), "e.jsonl:2: embeddings[0] has dimension 3 but line 1 has dimension 2");
  }
  try {
    (void)parse_embeddings("{\"embeddings\": [[1, 2]]\n", "e.jsonl");
    FAIL();
  } catch (const assay::error& e) {
    EXPECT_NE(std::string(e.what()).find("e.jsonl:1: malformed JSON at byte"), std::string::npos) << e.what();
  }
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream f(dir + "/bad.txt", std::ios::binary);
    f << "fine\nbad \xff here\n";
  }
  try {
    (void)read_lines(dir + "/bad.txt");
    FAIL();
  } catch (const assay::error& e) {
    EXPECT_EQ(std::string(e.what()), dir + "/bad.txt:2: line \"bad \\xff here\" is not valid UTF-8 (byte \\xff at offset 4); "
                                      "assay reads text as UTF-8");
  }
}

}  // namespace
}  // namespace assay::text
