// assay: an object-detection evaluation set (ground-truth boxes and scored detections), read from
// COCO JSON or from CSV.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assay/detection/box.hpp"
#include "assay/detection/mask.hpp"

namespace assay::detection {

/// What a detection is compared by (pycocotools' iouType): boxes (IoU of boxes), segmentation masks
/// (IoU of masks) or keypoints (object keypoint similarity, OKS).
enum class iou_type { bbox, segm, keypoints };

/// "bbox", "segm" or "keypoints".
[[nodiscard]] const char* iou_type_name(iou_type t) noexcept;

/// A ground-truth object. `image` and `category` index dataset::images / dataset::categories.
struct ground_truth {
  std::size_t image = 0;
  std::size_t category = 0;
  box_xywh box;
  double area = 0;         ///< COCO's "area" field (segment area); w*h when the input has none
  bool crowd = false;      ///< COCO "iscrowd": ignored by COCO, matched with IoU over the detection
  bool difficult = false;  ///< VOC "difficult": ignored by the VOC protocols
  std::int64_t id = 0;     ///< annotation id (COCO); pycocotools treats id 0 as "no match" (see docs)
  mask segm;               ///< iou_type::segm: the segmentation (polygons rasterised, RLE decoded)
  std::vector<double> keypoints;  ///< iou_type::keypoints: x, y, v per keypoint
  std::size_t num_keypoints = 0;  ///< COCO "num_keypoints" (0 = ignored, as crowd); default the count of v > 0
};

/// A scored detection, in the order it was read (that order breaks ties between equal scores).
struct detection {
  std::size_t image = 0;
  std::size_t category = 0;
  box_xywh box;
  double score = 0;
  /// Area for COCO's area ranges, as pycocotools' loadRes sets it: bbox w*h; segm the mask's pixel
  /// count; keypoints (max x - min x)(max y - min y) over all keypoints, visible or not.
  double area = 0;
  mask segm;                      ///< iou_type::segm
  std::vector<double> keypoints;  ///< iou_type::keypoints: x, y, v per keypoint
};

/// Images and categories are kept in ascending order of their ids (numeric ids numerically, text
/// ids as strings), the order in which pycocotools visits them.
struct dataset {
  std::vector<std::string> images;      ///< image ids as text, ascending
  std::vector<std::string> categories;  ///< category ids as text, ascending
  std::vector<std::string> category_names;  ///< display names ("name" in COCO JSON, else the id)
  std::vector<ground_truth> truths;
  std::vector<detection> detections;
};

/// Reads a COCO ground-truth file (`images`, `annotations`, `categories`) and a COCO results file
/// (a JSON array of {image_id, category_id, bbox: [x, y, w, h], score}). Ground-truth annotations
/// may carry `iscrowd` and `difficult` (0/1) and `area` (default w*h). Throws assay::error naming
/// the file, the element and the value: malformed JSON (with its byte offset), a missing or
/// non-numeric field, a negative width or height, a result whose image_id or category_id is not in
/// the ground truth.
///
/// With `opts.type` segm, annotations and results need `segmentation` instead of `bbox`: RLE
/// {size: [h, w], counts: string (compressed) or array (uncompressed)} or, in the ground truth,
/// polygons [[x0, y0, x1, y1, ...], ...] (rasterised on the image's height and width). Errors: counts
/// that do not sum to h*w, a malformed counts string, a polygon with fewer than 3 points, a mask
/// whose size is not its image's (height, width), an image without a size for polygons.
/// With keypoints, `keypoints` [x, y, v, ...] of length 3 * opts.keypoints on both sides; ground
/// truths also need `bbox` (OKS of an annotation without visible keypoints uses it) and may give
/// `num_keypoints`. Every message names the file, the record and the field.
struct coco_read_options {
  iou_type type = iou_type::bbox;
  std::size_t keypoints = 17;  ///< keypoints per object (iou_type::keypoints)
};
dataset read_coco(const std::string& gt_path, const std::string& dt_path, const coco_read_options& opts = {});
/// The same from JSON text in memory (`gt_name`, `dt_name` are used in messages).
dataset parse_coco(const std::string& gt_json, const std::string& dt_json, const std::string& gt_name = "gt.json",
                   const std::string& dt_name = "dt.json", const coco_read_options& opts = {});

/// Reads a CSV pair. Ground truth columns: image, class, x, y, w, h and optionally iscrowd,
/// difficult, area. Detections: image, class, x, y, w, h, score. With `xyxy` the four box columns
/// are x1, y1, x2, y2 instead (the header names stay x, y, w, h or may be x1, y1, x2, y2).
dataset read_csv(const std::string& gt_path, const std::string& dt_path, bool xyxy = false);

/// Reads by file extension: *.json as COCO, anything else as CSV (boxes only: `opts.type` other
/// than bbox needs COCO JSON).
dataset read_dataset(const std::string& gt_path, const std::string& dt_path, bool xyxy = false,
                     const coco_read_options& opts = {});

}  // namespace assay::detection
