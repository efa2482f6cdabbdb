// The sliced state of a part of a file (scale::sliced_state_of_file_part, include/assay/scale/file_parts.hpp)
// and the sliced report read in pieces within a memory cap (scale::make_sliced_report_out_of_core):
// the states of 1, 2, 3 and 17 parts, merged in a shuffled order (half of them through their bytes)
// and finished, give make_sliced_report's report byte for byte in JSON and text (one and two slice
// columns, weights, predicted classes, class probabilities, regression, intervals, --drop-missing);
// a bad row names the file's line; the refusals name the argument; a state that outgrows the cap is
// refused with its message.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/report/slices.hpp"
#include "assay/scale/file_parts.hpp"
#include "assay/scale/out_of_core.hpp"
#include "assay/scale/sliced_state.hpp"

namespace assay::scale {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / fmt::format("assay_sliced_parts_{}_{}", ::getpid(), name)).string();
}

// Text labels with ties of scores rounded to `levels` steps, weights with ties and zeros, predicted
// classes, three class probabilities (exact dyadic rows), a regression target and prediction; slice
// columns `country` (numbers and text: "9" before "10" numerically, but the column is not all numbers)
// and `dev`, `num` (all numbers: ordered numerically), one rare level of `country` that holds
// negatives only. `holes`: about 3% of the rows have an empty cell in a column read.
std::string write_file(const std::string& name, std::size_t rows, int levels, std::uint64_t seed, bool holes = false) {
  const std::string path = temp_path(name);
  std::ofstream f(path, std::ios::binary);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const double dyadic[4][3] = {{0.25, 0.25, 0.5}, {0.125, 0.375, 0.5}, {0.75, 0.125, 0.125}, {1, 0, 0}};
  f << "y,score,w,pred,pa,pb,pc,t,v,country,dev,num\n";
  for (std::size_t i = 0; i < rows; ++i) {
    const bool pos = u(g) < 0.3;
    const std::string y = pos ? "spam" : "ham";
    const double s = std::round(std::min(1.0, 0.6 * u(g) + (pos ? 0.35 : 0.0)) * levels) / levels;
    const double w = std::round(u(g) * 4) * 0.5;
    const std::string pred = u(g) < 0.7 ? y : "ham";
    const auto& p = dyadic[g() % 4];
    const std::size_t shift = g() % 3;
    const double t = std::round(u(g) * 20) - 5, v = t + std::round(u(g) * 8) * 0.25;
    std::string country = std::vector<std::string>{"de", "fr", "9", "10"}[g() % 4];
    if (!pos && g() % 50 == 0) country = "zz";
    const std::string dev = g() % 3 == 0 ? "web" : "app";
    const std::string num = std::vector<std::string>{"2", "10", "-1"}[g() % 3];
    std::vector<std::string> cells{y, fmt::format("{}", s), fmt::format("{}", w), pred,
                                   fmt::format("{}", p[shift]), fmt::format("{}", p[(shift + 1) % 3]),
                                   fmt::format("{}", p[(shift + 2) % 3]), fmt::format("{}", t), fmt::format("{}", v),
                                   country, dev, num};
    if (holes && u(g) < 0.03) cells[std::vector<std::size_t>{0, 1, 2, 9, 10}[g() % 5]].clear();
    for (std::size_t c = 0; c < cells.size(); ++c) f << (c ? "," : "") << cells[c];
    f << '\n';
  }
  return path;
}

// Whether two outputs are equal; else the first lines where they differ, for the failure message.
::testing::AssertionResult same(const std::string& a, const std::string& b) {
  if (a == b) return ::testing::AssertionSuccess();
  std::size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
  const std::size_t from = a.rfind('\n', at) == std::string::npos ? 0 : a.rfind('\n', at);
  const std::size_t line = static_cast<std::size_t>(std::count(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(from), '\n'));
  return ::testing::AssertionFailure() << "differ at line " << line + 1 << ":\n" << a.substr(from, 300) << "\nvs\n"
                                       << b.substr(from, 300);
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const error& e) {
    return e.what();
  }
  return "(no error)";
}

