// The HTML pages of the validation commands; see include/assay/report/html_validation.hpp. Every
// page is an html::document (the shared skeleton, stylesheet and escaping of src/render/html.cpp);
// plots come from assay::plot (include/assay/plot/svg.hpp).
#include "assay/report/html_validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <tuple>

#include "assay/plot/svg.hpp"
#include "assay/stats/distributions.hpp"
#include "assay/stats/learner_tests.hpp"
#include "assay/stats/proportion.hpp"

namespace assay::html {

namespace {

constexpr std::size_t max_metric_plots = 6;  // one figure per metric, at most this many

plot::series make_series(std::string name, std::vector<double> x, std::vector<double> y) {
  plot::series s;
  s.name = std::move(name);
  s.x = std::move(x);
  s.y = std::move(y);
  return s;
}

html::document start(const run_setup& s) {
  html::document doc(s.title, s.subtitle);
  doc.add_section("setup", "Data and options",
                  setup_table(s.rows) + (s.command.empty() ? std::string() : command_block(s.command)));
  return doc;
}

void add_notes(html::document& doc, const std::vector<std::string>& notes) {
  if (notes.empty()) return;
  std::string n = "<ul class=\"notes\">";
  for (const auto& x : notes) n += "<li>" + escape(x) + "</li>";
  doc.add_section("notes", "Notes", n + "</ul>");
}

// A table cell: the number, or "undefined" with the reason as a tooltip.
std::string td(const value& v) {
  if (!v.defined())
    return fmt::format("<td><span class=\"undef\" title=\"{}\">undefined</span></td>", escape(v.reason));
  return "<td>" + number(v.v) + "</td>";
}

std::string td(double v) { return "<td>" + number(v) + "</td>"; }

std::string th_col(std::string_view text) { return "<th scope=\"col\">" + escape(text) + "</th>"; }

double or_nan(const value& v) { return v.defined() ? v.v : std::nan(""); }

std::string interval_method(double level) {
  return fmt::format("corrected resampled t (Nadeau-Bengio), {}%", number(100 * level));
}

// The x position of each point of a validation curve: the values when all are numbers (on a log10
// axis when they are positive and span more than a factor 20), else 1, 2, ... with the value as label.
struct x_axis {
  std::vector<double> x;
  std::string label;
  bool labelled = false;
};

x_axis place_values(const std::vector<std::string>& values, const std::string& param) {
  x_axis a;
  bool numeric = !values.empty();
  std::vector<double> v;
  for (const auto& s : values) {
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(d)) numeric = false;
    v.push_back(d);
  }
  if (numeric) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    if (*lo > 0 && *hi / *lo > 20) {
      for (double& d : v) d = std::log10(d);
      a.label = "log10(" + param + ")";
    } else {
      a.label = param;
    }
    a.x = v;
    return a;
  }
  for (std::size_t i = 0; i < values.size(); ++i) a.x.push_back(static_cast<double>(i + 1));
  a.label = param + " (value number; the value is written at each point)";
  a.labelled = true;
  return a;
}

// Train and test means with +-1 sd error bars and bands against x, one chart for metric m.
plot::chart train_test_chart(std::string id, std::string title, std::string x_label, const std::vector<double>& x,
                             const std::vector<const validation::metric_summary*>& train,
                             const std::vector<const validation::metric_summary*>& test) {
  plot::chart c;
  c.id = std::move(id);
  c.title = std::move(title);
  c.x_label = std::move(x_label);
  c.y_label = test.empty() ? std::string() : test[0]->title + " (mean +- 1 sd over splits)";
  c.square = false;
  plot::series tr = make_series("train", x, {}), te = make_series("test", x, {});
  for (auto* s : train) tr.y.push_back(or_nan(s->mean)), tr.y_err.push_back(or_nan(s->sd));
  for (auto* s : test) te.y.push_back(or_nan(s->mean)), te.y_err.push_back(or_nan(s->sd));
  for (auto* p : {&tr, &te}) p->markers = true, p->band = true;
  std::vector<double> lo, hi;
  for (const auto* p : {&tr, &te})
    for (std::size_t i = 0; i < p->y.size(); ++i) {
      const double e = std::isfinite(p->y_err[i]) ? p->y_err[i] : 0;
      lo.push_back(p->y[i] - e);
      hi.push_back(p->y[i] + e);
    }
  std::tie(c.y_min, c.y_max) = plot::padded_range({lo, hi});
  std::tie(c.x_min, c.x_max) = plot::padded_range({x});
  c.lines = {std::move(tr), std::move(te)};
  return c;
}

