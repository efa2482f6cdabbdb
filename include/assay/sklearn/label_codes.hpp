// assay: numeric class labels of arrays in memory turned into class indices, in one pass where the
// labels are small integers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace assay::sklearn {

/// The classes of one or two numeric label arrays and every label's index among them.
struct numeric_label_codes {
  std::vector<double> classes;              ///< sorted union of the distinct values (numeric order)
  std::vector<std::int32_t> first, second;  ///< index into `classes` of each entry of each array
};

/// Encodes numeric labels the way np.unique / scikit-learn's unique_labels orders them: classes are
/// the distinct values of `first` and `second` together, in increasing numeric order, and -0.0 is the
/// class 0. `second` may be empty. Integral values in a range of at most 2^20 are counted in a table
/// (one pass, no sort); anything else is sorted. Throws assay::error (usage) naming `caller` and the
/// index for a NaN label (NaN is no class).
numeric_label_codes encode_numeric_labels(std::span<const double> first, std::span<const double> second,
                                          const char* caller = "encode_numeric_labels");

}  // namespace assay::sklearn
