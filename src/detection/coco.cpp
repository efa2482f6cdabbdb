// COCOeval for bounding boxes; see include/assay/detection/coco.hpp for the procedure.
#include "assay/detection/coco.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "assay/error.hpp"
#include "assay/detection/mask.hpp"
#include "assay/stats/bootstrap_many.hpp"

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

std::vector<double> coco_keypoint_sigmas() {
  // cocoapi's Params.setKpParams writes them as numpy.array([...]) / 10.0.
  const double tenfold[17] = {.26, .25, .25, .35, .35, .79, .79, .72, .72, .62, .62, 1.07, 1.07, .87, .87, .89, .89};
  std::vector<double> s;
  for (double v : tenfold) s.push_back(v / 10.0);
  return s;
}

coco_params coco_params::for_type(iou_type t) {
  coco_params p;
  p.type = t;
  if (t == iou_type::keypoints) {
    p.max_dets = {20};
    p.area_ranges = {{0, 1e10}, {1024, 9216}, {9216, 1e10}};
    p.area_labels = {"all", "medium", "large"};
    p.kpt_oks_sigmas = coco_keypoint_sigmas();
  }
  return p;
}

std::span<const char* const> coco_stat_names_of(iou_type t) noexcept {
  if (t == iou_type::keypoints) return coco_keypoint_stat_names;
  return coco_stat_names;
}

double oks(const std::vector<double>& d, const std::vector<double>& g, double area, const box_xywh& box,
           const std::vector<double>& sigmas) {
  const std::size_t k = sigmas.size();
  std::size_t visible = 0;
  for (std::size_t i = 0; i < k; ++i) visible += g[3 * i + 2] > 0;
  // The enlarged box of a ground truth without visible keypoints: [x - w, x + 2w] x [y - h, y + 2h].
  const double bx0 = box.x - box.w, bx1 = box.x + box.w * 2, by0 = box.y - box.h, by1 = box.y + box.h * 2;
  const double scale = area + std::numeric_limits<double>::epsilon();  // numpy.spacing(1)
  double terms[64] = {};
  std::vector<double> many;
  double* e = k <= 64 ? terms : (many.resize(k), many.data());
  std::size_t n = 0;
  for (std::size_t i = 0; i < k; ++i) {
    double dx, dy;
    if (visible > 0) {
      if (!(g[3 * i + 2] > 0)) continue;
      dx = d[3 * i] - g[3 * i];
      dy = d[3 * i + 1] - g[3 * i + 1];
    } else {
      dx = std::max(0.0, bx0 - d[3 * i]) + std::max(0.0, d[3 * i] - bx1);
      dy = std::max(0.0, by0 - d[3 * i + 1]) + std::max(0.0, d[3 * i + 1] - by1);
    }
    const double s2 = sigmas[i] * 2;
    e[n++] = std::exp(-((dx * dx + dy * dy) / (s2 * s2) / scale / 2));
  }
  return numpy_sum(e, n) / static_cast<double>(n);
}

coco_params::coco_params() {
  // numpy.linspace(start, stop, num): y = i * ((stop - start) / (num - 1)) + start, last = stop.
  const double step_t = (0.95 - 0.5) / 9.0;
  for (int i = 0; i < 10; ++i) iou_thresholds.push_back(i == 9 ? 0.95 : i * step_t + 0.5);
  const double step_r = (1.0 - 0.0) / 100.0;
  for (int i = 0; i < 101; ++i) recall_thresholds.push_back(i == 100 ? 1.0 : i * step_r + 0.0);
}

