// The external-command learner: a Python/scikit-learn script end to end, and commands that fail,
// hang or write the wrong number of predictions.
#include "assay/validation/external.hpp"

#include <gtest/gtest.h>

#include "assay/error.hpp"
#include "assay/validation/engine.hpp"

namespace assay::validation {
namespace {

dataset iris() {
  dataset_request q;
  q.path = std::string(ASSAY_SOURCE_DIR) + "/examples/data/iris.csv";
  q.target = "species";
  return read_dataset(q);
}

// examples/external/sklearn_learner.py with scikit-learn's GaussianNB gives the same out-of-fold
// probabilities as the built-in gaussian_nb (both replay scikit-learn; the features travel through
// CSV in shortest round-trip form and the probabilities come back with 17 significant digits).
TEST(External, PythonScikitLearnScriptEndToEnd) {
  const auto d = iris();
  const auto splits = stratified_kfold(d.y_class, 2);
  const std::string cmd = "/usr/bin/python3 " + std::string(ASSAY_SOURCE_DIR) +
                          "/examples/external/sklearn_learner.py {train} {test} {predictions} {classes} gaussian_nb";
  const auto ext = cross_validate(d, make_external_learner(cmd, 300), splits, {});
  const auto own = cross_validate(d, make_learner("gaussian_nb", true), splits, {});
  ASSERT_EQ(ext.oof.size(), own.oof.size());
  for (std::size_t i = 0; i < ext.oof.size(); ++i) {
    EXPECT_EQ(ext.oof[i].cls, own.oof[i].cls);
    for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(ext.oof[i].proba[k], own.oof[i].proba[k], 1e-12);
  }
}

void expect_error(const std::string& cmd, double timeout, const std::string& part) {
  const auto d = iris();
  try {
    cross_validate(d, make_external_learner(cmd, timeout), kfold(d.rows, 2, true, 1), {});
    ADD_FAILURE() << cmd << ": no error";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::data);
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(External, FailuresAreNamed) {
  expect_error("echo model broke >&2; exit 3", 60, "failed with exit status 3; its standard error ends: model broke");
  expect_error("true", 60, "wrote no {predictions} file");
  // Wrong number of rows: the first 10 test rows only, predicting class 0.
  expect_error("(echo pred; head -n 11 {test} | tail -n 10 | sed 's/.*/0/') > {predictions}", 60,
               "wrote 10 prediction rows for 75 test rows");
  expect_error("(echo pred; sed '1d; s/.*/7/' {test}) > {predictions}", 60, "is not a class index in [0, 3)");
  expect_error("(echo guess; sed '1d; s/.*/0/' {test}) > {predictions}", 60, "no column 'pred'");
  const auto t0 = std::chrono::steady_clock::now();
  expect_error("sleep 30", 0.3, "did not finish within the timeout of 0.3 s (killed)");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
}

TEST(External, ShellCommandPredictingAConstant) {
  // A learner in two lines of shell: always class 1 (versicolor), probability 1.
  const auto d = iris();
  const auto r = cross_validate(
      d, make_external_learner("(echo pred,p0,p1,p2; sed '1d; s/.*/1,0,1,0/' {test}) > {predictions}", 60),
      stratified_kfold(d.y_class, 5), {{"accuracy"}});
  EXPECT_DOUBLE_EQ(r.summary[0].pooled.v, 50.0 / 150);
}

}  // namespace
}  // namespace assay::validation

#include <thread>

#include "assay/validation/cancel.hpp"

namespace assay::validation {
namespace {

// Cancellation (what Ctrl-C does in the CLI): a running external command is killed and the run
// throws `interrupted` promptly; a cancelled engine runs no further splits.
TEST(External, CancellationKillsTheCommandAndStops) {
  const auto d = iris();
  reset_cancel();
  std::thread canceller([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    request_cancel();
  });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(cross_validate(d, make_external_learner("sleep 30", 100), kfold(d.rows, 3), {}), interrupted);
  canceller.join();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
  EXPECT_THROW(cross_validate(d, make_learner("majority", true), kfold(d.rows, 3), {}), interrupted);
  reset_cancel();
  EXPECT_NO_THROW(cross_validate(d, make_learner("majority", true), kfold(d.rows, 3), {}));
}

}  // namespace
}  // namespace assay::validation
