// `assay stats two-proportions`: the statsmodels / SciPy reference values of
// tests/stats/two_proportions.json (generator tests/stats/generate_two_proportions.py) through the
// command line; the text output of the example; bad input as whole messages.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_expect.hpp"
#include "cli/run_cli.hpp"
#include "stats/reference.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;
using stats::testing::load_reference;
using stats::testing::num;

std::string exact(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

void expect_close(const json& got, double want, const std::string& what) {
  if (std::isnan(want)) {
    EXPECT_TRUE(got.is_null()) << what << ": " << got.dump();
    return;
  }
  ASSERT_TRUE(got.is_number()) << what << ": " << got.dump();
  EXPECT_NEAR(got.get<double>(), want, want == 0 ? 1e-15 : 1e-9 * std::fabs(want)) << what;
}

TEST(stats_two_proportions_cli, matches_statsmodels_and_scipy) {
  int checked = 0;
  for (const auto& c : load_reference("two_proportions.json")["cases"]) {
    for (const std::string alt : {"two-sided", "greater", "less"}) {
      const args_t args{"stats", "two-proportions", exact(num(c["x1"])) + "/" + exact(num(c["n1"])),
                        exact(num(c["x2"])) + "/" + exact(num(c["n2"])), "--level", exact(num(c["level"])),
                        "--alternative", alt, "--format", "json"};
      const cli_result r = run_assay(args);
      ASSERT_EQ(r.exit_code, 0) << show_args(args) << r.err;
      const json j = json::parse(r.out);
      const std::string what = c.dump() + " " + alt;
      expect_close(j["wald_ci"][0], num(c["wald"][0]), what);
      expect_close(j["wald_ci"][1], num(c["wald"][1]), what);
      expect_close(j["newcombe_ci"][0], num(c["newcombe"][0]), what);
      expect_close(j["newcombe_ci"][1], num(c["newcombe"][1]), what);
      expect_close(j["z"], num(c["z_" + alt][0]), what);
      expect_close(j["z_p_value"], num(c["z_" + alt][1]), what);
      EXPECT_EQ(j.contains("z_undefined"), std::isnan(num(c["z_" + alt][0]))) << what;
      if (c.contains("fisher_" + alt)) expect_close(j["fisher_p_value"], num(c["fisher_" + alt][1]), what);
      else EXPECT_TRUE(j.contains("fisher_undefined")) << what;
      ++checked;
    }
    if (checked > 60) break;  // each run starts the binary: a third of the cases is plenty
  }
  EXPECT_GT(checked, 60);
}

// statsmodels 0.13.5 on 30/200 vs 45/210 (first case of two_proportions.json): Wald
// [-0.138642, 0.0100703], Newcombe [-0.138323, 0.0108974], z = -1.68298, p = 0.0923797; SciPy's
// fisher_exact: odds ratio 0.647059, p = 0.0981279.
TEST(stats_two_proportions_cli, text) {
  const cli_result r = run_assay({"stats", "two-proportions", "30/200", "45/210"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "Difference of two independent proportions 30 / 200 - 45 / 210, 95% intervals\n"
            "  x1: 30\n  n1: 200\n  x2: 45\n  n2: 210\n  p1: 0.15\n  p2: 0.214286\n  difference: -0.0642857\n"
            "  level: 0.95\n  wald_std_error: 0.0379374\n  wald_ci: [-0.138642, 0.0100703]\n"
            "  newcombe_ci: [-0.138323, 0.0108974]\n  alternative: two-sided\n  z_test: two_proportion_z (pooled)\n"
            "  z: -1.68298\n  z_p_value: 0.0923797\n  fisher_odds_ratio: 0.647059\n  fisher_p_value: 0.0981279\n");
}

TEST(stats_two_proportions_cli, undefined_z_test) {
  const cli_result r = run_assay({"stats", "two-proportions", "0/50", "0/60", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_TRUE(j["z"].is_null());
  EXPECT_EQ(j["z_undefined"], "no successes in either sample: the pooled proportion is 0 and z is 0/0");
  EXPECT_EQ(j["fisher_p_value"], 1.0);
}

TEST(stats_two_proportions_cli, bad_input) {
  expect_error({"stats", "two-proportions", "30", "45/210"},
               "assay stats: SAMPLE1: \"30\" is not x/n (successes/trials), e.g. 30/200\n");
  expect_error({"stats", "two-proportions", "30/200", "x/210"}, "assay stats: SAMPLE2: cannot parse \"x\" as a number\n");
  expect_error({"stats", "two-proportions", "30/0", "45/210"},
               "assay stats: SAMPLE1: the trials n must be > 0; got 30/0\n");
  expect_error({"stats", "two-proportions", "30/200", "250/210"},
               "assay stats: SAMPLE2: the successes x must be in [0, n]; got 250/210\n");
  expect_error({"stats", "two-proportions", "30/200", "45/210", "--level", "95"},
               "assay stats: --level: must be in (0, 1); got 95\n");
}

}  // namespace
}  // namespace assay::test
