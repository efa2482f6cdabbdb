// assay validation-curve: train and test scores over the values of one learner parameter. Parses
// options, calls the validation library, prints (shared options: cli/validation_options.hpp).
#include "assay/validation/validation_curve.hpp"

#include "validation_options.hpp"

namespace assay::cli {

namespace {

void run_validation_curve(cv_cli_options& o) {
  current_command = "assay validation-curve";
  const auto d = load(o);
  std::vector<std::string> notes;
  const auto splits = make(o, d, notes);
  const auto r = validation::validation_curve(d, o.learner, o.param, o.values, splits, engine_options(o));
  if (!o.html.empty()) {
    std::string values;
    for (const auto& v : o.values) values += (values.empty() ? "" : ", ") + v;
    write_output(
        o.html, html::validation_page(
                    r, page_setup(o, r.learner,
                                  {{"Splits", std::to_string(r.splits)}, {"Parameter", r.param}, {"Values", values}})));
  }
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
}

}  // namespace

void register_validation_curve(CLI::App& app) {
  auto vc = std::make_shared<cv_cli_options>();
  auto* vcc = app.add_subcommand("validation-curve", "Train and test scores over the values of one learner parameter");
  vcc->footer(
      "Example:\n"
      "  assay validation-curve breast_cancer.csv --target diagnosis --pos-label malignant --learner logistic \\\n"
      "    --param C --values 0.01 0.1 1 10");
  add_common(vcc, *vc);
  vcc->add_option("--param", vc->param, "The learner parameter to vary (see 'assay learners')")->required();
  vcc->add_option("--values", vc->values, "Its values")->required();
  add_html_option(vcc, *vc);
  vcc->callback([vc] { guarded([&] { run_validation_curve(*vc); }); });
}

}  // namespace assay::cli
