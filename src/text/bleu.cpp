// BLEU as sacreBLEU 2 computes it; see include/assay/text/bleu.hpp.
#include "assay/text/bleu.hpp"

#include <fmt/format.h>

#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <mutex>

#include "assay/error.hpp"
#include "assay/stats/bootstrap_many.hpp"
#include "assay/detail/parallel.hpp"
#include "counts.hpp"
#include "segments.hpp"

namespace assay::text {

bleu_stats& bleu_stats::operator+=(const bleu_stats& o) {
  hyp_len += o.hyp_len;
  ref_len += o.ref_len;
  for (std::size_t n = 0; n < 4; ++n) {
    correct[n] += o.correct[n];
    total[n] += o.total[n];
  }
  return *this;
}

namespace {

struct tokenized {
  std::string buf;
  std::vector<std::string_view> words;
};

void prepare(const std::string& line, const bleu_options& o, tokenized& t) {
  t.buf = tokenize(rstrip(line), o.tok);
  t.words = split_whitespace(t.buf);
}

// Matches and totals per order from the word ids of the hypothesis (ids[0]) and references, with
// n-gram keys made by `grams(ids, n)`.
template <class Grams>
void count_matches(const std::vector<std::vector<std::uint32_t>>& ids, const bleu_options& o, bleu_stats& s,
                   Grams grams) {
  using counts = decltype(grams(ids[0], 1));
  std::vector<counts> refs(ids.size() - 1);
  for (std::size_t n = 1; n <= static_cast<std::size_t>(o.max_order); ++n) {
    const counts h = grams(ids[0], n);
    for (std::size_t r = 1; r < ids.size(); ++r) refs[r - 1] = grams(ids[r], n);
    s.total[n - 1] = static_cast<double>(detail::total(h));
    if (refs.size() == 1) s.correct[n - 1] = static_cast<double>(detail::clipped_matches(h, refs[0]));
    else s.correct[n - 1] = static_cast<double>(detail::clipped_matches(h, detail::max_counts(refs)));
  }
}

void check_options(const bleu_options& o) {
  if (o.max_order < 1 || o.max_order > 4) throw_usage(fmt::format("BLEU: max n-gram order must be 1..4, got {}", o.max_order));
}

double smooth_value(const bleu_options& o) {
  if (o.smooth_value >= 0) return o.smooth_value;
  return o.smooth == bleu_smooth::floor ? 0.1 : 1.0;
}

void check_refs(std::size_t n_hyps, const std::vector<std::vector<std::string>>& refs) {
  if (refs.empty()) throw_usage("BLEU: no reference given");
  for (std::size_t j = 0; j < refs.size(); ++j)
    if (refs[j].size() != n_hyps)
      throw_data(fmt::format("reference stream {} has {} lines but the hypothesis has {}", j + 1, refs[j].size(), n_hyps));
}

}  // namespace

bleu_stats segment_stats(const std::string& hyp, const std::vector<std::string>& refs, const bleu_options& o) {
  check_options(o);
  tokenized h;
  prepare(hyp, o, h);
  std::vector<tokenized> rs;
  rs.reserve(refs.size());
  for (const auto& r : refs) {  // an empty reference counts, with length 0 (as in sacreBLEU 2.6)
    rs.emplace_back();
    prepare(r, o, rs.back());
  }
  std::vector<const std::vector<std::string_view>*> lists{&h.words};
  for (const auto& r : rs) lists.push_back(&r.words);
  const auto ids = detail::intern(lists);
  bleu_stats s;
  s.hyp_len = static_cast<double>(h.words.size());
  // Closest reference length, the shorter one on ties.
  long best = -1, best_diff = -1;
  const long hl = static_cast<long>(h.words.size());
  for (const auto& r : rs) {
    const long rl = static_cast<long>(r.words.size());
    const long diff = std::labs(hl - rl);
    if (best_diff == -1 || diff < best_diff) {
      best_diff = diff;
      best = rl;
    } else if (diff == best_diff) {
      best = std::min(best, rl);
    }
  }
  s.ref_len = static_cast<double>(best);
  // Ids count distinct words from 1; below 2^16 an n-gram (n <= 4) fits one 64-bit key, faster to sort.
  std::uint32_t max_id = 0;
  for (const auto& v : ids)
    for (std::uint32_t id : v) max_id = std::max(max_id, id);
  if (max_id < (1u << 16)) count_matches(ids, o, s, detail::small_id_ngrams);
  else count_matches(ids, o, s, detail::id_ngrams);
  return s;
}

bleu_score compute_bleu(const bleu_stats& s_in, const bleu_options& o) {
  check_options(o);
  bleu_score out;
  out.stats = s_in;
  bleu_stats s = s_in;
  const double sys = s.hyp_len, ref = s.ref_len;
  if (sys < ref) out.bp = sys > 0 ? std::exp(1 - ref / sys) : 0.0;
  else out.bp = 1.0;
  const std::size_t N = static_cast<std::size_t>(o.max_order);
  bool any = false;
  for (std::size_t n = 0; n < N; ++n) any = any || s.correct[n] != 0;
  if (!any) {
    out.score = 0.0;
    return out;
  }
  const double k = smooth_value(o);
  double smooth_mteval = 1.0;
  std::size_t eff = N;
  for (std::size_t n = 1; n <= N; ++n) {
    if (o.smooth == bleu_smooth::add_k && n > 1) {
      s.correct[n - 1] += k;
      s.total[n - 1] += k;
    }
    if (s.total[n - 1] == 0) break;
    if (o.effective_order) eff = n;
    if (s.correct[n - 1] == 0) {
      if (o.smooth == bleu_smooth::exp) {
        smooth_mteval *= 2;
        out.precisions[n - 1] = 100. / (smooth_mteval * s.total[n - 1]);
      } else if (o.smooth == bleu_smooth::floor) {
        out.precisions[n - 1] = 100. * k / s.total[n - 1];
      }
    } else {
      out.precisions[n - 1] = 100. * s.correct[n - 1] / s.total[n - 1];
    }
  }
  // Python's sum() from 0, left to right; log(0) is replaced by -9999999999 as in sacreBLEU.
  double sum = 0;
  for (std::size_t n = 0; n < eff; ++n) sum += out.precisions[n] == 0 ? -9999999999.0 : std::log(out.precisions[n]);
  out.score = out.bp * std::exp(sum / static_cast<double>(eff));
  return out;
}

std::vector<bleu_stats> corpus_segment_stats(const std::vector<std::string>& hyps,
                                             const std::vector<std::vector<std::string>>& refs, const bleu_options& o) {
  check_refs(hyps.size(), refs);
  check_options(o);
  const unsigned threads = assay::detail::resolve_threads(o.threads, hyps.size() / 256 + 1);
  return detail::score_segments(hyps, refs, threads, [&](const std::string& h, const std::vector<std::string>& r) {
    return segment_stats(h, r, o);
  });
}

bleu_score corpus_bleu(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                       const bleu_options& o) {
  bleu_stats total;
  for (const auto& s : corpus_segment_stats(hyps, refs, o)) total += s;  // integer counts: exact in any order
  return compute_bleu(total, o);
}

stats::bootstrap_result bootstrap_bleu(const std::vector<bleu_stats>& segments, const bleu_options& o,
                                       const stats::bootstrap_options& opts) {
  if (segments.empty()) throw_data("bootstrap_bleu: no segments to resample");
  check_options(o);
  auto stat = [&](std::span<const std::uint32_t> rows, std::span<double> out) {
    bleu_stats total;
    for (std::uint32_t r : rows) total += segments[r];
    out[0] = compute_bleu(total, o).score;
  };
  return stats::bootstrap_many(segments.size(), 1, stat, opts)[0];
}

std::vector<bleu_score> sentence_bleu(const std::vector<std::string>& hyps,
                                      const std::vector<std::vector<std::string>>& refs, const bleu_options& o) {
  check_refs(hyps.size(), refs);
  std::vector<bleu_score> out;
  out.reserve(hyps.size());
  std::vector<std::string> seg_refs(refs.size());
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    for (std::size_t j = 0; j < refs.size(); ++j) seg_refs[j] = refs[j][i];
    try {
      out.push_back(compute_bleu(segment_stats(hyps[i], seg_refs, o), o));
    } catch (const assay::error& e) {
      throw assay::error(e.kind(), fmt::format("line {}: {}", i + 1, e.marked()));
    }
  }
  return out;
}

std::string bleu_signature(std::size_t nrefs, const bleu_options& o) {
  std::string smooth;
  switch (o.smooth) {
    case bleu_smooth::none: smooth = "none"; break;
    case bleu_smooth::exp: smooth = "exp"; break;
    case bleu_smooth::floor: smooth = fmt::format("floor[{:.2f}]", smooth_value(o)); break;
    case bleu_smooth::add_k: smooth = fmt::format("add-k[{:.2f}]", smooth_value(o)); break;
  }
  return fmt::format("nrefs:{}|case:mixed|eff:{}|tok:{}|smooth:{}|version:assay-{}", nrefs,
                     o.effective_order ? "yes" : "no", tokenizer_name(o.tok), smooth, ASSAY_VERSION);
}

}  // namespace assay::text
