// `assay curve` end to end: runs the built binary on small files and checks outputs, exit codes and
// messages for bad input.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

struct run_result {
  int code = -1;
  std::string out, err;
};

std::filesystem::path temp_dir() {
  auto d = std::filesystem::temp_directory_path() / ("assay_curves_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

std::string write_file(const std::string& name, const std::string& text) {
  const auto p = temp_dir() / name;
  std::ofstream(p) << text;
  return p.string();
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

run_result run(const std::string& args) {
  const auto err = temp_dir() / "stderr.txt";
  const std::string cmd = std::string(ASSAY_CLI_PATH) + " " + args + " 2>" + err.string();
  run_result r;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = slurp(err);
  return r;
}

// The seed 000 example as a file, classes as strings.
const char* seed_csv =
    "id,y,s,w\n9,pos,.99,1\n7,pos,.98,1\n1,neg,.72,1\n2,pos,.70,1\n6,pos,.65,1\n10,neg,.51,1\n3,neg,.39,1\n"
    "5,pos,.24,1\n4,neg,.11,1\n8,neg,.01,1\n";

TEST(CurveCli, RocJsonOfSeedExample) {
  const std::string f = write_file("seed.csv", seed_csv);
  const run_result r = run("curve roc " + f + " --label y --score s --pos-label pos --format json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["positive"], "pos");
  EXPECT_EQ(j["models"][0]["roc_auc"].get<double>(), 0.8);  // 20 of 25 pairs, by hand
  EXPECT_TRUE(j["models"][0]["thresholds"][0].is_null());   // +inf
  EXPECT_EQ(j["models"][0]["fpr"].size(), 11u);
}

TEST(CurveCli, EveryKindWritesCsvAndSvg) {
  const std::string f = write_file("seed.csv", seed_csv);
  for (const char* kind : {"roc", "pr", "threshold", "rejection", "cost", "calibration"}) {
    const auto svg = temp_dir() / (std::string(kind) + ".svg");
    const auto csv = temp_dir() / (std::string(kind) + ".csv");
    const run_result r = run(std::string("curve ") + kind + " " + f + " --label y --score s --weight w --pos-label pos --plot " +
                             svg.string() + " --output " + csv.string() + " --cost-fp 1 --cost-fn 10");
    ASSERT_EQ(r.code, 0) << kind << ": " << r.err;
    const std::string text = slurp(svg);
    EXPECT_EQ(text.rfind("<svg", 0), 0u) << kind;
    EXPECT_NE(text.find("</svg>"), std::string::npos) << kind;
    EXPECT_EQ(slurp(csv).rfind("model,", 0), 0u) << kind;
  }
}

TEST(CurveCli, SvgTextIsEscaped) {
  const std::string f = write_file("esc.csv", "y,a<b&c\n1,0.9\n0,0.1\n");
  const auto svg = temp_dir() / "esc.svg";
  const run_result r = run("curve roc " + f + " --label y --score 'a<b&c' --plot " + svg.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = slurp(svg);
  EXPECT_NE(text.find("a&lt;b&amp;c"), std::string::npos);
  EXPECT_EQ(text.find("a<b"), std::string::npos);
}

TEST(CurveCli, OneClassGivesUndefinedAucButACurve) {
  const std::string f = write_file("one.csv", "y,s\n1,0.2\n1,0.7\n1,0.4\n");
  const run_result r = run("curve roc " + f + " --label y --score s --format json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["models"][0]["roc_auc"].is_null());
  EXPECT_NE(j["models"][0]["roc_auc_undefined"].get<std::string>().find("one class"), std::string::npos);
  EXPECT_EQ(j["models"][0]["tpr"].size(), 4u);
}

TEST(CurveCli, BadInputExitCodesAndMessages) {
  const std::string nan_file = write_file("nan.csv", "y,s\n1,0.2\n0,nan\n");
  run_result r = run("curve roc " + nan_file + " --label y --score s");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("nan.csv:3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("assay curve roc"), std::string::npos) << r.err;

  const std::string seed = write_file("seed.csv", seed_csv);
  r = run("curve roc " + seed + " --label y --score s");  // string classes, no --pos-label
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--pos-label"), std::string::npos) << r.err;
  r = run("curve roc " + seed + " --label y --score s --pos-label maybe");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("\"maybe\""), std::string::npos) << r.err;
  r = run("curve roc " + seed + " --label y --score nosuchcolumn --pos-label pos");
  EXPECT_EQ(r.code, 2) << r.err;
  r = run("curve threshold " + seed + " --label y --score s --pos-label pos --cost-fp -1 --cost-fn 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cost(FP)"), std::string::npos) << r.err;

  const std::string multi = write_file("multi.csv", "y,a,b,c\na,0.5,0.3,0.2\nb,0.2,0.5,0.3\nc,0.3,0.3,0.3\n");
  r = run("curve roc " + multi + " --label y --proba a b c");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("data row 3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sum to 0.89"), std::string::npos) << r.err;

  const std::string prob = write_file("prob.csv", "y,s\n1,1.5\n0,0.1\n");
  r = run("curve calibration " + prob + " --label y --score s");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("1.5"), std::string::npos) << r.err;
}

}  // namespace

namespace {

// Partial AUC through the CLI equals pROC's on asah.csv (proc_partial_auc.json, s100b, fpr [0, 0.2]).
TEST(CurveCli, PartialAucOptionMatchesProc) {
  std::ifstream f(std::string(ASSAY_TEST_DIR) + "/curves/proc_partial_auc.json");
  const auto j = nlohmann::json::parse(f);
  double want = -1;
  for (const auto& c : j["cases"]) {
    if (c["marker"] != "s100b") continue;
    for (const auto& r : c["results"]) {
      if (r["focus"] == "specificity" && r["lo"].get<double>() == 0 && r["correct"].get<bool>()) want = r["auc"];
    }
  }
  ASSERT_GT(want, 0);
  const run_result r = run("curve roc " + std::string(ASSAY_SOURCE_DIR) +
                           "/examples/data/asah.csv --label outcome --pos-label Poor --score s100b --partial-fpr 0 "
                           "0.19999999999999996 --format json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto out = nlohmann::json::parse(r.out);
  EXPECT_NEAR(out["models"][0]["partial_auc_fpr"]["mcclish"].get<double>(), want, 1e-12);
  EXPECT_EQ(run("curve roc x.csv --label y --score s --partial-fpr 0.5 0.5").code, 2);
}

}  // namespace

namespace {

// Multiclass AUCs through `assay curve roc --proba` equal scikit-learn's on the iris example.
TEST(CurveCli, MulticlassAucMatchesSklearn) {
  std::ifstream f(std::string(ASSAY_TEST_DIR) + "/curves/sklearn_curves.json");
  const auto ex = nlohmann::json::parse(f)["example_multiclass"];
  std::string args = "curve roc " + std::string(ASSAY_SOURCE_DIR) + "/" + ex["file"].get<std::string>() + " --label " +
                     ex["label"].get<std::string>() + " --format json --proba";
  for (const auto& c : ex["proba"]) args += " " + c.get<std::string>();
  const run_result r = run(args);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto out = nlohmann::json::parse(r.out);
  for (const char* key : {"roc_auc_ovr_macro", "roc_auc_ovr_weighted", "roc_auc_ovo_macro", "roc_auc_ovo_weighted"}) {
    EXPECT_NEAR(out[key].get<double>(), ex[key].get<double>(), 1e-12) << key;
  }
  EXPECT_EQ(out["models"].size(), 3u);  // one one-vs-rest curve per class
}

}  // namespace
