// assay (internal): a list of strings as one byte string, for the scale-out protocols' gathers
// (src/scale/over_ranks*.cpp): each string's length (8 bytes, host order: the bytes never leave
// one run), then its bytes.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace assay::scale::detail {

inline std::string pack_strings(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& x : v) {
    const std::uint64_t n = x.size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out.append(x);
  }
  return out;
}

/// Throws std::runtime_error for bytes pack_strings did not write (truncated).
inline std::vector<std::string> unpack_strings(std::string_view b) {
  std::vector<std::string> out;
  while (!b.empty()) {
    std::uint64_t n = 0;
    if (b.size() < sizeof n) throw std::runtime_error("unpack_strings: truncated length");
    std::memcpy(&n, b.data(), sizeof n);
    b.remove_prefix(sizeof n);
    if (n > b.size()) throw std::runtime_error("unpack_strings: truncated string");
    out.emplace_back(b.substr(0, n));
    b.remove_prefix(n);
  }
  return out;
}

}  // namespace assay::scale::detail
