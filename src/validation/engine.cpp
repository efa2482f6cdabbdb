#include "assay/validation/engine.hpp"

#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>

#include "assay/data/classes.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"
#include "assay/metrics/confusion.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/metrics/registry.hpp"
#include "assay/stats/learner_tests.hpp"
#include "assay/validation/cancel.hpp"

namespace assay::validation {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// A metric resolved against the task.
struct scorer {
  const metric_info* info = nullptr;
};

// Scores predictions `p` of the rows `rows` of `d`.
std::vector<value> score(const dataset& d, const std::vector<scorer>& scorers, std::span<const std::size_t> rows,
                         const predictions& p, std::optional<std::size_t> positive) {
  std::vector<value> out;
  const metric_params params;
  if (d.classification()) {
    const std::size_t k = d.classes.size();
    std::vector<std::int32_t> y(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) y[i] = d.y_class[rows[i]];
    const auto cm = confusion_matrix::from_labels(y, p.cls, k);
    for (const auto& s : scorers) {
      const auto* m = s.info;
      if (m->kind == metric_kind::binary)
        out.push_back(m->binary(binary_counts::one_vs_rest(cm, *positive), params));
      else if (m->kind == metric_kind::multiclass)
        out.push_back(m->multiclass(cm, params));
      else if (p.proba.empty())
        out.push_back(value::undefined("the learner gives no probabilities"));
      else
        out.push_back(m->probabilistic(y, proba_view::matrix(p.proba, k), {}, params));
    }
    return out;
  }
  std::vector<double> y(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) y[i] = d.y_value[rows[i]];
  for (const auto& s : scorers) out.push_back(s.info->regression(y, p.value, {}, params));
  return out;
}

std::vector<scorer> resolve_metrics(const dataset& d, std::vector<std::string> names, bool binary) {
  if (names.empty()) {
    if (d.classification())
      names = {"accuracy", "balanced_accuracy", binary ? "f1" : "f1_macro", "log_loss"};
    else
      names = {"root_mean_squared_error", "mean_absolute_error", "r2"};
  }
  std::vector<scorer> out;
  for (const auto& n : names) {
    const metric_info* m = nullptr;
    if (d.classification()) {
      if (binary) m = find_metric(n, metric_kind::binary);
      if (!m) m = find_metric(n, metric_kind::multiclass);
      if (!m) m = find_metric(n, metric_kind::probabilistic);
    } else {
      m = find_metric(n, metric_kind::regression);
    }
    if (!m) {
      std::vector<std::string> known;
      for (const auto& e : metric_registry()) {
        const bool fits = d.classification()
                              ? (e.kind == metric_kind::multiclass || e.kind == metric_kind::probabilistic ||
                                 (binary && e.kind == metric_kind::binary))
                              : e.kind == metric_kind::regression;
        if (fits && std::find(known.begin(), known.end(), e.name) == known.end()) known.emplace_back(e.name);
      }
      throw_usage(fmt::format("{}: '{}' is not a metric for this {} task (metrics: {})", param("metrics"), n,
                              d.classification() ? (binary ? "binary" : "multiclass") : "regression",
                              fmt::join(known, ", ")));
    }
    out.push_back({m});
  }
  return out;
}

// What every split needs: the result's header (learner, classes, the positive class, notes,
// repeats) and the metrics resolved against the task.
struct cv_setup {
  cv_result head;
  std::vector<scorer> scorers;
};

cv_setup setup(const dataset& d, const any_learner& learner, const split_list& splits, const cv_options& options) {
  if (d.target_name.empty()) throw_usage("cross_validate: the data set has no target");
  check_splits(splits, d.rows);
  cv_setup st;
  cv_result& r = st.head;
  r.learner = learner.name();
  r.classification = d.classification();
  r.classes = d.classes;
  const bool binary = d.classification() && d.classes.size() == 2;
  // The positive class by the class rules every evaluation follows (decide_classes): the one named,
  // else "1" of {0, 1} or {-1, 1}, else the larger of two numbers. Text labels need it named, as in
  // assay report, unless every metric asked for is one that reads no positive class (accuracy,
  // balanced accuracy, MCC, kappa, log loss ...: their multiclass forms, equal on two classes).
  auto without_positive = [&] {
    return !options.pos_label && !options.metrics.empty() &&
           std::all_of(options.metrics.begin(), options.metrics.end(), [](const std::string& n) {
             return find_metric(n, metric_kind::multiclass) != nullptr ||
                    find_metric(n, metric_kind::probabilistic) != nullptr;
           });
  };
  if (binary) {
    label_spellings seen;
    seen.truth = d.classes;
    seen.score_columns = 1;
    try {
      const class_plan plan = decide_classes(std::move(seen), {options.pos_label, task_kind::binary,
                                                               class_set::truth_and_predictions},
                                             {true, d.source, d.target_name, {}});
      for (std::size_t c = 0; c < d.classes.size(); ++c) {
        if (plan.positive_truth(c)) r.positive = c;
      }
      if (!r.positive) {  // the two spellings are one class by value ("0", "0.0"): the positive one is absent
        throw_usage(fmt::format("{}: the positive class \"{}\" is not among the classes of column '{}' ({})",
                                d.source, plan.classes[*plan.positive], d.target_name, join_labels(d.classes)));
      }
    } catch (const error&) {
      if (!without_positive()) throw;
    }
  }
  st.scorers = resolve_metrics(d, options.metrics, r.positive.has_value());
  for (const auto& s : splits) r.repeats = std::max(r.repeats, s.repeat + 1);
  return st;
}

// Runs the splits `which` on up to options.threads lanes; out[i] is the outcome of splits[which[i]].
// Throws the error of the first failing split in the order of `which` (naming it), after every
// split has run; *failed is then its index.
std::vector<split_outcome> run_some(const dataset& d, const any_learner& learner, const split_list& splits,
                                    std::span<const std::size_t> which, const cv_options& options,
                                    const cv_setup& st, unsigned& threads_used, std::size_t* failed) {
  encoder_options pre = learner.preprocessing();
  pre.impute = options.impute;
  const matrix dense = dense_features(d);  // empty unless all features are numeric and complete
  const bool fast = dense.rows == d.rows && pre.degree == 1 && pre.impute != impute_kind::median;
  const std::size_t k = d.classification() ? d.classes.size() : 0;
  const std::optional<std::size_t> positive = st.head.positive;
  std::vector<split_outcome> out(which.size());
  std::vector<std::exception_ptr> failure(which.size());
  std::atomic<std::size_t> next{0};
  std::mutex progress_mutex;
  std::size_t done = 0;
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < which.size();) {
      if (cancel_requested()) {
        failure[i] = std::make_exception_ptr(interrupted());
        continue;
      }
      const std::size_t s = which[i];
      try {
        const double cpu0 = thread_cpu_seconds();
        const auto& sp = splits[s];
        auto& f = out[i].fold;
        f.split = s;
        f.repeat = sp.repeat;
        f.train_rows = sp.train.size();
        f.test_rows = sp.test.size();
        feature_encoder enc;
        const double encode_cpu0 = thread_cpu_seconds();
        if (fast)
          enc.fit(d, dense, sp.train, pre);
        else
          enc.fit(d, sp.train, pre);
        const matrix xtr = fast ? enc.transform(dense, sp.train) : enc.transform(d, sp.train);
        const matrix xte = fast ? enc.transform(dense, sp.test) : enc.transform(d, sp.test);
        f.encode_cpu_seconds = thread_cpu_seconds() - encode_cpu0;
        std::vector<std::int32_t> yc;
        std::vector<double> yv;
        if (k) {
          yc.reserve(sp.train.size());
          for (auto row : sp.train) yc.push_back(d.y_class[row]);
        } else {
          yv.reserve(sp.train.size());
          for (auto row : sp.train) yv.push_back(d.y_value[row]);
        }
        const training_set t{xtr, yc, k, yv};
        auto t0 = clock_type::now();
        const double model_cpu0 = thread_cpu_seconds();
        const any_model m = learner.fit(t);
        f.fit_seconds = seconds_since(t0);
        t0 = clock_type::now();
        out[i].pred = m.predict(xte);
        f.predict_seconds = seconds_since(t0);
        f.model_cpu_seconds = thread_cpu_seconds() - model_cpu0;
        f.test = score(d, st.scorers, sp.test, out[i].pred, positive);
        if (options.score_training) f.train = score(d, st.scorers, sp.train, m.predict(xtr), positive);
        f.cpu_seconds = thread_cpu_seconds() - cpu0;
      } catch (...) {
        failure[i] = std::current_exception();
      }
      if (options.progress) {
        std::lock_guard lock(progress_mutex);
        options.progress(++done, which.size());
      }
    }
  };
  // One lane per thread the limit allows; each lane takes the next split until none is left.
  const unsigned threads = assay::detail::resolve_threads(
      static_cast<unsigned>(std::min<std::size_t>(options.threads, ~0u)), which.size());
  threads_used = threads;
  assay::detail::run_lanes(threads, [&](unsigned) { work(); });
  for (std::size_t i = 0; i < which.size(); ++i) {
    if (failure[i] && cancel_requested()) throw interrupted();
  }
  for (std::size_t i = 0; i < which.size(); ++i) {
    if (!failure[i]) continue;
    if (failed != nullptr) *failed = which[i];
    try {
      std::rethrow_exception(failure[i]);
    } catch (const error& e) {
      throw error(e.kind(), fmt::format("split {} (of {}): {}", which[i] + 1, splits.size(), e.marked()));
    }
  }
  return out;
}

