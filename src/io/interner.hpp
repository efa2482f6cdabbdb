// Internal: interns the label strings of one column into its levels (first-seen order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "assay/io/table.hpp"
#include "assay/io/text.hpp"

namespace assay::io::detail {

// A handful of short levels is the common case ("0"/"1", "pos"/"neg"), in random order (which
// defeats a branch predictor): a one-byte label is found in a table of all 256 bytes; while every
// level has at most 8 bytes and there are at most 8, each is kept as one 64-bit word and a label is
// found by comparing its word with all of them, without branches. Beyond that, a one-entry cache
// and a linear scan, then a hash map.
//
// A label is text that assay keeps and writes out, so it must be valid UTF-8 (assay/io/text.hpp):
// a new level that is not is refused with code -1 (and not added). Only new levels are checked,
// once each, so the check costs nothing per row.
class interner {
 public:
  explicit interner(column& c) : col_(&c) {
    for (auto& b : byte_code_) b = -1;
  }
  /// The code of label `s` (a new one is added), or -1 if `s` is new and not valid UTF-8.
  std::int32_t code(std::string_view s) {
    if (s.size() == 1 && byte_code_[static_cast<unsigned char>(s[0])] >= 0) {
      return byte_code_[static_cast<unsigned char>(s[0])];
    }
    if (small_) {
      if (s.size() <= 8) {
        const std::uint64_t k = pack(s);
        std::int32_t found = -1;
        for (std::size_t i = 0; i < n_small_; ++i)
          found = (keys_[i] == k && sizes_[i] == s.size()) ? static_cast<std::int32_t>(i) : found;
        if (found >= 0) return found;
      }
    } else if (last_ >= 0 && same(col_->levels[static_cast<std::size_t>(last_)], s)) {
      return last_;  // the same label as the previous row
    }
    return slow(s);
  }

  /// Forgets the levels added after the first `n` (a reader that interned the labels of a row it then
  /// skips): as if they had never been seen. O(levels removed), plus O(8) when few levels remain.
  void keep_first(std::size_t n) {
    auto& levels = col_->levels;
    while (levels.size() > n) {
      const std::string& s = levels.back();
      if (s.size() == 1) byte_code_[static_cast<unsigned char>(s[0])] = -1;
      if (!map_.empty()) map_.erase(s);
      levels.pop_back();
    }
    if (levels.size() <= 16) map_.clear();  // slow() scans up to 16 levels, and rebuilds the map past them
    small_ = levels.size() <= 8;
    n_small_ = 0;
    for (const auto& l : levels) {
      if (!small_) break;
      small_ = l.size() <= 8;
      keys_[n_small_] = pack(l);
      sizes_[n_small_++] = l.size();
    }
    last_ = -1;
  }

 private:
  // Labels are short: an inline comparison beats a call to memcmp per cell (which cost ~7% of a
  // 10^7-row read).
  static bool same(const std::string& level, std::string_view s) noexcept {
    if (level.size() != s.size()) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (level[i] != s[i]) return false;
    }
    return true;
  }
  std::int32_t remember(std::int32_t c) { return last_ = c; }
  static std::uint64_t pack(std::string_view s) noexcept {
    std::uint64_t k = 0;
    for (std::size_t i = 0; i < s.size(); ++i) k |= std::uint64_t{static_cast<unsigned char>(s[i])} << (8 * i);
    return k;
  }
  std::int32_t slow(std::string_view s) {
    auto& levels = col_->levels;
    if (levels.size() <= 16) {
      for (std::size_t i = 0; i < levels.size(); ++i) {
        if (same(levels[i], s)) return remember(static_cast<std::int32_t>(i));
      }
    } else {
      if (auto it = map_.find(s); it != map_.end()) return remember(it->second);
    }
    if (!is_utf8(s)) return -1;
    auto c = static_cast<std::int32_t>(levels.size());
    levels.emplace_back(s);
    if (s.size() == 1) byte_code_[static_cast<unsigned char>(s[0])] = c;
    if (small_ && s.size() <= 8 && n_small_ < 8 && n_small_ + 1 == levels.size()) {
      keys_[n_small_] = pack(s);
      sizes_[n_small_++] = s.size();
    } else {
      small_ = false;
    }
    if (levels.size() > 16) {
      if (map_.empty()) {
        for (std::size_t i = 0; i < levels.size(); ++i) map_.emplace(levels[i], static_cast<std::int32_t>(i));
      } else {
        map_.emplace(levels.back(), c);
      }
    }
    return remember(c);
  }

  column* col_;
  std::int32_t last_ = -1;
  bool small_ = true;  // keys_ holds every level
  std::size_t n_small_ = 0;
  std::uint64_t keys_[8] = {};
  std::size_t sizes_[8] = {};
  std::int32_t byte_code_[256];  // code of each one-byte label, or -1
  struct hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::int32_t, hash, std::equal_to<>> map_;
};

}  // namespace assay::io::detail
