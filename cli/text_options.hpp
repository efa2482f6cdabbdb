// assay text: the options and helpers shared by the `assay text` subcommands (one file each:
// cli/text_bleu.cpp, text_chrf.cpp, text_ngram.cpp, text_bertscore.cpp; cli/text.cpp registers
// them).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "assay/value.hpp"
#include "assay/text/paired.hpp"
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
void register_ter(CLI::App* parent);

// ---- sacreBLEU's paired tests (bleu, chrf, ter): cli/text_paired.cpp ---------------------------

/// --paired-bs / --paired-ar, --system (repeatable), --paired-n, --paired-seed.
struct paired_cli_options {
  bool bs = false, ar = false;
  std::vector<std::string> systems;
  std::size_t samples = 0;
  std::uint64_t seed = 12345;
  [[nodiscard]] bool active() const { return bs || ar; }
};

void add_paired(CLI::App* cmd, paired_cli_options& o);

/// Per-segment statistics of one system's lines against the references.
using table_fn = std::function<text::segment_table(const std::vector<std::string>&,
                                                   const std::vector<std::vector<std::string>>&)>;

/// The paired test of --hyp (the baseline) against every --system for one metric, printed as text
/// or JSON; `signature` is the metric's own.
void run_paired(const hyp_ref_options& files, const paired_cli_options& p, const output_options& out,
                const std::string& metric, const std::string& signature, const table_fn& table,
                const text::score_of_stats& score);

}  // namespace assay::cli::text_cli