// The result from every split's outcome: pooled predictions, per-metric mean, sd and pooled value.
cv_result summarize(cv_setup st, const dataset& d, const split_list& splits, std::vector<split_outcome>&& outcomes,
                    const cv_options& options) {
  cv_result r = std::move(st.head);
  const auto& scorers = st.scorers;
  const std::size_t k = d.classification() ? d.classes.size() : 0;
  std::vector<fold_result> folds(splits.size());
  // Pooled predictions: every split's test rows together.
  std::vector<std::size_t> pooled_rows;
  predictions pooled;
  for (std::size_t s = 0; s < splits.size(); ++s) {
    const auto& sp = splits[s];
    folds[s] = std::move(outcomes[s].fold);
    pooled_rows.insert(pooled_rows.end(), sp.test.begin(), sp.test.end());
    const auto& p = outcomes[s].pred;
    pooled.cls.insert(pooled.cls.end(), p.cls.begin(), p.cls.end());
    pooled.value.insert(pooled.value.end(), p.value.begin(), p.value.end());
    if (!p.proba.empty()) pooled.proba.insert(pooled.proba.end(), p.proba.begin(), p.proba.end());
    if (options.keep_predictions) {
      for (std::size_t i = 0; i < sp.test.size(); ++i) {
        oof_prediction o{sp.test[i], s, sp.repeat, k ? p.cls[i] : -1, k ? 0.0 : p.value[i], {}};
        if (!p.proba.empty())
          o.proba.assign(p.proba.begin() + static_cast<long>(i * k), p.proba.begin() + static_cast<long>((i + 1) * k));
        r.oof.push_back(std::move(o));
      }
    }
  }
  if (pooled.proba.size() != pooled.cls.size() * k) pooled.proba.clear();  // some split gave none
  const auto pooled_values = score(d, scorers, pooled_rows, pooled, r.positive);
  for (std::size_t m = 0; m < scorers.size(); ++m) {
    metric_summary s;
    s.name = std::string(scorers[m].info->name);
    s.title = std::string(scorers[m].info->title);
    s.higher_is_better = scorers[m].info->traits.higher_is_better;
    s.pooled = pooled_values[m];
    double sum = 0;
    std::vector<double> v;
    for (const auto& f : folds)
      if (f.test[m].defined()) v.push_back(f.test[m].v);
    s.defined = v.size();
    for (double x : v) sum += x;
    if (v.empty()) {
      s.mean = value::undefined("undefined in every split");
      s.sd = value::undefined("undefined in every split");
    } else {
      s.mean = sum / static_cast<double>(v.size());
      if (v.size() < 2) {
        s.sd = value::undefined("fewer than 2 splits");
      } else {
        double ss = 0;
        for (double x : v) ss += (x - s.mean.v) * (x - s.mean.v);
        s.sd = std::sqrt(ss / static_cast<double>(v.size() - 1));
      }
      if (v.size() < folds.size()) {
        r.notes.push_back(fmt::format("{}: undefined in {} of {} splits; the mean and sd are over the other {}", s.name,
                                      folds.size() - v.size(), folds.size(), v.size()));
      }
    }
    r.summary.push_back(std::move(s));
  }
  r.folds = std::move(folds);
  return r;
}

}  // namespace

