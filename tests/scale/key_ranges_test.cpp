// The key ranges of the out-of-core spill (src/scale/key_ranges.hpp): index_of equals
// std::upper_bound's index over the splitters, for every kind of splitter set.
#include "../../src/scale/key_ranges.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace assay::scale::detail {
namespace {

std::size_t naive(const std::vector<std::uint64_t>& s, std::uint64_t key) {
  std::size_t n = 0;
  for (std::uint64_t x : s) n += x <= key ? 1 : 0;
  return n;
}

// Keys at, next to and between the splitters, at both ends of the 64-bit range, and random ones.
void check(std::vector<std::uint64_t> s, std::mt19937_64& g) {
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  const key_ranges r(s);
  ASSERT_EQ(r.splitters(), s);
  std::vector<std::uint64_t> keys{0, 1, std::numeric_limits<std::uint64_t>::max(),
                                  std::numeric_limits<std::uint64_t>::max() - 1};
  for (std::uint64_t x : s) {
    keys.push_back(x);
    keys.push_back(x - 1);
    keys.push_back(x + 1);
  }
  for (int i = 0; i < 2000; ++i) keys.push_back(g());
  if (!s.empty()) {
    std::uniform_int_distribution<std::uint64_t> within(s.front(), s.back());
    for (int i = 0; i < 5000; ++i) keys.push_back(within(g));
  }
  for (std::uint64_t k : keys) ASSERT_EQ(r.index_of(k), naive(s, k)) << "key " << k << " of " << s.size();
}

TEST(KeyRanges, IndexIsTheNumberOfSplittersAtOrBelowTheKey) {
  std::mt19937_64 g(5);
  check({}, g);
  check({42}, g);
  check({0}, g);
  check({std::numeric_limits<std::uint64_t>::max()}, g);
  check({0, std::numeric_limits<std::uint64_t>::max()}, g);
  check({7, 8}, g);  // a span below the table's bucket count: width-1 buckets
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 1 + g() % 600;
    std::vector<std::uint64_t> s;
    switch (trial % 4) {
      case 0:  // anywhere in the 64-bit range
        for (std::size_t i = 0; i < n; ++i) s.push_back(g());
        break;
      case 1:  // order keys of scores in [0, 1] (the spill's case): dense in the top binades
        for (std::size_t i = 0; i < n; ++i) {
          const double x = std::uniform_real_distribution<double>(0, 1)(g);
          s.push_back(std::bit_cast<std::uint64_t>(x) | (std::uint64_t{1} << 63));
        }
        break;
      case 2:  // skewed: most splitters in one narrow cluster, one far away (long scans: the search)
        for (std::size_t i = 0; i < n; ++i) s.push_back(1000000 + g() % 5000);
        s.push_back(g() | (std::uint64_t{1} << 62));
        break;
      default:  // consecutive keys
        for (std::size_t i = 0; i < n; ++i) s.push_back(123456789 + i);
        break;
    }
    check(s, g);
  }
}

}  // namespace
}  // namespace assay::scale::detail
