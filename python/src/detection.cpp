// assay._core: object detection (assay::detection). The ground truth and the detections arrive as
// COCO JSON text (python/assay/detection.py serialises the caller's dicts with json.dumps) and go
// through the core's own parser, so Python and the CLI read one format the same way. Results go back
// as dicts of plain numbers; python/assay/detection.py names them, wraps intervals and puts its
// function's name before the core's messages.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <optional>

#include "assay/detection/box.hpp"
#include "assay/detection/coco.hpp"
#include "assay/detection/dataset.hpp"
#include "assay/detection/voc.hpp"
#include "assay/error.hpp"
#include "common.hpp"

namespace assay::python {
namespace {

using boxes_in = nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

/// A core value as (number, reason): NaN and the reason when undefined.
std::tuple<double, std::string> number_of(const value& v) { return {v.defined() ? v.v : std::nan(""), v.reason}; }

/// The interval of a bootstrap result as (low, high, level, replicates dropped as undefined, why an
/// end is undefined).
nb::tuple interval_of(const stats::bootstrap_result& b) {
  return nb::make_tuple(b.lower.defined() ? b.lower.v : std::nan(""), b.upper.defined() ? b.upper.v : std::nan(""),
                        b.level, b.undefined_replicates, b.lower.defined() ? b.upper.reason : b.lower.reason);
}

std::optional<stats::bootstrap_options> boot_options(double level, std::size_t replicates, std::uint64_t seed) {
  if (std::isnan(level)) return std::nullopt;
  stats::bootstrap_options o;
  o.level = level;
  o.replicates = replicates;
  o.seed = seed;
  o.method = stats::bootstrap_method::percentile;
  return o;
}

nb::dict categories_of(const detection::dataset& d) {
  nb::dict c;
  c["ids"] = d.categories;
  c["names"] = d.category_names;
  return c;
}

}  // namespace

void bind_detection(nb::module_& m) {
  m.def(
      "detection_coco",
      [](const std::string& gt_json, const std::string& dt_json, std::optional<std::vector<double>> iou_thresholds,
         std::optional<std::vector<int>> max_dets, double level, std::size_t replicates, std::uint64_t seed,
         const std::string& iou_type, std::optional<std::vector<double>> sigmas) {
        const auto boot = boot_options(level, replicates, seed);
        const detection::iou_type type = iou_type == "segm"        ? detection::iou_type::segm
                                         : iou_type == "keypoints" ? detection::iou_type::keypoints
                                                                   : detection::iou_type::bbox;
        detection::dataset data;
        detection::coco_result r;
        std::optional<std::array<stats::bootstrap_result, 12>> ci;
        {
          const sigint_cancels interruptible;  // Ctrl-C stops the bootstrap
          nb::gil_scoped_release release;
          auto p = detection::coco_params::for_type(type);
          if (sigmas) p.kpt_oks_sigmas = *sigmas;
          detection::coco_read_options ro;
          ro.type = type;
          ro.keypoints = p.kpt_oks_sigmas.size();
          data = detection::parse_coco(gt_json, dt_json, "gt", "dt", ro);
          if (iou_thresholds) p.iou_thresholds = *iou_thresholds;
          if (max_dets) p.max_dets = *max_dets;
          const auto matches = detection::match_coco(data, p);
          r = detection::accumulate_coco(matches);
          if (boot) ci = detection::bootstrap_coco(matches, *boot);
        }
        nb::dict out;
        nb::list stats;
        for (std::size_t i = 0; i < r.stat_count(); ++i) stats.append(number_of(r.stats[i]));
        out["stats"] = stats;
        out["categories"] = categories_of(data);
        nb::list ap, ap50, ap75;
        for (std::size_t k = 0; k < r.category_ap.size(); ++k) {
          ap.append(number_of(r.category_ap[k]));
          ap50.append(number_of(r.category_ap50[k]));
          ap75.append(number_of(r.category_ap75[k]));
        }
        out["category_ap"] = ap;
        out["category_ap50"] = ap50;
        out["category_ap75"] = ap75;
        out["category_gt"] = r.category_gt;
        out["category_dt"] = r.category_dt;
        out["shape"] = nb::make_tuple(r.T, r.R, r.K, r.A, r.M);
        out["precision"] = to_numpy(std::vector<double>(r.precision));
        out["recall"] = to_numpy(std::vector<double>(r.recall));
        if (ci) {
          nb::list c;
          for (std::size_t i = 0; i < r.stat_count(); ++i) c.append(interval_of((*ci)[i]));
          out["ci"] = c;
        }
        return out;
      },
      nb::arg("gt_json"), nb::arg("dt_json"), nb::arg("iou_thresholds").none(), nb::arg("max_dets").none(),
      nb::arg("level"), nb::arg("replicates"), nb::arg("seed"), nb::arg("iou_type") = "bbox",
      nb::arg("sigmas").none() = nb::none());

  m.def(
      "detection_voc",
      [](const std::string& gt_json, const std::string& dt_json, bool eleven_point, double iou_threshold, bool plus_one,
         double level, std::size_t replicates, std::uint64_t seed) {
        const auto boot = boot_options(level, replicates, seed);
        detection::dataset data;
        detection::voc_result r;
        std::optional<stats::bootstrap_result> ci;
        {
          const sigint_cancels interruptible;  // Ctrl-C stops the bootstrap
          nb::gil_scoped_release release;
          data = detection::parse_coco(gt_json, dt_json, "gt", "dt");
          detection::voc_params p;
          p.interpolation =
              eleven_point ? detection::voc_interpolation::eleven_point : detection::voc_interpolation::all_point;
          p.iou_threshold = iou_threshold;
          p.plus_one = plus_one;
          const auto matches = detection::match_voc(data, p);
          r = detection::accumulate_voc(matches);
          if (boot) ci = detection::bootstrap_voc(matches, *boot);
        }
        nb::dict out;
        out["map"] = number_of(r.map);
        out["categories"] = categories_of(data);
        nb::list ap, npos, ndet, rec, prec;
        for (auto& c : r.classes) {
          ap.append(number_of(c.ap));
          npos.append(c.npos);
          ndet.append(c.detections);
          rec.append(to_numpy(std::vector<double>(c.recall)));
          prec.append(to_numpy(std::vector<double>(c.precision)));
        }
        out["ap"] = ap;
        out["npos"] = npos;
        out["detections"] = ndet;
        out["recall"] = rec;
        out["precision"] = prec;
        if (ci) out["ci"] = interval_of(*ci);
        return out;
      },
      nb::arg("gt_json"), nb::arg("dt_json"), nb::arg("eleven_point"), nb::arg("iou_threshold"), nb::arg("plus_one"),
      nb::arg("level"), nb::arg("replicates"), nb::arg("seed"));

  m.def(
      "box_iou",
      [](const boxes_in& a, const boxes_in& b, bool xyxy, bool plus_one, std::optional<in_array<std::uint8_t>> crowd) {
        if (a.shape(1) != 4 || b.shape(1) != 4) throw_usage("box_iou: boxes must have 4 columns");
        const auto is_crowd = view(crowd);
        if (!is_crowd.empty() && is_crowd.size() != b.shape(0))
          throw_usage("box_iou: iscrowd must have one flag per box of b");
        const std::size_t n = a.shape(0), k = b.shape(0);
        std::vector<double> out(n * k);
        {
          nb::gil_scoped_release release;
          const double* pa = a.data();
          const double* pb = b.data();
          for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < k; ++j) {
              const double* x = pa + 4 * i;
              const double* y = pb + 4 * j;
              out[i * k + j] = xyxy ? detection::iou(detection::box_xyxy{x[0], x[1], x[2], x[3]},
                                                     detection::box_xyxy{y[0], y[1], y[2], y[3]}, plus_one)
                                    : detection::iou(detection::box_xywh{x[0], x[1], x[2], x[3]},
                                                     detection::box_xywh{y[0], y[1], y[2], y[3]},
                                                     !is_crowd.empty() && is_crowd[j] != 0);
            }
          }
        }
        return to_numpy_2d(std::move(out), n, k);
      },
      nb::arg("a"), nb::arg("b"), nb::arg("xyxy"), nb::arg("plus_one"), nb::arg("crowd").none());
}

}  // namespace assay::python
