// assay: the range of a 64-bit key among the ranges cut by sorted splitters, in a few instructions
// (the out-of-core spill asks it for every row it spills: src/scale/spill.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace assay::scale::detail {

/// The ranges of 64-bit keys cut by ascending, unique splitters s_0 < ... < s_{n-1}: range p holds
/// the keys s_{p-1} <= key < s_p (range 0 those below s_0, range n those from s_{n-1} up).
/// index_of(key) is the number of splitters <= key, std::upper_bound's index, found from a table
/// of up to 4096 buckets of equal width over [s_0, s_{n-1}]: a bucket stores how many splitters lie
/// at or below its first key, so a key's answer lies between its bucket's entry and the next one's,
/// and the splitters between the two are scanned (a binary search when there are more than 8 of
/// them). This is the "lookup table over the key's leading bits" that radix partitioning uses in
/// place of a search (e.g. Polychroniou & Ross, "A comprehensive study of main-memory
/// partitioning and its application to large-scale comparison- and radix-sort", SIGMOD 2014,
/// section 3): a binary search over 200 splitters is a chain of 8 dependent loads a row, the
/// longest part of spilling a row (measured at 10^7 rows: ~7% of the capped run's CPU).
class key_ranges {
 public:
  key_ranges() = default;
  explicit key_ranges(std::vector<std::uint64_t> splitters) : s_(std::move(splitters)) {
    if (s_.empty()) return;
    const std::uint64_t span = s_.back() - s_.front();
    while ((span >> shift_) >= kBuckets) ++shift_;
    const std::size_t buckets = static_cast<std::size_t>(span >> shift_) + 1;
    first_.resize(buckets + 1);
    for (std::size_t b = 0; b < buckets; ++b) {
      const std::uint64_t start = s_.front() + (static_cast<std::uint64_t>(b) << shift_);  // <= s_.back()
      first_[b] = static_cast<std::uint32_t>(std::upper_bound(s_.begin(), s_.end(), start) - s_.begin());
    }
    first_[buckets] = static_cast<std::uint32_t>(s_.size());
  }

  [[nodiscard]] const std::vector<std::uint64_t>& splitters() const { return s_; }

  /// The number of splitters <= key.
  [[nodiscard]] std::size_t index_of(std::uint64_t key) const {
    if (s_.empty() || key < s_.front()) return 0;
    if (key >= s_.back()) return s_.size();
    const auto b = static_cast<std::size_t>((key - s_.front()) >> shift_);
    std::size_t p = first_[b];
    const std::size_t end = first_[b + 1];
    if (end - p > 8) {
      return static_cast<std::size_t>(std::upper_bound(s_.begin() + static_cast<std::ptrdiff_t>(p),
                                                       s_.begin() + static_cast<std::ptrdiff_t>(end), key) -
                                      s_.begin());
    }
    while (p < end && s_[p] <= key) ++p;
    return p;
  }

 private:
  static constexpr std::uint64_t kBuckets = 4096;
  std::vector<std::uint64_t> s_;
  unsigned shift_ = 0;
  std::vector<std::uint32_t> first_;  // per bucket: the splitters <= its first key; then s_.size()
};

}  // namespace assay::scale::detail
