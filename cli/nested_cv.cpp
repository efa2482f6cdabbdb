// assay nested-cv: choose a parameter by inner CV, estimate by outer CV. Parses options, calls the
// validation library, prints (shared options: cli/validation_options.hpp).
#include "assay/validation/nested.hpp"
#include "validation_options.hpp"

namespace assay::cli {

namespace {

void run_nested(cv_cli_options& o) {
  current_command = "assay nested-cv";
  const auto d = load(o);
  std::vector<std::string> notes;
  const auto splits = make(o, d, notes);
  validation::split_request inner = o.split;
  inner.folds = o.inner_folds;
  inner.repeats = 1;
  if (inner.method == "repeated-kfold") inner.method = "kfold";
  if (inner.method == "repeated-stratified-kfold") inner.method = "stratified-kfold";
  const auto r = validation::nested_cv(d, o.learner, o.param, o.values, splits, inner, engine_options(o));
  if (!o.html.empty()) {
    std::string values;
    for (const auto& v : o.values) values += (values.empty() ? "" : ", ") + v;
    write_output(o.html, html::validation_page(r, page_setup(o, r.learner,
                                                             {{"Outer splits", std::to_string(splits.size())},
                                                              {"Inner resampling", inner.method},
                                                              {"Inner folds", std::to_string(inner.folds)},
                                                              {"Parameter", r.param},
                                                              {"Candidate values", values}})));
  }
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
}

}  // namespace

void register_nested_cv(CLI::App& app) {
  auto nc = std::make_shared<cv_cli_options>();
  auto* ncc =
      app.add_subcommand("nested-cv", "Choose a parameter by inner CV, estimate by outer CV (nested cross-validation)");
  ncc->footer(
      "The inner splits use the same method as the outer ones with --inner-folds folds.\n"
      "Example:\n"
      "  assay nested-cv breast_cancer.csv --target diagnosis --learner logistic --param C --values 0.01 0.1 1 10 \\\n"
      "    --folds 5 --inner-folds 3 --metric accuracy");
  add_common(ncc, *nc);
  ncc->add_option("--param", nc->param, "The learner parameter to choose")->required();
  ncc->add_option("--values", nc->values, "Its candidate values")->required();
  ncc->add_option("--inner-folds", nc->inner_folds, "Folds of the inner cross-validation (default 3)");
  add_html_option(ncc, *nc);
  ncc->callback([nc] { guarded([&] { run_nested(*nc); }); });
}

}  // namespace assay::cli
