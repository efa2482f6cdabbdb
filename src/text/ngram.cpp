// Exact n-gram precision and recall; see include/assay/text/ngram.hpp.
#include "assay/text/ngram.hpp"

#include <fmt/format.h>

#include "assay/error.hpp"
#include "counts.hpp"

namespace assay::text {

ngram_counts& ngram_counts::operator+=(const ngram_counts& o) {
  for (std::size_t n = 0; n < 4; ++n) {
    hyp_hits[n] += o.hyp_hits[n];
    hyp_total[n] += o.hyp_total[n];
    ref_hits[n] += o.ref_hits[n];
    ref_total[n] += o.ref_total[n];
  }
  return *this;
}

ngram_counts ngram_segment(const std::string& hyp, const std::string& ref, tokenizer tok) {
  const std::string th = tokenize(rstrip(hyp), tok), tr = tokenize(rstrip(ref), tok);
  const auto wh = split_whitespace(th), wr = split_whitespace(tr);
  const auto ids = detail::intern({&wh, &wr});
  ngram_counts c;
  for (std::size_t n = 1; n <= 4; ++n) {
    const auto ch = detail::id_ngrams(ids[0], n), cr = detail::id_ngrams(ids[1], n);
    c.hyp_total[n - 1] = static_cast<double>(detail::total(ch));
    c.ref_total[n - 1] = static_cast<double>(detail::total(cr));
    c.hyp_hits[n - 1] = static_cast<double>(detail::present_in(ch, cr));
    c.ref_hits[n - 1] = static_cast<double>(detail::present_in(cr, ch));
  }
  return c;
}

ngram_scores ngram_from_counts(const ngram_counts& c) {
  ngram_scores s;
  for (std::size_t n = 0; n < 4; ++n) {
    s.precision[n] = ratio(c.hyp_hits[n], c.hyp_total[n], "the candidate has no n-gram of this order");
    s.recall[n] = ratio(c.ref_hits[n], c.ref_total[n], "the reference has no n-gram of this order");
  }
  return s;
}

ngram_scores corpus_ngram(const std::vector<std::string>& hyps, const std::vector<std::string>& refs, tokenizer tok) {
  if (hyps.size() != refs.size())
    throw_data(fmt::format("the reference has {} lines but the hypothesis has {}", refs.size(), hyps.size()));
  ngram_counts total;
  for (std::size_t i = 0; i < hyps.size(); ++i) total += ngram_segment(hyps[i], refs[i], tok);
  return ngram_from_counts(total);
}

}  // namespace assay::text
