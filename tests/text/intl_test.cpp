// sacreBLEU's `intl` tokenizer: replay of tests/text/data/intl_cases.json, written by
// scripts/gen_unicode_categories.py from an independent Python implementation of the same rules on
// Python's unicodedata (the version the C++ tables were generated from is checked), plus cases
// derived by hand from sacreBLEU's documented behaviour.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "assay/text/bleu.hpp"
#include "assay/text/tokenize.hpp"

namespace assay::text {
namespace {

TEST(IntlTokenizer, ReplaysTheGeneratorCases) {
  std::ifstream f(ASSAY_TEST_DIR "/text/data/intl_cases.json");
  std::stringstream ss;
  ss << f.rdbuf();
  const auto j = nlohmann::json::parse(ss.str());
  EXPECT_EQ(j.at("unicodedata_version").get<std::string>(), unicode_version());
  ASSERT_GT(j.at("cases").size(), 200u);
  for (const auto& c : j.at("cases")) {
    const auto in = c.at("input").get<std::string>();
    EXPECT_EQ(tokenize_intl(in), c.at("expected").get<std::string>()) << in;
  }
}

TEST(IntlTokenizer, DocumentedBehaviour) {
  // Punctuation is split off unless it sits between numbers on both sides.
  EXPECT_EQ(tokenize_intl("Hello, world!"), "Hello , world !");
  EXPECT_EQ(tokenize_intl("1,000.5"), "1,000.5");
  // sacreBLEU's note: a number followed by a final dot keeps it (no trailing space is added).
  EXPECT_EQ(tokenize_intl("in 2019."), "in 2019.");
  EXPECT_EQ(tokenize_intl("in 2019. Then"), "in 2019 . Then");
  // Symbols (Sc, Sm, So, Sk) are always split, also between digits.
  EXPECT_EQ(tokenize_intl("$5+3"), "$ 5 + 3");
  // Non-ASCII punctuation: CJK full stop, guillemets.
  EXPECT_EQ(tokenize_intl("\u4e16\u754c\u3002"), "\u4e16\u754c \u3002");
  EXPECT_EQ(tokenize_intl("\u00aba\u00bb"), "\u00ab a \u00bb");
  // Entities are not unescaped (sacreBLEU 2.x).
  EXPECT_EQ(tokenize_intl("&amp;"), "& amp ;");
}

TEST(IntlTokenizer, SignatureNamesIt) {
  bleu_options o;
  o.tok = tokenizer::intl;
  EXPECT_NE(bleu_signature(1, o).find("|tok:intl|"), std::string::npos);
  EXPECT_NEAR(corpus_bleu({"Hello, world!"}, {{"Hello , world !"}}, o).score, 100.0, 1e-9);
}

}  // namespace
}  // namespace assay::text
