// `assay report` on bad input: each case asserts the whole standard-error message and the exit code
// (docs/cli.md: 0 ok, 1 internal, 2 usage, 3 data, 4 I/O), and that nothing went to standard output.
#include <gtest/gtest.h>

#include <regex>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

using json = nlohmann::json;
using args_t = std::vector<std::string>;

class report_errors : public ::testing::Test {
 protected:
  temp_dir dir;
  // Runs assay in the temporary directory, so that messages show the short file names.
  cli_result run(const args_t& args, const std::string& stdin_text = "") {
    return run_assay(args, stdin_text, dir.path().string());
  }
  std::string file(const std::string& name, const std::string& text) {
    (void)dir.file(name, text);
    return name;
  }
  // The whole message and the exit code; no output.
  void expect_error(const args_t& args, int code, const std::string& message, const std::string& stdin_text = "") {
    const cli_result r = run(args, stdin_text);
    EXPECT_EQ(r.err, message) << show_args(args);
    EXPECT_EQ(r.exit_code, code) << show_args(args);
    EXPECT_EQ(r.out, "") << show_args(args);
  }
  json run_json(const args_t& args, const std::string& stdin_text = "") {
    const cli_result r = run(args, stdin_text);
    EXPECT_EQ(r.exit_code, 0) << show_args(args) << "\n" << r.err;
    EXPECT_EQ(r.err, "");
    return r.exit_code == 0 ? json::parse(r.out) : json();
  }
};

const std::string kGood = "y,s\n1,0.8\n0,0.3\n1,0.4\n0,0.6\n1,0.9\n";

TEST_F(report_errors, missing_file) {
  expect_error({"report", "missing.csv", "-l", "y", "-s", "s"}, 4,
               "assay report: cannot open 'missing.csv': No such file or directory\n");
}

TEST_F(report_errors, unreadable_file) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: chmod 000 does not stop root from reading the file";
  file("locked.csv", kGood);
  ASSERT_EQ(::chmod((dir.path() / "locked.csv").c_str(), 0), 0);
  expect_error({"report", "locked.csv", "-l", "y", "-s", "s"}, 4,
               "assay report: cannot open 'locked.csv': Permission denied\n");
}

TEST_F(report_errors, empty_file) {
  expect_error({"report", file("empty.csv", ""), "-l", "y", "-s", "s"}, 3,
               "assay report: empty.csv: empty file: expected a header row\n");
}

TEST_F(report_errors, header_only) {
  expect_error({"report", file("header.csv", "y,s\n"), "-l", "y", "-s", "s"}, 3,
               "assay report: header.csv: no data rows after the header\n");
}

TEST_F(report_errors, unknown_column_name) {
  expect_error({"report", file("p.csv", kGood), "-l", "y", "-s", "score"}, 2,
               "assay report: --score: p.csv: no column named \"score\" (columns: \"y\", \"s\")\n");
}

TEST_F(report_errors, column_index_out_of_range) {
  file("p.csv", kGood);
  expect_error({"report", "p.csv", "-l", "1", "-s", "3"}, 2,
               "assay report: --score: p.csv: column index 3 is out of range (the file has 2 columns)\n");
  expect_error({"report", "p.csv", "-l", "0", "-s", "2"}, 2,
               "assay report: --label: p.csv: column index 0 is out of range (the file has 2 columns)\n");
}

TEST_F(report_errors, columns_by_index_equal_columns_by_name) {
  file("p.csv", kGood);
  json by_index = run_json({"report", "p.csv", "-l", "1", "-s", "2", "-f", "json"});
  json by_name = run_json({"report", "p.csv", "-l", "y", "-s", "s", "-f", "json"});
  EXPECT_EQ(by_index, by_name);
  EXPECT_EQ(by_name.at("tp"), 2.0);  // scores 0.8, 0.4, 0.9 of the three positives; 0.5 threshold
  EXPECT_EQ(by_name.at("fp"), 1.0);
}

TEST_F(report_errors, ragged_row) {
  expect_error({"report", file("ragged.csv", "y,s\n1,0.2\n0\n"), "-l", "y", "-s", "s"}, 3,
               "assay report: ragged.csv:3: expected 2 fields as in the header, found 1\n");
}

