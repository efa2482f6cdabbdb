// PASCAL VOC evaluation (voc_eval); see include/assay/detection/voc.hpp.
#include "assay/detection/voc.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "assay/detection/coco.hpp"
#include <fmt/format.h>

#include <cmath>

#include "assay/error.hpp"
#include "assay/stats/bootstrap_many.hpp"

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

voc_matches match_voc(const dataset& data, const voc_params& params) {
  const std::size_t K = data.categories.size(), I = data.images.size();
  if (I > std::numeric_limits<std::uint32_t>::max()) throw_usage("evaluate_voc: more than 2^32 - 1 images");
  voc_matches res;
  res.params = params;
  res.I = I;
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
  for (std::size_t k = 0; k < K; ++k) {
    auto& c = res.classes[k];
    for (std::size_t i = 0; i < I; ++i) {
      std::uint32_t npos = 0;
      for (std::size_t g : gt_by[k * I + i])
        if (!(data.truths[g].difficult || data.truths[g].crowd)) ++npos;
      if (npos > 0) c.npos.emplace_back(static_cast<std::uint32_t>(i), npos);
    }
    auto dts = dt_by[k];
    std::stable_sort(dts.begin(), dts.end(),
                     [&](std::size_t a, std::size_t b) { return data.detections[a].score > data.detections[b].score; });
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
      char code = 0;
      if (any && ovmax > params.iou_threshold) {
        const auto& t = data.truths[jmax];
        if (t.difficult || t.crowd) {
          code = 2;  // neither true nor false positive, but still a rank in the curve
        } else if (!used[jmax]) {
          used[jmax] = 1;
          code = 1;
        }
      }
      c.image.push_back(static_cast<std::uint32_t>(det.image));
      c.tp.push_back(code);
    }
  }
  return res;
}

voc_result accumulate_voc(const voc_matches& m, std::span<const std::uint32_t> weights) {
  if (!weights.empty() && weights.size() != m.I)
    throw_usage(fmt::format("accumulate_voc: {} image weights for {} images", weights.size(), m.I));
  auto weight = [&](std::uint32_t i) -> std::uint32_t { return weights.empty() ? 1u : weights[i]; };
  voc_result res;
  res.params = m.params;
  res.classes.resize(m.classes.size());
  std::vector<double> aps;
  for (std::size_t k = 0; k < m.classes.size(); ++k) {
    const auto& mc = m.classes[k];
    auto& c = res.classes[k];
    for (const auto& [img, n] : mc.npos) c.npos += static_cast<std::size_t>(weight(img)) * n;
    double tp = 0, fp = 0;
    for (std::size_t j = 0; j < mc.tp.size(); ++j) {
      const std::uint32_t w = weight(mc.image[j]);
      for (std::uint32_t copy = 0; copy < w; ++copy) {
        if (mc.tp[j] == 1) tp += 1;
        else if (mc.tp[j] == 0) fp += 1;
        c.tp.push_back(mc.tp[j]);
        c.recall.push_back(c.npos ? tp / static_cast<double>(c.npos) : 0.0);
        c.precision.push_back(tp / std::max(tp + fp, std::numeric_limits<double>::epsilon()));
      }
    }
    c.detections = c.tp.size();
    if (c.npos == 0) {
      c.ap = value::undefined("class has no ground truth that is not difficult");
      continue;
    }
    c.ap = voc_ap(c.recall, c.precision, m.params.interpolation);
    aps.push_back(c.ap.v);
  }
  if (aps.empty()) res.map = value::undefined("no class has ground truth");
  else res.map = numpy_sum(aps.data(), aps.size()) / static_cast<double>(aps.size());
  return res;
}

voc_result evaluate_voc(const dataset& data, const voc_params& params) { return accumulate_voc(match_voc(data, params)); }

value voc_map_range(const dataset& data, const voc_params& params) {
  const coco_params grid;
  std::vector<double> maps;
  for (double t : grid.iou_thresholds) {
    auto q = params;
    q.iou_threshold = t;
    const auto x = evaluate_voc(data, q);
    if (x.map.defined()) maps.push_back(x.map.v);
  }
  if (maps.size() != grid.iou_thresholds.size()) return value::undefined("no class has ground truth");
  return numpy_sum(maps.data(), maps.size()) / static_cast<double>(maps.size());
}

stats::bootstrap_result bootstrap_voc(const voc_matches& m, const stats::bootstrap_options& opts) {
  if (m.I == 0) throw_data("bootstrap_voc: no images to resample");
  auto stat = [&](std::span<const std::uint32_t> rows, std::span<double> out) {
    const auto r = accumulate_voc(m, stats::row_weights(rows, m.I));
    out[0] = r.map.defined() ? r.map.v : std::nan("");
  };
  return stats::bootstrap_many(m.I, 1, stat, opts)[0];
}

}  // namespace assay::detection
