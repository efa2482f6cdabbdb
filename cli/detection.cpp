// assay detection: COCO or PASCAL VOC average precision of a detection file. Parses options, calls
// assay::detection, prints.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "assay/detection/coco.hpp"
#include "assay/detection/dataset.hpp"
#include "assay/detection/voc.hpp"
#include "assay/error.hpp"
#include "commands.hpp"

namespace assay::cli {

namespace {

struct detection_options {
  std::string gt, dt, protocol = "coco", format = "text", output, box_format = "xywh";
  double iou = 0.5;
  bool no_plus_one = false;
  bool curves = false;
};

std::string num(const value& v) { return v.defined() ? fmt::format("{:.3f}", v.v) : std::string("undefined"); }

void put(nlohmann::ordered_json& j, const std::string& name, const value& v) {
  if (v.defined()) {
    j[name] = v.v;
  } else {
    j[name] = nullptr;
    j[name + "_undefined"] = v.reason;
  }
}

std::string coco_report(const detection::dataset& d, const detection::coco_result& r, bool json, bool curves) {
  if (json) {
    nlohmann::ordered_json j;
    j["protocol"] = "coco";
    nlohmann::ordered_json stats = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < 12; ++i) put(stats, detection::coco_stat_names[i], r.stats[i]);
    j["stats"] = stats;
    j["per_category"] = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < d.categories.size(); ++k) {
      nlohmann::ordered_json c;
      c["id"] = d.categories[k];
      c["name"] = d.category_names[k];
      put(c, "AP", r.category_ap[k]);
      put(c, "AP50", r.category_ap50[k]);
      put(c, "AP75", r.category_ap75[k]);
      c["gt"] = r.category_gt[k];
      c["dt"] = r.category_dt[k];
      if (curves) {
        // Interpolated precision at the 101 recall thresholds, IoU 0.5, area all, last maxDets.
        std::vector<double> pr;
        for (std::size_t q = 0; q < r.R; ++q) pr.push_back(r.precision_at(0, q, k, 0, r.M - 1));
        c["pr_curve_iou50"] = {{"recall", r.params.recall_thresholds}, {"precision", pr}};
      }
      j["per_category"].push_back(c);
    }
    j["images"] = d.images.size();
    return j.dump(2) + "\n";
  }
  static const char* rows[12][4] = {
      {"Average Precision", "(AP)", "0.50:0.95", "all"},    {"Average Precision", "(AP)", "0.50", "all"},
      {"Average Precision", "(AP)", "0.75", "all"},         {"Average Precision", "(AP)", "0.50:0.95", "small"},
      {"Average Precision", "(AP)", "0.50:0.95", "medium"}, {"Average Precision", "(AP)", "0.50:0.95", "large"},
      {"Average Recall", "(AR)", "0.50:0.95", "all"},       {"Average Recall", "(AR)", "0.50:0.95", "all"},
      {"Average Recall", "(AR)", "0.50:0.95", "all"},       {"Average Recall", "(AR)", "0.50:0.95", "small"},
      {"Average Recall", "(AR)", "0.50:0.95", "medium"},    {"Average Recall", "(AR)", "0.50:0.95", "large"}};
  const auto& md = r.params.max_dets;
  const int dets[12] = {md.back(), md.back(), md.back(), md.back(), md.back(), md.back(),
                        md.front(), md.size() > 1 ? md[1] : md.front(), md.back(), md.back(), md.back(), md.back()};
  std::string out = fmt::format("COCO bounding-box evaluation: {} images, {} categories, {} ground truths, {} detections\n",
                                d.images.size(), d.categories.size(), d.truths.size(), d.detections.size());
  for (std::size_t i = 0; i < 12; ++i)
    out += fmt::format(" {:<18} {} @[ IoU={:<9} | area={:>6} | maxDets={:>3} ] = {:<9} {}\n", rows[i][0], rows[i][1],
                       rows[i][2], rows[i][3], dets[i], num(r.stats[i]), detection::coco_stat_names[i]);
  out += fmt::format("\n{:<24} {:>7} {:>7} {:>7} {:>7} {:>7}\n", "category", "AP", "AP50", "AP75", "gt", "dt");
  for (std::size_t k = 0; k < d.categories.size(); ++k)
    out += fmt::format("{:<24} {:>7} {:>7} {:>7} {:>7} {:>7}\n", d.category_names[k], num(r.category_ap[k]),
                       num(r.category_ap50[k]), num(r.category_ap75[k]), r.category_gt[k], r.category_dt[k]);
  return out;
}

