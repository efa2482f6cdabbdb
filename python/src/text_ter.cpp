// assay._core: TER (corpus, sentence, bootstrap interval) and sacreBLEU's paired tests for BLEU,
// chrF and TER (assay::text). Strings arrive as UTF-8 (Python str), options by name;
// python/assay/text.py checks them and names the caller's parameters in its errors.
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <fmt/format.h>
#include <optional>

#include "assay/error.hpp"
#include "assay/text/paired.hpp"
#include "assay/text/ter.hpp"
#include "common.hpp"

namespace assay::python {
namespace {

using lines = std::vector<std::string>;
using streams = std::vector<std::vector<std::string>>;

text::ter_options ter_options_of(bool normalized, bool no_punct, bool asian_support, bool case_sensitive) {
  text::ter_options o;
  o.normalized = normalized;
  o.no_punct = no_punct;
  o.asian_support = asian_support;
  o.case_sensitive = case_sensitive;
  o.threads = 1;  // the caller's thread, as the other text bindings
  return o;
}

template <class T>
T get(const nb::dict& d, const char* key) {
  if (!d.contains(key)) throw_usage(fmt::format("paired_test: option '{}' is missing", key));
  return nb::cast<T>(d[key]);
}

nb::tuple value_tuple(const value& v) { return nb::make_tuple(v.defined() ? v.v : std::nan(""), v.reason); }

}  // namespace

void bind_text_ter(nb::module_& m) {
  m.def(
      "text_ter",
      [](const lines& hyps, const streams& refs, bool normalized, bool no_punct, bool asian_support,
         bool case_sensitive, bool sentence, double level, std::size_t replicates, std::uint64_t seed) {
        const auto o = ter_options_of(normalized, no_punct, asian_support, case_sensitive);
        nb::dict d;
        std::vector<text::ter_stats> segments;
        std::optional<stats::bootstrap_result> ci;
        {
          const sigint_cancels interruptible;
          nb::gil_scoped_release release;
          segments = text::ter_corpus_stats(hyps, refs, o);
          if (!sentence && !std::isnan(level)) {
            stats::bootstrap_options b;
            b.level = level;
            b.replicates = replicates;
            b.seed = seed;
            ci = text::bootstrap_ter(segments, b);
          }
        }
        if (sentence) {
          std::vector<double> s;
          for (const auto& x : segments) s.push_back(text::ter_from_stats(x));
          d["scores"] = s;
          return d;
        }
        text::ter_stats total;
        for (const auto& x : segments) total += x;
        d["score"] = text::ter_from_stats(total);
        d["num_edits"] = total.edits;
        d["ref_length"] = total.ref_len;
        d["signature"] = text::ter_signature(refs.size(), o);
        if (ci)
          d["ci"] = nb::make_tuple(ci->lower.defined() ? ci->lower.v : std::nan(""),
                                   ci->upper.defined() ? ci->upper.v : std::nan(""), ci->level);
        return d;
      },
      nb::arg("hyps"), nb::arg("refs"), nb::arg("normalized"), nb::arg("no_punct"), nb::arg("asian_support"),
      nb::arg("case_sensitive"), nb::arg("sentence"), nb::arg("level"), nb::arg("replicates"), nb::arg("seed"));

  m.def(
      "text_paired",
      [](const std::string& metric, const std::vector<lines>& systems, const streams& refs, const std::string& method,
         std::size_t samples, std::uint64_t seed, const nb::dict& opt) {
        text::paired_options p;
        p.method = method == "bs" ? text::paired_method::bootstrap : text::paired_method::approximate_randomization;
        p.samples = samples;
        p.seed = seed;
        std::function<text::segment_table(const lines&)> table;
        text::score_of_stats score;
        std::string sig;
        if (metric == "bleu") {
          text::bleu_options o;
          const auto tok = get<std::string>(opt, "tokenize");
          o.tok = tok == "intl" ? text::tokenizer::intl : tok == "none" ? text::tokenizer::none : text::tokenizer::v13a;
          const auto sm = get<std::string>(opt, "smooth_method");
          o.smooth = sm == "none" ? text::bleu_smooth::none
                     : sm == "floor" ? text::bleu_smooth::floor
                     : sm == "add-k" ? text::bleu_smooth::add_k
                                     : text::bleu_smooth::exp;
          o.smooth_value = get<double>(opt, "smooth_value");
          o.effective_order = get<bool>(opt, "use_effective_order");
          table = [o, &refs](const lines& h) { return text::bleu_table(h, refs, o); };
          score = text::bleu_scorer(o);
          sig = text::bleu_signature(refs.size(), o);
        } else if (metric == "chrf") {
          text::chrf_options o;
          o.char_order = get<int>(opt, "char_order");
          o.word_order = get<int>(opt, "word_order");
          o.beta = get<double>(opt, "beta");
          o.whitespace = get<bool>(opt, "whitespace");
          o.eps_smoothing = get<bool>(opt, "eps_smoothing");
          table = [o, &refs](const lines& h) { return text::chrf_table(h, refs, o); };
          score = text::chrf_scorer(o);
          sig = text::chrf_signature(refs.size(), o);
        } else {
          const auto o = ter_options_of(get<bool>(opt, "normalized"), get<bool>(opt, "no_punct"),
                                        get<bool>(opt, "asian_support"), get<bool>(opt, "case_sensitive"));
          table = [o, &refs](const lines& h) { return text::ter_table(h, refs, o); };
          score = text::ter_scorer();
          sig = text::ter_signature(refs.size(), o);
        }
        std::vector<text::paired_result> res;
        {
          const sigint_cancels interruptible;
          nb::gil_scoped_release release;
          std::vector<text::segment_table> tables;
          for (std::size_t s = 0; s < systems.size(); ++s) {
            try {
              tables.push_back(table(systems[s]));
            } catch (const assay::error& e) {
              throw assay::error(e.kind(), fmt::format("systems[{}]: {}", s, e.marked()));
            }
          }
          res = text::paired_test(tables, score, p);
        }
        nb::list out;
        for (const auto& r : res) {
          nb::dict d;
          d["score"] = r.score;
          d["p_value"] = value_tuple(r.p_value);
          d["mean"] = value_tuple(r.mean);
          d["ci"] = value_tuple(r.ci);
          out.append(d);
        }
        return nb::make_tuple(out, text::paired_signature(sig, p), text::paired_samples(p));
      },
      nb::arg("metric"), nb::arg("systems"), nb::arg("refs"), nb::arg("method"), nb::arg("samples"), nb::arg("seed"),
      nb::arg("options"));
}

}  // namespace assay::python