TEST_F(report_errors, unterminated_quote) {
  expect_error({"report", file("quote.csv", "y,s\n1,\"0.2\n0,0.3\n"), "-l", "y", "-s", "s"}, 3,
               "assay report: quote.csv:2: unterminated quoted field (the quote opened on line 2 is never closed)\n");
}

TEST_F(report_errors, unparsable_numbers) {
  expect_error({"report", file("a.csv", "y,s\n1,0.2\n0,0.7.1\n"), "-l", "y", "-s", "s"}, 3,
               "assay report: a.csv:3: column 's': cannot parse \"0.7.1\" as a number\n");
  expect_error({"report", file("b.csv", "y,s\n1,0.2\n0,1e\n"), "-l", "y", "-s", "s"}, 3,
               "assay report: b.csv:3: column 's': cannot parse \"1e\" as a number\n");
}

TEST_F(report_errors, nan_and_inf_scores) {
  expect_error({"report", file("nan.csv", "y,s\n1,0.2\n0,NaN\n"), "-l", "y", "-s", "s"}, 3,
               "assay report: nan.csv:3: column 's': value \"NaN\" is not a finite number\n");
  expect_error({"report", file("inf.csv", "y,s\n1,-inf\n"), "-l", "y", "-s", "s"}, 3,
               "assay report: inf.csv:2: column 's': value \"-inf\" is not a finite number\n");
  expect_error({"report", file("t.csv", "y,p\n1.5,2\nnan,1\n"), "--task", "regression", "-l", "y", "-p", "p"}, 3,
               "assay report: t.csv:3: column 'y': value \"nan\" is not a finite number\n");
}

TEST_F(report_errors, bad_weights) {
  expect_error({"report", file("w1.csv", "y,s,w\n1,0.2,1\n0,0.3,nan\n"), "-l", "y", "-s", "s", "-w", "w"}, 3,
               "assay report: w1.csv:3: column 'w': value \"nan\" is not a finite number\n");
  expect_error({"report", file("w2.csv", "y,s,w\n1,0.2,-0.5\n"), "-l", "y", "-s", "s", "-w", "w"}, 3,
               "assay report: w2.csv:2: column 'w': weight \"-0.5\" is negative (weights must be >= 0)\n");
  expect_error({"report", file("w3.csv", "y,s,w\n1,0.2,0\n0,0.3,0\n"), "-l", "y", "-s", "s", "-w", "w"}, 3,
               "assay report: w3.csv: every weight is 0: nothing to evaluate\n");
}

TEST_F(report_errors, more_than_two_classes_with_score) {
  expect_error({"report", file("three.csv", "y,s\na,0.2\nb,0.3\nc,0.9\n"), "-l", "y", "-s", "s"}, 2,
               "assay report: three.csv: column 'y' has 3 classes (\"a\", \"b\", \"c\"), but --score makes a binary "
               "task (use --pred or --proba for more than 2 classes)\n");
}

TEST_F(report_errors, one_class_present_is_not_an_error) {
  // Three positives, no negative: 2 predicted positive (0.8, 0.9), 1 negative (0.4).
  file("one.csv", "y,s\n1,0.8\n1,0.4\n1,0.9\n");
  const json j = run_json({"report", "one.csv", "-l", "y", "-s", "s", "-f", "json"});
  EXPECT_EQ(j.at("confusion_matrix").at("labels"), json({"0", "1"}));
  EXPECT_EQ(j.at("confusion_matrix").at("matrix"), json({{0.0, 0.0}, {1.0, 2.0}}));
  EXPECT_EQ(j.at("recall"), 2.0 / 3.0);
  EXPECT_EQ(j.at("precision"), 1.0);
  // Rates that need an actual negative are undefined, with the reason, never a silent 0.
  for (const char* key : {"specificity", "fpr", "matthews_corrcoef"}) {
    EXPECT_TRUE(j.at(key).is_null()) << key;
    EXPECT_TRUE(j.at(std::string(key) + "_undefined").is_string()) << key;
  }
  EXPECT_EQ(j.at("specificity_undefined"), "no actual negatives");
  EXPECT_TRUE(j.at("per_class").at("0").at("recall").is_null());
  ASSERT_TRUE(j.contains("notes"));

  // The text report shows the same as `undefined (reason)`.
  const cli_result r = run({"report", "one.csv", "-l", "y", "-s", "s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n  specificity \\(TNR\\) +undefined \\(no actual negatives\\)\n")))
      << r.out;
  EXPECT_NE(r.out.find("undefined (" + j.at("matthews_corrcoef_undefined").get<std::string>() + ")"),
            std::string::npos);
  EXPECT_NE(r.out.find("note: 1 class has no actual cases"), std::string::npos) << r.out;
}

