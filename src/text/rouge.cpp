// ROUGE-N, ROUGE-L and ROUGE-Lsum as rouge-score 0.1.2 computes them; see include/assay/text/rouge.hpp.
#include "assay/text/rouge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <span>
#include <unordered_map>

#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"
#include "assay/stats/bootstrap_many.hpp"
#include "assay/text/porter.hpp"
#include "assay/text/tokenize.hpp"
#include "counts.hpp"
#include "segments.hpp"

namespace assay::text {

rouge_type rouge_type_of(std::string_view name, std::string_view param_name) {
  rouge_type t;
  t.name = std::string(name);
  if (name == "rougeL") {
    t.k = rouge_type::kind::lcs;
  } else if (name == "rougeLsum") {
    t.k = rouge_type::kind::lcs_sum;
  } else if (name.size() == 6 && name.substr(0, 5) == "rouge" && name[5] >= '1' && name[5] <= '9') {
    t.k = rouge_type::kind::ngram;
    t.n = name[5] - '0';
  } else {
    throw_usage(fmt::format("{}{} has '{}'; a ROUGE type is rouge1 .. rouge9, rougeL or rougeLsum", in_function("rouge"),
                            param(param_name), name));
  }
  return t;
}

std::vector<rouge_type> rouge_types_of(const rouge_options& o) {
  if (!o.types.empty()) return o.types;
  std::vector<rouge_type> out;
  for (const char* n : {"rouge1", "rouge2", "rougeL", "rougeLsum"}) out.push_back(rouge_type_of(n));
  return out;
}

namespace {

// porter_stem through a per-thread cache: text repeats its words, and stemming is most of the work
// of tokenizing. Bounded: emptied when it reaches 2^16 words.
const std::string& stem_cached(const std::string& word) {
  thread_local std::unordered_map<std::string, std::string> cache;
  if (const auto it = cache.find(word); it != cache.end()) return it->second;
  if (cache.size() >= (std::size_t{1} << 16)) cache.clear();
  return cache.emplace(word, porter_stem(word)).first->second;
}

// Appends the tokens of `text` (no "\n" inside) to `out`, as rouge-score's tokenize() makes them.
void tokenize_into(std::string_view text, bool stem, std::vector<std::string>& out) {
  std::string cur;
  auto flush = [&] {
    if (cur.empty()) return;
    if (stem && cur.size() > 3) out.push_back(stem_cached(cur));
    else out.push_back(cur);
    cur.clear();
  };
  const auto* b = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = b[i];
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      cur += static_cast<char>(c);
    } else if (c >= 'A' && c <= 'Z') {
      cur += static_cast<char>(c - 'A' + 'a');
    } else if (c == 0xC4 && i + 1 < n && b[i + 1] == 0xB0) {
      cur += 'i';  // U+0130 lowers to "i" + U+0307 (a separator)
      flush();
      ++i;
    } else if (c == 0xE2 && i + 2 < n && b[i + 1] == 0x84 && b[i + 2] == 0xAA) {
      cur += 'k';  // U+212A KELVIN SIGN lowers to "k"
      i += 2;
    } else {
      flush();  // any other character, ASCII or not, separates tokens
    }
  }
  flush();
}

// The tokens of a text and where its "\n"-separated sentences end (for ROUGE-Lsum).
struct tokenized {
  std::vector<std::string> tokens;
  std::vector<std::size_t> sentence_ends;
};

void prepare(std::string_view text, bool stem, bool sentences, tokenized& t) {
  t.tokens.clear();
  t.sentence_ends.clear();
  if (!sentences) {
    tokenize_into(text, stem, t.tokens);
    return;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    tokenize_into(text.substr(start, end - start), stem, t.tokens);
    if (t.sentence_ends.empty() || t.sentence_ends.back() != t.tokens.size()) t.sentence_ends.push_back(t.tokens.size());
    start = end + 1;
  }
}

double f_measure(double p, double r) { return p + r > 0 ? 2 * p * r / (p + r) : 0.0; }

rouge_score score_of(double matches, double hyp_total, double ref_total) {
  rouge_score s;
  s.precision = matches / std::max(hyp_total, 1.0);
  s.recall = matches / std::max(ref_total, 1.0);
  s.fmeasure = f_measure(s.precision, s.recall);
  return s;
}

using ids = std::vector<std::uint32_t>;

// The n-grams of an id sequence, counted; any order (keys beyond 4 ids are whole id strings).
long ngram_matches(const ids& h, const ids& r, std::size_t n, std::uint32_t max_id) {
  if (h.size() < n || r.size() < n) return 0;
  if (n <= 4 && max_id < (1u << 16)) return detail::clipped_matches(detail::small_id_ngrams(h, n), detail::small_id_ngrams(r, n));
  if (n <= 4) return detail::clipped_matches(detail::id_ngrams(h, n), detail::id_ngrams(r, n));
  auto grams = [n](const ids& s) {
    std::vector<std::u32string> g;
    for (std::size_t i = 0; i + n <= s.size(); ++i) g.emplace_back(s.begin() + static_cast<long>(i), s.begin() + static_cast<long>(i + n));
    return detail::count(g);
  };
  return detail::clipped_matches(grams(h), grams(r));
}

