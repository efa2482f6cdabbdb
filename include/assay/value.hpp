// assay: a metric value that is either a number or undefined with a reason.
#pragma once

#include <cmath>
#include <limits>
#include <string>

namespace assay {

/// The result of a metric. Undefined results (0/0, a class that never occurs, a constant target)
/// carry a short reason instead of a made-up number; the CLI prints them as `undefined (reason)`
/// in text and as `null` plus a `"<name>_undefined"` reason in JSON. See docs/definitions.md.
struct value {
  double v = std::numeric_limits<double>::quiet_NaN();
  std::string reason;  ///< empty when defined

  value() = default;
  value(double x) : v(x) {}  // NOLINT(google-explicit-constructor): numbers convert implicitly

  static value undefined(std::string why) {
    value r;
    r.reason = std::move(why);
    return r;
  }
  [[nodiscard]] bool defined() const noexcept { return reason.empty(); }
  explicit operator bool() const noexcept { return defined(); }
};

/// num/den, or undefined with `why` when the denominator is zero.
inline value ratio(double num, double den, const char* why) {
  if (den == 0.0) return value::undefined(why);
  return value(num / den);
}

}  // namespace assay
