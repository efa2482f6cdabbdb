// assay text ngram: exact n-gram precision and recall, n = 1..4.
// Parses the options, calls assay::text, prints (shared helpers: cli/text_options.hpp).
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/text/ngram.hpp"
#include "commands.hpp"
#include "text_options.hpp"

namespace assay::cli::text_cli {

namespace {

struct ngram_options {
  hyp_ref_options files;
  output_options out;
  std::string tokenize = "13a";
};

void run_ngram(const ngram_options& o) {
  current_command = "assay text ngram";
  if (o.files.refs.size() != 1) throw_usage(fmt::format("--ref: give exactly one reference file, got {}", o.files.refs.size()));
  const auto l = load(o.files);
  const auto tok = tokenizer_of(o.tokenize);
  const auto s = text::corpus_ngram(l.hyps, l.refs[0], tok);
  if (o.out.format == "json") {
    ojson j;
    for (std::size_t n = 0; n < 4; ++n) {
      put(j, fmt::format("precision_{}", n + 1), s.precision[n]);
      put(j, fmt::format("recall_{}", n + 1), s.recall[n]);
    }
    j["tokenize"] = text::tokenizer_name(tok);
    write_output(o.out.output, j.dump(2) + "\n");
    return;
  }
  std::string out = fmt::format("exact n-gram match (tok:{}, {} segments, counts summed over segments)\n{:>3} {:>10} {:>10}\n",
                                text::tokenizer_name(tok), l.hyps.size(), "n", "precision", "recall");
  for (std::size_t n = 0; n < 4; ++n)
    out += fmt::format("{:>3} {:>10} {:>10}\n", n + 1, fmt_value(s.precision[n]), fmt_value(s.recall[n]));
  write_output(o.out.output, out);
}

}  // namespace

void register_ngram(CLI::App* parent) {
  auto o = std::make_shared<ngram_options>();
  auto* ngram = parent->add_subcommand("ngram", "Exact n-gram precision and recall, n = 1..4");
  add_hyp_ref(ngram, o->files);
  ngram->add_option("--tokenize", o->tokenize, "13a (default), intl or none");
  add_output(ngram, o->out);
  ngram->footer("Example:\n  assay text ngram --hyp out.txt --ref ref.txt --tokenize none");
  ngram->callback([o] { run_ngram(*o); });
}

}  // namespace assay::cli::text_cli
