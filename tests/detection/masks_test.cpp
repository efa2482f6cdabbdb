// COCO segmentation masks and keypoints: replay of pycocotools' own numbers (written by
// tests/detection/generate_coco_masks.py with the pycocotools version it records), the compressed
// RLE codec (round trips and malformed strings), polygons, mask IoU, and bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "assay/detection/coco.hpp"
#include "assay/detection/dataset.hpp"
#include "assay/detection/mask.hpp"
#include "assay/error.hpp"

namespace assay::detection {
namespace {

const std::string kDir = std::string(ASSAY_TEST_DIR) + "/detection/data/masks/";

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const nlohmann::json& expected() {
  static const nlohmann::json j = nlohmann::json::parse(slurp(kDir + "expected.json"));
  return j;
}

// pycocotools prints -1 where assay's number is undefined; every other number must be equal.
void expect_number(const value& ours, double theirs, const std::string& what) {
  if (theirs == -1) {
    EXPECT_FALSE(ours.defined()) << what;
  } else {
    ASSERT_TRUE(ours.defined()) << what << ": " << ours.reason;
    EXPECT_EQ(ours.v, theirs) << what;
  }
}

void replay(const std::string& name) {
  const auto& e = expected()["cases"][name];
  const iou_type type = e["iou_type"] == "segm" ? iou_type::segm : iou_type::keypoints;
  auto params = coco_params::for_type(type);
  if (e.contains("sigmas")) params.kpt_oks_sigmas = e["sigmas"].get<std::vector<double>>();
  coco_read_options ro;
  ro.type = type;
  ro.keypoints = params.kpt_oks_sigmas.size();
  const dataset d = read_coco(kDir + name + "_gt.json", kDir + name + "_dt.json", ro);
  const coco_result r = evaluate_coco(d, params);
  const auto names = coco_stat_names_of(type);
  ASSERT_EQ(e["stats"].size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) expect_number(r.stats[i], e["stats"][i].get<double>(), names[i]);
  ASSERT_EQ(e["per_category"].size(), r.K);
  for (std::size_t k = 0; k < r.K; ++k) {
    const auto& c = e["per_category"][k];
    expect_number(r.category_ap[k], c["AP"].get<double>(), "AP of category " + d.categories[k]);
    expect_number(r.category_ap50[k], c["AP50"].get<double>(), "AP50 of category " + d.categories[k]);
    expect_number(r.category_ap75[k], c["AP75"].get<double>(), "AP75 of category " + d.categories[k]);
  }
  const auto recall = e["recall"].get<std::vector<double>>();
  ASSERT_EQ(recall.size(), r.recall.size());
  for (std::size_t i = 0; i < recall.size(); ++i) EXPECT_EQ(r.recall[i], recall[i]) << "recall[" << i << "]";
}

TEST(CocoSegm, MatchesPycocotools) {
  replay("segm");
  replay("segm2");
}

TEST(CocoKeypoints, MatchesPycocotools) { replay("kp"); }

TEST(CocoKeypoints, GivenSigmasMatchPycocotools) { replay("kp5"); }

TEST(CocoSegm, PolygonsRasteriseAsPycocotools) {
  for (const auto& c : expected()["polygons"]) {
    const auto polys = c["polygons"].get<std::vector<std::vector<double>>>();
    const mask m = mask_from_polygons(polys, c["h"].get<std::uint32_t>(), c["w"].get<std::uint32_t>(), "test");
    EXPECT_EQ(rle_encode(mask_counts(m)), c["rle"].get<std::string>()) << c["polygons"].dump();
    EXPECT_EQ(m.area, c["area"].get<std::uint64_t>());
  }
}

mask from_rle(const nlohmann::json& r) {
  const auto h = r["size"][0].get<std::uint32_t>(), w = r["size"][1].get<std::uint32_t>();
  return mask_from_counts(rle_decode(r["counts"].get<std::string>(), "test"), h, w, "test");
}

TEST(CocoSegm, MaskIouMatchesPycocotools) {
  for (const auto& c : expected()["iou"]) {
    for (std::size_t i = 0; i < c["dt"].size(); ++i)
      for (std::size_t j = 0; j < c["gt"].size(); ++j)
        EXPECT_EQ(mask_iou(from_rle(c["dt"][i]), from_rle(c["gt"][j]), c["iscrowd"][j].get<int>() != 0),
                  c["iou"][i][j].get<double>());
  }
}

TEST(Rle, HandComputed) {
  // A 3x2 mask with pixels (row 1, col 0) and (row 0..2, col 1) set: counts 1 0, 1 1, 0 3 -> [1, 1, 1, 3].
  const mask m = mask_from_counts({1, 1, 1, 3}, 3, 2, "t");
  EXPECT_EQ(m.area, 4u);
  EXPECT_EQ(m.on, (std::vector<std::uint32_t>{1, 2, 3, 6}));
  // Interior runs of length 0 join their neighbours.
  EXPECT_EQ(mask_from_counts({1, 1, 0, 1, 3}, 3, 2, "t").on, (std::vector<std::uint32_t>{1, 3}));
  // Small counts are single characters 48 + c; from the 4th count on, the difference to count i-2.
  EXPECT_EQ(rle_encode({1, 1, 1, 3}), "1112");
  EXPECT_EQ(rle_decode("1112", "t"), (std::vector<std::uint32_t>{1, 1, 1, 3}));
  // 100 = 3*32 + 4: chunk 4 with "more", then 3: '4' + 32 = 'T', then '3'.
  EXPECT_EQ(rle_encode({100}), "T3");
  EXPECT_EQ(rle_encode({}), "");
  EXPECT_EQ(mask_iou(m, m, false), 1.0);
  const mask one = mask_from_counts({1, 1, 4}, 3, 2, "t");
  EXPECT_EQ(mask_iou(one, m, false), 0.25);
  EXPECT_EQ(mask_iou(one, m, true), 1.0);  // crowd: the whole detection lies inside
  EXPECT_EQ(mask_iou(mask_from_counts({6}, 3, 2, "t"), m, false), 0.0);
}

TEST(Rle, RoundTripsRandomCounts) {
  std::mt19937_64 rng(20261128);
  for (int trial = 0; trial < 5000; ++trial) {
    const int n = static_cast<int>(rng() % 40);
    std::vector<std::uint32_t> c(static_cast<std::size_t>(n));
    const int bits = 1 + static_cast<int>(rng() % 32);
    for (auto& x : c) x = static_cast<std::uint32_t>(rng() >> (64 - bits));
    const std::string s = rle_encode(c);
    for (char ch : s) ASSERT_TRUE(ch >= '0' && ch <= 'o');
    ASSERT_EQ(rle_decode(s, "t"), c);
  }
}

TEST(Rle, MalformedStringsNeverCrash) {
  // Random strings and single-character mutations of valid ones: decoding either throws assay::error
  // naming the source, or gives counts that encode and decode back to themselves and build a mask
  // exactly when they sum to its size.
  std::mt19937_64 rng(7);
  std::size_t errors = 0, ok = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string s;
    if (trial % 2 == 0) {
      const int n = static_cast<int>(rng() % 30);
      for (int i = 0; i < n; ++i) s.push_back(static_cast<char>(rng() % 256));
    } else {
      std::vector<std::uint32_t> c(1 + rng() % 10);
      for (auto& x : c) x = static_cast<std::uint32_t>(rng() % 5000);
      s = rle_encode(c);
      s[rng() % s.size()] = static_cast<char>(rng() % 256);
    }
    try {
      const auto c = rle_decode(s, "fuzz");
      ++ok;
      ASSERT_EQ(rle_decode(rle_encode(c), "again"), c) << s;
      std::uint64_t sum = 0;
      for (auto x : c) sum += x;
      if (sum > 0 && sum < (1u << 20)) {
        const auto h = static_cast<std::uint32_t>(sum);
        (void)mask_from_counts(c, h, 1, "fuzz");
        EXPECT_THROW((void)mask_from_counts(c, h + 1, 1, "fuzz"), error);
      }
    } catch (const error& e) {
      ++errors;
      EXPECT_NE(std::string(e.what()).find("fuzz"), std::string::npos);
    }
  }
  EXPECT_GT(errors, 0u);
  EXPECT_GT(ok, 0u);
}

TEST(Rle, MalformedStringErrors) {
  EXPECT_THROW((void)rle_decode("1 2", "x"), error);     // ' ' is below '0'
  EXPECT_THROW((void)rle_decode("T", "x"), error);       // ends inside a count
  EXPECT_THROW((void)rle_decode("PPPPPPP3", "x"), error);  // more than 32 bits
  EXPECT_THROW((void)rle_decode("O", "x"), error);       // 'O' = 31: the sign bit set, -1 < 0
}

std::string error_of(const std::string& gt, const std::string& dt, iou_type t) {
  coco_read_options ro;
  ro.type = t;
  try {
    (void)parse_coco(gt, dt, "g.json", "d.json", ro);
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

TEST(CocoSegm, BadInputNamesFileRecordAndField) {
  const std::string img = R"({"images":[{"id":1,"height":2,"width":3}],"categories":[{"id":1}],"annotations":[)";
  const std::string ok_dt = R"([{"image_id":1,"category_id":1,"score":1,"segmentation":{"size":[2,3],"counts":[6]}}])";
  auto msg = error_of(img + R"({"id":1,"image_id":1,"category_id":1,"segmentation":{"size":[2,3],"counts":[1,2]}}]})",
                      ok_dt, iou_type::segm);
  EXPECT_NE(msg.find("g.json: annotations[0]: segmentation.counts"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sum to 3"), std::string::npos) << msg;
  msg = error_of(img + R"({"id":1,"image_id":1,"category_id":1,"segmentation":{"size":[2,3],"counts":[1,2.5]}}]})",
                 ok_dt, iou_type::segm);
  EXPECT_NE(msg.find("g.json: annotations[0]: segmentation.counts[1] must be a whole number"), std::string::npos) << msg;
  EXPECT_EQ(error_of(img + R"({"id":1,"image_id":1,"category_id":1,"segmentation":{"size":[2,3],"counts":[1.0,5]}}]})",
                     ok_dt, iou_type::segm),
            "");
  msg = error_of(img + R"({"id":1,"image_id":1,"category_id":1,"segmentation":[[0,0,1,1]]}]})", ok_dt, iou_type::segm);
  EXPECT_NE(msg.find("g.json: annotations[0]: segmentation: polygon 0 has 4 numbers"), std::string::npos) << msg;
  msg = error_of(img + R"({"id":1,"image_id":1,"category_id":1,"segmentation":[[0,0,1,1,2,2],[0,0,9e7,0,0,1]]}]})",
                 ok_dt, iou_type::segm);
  EXPECT_NE(msg.find("g.json: annotations[0]: segmentation: polygon 1 has an outline of"), std::string::npos) << msg;
  msg = error_of(img + R"({"id":1,"image_id":1,"category_id":1,"segmentation":{"size":[3,2],"counts":[6]}}]})", ok_dt,
                 iou_type::segm);
  EXPECT_NE(msg.find("g.json: annotations[0]: segmentation.size is [3, 2] but g.json: images[0] is 2 x 3"),
            std::string::npos)
      << msg;
  msg = error_of(img + "]}", R"([{"image_id":1,"category_id":1,"score":1,"segmentation":{"size":[2,3],"counts":"1:"}}])",
                 iou_type::segm);
  EXPECT_NE(msg.find("d.json: [0]: segmentation.counts"), std::string::npos) << msg;
  msg = error_of(img + "]}", R"([{"image_id":1,"category_id":1,"score":1}])", iou_type::segm);
  EXPECT_NE(msg.find("d.json: [0]: missing field 'segmentation'"), std::string::npos) << msg;
  msg = error_of(img + R"({"id":1,"image_id":1,"category_id":1,"bbox":[0,0,1,1],"keypoints":[1,2,2,3,4]}]})", "[]",
                 iou_type::keypoints);
  EXPECT_NE(msg.find("g.json: annotations[0]: field 'keypoints' must hold 51 numbers"), std::string::npos) << msg;
  const std::string kp(R"({"id":1,"image_id":1,"category_id":1,"bbox":[0,0,1,1],"keypoints":[)");
  std::string k51;
  for (int i = 0; i < 51; ++i) k51 += (i ? "," : "") + std::to_string(i % 3);
  msg = error_of(img + kp + k51 + "]}]}", R"([{"image_id":1,"category_id":1,"score":1,"keypoints":[1,2]}])",
                 iou_type::keypoints);
  EXPECT_NE(msg.find("d.json: [0]: field 'keypoints' must hold 51 numbers"), std::string::npos) << msg;
  EXPECT_EQ(error_of(img + kp + k51 + "]}]}", "[]", iou_type::keypoints), "");
}

}  // namespace
}  // namespace assay::detection
