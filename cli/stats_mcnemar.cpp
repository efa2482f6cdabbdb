// assay stats mcnemar: McNemar's test from the discordant counts b and c.
// Parses the options, calls assay::stats, prints (shared helpers: cli/stats_options.hpp).
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/stats/tests.hpp"
#include "commands.hpp"
#include "stats_options.hpp"

namespace assay::cli::stats_cli {

namespace {

struct mcnemar_options {
  common c;
  std::string b, c_count;
  bool exact = false, corrected = false, uncorrected = false;
};

void run_mcnemar(const mcnemar_options& o) {
  const std::int64_t b = parse_count("--b", o.b), c = parse_count("--c", o.c_count);
  if (static_cast<int>(o.exact) + static_cast<int>(o.corrected) + static_cast<int>(o.uncorrected) > 1) {
    throw_usage("--exact: give at most one of --exact, --corrected and --uncorrected");
  }
  const auto method = o.corrected     ? stats::mcnemar_method::chi2_corrected
                      : o.uncorrected ? stats::mcnemar_method::chi2
                                      : stats::mcnemar_method::exact;
  const auto r = stats::mcnemar(b, c, method);
  output out;
  out.title =
      fmt::format("McNemar's test of H0: equal error rates (b = {} A right and B wrong, c = {} the reverse)", b, c);
  out.add("b", b);
  out.add("c", c);
  add_test(out, r);
  emit(o.c, out);
}

}  // namespace

void register_mcnemar(CLI::App* parent) {
  auto mo = std::make_shared<mcnemar_options>();
  auto* m = parent->add_subcommand("mcnemar", "McNemar's test from the discordant counts b and c");
  m->add_option("--b", mo->b, "Cases model A gets right and model B wrong")->required();
  m->add_option("--c", mo->c_count, "Cases model A gets wrong and model B right")->required();
  m->add_flag("--exact", mo->exact, "Exact binomial version (the default)");
  m->add_flag("--corrected", mo->corrected, "Chi-square with continuity correction (|b - c| - 1)^2 / (b + c)");
  m->add_flag("--uncorrected", mo->uncorrected, "Chi-square without correction (b - c)^2 / (b + c)");
  add_common(m, mo->c);
  m->callback([mo] { run_mcnemar(*mo); });
}

}  // namespace assay::cli::stats_cli
