// assay text ter: TER as sacreBLEU computes it, with its signature (a bootstrap interval with
// --ci, sacreBLEU's paired tests with --paired-bs/--paired-ar). Parses the options, calls
// assay::text, prints (shared helpers: cli/text_options.hpp).
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/text/ter.hpp"
#include "ci_options.hpp"
#include "commands.hpp"
#include "text_options.hpp"

namespace assay::cli::text_cli {

namespace {

struct ter_cli_options {
  hyp_ref_options files;
  output_options out;
  text::ter_options ter;
  bool sentence = false;
  ci_request ci;
  paired_cli_options paired;
};

std::string ci_text(const stats::bootstrap_result& r, const std::string& method) {
  auto f = [](const value& v) { return v.defined() ? fmt::format("{:.2f}", v.v) : "undefined (" + v.reason + ")"; };
  return fmt::format("{:g}% CI [{}, {}] ({})\n", 100 * r.level, f(r.lower), f(r.upper), method);
}

void run_ter(const ter_cli_options& o) {
  current_command = "assay text ter";
  const auto boot = ci_options(o.ci);
  if (boot && o.sentence) throw_usage("--ci: intervals are for the corpus score, not with --sentence");
  if (o.paired.active()) {
    if (boot || o.sentence) throw_usage("--paired-bs/--paired-ar: not with --ci or --sentence");
    const auto t = o.ter;
    run_paired(o.files, o.paired, o.out, "TER", text::ter_signature(o.files.refs.size(), t),
               [t](const auto& h, const auto& r) { return text::ter_table(h, r, t); }, text::ter_scorer());
    return;
  }
  if (!o.paired.systems.empty()) throw_usage("--system: give --paired-bs or --paired-ar to compare systems");
  const auto l = load(o.files);
  const std::string sig = text::ter_signature(l.refs.size(), o.ter);
  const auto segments = text::ter_corpus_stats(l.hyps, l.refs, o.ter);
  if (o.sentence) {
    if (o.out.format == "json") {
      ojson j;
      j["ter"] = ojson::array();
      for (const auto& s : segments) j["ter"].push_back(text::ter_from_stats(s));
      j["signature"] = sig;
      write_output(o.out.output, j.dump(1) + "\n");
    } else {
      std::string out;
      for (const auto& s : segments) out += fmt::format("{:.2f}\n", text::ter_from_stats(s));
      write_output(o.out.output, out);
    }
    return;
  }
  text::ter_stats total;
  for (const auto& s : segments) total += s;
  const double score = text::ter_from_stats(total);
  std::optional<stats::bootstrap_result> ci;
  if (boot) ci = text::bootstrap_ter(segments, *boot);
  if (o.out.format == "json") {
    ojson j;
    j["ter"] = score;
    if (ci) {
      put(j, "ter_ci_lower", ci->lower);
      put(j, "ter_ci_upper", ci->upper);
      j["ter_ci_level"] = ci->level;
      j["ter_ci_method"] = ci_method_name(*boot, "sentences");
    }
    j["signature"] = sig;
    j["num_edits"] = total.edits;
    j["ref_length"] = total.ref_len;
    write_output(o.out.output, j.dump(2) + "\n");
  } else {
    write_output(o.out.output, fmt::format("TER = {:.2f} (edits = {}, average reference length = {:.2f})\nsignature: {}\n",
                                           score, total.edits, total.ref_len, sig) +
                                   (ci ? ci_text(*ci, ci_method_name(*boot, "sentences")) : std::string()));
  }
}

}  // namespace

void register_ter(CLI::App* parent) {
  auto o = std::make_shared<ter_cli_options>();
  auto* ter = parent->add_subcommand("ter", "TER (translation edit rate) as sacreBLEU computes it, with its signature");
  add_hyp_ref(ter, o->files);
  ter->add_flag("--normalized", o->ter.normalized, "Tercom normalisation: entities, punctuation split off");
  ter->add_flag("--no-punct", o->ter.no_punct, "Remove punctuation");
  ter->add_flag("--asian-support", o->ter.asian_support, "CJK characters as tokens (with --normalized), CJK punctuation removed (with --no-punct)");
  ter->add_flag("--case-sensitive", o->ter.case_sensitive, "Do not lower-case");
  ter->add_flag("--sentence", o->sentence, "One score per line instead of the corpus score");
  add_ci_options(ter, o->ci, "sentences");
  add_paired(ter, o->paired);
  add_output(ter, o->out);
  ter->footer("Example:\n  assay text ter --hyp out.txt --ref ref.txt --format json\n"
              "  assay text ter --hyp base.txt --system new.txt --ref ref.txt --paired-bs");
  ter->callback([o] { run_ter(*o); });
}

}  // namespace assay::cli::text_cli
