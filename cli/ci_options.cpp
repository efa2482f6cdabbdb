// The bootstrap-interval options of assay detection and assay text bleu; see ci_options.hpp.
#include "ci_options.hpp"

#include <fmt/format.h>

#include <cmath>

#include "assay/error.hpp"
#include "assay/io/table.hpp"

namespace assay::cli {

void add_ci_options(CLI::App* cmd, ci_request& r, const std::string& unit) {
  r.ci_option = cmd->add_option("--ci", r.level_text,
                                fmt::format("Bootstrap confidence intervals (percentile, resampling {}) of this level "
                                            "(default 0.95)",
                                            unit))
                    ->type_name("[LEVEL]")
                    ->expected(0, 1);
  r.bootstrap_option = cmd->add_option("--bootstrap,--replicates", r.replicates, "Bootstrap replicates for --ci (default 1000)")->type_name("N");
  r.seed_option = cmd->add_option("--seed", r.seed, "Seed of the bootstrap (default 0); results do not depend on threads")
      ->type_name("S");
}

std::optional<stats::bootstrap_options> ci_options(const ci_request& r) {
  const bool given = r.ci_option != nullptr && r.ci_option->count() > 0;
  if (!given) {
    if (r.bootstrap_option != nullptr && r.bootstrap_option->count() > 0) throw_usage("--bootstrap needs --ci");
    if (r.seed_option != nullptr && r.seed_option->count() > 0) throw_usage("--seed needs --ci");
    return std::nullopt;
  }
  stats::bootstrap_options o;
  if (!r.level_text.empty()) {
    double x = 0;
    if (!io::parse_double(r.level_text, x) || !std::isfinite(x))
      throw_usage(fmt::format("--ci: cannot parse \"{}\" as a finite number", r.level_text));
    o.level = x;
  }
  if (!(o.level > 0 && o.level < 1))
    throw_usage(fmt::format("--ci: the level is {}, but must be between 0 and 1 (e.g. 0.95)", o.level));
  if (r.replicates < 1 || r.replicates > 1000000)
    throw_usage(fmt::format("--bootstrap: {} is outside [1, 1000000]", r.replicates));
  o.replicates = static_cast<std::size_t>(r.replicates);
  o.seed = r.seed;
  o.threads = r.threads;
  o.method = stats::bootstrap_method::percentile;
  return o;
}

std::string ci_method_name(const stats::bootstrap_options& o, const std::string& unit) {
  return fmt::format("bootstrap percentile, resampling {}, {} replicates, seed {}", unit, o.replicates, o.seed);
}

}  // namespace assay::cli
