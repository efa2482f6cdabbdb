// assay text: the options and helpers shared by the `assay text` subcommands (one file each:
// cli/text_bleu.cpp, text_chrf.cpp, text_ngram.cpp, text_bertscore.cpp; cli/text.cpp registers
// them).
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "assay/value.hpp"
#include "assay/text/tokenize.hpp"

namespace assay::cli::text_cli {

using ojson = nlohmann::ordered_json;

/// --format and --output, which every subcommand has.
struct output_options {
  std::string format = "text", output;
};

void add_output(CLI::App* cmd, output_options& o);

/// --hyp and --ref (bleu, chrf, ngram).
struct hyp_ref_options {
  std::string hyp;
  std::vector<std::string> refs;
};

void add_hyp_ref(CLI::App* cmd, hyp_ref_options& o);

/// The hypothesis lines and, for each --ref, its lines (as many as the hypotheses, else bad data).
struct loaded {
  std::vector<std::string> hyps;
  std::vector<std::vector<std::string>> refs;
};

loaded load(const hyp_ref_options& o);

/// --tokenize: 13a, intl or none.
text::tokenizer tokenizer_of(const std::string& name);

/// A value with 4 decimals, or "undefined".
std::string fmt_value(const value& v);

/// j[name] = the value, or null and j[name + "_undefined"] = the reason.
void put(ojson& j, const std::string& name, const value& v);

// ---- the subcommands, one file each; cli/text.cpp calls them in this order ----------------------

void register_bleu(CLI::App* parent);
void register_chrf(CLI::App* parent);
void register_ngram(CLI::App* parent);
void register_bertscore(CLI::App* parent);
void register_rouge(CLI::App* parent);

}  // namespace assay::cli::text_cli
