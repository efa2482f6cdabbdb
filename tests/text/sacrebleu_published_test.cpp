// Scores published in sacreBLEU's own test suite (github.com/mjpost/sacrebleu, test/test_bleu.py at
// commit 785d26bb,
// test/test_sentence_bleu.py, test/test_chrf.py; sacreBLEU 2.x), computed there by sacreBLEU itself.
// Tolerances are the suite's own (1e-8 on the 0-1 scale for BLEU, 1e-3 for sentence BLEU, 1e-4 for chrF).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "assay/text/bleu.hpp"
#include "assay/text/chrf.hpp"

namespace assay::text {
namespace {

const std::vector<std::string> hyps{"The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."};
const std::vector<std::vector<std::string>> refs{
    {"The dog bit the man.", "It was not unexpected.", "The man bit him first."},
    {"The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."}};

TEST(SacrebleuPublished, CorpusBleu) {
  bleu_options o;
  EXPECT_NEAR(corpus_bleu(hyps, refs, o).score, 48.530827, 1e-6);
  EXPECT_EQ(corpus_bleu({"", "", ""}, refs, o).score, 0.0);  // empty hypotheses are kept, score 0
  o.tok = tokenizer::none;
  EXPECT_NEAR(corpus_bleu(hyps, refs, o).score, 49.1919566, 1e-6);
  o.tok = tokenizer::v13a;
  o.smooth = bleu_smooth::none;
  EXPECT_NEAR(corpus_bleu(hyps, refs, o).score, 48.530827, 1e-6);
}

// raw_corpus_bleu: floor smoothing with the given value, tokenize none, effective order.
double raw(const std::vector<std::string>& h, const std::vector<std::string>& r, double floor_value) {
  bleu_options o;
  o.tok = tokenizer::none;
  o.smooth = bleu_smooth::floor;
  o.smooth_value = floor_value;
  o.effective_order = true;
  return corpus_bleu(h, {r}, o).score / 100;
}

TEST(SacrebleuPublished, RawAndEffectiveOrder) {
  EXPECT_EQ(raw({"this is a test", "another test"}, {"ref1", "ref2"}, .01), 0.0);  // no match at all (#141)
  EXPECT_NEAR(raw({"this is a test"}, {"this is a test"}, .01), 1.0, 1e-8);
  EXPECT_NEAR(raw({"this is a fest"}, {"this is a test"}, .01), 0.223606797749979, 1e-8);
  EXPECT_NEAR(raw({"test"}, {"a test"}, .01), 0.3678794411714425, 1e-8);
  EXPECT_NEAR(raw({"a test"}, {"a test"}, .01), 1.0, 1e-8);
  EXPECT_NEAR(raw({"a little test"}, {"a test"}, .01), 0.03218297948685433, 1e-8);
}

TEST(SacrebleuPublished, StatisticsOffsetAndMaxOrder) {
  bleu_options o;
  o.tok = tokenizer::none;
  const auto s = segment_stats("am I am a character sequence", {"I am a symbol string sequence a a"}, o);
  EXPECT_EQ(s.correct, (std::array<double, 4>{4, 2, 1, 0}));
  EXPECT_EQ(s.total, (std::array<double, 4>{6, 5, 4, 3}));
  EXPECT_EQ(raw({"am I am a character sequence"}, {"I am a symbol string sequence a a"}, 0.0), 0.0);
  EXPECT_NEAR(raw({"am I am a character sequence"}, {"I am a symbol string sequence a a"}, 0.1), 0.1555722182, 1e-8);
  const char* want[] = {"77.65", "60.50", "53.93", "48.53"};
  for (int n = 1; n <= 4; ++n) {
    bleu_options m;
    m.max_order = n;
    EXPECT_EQ(fmt::format("{:.2f}", corpus_bleu(hyps, refs, m).score), want[n - 1]) << n;
  }
}

TEST(SacrebleuPublished, ScoringFromStatistics) {
  bleu_stats s;
  s.hyp_len = 11;
  s.ref_len = 11;
  s.correct = {9, 7, 5, 3};
  s.total = {10, 8, 6, 4};
  EXPECT_NEAR(compute_bleu(s, {}).score / 100, 0.8375922397, 1e-8);
  // Degenerate statistics with floor smoothing all give 0.
  bleu_options f;
  f.smooth = bleu_smooth::floor;
  for (double v : {0.0, 0.1, 0.01}) {
    f.smooth_value = v;
    bleu_stats z;
    z.hyp_len = 0;
    z.ref_len = 1;
    z.total = {4, 4, 2, 1};
    EXPECT_EQ(compute_bleu(z, f).score, 0.0);
  }
  f.smooth_value = 0.0;
  bleu_stats q;
  q.hyp_len = q.ref_len = 6;
  q.correct = {6, 5, 4, 0};
  q.total = {6, 5, 4, 3};
  EXPECT_EQ(compute_bleu(q, f).score, 0.0);
}

TEST(SacrebleuPublished, SentenceBleuSmoothing) {
  // Issue #98's example, effective order on.
  const std::string ref = "producţia de zahăr brut se exprimă în zahăr alb;";
  const std::string sys = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;";
  struct c {
    bleu_smooth m;
    double value;
    tokenizer tok;
    double want;
  };
  for (const c& x : {c{bleu_smooth::exp, -1, tokenizer::v13a, 8.493}, c{bleu_smooth::none, -1, tokenizer::v13a, 0.0},
                     c{bleu_smooth::floor, -1, tokenizer::v13a, 4.51688}, c{bleu_smooth::floor, 0.1, tokenizer::v13a, 4.51688},
                     c{bleu_smooth::floor, 0.5, tokenizer::v13a, 10.10}, c{bleu_smooth::add_k, -1, tokenizer::v13a, 14.882},
                     c{bleu_smooth::add_k, 1, tokenizer::v13a, 14.882}, c{bleu_smooth::add_k, 2, tokenizer::v13a, 21.389},
                     c{bleu_smooth::exp, -1, tokenizer::none, 7.347}}) {
    bleu_options o;
    o.smooth = x.m;
    o.smooth_value = x.value;
    o.tok = x.tok;
    o.effective_order = true;
    EXPECT_NEAR(sentence_bleu({sys}, {{ref}}, o)[0].score, x.want, 1e-3) << static_cast<int>(x.m) << " " << x.value;
  }
  // Issue #141: no match at all is 0 whatever the smoothing.
  for (auto m : {bleu_smooth::exp, bleu_smooth::none, bleu_smooth::floor, bleu_smooth::add_k}) {
    bleu_options o;
    o.smooth = m;
    o.effective_order = true;
    EXPECT_EQ(sentence_bleu({"this is a cat"}, {{"okay thanks"}}, o)[0].score, 0.0);
  }
}

double chrf(const std::vector<std::string>& h, const std::vector<std::string>& r, double beta, bool eps,
            bool whitespace = false) {
  chrf_options o;
  o.beta = beta;
  o.eps_smoothing = eps;
  o.whitespace = whitespace;
  return corpus_chrf(h, {r}, o);
}

TEST(SacrebleuPublished, Chrf) {
  // eps smoothing (chrF++.py / NLTK style), beta 3.
  EXPECT_NEAR(chrf({"abcdefg"}, {"hijklmnop"}, 3, true), 0.0, 1e-4);
  EXPECT_NEAR(chrf({"a"}, {"b"}, 3, true), 0.0, 1e-4);
  EXPECT_NEAR(chrf({""}, {"b"}, 3, true), 0.0, 1e-4);
  EXPECT_NEAR(chrf({""}, {"reference"}, 3, true), 0.0, 1e-4);
  EXPECT_NEAR(chrf({"aa"}, {"ab"}, 3, true), 8.3333, 1e-4);
  EXPECT_NEAR(chrf({"a", "b"}, {"a", "c"}, 3, true), 8.3333, 1e-4);
  EXPECT_NEAR(chrf({"a"}, {"a"}, 3, true), 16.6667, 1e-4);
  EXPECT_NEAR(chrf({"a b c"}, {"a b c"}, 3, true), 50.0, 1e-4);
  EXPECT_NEAR(chrf({"a b c"}, {"abc"}, 3, true), 50.0, 1e-4);
  EXPECT_NEAR(chrf({" risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."},
                   {"risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."},
                   3, true),
              63.361730, 1e-4);
  EXPECT_NEAR(chrf({" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "},
                   {"Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."}, 3, true),
              64.1302698, 1e-4);
  EXPECT_NEAR(chrf({"Niemand hat die Absicht, eine Mauer zu errichten"}, {"Niemand hat die Absicht, eine Mauer zu errichten"}, 3, true),
              100.0, 1e-4);
  // Effective-order averaging (sacreBLEU's default), beta 3.
  EXPECT_NEAR(chrf({"a"}, {"a"}, 3, false), 100.0, 1e-4);
  EXPECT_NEAR(chrf({""}, {"reference"}, 3, false), 0.0, 1e-4);
  EXPECT_NEAR(chrf({"a b c"}, {"a b c"}, 3, false), 100.0, 1e-4);
  EXPECT_NEAR(chrf({"a b c"}, {"abc"}, 3, false), 100.0, 1e-4);
  EXPECT_NEAR(chrf({""}, {"c"}, 3, false), 0.0, 1e-4);
  EXPECT_NEAR(chrf({"a", "b"}, {"a", "c"}, 3, false), 50.0, 1e-4);
  EXPECT_NEAR(chrf({"aa"}, {"ab"}, 3, false), 25.0, 1e-4);
  // Keeping white space inside character n-grams.
  EXPECT_NEAR(chrf({"Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."},
                   {"Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."}, 3, false, true),
              67.3481606, 1e-4);
  EXPECT_NEAR(chrf({"risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."},
                   {"risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."},
                   3, false, true),
              65.2414427, 1e-4);
}

TEST(SacrebleuPublished, SentenceChrf) {
  chrf_options o;
  o.eps_smoothing = true;
  const std::pair<const char*, const char*> cases[] = {
      {"Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.",
       "Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře."},
      {"Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.",
       "A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři."},
      {"Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.",
       "Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli."}};
  const double want[] = {39.14078509, 31.22557079, 57.15704367};
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(sentence_chrf({cases[i].first}, {{cases[i].second}}, o)[0], want[i], 1e-4) << i;
}

}  // namespace
}  // namespace assay::text
