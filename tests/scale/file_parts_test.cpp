// A file cut into parts (include/assay/scale/file_parts.hpp): the parts cover the data bytes once, in
// order, cut at line ends; the states of 1, 2, 3, 7 and 17 parts, merged in any order and through
// their bytes, finish into make_report's report, byte for byte in JSON and text; a bad row names the
// file's line; quotes and what the state does not support are refused.
#include "assay/scale/file_parts.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

#include "assay/curves/curve_report.hpp"
#include "assay/plot/svg.hpp"
#include "assay/error.hpp"

namespace assay::scale {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / fmt::format("assay_parts_{}_{}", ::getpid(), name)).string();
}

// Labels "spam"/"ham" or "1"/"1.0"/"0", scores rounded to `levels` steps (ties), weights with zeros.
std::string write_file(const std::string& name, std::size_t rows, bool text_labels, int levels, std::uint64_t seed,
                       const char* eol = "\n") {
  const std::string path = temp_path(name);
  std::ofstream f(path, std::ios::binary);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  f << "y,score,w,pred" << eol;
  for (std::size_t i = 0; i < rows; ++i) {
    const bool pos = u(g) < 0.3;
    const char* y = text_labels ? (pos ? "spam" : "ham") : (pos ? (u(g) < 0.5 ? "1" : "1.0") : "0");
    double s = std::min(1.0, 0.6 * u(g) + (pos ? 0.35 : 0.0));
    if (levels > 0) s = std::round(s * levels) / levels;
    const char* pred = u(g) < 0.7 ? y : (text_labels ? "ham" : "0");
    f << y << ',' << fmt::format("{}", s) << ',' << fmt::format("{}", std::round(u(g) * 4) * 0.5) << ',' << pred
      << eol;
  }
  return path;
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

// The report of `count` parts, merged in the order `order` (indices), half of them through bytes.
report by_parts(const report_request& q, std::size_t count, std::size_t piece_bytes, std::uint64_t shuffle_seed) {
  std::vector<std::size_t> order(count);
  for (std::size_t k = 0; k < count; ++k) order[k] = k;
  std::mt19937_64 g(shuffle_seed);
  std::shuffle(order.begin(), order.end(), g);
  std::optional<evaluation_state> all;
  for (std::size_t k : order) {
    evaluation_state s = state_of_file_part(q, part_of_file(q, k, count), piece_bytes);
    if (k % 2 == 1) s = read_state(s.serialize(), s.options());
    if (!all) all.emplace(std::move(s));
    else all->merge(s);
  }
  return all->finish(options_of(q));
}

TEST(FileParts, PartsCoverTheDataOnceInOrderCutAfterLineFeeds) {
  const std::string path = write_file("cover.csv", 997, false, 0, 5);
  std::ifstream f(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const report_request q = request(path, false, true, false);
  const std::uint64_t header_end = text.find('\n') + 1;
  for (std::size_t count : {1, 2, 3, 7, 17, 2000}) {
    std::uint64_t expect_begin = header_end;
    for (std::size_t k = 0; k < count; ++k) {
      const file_part p = part_of_file(q, k, count);
      EXPECT_EQ(p.begin, expect_begin) << count << " parts, part " << k;
      EXPECT_LE(p.begin, p.end);
      // A part begins after a line feed (the header's for the first) and is whole lines.
      EXPECT_EQ(text[p.begin - 1], '\n');
      if (p.end > p.begin) EXPECT_EQ(text[p.end - 1], '\n');
      // The part holds the records starting in the k-th equal byte range (the rule of the header).
      const std::uint64_t s = header_end + (text.size() - header_end) * k / count;
      if (k > 0 && p.begin > header_end) {
        EXPECT_GE(p.begin, s);
        EXPECT_EQ(text.find('\n', s - 1) + 1, p.begin);
      }
      expect_begin = p.end;
    }
    EXPECT_EQ(expect_begin, text.size()) << count << " parts";
  }
  EXPECT_THROW(part_of_file(q, 3, 3), error);
  std::remove(path.c_str());
}

TEST(FileParts, MergedPartsGiveMakeReportByteForByte) {
  const std::string distinct = write_file("distinct.csv", 20000, false, 0, 1);
  const std::string ties = write_file("ties.csv", 20000, true, 20, 2);
  const std::string crlf = write_file("crlf.csv", 5000, false, 10, 3, "\r\n");
  for (const std::string& path : {distinct, ties, crlf}) {
    const bool text = path == ties;
    for (bool weighted : {false, true}) {
      for (bool scores : {true, false}) {
        const report_request q = request(path, weighted, scores, text);
        const report one = make_report(q);
        for (std::size_t count : {1, 2, 3, 7, 17}) {
          const report r = by_parts(q, count, 4096, count);  // small pieces: many per part
          EXPECT_EQ(to_json(r), to_json(one)) << path << " weighted " << weighted << " scores " << scores << " parts "
                                              << count;
          EXPECT_EQ(to_text(r), to_text(one)) << path << " parts " << count;
        }
      }
    }
  }
  for (const auto& p : {distinct, ties, crlf}) std::remove(p.c_str());
}

TEST(FileParts, ClassProbabilitiesByPartsGiveMakeReport) {
  // Columns named after the classes in another order than theirs, weights, ties; row 1500's
  // probabilities do not sum to 1: its number (from the parts' row counts, offset_row_ids) is in the
  // report's messages.
  const std::string path = temp_path("proba.csv");
  {
    std::ofstream f(path);
    f << "y,c,w,a,b\n";
    std::mt19937_64 g(8);
    std::uniform_int_distribution<int> q(0, 5), cls(0, 2);
    for (int i = 0; i < 3000; ++i) {
      const int c = cls(g);
      double v[3];
      for (int k = 0; k < 3; ++k) v[k] = q(g) + (k == c ? 3 : 0);
      const double sum = v[0] + v[1] + v[2];
      f << "abc"[c] << ',' << fmt::format("{}", v[2] / sum + (i == 1499 ? 0.5 : 0.0)) << ',' << (i % 7) * 0.3 << ','
        << fmt::format("{},{}", v[0] / sum, v[1] / sum) << '\n';
    }
  }
  for (bool weighted : {false, true}) {
    report_request q;
    q.path = path;
    q.label = "y";
    q.proba = {"c", "a", "b"};
    if (weighted) q.weight = "w";
    const report one = make_report(q);
    ASSERT_NE(to_json(one).find("data row 1500 sum"), std::string::npos);
    for (std::size_t count : {1, 2, 3, 7, 17}) {
      std::vector<evaluation_state> parts;
      std::uint64_t before = 0;
      for (std::size_t k = 0; k < count; ++k) {
        parts.push_back(state_of_file_part(q, part_of_file(q, k, count), 4096));
        const std::uint64_t rows = parts.back().rows();
        parts.back().offset_row_ids(before);
        before += rows;
      }
      std::mt19937_64 g(count);
      std::shuffle(parts.begin(), parts.end(), g);
      evaluation_state all = read_state(parts[0].serialize(), parts[0].options());
      for (std::size_t k = 1; k < parts.size(); ++k) all.merge(parts[k]);
      const report r = all.finish(options_of(q));
      EXPECT_EQ(to_json(r), to_json(one)) << "weighted " << weighted << " parts " << count;
      EXPECT_EQ(to_text(r), to_text(one)) << "parts " << count;
    }
  }
  std::remove(path.c_str());
}

TEST(FileParts, CurvesFromMergedPartsGiveWriteCurveByteForByte) {
  // assay curve roc|pr on MPI ranks: the merged states' sweeps (sweep_of_scores) written by
  // write_curve_of_sweeps equal write_curve on the file, CSV and JSON, weighted or not, thinned or not.
  const std::string ties = write_file("curve_ties.csv", 20000, true, 20, 4);
  const std::string distinct = write_file("curve_distinct.csv", 40000, false, 0, 5);
  for (const std::string& path : {ties, distinct}) {
    for (bool weighted : {false, true}) {
      for (auto kind : {curves::curve_kind::roc, curves::curve_kind::pr, curves::curve_kind::threshold,
                        curves::curve_kind::cost}) {
        for (auto format : {curves::curve_format::csv, curves::curve_format::json}) {
          curves::curve_request c;
          c.kind = kind;
          c.path = path;
          c.label = "y";
          c.scores = {"score", "w"};
          if (weighted) c.weight = "w", c.scores = {"score"};
          if (path == ties) c.pos_label = "spam";
          c.drop_intermediate = kind == curves::curve_kind::roc && format == curves::curve_format::csv;
          if (format == curves::curve_format::json) c.partial_fpr = {0, 0.25};
          if (kind == curves::curve_kind::threshold) {  // constraints: the umbrella reads the negatives
            c.max_fpr = 0.1;
            c.min_tpr = 0.8;
            c.beta = 2;
          }
          if (format == curves::curve_format::json) c.cost = curves::cost_model{1, 5, 0, 0, std::nullopt};
          std::string want, got;
          curves::write_curve(c, format, [&](std::string_view s) { want.append(s); });
          curves::swept_models m;
          for (const auto& score : c.scores) {
            report_request q;
            q.path = path;
            q.label = "y";
            q.score = score;
            q.weight = c.weight;
            q.pos_label = c.pos_label;
            std::optional<evaluation_state> all;
            for (std::size_t k : {2, 0, 1}) {
              evaluation_state s = state_of_file_part(q, part_of_file(q, k, 3), 4096);
              if (!all) all.emplace(std::move(s));
              else all->merge(read_state(s.serialize()));
            }
            auto sw = all->sweep_of_scores(c.max_fpr && !weighted);
            m.source = all->options().source;
            m.label_column = all->options().label_name;
            m.classes = sw.classes;
            m.positive = sw.classes[sw.positive];
            m.weighted = weighted;
            m.models.emplace_back(all->options().prediction_name, sw.sweep);
            m.negatives.push_back(std::move(sw.negatives));
          }
          curves::write_curve_of_sweeps(c, std::move(m), format, [&](std::string_view s) { got.append(s); });
          EXPECT_EQ(got, want) << path << " weighted " << weighted << " kind " << int(kind) << " json "
                               << (format == curves::curve_format::json);
          EXPECT_GT(want.size(), 150U);
          if (kind == curves::curve_kind::threshold && !weighted && format == curves::curve_format::json) {
            EXPECT_NE(want.find("\"order_statistic\": 0."), std::string::npos) << want.substr(0, 3000);
          }
        }
      }
    }
  }
  for (const auto& p : {ties, distinct}) std::remove(p.c_str());
}

TEST(FileParts, EmptyPartsAndColumnsByIndex) {
  const std::string path = temp_path("tiny.csv");
  std::ofstream(path) << "y,score\n1,0.9\n0,0.2\n1,0.2\n";
  report_request q;
  q.path = path;
  q.label = "1";
  q.score = "2";
  EXPECT_EQ(to_json(by_parts(q, 17, 4096, 1)), to_json(make_report(q)));
  std::remove(path.c_str());
}

// One class only, with intervals: evaluate reads the sweep functions for both classes' areas, and so
// must the state (their undefined reasons are not the streaming summary's), weighted or not.
TEST(FileParts, OneClassWithIntervalsGivesMakeReport) {
  const std::string path = temp_path("one_class.csv");
  for (const char* y : {"0", "1"}) {
    {
      std::ofstream f(path);
      f << "y,score,w\n";
      for (int i = 0; i < 40; ++i) f << y << ',' << (i % 7) * 0.125 << ',' << (i % 3) * 0.5 << '\n';
    }
    for (bool weighted : {false, true}) {
      report_request q = request(path, weighted, true, false);
      q.pos_label = "1";
      q.ci_level = 0.95;
      q.bootstrap_replicates = 30;
      const report one = make_report(q);
      for (std::size_t count : {1, 3}) {
        std::optional<evaluation_state> all;
        std::uint64_t before = 0;  // the rows of the parts before: the ids of the bootstrap
        for (std::size_t k = 0; k < count; ++k) {
          evaluation_state s = state_of_file_part(q, part_of_file(q, k, count), 64);
          const std::uint64_t rows = s.rows();
          s.offset_row_ids(before);
          before += rows;
          if (!all) all.emplace(std::move(s));
          else all->merge(s);
        }
        EXPECT_EQ(to_json(all->finish(options_of(q))), to_json(one)) << "class " << y << " weighted " << weighted;
      }
    }
  }
  std::remove(path.c_str());
}

io::table joined_parts(const std::string& path, const io::csv_options& csv, const std::vector<io::column_spec>& specs,
                       std::size_t count, std::size_t piece_bytes);

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(FileParts, ABadRowNamesTheFilesLine) {
  const std::string path = temp_path("bad.csv");
  {
    std::ofstream f(path);
    f << "y,score\n";
    for (int i = 0; i < 1000; ++i) f << (i % 3 == 0 ? 1 : 0) << ',' << (i == 800 ? "0.7.1" : "0.25") << '\n';
  }
  const report_request q = request(path, false, true, false);
  std::string one;
  try {
    make_report(q);
  } catch (const error& e) {
    one = e.what();
  }
  ASSERT_NE(one.find(":802:"), std::string::npos) << one;  // line 802 of the file: the header, then row 800
  const file_part p = part_of_file(q, 1, 2);
  const std::string parts = message_of([&] { (void)state_of_file_part(q, p, 4096); });
  EXPECT_EQ(parts, one);
  EXPECT_EQ(message_of([&] { (void)state_of_file_part(q, part_of_file(q, 0, 2), 4096); }), "(no error)");
  std::remove(path.c_str());
}

// Rows with an empty cell in several parts: each part leaves them unrefused (its count, its first
// line of the file, its column) and refuse_missing_of_parts gives make_report's message on the whole
// file, whatever the count of parts. A part that refuses its own gives its own count instead.
TEST(FileParts, MissingRowsOfAllPartsAreRefusedAsTheWholeFile) {
  const std::string path = temp_path("holes_parts.csv");
  {
    std::ofstream f(path);
    f << "y,score\n";
    for (int i = 0; i < 4000; ++i) f << (i % 3 == 0 ? 1 : 0) << ',' << (i % 89 == 40 ? "" : "0.25") << '\n';
  }
  const report_request q = request(path, false, true, false);
  const std::string one = message_of([&] { (void)make_report(q); });
  ASSERT_NE(one.find(":42: column 'score': empty cell; 45 rows have"), std::string::npos) << one;
  for (std::size_t count : {1, 2, 3, 17}) {
    std::vector<io::missing_rows> parts;
    for (std::size_t k = 0; k < count; ++k) {
      io::missing_rows m;
      (void)state_of_file_part(q, part_of_file(q, k, count), 4096, &m);  // nothing refused here
      parts.push_back(m);
    }
    EXPECT_EQ(message_of([&] { refuse_missing_of_parts(parts, path); }), one) << count << " parts";
  }
  EXPECT_EQ(message_of([&] { refuse_missing_of_parts({}, path); }), "(no error)");
  const std::string own = message_of([&] { (void)state_of_file_part(q, part_of_file(q, 1, 2), 4096); });
  EXPECT_NE(own.find("(this part)"), std::string::npos) << own;
  std::remove(path.c_str());
}

TEST(FileParts, RefusesQuotesAndWhatTheStateDoesNotDo) {
  const std::string path = temp_path("quoted.csv");
  std::ofstream(path) << "y,score,note\n1,0.5,\"a, b\"\n0,0.25,c\n";
  report_request q = request(path, false, true, false);
  EXPECT_EQ(message_of([&] { (void)state_of_file_part(q, part_of_file(q, 0, 1)); }),
            fmt::format("{}: the file has quote characters; it cannot be cut into parts at line ends (a quoted field "
                        "may hold a line break): read it as one part",
                        path));
  q.path = "-";
  EXPECT_EQ(message_of([&] { (void)part_of_file(q, 0, 1); }),
            "part_of_file: standard input cannot be cut into parts (give a file)");
  std::remove(path.c_str());
}

// assay curve rejection|calibration (and class probabilities, charts) under MPI: rank 0 draws the
// curve from the parts' columns joined in file order; the same CSV, JSON and SVG as make_curve on the
// file, for 1, 2, 3 and 17 parts.
TEST(FileParts, CurvesFromJoinedColumnsGiveMakeCurve) {
  const std::string ties = write_file("jcurve_ties.csv", 6000, true, 20, 31);
  const std::string proba = temp_path("jcurve_proba.csv");
  {
    std::mt19937_64 g(32);
    std::uniform_int_distribution<int> lvl(0, 5), cls(0, 2);
    std::ofstream p(proba);
    p << "y,pb,pa,pc\n";
    for (int i = 0; i < 3000; ++i) {
      const int c = cls(g);
      double x[3];
      for (int k = 0; k < 3; ++k) x[k] = lvl(g) + (k == c ? 3 : 0) + 1;
      const double sum = x[0] + x[1] + x[2];
      p << "abc"[c] << ',' << fmt::format("{}", x[1] / sum) << ',' << fmt::format("{}", x[0] / sum) << ','
        << fmt::format("{}", x[2] / sum) << '\n';
    }
  }
  std::vector<curves::curve_request> requests;
  for (auto kind : {curves::curve_kind::rejection, curves::curve_kind::calibration, curves::curve_kind::roc}) {
    for (bool weighted : {false, true}) {
      curves::curve_request c;
      c.kind = kind;
      c.path = ties;
      c.label = "y";
      c.scores = {"score"};
      c.pos_label = "spam";
      if (weighted) c.weight = "w";
      c.bins = weighted ? 7 : 10;
      c.strategy = weighted ? curves::bin_strategy::quantile : curves::bin_strategy::uniform;
      requests.push_back(c);
      curves::curve_request m;
      m.kind = kind;
      m.path = proba;
      m.label = "y";
      m.proba = {"pc", "pa", "pb"};
      requests.push_back(m);
    }
  }
  for (const curves::curve_request& c : requests) {
    const curves::curve_document want = curves::make_curve(c);
    const std::string want_svg = plot::render_svg(want.chart);
    const std::vector<io::column_spec> specs = column_specs(curves::prediction_file_of(c));
    for (std::size_t count : {1, 2, 3, 17}) {
      const curves::curve_document got = curves::make_curve(joined_parts(c.path, c.csv, specs, count, 4096), c);
      EXPECT_EQ(got.csv, want.csv) << c.path << " kind " << int(c.kind) << " parts " << count;
      EXPECT_EQ(got.json, want.json) << c.path << " kind " << int(c.kind) << " parts " << count;
      EXPECT_EQ(plot::render_svg(got.chart), want_svg) << c.path << " kind " << int(c.kind) << " parts " << count;
    }
  }
  for (const auto& p : {ties, proba}) std::remove(p.c_str());
}

// The report of `count` parts whose row ids are offset by the rows of the parts before them (as the
// MPI ranks do), merged in a shuffled order, half of them through bytes.
report by_parts_with_ids(const report_request& q, std::size_t count, std::uint64_t shuffle_seed) {
  std::vector<evaluation_state> states;
  std::uint64_t before = 0;
  for (std::size_t k = 0; k < count; ++k) {
    evaluation_state s = state_of_file_part(q, part_of_file(q, k, count), 4096);
    s.offset_row_ids(before);
    before += s.rows();
    if (k % 2 == 1) s = read_state(s.serialize(), s.options());
    states.push_back(std::move(s));
  }
  std::mt19937_64 g(shuffle_seed);
  std::shuffle(states.begin(), states.end(), g);
  for (std::size_t k = 1; k < states.size(); ++k) states[0].merge(std::move(states[k]));
  return states[0].finish(options_of(q));
}

// Intervals by parts (what `mpirun -n N assay report --ci` does): analytic ones from the merged
// counts, those that resample rows from the kept rows, every interval of class probabilities and of
// regression; with drop_missing the skipped rows have no id. make_report's JSON and text, 1 to 17 parts.
TEST(FileParts, IntervalsAndRegressionByPartsGiveMakeReport) {
  const std::string scores = write_file("ci_scores.csv", 3000, true, 20, 21);
  const std::string proba = temp_path("ci_proba.csv");
  const std::string values = temp_path("ci_values.csv");
  const std::string holes = temp_path("ci_holes.csv");
  {
    std::mt19937_64 g(22);
    std::uniform_int_distribution<int> lvl(0, 5), cls(0, 2);
    std::uniform_real_distribution<double> u(0, 1);
    std::ofstream p(proba), v(values), h(holes);
    p << "y,pb,w,pa,pc\n";
    v << "y,yhat,w\n";
    h << "y,score,w\n";
    for (int i = 0; i < 2500; ++i) {
      const int c = cls(g);
      double x[3];
      for (int k = 0; k < 3; ++k) x[k] = lvl(g) + (k == c ? 3 : 0) + (k == 0 ? 0.5 : 0);
      const double sum = x[0] + x[1] + x[2];
      p << "abc"[c] << ',' << fmt::format("{}", x[1] / sum) << ',' << std::round(u(g) * 4) * 0.5 << ','
        << fmt::format("{}", x[0] / sum) << ',' << fmt::format("{}", x[2] / sum) << '\n';
      const double y = std::round(u(g) * 40) * 0.5 - 5;
      v << fmt::format("{}", y) << ',' << fmt::format("{}", y + std::round((u(g) - 0.5) * 30) * 0.1) << ','
        << std::round(u(g) * 4) * 0.5 << '\n';
      h << (u(g) < 0.3 ? "1" : "0") << ',' << (i % 41 == 7 ? std::string() : fmt::format("{}", std::round(u(g) * 50) / 50))
        << ',' << std::round(u(g) * 4) * 0.5 + 0.5 << '\n';
    }
  }
  std::vector<report_request> requests;
  for (bool weighted : {false, true}) {
    for (ci_method m : {ci_method::automatic, ci_method::bootstrap}) {
      report_request q = request(scores, weighted, true, true);
      q.ci = m;
      requests.push_back(q);
      report_request p;
      p.path = proba;
      p.label = "y";
      p.proba = {"pc", "pa", "pb"};
      if (weighted) p.weight = "w";
      p.ci = m;
      requests.push_back(p);
      report_request v;
      v.path = values;
      v.label = "y";
      v.pred = "yhat";
      v.task = task_kind::regression;
      if (weighted) v.weight = "w";
      v.ci = m;
      requests.push_back(v);
      report_request h = request(holes, weighted, true, false);
      h.csv.drop_missing = true;
      h.ci = m;
      requests.push_back(h);
    }
  }
  for (report_request q : requests) {
    q.ci_level = 0.9;
    q.bootstrap_replicates = 60;
    q.seed = 3;
    const report one = make_report(q);
    ASSERT_TRUE(one.ci_level.has_value());
    for (std::size_t count : {1, 2, 3, 17}) {
      report r = by_parts_with_ids(q, count, count + 5);
      if (q.csv.drop_missing) r.missing = one.missing;  // the CLI sets it from the merged states' count
      EXPECT_EQ(to_json(r), to_json(one)) << q.path << " ci " << int(q.ci) << " weighted " << q.weight.has_value()
                                          << " parts " << count;
      EXPECT_EQ(to_text(r), to_text(one)) << q.path << " parts " << count;
    }
  }
  for (const auto& p : {scores, proba, values, holes}) std::remove(p.c_str());
}

// The columns of `count` parts, joined in file order (half of the parts through their bytes).
io::table joined_parts(const std::string& path, const io::csv_options& csv, const std::vector<io::column_spec>& specs,
                       std::size_t count, std::size_t piece_bytes) {
  std::optional<io::table> all;
  for (std::size_t k = 0; k < count; ++k) {
    io::table t = table_of_file_part(path, csv, specs, part_of_file(path, csv, k, count), piece_bytes);
    if (k % 2 == 1) t = read_table_bytes(serialize_table(t));
    if (!all) all.emplace(std::move(t));
    else append_rows(*all, std::move(t));
  }
  return std::move(*all);
}

void expect_same_columns(const io::table& a, const io::table& b, const std::string& what) {
  EXPECT_EQ(a.source, b.source) << what;
  EXPECT_EQ(a.rows, b.rows) << what;
  EXPECT_EQ(a.missing.rows, b.missing.rows) << what;
  ASSERT_EQ(a.columns.size(), b.columns.size()) << what;
  for (std::size_t c = 0; c < a.columns.size(); ++c) {
    EXPECT_EQ(a.columns[c].name, b.columns[c].name) << what;
    EXPECT_EQ(a.columns[c].type, b.columns[c].type) << what;
    EXPECT_EQ(a.columns[c].levels, b.columns[c].levels) << what << " column " << c;  // first-seen order too
    EXPECT_EQ(a.columns[c].codes, b.columns[c].codes) << what << " column " << c;
    ASSERT_EQ(a.columns[c].numbers.size(), b.columns[c].numbers.size()) << what;
    for (std::size_t i = 0; i < a.columns[c].numbers.size(); ++i) {  // bits (-0.0 too)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(a.columns[c].numbers[i]), std::bit_cast<std::uint64_t>(b.columns[c].numbers[i]))
          << what << " column " << c << " row " << i;
    }
  }
}

// assay compare under MPI: the parts' columns joined in file order are read_table's columns of the
// whole file (labels spelled 1 and 1.0, string labels, CRLF, ties, empty parts, missing cells skipped).
TEST(FileParts, ColumnsOfPartsJoinedAreTheFilesColumns) {
  const std::string distinct = write_file("cols_distinct.csv", 5000, false, 0, 11);
  const std::string ties = write_file("cols_ties.csv", 5000, true, 20, 12);
  const std::string crlf = write_file("cols_crlf.csv", 3000, false, 10, 13, "\r\n");
  const std::vector<io::column_spec> specs{{"y", io::column_type::label, "label"},
                                           {"score", io::column_type::number, "scores"},
                                           {"pred", io::column_type::label, "predictions"},
                                           {"4", io::column_type::label, "predictions"},  // by index, again
                                           {"w", io::column_type::weight, "weight"}};
  for (const std::string& path : {distinct, ties, crlf}) {
    const io::table one = io::read_table(path, specs);
    for (std::size_t count : {1, 2, 3, 7, 17}) {
      expect_same_columns(joined_parts(path, {}, specs, count, 4096), one, fmt::format("{} {} parts", path, count));
    }
  }
  // Empty cells skipped with drop_missing: the same rows and count; the first one's line is the file's.
  const std::string holes = temp_path("cols_holes.csv");
  {
    std::ofstream f(holes);
    f << "y,score\n";
    for (int i = 0; i < 3000; ++i) f << (i % 3 == 0 ? "a" : "b") << ',' << (i % 97 == 5 ? "" : "0.5") << '\n';
  }
  io::csv_options drop;
  drop.drop_missing = true;
  const std::vector<io::column_spec> two{{"y", io::column_type::label, "label"}, {"score", io::column_type::number, "scores"}};
  const io::table one = io::read_table(holes, two, drop);
  for (std::size_t count : {1, 2, 5, 17}) {
    const io::table t = joined_parts(holes, drop, two, count, 4096);
    expect_same_columns(t, one, fmt::format("holes, {} parts", count));
    EXPECT_EQ(t.missing.first_line, one.missing.first_line);
  }
  // Without drop_missing a part refuses its own rows with an empty cell (the whole file's message for one part).
  EXPECT_EQ(message_of([&] { (void)table_of_file_part(holes, {}, two, part_of_file(holes, {}, 0, 1)); }),
            message_of([&] { (void)io::read_table(holes, two); }));
  // More parts than rows: empty parts give the columns without rows; a file without rows is refused
  // with read_table's message when joined.
  const std::string tiny = temp_path("cols_tiny.csv");
  std::ofstream(tiny) << "y,score\n1,0.9\n0,0.2\n";
  expect_same_columns(joined_parts(tiny, {}, two, 17, 4096), io::read_table(tiny, two), "tiny");
  const std::string empty = temp_path("cols_empty.csv");
  std::ofstream(empty) << "y,score\n";
  const io::table none = joined_parts(empty, {}, two, 3, 4096);
  EXPECT_EQ(none.rows, 0u);
  EXPECT_EQ(message_of([&] { check_rows(none); }), message_of([&] { (void)io::read_table(empty, two); }));
  // A column that does not exist: read_table's message, from a part with rows or without.
  const std::vector<io::column_spec> wrong{{"y", io::column_type::label, "label"}, {"nope", io::column_type::number, "scores"}};
  const std::string no_column = message_of([&] { (void)io::read_table(tiny, wrong); });
  EXPECT_NE(no_column.find("nope"), std::string::npos);
  EXPECT_EQ(message_of([&] { (void)table_of_file_part(tiny, {}, wrong, part_of_file(tiny, {}, 0, 1)); }), no_column);
  EXPECT_EQ(message_of([&] { (void)table_of_file_part(tiny, {}, wrong, part_of_file(tiny, {}, 16, 17)); }), no_column);
  for (const auto& p : {distinct, ties, crlf, holes, tiny, empty}) std::remove(p.c_str());
}

// A bad row in a later part names the file's line, as read_table does; bytes that are not a table
// are an error (every truncation, every byte flipped in the structure), never a crash.
TEST(FileParts, ColumnsOfAPartNameTheFilesLineAndBadBytesAreRefused) {
  const std::string path = temp_path("cols_bad.csv");
  {
    std::ofstream f(path);
    f << "y,score\n";
    for (int i = 0; i < 1000; ++i) f << (i % 3 == 0 ? 1 : 0) << ',' << (i == 800 ? "0.7.1" : "0.25") << '\n';
  }
  const std::vector<io::column_spec> specs{{"y", io::column_type::label, "label"}, {"score", io::column_type::number, "scores"}};
  const std::string one = message_of([&] { (void)io::read_table(path, specs); });
  ASSERT_NE(one.find(":802:"), std::string::npos) << one;
  EXPECT_EQ(message_of([&] { (void)table_of_file_part(path, {}, specs, part_of_file(path, {}, 1, 2), 4096); }), one);

  const std::string good = temp_path("cols_good.csv");
  std::ofstream(good) << "y,score\nspam,0.5\nham,0.25\nspam,-0\n";
  const io::table t = table_of_file_part(good, {}, specs, part_of_file(good, {}, 0, 1));
  const std::string bytes = serialize_table(t);
  expect_same_columns(read_table_bytes(bytes), t, "round trip");
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_NE(message_of([&] { (void)read_table_bytes(std::string_view(bytes).substr(0, n)); }), "(no error)") << n;
  }
  // Flipping a byte of the magic, version, counts, types or codes is refused; a flipped byte of a
  // number or a name may read as another table (the bytes are not checksummed), but never crashes.
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::string b = bytes;
    b[i] = static_cast<char>(b[i] ^ 0x40);
    try {
      (void)read_table_bytes(b);
    } catch (const error&) {
    }
  }
  EXPECT_NE(message_of([&] { (void)read_table_bytes(bytes + "x"); }).find("1 bytes after the end"), std::string::npos);
  io::table other = t;
  other.columns[1].name = "s";
  EXPECT_EQ(message_of([&] { append_rows(other, io::table(t)); }),
            "append_rows: column 2 is 's' in the table and 'score' in the rows to append");
  std::remove(path.c_str());
  std::remove(good.c_str());
}

}  // namespace
}  // namespace assay::scale
