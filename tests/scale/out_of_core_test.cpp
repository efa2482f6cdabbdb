// Out of core (include/assay/scale/out_of_core.hpp): a file read in pieces under a memory cap 20x
// smaller than the data gives make_report's report byte for byte in JSON.
#include "assay/scale/out_of_core.hpp"
#include "test_scale.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>

#include <unistd.h>

#include "assay/detail/exact_sum.hpp"
#include "assay/error.hpp"
#include "assay/report/html.hpp"
#include "assay/threads.hpp"

namespace assay::scale {
namespace {

// A CSV of `rows` rows: label (spelled "0"/"1"/"1.0", or text), score with ties or not, weight.
std::string write_file(std::size_t rows, bool text_labels, int levels, std::uint64_t seed) {
  const auto path = std::filesystem::temp_directory_path() / fmt::format("assay_ooc_{}_{}_{}.csv", ::getpid(), seed, rows);
  std::ofstream f(path);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  f << "y,score,w,pred\n";
  for (std::size_t i = 0; i < rows; ++i) {
    const bool pos = u(g) < 0.3;
    const char* y = text_labels ? (pos ? "spam" : "ham") : (pos ? (u(g) < 0.5 ? "1" : "1.0") : "0");
    double s = std::min(1.0, 0.6 * u(g) + (pos ? 0.35 : 0.0));
    if (levels > 0) s = std::round(s * levels) / levels;
    const char* pred = u(g) < 0.7 ? y : (text_labels ? "ham" : "0");
    f << y << ',' << fmt::format("{}", s) << ',' << fmt::format("{}", std::round(u(g) * 30) * 0.1) << ',' << pred
      << '\n';
  }
  return path.string();
}

report_request request(const std::string& path, bool weighted, bool scores, bool text) {
  report_request q;
  q.path = path;
  q.label = "y";
  if (scores) q.score = "score";
  else q.pred = "pred";
  if (weighted) q.weight = "w";
  if (text) q.pos_label = "spam";
  return q;
}

TEST(OutOfCore, CapTwentyTimesSmallerThanTheDataGivesTheSameJson) {
  const std::string distinct = write_file(800000, false, 0, 1);  // ~ 25 MB
  const auto bytes = std::filesystem::file_size(distinct);
  out_of_core_options o;
  o.max_memory = bytes / 20;
  for (bool weighted : {false, true}) {
    const report_request q = request(distinct, weighted, true, false);
    out_of_core_info info;
    const std::string got = to_json(make_report_out_of_core(q, o, &info));
    EXPECT_EQ(got, to_json(make_report(q))) << "weighted " << weighted;
    EXPECT_GT(info.partitions, 1U);
    EXPECT_GT(info.pieces, 10U);
    EXPECT_LE(info.largest_partition * 24, o.max_memory / 4 * 2);  // split again when a range grew too big
  }
  std::remove(distinct.c_str());
}

TEST(OutOfCore, TiesTextLabelsAndPredictedClasses) {
  const std::string ties = write_file(200000, true, 40, 2);
  out_of_core_options o;
  o.max_memory = 1 << 20;
  for (bool weighted : {false, true}) {
    for (bool scores : {true, false}) {
      const report_request q = request(ties, weighted, scores, true);
      EXPECT_EQ(to_json(make_report_out_of_core(q, o)), to_json(make_report(q)));
    }
  }
  std::remove(ties.c_str());
  // Three distinct scores only: partitions that cannot be split are aggregated chunk by chunk.
  const std::string heavy = write_file(150000, false, 2, 3);
  for (bool weighted : {false, true}) {
    const report_request q = request(heavy, weighted, true, false);
    out_of_core_info info;
    EXPECT_EQ(to_json(make_report_out_of_core(q, o, &info)), to_json(make_report(q)));
    EXPECT_LE(info.largest_partition, o.max_memory / 8 / 24);
  }
  std::remove(heavy.c_str());
}

TEST(OutOfCore, IntervalsWithoutWeightsEqualInMemory) {
  // Wilson, the multinomial bootstrap, DeLong, the normal and logit intervals come from the counts and
  // the score runs (docs/scaling.md); the cap is 20x smaller than the data.
  const std::string path = write_file(800000, false, 0, 4);  // ~ 25 MB
  out_of_core_options o;
  o.max_memory = std::filesystem::file_size(path) / 20;
  for (bool scores : {true, false}) {
    report_request q = request(path, false, scores, false);
    q.ci_level = 0.95;
    q.bootstrap_replicates = 200;
    q.seed = 3;
    const std::string want = to_json(make_report(q));
    if (scores) ASSERT_NE(want.find("delong"), std::string::npos);
    EXPECT_EQ(to_json(make_report_out_of_core(q, o)), want) << "scores " << scores;
  }
  // Tied scores and text labels: DeLong's tie groups and the loss terms' groups, read back from the
  // file of runs (not held), and the headline areas from the streaming summary.
  const std::string ties = write_file(300000, true, 40, 6);
  for (bool scores : {true, false}) {
    report_request q = request(ties, false, scores, true);
    q.ci_level = 0.9;
    q.ci = ci_method::wilson;
    out_of_core_options small;
    small.max_memory = 1 << 20;
    const std::string want = to_json(make_report(q));
    if (scores) ASSERT_NE(want.find("from the variance of the per-row losses"), std::string::npos);
    EXPECT_EQ(to_json(make_report_out_of_core(q, small)), want) << "scores " << scores;
  }
  std::remove(ties.c_str());
  report_request q = request(path, true, true, false);
  q.ci_level = 0.95;
  try {
    (void)make_report_out_of_core(q, o);
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "make_report_out_of_core: intervals with weights resample rows, which needs every row in "
                           "memory: they are not computed out of core");
  }
  std::remove(path.c_str());
}

TEST(OutOfCore, KeptCurvesEqualInMemory) {
  // The curves of the HTML page (ROC, PR, threshold sweep, reliability), weighted or not: the same
  // page as in memory.
  const std::string path = write_file(800000, false, 0, 5);
  out_of_core_options o;
  o.max_memory = std::filesystem::file_size(path) / 20;
  for (bool weighted : {false, true}) {
    report_request q = request(path, weighted, true, false);
    q.keep_curves = true;
    const report want = make_report(q);
    ASSERT_TRUE(want.roc && want.calibration && want.thresholds);
    const report got = make_report_out_of_core(q, o);
    EXPECT_EQ(to_json(got), to_json(want));
    EXPECT_EQ(to_html(got), to_html(want)) << "weighted " << weighted;
  }
  // With intervals (the curves' pointwise bands): from the kept entries of the sweep (walked, not
  // held: 12 chunks of candidates for the best thresholds here), and with ties and text labels (41
  // distinct scores: every point kept).
  {
    report_request q = request(path, false, true, false);
    q.keep_curves = true;
    q.ci_level = 0.9;
    const report want = make_report(q);
    ASSERT_TRUE(want.roc && !want.roc->y_lo.empty());
    EXPECT_EQ(to_html(make_report_out_of_core(q, o)), to_html(want));
  }
  const std::string ties = write_file(300000, true, 40, 7);
  out_of_core_options small;
  small.max_memory = 1 << 20;
  for (bool weighted : {false, true}) {
    report_request q = request(ties, weighted, true, true);
    q.keep_curves = true;
    if (!weighted) q.ci_level = 0.9;
    const report want = make_report(q);
    ASSERT_TRUE(want.roc && want.roc->points < curve_sample::max_points);
    EXPECT_EQ(to_html(make_report_out_of_core(q, small)), to_html(want)) << "weighted " << weighted;
  }
  std::remove(ties.c_str());
  std::remove(path.c_str());
}

// A regression CSV of `rows` rows: an id, target y, prediction pred, weight w. `levels` > 0: targets and
// predictions on a grid of that many steps per unit (heavy ties of the residuals); `fine_weights`:
// weights of full precision (a tied residual's rows all differ in weight), else multiples of 0.1 with
// zeros; `zero_targets`: some targets are 0 (the percentage errors are undefined).
std::string write_regression(std::size_t rows, int levels, bool fine_weights, bool zero_targets, std::uint64_t seed) {
  const auto path =
      std::filesystem::temp_directory_path() / fmt::format("assay_ooc_reg_{}_{}_{}.csv", ::getpid(), seed, rows);
  std::ofstream f(path);
  std::mt19937_64 g(seed);
  std::normal_distribution<double> z(0, 1);
  std::uniform_real_distribution<double> u(0, 1);
  f << "id,y,pred,w\n";
  for (std::size_t i = 0; i < rows; ++i) {
    double y = 3 + 2 * z(g), p = y + 0.7 * z(g);
    if (levels > 0) y = std::round(y * levels) / levels, p = std::round(p * levels) / levels;
    if (!zero_targets && y == 0) y = 0.5;
    if (zero_targets && u(g) < 0.001) y = 0;
    const double w = fine_weights ? u(g) * 3 + 1e-9 : std::round(u(g) * 30) * 0.1;
    f << fmt::format("{},{},{},{}\n", 1000000 + i, y, p, w);
  }
  return path.string();
}

report_request regression_request(const std::string& path, bool weighted) {
  report_request q;
  q.path = path;
  q.label = "y";
  q.pred = "pred";
  q.task = task_kind::regression;
  if (weighted) q.weight = "w";
  return q;
}

TEST(OutOfCore, RegressionCapTwentyTimesSmallerThanTheDataGivesTheSameJson) {
  // Distinct values (the residuals' partitions sorted one by one), ties on a grid of 1/8 (partitions
  // split again, then three ways at a tied |residual|, its rows by weight) and on a grid of 1
  // (a handful of residuals: every partition split three ways); weights with zeros, or all distinct.
  struct file_case {
    int levels;
    bool fine_weights, zero_targets;
  };
  const file_case cases[] = {{0, false, false}, {8, false, true}, {1, true, false}, {1, false, false}};
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    if (!assay::testing::keep_case(i, 2)) continue;  // distinct values and fine weights under the sanitizers
    const file_case c = cases[i];
    const std::string path = write_regression(c.levels == 0 ? 700000 : 1500000, c.levels, c.fine_weights,
                                              c.zero_targets, 10 + c.levels);
    out_of_core_options o;
    o.max_memory = std::filesystem::file_size(path) / 20;
    ASSERT_GE(o.max_memory, 1U << 20);
    for (bool weighted : {false, true}) {
      const report_request q = regression_request(path, weighted);
      out_of_core_info info;
      const std::string want = to_json(make_report(q));
      EXPECT_EQ(to_json(make_report_out_of_core(q, o, &info)), want)
          << "levels " << c.levels << " fine " << c.fine_weights << " weighted " << weighted;
      EXPECT_GT(info.pieces, 10U);
      EXPECT_GT(info.partitions, 1U);
      EXPECT_LE(info.largest_partition, o.max_memory / 8 / 24);
      // The percentage errors are numbers when no target is 0 (the Poisson deviance is undefined
      // here: the targets take negative values).
      EXPECT_EQ(want.find("percentage_error_undefined") == std::string::npos, !c.zero_targets) << want;
      EXPECT_NE(want.find("\"mean_poisson_deviance_undefined\""), std::string::npos) << want;
    }
    std::remove(path.c_str());
  }
}

