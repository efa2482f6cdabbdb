// assay text bleu|chrf|ter --paired-bs|--paired-ar: sacreBLEU's paired significance tests of
// --hyp (the baseline) against each --system. Parses the options, calls assay::text, prints.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "commands.hpp"
#include "text_options.hpp"

namespace assay::cli::text_cli {

void add_paired(CLI::App* cmd, paired_cli_options& o) {
  auto* bs = cmd->add_flag("--paired-bs", o.bs, "Paired bootstrap resampling of --hyp (baseline) against each --system");
  auto* ar = cmd->add_flag("--paired-ar", o.ar, "Paired approximate randomisation of --hyp (baseline) against each --system");
  bs->excludes(ar);
  cmd->add_option("--system", o.systems, "A system compared with the baseline --hyp (repeat for several)");
  cmd->add_option("--paired-n", o.samples, "Resamples (bootstrap, default 1000) or trials (AR, default 10000)");
  cmd->add_option("--paired-seed", o.seed, "Seed of the paired test (default 12345, sacreBLEU's)");
}

namespace {

std::string cell(const value& v, const char* f) { return v.defined() ? fmt::format(fmt::runtime(f), v.v) : "-"; }

}  // namespace

void run_paired(const hyp_ref_options& files, const paired_cli_options& p, const output_options& out,
                const std::string& metric, const std::string& signature, const table_fn& table,
                const text::score_of_stats& score) {
  if (p.systems.empty()) throw_usage("--paired-bs/--paired-ar: give the systems to compare with --system FILE");
  const auto l = load(files);
  std::vector<std::string> names{files.hyp};
  std::vector<text::segment_table> tables{table(l.hyps, l.refs)};
  for (const auto& path : p.systems) {
    const auto lines = text::read_lines(path);
    if (lines.size() != l.hyps.size())
      throw_data(fmt::format("--system {} has {} lines but --hyp {} has {}", path, lines.size(), files.hyp, l.hyps.size()));
    try {
      tables.push_back(table(lines, l.refs));
    } catch (const assay::error& e) {
      throw assay::error(e.kind(), fmt::format("--system {}: {}", path, e.marked()));
    }
    names.push_back(path);
  }
  text::paired_options o;
  o.method = p.bs ? text::paired_method::bootstrap : text::paired_method::approximate_randomization;
  o.samples = p.samples;
  o.seed = p.seed;
  const auto res = text::paired_test(tables, score, o);
  const std::string sig = text::paired_signature(signature, o);
  const char* method = p.bs ? "paired bootstrap resampling" : "paired approximate randomization";
  if (out.format == "json") {
    ojson j;
    j["metric"] = metric;
    j["test"] = p.bs ? "paired-bs" : "paired-ar";
    j["samples"] = text::paired_samples(o);
    j["seed"] = o.seed;
    j["signature"] = sig;
    j["systems"] = ojson::array();
    for (std::size_t s = 0; s < res.size(); ++s) {
      ojson r;
      r["name"] = names[s];
      r["baseline"] = s == 0;
      r["score"] = res[s].score;
      put(r, "mean", res[s].mean);
      put(r, "ci", res[s].ci);
      put(r, "p_value", res[s].p_value);
      j["systems"].push_back(r);
    }
    write_output(out.output, j.dump(2) + "\n");
    return;
  }
  std::string t = fmt::format("{} ({} {}, seed {})\n", metric, method, text::paired_samples(o), o.seed);
  std::vector<std::string> label(names);
  label[0] += " (baseline)";
  std::size_t w = 8;
  for (const auto& n : label) w = std::max(w, n.size() + 2);
  t += fmt::format("{:<{}}{:>10}{:>20}{:>10}\n", "system", w, metric, p.bs ? "mean ± 95% CI" : "", "p-value");
  for (std::size_t s = 0; s < res.size(); ++s) {
    const std::string ci = res[s].mean.defined() ? fmt::format("{:.2f} ± {:.2f}", res[s].mean.v, res[s].ci.v) : "";
    t += fmt::format("{:<{}}{:>10.2f}{:>20}{:>10}\n", label[s], w, res[s].score, ci, cell(res[s].p_value, "{:.4f}"));
  }
  t += "signature: " + sig + "\n";
  write_output(out.output, t);
}

}  // namespace assay::cli::text_cli
