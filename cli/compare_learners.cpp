// assay compare-learners: two learners on the same splits, paired, corrected and 5x2cv t-tests.
// Parses options, calls the validation library, prints (shared options: cli/validation_options.hpp).
#include "assay/validation/compare_learners.hpp"
#include "validation_options.hpp"

namespace assay::cli {

namespace {

void run_compare(cv_cli_options& o) {
  current_command = "assay compare-learners";
  const auto d = load(o);
  std::vector<std::string> notes;
  const auto splits = make(o, d, notes);
  const auto a = pick_learner(o, d);
  const auto b = validation::make_learner(o.learner_b, d.classification());
  const auto r = validation::compare_learners(d, a, b, splits, engine_options(o));
  if (!o.svg.empty()) write_output(o.svg, validation::to_svg(r));
  if (!o.html.empty()) {
    auto setup = page_setup(o, r.learner_a, {{"Learner B", r.learner_b}, {"Splits", std::to_string(r.a.size())}});
    setup.rows[2].first = "Learner A";
    setup.title = current_command + ": " + r.learner_a + " vs " + r.learner_b + " on " + o.data;
    write_output(o.html, html::validation_page(r, setup));
  }
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
}

}  // namespace

void register_compare_learners(CLI::App& app) {
  auto cmp = std::make_shared<cv_cli_options>();
  auto* cmpc =
      app.add_subcommand("compare-learners", "Two learners on the same splits: paired, corrected and 5x2cv t-tests");
  cmpc->footer(
      "Learner A is --learner (or --external-command), learner B is --learner-b.\n"
      "Example:\n"
      "  assay compare-learners breast_cancer.csv --target diagnosis --learner logistic --learner-b knn \\\n"
      "    --folds 2 --repeats 5 --seed 1 --metric accuracy");
  add_common(cmpc, *cmp);
  cmpc->add_option("--svg", cmp->svg, "Also write an SVG plot of the per-split scores");
  cmpc->add_option("--learner-b", cmp->learner_b, "The second learner, NAME[:key=value,...]")->required();
  add_html_option(cmpc, *cmp);
  cmpc->callback([cmp] { guarded([&] { run_compare(*cmp); }); });
}

}  // namespace assay::cli
