// assay: figures and the self-contained HTML page of `assay detection` (precision-recall curves
// per class as SVG, the 12 COCO numbers or VOC mAP with their intervals, the per-class table).
// Built on the document builder of html.hpp; no script, no network.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <array>

#include "assay/detection/coco.hpp"
#include "assay/detection/dataset.hpp"
#include "assay/detection/voc.hpp"
#include "assay/report/html.hpp"
#include "assay/stats/bootstrap.hpp"
#include "assay/value.hpp"

namespace assay::detection_report {

/// One class's precision-recall curve (points in order of increasing recall) and its AP.
struct pr_curve {
  std::string name;
  std::vector<double> recall, precision;
  value ap;
};

/// The curves as one standalone SVG: overlaid in one chart with a legend "name (AP 0.512)" when
/// there are at most `overlay_max` curves, else small multiples (one panel per class, titled with
/// its name and AP, at most `max_panels` panels; the SVG then says how many were left out). Each
/// curve is drawn with at most `max_points` points (evenly spaced ranks, the last one kept);
/// reported numbers never depend on this.
std::string pr_curves_svg(const std::vector<pr_curve>& curves, const std::string& title, std::size_t overlay_max = 8,
                          std::size_t max_panels = 100, std::size_t max_points = 1000);

/// One row of the per-class table: name, then cells (values or integers) in `columns` order.
struct class_row {
  std::string name;
  std::vector<value> cells;
};

/// The content of the page.
struct page {
  std::string title, subtitle;
  std::vector<std::pair<std::string, std::string>> setup;  ///< data and options
  std::string command;                                     ///< shell command that reproduces it
  std::vector<html::headline> headlines;                   ///< 12 COCO numbers or VOC mAP (with intervals)
  std::string table_caption;                               ///< caption of the per-class table
  std::vector<std::string> columns;                        ///< per-class table header after "class"
  std::vector<bool> count_columns;                         ///< per column: integers (counts), else 3 decimals
  std::vector<class_row> classes;
  html::figure pr_figure;                                  ///< SVG from pr_curves_svg
  std::vector<std::string> notes;                          ///< paragraphs for the "Notes" section
};

/// The whole HTML page (html::document): setup, headline numbers, per-class table, PR figure, notes.
std::string render_page(const page& p);

/// What the detection pages show about how they were made.
struct page_inputs {
  std::string gt_path, dt_path;
  std::string protocol = "coco";  ///< coco, voc07 or voc
  double iou = 0.5;               ///< VOC threshold
  bool plus_one = true;           ///< VOC +1 pixel convention
  std::string command;            ///< the command line that reproduces the page
  double ci_level = 0.95;
  std::string ci_method;          ///< empty when no interval was asked for
};

/// COCO's interpolated precision on its recall grid at the first IoU threshold (0.50), area all,
/// last maxDets, per category, with AP50; empty for a category without ground truth.
std::vector<pr_curve> coco_curves(const detection::dataset& d, const detection::coco_result& r);

/// VOC's precision envelope (monotone from the right) at every ranked detection, per class, with AP.
std::vector<pr_curve> voc_curves(const detection::dataset& d, const detection::voc_result& r);

/// The page of a COCO evaluation: the 12 numbers (with intervals when `ci` is given), the
/// per-category table (AP, AP50, AP75, ground truths, detections) and the PR figure `svg`.
std::string coco_html(const page_inputs& in, const detection::dataset& d, const detection::coco_result& r,
                      const std::array<stats::bootstrap_result, 12>* ci, const std::string& svg);

/// The page of a VOC evaluation: mAP (with its interval when `ci` is given), mAP@[.5:.95], per class.
std::string voc_html(const page_inputs& in, const detection::dataset& d, const detection::voc_result& r,
                     const value& map_range, const stats::bootstrap_result* ci, const std::string& svg);

}  // namespace assay::detection_report
