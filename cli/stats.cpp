// assay stats: the classic tests and intervals from numbers given on the command line (binomial test,
// chi-square tail, McNemar, intervals for a proportion, t tests over folds, Wilcoxon, Friedman) or
// read from a CSV file of scores (one row per data set, one column per learner), and the scatter
// plot of two learners' scores over data sets. This file registers `assay stats` and its
// subcommands; each subcommand has its own file (cli/stats_<name>.cpp), the shared options and
// output are in cli/stats_options.{hpp,cpp}. No statistics here.
#include "commands.hpp"
#include "stats_options.hpp"

namespace assay::cli {

void register_stats(CLI::App& app) {
  auto* cmd = app.add_subcommand("stats", "Statistical tests and intervals from numbers on the command line or a file");
  cmd->require_subcommand(1);
  cmd->preparse_callback([](std::size_t) { current_command = "assay stats"; });
  cmd->footer(
      "Examples (docs/stats.md has the formulas):\n"
      "  assay stats binomial --k 15 --n 20               # P(X >= 15 | n = 20, p = 0.5) = 0.0207\n"
      "  assay stats chi2 --x 3.84 --df 1                  # P(chi2(1) > 3.84) = 0.05\n"
      "  assay stats mcnemar --b 10 --c 5 --corrected\n"
      "  assay stats ci --x 12 --n 40 --method normal --level 0.95\n"
      "  assay stats two-proportions 30/200 45/210          # error rates on two independent test sets\n"
      "  assay stats ttest --a 0.81,0.79,0.84 --b 0.78,0.80,0.80 --corrected --test-fraction 0.1\n"
      "  assay stats wilcoxon --a 0.81,0.79,0.84,0.9 --b 0.78,0.80,0.80,0.85\n"
      "  assay stats friedman --row 0.8,0.7,0.9 --row 0.6,0.65,0.7 --row 0.9,0.85,0.95\n"
      "  assay stats friedman --file scores.csv --label dataset     # columns = learners, rows = data sets\n"
      "  assay stats wilcoxon --file scores.csv --a svm --b tree\n"
      "  assay stats scatter scores.csv --a svm --b tree --label dataset --plot svm_vs_tree.svg");


  stats_cli::register_binomial(cmd);
  stats_cli::register_chi2(cmd);
  stats_cli::register_mcnemar(cmd);
  stats_cli::register_ci(cmd);
  stats_cli::register_ttest(cmd);
  stats_cli::register_wilcoxon(cmd);
  stats_cli::register_friedman(cmd);
  stats_cli::register_scatter(cmd);
  stats_cli::register_two_proportions(cmd);
}

}  // namespace assay::cli
