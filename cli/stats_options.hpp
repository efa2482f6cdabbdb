// assay stats: the options, parsing and output shared by the `assay stats` subcommands (one file
// each: cli/stats_binomial.cpp, stats_chi2.cpp, stats_mcnemar.cpp, stats_ci.cpp, stats_ttest.cpp,
// stats_wilcoxon.cpp, stats_friedman.cpp, stats_scatter.cpp, stats_two_proportions.cpp; cli/stats.cpp registers them). Every
// parse message names the option and the value.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "assay/stats/tests.hpp"

namespace assay::cli::stats_cli {

// ---- parsing ------------------------------------------------------------------------------------

double parse_real(const std::string& opt, const std::string& text);
std::int64_t parse_count(const std::string& opt, const std::string& text);
double parse_level(const std::string& opt, const std::string& text);
/// A comma-separated list of numbers.
std::vector<double> parse_list(const std::string& opt, const std::string& text);
void require_same_length(const std::vector<double>& a, const std::vector<double>& b);
/// The differences to test: --d, or the pairs --a and --b (one of the two forms, not both).
void require_pairs_or_deltas(const std::string& a, const std::string& b, const std::string& d);

// ---- scores from a file: one row per data set, one column per learner -------------------------

struct score_file {
  std::vector<std::string> names;            ///< the learner columns, in order
  std::vector<std::vector<double>> columns;  ///< [learner][data set]
  std::vector<std::string> labels;           ///< the data-set names (--label), else empty
};

/// Reads the columns `refs` of `path` (header names or 1-based indices; empty = every column but
/// `label`) as numbers, and `label` (if given) as the names of the rows. `option` names the option
/// that listed the columns, for messages.
score_file read_scores(const std::string& path, std::vector<std::string> refs, const std::string& label,
                       const std::string& option);

// ---- output: a title and named values, as text or JSON ------------------------------------------

using field_value = std::variant<double, std::int64_t, std::string, std::vector<double>>;

struct output {
  std::string title;
  std::vector<std::pair<std::string, field_value>> fields;
  void add(std::string key, field_value v) { fields.emplace_back(std::move(key), std::move(v)); }
};

std::string number_text(double v);

/// --format and --out, which every subcommand has.
struct common {
  std::string format = "text", out = "-";
};

void add_common(CLI::App* cmd, common& c);
/// Writes `o` to --out as text or JSON (--format).
void emit(const common& c, const output& o);
/// method, statistic, df (and df2) if defined, alternative, p_value.
void add_test(output& o, const stats::test_result& t);

// ---- paired values: ttest and wilcoxon ----------------------------------------------------------

struct pairs_options {
  common c;
  std::string a, b, d, alternative = "two-sided";
  std::string file;  ///< wilcoxon: --a, --b (or --d) name columns of this file
};

/// --a, --b, --d and --alternative.
void add_pairs(CLI::App* cmd, pairs_options& o);

// ---- the subcommands, one file each; cli/stats.cpp calls them in this order ---------------------

void register_binomial(CLI::App* parent);
void register_chi2(CLI::App* parent);
void register_mcnemar(CLI::App* parent);
void register_ci(CLI::App* parent);
void register_ttest(CLI::App* parent);
void register_wilcoxon(CLI::App* parent);
void register_friedman(CLI::App* parent);
void register_scatter(CLI::App* parent);
void register_two_proportions(CLI::App* parent);

}  // namespace assay::cli::stats_cli