TEST(OutOfCore, RegressionEdgeCasesEqualInMemory) {
  // One row; every weight 0 but one; a constant target (R^2 undefined); rows with an empty cell
  // skipped with drop_missing (the JSON's missing count).
  const auto path = std::filesystem::temp_directory_path() / fmt::format("assay_ooc_reg_edge_{}.csv", ::getpid());
  auto check = [&](const std::string& text, bool weighted, bool drop) {
    {
      std::ofstream f(path);
      f << text;
    }
    report_request q = regression_request(path.string(), weighted);
    q.csv.drop_missing = drop;
    out_of_core_options o;
    o.max_memory = 1 << 20;
    EXPECT_EQ(to_json(make_report_out_of_core(q, o)), to_json(make_report(q))) << text.substr(0, 60);
  };
  check("y,pred,w\n2.5,1,3\n", true, false);
  check("y,pred,w\n2.5,1,0\n-1,4,0\n7,7.5,0.25\n", true, false);
  std::string constant = "y,pred,w\n";
  std::string gaps = "y,pred,w\n";
  for (int i = 0; i < 200000; ++i) {
    constant += fmt::format("4,{},1\n", i % 17);
    gaps += i % 1000 == 7 ? fmt::format("{},,1\n", i % 5) : fmt::format("{},{},{}\n", i % 5, (i * 7) % 11, i % 3);
  }
  check(constant, false, false);
  check(gaps, true, true);
  std::filesystem::remove(path);
}

