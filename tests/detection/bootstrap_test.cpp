// Bootstrap intervals of COCO's 12 numbers and VOC mAP: re-accumulating stored matches with image
// weights must equal evaluating a data set in which the images are really repeated; the identity
// resample gives the point estimate; intervals do not depend on the thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "assay/detection/coco.hpp"
#include "assay/detection/dataset.hpp"
#include "assay/detection/voc.hpp"
#include "assay/stats/bootstrap_many.hpp"

namespace assay::detection {
namespace {

dataset load(const std::string& name) {
  const std::string base = std::string(ASSAY_TEST_DIR "/detection/data/") + name;
  return read_coco(base + "_gt.json", base + "_dt.json");
}

// The data set with image i repeated w[i] times: copies of an image are consecutive in image order,
// and each detection's copies are consecutive in the detection list (as the weighted accumulation
// places them in the ranking).
dataset repeat_images(const dataset& d, const std::vector<std::uint32_t>& w) {
  dataset out;
  out.categories = d.categories;
  out.category_names = d.category_names;
  std::vector<std::size_t> first(d.images.size());
  for (std::size_t i = 0; i < d.images.size(); ++i) {
    first[i] = out.images.size();
    for (std::uint32_t c = 0; c < w[i]; ++c) out.images.push_back(d.images[i] + "#" + std::to_string(c));
  }
  for (const auto& t : d.truths)
    for (std::uint32_t c = 0; c < w[t.image]; ++c) {
      auto x = t;
      x.image = first[t.image] + c;
      out.truths.push_back(x);
    }
  for (const auto& det : d.detections)
    for (std::uint32_t c = 0; c < w[det.image]; ++c) {
      auto x = det;
      x.image = first[det.image] + c;
      out.detections.push_back(x);
    }
  return out;
}

std::vector<std::uint32_t> random_weights(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<std::uint32_t> u(0, 3);
  std::vector<std::uint32_t> w(n);
  for (auto& x : w) x = u(gen);
  return w;
}

void expect_same(const value& a, const value& b) {
  ASSERT_EQ(a.defined(), b.defined());
  if (a.defined()) EXPECT_EQ(a.v, b.v);
}

class WeightedImages : public ::testing::TestWithParam<const char*> {};

TEST_P(WeightedImages, CocoIdentityWeightsGiveTheEvaluation) {
  const auto d = load(GetParam());
  const auto e = evaluate_coco(d);
  const auto m = match_coco(d);
  const std::vector<std::uint32_t> ones(d.images.size(), 1);
  const auto a = accumulate_coco(m, ones);
  EXPECT_EQ(a.precision, e.precision);
  EXPECT_EQ(a.recall, e.recall);
  for (std::size_t i = 0; i < 12; ++i) expect_same(a.stats[i], e.stats[i]);
}

TEST_P(WeightedImages, CocoIntegerWeightsEqualRepeatedImages) {
  const auto d = load(GetParam());
  const auto m = match_coco(d);
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const auto w = random_weights(d.images.size(), seed);
    const auto weighted = accumulate_coco(m, w);
    const auto repeated = evaluate_coco(repeat_images(d, w));
    EXPECT_EQ(weighted.precision, repeated.precision) << "seed " << seed;
    EXPECT_EQ(weighted.recall, repeated.recall) << "seed " << seed;
    for (std::size_t i = 0; i < 12; ++i) expect_same(weighted.stats[i], repeated.stats[i]);
  }
}

TEST_P(WeightedImages, VocIntegerWeightsEqualRepeatedImages) {
  const auto d = load(GetParam());
  for (auto how : {voc_interpolation::eleven_point, voc_interpolation::all_point}) {
    voc_params p;
    p.interpolation = how;
    const auto m = match_voc(d, p);
    const auto e = evaluate_voc(d, p);
    expect_same(accumulate_voc(m, std::vector<std::uint32_t>(d.images.size(), 1)).map, e.map);
    for (unsigned seed = 1; seed <= 5; ++seed) {
      const auto w = random_weights(d.images.size(), seed);
      const auto weighted = accumulate_voc(m, w);
      const auto repeated = evaluate_voc(repeat_images(d, w), p);
      expect_same(weighted.map, repeated.map);
      for (std::size_t k = 0; k < weighted.classes.size(); ++k) {
        EXPECT_EQ(weighted.classes[k].precision, repeated.classes[k].precision);
        EXPECT_EQ(weighted.classes[k].recall, repeated.classes[k].recall);
        expect_same(weighted.classes[k].ap, repeated.classes[k].ap);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Data, WeightedImages, ::testing::Values("fine", "ties", "few"));

TEST(DetectionBootstrap, EstimateIsThePointValueAndThreadsDoNotMatter) {
  const auto d = load("fine");
  const auto m = match_coco(d);
  const auto e = accumulate_coco(m);
  stats::bootstrap_options o;
  o.replicates = 40;
  o.seed = 7;
  o.threads = 1;
  const auto one = bootstrap_coco(m, o);
  o.threads = 3;
  const auto three = bootstrap_coco(m, o);
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(one[i].estimate, e.stats[i].v);
    expect_same(one[i].lower, three[i].lower);
    expect_same(one[i].upper, three[i].upper);
    ASSERT_TRUE(one[i].lower.defined());
    EXPECT_LE(one[i].lower.v, one[i].upper.v);
  }
  const auto vm = match_voc(d);
  o.threads = 1;
  const auto v1 = bootstrap_voc(vm, o);
  o.threads = 2;
  const auto v2 = bootstrap_voc(vm, o);
  EXPECT_EQ(v1.estimate, evaluate_voc(d).map.v);
  expect_same(v1.lower, v2.lower);
  expect_same(v1.upper, v2.upper);
}

TEST(DetectionBootstrap, SameResamplesAsBootstrapCi) {
  // bootstrap_many draws the same rows as bootstrap_ci: the VOC mAP interval computed through
  // bootstrap_ci with the same seed is identical.
  const auto d = load("fine");
  const auto vm = match_voc(d);
  stats::bootstrap_options o;
  o.replicates = 30;
  o.seed = 11;
  const auto many = bootstrap_voc(vm, o);
  const auto single = stats::bootstrap_ci(
      d.images.size(),
      [&](std::span<const std::uint32_t> rows) {
        return accumulate_voc(vm, stats::row_weights(rows, d.images.size())).map.v;
      },
      o);
  expect_same(many.lower, single.lower);
  expect_same(many.upper, single.upper);
}

}  // namespace
}  // namespace assay::detection
