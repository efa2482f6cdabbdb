// TER as sacreBLEU 2 computes it; see include/assay/text/ter.hpp.
//
// The search follows the description of Snover et al. (2006) with the limits and tie-breaking of
// sacreBLEU's lib_ter.py (itself after Tercom): the edit distance is a Levenshtein distance on a
// band around the diagonal, and shifts are tried greedily. Words are compared as integer ids.
#include "assay/text/ter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <mutex>

#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"
#include "assay/stats/bootstrap_many.hpp"
#include "assay/text/tokenize.hpp"
#include "counts.hpp"
#include "segments.hpp"
#include "ter_internal.hpp"

namespace assay::text {

namespace {

using ids = std::vector<std::uint32_t>;
using cost = std::int64_t;

constexpr cost infinity = 10000000000000000LL;  // cells outside the band
constexpr int max_shift_size = 10;               // longest block a shift moves
constexpr int max_shift_dist = 50;               // largest |reference start - hypothesis start|
constexpr int beam = 25;                         // band half-width around the diagonal
constexpr int max_candidates = 1000;             // shift candidates tried per sentence pair, in all

// The edit operation that reached a cell, turning the hypothesis into the reference: match,
// substitution, deletion of a hypothesis word, insertion of a reference word.
enum op : char { op_match, op_sub, op_del, op_ins, op_none };

// Levenshtein distance from the hypothesis (rows) to the fixed reference (columns), on the band of
// rows i = 1..n between columns floor(i * r) - w and floor(i * r) + w - 1, with r = |ref| / |hyp|
// and w = 25 (wider when r / 2 > 25); the last row is computed up to the last column. Cells outside
// the band are infinite. Ties prefer match/substitution, then deletion, then insertion.
class banded_distance {
 public:
  explicit banded_distance(const ids& ref) : ref_(ref), m_(ref.size()) {}

  void set_length(std::size_t n) {
    n_ = n;
    ratio_ = n > 0 ? static_cast<double>(m_) / static_cast<double>(n) : 1.0;
    width_ = beam < ratio_ / 2 ? static_cast<long>(std::ceil(ratio_ / 2 + beam)) : beam;
    cost_.assign((n + 1) * (m_ + 1), infinity);
    op_.assign((n + 1) * (m_ + 1), op_none);
    for (std::size_t j = 0; j <= m_; ++j) {
      cost_[j] = static_cast<cost>(j);
      op_[j] = op_ins;
    }
    prev_.resize(m_ + 1);
    cur_.resize(m_ + 1);
  }

  // Fills the whole table (costs and operations) for `hyp`; returns the distance.
  cost full(const ids& hyp) {
    for (std::size_t i = 1; i <= n_; ++i) {
      const auto [lo, hi] = band(i);
      cost* row = &cost_[i * (m_ + 1)];
      const cost* up = row - (m_ + 1);
      op* ops = &op_[i * (m_ + 1)];
      std::fill(row, row + m_ + 1, infinity);
      std::fill(ops, ops + m_ + 1, op_none);
      for (std::size_t j = lo; j < hi; ++j) {
        if (j == 0) {
          row[0] = up[0] + 1;
          ops[0] = op_del;
          continue;
        }
        const bool same = hyp[i - 1] == ref_[j - 1];
        cost best = row[j];
        op o = op_none;
        const cost s = up[j - 1] + (same ? 0 : 1), d = up[j] + 1, a = row[j - 1] + 1;
        if (best > s) best = s, o = same ? op_match : op_sub;
        if (best > d) best = d, o = op_del;
        if (best > a) best = a, o = op_ins;
        row[j] = best;
        ops[j] = o;
      }
    }
    return cost_[n_ * (m_ + 1) + m_];
  }

