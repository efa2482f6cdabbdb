// The input rules of docs/definitions/input.md, as whole-message command-line tests over every
// command that echoes labels or column names (report, curve, compare; detection box files) and
// every output format (text, JSON, CSV, HTML, SVG):
//   - text kept from a file (labels, names of columns read) and every argument must be UTF-8,
//     refused where read with file, line, column and the bytes as \xNN; what passes is written
//     unchanged (JSON parses, HTML/SVG hold the same bytes);
//   - a header name that two columns share is refused when an option uses it;
//   - CR-only (classic Mac OS) files read as the same file with LF line ends.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

using args_t = std::vector<std::string>;
using json = nlohmann::json;

class input_rules : public ::testing::Test {
 protected:
  temp_dir dir;
  cli_result run(const args_t& args) { return run_assay(args, "", dir.path().string()); }
  std::string file(const std::string& name, const std::string& text) {
    (void)dir.file(name, text);
    return name;
  }
  void expect_error(const args_t& args, int code, const std::string& message) {
    const cli_result r = run(args);
    EXPECT_EQ(r.err, message) << show_args(args);
    EXPECT_EQ(r.exit_code, code) << show_args(args);
    EXPECT_EQ(r.out, "") << show_args(args);
    for (const char* out : {"out", "page.html", "plot.svg"}) {
      EXPECT_FALSE(std::filesystem::exists(dir.path() / out)) << show_args(args) << " wrote " << out;
    }
  }
};

// Label "1\xff" on line 4; a prediction "\xfe" on line 3.
const std::string kBadLabel = "label,score,score2,pred\n1,0.9,0.8,1\n0,0.1,0.3,0\n1\xff,0.65,0.4,1\n0,0.4,0.2,0\n";
const std::string kBadPred = "label,score,score2,pred\n1,0.9,0.8,1\n0,0.1,0.3,\xfe\n1,0.65,0.4,1\n0,0.4,0.2,0\n";

TEST_F(input_rules, label_not_utf8_refused_by_every_command_and_format) {
  file("p.csv", kBadLabel);
  const std::string msg =
      ": p.csv:4: column 'label': label \"1\\xff\" is not valid UTF-8 (byte \\xff at offset 1); assay reads text as UTF-8\n";
  for (const char* format : {"text", "json"}) {
    expect_error({"report", "p.csv", "-l", "label", "--pred", "pred", "-f", format}, 3, "assay report" + msg);
    expect_error({"report", "p.csv", "-l", "label", "--score", "score", "-f", format, "--html", "page.html"}, 3,
                 "assay report" + msg);
    expect_error({"compare", "p.csv", "-l", "label", "--score", "score", "--score", "score2", "-f", format, "--html",
                  "page.html"},
                 3, "assay compare" + msg);
    expect_error({"compare", "p.csv", "-l", "label", "--pred", "pred", "--pred", "label", "-f", format}, 3,
                 "assay compare" + msg);
  }
  for (const char* curve : {"roc", "pr", "calibration"}) {
    for (const char* format : {"csv", "json"}) {
      expect_error({"curve", curve, "p.csv", "-l", "label", "--score", "score", "-f", format, "--plot", "plot.svg"}, 3,
                   std::string("assay curve ") + curve + msg);
    }
  }
}

TEST_F(input_rules, predicted_class_not_utf8) {
  file("p.csv", kBadPred);
  const std::string msg =
      ": p.csv:3: column 'pred': label \"\\xfe\" is not valid UTF-8 (byte \\xfe at offset 0); assay reads text as UTF-8\n";
  expect_error({"report", "p.csv", "-l", "label", "--pred", "pred", "-f", "json"}, 3, "assay report" + msg);
  expect_error({"compare", "p.csv", "-l", "label", "--pred", "pred", "--pred", "label", "-f", "json"}, 3,
               "assay compare" + msg);
}

