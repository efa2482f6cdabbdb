// Test helpers: loading the committed reference JSON (tests/stats/*.json) and reading its numbers.
#pragma once

#include <cmath>
#include <functional>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "assay/error.hpp"

namespace assay::stats::testing {

inline const nlohmann::json& load_reference(const std::string& name) {
  static std::map<std::string, nlohmann::json> cache;  // node-based: references stay valid
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  std::ifstream in(std::string(ASSAY_TEST_DIR) + "/stats/" + name);
  if (!in) throw std::runtime_error("cannot open reference file " + name);
  return cache.emplace(name, nlohmann::json::parse(in)).first->second;
}

/// A number written by the generators: a JSON number, or "nan" / "inf" / "-inf".
inline double num(const nlohmann::json& j) {
  if (j.is_string()) {
    const auto s = j.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    throw std::runtime_error("not a number: " + s);
  }
  return j.get<double>();
}

inline std::vector<double> nums(const nlohmann::json& j) {
  std::vector<double> v;
  for (const auto& e : j) v.push_back(num(e));
  return v;
}

/// |a - b| <= rel * |b| + abs_tol.
inline bool close(double a, double b, double rel, double abs_tol = 0) {
  if (std::isnan(b)) return std::isnan(a);
  if (std::isinf(b)) return a == b;
  return std::fabs(a - b) <= rel * std::fabs(b) + abs_tol;
}

/// The message of the assay::error that `f` throws, or "no throw".
inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const assay::error& e) {
    return e.what();
  }
  return "no throw";
}

}  // namespace assay::stats::testing