  // The distance for `hyp`, whose first `prefix` words equal those of the hypothesis of the last
  // full(): rows up to `prefix` are taken from that table.
  cost from_prefix(const ids& hyp, std::size_t prefix) {
    if (prefix >= n_) return cost_[n_ * (m_ + 1) + m_];
    std::copy_n(&cost_[prefix * (m_ + 1)], m_ + 1, prev_.begin());
    for (std::size_t i = prefix + 1; i <= n_; ++i) {
      const auto [lo, hi] = band(i);
      std::fill(cur_.begin(), cur_.end(), infinity);
      for (std::size_t j = lo; j < hi; ++j) {
        if (j == 0) {
          cur_[0] = prev_[0] + 1;
          continue;
        }
        const cost s = prev_[j - 1] + (hyp[i - 1] == ref_[j - 1] ? 0 : 1);
        cur_[j] = std::min({cur_[j], s, prev_[j] + 1, cur_[j - 1] + 1});
      }
      prev_.swap(cur_);
    }
    return prev_[m_];
  }

  // The operations of the last full(), first to last, by walking back from the final cell.
  std::vector<op> trace() const {
    std::vector<op> t;
    std::size_t i = n_, j = m_;
    while (i > 0 || j > 0) {
      const op o = op_[i * (m_ + 1) + j];
      t.push_back(o);
      if (o == op_match || o == op_sub) --i, --j;
      else if (o == op_ins) --j;
      else if (o == op_del) --i;
      else throw_data("TER: the banded edit distance left the final cell unreachable");
    }
    std::reverse(t.begin(), t.end());
    return t;
  }

 private:
  std::pair<std::size_t, std::size_t> band(std::size_t i) const {
    const long diag = static_cast<long>(std::floor(static_cast<double>(i) * ratio_));
    const long lo = std::max(0L, diag - width_);
    long hi = std::min(static_cast<long>(m_) + 1, diag + width_);
    if (i == n_) hi = static_cast<long>(m_) + 1;
    return {static_cast<std::size_t>(lo), static_cast<std::size_t>(std::max(lo, hi))};
  }