// Length of the longest common subsequence, two rows of the usual table.
std::size_t lcs_length(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
  if (a.size() < b.size()) std::swap(a, b);
  std::vector<std::uint32_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// Marks in `on_lcs` the positions of `ref` on one LCS of ref and hyp: the full table read back
// from its end, taking equal tokens, else dropping the hypothesis token when that keeps a longer
// LCS and the reference token otherwise (rouge-score's _backtrack_norec).
void mark_lcs(std::span<const std::uint32_t> ref, std::span<const std::uint32_t> hyp, std::vector<char>& on_lcs,
              std::vector<std::uint32_t>& table) {
  const std::size_t rows = ref.size(), cols = hyp.size(), w = cols + 1;
  table.assign((rows + 1) * w, 0);
  for (std::size_t i = 1; i <= rows; ++i)
    for (std::size_t j = 1; j <= cols; ++j)
      table[i * w + j] = ref[i - 1] == hyp[j - 1] ? table[(i - 1) * w + j - 1] + 1
                                                  : std::max(table[(i - 1) * w + j], table[i * w + j - 1]);
  std::size_t i = rows, j = cols;
  while (i > 0 && j > 0) {
    if (ref[i - 1] == hyp[j - 1]) {
      on_lcs[i - 1] = 1;
      --i, --j;
    } else if (table[i * w + j - 1] > table[(i - 1) * w + j]) {
      --j;
    } else {
      --i;
    }
  }
}

std::span<const std::uint32_t> sentence(const ids& all, const std::vector<std::size_t>& ends, std::size_t k) {
  const std::size_t begin = k == 0 ? 0 : ends[k - 1];
  return std::span<const std::uint32_t>(all).subspan(begin, ends[k] - begin);
}

// Summary-level LCS (Lin 2004, section 3.2) with rouge-score's budget on repeated tokens.
rouge_score lcs_sum(const ids& h, const std::vector<std::size_t>& h_ends, const ids& r,
                    const std::vector<std::size_t>& r_ends, std::uint32_t max_id) {
  if (h.empty() || r.empty()) return {};
  std::vector<long> budget_h(max_id + 1, 0), budget_r(max_id + 1, 0);
  for (auto id : h) ++budget_h[id];
  for (auto id : r) ++budget_r[id];
  std::vector<char> on_lcs;
  std::vector<std::uint32_t> table;
  long hits = 0;
  for (std::size_t k = 0; k < r_ends.size(); ++k) {
    const auto rs = sentence(r, r_ends, k);
    on_lcs.assign(rs.size(), 0);
    for (std::size_t c = 0; c < h_ends.size(); ++c) mark_lcs(rs, sentence(h, h_ends, c), on_lcs, table);
    for (std::size_t p = 0; p < rs.size(); ++p) {
      if (!on_lcs[p]) continue;
      const auto t = rs[p];
      if (budget_h[t] > 0 && budget_r[t] > 0) {
        ++hits;
        --budget_h[t];
        --budget_r[t];
      }
    }
  }
  return score_of(static_cast<double>(hits), static_cast<double>(h.size()), static_cast<double>(r.size()));
}

bool wants_sentences(const std::vector<rouge_type>& types) {
  return std::any_of(types.begin(), types.end(), [](const auto& t) { return t.k == rouge_type::kind::lcs_sum; });
}

std::vector<rouge_score> score_prepared(const tokenized& h, const tokenized& r, const std::vector<rouge_type>& types) {
  std::vector<std::string_view> hv(h.tokens.begin(), h.tokens.end()), rv(r.tokens.begin(), r.tokens.end());
  const auto id = detail::intern({&hv, &rv});
  std::uint32_t max_id = 0;
  for (const auto& v : id)
    for (auto x : v) max_id = std::max(max_id, x);
  std::vector<rouge_score> out;
  out.reserve(types.size());
  for (const auto& t : types) {
    switch (t.k) {
      case rouge_type::kind::ngram: {
        const std::size_t n = static_cast<std::size_t>(t.n);
        const auto grams = [n](std::size_t len) { return len >= n ? static_cast<double>(len - n + 1) : 0.0; };
        out.push_back(score_of(static_cast<double>(ngram_matches(id[0], id[1], n, max_id)), grams(id[0].size()),
                               grams(id[1].size())));
        break;
      }
      case rouge_type::kind::lcs:
        if (id[0].empty() || id[1].empty()) out.push_back({});
        else out.push_back(score_of(static_cast<double>(lcs_length(id[0], id[1])), static_cast<double>(id[0].size()),
                                    static_cast<double>(id[1].size())));
        break;
      case rouge_type::kind::lcs_sum:
        out.push_back(lcs_sum(id[0], h.sentence_ends, id[1], r.sentence_ends, max_id));
        break;
    }
  }
  return out;
}

void check_utf8(std::string_view s, std::string_view what) {
  const std::size_t bad = find_invalid_utf8(s);
  if (bad != std::string::npos)
    throw_data(fmt::format("{} is not valid UTF-8 (byte \\x{:02x} at offset {})", what,
                           static_cast<unsigned char>(s[bad]), bad));
}

}  // namespace

