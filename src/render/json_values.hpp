// Numbers in the JSON renderings: JSON has no NaN or infinity, so a number that is undefined (or
// not finite) is written as null; the reason, where a renderer keeps it, goes in a field beside it.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>

#include "assay/value.hpp"

namespace assay::render {

/// The value's number, or null when it is undefined.
inline nlohmann::json json_value(const value& v) { return v.defined() ? nlohmann::json(v.v) : nlohmann::json(nullptr); }

/// The number, or null when it is NaN or infinite.
inline nlohmann::json json_number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

/// The value's number, or null when it is undefined or not finite.
inline nlohmann::json json_finite(const value& v) { return v.defined() ? json_number(v.v) : nlohmann::json(nullptr); }

}  // namespace assay::render
