// The mergeable evaluation state: the intervals of finish() (ci_level), from the score runs or the kept
// rows; see state.cpp.
#include "assay/scale/state.hpp"
#include "assay/scale/ranges.hpp"
#include "bytes.hpp"
#include "state_parts.hpp"
#include "state_impl.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <type_traits>
#include <unordered_map>

#include "../report/assemble.hpp"
#include "../report/by_class.hpp"
#include "../report/intervals.hpp"
#include "../report/kept_curves.hpp"
#include "assay/curves/accumulate.hpp"
#include "assay/curves/calibration.hpp"
#include "assay/curves/roc.hpp"
#include "assay/curves/pr.hpp"
#include "assay/curves/summary.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/curves/threshold.hpp"
#include "assay/detail/exact_sum.hpp"
#include "assay/detail/radix.hpp"
#include "assay/error.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/metrics/probabilistic.hpp"
#include "assay/metrics/registry.hpp"

namespace assay::scale::detail {

namespace {

// The kept rows, sorted by id, hold each id once (a batch's first_row_id is its first row's index
// among all rows; two batches given the same ids would be counted twice).
void refuse_repeated_ids(const std::vector<kept_row>& kept) {
  for (std::size_t i = 1; i < kept.size(); ++i) {
    if (kept[i - 1].id == kept[i].id) {
      throw_data(fmt::format("evaluation_state::finish: row id {} is given to two rows; each batch's first_row_id must "
                             "be its first row's index among all rows", kept[i].id));
    }
  }
}

}  // namespace

// The intervals of evaluate (report/intervals.cpp) on the state's rows: from the score runs' tie
// groups when no interval resamples rows, else from the kept rows in id order (the Poisson weights
// drawn on the ids).
void attach_state_intervals(evaluation_state::impl& s, const evaluate_options& q, report& r,
                            const std::vector<std::int32_t>& class_of, const run_source& runs_descending,
                            const run_source* runs_ascending) {
  const state_options& o = s.o;
  const bool scores = o.kind == prediction_kind::scores;
  const auto pos = r.positive ? static_cast<std::int32_t>(*r.positive) : -1;
  assay::detail::report_rows rows;
  if (!assay::detail::intervals_need_rows(q, o.weighted)) {
    assay::detail::score_groups groups;
    if (scores && runs_ascending != nullptr) {
      // The groups visited from the ascending runs each time they are asked for, not held (the
      // out-of-core reader's cap: they are read back from its file of runs).
      groups.ascending = [&](const std::function<void(double, std::uint64_t, std::uint64_t)>& f) {
        bool open = false;
        std::uint64_t key = 0, np = 0, nn = 0;
        (*runs_ascending)([&](std::uint64_t k, std::uint32_t code, const tally& t) {
          if (open && k != key) {
            f(assay::detail::from_order_key(key) + 0.0, np, nn);
            np = nn = 0;
          }
          open = true;
          key = k;
          (class_of[code] == pos ? np : nn) += t.n;
        });
        if (open) f(assay::detail::from_order_key(key) + 0.0, np, nn);
      };
    } else if (scores) {
      bool open = false;
      std::uint64_t key = 0;
      runs_descending([&](std::uint64_t k, std::uint32_t code, const tally& t) {
        if (!open || k != key) {
          groups.score.push_back(assay::detail::from_order_key(k) + 0.0);
          groups.pos.push_back(0);
          groups.neg.push_back(0);
          open = true;
          key = k;
        }
        (class_of[code] == pos ? groups.pos : groups.neg).back() += t.n;
      });
      std::reverse(groups.score.begin(), groups.score.end());
      std::reverse(groups.pos.begin(), groups.pos.end());
      std::reverse(groups.neg.begin(), groups.neg.end());
    }
    rows.groups = &groups;
    assay::detail::attach_intervals(r, q, rows);
    return;
  }
  s.sort_kept();
  const std::size_t n = s.kept.size();
  std::vector<std::int32_t> y(n), yhat(n), y01;
  std::vector<double> w, score;
  std::vector<std::uint64_t> ids(n);
  if (o.weighted) w.resize(n);
  if (scores) score.resize(n);
  refuse_repeated_ids(s.kept);
  for (std::size_t i = 0; i < n; ++i) {
    const kept_row& k = s.kept[i];
    ids[i] = k.id;
    y[i] = class_of[k.t];
    if (o.weighted) w[i] = k.w;
    if (scores) {
      score[i] = assay::detail::from_order_key(k.key);
      yhat[i] = score[i] >= o.threshold ? pos : 1 - pos;
    } else {
      yhat[i] = class_of[k.p];
    }
  }
  rows.y = y;
  rows.yhat = yhat;
  rows.w = w;
  rows.row_ids = ids;
  std::optional<proba_view> pv;
  if (scores) {
    rows.score = score;
    pv = proba_view::scores(score);
    rows.proba = &*pv;
    if (pos == 0) {  // the score is P(labels[0]): class 1 of the view
      y01.resize(n);
      for (std::size_t i = 0; i < n; ++i) y01[i] = 1 - y[i];
      rows.y_proba = y01;
    } else {
      rows.y_proba = y;
    }
  }
  assay::detail::attach_intervals(r, q, rows);
}

// The intervals of evaluate on the kept rows of regression or class probabilities, in id order (the
// Poisson weights drawn on the ids): the rows evaluate would have, i.e. the targets and predicted
// values, or the classes (class_of: spelling code -> class), the probabilities in class order (order:
// class -> batch column) and their argmax (the first of equal maxima), with the weights.
void attach_kept_intervals(evaluation_state::impl& s, const evaluate_options& q, report& r,
                           const std::vector<std::int32_t>& class_of, const std::vector<std::uint32_t>& order) {
  const state_options& o = s.o;
  s.sort_kept();
  const std::size_t n = s.kept.size(), m = s.kept_stride();
  std::vector<std::uint64_t> ids(n);
  std::vector<double> w;
  if (o.weighted) w.resize(n);
  refuse_repeated_ids(s.kept);
  for (std::size_t i = 0; i < n; ++i) {
    const kept_row& k = s.kept[i];
    ids[i] = k.id;
    if (o.weighted) w[i] = k.w;
  }
  assay::detail::report_rows rows;
  rows.w = w;
  rows.row_ids = ids;
  if (o.kind == prediction_kind::values) {
    std::vector<double> target(n), predicted(n);
    for (std::size_t i = 0; i < n; ++i) target[i] = s.kept_x[2 * i], predicted[i] = s.kept_x[2 * i + 1];
    rows.target = target;
    rows.predicted = predicted;
    assay::detail::attach_intervals(r, q, rows);
    return;
  }
  std::vector<std::int32_t> y(n), yhat(n);
  std::vector<double> matrix(n * m);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = class_of[s.kept[i].t];
    const double* x = &s.kept_x[i * m];
    double* row = &matrix[i * m];
    for (std::size_t c = 0; c < m; ++c) row[c] = x[order[c]];
    yhat[i] = static_cast<std::int32_t>(std::max_element(row, row + m) - row);
  }
  const proba_view pv = proba_view::matrix(matrix, m);
  rows.y = y;
  rows.yhat = yhat;
  rows.proba = &pv;
  rows.y_proba = y;
  assay::detail::attach_intervals(r, q, rows);
}

}  // namespace assay::scale::detail
