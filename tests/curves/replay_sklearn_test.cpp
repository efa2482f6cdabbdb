// Replays scikit-learn's outputs (tests/curves/sklearn_curves.json, written by generate_sklearn.py)
// and R pROC's partial AUCs (proc_partial_auc.json, generate_proc.R). Tolerance 1e-12 absolute:
// the inputs are the same doubles and only the order of floating-point sums differs.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "assay/curves/calibration.hpp"
#include "assay/curves/multiclass.hpp"
#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"
#include "assay/io/table.hpp"

namespace assay::curves {
namespace {

using json = nlohmann::json;
constexpr double tol = 1e-12;

json load(const char* name) {
  std::ifstream f(std::string(ASSAY_TEST_DIR) + "/curves/" + name);
  EXPECT_TRUE(f) << name;
  return json::parse(f);
}

const json& sk() {
  static const json j = load("sklearn_curves.json");
  return j;
}

void expect_near_vec(const std::vector<double>& got, const json& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i].get<double>(), tol) << what << " [" << i << "]";
}

struct binary_data {
  std::vector<std::int32_t> y;
  std::vector<double> s, w;
};
binary_data read_case(const json& c) {
  binary_data d{c["y"].get<std::vector<std::int32_t>>(), c["score"].get<std::vector<double>>(), {}};
  if (c.contains("weight")) d.w = c["weight"].get<std::vector<double>>();
  return d;
}

TEST(SklearnReplay, VersionRecorded) {
  EXPECT_EQ(sk()["sklearn_version"], "1.2.1");
  EXPECT_GE(sk()["binary"].size(), 50u);
}

TEST(SklearnReplay, RocCurves) {
  for (const auto& c : sk()["binary"]) {
    const std::string name = c["name"];
    const binary_data d = read_case(c);
    const score_sweep sw = sweep_scores("test", d.y, d.s, d.w);
    for (bool drop : {false, true}) {
      const roc_curve_result r = roc_curve(sw, {drop, first_threshold::max_plus_one});
      const json& want = c[drop ? "roc_drop" : "roc_full"];
      expect_near_vec(r.fpr, want["fpr"], name + " fpr");
      expect_near_vec(r.tpr, want["tpr"], name + " tpr");
      // Thresholds are scores (no arithmetic) except the first, max + 1: compare exactly.
      ASSERT_EQ(r.thresholds.size(), want["thresholds"].size()) << name;
      for (std::size_t i = 0; i < r.thresholds.size(); ++i) EXPECT_EQ(r.thresholds[i], want["thresholds"][i].get<double>()) << name;
      const roc_curve_result ours = roc_curve(sw, {drop, first_threshold::infinity});
      EXPECT_TRUE(std::isinf(ours.thresholds[0]));
    }
    EXPECT_NEAR(roc_auc(sw).v, c["roc_auc"].get<double>(), tol) << name;
    for (const auto& pa : c["partial_auc"]) {
      EXPECT_NEAR(partial_auc_fpr(sw, 0, pa[0].get<double>()).v, pa[1].get<double>(), tol) << name << " max_fpr " << pa[0];
    }
  }
}

TEST(SklearnReplay, PrecisionRecall) {
  for (const auto& c : sk()["binary"]) {
    const std::string name = c["name"];
    const binary_data d = read_case(c);
    const score_sweep sw = sweep_scores("test", d.y, d.s, d.w);
    const pr_curve_result r = precision_recall_curve(sw);
    expect_near_vec(r.precision, c["pr"]["precision"], name + " precision");
    expect_near_vec(r.recall, c["pr"]["recall"], name + " recall");
    expect_near_vec(r.thresholds, c["pr"]["thresholds"], name + " thresholds");
    EXPECT_NEAR(average_precision(sw).v, c["average_precision"].get<double>(), tol) << name;
  }
}

TEST(SklearnReplay, MulticlassAuc) {
  for (const auto& c : sk()["multiclass"]) {
    const std::string name = c["name"];
    const auto K = c["k"].get<std::size_t>();
    const auto y = c["y"].get<std::vector<std::int32_t>>();
    const auto w = c["weight"].get<std::vector<double>>();
    std::vector<double> p;
    for (const auto& row : c["proba"]) for (const auto& x : row) p.push_back(x.get<double>());
    const proba_view pv = proba_view::matrix(p, K);
    using enum multiclass_average;
    EXPECT_NEAR(roc_auc_ovr(y, pv, {}, macro).v, c["ovr_macro"].get<double>(), tol) << name;
    EXPECT_NEAR(roc_auc_ovr(y, pv, {}, weighted).v, c["ovr_weighted"].get<double>(), tol) << name;
    EXPECT_NEAR(roc_auc_ovr(y, pv, w, macro).v, c["ovr_macro_w"].get<double>(), tol) << name;
    EXPECT_NEAR(roc_auc_ovr(y, pv, w, weighted).v, c["ovr_weighted_w"].get<double>(), tol) << name;
    EXPECT_NEAR(roc_auc_ovo(y, pv, {}, macro).v, c["ovo_macro"].get<double>(), tol) << name;
    EXPECT_NEAR(roc_auc_ovo(y, pv, {}, weighted).v, c["ovo_weighted"].get<double>(), tol) << name;
  }
}

