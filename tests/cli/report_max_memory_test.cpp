// assay report --max-memory: the same output as in memory (text and JSON; sliced with --by too), and its
// option errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fmt/format.h>
#include <random>
#include <regex>
#include <signal.h>
#include <thread>
#include <utility>
#include <vector>

#include "cli/run_cli.hpp"

namespace assay::test {
namespace {

TEST(ReportMaxMemory, SameOutputAsInMemory) {
  temp_dir dir;
  std::string text = "y,p,w,pred\n";
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 120000; ++i) {
    const bool pos = u(g) < 0.4;
    text += fmt::format("{},{},{},{}\n", pos ? "1" : "0", std::round((0.7 * u(g) + (pos ? 0.3 : 0)) * 1000) / 1000,
                        std::round(u(g) * 20) * 0.1, u(g) < 0.8 ? (pos ? "1.0" : "0") : "1");
  }
  const std::string path = dir.file("preds.csv", text);
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--score", "p"}, std::vector<std::string>{"--score", "p", "--weight", "w"},
        std::vector<std::string>{"--pred", "pred", "--weight", "w", "--format", "json"},
        std::vector<std::string>{"--score", "p", "--format", "json", "--beta", "2", "--threshold", "0.4"},
        std::vector<std::string>{"--score", "p", "--ci", "--bootstrap-replicates", "300", "--format", "json"},
        std::vector<std::string>{"--pred", "pred", "--ci", "0.9", "--ci-method", "exact"}}) {
    std::vector<std::string> args{"report", path, "--label", "y"};
    args.insert(args.end(), extra.begin(), extra.end());
    const cli_result mem = run_assay(args);
    args.insert(args.end(), {"--max-memory", "1M"});
    const cli_result capped = run_assay(args);
    EXPECT_EQ(mem.exit_code, 0) << mem.err;
    EXPECT_EQ(capped.exit_code, 0) << capped.err;
    EXPECT_EQ(capped.out, mem.out);
    EXPECT_EQ(capped.err, "");
  }
}

