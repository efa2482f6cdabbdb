// assay._core: the mergeable evaluation state (include/assay/scale/state.hpp) for the Python
// engines (assay.arrow, assay.spark, assay.dask) and assay.Evaluator: update from columns without copies (numbers as
// float64 arrays, labels as numbers, text or dictionary codes), merge, serialise to bytes, read back,
// finish into the report evaluate() gives on all rows.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <fmt/format.h>

#include "assay/error.hpp"
#include "assay/report/report.hpp"
#include "assay/scale/sliced_state.hpp"
#include "assay/scale/state.hpp"
#include "common.hpp"

namespace assay::python {
namespace {

using scale::evaluation_state;
using scale::label_column;
using scale::state_options;

/// A label column given as exactly one of: numbers, text, or int32 codes into a dictionary.
struct labels_in {
  std::optional<in_array<double>> numbers;
  std::optional<std::vector<std::string>> text;
  std::optional<in_array<std::int32_t>> codes;
  std::optional<std::vector<std::string>> dictionary;

  [[nodiscard]] label_column column() const {
    if (numbers) return label_column::of_numbers(view(numbers));
    if (text) return label_column::of_text(std::span<const std::string>(*text));
    if (codes) {
      return label_column::of_codes(view(codes), dictionary ? std::span<const std::string>(*dictionary)
                                                            : std::span<const std::string>{});
    }
    return {};
  }
};

state_options options_of(bool scores, std::string_view task, std::optional<std::string> pos_label, double threshold,
                         bool weighted, bool drop_missing, std::string label_name, std::string prediction_name,
                         std::string source, bool row_ids, bool values,
                         std::optional<std::vector<std::string>> proba_names) {
  state_options o;
  o.kind = values        ? scale::prediction_kind::values
           : proba_names ? scale::prediction_kind::proba
           : scores      ? scale::prediction_kind::scores
                         : scale::prediction_kind::labels;
  if (proba_names) o.proba_names = std::move(*proba_names);
  o.task = task_of(task);
  o.pos_label = std::move(pos_label);
  o.threshold = threshold;
  o.weighted = weighted;
  o.drop_missing = drop_missing;
  o.label_name = std::move(label_name);
  o.prediction_name = std::move(prediction_name);
  o.source = std::move(source);
  o.row_ids = row_ids;
  return o;
}

/// The columns of one batch (views of the arrays, which must outlive it).
struct batch_in {
  labels_in y, p;
  std::optional<in_array<double>> score, weight, value;
  std::uint64_t first_row_id = 0;
  std::optional<std::vector<in_array<double>>> proba;
  std::optional<in_array<std::uint64_t>> counts;
  std::vector<std::span<const double>> columns;

