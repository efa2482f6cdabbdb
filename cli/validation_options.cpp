// The options and steps shared by assay cv and the other validation commands; see
// cli/validation_options.hpp.
#include "validation_options.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include "assay/validation/external.hpp"

namespace assay::cli {

extern "C" void on_sigint(int) { validation::request_cancel(); }

validation::dataset_request dataset_request_of(const std::string& data, const std::string& target,
                                               const std::string& group, const std::string& task) {
  validation::dataset_request d;
  d.path = data;
  d.target = target;
  if (!group.empty()) d.group = group;
  d.command = "";  // main() prefixes the command name
  d.task = task == "classification" ? validation::task_type::classification
           : task == "regression"   ? validation::task_type::regression
                                    : validation::task_type::automatic;
  return d;
}

validation::dataset load(const cv_cli_options& o) {
  validation::dataset_request d = dataset_request_of(o.data, o.target, o.group, o.task);
  d.features = o.features;
  d.drop = o.drop;
  return validation::read_dataset(d);
}

validation::split_list make(cv_cli_options& o, const validation::dataset& d, std::vector<std::string>& notes) {
  auto& q = o.split;
  if (!o.method_given) {
    // Defaults as scikit-learn's cross_val_score: stratified k-fold for classes, k-fold otherwise,
    // group k-fold with --group.
    q.method = !o.group.empty() ? "group-kfold" : d.classification() ? "stratified-kfold" : "kfold";
    if (o.stratify && !d.classification()) q.method = "stratified-kfold";
  }
  if (q.repeats > 1 && (q.method == "kfold" || q.method == "stratified-kfold")) {
    q.method = q.method == "kfold" ? "repeated-kfold" : "repeated-stratified-kfold";
  }
  if (validation::method_needs_strata(q.method) && d.classification()) {
    std::vector<std::size_t> count(d.classes.size(), 0);
    for (auto c : d.y_class) ++count[static_cast<std::size_t>(c)];
    for (std::size_t c = 0; c < count.size(); ++c) {
      if (count[c] < q.folds) {
        notes.push_back(fmt::format("class '{}' has {} cases, fewer than the {} folds: some test folds have none of it",
                                    d.classes[c], count[c], q.folds));
      }
    }
  }
  return validation::make_splits(q, d.rows, d.y_class, d.y_value, d.groups, "");
}

validation::any_learner pick_learner(const cv_cli_options& o, const validation::dataset& d) {
  if (!o.external.empty()) return validation::make_external_learner(o.external, o.timeout);
  return validation::make_learner(o.learner, d.classification());
}

validation::cv_options engine_options(const cv_cli_options& o) {
  validation::cv_options c;
  if (isatty(STDERR_FILENO)) {
    // A progress line on a terminal only; cleared when the run ends.
    c.progress = [](std::size_t done, std::size_t total) {
      if (done < total)
        std::fprintf(stderr, "\r%s: split %zu of %zu", current_command.c_str(), done, total);
      else
        std::fprintf(stderr, "\r\033[K");
      std::fflush(stderr);
    };
  }
  c.metrics = o.metrics;
  c.threads = o.threads;
  c.impute = o.impute == "mean"     ? validation::impute_kind::mean
             : o.impute == "median" ? validation::impute_kind::median
                                    : validation::impute_kind::refuse;
  if (!o.pos_label.empty()) c.pos_label = o.pos_label;
  return c;
}

html::run_setup page_setup(const cv_cli_options& o, const std::string& learner,
                           std::vector<std::pair<std::string, std::string>> extra) {
  html::run_setup s;
  s.title = fmt::format("{}: {} on {}", current_command, learner, o.data);
  s.subtitle = o.data;
  std::string metrics;
  for (const auto& m : o.metrics) metrics += (metrics.empty() ? "" : ", ") + m;
  s.rows = {{"File", o.data},
            {"Target column", o.target},
            {"Learner", learner},
            {"Resampling", o.split.method},
            {"Folds", std::to_string(o.split.folds)},
            {"Repeats", std::to_string(o.split.repeats)},
            {"Random seed", std::to_string(o.split.seed)},
            {"Metrics", metrics.empty() ? "the default set" : metrics}};
  if (!o.group.empty()) s.rows.emplace_back("Group column", o.group);
  s.rows.insert(s.rows.end(), extra.begin(), extra.end());
  s.rows.emplace_back("assay version", ASSAY_VERSION);
  for (const auto& a : arguments) s.command += (s.command.empty() ? "" : " ") + html::shell_quote(a);
  return s;
}

void add_common(CLI::App* cmd, cv_cli_options& o) {
  std::string methods;
  for (const auto& m : validation::split_methods()) methods += (methods.empty() ? "" : ", ") + m;
  cmd->add_option("data", o.data, "Data file (CSV or TSV with a header row; '-' for stdin)")->required();
  cmd->add_option("--target", o.target, "Target column: name or 1-based index")->required();
  cmd->add_option("--learner,-L", o.learner, "NAME or NAME:key=value,... (see 'assay learners'); default majority");
  cmd->add_option("--external-command", o.external,
                  "Learner = this shell command, with {train} {test} {predictions} {classes} (docs/validation.md)");
  cmd->add_option("--timeout", o.timeout, "Seconds an external command may run per split (default 600)");
  cmd->add_option("--task", o.task, "auto, classification or regression")
      ->check(CLI::IsMember({"auto", "classification", "regression"}));
  cmd->add_option("--features", o.features, "Feature columns (default: every other column)");
  cmd->add_option("--drop", o.drop, "Columns to leave out of the features");
  auto* m = cmd->add_option("--method,-m", o.split.method,
                            "Resampling: " + methods + " (default: stratified-kfold for classes, else kfold)");
  m->check(CLI::IsMember(validation::split_methods()));
  m->each([&o](const std::string&) { o.method_given = true; });
  cmd->add_option("--folds,-k", o.split.folds, "Folds (default 5)");
  cmd->add_option("--repeats,-r", o.split.repeats, "Repeats (repeated k-fold, shuffle, bootstrap)");
  cmd->add_option("--seed", o.split.seed, "Random seed (default 0)");
  cmd->add_flag("--shuffle", o.split.shuffle, "Shuffle rows before dealing folds");
  cmd->add_flag("--stratify", o.split.stratify, "Stratify holdout/tvt/shuffle splits; bins for a numeric target");
  cmd->add_option("--group,--groups,-g", o.group, "Group column (group-kfold, logo, lpgo; default method group-kfold)");
  cmd->add_option("--train-fraction", o.split.train_fraction, "Training share for holdout/shuffle (default 2/3)");
  cmd->add_option("-p", o.split.p, "p for lpo / lpgo (default 2)");
  cmd->add_option("--max-splits", o.split.max_splits, "lpo/lpgo refuse more splits than this (default 100000)");
  cmd->add_option("--metric,--metrics", o.metrics,
                  "Registry metric names (default: accuracy, balanced_accuracy, F1, log_loss / RMSE, MAE, R2)");
  cmd->add_option("--pos-label", o.pos_label, "Positive class for binary metrics");
  cmd->add_option("--impute", o.impute, "Missing values: none (refuse), mean or median (fitted on training rows)")
      ->check(CLI::IsMember({"none", "mean", "median"}));
  cmd->add_option("--threads,-j", o.threads, "Threads (default: all cores); results do not depend on it");
  cmd->add_option("--format,-f", o.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--output,-o", o.output, "Write the result to this file instead of standard output");
}

void add_html_option(CLI::App* cmd, cv_cli_options& o) {
  cmd->add_option("--html", o.html, "Also write a self-contained HTML page (no network, no scripts) to this file")
      ->type_name("PATH")
      ->check([](const std::string& p) {
        return p == "-" ? std::string("needs a file name, not '-' (standard output carries the result)") : "";
      });
}

}  // namespace assay::cli