TEST(ReportMaxMemory, ClassProbabilitiesSameAsInMemory) {
  // Three classes, probabilities with ties (small integers over their sum), weights; row 40001's
  // probabilities do not sum to 1 (the multiclass AUCs are undefined naming it, in every piece). A 4
  // MiB cap: pieces of 256 KiB (13 of them); the state, held in memory, stays under a quarter of it.
  temp_dir dir;
  std::string text = "y,pb,w,pa,pc\n";
  std::mt19937_64 g(6);
  std::uniform_int_distribution<int> q(0, 9), cls(0, 2);
  std::uniform_real_distribution<double> u(0, 1);
  const char* names[] = {"a", "b", "c"};
  for (int i = 0; i < 60000; ++i) {
    const int c = cls(g);
    double v[3];
    for (int k = 0; k < 3; ++k) v[k] = q(g) + (k == c ? 6 : 0);
    const double sum = v[0] + v[1] + v[2];
    double pa = v[0] / sum;
    if (i == 40000) pa = std::min(1.0, pa + 0.3);
    text += fmt::format("{},{},{},{},{}\n", names[c], v[1] / sum, std::round(u(g) * 20) * 0.1, pa, v[2] / sum);
  }
  const std::string path = dir.file("proba.csv", text);
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--proba", "pa", "pb", "pc"},
        std::vector<std::string>{"--proba", "pc", "pa", "pb", "--weight", "w", "--format", "json"},
        std::vector<std::string>{"--proba", "pa", "pb", "pc", "--weight", "w", "--top-k", "1", "--format", "json"}}) {
    std::vector<std::string> args{"report", path, "--label", "y"};
    args.insert(args.end(), extra.begin(), extra.end());
    const cli_result mem = run_assay(args);
    args.insert(args.end(), {"--max-memory", "4M"});
    const cli_result capped = run_assay(args);
    EXPECT_EQ(mem.exit_code, 0) << mem.err;
    EXPECT_EQ(capped.exit_code, 0) << capped.err;
    EXPECT_EQ(capped.out, mem.out);
    EXPECT_EQ(capped.err, "");
    EXPECT_NE(mem.out.find("data row 40001 sum"), std::string::npos) << mem.out;
  }
  // Intervals of class probabilities: from the rows kept in memory (row_ids), the in-memory report's,
  // weighted or not, any method; a cap too small for the kept rows is an error naming them.
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--ci", "--replicates", "50", "--format", "json"},
        std::vector<std::string>{"--weight", "w", "--ci", "--replicates", "50", "--seed", "3"},
        std::vector<std::string>{"--ci", "--ci-method", "bootstrap", "--replicates", "40", "--format", "json"}}) {
    std::vector<std::string> args{"report", path, "--label", "y", "--proba", "pc", "pa", "pb"};
    args.insert(args.end(), extra.begin(), extra.end());
    const cli_result mem = run_assay(args);
    args.insert(args.end(), {"--max-memory", "48M"});
    const cli_result capped = run_assay(args);
    EXPECT_EQ(mem.exit_code, 0) << mem.err;
    EXPECT_EQ(capped.exit_code, 0) << capped.err;
    EXPECT_EQ(capped.out, mem.out);
    EXPECT_NE(mem.out.find("poisson bootstrap"), std::string::npos);
  }
  cli_result r = run_assay({"report", path, "--label", "y", "--proba", "pa", "pb", "pc", "--ci", "--max-memory", "4M"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("the class probabilities and the rows kept for their intervals (every row) are too many to be "
                       "evaluated within 4096 KiB"), std::string::npos) << r.err;
  // A cap whose quarter the state passes: an error naming the cause, no output.
  r = run_assay({"report", path, "--label", "y", "--proba", "pa", "pb", "pc", "--max-memory", "1M"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("the class probabilities have too many distinct values to be evaluated within 1024 KiB"),
            std::string::npos) << r.err;
}

TEST(ReportMaxMemory, RegressionSameAsInMemory) {
  // --task regression out of core (it was refused): targets and predictions with ties, weights with
  // zeros, text and JSON; with --ci, the rows kept for the intervals within a quarter of the cap.
  temp_dir dir;
  std::string text = "y,yhat,w\n";
  std::mt19937_64 g(7);
  std::normal_distribution<double> z(0, 1);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 120000; ++i) {
    const double y = std::round((10 + 3 * z(g)) * 4) / 4;
    text += fmt::format("{},{},{}\n", y, std::round((y + z(g)) * 8) / 8, std::round(u(g) * 20) * 0.1);
  }
  const std::string path = dir.file("house.csv", text);
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, std::vector<std::string>{"--weight", "w", "--format", "json"},
        std::vector<std::string>{"--ci", "--replicates", "50", "--format", "json"}}) {
    std::vector<std::string> args{"report", path, "--task", "regression", "--label", "y", "--pred", "yhat"};
    args.insert(args.end(), extra.begin(), extra.end());
    const cli_result mem = run_assay(args);
    args.insert(args.end(), {"--max-memory", extra.size() > 2 ? "64M" : "1M"});
    const cli_result capped = run_assay(args);
    EXPECT_EQ(mem.exit_code, 0) << mem.err;
    EXPECT_EQ(capped.exit_code, 0) << capped.err;
    EXPECT_EQ(capped.out, mem.out);
    EXPECT_EQ(capped.err, "");
    EXPECT_NE(mem.out.find("median"), std::string::npos) << mem.out;
  }
}

