// The human-readable sliced report; see include/assay/report/slices.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/report/slices.hpp"

namespace assay {

namespace {

std::string key_text(const std::vector<std::string>& by, const std::vector<std::string>& key) {
  std::string s;
  for (std::size_t c = 0; c < key.size(); ++c) {
    if (c) s += ", ";
    s += fmt::format("{} = {}", by[c], key[c].empty() ? "(empty)" : key[c]);
  }
  return s;
}

std::string short_key(const std::vector<std::string>& key) {
  std::string s;
  for (std::size_t c = 0; c < key.size(); ++c) {
    if (c) s += " / ";
    s += key[c].empty() ? "(empty)" : key[c];
  }
  return s.size() <= 24 ? s : s.substr(0, 23) + "~";
}

std::string num(const value& v, const char* spec = "{:.4f}") {
  return v.defined() ? fmt::format(fmt::runtime(spec), v.v) : std::string("undefined");
}

std::string p_text(const value& v) {
  if (!v.defined()) return "-";
  return v.v < 1e-4 ? fmt::format("{:.1e}", v.v) : fmt::format("{:.4f}", v.v);
}

}  // namespace

std::string to_text(const sliced_report& r) {
  std::string out = to_text(r.overall);
  const std::string adjust(stats::to_string(r.p_adjust));
  out += fmt::format("\nSlices by {}: {} slice{}\n", fmt::join(r.by, " and "), r.slices.size(),
                     r.slices.size() == 1 ? "" : "s");
  out += fmt::format("Tests: each slice against the rest (rates: two-proportion z; ROC AUC: DeLong, unpaired), "
                     "p adjusted over the slices ({}); slices with fewer than {} rows are not tested.\n",
                     adjust, r.min_rows);
  for (const auto& n : r.notes) out += fmt::format("Note: {}\n", n);
  for (const auto& m : r.metrics) {
    out += fmt::format("\n{} (overall {})\n", m.title, num(m.overall));
    const bool ci = r.overall.ci_level.has_value();
    std::string head = fmt::format("  {:<24} {:>9} {:>9}", "slice", "rows", "value");
    if (ci) head += fmt::format("  {:<19}", fmt::format("{:g}% interval", *r.overall.ci_level * 100));
    head += fmt::format(" {:>9} {:>9} {:>9}", m.test == "delong_unpaired" ? "t" : "z", "p", "p " + adjust);
    out += head + "\n";
    std::vector<std::string> reasons;
    for (const auto& row : m.rows) {
      const auto& s = r.slices[row.slice];
      std::string line = fmt::format("  {:<24} {:>9} {:>9}", short_key(s.key), s.rows, num(row.v));
      if (ci) {
        std::string iv = "-";
        if (row.ci && row.ci->lower.defined() && row.ci->upper.defined()) {
          iv = fmt::format("[{:.4f}, {:.4f}]", row.ci->lower.v, row.ci->upper.v);
        }
        line += fmt::format("  {:<19}", iv);
      }
      line += fmt::format(" {:>9} {:>9} {:>9}", row.statistic.defined() ? num(row.statistic, "{:.3f}") : "-",
                          p_text(row.p_value),
                          p_text(row.p_adjusted));
      out += line + "\n";
      if (!row.v.defined()) reasons.push_back(fmt::format("{}: value undefined ({})", short_key(s.key), row.v.reason));
      else if (!row.p_value.defined() && r.slices.size() > 1) {
        reasons.push_back(fmt::format("{}: no test ({})", short_key(s.key), row.p_value.reason));
      }
    }
    for (const auto& why : reasons) out += fmt::format("    {}\n", why);
    if (m.chi2) {
      if (m.chi2->defined()) {
        out += fmt::format("  homogeneity over all slices: chi-square = {:.4f}, df = {:g}, p = {}\n", m.chi2->v,
                           m.chi2_df, p_text(*m.chi2_p));
      } else {
        out += fmt::format("  homogeneity over all slices: undefined ({})\n", m.chi2->reason);
      }
    }
  }
  for (const auto& s : r.slices) {
    out += fmt::format("\n=== Slice {} ({} rows) ===\n", key_text(r.by, s.key), s.rows);
    out += s.r ? to_text(*s.r) : fmt::format("no report: {}\n", s.reason);
  }
  return out;
}

}  // namespace assay
