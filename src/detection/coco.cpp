// COCOeval for bounding boxes; see include/assay/detection/coco.hpp for the procedure.
#include "assay/detection/coco.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include "assay/error.hpp"

namespace assay::detection {

double numpy_sum(const double* x, std::size_t n) noexcept {
  // numpy's pairwise_sum for doubles (numpy/core/src/umath/loops_utils.h): a plain loop below 8
  // elements, 8 interleaved accumulators up to 128, halves (rounded down to a multiple of 8) above.
  if (n < 8) {
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i) s += x[i];
    return s;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = x[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] += x[i + j];
    double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) s += x[i];
    return s;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return numpy_sum(x, n2) + numpy_sum(x + n2, n - n2);
}

coco_params::coco_params() {
  // numpy.linspace(start, stop, num): y = i * ((stop - start) / (num - 1)) + start, last = stop.
  const double step_t = (0.95 - 0.5) / 9.0;
  for (int i = 0; i < 10; ++i) iou_thresholds.push_back(i == 9 ? 0.95 : i * step_t + 0.5);
  const double step_r = (1.0 - 0.0) / 100.0;
  for (int i = 0; i < 101; ++i) recall_thresholds.push_back(i == 100 ? 1.0 : i * step_r + 0.0);
}

namespace {

// evaluateImg's output for one (category, area range, image).
struct image_eval {
  std::size_t image = 0;
  std::vector<double> scores;      // D, sorted descending
  std::vector<double> dt_area;     // D
  std::vector<char> matched;       // T x D: matched to a ground truth with nonzero id
  std::vector<char> dt_ignore;     // T x D
  std::size_t gt_regular = 0;      // ground truths not ignored
};

std::vector<std::size_t> stable_order_by_score(const std::vector<detection>& dts, std::vector<std::size_t> idx) {
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return dts[a].score > dts[b].score; });
  return idx;
}

double mean_of_defined(const std::vector<double>& s, bool& any) {
  std::vector<double> kept;
  kept.reserve(s.size());
  for (double v : s)
    if (v > -1) kept.push_back(v);
  any = !kept.empty();
  if (!any) return -1;
  return numpy_sum(kept.data(), kept.size()) / static_cast<double>(kept.size());
}

}  // namespace