std::string voc_report(const detection::dataset& d, const detection_options& o, const detection::voc_params& p,
                       bool json, bool curves) {
  const auto r = detection::evaluate_voc(d, p);
  // mAP over the COCO IoU grid 0.50:0.05:0.95 under the same VOC rules.
  const detection::coco_params grid;
  std::vector<double> maps;
  for (double t : grid.iou_thresholds) {
    auto q = p;
    q.iou_threshold = t;
    const auto x = detection::evaluate_voc(d, q);
    if (x.map.defined()) maps.push_back(x.map.v);
  }
  value map_range = value::undefined("no class has ground truth");
  if (maps.size() == grid.iou_thresholds.size())
    map_range = detection::numpy_sum(maps.data(), maps.size()) / static_cast<double>(maps.size());
  if (json) {
    nlohmann::ordered_json j;
    j["protocol"] = o.protocol;
    j["iou_threshold"] = p.iou_threshold;
    j["plus_one"] = p.plus_one;
    put(j, "mAP", r.map);
    put(j, "mAP@[.5:.95]", map_range);
    j["per_category"] = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < d.categories.size(); ++k) {
      nlohmann::ordered_json c;
      c["id"] = d.categories[k];
      c["name"] = d.category_names[k];
      put(c, "AP", r.classes[k].ap);
      c["npos"] = r.classes[k].npos;
      c["detections"] = r.classes[k].detections;
      if (curves) c["pr_curve"] = {{"recall", r.classes[k].recall}, {"precision", r.classes[k].precision}};
      j["per_category"].push_back(c);
    }
    return j.dump(2) + "\n";
  }
  std::string out = fmt::format("PASCAL VOC evaluation ({}, IoU > {}{}): {} images, {} classes\n",
                                o.protocol == "voc07" ? "VOC2007 11-point AP" : "VOC2010+ all-point AP",
                                p.iou_threshold, p.plus_one ? ", +1 pixel" : "", d.images.size(), d.categories.size());
  out += fmt::format("mAP          = {}\nmAP@[.5:.95] = {}\n\n", num(r.map), num(map_range));
  out += fmt::format("{:<24} {:>7} {:>7} {:>10}\n", "class", "AP", "npos", "detections");
  for (std::size_t k = 0; k < d.categories.size(); ++k)
    out += fmt::format("{:<24} {:>7} {:>7} {:>10}\n", d.category_names[k], num(r.classes[k].ap), r.classes[k].npos,
                       r.classes[k].detections);
  return out;
}

void run(const detection_options& o) {
  current_command = "assay detection";
  const auto d = detection::read_dataset(o.gt, o.dt, o.box_format == "xyxy");
  const bool json = o.format == "json";
  if (o.protocol == "coco") {
    write_output(o.output, coco_report(d, detection::evaluate_coco(d), json, o.curves));
    return;
  }
  if (!(o.iou > 0 && o.iou < 1)) throw_usage(fmt::format("--iou: must be in (0, 1), got {}", o.iou));
  detection::voc_params p;
  p.interpolation = o.protocol == "voc07" ? detection::voc_interpolation::eleven_point : detection::voc_interpolation::all_point;
  p.iou_threshold = o.iou;
  p.plus_one = !o.no_plus_one;
  write_output(o.output, voc_report(d, o, p, json, o.curves));
}

}  // namespace

void register_detection(CLI::App& app) {
  auto o = std::make_shared<detection_options>();
  auto* cmd = app.add_subcommand("detection", "Object detection: COCO AP/AR (12 numbers) or PASCAL VOC mAP, per class");
  cmd->footer(
      "Input: COCO JSON (ground-truth file + results array) or CSV with columns image,class,x,y,w,h\n"
      "(ground truth may add iscrowd, difficult, area; detections add score).\n"
      "Examples:\n"
      "  assay detection --gt instances_val.json --dt results.json\n"
      "  assay detection --gt gt.csv --dt dt.csv --protocol voc07 --format json");
  cmd->add_option("--gt", o->gt, "Ground truth: COCO JSON or CSV")->required();
  cmd->add_option("--dt", o->dt, "Detections: COCO results JSON or CSV")->required();
  cmd->add_option("--protocol", o->protocol, "coco (pycocotools), voc07 (11-point) or voc (VOC2010+ all-point)")
      ->check(CLI::IsMember({"coco", "voc07", "voc"}));
  cmd->add_option("--iou", o->iou, "VOC: IoU a match must exceed (default 0.5)");
  cmd->add_flag("--no-plus-one", o->no_plus_one, "VOC: drop the devkit's +1 in box widths and heights");
  cmd->add_option("--box-format", o->box_format, "CSV boxes: xywh (default) or xyxy")
      ->check(CLI::IsMember({"xywh", "xyxy"}));
  cmd->add_flag("--curves", o->curves,
                "JSON: add per-class precision-recall curves (COCO: 101-point at IoU 0.5; VOC: every ranked detection)");
  cmd->add_option("--format,-f", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--output,-o", o->output, "Write to this file instead of standard output");
  cmd->callback([o] { run(*o); });
}

}  // namespace assay::cli