// --by: the whole file read in pieces into one sliced state (one run per distinct score, class and
// slice); rounded scores and two slices fit a cap 20 times smaller than the file (about 42 MB, 2 MiB).
TEST(ReportMaxMemory, SlicesSameAsInMemory) {
  temp_dir dir;
  std::string text = "id,y,p,w,dev\n";
  std::mt19937_64 g(15);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 1500000; ++i) {
    const bool pos = u(g) < 0.4;
    text += fmt::format("user-{:08},{},{},{},{}\n", i, pos ? "1" : "0",
                        std::round((0.7 * u(g) + (pos ? 0.3 : 0)) * 100) / 100, std::round(u(g) * 20) * 0.1,
                        u(g) < 0.3 ? "web" : "app");
  }
  const std::uint64_t cap = std::uint64_t{2} << 20;
  ASSERT_GE(text.size(), 20 * cap);
  const std::string path = dir.file("preds.csv", text);
  text = std::string();
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--score", "p"},
        std::vector<std::string>{"--score", "p", "--weight", "w", "--format", "json", "--threshold", "0.45"}}) {
    std::vector<std::string> args{"report", path, "--label", "y", "--by", "dev"};
    args.insert(args.end(), extra.begin(), extra.end());
    const cli_result mem = run_assay(args);
    args.insert(args.end(), {"--max-memory", "2M"});
    const cli_result capped = run_assay(args);
    EXPECT_EQ(mem.exit_code, 0) << mem.err;
    EXPECT_EQ(capped.exit_code, 0) << capped.err;
    EXPECT_TRUE(capped.out == mem.out) << "the capped report differs";
    EXPECT_EQ(capped.err, "");
    // The cap is the sliced state's (this path was taken): 2 MiB does not hold a state per user (one
    // slice per row), and the run stops as soon as the states outgrow it.
    args[5] = "id";
    const cli_result small = run_assay(args);
    EXPECT_EQ(small.exit_code, 3) << small.err;
    EXPECT_NE(small.err.find("more than the --max-memory of 2048 KiB"), std::string::npos) << small.err;
  }
}

// Smaller: two slice columns, intervals, weights, --drop-missing and --output, within 8 MiB.
TEST(ReportMaxMemory, SlicesWithIntervalsAndMissingSameAsInMemory) {
  temp_dir dir;
  std::string text = "y,p,w,dev,num\n";
  std::mt19937_64 g(16);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 100000; ++i) {
    const bool pos = u(g) < 0.4;
    std::string w = fmt::format("{}", std::round(u(g) * 20) * 0.1);
    std::string dev = u(g) < 0.3 ? "web" : "app";
    if (u(g) < 0.01) (u(g) < 0.5 ? w : dev).clear();
    text += fmt::format("{},{},{},{},{}\n", pos ? "1" : "0", std::round((0.7 * u(g) + (pos ? 0.3 : 0)) * 50) / 50, w,
                        dev, std::vector<const char*>{"2", "10", "-1"}[g() % 3]);
  }
  const std::string path = dir.file("preds.csv", text);
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--score", "p", "--ci", "--bootstrap-replicates", "100", "--drop-missing"},
        // Weighted intervals resample rows: the state keeps every row (12 bytes and more a row), which 8
        // MiB does not hold here; without intervals it holds the runs alone.
        std::vector<std::string>{"--score", "p", "--weight", "w", "--format", "json", "--drop-missing"}}) {
    std::vector<std::string> args{"report", path, "--label", "y", "--by", "dev", "--by", "num"};
    args.insert(args.end(), extra.begin(), extra.end());
    const cli_result mem = run_assay(args);
    std::vector<std::string> with_html = args;
    with_html.insert(with_html.end(), {"--html", (dir.path() / "mem.html").string()});
    const cli_result mem_html = run_assay(with_html);
    args.insert(args.end(), {"--max-memory", "8M", "--output", (dir.path() / "capped.txt").string(), "--html",
                             (dir.path() / "capped.html").string()});
    const cli_result capped = run_assay(args);
    EXPECT_EQ(mem.exit_code, 0) << mem.err;
    EXPECT_NE(mem.err.find("(an empty cell; --drop-missing)"), std::string::npos) << mem.err;
    EXPECT_EQ(capped.exit_code, 0) << capped.err;
    EXPECT_TRUE(read_file(dir.path() / "capped.txt") == mem.out) << "the capped report differs";
    EXPECT_EQ(capped.err, mem.err);
    // The sliced HTML page (its slices' kept curves from their states) is the in-memory page too.
    EXPECT_EQ(mem_html.exit_code, 0) << mem_html.err;
    EXPECT_TRUE(read_file(dir.path() / "capped.html") == read_file(dir.path() / "mem.html"))
        << "the capped HTML page differs";
  }
}

