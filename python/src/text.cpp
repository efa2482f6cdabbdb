// assay._core: text generation metrics (assay::text): BLEU (corpus, sentence, bootstrap interval),
// chrF and BERTScore from token embeddings. Strings arrive as UTF-8 (Python str), options by name;
// python/assay/text.py checks shapes and names the caller's parameters in its errors.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <fmt/format.h>
#include <optional>

#include "assay/error.hpp"
#include "assay/text/bertscore.hpp"
#include "assay/text/bleu.hpp"
#include "assay/text/chrf.hpp"
#include "assay/text/tokenize.hpp"
#include "common.hpp"

namespace assay::python {
namespace {

using lines = std::vector<std::string>;
using streams = std::vector<std::vector<std::string>>;
using matrix_in = nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

text::bleu_options bleu_options_of(const std::string& fn, const std::string& tokenize, const std::string& smooth,
                                   double smooth_value, bool effective_order) {
  text::bleu_options o;
  if (tokenize == "13a") {
    o.tok = text::tokenizer::v13a;
  } else if (tokenize == "intl") {
    o.tok = text::tokenizer::intl;
  } else if (tokenize == "none") {
    o.tok = text::tokenizer::none;
  } else {
    throw_usage(fmt::format("{}: tokenize is '{}'; it must be '13a', 'intl' or 'none'", fn, tokenize));
  }
  if (smooth == "exp") {
    o.smooth = text::bleu_smooth::exp;
  } else if (smooth == "none") {
    o.smooth = text::bleu_smooth::none;
  } else if (smooth == "floor") {
    o.smooth = text::bleu_smooth::floor;
  } else if (smooth == "add-k") {
    o.smooth = text::bleu_smooth::add_k;
  } else {
    throw_usage(fmt::format("{}: smooth_method is '{}'; it must be 'exp', 'none', 'floor' or 'add-k'", fn, smooth));
  }
  o.smooth_value = smooth_value;
  o.effective_order = effective_order;
  o.threads = 1;  // the caller's thread; Python users parallelise themselves
  return o;
}

nb::dict bleu_dict(const text::bleu_score& s) {
  nb::dict d;
  d["score"] = s.score;
  d["precisions"] = std::vector<double>(s.precisions.begin(), s.precisions.end());
  d["bp"] = s.bp;
  d["sys_len"] = s.stats.hyp_len;
  d["ref_len"] = s.stats.ref_len;
  d["counts"] = std::vector<double>(s.stats.correct.begin(), s.stats.correct.end());
  d["totals"] = std::vector<double>(s.stats.total.begin(), s.stats.total.end());
  return d;
}

std::vector<text::embedded_sentence> sentences_of(const std::vector<matrix_in>& emb,
                                                  const std::optional<streams>& tokens,
                                                  const std::optional<std::vector<std::vector<double>>>& idf) {
  std::vector<text::embedded_sentence> out(emb.size());
  for (std::size_t i = 0; i < emb.size(); ++i) {
    const auto& e = emb[i];
    const std::size_t n = e.shape(0), dim = e.shape(1);
    out[i].vectors.resize(n);
    for (std::size_t t = 0; t < n; ++t) out[i].vectors[t].assign(e.data() + t * dim, e.data() + (t + 1) * dim);
    if (tokens) out[i].tokens = (*tokens)[i];
    if (idf) out[i].idf = (*idf)[i];
  }
  return out;
}

}  // namespace

void bind_text(nb::module_& m) {
  m.def(
      "text_bleu",
      [](const lines& hyps, const streams& refs, const std::string& tokenize, const std::string& smooth,
         double smooth_value, bool effective_order, double level, std::size_t replicates, std::uint64_t seed) {
        const auto o = bleu_options_of("bleu", tokenize, smooth, smooth_value, effective_order);
        text::bleu_score s;
        std::optional<stats::bootstrap_result> ci;
        std::string sig;
        {
          const sigint_cancels interruptible;  // Ctrl-C stops the bootstrap
          nb::gil_scoped_release release;
          const auto segments = text::corpus_segment_stats(hyps, refs, o);
          text::bleu_stats total;
          for (const auto& x : segments) total += x;
          s = text::compute_bleu(total, o);
          if (!std::isnan(level)) {
            stats::bootstrap_options b;
            b.level = level;
            b.replicates = replicates;
            b.seed = seed;
            ci = text::bootstrap_bleu(segments, o, b);
          }
          sig = text::bleu_signature(refs.size(), o);
        }
        auto d = bleu_dict(s);
        d["signature"] = sig;
        if (ci) {
          d["ci"] = nb::make_tuple(ci->lower.defined() ? ci->lower.v : std::nan(""),
                                   ci->upper.defined() ? ci->upper.v : std::nan(""), ci->level,
                                   ci->undefined_replicates);
        }
        return d;
      },
      nb::arg("hyps"), nb::arg("refs"), nb::arg("tokenize"), nb::arg("smooth"), nb::arg("smooth_value"),
      nb::arg("effective_order"), nb::arg("level"), nb::arg("replicates"), nb::arg("seed"));

  m.def(
      "text_sentence_bleu",
      [](const lines& hyps, const streams& refs, const std::string& tokenize, const std::string& smooth,
         double smooth_value, bool effective_order) {
        const auto o = bleu_options_of("sentence_bleu", tokenize, smooth, smooth_value, effective_order);
        std::vector<text::bleu_score> s;
        {
          nb::gil_scoped_release release;
          s = text::sentence_bleu(hyps, refs, o);
        }
        nb::list out;
        for (const auto& x : s) out.append(bleu_dict(x));
        return out;
      },
      nb::arg("hyps"), nb::arg("refs"), nb::arg("tokenize"), nb::arg("smooth"), nb::arg("smooth_value"),
      nb::arg("effective_order"));

  m.def(
      "text_chrf",
      [](const lines& hyps, const streams& refs, int char_order, int word_order, double beta, bool whitespace,
         bool eps_smoothing, bool sentence) {
        text::chrf_options o;
        o.char_order = char_order;
        o.word_order = word_order;
        o.beta = beta;
        o.whitespace = whitespace;
        o.eps_smoothing = eps_smoothing;
        std::vector<double> scores;
        std::string sig;
        {
          nb::gil_scoped_release release;
          if (sentence) {
            scores = text::sentence_chrf(hyps, refs, o);
          } else {
            scores.push_back(text::corpus_chrf(hyps, refs, o));
          }
          sig = text::chrf_signature(refs.size(), o);
        }
        return std::make_tuple(scores, sig);
      },
      nb::arg("hyps"), nb::arg("refs"), nb::arg("char_order"), nb::arg("word_order"), nb::arg("beta"),
      nb::arg("whitespace"), nb::arg("eps_smoothing"), nb::arg("sentence"));

  m.def(
      "text_bertscore",
      [](const std::vector<matrix_in>& cand, const std::vector<matrix_in>& ref, std::optional<streams> cand_tokens,
         std::optional<streams> ref_tokens, std::optional<std::vector<std::vector<double>>> cand_idf,
         std::optional<std::vector<std::vector<double>>> ref_idf, bool idf,
         std::optional<std::tuple<double, double, double>> baseline) {
        text::bertscore_options o;
        o.idf = idf;
        if (baseline) {
          o.rescale = true;
          std::tie(o.baseline_p, o.baseline_r, o.baseline_f) = *baseline;
        }
        const auto hyps = sentences_of(cand, cand_tokens, cand_idf);
        const auto refs = sentences_of(ref, ref_tokens, ref_idf);
        text::bertscore_result r;
        {
          nb::gil_scoped_release release;
          r = text::bertscore(hyps, refs, o);
        }
        auto column = [](const std::vector<value>& v) {
          std::vector<double> x(v.size());
          for (std::size_t i = 0; i < v.size(); ++i) x[i] = v[i].defined() ? v[i].v : std::nan("");
          return to_numpy(std::move(x));
        };
        auto mean = [](const value& v) {
          return std::make_tuple(v.defined() ? v.v : std::nan(""), v.reason);
        };
        nb::dict d;
        d["P"] = column(r.p);
        d["R"] = column(r.r);
        d["F"] = column(r.f);
        d["mean_P"] = mean(r.mean_p);
        d["mean_R"] = mean(r.mean_r);
        d["mean_F"] = mean(r.mean_f);
        return d;
      },
      nb::arg("cand"), nb::arg("ref"), nb::arg("cand_tokens").none(), nb::arg("ref_tokens").none(),
      nb::arg("cand_idf").none(), nb::arg("ref_idf").none(), nb::arg("idf"), nb::arg("baseline").none());
}

}  // namespace assay::python