// The sliced report of `count` parts: each part's state read in pieces of `piece_bytes`, its row ids
// offset by the rows of the parts before it, merged in a shuffled order, odd parts through bytes.
sliced_report by_parts(const report_request& q, const std::vector<std::string>& by, std::size_t count,
                       std::size_t piece_bytes, std::uint64_t shuffle_seed) {
  std::vector<sliced_state> states;
  std::uint64_t before = 0;
  for (std::size_t k = 0; k < count; ++k) {
    states.push_back(sliced_state_of_file_part(q, by, part_of_file(q, k, count), piece_bytes));
    const std::uint64_t rows = states.back().rows();
    states.back().offset_row_ids(before);
    before += rows;
  }
  std::vector<std::size_t> order(count);
  for (std::size_t k = 0; k < count; ++k) order[k] = k;
  std::mt19937_64 g(shuffle_seed);
  std::shuffle(order.begin(), order.end(), g);
  std::optional<sliced_state> all;
  for (std::size_t k : order) {
    sliced_state s = k % 2 == 1 ? read_sliced_state(states[k].serialize(), states[k].options(), states[k].by())
                                : std::move(states[k]);
    if (!all) all.emplace(std::move(s));
    else all->merge(s);
  }
  sliced_report r = all->finish(options_of(q));
  if (q.csv.drop_missing) r.overall.missing = all->missing();  // the documented rule (file_parts.hpp)
  return r;
}

struct request_case {
  const char* name;
  std::function<void(report_request&)> set;
};

report_request base(const std::string& path) {
  report_request q;
  q.path = path;
  q.label = "y";
  return q;
}

const std::vector<request_case>& cases() {
  static const std::vector<request_case> all{
      {"scores", [](report_request& q) { q.score = "score", q.pos_label = "spam"; }},
      {"scores weighted", [](report_request& q) { q.score = "score", q.pos_label = "spam", q.weight = "w"; }},
      {"scores ci", [](report_request& q) { q.score = "score", q.pos_label = "spam", q.ci_level = 0.9; }},
      {"scores weighted bootstrap ci",
       [](report_request& q) {
         q.score = "2", q.pos_label = "spam", q.weight = "w", q.ci_level = 0.95, q.bootstrap_replicates = 60,
         q.seed = 3;
       }},
      {"pred weighted", [](report_request& q) { q.pred = "pred", q.weight = "w", q.pos_label = "spam"; }},
      {"regression", [](report_request& q) { q.label = "t", q.pred = "v", q.task = task_kind::regression; }},
  };
  return all;
}

TEST(SlicedFileParts, MergedPartsGiveMakeSlicedReportByteForByte) {
  const std::string ties = write_file("ties.csv", 6000, 20, 1);
  const std::string distinct = write_file("distinct.csv", 3000, 1 << 20, 2);
  for (const std::string& path : {ties, distinct}) {
    for (const auto& c : cases()) {
      report_request q = base(path);
      c.set(q);
      for (const std::vector<std::string>& by :
           {std::vector<std::string>{"country"}, {"dev", "num"}, {"11", "10"}}) {
        const sliced_report one = make_sliced_report(q, by);
        for (std::size_t count : {1, 2, 3, 17}) {
          const sliced_report r = by_parts(q, by, count, 4096, count + 7);
          EXPECT_TRUE(same(to_json(r), to_json(one))) << path << ' ' << c.name << " by " << by[0] << " parts " << count;
          EXPECT_TRUE(same(to_text(r), to_text(one))) << path << ' ' << c.name << " by " << by[0] << " parts " << count;
        }
      }
    }
  }
  std::remove(ties.c_str());
  std::remove(distinct.c_str());
}

