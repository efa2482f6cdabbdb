// assay CLI: each subcommand lives in its own file and registers itself here.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace assay::cli {

/// The running subcommand's name, for error messages ("assay report: ...").
extern std::string current_command;

/// Writes `text` to `path` ("-" or empty = standard output). A file is written to a temporary name
/// and renamed, so a failure never leaves a partial file.
void write_output(const std::string& path, const std::string& text);

void register_report(CLI::App& app);
void register_curve(CLI::App& app);
void register_compare(CLI::App& app);
void register_detection(CLI::App& app);
void register_text(CLI::App& app);
void register_split(CLI::App& app);
void register_cv(CLI::App& app);  // cv and the other validation commands (cli/cv.cpp)
void register_stats(CLI::App& app);  // assay stats binomial/chi2/mcnemar/ci/ttest/... (cli/stats.cpp)

}  // namespace assay::cli
