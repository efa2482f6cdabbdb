// assay text: the options and helpers shared by the subcommands (cli/text_options.hpp).
#include "text_options.hpp"

#include <fmt/format.h>

#include "assay/error.hpp"

namespace assay::cli::text_cli {

loaded load(const hyp_ref_options& o) {
  loaded l;
  l.hyps = text::read_lines(o.hyp);
  for (const auto& r : o.refs) {
    l.refs.push_back(text::read_lines(r));
    if (l.refs.back().size() != l.hyps.size())
      throw_data(fmt::format("--ref {} has {} lines but --hyp {} has {}", r, l.refs.back().size(), o.hyp, l.hyps.size()));
  }
  return l;
}

text::tokenizer tokenizer_of(const std::string& name) {
  if (name == "none") return text::tokenizer::none;
  if (name == "13a") return text::tokenizer::v13a;
  if (name == "intl") return text::tokenizer::intl;
  throw_usage(fmt::format("--tokenize: '{}' is not supported (use 13a, intl or none)", name));
}

std::string fmt_value(const value& v) { return v.defined() ? fmt::format("{:.4f}", v.v) : "undefined"; }

void put(ojson& j, const std::string& name, const value& v) {
  if (v.defined()) {
    j[name] = v.v;
  } else {
    j[name] = nullptr;
    j[name + "_undefined"] = v.reason;
  }
}

void add_output(CLI::App* cmd, output_options& o) {
  cmd->add_option("--format,-f", o.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--output,-o", o.output, "Write to this file instead of standard output");
}

void add_hyp_ref(CLI::App* cmd, hyp_ref_options& o) {
  cmd->add_option("--hyp", o.hyp, "Hypothesis file, one segment per line (UTF-8)")->required();
  cmd->add_option("--ref", o.refs, "Reference file, one segment per line; repeat for several references")->required();
}

}  // namespace assay::cli::text_cli