coco_result evaluate_coco(const dataset& data, const coco_params& params) {
  const std::size_t T = params.iou_thresholds.size(), R = params.recall_thresholds.size();
  const std::size_t K = data.categories.size(), A = params.area_ranges.size(), M = params.max_dets.size();
  const std::size_t I = data.images.size();
  if (T == 0 || R == 0 || M == 0 || A == 0) throw_usage("evaluate_coco: empty IoU, recall, maxDets or area parameters");
  if (params.area_labels.size() != A) throw_usage("evaluate_coco: area_labels and area_ranges differ in length");
  if (!std::is_sorted(params.max_dets.begin(), params.max_dets.end()) || params.max_dets.front() < 0)
    throw_usage("evaluate_coco: max_dets must be ascending and >= 0");
  const std::size_t max_det = static_cast<std::size_t>(params.max_dets.back());

  // Group ground truths and detections by (category, image), keeping input order within a group.
  auto group = [&](auto const& items) {
    std::vector<std::size_t> order(items.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (items[a].category != items[b].category) return items[a].category < items[b].category;
      return items[a].image < items[b].image;
    });
    std::vector<std::size_t> start(K * I + 1, 0);
    for (auto& it : items) ++start[it.category * I + it.image + 1];
    for (std::size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
    return std::pair{order, start};
  };
  const auto [gt_order, gt_start] = group(data.truths);
  const auto [dt_order, dt_start] = group(data.detections);

  coco_result res;
  res.params = params;
  res.T = T, res.R = R, res.K = K, res.A = A, res.M = M;
  res.precision.assign(T * R * K * A * M, -1.0);
  res.recall.assign(T * K * A * M, -1.0);
  res.category_gt.assign(K, 0);
  res.category_dt.assign(K, 0);

  std::vector<std::vector<image_eval>> evals(A);  // per area range, for the current category
  std::vector<double> ious;
  std::vector<std::size_t> gt_sorted;
  std::vector<char> gt_ignore, gt_matched;
  for (std::size_t k = 0; k < K; ++k) {
    for (auto& e : evals) e.clear();
    for (std::size_t i = 0; i < I; ++i) {
      const std::size_t cell = k * I + i;
      std::vector<std::size_t> gts(gt_order.begin() + static_cast<std::ptrdiff_t>(gt_start[cell]),
                                   gt_order.begin() + static_cast<std::ptrdiff_t>(gt_start[cell + 1]));
      std::vector<std::size_t> dts(dt_order.begin() + static_cast<std::ptrdiff_t>(dt_start[cell]),
                                   dt_order.begin() + static_cast<std::ptrdiff_t>(dt_start[cell + 1]));
      if (gts.empty() && dts.empty()) continue;
      for (std::size_t g : gts)
        if (!data.truths[g].crowd) ++res.category_gt[k];
      res.category_dt[k] += dts.size();
      dts = stable_order_by_score(data.detections, std::move(dts));
      if (dts.size() > max_det) dts.resize(max_det);
      const std::size_t D = dts.size(), G = gts.size();
      std::vector<double> iou0(D * G);  // detections x ground truths in input order
      for (std::size_t d = 0; d < D; ++d)
        for (std::size_t g = 0; g < G; ++g) {
          const auto& t = data.truths[gts[g]];
          iou0[d * G + g] = iou(data.detections[dts[d]].box, t.box, t.crowd);
        }
      for (std::size_t a = 0; a < A; ++a) {
        const double lo = params.area_ranges[a][0], hi = params.area_ranges[a][1];
        // Ground truths: ignored (crowd or outside the area range) last, stable.
        gt_sorted.clear();
        gt_ignore.clear();
        for (int pass = 0; pass < 2; ++pass)
          for (std::size_t g = 0; g < G; ++g) {
            const auto& t = data.truths[gts[g]];
            const bool ig = t.crowd || t.area < lo || t.area > hi;
            if (ig == (pass == 1)) {
              gt_sorted.push_back(g);
              gt_ignore.push_back(ig ? 1 : 0);
            }
          }
        ious.resize(D * G);
        for (std::size_t d = 0; d < D; ++d)
          for (std::size_t g = 0; g < G; ++g) ious[d * G + g] = iou0[d * G + gt_sorted[g]];
        image_eval e;
        e.image = i;
        e.scores.resize(D);
        e.dt_area.resize(D);
        for (std::size_t d = 0; d < D; ++d) {
          const auto& b = data.detections[dts[d]].box;
          e.scores[d] = data.detections[dts[d]].score;
          e.dt_area[d] = b.w * b.h;
        }
        e.matched.assign(T * D, 0);
        e.dt_ignore.assign(T * D, 0);
        for (char ig : gt_ignore) e.gt_regular += ig == 0;
        if (G > 0 && D > 0) {
          for (std::size_t t = 0; t < T; ++t) {
            gt_matched.assign(G, 0);
            for (std::size_t d = 0; d < D; ++d) {
              double best = std::min(params.iou_thresholds[t], 1 - 1e-10);
              std::ptrdiff_t m = -1;
              for (std::size_t g = 0; g < G; ++g) {
                const bool crowd = data.truths[gts[gt_sorted[g]]].crowd;
                if (gt_matched[g] && !crowd) continue;
                if (m > -1 && gt_ignore[static_cast<std::size_t>(m)] == 0 && gt_ignore[g] == 1) break;
                if (ious[d * G + g] < best) continue;
                best = ious[d * G + g];
                m = static_cast<std::ptrdiff_t>(g);
              }
              if (m == -1) continue;
              const auto mg = static_cast<std::size_t>(m);
              e.dt_ignore[t * D + d] = gt_ignore[mg];
              // pycocotools records the ground truth's id and later tests it against 0.
              e.matched[t * D + d] = data.truths[gts[gt_sorted[mg]]].id != 0;
              gt_matched[mg] = 1;
            }
          }
        }
        for (std::size_t t = 0; t < T; ++t)
          for (std::size_t d = 0; d < D; ++d)
            if (!e.matched[t * D + d] && (e.dt_area[d] < lo || e.dt_area[d] > hi)) e.dt_ignore[t * D + d] = 1;
        evals[a].push_back(std::move(e));
      }
    }

    // accumulate() for category k.
    std::vector<double> scores;
    std::vector<std::size_t> order;
    std::vector<char> tp_flag, fp_flag;
    std::vector<double> rc, pr;
    for (std::size_t a = 0; a < A; ++a) {
      const auto& E = evals[a];
      if (E.empty()) continue;
      for (std::size_t m = 0; m < M; ++m) {
        const auto md = static_cast<std::size_t>(params.max_dets[m]);
        // Concatenate each image's first md detections (images ascending), then stable-sort by score.
        scores.clear();
        std::vector<std::pair<std::size_t, std::size_t>> src;  // (eval index, detection index)
        std::size_t npig = 0;
        for (std::size_t e = 0; e < E.size(); ++e) {
          npig += E[e].gt_regular;
          const std::size_t n = std::min(md, E[e].scores.size());
          for (std::size_t d = 0; d < n; ++d) {
            scores.push_back(E[e].scores[d]);
            src.emplace_back(e, d);
          }
        }
        if (npig == 0) continue;
        order.resize(scores.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return scores[x] > scores[y]; });
        const std::size_t nd = order.size();
        for (std::size_t t = 0; t < T; ++t) {
          rc.resize(nd);
          pr.resize(nd);
          double tp = 0, fp = 0;
          for (std::size_t j = 0; j < nd; ++j) {
            const auto [e, d] = src[order[j]];
            const std::size_t D = E[e].scores.size();
            const bool ig = E[e].dt_ignore[t * D + d];
            const bool mt = E[e].matched[t * D + d];
            if (!ig) (mt ? tp : fp) += 1;
            rc[j] = tp / static_cast<double>(npig);
            pr[j] = tp / (fp + tp + std::numeric_limits<double>::epsilon());
          }
          res.recall[((t * K + k) * A + a) * M + m] = nd ? rc[nd - 1] : 0.0;
          for (std::size_t j = nd; j-- > 1;)
            if (pr[j] > pr[j - 1]) pr[j - 1] = pr[j];
          for (std::size_t r = 0; r < R; ++r) {
            const auto it = std::lower_bound(rc.begin(), rc.end(), params.recall_thresholds[r]);
            const auto p = static_cast<std::size_t>(it - rc.begin());
            res.precision[(((t * R + r) * K + k) * A + a) * M + m] = p < nd ? pr[p] : 0.0;
          }
        }
      }
    }
  }

  // summarize()
  auto find_index = [](const auto& v, auto x) -> std::ptrdiff_t {
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] == x) return static_cast<std::ptrdiff_t>(i);
    return -1;
  };
  auto summarize = [&](bool ap, double iou_thr, const char* area, int max_dets) -> value {
    const std::ptrdiff_t a = find_index(params.area_labels, std::string(area));
    const std::ptrdiff_t m = find_index(params.max_dets, max_dets);
    std::ptrdiff_t t_only = -2;
    if (iou_thr >= 0) t_only = find_index(params.iou_thresholds, iou_thr);
    std::vector<double> s;
    if (a >= 0 && m >= 0 && t_only != -1) {
      const auto au = static_cast<std::size_t>(a), mu = static_cast<std::size_t>(m);
      for (std::size_t t = 0; t < T; ++t) {
        if (t_only >= 0 && t != static_cast<std::size_t>(t_only)) continue;
        if (ap) {
          for (std::size_t r = 0; r < R; ++r)
            for (std::size_t k = 0; k < K; ++k) s.push_back(res.precision_at(t, r, k, au, mu));
        } else {
          for (std::size_t k = 0; k < K; ++k) s.push_back(res.recall_at(t, k, au, mu));
        }
      }
    }
    bool any = false;
    const double v = mean_of_defined(s, any);
    if (!any) return value::undefined("no ground truth in this area range (pycocotools reports -1)");
    return v;
  };
  const int last = params.max_dets.back();
  const int m0 = params.max_dets.front();
  const int m1 = M > 1 ? params.max_dets[1] : m0;
  res.stats = {summarize(true, -1, "all", last),      summarize(true, 0.5, "all", last),
               summarize(true, 0.75, "all", last),    summarize(true, -1, "small", last),
               summarize(true, -1, "medium", last),   summarize(true, -1, "large", last),
               summarize(false, -1, "all", m0),       summarize(false, -1, "all", m1),
               summarize(false, -1, "all", last),     summarize(false, -1, "small", last),
               summarize(false, -1, "medium", last),  summarize(false, -1, "large", last)};

  // Per category AP (area "all" = index 0, last maxDets).
  const std::ptrdiff_t t50 = find_index(params.iou_thresholds, 0.5), t75 = find_index(params.iou_thresholds, 0.75);
  for (std::size_t k = 0; k < K; ++k) {
    auto cat_ap = [&](std::ptrdiff_t t_only) -> value {
      std::vector<double> s;
      for (std::size_t t = 0; t < T; ++t) {
        if (t_only >= 0 && t != static_cast<std::size_t>(t_only)) continue;
        for (std::size_t r = 0; r < R; ++r) s.push_back(res.precision_at(t, r, k, 0, M - 1));
      }
      bool any = false;
      const double v = mean_of_defined(s, any);
      if (!any) return value::undefined("category has no ground truth");
      return v;
    };
    res.category_ap.push_back(cat_ap(-1));
    res.category_ap50.push_back(t50 >= 0 ? cat_ap(t50) : value::undefined("0.5 is not an IoU threshold"));
    res.category_ap75.push_back(t75 >= 0 ? cat_ap(t75) : value::undefined("0.75 is not an IoU threshold"));
  }
  return res;
}

}  // namespace assay::detection
