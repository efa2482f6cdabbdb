// assay: which engine can evaluate a request, and why not. The one place of these rules: the CLI
// asks here before it reads a file in pieces (assay report --max-memory, or by itself when the file
// may not fit in memory), instead of deciding in its own words.
#pragma once

#include <optional>
#include <string>

#include "assay/report/report.hpp"

namespace assay::scale {

/// The engines that read a file in pieces into a mergeable state.
enum class engine {
  out_of_core,         ///< make_report_out_of_core (scale/out_of_core.hpp)
  sliced_out_of_core,  ///< make_sliced_report_out_of_core: the report per slice (--by)
};

/// Why `e` cannot evaluate `q`, with the request's parameters named (assay::param), or nullopt when
/// it can. `automatic`: whether the engine may be chosen without being asked for (the file may not
/// fit in memory): only where its state is not a copy of every row, that is without class
/// probabilities or regression (whose intervals keep every row's id) and, sliced, without intervals
/// that resample rows.
std::optional<std::string> why_not(const report_request& q, engine e, bool automatic);

}  // namespace assay::scale