TEST(OutOfCore, RegressionMedianAddsTiedWeightsInAscendingOrder) {
  // median_absolute_error adds the weights in ascending (|error|, weight) order to a running sum
  // rounded after each case (metrics/regression.cpp). Here n rows have |error| 1, written in
  // descending order of weight, and one row |error| 2 whose weight puts half the total exactly at the
  // running sum of the first group in one of the two orders: the median is 1 in one order and 1.5 in
  // the other. n = 3000 rows fit in a partition (sorted in memory); n = 60000 are split three ways at
  // the tied |error| and then by weight (a cap of 1 MiB holds 5461 records).
  for (const std::size_t n : {std::size_t{3000}, std::size_t{60000}}) {
    std::mt19937_64 g(n);
    std::uniform_real_distribution<double> u(0.05, 3);
    std::vector<double> w(n);
    for (double& x : w) x = u(g);
    std::sort(w.begin(), w.end(), std::greater<>());
    auto running = [](const std::vector<double>& v) {
      double c = 0;
      for (double x : v) c += x;
      return c;
    };
    const double descending = running(w);
    std::vector<double> up(w.rbegin(), w.rend());
    const double ascending = running(up);
    ASSERT_NE(ascending, descending);  // else the case cannot tell the orders apart
    const double half = std::min(ascending, descending);
    const double want_median = ascending > half ? 1.0 : 1.5;  // ascending passes half in the first group, or ends on it
    // The last row's weight: the exact total (detail/exact_sum.hpp, as the metric sums it) is 2 * half.
    assay::detail::exact_sum first;
    for (double x : w) first.add(x);
    double last = 2 * half - first.value();
    bool found = false;
    for (int k = 0; k < 64 && !found; ++k) {
      assay::detail::exact_sum total = first;
      total.add(last);
      if (total.value() == 2 * half) found = true;
      else last = std::nextafter(last, total.value() < 2 * half ? 1e300 : 0.0);
    }
    ASSERT_TRUE(found);
    const auto path = std::filesystem::temp_directory_path() / fmt::format("assay_ooc_reg_median_{}.csv", ::getpid());
    {
      std::ofstream f(path);
      f << "y,pred,w\n";
      for (double x : w) f << fmt::format("5,4,{}\n", x);
      f << fmt::format("5,3,{}\n", last);
    }
    const report_request q = regression_request(path.string(), true);
    const report mem = make_report(q);
    const auto median = std::find_if(mem.metrics.begin(), mem.metrics.end(),
                                      [](const auto& m) { return m.name == "median_absolute_error"; });
    ASSERT_NE(median, mem.metrics.end());
    EXPECT_EQ(median->v.v, want_median);
    out_of_core_options o;
    o.max_memory = 1 << 20;
    out_of_core_info info;
    EXPECT_EQ(to_json(make_report_out_of_core(q, o, &info)), to_json(mem)) << n;
    EXPECT_LE(info.largest_partition, o.max_memory / 8 / 24);
    std::filesystem::remove(path);
  }
}

