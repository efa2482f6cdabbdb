// `assay text` end to end: JSON shape, signature, exit codes and messages for bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_cli.hpp"

namespace {

using assay::test::run_assay;
using assay::test::show_args;

struct run_result {
  int code;
  std::string out;  ///< standard output followed by standard error
};

// "assay text ..." with the words of `args` (split on spaces; the test paths have none).
run_result run(const std::string& args) {
  std::vector<std::string> argv;
  std::istringstream in(args);
  for (std::string w; in >> w;) argv.push_back(w);
  const auto r = run_assay(argv);
  return {r.exit_code, r.out + r.err};
}

// A file of that name with exactly `text`, in a directory removed at exit.
std::string write_text(const std::string& name, const std::string& text) {
  static const assay::test::temp_dir dir;
  return dir.file(name, text);
}

void expect_error(const std::vector<std::string>& args, int code, const std::string& message) {
  const auto r = run_assay(args);
  EXPECT_EQ(r.exit_code, code) << show_args(args) << "\n" << r.err;
  EXPECT_EQ(r.err, message + "\n") << show_args(args);
  EXPECT_EQ(r.out, "") << show_args(args);
}

TEST(TextCli, BleuJsonAndSentence) {
  const auto h = write_text("h.txt", "the cat sat on the mat\n\nhello world\n");
  const auto r = write_text("r.txt", "the cat is on the mat\nsomething\nhello world\n");
  auto out = run("text bleu --hyp " + h + " --ref " + r + " --format json");
  ASSERT_EQ(out.code, 0) << out.out;
  auto j = nlohmann::json::parse(out.out);
  EXPECT_TRUE(j.contains("bleu"));
  EXPECT_EQ(j["signature"].get<std::string>().rfind("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|", 0), 0u);
  out = run("text bleu --hyp " + h + " --ref " + r + " --sentence --format json");
  ASSERT_EQ(out.code, 0) << out.out;
  j = nlohmann::json::parse(out.out);
  ASSERT_EQ(j["bleu"].size(), 3u);
  EXPECT_EQ(j["bleu"][1].get<double>(), 0.0);  // the empty hypothesis line
  EXPECT_NEAR(j["bleu"][2].get<double>(), 100.0, 1e-9);
}

TEST(TextCli, MismatchedLinesAndInvalidUtf8) {
  const auto h = write_text("h2.txt", "a\nb\n");
  const auto r = write_text("r2.txt", "a\n");
  auto out = run("text chrf --hyp " + h + " --ref " + r);
  EXPECT_EQ(out.code, 3);
  EXPECT_NE(out.out.find("assay text chrf: --ref " + r + " has 1 lines but --hyp " + h + " has 2"), std::string::npos)
      << out.out;
  const auto bad = write_text("bad.txt", "ok\n\xc3\x28\n");
  out = run("text bleu --hyp " + bad + " --ref " + r);
  EXPECT_EQ(out.code, 3);
  EXPECT_NE(out.out.find(bad + ":2: line \"\\xc3(\" is not valid UTF-8 (byte \\xc3 at offset 0); assay reads text as UTF-8"),
            std::string::npos)
      << out.out;
}

TEST(TextCli, BertscoreFromEmbeddings) {
  const auto h = write_text("h.jsonl", "{\"embeddings\": [[1, 0], [0, 1]]}\n");
  const auto r = write_text("r.jsonl", "{\"embeddings\": [[1, 0]]}\n");
  const auto out = run("text bertscore --hyp-emb " + h + " --ref-emb " + r + " --format json");
  ASSERT_EQ(out.code, 0) << out.out;
  const auto j = nlohmann::json::parse(out.out);
  EXPECT_DOUBLE_EQ(j["P"].get<double>(), 0.5);  // (1 + 0) / 2
  EXPECT_DOUBLE_EQ(j["R"].get<double>(), 1.0);
}

TEST(TextCli, BleuIntervalFromResampledSentences) {
  std::string hyp, ref;
  for (int i = 0; i < 40; ++i) {
    hyp += i % 3 ? "the cat sat on the mat\n" : "a dog ran off\n";
    ref += i % 2 ? "the cat sat on the mat\n" : "a dog ran away\n";
  }
  const auto h = write_text("hci.txt", hyp), r = write_text("rci.txt", ref);
  auto out = run("text bleu --hyp " + h + " --ref " + r + " --ci 0.9 --bootstrap 200 --seed 4 --format json");
  ASSERT_EQ(out.code, 0) << out.out;
  const auto j = nlohmann::json::parse(out.out);
  ASSERT_EQ(j["bleu_ci"].size(), 2u);
  EXPECT_LE(j["bleu_ci"][0].get<double>(), j["bleu"].get<double>());
  EXPECT_GE(j["bleu_ci"][1].get<double>(), j["bleu"].get<double>());
  EXPECT_LT(j["bleu_ci"][0].get<double>(), j["bleu_ci"][1].get<double>());
  EXPECT_EQ(j["bleu_ci_level"].get<double>(), 0.9);
  EXPECT_EQ(j["bleu_ci_method"], "bootstrap percentile, resampling sentences, 200 replicates, seed 4");
  // --replicates is the same option (the name assay report and assay compare use).
  const auto same = run("text bleu --hyp " + h + " --ref " + r + " --ci 0.9 --replicates 200 --seed 4 --format json");
  EXPECT_EQ(same.out, out.out);
  out = run("text bleu --hyp " + h + " --ref " + r + " --ci 0.9 --bootstrap 200 --seed 4");
  EXPECT_NE(out.out.find("90% CI ["), std::string::npos) << out.out;
}

TEST(TextCli, BleuIntervalBadOptionsWholeMessages) {
  const auto h = write_text("hb.txt", "a b\n"), r = write_text("rb.txt", "a b\n");
  const std::vector<std::string> base{"text", "bleu", "--hyp", h, "--ref", r};
  auto with = [&](std::vector<std::string> more) {
    auto a = base;
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  expect_error(with({"--ci", "2"}), 2, "assay text bleu: --ci: the level is 2, but must be between 0 and 1 (e.g. 0.95)");
  expect_error(with({"--ci", "-0.5"}), 2,
               "assay text bleu: --ci: the level is -0.5, but must be between 0 and 1 (e.g. 0.95)");
  expect_error(with({"--ci", "--bootstrap", "0"}), 2, "assay text bleu: --bootstrap: 0 is outside [1, 1000000]");
  expect_error(with({"--ci", "--bootstrap", "-1"}), 2, "assay text bleu: --bootstrap: -1 is outside [1, 1000000]");
  expect_error(with({"--bootstrap", "5"}), 2, "assay text bleu: --bootstrap needs --ci");
  expect_error(with({"--ci", "--sentence"}), 2,
               "assay text bleu: --ci: intervals are for the corpus score, not with --sentence");
}

}  // namespace