// "mean (sd)" of a summary, for tables.
std::string td_mean_sd(const validation::metric_summary& s) {
  if (!s.mean.defined()) return td(s.mean);
  return fmt::format("<td>{}{}</td>", number(s.mean.v), s.sd.defined() ? " &plusmn; " + number(s.sd.v) : "");
}

// The figures and the table shared by learning and validation curves. `row_head` writes the first
// cells of point i; `heads` are their column titles.
template <class Point>
void add_curve_sections(html::document& doc, const std::vector<Point>& points, const std::vector<double>& x,
                        const std::string& x_label, const std::string& what, const std::vector<std::string>& heads,
                        const std::function<std::string(std::size_t)>& row_head,
                        const std::vector<std::string>& point_labels) {
  const std::size_t metrics = points.empty() ? 0 : points[0].test.size();
  std::string figs;
  for (std::size_t m = 0; m < metrics && m < max_metric_plots; ++m) {
    std::vector<const validation::metric_summary*> train, test;
    for (const auto& p : points) {
      train.push_back(&p.train[m]);
      test.push_back(&p.test[m]);
    }
    auto c = train_test_chart(fmt::format("curve-{}", m), fmt::format("{}: {}", what, points[0].test[m].title), x_label,
                              x, train, test);
    if (!point_labels.empty()) c.lines[1].labels = point_labels;
    figs += figure_block({fmt::format("curve-fig-{}", m), fmt::format("{} ({})", what, points[0].test[m].title),
                          "Mean over the splits; error bars and shaded bands: +- 1 standard deviation over the "
                          "splits (the spread of the scores, not a confidence interval of the mean)",
                          plot::render_svg(c)});
  }
  if (metrics > max_metric_plots)
    figs += document::paragraph(
        fmt::format("Plots of the first {} of {} metrics; the table has all of them.", max_metric_plots, metrics));
  doc.add_section("plot", what, figs);

  std::string t =
      "<div class=\"scroll\"><table class=\"per-point\"><caption>One row per point: mean &plusmn; standard "
      "deviation over the splits; pooled test = the metric of all test predictions together</caption>"
      "<thead><tr>";
  for (const auto& h : heads) t += th_col(h);
  for (std::size_t m = 0; m < metrics; ++m) {
    const auto& title = points[0].test[m].title;
    t += th_col("train " + title) + th_col("test " + title) + th_col("pooled test " + title);
  }
  t += "</tr></thead><tbody>";
  for (std::size_t i = 0; i < points.size(); ++i) {
    t += "<tr>" + row_head(i);
    for (std::size_t m = 0; m < metrics; ++m)
      t += td_mean_sd(points[i].train[m]) + td_mean_sd(points[i].test[m]) + td(points[i].test[m].pooled);
    t += "</tr>";
  }
  doc.add_section("table", "Per point", t + "</tbody></table></div>");
}

}  // namespace

std::optional<interval> corrected_mean_interval(std::span<const double> scores, double n_train, double n_test,
                                                double level) {
  std::vector<double> x;
  for (double s : scores)
    if (std::isfinite(s)) x.push_back(s);
  if (x.size() < 2 || !(n_train > 0) || !std::isfinite(n_train) || !(n_test >= 0) || !std::isfinite(n_test) ||
      !(level > 0 && level < 1))
    return std::nullopt;
  const auto ci = stats::corrected_resampled_interval(x, n_train, n_test, level);
  return interval{ci.lower, ci.upper, interval_method(level)};
}