std::vector<std::string> rouge_tokenize(std::string_view text, bool stem) {
  check_utf8(text, "rouge_tokenize: the text");
  std::vector<std::string> out;
  tokenize_into(text, stem, out);
  return out;
}

std::vector<rouge_score> rouge_pair(std::string_view hyp, std::string_view ref, const rouge_options& o) {
  return rouge_multi(hyp, {std::string(ref)}, o);
}

std::vector<rouge_score> rouge_multi(std::string_view hyp, const std::vector<std::string>& refs, const rouge_options& o) {
  if (refs.empty()) throw_usage(in_function("rouge") + "no reference given");
  check_utf8(hyp, "the hypothesis");
  for (std::size_t j = 0; j < refs.size(); ++j) check_utf8(refs[j], fmt::format("reference {}", j + 1));
  const auto types = rouge_types_of(o);
  const bool sentences = wants_sentences(types);
  tokenized h, r;
  prepare(hyp, o.use_stemmer, sentences, h);
  std::vector<rouge_score> best;
  for (const auto& ref : refs) {
    prepare(ref, o.use_stemmer, sentences, r);
    auto s = score_prepared(h, r, types);
    if (best.empty()) {
      best = std::move(s);
      continue;
    }
    for (std::size_t t = 0; t < types.size(); ++t)
      if (s[t].fmeasure > best[t].fmeasure) best[t] = s[t];  // np.argmax: the first of equal maxima
  }
  return best;
}

std::vector<std::vector<rouge_score>> sentence_rouge(const std::vector<std::string>& hyps,
                                                     const std::vector<std::vector<std::string>>& refs,
                                                     const rouge_options& o) {
  if (refs.empty()) throw_usage(in_function("rouge") + "no reference given");
  for (std::size_t j = 0; j < refs.size(); ++j)
    if (refs[j].size() != hyps.size())
      throw_data(fmt::format("{}reference stream {} has {} lines but the hypothesis has {}", in_function("rouge"),
                             j + 1, refs[j].size(), hyps.size()));
  (void)rouge_types_of(o);
  const unsigned threads = assay::detail::resolve_threads(o.threads, hyps.size() / 256 + 1);
  return detail::score_segments(hyps, refs, threads, [&](const std::string& h, const std::vector<std::string>& r) {
    return rouge_multi(h, r, o);
  });
}

std::vector<rouge_aggregate> aggregate_rouge(const std::vector<std::vector<rouge_score>>& scores,
                                             const rouge_options& o, const stats::bootstrap_options* boot) {
  const auto types = rouge_types_of(o);
  for (std::size_t i = 0; i < scores.size(); ++i)
    if (scores[i].size() != types.size())
      throw_usage(fmt::format("aggregate_rouge: segment {} has {} scores for {} ROUGE types", i + 1, scores[i].size(),
                              types.size()));
  std::vector<rouge_aggregate> out(types.size());
  const std::size_t n = scores.size();
  for (std::size_t t = 0; t < types.size(); ++t) {
    out[t].type = types[t].name;
    if (n == 0) {
      out[t].precision = out[t].recall = out[t].fmeasure = value::undefined("no segments to average");
      continue;
    }
    double p = 0, r = 0, f = 0;
    for (const auto& s : scores) {
      p += s[t].precision;
      r += s[t].recall;
      f += s[t].fmeasure;
    }
    out[t].precision = p / static_cast<double>(n);
    out[t].recall = r / static_cast<double>(n);
    out[t].fmeasure = f / static_cast<double>(n);
  }
  if (boot == nullptr || n == 0) return out;
  // One resample of segments gives the 3 means of every type.
  auto stat = [&](std::span<const std::uint32_t> rows, std::span<double> res) {
    std::fill(res.begin(), res.end(), 0.0);
    for (std::uint32_t row : rows)
      for (std::size_t t = 0; t < types.size(); ++t) {
        res[3 * t] += scores[row][t].precision;
        res[3 * t + 1] += scores[row][t].recall;
        res[3 * t + 2] += scores[row][t].fmeasure;
      }
    for (double& x : res) x /= static_cast<double>(rows.size());
  };
  const auto ci = stats::bootstrap_many(n, 3 * types.size(), stat, *boot);
  for (std::size_t t = 0; t < types.size(); ++t) {
    out[t].precision_ci = ci[3 * t];
    out[t].recall_ci = ci[3 * t + 1];
    out[t].fmeasure_ci = ci[3 * t + 2];
  }
  return out;
}

std::string rouge_signature(std::size_t nrefs, const rouge_options& o) {
  return fmt::format("nrefs:{}|stem:{}|tok:rouge-score|version:assay-{}", nrefs, o.use_stemmer ? "porter-nltk" : "no",
                     ASSAY_VERSION);
}

}  // namespace assay::text
