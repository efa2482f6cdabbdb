// assay: the COCO detection evaluation (pycocotools' COCOeval for bounding boxes, segmentation masks
// and keypoints), reproduced step by step so that its summary numbers agree with pycocotools to the
// last digit.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "assay/detection/dataset.hpp"
#include "assay/stats/bootstrap.hpp"
#include "assay/value.hpp"

namespace assay::detection {

/// COCOeval's parameters. The defaults are pycocotools' for iouType "bbox" and "segm";
/// coco_params::for_type(iou_type::keypoints) gives its keypoint defaults.
struct coco_params {
  /// What detections are compared by: IoU of boxes, IoU of masks, or OKS of keypoints.
  iou_type type = iou_type::bbox;
  /// OKS: the per-keypoint standard deviations (as fractions of the object scale); for_type gives
  /// COCO's 17 person keypoints' (Ronchi & Perona 2017; cocoapi's defaults divided by 10).
  std::vector<double> kpt_oks_sigmas;
  /// IoU thresholds; default numpy.linspace(0.5, 0.95, 10) (as numpy computes it: 0.5 + i*step).
  std::vector<double> iou_thresholds;
  /// Recall thresholds; default numpy.linspace(0, 1, 101).
  std::vector<double> recall_thresholds;
  std::vector<int> max_dets{1, 10, 100};  ///< ascending; matching uses the last
  /// Area ranges [lo, hi] (inclusive) and their labels; default all, small (< 32^2),
  /// medium (32^2..96^2), large (> 96^2).
  std::vector<std::array<double, 2>> area_ranges{{0, 1e10}, {0, 1024}, {1024, 9216}, {9216, 1e10}};
  std::vector<std::string> area_labels{"all", "small", "medium", "large"};
  coco_params();
  /// pycocotools' Params(iouType): for keypoints, max_dets {20}, area ranges all, medium, large and
  /// the 17 COCO sigmas; for bbox and segm the defaults above.
  static coco_params for_type(iou_type t);
};

/// COCO's 17 person-keypoint sigmas: .26 .25 .25 .35 .35 .79 .79 .72 .72 .62 .62 1.07 1.07 .87 .87
/// .89 .89, each divided by 10 (nose, eyes, ears, shoulders, elbows, wrists, hips, knees, ankles).
std::vector<double> coco_keypoint_sigmas();

/// Object keypoint similarity of a detection's keypoints `d` with a ground truth (keypoints `g`,
/// `area`, `box`), as pycocotools' computeOks: with e_i = (dx_i^2 + dy_i^2) / (2 sigma_i)^2 /
/// (area + 2^-52) / 2, OKS = mean of exp(-e_i) over the ground truth's keypoints with v > 0; a
/// ground truth without any uses all keypoints and measures dx, dy as the distance outside the box
/// enlarged by its width and height on every side. Sums are numpy's (numpy_sum).
[[nodiscard]] double oks(const std::vector<double>& d, const std::vector<double>& g, double area, const box_xywh& box,
                         const std::vector<double>& sigmas);

/// The 12 names of COCOeval.summarize(), in its order (bbox and segm).
inline constexpr std::array<const char*, 12> coco_stat_names{"AP",  "AP50", "AP75", "APs",  "APm",  "APl",
                                                             "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"};
/// The 10 names of COCOeval.summarize() for keypoints (its _summarizeKps), in its order.
inline constexpr std::array<const char*, 10> coco_keypoint_stat_names{"AP", "AP50", "AP75", "APm", "APl",
                                                                      "AR", "AR50", "AR75", "ARm", "ARl"};
/// The summary names of an iou type: coco_stat_names, or coco_keypoint_stat_names for keypoints.
[[nodiscard]] std::span<const char* const> coco_stat_names_of(iou_type t) noexcept;

/// COCOeval's accumulated arrays and summary.
struct coco_result {
  coco_params params;
  std::size_t T = 0, R = 0, K = 0, A = 0, M = 0;
  /// precision[t][r][k][a][m] (C order), -1 where undefined (no ground truth), as in pycocotools.
  std::vector<double> precision;
  /// recall[t][k][a][m], -1 where undefined.
  std::vector<double> recall;
  /// The numbers of summarize() (12; keypoints fill the first 10, coco_stat_names_of(type) names
  /// them); undefined where pycocotools prints -1.
  std::array<value, 12> stats;
  [[nodiscard]] std::size_t stat_count() const noexcept { return params.type == iou_type::keypoints ? 10 : 12; }
  /// Per category: AP over all IoU thresholds (area all, maxDets last), and AP at IoU 0.5 and 0.75.
  std::vector<value> category_ap, category_ap50, category_ap75;
  /// Per category number of non-ignored ground truths and of detections.
  std::vector<std::size_t> category_gt, category_dt;

