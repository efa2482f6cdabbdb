// Scoring a corpus segment by segment, the one loop of BLEU, TER and ROUGE (internal to src/text).
#pragma once

#include <cstddef>
#include <exception>
#include <fmt/format.h>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"

namespace assay::text::detail {

/// out[i] = score(hyps[i], the references of segment i: refs[j][i] for every stream j), for every
/// segment, on `threads` threads. The error of a bad segment is rethrown as "line i: ..." (1-based),
/// and it is the first bad line's whatever the schedule.
template <class Score>
auto score_segments(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                    unsigned threads, const Score& score) {
  using stats = std::decay_t<std::invoke_result_t<const Score&, const std::string&, const std::vector<std::string>&>>;
  std::vector<stats> out(hyps.size());
  std::vector<std::vector<std::string>> segment_refs(threads, std::vector<std::string>(refs.size()));
  std::mutex bad_mutex;
  std::size_t first_bad = hyps.size();
  std::exception_ptr bad;
  assay::detail::parallel_for(hyps.size(), threads, [&](unsigned t, std::size_t i) {
    for (std::size_t j = 0; j < refs.size(); ++j) segment_refs[t][j] = refs[j][i];
    try {
      out[i] = score(hyps[i], segment_refs[t]);
    } catch (const assay::error& e) {
      std::lock_guard<std::mutex> lock(bad_mutex);
      if (i < first_bad) {
        first_bad = i;
        bad = std::make_exception_ptr(assay::error(e.kind(), fmt::format("line {}: {}", i + 1, e.marked())));
      }
    }
  });
  if (bad) std::rethrow_exception(bad);
  return out;
}

}  // namespace assay::text::detail
