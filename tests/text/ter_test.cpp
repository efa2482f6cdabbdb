// TER against sacreBLEU 2.6.0: replay of tests/text/data/ter.json, written by
// tests/text/generate_ter.py, which calls sacreBLEU itself (tokens, per-segment edits and average
// reference lengths, corpus scores and signatures, for each tokenizer option); and bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/text/ter.hpp"

namespace assay::text {
namespace {

nlohmann::json load_ter_json() {
  std::ifstream f(ASSAY_TEST_DIR "/text/data/ter.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return nlohmann::json::parse(ss.str());
}

ter_options options_of(const nlohmann::json& o) {
  ter_options t;
  t.normalized = o.value("normalized", false);
  t.no_punct = o.value("no_punct", false);
  t.asian_support = o.value("asian_support", false);
  t.case_sensitive = o.value("case_sensitive", false);
  return t;
}

std::string joined(const std::vector<std::string>& w) {
  std::string s;
  for (const auto& x : w) s += (s.empty() ? "" : " ") + x;
  return s;
}

TEST(Ter, MatchesSacrebleuOnEveryCase) {
  const auto j = load_ter_json();
  EXPECT_EQ(j.at("sacrebleu").get<std::string>(), "2.6.0");
  ASSERT_GE(j.at("ter").size(), 17u);
  for (const auto& c : j.at("ter")) {
    const std::string name = c.at("name");
    const auto o = options_of(c.at("options"));
    const auto hyps = c.at("hyps").get<std::vector<std::string>>();
    const auto refs = c.at("refs").get<std::vector<std::vector<std::string>>>();
    const auto tokens = c.at("tokens").get<std::vector<std::string>>();
    for (std::size_t i = 0; i < hyps.size(); ++i) EXPECT_EQ(joined(ter_tokenize(hyps[i], o)), tokens[i]) << name << " line " << i + 1;
    const auto stats = ter_corpus_stats(hyps, refs, o);
    const auto edits = c.at("edits").get<std::vector<double>>();
    const auto ref_len = c.at("ref_len").get<std::vector<double>>();
    ASSERT_EQ(stats.size(), edits.size());
    for (std::size_t i = 0; i < stats.size(); ++i) {
      EXPECT_EQ(stats[i].edits, edits[i]) << name << " line " << i + 1 << ": " << hyps[i];
      EXPECT_EQ(stats[i].ref_len, ref_len[i]) << name << " line " << i + 1;
    }
    EXPECT_EQ(corpus_ter(hyps, refs, o).score, c.at("score").get<double>()) << name;
    std::string sig = c.at("signature");
    sig = sig.substr(0, sig.rfind("version:")) + "version:assay-" ASSAY_VERSION;
    EXPECT_EQ(ter_signature(refs.size(), o), sig) << name;
  }
}

TEST(Ter, ThreadCountDoesNotChangeTheStatistics) {
  const auto j = load_ter_json();
  const auto& c = j.at("ter").at(14);
  const auto hyps = c.at("hyps").get<std::vector<std::string>>();
  const auto refs = c.at("refs").get<std::vector<std::vector<std::string>>>();
  ter_options one, four;
  one.threads = 1;
  four.threads = 4;
  EXPECT_EQ(corpus_ter(hyps, refs, one).score, corpus_ter(hyps, refs, four).score);
}

TEST(Ter, KnownEdits) {
  // Snover et al.'s example of a shift: one block move costs 1.
  EXPECT_EQ(ter_edits({"b", "c", "a"}, {"a", "b", "c"}), 1);
  EXPECT_EQ(ter_edits({}, {"a", "b"}), 2);
  EXPECT_EQ(ter_edits({"a", "b"}, {}), 2);
  EXPECT_EQ(ter_from_stats({0, 0}), 0.0);
  EXPECT_EQ(ter_from_stats({3, 0}), 100.0);
}

TEST(Ter, BadInputNamesTheLine) {
  const std::vector<std::string> hyps{"a", "b"};
  try {
    (void)corpus_ter(hyps, {{"a"}}, {});
    FAIL() << "expected an error";
  } catch (const assay::error& e) {
    EXPECT_NE(std::string(e.what()).find("reference stream 1 has 1 lines"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)corpus_ter(hyps, {}, {}), assay::error);
}

}  // namespace
}  // namespace assay::text
