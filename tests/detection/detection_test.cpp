// Detection metrics: hand-computed IoU and AP, replay of the reference numbers written by
// tests/detection/generate_coco.py, properties, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "assay/detection/box.hpp"
#include "assay/detection/coco.hpp"
#include "assay/detection/dataset.hpp"
#include "assay/detection/voc.hpp"
#include "assay/error.hpp"

namespace assay::detection {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(Iou, HandComputed) {
  // Two 10x10 boxes overlapping in a 5x5 square: 25 / (100 + 100 - 25) = 1/7.
  EXPECT_DOUBLE_EQ(iou(box_xywh{0, 0, 10, 10}, box_xywh{5, 5, 10, 10}), 25.0 / 175.0);
  // Against a crowd region the union is the detection's area: 25/100.
  EXPECT_DOUBLE_EQ(iou(box_xywh{0, 0, 10, 10}, box_xywh{5, 5, 10, 10}, true), 0.25);
  EXPECT_EQ(iou(box_xywh{0, 0, 10, 10}, box_xywh{10, 0, 10, 10}), 0.0);  // touching edges
  EXPECT_EQ(iou(box_xywh{0, 0, 10, 10}, box_xywh{0, 0, 10, 10}), 1.0);
  // VOC inclusive pixels: (0,0)-(9,9) is 10x10; with (5,5)-(14,14) the overlap is 5x5.
  EXPECT_DOUBLE_EQ(iou(box_xyxy{0, 0, 9, 9}, box_xyxy{5, 5, 14, 14}, true), 25.0 / 175.0);
  // Without +1 the same corners are 9x9 boxes with a 4x4 overlap: 16 / (81 + 81 - 16).
  EXPECT_DOUBLE_EQ(iou(box_xyxy{0, 0, 9, 9}, box_xyxy{5, 5, 14, 14}, false), 16.0 / 146.0);
  // With +1 touching corner boxes share a column of pixels: 1x10 / (100 + 100 - 10).
  EXPECT_DOUBLE_EQ(iou(box_xyxy{0, 0, 9, 9}, box_xyxy{9, 0, 18, 9}, true), 10.0 / 190.0);
  EXPECT_EQ(iou(box_xywh{0, 0, 0, 0}, box_xywh{0, 0, 0, 0}), 0.0);
}

// One image, one class, three 50x50 objects; detections ranked TP, FP, TP, FP (IoU 1 or 0).
// recall 1/3, 1/3, 2/3, 2/3; precision 1, 1/2, 2/3, 1/2.
dataset small_set() {
  const std::string gt = R"({"images":[{"id":1}],"categories":[{"id":1,"name":"cat"}],"annotations":[
    {"id":1,"image_id":1,"category_id":1,"bbox":[0,0,50,50],"area":2500,"iscrowd":0},
    {"id":2,"image_id":1,"category_id":1,"bbox":[100,0,50,50],"area":2500,"iscrowd":0},
    {"id":3,"image_id":1,"category_id":1,"bbox":[200,0,50,50],"area":2500,"iscrowd":0}]})";
  const std::string dt = R"([
    {"image_id":1,"category_id":1,"bbox":[0,0,50,50],"score":0.9},
    {"image_id":1,"category_id":1,"bbox":[300,300,50,50],"score":0.8},
    {"image_id":1,"category_id":1,"bbox":[100,0,50,50],"score":0.7},
    {"image_id":1,"category_id":1,"bbox":[400,400,50,50],"score":0.6}])";
  return parse_coco(gt, dt);
}

TEST(Voc, HandComputedAp) {
  const dataset d = small_set();
  voc_params p;
  p.interpolation = voc_interpolation::all_point;
  // Envelope 1 on (0, 1/3], 2/3 on (1/3, 2/3], 0 after: 1/3 + 2/9 = 5/9.
  EXPECT_NEAR(evaluate_voc(d, p).map.v, 5.0 / 9.0, 1e-15);
  p.interpolation = voc_interpolation::eleven_point;
  // t = 0, .1, .2, .3 give 1; t = .4, .5, .6 give 2/3; t >= .7 give 0: (4 + 2) / 11.
  EXPECT_NEAR(evaluate_voc(d, p).map.v, 6.0 / 11.0, 1e-15);
  const auto r = evaluate_voc(d, p);
  ASSERT_EQ(r.classes[0].recall.size(), 4u);
  EXPECT_EQ(r.classes[0].npos, 3u);
  EXPECT_DOUBLE_EQ(r.classes[0].precision[2], 2.0 / 3.0);
}

