// assay cv: cross-validation of a learner on a data file. Parses options, calls the validation
// library, prints (shared options: cli/validation_options.hpp).
#include "assay/validation/bootstrap_estimate.hpp"
#include "mpi.hpp"
#include "validation_options.hpp"

namespace assay::cli {

namespace {

void write_cv(const cv_cli_options& o, const validation::dataset& d, const validation::any_learner& learner,
              const std::vector<std::string>& notes, validation::cv_result& r);

void run_cv(cv_cli_options& o) {
  current_command = "assay cv";
  const auto d = load(o);
  std::vector<std::string> notes;
  const auto splits = make(o, d, notes);
  const auto learner = pick_learner(o, d);
  if (mpi::ranks() > 1) {
    // Under mpirun: the splits spread over the ranks; rank 0 gets the whole result and writes it.
    auto r = mpi::cross_validate_over_ranks(d, learner, splits, engine_options(o));
    mpi::agreed([&] {
      if (mpi::rank() == 0) write_cv(o, d, learner, notes, r);
    });
    return;
  }
  auto r = validation::cross_validate(d, learner, splits, engine_options(o));
  write_cv(o, d, learner, notes, r);
}

void write_cv(const cv_cli_options& o, const validation::dataset& d, const validation::any_learner& learner,
              const std::vector<std::string>& notes, validation::cv_result& r) {
  r.notes.insert(r.notes.begin(), notes.begin(), notes.end());
  if (!o.oof.empty()) write_output(o.oof, validation::oof_csv(d, r));
  std::string text = o.format == "json" ? validation::to_json(r) : validation::to_text(r, !o.no_folds);
  if (o.split.method == "bootstrap" && o.format != "json") {
    // The bootstrap's own estimators, from the same samples (same seed).
    text += "\n" + validation::to_text(validation::bootstrap_632(d, learner, o.split.repeats, o.split.seed, o.threads));
  }
  if (!o.html.empty()) {
    write_output(o.html, html::validation_page(
                             r, page_setup(o, r.learner,
                                           {{"Splits", std::to_string(r.folds.size())},
                                            {"Threads (results do not depend on them)", std::to_string(r.threads)}})));
  }
  write_output(o.output, text);
}

}  // namespace

void register_cv(CLI::App& app) {
  auto o = std::make_shared<cv_cli_options>();
  auto* cmd = app.add_subcommand("cv", "Cross-validate a learner: per-split metrics, mean, sd, pooled estimate");
  cmd->footer(
      "Examples:\n"
      "  assay cv iris.csv --target species --learner gaussian_nb\n"
      "  assay cv breast_cancer.csv --target diagnosis --pos-label malignant --learner logistic:C=0.5 \\\n"
      "    --folds 10 --repeats 10 --seed 1\n"
      "  assay cv diabetes.csv --target progression --learner ridge:alpha=1 --metric r2 --html cv.html\n"
      "  assay cv iris.csv --target species --learner knn --oof-predictions oof.csv &&\n"
      "    assay report oof.csv --label species --pred pred");
  add_common(cmd, *o);
  cmd->add_option("--oof-predictions", o->oof, "Write out-of-fold predictions (CSV for 'assay report')");
  cmd->add_flag("--no-folds", o->no_folds, "Text output: leave out the per-split table");
  add_html_option(cmd, *o);
  cmd->callback([o] { guarded([&] { run_cv(*o); }); });
}

}  // namespace assay::cli