std::string validation_page(const validation::cv_result& r, const run_setup& setup) {
  auto doc = start(setup);
  double n_train = 0, n_test = 0;
  for (const auto& f : r.folds)
    n_train += static_cast<double>(f.train_rows), n_test += static_cast<double>(f.test_rows);
  if (!r.folds.empty()) n_train /= static_cast<double>(r.folds.size()), n_test /= static_cast<double>(r.folds.size());
  std::vector<headline> rows;
  for (std::size_t m = 0; m < r.summary.size(); ++m) {
    const auto& s = r.summary[m];
    std::vector<double> scores;
    for (const auto& f : r.folds) scores.push_back(or_nan(f.test[m]));
    rows.push_back({s.title + ": mean over splits", s.mean, corrected_mean_interval(scores, n_train, n_test)});
    rows.push_back({s.title + ": standard deviation over splits", s.sd, std::nullopt});
    rows.push_back({s.title + ": pooled test predictions", s.pooled, std::nullopt});
  }
  doc.add_section("summary", "Summary over the splits", headline_table(rows));

  std::string t =
      "<div class=\"scroll\"><table class=\"per-fold\"><caption>One row per split: test-set "
      "metrics</caption><thead><tr><th scope=\"col\">Repeat</th><th scope=\"col\">Split</th>"
      "<th scope=\"col\">Train rows</th><th scope=\"col\">Test rows</th>";
  for (const auto& m : r.summary) t += th_col(m.title);
  t += "</tr></thead><tbody>";
  for (const auto& f : r.folds) {
    t += fmt::format("<tr><td>{}</td><th scope=\"row\">{}</th><td>{}</td><td>{}</td>", f.repeat, f.split, f.train_rows,
                     f.test_rows);
    for (const auto& v : f.test) t += td(v);
    t += "</tr>";
  }
  doc.add_section("folds", "Per split", t + "</tbody></table></div>");
  add_notes(doc, r.notes);
  return doc.render();
}

std::string validation_page(const validation::learning_curve_result& r, const run_setup& setup) {
  auto doc = start(setup);
  std::vector<headline> rows;
  if (!r.points.empty()) {
    const auto& last = r.points.back();
    for (const auto& s : last.test) {
      rows.push_back({fmt::format("test {} at {} training rows: mean over splits", s.title, last.train_rows), s.mean,
                      std::nullopt});
      rows.push_back({fmt::format("test {} at {} training rows: standard deviation", s.title, last.train_rows), s.sd,
                      std::nullopt});
    }
  }
  doc.add_section("summary", "Summary",
                  document::paragraph(fmt::format(
                      "{} splits; each point trains on the first share of every split's (once shuffled) training part, "
                      "so smaller training sets are nested in larger ones. For a confidence interval of the score at "
                      "the full size run assay cv with the same options.",
                      r.splits)) +
                      headline_table(rows));
  std::vector<double> x;
  for (const auto& p : r.points) x.push_back(static_cast<double>(p.train_rows));
  add_curve_sections(doc, r.points, x, "training rows (mean over splits)", "Learning curve", {"Share", "Training rows"},
                     [&](std::size_t i) {
                       return fmt::format("<th scope=\"row\">{}</th><td>{}</td>", number(r.points[i].share),
                                          r.points[i].train_rows);
                     },
                     {});
  return doc.render();
}

std::string validation_page(const validation::validation_curve_result& r, const run_setup& setup) {
  auto doc = start(setup);
  std::vector<headline> rows;
  // The best value on the first metric's mean test score.
  std::size_t best = r.points.size();
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    if (r.points[i].test.empty() || !r.points[i].test[0].mean.defined()) continue;
    const auto& s = r.points[i].test[0];
    if (best == r.points.size() ||
        (s.higher_is_better ? s.mean.v > r.points[best].test[0].mean.v : s.mean.v < r.points[best].test[0].mean.v))
      best = i;
  }
  if (best < r.points.size()) {
    const auto& p = r.points[best];
    for (const auto& s : p.test) {
      rows.push_back(
          {fmt::format("test {} at {} = {}: mean over splits", s.title, r.param, p.value), s.mean, std::nullopt});
      rows.push_back(
          {fmt::format("test {} at {} = {}: standard deviation", s.title, r.param, p.value), s.sd, std::nullopt});
    }
  }
  doc.add_section(
      "summary", "Summary",
      document::paragraph(
          best < r.points.size()
              ? fmt::format("Best test score on the first metric at {} = {} ({} splits). The best of several values is "
                            "optimistic as an estimate of future performance: use assay nested-cv for that.",
                            r.param, r.points[best].value, r.splits)
              : std::string("The first metric is undefined at every value.")) +
          headline_table(rows));
  std::vector<std::string> values;
  for (const auto& p : r.points) values.push_back(p.value);
  const auto axis = place_values(values, r.param);
  add_curve_sections(
      doc, r.points, axis.x, axis.label, "Validation curve", {r.param},
      [&](std::size_t i) { return "<th scope=\"row\">" + escape(r.points[i].value) + "</th>"; },
      axis.labelled ? values : std::vector<std::string>{});
  return doc.render();
}

