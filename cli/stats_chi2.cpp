// assay stats chi2: the chi-square upper tail P(X > x) and the CDF.
// Parses the options, calls assay::stats, prints (shared helpers: cli/stats_options.hpp).
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/stats/distributions.hpp"
#include "commands.hpp"
#include "stats_options.hpp"

namespace assay::cli::stats_cli {

namespace {

struct chi2_options {
  common c;
  std::string x, df = "1";
};

void run_chi2(const chi2_options& o) {
  const double x = parse_real("--x", o.x);
  if (x < 0) throw_usage(fmt::format("--x: must be >= 0; got {}", o.x));
  const double df = parse_real("--df", o.df);
  if (!(df > 0)) throw_usage(fmt::format("--df: must be > 0; got {}", o.df));
  output out;
  out.title =
      fmt::format("Chi-square distribution with {} degrees of freedom: P(X > {})", number_text(df), number_text(x));
  out.add("x", x);
  out.add("df", df);
  out.add("sf", stats::chi2_sf(x, df));
  out.add("cdf", stats::chi2_cdf(x, df));
  emit(o.c, out);
}

}  // namespace

void register_chi2(CLI::App* parent) {
  auto co = std::make_shared<chi2_options>();
  auto* c = parent->add_subcommand("chi2", "Chi-square upper tail P(X > x) (and the CDF)");
  c->add_option("--x", co->x, "The statistic")->required();
  c->add_option("--df", co->df, "Degrees of freedom (default 1)");
  add_common(c, co->c);
  c->callback([co] { run_chi2(*co); });
}

}  // namespace assay::cli::stats_cli