namespace {

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

void check_params(const coco_params& params) {
  if (params.iou_thresholds.empty() || params.recall_thresholds.empty() || params.max_dets.empty() ||
      params.area_ranges.empty())
    throw_usage("evaluate_coco: empty IoU, recall, maxDets or area parameters");
  if (params.area_labels.size() != params.area_ranges.size())
    throw_usage("evaluate_coco: area_labels and area_ranges differ in length");
  if (!std::is_sorted(params.max_dets.begin(), params.max_dets.end()) || params.max_dets.front() < 0)
    throw_usage("evaluate_coco: max_dets must be ascending and >= 0");
  if (params.type == iou_type::keypoints) {
    if (params.kpt_oks_sigmas.empty()) throw_usage("evaluate_coco: keypoints need kpt_oks_sigmas (one per keypoint)");
    for (std::size_t i = 0; i < params.kpt_oks_sigmas.size(); ++i)
      if (!(params.kpt_oks_sigmas[i] > 0) || !std::isfinite(params.kpt_oks_sigmas[i]))
        throw_usage(fmt::format("evaluate_coco: kpt_oks_sigmas[{}] is {}; sigmas must be positive and finite", i,
                                params.kpt_oks_sigmas[i]));
  }
}

// What the similarity needs of every object: keypoints of the sigmas' length; masks of one size per
// image (the readers guarantee both; a data set built in code is checked here).
void check_data(const dataset& data, const coco_params& params) {
  if (params.type == iou_type::keypoints) {
    const std::size_t n = 3 * params.kpt_oks_sigmas.size();
    for (std::size_t i = 0; i < data.truths.size(); ++i)
      if (data.truths[i].keypoints.size() != n)
        throw_data(fmt::format("evaluate_coco: ground truth {} has {} keypoint numbers, not 3 x {} sigmas = {}", i,
                               data.truths[i].keypoints.size(), params.kpt_oks_sigmas.size(), n));
    for (std::size_t i = 0; i < data.detections.size(); ++i)
      if (data.detections[i].keypoints.size() != n)
        throw_data(fmt::format("evaluate_coco: detection {} has {} keypoint numbers, not 3 x {} sigmas = {}", i,
                               data.detections[i].keypoints.size(), params.kpt_oks_sigmas.size(), n));
  }
  if (params.type == iou_type::segm) {
    std::vector<std::array<std::uint32_t, 2>> size(data.images.size(), {0, 0});
    std::vector<char> seen(data.images.size(), 0);
    auto check = [&](const mask& m, std::size_t image, const char* what, std::size_t i) {
      if (image >= size.size()) return;
      if (!seen[image]) {
        seen[image] = 1;
        size[image] = {m.h, m.w};
      } else if (size[image][0] != m.h || size[image][1] != m.w) {
        throw_data(fmt::format("evaluate_coco: {} {} has a {} x {} mask but image {} has {} x {} masks", what, i, m.h,
                               m.w, data.images[image], size[image][0], size[image][1]));
      }
    };
    for (std::size_t i = 0; i < data.truths.size(); ++i)
      check(data.truths[i].segm, data.truths[i].image, "ground truth", i);
    for (std::size_t i = 0; i < data.detections.size(); ++i)
      check(data.detections[i].segm, data.detections[i].image, "detection", i);
  }
}

// summarize(): the 12 numbers from the accumulated arrays.
void summarize_all(coco_result& res, bool per_category) {
  const auto& params = res.params;
  const std::size_t T = res.T, R = res.R, K = res.K, M = res.M;
  auto find_index = [](const auto& v, auto x) -> std::ptrdiff_t {
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] == x) return static_cast<std::ptrdiff_t>(i);
    return -1;
  };
  std::vector<double> s;
  auto summarize = [&](bool ap, double iou_thr, const char* area, int max_dets) -> value {
    const std::ptrdiff_t a = find_index(params.area_labels, std::string(area));
    const std::ptrdiff_t m = find_index(params.max_dets, max_dets);
    std::ptrdiff_t t_only = -2;
    if (iou_thr >= 0) t_only = find_index(params.iou_thresholds, iou_thr);
    s.clear();
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
  if (params.type == iou_type::keypoints) {
    // _summarizeKps: every number at 20 detections per image (undefined when 20 is not a maxDets).
    res.stats = {summarize(true, -1, "all", 20),     summarize(true, 0.5, "all", 20),
                 summarize(true, 0.75, "all", 20),   summarize(true, -1, "medium", 20),
                 summarize(true, -1, "large", 20),   summarize(false, -1, "all", 20),
                 summarize(false, 0.5, "all", 20),   summarize(false, 0.75, "all", 20),
                 summarize(false, -1, "medium", 20), summarize(false, -1, "large", 20),
                 value::undefined("keypoint evaluation has 10 numbers"),
                 value::undefined("keypoint evaluation has 10 numbers")};
  }
  const int last = params.max_dets.back();
  const int m0 = params.max_dets.front();
  const int m1 = M > 1 ? params.max_dets[1] : m0;
  if (params.type != iou_type::keypoints)
    res.stats = {summarize(true, -1, "all", last),      summarize(true, 0.5, "all", last),
               summarize(true, 0.75, "all", last),    summarize(true, -1, "small", last),
               summarize(true, -1, "medium", last),   summarize(true, -1, "large", last),
               summarize(false, -1, "all", m0),       summarize(false, -1, "all", m1),
               summarize(false, -1, "all", last),     summarize(false, -1, "small", last),
               summarize(false, -1, "medium", last),  summarize(false, -1, "large", last)};
  if (!per_category) return;

  // Per category AP (area "all" = index 0, last maxDets).
  const std::ptrdiff_t t50 = find_index(params.iou_thresholds, 0.5), t75 = find_index(params.iou_thresholds, 0.75);
  for (std::size_t k = 0; k < K; ++k) {
    auto cat_ap = [&](std::ptrdiff_t t_only) -> value {
      s.clear();
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
}

coco_result accumulate_impl(const coco_matches& mt, std::span<const std::uint32_t> weights, bool per_category) {
  const auto& params = mt.params;
  const std::size_t T = params.iou_thresholds.size(), R = params.recall_thresholds.size();
  const std::size_t K = mt.K, A = params.area_ranges.size(), M = params.max_dets.size();
  if (!weights.empty() && weights.size() != mt.I)
    throw_usage(fmt::format("accumulate_coco: {} image weights for {} images", weights.size(), mt.I));
  auto weight = [&](std::uint32_t i) -> std::uint32_t { return weights.empty() ? 1u : weights[i]; };

  coco_result res;
  res.params = params;
  res.T = T, res.R = R, res.K = K, res.A = A, res.M = M;
  res.precision.assign(T * R * K * A * M, -1.0);
  res.recall.assign(T * K * A * M, -1.0);
  res.category_gt = mt.category_gt;
  res.category_dt = mt.category_dt;

  std::vector<double> rc, pr;
  for (std::size_t k = 0; k < K; ++k) {
    const auto& D = mt.dets[k];
    const std::size_t n = D.score.size();
    for (std::size_t a = 0; a < A; ++a) {
      std::size_t npig = 0;
      for (const auto& [img, g] : mt.regular_gt[k * A + a]) npig += static_cast<std::size_t>(weight(img)) * g;
      if (npig == 0) continue;  // pycocotools: no ground truth, precision and recall stay -1
      const auto& fl = mt.flags[k * A + a];
      for (std::size_t m = 0; m < M; ++m) {
        // For the 12 numbers alone (the bootstrap), only area "all" needs every maxDets.
        if (!per_category && m + 1 != M && params.area_labels[a] != "all") continue;
        const auto md = static_cast<std::uint32_t>(params.max_dets[m]);
        for (std::size_t t = 0; t < T; ++t) {
          rc.clear();
          pr.clear();
          double tp = 0, fp = 0;
          const std::uint8_t* f = fl.data() + t * n;
          // Walk the ranked detections; a run of equal scores from one image is a block that a weight
          // w repeats w times (the order of w adjacent copies of the image under the stable sort).
          for (std::size_t j = 0; j < n;) {
            if (D.rank[j] >= md || weight(D.image[j]) == 0) {
              ++j;
              continue;
            }
            std::size_t e = j + 1;
            while (e < n && D.image[e] == D.image[j] && D.score[e] == D.score[j] && D.rank[e] < md) ++e;
            const std::uint32_t w = weight(D.image[j]);
            for (std::uint32_t c = 0; c < w; ++c)
              for (std::size_t q = j; q < e; ++q) {
                if (!(f[q] & 2)) ((f[q] & 1) ? tp : fp) += 1;
                rc.push_back(tp / static_cast<double>(npig));
                pr.push_back(tp / (fp + tp + std::numeric_limits<double>::epsilon()));
              }
            j = e;
          }
          const std::size_t nd = rc.size();
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
  summarize_all(res, per_category);
  return res;
}

// The similarity of every (detection, ground truth) pair of one image and category, detections x
// ground truths in the given orders: IoU of boxes or masks (crowd: over the detection's area), or OKS.
void similarity(const dataset& data, const coco_params& params, const std::vector<std::size_t>& dts,
                const std::vector<std::size_t>& gts, std::vector<double>& out) {
  const std::size_t D = dts.size(), G = gts.size();
  out.resize(D * G);
  for (std::size_t d = 0; d < D; ++d)
    for (std::size_t g = 0; g < G; ++g) {
      const auto& t = data.truths[gts[g]];
      const auto& x = data.detections[dts[d]];
      switch (params.type) {
        case iou_type::bbox: out[d * G + g] = iou(x.box, t.box, t.crowd); break;
        case iou_type::segm: out[d * G + g] = mask_iou(x.segm, t.segm, t.crowd); break;
        case iou_type::keypoints:
          out[d * G + g] = oks(x.keypoints, t.keypoints, t.area, t.box, params.kpt_oks_sigmas);
          break;
      }
    }
}

// pycocotools' greedy matching (COCOeval.evaluateImg) of one image, category and area range: at each
// IoU threshold t, each detection d (by descending score) takes the best still unmatched ground truth
// (crowd ones may be taken again) with IoU >= t, regular ground truths before ignored ones. Sets in
// fl[t * D + d] bit 0 (matched to a ground truth with nonzero id) and bit 1 (matched to an ignored
// one). `gt_sorted` and `gt_ignore` order the ground truths `gts` regular first; ious is D x G in
// that order; gt_matched is scratch.
void match_greedily(const dataset& data, const coco_params& params, const std::vector<std::size_t>& gts,
                    const std::vector<std::size_t>& gt_sorted, const std::vector<char>& gt_ignore,
                    const std::vector<double>& ious, std::size_t D, std::vector<char>& gt_matched,
                    std::vector<std::uint8_t>& fl) {
  const std::size_t G = gts.size(), T = params.iou_thresholds.size();
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
      if (gt_ignore[mg]) fl[t * D + d] |= 2;
      // pycocotools records the ground truth's id and later tests it against 0.
      if (data.truths[gts[gt_sorted[mg]]].id != 0) fl[t * D + d] |= 1;
      gt_matched[mg] = 1;
    }
  }
}

// One category's kept detections, listed in image order (image, rank within the image, score; the
// images' sizes in cell_offsets, their [t][d] flag blocks per area in cell_flags), laid out by rank
// into R and flags[0, A) (the category's (k, a) entries of coco_matches::flags).
void rank_category(const std::vector<std::uint32_t>& img_of, const std::vector<std::uint32_t>& rank_of,
                   const std::vector<double>& score_of, const std::vector<std::size_t>& cell_offsets,
                   const std::vector<std::vector<std::uint8_t>>& cell_flags, std::size_t T,
                   coco_matches::ranked& R, std::vector<std::uint8_t>* flags) {
  // Rank the category's detections: descending score, ties by (image, rank), i.e. a stable sort
  // of the image-ordered list.
  const std::size_t n = score_of.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return score_of[x] > score_of[y]; });
  R.image.resize(n);
  R.rank.resize(n);
  R.score.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    R.image[j] = img_of[order[j]];
    R.rank[j] = rank_of[order[j]];
    R.score[j] = score_of[order[j]];
  }
  // Position of detection x (image order) inside its image's [t][d] block of cell_flags.
  std::vector<std::size_t> block_start(n), block_size(n), within(n);
  {
    std::size_t x = 0, off = 0;
    for (std::size_t D : cell_offsets) {
      for (std::size_t d = 0; d < D; ++d, ++x) {
        block_start[x] = off;
        block_size[x] = D;
        within[x] = d;
      }
      off += T * D;
    }
  }
  for (std::size_t a = 0; a < cell_flags.size(); ++a) {
    auto& out = flags[a];
    out.assign(T * n, 0);
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t x = order[j];
      for (std::size_t t = 0; t < T; ++t)
        out[t * n + j] = cell_flags[a][block_start[x] + t * block_size[x] + within[x]];
    }
  }
}

}  // namespace