TEST(OutOfCore, RegressionIntervalsFromRowsKeptWithinTheCap) {
  // Every interval of regression resamples rows: they are kept in memory (within a quarter of the
  // cap), and the intervals equal the in-memory run's; a cap too small for them is an error.
  const std::string path = write_regression(60000, 8, false, false, 21);
  for (bool weighted : {false, true}) {
    report_request q = regression_request(path, weighted);
    q.ci_level = 0.9;
    q.bootstrap_replicates = 100;
    q.seed = 5;
    out_of_core_options o;
    o.max_memory = 32 << 20;
    const std::string want = to_json(make_report(q));
    ASSERT_NE(want.find("\"median_absolute_error_ci\""), std::string::npos) << want;
    EXPECT_EQ(to_json(make_report_out_of_core(q, o)), want) << "weighted " << weighted;
  }
  report_request q = regression_request(path, false);
  q.ci_level = 0.9;
  out_of_core_options o;
  o.max_memory = 1 << 20;
  try {
    (void)make_report_out_of_core(q, o);
    ADD_FAILURE();
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("the rows kept for the intervals of regression (every row) are too many to be "
                                         "evaluated within 1024 KiB"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

TEST(OutOfCore, ErrorsNameTheFilesLine) {
  const auto path = std::filesystem::temp_directory_path() / fmt::format("assay_ooc_bad_{}.csv", ::getpid());
  {
    std::ofstream f(path);
    f << "y,score\n";
    for (int i = 0; i < 150000; ++i) f << (i % 3 == 0 ? 1 : 0) << ",0." << (i % 997) << '\n';
    f << "1,0.7.1\n";
  }
  report_request q;
  q.path = path.string();
  q.label = "y";
  q.score = "score";
  std::string want, got;
  try {
    (void)make_report(q);
  } catch (const error& e) {
    want = e.what();
  }
  try {
    out_of_core_options o;
    o.max_memory = 1 << 20;
    (void)make_report_out_of_core(q, o);
  } catch (const error& e) {
    got = e.what();
  }
  EXPECT_NE(want, "");
  EXPECT_EQ(got, want);
  std::filesystem::remove(path);
}

// A column that does not exist, in each role: make_report's message, naming the parameter (marked with
// assay::param, which a front end renders as its own name: the CLI's option), never a CLI option.
TEST(OutOfCore, AMissingColumnIsMakeReportsMessageNamingTheParameter) {
  const std::string path = write_file(2000, false, 0, 9);
  out_of_core_options o;
  o.max_memory = 1 << 20;
  const auto angle = [](std::string_view name) { return "<" + std::string(name) + ">"; };
  struct role {
    const char* parameter;
    std::function<void(report_request&)> set;
  };
  const std::vector<role> roles{
      {"label", [](report_request& q) { q.label = "nope"; }},
      {"scores", [](report_request& q) { q.score = "nope"; }},
      {"predictions", [](report_request& q) { q.score.reset(); q.pred = "nope"; }},
      {"weight", [](report_request& q) { q.weight = "nope"; }},
  };
  for (const role& r : roles) {
    report_request q = request(path, true, true, false);
    r.set(q);
    std::string want, got;
    try {
      (void)make_report(q);
    } catch (const error& e) {
      want = e.render(angle);
    }
    try {
      (void)make_report_out_of_core(q, o);
    } catch (const error& e) {
      got = e.render(angle);
    }
    EXPECT_EQ(want.rfind(fmt::format("<{}>: ", r.parameter), 0), 0U) << want;
    EXPECT_NE(want.find("no column named \"nope\""), std::string::npos) << want;
    EXPECT_EQ(got, want) << r.parameter;
  }
  std::remove(path.c_str());
}

// The pieces are parsed in parallel (the in-memory reader's parser on each piece's byte range) or,
// with one thread, serially; the next partition is sorted on a second thread while this one is
// walked. Whatever the thread limit (1, 2, 3), the report is make_report's: a file with CRLF and blank
// lines, tied scores, "1" and "1.0", and rows with an empty cell (refused with make_report's message,
// which names the first one's line, in a later piece; skipped with drop_missing).
TEST(OutOfCore, SameReportWhateverTheThreadLimit) {
  const auto path = std::filesystem::temp_directory_path() / fmt::format("assay_ooc_threads_{}.csv", ::getpid());
  {
    std::ofstream f(path, std::ios::binary);
    std::mt19937_64 g(7);
    f << "y,score,w\r\n";
    for (int i = 0; i < 500000; ++i) {
      if (g() % 50 == 0) f << (g() % 2 ? "\n" : "\r\n");
      const bool pos = g() % 10 < 3;
      const int level = static_cast<int>(g() % 500) + (pos ? 150 : 0);
      const bool missing = i > 300000 && g() % 20000 == 0;
      f << (pos ? (g() % 2 ? "1" : "1.0") : "0") << ',' << (missing ? "" : fmt::format("{}", level / 650.0)) << ','
        << (g() % 4) << (g() % 3 == 0 ? "\r\n" : "\n");
    }
  }
  out_of_core_options o;
  o.max_memory = 8 << 20;  // pieces of 512 KiB (~12 of them), parsed in parallel from 2 threads
  for (bool drop : {false, true}) {
    for (bool weighted : {false, true}) {
      report_request q = request(path.string(), weighted, true, false);
      q.csv.drop_missing = drop;
      std::string want;
      try {
        want = to_json(make_report(q));
      } catch (const error& e) {
        want = e.what();
      }
      if (!drop) ASSERT_NE(want.find("empty cell"), std::string::npos) << want;
      for (unsigned threads : {1u, 2u, 3u}) {
        const thread_limit limit(threads);
        std::string got;
        out_of_core_info info;
        try {
          got = to_json(make_report_out_of_core(q, o, &info));
        } catch (const error& e) {
          got = e.what();
        }
        EXPECT_EQ(got, want) << "drop " << drop << " weighted " << weighted << " threads " << threads;
        if (drop) EXPECT_GT(info.partitions, 2U);
      }
    }
  }
  std::filesystem::remove(path);
}

TEST(OutOfCore, LossSumsOfASpellingWhoseClassChangedAreCompletedFromTheSpill) {
  // Pass 1 sums each row's log-loss and Brier terms for the class its spelling is in as far as the
  // spellings seen so far tell. Here the first pieces hold one spelling only, whose class (as the
  // only class: "1" is positive) is not the class it has once the second spelling comes ("2" is
  // then): its sums are completed from the spill after pass 1 (loss_rereads), and the report is
  // the in-memory one, whatever the thread limit. Also a second label spelling of the positive class ("1.0") coming late, and text
  // labels with pos_label (classes known from the first spelling: nothing to read again).
  struct layout {
    const char* first;        // the label of the first rows
    const char* later[3];     // the labels after them, picked at random
    const char* pos_label;    // or nullptr
    bool rereads;             // whether the loss sums must be completed
  };
  const layout layouts[] = {
      {"1", {"1", "2", "2"}, nullptr, true},      // "1" alone is positive; with "2", "2" is (the larger number)
      {"0", {"0", "1", "1.0"}, nullptr, false},   // "0" alone is negative, and stays so
      {"spam", {"ham", "spam", "spam"}, "spam", false},
  };
  for (const layout& l : layouts) {
    const auto path = std::filesystem::temp_directory_path() / fmt::format("assay_ooc_loss_{}_{}.csv", ::getpid(), l.first);
    {
      std::ofstream f(path, std::ios::binary);
      std::mt19937_64 g(11);
      std::uniform_real_distribution<double> u(0, 1);
      f << "y,score,w\n";
      for (int i = 0; i < 120000; ++i) {
        const char* y = i < 40000 ? l.first : l.later[g() % 3];
        const double s = i % 7 == 0 ? std::round(u(g) * 20) / 20 : u(g);  // ties, distinct scores, 0 and 1
        f << y << ',' << fmt::format("{}", s) << ',' << (g() % 5) * 0.5 << '\n';
      }
    }
    out_of_core_options o;
    o.max_memory = 1 << 20;  // pieces of 64 KiB: the first ~20 hold the first label only
    for (bool weighted : {false, true}) {
      report_request q = request(path.string(), weighted, true, false);
      if (l.pos_label != nullptr) q.pos_label = l.pos_label;
      const std::string want = to_json(make_report(q));
      ASSERT_NE(want.find("\"log_loss\""), std::string::npos);
      for (unsigned threads : {1u, 2u}) {
        const thread_limit limit(threads);
        out_of_core_info info;
        EXPECT_EQ(to_json(make_report_out_of_core(q, o, &info)), want)
            << l.first << " weighted " << weighted << " threads " << threads;
        EXPECT_EQ(info.loss_rereads > 0, l.rereads) << l.first << " weighted " << weighted << " threads " << threads;
        EXPECT_GT(info.pieces, 20U);
      }
    }
    std::filesystem::remove(path);
  }
}

}  // namespace
}  // namespace assay::scale