TEST(Voc, ElevenPointGridIsNumpyArange) {
  // numpy.arange(0, 1.1, 0.1)[3] is 0.30000000000000004 > 0.3, so a recall of exactly 0.3 does
  // not reach the t = 0.3 point: only t = 0, 0.1, 0.2 see precision 1.
  EXPECT_NEAR(voc_ap({0.3}, {1.0}, voc_interpolation::eleven_point), 3.0 / 11.0, 1e-15);
  EXPECT_NEAR(voc_ap({0.3}, {1.0}, voc_interpolation::all_point), 0.3, 1e-15);
  EXPECT_EQ(voc_ap({}, {}, voc_interpolation::all_point), 0.0);
}

TEST(Coco, HandComputedSummary) {
  const auto r = evaluate_coco(small_set());
  // Precision envelope 1, 2/3, 2/3, 1/2 at recall 1/3, 1/3, 2/3, 2/3: recall thresholds 0..0.33
  // (34 points) read 1, 0.34..0.66 (33 points) read 2/3, 0.67..1 read 0: (34 + 22) / 101.
  EXPECT_NEAR(r.stats[0].v, 56.0 / 101.0, 1e-15);
  EXPECT_NEAR(r.stats[1].v, 56.0 / 101.0, 1e-15);
  EXPECT_NEAR(r.stats[2].v, 56.0 / 101.0, 1e-15);
  EXPECT_FALSE(r.stats[3].defined());  // no small objects
  EXPECT_NEAR(r.stats[4].v, 56.0 / 101.0, 1e-15);
  EXPECT_FALSE(r.stats[5].defined());
  EXPECT_NEAR(r.stats[6].v, 1.0 / 3.0, 1e-15);  // AR1: the top detection only
  EXPECT_NEAR(r.stats[7].v, 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(r.stats[8].v, 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(r.category_ap[0].v, 56.0 / 101.0, 1e-15);
}

TEST(Coco, CrowdRegionAbsorbsDetections) {
  // A crowd region (ignored) and one object. Detections inside the crowd are neither TP nor FP.
  const std::string gt = R"({"images":[{"id":5}],"categories":[{"id":2}],"annotations":[
    {"id":1,"image_id":5,"category_id":2,"bbox":[0,0,200,200],"area":40000,"iscrowd":1},
    {"id":2,"image_id":5,"category_id":2,"bbox":[300,300,50,50],"area":2500,"iscrowd":0}]})";
  const std::string dt = R"([
    {"image_id":5,"category_id":2,"bbox":[10,10,20,20],"score":0.9},
    {"image_id":5,"category_id":2,"bbox":[50,50,20,20],"score":0.8},
    {"image_id":5,"category_id":2,"bbox":[300,300,50,50],"score":0.7}])";
  const auto r = evaluate_coco(parse_coco(gt, dt));
  EXPECT_DOUBLE_EQ(r.stats[0].v, 1.0);
  EXPECT_DOUBLE_EQ(r.stats[8].v, 1.0);
  // Under VOC the crowd box counts as difficult, but the IoU is the plain one (400/40000 for the
  // first two detections), so they are false positives ranked above the true one: AP = 1 * 1/3.
  EXPECT_DOUBLE_EQ(evaluate_voc(parse_coco(gt, dt)).map.v, 1.0 / 3.0);
}

TEST(Coco, PerfectDetectorScoresOne) {
  const std::string gt = slurp(ASSAY_TEST_DIR "/detection/data/fine_gt.json");
  auto j = nlohmann::json::parse(gt);
  nlohmann::json dt = nlohmann::json::array();
  double s = 0.5;
  for (auto& a : j["annotations"]) {
    if (a["iscrowd"] == 1) continue;
    dt.push_back({{"image_id", a["image_id"]}, {"category_id", a["category_id"]}, {"bbox", a["bbox"]}, {"score", s}});
    s = s * 0.999 + 0.0001;
  }
  const auto d = parse_coco(gt, dt.dump());
  const auto r = evaluate_coco(d);
  for (std::size_t i : {0, 1, 2, 3, 4, 5, 8, 9, 10, 11}) EXPECT_DOUBLE_EQ(r.stats[i].v, 1.0) << coco_stat_names[i];
  voc_params p;
  p.plus_one = false;
  EXPECT_DOUBLE_EQ(evaluate_voc(d, p).map.v, 1.0);
}

class Replay : public ::testing::TestWithParam<std::string> {};