  [[nodiscard]] double precision_at(std::size_t t, std::size_t r, std::size_t k, std::size_t a, std::size_t m) const {
    return precision[(((t * R + r) * K + k) * A + a) * M + m];
  }
  [[nodiscard]] double recall_at(std::size_t t, std::size_t k, std::size_t a, std::size_t m) const {
    return recall[((t * K + k) * A + a) * M + m];
  }
};

/// Runs COCOeval (evaluate, accumulate, summarize) for params.type: boxes, masks or keypoints.
/// Only the similarity of a detection and a ground truth and the detection's area differ: box IoU,
/// mask IoU (mask_iou, on the runs) or OKS (oks), and the area as dataset.hpp's detection::area.
/// For keypoints a ground truth with num_keypoints 0 is ignored like a crowd region.
///
/// Per image and category, detections are sorted by descending score (stable: input order breaks
/// ties) and cut to max_dets.back(); ground truths that are crowd or outside the area range are
/// "ignored" and sorted last. For each IoU threshold t, each detection in turn takes the unmatched
/// (crowd boxes may be matched many times) ground truth of highest IoU >= t, preferring regular
/// ground truths to ignored ones; a detection matched to an ignored ground truth, or unmatched and
/// outside the area range, is ignored. Across images (in ascending image id) the first maxDet
/// detections of each image are merged by a stable sort on descending score; precision is made
/// monotone from the right and read at the first rank whose recall reaches each recall threshold
/// (0 beyond the largest recall). AP averages that 101-point precision over thresholds and
/// categories with ground truth; AR averages the final recall. Means are numpy's (pairwise sums).
/// Reference: pycocotools.cocoeval.COCOeval (cocodataset/cocoapi), Lin et al. 2014.
coco_result evaluate_coco(const dataset& data, const coco_params& params = {});

/// pycocotools' evaluate() step: the matching of every (category, area range, image), kept so that
/// accumulate() can be re-run on resampled images without matching again (bootstrap_coco).
struct coco_matches {
  coco_params params;
  std::size_t K = 0, I = 0;
  std::vector<std::size_t> category_gt, category_dt;
  /// Per category: its detections over all images (each image's first maxDets.back() by score) in
  /// the order accumulate() ranks them: descending score, then ascending image, then rank within
  /// the image (the stable merge sort of pycocotools over images concatenated in id order).
  struct ranked {
    std::vector<std::uint32_t> image, rank;
    std::vector<double> score;
  };
  std::vector<ranked> dets;  ///< [k]
  /// Per (category, area): flags[(k * A + a)][t * n + j], bit 0 = matched to a ground truth (tp),
  /// bit 1 = ignored; j indexes dets[k].
  std::vector<std::vector<std::uint8_t>> flags;
  /// Per (category, area): (image, number of ground truths not ignored) for images with any.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> regular_gt;
};

/// evaluate(): matches detections to ground truths (see evaluate_coco) for every category, area
/// range and image.
coco_matches match_coco(const dataset& data, const coco_params& params = {});

/// accumulate() and summarize() on matched images, image i counted image_weights[i] times (empty =
/// once each, which is evaluate_coco). A weight w gives exactly the result of w copies of image i
/// placed right after it in image order; weight 0 drops the image. Used by the bootstrap.
coco_result accumulate_coco(const coco_matches& m, std::span<const std::uint32_t> image_weights = {});

/// Percentile bootstrap intervals of the summary numbers (12; keypoints the first 10), resampling
/// images (rows = images in dataset order) and re-accumulating the stored matches; a replicate where a number is undefined
/// (-1 in pycocotools) is dropped for that number. Same seed, same intervals for any thread count.
/// Reference: Efron & Tibshirani (1993), ch. 13; resampling images as the unit of the test set.
std::array<stats::bootstrap_result, 12> bootstrap_coco(const coco_matches& m, const stats::bootstrap_options& opts);

/// numpy's sum of doubles (pairwise summation with 8 accumulators, blocks of 128), so that means
/// agree with numpy.mean to the last bit.
double numpy_sum(const double* x, std::size_t n) noexcept;

}  // namespace assay::detection