TEST_F(report_errors, only_negatives_of_a_0_1_task) {
  // No actual positive: the positive class is still 1 (absent), and recall is undefined.
  file("neg.csv", "y,s\n0,0.8\n0,0.3\n");
  const json j = run_json({"report", "neg.csv", "-l", "y", "-s", "s", "-f", "json"});
  EXPECT_EQ(j.at("positive_label"), "1");
  EXPECT_EQ(j.at("confusion_matrix").at("matrix"), json({{1.0, 1.0}, {0.0, 0.0}}));
  EXPECT_TRUE(j.at("recall").is_null());
  EXPECT_EQ(j.at("recall_undefined"), "no actual positives");
  EXPECT_EQ(j.at("fpr"), 0.5);
  EXPECT_EQ(j.at("specificity"), 0.5);
}

TEST_F(report_errors, pos_label_not_found) {
  expect_error({"report", file("p.csv", kGood), "-l", "y", "-s", "s", "--pos-label", "yes"}, 2,
               "assay report: --pos-label: class \"yes\" not found in column 'y' (classes: \"0\", \"1\")\n");
}

TEST_F(report_errors, binary_file_with_nul_bytes) {
  expect_error({"report", file("bin.csv", std::string("y,s\n1,0.2\n\0\x01\x02,0.9\n", 17)), "-l", "y", "-s", "s"}, 3,
               "assay report: bin.csv:3: NUL byte: this looks like a binary file, not delimited text\n");
}

TEST_F(report_errors, line_of_100_megabytes_is_refused) {
  // A record beyond csv_options::max_record_bytes (64 MiB) is refused without reading it whole.
  {
    std::ofstream f(dir.path() / "long.csv", std::ios::binary);
    f << "y,s\n1,0.2\n0,";
    const std::string block(1 << 20, '7');
    for (int i = 0; i < 100; ++i) f << block;
    f << "\n";
  }
  expect_error({"report", "long.csv", "-l", "y", "-s", "s"}, 3,
               "assay report: long.csv:3: record longer than 67108864 bytes: not a delimited text file, or a quote "
               "is never closed\n");
}

TEST_F(report_errors, conflicting_options) {
  file("p.csv", kGood);
  expect_error({"report", "p.csv", "-l", "y", "-s", "s", "-p", "s"}, 2,
               "assay report: --score and --pred are alternatives: give one\n");
  expect_error({"report", "p.csv", "-l", "y", "-s", "s", "--proba", "s", "y"}, 2,
               "assay report: --score and --proba are alternatives: give one\n");
  expect_error({"report", "p.csv", "-l", "y", "-s", "s", "--task", "regression"}, 2,
               "assay report: --task regression needs --pred COL (the predicted value) and no --score or --proba\n");
  expect_error({"report", "p.csv", "-l", "y"}, 2,
               "assay report: give the predictions with --score COL, --pred COL or --proba COL...\n");
}

TEST_F(report_errors, bad_option_values) {
  file("p.csv", kGood);
  expect_error({"report", "p.csv", "-s", "s"}, 2, "assay report: --label is required\n");
  expect_error({"report", "p.csv", "-l", "y", "-s", "s", "-t", "0.5x"}, 2,
               "assay report: --threshold: cannot parse \"0.5x\" as a finite number\n");
  expect_error({"report", "p.csv", "-l", "y", "-s", "s", "--format", "xml"}, 2,
               "assay report: --format: xml not in {text,json}\n");
  expect_error({"report", "p.csv", "-l", "y", "-s", "s", "--top-k", "two"}, 2,
               "assay report: --top-k: \"two\" is not a whole number between 1 and 999999\n");
}