TEST_F(input_rules, column_name_not_utf8_when_read) {
  // Latin-1 "sc\xf6re" (U+00F6 in ISO 8859-1): refused when the column is read (here by index)...
  file("p.csv", "label,sc\xf6re\n1,0.9\n0,0.2\n");
  expect_error({"report", "p.csv", "-l", "label", "--score", "2", "-f", "json"}, 3,
               "assay report: --score: p.csv:1: the name of column 2 \"sc\\xf6re\" is not valid UTF-8 (byte \\xf6 at "
               "offset 2); assay reads text as UTF-8\n");
  expect_error({"curve", "roc", "p.csv", "-l", "label", "--score", "2", "-f", "json"}, 3,
               "assay curve roc: --score: p.csv:1: the name of column 2 \"sc\\xf6re\" is not valid UTF-8 (byte \\xf6 at "
               "offset 2); assay reads text as UTF-8\n");
  // ...and shown as \xNN when a name is not found; a column nobody reads may have any name.
  expect_error({"report", "p.csv", "-l", "label", "--score", "score"}, 2,
               "assay report: --score: p.csv: no column named \"score\" (columns: \"label\", \"sc\\xf6re\")\n");
  file("q.csv", "label,s,n\xf6te\n1,0.9,x\n0,0.2,y\n");
  const cli_result r = run({"report", "q.csv", "-l", "label", "--score", "s", "-f", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["n"], 2);
}

TEST_F(input_rules, argument_not_utf8) {
  file("p.csv", "label,score\n1,0.9\n0,0.2\n");
  expect_error({"report", "p.csv", "-l", "label", "--score", "score", "--pos-label", "\xff"}, 2,
               "assay report: argument 8 \"\\xff\" is not valid UTF-8 (byte \\xff at offset 0); assay reads text as UTF-8\n");
  // A file name reaches the JSON's "source": refused before it is opened.
  expect_error({"compare", "p\xe9.csv", "-l", "label", "--score", "score", "--score", "score", "-f", "json"}, 2,
               "assay compare: argument 2 \"p\\xe9.csv\" is not valid UTF-8 (byte \\xe9 at offset 1); assay reads text as "
               "UTF-8\n");
}

TEST_F(input_rules, valid_utf8_labels_written_unchanged_everywhere) {
  // e-acute, the euro sign and a 4-byte emoji as classes.
  const std::string e = "\xc3\xa9", euro = "\xe2\x82\xac", emoji = "\xf0\x9f\x98\x80";
  file("m.csv", "label,pred\n" + e + "," + e + "\n" + euro + "," + emoji + "\n" + emoji + "," + emoji + "\n" + e + "," +
                    euro + "\n");
  cli_result r = run({"report", "m.csv", "-l", "label", "--pred", "pred", "-f", "json", "--html", "page.html"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["confusion_matrix"]["labels"], (json{e, euro, emoji}));
  const std::string html = read_file(dir.path() / "page.html");
  for (const auto& s : {e, euro, emoji}) EXPECT_NE(html.find(s), std::string::npos) << s;
  r = run({"report", "m.csv", "-l", "label", "--pred", "pred"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(emoji), std::string::npos);
  // Binary text classes in the SVG of a curve.
  file("b.csv", "label,score\n" + e + ",0.9\n" + euro + ",0.2\n" + e + ",0.4\n" + euro + ",0.6\n");
  r = run({"curve", "roc", "b.csv", "-l", "label", "--score", "score", "--pos-label", e, "-f", "json", "--plot",
           "plot.svg", "-o", "out"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(json::accept(read_file(dir.path() / "out")));
}

TEST_F(input_rules, duplicate_header_names_refused_when_used) {
  file("d.csv", "label,score,w,score\n1,0.9,1,0.1\n0,0.2,1,0.8\n1,0.7,1,0.3\n0,0.4,1,0.6\n");
  const std::string ambiguous = "--score: d.csv: column \"score\" is ambiguous: header columns 2 and 4 both have that name\n";
  expect_error({"report", "d.csv", "-l", "label", "--score", "score"}, 2, "assay report: " + ambiguous);
  expect_error({"curve", "roc", "d.csv", "-l", "label", "--score", "score"}, 2, "assay curve roc: " + ambiguous);
  expect_error({"compare", "d.csv", "-l", "label", "--score", "score", "--score", "4"}, 2, "assay compare: " + ambiguous);
  // By index both columns can be read; an unused duplicate is fine.
  cli_result r = run({"compare", "d.csv", "-l", "label", "--score", "2", "--score", "4", "-f", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  file("u.csv", "label,s,x,x\n1,0.9,a,b\n0,0.2,c,d\n");
  r = run({"report", "u.csv", "-l", "label", "--score", "s", "-f", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(input_rules, cr_only_file_reads_as_lf_file) {
  const std::string lf = "label,score\n1,0.9\n0,0.1\n1,0.65\n0,0.35\n1,0.2\n0,0.5\n";
  std::string cr = lf;
  for (auto& c : cr) c = c == '\n' ? '\r' : c;
  file("lf.csv", lf);
  file("cr.csv", cr);
  for (const args_t& tail : {args_t{"-f", "text"}, args_t{"-f", "json"}}) {
    args_t a{"report", "lf.csv", "-l", "label", "--score", "score"}, b{"report", "cr.csv", "-l", "label", "--score", "score"};
    a.insert(a.end(), tail.begin(), tail.end());
    b.insert(b.end(), tail.begin(), tail.end());
    const cli_result ra = run(a), rb = run(b);
    ASSERT_EQ(ra.exit_code, 0) << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << rb.err;
    std::string want = ra.out;
    for (std::size_t p = 0; (p = want.find("lf.csv", p)) != std::string::npos;) want.replace(p, 6, "cr.csv");
    EXPECT_EQ(rb.out, want);
  }
  // Line numbers count each lone CR as a line, as Python's csv module does.
  file("bad.csv", "label,score\r1,0.9\r\r0,zz\r");
  expect_error({"report", "bad.csv", "-l", "label", "--score", "score"}, 3,
               "assay report: bad.csv:4: column 'score': cannot parse \"zz\" as a number\n");
}

}  // namespace
}  // namespace assay::test
