// Private helpers: n-gram multisets as sorted (n-gram, count) lists, keyed by views into the text.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace assay::text::detail {

template <class K>
using counts = std::vector<std::pair<K, long>>;

/// Sorts `keys` and run-length encodes them.
template <class K>
counts<K> count(std::vector<K>& keys) {
  std::sort(keys.begin(), keys.end());
  counts<K> out;
  for (std::size_t i = 0; i < keys.size();) {
    std::size_t j = i + 1;
    while (j < keys.size() && keys[j] == keys[i]) ++j;
    out.emplace_back(keys[i], static_cast<long>(j - i));
    i = j;
  }
  return out;
}

/// Per key, the largest count over several lists.
template <class K>
counts<K> max_counts(const std::vector<counts<K>>& lists) {
  if (lists.size() == 1) return lists[0];
  counts<K> all;
  for (const auto& l : lists) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  counts<K> out;
  for (const auto& [k, c] : all) {
    if (!out.empty() && out.back().first == k) out.back().second = std::max(out.back().second, c);
    else out.emplace_back(k, c);
  }
  return out;
}

/// Sum over keys of min(count in a, count in b): the clipped matches.
template <class K>
long clipped_matches(const counts<K>& a, const counts<K>& b) {
  long m = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].first < b[j].first) ++i;
    else if (b[j].first < a[i].first) ++j;
    else {
      m += std::min(a[i].second, b[j].second);
      ++i, ++j;
    }
  }
  return m;
}

/// Sum of the counts in `a` whose key appears in `b` (membership, not clipped).
template <class K>
long present_in(const counts<K>& a, const counts<K>& b) {
  long m = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].first < b[j].first) ++i;
    else if (b[j].first < a[i].first) ++j;
    else {
      m += a[i].second;
      ++i, ++j;
    }
  }
  return m;
}

template <class K>
long total(const counts<K>& a) {
  long t = 0;
  for (const auto& p : a) t += p.second;
  return t;
}

/// An n-gram packed into two 64-bit words: up to 4 ids of 32 bits or up to 6 code points of 21 bits.
/// Packing is exact (no hashing), so equal keys mean equal n-grams of the same order.
using key = std::pair<std::uint64_t, std::uint64_t>;

/// Assigns ids (1, 2, ...) to the distinct words of several token lists, shared across the lists, in
/// order of first appearance. An open-addressing hash table (FNV-1a, linear probing) sized to a power
/// of two at least twice the number of words; equal words are compared in full, so ids are exact.
inline std::vector<std::vector<std::uint32_t>> intern(const std::vector<const std::vector<std::string_view>*>& lists) {
  std::size_t total = 0;
  for (const auto* l : lists) total += l->size();
  std::size_t cap = 16;
  while (cap < 2 * total) cap *= 2;
  struct slot {
    std::string_view word;
    std::uint32_t id = 0;  // 0 = empty
  };
  thread_local std::vector<slot> table;
  table.assign(cap, slot{});
  std::vector<std::vector<std::uint32_t>> ids(lists.size());
  std::uint32_t next = 0;
  for (std::size_t l = 0; l < lists.size(); ++l) {
    ids[l].resize(lists[l]->size());
    for (std::size_t i = 0; i < lists[l]->size(); ++i) {
      const std::string_view w = (*lists[l])[i];
      std::uint64_t h = 1469598103934665603ULL;
      for (unsigned char c : w) h = (h ^ c) * 1099511628211ULL;
      std::size_t at = static_cast<std::size_t>(h) & (cap - 1);
      while (table[at].id != 0 && table[at].word != w) at = (at + 1) & (cap - 1);
      if (table[at].id == 0) table[at] = {w, ++next};
      ids[l][i] = table[at].id;
    }
  }
  return ids;
}

/// The one packing kernel: the n-grams of `seq` as keys, counted. Element k of an n-gram is
/// value_of(seq[i + k]) (must be < 2^Bits), stored in word k / PerWord of the key at bit offset
/// Bits * (PerWord - 1 - k % PerWord); unused slots are 0, so n-grams of different orders differ
/// as long as values are nonzero. K is `key` (two words, n <= 2 * PerWord) or std::uint64_t (one
/// word, n <= PerWord).
template <class K, unsigned Bits, unsigned PerWord, class Seq, class Value>
counts<K> packed_ngrams(const Seq& seq, std::size_t n, Value value_of) {
  static_assert(Bits * PerWord <= 64);
  std::vector<K> g;
  if (seq.size() >= n) {
    g.reserve(seq.size() - n + 1);
    for (std::size_t i = 0; i + n <= seq.size(); ++i) {
      std::uint64_t w[2] = {0, 0};
      for (std::size_t k = 0; k < n; ++k)
        w[k / PerWord] |= static_cast<std::uint64_t>(value_of(seq[i + k])) << (Bits * (PerWord - 1 - k % PerWord));
      if constexpr (std::is_same_v<K, std::uint64_t>) g.push_back(w[0]);
      else g.emplace_back(w[0], w[1]);
    }
  }
  return count(g);
}

/// The n-grams (n <= 4) of an id sequence whose ids are all below 2^16, in one 64-bit word each.
inline counts<std::uint64_t> small_id_ngrams(const std::vector<std::uint32_t>& ids, std::size_t n) {
  return packed_ngrams<std::uint64_t, 16, 4>(ids, n, [](std::uint32_t id) { return id; });
}

/// The n-grams (n <= 4) of an id sequence (ids >= 1) as packed keys, counted.
inline counts<key> id_ngrams(const std::vector<std::uint32_t>& ids, std::size_t n) {
  return packed_ngrams<key, 32, 2>(ids, n, [](std::uint32_t id) { return id; });
}

/// The n-grams (n <= 6) of a code point sequence as packed keys (code point + 1, 21 bits), counted.
inline counts<key> char_ngrams(const std::u32string& s, std::size_t n) {
  return packed_ngrams<key, 21, 3>(s, n, [](char32_t c) { return static_cast<std::uint64_t>(c) + 1; });
}

}  // namespace assay::text::detail
