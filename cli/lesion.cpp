// assay lesion: retrain without each named feature group; the score drop with an interval. Parses
// options, calls the validation library, prints (shared options: cli/validation_options.hpp).
#include "assay/validation/lesion.hpp"

#include "validation_options.hpp"

namespace assay::cli {

namespace {

void run_lesion(cv_cli_options& o) {
  current_command = "assay lesion";
  const auto d = load(o);
  std::vector<std::string> notes;
  const auto splits = make(o, d, notes);
  std::vector<validation::feature_group> groups;
  for (const auto& g : o.feature_groups) groups.push_back(validation::parse_feature_group(g));
  const auto r = validation::lesion_study(d, pick_learner(o, d), splits, groups, engine_options(o), o.confidence);
  if (!o.html.empty()) {
    std::string spec;
    for (const auto& g : o.feature_groups) spec += (spec.empty() ? "" : "; ") + g;
    write_output(o.html, html::validation_page(r, page_setup(o, r.learner,
                                                             {{"Splits", std::to_string(r.splits)},
                                                              {"Feature groups", spec},
                                                              {"Confidence", html::number(r.confidence)}})));
  }
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
}

}  // namespace

void register_lesion(CLI::App& app) {
  auto le = std::make_shared<cv_cli_options>();
  auto* lec = app.add_subcommand("lesion", "Retrain without each named feature group; the score drop with an interval");
  lec->footer(
      "Example:\n"
      "  assay lesion breast_cancer.csv --target diagnosis --pos-label malignant --learner logistic \\\n"
      "    --folds 10 --repeats 5 --seed 1 \\\n"
      "    --group-features size=mean_radius,mean_perimeter,mean_area texture=mean_texture,worst_texture");
  add_common(lec, *le);
  lec->add_option("--group-features", le->feature_groups, "NAME=col1,col2,... (repeatable)")->required();
  lec->add_option("--confidence", le->confidence, "Confidence of the interval (default 0.95)");
  add_html_option(lec, *le);
  lec->callback([le] { guarded([&] { run_lesion(*le); }); });
}

}  // namespace assay::cli
