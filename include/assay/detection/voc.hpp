// assay: the PASCAL VOC detection evaluation (the devkit's voc_eval), with the VOC2007 11-point and
// the VOC2010+ all-point average precision.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "assay/detection/dataset.hpp"
#include "assay/stats/bootstrap.hpp"
#include "assay/value.hpp"

namespace assay::detection {

enum class voc_interpolation {
  eleven_point,  ///< VOC2007: mean over t in {0, 0.1, ..., 1} of max precision at recall >= t
  all_point,     ///< VOC2010+: area under the monotone (right-max) precision envelope
};

struct voc_params {
  voc_interpolation interpolation = voc_interpolation::all_point;
  double iou_threshold = 0.5;  ///< a detection is a true positive when IoU > threshold (strict, as voc_eval.py)
  bool plus_one = true;        ///< the devkit's inclusive-pixel +1 in widths and heights
};

/// One class's result: the ranked precision-recall points and AP.
struct voc_class_result {
  std::size_t npos = 0;          ///< ground truths that are not difficult
  std::size_t detections = 0;
  std::vector<double> recall;    ///< after each ranked detection
  std::vector<double> precision;
  std::vector<char> tp;          ///< per ranked detection: 1 true positive, 0 false positive, 2 matched a difficult box
  value ap;                      ///< undefined when the class has no non-difficult ground truth
};

struct voc_result {
  voc_params params;
  std::vector<voc_class_result> classes;  ///< in dataset::categories order
  value map;                              ///< mean AP over classes whose AP is defined
};

/// VOC average precision of a ranked list (recall ascending, precision per rank), as voc_ap() of the
/// devkit. 11-point: AP = sum over t = i*0.1 (i = 0..10, as numpy.arange computes them) of
/// max{precision[j] : recall[j] >= t} / 11 (0 when none). All-point: with recall padded by 0 and 1
/// and precision by 0 and 0, precision is replaced by its running maximum from the right and AP is
/// the sum of (r[i+1] - r[i]) * p[i+1] over the points where recall changes.
/// Reference: Everingham et al. 2010; VOCdevkit VOCevaldet.m / voc_eval.py.
double voc_ap(const std::vector<double>& recall, const std::vector<double>& precision, voc_interpolation how);

/// Runs voc_eval for every class. Per class, detections are ranked by descending score (stable: input
/// order breaks ties, as MATLAB's sort in VOCevaldet.m); each takes the ground truth of its image
/// with the highest IoU (first on ties), all ground truths of the image and class counted; if the
/// IoU exceeds the threshold it is a true positive when that ground truth is not difficult and not
/// yet matched, a false positive when already matched, and neither when difficult; otherwise a
/// false positive. recall = TP/npos, precision = TP/max(TP+FP, eps). COCO crowd boxes count as
/// difficult. Boxes are converted to corners as (x, y, x + w, y + h).
voc_result evaluate_voc(const dataset& data, const voc_params& params = {});

/// mAP@[.5:.95]: the mean of the mAP at each IoU threshold of the COCO grid 0.50:0.05:0.95
/// (coco_params().iou_thresholds) under the other VOC rules of `params` (its iou_threshold is
/// replaced by each grid value), summed as numpy does. Undefined when no class has ground truth.
value voc_map_range(const dataset& data, const voc_params& params = {});

/// The matching step of voc_eval, kept so that AP can be recomputed on resampled images without
/// matching again (bootstrap_voc).
struct voc_matches {
  voc_params params;
  std::size_t I = 0;
  struct ranked_class {
    std::vector<std::uint32_t> image;  ///< image of each ranked detection
    std::vector<char> tp;              ///< 1 true positive, 0 false positive, 2 matched a difficult box
    std::vector<std::pair<std::uint32_t, std::uint32_t>> npos;  ///< (image, non-difficult ground truths) where > 0
  };
  std::vector<ranked_class> classes;
};

/// Matches every class's ranked detections (see evaluate_voc).
voc_matches match_voc(const dataset& data, const voc_params& params = {});

/// AP per class and mAP from the matches, image i counted image_weights[i] times (empty = once
/// each, which is evaluate_voc). Weight w repeats each of the image's detections w times in place
/// (w adjacent copies in the ranking) and its ground truths w times; weight 0 drops the image.
voc_result accumulate_voc(const voc_matches& m, std::span<const std::uint32_t> image_weights = {});

/// Percentile bootstrap interval of mAP, resampling images and re-accumulating the stored matches.
/// Same seed, same interval for any thread count.
stats::bootstrap_result bootstrap_voc(const voc_matches& m, const stats::bootstrap_options& opts);

}  // namespace assay::detection
