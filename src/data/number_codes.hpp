// assay (internal): numeric labels coded in the order they are first seen, shared by the prediction
// table built from arrays (src/data/predictions.cpp) and the mergeable state's batches
// (src/scale/state_update.cpp), so both code a column of numbers alike and cheaply.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace assay::detail {

/// The code of each distinct number, in first-seen order. Labels take few values: small integers
/// (-128..127, the usual 0/1, -1/1 and class numbers) go through a table indexed by the value (one
/// predictable test and one load a row); other numbers through a linear scan of the values seen (in
/// cache, no hashing) until there are 32, then a hash map.
class number_codes {
 public:
  /// (the code of `key`, whether `key` is new); `key` is finite and not -0 (give x + 0.0).
  std::pair<std::int32_t, bool> code(double key) {
    if (key >= lo && key < lo + static_cast<int>(span)) {
      const int k = static_cast<int>(key);  // truncates toward 0; equal to key only for integers
      if (static_cast<double>(k) == key) {
        std::int32_t& cached = small_[static_cast<std::size_t>(k - lo)];
        if (cached >= 0) return {cached, false};
        const auto r = code_of_any(key);
        cached = r.first;
        return r;
      }
    }
    return code_of_any(key);
  }
  /// How many distinct numbers have been seen.
  [[nodiscard]] std::size_t size() const { return keys_.size(); }

 private:
  static constexpr int lo = -128;
  static constexpr std::size_t span = 256, few = 32;

  std::pair<std::int32_t, bool> code_of_any(double key) {
    if (many_.empty()) {
      for (std::size_t k = 0; k < keys_.size(); ++k) {
        if (keys_[k] == key) return {static_cast<std::int32_t>(k), false};
      }
      if (keys_.size() < few) return add(key);
      for (std::size_t k = 0; k < keys_.size(); ++k) many_.emplace(keys_[k], static_cast<std::int32_t>(k));
    }
    const auto it = many_.find(key);
    if (it != many_.end()) return {it->second, false};
    many_.emplace(key, static_cast<std::int32_t>(keys_.size()));
    return add(key);
  }
  std::pair<std::int32_t, bool> add(double key) {
    keys_.push_back(key);
    return {static_cast<std::int32_t>(keys_.size() - 1), true};
  }

  std::array<std::int32_t, span> small_ = [] {
    std::array<std::int32_t, span> a{};
    a.fill(-1);
    return a;
  }();
  std::vector<double> keys_;
  std::unordered_map<double, std::int32_t> many_;
};

}  // namespace assay::detail
