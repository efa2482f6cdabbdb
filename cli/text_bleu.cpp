// assay text bleu: BLEU as sacreBLEU computes it, with its signature (and a bootstrap interval with --ci).
// Parses the options, calls assay::text, prints (shared helpers: cli/text_options.hpp).
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/text/bleu.hpp"
#include "ci_options.hpp"
#include "commands.hpp"
#include "text_options.hpp"

namespace assay::cli::text_cli {

namespace {

struct bleu_options {
  hyp_ref_options files;
  output_options out;
  std::string tokenize = "13a", smooth = "exp";
  double smooth_value = -1;
  bool sentence = false, effective_order = false;
  ci_request ci;
  paired_cli_options paired;
};

void run_bleu(const bleu_options& o) {
  current_command = "assay text bleu";
  text::bleu_options b;
  b.tok = tokenizer_of(o.tokenize);
  b.smooth = o.smooth == "none" ? text::bleu_smooth::none
             : o.smooth == "floor" ? text::bleu_smooth::floor
             : o.smooth == "add-k" ? text::bleu_smooth::add_k
                                   : text::bleu_smooth::exp;
  b.smooth_value = o.smooth_value;
  b.effective_order = o.effective_order || o.sentence;
  const auto boot = ci_options(o.ci);
  if (boot && o.sentence) throw_usage("--ci: intervals are for the corpus score, not with --sentence");
  if (o.paired.active()) {
    if (boot || o.sentence) throw_usage("--paired-bs/--paired-ar: not with --ci or --sentence");
    run_paired(o.files, o.paired, o.out, "BLEU", text::bleu_signature(o.files.refs.size(), b),
               [b](const auto& h, const auto& r) { return text::bleu_table(h, r, b); }, text::bleu_scorer(b));
    return;
  }
  if (!o.paired.systems.empty()) throw_usage("--system: give --paired-bs or --paired-ar to compare systems");
  const auto l = load(o.files);
  const std::string sig = text::bleu_signature(l.refs.size(), b);
  if (o.sentence) {
    const auto s = text::sentence_bleu(l.hyps, l.refs, b);
    if (o.out.format == "json") {
      ojson j;
      j["bleu"] = ojson::array();
      for (const auto& x : s) j["bleu"].push_back(x.score);
      j["signature"] = sig;
      write_output(o.out.output, j.dump(1) + "\n");
    } else {
      std::string out;
      for (const auto& x : s) out += fmt::format("{:.2f}\n", x.score);
      write_output(o.out.output, out);
    }
    return;
  }
  const auto segments = text::corpus_segment_stats(l.hyps, l.refs, b);
  text::bleu_stats total;
  for (const auto& x : segments) total += x;
  const auto s = text::compute_bleu(total, b);
  std::optional<stats::bootstrap_result> ci;
  if (boot) ci = text::bootstrap_bleu(segments, b, *boot);
  if (o.out.format == "json") {
    ojson j;
    j["bleu"] = s.score;
    if (ci) {
      j["bleu_ci"] = {ci->lower.defined() ? ojson(ci->lower.v) : ojson(nullptr),
                      ci->upper.defined() ? ojson(ci->upper.v) : ojson(nullptr)};
      j["bleu_ci_level"] = ci->level;
      j["bleu_ci_method"] = ci_method_name(*boot, "sentences");
    }
    j["signature"] = sig;
    j["precisions"] = std::vector<double>(s.precisions.begin(), s.precisions.end());
    j["bp"] = s.bp;
    j["sys_len"] = s.stats.hyp_len;
    j["ref_len"] = s.stats.ref_len;
    write_output(o.out.output, j.dump(2) + "\n");
  } else {
    write_output(o.out.output, fmt::format("BLEU = {:.2f} {:.1f}/{:.1f}/{:.1f}/{:.1f} (BP = {:.3f} ratio = {:.3f} hyp_len = {} "
                                       "ref_len = {})\nsignature: {}\n",
                                       s.score, s.precisions[0], s.precisions[1], s.precisions[2], s.precisions[3], s.bp,
                                       s.stats.ref_len > 0 ? s.stats.hyp_len / s.stats.ref_len : 0.0, s.stats.hyp_len,
                                       s.stats.ref_len, sig) +
                                           (ci ? fmt::format("{:g}% CI [{}, {}] ({})\n", 100 * ci->level,
                                                             ci->lower.defined() ? fmt::format("{:.2f}", ci->lower.v) : "undefined",
                                                             ci->upper.defined() ? fmt::format("{:.2f}", ci->upper.v) : "undefined",
                                                             ci_method_name(*boot, "sentences"))
                                               : std::string()));
  }
}

}  // namespace

void register_bleu(CLI::App* parent) {
  auto o = std::make_shared<bleu_options>();
  auto* bleu = parent->add_subcommand("bleu", "BLEU as sacreBLEU computes it, with its signature");
  add_hyp_ref(bleu, o->files);
  bleu->add_option("--tokenize", o->tokenize, "13a (default), intl (Unicode punctuation and symbols) or none");
  bleu->add_option("--smooth", o->smooth, "exp (default), floor, add-k or none")
      ->check(CLI::IsMember({"exp", "floor", "add-k", "none"}));
  bleu->add_option("--smooth-value", o->smooth_value, "floor: value for zero counts (0.1); add-k: k (1)");
  bleu->add_flag("--effective-order", o->effective_order, "Average over orders with hypothesis n-grams (on with --sentence)");
  bleu->add_flag("--sentence", o->sentence, "One score per line instead of the corpus score");
  add_ci_options(bleu, o->ci, "sentences");
  add_paired(bleu, o->paired);
  add_output(bleu, o->out);
  bleu->footer("Example:\n  assay text bleu --hyp out.txt --ref ref1.txt --ref ref2.txt --format json\n"
               "  assay text bleu --hyp out.txt --ref ref.txt --ci 0.95 --bootstrap 1000 --seed 1");
  bleu->callback([o] { run_bleu(*o); });
}

}  // namespace assay::cli::text_cli
