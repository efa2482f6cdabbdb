// assay detection: COCO or PASCAL VOC average precision of a detection file. Parses options, calls
// assay::detection, prints.
#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>
#include <optional>

#include "assay/detection/coco.hpp"
#include "assay/detection/dataset.hpp"
#include "assay/detection/voc.hpp"
#include "assay/error.hpp"
#include "assay/report/detection_html.hpp"
#include "ci_options.hpp"
#include "commands.hpp"

namespace assay::cli {

namespace {

struct detection_options {
  std::string gt, dt, protocol = "coco", format = "text", output, box_format = "xywh", plot, html, iou_type = "bbox";
  std::vector<double> sigmas;
  double iou = 0.5;
  bool no_plus_one = false;
  bool curves = false;
  ci_request ci;
};

using coco_cis = std::optional<std::array<stats::bootstrap_result, 12>>;

std::string interval_text(const stats::bootstrap_result& b) {
  auto f = [](const value& v) { return v.defined() ? fmt::format("{:.3f}", v.v) : std::string("undefined"); };
  return fmt::format("[{}, {}]", f(b.lower), f(b.upper));
}

nlohmann::ordered_json interval_json(const stats::bootstrap_result& b) {
  auto f = [](const value& v) { return v.defined() ? nlohmann::ordered_json(v.v) : nlohmann::ordered_json(nullptr); };
  return nlohmann::ordered_json::array({f(b.lower), f(b.upper)});
}

std::string num(const value& v) { return v.defined() ? fmt::format("{:.3f}", v.v) : std::string("undefined"); }

void put(nlohmann::ordered_json& j, const std::string& name, const value& v) {
  if (v.defined()) {
    j[name] = v.v;
  } else {
    j[name] = nullptr;
    j[name + "_undefined"] = v.reason;
  }
}

std::string coco_report(const detection::dataset& d, const detection::coco_result& r, bool json, bool curves,
                        const coco_cis& ci, const std::optional<stats::bootstrap_options>& boot) {
  const auto names = detection::coco_stat_names_of(r.params.type);
  if (json) {
    nlohmann::ordered_json j;
    j["protocol"] = "coco";
    j["iou_type"] = detection::iou_type_name(r.params.type);
    if (r.params.type == detection::iou_type::keypoints) j["kpt_oks_sigmas"] = r.params.kpt_oks_sigmas;
    nlohmann::ordered_json stats = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < names.size(); ++i) put(stats, names[i], r.stats[i]);
    j["stats"] = stats;
    if (ci) {
      nlohmann::ordered_json c = nlohmann::ordered_json::object();
      for (std::size_t i = 0; i < names.size(); ++i) c[names[i]] = interval_json((*ci)[i]);
      j["stats_ci"] = c;
      j["ci_level"] = boot->level;
      j["ci_method"] = ci_method_name(*boot, "images");
    }
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
  // The lines of pycocotools' summarize(): measure, IoU range, area range, maxDets.
  struct row {
    const char* measure;
    const char* iou;
    const char* area;
    int dets;
  };
  const auto& md = r.params.max_dets;
  const int last = md.back(), m0 = md.front(), m1 = md.size() > 1 ? md[1] : md.front();
  const bool kp = r.params.type == detection::iou_type::keypoints;
  std::vector<row> rows;
  if (kp) {
    for (const char* m : {"Average Precision  (AP)", "Average Recall     (AR)"})
      for (auto [iou, area] : {std::pair{"0.50:0.95", "all"}, {"0.50", "all"}, {"0.75", "all"}, {"0.50:0.95", "medium"},
                               {"0.50:0.95", "large"}})
        rows.push_back({m, iou, area, 20});
  } else {
    const char* ap = "Average Precision  (AP)";
    const char* ar = "Average Recall     (AR)";
    rows = {{ap, "0.50:0.95", "all", last},    {ap, "0.50", "all", last},       {ap, "0.75", "all", last},
            {ap, "0.50:0.95", "small", last},  {ap, "0.50:0.95", "medium", last}, {ap, "0.50:0.95", "large", last},
            {ar, "0.50:0.95", "all", m0},      {ar, "0.50:0.95", "all", m1},      {ar, "0.50:0.95", "all", last},
            {ar, "0.50:0.95", "small", last},  {ar, "0.50:0.95", "medium", last}, {ar, "0.50:0.95", "large", last}};
  }
  static const char* what[3] = {"bounding-box", "segmentation", "keypoint"};
  std::string out = fmt::format("COCO {} evaluation: {} images, {} categories, {} ground truths, {} detections\n",
                                what[static_cast<int>(r.params.type)], d.images.size(), d.categories.size(),
                                d.truths.size(), d.detections.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    out += fmt::format(" {} @[ IoU={:<9} | area={:>6} | maxDets={:>3} ] = {:<9} {}{}\n", rows[i].measure, rows[i].iou,
                       rows[i].area, rows[i].dets, num(r.stats[i]), names[i],
                       ci ? " " + interval_text((*ci)[i]) : std::string());
  if (ci)
    out += fmt::format("Intervals: {:g}% {}\n", 100 * boot->level, ci_method_name(*boot, "images"));
  out += fmt::format("\n{:<24} {:>7} {:>7} {:>7} {:>7} {:>7}\n", "category", "AP", "AP50", "AP75", "gt", "dt");
  for (std::size_t k = 0; k < d.categories.size(); ++k)
    out += fmt::format("{:<24} {:>7} {:>7} {:>7} {:>7} {:>7}\n", d.category_names[k], num(r.category_ap[k]),
                       num(r.category_ap50[k]), num(r.category_ap75[k]), r.category_gt[k], r.category_dt[k]);
  return out;
}

std::string voc_report(const detection::dataset& d, const detection_options& o, const detection::voc_params& p,
                       const detection::voc_result& r, const value& map_range, bool json, bool curves,
                       const std::optional<stats::bootstrap_result>& ci,
                       const std::optional<stats::bootstrap_options>& boot) {
  if (json) {
    nlohmann::ordered_json j;
    j["protocol"] = o.protocol;
    j["iou_threshold"] = p.iou_threshold;
    j["plus_one"] = p.plus_one;
    put(j, "mAP", r.map);
    if (ci) {
      j["mAP_ci"] = interval_json(*ci);
      j["ci_level"] = boot->level;
      j["ci_method"] = ci_method_name(*boot, "images");
    }
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
  out += fmt::format("mAP          = {}{}\nmAP@[.5:.95] = {}\n", num(r.map), ci ? " " + interval_text(*ci) : std::string(),
                     num(map_range));
  if (ci) out += fmt::format("Interval: {:g}% {}\n", 100 * boot->level, ci_method_name(*boot, "images"));
  out += "\n";
  out += fmt::format("{:<24} {:>7} {:>7} {:>10}\n", "class", "AP", "npos", "detections");
  for (std::size_t k = 0; k < d.categories.size(); ++k)
    out += fmt::format("{:<24} {:>7} {:>7} {:>10}\n", d.category_names[k], num(r.classes[k].ap), r.classes[k].npos,
                       r.classes[k].detections);
  return out;
}

// Single-quotes an argument when the shell would split or expand it.
std::string quote(const std::string& a) {
  if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") ==
                        std::string::npos)
    return a;
  std::string q = "'";
  for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string command_of(const detection_options& o, const std::optional<stats::bootstrap_options>& boot) {
  std::string c = "assay detection --gt " + quote(o.gt) + " --dt " + quote(o.dt);
  if (o.protocol != "coco") c += " --protocol " + o.protocol;
  if (o.protocol != "coco" && o.iou != 0.5) c += fmt::format(" --iou {}", o.iou);
  if (o.no_plus_one) c += " --no-plus-one";
  if (o.box_format != "xywh") c += " --box-format " + o.box_format;
  if (o.iou_type != "bbox") c += " --iou-type " + o.iou_type;
  if (!o.sigmas.empty()) {
    c += " --sigmas ";
    for (std::size_t i = 0; i < o.sigmas.size(); ++i) c += fmt::format("{}{}", i ? "," : "", o.sigmas[i]);
  }
  if (boot) c += fmt::format(" --ci {} --bootstrap {} --seed {}", boot->level, boot->replicates, boot->seed);
  return c + " --html " + quote(o.html);
}

detection_report::page_inputs page_inputs_of(const detection_options& o,
                                             const std::optional<stats::bootstrap_options>& boot) {
  detection_report::page_inputs p;
  p.gt_path = o.gt;
  p.dt_path = o.dt;
  p.protocol = o.protocol;
  p.iou = o.iou;
  p.plus_one = !o.no_plus_one;
  p.command = command_of(o, boot);
  if (boot) {
    p.ci_level = boot->level;
    p.ci_method = ci_method_name(*boot, "images");
  }
  return p;
}

void run(const detection_options& o) {
  current_command = "assay detection";
  const auto boot = ci_options(o.ci);
  if (o.protocol != "coco" && !(o.iou > 0 && o.iou < 1))
    throw_usage(fmt::format("--iou: must be in (0, 1), got {}", o.iou));
  detection::coco_read_options ro;
  ro.type = o.iou_type == "segm" ? detection::iou_type::segm
            : o.iou_type == "keypoints" ? detection::iou_type::keypoints
                                        : detection::iou_type::bbox;
  if (ro.type != detection::iou_type::bbox && o.protocol != "coco")
    throw_usage(fmt::format("--iou-type {}: needs --protocol coco (VOC evaluates boxes)", o.iou_type));
  if (!o.sigmas.empty() && ro.type != detection::iou_type::keypoints)
    throw_usage("--sigmas: only with --iou-type keypoints");
  auto params = detection::coco_params::for_type(ro.type);
  if (!o.sigmas.empty()) params.kpt_oks_sigmas = o.sigmas;
  ro.keypoints = params.kpt_oks_sigmas.size();
  const auto d = detection::read_dataset(o.gt, o.dt, o.box_format == "xyxy", ro);
  const bool json = o.format == "json";
  std::string text, svg;
  std::string html_page;
  if (o.protocol == "coco") {
    const auto m = detection::match_coco(d, params);
    const auto r = detection::accumulate_coco(m);
    coco_cis ci;
    if (boot) ci = detection::bootstrap_coco(m, *boot);
    text = coco_report(d, r, json, o.curves, ci, boot);
    if (!o.plot.empty() || !o.html.empty())
      svg = detection_report::pr_curves_svg(detection_report::coco_curves(d, r),
                                            ro.type == detection::iou_type::keypoints
                                                ? "Precision-recall per class, OKS 0.50 (legend: AP50)"
                                                : "Precision-recall per class, IoU 0.50 (legend: AP50)");
    if (!o.html.empty()) html_page = detection_report::coco_html(page_inputs_of(o, boot), d, r, ci ? &*ci : nullptr, svg);
  } else {
    detection::voc_params p;
    p.interpolation =
        o.protocol == "voc07" ? detection::voc_interpolation::eleven_point : detection::voc_interpolation::all_point;
    p.iou_threshold = o.iou;
    p.plus_one = !o.no_plus_one;
    const auto m = detection::match_voc(d, p);
    const auto r = detection::accumulate_voc(m);
    const value map_range = detection::voc_map_range(d, p);
    std::optional<stats::bootstrap_result> ci;
    if (boot) ci = detection::bootstrap_voc(m, *boot);
    text = voc_report(d, o, p, r, map_range, json, o.curves, ci, boot);
    if (!o.plot.empty() || !o.html.empty())
      svg = detection_report::pr_curves_svg(detection_report::voc_curves(d, r), "Precision-recall per class (legend: AP)");
    if (!o.html.empty())
      html_page = detection_report::voc_html(page_inputs_of(o, boot), d, r, map_range, ci ? &*ci : nullptr, svg);
  }
  // Files first, so that a failure to write one comes before any report output.
  if (!o.plot.empty()) write_output(o.plot, svg);
  if (!o.html.empty()) write_output(o.html, html_page);
  write_output(o.output, text);
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
      "  assay detection --gt gt.csv --dt dt.csv --protocol voc07 --format json\n"
      "  assay detection --gt instances_val.json --dt segm_results.json --iou-type segm\n"
      "  assay detection --gt person_keypoints_val.json --dt kp_results.json --iou-type keypoints\n"
      "  assay detection --gt gt.json --dt dt.json --ci 0.95 --bootstrap 1000 --seed 1 --html det.html");
  cmd->add_option("--gt", o->gt, "Ground truth: COCO JSON or CSV")->required();
  cmd->add_option("--dt", o->dt, "Detections: COCO results JSON or CSV")->required();
  cmd->add_option("--protocol", o->protocol, "coco (pycocotools), voc07 (11-point) or voc (VOC2010+ all-point)")
      ->check(CLI::IsMember({"coco", "voc07", "voc"}));
  cmd->add_option("--iou-type", o->iou_type,
                  "COCO: what detections are compared by: bbox (box IoU), segm (mask IoU of 'segmentation'), "
                  "keypoints (OKS of 'keypoints')")
      ->check(CLI::IsMember({"bbox", "segm", "keypoints"}));
  cmd->add_option("--sigmas", o->sigmas,
                  "Keypoints: the OKS sigma of each keypoint, comma-separated (default COCO's 17 person sigmas)")
      ->delimiter(',')
      ->type_name("S1,S2,...");
  cmd->add_option("--iou", o->iou, "VOC: IoU a match must exceed (default 0.5)");
  cmd->add_flag("--no-plus-one", o->no_plus_one, "VOC: drop the devkit's +1 in box widths and heights");
  cmd->add_option("--box-format", o->box_format, "CSV boxes: xywh (default) or xyxy")
      ->check(CLI::IsMember({"xywh", "xyxy"}));
  cmd->add_flag("--curves", o->curves,
                "JSON: add per-class precision-recall curves (COCO: 101-point at IoU 0.5; VOC: every ranked detection)");
  add_ci_options(cmd, o->ci, "images");
  auto not_stdout = [](const std::string& p) {
    return p == "-" ? std::string("needs a file name, not '-' (standard output carries the report)") : "";
  };
  cmd->add_option("--plot", o->plot, "Write the precision-recall curves per class as SVG to this file")
      ->type_name("PATH")
      ->check(not_stdout);
  cmd->add_option("--html", o->html, "Also write a self-contained HTML report (no network, no scripts) to this file")
      ->type_name("PATH")
      ->check(not_stdout);
  cmd->add_option("--format,-f", o->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--output,-o", o->output, "Write to this file instead of standard output");
  cmd->preparse_callback([](std::size_t) { current_command = "assay detection"; });
  cmd->callback([o] { run(*o); });
}

}  // namespace assay::cli
