// assay stats two-proportions: the difference of two independent proportions x1/n1 - x2/n2 (e.g.
// the error rates of two hypotheses on their own test sets) with the Wald and Newcombe intervals,
// the pooled z test and Fisher's exact test. Parses the options, calls assay::stats, prints
// (shared helpers: cli/stats_options.hpp).
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "assay/error.hpp"
#include "assay/stats/two_proportions.hpp"
#include "commands.hpp"
#include "stats_options.hpp"

namespace assay::cli::stats_cli {

namespace {

struct two_proportions_options {
  common c;
  std::string first, second, level = "0.95", alternative = "two-sided";
};

// "x/n": successes and trials (counts or weighted sums).
std::pair<double, double> parse_fraction(const std::string& name, const std::string& text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) {
    throw_usage(fmt::format("{}: \"{}\" is not x/n (successes/trials), e.g. 30/200", name, text));
  }
  const double x = parse_real(name, text.substr(0, slash)), n = parse_real(name, text.substr(slash + 1));
  if (!(n > 0)) throw_usage(fmt::format("{}: the trials n must be > 0; got {}", name, text));
  if (x < 0 || x > n) throw_usage(fmt::format("{}: the successes x must be in [0, n]; got {}", name, text));
  return {x, n};
}

void run_two_proportions(const two_proportions_options& o) {
  const auto [x1, n1] = parse_fraction("SAMPLE1", o.first);
  const auto [x2, n2] = parse_fraction("SAMPLE2", o.second);
  const double level = parse_level("--level", o.level);
  const auto alt = stats::parse_alternative(o.alternative, "--alternative");
  const auto r = stats::compare_two_proportions(x1, n1, x2, n2, level, alt);
  output out;
  out.title = fmt::format("Difference of two independent proportions {} / {} - {} / {}, {:g}% intervals",
                          number_text(x1), number_text(n1), number_text(x2), number_text(n2), 100 * level);
  out.add("x1", x1);
  out.add("n1", n1);
  out.add("x2", x2);
  out.add("n2", n2);
  out.add("p1", r.p1);
  out.add("p2", r.p2);
  out.add("difference", r.difference);
  out.add("level", r.level);
  out.add("wald_std_error", r.wald_std_error);
  out.add("wald_ci", std::vector<double>{r.wald.lower, r.wald.upper});
  out.add("newcombe_ci", std::vector<double>{r.newcombe.lower, r.newcombe.upper});
  out.add("alternative", std::string(stats::to_string(alt)));
  out.add("z_test", r.z_test.test.method + " (pooled)");
  out.add("z", r.z_test.test.statistic);
  out.add("z_p_value", r.z_test.test.p_value);
  if (!r.z_test.undefined.empty()) out.add("z_undefined", r.z_test.undefined);
  if (r.has_fisher) {
    out.add("fisher_odds_ratio", r.fisher.statistic);
    out.add("fisher_p_value", r.fisher.p_value);
  } else {
    out.add("fisher_undefined", std::string("Fisher's exact test needs integer counts with n1 + n2 <= 10^7"));
  }
  emit(o.c, out);
}

}  // namespace

void register_two_proportions(CLI::App* parent) {
  auto to = std::make_shared<two_proportions_options>();
  auto* t = parent->add_subcommand(
      "two-proportions", "Difference of two independent proportions x1/n1 - x2/n2: Wald and Newcombe intervals, tests");
  t->add_option("SAMPLE1", to->first, "x1/n1: successes (e.g. errors) and cases of the first sample")->required();
  t->add_option("SAMPLE2", to->second, "x2/n2: the same for the second, independent sample")->required();
  t->add_option("--level", to->level, "Confidence level in (0, 1) (default 0.95)");
  t->add_option("--alternative", to->alternative,
                "two-sided (default), greater (p1 > p2) or less, for the z and Fisher tests");
  add_common(t, to->c);
  t->callback([to] { run_two_proportions(*to); });
}

}  // namespace assay::cli::stats_cli