TEST_F(report_errors, text_labels_need_a_positive_class) {
  file("txt.csv", "y,p\nyes,no\nno,no\n");
  expect_error({"report", "txt.csv", "-l", "y", "-p", "p"}, 2,
               "assay report: txt.csv: cannot tell which class is positive among \"no\", \"yes\": name it with "
               "--pos-label (or use --task multiclass)\n");
  const json j = run_json({"report", "txt.csv", "-l", "y", "-p", "p", "--task", "multiclass", "-f", "json"});
  EXPECT_EQ(j.at("task"), "multiclass");
  EXPECT_EQ(j.at("confusion_matrix").at("matrix"), json({{1.0, 0.0}, {1.0, 0.0}}));
}

TEST_F(report_errors, bad_probability_columns_and_labels) {
  file("pr.csv", "y,a,b,c\nx,0.2,0.3,0.5\nz,0.1,0.1,0.8\nw,0.5,0.5,0\n");
  expect_error({"report", "pr.csv", "-l", "y", "--proba", "a", "b"}, 2,
               "assay report: --proba: 2 probability columns for 3 classes (\"w\", \"x\", \"z\"); give one per "
               "class, in sorted class order or named after the classes\n");
  expect_error({"report", file("pr2.csv", "y,a,b\nx,0.2,1.3\n"), "-l", "y", "--proba", "a", "b"}, 3,
               "assay report: pr2.csv:2: column 'b': probability \"1.3\" is outside [0, 1]\n");
  expect_error({"report", file("el.csv", "y,p\nyes,no\n,no\n"), "-l", "y", "-p", "p", "--pos-label", "yes"}, 3,
               "assay report: el.csv:3: column 'y': empty cell; 1 row has a missing value (an empty cell in a column "
               "that is read), this is the first; fill or remove them, or skip them with --drop-missing\n");
  expect_error({"report", "pr.csv", "-l", "y", "--proba", "a", "b", "c", "--delimiter", "ab"}, 2,
               "assay report: --delimiter: \"ab\" is not one character (use 'tab' for a tab)\n");
}

// The class rules of data/predictions.hpp, shared with `assay curve` and `assay compare`: probability
// columns named after some classes but not all (the report used to take them in order, giving class
// "x" the column of class "z"), and a positive class for a multiclass task.
TEST_F(report_errors, rules_shared_with_curve_and_compare) {
  file("named.csv", "y,z,x,other\nx,0.2,0.3,0.5\nz,0.1,0.1,0.8\nw,0.5,0.5,0\n");
  expect_error({"report", "named.csv", "-l", "y", "--proba", "z", "x", "other"}, 2,
               "assay report: --proba: class \"w\" of column 'y' has no probability column (columns: \"z\", \"x\", "
               "\"other\"; name them after the classes or none of them)\n");
  file("three.csv", "y,p\na,a\nb,c\nc,b\n");
  expect_error({"report", "three.csv", "-l", "y", "-p", "p", "--pos-label", "a"}, 2,
               "assay report: --pos-label: column 'y' has 3 classes (\"a\", \"b\", \"c\"); a positive class has no "
               "meaning for a multiclass task: leave --pos-label out\n");
}

TEST_F(report_errors, stdin_as_dash) {
  file("p.csv", kGood);
  json from_file = run_json({"report", "p.csv", "-l", "y", "-s", "s", "-f", "json"});
  json from_stdin = run_json({"report", "-", "-l", "y", "-s", "s", "-f", "json"}, kGood);
  EXPECT_EQ(from_stdin.at("source"), "<stdin>");
  from_file.erase("source");
  from_stdin.erase("source");
  EXPECT_EQ(from_stdin, from_file);
  expect_error({"report", "-", "-l", "y", "-s", "s"}, 3, "assay report: <stdin>: empty file: expected a header row\n");
}