// A sliced state that outgrows the cap (distinct scores: one run per row) stops the run with a
// message naming --max-memory, the bytes held and why; exit 3, no output, no output file.
TEST(ReportMaxMemory, SlicesThatDoNotFitAreRefused) {
  temp_dir dir;
  std::string text = "y,p,dev\n";
  std::mt19937_64 g(17);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 100000; ++i) text += fmt::format("{},{},{}\n", i % 3 == 0 ? 1 : 0, u(g), i % 2 ? "web" : "app");
  const std::string path = dir.file("distinct.csv", text);
  const std::string out = (dir.path() / "report.txt").string();
  const cli_result r = run_assay({"report", path, "--label", "y", "--score", "p", "--by", "dev", "--max-memory", "1M",
                                  "--output", out});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(out));
  const std::regex message(
      "assay report: " + path + ": the sliced report needs ([0-9]+) KiB after ([0-9]+) rows \\(its state and the "
      "piece being read\\), more than the --max-memory of 1024 KiB: it holds one run per distinct score, true class "
      "and slice \\(2 slices so far\\), and the runs of slices are not spilled to disk; raise --max-memory, round the "
      "scores, or read the file in memory\n");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(r.err, m, message)) << r.err;
  EXPECT_GT(std::stoull(m[1].str()), 1024u);
  EXPECT_GT(std::stoull(m[2].str()), 0u);
  EXPECT_LT(std::stoull(m[2].str()), 100000u);
}

