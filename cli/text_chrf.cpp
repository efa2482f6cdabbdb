// assay text chrf: chrF (character n-gram F-score); chrF++ with --word-order 2.
// Parses the options, calls assay::text, prints (shared helpers: cli/text_options.hpp).
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/text/chrf.hpp"
#include "commands.hpp"
#include "text_options.hpp"

namespace assay::cli::text_cli {

namespace {

struct chrf_options {
  hyp_ref_options files;
  output_options out;
  int word_order = 0, char_order = 6;
  double beta = 2;
  bool sentence = false;
  paired_cli_options paired;
};

void run_chrf(const chrf_options& o) {
  current_command = "assay text chrf";
  text::chrf_options c;
  c.word_order = o.word_order;
  c.char_order = o.char_order;
  c.beta = o.beta;
  const std::string name = fmt::format("chrF{}{}", c.beta, c.word_order > 0 ? "++" : "");
  if (o.paired.active()) {
    if (o.sentence) throw_usage("--paired-bs/--paired-ar: not with --sentence");
    run_paired(o.files, o.paired, o.out, name, text::chrf_signature(o.files.refs.size(), c),
               [c](const auto& h, const auto& r) { return text::chrf_table(h, r, c); }, text::chrf_scorer(c));
    return;
  }
  if (!o.paired.systems.empty()) throw_usage("--system: give --paired-bs or --paired-ar to compare systems");
  const auto l = load(o.files);
  const std::string sig = text::chrf_signature(l.refs.size(), c);
  if (o.sentence) {
    const auto s = text::sentence_chrf(l.hyps, l.refs, c);
    if (o.out.format == "json") {
      ojson j;
      j["chrf"] = s;
      j["signature"] = sig;
      write_output(o.out.output, j.dump(1) + "\n");
    } else {
      std::string out;
      for (double x : s) out += fmt::format("{:.2f}\n", x);
      write_output(o.out.output, out);
    }
    return;
  }
  const double s = text::corpus_chrf(l.hyps, l.refs, c);
  if (o.out.format == "json") {
    ojson j;
    j["chrf"] = s;
    j["signature"] = sig;
    write_output(o.out.output, j.dump(2) + "\n");
  } else {
    write_output(o.out.output, fmt::format("{} = {:.2f}\nsignature: {}\n", name, s, sig));
  }
}

}  // namespace

void register_chrf(CLI::App* parent) {
  auto o = std::make_shared<chrf_options>();
  auto* chrf = parent->add_subcommand("chrf", "chrF (character n-gram F-score); --word-order 2 for chrF++");
  add_hyp_ref(chrf, o->files);
  chrf->add_option("--word-order", o->word_order, "Word n-gram order (0: chrF, 2: chrF++)");
  chrf->add_option("--char-order", o->char_order, "Character n-gram order (default 6)");
  chrf->add_option("--beta", o->beta, "Recall weight (default 2)");
  chrf->add_flag("--sentence", o->sentence, "One score per line instead of the corpus score");
  add_paired(chrf, o->paired);
  add_output(chrf, o->out);
  chrf->footer("Example:\n  assay text chrf --hyp out.txt --ref ref.txt --word-order 2 --format json");
  chrf->callback([o] { run_chrf(*o); });
}

}  // namespace assay::cli::text_cli
