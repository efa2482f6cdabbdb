// assay curve: roc and pr streamed (write_curve): the points of model_points.hpp formatted as CSV rows
// or JSON array elements and sent on in pieces, without the whole curve in memory; see curve_writers.hpp.
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../curves/model_points.hpp"
#include "assay/curves/accumulate.hpp"
#include "assay/curves/roc.hpp"
#include "curve_writers.hpp"

namespace assay::curves::detail {

namespace {

std::string roc_undefined(double P, double N) {
  if (N == 0 && P == 0) return "no cases: both rates are undefined";
  if (N == 0) return "no negative cases: the false-positive rate is undefined";
  if (P == 0) return "no positive cases: the true-positive rate is undefined";
  return {};
}

}  // namespace

void stream_roc(loaded& d, const curve_options& q, curve_format format, const text_sink& sink) {
  const char* caller = "assay curve roc";
  const bool partial = q.partial_fpr.size() == 2 || q.partial_tpr.size() == 2;
  if (format == curve_format::csv) {
    sink(roc_csv_header);
    for (auto& m : d.models) {
      const model_points mp = points_of(d, m, caller);
      const std::string field = csv_field(m.name);
      const double P = mp.positives(), N = mp.negatives();
      const double n_or_nan = N > 0 ? N : std::nan(""), p_or_nan = P > 0 ? P : std::nan("");
      std::string first;
      csv_row(first, field, {inf, N > 0 ? 0.0 : std::nan(""), P > 0 ? 0.0 : std::nan(""), 0, 0});
      sink(first);
      emit_roc_points(mp, q.drop_intermediate, [&](std::string& out, double t, double tp, double fp) {
        char row[5 * 25 + 1];
        char* p = put_csv_next(row, t);
        p = put_csv_next(p, fp / n_or_nan);
        p = put_csv_next(p, tp / p_or_nan);
        p = put_csv_next(p, tp);
        p = put_csv_next(p, fp);
        *p++ = '\n';
        out += field;
        out.append(row, p);
      }, sink);
    }
    return;
  }
  json j = roc_header(d);
  std::vector<model_points> pts = sort_models(d, caller);
  for (std::size_t i = 0; i < pts.size(); ++i) {
    model_points& mp = pts[i];
    const double P = mp.positives(), N = mp.negatives();
    const bool drop = q.drop_intermediate;
    // One array of the curve: its value at the origin, then one per point.
    auto array = [&mp, drop](double origin, auto value_of) {
      return jstream([&mp, drop, origin, value_of](const text_sink& out) {
        std::string head = "[";
        json_cell(head, origin);
        out(head);
        emit_roc_points(mp, drop, [&](std::string& s, double t, double tp, double fp) {
          s += ',';
          json_cell(s, value_of(t, tp, fp));
        }, out);
        out("]");
      });
    };
    const double n_or_nan = N > 0 ? N : std::nan(""), p_or_nan = P > 0 ? P : std::nan("");
    json o;
    o["model"] = d.models[i].name;
    o["thresholds"] = array(inf, [](double t, double, double) { return t; });
    o["fpr"] = array(N > 0 ? 0.0 : std::nan(""), [n_or_nan](double, double, double fp) { return fp / n_or_nan; });
    o["tpr"] = array(P > 0 ? 0.0 : std::nan(""), [p_or_nan](double, double tp, double) { return tp / p_or_nan; });
    const std::string undefined = roc_undefined(P, N);
    if (!undefined.empty()) o["curve_undefined"] = undefined;
    value auc;
    if (P > 0 && N > 0) {
      auc_sum sum;
      mp.each(true, [&sum](double, double tp, double fp) { sum.add(tp, fp); });
      auc = value(sum.auc(P, N));
    } else {
      auc = roc_auc(score_sweep{{}, {}, {}, P, N});
    }
    put(o, "roc_auc", auc);
    if (partial) put_partial_aucs(o, mp.sweep(), q);
    j["models"].push_back(o);
  }
  put_multiclass_roc_aucs(j, d);
  write_json(j, sink);
}

void stream_pr(loaded& d, curve_format format, const text_sink& sink) {
  const char* caller = "assay curve pr";
  if (format == curve_format::csv) {
    sink(pr_csv_header);
    for (auto& m : d.models) {
      const model_points mp = points_of(d, m, caller);
      const std::string field = csv_field(m.name);
      const double P = mp.positives();
      const double p_or_nan = P > 0 ? P : std::nan("");
      mp.emit(false, false, [&](std::string& out, double t, double tp, double fp) {
        char row[3 * 25 + 1];
        char* p = put_csv_next(row, t);
        p = put_csv_next(p, tp / (tp + fp));
        p = put_csv_next(p, tp / p_or_nan);
        *p++ = '\n';
        out += field;
        out.append(row, p);
      }, sink);
      std::string last;
      csv_row(last, field, {std::nan(""), 1, 0});
      sink(last);
    }
    return;
  }
  json j = pr_header(d);
  std::vector<model_points> pts = sort_models(d, caller);
  for (std::size_t i = 0; i < pts.size(); ++i) {
    model_points& mp = pts[i];
    const score_sweep& sw = mp.sweep();  // the interpolated AP variants need it
    const double P = mp.positives();
    const double p_or_nan = P > 0 ? P : std::nan("");
    // One array, lowest threshold first, then its end value (none for the thresholds).
    auto array = [&mp](std::optional<double> end, auto value_of) {
      return jstream([&mp, end, value_of](const text_sink& out) {
        out("[");
        // Every element is written with a leading comma (pieces are formatted independently); the
        // first comma sent is dropped.
        bool any = false;
        const text_sink rest = [&](std::string_view piece) {
          if (!any && !piece.empty()) piece.remove_prefix(1), any = true;
          out(piece);
        };
        mp.emit(false, false, [&value_of](std::string& s, double t, double tp, double fp) {
          s += ',';
          json_cell(s, value_of(t, tp, fp));
        }, rest);
        if (end) {
          std::string tail = any ? "," : "";
          json_cell(tail, *end);
          out(tail);
        }
        out("]");
      });
    };
    json o;
    o["model"] = d.models[i].name;
    o["thresholds"] = array(std::nullopt, [](double t, double, double) { return t; });
    o["precision"] = array(1.0, [](double, double tp, double fp) { return tp / (tp + fp); });
    o["recall"] = array(0.0, [p_or_nan](double, double tp, double) { return tp / p_or_nan; });
    if (P == 0) o["curve_undefined"] = "no positive cases: recall is undefined";
    put_pr_summary(o, sw);
    j["models"].push_back(o);
  }
  write_json(j, sink);
}

}  // namespace assay::curves::detail
