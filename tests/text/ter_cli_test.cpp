// `assay text ter` and `assay text bleu|chrf|ter --paired-bs|--paired-ar` end to end: JSON shape,
// and the whole messages for bad input. Expected p-values and intervals come from sacreBLEU 2.6.0
// on these files (`SACREBLEU_SEED=12345 python -m sacrebleu r.txt -i h.txt s.txt -m ter chrf
// --paired-bs`: TER 14.3 (13.7 ± 8.3), s.txt 21.4 (22.3 ± 25.0) p = 0.2468; chrF2 78.4 (79.0 ± 17.7),
// s.txt 70.7 (70.3 ± 25.5) p = 0.2468).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/run_cli.hpp"

namespace {

using assay::test::run_assay;

std::string write_text(const std::string& name, const std::string& text) {
  static const assay::test::temp_dir dir;
  return dir.file(name, text);
}

struct files {
  std::string h, r, s;
};

files demo() {
  return {write_text("th.txt", "the cat sat on the mat\non the mat the cat sat\nhello world\n"),
          write_text("tr.txt", "the cat is on the mat\nthe cat sat on the mat\nhello world\n"),
          write_text("ts.txt", "a cat sat on the mat\nthe cat sat on the mat\nhello there world\n")};
}

TEST(TerCli, CorpusJsonAndSentence) {
  const auto f = demo();
  auto r = run_assay({"text", "ter", "--hyp", f.h, "--ref", f.r, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["ter"].get<double>(), 100.0 * 2 / 14);  // one substitution, one shift; 14 reference words
  EXPECT_EQ(j["signature"].get<std::string>().rfind("nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:", 0), 0u);
  r = run_assay({"text", "ter", "--hyp", f.h, "--ref", f.r, "--sentence", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["ter"].size(), 3u);
  EXPECT_DOUBLE_EQ(j["ter"][1].get<double>(), 100.0 / 6);  // one shift
}

TEST(TerCli, PairedBootstrapAsSacrebleu) {
  const auto f = demo();
  for (const std::string metric : {"ter", "chrf"}) {
    const auto r = run_assay({"text", metric, "--hyp", f.h, "--ref", f.r, "--system", f.s, "--paired-bs", "--format", "json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["systems"].size(), 2u);
    EXPECT_TRUE(j["systems"][0]["p_value"].is_null());
    EXPECT_NEAR(j["systems"][1]["p_value"].get<double>(), 0.2468, 5e-5) << metric;
    const double mean0 = metric == "ter" ? 13.7 : 79.0, ci1 = metric == "ter" ? 25.0 : 25.5;
    EXPECT_NEAR(j["systems"][0]["mean"].get<double>(), mean0, 0.05) << metric;
    EXPECT_NEAR(j["systems"][1]["ci"].get<double>(), ci1, 0.05) << metric;
    EXPECT_NE(j["signature"].get<std::string>().find("|bs:1000|seed:12345|"), std::string::npos);
  }
  const auto ar = run_assay({"text", "bleu", "--hyp", f.h, "--ref", f.r, "--system", f.s, "--paired-ar", "--paired-n", "99"});
  ASSERT_EQ(ar.exit_code, 0) << ar.err;
  EXPECT_NE(ar.out.find("paired approximate randomization 99, seed 12345"), std::string::npos) << ar.out;
}

TEST(TerCli, BadInputWholeMessages) {
  const auto f = demo();
  const auto one = write_text("t1.txt", "x\n");
  auto r = run_assay({"text", "ter", "--hyp", f.h, "--ref", f.r, "--system", one, "--paired-bs"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err, "assay text ter: --system " + one + " has 1 lines but --hyp " + f.h + " has 3\n");
  const auto bad = write_text("tbad.txt", "ok\n\xc3\x28\nz\n");
  r = run_assay({"text", "ter", "--hyp", f.h, "--ref", f.r, "--system", bad, "--paired-ar"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err, "assay text ter: " + bad +
                       ":2: line \"\\xc3(\" is not valid UTF-8 (byte \\xc3 at offset 0); assay reads text as UTF-8\n");
  r = run_assay({"text", "ter", "--hyp", f.h, "--ref", one});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err, "assay text ter: --ref " + one + " has 1 lines but --hyp " + f.h + " has 3\n");
  r = run_assay({"text", "bleu", "--hyp", f.h, "--ref", f.r, "--paired-bs"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "assay text bleu: --paired-bs/--paired-ar: give the systems to compare with --system FILE\n");
  r = run_assay({"text", "chrf", "--hyp", f.h, "--ref", f.r, "--system", f.s});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "assay text chrf: --system: give --paired-bs or --paired-ar to compare systems\n");
}

}  // namespace
