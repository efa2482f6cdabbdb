// The self-contained HTML report: document builder and the page of `assay report --html`.
#include "assay/report/html.hpp"

#include "assay/plot/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <limits>
#include <queue>


namespace assay::html {

namespace {

// Light and dark colours as CSS variables; heat-map cells take their alpha from --p (row share).
constexpr const char* stylesheet = R"css(
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--head:#f6f8fa;
--ok:31 111 235;--err:207 34 46;--bar0:#1f6feb;--bar1:#bf8700;--bar2:#2da44e;--grid:#e6e9ec}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--head:#161b22;
--ok:56 139 253;--err:248 81 73;--bar0:#4493f8;--bar1:#d29922;--bar2:#3fb950;--grid:#262c34}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1100px;padding:1.5rem;background:var(--bg);color:var(--fg);
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
h1{font-size:1.6rem;margin:0 0 .2rem}h2{font-size:1.25rem;margin:2rem 0 .6rem;border-bottom:1px solid var(--line)}
header p{margin:0;color:var(--muted)}
nav{margin:1rem 0;font-size:.9rem}nav a{margin-right:1rem;color:inherit}
table{border-collapse:collapse;margin:.4rem 0;font-variant-numeric:tabular-nums}
caption{caption-side:top;text-align:left;color:var(--muted);font-size:.85rem;padding:.2rem 0}
th,td{border:1px solid var(--line);padding:.3rem .55rem;text-align:right;vertical-align:middle}
th{background:var(--head);font-weight:600}th[scope=row],td.t{text-align:left}
.setup{min-width:min(100%,34rem)}.setup th{text-align:left;width:16rem}.setup td{text-align:left;overflow-wrap:anywhere}
thead th:first-child,th[scope=row]{text-align:left}
code,pre{font:13px ui-monospace,"DejaVu Sans Mono",monospace}
pre.command{background:var(--head);border:1px solid var(--line);padding:.5rem .7rem;
white-space:pre-wrap;overflow-wrap:anywhere}
.scroll{overflow-x:auto}
.heat td{min-width:4.5rem;line-height:1.2}
.heat td.d{background:rgb(var(--ok)/calc(.1 + var(--p)*.8))}
.heat td.e{background:rgb(var(--err)/calc(.1 + var(--p)*.8))}
.heat td.z{background:none}
.heat td.hi{color:#fff}.heat td small{display:block;font-size:.78rem;opacity:.85}
.heat th.corner{font-weight:400;font-size:.8rem;color:var(--muted)}
.undef{color:var(--muted);font-style:italic}
tfoot tr:first-child>*{border-top:2px solid var(--fg)}
figure{margin:1rem 0}figcaption{color:var(--muted);font-size:.9rem;max-width:70ch}figcaption strong{color:var(--fg)}
svg.plot{max-width:100%;height:auto;font:12px system-ui,"DejaVu Sans",sans-serif}
svg.plot text{fill:var(--fg)}svg.plot .plot-title{font-size:14px;font-weight:600}
svg.plot .grid{stroke:var(--grid)}svg.plot .axis{stroke:var(--fg)}
svg.plot .bar-0{fill:var(--bar0)}svg.plot .bar-1{fill:var(--bar1)}svg.plot .bar-2{fill:var(--bar2)}
svg.plot .undef-label{fill:var(--muted);font-style:italic}
.notes li{margin:.2rem 0}
footer{margin-top:2.5rem;color:var(--muted);font-size:.8rem}
@media print{:root{--bg:#fff;--fg:#000;--muted:#444;--line:#999;--head:#eee;--grid:#ddd;
--ok:31 111 235;--err:207 34 46;--bar0:#1f6feb;--bar1:#bf8700;--bar2:#2da44e}
body{max-width:none;padding:0;font-size:11pt}nav{display:none}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
section{break-inside:avoid-page}tr,figure{break-inside:avoid}.scroll{overflow:visible}h2{break-after:avoid}}
)css";

std::string cell(const value& v, int decimals = 3) {
  if (!v.defined())
    return fmt::format("<td><span class=\"undef\" title=\"{}\">undefined</span></td>", escape(v.reason));
  return fmt::format("<td>{:.{}f}</td>", v.v, decimals);
}

// A cell with the value and, when given, its interval below it (the method in the tooltip).
std::string cell_ci(const value& v, const std::optional<confidence_interval>& ci) {
  if (!v.defined() || !ci) return cell(v);
  if (!ci->lower.defined() || !ci->upper.defined()) {
    return fmt::format("<td>{:.3f}<br><small class=\"undef\" title=\"{}\">no interval</small></td>", v.v,
                       escape(ci->lower.defined() ? ci->upper.reason : ci->lower.reason));
  }
  return fmt::format("<td>{:.3f}<br><small title=\"{}\">[{:.3f}, {:.3f}]</small></td>", v.v, escape(ci->method),
                     ci->lower.v, ci->upper.v);
}

std::string anchor(std::string_view id) {
  std::string out(id);
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '-';
  return out.empty() ? std::string("section") : out;
}

std::string percent(double share) { return std::isfinite(share) ? fmt::format("{:.1f}%", 100 * share) : "&ndash;"; }

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char ch : text) {
    const auto u = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if ((u < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') || u == 0x7F)
          out += "\uFFFD";
        else
          out += ch;
    }
  }
  return out;
}

std::string number(double x) {
  if (!std::isfinite(x)) return std::isnan(x) ? "NaN" : (x > 0 ? "inf" : "-inf");
  if (x == std::floor(x) && std::abs(x) < 1e15) return fmt::format("{:.0f}", x);
  return fmt::format("{:.6g}", x);
}

std::string setup_table(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::string s = "<table class=\"setup\"><caption>The data and options this page was computed from</caption><tbody>";
  for (const auto& [k, v] : rows)
    s += fmt::format("<tr><th scope=\"row\">{}</th><td>{}</td></tr>", escape(k), escape(v));
  s += "</tbody></table>";
  return s;
}

std::string command_block(std::string_view command) {
  return fmt::format("<p>To reproduce:</p><pre class=\"command\"><code>{}</code></pre>", escape(command));
}

std::string headline_table(const std::vector<headline>& rows) {
  const bool any_ci = std::any_of(rows.begin(), rows.end(), [](const headline& h) { return h.ci.has_value(); });
  std::string s = "<table class=\"headline\"><thead><tr><th scope=\"col\">Metric</th><th scope=\"col\">Value</th>";
  if (any_ci) s += "<th scope=\"col\">Confidence interval</th><th scope=\"col\">Method</th>";
  s += "</tr></thead><tbody>";
  for (const auto& h : rows) {
    s += fmt::format("<tr><th scope=\"row\">{}</th>", escape(h.title));
    if (h.v.defined())
      s += fmt::format("<td>{}</td>", number(h.v.v));
    else
      s += fmt::format("<td class=\"t\"><span class=\"undef\">undefined</span> ({})</td>", escape(h.v.reason));
    if (any_ci) {
      if (h.ci)
        s += fmt::format("<td>[{}, {}]</td><td class=\"t\">{}</td>", number(h.ci->lo), number(h.ci->hi),
                         escape(h.ci->method));
      else
        s += "<td></td><td></td>";
    }
    s += "</tr>";
  }
  return s + "</tbody></table>";
}

std::vector<confused_pair> most_confused_pairs(const confusion_matrix& cm, std::size_t top) {
  // Min-heap of the best `top` cells: the worst kept cell is on top and is replaced by a better one.
  auto better = [](const confused_pair& a, const confused_pair& b) {
    if (a.count != b.count) return a.count > b.count;
    if (a.actual != b.actual) return a.actual < b.actual;
    return a.predicted < b.predicted;
  };
  std::priority_queue<confused_pair, std::vector<confused_pair>, decltype(better)> heap(better);
  const std::size_t k = cm.classes();
  for (std::size_t i = 0; i < k && top > 0; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      if (i == j || !(cm(i, j) > 0)) continue;
      confused_pair p{i, j, cm(i, j)};
      if (heap.size() < top)
        heap.push(p);
      else if (better(p, heap.top())) {
        heap.pop();
        heap.push(p);
      }
    }
  std::vector<confused_pair> out;
  while (!heap.empty()) {
    out.push_back(heap.top());
    heap.pop();
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::string confusion_heat_map(const std::vector<std::string>& labels, const confusion_matrix& cm,
                               const heat_map_limits& limits) {
  const std::size_t k = cm.classes();
  if (k > limits.max_classes) {
    const auto pairs = most_confused_pairs(cm, limits.top_pairs);
    double errors = cm.total() - cm.trace();
    std::string s = fmt::format(
        "<p>{} classes are too many for a readable matrix; the table lists the {} most frequent confusions "
        "(off-diagonal cells). The full matrix is in <code>--format json</code>.</p>",
        k, pairs.size());
    s += "<table class=\"pairs\"><caption>Most confused pairs, largest count first</caption><thead><tr>"
         "<th scope=\"col\">#</th><th scope=\"col\">Actual class</th><th scope=\"col\">Predicted as</th>"
         "<th scope=\"col\">Count</th><th scope=\"col\">% of actual class</th><th scope=\"col\">% of all errors</th>"
         "</tr></thead><tbody>";
    for (std::size_t n = 0; n < pairs.size(); ++n) {
      const auto& p = pairs[n];
      s += fmt::format(
          "<tr><td>{}</td><td class=\"t\">{}</td><td class=\"t\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", n + 1,
          escape(labels[p.actual]), escape(labels[p.predicted]), number(p.count),
          percent(p.count / cm.row_sum(p.actual)), percent(p.count / errors));
    }
    if (pairs.empty()) s += "<tr><td colspan=\"6\" class=\"t\">No errors: every case is on the diagonal.</td></tr>";
    return s + "</tbody></table>";
  }
  std::string s =
      "<div class=\"scroll\"><table class=\"heat\"><caption>Rows: actual class; columns: predicted class. Each cell: "
      "count, and below it the share of the actual class (row %), which sets the shade; blue = correct, "
      "red = error.</caption><thead><tr><th scope=\"col\" class=\"corner\">actual \\ predicted</th>";
  for (const auto& l : labels) s += fmt::format("<th scope=\"col\">{}</th>", escape(l));
  s += "<th scope=\"col\">Total</th></tr></thead><tbody>";
  for (std::size_t i = 0; i < k; ++i) {
    const double support = cm.row_sum(i);
    s += fmt::format("<tr><th scope=\"row\">{}</th>", escape(labels[i]));
    for (std::size_t j = 0; j < k; ++j) {
      const double c = cm(i, j), share = support > 0 ? c / support : std::nan("");
      const double p = std::isfinite(share) ? share : 0.0;
      s += fmt::format(
          "<td class=\"{}{}\" style=\"--p:{:.3f}\" title=\"actual {}, predicted {}: {} ({} of the actual class)\">"
          "{}<small>{}</small></td>",
          i == j ? "d" : "e", c > 0 ? (p > 0.5 ? " hi" : "") : " z", p, escape(labels[i]), escape(labels[j]), number(c),
          percent(share), number(c), percent(share));
    }
    s += fmt::format("<td>{}</td></tr>", number(support));
  }
  s += "</tbody><tfoot><tr><th scope=\"row\">Total</th>";
  for (std::size_t j = 0; j < k; ++j) s += fmt::format("<td>{}</td>", number(cm.col_sum(j)));
  s += fmt::format("<td>{}</td></tr></tfoot></table></div>", number(cm.total()));
  return s;
}

std::string per_class_table(const report& r, std::size_t max_rows) {
  const std::size_t k = r.per_class.size();
  std::vector<std::size_t> order(k);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::string s;
  if (k > max_rows) {
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return r.per_class[a].support > r.per_class[b].support; });
    order.resize(max_rows);
    s +=
        fmt::format("<p>The {} largest of {} classes by support are listed; all are in <code>--format json</code>.</p>",
                    max_rows, k);
  }
  s += "<div class=\"scroll\"><table class=\"per-class\"><caption>Detailed accuracy by class (one class against the "
       "rest)</caption><thead><tr><th scope=\"col\">Class</th><th scope=\"col\">TP rate</th><th scope=\"col\">FP "
       "rate</th>"
       "<th scope=\"col\">Precision</th><th scope=\"col\">Recall</th><th scope=\"col\">F-measure</th>"
       "<th scope=\"col\">MCC</th><th scope=\"col\" title=\"ROC AUC of the class against the rest\">ROC area</th>"
       "<th scope=\"col\" title=\"average precision of the class against the rest\">PRC area</th>"
       "<th scope=\"col\">Support</th></tr></thead><tbody>";
  const value no_detail = value::undefined("not computed");
  auto detail_of = [&](std::size_t i) -> const class_detail* {
    return i < r.by_class.size() ? &r.by_class[i] : nullptr;
  };
  for (std::size_t i : order) {
    const auto& c = r.per_class[i];
    const class_detail* d = detail_of(i);
    s += fmt::format("<tr><th scope=\"row\">{}</th>{}{}{}{}{}{}{}{}<td>{}</td></tr>", escape(r.labels[i]),
                     cell(c.tp_rate), cell(c.fp_rate), cell(c.precision), cell(c.recall), cell(c.f1), cell(c.mcc),
                     d ? cell_ci(d->roc_auc, d->roc_auc_ci) : cell(no_detail),
                     d ? cell_ci(d->average_precision, d->average_precision_ci) : cell(no_detail), number(c.support));
  }
  s += "</tbody><tfoot>";
  auto avg = [&](const char* name, const averaged& a, const ranking_average* ra) {
    s += fmt::format("<tr><th scope=\"row\">{}</th>{}{}{}{}{}<td></td>{}{}<td>{}</td></tr>", name, cell(a.recall),
                     cell(a.fp_rate), cell(a.precision), cell(a.recall), cell(a.f1),
                     ra ? cell(ra->roc_auc) : "<td></td>", ra ? cell(ra->average_precision) : "<td></td>",
                     number(r.total_weight));
  };
  avg("Weighted avg.", r.weighted_avg, &r.weighted_ranking);
  avg("Macro avg.", r.macro, &r.macro_ranking);
  avg("Micro avg.", r.micro, nullptr);
  s += "</tfoot></table></div>";
  if (r.by_class.size() != k) return s;
  // R caret's confusionMatrix statistics by class.
  s += "<div class=\"scroll\"><table class=\"per-class caret\"><caption>Statistics by class, one class against the "
       "rest (as R's caret confusionMatrix)</caption><thead><tr><th scope=\"col\">Class</th>"
       "<th scope=\"col\">Sensitivity</th><th scope=\"col\">Specificity</th><th scope=\"col\">PPV</th>"
       "<th scope=\"col\">NPV</th><th scope=\"col\">F1</th><th scope=\"col\">Prevalence</th>"
       "<th scope=\"col\" title=\"TP / N\">Detection rate</th>"
       "<th scope=\"col\" title=\"(TP + FP) / N\">Detection prevalence</th>"
       "<th scope=\"col\">Balanced accuracy</th></tr></thead><tbody>";
  for (std::size_t i : order) {
    const auto& d = r.by_class[i];
    s += fmt::format("<tr><th scope=\"row\">{}</th>{}{}{}{}{}{}{}{}{}</tr>", escape(r.labels[i]), cell(d.sensitivity),
                     cell(d.specificity), cell(d.ppv), cell(d.npv), cell(r.per_class[i].f1), cell(d.prevalence),
                     cell(d.detection_rate), cell(d.detection_prevalence), cell(d.balanced_accuracy));
  }
  return s + "</tbody></table></div>";
}

std::string figure_block(const figure& f) {
  return fmt::format("<figure id=\"{}\">{}<figcaption><strong>{}</strong>{}{}</figcaption></figure>", anchor(f.id),
                     f.svg, escape(f.title), f.caption.empty() ? "" : ". ", escape(f.caption));
}

document::document(std::string title, std::string subtitle)
    : title_(std::move(title)), subtitle_(std::move(subtitle)) {}

void document::add_section(std::string_view id, std::string_view heading, std::string body) {
  sections_.push_back({anchor(id), std::string(heading), std::move(body)});
}

std::string document::paragraph(std::string_view text, std::string_view css_class) {
  if (css_class.empty()) return fmt::format("<p>{}</p>", escape(text));
  return fmt::format("<p class=\"{}\">{}</p>", escape(css_class), escape(text));
}

std::string document::render() const {
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "img-src data:\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<meta name=\"color-scheme\" content=\"light dark\">";
  s += fmt::format("<meta name=\"generator\" content=\"assay {}\"><title>{}</title><style>{}</style></head>\n<body>",
                   ASSAY_VERSION, escape(title_), stylesheet);
  s += fmt::format("<header><h1>{}</h1>", escape(title_));
  if (!subtitle_.empty()) s += fmt::format("<p>{}</p>", escape(subtitle_));
  s += "</header>\n<nav aria-label=\"Sections\">";
  for (const auto& sec : sections_) s += fmt::format("<a href=\"#{}\">{}</a>", sec.id, escape(sec.heading));
  s += "</nav>\n<main>";
  for (const auto& sec : sections_)
    s += fmt::format("<section id=\"{0}\" aria-labelledby=\"{0}-h\"><h2 id=\"{0}-h\">{1}</h2>{2}</section>\n", sec.id,
                     escape(sec.heading), sec.body);
  s += fmt::format(
      "</main><footer>Written by assay {}. This file is self-contained: no scripts, fonts or network "
      "requests.</footer></body></html>\n",
      ASSAY_VERSION);
  return s;
}

}  // namespace assay::html

namespace assay {

// Single-quotes an argument when the shell would split or expand it.
std::string html::shell_quote(const std::string& a) {
  const bool plain = !a.empty() && std::all_of(a.begin(), a.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_-./,:=+@%").find(c) != std::string_view::npos;
  });
  if (plain) return a;
  std::string out = "'";
  for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

namespace {

using html::shell_quote;

const char* zero_division_name(zero_division zd) {
  switch (zd) {
    case zero_division::zero:
      return "0";
    case zero_division::one:
      return "1";
    case zero_division::skip:
      return "skip";
  }
  return "?";
}

// The constrained operating points: one row per constraint with the chosen threshold, its counts and
// rates, and the umbrella threshold with the order statistic it comes from.
std::string operating_points_table(const curves::constrained_points& op) {
  std::string s =
      "<table class=\"headline\"><caption>Positive when score &ge; threshold. Each row is the best threshold "
      "under its constraint on these data; the Neyman&ndash;Pearson umbrella threshold bounds the false-positive "
      "rate on new data with the stated confidence.</caption><thead><tr><th scope=\"col\">Constraint</th>"
      "<th scope=\"col\">Threshold</th><th scope=\"col\">TP</th><th scope=\"col\">FP</th><th scope=\"col\">FN</th>"
      "<th scope=\"col\">TN</th><th scope=\"col\">TPR</th><th scope=\"col\">FPR</th><th scope=\"col\">Precision</th>"
      "</tr></thead><tbody>";
  // `shown`: the threshold as printed (the umbrella's is "> t(k)", the exact rule).
  auto row = [&](const std::string& name, const curves::operating_point& p, std::string shown = {}) {
    if (!p.criterion.defined()) {
      s += fmt::format("<tr><th scope=\"row\">{}</th><td colspan=\"8\">undefined ({})</td></tr>", html::escape(name),
                       html::escape(p.criterion.reason));
      return;
    }
    const auto& c = p.counts;
    s += fmt::format("<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{}{}{}</tr>",
                     html::escape(name),
                     !shown.empty()            ? html::escape(shown)
                     : std::isinf(p.threshold) ? std::string("+inf")
                                               : html::number(p.threshold),
                     html::number(c.tp), html::number(c.fp), html::number(c.fn), html::number(c.tn),
                     html::cell(p.tpr, 4), html::cell(p.fpr, 4),
                     html::cell(ratio(c.tp, c.tp + c.fp, "nothing predicted positive"), 4));
  };
  static constexpr const char* constrained[] = {"FPR \u2264 ", "TPR \u2265 ", "precision \u2265 ", "recall \u2265 "};
  for (const auto& c : op.points) row(constrained[static_cast<int>(c.kind)] + html::number(c.bound), c.point);
  if (op.umbrella) {
    const auto& u = *op.umbrella;
    row(fmt::format("NP umbrella (FPR \u2264 {} with probability {})", html::number(u.alpha), html::number(1 - u.delta)),
        u.point, u.order_statistic.defined() ? "> " + html::number(u.order_statistic.v) : std::string());
  } else if (op.umbrella_undefined) {
    s += fmt::format("<tr><th scope=\"row\">NP umbrella</th><td colspan=\"8\">undefined ({})</td></tr>",
                     html::escape(*op.umbrella_undefined));
  }
  s += "</tbody></table>";
  return s;
}

}  // namespace

std::string command_line(const report_request& q) {
  std::vector<std::string> a{"assay", "report", q.path, "--label", q.label};
  if (q.score) a.insert(a.end(), {"--score", *q.score});
  if (q.pred) a.insert(a.end(), {"--pred", *q.pred});
  if (!q.proba.empty()) {
    a.emplace_back("--proba");
    a.insert(a.end(), q.proba.begin(), q.proba.end());
  }
  if (q.weight) a.insert(a.end(), {"--weight", *q.weight});
  if (q.task != task_kind::automatic) a.insert(a.end(), {"--task", task_name(q.task)});
  if (q.pos_label) a.insert(a.end(), {"--pos-label", *q.pos_label});
  if (q.score && q.threshold != 0.5) a.insert(a.end(), {"--threshold", fmt::format("{}", q.threshold)});
  if (q.beta) a.insert(a.end(), {"--beta", fmt::format("{}", *q.beta)});
  if (!q.proba.empty() && q.top_k != 2) a.insert(a.end(), {"--top-k", fmt::format("{}", q.top_k)});
  if (q.zd != zero_division::zero) a.insert(a.end(), {"--zero-division", zero_division_name(q.zd)});
  const auto& c = q.constraints;
  if (c.max_fpr) a.insert(a.end(), {"--max-fpr", fmt::format("{}", *c.max_fpr)});
  if (c.min_tpr) a.insert(a.end(), {"--min-tpr", fmt::format("{}", *c.min_tpr)});
  if (c.min_precision) a.insert(a.end(), {"--min-precision", fmt::format("{}", *c.min_precision)});
  if (c.min_recall) a.insert(a.end(), {"--min-recall", fmt::format("{}", *c.min_recall)});
  if (c.max_fpr && c.confidence != 0.95) a.insert(a.end(), {"--confidence", fmt::format("{}", c.confidence)});
  if (q.csv.delimiter != 0)
    a.insert(a.end(), {"--delimiter", q.csv.delimiter == '\t' ? std::string("tab") : std::string(1, q.csv.delimiter)});
  std::string s;
  for (const auto& x : a) {
    if (!s.empty()) s += ' ';
    s += shell_quote(x);
  }
  return s;
}

namespace {

// The "Data and options" section: the file, its columns and the options of the report.
std::string setup_section(const report& r, const html_extras& extras) {
  const bool classification = r.task != task_kind::regression;
  std::vector<std::pair<std::string, std::string>> setup{{"File", r.source}, {"Rows", std::to_string(r.rows)}};
  if (r.weighted) setup.emplace_back("Total weight", html::number(r.total_weight));
  setup.emplace_back("Task", task_name(r.task));
  setup.emplace_back(classification ? "Actual class column" : "Target column", r.label_column);
  setup.emplace_back(
      classification ? "Predicted class" : "Prediction column",
      r.threshold ? fmt::format("{} >= {}", r.prediction_column, html::number(*r.threshold)) : r.prediction_column);
  if (r.positive) setup.emplace_back("Positive class", r.labels[*r.positive]);
  if (classification) {
    setup.emplace_back("Classes", std::to_string(r.labels.size()));
    setup.emplace_back("Undefined per-class values in averages (zero_division)", zero_division_name(r.zd));
  }
  setup.emplace_back("assay version", ASSAY_VERSION);
  setup.insert(setup.end(), extras.setup.begin(), extras.setup.end());
  return html::setup_table(setup) + (extras.request ? html::command_block(command_line(*extras.request)) : "");
}

// The headline numbers with their intervals (an interval of `extras` replaces the report's own).
std::string headline_section(const report& r, const html_extras& extras) {
  std::vector<html::headline> rows;
  for (const auto& m : r.metrics) {
    html::headline h{m.title, m.v, std::nullopt};
    if (auto it = extras.intervals.find(m.name); it != extras.intervals.end()) {
      h.ci = it->second;
    } else if (m.ci && m.ci->lower.defined() && m.ci->upper.defined()) {
      h.ci = html::interval{m.ci->lower.v, m.ci->upper.v, m.ci->method};
    }
    rows.push_back(std::move(h));
  }
  return html::headline_table(rows);
}

// The bars of precision, recall and F1 by class (up to 30 classes).
std::optional<html::figure> per_class_bars(const report& r) {
  constexpr std::size_t max_bar_classes = 30;
  if (r.labels.size() > max_bar_classes) return std::nullopt;
  std::vector<plot::bar_series> series{{"Precision", {}}, {"Recall", {}}, {"F1", {}}};
  for (const auto& c : r.per_class) {
    series[0].values.push_back(c.precision);
    series[1].values.push_back(c.recall);
    series[2].values.push_back(c.f1);
  }
  return html::figure{"fig-per-class", "Precision, recall and F1 by class",
                      "One class against the rest; the numbers are those of the per-class table",
                      plot::render_grouped_bars("Precision, recall and F1 by class", "value (0 to 1)", "class",
                                                r.labels, series)};
}

// The value of the report's row called `name`, or nullptr (for the captions of the figures).
const value* metric_value(const report& r, std::string_view name) {
  const auto it = std::find_if(r.metrics.begin(), r.metrics.end(), [&](const metric_result& m) { return m.name == name; });
  return it == r.metrics.end() ? nullptr : &it->v;
}

// The caption's note on a curve drawn from fewer points than it has.
std::string thinned(const curve_sample& c) {
  return c.points > c.x.size() ? fmt::format(" Drawn from {} of its {} points; every number on this page comes from "
                                             "the full curve.", c.x.size(), c.points)
                               : std::string();
}

plot::series line(std::string name, std::vector<double> x, std::vector<double> y, bool dashed) {
  plot::series l;
  l.name = std::move(name);
  l.x = std::move(x);
  l.y = std::move(y);
  l.dashed = dashed;
  return l;
}

// Every chart sets its own id: the ids inside the inlined SVGs (the clip path) must be unique on the page.
plot::chart chart(std::string title, std::string x_label, std::string y_label) {
  plot::chart c;
  c.title = std::move(title);
  c.x_label = std::move(x_label);
  c.y_label = std::move(y_label);
  return c;
}

std::string method_name(const std::string& m) {
  if (m == "wilson") return "Wilson";
  if (m == "clopper_pearson") return "Clopper-Pearson";
  if (m == "agresti_coull") return "Agresti-Coull";
  if (m == "normal") return "normal (Wald)";
  return m;
}

// The pointwise band of a kept ROC or PR curve (with --ci): drawn on the model's line, said in the caption.
std::string band(const report& r, plot::series& l, const curve_sample& c, const char* proportion, const char* counts) {
  if (c.y_lo.empty() || !r.ci_level) return std::string();
  l.y_lo = c.y_lo;
  l.y_hi = c.y_hi;
  return fmt::format(
      " Shaded: the pointwise {:g}% {} interval of {} ({}) at each drawn point, its threshold held fixed: the "
      "sampling uncertainty of {} at that threshold, not a simultaneous band for the whole curve, which would be "
      "wider (Macskassy, Provost & Rosset 2005; pROC's ci.se bootstraps sensitivity at fixed specificity instead).{}",
      100 * *r.ci_level, method_name(c.band_method), proportion, counts, proportion,
      r.weighted ? " With weights the weighted counts are used as counts, as for the headline intervals." : "");
}

html::figure roc_figure(const report& r, const curve_sample& roc) {
  plot::chart ch = chart("ROC curve", "false-positive rate", "true-positive rate");
  ch.id = "roc";
  const value* auc = metric_value(r, "roc_auc");
  plot::series model =
      line(auc && auc->defined() ? fmt::format("model (AUC {:.4f})", auc->v) : "model", roc.x, roc.y, false);
  const std::string shaded = band(r, model, roc, "the TPR", "TP of the P positives");
  ch.lines.push_back(std::move(model));
  ch.lines.push_back(line("chance", {0, 1}, {0, 1}, true));
  return {"fig-roc", "ROC curve",
          "One point per distinct score; tied scores make a diagonal step. The dashed line is chance." + shaded +
              thinned(roc),
          plot::render_svg(ch)};
}

html::figure pr_figure(const report& r, const curve_sample& pr) {
  plot::chart ch = chart("Precision-recall curve", "recall", "precision");
  ch.id = "pr";
  const value* ap = metric_value(r, "average_precision");
  const value* prev = metric_value(r, "prevalence");
  plot::series model =
      line(ap && ap->defined() ? fmt::format("model (AP {:.4f})", ap->v) : "model", pr.x, pr.y, false);
  const std::string shaded = band(r, model, pr, "the precision", "TP of the TP + FP cases predicted positive");
  ch.lines.push_back(std::move(model));
  if (prev && prev->defined()) ch.lines.push_back(line("prevalence (chance)", {0, 1}, {prev->v, prev->v}, true));
  return {"fig-pr", "Precision-recall curve",
          "Precision against recall as the threshold falls; the dashed line is the share of positives, "
          "what a random ranking achieves." + shaded + thinned(pr),
          plot::render_svg(ch)};
}

html::figure threshold_figure(const threshold_sample& t) {
  plot::chart ch = chart("Metrics vs threshold", "threshold (positive when score >= threshold)", "value");
  ch.id = "threshold";
  ch.square = false;
  ch.lines.push_back(line("F1", t.f1.x, t.f1.y, false));
  ch.lines.push_back(line("precision", t.precision.x, t.precision.y, false));
  ch.lines.push_back(line("recall (TPR)", t.recall.x, t.recall.y, false));
  ch.lines.push_back(line("FPR", t.fpr.x, t.fpr.y, false));
  std::string best;
  if (t.max_f1_threshold) {
    ch.markers.push_back({*t.max_f1_threshold, *t.max_f1, fmt::format("max F1 at {:.4g}", *t.max_f1_threshold)});
    best += fmt::format(" Max F1 {:.4f} at threshold {}.", *t.max_f1, html::number(*t.max_f1_threshold));
  }
  if (t.youden_threshold) {
    if (t.max_f1_threshold && *t.max_f1_threshold == *t.youden_threshold)
      ch.markers.back().label = fmt::format("max F1 and Youden's J at {:.4g}", *t.youden_threshold);
    else
      ch.markers.push_back(
          {*t.youden_threshold, *t.youden_fpr, fmt::format("Youden's J at {:.4g}", *t.youden_threshold)});
    best += fmt::format(
        " Youden's J = TPR - FPR is largest ({:.4f}) at threshold {} (marked on the FPR line unless it is the "
        "max-F1 threshold).",
        *t.youden_tpr - *t.youden_fpr, html::number(*t.youden_threshold));
  }
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : t.f1.x) lo = std::min(lo, v), hi = std::max(hi, v);
  if (lo >= 0 && hi <= 1) ch.x_min = 0, ch.x_max = 1;  // probabilities: the whole unit range
  else if (lo < hi) ch.x_min = lo, ch.x_max = hi;
  else if (lo == hi) ch.x_min = lo - 0.5, ch.x_max = lo + 0.5;
  return {"fig-threshold", "Metrics vs threshold",
          "The binary metrics of the classifier \"positive when score >= threshold\" at every distinct "
          "score; the markers are the best thresholds, found on the full sweep." + best + thinned(t.f1),
          plot::render_svg(ch)};
}

html::figure calibration_figure(const calibration_sample& c) {
  const std::string ece = c.ece.defined() ? fmt::format("{:.4f}", c.ece.v) : "undefined (" + c.ece.reason + ")";
  plot::chart ch = c.top_label ? chart("Top-label reliability diagram", "mean confidence (highest probability)",
                                       "accuracy")
                               : chart("Reliability diagram", "mean predicted probability",
                                       "observed frequency of positives");
  ch.id = "calibration";
  ch.lines.push_back(line("perfectly calibrated", {0, 1}, {0, 1}, true));
  plot::series s = line(fmt::format("model (ECE {})", c.ece.defined() ? fmt::format("{:.3f}", c.ece.v) : "undefined"),
                        c.prob_pred, c.prob_true, false);
  s.markers = true;
  ch.lines.push_back(std::move(s));
  const std::string how =
      c.top_label ? fmt::format("Top-label (confidence) calibration, Guo et al. 2017: the cases are grouped by their "
                                "highest class probability into {} equal-width bins; each dot is a bin's accuracy "
                                "against its mean confidence",
                                c.bins)
                  : fmt::format("The cases are grouped by predicted probability into {} equal-width bins; each dot "
                                "is a bin's share of positives against its mean predicted probability",
                                c.bins);
  return {"fig-calibration", c.top_label ? "Top-label reliability diagram" : "Reliability diagram",
          fmt::format("{} (empty bins left out). On the dashed diagonal the probabilities are calibrated. "
                      "Expected calibration error (ECE, bin-weighted mean distance to the diagonal) = {}.",
                      how, ece),
          plot::render_svg(ch)};
}

}  // namespace

std::string to_html(const report& r, const html_extras& extras) {
  const bool classification = r.task != task_kind::regression;
  html::document doc(fmt::format("assay report: {}", r.source),
                     fmt::format("{} task, {} rows{}", task_name(r.task), r.rows,
                                 classification ? fmt::format(", {} classes", r.labels.size()) : std::string()));
  doc.add_section("setup", "Data and options", setup_section(r, extras));
  doc.add_section("metrics", "Headline numbers", headline_section(r, extras));
  if (r.operating_points) {
    doc.add_section("operating-points", "Operating points under a constraint", operating_points_table(*r.operating_points));
  }

  std::vector<html::figure> figures;
  if (classification) {
    doc.add_section("confusion", "Confusion matrix", html::confusion_heat_map(r.labels, r.cm));
    doc.add_section("per-class", "Per-class accuracy", html::per_class_table(r));
    if (auto bars = per_class_bars(r)) figures.push_back(std::move(*bars));
  }
  if (r.roc) figures.push_back(roc_figure(r, *r.roc));
  if (r.pr) figures.push_back(pr_figure(r, *r.pr));
  if (r.thresholds) figures.push_back(threshold_figure(*r.thresholds));
  if (r.calibration) figures.push_back(calibration_figure(*r.calibration));
  figures.insert(figures.end(), extras.figures.begin(), extras.figures.end());
  if (!figures.empty()) {
    std::string body;
    for (const auto& f : figures) body += html::figure_block(f);
    doc.add_section("figures", "Figures", std::move(body));
  }
  if (!r.notes.empty()) {
    std::string body = "<ul class=\"notes\">";
    for (const auto& n : r.notes) body += fmt::format("<li>{}</li>", html::escape(n));
    doc.add_section("notes", "Notes", body + "</ul>");
  }
  return doc.render();
}

}  // namespace assay
