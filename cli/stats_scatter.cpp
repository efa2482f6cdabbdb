// assay stats scatter: the scatter plot (SVG) of two learners' scores over data sets, with y = x.
// Parses the options, calls assay::stats, prints (shared helpers: cli/stats_options.hpp).
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/plot/svg.hpp"
#include "commands.hpp"
#include "stats_options.hpp"

namespace assay::cli::stats_cli {

namespace {

struct scatter_options {
  common c;
  std::string file, a, b, label, plot, title;
};

// The scatter plot of two learners' scores over data sets (one point per row of the file) with the
// diagonal; prints how many points lie on each side of it.
void run_scatter(const scatter_options& o) {
  const auto f = read_scores(o.file, {o.a, o.b}, o.label, "--a/--b");
  const auto& x = f.columns[0];
  const auto& y = f.columns[1];
  std::int64_t above = 0, below = 0, on = 0;
  for (std::size_t i = 0; i < x.size(); ++i) (y[i] > x[i] ? above : y[i] < x[i] ? below : on) += 1;
  auto chart = plot::scatter_with_diagonal(
      o.title.empty() ? fmt::format("{} against {} over {} data sets (dashed: y = x)", f.names[1], f.names[0], x.size()) : o.title,
      f.names[0], f.names[1], x, y, f.labels);
  chart.id = "scatter";
  write_output(o.plot, plot::render_svg(chart));
  output out;
  out.title = fmt::format("Scores of {} (x) and {} (y) over {} data sets; plot written to {}", f.names[0], f.names[1],
                          x.size(), o.plot);
  out.add("n", static_cast<std::int64_t>(x.size()));
  out.add("above_diagonal", above);
  out.add("below_diagonal", below);
  out.add("on_diagonal", on);
  emit(o.c, out);
}

}  // namespace

void register_scatter(CLI::App* parent) {
  auto so = std::make_shared<scatter_options>();
  auto* sc = parent->add_subcommand("scatter", "Scatter plot (SVG) of two learners' scores over data sets, with y = x");
  sc->add_option("file", so->file, "CSV file, one row per data set")->required();
  sc->add_option("--a", so->a, "Learner A's column (x axis)")->required();
  sc->add_option("--b", so->b, "Learner B's column (y axis)")->required();
  sc->add_option("--label", so->label, "Column with the data-set names, written next to the points");
  sc->add_option("--plot", so->plot, "The SVG file to write")->required();
  sc->add_option("--title", so->title, "Plot title (default: B against A over n data sets (dashed: y = x))");
  add_common(sc, so->c);
  sc->callback([so] { run_scatter(*so); });
}

}  // namespace assay::cli::stats_cli