coco_matches match_coco(const dataset& data, const coco_params& params) {
  check_params(params);
  const std::size_t T = params.iou_thresholds.size();
  const std::size_t K = data.categories.size(), A = params.area_ranges.size();
  const std::size_t I = data.images.size();
  if (I > std::numeric_limits<std::uint32_t>::max()) throw_usage("evaluate_coco: more than 2^32 - 1 images");
  const std::size_t max_det = static_cast<std::size_t>(params.max_dets.back());
  const bool kp = params.type == iou_type::keypoints;
  // COCOeval._prepare: crowd regions are ignored; for keypoints also objects without keypoints.
  auto ignored = [kp](const ground_truth& t) { return t.crowd || (kp && t.num_keypoints == 0); };
  check_data(data, params);

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

  coco_matches mt;
  mt.params = params;
  mt.K = K, mt.I = I;
  mt.category_gt.assign(K, 0);
  mt.category_dt.assign(K, 0);
  mt.dets.resize(K);
  mt.flags.resize(K * A);
  mt.regular_gt.resize(K * A);

  std::vector<double> iou0, ious;
  std::vector<std::size_t> gt_sorted, gts, dts;
  std::vector<char> gt_ignore, gt_matched;
  // Per category, in image order: (image, rank) of each kept detection and its flags per area.
  std::vector<std::uint32_t> img_of, rank_of;
  std::vector<double> score_of;
  std::vector<std::vector<std::uint8_t>> cell_flags(A);
  for (std::size_t k = 0; k < K; ++k) {
    img_of.clear();
    rank_of.clear();
    score_of.clear();
    std::vector<std::size_t> cell_offsets;
    for (auto& c : cell_flags) c.clear();
    for (std::size_t i = 0; i < I; ++i) {
      const std::size_t cell = k * I + i;
      gts.assign(gt_order.begin() + static_cast<std::ptrdiff_t>(gt_start[cell]),
                 gt_order.begin() + static_cast<std::ptrdiff_t>(gt_start[cell + 1]));
      dts.assign(dt_order.begin() + static_cast<std::ptrdiff_t>(dt_start[cell]),
                 dt_order.begin() + static_cast<std::ptrdiff_t>(dt_start[cell + 1]));
      if (gts.empty() && dts.empty()) continue;
      for (std::size_t g : gts)
        if (!ignored(data.truths[g])) ++mt.category_gt[k];
      mt.category_dt[k] += dts.size();
      dts = stable_order_by_score(data.detections, std::move(dts));
      if (dts.size() > max_det) dts.resize(max_det);
      const std::size_t D = dts.size(), G = gts.size();
      for (std::size_t d = 0; d < D; ++d) {
        img_of.push_back(static_cast<std::uint32_t>(i));
        rank_of.push_back(static_cast<std::uint32_t>(d));
        score_of.push_back(data.detections[dts[d]].score);
      }
      similarity(data, params, dts, gts, iou0);
      for (std::size_t a = 0; a < A; ++a) {
        const double lo = params.area_ranges[a][0], hi = params.area_ranges[a][1];
        // Ground truths: ignored (crowd or outside the area range) last, stable.
        gt_sorted.clear();
        gt_ignore.clear();
        for (int pass = 0; pass < 2; ++pass)
          for (std::size_t g = 0; g < G; ++g) {
            const auto& t = data.truths[gts[g]];
            const bool ig = ignored(t) || t.area < lo || t.area > hi;
            if (ig == (pass == 1)) {
              gt_sorted.push_back(g);
              gt_ignore.push_back(ig ? 1 : 0);
            }
          }
        std::uint32_t regular = 0;
        for (char ig : gt_ignore) regular += ig == 0;
        if (regular > 0) mt.regular_gt[k * A + a].emplace_back(static_cast<std::uint32_t>(i), regular);
        ious.resize(D * G);
        for (std::size_t d = 0; d < D; ++d)
          for (std::size_t g = 0; g < G; ++g) ious[d * G + g] = iou0[d * G + gt_sorted[g]];
        // flags of this image, [t][d]: bit 0 matched (to a ground truth with nonzero id), bit 1 ignored
        std::vector<std::uint8_t> fl(T * D, 0);
        if (G > 0 && D > 0) match_greedily(data, params, gts, gt_sorted, gt_ignore, ious, D, gt_matched, fl);
        for (std::size_t d = 0; d < D; ++d) {
          // Boxes: w*h (as loadRes sets it); masks and keypoints: the area read with them.
          const auto& x = data.detections[dts[d]];
          const double area = params.type == iou_type::bbox ? x.box.w * x.box.h : x.area;
          for (std::size_t t = 0; t < T; ++t)
            if (!(fl[t * D + d] & 1) && (area < lo || area > hi)) fl[t * D + d] |= 2;
        }
        // Kept per image ([t][d] blocks in image order); laid out by rank once the category is done.
        cell_flags[a].insert(cell_flags[a].end(), fl.begin(), fl.end());
      }
      cell_offsets.push_back(D);
    }

    rank_category(img_of, rank_of, score_of, cell_offsets, cell_flags, T, mt.dets[k], mt.flags.data() + k * A);
  }
  return mt;
}

coco_result accumulate_coco(const coco_matches& m, std::span<const std::uint32_t> image_weights) {
  return accumulate_impl(m, image_weights, true);
}

coco_result evaluate_coco(const dataset& data, const coco_params& params) {
  return accumulate_coco(match_coco(data, params));
}

std::array<stats::bootstrap_result, 12> bootstrap_coco(const coco_matches& m, const stats::bootstrap_options& opts) {
  if (m.I == 0) throw_data("bootstrap_coco: no images to resample");
  const std::size_t n = coco_stat_names_of(m.params.type).size();
  auto stat = [&](std::span<const std::uint32_t> rows, std::span<double> out) {
    const auto w = stats::row_weights(rows, m.I);
    const auto r = accumulate_impl(m, w, false);
    for (std::size_t i = 0; i < n; ++i) out[i] = r.stats[i].defined() ? r.stats[i].v : std::nan("");
  };
  const auto v = stats::bootstrap_many(m.I, n, stat, opts);
  std::array<stats::bootstrap_result, 12> out;
  for (std::size_t i = 0; i < n; ++i) out[i] = v[i];
  return out;
}

}  // namespace assay::detection
