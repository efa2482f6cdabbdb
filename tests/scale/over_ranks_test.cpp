// The protocols over ranks (include/assay/scale/over_ranks.hpp) run on 1 to 4 ranks of an in-process
// transport (threads_transport.hpp): rank 0's report, sliced report and curve equal the one-process
// run's (make_report, make_sliced_report, write_curve) byte for byte, on small random files with
// ties, by the range path and by merged states; an error on one rank (a bad row in its part, a
// failing on_root) is thrown on every rank with the same message, and no rank waits forever.
#include "assay/scale/over_ranks.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <random>

#include "assay/error.hpp"
#include "assay/report/slices.hpp"
#include "threads_transport.hpp"

namespace assay::scale {
namespace {

using testing::run_ranks;
using range_path = over_ranks_options::range_path;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / fmt::format("assay_over_ranks_{}_{}", ::getpid(), name)).string();
}

// Labels "pos"/"neg" (about a third positive), scores with ties (each row's score repeated by the next
// row with probability 0.2, or rounded to `levels` steps when levels > 0), weights in 0.5 steps with
// zeros, and a group column. `bad_line`: that data line (1-based) has an unparsable score.
std::string write_file(const std::string& name, std::size_t rows, int levels, std::uint64_t seed,
                       std::size_t bad_line = 0) {
  const std::string path = temp_path(name);
  std::ofstream f(path, std::ios::binary);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  f << "y,score,w,g\n";
  double last = 0.5;
  for (std::size_t i = 1; i <= rows; ++i) {
    const bool pos = u(g) < 0.35;
    double s = u(g) < 0.2 ? last : std::min(1.0, 0.6 * u(g) + (pos ? 0.3 : 0.0));
    if (levels > 0) s = std::round(s * levels) / levels;
    last = s;
    f << (pos ? "pos" : "neg") << ',' << (i == bad_line ? std::string("0.3x") : fmt::format("{}", s)) << ','
      << fmt::format("{}", std::round(u(g) * 4) * 0.5) << ',' << (u(g) < 0.5 ? "a" : "b") << '\n';
  }
  return path;
}

report_request request(const std::string& path, bool weighted) {
  report_request q;
  q.path = path;
  q.label = "y";
  q.score = "score";
  q.pos_label = "pos";
  if (weighted) q.weight = "w";
  return q;
}

// Runs `body` on `ranks` ranks and expects every rank to return and every byte sent to be received.
void expect_clean_run(int ranks, const std::function<void(transport&)>& body) {
  const testing::ranks_run run = run_ranks(ranks, body);
  for (std::size_t r = 0; r < run.thrown.size(); ++r) {
    if (!run.thrown[r]) continue;
    try {
      std::rethrow_exception(run.thrown[r]);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "rank " << r << " of " << ranks << " threw: " << e.what();
    }
  }
  EXPECT_TRUE(run.drained) << ranks << " ranks: bytes sent and never received";
}

TEST(OverRanks, ReportEqualsMakeReportOnOneToFourRanksByEitherPath) {
  for (int levels : {0, 12}) {
    const std::string path = write_file(fmt::format("report_{}.csv", levels), 700, levels, 11 + levels);
    for (bool weighted : {false, true}) {
      const report_request q = request(path, weighted);
      const std::string one = to_json(make_report(q));
      for (int ranks = 1; ranks <= 4; ++ranks) {
        for (range_path mode : {range_path::automatic, range_path::always, range_path::never}) {
          std::atomic<int> roots{0}, traces{0};
          std::string got;
          over_ranks_options o;
          o.ranges = mode;
          o.trace = [&](const std::string&) { ++traces; };
          expect_clean_run(ranks, [&](transport& t) {
            report_by_parts(t, q, [&](const report& r) {
              ++roots;
              if (t.rank() == 0) got = to_json(r);
            }, o);
          });
          const std::string what = fmt::format("levels {} weighted {} ranks {} mode {}", levels, weighted, ranks,
                                               static_cast<int>(mode));
          EXPECT_EQ(roots.load(), 1) << what;
          EXPECT_EQ(got, one) << what;
          // The range path ran where it must (so that it is the one compared), and only there.
          const bool ranged = ranks > 1 && (mode == range_path::always || (mode == range_path::automatic && levels == 0));
          EXPECT_EQ(traces.load(), ranged ? 1 : 0) << what;
        }
      }
    }
  }
}

