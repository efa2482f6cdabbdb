// Box IoU in the COCO and VOC conventions; see include/assay/detection/box.hpp.
#include "assay/detection/box.hpp"

#include <algorithm>
#include <cmath>

namespace assay::detection {

double iou(const box_xywh& a, const box_xywh& b, bool b_is_crowd) noexcept {
  // Same operations, in the same order, as pycocotools' bbIou (a = detection, b = ground truth).
  const double iw = std::fmin(a.w + a.x, b.w + b.x) - std::fmax(a.x, b.x);
  if (iw <= 0) return 0.0;
  const double ih = std::fmin(a.h + a.y, b.h + b.y) - std::fmax(a.y, b.y);
  if (ih <= 0) return 0.0;
  const double inter = iw * ih;
  const double area_a = a.w * a.h;
  const double area_b = b.w * b.h;
  const double uni = b_is_crowd ? area_a : area_a + area_b - inter;
  if (!(uni > 0)) return 0.0;
  return inter / uni;
}

double iou(const box_xyxy& a, const box_xyxy& b, bool plus_one) noexcept {
  const double one = plus_one ? 1.0 : 0.0;
  const double ix1 = std::max(b.x1, a.x1);
  const double iy1 = std::max(b.y1, a.y1);
  const double ix2 = std::min(b.x2, a.x2);
  const double iy2 = std::min(b.y2, a.y2);
  const double iw = std::max(ix2 - ix1 + one, 0.0);
  const double ih = std::max(iy2 - iy1 + one, 0.0);
  const double inter = iw * ih;
  const double uni = (a.x2 - a.x1 + one) * (a.y2 - a.y1 + one) + (b.x2 - b.x1 + one) * (b.y2 - b.y1 + one) - inter;
  if (!(uni > 0)) return 0.0;
  return inter / uni;
}

}  // namespace assay::detection
