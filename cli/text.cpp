// assay text: BLEU, chrF, exact n-gram precision/recall and BERTScore of a hypothesis file against
// reference files. This file registers `assay text` and its subcommands; each subcommand has its
// own file (cli/text_<name>.cpp), the shared options are in cli/text_options.{hpp,cpp}.
#include "commands.hpp"
#include "text_options.hpp"

namespace assay::cli {

void register_text(CLI::App& app) {
  auto* cmd = app.add_subcommand("text", "Text generation: BLEU, chrF/chrF++, exact n-gram P/R, BERTScore, ROUGE, TER; paired tests");
  cmd->require_subcommand(1);
  cmd->footer("Example:\n  assay text chrf --hyp out.txt --ref ref.txt --word-order 2");
  text_cli::register_bleu(cmd);
  text_cli::register_chrf(cmd);
  text_cli::register_ngram(cmd);
  text_cli::register_bertscore(cmd);
  text_cli::register_rouge(cmd);
  text_cli::register_ter(cmd);
}

}  // namespace assay::cli