  scale::row_batch batch() {
    scale::row_batch b;
    b.y_true = y.column();
    b.y_score = view(score);
    b.y_pred = p.column();
    b.sample_weight = view(weight);
    b.first_row_id = first_row_id;
    b.y_value = view(value);
    b.counts = view(counts);
    if (proba) {
      columns.clear();
      for (const auto& c : *proba) columns.push_back(view(c));
      b.y_proba = columns;
    }
    return b;
  }
};

// The state's options, as the two state classes' constructors take them (their first parameters).
#define ASSAY_OPTION_PARAMETERS                                                                                 \
  bool scores, std::string_view task, std::optional<std::string> pos_label, double threshold, bool weighted,      \
      bool drop_missing, std::string label_name, std::string prediction_name, std::string source, bool row_ids, \
      bool values, std::optional<std::vector<std::string>> proba_names
#define ASSAY_OPTIONS                                                                                         \
  options_of(scores, task, std::move(pos_label), threshold, weighted, drop_missing, std::move(label_name),     \
             std::move(prediction_name), std::move(source), row_ids, values, std::move(proba_names))
#define ASSAY_OPTION_ARGS                                                                                     \
  nb::arg("scores"), nb::arg("task"), nb::arg("pos_label").none(), nb::arg("threshold"), nb::arg("weighted"), \
      nb::arg("drop_missing"), nb::arg("label_name"), nb::arg("prediction_name"), nb::arg("source"),          \
      nb::arg("row_ids") = false, nb::arg("values") = false, nb::arg("proba_names").none() = nb::none()

// The columns of one batch, as the two state classes' update() takes them (their first parameters).
#define ASSAY_BATCH_PARAMETERS                                                                                   \
  std::optional<in_array<double>> y_num, std::optional<std::vector<std::string>> y_text,                         \
      std::optional<in_array<std::int32_t>> y_codes, std::optional<std::vector<std::string>> y_dict,             \
      std::optional<in_array<double>> score, std::optional<in_array<double>> p_num,                              \
      std::optional<std::vector<std::string>> p_text, std::optional<in_array<std::int32_t>> p_codes,             \
      std::optional<std::vector<std::string>> p_dict, std::optional<in_array<double>> weight,                    \
      std::uint64_t first_row_id, std::optional<in_array<double>> value,                                         \
      std::optional<std::vector<in_array<double>>> proba, std::optional<in_array<std::uint64_t>> counts
#define ASSAY_BATCH_IN(name)                                                                                     \
  batch_in name {                                                                                                \
    {y_num, y_text, y_codes, y_dict}, {p_num, p_text, p_codes, p_dict}, score, weight, value, first_row_id,      \
        std::move(proba), counts, {}                                                                             \
  }
#define ASSAY_BATCH_ARGS                                                                                          \
  nb::arg("y_num").none(), nb::arg("y_text").none(), nb::arg("y_codes").none(), nb::arg("y_dict").none(),         \
      nb::arg("score").none(), nb::arg("p_num").none(), nb::arg("p_text").none(), nb::arg("p_codes").none(),      \
      nb::arg("p_dict").none(), nb::arg("weight").none(), nb::arg("first_row_id") = 0,                            \
      nb::arg("value").none() = nb::none(), nb::arg("proba").none() = nb::none(),                                 \
      nb::arg("counts").none() = nb::none()

// The report's options, as the two state classes' finish() takes them (their first parameters).
#define ASSAY_FINISH_PARAMETERS                                                                               \
  double threshold, std::optional<double> beta, std::size_t top_k, std::string_view zero_division,             \
      std::optional<double> ci_level, std::string_view ci_method, std::size_t replicates, std::uint64_t seed,  \
      bool keep_curves, std::optional<double> max_fpr, std::optional<double> min_tpr,                         \
      std::optional<double> min_precision, std::optional<double> min_recall, double confidence
#define ASSAY_FINISH_OPTIONS \
  finish_options(evaluate_options_of(threshold, beta, top_k, zero_division, ci_level, ci_method, replicates, seed, \
                                     keep_curves),                                                                \
                 {max_fpr, min_tpr, min_precision, min_recall, confidence})
#define ASSAY_FINISH_ARGS                                                                                      \
  nb::arg("threshold"), nb::arg("beta").none(), nb::arg("top_k"), nb::arg("zero_division"),                    \
      nb::arg("ci_level").none() = nb::none(), nb::arg("ci_method") = "auto", nb::arg("replicates") = 2000,    \
      nb::arg("seed") = 0, nb::arg("keep_curves") = false, nb::arg("max_fpr").none() = nb::none(),            \
      nb::arg("min_tpr").none() = nb::none(), nb::arg("min_precision").none() = nb::none(),                    \
      nb::arg("min_recall").none() = nb::none(), nb::arg("confidence") = 0.95

// evaluate_options with the operating points' constraints.
evaluate_options finish_options(evaluate_options eo, const curves::operating_constraints& c) {
  eo.constraints = c;
  return eo;
}

// What the two state classes share: merge, serialize and the sizes.
template <class State>
void def_common(nb::class_<State>& c) {
  c.def(
       "merge",
       [](State& s, const State& other) {
         nb::gil_scoped_release release;
         s.merge(other);
       },
       nb::arg("other"))
      .def("serialize",
           [](const State& s) {
             std::string blob;
             {
               nb::gil_scoped_release release;
               blob = s.serialize();
             }
             return nb::bytes(blob.data(), blob.size());
           })
      .def(
          "offset_row_ids",
          [](State& s, std::uint64_t by) {
            nb::gil_scoped_release release;
            s.offset_row_ids(by);
          },
          nb::arg("by"),
          "Adds `by` to the id of every row the state holds (a part whose rows were numbered from 0 before "
          "the index of its first row among all rows was known).")
      .def_prop_ro("rows", &State::rows)
      .def_prop_ro("missing", &State::missing)
      .def_prop_ro("memory_bytes", &State::memory_bytes);
}

}  // namespace

void bind_scale(nb::module_& m) {
  nb::class_<evaluation_state> states(m, "EvaluationState",
                                      "A mergeable evaluation state (internal: use assay.Evaluator, or assay.report on Arrow / spark / dask).");
  states
      .def(
          "__init__",
          [](evaluation_state* self, ASSAY_OPTION_PARAMETERS) { new (self) evaluation_state(ASSAY_OPTIONS); },
          ASSAY_OPTION_ARGS)
      .def(
          "update",
          [](evaluation_state& s, ASSAY_BATCH_PARAMETERS) {
            ASSAY_BATCH_IN(in);
            const scale::row_batch b = in.batch();
            nb::gil_scoped_release release;
            s.update(b);
          },
          ASSAY_BATCH_ARGS)
      .def(
          "finish",
          [](const evaluation_state& s, ASSAY_FINISH_PARAMETERS) {
            const evaluate_options eo = ASSAY_FINISH_OPTIONS;
            nb::gil_scoped_release release;
            return s.finish(eo);
          },
          ASSAY_FINISH_ARGS);
  def_common(states);

  m.def(
      "read_state",
      [](nb::bytes blob, const evaluation_state* like) {
        const std::string_view b(static_cast<const char*>(blob.data()), blob.size());
        std::optional<state_options> expect;
        if (like != nullptr) expect = like->options();
        nb::gil_scoped_release release;
        return scale::read_state(b, expect);
      },
      nb::arg("blob"), nb::arg("like").none() = nb::none(),
      "The state of a blob written by EvaluationState.serialize; with `like`, refuses a state whose options "
      "differ from like's.");

  using scale::sliced_state;
  nb::class_<sliced_state> sliced(m, "SlicedState",
                                  "A mergeable state of a sliced report (internal: use assay.report / spark / dask "
                                  "with by=).");
  sliced
      .def(
          "__init__",
          [](sliced_state* self, ASSAY_OPTION_PARAMETERS, std::vector<std::string> by) {
            new (self) sliced_state(ASSAY_OPTIONS, std::move(by));
          },
          ASSAY_OPTION_ARGS, nb::arg("by"))
      .def(
          "update",
          [](sliced_state& s, ASSAY_BATCH_PARAMETERS,
             std::vector<std::optional<in_array<double>>> by_num,
             std::vector<std::optional<in_array<std::int32_t>>> by_codes,
             std::vector<std::optional<std::vector<std::string>>> by_dict) {
            if (by_codes.size() != by_num.size() || by_dict.size() != by_num.size()) {
              throw_usage(fmt::format("SlicedState.update: by_num, by_codes and by_dict have {}, {} and {} entries; "
                                      "give one per slice column", by_num.size(), by_codes.size(), by_dict.size()));
            }
            ASSAY_BATCH_IN(in);
            const scale::row_batch b = in.batch();
            std::vector<labels_in> keys;
            for (std::size_t c = 0; c < by_num.size(); ++c) keys.push_back({by_num[c], std::nullopt, by_codes[c], by_dict[c]});
            std::vector<label_column> by;
            for (const auto& k : keys) by.push_back(k.column());
            nb::gil_scoped_release release;
            s.update(b, by);
          },
          ASSAY_BATCH_ARGS, nb::arg("by_num"), nb::arg("by_codes"), nb::arg("by_dict"))
      .def(
          "finish",
          [](const sliced_state& s, ASSAY_FINISH_PARAMETERS, std::optional<std::uint64_t> missing) {
            const evaluate_options eo = ASSAY_FINISH_OPTIONS;
            nb::gil_scoped_release release;
            sliced_report r = s.finish(eo);
            if (missing) r.overall.missing = *missing;  // the JSON's "missing", as `assay report --drop-missing`
            return r;
          },
          ASSAY_FINISH_ARGS, nb::arg("missing").none() = nb::none())
      .def_prop_ro("slices", &sliced_state::slices);
  def_common(sliced);

  m.def(
      "read_sliced_state",
      [](nb::bytes blob, const sliced_state* like) {
        const std::string_view b(static_cast<const char*>(blob.data()), blob.size());
        std::optional<state_options> expect;
        std::optional<std::vector<std::string>> by;
        if (like != nullptr) expect = like->options(), by = like->by();
        nb::gil_scoped_release release;
        return scale::read_sliced_state(b, expect, by);
      },
      nb::arg("blob"), nb::arg("like").none() = nb::none(),
      "The sliced state of a blob written by SlicedState.serialize; with `like`, refuses a state whose options or "
      "slice columns differ from like's.");
}

}  // namespace assay::python