TEST(OverRanks, SlicedReportAndCurvesEqualTheOneProcessRun) {
  const std::string path = write_file("sliced.csv", 500, 20, 7);
  for (bool weighted : {false, true}) {
    const report_request q = request(path, weighted);
    const std::vector<std::string> by{"g"};
    const std::string one = to_json(make_sliced_report(q, by));
    curves::curve_request c;
    c.path = path;
    c.label = "y";
    c.scores = {"score", "w"};
    c.pos_label = "pos";
    if (weighted) c.weight = "w";
    std::string one_curve;
    curves::write_curve(c, curves::curve_format::json, [&](std::string_view s) { one_curve += s; });
    for (int ranks = 1; ranks <= 4; ++ranks) {
      std::string got, got_curve;
      expect_clean_run(ranks, [&](transport& t) {
        sliced_report_by_parts(t, q, by, [&](const sliced_report& r) { got = to_json(r); });
        curve_by_parts(t, c, [&](curves::swept_models m) {
          curves::write_curve_of_sweeps(c, std::move(m), curves::curve_format::json,
                                        [&](std::string_view s) { got_curve += s; });
        });
      });
      EXPECT_EQ(got, one) << "weighted " << weighted << " ranks " << ranks;
      EXPECT_EQ(got_curve, one_curve) << "weighted " << weighted << " ranks " << ranks;
    }
  }
}

// Every rank threw; the messages, all the same, returned.
std::string agreed_message(const testing::ranks_run& run) {
  std::vector<std::string> whats;
  for (const auto& e : run.thrown) {
    if (!e) {
      ADD_FAILURE() << "a rank returned";
      continue;
    }
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      whats.emplace_back(x.what());
    }
  }
  for (const auto& w : whats) EXPECT_EQ(w, whats.front());
  EXPECT_TRUE(run.drained);
  return whats.empty() ? std::string() : whats.front();
}

TEST(OverRanks, AnErrorOnOneRankIsThrownOnEveryRankWithOneMessage) {
  // A bad score on the file's last line: in the last rank's part. The one-process message, prefixed
  // with the rank that read it (every other rank's part is fine).
  const std::string path = write_file("bad.csv", 400, 0, 3, 400);
  const report_request q = request(path, false);
  std::string one;
  try {
    make_report(q);
  } catch (const error& e) {
    one = e.what();
  }
  ASSERT_NE(one.find("0.3x"), std::string::npos) << one;
  for (int ranks = 1; ranks <= 4; ++ranks) {
    for (range_path mode : {range_path::automatic, range_path::never}) {
      over_ranks_options o;
      o.ranges = mode;
      const testing::ranks_run run =
          run_ranks(ranks, [&](transport& t) { report_by_parts(t, q, [](const report&) {}, o); });
      const std::string expected = ranks == 1 ? one : fmt::format("rank {} of {}: {}", ranks - 1, ranks, one);
      EXPECT_EQ(agreed_message(run), expected) << ranks << " ranks";
      const testing::ranks_run sliced = run_ranks(ranks, [&](transport& t) {
        sliced_report_by_parts(t, q, {"g"}, [](const sliced_report&) {});
      });
      EXPECT_EQ(agreed_message(sliced), expected) << ranks << " ranks, sliced";
    }
  }
}

TEST(OverRanks, AFailureOnRootIsThrownOnEveryRank) {
  const std::string path = write_file("root.csv", 300, 0, 5);
  const report_request q = request(path, true);
  for (int ranks = 1; ranks <= 4; ++ranks) {
    for (range_path mode : {range_path::always, range_path::never}) {
      over_ranks_options o;
      o.ranges = mode;
      const testing::ranks_run run = run_ranks(ranks, [&](transport& t) {
        report_by_parts(t, q, [](const report&) { throw_io("out.json: cannot write"); }, o);
      });
      // By merged states the finish's failure is about the whole file (no rank named); the range
      // path names rank 0 (as the CLI has printed since it has had that path).
      const bool named = ranks > 1 && mode == range_path::always;
      EXPECT_EQ(agreed_message(run), fmt::format("{}out.json: cannot write", named ? fmt::format("rank 0 of {}: ", ranks) : ""))
          << ranks << " ranks";
    }
  }
}

TEST(OverRanks, AgreedNamesTheLowestFailingRankOrTheLowestKey) {
  for (int ranks = 2; ranks <= 4; ++ranks) {
    // Ranks 1 and up fail: rank 1's message, named.
    testing::ranks_run run = run_ranks(ranks, [&](transport& t) {
      agreed(t, [&] {
        if (t.rank() >= 1) throw_data(fmt::format("bad row on rank {}", t.rank()));
      });
    });
    EXPECT_EQ(agreed_message(run), fmt::format("rank 1 of {}: bad row on rank 1", ranks));
    // Every rank fails: no rank named. With keys: the lowest key's message (here the last rank's).
    run = run_ranks(ranks, [&](transport& t) {
      const std::uint64_t key = static_cast<std::uint64_t>(10 - t.rank());
      agreed(t, [&] { throw std::out_of_range(fmt::format("split {}", key)); }, &key);
    });
    EXPECT_EQ(agreed_message(run), fmt::format("split {}", 10 - (ranks - 1)));
    // Nobody fails: everyone returns.
    expect_clean_run(ranks, [&](transport& t) { agreed(t, [] {}); });
  }
}

}  // namespace
}  // namespace assay::scale
