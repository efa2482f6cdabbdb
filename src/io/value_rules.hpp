// Internal: the rules a parsed number must meet in a column of each type, shared by the serial
// reader (which names the broken rule in its error) and the parallel one (which gives up instead).
#pragma once

#include <cmath>

#include "assay/io/table.hpp"

namespace assay::io::detail {

enum class value_rule { ok, not_finite, negative_weight, outside_unit };

/// The first rule x breaks in a column of `type`: finite always; weights >= 0; probabilities in [0, 1].
inline value_rule broken_rule(column_type type, double x) noexcept {
  if (!std::isfinite(x)) return value_rule::not_finite;
  if (type == column_type::weight && x < 0) return value_rule::negative_weight;
  if (type == column_type::probability && !(x >= 0 && x <= 1)) return value_rule::outside_unit;
  return value_rule::ok;
}

}  // namespace assay::io::detail
