// assay._core: ROUGE (assay::text::sentence_rouge, aggregate_rouge) for python/assay/text.py, which
// checks the arguments and names the caller's parameters; strings arrive as UTF-8 (Python str).
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <optional>

#include "assay/error.hpp"
#include "assay/text/rouge.hpp"
#include "common.hpp"

namespace assay::python {

namespace {

double or_nan(const value& v) { return v.defined() ? v.v : std::nan(""); }

}  // namespace

void bind_text_rouge(nb::module_& m) {
  m.def(
      "text_rouge",
      [](const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
         const std::vector<std::string>& types, bool use_stemmer, bool sentence, double level, std::size_t replicates,
         std::uint64_t seed) {
        text::rouge_options o;
        for (const auto& t : types) o.types.push_back(text::rouge_type_of(t));
        o.use_stemmer = use_stemmer;
        o.threads = 1;  // the caller's thread; Python users parallelise themselves
        std::vector<std::vector<text::rouge_score>> s;
        std::vector<text::rouge_aggregate> agg;
        {
          const sigint_cancels interruptible;  // Ctrl-C stops the bootstrap
          nb::gil_scoped_release release;
          s = text::sentence_rouge(hyps, refs, o);
          if (!sentence) {
            std::optional<stats::bootstrap_options> b;
            if (!std::isnan(level)) {
              b.emplace();
              b->level = level;
              b->replicates = replicates;
              b->seed = seed;
            }
            agg = text::aggregate_rouge(s, o, b ? &*b : nullptr);
          }
        }
        nb::dict d;
        const auto names = text::rouge_types_of(o);
        for (std::size_t t = 0; t < names.size(); ++t) {
          if (sentence) {
            std::vector<double> p(s.size()), r(s.size()), f(s.size());
            for (std::size_t i = 0; i < s.size(); ++i) {
              p[i] = s[i][t].precision;
              r[i] = s[i][t].recall;
              f[i] = s[i][t].fmeasure;
            }
            d[names[t].name.c_str()] = nb::make_tuple(to_numpy(std::move(p)), to_numpy(std::move(r)), to_numpy(std::move(f)));
            continue;
          }
          const auto& a = agg[t];
          auto ci = [&](const stats::bootstrap_result& c) {
            return nb::make_tuple(or_nan(c.lower), or_nan(c.upper));
          };
          d[a.type.c_str()] = nb::make_tuple(or_nan(a.precision), or_nan(a.recall), or_nan(a.fmeasure), a.fmeasure.reason,
                                             ci(a.precision_ci), ci(a.recall_ci), ci(a.fmeasure_ci));
        }
        return d;
      },
      nb::arg("hyps"), nb::arg("refs"), nb::arg("types"), nb::arg("use_stemmer"), nb::arg("sentence"),
      nb::arg("level"), nb::arg("replicates"), nb::arg("seed"));

  m.def(
      "text_rouge_tokenize",
      [](const std::string& text, bool stem) { return text::rouge_tokenize(text, stem); }, nb::arg("text"),
      nb::arg("stem"));
}

}  // namespace assay::python
