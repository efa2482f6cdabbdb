// PASCAL VOC evaluation (voc_eval); see include/assay/detection/voc.hpp.
#include "assay/detection/voc.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "assay/detection/coco.hpp"
#include "assay/error.hpp"

namespace assay::detection {

double voc_ap(const std::vector<double>& recall, const std::vector<double>& precision, voc_interpolation how) {
  const std::size_t n = recall.size();
  if (precision.size() != n) throw_usage("voc_ap: recall and precision differ in length");
  if (how == voc_interpolation::eleven_point) {
    double ap = 0.0;
    for (int i = 0; i <= 10; ++i) {
      const double t = i * 0.1;  // numpy.arange(0., 1.1, 0.1) computes start + i*step
      bool any = false;
      double p = 0.0;
      for (std::size_t j = 0; j < n; ++j)
        if (recall[j] >= t) {
          p = any ? std::max(p, precision[j]) : precision[j];
          any = true;
        }
      ap = ap + p / 11.0;
    }
    return ap;
  }
  std::vector<double> mrec(n + 2), mpre(n + 2);
  mrec[0] = 0.0;
  mpre[0] = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    mrec[j + 1] = recall[j];
    mpre[j + 1] = precision[j];
  }
  mrec[n + 1] = 1.0;
  mpre[n + 1] = 0.0;
  for (std::size_t i = n + 1; i > 0; --i) mpre[i - 1] = std::max(mpre[i - 1], mpre[i]);
  std::vector<double> terms;
  for (std::size_t i = 0; i + 1 < mrec.size(); ++i)
    if (mrec[i + 1] != mrec[i]) terms.push_back((mrec[i + 1] - mrec[i]) * mpre[i + 1]);
  return numpy_sum(terms.data(), terms.size());
}

voc_result evaluate_voc(const dataset& data, const voc_params& params) {
  const std::size_t K = data.categories.size(), I = data.images.size();
  voc_result res;
  res.params = params;
  res.classes.resize(K);
  // Ground truths by (category, image), in input order.
  std::vector<std::vector<std::size_t>> gt_by(K * I);
  for (std::size_t g = 0; g < data.truths.size(); ++g) {
    const auto& t = data.truths[g];
    gt_by[t.category * I + t.image].push_back(g);
  }
  std::vector<std::vector<std::size_t>> dt_by(K);
  for (std::size_t d = 0; d < data.detections.size(); ++d) dt_by[data.detections[d].category].push_back(d);

  std::vector<char> used(data.truths.size(), 0);
  std::vector<double> aps;
  for (std::size_t k = 0; k < K; ++k) {
    auto& c = res.classes[k];
    for (std::size_t i = 0; i < I; ++i)
      for (std::size_t g : gt_by[k * I + i])
        if (!(data.truths[g].difficult || data.truths[g].crowd)) ++c.npos;
    auto dts = dt_by[k];
    std::stable_sort(dts.begin(), dts.end(),
                     [&](std::size_t a, std::size_t b) { return data.detections[a].score > data.detections[b].score; });
    c.detections = dts.size();
    double tp = 0, fp = 0;
    for (std::size_t d : dts) {
      const auto& det = data.detections[d];
      const box_xyxy bb = to_xyxy(det.box);
      double ovmax = -std::numeric_limits<double>::infinity();
      std::size_t jmax = 0;
      bool any = false;
      for (std::size_t g : gt_by[k * I + det.image]) {
        const double ov = iou(bb, to_xyxy(data.truths[g].box), params.plus_one);
        if (!any || ov > ovmax) {
          ovmax = ov;
          jmax = g;
          any = true;
        }
      }
      if (any && ovmax > params.iou_threshold) {
        const auto& t = data.truths[jmax];
        if (t.difficult || t.crowd) {
          c.tp.push_back(2);  // neither true nor false positive, but still a rank in the curve
        } else if (!used[jmax]) {
          used[jmax] = 1;
          tp += 1;
          c.tp.push_back(1);
        } else {
          fp += 1;
          c.tp.push_back(0);
        }
      } else {
        fp += 1;
        c.tp.push_back(0);
      }
      c.recall.push_back(c.npos ? tp / static_cast<double>(c.npos) : 0.0);
      c.precision.push_back(tp / std::max(tp + fp, std::numeric_limits<double>::epsilon()));
    }
    if (c.npos == 0) {
      c.ap = value::undefined("class has no ground truth that is not difficult");
      continue;
    }
    c.ap = voc_ap(c.recall, c.precision, params.interpolation);
    aps.push_back(c.ap.v);
  }
  if (aps.empty()) res.map = value::undefined("no class has ground truth");
  else res.map = numpy_sum(aps.data(), aps.size()) / static_cast<double>(aps.size());
  return res;
}

}  // namespace assay::detection