TEST_P(Replay, MatchesReferenceExactly) {
  const auto expected = nlohmann::json::parse(slurp(ASSAY_TEST_DIR "/detection/data/expected.json"));
  const auto& e = expected["cases"][GetParam()];
  const std::string base = std::string(ASSAY_TEST_DIR "/detection/data/") + GetParam();
  const dataset d = read_coco(base + "_gt.json", base + "_dt.json");
  const auto r = evaluate_coco(d);
  for (std::size_t i = 0; i < 12; ++i) {
    const double want = e["coco_stats"][i].get<double>();
    if (want == -1) {
      EXPECT_FALSE(r.stats[i].defined()) << coco_stat_names[i];
    } else {
      // Bit-for-bit: the same operations in the same order as the numpy reference.
      EXPECT_EQ(r.stats[i].v, want) << coco_stat_names[i];
    }
  }
  for (std::size_t k = 0; k < d.categories.size(); ++k) EXPECT_EQ(r.category_ap[k].v, e["coco_category_ap"][k].get<double>());
  for (auto [key, how] : {std::pair{"voc07", voc_interpolation::eleven_point}, std::pair{"voc", voc_interpolation::all_point}}) {
    voc_params p;
    p.interpolation = how;
    const auto v = evaluate_voc(d, p);
    EXPECT_EQ(v.map.v, e[std::string(key) + "_map"].get<double>()) << key;
    std::size_t j = 0;
    for (const auto& c : v.classes)
      if (c.ap.defined()) EXPECT_EQ(c.ap.v, e[std::string(key) + "_ap"][j++].get<double>()) << key;
  }
}

INSTANTIATE_TEST_SUITE_P(Generated, Replay, ::testing::Values("ties", "fine", "few"));

TEST(Coco, ResultOrderDoesNotMatterWithDistinctScores) {
  // Property: with all scores distinct, shuffling the results list changes nothing (ties are the
  // only place where input order matters). Deterministic: fixed seed, exact comparison.
  const std::string base = ASSAY_TEST_DIR "/detection/data/fine";
  dataset d = read_coco(base + "_gt.json", base + "_dt.json");
  for (std::size_t i = 0; i < d.detections.size(); ++i) d.detections[i].score += 1e-9 * static_cast<double>(i);
  const auto a = evaluate_coco(d);
  const auto va = evaluate_voc(d);
  std::mt19937 rng(7);
  std::shuffle(d.detections.begin(), d.detections.end(), rng);
  const auto b = evaluate_coco(d);
  const auto vb = evaluate_voc(d);
  for (std::size_t i = 0; i < 12; ++i) EXPECT_EQ(a.stats[i].v, b.stats[i].v);
  EXPECT_EQ(va.map.v, vb.map.v);
  for (std::size_t i = 0; i < 12; ++i)
    if (a.stats[i].defined()) {
      EXPECT_GE(a.stats[i].v, 0.0);
      EXPECT_LE(a.stats[i].v, 1.0);
    }
}

std::string error_of(const std::string& gt, const std::string& dt) {
  try {
    (void)parse_coco(gt, dt, "gt.json", "dt.json");
  } catch (const assay::error& e) {
    EXPECT_EQ(e.kind(), error_kind::data);
    return e.what();
  }
  return "no error";
}

TEST(BadInput, MessagesNameFileFieldAndValue) {
  const std::string gt = R"({"images":[{"id":1}],"categories":[{"id":1}],"annotations":[
    {"id":1,"image_id":1,"category_id":1,"bbox":[0,0,5,5]}]})";
  EXPECT_NE(error_of(gt, "[{\"image_id\":1,]").find("dt.json: malformed JSON at byte 16: parse error at line 1, column 16"), std::string::npos)
      << error_of(gt, "[{\"image_id\":1,]");
  EXPECT_EQ(error_of(gt, R"([{"image_id":9,"category_id":1,"bbox":[0,0,1,1],"score":1}])"),
            "dt.json: [0]: image_id 9 is not in the ground truth file gt.json");
  EXPECT_EQ(error_of(gt, R"([{"image_id":1,"category_id":4,"bbox":[0,0,1,1],"score":1}])"),
            "dt.json: [0]: category_id 4 is not in the ground truth file gt.json");
  EXPECT_EQ(error_of(gt, R"([{"image_id":1,"category_id":1,"bbox":[0,0,-1,1],"score":1}])"),
            "dt.json: [0]: bbox width is negative (-1)");
  EXPECT_EQ(error_of(gt, R"([{"image_id":1,"category_id":1,"bbox":[0,0,1],"score":1}])"),
            "dt.json: [0]: field 'bbox' must be [x, y, width, height], got [0,0,1]");
  EXPECT_EQ(error_of(gt, R"([{"image_id":1,"category_id":1,"bbox":[0,0,1,1],"score":"high"}])"),
            "dt.json: [0]: field 'score' must be a number, got \"high\"");
  EXPECT_EQ(error_of(R"({"images":[]})", "[]"), "gt.json: missing array 'annotations' (a COCO ground-truth file)");
  EXPECT_EQ(error_of(gt, "{}"), "dt.json: a COCO results file must be a JSON array of detections");
}

