// Out of core (include/assay/scale/out_of_core.hpp): a file read in pieces under a memory cap 20x
// smaller than the data gives make_report's report byte for byte in JSON.
#include "assay/scale/out_of_core.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <random>

#include <unistd.h>

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

}  // namespace
}  // namespace assay::scale