cv_result cross_validate(const dataset& d, const any_learner& learner, const split_list& splits,
                         const cv_options& options) {
  const auto start = clock_type::now();
  cv_setup st = setup(d, learner, splits, options);
  std::vector<std::size_t> all(splits.size());
  for (std::size_t s = 0; s < splits.size(); ++s) all[s] = s;
  unsigned threads = 1;
  std::vector<split_outcome> outcomes = run_some(d, learner, splits, all, options, st, threads, nullptr);
  cv_result r = summarize(std::move(st), d, splits, std::move(outcomes), options);
  r.threads = threads;
  r.seconds = seconds_since(start);
  return r;
}

std::vector<split_outcome> run_splits(const dataset& d, const any_learner& learner, const split_list& splits,
                                      std::span<const std::size_t> which, const cv_options& options,
                                      unsigned* threads, std::size_t* failed_split) {
  const cv_setup st = setup(d, learner, splits, options);
  for (std::size_t i = 0; i < which.size(); ++i) {
    if (which[i] >= splits.size() || (i > 0 && which[i] <= which[i - 1])) {
      throw_usage(fmt::format("run_splits: which[{}] is {}; split indices must be ascending and below {}", i, which[i],
                              splits.size()));
    }
  }
  unsigned used = 1;
  auto out = run_some(d, learner, splits, which, options, st, used, failed_split);
  if (threads != nullptr) *threads = used;
  return out;
}

