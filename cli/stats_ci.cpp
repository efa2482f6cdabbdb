// assay stats ci: a confidence interval for a proportion x / n.
// Parses the options, calls assay::stats, prints (shared helpers: cli/stats_options.hpp).
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/stats/proportion.hpp"
#include "commands.hpp"
#include "stats_options.hpp"

namespace assay::cli::stats_cli {

namespace {

struct ci_options {
  common c;
  std::string x, n, level = "0.95", method = "wilson";
};

void run_ci(const ci_options& o) {
  const double n = parse_real("--n", o.n);
  if (!(n > 0)) throw_usage(fmt::format("--n: must be > 0; got {}", o.n));
  const double x = parse_real("--x", o.x);
  if (x < 0) throw_usage(fmt::format("--x: must be >= 0; got {}", o.x));
  if (x > n) throw_usage(fmt::format("--x: must be at most --n = {}; got {}", o.n, o.x));
  const double level = parse_level("--level", o.level);
  const auto method = stats::parse_proportion_method(o.method, "--method");
  const auto r = stats::proportion_ci(x, n, level, method);
  output out;
  out.title = fmt::format("{:g}% {} interval for the proportion {} / {}", 100 * level, stats::to_string(method),
                          number_text(x), number_text(n));
  out.add("x", x);
  out.add("n", n);
  out.add("estimate", r.estimate);
  out.add("ci", std::vector<double>{r.lower, r.upper});
  out.add("level", r.level);
  out.add("method", std::string(stats::to_string(r.method)));
  emit(o.c, out);
}

}  // namespace

void register_ci(CLI::App* parent) {
  auto io = std::make_shared<ci_options>();
  auto* i = parent->add_subcommand("ci", "Confidence interval for a proportion x / n");
  i->add_option("--x", io->x, "Successes (e.g. errors)")->required();
  i->add_option("--n", io->n, "Trials (test cases)")->required();
  i->add_option("--level", io->level, "Confidence level in (0, 1) (default 0.95)");
  i->add_option("--method", io->method, "wilson (default), normal, agresti-coull or exact (Clopper-Pearson)");
  add_common(i, io->c);
  i->callback([io] { run_ci(*io); });
}

}  // namespace assay::cli::stats_cli
