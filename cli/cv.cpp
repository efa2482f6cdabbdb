// assay cv / learning-curve / learners: cross-validation of a learner on a data file. Parses
// options, calls the validation library, prints.
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "assay/report/html.hpp"
#include "assay/error.hpp"
#include "assay/validation/bias_variance.hpp"
#include "assay/validation/bootstrap_estimate.hpp"
#include "assay/validation/cancel.hpp"
#include "assay/validation/compare.hpp"
#include "assay/validation/dataset.hpp"
#include "assay/validation/engine.hpp"
#include "assay/validation/external.hpp"
#include "assay/validation/learning_curve.hpp"
#include "assay/validation/lesion.hpp"
#include "assay/validation/nested.hpp"
#include "assay/validation/permutation.hpp"
#include "assay/validation/split_plan.hpp"
#include "assay/validation/validation_curve.hpp"
#include "commands.hpp"

namespace assay::cli {

namespace {

struct cv_cli_options {
  validation::split_request split;
  std::string data, target, group, learner = "majority", task = "auto", impute = "none", pos_label;
  std::string format = "text", output, oof, svg, html;
  std::vector<std::string> metrics, features, drop;
  std::vector<double> sizes;
  std::size_t threads = 0;
  std::string external;
  std::size_t permutations = 100;
  std::size_t rounds = 200;
  std::vector<std::string> feature_groups;
  double confidence = 0.95;
  std::string learner_b, param;
  std::vector<std::string> values;
  std::size_t inner_folds = 3;
  double timeout = 600;
  bool stratify = false, no_folds = false;
  bool method_given = false;
};

validation::dataset load(const cv_cli_options& o) {
  validation::dataset_request d;
  d.path = o.data;
  d.target = o.target;
  d.features = o.features;
  d.drop = o.drop;
  if (!o.group.empty()) d.group = o.group;
  d.task = o.task == "classification" ? validation::task_type::classification
           : o.task == "regression"   ? validation::task_type::regression
                                      : validation::task_type::automatic;
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

// Ctrl-C asks the engine to stop (a second Ctrl-C kills at once); the run then throws
// validation::interrupted after removing its temporary files, and the command exits with 130.
extern "C" void on_sigint(int) { validation::request_cancel(); }

template <class F>
void guarded(F run) {
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  struct sigaction old {};
  sigaction(SIGINT, &sa, &old);
  try {
    run();
  } catch (const validation::interrupted&) {
    std::fprintf(stderr, "\r%s: interrupted\n", current_command.c_str());
    std::exit(130);
  }
  sigaction(SIGINT, &old, nullptr);
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

// The self-contained page of `assay cv --html`: data and options (enough to rerun), the summary
// over the splits and the per-split table. Every text from the data is escaped.
std::string cv_html(const cv_cli_options& o, const validation::cv_result& r) {
  html::document doc("assay cv: " + r.learner + " on " + o.data, o.data);
  std::string splitting = o.split.method;
  doc.add_section("setup", "Data and options",
                  html::setup_table({{"File", o.data},
                                     {"Target column", o.target},
                                     {"Learner", r.learner},
                                     {"Resampling", splitting},
                                     {"Folds", std::to_string(o.split.folds)},
                                     {"Repeats", std::to_string(r.repeats)},
                                     {"Splits", std::to_string(r.folds.size())},
                                     {"Random seed", std::to_string(o.split.seed)},
                                     {"Threads (results do not depend on them)", std::to_string(r.threads)},
                                     {"assay version", ASSAY_VERSION}}));
  std::vector<html::headline> rows;
  for (const auto& m : r.summary) {
    rows.push_back({m.title + ": mean over splits", m.mean, std::nullopt});
    rows.push_back({m.title + ": standard deviation over splits", m.sd, std::nullopt});
    rows.push_back({m.title + ": pooled test predictions", m.pooled, std::nullopt});
  }
  doc.add_section("summary", "Summary over the splits", html::headline_table(rows));
  auto cell = [](const value& v) {
    return v.defined() ? html::number(v.v) : "undefined (" + v.reason + ")";
  };
  std::string t = "<table class=\"per-fold\"><caption>One row per split: test-set metrics</caption><thead><tr>"
                  "<th scope=\"col\">Repeat</th><th scope=\"col\">Split</th><th scope=\"col\">Train rows</th>"
                  "<th scope=\"col\">Test rows</th>";
  for (const auto& m : r.summary) t += "<th scope=\"col\">" + html::escape(m.title) + "</th>";
  t += "</tr></thead><tbody>";
  for (const auto& f : r.folds) {
    t += fmt::format("<tr><td>{}</td><th scope=\"row\">{}</th><td>{}</td><td>{}</td>", f.repeat, f.split, f.train_rows,
                     f.test_rows);
    for (const auto& v : f.test) t += "<td>" + html::escape(cell(v)) + "</td>";
    t += "</tr>";
  }
  t += "</tbody></table>";
  doc.add_section("folds", "Per split", t);
  if (!r.notes.empty()) {
    std::string n;
    for (const auto& x : r.notes) n += html::document::paragraph(x);
    doc.add_section("notes", "Notes", n);
  }
  return doc.render();
}

void run_cv(cv_cli_options& o) {
  current_command = "assay cv";
  const auto d = load(o);
  std::vector<std::string> notes;
  const auto splits = make(o, d, notes);
  const auto learner = pick_learner(o, d);
  auto r = validation::cross_validate(d, learner, splits, engine_options(o));
  r.notes.insert(r.notes.begin(), notes.begin(), notes.end());
  if (!o.oof.empty()) write_output(o.oof, validation::oof_csv(d, r));
  std::string text = o.format == "json" ? validation::to_json(r) : validation::to_text(r, !o.no_folds);
  if (o.split.method == "bootstrap" && o.format != "json") {
    // The bootstrap's own estimators, from the same samples (same seed).
    text += "\n" + validation::to_text(validation::bootstrap_632(d, learner, o.split.repeats, o.split.seed, o.threads));
  }
  if (!o.html.empty()) write_output(o.html, cv_html(o, r));
  write_output(o.output, text);
}

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
  std::string text = o.format == "json" ? validation::to_json(r) : validation::to_text(r);
  if (o.format != "json")
    for (const auto& n : notes) text += "note: " + n + "\n";
  write_output(o.output, text);
}

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
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
}

void run_bias_variance(cv_cli_options& o) {
  current_command = "assay bias-variance";
  const auto d = load(o);
  const auto part = validation::holdout(
      d.rows, o.split.train_fraction, o.split.seed,
      d.classification() ? std::span<const std::int32_t>(d.y_class) : std::span<const std::int32_t>());
  const auto r = validation::bias_variance(d, pick_learner(o, d), part, o.rounds, o.split.seed, o.threads);
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
}

void run_lesion(cv_cli_options& o) {
  current_command = "assay lesion";
  const auto d = load(o);
  std::vector<std::string> notes;
  const auto splits = make(o, d, notes);
  std::vector<validation::feature_group> groups;
  for (const auto& g : o.feature_groups) groups.push_back(validation::parse_feature_group(g));
  const auto r = validation::lesion_study(d, pick_learner(o, d), splits, groups, engine_options(o), o.confidence);
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
}

void run_compare(cv_cli_options& o) {
  current_command = "assay compare-learners";
  const auto d = load(o);
  std::vector<std::string> notes;
  const auto splits = make(o, d, notes);
  const auto a = pick_learner(o, d);
  const auto b = validation::make_learner(o.learner_b, d.classification());
  const auto r = validation::compare_learners(d, a, b, splits, engine_options(o));
  if (!o.svg.empty()) write_output(o.svg, validation::to_svg(r));
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
}

void run_validation_curve(cv_cli_options& o) {
  current_command = "assay validation-curve";
  const auto d = load(o);
  std::vector<std::string> notes;
  const auto splits = make(o, d, notes);
  const auto r = validation::validation_curve(d, o.learner, o.param, o.values, splits, engine_options(o));
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
}

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
  write_output(o.output, o.format == "json" ? validation::to_json(r) : validation::to_text(r));
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

}  // namespace

void register_cv(CLI::App& app) {
  auto o = std::make_shared<cv_cli_options>();
  auto* cmd = app.add_subcommand("cv", "Cross-validate a learner: per-split metrics, mean, sd, pooled estimate");
  cmd->footer(
      "Examples:\n"
      "  assay cv iris.csv --target species --learner gaussian_nb\n"
      "  assay cv breast_cancer.csv --target diagnosis --learner logistic:C=0.5 --folds 10 --repeats 10 --seed 1\n"
      "  assay cv diabetes.csv --target progression --learner ridge:alpha=1 --metric r2 --html cv.html\n"
      "  assay cv iris.csv --target species --learner knn --oof-predictions oof.csv &&\n"
      "    assay report oof.csv --label species --pred pred");
  add_common(cmd, *o);
  cmd->add_option("--oof-predictions", o->oof, "Write out-of-fold predictions (CSV for 'assay report')");
  cmd->add_flag("--no-folds", o->no_folds, "Text output: leave out the per-split table");
  cmd->add_option("--html", o->html, "Also write a self-contained HTML page (no network, no scripts) to this file")
      ->type_name("PATH")
      ->check([](const std::string& p) {
        return p == "-" ? std::string("needs a file name, not '-' (standard output carries the result)") : "";
      });
  cmd->callback([o] { guarded([&] { run_cv(*o); }); });

  auto l = std::make_shared<cv_cli_options>();
  auto* lc = app.add_subcommand("learning-curve", "Train and test scores against training-set size, with error bars");
  lc->footer(
      "Examples:\n"
      "  assay learning-curve breast_cancer.csv --target diagnosis --learner logistic --folds 5 --repeats 4 --svg "
      "lc.svg\n"
      "  assay learning-curve iris.csv --target species --learner knn --sizes 0.2 0.4 0.6 0.8 1");
  add_common(lc, *l);
  lc->add_option("--sizes", l->sizes,
                 "Training shares of each training part, in (0, 1] (default 0.1 0.325 0.55 0.775 1)");
  lc->add_option("--svg", l->svg, "Also write an SVG plot of the first metric");
  lc->callback([l] { guarded([&] { run_learning_curve(*l); }); });

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
  perm->callback([pt] { guarded([&] { run_permutation(*pt); }); });

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
  bvc->callback([bv] { guarded([&] { run_bias_variance(*bv); }); });

  auto le = std::make_shared<cv_cli_options>();
  auto* lec = app.add_subcommand("lesion", "Retrain without each named feature group; the score drop with an interval");
  lec->footer(
      "Example:\n"
      "  assay lesion breast_cancer.csv --target diagnosis --learner logistic --folds 10 --repeats 5 --seed 1 \\\n"
      "    --group-features size=mean_radius,mean_perimeter,mean_area texture=mean_texture,worst_texture");
  add_common(lec, *le);
  lec->add_option("--group-features", le->feature_groups, "NAME=col1,col2,... (repeatable)")->required();
  lec->add_option("--confidence", le->confidence, "Confidence of the interval (default 0.95)");
  lec->callback([le] { guarded([&] { run_lesion(*le); }); });

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
  cmpc->callback([cmp] { guarded([&] { run_compare(*cmp); }); });

  auto vc = std::make_shared<cv_cli_options>();
  auto* vcc = app.add_subcommand("validation-curve", "Train and test scores over the values of one learner parameter");
  vcc->footer(
      "Example:\n"
      "  assay validation-curve breast_cancer.csv --target diagnosis --learner logistic --param C --values 0.01 0.1 1 "
      "10");
  add_common(vcc, *vc);
  vcc->add_option("--param", vc->param, "The learner parameter to vary (see 'assay learners')")->required();
  vcc->add_option("--values", vc->values, "Its values")->required();
  vcc->callback([vc] { guarded([&] { run_validation_curve(*vc); }); });

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
  ncc->callback([nc] { guarded([&] { run_nested(*nc); }); });

  auto* ls = app.add_subcommand("learners", "List the built-in learners and their parameters");
  ls->footer("Example:\n  assay learners");
  ls->callback([] {
    current_command = "assay learners";
    std::string out;
    for (const auto& i : validation::learner_catalog()) {
      out += fmt::format("{}  ({}{}{})\n  {}\n", i.name, i.classification ? "classification" : "",
                         i.classification && i.regression ? ", " : "", i.regression ? "regression" : "", i.description);
      for (const auto& p : i.params) out += fmt::format("    {}={:<8} {}\n", p.name, p.default_value, p.description);
    }
    write_output("", out);
  });
}

}  // namespace assay::cli
