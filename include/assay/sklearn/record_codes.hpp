// assay: class labels stored as fixed-width records (NumPy's 'U' and 'S' string arrays) coded by
// hashing, in one pass, instead of a sort of the strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace assay::sklearn {

/// The distinct records of two arrays of fixed-width records, in order of first appearance, and each
/// record's index among them.
struct record_codes {
  std::vector<std::int64_t> first;          ///< position of each distinct record's first occurrence
                                            ///< (positions of `second` follow those of `first`)
  std::vector<std::int32_t> codes_first;    ///< index into `first` of each record of `first`
  std::vector<std::int32_t> codes_second;   ///< the same for `second`
};

/// Codes `first` and `second`, arrays of records of `width` bytes each (their sizes are multiples of
/// `width`); two records are the same class when their bytes are equal. The order of the classes is
/// left to the caller (it sorts the few distinct records, with the collation it needs). Throws
/// assay::error (usage) for width 0 or a size that is not a multiple of it.
record_codes encode_records(std::span<const std::uint8_t> first, std::span<const std::uint8_t> second,
                            std::size_t width);

}  // namespace assay::sklearn
