// The SVG charts of the validation results (learning curves, learner comparisons), drawn by the one
// chart writer (include/assay/plot/svg.hpp). Declared next to their results in
// include/assay/validation/learning_curve.hpp and compare.hpp; nothing here computes a statistic.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "assay/plot/svg.hpp"
#include "assay/validation/compare_learners.hpp"
#include "assay/validation/learning_curve.hpp"

namespace assay::validation {

std::string to_svg(const learning_curve_result& r) {
  plot::chart c;
  c.id = "learning-curve";
  c.square = false;
  c.x_label = "training rows";
  const std::string metric = r.points.empty() || r.points[0].test.empty() ? std::string() : r.points[0].test[0].name;
  c.y_label = metric;
  c.title = metric.empty() ? fmt::format("Learning curve: {}", r.learner)
                           : fmt::format("Learning curve: {} ({})", r.learner, metric);
  const char* names[2] = {"train", "test"};
  std::vector<std::vector<double>> extents;
  double x_max = 1;
  for (int which = 0; which < 2; ++which) {
    plot::series s;
    s.name = names[which];
    s.markers = true;
    std::vector<double> lo, hi;
    for (const auto& p : r.points) {
      const auto& summaries = which == 0 ? p.train : p.test;
      if (summaries.empty() || !summaries[0].mean.defined()) continue;
      const auto& m = summaries[0];
      const double e = m.sd.defined() ? m.sd.v : 0;
      s.x.push_back(static_cast<double>(p.train_rows));
      s.y.push_back(m.mean.v);
      s.y_err.push_back(m.sd.defined() ? m.sd.v : -1.0);  // negative: no error bar at this point
      lo.push_back(m.mean.v - e);
      hi.push_back(m.mean.v + e);
      x_max = std::max(x_max, static_cast<double>(p.train_rows));
    }
    extents.push_back(std::move(lo));
    extents.push_back(std::move(hi));
    c.lines.push_back(std::move(s));
  }
  const auto [y_lo, y_hi] = plot::padded_range(extents);
  c.x_min = 0;
  c.x_max = x_max;
  c.y_min = y_lo;
  c.y_max = y_hi;
  return plot::render_svg(c);
}

std::string to_svg(const learner_comparison& r) {
  plot::chart c;
  c.id = "learner-comparison";
  c.title = fmt::format("{} per split: {} (A) vs {} (B)", r.metric, r.learner_a, r.learner_b);
  c.y_label = r.metric;
  c.x_label = "one line per split: blue where A is better, red where B is better";
  c.x_ticks = {{0.0, "A: " + r.learner_a}, {1.0, "B: " + r.learner_b}};
  c.x_min = -0.25;
  c.x_max = 1.25;
  const auto [lo, hi] = plot::padded_range({r.a, r.b});
  c.y_min = lo;
  c.y_max = hi;
  constexpr const char* a_better = "#1f77b4";
  constexpr const char* b_better = "#d62728";
  const std::size_t n = std::min(r.a.size(), r.b.size());
  for (std::size_t s = 0; s < n; ++s) {
    plot::series line;
    line.x = {0.0, 1.0};
    line.y = {r.a[s], r.b[s]};
    line.markers = true;
    line.colour = (r.a[s] > r.b[s]) == r.higher_is_better ? a_better : b_better;
    c.lines.push_back(std::move(line));
  }
  // Legend entries only (no points).
  for (auto [name, colour] : {std::pair{"A better in that split", a_better}, {"B better in that split", b_better}}) {
    plot::series key;
    key.name = name;
    key.colour = colour;
    c.lines.push_back(std::move(key));
  }
  return plot::render_svg(c);
}

}  // namespace assay::validation
