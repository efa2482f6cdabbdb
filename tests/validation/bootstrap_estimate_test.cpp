// .632 / .632+ bootstrap: Err(1) recomputed naively from the bootstrap samples, the formulas'
// identities, and the limiting cases of Efron & Tibshirani (1997).
#include "assay/validation/bootstrap_estimate.hpp"

#include <gtest/gtest.h>

#include "assay/validation/splitters.hpp"

namespace assay::validation {
namespace {

dataset load(const std::string& name, const std::string& target) {
  dataset_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/examples/data/" + name + ".csv";
  q.target = target;
  return read_dataset(q);
}

TEST(Bootstrap632, LeaveOneOutBootstrapAndFormulas) {
  const auto d = load("wine", "cultivar");
  const auto l = make_learner("knn:k=1", true);
  const auto e = bootstrap_632(d, l, 30, 9, 2);
  // Naive Err(1): refit each bootstrap sample here and average each case's out-of-bag losses.
  std::vector<double> sum(d.rows, 0), count(d.rows, 0);
  for (const auto& s : bootstrap(d.rows, 30, 9)) {
    feature_encoder enc;
    enc.fit(d, s.train, l.preprocessing());
    std::vector<std::int32_t> y;
    for (auto i : s.train) y.push_back(d.y_class[i]);
    const auto xtr = enc.transform(d, s.train);
    const auto p = l.fit(training_set{xtr, y, 3, {}}).predict(enc.transform(d, s.test));
    for (std::size_t i = 0; i < s.test.size(); ++i) {
      sum[s.test[i]] += p.cls[i] != d.y_class[s.test[i]];
      count[s.test[i]] += 1;
    }
  }
  double err1 = 0, used = 0;
  for (std::size_t i = 0; i < d.rows; ++i)
    if (count[i] > 0) {
      err1 += sum[i] / count[i];
      ++used;
    }
  EXPECT_NEAR(e.err_oob, err1 / used, 1e-15);
  EXPECT_EQ(e.err_train, 0.0);  // 1-NN recalls its training set (wine has no duplicate rows)
  EXPECT_NEAR(e.err_632, 0.632 * e.err_oob, 1e-15);
  // With err = 0: R' = Err1 / gamma, w = 0.632 / (1 - 0.368 R'), .632+ = w Err1 >= .632.
  const double r = e.err_oob / e.gamma, w = 0.632 / (1 - 0.368 * r);
  EXPECT_NEAR(e.relative_overfit, r, 1e-15);
  EXPECT_NEAR(e.err_632plus, w * e.err_oob, 1e-15);
  EXPECT_GE(e.err_632plus, e.err_632);
}

TEST(Bootstrap632, NoInformationRateOfTheMajorityClass) {
  // The majority learner predicts benign for everyone: gamma = sum_k p_k (1 - q_k) = 212/569, its
  // training error; no overfitting (R' = 0) and .632+ equals .632.
  const auto d = load("breast_cancer", "diagnosis");
  const auto e = bootstrap_632(d, make_learner("majority", true), 20, 1);
  EXPECT_NEAR(e.gamma, 212.0 / 569, 1e-15);
  EXPECT_NEAR(e.err_train, 212.0 / 569, 1e-15);
  EXPECT_NEAR(e.err_632plus, e.err_632, 1e-12);
}

}  // namespace
}  // namespace assay::validation
