// Multiple-comparison corrections against statsmodels.stats.multitest.multipletests (scipy_stats.json).
#include "assay/stats/multiple.hpp"

#include <gtest/gtest.h>

#include "reference.hpp"

namespace assay::stats {
namespace {

using testing::load_reference;
using testing::message_of;
using testing::nums;

TEST(AdjustPValues, MatchesStatsmodelsMultipletests) {
  std::size_t cases = 0;
  for (const auto& c : load_reference("scipy_stats.json")["multipletests"]) {
    const auto p = nums(c["p"]);
    const auto expected = nums(c["adjusted"]);
    const auto got = adjust_p_values(p, parse_p_adjust(c["method"].get<std::string>()));
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-15) << c.dump() << " i=" << i;
    ++cases;
  }
  EXPECT_EQ(cases, 21u);
}

// Holm by hand on (0.01, 0.04, 0.03, 0.005): sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 gives
// 0.02, 0.03, 0.06, 0.04 -> running maximum 0.02, 0.03, 0.06, 0.06.
TEST(AdjustPValues, HolmByHand) {
  const std::vector<double> p{0.01, 0.04, 0.03, 0.005};
  const auto h = adjust_p_values(p, p_adjust_method::holm);
  EXPECT_DOUBLE_EQ(h[3], 0.02);
  EXPECT_DOUBLE_EQ(h[0], 0.03);
  EXPECT_DOUBLE_EQ(h[2], 0.06);
  EXPECT_DOUBLE_EQ(h[1], 0.06);
  EXPECT_EQ(adjust_p_values(p, p_adjust_method::none), p);
  EXPECT_TRUE(adjust_p_values({}, p_adjust_method::holm).empty());
}

TEST(AdjustPValues, BadInput) {
  const std::vector<double> bad{0.1, 1.5};
  EXPECT_EQ(message_of([&] { adjust_p_values(bad); }), "adjust_p_values: p[1] must be in [0, 1]; got 1.5");
  EXPECT_EQ(message_of([] { parse_p_adjust("sidak", "--adjust"); }),
            "--adjust: unknown correction \"sidak\"; choose holm, bonferroni, fdr_bh or none");
}

}  // namespace
}  // namespace assay::stats
