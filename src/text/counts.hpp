// Private helpers: n-gram multisets as sorted (n-gram, count) lists, keyed by views into the text.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
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

/// Word n-grams of order n as views spanning from the first word's start to the last word's end;
/// `words` must be views into one text where consecutive words are separated by exactly one space.
inline std::vector<std::string_view> word_ngrams(const std::vector<std::string_view>& words, std::size_t n) {
  std::vector<std::string_view> out;
  if (words.size() < n) return out;
  for (std::size_t i = 0; i + n <= words.size(); ++i) {
    const char* b = words[i].data();
    const char* e = words[i + n - 1].data() + words[i + n - 1].size();
    out.emplace_back(b, static_cast<std::size_t>(e - b));
  }
  return out;
}

/// Joins words with single spaces into `buf` and returns views of the words inside it (valid while
/// `buf` is not modified).
inline std::vector<std::string_view> join_into(const std::vector<std::string_view>& words, std::string& buf) {
  std::size_t len = 0;
  for (auto w : words) len += w.size() + 1;
  buf.clear();
  buf.reserve(len);
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  spans.reserve(words.size());
  for (auto w : words) {
    if (!buf.empty()) buf.push_back(' ');
    spans.emplace_back(buf.size(), w.size());
    buf.append(w);
  }
  std::vector<std::string_view> out;
  out.reserve(words.size());
  for (auto [b, n] : spans) out.emplace_back(buf.data() + b, n);
  return out;
}

}  // namespace assay::text::detail
