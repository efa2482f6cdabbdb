// assay stats ttest: the paired t test over folds (Nadeau-Bengio corrected with --corrected).
// Parses the options, calls assay::stats, prints (shared helpers: cli/stats_options.hpp).
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/stats/distributions.hpp"
#include "assay/stats/learner_tests.hpp"
#include "commands.hpp"
#include "stats_options.hpp"

namespace assay::cli::stats_cli {

namespace {

struct ttest_options : pairs_options {
  bool corrected = false;
  std::string test_fraction;
};

void run_ttest(const ttest_options& o) {
  require_pairs_or_deltas(o.a, o.b, o.d);
  const auto alt = stats::parse_alternative(o.alternative, "--alternative");
  const bool pairs = o.d.empty();
  const std::vector<double> a = pairs ? parse_list("--a", o.a) : parse_list("--d", o.d);
  const std::vector<double> b = pairs ? parse_list("--b", o.b) : std::vector<double>(a.size(), 0.0);
  if (pairs) require_same_length(a, b);
  if (a.size() < 2) throw_usage(fmt::format("{}: needs at least 2 folds; got {}", pairs ? "--a" : "--d", a.size()));
  if (o.corrected == o.test_fraction.empty()) {
    throw_usage(o.corrected ? "--test-fraction: --corrected needs the share of the data in each test set"
                            : "--corrected: --test-fraction is only used by the corrected test");
  }
  stats::t_test_result r;
  output out;
  if (o.corrected) {
    const double f = parse_level("--test-fraction", o.test_fraction);
    r = stats::corrected_resampled_t_test(a, b, 1 - f, f, alt);
    out.title = fmt::format("Nadeau-Bengio corrected resampled t test over {} splits (test fraction {})", a.size(),
                            number_text(f));
    out.add("test_fraction", f);
  } else {
    r = stats::paired_t_test(a, b, alt);
    out.title = fmt::format("Paired t test over {} folds", a.size());
  }
  out.add("k", static_cast<std::int64_t>(a.size()));
  out.add("mean", r.mean);
  out.add("std_error", r.std_error);
  add_test(out, r.test);
  emit(o.c, out);
}

}  // namespace

void register_ttest(CLI::App* parent) {
  auto to = std::make_shared<ttest_options>();
  auto* t = parent->add_subcommand("ttest", "Paired t test over folds (Nadeau-Bengio corrected with --corrected)");
  add_pairs(t, *to);
  t->add_flag("--corrected", to->corrected, "Nadeau-Bengio corrected resampled t test");
  t->add_option("--test-fraction", to->test_fraction, "Share of the data in each test set (with --corrected)");
  add_common(t, to->c);
  t->callback([to] { run_ttest(*to); });
}

}  // namespace assay::cli::stats_cli