std::string validation_page(const validation::permutation_result& r, const run_setup& setup) {
  auto doc = start(setup);
  std::vector<double> finite;
  for (double s : r.permuted)
    if (std::isfinite(s)) finite.push_back(s);
  const auto b = static_cast<double>(r.permuted.size());
  // p = (1 + c) / (B + 1); c = permutations at least as good. The Monte Carlo uncertainty of the
  // permutation p-value (all permutations) is that of the proportion c / B: Clopper-Pearson.
  const double c = std::round(r.p_value * (b + 1) - 1);
  std::vector<headline> rows{{r.metric + ": cross-validated score on the real labels", value(r.score), std::nullopt}};
  double mean = 0, sd = 0;
  if (!finite.empty()) {
    for (double v : finite) mean += v;
    mean /= static_cast<double>(finite.size());
    for (double v : finite) sd += (v - mean) * (v - mean);
    rows.push_back({r.metric + ": mean over the permutations", value(mean), std::nullopt});
    if (finite.size() > 1)
      rows.push_back({r.metric + ": standard deviation over the permutations",
                      value(std::sqrt(sd / static_cast<double>(finite.size() - 1))), std::nullopt});
  }
  headline p{"p-value (1 + permutations at least as good) / (permutations + 1)", value(r.p_value), std::nullopt};
  if (b > 0) {
    const auto ci = stats::proportion_ci(c, b, 0.95, stats::proportion_method::clopper_pearson);
    p.ci = interval{ci.lower, ci.upper,
                    fmt::format("Clopper-Pearson 95% for the p-value of all permutations ({} of {} at least as good)",
                                number(c), number(b))};
  }
  rows.push_back(p);
  doc.add_section("summary", "Summary",
                  document::paragraph(fmt::format(
                      "The learner was retrained on the same splits with the target randomly permuted {} times "
                      "(Ojala and Garriga 2010, test 1). A small p-value says the score is unlikely if features and "
                      "target were independent; it says nothing about how large the effect is.",
                      r.permuted.size())) +
                      headline_table(rows));

  // Histogram of the null scores; the observed score as a vertical line.
  // Bins over the null scores only; the axis also reaches the observed score.
  const auto [lo, hi] = plot::padded_range({finite}, 0.02);
  const std::size_t bins = std::clamp<std::size_t>(
      static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(finite.size())))), 5, 40);
  const double width = (hi - lo) / static_cast<double>(bins);
  std::vector<double> counts(bins, 0), centres(bins);
  for (std::size_t i = 0; i < bins; ++i) centres[i] = lo + width * (static_cast<double>(i) + 0.5);
  for (double v : finite)
    ++counts[std::min(bins - 1, static_cast<std::size_t>(std::max(0.0, std::floor((v - lo) / width))))];
  const double top = std::max(1.0, *std::max_element(counts.begin(), counts.end()));
  plot::chart ch;
  ch.id = "null";
  ch.title = "Null distribution of " + r.metric;
  ch.x_label = r.metric + " (cross-validated mean)";
  ch.y_label = "permutations";
  ch.square = false;
  std::tie(ch.x_min, ch.x_max) = plot::padded_range({{lo, hi, r.score}}, 0.03);
  ch.y_min = 0;
  ch.y_max = top * 1.15;
  plot::series bars = make_series("permuted labels", centres, counts);
  bars.bar_width = width * 0.92;
  plot::series observed = make_series("real labels", {r.score, r.score}, {0, top * 1.1});
  observed.colour = "#d62728";
  ch.lines = {std::move(bars), std::move(observed)};
  ch.markers.push_back({r.score, top * 1.1, fmt::format("observed {} (p = {})", number(r.score), number(r.p_value))});
  std::string fig = figure_block({"null-fig", "Scores with permuted labels",
                                  fmt::format("Histogram of the {} permutation scores ({} bins); the line is the score "
                                              "on the real labels",
                                              finite.size(), bins),
                                  plot::render_svg(ch)});
  if (finite.size() < r.permuted.size())
    fig += document::paragraph(
        fmt::format("{} permutations had an undefined score and are not drawn.", r.permuted.size() - finite.size()));
  doc.add_section("plot", "Null distribution", fig);

  std::string t =
      "<table class=\"bins\"><caption>The histogram as a table: permutation scores per bin</caption><thead>"
      "<tr><th scope=\"col\">From</th><th scope=\"col\">To</th><th scope=\"col\">Permutations</th>"
      "</tr></thead><tbody>";
  for (std::size_t i = 0; i < bins; ++i)
    t += fmt::format("<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>", number(lo + width * i),
                     number(lo + width * (i + 1)), number(counts[i]));
  doc.add_section("table", "Per bin", t + "</tbody></table>");
  return doc.render();
}

