// assay stats wilcoxon: the Wilcoxon signed-rank test of paired scores (numbers or columns of a file).
// Parses the options, calls assay::stats, prints (shared helpers: cli/stats_options.hpp).
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/stats/learner_tests.hpp"
#include "commands.hpp"
#include "stats_options.hpp"

namespace assay::cli::stats_cli {

namespace {

struct wilcoxon_options : pairs_options {
  std::string zero_method = "wilcox", mode = "auto";
  bool correction = false;
};

void run_wilcoxon(const wilcoxon_options& o) {
  require_pairs_or_deltas(o.a, o.b, o.d);
  stats::wilcoxon_options w;
  w.alt = stats::parse_alternative(o.alternative, "--alternative");
  w.zeros = o.zero_method == "pratt"    ? stats::wilcoxon_zeros::pratt
            : o.zero_method == "zsplit" ? stats::wilcoxon_zeros::zsplit
                                        : stats::wilcoxon_zeros::wilcox;
  w.mode = o.mode == "exact"    ? stats::wilcoxon_mode::exact
           : o.mode == "approx" ? stats::wilcoxon_mode::approx
                                : stats::wilcoxon_mode::automatic;
  w.correction = o.correction;
  stats::test_result r;
  std::size_t n = 0;
  if (!o.file.empty()) {
    const bool pairs = o.d.empty();
    const auto f = pairs ? read_scores(o.file, {o.a, o.b}, "", "--a/--b") : read_scores(o.file, {o.d}, "", "--d");
    n = f.columns[0].size();
    r = pairs ? stats::wilcoxon(f.columns[0], f.columns[1], w) : stats::wilcoxon(f.columns[0], w);
  } else if (o.d.empty()) {
    const auto a = parse_list("--a", o.a), b = parse_list("--b", o.b);
    require_same_length(a, b);
    n = a.size();
    r = stats::wilcoxon(a, b, w);
  } else {
    const auto d = parse_list("--d", o.d);
    n = d.size();
    r = stats::wilcoxon(d, w);
  }
  output out;
  out.title = fmt::format("Wilcoxon signed-rank test over {} pairs (zero method {})", n, o.zero_method);
  out.add("n", static_cast<std::int64_t>(n));
  add_test(out, r);
  emit(o.c, out);
}

}  // namespace

void register_wilcoxon(CLI::App* parent) {
  auto wo = std::make_shared<wilcoxon_options>();
  auto* w = parent->add_subcommand("wilcoxon", "Wilcoxon signed-rank test of paired scores");
  add_pairs(w, *wo);
  w->add_option("--file", wo->file, "CSV file, one row per data set: --a and --b (or --d) then name its columns");
  w->add_option("--zero-method", wo->zero_method, "wilcox (default), pratt or zsplit")
      ->check(CLI::IsMember({"wilcox", "pratt", "zsplit"}));
  w->add_option("--mode", wo->mode, "auto (default), exact or approx")
      ->check(CLI::IsMember({"auto", "exact", "approx"}));
  w->add_flag("--correction", wo->correction, "Continuity correction of the normal approximation");
  add_common(w, wo->c);
  w->callback([wo] { run_wilcoxon(*wo); });
}

}  // namespace assay::cli::stats_cli
