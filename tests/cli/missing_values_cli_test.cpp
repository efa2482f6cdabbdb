// Rows with a missing value (an empty cell in a column that is read; docs/cli.md "Missing values"):
// refused by default with the count and the first one's line and column, skipped and counted with
// --drop-missing. The report with --drop-missing must be the report of the file with those rows
// deleted (a file written here without them, not a number copied from our own output), in memory,
// with --max-memory, by parts (the MPI path on one process), sliced, and for curve and compare.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <array>
#include <map>
#include <random>

#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;
using args_t = std::vector<std::string>;

// Rows with ties, weights with ties, a slice column, and some empty cells in each column; column
// `note` is never read and is empty on many rows (those rows stay).
using row = std::array<std::string, 6>;
const std::array<std::string, 6> kColumns{"y", "p", "w", "k", "pred", "note"};

std::vector<row> make_rows(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<row> rows;
  for (std::size_t i = 0; i < n; ++i) {
    const bool pos = u(g) < 0.4;
    row r{pos ? "yes" : "no", fmt::format("{}", std::round((0.6 * u(g) + (pos ? 0.3 : 0)) * 100) / 100),
          fmt::format("{}", std::round(u(g) * 4) * 0.5), u(g) < 0.5 ? "a" : "b",
          u(g) < 0.7 ? (pos ? "yes" : "no") : "yes", u(g) < 0.3 ? "" : "x"};
    if (u(g) < 0.05) {
      const std::size_t empty = g() % 5;
      r[empty].clear();
      if (u(g) < 0.3) r[(empty + 1) % 5].clear();  // two empty cells on one row: one row
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

// The file's text; with `used`, without the rows that have an empty cell in one of those columns.
std::string text_of(const std::vector<row>& rows, const std::vector<std::string>& used = {}) {
  std::string t = "y,p,w,k,pred,note\n";
  for (const auto& r : rows) {
    bool keep = true;
    for (std::size_t c = 0; c < 6; ++c) {
      if (r[c].empty() && std::find(used.begin(), used.end(), kColumns[c]) != used.end()) keep = false;
    }
    if (keep) t += fmt::format("{},{},{},{},{},{}\n", r[0], r[1], r[2], r[3], r[4], r[5]);
  }
  return t;
}

// The columns an argument list reads.
std::vector<std::string> used_by(const std::vector<std::string>& args) {
  std::vector<std::string> used{"y"};
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "-s" || args[i] == "-p" || args[i] == "-w" || args[i] == "--by") used.push_back(args[i + 1]);
  }
  return used;
}

class missing_values_base : public ::testing::Test {
 public:
  temp_dir dir;
  cli_result run(const args_t& args, const std::map<std::string, std::string>& env = {}) {
    for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
    cli_result r = run_assay(args, "", dir.path().string());
    for (const auto& [k, v] : env) ::unsetenv(k.c_str());
    return r;
  }
  std::string file(const std::string& name, const std::string& text) {
    (void)dir.file(name, text);
    return name;
  }
};
using missing_values = missing_values_base;

TEST_F(missing_values, RefusedWithCountLineAndColumn) {
  file("m.csv", "y,s,w,note\n1,0.8,1,\n0,,1,x\n1,0.4,,x\n,0.6,,x\n1,0.9,2,\n");
  cli_result r = run({"report", "m.csv", "-l", "y", "-s", "s", "-w", "w"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "assay report: m.csv:3: column 's': empty cell; 3 rows have a missing value (an empty cell in a column that "
            "is read), this is the first; fill or remove them, or skip them with --drop-missing\n");
  // One row; an unused column's empty cells do not count.
  r = run({"report", "m.csv", "-l", "y", "-s", "s"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err,
            "assay report: m.csv:3: column 's': empty cell; 2 rows have a missing value (an empty cell in a column that "
            "is read), this is the first; fill or remove them, or skip them with --drop-missing\n");
  file("one.csv", "y,p\nyes,no\n,no\n");
  r = run({"report", "one.csv", "-l", "y", "-p", "p", "--pos-label", "yes"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err,
            "assay report: one.csv:3: column 'y': empty cell; 1 row has a missing value (an empty cell in a column that "
            "is read), this is the first; fill or remove them, or skip them with --drop-missing\n");
  // The same rule and message in curve and compare (their own command name).
  r = run({"curve", "roc", "m.csv", "-l", "y", "-s", "s"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err,
            "assay curve roc: m.csv:3: column 's': empty cell; 2 rows have a missing value (an empty cell in a column "
            "that is read), this is the first; fill or remove them, or skip them with --drop-missing\n");
  file("two.csv", "y,a,b\n1,0.8,0.7\n0,0.1,\n1,0.4,0.6\n0,0.5,0.2\n");
  r = run({"compare", "two.csv", "-l", "y", "-s", "a", "-s", "b"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err,
            "assay compare: two.csv:3: column 'b': empty cell; 1 row has a missing value (an empty cell in a column "
            "that is read), this is the first; fill or remove them, or skip them with --drop-missing\n");
}

TEST_F(missing_values, OtherProblemsComeFirst) {
  // An unparsable number after (or on the same row as) an empty cell is the error: skipping the
  // empty rows would not make the file readable.
  file("bad.csv", "y,s,w\n1,,1\n0,0.3,1\n1,abc,1\n");
  cli_result r = run({"report", "bad.csv", "-l", "y", "-s", "s", "-w", "w", "--drop-missing"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err, "assay report: bad.csv:4: column 's': cannot parse \"abc\" as a number\n");
  file("same_row.csv", "y,s,w\n1,0.2,1\n,0.3,-1\n");
  r = run({"report", "same_row.csv", "-l", "y", "-s", "s", "-w", "w"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.err, "assay report: same_row.csv:3: column 'w': weight \"-1\" is negative (weights must be >= 0)\n");
  // Every row missing: nothing left to evaluate.
  file("all.csv", "y,s\n1,\n,0.2\n");
  for (const args_t& extra : {args_t{}, args_t{"--max-memory", "1M"}}) {
    args_t a{"report", "all.csv", "-l", "y", "-s", "s", "--drop-missing"};
    a.insert(a.end(), extra.begin(), extra.end());
    r = run(a);
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.err,
              "assay report: all.csv: no data rows after the header but rows with a missing value (2 skipped, the first "
              "on line 2)\n");
  }
}

// The report of `with.csv --drop-missing` against the report of the file without the rows that
// have an empty cell in a column the options read; `env` for the by-parts path.
void expect_dropped_equals_deleted(missing_values_base& t, const std::vector<row>& rows, const args_t& extra,
                                   bool capped = false, bool by_parts = false) {
  t.file("without.csv", text_of(rows, used_by(extra)));
  args_t a{"report", "with.csv", "-l", "y", "--pos-label", "yes", "--format", "json", "--drop-missing"};
  args_t b{"report", "without.csv", "-l", "y", "--pos-label", "yes", "--format", "json"};
  a.insert(a.end(), extra.begin(), extra.end());
  b.insert(b.end(), extra.begin(), extra.end());
  if (capped) a.insert(a.end(), {"--max-memory", "1M"});
  const std::string what = fmt::format("{}{}{}", fmt::join(extra, " "), capped ? " --max-memory 1M" : "",
                                       by_parts ? " (by parts)" : "");
  const cli_result ra = t.run(a, by_parts ? std::map<std::string, std::string>{{"ASSAY_REPORT_BY_PARTS", "1"}}
                                          : std::map<std::string, std::string>{});
  const cli_result rb = t.run(b);
  ASSERT_EQ(rb.exit_code, 0) << rb.err;
  ASSERT_EQ(ra.exit_code, 0) << what << ": " << ra.err;
  // The file's name is the one difference (also in each slice's report).
  std::string out = ra.out;
  for (std::size_t at = 0; (at = out.find("\"with.csv\"", at)) != std::string::npos;) out.replace(at, 10, "\"without.csv\"");
  json ja = json::parse(out), jb = json::parse(rb.out);
  json& oa = ja.contains("overall") ? ja["overall"] : ja;
  json& ob = jb.contains("overall") ? jb["overall"] : jb;
  ASSERT_TRUE(oa.contains("missing")) << what;
  EXPECT_FALSE(ob.contains("missing"));
  const auto missing = oa["missing"].get<std::size_t>();
  EXPECT_GT(missing, 0u) << what;
  EXPECT_EQ(ra.err, fmt::format("assay report: skipped {} row{} with a missing value (an empty cell; --drop-missing)\n",
                                missing, missing == 1 ? "" : "s"));
  EXPECT_EQ(oa["n"].get<std::size_t>() + missing, rows.size()) << what;
  oa.erase("missing");
  EXPECT_EQ(ja, jb) << what;
}

TEST_F(missing_values, DroppedEqualsDeleted) {
  const std::vector<row> rows = make_rows(3000, 11);
  file("with.csv", text_of(rows));
  for (const args_t& extra : {args_t{"-s", "p"}, args_t{"-s", "p", "-w", "w", "--ci"},
                              args_t{"-s", "p", "--ci", "--ci-method", "bootstrap", "--replicates", "200"},
                              args_t{"-p", "pred", "-w", "w"}, args_t{"-s", "p", "--by", "k"}}) {
    expect_dropped_equals_deleted(*this, rows, extra);
  }
  // Text: the header says how many were skipped.
  const cli_result r = run({"report", "with.csv", "-l", "y", "-s", "p", "--pos-label", "yes", "--drop-missing"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string kept_text = text_of(rows, {"y", "p"});
  const auto kept = static_cast<std::size_t>(std::count(kept_text.begin(), kept_text.end(), '\n') - 1);
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            fmt::format("assay report: with.csv ({} rows; {} skipped for a missing value)", kept, rows.size() - kept));
}

TEST_F(missing_values, DroppedEqualsDeletedOutOfCoreAndByParts) {
  // Large enough for several pieces under --max-memory 1M (pieces of 64 KiB).
  const std::vector<row> rows = make_rows(60000, 12);
  file("with.csv", text_of(rows));
  for (const args_t& extra : {args_t{"-s", "p", "-w", "w"}, args_t{"-s", "p", "--ci"}, args_t{"-p", "pred", "-w", "w"}}) {
    const bool ci = std::find(extra.begin(), extra.end(), "--ci") != extra.end();  // not by parts yet (MPI)
    expect_dropped_equals_deleted(*this, rows, extra, true, false);
    if (!ci) expect_dropped_equals_deleted(*this, rows, extra, false, true);
    // Refused alike, naming the count and the first row, in pieces too.
    args_t refused{"report", "with.csv", "-l", "y", "--pos-label", "yes"};
    refused.insert(refused.end(), extra.begin(), extra.end());
    const cli_result whole = run(refused);
    EXPECT_EQ(whole.exit_code, 3);
    EXPECT_NE(whole.err.find("fill or remove them, or skip them with --drop-missing"), std::string::npos) << whole.err;
    if (!ci) {
      const cli_result parts = run(refused, {{"ASSAY_REPORT_BY_PARTS", "1"}});
      EXPECT_EQ(parts.exit_code, 3);
      EXPECT_EQ(parts.err, whole.err);
    }
    refused.insert(refused.end(), {"--max-memory", "1M"});
    const cli_result pieces = run(refused);
    EXPECT_EQ(pieces.exit_code, 3);
    EXPECT_EQ(pieces.err, whole.err);
  }
}

TEST_F(missing_values, CurveAndCompare) {
  const std::vector<row> rows = make_rows(2000, 13);
  file("with.csv", text_of(rows));
  file("without.csv", text_of(rows, {"y", "p"}));
  cli_result a = run({"curve", "roc", "with.csv", "-l", "y", "-s", "p", "--pos-label", "yes", "--format", "json",
                      "--drop-missing"});
  cli_result b = run({"curve", "roc", "without.csv", "-l", "y", "-s", "p", "--pos-label", "yes", "--format", "json"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  json ja = json::parse(a.out), jb = json::parse(b.out);
  EXPECT_GT(ja["missing"].get<std::size_t>(), 0u);
  ja.erase("missing");
  ja["source"] = jb["source"];
  EXPECT_EQ(ja, jb);
  file("without.csv", text_of(rows, {"y", "p", "w"}));
  a = run({"compare", "with.csv", "-l", "y", "-s", "p", "-s", "w", "--pos-label", "yes", "--format", "json",
           "--drop-missing"});
  b = run({"compare", "without.csv", "-l", "y", "-s", "p", "-s", "w", "--pos-label", "yes", "--format", "json"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_NE(a.err.find("assay compare: with.csv: skipped "), std::string::npos) << a.err;
  ja = json::parse(a.out);
  jb = json::parse(b.out);
  if (ja.contains("source")) ja["source"] = jb["source"];
  EXPECT_EQ(ja, jb);
}

}  // namespace
}  // namespace assay::test