std::string validation_page(const validation::bias_variance_result& r, const run_setup& setup) {
  auto doc = start(setup);
  const bool squared = r.loss == "squared";
  std::vector<headline> rows{
      {squared ? "expected squared loss" : "expected 0-1 loss", value(r.expected_loss), std::nullopt},
      {squared ? "bias^2 (noise included)" : "bias (share of biased cases)", value(r.bias), std::nullopt},
      {"variance", value(r.variance), std::nullopt}};
  if (!squared) rows.push_back({"net variance (expected loss - bias)", value(r.net_variance), std::nullopt});
  doc.add_section(
      "summary", "Summary",
      document::paragraph(fmt::format(
          "{} models trained on bootstrap samples of {} training rows, each predicting the same {} test rows; the "
          "values are means over the test rows ({} loss{}). No interval is computed for them.",
          r.rounds, r.train_rows, r.test_rows, squared ? "squared" : "0-1", squared ? "" : ", Domingos 2000")) +
          headline_table(rows));
  std::string t =
      "<table class=\"parts\"><caption>The decomposition</caption><thead><tr><th scope=\"col\">Part</th>"
      "<th scope=\"col\">Value</th><th scope=\"col\">Share of the expected loss</th></tr></thead><tbody>";
  for (const auto& h : rows)
    t += fmt::format("<tr><th scope=\"row\">{}</th>{}<td>{}</td></tr>", escape(h.title), td(h.v),
                     r.expected_loss > 0 ? fmt::format("{:.1f}%", 100 * h.v.v / r.expected_loss) : "&ndash;");
  doc.add_section("table", "Decomposition", t + "</tbody></table>");
  return doc.render();
}

std::string validation_page(const validation::lesion_result& r, const run_setup& setup) {
  auto doc = start(setup);
  std::vector<headline> rows{{r.metric + " with every feature: mean over splits", r.full, std::nullopt}};
  const std::string method = interval_method(r.confidence);
  for (const auto& e : r.entries) {
    headline h{"drop without " + e.group.name, value(e.drop), std::nullopt};
    if (e.low.defined() && e.high.defined()) h.ci = interval{e.low.v, e.high.v, method};
    rows.push_back(h);
  }
  doc.add_section("summary", "Summary",
                  document::paragraph(fmt::format("Drop = score with every feature - score without the group, averaged "
                                                  "over {} splits (sign flipped for losses): above 0 the group helps.",
                                                  r.splits)) +
                      headline_table(rows));
  std::string t =
      "<div class=\"scroll\"><table class=\"groups\"><caption>One row per feature group</caption><thead><tr>"
      "<th scope=\"col\">Group</th><th scope=\"col\">Columns</th><th scope=\"col\">Score without</th>"
      "<th scope=\"col\">Mean drop</th><th scope=\"col\">SD of drops</th><th scope=\"col\">Interval</th>"
      "</tr></thead><tbody>";
  for (const auto& e : r.entries) {
    std::string cols;
    for (const auto& c : e.group.columns) cols += (cols.empty() ? "" : ", ") + c;
    t += fmt::format("<tr><th scope=\"row\">{}</th><td class=\"t\">{}</td>{}{}{}<td>{}</td></tr>", escape(e.group.name),
                     escape(cols), td(e.lesioned), td(e.drop), td(e.sd),
                     e.low.defined() && e.high.defined() ? fmt::format("[{}, {}]", number(e.low.v), number(e.high.v))
                                                         : std::string("undefined"));
  }
  doc.add_section("table", "Per group", t + "</tbody></table></div>");
  return doc.render();
}