cv_result summarize_splits(const dataset& d, const any_learner& learner, const split_list& splits,
                           std::vector<split_outcome> outcomes, const cv_options& options) {
  if (outcomes.size() != splits.size()) {
    throw_usage(fmt::format("summarize_splits: {} outcomes for {} splits; give one per split, in split order",
                            outcomes.size(), splits.size()));
  }
  for (std::size_t s = 0; s < splits.size(); ++s) {
    if (outcomes[s].fold.split != s) {
      throw_usage(fmt::format("summarize_splits: outcomes[{}] is split {}; give one per split, in split order", s,
                              outcomes[s].fold.split));
    }
  }
  return summarize(setup(d, learner, splits, options), d, splits, std::move(outcomes), options);
}

std::pair<value, value> corrected_mean_interval(const cv_result& r, std::size_t m) {
  std::vector<double> x;
  double n_train = 0, n_test = 0;
  for (const auto& f : r.folds) {
    if (!f.test[m].defined() || !std::isfinite(f.test[m].v)) continue;
    x.push_back(f.test[m].v);
    n_train += static_cast<double>(f.train_rows), n_test += static_cast<double>(f.test_rows);
  }
  if (x.size() < 2 || !(n_train > 0)) {
    const value u = value::undefined(x.size() < 2 ? "fewer than 2 splits" : "no training rows");
    return {u, u};
  }
  const auto ci = stats::corrected_resampled_interval(x, n_train, n_test);  // the ratio of the mean sizes
  return {ci.lower, ci.upper};
}

}  // namespace assay::validation
