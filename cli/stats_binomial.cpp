// assay stats binomial: the exact binomial test of k successes in n trials.
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

struct binomial_options {
  common c;
  std::string k, n, p = "0.5", alternative = "greater";
};

void run_binomial(const binomial_options& o) {
  const std::int64_t n = parse_count("--n", o.n), k = parse_count("--k", o.k);
  if (n < 1) throw_usage(fmt::format("--n: must be at least 1; got {}", o.n));
  if (k > n) throw_usage(fmt::format("--k: must be at most --n = {}; got {}", n, o.k));
  const double p = parse_real("--p", o.p);
  if (!(p >= 0 && p <= 1)) throw_usage(fmt::format("--p: must be in [0, 1]; got {}", o.p));
  const auto alt = stats::parse_alternative(o.alternative, "--alternative");
  const auto r = stats::binom_test(k, n, p, alt);
  output out;
  out.title =
      fmt::format("Exact binomial test of H0: P(success) = {} ({} successes in {} trials)", number_text(p), k, n);
  out.add("method", std::string("binomial_exact"));
  out.add("k", k);
  out.add("n", n);
  out.add("p", p);
  out.add("statistic", r.statistic);
  out.add("alternative", std::string(stats::to_string(alt)));
  out.add("p_value", r.p_value);
  emit(o.c, out);
}

}  // namespace

void register_binomial(CLI::App* parent) {
  auto bo = std::make_shared<binomial_options>();
  auto* b = parent->add_subcommand("binomial", "Exact binomial test: k successes in n trials");
  b->add_option("--k", bo->k, "Successes")->required();
  b->add_option("--n", bo->n, "Trials")->required();
  b->add_option("--p", bo->p, "Success probability under H0 (default 0.5)");
  b->add_option("--alternative", bo->alternative, "greater (default: P(X >= k)), less or two-sided");
  add_common(b, bo->c);
  b->callback([bo] { run_binomial(*bo); });
}

}  // namespace assay::cli::stats_cli