std::string validation_page(const validation::learner_comparison& r, const run_setup& setup) {
  auto doc = start(setup);
  const auto& folds = r.result_a.folds;
  double n_train = 0, n_test = 0;
  for (const auto& f : folds) n_train += static_cast<double>(f.train_rows), n_test += static_cast<double>(f.test_rows);
  if (!folds.empty()) n_train /= static_cast<double>(folds.size()), n_test /= static_cast<double>(folds.size());
  std::vector<double> diff;
  for (std::size_t i = 0; i < r.a.size() && i < r.b.size(); ++i) diff.push_back(r.a[i] - r.b[i]);
  auto mean_of = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? value::undefined("no splits") : value(s / static_cast<double>(v.size()));
  };
  std::vector<headline> rows{
      {"A (" + r.learner_a + "): mean " + r.metric, mean_of(r.a), corrected_mean_interval(r.a, n_train, n_test)},
      {"B (" + r.learner_b + "): mean " + r.metric, mean_of(r.b), corrected_mean_interval(r.b, n_train, n_test)},
      {"A - B: mean difference", value(r.tests.mean_difference), corrected_mean_interval(diff, n_train, n_test)},
      {"p-value, corrected resampled t-test (Nadeau-Bengio)", r.tests.corrected.p_value, std::nullopt},
      {"p-value, paired t-test (too liberal for overlapping training sets)", r.tests.paired.p_value, std::nullopt},
      {"p-value, 5x2cv paired t-test (Dietterich)", r.tests.five_by_two.p_value, std::nullopt}};
  doc.add_section("summary", "Summary", headline_table(rows));

  std::vector<std::string> labels;
  if (folds.size() == r.a.size() && r.a.size() <= 30)
    for (const auto& f : folds) labels.push_back(std::to_string(f.split));
  auto ch = plot::scatter_with_diagonal(fmt::format("{} per split: A vs B", r.metric), "A: " + r.learner_a,
                                        "B: " + r.learner_b, r.a, r.b, labels);
  ch.id = "scatter";
  const std::string better = r.higher_is_better ? "above" : "below";
  doc.add_section(
      "plot", "Per-split scores",
      figure_block({"scatter-fig", "Learner A against learner B, one point per split",
                    fmt::format("Points {} the dashed diagonal are splits where B scored better; the labels are "
                                "the split numbers of the table below",
                                better),
                    plot::render_svg(ch)}));

  std::string t = "<div class=\"scroll\"><table class=\"per-fold\"><caption>One row per split: test-set " +
                  escape(r.metric) +
                  "</caption><thead><tr><th scope=\"col\">Repeat</th><th scope=\"col\">Split</th>"
                  "<th scope=\"col\">A</th><th scope=\"col\">B</th><th scope=\"col\">A - B</th></tr></thead><tbody>";
  for (std::size_t i = 0; i < diff.size(); ++i) {
    const std::size_t rep = i < folds.size() ? folds[i].repeat : 0, sp = i < folds.size() ? folds[i].split : i;
    t += fmt::format("<tr><td>{}</td><th scope=\"row\">{}</th>{}{}{}</tr>", rep, sp, td(r.a[i]), td(r.b[i]),
                     td(diff[i]));
  }
  doc.add_section("folds", "Per split", t + "</tbody></table></div>");
  return doc.render();
}

std::string validation_page(const validation::nested_cv_result& r, const run_setup& setup) {
  auto doc = start(setup);
  std::vector<headline> rows{{r.metric + ": mean outer test score", r.summary.mean, std::nullopt},
                             {r.metric + ": standard deviation over outer splits", r.summary.sd, std::nullopt}};
  doc.add_section("summary", "Summary",
                  document::paragraph("The outer test parts were never used to choose " + r.param +
                                      ", so the mean outer score estimates the performance of the whole procedure "
                                      "(choose by inner cross-validation, then train).") +
                      headline_table(rows));
  std::string t =
      "<div class=\"scroll\"><table class=\"per-fold\"><caption>One row per outer split: the value chosen, "
      "its outer test score, and the inner cross-validated mean of every candidate</caption><thead><tr>"
      "<th scope=\"col\">Outer split</th><th scope=\"col\">Chosen " +
      escape(r.param) + "</th><th scope=\"col\">Outer " + escape(r.metric) + "</th>";
  for (const auto& v : r.values) t += th_col("inner mean, " + r.param + " = " + v);
  t += "</tr></thead><tbody>";
  for (std::size_t i = 0; i < r.outer.size(); ++i) {
    t += fmt::format("<tr><th scope=\"row\">{}</th><td>{}</td>{}", i, i < r.chosen.size() ? escape(r.chosen[i]) : "",
                     td(r.outer[i]));
    if (i < r.inner.size())
      for (const auto& v : r.inner[i]) t += td(v);
    t += "</tr>";
  }
  doc.add_section("folds", "Per outer split", t + "</tbody></table></div>");
  return doc.render();
}

}  // namespace assay::html
