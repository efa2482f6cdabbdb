// assay CLI: the bootstrap-interval options shared by `assay detection` and `assay text bleu`
// (--ci [LEVEL], --bootstrap N, --seed S), their checks and the name of the method they produce.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "assay/stats/bootstrap.hpp"

namespace assay::cli {

struct ci_request {
  CLI::Option* ci_option = nullptr;
  CLI::Option* bootstrap_option = nullptr;
  CLI::Option* seed_option = nullptr;
  std::string level_text;
  long long replicates = 1000;
  std::uint64_t seed = 0;
  unsigned threads = 0;
};

/// Adds --ci [LEVEL], --bootstrap N and --seed S to `cmd`; `unit` names what is resampled
/// ("sentences", "images").
void add_ci_options(CLI::App* cmd, ci_request& r, const std::string& unit);

/// The bootstrap options when --ci was given (checked: level in (0, 1), 1 <= N <= 1000000), else
/// nothing. --bootstrap or --seed without --ci is a usage error.
std::optional<stats::bootstrap_options> ci_options(const ci_request& r);

/// "bootstrap percentile, resampling <unit>, N replicates, seed S".
std::string ci_method_name(const stats::bootstrap_options& o, const std::string& unit);

}  // namespace assay::cli
