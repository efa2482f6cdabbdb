// Shared helpers of the differential tests against scikit-learn (tests/reference/*_test.cpp).
//
// Tolerance, stated once for every comparison with a peer's number:
//   |assay - sklearn| <= max(1e-12 * |sklearn|, 1e-15)
// i.e. 1e-12 relative, with an absolute floor of 1e-15 for values at or near 0 (a perfect score's
// error of 0, an MCC of 0). The inputs are read from JSON/CSV written with Python's repr(), so both
// sides start from the same doubles; what remains is summation order and algebraically equal but
// differently rounded formulas (a few ulps).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "assay/value.hpp"

namespace assay::reference {

using json = nlohmann::json;

inline constexpr double relative_tolerance = 1e-12;
inline constexpr double absolute_tolerance = 1e-15;

inline bool close(double got, double want) {
  return std::abs(got - want) <= std::max(relative_tolerance * std::abs(want), absolute_tolerance);
}

inline json load_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str());
}

/// The path of a file of tests/reference/.
inline std::string reference_path(const std::string& name) { return std::string(ASSAY_TEST_DIR) + "/reference/" + name; }

/// Counts every comparison made, so that a test can assert it compared something.
inline std::size_t& comparisons() {
  static std::size_t n = 0;
  return n;
}

/// The largest |assay - sklearn| / |sklearn| seen (over nonzero sklearn values), for the log.
inline double& max_relative_difference() {
  static double d = 0;
  return d;
}
inline void note_difference(double got, double want) {
  if (want != 0) max_relative_difference() = std::max(max_relative_difference(), std::abs(got - want) / std::abs(want));
}

/// `got` against sklearn's `want`: a number within tolerance, or (want null) undefined.
inline void expect_value(const value& got, const json& want, const std::string& what) {
  ++comparisons();
  if (want.is_null()) {
    EXPECT_FALSE(got.defined()) << what << ": 0/0 in sklearn (null expected), but assay gives " << got.v;
    return;
  }
  ASSERT_TRUE(want.is_number()) << what << ": expected value is " << want.dump();
  const double w = want.get<double>();
  ASSERT_TRUE(got.defined()) << what << ": assay says undefined (" << got.reason << "), sklearn gives " << w;
  note_difference(got.v, w);
  EXPECT_TRUE(close(got.v, w)) << what << ": assay " << got.v << " vs sklearn " << w << " (difference "
                               << got.v - w << ")";
}

/// A number of the JSON report against sklearn's: both null (with a reason next to it) or both close.
inline void expect_json(const json& parent, const std::string& key, const json& want, const std::string& what) {
  ++comparisons();
  ASSERT_TRUE(parent.contains(key)) << what << ": key '" << key << "' missing from the report";
  const json& got = parent.at(key);
  if (want.is_null()) {
    EXPECT_TRUE(got.is_null()) << what << ": 0/0 in sklearn (null expected), but the report has " << got.dump();
    EXPECT_TRUE(parent.contains(key + "_undefined") && parent.at(key + "_undefined").is_string() &&
                !parent.at(key + "_undefined").get<std::string>().empty())
        << what << ": a null needs a reason under '" << key << "_undefined'";
    return;
  }
  ASSERT_TRUE(got.is_number()) << what << ": report has " << got.dump() << ", sklearn gives " << want.dump();
  const double g = got.get<double>(), w = want.get<double>();
  note_difference(g, w);
  EXPECT_TRUE(close(g, w)) << what << ": report " << g << " vs sklearn " << w << " (difference " << g - w << ")";
}

/// Prints how many values a test compared and the largest relative difference so far.
inline void log_comparisons(const char* test, std::size_t n) {
  std::printf("[ reference ] %s: %zu values compared with sklearn; largest relative difference so far %.3g\n", test, n,
              max_relative_difference());
}

}  // namespace assay::reference