TEST(ReportMaxMemory, OptionErrors) {
  const std::string data = std::string(ASSAY_SOURCE_DIR) + "/examples/data/asah.csv";
  cli_result r = run_assay({"report", data, "--label", "label", "--score", "s100b", "--max-memory", "lots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "assay report: --max-memory: cannot parse \"lots\" as a size (e.g. 256M, 2G, 1048576)\n");
  r = run_assay({"report", data, "--label", "label", "--score", "s100b", "--max-memory", "1M", "--ci",
                  "--ci-method", "bootstrap"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "assay report: --max-memory works with --score, --pred or --proba on a file (not --ci with --weight "
                   "or --ci-method bootstrap but with --proba or --task regression, "
                   "--max-fpr/--min-tpr/--min-precision/--min-recall, or standard input)\n");
  // With --by: what the sliced state of the file does not do.
  const std::string by = "assay report: --max-memory with --by works on a file (not standard input), without "
                         "--max-fpr/--min-tpr/--min-precision/--min-recall\n";
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--max-fpr", "0.1"}}) {
    std::vector<std::string> args{"report", data, "--label", "label", "--score", "s100b", "--by", "gender",
                                  "--max-memory", "1M"};
    args.insert(args.end(), extra.begin(), extra.end());
    r = run_assay(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, by);
  }
  r = run_assay({"report", "-", "--label", "y", "--score", "s", "--by", "g", "--max-memory", "1M"}, "y,s,g\n1,0.5,a\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, by);
}

// A column that does not exist, in each role: capped, the message of the run in memory, which names
// the option (the library marks the parameter; the CLI renders it).
TEST(ReportMaxMemory, AMissingColumnIsNamedByItsOption) {
  const std::string data = std::string(ASSAY_SOURCE_DIR) + "/examples/data/asah.csv";
  const std::string columns =
      ": " + data + ": no column named \"nope\" (columns: \"gos6\", \"outcome\", \"label\", \"gender\", \"age\", "
      "\"wfns\", \"s100b\", \"ndka\")\n";
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases{
      {"--label", {"--label", "nope", "--score", "s100b"}},
      {"--score", {"--label", "label", "--score", "nope"}},
      {"--pred", {"--label", "label", "--pred", "nope"}},
      {"--weight", {"--label", "label", "--score", "s100b", "--weight", "nope"}},
  };
  for (const auto& [option, extra] : cases) {
    std::vector<std::string> args{"report", data};
    args.insert(args.end(), extra.begin(), extra.end());
    const cli_result mem = run_assay(args);
    args.insert(args.end(), {"--max-memory", "1M"});
    const cli_result capped = run_assay(args);
    EXPECT_EQ(mem.exit_code, 2) << option;
    EXPECT_EQ(mem.err, "assay report: " + option + columns);
    EXPECT_EQ(capped.exit_code, 2) << option;
    EXPECT_EQ(capped.err, mem.err);
  }
}

// The spill files leave no trace, however the run ends: a capped report killed (SIGKILL, no chance to
// clean up) in the middle of its passes leaves its temporary directory ($TMPDIR) empty, because each
// file's name is unlinked as soon as it is created.
TEST(ReportMaxMemory, AKilledRunLeavesNoSpillFiles) {
  temp_dir data, spill;
  std::string text = "y,s\n";
  std::mt19937_64 g(8);
  std::uniform_real_distribution<double> u(0, 1);
  // Enough rows that the run lasts long enough to be caught on a loaded machine (200,000 once ended
  // before the first look under parallel load).
  for (int i = 0; i < 1500000; ++i) text += fmt::format("{},{}\n", i % 3 == 0 ? 1 : 0, u(g));
  const std::string path = data.file("preds.csv", text);
  std::vector<std::string> storage{ASSAY_CLI_PATH, "report", path, "--label", "y", "--score", "s", "--max-memory", "1M",
                                   "-f", "json"};
  std::vector<char*> argv;
  for (auto& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_storage{"TMPDIR=" + spill.path().string()};
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).substr(0, 7) != "TMPDIR=") env_storage.emplace_back(*e);
  }
  std::vector<char*> envp;
  for (auto& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, ASSAY_CLI_PATH, &fa, nullptr, argv.data(), envp.data()), 0);
  posix_spawn_file_actions_destroy(&fa);
  // Wait until the run holds spill files open (its descriptors in /proc name the spill directory),
  // each of them already without a name (" (deleted)": O_TMPFILE, or unlinked after mkstemp, whose
  // moment in between a kill must not hit), then kill it there. Named files, never "deleted" while
  // open, keep the loop waiting until the run ends, and the test fails.
  const std::string prefix = spill.path().string() + "/";
  // The number of such files, or 0 while any is still named; a kill waits for the same count 50
  // times in a row (the burst that creates the partitions' files is over).
  auto unnamed_spills = [&] {
    std::error_code ec;
    int count = 0;
    for (const auto& fd : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
      const std::string target = std::filesystem::read_symlink(fd.path(), ec).string();
      if (ec || target.rfind(prefix, 0) != 0) continue;
      if (!target.ends_with(" (deleted)")) return 0;
      ++count;
    }
    return count;
  };
  int status = 0;
  bool finished_before = false, seen = false;
  int last = 0, same = 0;
  for (int k = 0; k < 200000 && !seen && !finished_before; ++k) {
    const int now = unnamed_spills();
    same = now > 0 && now == last ? same + 1 : 0;
    last = now;
    seen = same >= 50;
    if (!seen) {
      finished_before = ::waitpid(pid, &status, WNOHANG) == pid;
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
  if (!finished_before) {
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ASSERT_TRUE(seen) << "the capped run never held only unnamed spill files open (or it ended first)";
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(spill.path())) left.push_back(e.path().filename().string());
  EXPECT_TRUE(left.empty()) << left.size() << " files left, the first " << left.front();
}

}  // namespace
}  // namespace assay::test
