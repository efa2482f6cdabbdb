// assay CLI: each subcommand lives in its own file and registers itself here.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string_view>
#include <string>
#include <vector>

namespace assay::cli {

/// The running subcommand's name, for error messages ("assay report: ...").
extern std::string current_command;

/// The command line as given (argv), for the "to reproduce" line of HTML pages.
extern std::vector<std::string> arguments;

/// The option a library parameter is given with, for error messages: the library names its
/// parameters in its own terms (assay::param, e.g. `pos_label`, `ci_level`); the CLI shows them as
/// options. By default `name` becomes `--name` with '_' as '-' (pos_label -> --pos-label); a
/// subcommand whose option is called otherwise sets `parameter_options[name]` (ci_level -> --ci).
extern std::map<std::string, std::string, std::less<>> parameter_options;
std::string option_of(std::string_view parameter);

/// Writes `text` to `path` ("-" or empty = standard output). A file is written to a temporary name
/// and renamed, so a failure never leaves a partial file.
void write_output(const std::string& path, const std::string& text);

void register_report(CLI::App& app);
void register_curve(CLI::App& app);
void register_compare(CLI::App& app);
void register_detection(CLI::App& app);
void register_text(CLI::App& app);   // assay text bleu/chrf/ngram/bertscore: cli/text.cpp, one file per subcommand
void register_split(CLI::App& app);
// The validation commands, one file each; shared options in cli/validation_options.{hpp,cpp}.
void register_cv(CLI::App& app);
void register_learning_curve(CLI::App& app);
void register_permutation_test(CLI::App& app);
void register_bias_variance(CLI::App& app);
void register_lesion(CLI::App& app);
void register_compare_learners(CLI::App& app);
void register_validation_curve(CLI::App& app);
void register_nested_cv(CLI::App& app);
void register_learners(CLI::App& app);
void register_stats(CLI::App& app);  // assay stats binomial/chi2/...: cli/stats.cpp, one file per subcommand

}  // namespace assay::cli
