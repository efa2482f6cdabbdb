#include "assay/validation/xgboost.hpp"

#include <fmt/format.h>

#include <limits>

#include "assay/error.hpp"

#if ASSAY_HAVE_XGBOOST
#include <xgboost/c_api.h>
#endif

namespace assay::validation {

#if ASSAY_HAVE_XGBOOST

bool xgboost_available() noexcept { return true; }

namespace {

void check(int rc, const char* what) {
  if (rc != 0) throw_data(fmt::format("learner xgboost: {}: {}", what, XGBGetLastError()));
}

std::shared_ptr<void> dmatrix(const matrix& x) {
  std::vector<float> f(x.data.begin(), x.data.end());
  DMatrixHandle h = nullptr;
  check(XGDMatrixCreateFromMat(f.data(), x.rows, x.cols, std::numeric_limits<float>::quiet_NaN(), &h),
        "XGDMatrixCreateFromMat");
  return {h, [](void* p) { XGDMatrixFree(p); }};
}

}  // namespace

xgboost_learner::fitted xgboost_learner::fit(const training_set& t) const {
  fitted f;
  f.classes = t.classes;
  f.cols = t.x.cols;
  const auto dtrain = dmatrix(t.x);
  std::vector<float> label(t.x.rows);
  for (std::size_t i = 0; i < t.x.rows; ++i) {
    label[i] = t.classification() ? static_cast<float>(t.y_class[i]) : static_cast<float>(t.y_value[i]);
  }
  check(XGDMatrixSetFloatInfo(dtrain.get(), "label", label.data(), label.size()), "XGDMatrixSetFloatInfo");
  BoosterHandle b = nullptr;
  DMatrixHandle train_handle = dtrain.get();
  check(XGBoosterCreate(&train_handle, 1, &b), "XGBoosterCreate");
  f.booster = std::shared_ptr<void>(b, [](void* p) { XGBoosterFree(p); });
  auto set = [&](const char* key, const std::string& v) { check(XGBoosterSetParam(b, key, v.c_str()), key); };
  if (!t.classification())
    set("objective", "reg:squarederror");
  else if (t.classes == 2)
    set("objective", "binary:logistic");
  else {
    set("objective", "multi:softprob");
    set("num_class", std::to_string(t.classes));
  }
  set("nthread", "1");
  set("seed", "0");
  set("max_depth", std::to_string(max_depth));
  set("eta", fmt::format("{}", learning_rate));
  set("lambda", fmt::format("{}", reg_lambda));
  set("min_child_weight", fmt::format("{}", min_child_weight));
  set("verbosity", "0");
  for (std::size_t it = 0; it < n_estimators; ++it) {
    check(XGBoosterUpdateOneIter(b, static_cast<int>(it), dtrain.get()), "XGBoosterUpdateOneIter");
  }
  return f;
}

predictions xgboost_learner::fitted::predict(const matrix& x) const {
  const auto d = dmatrix(x);
  bst_ulong len = 0;
  const float* out = nullptr;
  check(XGBoosterPredict(booster.get(), d.get(), 0, 0, 0, &len, &out), "XGBoosterPredict");
  predictions p;
  if (classes == 0) {
    p.value.assign(out, out + len);
    return p;
  }
  p.cls.resize(x.rows);
  p.proba.resize(x.rows * classes);
  for (std::size_t i = 0; i < x.rows; ++i) {
    double* pr = p.proba.data() + i * classes;
    if (classes == 2) {
      pr[1] = out[i];
      pr[0] = 1 - pr[1];
    } else {
      for (std::size_t k = 0; k < classes; ++k) pr[k] = out[i * classes + k];
    }
    std::size_t best = 0;
    for (std::size_t k = 1; k < classes; ++k)
      if (pr[k] > pr[best]) best = k;
    p.cls[i] = static_cast<std::int32_t>(best);
  }
  return p;
}

#else

bool xgboost_available() noexcept { return false; }

xgboost_learner::fitted xgboost_learner::fit(const training_set&) const {
  throw_usage("learner xgboost: this assay was built without xgboost (install libxgboost-dev and rebuild)");
}

predictions xgboost_learner::fitted::predict(const matrix&) const { return {}; }

#endif

}  // namespace assay::validation
