// assay text bertscore: BERTScore P/R/F1 from token embeddings (JSON Lines, docs/text.md).
// Parses the options, calls assay::text, prints (shared helpers: cli/text_options.hpp).
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "assay/error.hpp"
#include "assay/text/bertscore.hpp"
#include "commands.hpp"
#include "text_options.hpp"

namespace assay::cli::text_cli {

namespace {

struct bertscore_options {
  output_options out;
  std::string hyp_emb, ref_emb;
  bool idf = false, sentence = false;
  std::vector<double> baseline;
};

void run_bertscore(const bertscore_options& o) {
  current_command = "assay text bertscore";
  text::bertscore_options b;
  b.idf = o.idf;
  if (!o.baseline.empty()) {
    if (o.baseline.size() != 3)
      throw_usage(fmt::format("--baseline: give three numbers P R F, got {}", o.baseline.size()));
    b.rescale = true;
    b.baseline_p = o.baseline[0], b.baseline_r = o.baseline[1], b.baseline_f = o.baseline[2];
    for (double x : o.baseline)
      if (!(x < 1)) throw_usage(fmt::format("--baseline: each value must be < 1, got {}", x));
  }
  const auto h = text::read_embeddings(o.hyp_emb), r = text::read_embeddings(o.ref_emb);
  if (h.size() != r.size())
    throw_data(fmt::format("--ref-emb {} has {} sentences but --hyp-emb {} has {}", o.ref_emb, r.size(), o.hyp_emb, h.size()));
  const auto s = text::bertscore(h, r, b);
  if (o.out.format == "json") {
    ojson j;
    put(j, "P", s.mean_p);
    put(j, "R", s.mean_r);
    put(j, "F1", s.mean_f);
    j["idf"] = b.idf;
    j["rescaled"] = b.rescale;
    if (o.sentence) {
      j["sentences"] = ojson::array();
      for (std::size_t i = 0; i < s.p.size(); ++i) {
        ojson x;
        put(x, "P", s.p[i]);
        put(x, "R", s.r[i]);
        put(x, "F1", s.f[i]);
        j["sentences"].push_back(x);
      }
    }
    write_output(o.out.output, j.dump(2) + "\n");
    return;
  }
  std::string out;
  if (o.sentence)
    for (std::size_t i = 0; i < s.p.size(); ++i)
      out += fmt::format("{}\t{}\t{}\n", fmt_value(s.p[i]), fmt_value(s.r[i]), fmt_value(s.f[i]));
  out += fmt::format("BERTScore (mean over {} sentences{}{}): P = {} R = {} F1 = {}\n", s.p.size(), b.idf ? ", idf" : "",
                     b.rescale ? ", rescaled" : "", fmt_value(s.mean_p), fmt_value(s.mean_r), fmt_value(s.mean_f));
  write_output(o.out.output, out);
}

}  // namespace

void register_bertscore(CLI::App* parent) {
  auto o = std::make_shared<bertscore_options>();
  auto* bs = parent->add_subcommand("bertscore", "BERTScore P/R/F1 from token embeddings (JSON Lines, docs/text.md)");
  bs->add_option("--hyp-emb", o->hyp_emb, "Candidate embeddings, one JSON object per line")->required();
  bs->add_option("--ref-emb", o->ref_emb, "Reference embeddings, one JSON object per line")->required();
  bs->add_flag("--idf", o->idf, "idf weights (from the file's \"idf\", else from the references' tokens)");
  bs->add_option("--baseline", o->baseline, "Rescale with baselines P R F: (s - b) / (1 - b)")->expected(3);
  bs->add_flag("--sentence", o->sentence, "Also print per-sentence scores");
  add_output(bs, o->out);
  bs->footer("Example:\n  assay text bertscore --hyp-emb hyp.jsonl --ref-emb ref.jsonl --idf --format json");
  bs->callback([o] { run_bertscore(*o); });
}

}  // namespace assay::cli::text_cli