TEST(Csv, ReadsAndEvaluatesLikeJson) {
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream g(dir + "/gt.csv");
    g << "image,class,x,y,w,h\n1,cat,0,0,50,50\n1,cat,100,0,50,50\n1,cat,200,0,50,50\n";
    std::ofstream p(dir + "/dt.csv");
    p << "image,class,x,y,w,h,score\n1,cat,0,0,50,50,0.9\n1,cat,300,300,50,50,0.8\n1,cat,100,0,50,50,0.7\n"
         "1,cat,400,400,50,50,0.6\n";
    std::ofstream b(dir + "/bad.csv");
    b << "image,class,x,y,w,h,score\n2,cat,0,0,50,50,0.9\n";
    std::ofstream n(dir + "/neg.csv");
    n << "image,class,x,y,w,h,score\n1,cat,0,0,-50,50,0.9\n";
  }
  const auto d = read_dataset(dir + "/gt.csv", dir + "/dt.csv");
  EXPECT_NEAR(evaluate_coco(d).stats[0].v, 56.0 / 101.0, 1e-15);
  try {
    (void)read_csv(dir + "/gt.csv", dir + "/bad.csv");
    FAIL();
  } catch (const assay::error& e) {
    EXPECT_NE(std::string(e.what()).find("data row 1: image '2' is not in the ground truth file"), std::string::npos);
  }
  try {
    (void)read_csv(dir + "/gt.csv", dir + "/neg.csv");
    FAIL();
  } catch (const assay::error& e) {
    EXPECT_NE(std::string(e.what()).find("data row 1: box width is negative (-50)"), std::string::npos) << e.what();
  }
}

TEST(Csv, ClassesFollowTheClassRulesOfPredictionFiles) {
  // The ground truth writes class 2 as "2" and the detections as "2.0": one class by value, as in a
  // prediction file; numeric classes sort numerically ("10" after "2"), text classes by bytes.
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream g(dir + "/gt_num.csv");
    g << "image,class,x,y,w,h\n1,10,0,0,50,50\n1,2,100,0,50,50\n";
    std::ofstream p(dir + "/dt_num.csv");
    p << "image,class,x,y,w,h,score\n1,2.0,100,0,50,50,0.9\n1,1e1,0,0,50,50,0.8\n";
    std::ofstream gt(dir + "/gt_text.csv");
    gt << "image,class,x,y,w,h\n1,b,0,0,50,50\n1,B,100,0,50,50\n1,10,0,100,50,50\n";
    std::ofstream dt(dir + "/dt_text.csv");
    dt << "image,class,x,y,w,h,score\n1,b,0,0,50,50,0.9\n";
  }
  const auto d = read_csv(dir + "/gt_num.csv", dir + "/dt_num.csv");
  EXPECT_EQ(d.categories, (std::vector<std::string>{"2", "10"}));
  ASSERT_EQ(d.detections.size(), 2u);
  EXPECT_EQ(d.detections[0].category, 0u);  // "2.0" is class "2"
  EXPECT_EQ(d.detections[1].category, 1u);  // "1e1" is class "10"
  EXPECT_NEAR(evaluate_coco(d).stats[0].v, 1.0, 1e-15);  // both boxes found exactly
  const auto t = read_csv(dir + "/gt_text.csv", dir + "/dt_text.csv");
  EXPECT_EQ(t.categories, (std::vector<std::string>{"10", "B", "b"}));  // bytes: digits < upper < lower
}

TEST(NumpySum, MatchesNumpyPairwiseSum) {
  // x_i = 1/(i+1): numpy.sum (1.24.2) gives 5.878030948121444 for n = 200 and 7.485470860550345 for
  // n = 1000, where a running sum gives 5.878030948121446 and 7.485470860550343.
  for (auto [n, want] : {std::pair{200, 5.878030948121444}, std::pair{1000, 7.485470860550345}}) {
    std::vector<double> x;
    for (int i = 0; i < n; ++i) x.push_back(1.0 / (i + 1));
    EXPECT_EQ(numpy_sum(x.data(), x.size()), want) << n;
  }
}

}  // namespace
}  // namespace assay::detection
