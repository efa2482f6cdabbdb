// `assay text rouge` end to end: its numbers against rouge-score's (tests/text/data/rouge_cases.json,
// written by tests/text/generate_rouge.py), its JSON and text shapes, and whole messages for bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_cli.hpp"

namespace {

using assay::test::run_assay;
using assay::test::show_args;
using json = nlohmann::json;

json load(const char* name) {
  std::ifstream f(std::string(ASSAY_TEST_DIR "/text/data/") + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str());
}

std::string write_text(const std::string& name, const std::string& text) {
  static const assay::test::temp_dir dir;
  return dir.file(name, text);
}

std::string types_arg(const json& types) {
  std::string s;
  for (const auto& t : types) s += (s.empty() ? "" : ",") + t.get<std::string>();
  return s;
}

void expect_error(const std::vector<std::string>& args, int code, const std::string& message) {
  const auto r = run_assay(args);
  EXPECT_EQ(r.exit_code, code) << show_args(args) << "\n" << r.err;
  EXPECT_EQ(r.err, message + "\n") << show_args(args);
  EXPECT_EQ(r.out, "") << show_args(args);
}

TEST(RougeCli, MeansMatchRougeScore) {
  const json d = load("rouge_cases.json");
  const auto& b = d["bootstrap"];
  std::string hyp, ref;
  for (const auto& h : b["hyps"]) hyp += h.get<std::string>() + "\n";
  for (const auto& r : b["refs"]) ref += r.get<std::string>() + "\n";
  const auto h = write_text("h.txt", hyp), r = write_text("r.txt", ref);
  const auto out = run_assay({"text", "rouge", "--hyp", h, "--ref", r, "--stem", "--types", types_arg(d["types"]),
                              "--format", "json", "--ci", "0.9", "--bootstrap", "200", "--seed", "3"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const auto j = json::parse(out.out);
  for (const auto& t : d["types"]) {
    const std::string name = t.get<std::string>();
    double p = 0, rec = 0, f = 0;
    for (const auto& s : b["scores"]) {
      p += s[name][0].get<double>();
      rec += s[name][1].get<double>();
      f += s[name][2].get<double>();
    }
    const double n = static_cast<double>(b["scores"].size());
    EXPECT_NEAR(j[name]["precision"].get<double>(), p / n, 1e-12) << name;
    EXPECT_NEAR(j[name]["recall"].get<double>(), rec / n, 1e-12) << name;
    EXPECT_NEAR(j[name]["fmeasure"].get<double>(), f / n, 1e-12) << name;
    ASSERT_EQ(j[name]["fmeasure_ci"].size(), 2u);
    EXPECT_LE(j[name]["fmeasure_ci"][0].get<double>(), j[name]["fmeasure"].get<double>());
    EXPECT_GE(j[name]["fmeasure_ci"][1].get<double>(), j[name]["fmeasure"].get<double>());
  }
  EXPECT_EQ(j["lines"].get<int>(), 200);
  EXPECT_EQ(j["ci_method"], "bootstrap percentile, resampling lines, 200 replicates, seed 3");
  EXPECT_EQ(j["signature"].get<std::string>().rfind("nrefs:1|stem:porter-nltk|tok:rouge-score|version:assay-", 0), 0u);
}

TEST(RougeCli, SentenceSeparatorGivesRougeLsumOfMultiLineTexts) {
  // The single-reference cases of the generator, newlines written as "<n>", one line per case.
  const json d = load("rouge_cases.json");
  std::string hyp, ref;
  std::vector<const json*> kept;
  auto flat = [](std::string s) {
    for (std::size_t k; (k = s.find('\n')) != std::string::npos;) s.replace(k, 1, "<n>");
    return s;
  };
  for (const auto& c : d["cases"]) {
    const auto h = c["hyp"].get<std::string>(), r = c["refs"][0].get<std::string>();
    if (c["stem"].get<bool>() || c["refs"].size() != 1 || (h + r).find('\r') != std::string::npos) continue;
    hyp += flat(h) + "\n";
    ref += flat(r) + "\n";
    kept.push_back(&c);
  }
  ASSERT_GT(kept.size(), 100u);
  const auto hf = write_text("hs.txt", hyp), rf = write_text("rs.txt", ref);
  const auto out = run_assay({"text", "rouge", "--hyp", hf, "--ref", rf, "--sentence-separator", "<n>", "--types",
                              "rouge2,rougeLsum", "--sentence", "--format", "json"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const auto j = json::parse(out.out);
  ASSERT_EQ(j["rougeLsum"]["fmeasure"].size(), kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i)
    for (const char* t : {"rouge2", "rougeLsum"})
      for (int k = 0; k < 3; ++k) {
        const char* field = k == 0 ? "precision" : k == 1 ? "recall" : "fmeasure";
        EXPECT_DOUBLE_EQ(j[t][field][i].get<double>(), (*kept[i])["scores"][t][k].get<double>()) << i << " " << t;
      }
}

TEST(RougeCli, TwoReferenceFilesTakeTheBestByF) {
  // The generator's cases with two single-line references, as two --ref files.
  const json d = load("rouge_cases.json");
  std::string hyp, ref_a, ref_b;
  std::vector<const json*> kept;
  for (const auto& c : d["cases"]) {
    if (c["refs"].size() != 2 || !c["stem"].get<bool>()) continue;
    const auto h = c["hyp"].get<std::string>(), a = c["refs"][0].get<std::string>(), b = c["refs"][1].get<std::string>();
    if ((h + a + b).find_first_of("\r\n") != std::string::npos) continue;
    hyp += h + "\n";
    ref_a += a + "\n";
    ref_b += b + "\n";
    kept.push_back(&c);
  }
  ASSERT_GT(kept.size(), 10u);
  const auto hf = write_text("h2r.txt", hyp), af = write_text("a2r.txt", ref_a), bf = write_text("b2r.txt", ref_b);
  const auto out = run_assay({"text", "rouge", "--hyp", hf, "--ref", af, "--ref", bf, "--stem", "--types",
                              types_arg(d["types"]), "--sentence", "--format", "json"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const auto j = json::parse(out.out);
  for (std::size_t i = 0; i < kept.size(); ++i)
    for (const auto& t : d["types"])
      EXPECT_DOUBLE_EQ(j[t.get<std::string>()]["fmeasure"][i].get<double>(),
                       (*kept[i])["scores"][t.get<std::string>()][2].get<double>())
          << i << " " << t;
  EXPECT_EQ(j["signature"].get<std::string>().rfind("nrefs:2|", 0), 0u);
}

TEST(RougeCli, TextOutput) {
  const auto h = write_text("ht.txt", "The quick brown dog jumps on the log.\n");
  const auto r = write_text("rt.txt", "The quick brown fox jumps over the lazy dog\n");
  const auto out = run_assay({"text", "rouge", "--hyp", h, "--ref", r, "--types", "rouge1,rougeL"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out.substr(0, out.out.find("signature:")),
            "                   P         R         F\n"
            "rouge1        0.7500    0.6667    0.7059\n"
            "rougeL        0.6250    0.5556    0.5882\n"
            "mean over 1 lines\n");
}

TEST(RougeCli, BadInputWholeMessages) {
  const auto h = write_text("h2.txt", "a\nb\n"), r = write_text("r2.txt", "a\n"), ok = write_text("ok.txt", "a\nb\n");
  expect_error({"text", "rouge", "--hyp", h, "--ref", r}, 3,
               "assay text rouge: --ref " + r + " has 1 lines but --hyp " + h + " has 2");
  const auto bad = write_text("bad.txt", "ok\n\xc3\x28\n");
  expect_error({"text", "rouge", "--hyp", ok, "--ref", bad}, 3,
               "assay text rouge: " + bad +
                   ":2: line \"\\xc3(\" is not valid UTF-8 (byte \\xc3 at offset 0); assay reads text as UTF-8");
  expect_error({"text", "rouge", "--hyp", ok, "--ref", ok, "--types", "rouge1,rougeW"}, 2,
               "assay text rouge: --types has 'rougeW'; a ROUGE type is rouge1 .. rouge9, rougeL or rougeLsum");
  expect_error({"text", "rouge", "--hyp", ok, "--ref", ok, "--types", "rougeL,rouge1,rougeL"}, 2,
               "assay text rouge: --types names rougeL twice");
  expect_error({"text", "rouge", "--hyp", ok, "--ref", ok, "--ci", "--sentence"}, 2,
               "assay text rouge: --ci: intervals are for the mean over lines, not with --sentence");
}

}  // namespace
