// assay split: writes the resampling splits of a data file, one line per input row.
#include <fmt/format.h>

#include "assay/error.hpp"
#include "assay/validation/dataset.hpp"
#include "assay/validation/split_plan.hpp"
#include "commands.hpp"
#include "validation_options.hpp"

namespace assay::cli {

namespace {

struct split_options {
  validation::split_request q;
  std::string data, target, group, out = "-", task = "auto";
};

void run(split_options& o) {
  current_command = "assay split";
  const validation::dataset_request d = dataset_request_of(o.data, o.target, o.group, o.task);
  const auto ds = validation::read_dataset(d);
  const auto splits = validation::make_splits(o.q, ds.rows, ds.y_class, ds.y_value, ds.groups, "");
  write_output(o.out, validation::split_csv(o.q, splits, ds.rows));
}

}  // namespace

void register_split(CLI::App& app) {
  auto o = std::make_shared<split_options>();
  auto* cmd =
      app.add_subcommand("split", "Resampling splits of a data file (k-fold, stratified, groups, holdout, ...)");
  cmd->footer(
      "Writes one line per input row: 'row' (0-based) and 'fold' (the split whose test set holds the row),\n"
      "'fold_r0'... for repeats, 'role' for holdout/tvt, or 'split_0'... for other schemes (docs/validation.md).\n"
      "Examples:\n"
      "  assay split iris.csv --target species --method stratified-kfold --folds 5 --seed 1 --out folds.csv\n"
      "  assay split students.csv --method logo --group university\n"
      "  assay split data.csv --method holdout --train-fraction 0.667 --seed 3");
  std::string methods;
  for (const auto& m : validation::split_methods()) methods += (methods.empty() ? "" : ", ") + m;
  cmd->add_option("data", o->data, "Data file (CSV or TSV with a header row; '-' for stdin)")->required();
  cmd->add_option("--target", o->target, "Target column (for stratification): name or 1-based index");
  cmd->add_option("--task", o->task, "auto, classification or regression (how the target is stratified)")
      ->check(CLI::IsMember({"auto", "classification", "regression"}));
  cmd->add_option("--method,-m", o->q.method, "One of: " + methods)->check(CLI::IsMember(validation::split_methods()));
  cmd->add_option("--folds,-k", o->q.folds, "Number of folds (k-fold families) or splits (timeseries); default 5");
  cmd->add_option("--repeats,-r", o->q.repeats, "Repeats (repeated k-fold, shuffle, bootstrap); default 1");
  cmd->add_option("--seed", o->q.seed, "Random seed (same seed, same splits); default 0");
  cmd->add_flag("--shuffle", o->q.shuffle,
                "Shuffle before dealing folds (kfold, stratified-kfold, stratified-group-kfold)");
  cmd->add_flag("--stratify", o->q.stratify, "Stratify holdout, tvt and shuffle splits on the target");
  cmd->add_option("--group,-g", o->group, "Group column (group-kfold, stratified-group-kfold, logo, lpgo)");
  cmd->add_option("--train-fraction", o->q.train_fraction, "Training share for holdout, tvt, shuffle (default 2/3)");
  cmd->add_option("--validation-fraction", o->q.validation_fraction, "Validation share for tvt (default 1/6)");
  cmd->add_option("-p", o->q.p, "p of leave-p-out / leave-p-groups-out (default 2)");
  cmd->add_option("--max-splits", o->q.max_splits, "lpo/lpgo refuse more splits than this (default 100000)");
  cmd->add_option("--test-size", o->q.test_size, "timeseries: rows per test block (default n / (folds + 1))");
  cmd->add_option("--gap", o->q.gap, "timeseries: rows left out between train and test");
  cmd->add_option("--max-train", o->q.max_train, "timeseries: keep at most this many latest training rows");
  cmd->add_option("--bins", o->q.bins, "Quantile bins to stratify a regression target (default: folds)");
  cmd->add_option("--out,-o", o->out, "Output file (default: standard output)");
  cmd->callback([o] { run(*o); });
}

}  // namespace assay::cli
