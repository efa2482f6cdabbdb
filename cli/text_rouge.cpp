// assay text rouge: ROUGE-1/2/L/Lsum as Google's rouge-score computes them (mean over lines, with a
// bootstrap interval with --ci). Parses the options, calls assay::text, prints (shared helpers:
// cli/text_options.hpp).
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/text/rouge.hpp"
#include "ci_options.hpp"
#include "commands.hpp"
#include "text_options.hpp"

namespace assay::cli::text_cli {

namespace {

struct rouge_cli_options {
  hyp_ref_options files;
  output_options out;
  std::vector<std::string> types;
  std::string sentence_separator;
  bool stem = false, sentence = false;
  ci_request ci;
};

// Each occurrence of `sep` becomes "\n", the sentence break of ROUGE-Lsum.
void split_sentences(std::vector<std::string>& lines, const std::string& sep) {
  if (sep.empty()) return;
  for (auto& l : lines) {
    std::string out;
    std::size_t at = 0;
    for (std::size_t k; (k = l.find(sep, at)) != std::string::npos; at = k + sep.size()) {
      out.append(l, at, k - at);
      out += '\n';
    }
    out.append(l, at, std::string::npos);
    l = std::move(out);
  }
}

ojson interval(const stats::bootstrap_result& r) {
  return ojson::array({r.lower.defined() ? ojson(r.lower.v) : ojson(nullptr),
                       r.upper.defined() ? ojson(r.upper.v) : ojson(nullptr)});
}

std::string interval_text(const stats::bootstrap_result& r) {
  return fmt::format("[{}, {}]", fmt_value(r.lower), fmt_value(r.upper));
}

void print_sentences(const rouge_cli_options& o, const std::vector<text::rouge_type>& types,
                     const std::vector<std::vector<text::rouge_score>>& s, const std::string& sig) {
  if (o.out.format == "json") {
    ojson j;
    for (std::size_t t = 0; t < types.size(); ++t) {
      ojson p = ojson::array(), r = ojson::array(), f = ojson::array();
      for (const auto& x : s) {
        p.push_back(x[t].precision);
        r.push_back(x[t].recall);
        f.push_back(x[t].fmeasure);
      }
      j[types[t].name] = {{"precision", p}, {"recall", r}, {"fmeasure", f}};
    }
    j["signature"] = sig;
    write_output(o.out.output, j.dump(1) + "\n");
    return;
  }
  std::string out = "line";
  for (const auto& t : types) out += fmt::format("\t{0}_P\t{0}_R\t{0}_F", t.name);
  out += '\n';
  for (std::size_t i = 0; i < s.size(); ++i) {
    out += fmt::format("{}", i + 1);
    for (const auto& x : s[i]) out += fmt::format("\t{:.4f}\t{:.4f}\t{:.4f}", x.precision, x.recall, x.fmeasure);
    out += '\n';
  }
  write_output(o.out.output, out);
}

void run_rouge(const rouge_cli_options& o) {
  current_command = "assay text rouge";
  text::rouge_options r;
  for (const auto& name : o.types) {
    for (const auto& t : r.types)
      if (t.name == name) throw_usage(fmt::format("--types names {} twice", name));
    r.types.push_back(text::rouge_type_of(name, "types"));
  }
  r.use_stemmer = o.stem;
  const auto boot = ci_options(o.ci);
  if (boot && o.sentence) throw_usage("--ci: intervals are for the mean over lines, not with --sentence");
  auto l = load(o.files);
  split_sentences(l.hyps, o.sentence_separator);
  for (auto& ref : l.refs) split_sentences(ref, o.sentence_separator);
  const auto types = text::rouge_types_of(r);
  const std::string sig = text::rouge_signature(l.refs.size(), r);
  const auto s = text::sentence_rouge(l.hyps, l.refs, r);
  if (o.sentence) return print_sentences(o, types, s, sig);
  const auto agg = text::aggregate_rouge(s, r, boot ? &*boot : nullptr);
  if (o.out.format == "json") {
    ojson j;
    for (const auto& a : agg) {
      ojson t;
      put(t, "precision", a.precision);
      put(t, "recall", a.recall);
      put(t, "fmeasure", a.fmeasure);
      if (boot && !l.hyps.empty()) {
        t["precision_ci"] = interval(a.precision_ci);
        t["recall_ci"] = interval(a.recall_ci);
        t["fmeasure_ci"] = interval(a.fmeasure_ci);
      }
      j[a.type] = t;
    }
    if (boot) {
      j["ci_level"] = boot->level;
      j["ci_method"] = ci_method_name(*boot, "lines");
    }
    j["lines"] = l.hyps.size();
    j["signature"] = sig;
    write_output(o.out.output, j.dump(2) + "\n");
    return;
  }
  std::string out = fmt::format("{:<10} {:>9} {:>9} {:>9}{}\n", "", "P", "R", "F",
                                boot ? fmt::format("  {:g}% CI of F", 100 * boot->level) : "");
  for (const auto& a : agg)
    out += fmt::format("{:<10} {:>9} {:>9} {:>9}{}\n", a.type, fmt_value(a.precision), fmt_value(a.recall),
                       fmt_value(a.fmeasure), boot && !l.hyps.empty() ? "  " + interval_text(a.fmeasure_ci) : "");
  out += fmt::format("mean over {} lines\n", l.hyps.size());
  if (boot) out += fmt::format("interval: {}\n", ci_method_name(*boot, "lines"));
  out += fmt::format("signature: {}\n", sig);
  write_output(o.out.output, out);
}

}  // namespace

void register_rouge(CLI::App* parent) {
  auto o = std::make_shared<rouge_cli_options>();
  auto* cmd = parent->add_subcommand("rouge", "ROUGE-1/2/L/Lsum as Google's rouge-score computes them");
  add_hyp_ref(cmd, o->files);
  cmd->add_option("--types", o->types, "ROUGE types: rouge1 .. rouge9, rougeL, rougeLsum (default: rouge1 rouge2 rougeL rougeLsum)")
      ->delimiter(',');
  cmd->add_flag("--stem", o->stem, "Porter-stem tokens longer than 3 characters (rouge-score's use_stemmer)");
  cmd->add_option("--sentence-separator", o->sentence_separator,
                  "A string that ends a sentence inside a line (e.g. '<n>'), for rougeLsum; it is replaced by a newline");
  cmd->add_flag("--sentence", o->sentence, "Scores of every line instead of their mean");
  add_ci_options(cmd, o->ci, "lines");
  add_output(cmd, o->out);
  cmd->footer("Example:\n  assay text rouge --hyp summaries.txt --ref refs.txt --stem --format json\n"
              "  assay text rouge --hyp out.txt --ref ref.txt --sentence-separator '<n>' --ci 0.95 --seed 1");
  cmd->callback([o] { run_rouge(*o); });
}

}  // namespace assay::cli::text_cli
