// assay: an object-detection evaluation set (ground-truth boxes and scored detections), read from
// COCO JSON or from CSV.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assay/detection/box.hpp"

namespace assay::detection {

/// A ground-truth object. `image` and `category` index dataset::images / dataset::categories.
struct ground_truth {
  std::size_t image = 0;
  std::size_t category = 0;
  box_xywh box;
  double area = 0;         ///< COCO's "area" field (segment area); w*h when the input has none
  bool crowd = false;      ///< COCO "iscrowd": ignored by COCO, matched with IoU over the detection
  bool difficult = false;  ///< VOC "difficult": ignored by the VOC protocols
  std::int64_t id = 0;     ///< annotation id (COCO); pycocotools treats id 0 as "no match" (see docs)
};

/// A scored detection, in the order it was read (that order breaks ties between equal scores).
struct detection {
  std::size_t image = 0;
  std::size_t category = 0;
  box_xywh box;
  double score = 0;
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
dataset read_coco(const std::string& gt_path, const std::string& dt_path);
/// The same from JSON text in memory (`gt_name`, `dt_name` are used in messages).
dataset parse_coco(const std::string& gt_json, const std::string& dt_json, const std::string& gt_name = "gt.json",
                   const std::string& dt_name = "dt.json");

/// Reads a CSV pair. Ground truth columns: image, class, x, y, w, h and optionally iscrowd,
/// difficult, area. Detections: image, class, x, y, w, h, score. With `xyxy` the four box columns
/// are x1, y1, x2, y2 instead (the header names stay x, y, w, h or may be x1, y1, x2, y2).
dataset read_csv(const std::string& gt_path, const std::string& dt_path, bool xyxy = false);

/// Reads by file extension: *.json as COCO, anything else as CSV.
dataset read_dataset(const std::string& gt_path, const std::string& dt_path, bool xyxy = false);

}  // namespace assay::detection
