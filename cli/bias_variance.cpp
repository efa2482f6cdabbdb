// assay bias-variance: bias-variance decomposition over bootstrap training sets. Parses options,
// calls the validation library, prints (shared options: cli/validation_options.hpp).
#include "assay/validation/bias_variance.hpp"

#include <fmt/format.h>

#include "assay/validation/splitters.hpp"
#include "validation_options.hpp"

namespace assay::cli {

namespace {

void run_bias_variance(cv_cli_options& o) {
  current_command = "assay bias-variance";
  const auto d = load(o);
  const auto part = validation::holdout(
      d.rows, o.split.train_fraction, o.split.seed,
      d.classification() ? std::span<const std::int32_t>(d.y_class) : std::span<const std::int32_t>());
  const auto r = validation::bias_variance(d, pick_learner(o, d), part, o.rounds, o.split.seed, o.threads);
  if (!o.html.empty()) {
    o.split.method = d.classification() ? "stratified holdout" : "holdout";
    write_output(o.html,
                 html::validation_page(r, page_setup(o, r.learner,
                                                     {{"Training share", fmt::format("{}", o.split.train_fraction)},
                                                      {"Bootstrap rounds", std::to_string(o.rounds)}})));
  }
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
}

}  // namespace

void register_bias_variance(CLI::App& app) {
  auto bv = std::make_shared<cv_cli_options>();
  auto* bvc = app.add_subcommand("bias-variance",
                                 "Bias-variance decomposition over bootstrap training sets (squared or 0-1 loss)");
  bvc->footer(
      "A stratified holdout (--train-fraction, default 2/3) gives the training pool and the test part;\n"
      "--rounds bootstrap samples of the pool train the models (docs/validation.md).\n"
      "Examples:\n"
      "  assay bias-variance diabetes.csv --target progression --learner linear --rounds 200\n"
      "  assay bias-variance breast_cancer.csv --target diagnosis --learner tree --seed 3");
  add_common(bvc, *bv);
  bvc->add_option("--rounds", bv->rounds, "Number of bootstrap training sets (default 200)");
  add_html_option(bvc, *bv);
  bvc->callback([bv] { guarded([&] { run_bias_variance(*bv); }); });
}

}  // namespace assay::cli