TEST(SlicedFileParts, ClassProbabilitiesAndRegressionByParts) {
  // Class probabilities: three classes named after the columns; a row whose probabilities do not sum
  // to 1 in a later part (the slice's report names its row within the slice: the ids must be the file's).
  const std::string path = temp_path("proba.csv");
  {
    std::ofstream f(path);
    f << "y,c,w,a,b,g\n";
    std::mt19937_64 g(8);
    std::uniform_int_distribution<int> lvl(0, 5), cls(0, 2);
    for (int i = 0; i < 3000; ++i) {
      const int c = cls(g);
      double x[3];
      for (int k = 0; k < 3; ++k) x[k] = lvl(g) + (k == c ? 3 : 0) + 1;
      const double sum = x[0] + x[1] + x[2];
      double p[3] = {x[0] / sum, x[1] / sum, x[2] / sum};
      if (i == 2500) p[0] = std::min(1.0, p[0] + 0.4);
      f << "abc"[c] << ',' << fmt::format("{}", p[2]) << ',' << (i % 4) * 0.5 << ',' << fmt::format("{}", p[0]) << ','
        << fmt::format("{}", p[1]) << ',' << (g() % 3 == 0 ? "x" : "y") << '\n';
    }
  }
  for (bool weighted : {false, true}) {
    for (bool ci : {false, true}) {
      report_request q = base(path);
      q.proba = {"a", "b", "c"};
      if (weighted) q.weight = "w";
      if (ci) q.ci_level = 0.95, q.bootstrap_replicates = 40;
      const sliced_report one = make_sliced_report(q, {"g"});
      for (std::size_t count : {1, 2, 3, 17}) {
        const sliced_report r = by_parts(q, {"g"}, count, 4096, count);
        EXPECT_TRUE(same(to_json(r), to_json(one))) << "weighted " << weighted << " ci " << ci << " parts " << count;
      }
    }
  }
  std::remove(path.c_str());
  // Regression, with intervals (every row kept with its id).
  const std::string reg = write_file("regression.csv", 3000, 20, 9);
  report_request q = base(reg);
  q.label = "t";
  q.pred = "v";
  q.task = task_kind::regression;
  q.weight = "w";
  q.ci_level = 0.95;
  q.bootstrap_replicates = 40;
  const sliced_report one = make_sliced_report(q, {"country", "dev"});
  for (std::size_t count : {1, 2, 3, 17}) {
    EXPECT_TRUE(same(to_json(by_parts(q, {"country", "dev"}, count, 4096, count)), to_json(one))) << count;
  }
  std::remove(reg.c_str());
}

TEST(SlicedFileParts, DropMissingCountsTheRowsOfEveryPart) {
  const std::string path = write_file("holes.csv", 5000, 20, 4, true);
  report_request q = base(path);
  q.score = "score";
  q.pos_label = "spam";
  q.weight = "w";
  q.csv.drop_missing = true;
  const sliced_report one = make_sliced_report(q, {"country", "dev"});
  ASSERT_TRUE(one.overall.missing.has_value());
  ASSERT_GT(*one.overall.missing, 50u);
  for (std::size_t count : {1, 2, 3, 17}) {
    const sliced_report r = by_parts(q, {"country", "dev"}, count, 4096, count);
    EXPECT_TRUE(same(to_json(r), to_json(one))) << count;
    EXPECT_TRUE(same(to_text(r), to_text(one))) << count;
  }
  // Without drop_missing: the whole file's message for one part; a part names its bytes.
  q.csv.drop_missing = false;
  const std::string whole = message_of([&] { (void)make_sliced_report(q, {"country"}); });
  EXPECT_EQ(message_of([&] { (void)sliced_state_of_file_part(q, {"country"}, part_of_file(q, 0, 1), 4096); }), whole);
  std::remove(path.c_str());
}

TEST(SlicedFileParts, ABadRowNamesTheFilesLine) {
  const std::string path = temp_path("bad.csv");
  {
    std::ofstream f(path);
    f << "y,score,g\n";
    for (int i = 0; i < 1000; ++i) {
      f << (i % 3 == 0 ? 1 : 0) << ',' << (i == 800 ? "0.7.1" : "0.25") << ',' << (i % 2 ? "a" : "b") << '\n';
    }
  }
  report_request q = base(path);
  q.score = "score";
  const std::string one = message_of([&] { (void)make_sliced_report(q, {"g"}); });
  ASSERT_NE(one.find(":802:"), std::string::npos) << one;
  EXPECT_EQ(message_of([&] { (void)sliced_state_of_file_part(q, {"g"}, part_of_file(q, 1, 2), 4096); }), one);
  EXPECT_EQ(message_of([&] { (void)sliced_state_of_file_part(q, {"g"}, part_of_file(q, 0, 2), 4096); }),
            "(no error)");
  std::remove(path.c_str());
}

