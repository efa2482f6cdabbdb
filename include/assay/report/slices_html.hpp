// assay: the self-contained HTML page of a sliced report (`assay report --by COL --html FILE`,
// assay.report(..., by=...) in Jupyter): the overall headline numbers, for each headline metric a
// table of the slices (value, interval, test against the rest, adjusted p) and a forest plot (each
// slice's value and interval, a dashed reference line at the overall value), then each slice's
// headline numbers. Built on the document builder of html.hpp and the SVG writer of plot/svg.hpp;
// no script, no network. Section ids: docs/html-report.md.
#pragma once

#include <string>

#include "assay/report/slices.hpp"

namespace assay {

/// The forest plot shows at most this many slices (the first in key order); the table lists all.
inline constexpr std::size_t forest_max_slices = 60;

/// The page of a sliced report.
std::string to_html(const sliced_report& r);

}  // namespace assay
