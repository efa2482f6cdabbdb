// The sliced report; see include/assay/report/slices.hpp.
#include "assay/report/slices.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <unordered_map>

#include "assay/curves/roc.hpp"
#include "assay/detail/exact_sum.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/metrics/labels.hpp"
#include "assay/stats/slices.hpp"
#include "slices_tables.hpp"

namespace assay {

namespace {

// The table's columns slice after slice (stats::row_groups::scatter): one sequential pass each.
struct slice_major {
  std::vector<std::int32_t> y;
  std::vector<double> target, proba, weight;
  std::vector<std::vector<double>> scores, values;
  std::vector<std::vector<std::int32_t>> predictions;
};

slice_major scatter_table(const prediction_table& t, const stats::row_groups& g) {
  slice_major m;
  using std::span;
  if (!t.y.empty()) m.y = g.scatter(span<const std::int32_t>(t.y));
  if (!t.target.empty()) m.target = g.scatter(span<const double>(t.target));
  for (const auto& c : t.scores) m.scores.push_back(g.scatter(span<const double>(c.values)));
  for (const auto& c : t.values) m.values.push_back(g.scatter(span<const double>(c.values)));
  for (const auto& c : t.predictions) m.predictions.push_back(g.scatter(span<const std::int32_t>(c.codes)));
  if (!t.proba.empty()) m.proba = g.scatter(span<const double>(t.proba), t.classes.size());
  if (!t.weight.empty()) m.weight = g.scatter(span<const double>(t.weight));
  return m;
}

// The rows of one slice as a table of their own, with the whole table's classes.
prediction_table gather(const prediction_table& t, const slice_major& m, std::size_t begin, std::size_t end) {
  prediction_table s;
  s.source = t.source;
  s.rows = end - begin;
  s.task = t.task;
  s.label_name = t.label_name;
  s.classes = t.classes;
  s.positive = t.positive;
  s.unknown_classes = t.unknown_classes;
  s.proba_names = t.proba_names;
  auto take = [&](const auto& from, auto& to, std::size_t width = 1) {
    to.assign(from.begin() + static_cast<std::ptrdiff_t>(begin * width),
              from.begin() + static_cast<std::ptrdiff_t>(end * width));
  };
  if (!m.y.empty()) take(m.y, s.y);
  if (!m.target.empty()) take(m.target, s.target);
  for (std::size_t c = 0; c < t.scores.size(); ++c) {
    s.scores.push_back({t.scores[c].name, {}});
    take(m.scores[c], s.scores.back().values);
  }
  for (std::size_t c = 0; c < t.values.size(); ++c) {
    s.values.push_back({t.values[c].name, {}});
    take(m.values[c], s.values.back().values);
  }
  for (std::size_t c = 0; c < t.predictions.size(); ++c) {
    s.predictions.push_back({t.predictions[c].name, {}, t.predictions[c].unknown});
    take(m.predictions[c], s.predictions.back().codes);
  }
  if (!m.proba.empty()) {
    const std::size_t K = t.classes.size();
    take(m.proba, s.proba, K);
    if (t.proba_row_off) s.proba_row_off = curves::first_row_not_summing_to_one(proba_view::matrix(s.proba, K));
  }
  if (!m.weight.empty()) {
    take(m.weight, s.weight);
    assay::detail::exact_sum total;  // as a table made of these rows: summed exactly, rounded once
    for (double x : s.weight) total.add(x);
    s.total_weight = total.value();
  } else {
    s.total_weight = static_cast<double>(s.rows);
  }
  return s;
}

// Sorted levels (numerically when all are numbers, else by bytes) and each old code's new rank.
std::vector<std::int32_t> rank_levels(const std::vector<std::string>& levels, std::vector<std::string>& sorted) {
  sorted = sort_labels(levels);
  std::unordered_map<std::string, std::int32_t> at;
  for (std::size_t i = 0; i < sorted.size(); ++i) at.emplace(sorted[i], static_cast<std::int32_t>(i));
  std::vector<std::int32_t> rank(levels.size());
  for (std::size_t i = 0; i < levels.size(); ++i) rank[i] = at.at(levels[i]);
  return rank;
}

// A rate of the headline tables: its successes and trials from a binary confusion table (or, for
// multiclass accuracy, from the matrix).
struct rate_counts {
  double x = 0, n = 0;
};

rate_counts rate_of(const std::string& name, const report& r) {
  if (r.task == task_kind::binary) {
    const auto bc = binary_counts::one_vs_rest(r.cm, *r.positive);
    if (name == "accuracy") return {bc.tp + bc.tn, bc.tp + bc.tn + bc.fp + bc.fn};
    if (name == "error_rate") return {bc.fp + bc.fn, bc.tp + bc.tn + bc.fp + bc.fn};
    if (name == "precision") return {bc.tp, bc.tp + bc.fp};
    if (name == "recall") return {bc.tp, bc.tp + bc.fn};
    if (name == "specificity") return {bc.tn, bc.tn + bc.fp};
    if (name == "fpr") return {bc.fp, bc.tn + bc.fp};
  }
  const std::size_t K = r.labels.size();
  double diag = 0, all = 0;
  for (std::size_t i = 0; i < K; ++i)
    for (std::size_t j = 0; j < K; ++j) (i == j ? diag : all) += r.cm(i, j);
  all += diag;
  return name == "accuracy" ? rate_counts{diag, all} : rate_counts{all - diag, all};
}

const metric_result* find(const report& r, const std::string& name) {
  for (const auto& m : r.metrics)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace

namespace detail {

void add_slice_tables(sliced_report& out, task_kind task, bool has_score, bool weighted,
                      std::span<const stats::auc_slice_vs_rest> aucs, const slice_options& slicing) {
  if (out.slices.size() == 1) {
    out.notes.push_back(fmt::format("every row has the same key ({}): one slice, the whole table; no test",
                                    fmt::join(out.slices[0].key, ", ")));
  }

  // The headline tables.
  std::vector<std::string> names;
  if (task == task_kind::binary) {
    names = {"accuracy", "error_rate", "precision", "recall", "specificity", "fpr"};
    if (has_score) names.push_back("roc_auc");
  } else if (task == task_kind::multiclass) {
    names = {"accuracy", "error_rate"};
  } else {
    out.notes.push_back("regression: every slice has its report, but there are no headline tables (no test "
                        "between slices is defined for regression metrics yet)");
  }
  if (weighted && !names.empty()) {
    out.notes.push_back("weighted rows: the slices have values and intervals but no tests (the tests count cases)");
  }
  for (const auto& name : names) {
    const metric_result* om = find(out.overall, name);
    if (!om) continue;
    slice_metric sm;
    sm.name = name;
    sm.title = om->title;
    sm.overall = om->v;
    const bool auc = name == "roc_auc";
    sm.test = auc ? "delong_unpaired" : "two_proportion_z";
    const rate_counts all = auc ? rate_counts{} : rate_of(name, out.overall);
    std::vector<double> xs, ns;
    for (std::size_t k = 0; k < out.slices.size(); ++k) {
      const auto& s = out.slices[k];
      slice_metric_row row;
      row.slice = k;
      if (!s.r) {
        row.v = value::undefined(s.reason);
        row.statistic = row.p_value = row.v;
        sm.rows.push_back(std::move(row));
        continue;
      }
      const metric_result* m = find(*s.r, name);
      row.v = m ? m->v : value::undefined("not in the slice's report");
      if (m) row.ci = m->ci;
      auto no_test = [&](std::string why) { row.statistic = row.p_value = value::undefined(std::move(why)); };
      if (!auc) {
        const rate_counts c = rate_of(name, *s.r);
        row.successes = c.x;
        row.trials = c.n;
        if (!weighted) xs.push_back(c.x), ns.push_back(c.n);
      }
      if (weighted) {
        no_test("weighted rows");
      } else if (out.slices.size() == 1) {
        no_test("one slice: there is no rest to compare with");
      } else if (s.rows < slicing.min_rows) {
        no_test(fmt::format("{} rows; a test needs at least {}", s.rows, slicing.min_rows));
      } else if (auc && k >= aucs.size()) {
        no_test("no DeLong summaries of the slices");
      } else if (auc) {
        const auto& a = aucs[k];
        if (!a.slice.variance.defined()) no_test(fmt::format("slice: {}", a.slice.variance.reason));
        else if (!a.rest.variance.defined()) no_test(fmt::format("rest: {}", a.rest.variance.reason));
        else {
          const auto t = stats::delong_unpaired_from_variances(a.slice, a.rest);
          row.statistic = t.test.statistic;
          row.p_value = t.test.p_value;
          row.df = t.test.df;
        }
      } else if (row.trials == 0) {
        no_test("the rate has no cases in the slice (0/0)");
      } else if (all.n - row.trials == 0) {
        no_test("the rate has no cases in the rest (0/0)");
      } else {
        const auto t = stats::two_proportion_z_test(row.successes, row.trials, all.x - row.successes,
                                                    all.n - row.trials);
        row.statistic = t.statistic;
        row.p_value = t.p_value;
      }
      sm.rows.push_back(std::move(row));
    }
    // Adjust over the slices with a p-value.
    std::vector<double> p;
    for (const auto& row : sm.rows)
      if (row.p_value.defined()) p.push_back(row.p_value.v);
    const auto adj = stats::adjust_p_values(p, slicing.p_adjust);
    std::size_t j = 0;
    for (auto& row : sm.rows) row.p_adjusted = row.p_value.defined() ? value(adj[j++]) : row.p_value;
    if (!auc && !weighted) {
      const auto h = stats::chi2_homogeneity(xs, ns);
      sm.chi2 = h.statistic;
      sm.chi2_p = h.p_value;
      sm.chi2_df = h.df;
    }
    out.metrics.push_back(std::move(sm));
  }
}

}  // namespace detail

sliced_report evaluate_slices(const prediction_table& table, std::span<const slice_column> by,
                              const evaluate_options& options, const slice_options& slicing) {
  const char* fn = "evaluate_slices";
  if (by.empty() || by.size() > 2) {
    throw_usage(fmt::format("{}: by has {} slice columns; give 1 or 2", fn, by.size()));
  }
  if (by.size() == 2 && by[0].name == by[1].name) {
    throw_usage(fmt::format("{}: by names the column '{}' twice; give two different columns", fn, by[0].name));
  }
  for (std::size_t c = 0; c < by.size(); ++c) {
    if (by[c].codes.size() != table.rows) {
      throw_usage(fmt::format("{}: by[{}] ('{}') has {} entries, but the table has {} rows", fn, c, by[c].name,
                              by[c].codes.size(), table.rows));
    }
    for (std::size_t i = 0; i < table.rows; ++i) {
      const auto k = by[c].codes[i];
      if (k < 0 || static_cast<std::size_t>(k) >= by[c].levels.size()) {
        throw_usage(fmt::format("{}: by[{}].codes[{}] is {}; codes must be in [0, {})", fn, c, i, k,
                                by[c].levels.size()));
      }
    }
  }
  sliced_report out;
  out.p_adjust = slicing.p_adjust;
  out.min_rows = slicing.min_rows;
  for (const auto& c : by) out.by.push_back(c.name);
  out.overall = evaluate(table, options);  // checks the table and options first

  // Slice codes: the rank of the key (pair of keys) among the observed ones; one pass over the rows.
  std::vector<std::string> sorted0, sorted1;
  const auto rank0 = rank_levels(by[0].levels, sorted0);
  std::vector<std::int32_t> code(table.rows);
  std::vector<std::vector<std::string>> keys;
  if (by.size() == 1) {
    for (std::size_t i = 0; i < table.rows; ++i) code[i] = rank0[by[0].codes[i]];
    std::vector<char> seen(sorted0.size(), 0);
    for (auto c : code) seen[c] = 1;
    std::vector<std::int32_t> compact(sorted0.size(), -1);  // levels no row has (none from the reader)
    for (std::size_t l = 0; l < sorted0.size(); ++l) {
      if (!seen[l]) continue;
      compact[l] = static_cast<std::int32_t>(keys.size());
      keys.push_back({sorted0[l]});
    }
    for (auto& c : code) c = compact[c];
  } else {
    const auto rank1 = rank_levels(by[1].levels, sorted1);
    const std::uint64_t L1 = sorted1.size();
    std::vector<std::uint64_t> pair(table.rows);
    for (std::size_t i = 0; i < table.rows; ++i) {
      pair[i] = static_cast<std::uint64_t>(rank0[by[0].codes[i]]) * L1 + rank1[by[1].codes[i]];
    }
    // The observed pairs, in key order: through a table of all pairs when it is small, else a hash
    // map of the distinct pairs (sorted afterwards).
    const std::uint64_t all_pairs = sorted0.size() * L1;
    if (all_pairs <= 4 * static_cast<std::uint64_t>(table.rows) + 1024) {
      std::vector<std::int32_t> compact(all_pairs, -1);
      for (auto p : pair) compact[p] = 0;
      for (std::uint64_t p = 0; p < all_pairs; ++p) {
        if (compact[p] < 0) continue;
        compact[p] = static_cast<std::int32_t>(keys.size());
        keys.push_back({sorted0[p / L1], sorted1[p % L1]});
      }
      for (std::size_t i = 0; i < table.rows; ++i) code[i] = compact[pair[i]];
    } else {
      std::unordered_map<std::uint64_t, std::int32_t> at;
      for (auto p : pair) at.emplace(p, 0);
      std::vector<std::uint64_t> observed;
      observed.reserve(at.size());
      for (const auto& [p, _] : at) observed.push_back(p);
      std::sort(observed.begin(), observed.end());
      for (std::size_t k = 0; k < observed.size(); ++k) {
        at[observed[k]] = static_cast<std::int32_t>(k);
        keys.push_back({sorted0[observed[k] / L1], sorted1[observed[k] % L1]});
      }
      for (std::size_t i = 0; i < table.rows; ++i) code[i] = at.at(pair[i]);
    }
  }
  const stats::row_groups groups = stats::group_rows(code, keys.size());

  // Every slice's report. Without intervals (no bootstrap inside), slices are evaluated in parallel.
  out.slices.resize(keys.size());
  const slice_major columns = scatter_table(table, groups);
  auto one = [&](std::size_t k) {
    auto& s = out.slices[k];
    s.key = keys[k];
    s.rows = groups.offsets[k + 1] - groups.offsets[k];
    try {
      s.r = evaluate(gather(table, columns, groups.offsets[k], groups.offsets[k + 1]), options);
    } catch (const error& e) {
      s.reason = e.what();
    }
  };
  // The DeLong tests of every slice against the rest (binary scores, unweighted), computed while the
  // slices' reports are: the two have serial stretches that the other fills.
  std::vector<stats::auc_slice_vs_rest> aucs;
  auto delong = [&] {
    if (table.weighted() || keys.size() <= 1 || table.scores.empty() || table.task != task_kind::binary) return;
    std::vector<std::int32_t> y01(table.rows);
    const auto pos = static_cast<std::int32_t>(*table.positive);
    for (std::size_t i = 0; i < table.rows; ++i) y01[i] = table.y[i] == pos ? 1 : 0;
    aucs = stats::delong_slices_vs_rest(y01, table.scores[0].values, groups);
  };
  if (options.ci_level) {
    for (std::size_t k = 0; k < keys.size(); ++k) one(k);
    delong();
  } else {
    detail::run_both([&] { detail::parallel_for(keys.size(), 0, [&](unsigned, std::size_t k) { one(k); }); }, delong);
  }
  detail::add_slice_tables(out, table.task, !table.scores.empty(), table.weighted(), aucs, slicing);
  return out;
}

sliced_report make_sliced_report(const report_request& request, const std::vector<std::string>& by,
                                 const slice_options& slicing) {
  if (by.empty() || by.size() > 2) {
    throw_usage(fmt::format("{}: given {} times; give 1 or 2 slice columns", param("by"), by.size()));
  }
  prediction_file f = prediction_file_of(request);
  auto specs = column_specs(f);
  for (const auto& c : by) specs.push_back({c, io::column_type::label, param("by")});
  io::table t = io::read_table(f.path, specs, f.csv);
  std::vector<slice_column> cols;
  for (std::size_t c = 0; c < by.size(); ++c) {
    io::column col = std::move(t.columns[t.columns.size() - by.size() + c]);
    cols.push_back({col.name, std::move(col.codes), std::move(col.levels)});
  }
  t.columns.resize(t.columns.size() - by.size());
  if (cols.size() == 2 && cols[0].name == cols[1].name) {
    throw_usage(fmt::format("{}: the two slice columns are the same column ('{}'); give two different columns",
                            param("by"), cols[0].name));
  }
  const std::uint64_t missing = t.missing.rows;
  sliced_report r = evaluate_slices(make_predictions(std::move(t), f), cols, options_of(request), slicing);
  if (request.csv.drop_missing) r.overall.missing = missing;
  return r;
}

}  // namespace assay