TEST(SklearnReplay, CalibrationCurve) {
  for (const auto& c : sk()["calibration"]) {
    const std::string name = c["name"];
    const auto y = c["y"].get<std::vector<std::int32_t>>();
    const auto p = c["prob"].get<std::vector<double>>();
    for (const auto& cc : c["curves"]) {
      const bin_strategy st = cc["strategy"] == "uniform" ? bin_strategy::uniform : bin_strategy::quantile;
      const auto r = reliability_curve(y, p, {}, cc["n_bins"].get<std::size_t>(), st);
      const std::string what = name + " " + cc["strategy"].get<std::string>() + " " + cc["n_bins"].dump();
      expect_near_vec(r.prob_true, cc["prob_true"], what + " prob_true");
      expect_near_vec(r.prob_pred, cc["prob_pred"], what + " prob_pred");
    }
  }
}

// Weighted quantile bins: the peer is calibration_curve on the rows repeated w_i times (integer
// weights, zeros included), as scikit-learn 1.2's calibration_curve takes no weights.
TEST(SklearnReplay, CalibrationCurveWeightedQuantileEqualsRepeatedRows) {
  ASSERT_EQ(sk()["calibration_weighted"].size(), 3u);
  for (const auto& c : sk()["calibration_weighted"]) {
    const std::string name = c["name"];
    const auto y = c["y"].get<std::vector<std::int32_t>>();
    const auto p = c["prob"].get<std::vector<double>>();
    const auto w = c["weight"].get<std::vector<double>>();
    for (const auto& cc : c["curves"]) {
      const auto r = reliability_curve(y, p, w, cc["n_bins"].get<std::size_t>(), bin_strategy::quantile);
      const std::string what = name + " weighted quantile " + cc["n_bins"].dump();
      expect_near_vec(r.prob_true, cc["prob_true"], what + " prob_true");
      expect_near_vec(r.prob_pred, cc["prob_pred"], what + " prob_pred");
    }
  }
}

// Multiclass: per class calibration_curve(y == k, p[:, k]) and the top-label curve
// calibration_curve(argmax == y, max p) of Guo et al. (2017).
TEST(SklearnReplay, CalibrationCurveOneVsRestAndTopLabel) {
  ASSERT_EQ(sk()["calibration_multiclass"].size(), 2u);
  for (const auto& c : sk()["calibration_multiclass"]) {
    const std::string name = c["name"];
    const auto K = c["k"].get<std::size_t>();
    const auto y = c["y"].get<std::vector<std::int32_t>>();
    std::vector<double> flat;
    for (const auto& row : c["proba"])
      for (const auto& x : row) flat.push_back(x.get<double>());
    const proba_view pv = proba_view::matrix(flat, K);
    for (const auto& cc : c["curves"]) {
      const bin_strategy st = cc["strategy"] == "uniform" ? bin_strategy::uniform : bin_strategy::quantile;
      const auto bins = cc["n_bins"].get<std::size_t>();
      const std::string what = name + " " + cc["strategy"].get<std::string>() + " " + cc["n_bins"].dump();
      for (std::size_t k = 0; k < K; ++k) {
        const binary_problem b = one_vs_rest(y, pv, k);
        const auto r = reliability_curve(b.y, b.score, {}, bins, st);
        expect_near_vec(r.prob_true, cc["per_class"][k]["prob_true"], what + " class " + std::to_string(k));
        expect_near_vec(r.prob_pred, cc["per_class"][k]["prob_pred"], what + " class " + std::to_string(k));
      }
      const auto t = top_label_reliability_curve(y, pv, {}, bins, st);
      expect_near_vec(t.prob_true, cc["top_label"]["prob_true"], what + " top-label prob_true");
      expect_near_vec(t.prob_pred, cc["top_label"]["prob_pred"], what + " top-label prob_pred");
    }
  }
}

TEST(ProcReplay, PartialAucOnAsah) {
  const json j = load("proc_partial_auc.json");
  EXPECT_EQ(j["proc_version"], "1.18.0");
  for (const auto& c : j["cases"]) {
    const std::string marker = c["marker"];
    io::table t = io::read_table(std::string(ASSAY_SOURCE_DIR) + "/examples/data/asah.csv",
                                 {{"outcome", io::column_type::label, "--label"}, {marker, io::column_type::number, "--score"}});
    std::vector<std::int32_t> y;
    for (auto code : t.columns[0].codes) y.push_back(t.columns[0].levels[code] == "Poor");
    const score_sweep sw = sweep_scores("test", y, t.columns[1].numbers);
    for (const auto& r : c["results"]) {
      const std::string focus = r["focus"];
      const double lo = r["lo"], hi = r["hi"], want = r["auc"];
      const bool correct = r["correct"];
      double got = 0;
      if (focus == "full") got = roc_auc(sw).v;
      else if (focus == "specificity") got = partial_auc_fpr(sw, lo, hi, correct).v;
      else got = partial_auc_tpr(sw, lo, hi, correct).v;
      EXPECT_NEAR(got, want, tol) << marker << " " << focus << " [" << lo << ", " << hi << "] correct=" << correct;
    }
  }
}

}  // namespace
}  // namespace assay::curves
