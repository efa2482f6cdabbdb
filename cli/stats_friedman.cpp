// assay stats friedman: the Friedman test of k learners over n data sets, with Nemenyi's critical difference.
// Parses the options, calls assay::stats, prints (shared helpers: cli/stats_options.hpp).
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/stats/learner_tests.hpp"
#include "commands.hpp"
#include "stats_options.hpp"

namespace assay::cli::stats_cli {

namespace {

struct friedman_options {
  common c;
  std::vector<std::string> rows, columns;
  std::string file, label;
  std::string alpha = "0.05";
};

void run_friedman(const friedman_options& o) {
  if (o.file.empty() == o.rows.empty()) {
    throw_usage(o.file.empty() ? "--row: give the scores as --row values or as --file FILE"
                               : "--row: give either --row values or --file, not both");
  }
  if (o.file.empty() && (!o.columns.empty() || !o.label.empty()))
    throw_usage(fmt::format("{}: only used with --file", o.columns.empty() ? "--label" : "--columns"));
  std::vector<double> data;  // row-major: data set i, learner j
  std::size_t k = 0, n = 0;
  std::vector<std::string> names;
  const std::string what = o.file.empty() ? "--row" : "--file";
  if (!o.file.empty()) {
    const auto f = read_scores(o.file, o.columns, o.label, "--columns");
    names = f.names;
    k = f.columns.size();
    n = k == 0 ? 0 : f.columns[0].size();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < k; ++j) data.push_back(f.columns[j][i]);
  } else {
    for (std::size_t i = 0; i < o.rows.size(); ++i) {
      const auto row = parse_list("--row", o.rows[i]);
      if (i == 0) k = row.size();
      if (row.size() != k) {
        throw_usage(fmt::format("--row: row {} has {} values but row 1 has {}", i + 1, row.size(), k));
      }
      data.insert(data.end(), row.begin(), row.end());
    }
    n = o.rows.size();
  }
  if (n < 2) throw_usage(fmt::format("{}: needs at least 2 rows (data sets); got {}", what, n));
  if (k < 3) throw_usage(fmt::format("{}: needs at least 3 values (learners) per row; got {}", what, k));
  const double alpha = parse_level("--alpha", o.alpha);
  const auto r = stats::friedman(data, n, k);
  output out;
  out.title = fmt::format("Friedman test of {} learners over {} data sets", k, n);
  if (!o.file.empty()) out.add("file", o.file);
  out.add("n", static_cast<std::int64_t>(n));
  out.add("k", static_cast<std::int64_t>(k));
  add_test(out, r.test);
  if (!names.empty()) {
    std::string list;
    for (const auto& x : names) list += (list.empty() ? "" : ", ") + x;
    out.add("learners", list);
  }
  out.add("mean_ranks", r.mean_ranks);
  out.add("alpha", alpha);
  out.add("nemenyi_critical_difference", stats::nemenyi_critical_difference(k, n, alpha));
  emit(o.c, out);
}

}  // namespace

void register_friedman(CLI::App* parent) {
  auto fo = std::make_shared<friedman_options>();
  auto* f = parent->add_subcommand("friedman", "Friedman test of k learners over n data sets, with Nemenyi's CD");
  f->add_option("--row", fo->rows, "One data set's scores of the k learners, comma-separated (repeat)");
  f->add_option("--file", fo->file, "Or a CSV file: one row per data set, one column per learner");
  f->add_option("--columns", fo->columns, "With --file: the learner columns (default: all but --label)");
  f->add_option("--label", fo->label, "With --file: the column naming the data sets (not a learner)");
  f->add_option("--alpha", fo->alpha, "Significance level of the Nemenyi critical difference (default 0.05)");
  add_common(f, fo->c);
  f->callback([fo] { run_friedman(*fo); });
}

}  // namespace assay::cli::stats_cli
