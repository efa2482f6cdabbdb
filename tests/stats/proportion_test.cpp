// Intervals for a proportion against statsmodels' proportion_confint (scipy_stats.json) and seed 003.
#include "assay/stats/proportion.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "assay/error.hpp"
#include "assay/stats/distributions.hpp"
#include "reference.hpp"

namespace assay::stats {
namespace {

using testing::close;
using testing::load_reference;
using testing::num;

TEST(Proportion, MatchesStatsmodels) {
  int checked = 0;
  for (const auto& c : load_reference("scipy_stats.json")["proportion_confint"]) {
    const auto method = parse_proportion_method(c["method"].get<std::string>());
    const auto r = proportion_ci(num(c["x"]), num(c["n"]), num(c["level"]), method);
    // Closed forms agree to rounding; Clopper-Pearson goes through beta quantiles (Boost vs SciPy's
    // Cephes), which agree to ~1e-12 relative.
    const double rel = method == proportion_method::clopper_pearson ? 1e-10 : 1e-13;
    EXPECT_TRUE(close(r.lower, num(c["lower"]), rel, 1e-15)) << c.dump() << " got " << r.lower;
    EXPECT_TRUE(close(r.upper, num(c["upper"]), rel, 1e-15)) << c.dump() << " got " << r.upper;
    EXPECT_EQ(r.method, method);
    ++checked;
  }
  EXPECT_GT(checked, 250);
}

// Seed 003: error_S(h) +- z_N sqrt(error_S(h) (1 - error_S(h)) / n). Worked by hand: 12 errors in
// n = 40, e = 0.3, sqrt(0.3 * 0.7 / 40) = 0.0724568837..., at 95% z = 1.959963985.
TEST(Proportion, Seed003NormalInterval) {
  const auto r = proportion_ci(12, 40, 0.95, proportion_method::normal);
  const double se = std::sqrt(0.3 * 0.7 / 40);
  EXPECT_DOUBLE_EQ(r.estimate, 0.3);
  EXPECT_NEAR(r.lower, 0.3 - 1.959963984540054 * se, 1e-15);
  EXPECT_NEAR(r.upper, 0.3 + 1.959963984540054 * se, 1e-15);
  EXPECT_NEAR(r.lower, 0.15799, 1e-5);
  EXPECT_NEAR(r.upper, 0.44201, 1e-5);
  // With the table's rounded z_N the interval moves by less than 0.006 * se at every level.
  const double levels[] = {0.50, 0.68, 0.80, 0.90, 0.95, 0.98, 0.99};
  const double table[] = {0.67, 1.00, 1.28, 1.64, 1.96, 2.33, 2.58};
  for (int i = 0; i < 7; ++i) {
    const auto ri = proportion_ci(12, 40, levels[i], proportion_method::normal);
    EXPECT_NEAR(ri.upper, 0.3 + table[i] * se, 0.006 * se) << levels[i];
  }
}

TEST(Proportion, EdgesAndOrdering) {
  // Wilson at x = 0 starts at exactly 0 and is not degenerate; the normal interval is.
  const auto w = proportion_ci(0, 20);
  EXPECT_NEAR(w.lower, 0.0, 1e-17);
  EXPECT_GT(w.upper, 0.1);
  const auto nrm = proportion_ci(0, 20, 0.95, proportion_method::normal);
  EXPECT_EQ(nrm.lower, 0.0);
  EXPECT_EQ(nrm.upper, 0.0);
  const auto cp = proportion_ci(20, 20, 0.95, proportion_method::clopper_pearson);
  EXPECT_EQ(cp.upper, 1.0);
  EXPECT_NEAR(cp.lower, std::pow(0.025, 1.0 / 20), 1e-12);  // closed form at x = n
  // Clopper-Pearson contains Wilson's interval for a moderate case (it is the conservative one).
  const auto cw = proportion_ci(7, 30), cc = proportion_ci(7, 30, 0.95, proportion_method::clopper_pearson);
  EXPECT_LT(cc.lower, cw.lower);
  EXPECT_GT(cc.upper, cw.upper);
}

TEST(Proportion, BadInputNamesTheArgument) {
  auto msg = [](auto f) {
    try {
      f();
    } catch (const error& e) {
      return std::string(e.what());
    }
    return std::string("no throw");
  };
  EXPECT_EQ(msg([] { proportion_ci(5, 0); }), "proportion_ci: n must be finite and > 0; got 0");
  EXPECT_EQ(msg([] { proportion_ci(11, 10); }), "proportion_ci: x (successes) must be in [0, n] = [0, 10]; got 11");
  EXPECT_EQ(msg([] { proportion_ci(-1, 10); }), "proportion_ci: x (successes) must be in [0, n] = [0, 10]; got -1");
  EXPECT_EQ(msg([] { proportion_ci(1, 10, 1.0); }), "proportion_ci: level must be in (0, 1); got 1");
  EXPECT_EQ(msg([] { proportion_ci(std::nan(""), 10); }),
            "proportion_ci: x (successes) must be in [0, n] = [0, 10]; got nan");
  EXPECT_EQ(msg([] { parse_proportion_method("jeffreys"); }),
            "method must be one of wilson, normal, agresti_coull, clopper_pearson (or exact); got 'jeffreys'");
}

}  // namespace
}  // namespace assay::stats
