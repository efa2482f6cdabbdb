// The streamed `assay curve roc|pr` output (write_curve: class-sorted runs, parallel pieces, no
// curve arrays) must be byte for byte the text of the document path (make_curve: sweep_scores,
// roc_curve / precision_recall_curve, whole strings), on inputs with ties, -0.0 and +0.0, weights
// (some 0), several models, one class, multiclass, drop_intermediate and partial AUCs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>

#include "assay/curves/curve_report.hpp"
#include "assay/error.hpp"

namespace assay::curves {
namespace {

std::string temp_file(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("assay_stream_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

// y, two scores (one rounded: heavy ties; -0.0 and +0.0 both present), a weight with zeros, and a
// three-class label with probability columns.
std::string make_csv(std::size_t n, std::uint64_t seed, double p_pos) {
  std::mt19937_64 rng(seed);
  std::string s = "y,s,s2,w,c,pa,pb,pc\n";
  const char* classes[] = {"a", "b", "c"};
  for (std::size_t i = 0; i < n; ++i) {
    const int y = std::uniform_real_distribution<double>(0, 1)(rng) < p_pos ? 1 : 0;
    double s1 = std::round((std::normal_distribution<double>(0, 1)(rng) + y) * 8) / 8;
    if (s1 == 0 && rng() % 2) s1 = -0.0;
    const double s2 = std::normal_distribution<double>(0, 1)(rng) * 1e-3 + y * 1e-3;
    const double w = static_cast<double>(rng() % 5) * 0.5;
    const int c = static_cast<int>(rng() % 3);
    double pa = static_cast<double>(rng() % 5) / 10, pb = static_cast<double>(rng() % 5) / 10;
    const double pc = 1 - pa - pb;
    char line[256];
    std::snprintf(line, sizeof line, "%d,%.17g,%.17g,%g,%s,%.17g,%.17g,%.17g\n", y, s1, s2, w + (i == 0 ? 1 : 0),
                  classes[c], pa, pb, pc);
    s += line;
  }
  return s;
}

std::string streamed(const curve_request& q, curve_format f) {
  std::string out;
  write_curve(q, f, [&out](std::string_view piece) { out += piece; });
  return out;
}

void expect_same_text(curve_request q, const std::string& what) {
  const curve_document doc = make_curve(q);
  // Each format is checked on a fresh request (write_curve reads the file again).
  EXPECT_TRUE(streamed(q, curve_format::csv) == doc.csv) << what << " (csv)";
  EXPECT_TRUE(streamed(q, curve_format::json) == doc.json) << what << " (json)";
}

// All kinds of request on one file.
// `variants`: how many of the variants below, from the first.
void check_file(std::size_t n, double p_pos, int variants, std::uint64_t seed = 17) {
  const std::string path = temp_file("p.csv", make_csv(n, seed + n, p_pos));
  for (curve_kind kind : {curve_kind::roc, curve_kind::pr}) {
    for (int variant = 0; variant < variants; ++variant) {
      curve_request q;
      q.kind = kind;
      q.path = path;
      q.label = "y";
      q.pos_label = "1";
      q.scores = {"s", "s2"};
      if (variant == 1) q.weight = "w";
      if (variant == 2) q.drop_intermediate = true;
      if (variant == 3 && p_pos > 0 && p_pos < 1) q.partial_fpr = {0, 0.3}, q.partial_tpr = {0.5, 1};
      if (variant == 4) q.drop_intermediate = true, q.weight = "w";
      expect_same_text(q, "n " + std::to_string(n) + " kind " + std::to_string(static_cast<int>(kind)) + " variant " +
                              std::to_string(variant));
    }
  }
}

// 33000 rows (>= 2^15): the points are formatted in parallel pieces, also when drop_intermediate
// thins them (variant 2: each piece is given the curve's points just outside it). Several seeds, as
// a wrong neighbour at a piece border changes the text only when the border point is collinear.
TEST(CurveStream, SameTextAsTheDocumentPathInParallelPieces) {
  for (std::uint64_t seed : {17, 18, 19, 20}) check_file(33000, 0.3, 3, seed);
}

// Weights, drop_intermediate, partial AUCs, one class, one row.
TEST(CurveStream, SameTextAsTheDocumentPathOnEdgeCases) {
  check_file(300, 0.4, 5);
  check_file(50, 0.0, 5);
  check_file(50, 1.0, 5);
  check_file(1, 1.0, 5);
}

TEST(CurveStream, MulticlassOneVsRestSameText) {
  const std::string path = temp_file("m.csv", make_csv(2000, 5, 0.5));
  for (curve_kind kind : {curve_kind::roc, curve_kind::pr}) {
    curve_request q;
    q.kind = kind;
    q.path = path;
    q.label = "c";
    q.proba = {"pa", "pb", "pc"};
    expect_same_text(q, "multiclass");
  }
}

TEST(CurveStream, OtherKindsAreWrittenWhole) {
  const std::string path = temp_file("o.csv", make_csv(200, 9, 0.4));
  curve_request q;
  q.kind = curve_kind::threshold;
  q.path = path;
  q.label = "y";
  q.scores = {"s"};
  expect_same_text(q, "threshold");
}

TEST(CurveStream, ErrorsAreTheSame) {
  const std::string path = temp_file("e.csv", "y,s\n0,0.5\n1,nan\n");
  curve_request q;
  q.path = path;
  q.label = "y";
  q.scores = {"s"};
  std::string a, b;
  try {
    make_curve(q);
  } catch (const error& e) {
    a = e.what();
  }
  try {
    streamed(q, curve_format::csv);
  } catch (const error& e) {
    b = e.what();
  }
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace assay::curves
