// `assay split`: the fold file partitions the rows, follows the method, and bad input gives a usage
// error naming the argument.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "validation/cli_util.hpp"

namespace assay::test {
namespace {

TEST(SplitCli, StratifiedKFoldOnIris) {
  const auto out = temp_path("iris_folds.csv");
  auto r = run_assay("split " + data_path("iris.csv") +
                     " --target species --method stratified-kfold --folds 5 --seed 1 --shuffle --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  auto rows = parse_csv(read_file(out));
  ASSERT_EQ(rows.size(), 151u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"row", "fold"}));
  std::map<std::pair<std::string, std::size_t>, int> per;  // (fold, class block) -> count
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][0], std::to_string(i - 1));
    per[{rows[i][1], (i - 1) / 50}]++;  // iris is sorted by species, 50 each
  }
  ASSERT_EQ(per.size(), 15u);
  for (auto [k, c] : per) EXPECT_EQ(c, 10) << k.first;
  std::filesystem::remove(out);
}

TEST(SplitCli, HoldoutIsTwoThirdsAndSeedReproducible) {
  auto a = run_assay("split " + data_path("iris.csv") + " --method holdout --seed 3");
  auto b = run_assay("split " + data_path("iris.csv") + " --method holdout --seed 3");
  auto c = run_assay("split " + data_path("iris.csv") + " --method holdout --seed 4");
  ASSERT_EQ(a.code, 0) << a.out;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
  int train = 0, test = 0;
  for (const auto& row : parse_csv(a.out)) {
    train += row[1] == "train";
    test += row[1] == "test";
  }
  EXPECT_EQ(train, 100);
  EXPECT_EQ(test, 50);
}

TEST(SplitCli, GroupsAndBootstrapLayouts) {
  const auto data = temp_path("groups.csv");
  write_file(data, "x,uni,y\n1,A,0\n2,B,1\n3,A,0\n4,C,1\n5,B,0\n6,C,1\n");
  auto r = run_assay("split " + data + " --method logo --group uni");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "row,fold\n0,0\n1,1\n2,0\n3,2\n4,1\n5,2\n");  // groups A, B, C in sorted order
  r = run_assay("split " + data + " --method bootstrap --repeats 2 --seed 9");
  ASSERT_EQ(r.code, 0) << r.out;
  auto rows = parse_csv(r.out);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"row", "split_0", "split_1"}));
  int drawn = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) drawn += std::stoi(rows[i][1]);
  EXPECT_EQ(drawn, 6);
  std::filesystem::remove(data);
}

TEST(SplitCli, BadInputNamesTheProblem) {
  auto r = run_assay("split " + data_path("iris.csv") + " --method lpo -p 5");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("C(150, 5) = 591600030 splits"), std::string::npos) << r.out;
  r = run_assay("split " + data_path("iris.csv") + " --method logo");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("needs --group"), std::string::npos) << r.out;
  r = run_assay("split " + data_path("iris.csv") + " --method kfold --folds 151");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("151 folds but only 150 rows"), std::string::npos) << r.out;
  r = run_assay("split " + data_path("iris.csv") + " --method group-kfold --group nosuch");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("no column named 'nosuch'"), std::string::npos) << r.out;
  r = run_assay("split " + data_path("iris.csv") + " --method stratified-kfold");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("needs --target"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace assay::test