TEST(SlicedFileParts, Refusals) {
  const std::string path = write_file("refusals.csv", 50, 20, 5);
  report_request q = base(path);
  q.score = "score";
  q.pos_label = "spam";
  const file_part all = part_of_file(q, 0, 1);
  EXPECT_EQ(message_of([&] { (void)sliced_state_of_file_part(q, {}, all); }), "by: given 0 times; give 1 or 2 slice columns");
  EXPECT_EQ(message_of([&] { (void)sliced_state_of_file_part(q, {"dev", "country", "num"}, all); }),
            "by: given 3 times; give 1 or 2 slice columns");
  // The same column by name and by index: make_sliced_report's message.
  const std::string twice = "by: the two slice columns are the same column ('dev'); give two different columns";
  EXPECT_EQ(message_of([&] { (void)sliced_state_of_file_part(q, {"dev", "11"}, all); }), twice);
  EXPECT_EQ(message_of([&] { (void)make_sliced_report(q, {"dev", "11"}); }), twice);
  EXPECT_EQ(message_of([&] { (void)make_sliced_report(q, {}); }), "by: given 0 times; give 1 or 2 slice columns");
  // A slice column that does not exist: read_table's message, as make_sliced_report's (both name the
  // parameter, which the CLI renders as its option).
  const std::string nope = message_of([&] { (void)make_sliced_report(q, {"nope"}); });
  EXPECT_EQ(nope.substr(0, 4), "by: ") << nope;
  EXPECT_EQ(message_of([&] { (void)sliced_state_of_file_part(q, {"nope"}, all); }), nope);
  q.path = "-";
  EXPECT_EQ(message_of([&] { (void)sliced_state_of_file_part(q, {"dev"}, all); }),
            "sliced_state_of_file_part: standard input cannot be cut into parts (give a file)");
  std::remove(path.c_str());
}

// Out of core: the whole file as one part within a cap; the state is one run per distinct (score,
// true class, slice), so rounded scores fit a cap far below the file's bytes.
TEST(SlicedOutOfCore, EqualsInMemoryWithinACapAndRefusesWhatDoesNotFit) {
  const std::string path = write_file("ooc.csv", 60000, 20, 6);
  const auto file_bytes = std::filesystem::file_size(path);
  report_request q = base(path);
  q.score = "score";
  q.pos_label = "spam";
  q.weight = "w";
  out_of_core_options oo;
  oo.max_memory = std::uint64_t{3} << 20;
  // The slices' states (a few KB each: their tables of repeated (score, class) pairs start small and
  // grow with the distinct pairs) and the pieces fit in 3 MiB, for 2 slices (dev) and 6 (dev, num).
  for (const std::vector<std::string>& by : {std::vector<std::string>{"dev"}, {"11"}, {"dev", "num"}}) {
    const sliced_report one = make_sliced_report(q, by);
    out_of_core_info info;
    const sliced_report r = make_sliced_report_out_of_core(q, by, oo, &info);
    EXPECT_TRUE(same(to_json(r), to_json(one))) << by.size();
    EXPECT_TRUE(same(to_text(r), to_text(one))) << by.size();
    EXPECT_GE(info.pieces, file_bytes / (oo.max_memory / 16)) << "read in pieces of a sixteenth of the cap";
  }
  // Distinct scores: the state grows with the rows and is refused, naming the cap and the bytes held.
  const std::string distinct = write_file("ooc_distinct.csv", 60000, 1 << 30, 7);
  q.path = distinct;
  oo.max_memory = std::uint64_t{1} << 20;
  const std::string m = message_of([&] { (void)make_sliced_report_out_of_core(q, {"dev"}, oo); });
  EXPECT_NE(m.find(distinct + ": the sliced report needs "), std::string::npos) << m;
  EXPECT_NE(m.find("more than the max_memory of 1024 KiB: it holds one run per distinct score, true class and slice "),
            std::string::npos) << m;
  EXPECT_NE(m.find("the runs of slices are not spilled to disk; raise max_memory"), std::string::npos) << m;
  oo.max_memory = 1000;
  EXPECT_EQ(message_of([&] { (void)make_sliced_report_out_of_core(q, {"dev"}, oo); }),
            "make_sliced_report_out_of_core: max_memory is 1000 bytes; it must be at least 1 MiB");
  std::remove(path.c_str());
  std::remove(distinct.c_str());
}

}  // namespace
}  // namespace assay::scale