  const ids& ref_;
  std::size_t m_, n_ = 0;
  double ratio_ = 1;
  long width_ = beam;
  std::vector<cost> cost_;
  std::vector<op> op_;
  std::vector<cost> prev_, cur_;
};

// Moves the block words[start, start + len) so that it begins where index `target` of the original
// sequence was (lib_ter.py's _perform_shift, with Python's clamped slices).
void perform_shift(const ids& w, std::size_t start, std::size_t len, std::size_t target, ids& out) {
  const std::size_t n = w.size();
  auto put = [&](std::size_t a, std::size_t b) {
    a = std::min(a, n), b = std::min(b, n);
    if (a < b) out.insert(out.end(), w.begin() + static_cast<long>(a), w.begin() + static_cast<long>(b));
  };
  out.clear();
  if (target < start) {
    put(0, target), put(start, start + len), put(target, start), put(start + len, n);
  } else if (target > start + len) {
    put(0, start), put(start + len, target), put(start, start + len), put(target, n);
  } else {
    put(0, start), put(start + len, len + target), put(start, start + len), put(len + target, n);
  }
}

// The alignment of the current hypothesis with the reference, read from the edit operations as
// sacreBLEU reads it (lib_ter.py's trace_to_alignment on the flipped trace).
struct alignment {
  std::vector<long> ref_to_hyp;    // hypothesis position aligned to each reference word (-1: before the first)
  std::vector<int> ref_err_sum;    // prefix sums of reference words not matched
  std::vector<int> hyp_err_sum;    // prefix sums of hypothesis words not matched
};

alignment align_of(const std::vector<op>& trace, std::size_t m) {
  alignment a;
  a.ref_to_hyp.assign(m, -1);
  a.ref_err_sum.assign(1, 0);
  a.hyp_err_sum.assign(1, 0);
  long h = -1, r = -1;
  for (op o : trace) {
    if (o == op_match || o == op_sub) {
      ++h, ++r;
      a.ref_to_hyp[static_cast<std::size_t>(r)] = h;
      const int e = o == op_sub ? 1 : 0;
      a.hyp_err_sum.push_back(a.hyp_err_sum.back() + e);
      a.ref_err_sum.push_back(a.ref_err_sum.back() + e);
    } else if (o == op_del) {  // a hypothesis word with no reference word
      ++h;
      a.hyp_err_sum.push_back(a.hyp_err_sum.back() + 1);
    } else {  // a reference word with no hypothesis word
      ++r;
      a.ref_to_hyp[static_cast<std::size_t>(r)] = h;
      a.ref_err_sum.push_back(a.ref_err_sum.back() + 1);
    }
  }
  return a;
}

struct shift_result {
  cost gain = 0;
  bool found = false;
};

// One greedy step: among the blocks of the hypothesis that equal a block of the reference (start
// positions at most 50 apart, at most 10 words), not already aligned and not fully correct on
// either side, try moving each to just after the hypothesis word aligned with each reference
// position at or before the block; keep the shift with the largest gain in edit distance (ties:
// longer block, earlier source, earlier target). `checked` counts candidates across steps.
shift_result best_shift(ids& hyp, const ids& ref, banded_distance& ed, int& checked) {
  const cost before = ed.full(hyp);
  const alignment al = align_of(ed.trace(), ref.size());
  const long n = static_cast<long>(hyp.size()), m = static_cast<long>(ref.size());
  shift_result best;
  std::size_t best_len = 0, best_start = 0, best_target = 0;
  ids shifted, best_words;
  for (long sh = 0; sh < n; ++sh) {
    for (long sr = 0; sr < m; ++sr) {
      if (std::labs(sr - sh) > max_shift_dist) continue;
      long len = 0;
      while (hyp[static_cast<std::size_t>(sh + len)] == ref[static_cast<std::size_t>(sr + len)] && len < max_shift_size) {
        ++len;
        const bool consumed = n == sh + len || m == sr + len;
        if (al.hyp_err_sum[static_cast<std::size_t>(sh + len)] - al.hyp_err_sum[static_cast<std::size_t>(sh)] != 0 &&
            al.ref_err_sum[static_cast<std::size_t>(sr + len)] - al.ref_err_sum[static_cast<std::size_t>(sr)] != 0) {
          const long at = al.ref_to_hyp[static_cast<std::size_t>(sr)];
          if (!(sh <= at && at < sh + len)) {
            long prev = -1;
            for (long off = -1; off < len; ++off) {
              const long idx = sr + off == -1 ? 0 : al.ref_to_hyp[static_cast<std::size_t>(sr + off)] + 1;
              if (idx == prev) continue;
              prev = idx;
              perform_shift(hyp, static_cast<std::size_t>(sh), static_cast<std::size_t>(len), static_cast<std::size_t>(idx),
                            shifted);
              const std::size_t prefix = static_cast<std::size_t>(std::min(sh, idx));
              const cost gain = before - ed.from_prefix(shifted, prefix);
              ++checked;
              const auto ulen = static_cast<std::size_t>(len);
              if (!best.found || gain > best.gain ||
                  (gain == best.gain &&
                   (ulen > best_len || (ulen == best_len && (static_cast<std::size_t>(sh) < best_start ||
                                                             (static_cast<std::size_t>(sh) == best_start &&
                                                              static_cast<std::size_t>(idx) < best_target)))))) {
                best.found = true;
                best.gain = gain;
                best_len = ulen, best_start = static_cast<std::size_t>(sh), best_target = static_cast<std::size_t>(idx);
                best_words = shifted;
              }
            }
            if (checked >= max_candidates) goto done;
          }
        }
        if (consumed) break;
      }
    }
  }
done:
  if (best.found) hyp.swap(best_words);
  return best;
}

// ter_edits on word ids: greedy shifts while they pay, then the final edit distance.
long ter_edits_ids(ids hyp, const ids& ref) {
  if (ref.empty()) return static_cast<long>(hyp.size());
  banded_distance ed(ref);
  ed.set_length(hyp.size());
  long shifts = 0;
  int checked = 0;
  while (true) {
    ids kept = hyp;
    const shift_result r = best_shift(hyp, ref, ed, checked);
    if (checked >= max_candidates || !r.found || r.gain <= 0) {
      hyp.swap(kept);
      break;
    }
    ++shifts;
  }
  return shifts + static_cast<long>(ed.full(hyp));
}

}  // namespace

long ter_edits(const std::vector<std::string>& hyp, const std::vector<std::string>& ref) {
  std::vector<std::string_view> h(hyp.begin(), hyp.end()), r(ref.begin(), ref.end());
  const auto id = detail::intern({&h, &r});
  return ter_edits_ids(id[0], id[1]);
}

ter_stats ter_segment_stats(const std::string& hyp, const std::vector<std::string>& refs, const ter_options& o) {
  if (refs.empty()) throw_usage("TER: no reference given");
  const std::string hn = detail::ter_normalize(hyp, o);
  std::vector<std::string> rn;
  rn.reserve(refs.size());
  for (const auto& r : refs) rn.push_back(detail::ter_normalize(r, o));
  std::vector<std::vector<std::string_view>> words;
  words.reserve(refs.size() + 1);
  words.push_back(split_whitespace(hn));
  for (const auto& r : rn) words.push_back(split_whitespace(r));
  std::vector<const std::vector<std::string_view>*> lists;
  for (const auto& w : words) lists.push_back(&w);
  const auto id = detail::intern(lists);
  long best = -1, ref_total = 0;
  for (std::size_t r = 1; r < id.size(); ++r) {
    const long e = ter_edits_ids(id[0], id[r]);
    ref_total += static_cast<long>(id[r].size());
    if (best < 0 || e < best) best = e;
  }
  return {static_cast<double>(best), static_cast<double>(ref_total) / static_cast<double>(refs.size())};
}

double ter_from_stats(const ter_stats& s) {
  if (s.ref_len > 0) return 100 * (s.edits / s.ref_len);
  return s.edits > 0 ? 100.0 : 0.0;
}

std::vector<ter_stats> ter_corpus_stats(const std::vector<std::string>& hyps,
                                        const std::vector<std::vector<std::string>>& refs, const ter_options& o) {
  if (refs.empty()) throw_usage("TER: no reference given");
  for (std::size_t j = 0; j < refs.size(); ++j)
    if (refs[j].size() != hyps.size())
      throw_data(fmt::format("TER: reference stream {} has {} lines but the hypothesis has {}", j + 1, refs[j].size(),
                             hyps.size()));
  const unsigned threads = assay::detail::resolve_threads(o.threads, hyps.size() / 64 + 1);
  return detail::score_segments(hyps, refs, threads, [&](const std::string& h, const std::vector<std::string>& r) {
    return ter_segment_stats(h, r, o);
  });
}

ter_score corpus_ter(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                     const ter_options& o) {
  ter_score s;
  // Summed in segment order, as sacreBLEU sums (the average lengths need not be integers).
  for (const auto& x : ter_corpus_stats(hyps, refs, o)) s.stats += x;
  s.score = ter_from_stats(s.stats);
  return s;
}

stats::bootstrap_result bootstrap_ter(const std::vector<ter_stats>& segments, const stats::bootstrap_options& opts) {
  if (segments.empty()) throw_data("bootstrap_ter: no segments to resample");
  auto stat = [&](std::span<const std::uint32_t> rows, std::span<double> out) {
    ter_stats total;
    for (std::uint32_t r : rows) total += segments[r];
    out[0] = ter_from_stats(total);
  };
  return stats::bootstrap_many(segments.size(), 1, stat, opts)[0];
}

std::vector<double> sentence_ter(const std::vector<std::string>& hyps,
                                 const std::vector<std::vector<std::string>>& refs, const ter_options& o) {
  std::vector<double> out;
  for (const auto& x : ter_corpus_stats(hyps, refs, o)) out.push_back(ter_from_stats(x));
  return out;
}

std::string ter_signature(std::size_t nrefs, const ter_options& o) {
  return fmt::format("nrefs:{}|case:{}|tok:tercom|norm:{}|punct:{}|asian:{}|version:assay-{}", nrefs,
                     o.case_sensitive ? "mixed" : "lc", o.normalized ? "yes" : "no", o.no_punct ? "no" : "yes",
                     o.asian_support ? "yes" : "no", ASSAY_VERSION);
}

}  // namespace assay::text
