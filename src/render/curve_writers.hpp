// assay curve: the writers that render curves as CSV and JSON (the SVG chart is the data of a
// plot::chart, drawn by src/render/plot). The kernels they call return data: the curves of roc.hpp, pr.hpp,
// threshold.hpp, calibration.hpp and the points of model_points.hpp. Private to the library;
// src/curves/curve_report.cpp loads the rows and chooses the writer. Schema: docs/curves.md.
#pragma once

#include "../curves/curve_input.hpp"
#include "assay/curves/curve_report.hpp"
#include "curve_text.hpp"

namespace assay::curves::detail {

// ---- whole documents (curve_documents.cpp): CSV, JSON and the chart in memory --------------------

curve_document roc_document(const loaded& d, const curve_options& q);
curve_document pr_document(const loaded& d, const curve_options& q);
curve_document threshold_document(const loaded& d, const curve_options& q);
curve_document rejection_document(const loaded& d, const curve_options& q);
curve_document cost_document(const loaded& d, const curve_options& q);
curve_document calibration_document(const loaded& d, const curve_options& q);

// ---- parts shared by the documents and the streamed roc and pr (curve_stream.cpp) -----------------

inline constexpr const char* roc_csv_header = "model,threshold,fpr,tpr,tps,fps\n";
inline constexpr const char* pr_csv_header = "model,threshold,precision,recall\n";

/// The document's head: kind, source, label column, classes, positive class or one-vs-rest, weights.
json header(const loaded& d, const char* kind);
json roc_header(const loaded& d);
json pr_header(const loaded& d);
/// The partial AUCs a request asks for (partial_fpr, partial_tpr), plain and McClish-standardised.
void put_partial_aucs(json& o, const score_sweep& sw, const curve_options& q);
/// The one-vs-rest and one-vs-one multiclass ROC AUCs (macro and weighted); nothing for binary input.
void put_multiclass_roc_aucs(json& j, const loaded& d);
/// One model's PR summary: average precision (step and the interpolated variants), break-even point
/// and prevalence P / (P + N) (NaN, written null, without cases). Returns the step AP and prevalence.
struct pr_summary {
  value ap;
  double prevalence;
};
pr_summary put_pr_summary(json& o, const score_sweep& sw);

// ---- streamed roc and pr (curve_stream.cpp): the points go to `sink` as they are formatted -------

/// `assay curve roc` as CSV or JSON; the models' scores are moved out of `d` as they are sorted.
void stream_roc(loaded& d, const curve_options& q, curve_format format, const text_sink& sink);
/// `assay curve pr` as CSV or JSON; the models' scores are moved out of `d` as they are sorted.
void stream_pr(loaded& d, curve_format format, const text_sink& sink);

}  // namespace assay::curves::detail
