// assay permutation-test: is the cross-validated score better than chance? Parses options, calls
// the validation library, prints (shared options: cli/validation_options.hpp).
#include "assay/validation/permutation.hpp"

#include "validation_options.hpp"

namespace assay::cli {

namespace {

void run_permutation(cv_cli_options& o) {
  current_command = "assay permutation-test";
  const auto d = load(o);
  std::vector<std::string> notes;
  const auto splits = make(o, d, notes);
  validation::permutation_options p;
  p.permutations = o.permutations;
  p.seed = o.split.seed;
  p.cv = engine_options(o);
  const auto r = validation::permutation_test(d, pick_learner(o, d), splits, p);
  if (!o.html.empty()) {
    write_output(o.html, html::validation_page(r, page_setup(o, r.learner,
                                                             {{"Splits", std::to_string(splits.size())},
                                                              {"Permutations", std::to_string(o.permutations)}})));
  }
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
}

}  // namespace

void register_permutation_test(CLI::App& app) {
  auto pt = std::make_shared<cv_cli_options>();
  auto* perm = app.add_subcommand(
      "permutation-test", "Is the cross-validated score better than chance? Label permutations with retraining");
  perm->footer(
      "p = (1 + permutations scoring at least as well) / (permutations + 1) (Ojala & Garriga 2010, test 1).\n"
      "Example:\n"
      "  assay permutation-test breast_cancer.csv --target diagnosis --learner logistic --permutations 200 --metric "
      "accuracy");
  add_common(perm, *pt);
  perm->add_option("--permutations,-n", pt->permutations, "Number of label permutations (default 100)");
  add_html_option(perm, *pt);
  perm->callback([pt] { guarded([&] { run_permutation(*pt); }); });
}

}  // namespace assay::cli
