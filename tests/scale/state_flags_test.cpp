// The state's switches that only the out-of-core reader sets (src/scale/state_impl.hpp): with
// one_class_loss the state sums each row's loss terms for one class, the one its spelling is in by
// the spellings seen so far, names the spellings whose class changed (losses_to_redo) and refuses
// to finish or serialise until they are redone; without calibration it refuses kept curves. Either
// way the report is the one of a state without them.
#include "../../src/scale/state_impl.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "assay/error.hpp"

namespace assay::scale {
namespace {

struct rows {
  std::vector<std::string> y;
  std::vector<double> score, w;
};

// Two batches: the first holds only `first`, the second draws from `later`.
std::vector<rows> batches(const std::string& first, const std::vector<std::string>& later) {
  std::mt19937_64 g(9);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<rows> out(2);
  for (int b = 0; b < 2; ++b) {
    for (int i = 0; i < 3000; ++i) {
      out[b].y.push_back(b == 0 ? first : later[g() % later.size()]);
      out[b].score.push_back(i % 5 == 0 ? std::round(u(g) * 10) / 10 : u(g));  // ties, 0 and 1
      out[b].w.push_back(static_cast<double>(g() % 4) * 0.75);                // zeros too
    }
  }
  return out;
}

evaluation_state build(const std::vector<rows>& data, bool weighted, bool one_class, bool calibration) {
  state_options o;
  o.kind = prediction_kind::scores;
  o.weighted = weighted;
  evaluation_state s(o);
  detail::state_access::of(s).one_class_loss = one_class;
  detail::state_access::of(s).calibration = calibration;
  // As in the out-of-core reader's state, no row goes to the table of tallied (score, spelling)
  // pairs, whose rows add both classes' terms when it is flushed: every row's terms are the
  // update's. (The reference states keep the table: the same report either way.)
  if (one_class || !calibration) detail::state_access::of(s).table_off = true;
  for (const rows& r : data) {
    row_batch b;
    b.y_true = label_column::of_text(r.y);
    b.y_score = r.score;
    if (weighted) b.sample_weight = r.w;
    s.update(b);
  }
  return s;
}

// The naive sums of a spelling's terms of class k over its rows of positive weight (evaluate's w *
// term, summed exactly).
void redo(detail::losses& l, const std::vector<rows>& data, const std::string& spelling, int k, bool weighted) {
  l.log_loss[k] = exact_sum();
  l.brier[k] = exact_sum();
  for (const rows& r : data) {
    for (std::size_t i = 0; i < r.y.size(); ++i) {
      const double w = weighted ? r.w[i] : 1.0;
      if (r.y[i] != spelling || w == 0) continue;
      l.log_loss[k].add(w * binary_log_loss_term(r.score[i], static_cast<std::size_t>(k)));
      l.brier[k].add(w * binary_brier_term(r.score[i], static_cast<std::size_t>(k)));
    }
  }
  l.have |= static_cast<std::uint8_t>(1U << k);
}

TEST(EvaluationStateFlags, OneClassLossNamesTheSpellingsToRedoAndThenGivesTheSameReport) {
  for (bool weighted : {false, true}) {
    // "1" alone is the positive class; once "2" comes, "2" is (the larger number), "1" negative.
    const auto changed = batches("1", {"1", "2"});
    const std::string want = to_json(build(changed, weighted, false, true).finish());
    evaluation_state s = build(changed, weighted, true, true);
    auto& impl = detail::state_access::of(s);
    const auto todo = detail::losses_to_redo(impl);
    ASSERT_EQ(todo.size(), 1U) << weighted;
    EXPECT_EQ(impl.dict[todo[0].first], "1");
    EXPECT_EQ(todo[0].second, 0);
    try {
      (void)s.finish();
      ADD_FAILURE() << "finished with a spelling's sums missing";
    } catch (const error& e) {
      EXPECT_STREQ(e.what(), "evaluation_state::finish: the loss sums of the spelling '1' lack its class's terms "
                             "(one_class_loss; losses_to_redo names them)");
    }
    EXPECT_THROW((void)s.serialize(), error);
    redo(impl.loss[todo[0].first], changed, "1", 0, weighted);
    EXPECT_TRUE(detail::losses_to_redo(impl).empty());
    EXPECT_EQ(to_json(s.finish()), want) << weighted;

    // "0" alone is negative and stays so: nothing to redo, the same report at once.
    const auto kept = batches("0", {"0", "1"});
    evaluation_state t = build(kept, weighted, true, true);
    EXPECT_TRUE(detail::losses_to_redo(detail::state_access::of(t)).empty());
    EXPECT_EQ(to_json(t.finish()), to_json(build(kept, weighted, false, true).finish())) << weighted;
  }
}

TEST(EvaluationStateFlags, WithoutCalibrationTheReportIsTheSameButCurvesAreRefused) {
  const auto data = batches("0", {"0", "1"});
  for (bool weighted : {false, true}) {
    const evaluation_state s = build(data, weighted, false, false);
    EXPECT_EQ(to_json(s.finish()), to_json(build(data, weighted, false, true).finish())) << weighted;
    evaluate_options curves;
    curves.keep_curves = true;
    try {
      (void)s.finish(curves);
      ADD_FAILURE();
    } catch (const error& e) {
      EXPECT_STREQ(e.what(), "evaluation_state::finish: keep_curves is set, but the state left out the reliability "
                             "curve's sums (built without calibration)");
    }
  }
}

}  // namespace
}  // namespace assay::scale
