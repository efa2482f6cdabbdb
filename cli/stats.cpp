// assay stats: the lecture notes' formulas from numbers given on the command line (binomial test,
// chi-square tail, McNemar, intervals for a proportion, t tests over folds, Wilcoxon, Friedman) or
// read from a CSV file of scores (one row per data set, one column per learner), and the scatter
// plot of two learners' scores over data sets. Parses the options, calls assay::stats, prints; no
// statistics here.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "assay/error.hpp"
#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"
#include "assay/plot/svg.hpp"
#include "assay/stats/distributions.hpp"
#include "assay/stats/learner_tests.hpp"
#include "assay/stats/proportion.hpp"
#include "assay/stats/tests.hpp"
#include "commands.hpp"

namespace assay::cli {

namespace {

using json = nlohmann::ordered_json;  // keys in the order they are added

// ---- parsing: every message names the option and the value ------------------------------------

double parse_real(const std::string& opt, const std::string& text) {
  double v = 0;
  if (!io::parse_double(text, v)) throw_usage(fmt::format("{}: cannot parse \"{}\" as a number", opt, text));
  if (!std::isfinite(v)) throw_usage(fmt::format("{}: must be a finite number; got \"{}\"", opt, text));
  return v;
}

std::int64_t parse_count(const std::string& opt, const std::string& text) {
  const double v = parse_real(opt, text);
  if (v < 0 || v != std::floor(v) || v > 9.0e15) {
    throw_usage(fmt::format("{}: must be a count (an integer >= 0); got {}", opt, text));
  }
  return static_cast<std::int64_t>(v);
}

double parse_level(const std::string& opt, const std::string& text) {
  const double v = parse_real(opt, text);
  if (!(v > 0 && v < 1)) throw_usage(fmt::format("{}: must be in (0, 1); got {}", opt, text));
  return v;
}

std::vector<double> parse_list(const std::string& opt, const std::string& text) {
  std::vector<double> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string field = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    out.push_back(parse_real(opt, field));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

void require_same_length(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) {
    throw_usage(fmt::format("--b: has {} values but --a has {}; the folds must be paired", b.size(), a.size()));
  }
}

/// The differences to test: --d, or the pairs --a and --b (one of the two forms, not both).
void require_pairs_or_deltas(const std::string& a, const std::string& b, const std::string& d) {
  if (!d.empty() && (!a.empty() || !b.empty())) throw_usage("--d: give either --d or --a and --b, not both");
  if (d.empty() && (a.empty() || b.empty())) {
    throw_usage(fmt::format("{}: missing; give the paired values --a and --b (or the differences --d)",
                            a.empty() ? "--a" : "--b"));
  }
}

// ---- scores from a file: one row per data set, one column per learner -------------------------

struct score_file {
  std::vector<std::string> names;            ///< the learner columns, in order
  std::vector<std::vector<double>> columns;  ///< [learner][data set]
  std::vector<std::string> labels;           ///< the data-set names (--label), else empty
};

/// Reads the columns `refs` of `path` (header names or 1-based indices; empty = every column but
/// `label`) as numbers, and `label` (if given) as the names of the rows. `option` names the option
/// that listed the columns, for messages.
score_file read_scores(const std::string& path, std::vector<std::string> refs, const std::string& label,
                       const std::string& option) {
  io::csv_reader reader(path);
  if (refs.empty()) {
    // Every column but the label column (given by name, else by 1-based index, as read_table does).
    const auto& header = reader.header();
    const bool by_name = std::find(header.begin(), header.end(), label) != header.end();
    for (std::size_t i = 0; i < header.size(); ++i)
      if (label.empty() || (by_name ? header[i] != label : std::to_string(i + 1) != label)) refs.push_back(header[i]);
  }
  std::vector<io::column_spec> specs;
  for (const auto& r : refs) specs.push_back({r, io::column_type::number, option});
  if (!label.empty()) specs.push_back({label, io::column_type::label, "--label"});
  const io::table t = io::read_table(reader, specs);
  score_file f;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    f.names.push_back(t.columns[i].name);
    f.columns.push_back(t.columns[i].numbers);
  }
  if (!label.empty()) {
    const auto& l = t.columns.back();
    for (auto c : l.codes) f.labels.push_back(l.levels[static_cast<std::size_t>(c)]);
  }
  return f;
}

// ---- output: a title and named values, as text or JSON ------------------------------------------

using field_value = std::variant<double, std::int64_t, std::string, std::vector<double>>;

struct output {
  std::string title;
  std::vector<std::pair<std::string, field_value>> fields;
  void add(std::string key, field_value v) { fields.emplace_back(std::move(key), std::move(v)); }
};

std::string number_text(double v) { return fmt::format("{:.6g}", v); }

std::string to_text(const output& o) {
  std::string s = o.title + "\n";
  for (const auto& [key, v] : o.fields) {
    std::string text;
    if (const auto* d = std::get_if<double>(&v)) text = number_text(*d);
    if (const auto* i = std::get_if<std::int64_t>(&v)) text = std::to_string(*i);
    if (const auto* t = std::get_if<std::string>(&v)) text = *t;
    if (const auto* l = std::get_if<std::vector<double>>(&v)) {
      for (double x : *l) text += (text.empty() ? "" : ", ") + number_text(x);
      text = "[" + text + "]";
    }
    s += fmt::format("  {}: {}\n", key, text);
  }
  return s;
}

json number_json(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

std::string to_json(const output& o) {
  json j = json::object();
  for (const auto& [key, v] : o.fields) {
    if (const auto* d = std::get_if<double>(&v)) j[key] = number_json(*d);
    if (const auto* i = std::get_if<std::int64_t>(&v)) j[key] = *i;
    if (const auto* t = std::get_if<std::string>(&v)) j[key] = *t;
    if (const auto* l = std::get_if<std::vector<double>>(&v)) {
      json a = json::array();
      for (double x : *l) a.push_back(number_json(x));
      j[key] = a;
    }
  }
  return j.dump(2) + "\n";
}

struct common {
  std::string format = "text", out = "-";
};

void emit(const common& c, const output& o) { write_output(c.out, c.format == "json" ? to_json(o) : to_text(o)); }

void add_common(CLI::App* cmd, common& c) {
  cmd->add_option("--format,-f", c.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--out,-o", c.out, "Output file (default: standard output)");
}

void add_test(output& o, const stats::test_result& t) {
  o.add("method", t.method);
  o.add("statistic", t.statistic);
  if (!std::isnan(t.df)) o.add("df", t.df);
  if (!std::isnan(t.df2)) o.add("df2", t.df2);
  o.add("alternative", std::string(stats::to_string(t.alt)));
  o.add("p_value", t.p_value);
}

// ---- the subcommands ---------------------------------------------------------------------------

struct binomial_options {
  common c;
  std::string k, n, p = "0.5", alternative = "greater";
};

void run_binomial(const binomial_options& o) {
  const std::int64_t n = parse_count("--n", o.n), k = parse_count("--k", o.k);
  if (n < 1) throw_usage(fmt::format("--n: must be at least 1; got {}", o.n));
  if (k > n) throw_usage(fmt::format("--k: must be at most --n = {}; got {}", n, o.k));
  const double p = parse_real("--p", o.p);
  if (!(p >= 0 && p <= 1)) throw_usage(fmt::format("--p: must be in [0, 1]; got {}", o.p));
  const auto alt = stats::parse_alternative(o.alternative, "--alternative");
  const auto r = stats::binom_test(k, n, p, alt);
  output out;
  out.title =
      fmt::format("Exact binomial test of H0: P(success) = {} ({} successes in {} trials)", number_text(p), k, n);
  out.add("method", std::string("binomial_exact"));
  out.add("k", k);
  out.add("n", n);
  out.add("p", p);
  out.add("statistic", r.statistic);
  out.add("alternative", std::string(stats::to_string(alt)));
  out.add("p_value", r.p_value);
  emit(o.c, out);
}

struct chi2_options {
  common c;
  std::string x, df = "1";
};

void run_chi2(const chi2_options& o) {
  const double x = parse_real("--x", o.x);
  if (x < 0) throw_usage(fmt::format("--x: must be >= 0; got {}", o.x));
  const double df = parse_real("--df", o.df);
  if (!(df > 0)) throw_usage(fmt::format("--df: must be > 0; got {}", o.df));
  output out;
  out.title =
      fmt::format("Chi-square distribution with {} degrees of freedom: P(X > {})", number_text(df), number_text(x));
  out.add("x", x);
  out.add("df", df);
  out.add("sf", stats::chi2_sf(x, df));
  out.add("cdf", stats::chi2_cdf(x, df));
  emit(o.c, out);
}

struct mcnemar_options {
  common c;
  std::string b, c_count;
  bool exact = false, corrected = false, uncorrected = false;
};

void run_mcnemar(const mcnemar_options& o) {
  const std::int64_t b = parse_count("--b", o.b), c = parse_count("--c", o.c_count);
  if (static_cast<int>(o.exact) + static_cast<int>(o.corrected) + static_cast<int>(o.uncorrected) > 1) {
    throw_usage("--exact: give at most one of --exact, --corrected and --uncorrected");
  }
  const auto method = o.corrected     ? stats::mcnemar_method::chi2_corrected
                      : o.uncorrected ? stats::mcnemar_method::chi2
                                      : stats::mcnemar_method::exact;
  const auto r = stats::mcnemar(b, c, method);
  output out;
  out.title =
      fmt::format("McNemar's test of H0: equal error rates (b = {} A right and B wrong, c = {} the reverse)", b, c);
  out.add("b", b);
  out.add("c", c);
  add_test(out, r);
  emit(o.c, out);
}

struct ci_options {
  common c;
  std::string x, n, level = "0.95", method = "wilson";
};

void run_ci(const ci_options& o) {
  const double n = parse_real("--n", o.n);
  if (!(n > 0)) throw_usage(fmt::format("--n: must be > 0; got {}", o.n));
  const double x = parse_real("--x", o.x);
  if (x < 0) throw_usage(fmt::format("--x: must be >= 0; got {}", o.x));
  if (x > n) throw_usage(fmt::format("--x: must be at most --n = {}; got {}", o.n, o.x));
  const double level = parse_level("--level", o.level);
  const auto method = stats::parse_proportion_method(o.method, "--method");
  const auto r = stats::proportion_ci(x, n, level, method);
  output out;
  out.title = fmt::format("{:g}% {} interval for the proportion {} / {}", 100 * level, stats::to_string(method),
                          number_text(x), number_text(n));
  out.add("x", x);
  out.add("n", n);
  out.add("estimate", r.estimate);
  out.add("ci", std::vector<double>{r.lower, r.upper});
  out.add("level", r.level);
  out.add("method", std::string(stats::to_string(r.method)));
  emit(o.c, out);
}

struct pairs_options {
  common c;
  std::string a, b, d, alternative = "two-sided";
  std::string file;  ///< wilcoxon: --a, --b (or --d) name columns of this file
};

struct ttest_options : pairs_options {
  bool corrected = false;
  std::string test_fraction;
};

void run_ttest(const ttest_options& o) {
  require_pairs_or_deltas(o.a, o.b, o.d);
  const auto alt = stats::parse_alternative(o.alternative, "--alternative");
  const bool pairs = o.d.empty();
  const std::vector<double> a = pairs ? parse_list("--a", o.a) : parse_list("--d", o.d);
  const std::vector<double> b = pairs ? parse_list("--b", o.b) : std::vector<double>(a.size(), 0.0);
  if (pairs) require_same_length(a, b);
  if (a.size() < 2) throw_usage(fmt::format("{}: needs at least 2 folds; got {}", pairs ? "--a" : "--d", a.size()));
  if (o.corrected == o.test_fraction.empty()) {
    throw_usage(o.corrected ? "--test-fraction: --corrected needs the share of the data in each test set"
                            : "--corrected: --test-fraction is only used by the corrected test");
  }
  stats::t_test_result r;
  output out;
  if (o.corrected) {
    const double f = parse_level("--test-fraction", o.test_fraction);
    r = stats::corrected_resampled_t_test(a, b, 1 - f, f, alt);
    out.title = fmt::format("Nadeau-Bengio corrected resampled t test over {} splits (test fraction {})", a.size(),
                            number_text(f));
    out.add("test_fraction", f);
  } else {
    r = stats::paired_t_test(a, b, alt);
    out.title = fmt::format("Paired t test over {} folds", a.size());
  }
  out.add("k", static_cast<std::int64_t>(a.size()));
  out.add("mean", r.mean);
  out.add("std_error", r.std_error);
  add_test(out, r.test);
  emit(o.c, out);
}

struct wilcoxon_options : pairs_options {
  std::string zero_method = "wilcox", mode = "auto";
  bool correction = false;
};

void run_wilcoxon(const wilcoxon_options& o) {
  require_pairs_or_deltas(o.a, o.b, o.d);
  stats::wilcoxon_options w;
  w.alt = stats::parse_alternative(o.alternative, "--alternative");
  w.zeros = o.zero_method == "pratt"    ? stats::wilcoxon_zeros::pratt
            : o.zero_method == "zsplit" ? stats::wilcoxon_zeros::zsplit
                                        : stats::wilcoxon_zeros::wilcox;
  w.mode = o.mode == "exact"    ? stats::wilcoxon_mode::exact
           : o.mode == "approx" ? stats::wilcoxon_mode::approx
                                : stats::wilcoxon_mode::automatic;
  w.correction = o.correction;
  stats::test_result r;
  std::size_t n = 0;
  if (!o.file.empty()) {
    const bool pairs = o.d.empty();
    const auto f = pairs ? read_scores(o.file, {o.a, o.b}, "", "--a/--b") : read_scores(o.file, {o.d}, "", "--d");
    n = f.columns[0].size();
    r = pairs ? stats::wilcoxon(f.columns[0], f.columns[1], w) : stats::wilcoxon(f.columns[0], w);
  } else if (o.d.empty()) {
    const auto a = parse_list("--a", o.a), b = parse_list("--b", o.b);
    require_same_length(a, b);
    n = a.size();
    r = stats::wilcoxon(a, b, w);
  } else {
    const auto d = parse_list("--d", o.d);
    n = d.size();
    r = stats::wilcoxon(d, w);
  }
  output out;
  out.title = fmt::format("Wilcoxon signed-rank test over {} pairs (zero method {})", n, o.zero_method);
  out.add("n", static_cast<std::int64_t>(n));
  add_test(out, r);
  emit(o.c, out);
}

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

void add_pairs(CLI::App* cmd, pairs_options& o) {
  cmd->add_option("--a", o.a, "Model A's values, comma-separated (one per fold or data set)");
  cmd->add_option("--b", o.b, "Model B's values, paired with --a");
  cmd->add_option("--d", o.d, "The differences A - B instead of --a and --b");
  cmd->add_option("--alternative", o.alternative, "two-sided (default), greater or less");
}

}  // namespace

void register_stats(CLI::App& app) {
  auto* cmd = app.add_subcommand("stats", "Statistical tests and intervals from numbers on the command line or a file");
  cmd->require_subcommand(1);
  cmd->preparse_callback([](std::size_t) { current_command = "assay stats"; });
  cmd->footer(
      "Examples (docs/stats.md has the formulas):\n"
      "  assay stats binomial --k 15 --n 20               # P(X >= 15 | n = 20, p = 0.5) = 0.0207\n"
      "  assay stats chi2 --x 3.84 --df 1                  # P(chi2(1) > 3.84) = 0.05\n"
      "  assay stats mcnemar --b 10 --c 5 --corrected\n"
      "  assay stats ci --x 12 --n 40 --method normal --level 0.95\n"
      "  assay stats ttest --a 0.81,0.79,0.84 --b 0.78,0.80,0.80 --corrected --test-fraction 0.1\n"
      "  assay stats wilcoxon --a 0.81,0.79,0.84,0.9 --b 0.78,0.80,0.80,0.85\n"
      "  assay stats friedman --row 0.8,0.7,0.9 --row 0.6,0.65,0.7 --row 0.9,0.85,0.95\n"
      "  assay stats friedman --file scores.csv --label dataset     # columns = learners, rows = data sets\n"
      "  assay stats wilcoxon --file scores.csv --a svm --b tree\n"
      "  assay stats scatter scores.csv --a svm --b tree --label dataset --plot svm_vs_tree.svg");

  auto bo = std::make_shared<binomial_options>();
  auto* b = cmd->add_subcommand("binomial", "Exact binomial test: k successes in n trials");
  b->add_option("--k", bo->k, "Successes")->required();
  b->add_option("--n", bo->n, "Trials")->required();
  b->add_option("--p", bo->p, "Success probability under H0 (default 0.5)");
  b->add_option("--alternative", bo->alternative, "greater (default: P(X >= k)), less or two-sided");
  add_common(b, bo->c);
  b->callback([bo] { run_binomial(*bo); });

  auto co = std::make_shared<chi2_options>();
  auto* c = cmd->add_subcommand("chi2", "Chi-square upper tail P(X > x) (and the CDF)");
  c->add_option("--x", co->x, "The statistic")->required();
  c->add_option("--df", co->df, "Degrees of freedom (default 1)");
  add_common(c, co->c);
  c->callback([co] { run_chi2(*co); });

  auto mo = std::make_shared<mcnemar_options>();
  auto* m = cmd->add_subcommand("mcnemar", "McNemar's test from the discordant counts b and c");
  m->add_option("--b", mo->b, "Cases model A gets right and model B wrong")->required();
  m->add_option("--c", mo->c_count, "Cases model A gets wrong and model B right")->required();
  m->add_flag("--exact", mo->exact, "Exact binomial version (the default)");
  m->add_flag("--corrected", mo->corrected, "Chi-square with continuity correction (|b - c| - 1)^2 / (b + c)");
  m->add_flag("--uncorrected", mo->uncorrected, "Chi-square without correction (b - c)^2 / (b + c)");
  add_common(m, mo->c);
  m->callback([mo] { run_mcnemar(*mo); });

  auto io = std::make_shared<ci_options>();
  auto* i = cmd->add_subcommand("ci", "Confidence interval for a proportion x / n");
  i->add_option("--x", io->x, "Successes (e.g. errors)")->required();
  i->add_option("--n", io->n, "Trials (test cases)")->required();
  i->add_option("--level", io->level, "Confidence level in (0, 1) (default 0.95)");
  i->add_option("--method", io->method, "wilson (default), normal, agresti-coull or exact (Clopper-Pearson)");
  add_common(i, io->c);
  i->callback([io] { run_ci(*io); });

  auto to = std::make_shared<ttest_options>();
  auto* t = cmd->add_subcommand("ttest", "Paired t test over folds (Nadeau-Bengio corrected with --corrected)");
  add_pairs(t, *to);
  t->add_flag("--corrected", to->corrected, "Nadeau-Bengio corrected resampled t test");
  t->add_option("--test-fraction", to->test_fraction, "Share of the data in each test set (with --corrected)");
  add_common(t, to->c);
  t->callback([to] { run_ttest(*to); });

  auto wo = std::make_shared<wilcoxon_options>();
  auto* w = cmd->add_subcommand("wilcoxon", "Wilcoxon signed-rank test of paired scores");
  add_pairs(w, *wo);
  w->add_option("--file", wo->file, "CSV file, one row per data set: --a and --b (or --d) then name its columns");
  w->add_option("--zero-method", wo->zero_method, "wilcox (default), pratt or zsplit")
      ->check(CLI::IsMember({"wilcox", "pratt", "zsplit"}));
  w->add_option("--mode", wo->mode, "auto (default), exact or approx")
      ->check(CLI::IsMember({"auto", "exact", "approx"}));
  w->add_flag("--correction", wo->correction, "Continuity correction of the normal approximation");
  add_common(w, wo->c);
  w->callback([wo] { run_wilcoxon(*wo); });

  auto fo = std::make_shared<friedman_options>();
  auto* f = cmd->add_subcommand("friedman", "Friedman test of k learners over n data sets, with Nemenyi's CD");
  f->add_option("--row", fo->rows, "One data set's scores of the k learners, comma-separated (repeat)");
  f->add_option("--file", fo->file, "Or a CSV file: one row per data set, one column per learner");
  f->add_option("--columns", fo->columns, "With --file: the learner columns (default: all but --label)");
  f->add_option("--label", fo->label, "With --file: the column naming the data sets (not a learner)");
  f->add_option("--alpha", fo->alpha, "Significance level of the Nemenyi critical difference (default 0.05)");
  add_common(f, fo->c);
  f->callback([fo] { run_friedman(*fo); });

  auto so = std::make_shared<scatter_options>();
  auto* sc = cmd->add_subcommand("scatter", "Scatter plot (SVG) of two learners' scores over data sets, with y = x");
  sc->add_option("file", so->file, "CSV file, one row per data set")->required();
  sc->add_option("--a", so->a, "Learner A's column (x axis)")->required();
  sc->add_option("--b", so->b, "Learner B's column (y axis)")->required();
  sc->add_option("--label", so->label, "Column with the data-set names, written next to the points");
  sc->add_option("--plot", so->plot, "The SVG file to write")->required();
  sc->add_option("--title", so->title, "Plot title (default: B against A over n data sets (dashed: y = x))");
  add_common(sc, so->c);
  sc->callback([so] { run_scatter(*so); });
}

}  // namespace assay::cli
