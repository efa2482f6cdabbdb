// assay cv and the other validation commands: the options they share, parsed in one place
// (cli/validation_options.cpp), and the small steps every one of them takes (read the data, make
// the splits, pick the learner, run with Ctrl-C handling). One file per subcommand uses these.
#pragma once

#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "assay/report/html_validation.hpp"
#include "assay/validation/cancel.hpp"
#include "assay/validation/dataset.hpp"
#include "assay/validation/engine.hpp"
#include "assay/validation/learners.hpp"
#include "assay/validation/split_plan.hpp"
#include "commands.hpp"

namespace assay::cli {

struct cv_cli_options {
  validation::split_request split;
  std::string data, target, group, learner = "majority", task = "auto", impute = "none", pos_label;
  std::string format = "text", output, oof, svg, html;
  std::vector<std::string> metrics, features, drop;
  std::vector<double> sizes;
  std::size_t threads = 0;
  std::string external;
  std::size_t permutations = 100;
  std::size_t rounds = 200;
  std::vector<std::string> feature_groups;
  double confidence = 0.95;
  std::string learner_b, param;
  std::vector<std::string> values;
  std::size_t inner_folds = 3;
  double timeout = 600;
  bool stratify = false, no_folds = false;
  bool method_given = false;
};

/// The options every validation command takes (data, target, learner, resampling, metrics, output).
void add_common(CLI::App* cmd, cv_cli_options& o);

/// `--html PATH`: also write the self-contained page (refuses '-', standard output carries the result).
void add_html_option(CLI::App* cmd, cv_cli_options& o);

/// The data-file request of a validation command or `assay split` (messages without the command
/// name: main() prefixes it); `task` is auto, classification or regression.
validation::dataset_request dataset_request_of(const std::string& data, const std::string& target,
                                               const std::string& group, const std::string& task);

/// Reads the data file as the options say.
validation::dataset load(const cv_cli_options& o);

/// The splits: the method defaults as scikit-learn's cross_val_score (stratified k-fold for classes,
/// k-fold otherwise, group k-fold with --group); the method chosen is written back to o.split.
/// Classes with fewer cases than folds are reported in `notes`.
validation::split_list make(cv_cli_options& o, const validation::dataset& d, std::vector<std::string>& notes);

/// Learner A: --external-command if given, else --learner.
validation::any_learner pick_learner(const cv_cli_options& o, const validation::dataset& d);

/// Engine options from the command line (metrics, threads, imputation, positive class, progress).
validation::cv_options engine_options(const cv_cli_options& o);

/// The "Data and options" rows and the command line of an HTML page: file, target, learner,
/// resampling, folds, repeats, seed, metrics, assay version, then `extra` rows.
html::run_setup page_setup(const cv_cli_options& o, const std::string& learner,
                           std::vector<std::pair<std::string, std::string>> extra = {});

/// Runs `run` with Ctrl-C asking the engine to stop (a second Ctrl-C kills at once); the run then
/// throws validation::interrupted after removing its temporary files, and the command exits with 130.
extern "C" void on_sigint(int);

template <class F>
void guarded(F run) {
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  struct sigaction old {};
  sigaction(SIGINT, &sa, &old);
  try {
    run();
  } catch (const validation::interrupted&) {
    std::fprintf(stderr, "\r%s: interrupted\n", current_command.c_str());
    std::exit(130);
  }
  sigaction(SIGINT, &old, nullptr);
}

}  // namespace assay::cli
