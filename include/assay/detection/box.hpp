// assay: axis-aligned boxes and their intersection over union (IoU), in the two conventions in use.
#pragma once

namespace assay::detection {

/// A box as COCO stores it: top-left corner (x, y), width w and height h (w, h >= 0).
struct box_xywh {
  double x = 0, y = 0, w = 0, h = 0;
};

/// A box as PASCAL VOC stores it: corners (x1, y1) and (x2, y2), x1 <= x2, y1 <= y2.
struct box_xyxy {
  double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
};

/// COCO corners of an xywh box: (x, y, x + w, y + h).
[[nodiscard]] inline box_xyxy to_xyxy(const box_xywh& b) { return {b.x, b.y, b.x + b.w, b.y + b.h}; }
/// xywh of a corner box: (x1, y1, x2 - x1, y2 - y1).
[[nodiscard]] inline box_xywh to_xywh(const box_xyxy& b) { return {b.x1, b.y1, b.x2 - b.x1, b.y2 - b.y1}; }

/// IoU of two xywh boxes as pycocotools computes it (maskApi.c, bbIou), operation for operation:
///   iw = min(a.x + a.w, b.x + b.w) - max(a.x, b.x), ih likewise; 0 when iw <= 0 or ih <= 0;
///   IoU = iw*ih / (a.w*a.h + b.w*b.h - iw*ih).
/// With `b_is_crowd`, the union is replaced by the area of `a` (the detection): a crowd region
/// may cover many objects, so COCO asks only how much of the detection lies inside it.
/// Two empty boxes give 0/0; we return 0 there (pycocotools would give NaN, which never matches).
/// Reference: Lin et al., "Microsoft COCO: Common Objects in Context", ECCV 2014; pycocotools.
[[nodiscard]] double iou(const box_xywh& a, const box_xywh& b, bool b_is_crowd = false) noexcept;

/// IoU of two corner boxes. With `plus_one` (the PASCAL VOC devkit convention, coordinates are
/// inclusive pixel indices) every width and height is x2 - x1 + 1:
///   iw = max(min(a.x2, b.x2) - max(a.x1, b.x1) + 1, 0), ih likewise,
///   IoU = iw*ih / ((a.x2 - a.x1 + 1)(a.y2 - a.y1 + 1) + (b.x2 - b.x1 + 1)(b.y2 - b.y1 + 1) - iw*ih),
/// evaluated in the order of the devkit's voc_eval.py; without it the +1 terms are dropped.
/// A zero union (two empty boxes without plus_one) gives 0.
/// Reference: Everingham et al., "The PASCAL Visual Object Classes (VOC) Challenge", IJCV 2010.
[[nodiscard]] double iou(const box_xyxy& a, const box_xyxy& b, bool plus_one = false) noexcept;

}  // namespace assay::detection