TEST_F(report_errors, bom_crlf_quotes_and_tsv_read_as_the_plain_csv) {
  // The same 5 cases; the label "yes, sick" needs quotes in CSV.
  file("plain.csv", "y,s\n\"yes, sick\",0.8\nno,0.3\n\"yes, sick\",0.4\nno,0.6\n\"yes, sick\",0.9\n");
  file("fancy.csv",
       "\xEF\xBB\xBF\"y\",s\r\n\"yes, sick\",0.8\r\n\r\nno,\"0.3\"\r\n"
       "\"yes, sick\",0.4\r\nno,0.6\r\n\"yes, sick\",0.9");
  file("tabs.tsv", "y\ts\nyes, sick\t0.8\nno\t0.3\nyes, sick\t0.4\nno\t0.6\nyes, sick\t0.9\n");
  const args_t rest{"-l", "y", "-s", "s", "--pos-label", "yes, sick", "-f", "json"};
  auto report_of = [&](const std::string& name) {
    args_t a{"report", name};
    a.insert(a.end(), rest.begin(), rest.end());
    json j = run_json(a);
    j.erase("source");
    return j;
  };
  const json plain = report_of("plain.csv");
  EXPECT_EQ(plain.at("confusion_matrix").at("labels"), json({"no", "yes, sick"}));
  EXPECT_EQ(plain.at("tp"), 2.0);
  EXPECT_EQ(report_of("fancy.csv"), plain);
  EXPECT_EQ(report_of("tabs.tsv"), plain);
}

TEST_F(report_errors, numeric_labels_sort_as_numbers_text_labels_as_bytes) {
  file("num.csv", "y,p\n10,2\n2,2\n1,10\n10,10\n");
  const json n = run_json({"report", "num.csv", "-l", "y", "-p", "p", "-f", "json"});
  EXPECT_EQ(n.at("task"), "multiclass");
  EXPECT_EQ(n.at("confusion_matrix").at("labels"), json({"1", "2", "10"}));
  EXPECT_EQ(n.at("confusion_matrix").at("matrix"), json({{0.0, 0.0, 1.0}, {0.0, 1.0, 0.0}, {0.0, 1.0, 1.0}}));
  file("text.csv", "y,p\nb,B\nB,a\na,b\n");
  const json t = run_json({"report", "text.csv", "-l", "y", "-p", "p", "-f", "json"});
  EXPECT_EQ(t.at("confusion_matrix").at("labels"), json({"B", "a", "b"}));
}

TEST_F(report_errors, output_to_unwritable_path_leaves_no_file) {
  file("p.csv", kGood);
  expect_error({"report", "p.csv", "-l", "y", "-s", "s", "-o", "no/such/dir/out.txt"}, 4,
               "assay report: cannot write 'no/such/dir/out.txt': No such file or directory\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "no"));
  // A directory in the way: the rename fails; neither the target nor the temporary file remain.
  std::filesystem::create_directory(dir.path() / "taken");
  const cli_result r = run({"report", "p.csv", "-l", "y", "-s", "s", "-o", "taken"});
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(r.err.rfind("assay report: cannot write 'taken': ", 0), 0u) << r.err;
  EXPECT_TRUE(std::filesystem::is_directory(dir.path() / "taken"));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path() / "taken"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "taken.assay-tmp"));
}

TEST_F(report_errors, output_is_written_whole_or_not_at_all) {
  file("p.csv", kGood);
  file("bad.csv", "y,s\n1,0.2\n0,zero\n");
  const auto out = dir.path() / "report.json";
  // Success: the file holds exactly what standard output would, and no temporary file is left.
  const cli_result to_stdout = run({"report", "p.csv", "-l", "y", "-s", "s", "-f", "json"});
  const cli_result to_file = run({"report", "p.csv", "-l", "y", "-s", "s", "-f", "json", "-o", "report.json"});
  ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
  EXPECT_EQ(to_file.out, "");
  EXPECT_EQ(read_file(out), to_stdout.out);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "report.json.assay-tmp"));
  // Failure: an existing report is left as it was, not truncated.
  expect_error({"report", "bad.csv", "-l", "y", "-s", "s", "-o", "report.json"}, 3,
               "assay report: bad.csv:3: column 's': cannot parse \"zero\" as a number\n");
  EXPECT_EQ(read_file(out), to_stdout.out);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "report.json.assay-tmp"));
}

}  // namespace
}  // namespace assay::test
