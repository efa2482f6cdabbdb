// assay learning-curve: train and test scores against training-set size. Parses options, calls
// the validation library, prints (shared options: cli/validation_options.hpp).
#include "assay/validation/learning_curve.hpp"

#include <fmt/format.h>

#include "validation_options.hpp"

namespace assay::cli {

namespace {

void run_learning_curve(cv_cli_options& o) {
  current_command = "assay learning-curve";
  const auto d = load(o);
  std::vector<std::string> notes;
  const auto splits = make(o, d, notes);
  const auto learner = pick_learner(o, d);
  validation::learning_curve_options lc;
  if (!o.sizes.empty()) lc.sizes = o.sizes;
  lc.seed = o.split.seed;
  lc.cv = engine_options(o);
  const auto r = validation::learning_curve(d, learner, splits, lc);
  if (!o.svg.empty()) write_output(o.svg, validation::to_svg(r));
  if (!o.html.empty()) {
    std::string sizes;
    for (double s : lc.sizes) sizes += (sizes.empty() ? "" : ", ") + fmt::format("{}", s);
    write_output(o.html,
                 html::validation_page(
                     r, page_setup(o, r.learner, {{"Splits", std::to_string(r.splits)}, {"Training shares", sizes}})));
  }
  std::string text = o.format == "json" ? validation::to_json(r) : validation::to_text(r);
  if (o.format != "json")
    for (const auto& n : notes) text += "note: " + n + "\n";
  write_output(o.output, text);
}

}  // namespace

void register_learning_curve(CLI::App& app) {
  auto l = std::make_shared<cv_cli_options>();
  auto* lc = app.add_subcommand("learning-curve", "Train and test scores against training-set size, with error bars");
  lc->footer(
      "Examples:\n"
      "  assay learning-curve breast_cancer.csv --target diagnosis --pos-label malignant --learner logistic \\\n"
      "    --folds 5 --repeats 4 --svg lc.svg\n"
      "  assay learning-curve iris.csv --target species --learner knn --sizes 0.2 0.4 0.6 0.8 1");
  add_common(lc, *l);
  lc->add_option("--sizes", l->sizes,
                 "Training shares of each training part, in (0, 1] (default 0.1 0.325 0.55 0.775 1)");
  lc->add_option("--svg", l->svg, "Also write an SVG plot of the first metric");
  add_html_option(lc, *l);
  lc->callback([l] { guarded([&] { run_learning_curve(*l); }); });
}

}  // namespace assay::cli
