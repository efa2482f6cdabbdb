// assay text: BLEU, chrF, exact n-gram precision/recall and BERTScore of a hypothesis file against
// reference files. Parses options, calls assay::text, prints.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "assay/error.hpp"
#include "assay/text/bertscore.hpp"
#include "assay/text/bleu.hpp"
#include "assay/text/chrf.hpp"
#include "assay/text/ngram.hpp"
#include "assay/text/tokenize.hpp"
#include "ci_options.hpp"
#include "commands.hpp"

namespace assay::cli {

namespace {

using ojson = nlohmann::ordered_json;

struct text_options {
  std::string hyp, format = "text", output, tokenize = "13a", smooth = "exp";
  std::vector<std::string> refs;
  double smooth_value = -1;
  bool sentence = false, effective_order = false;
  int word_order = 0, char_order = 6;
  double beta = 2;
  // bertscore
  std::string hyp_emb, ref_emb;
  bool idf = false;
  std::vector<double> baseline;
  ci_request ci;
};

struct loaded {
  std::vector<std::string> hyps;
  std::vector<std::vector<std::string>> refs;
};

loaded load(const text_options& o) {
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

void run_bleu(const text_options& o) {
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
  const auto l = load(o);
  const std::string sig = text::bleu_signature(l.refs.size(), b);
  if (o.sentence) {
    const auto s = text::sentence_bleu(l.hyps, l.refs, b);
    if (o.format == "json") {
      ojson j;
      j["bleu"] = ojson::array();
      for (const auto& x : s) j["bleu"].push_back(x.score);
      j["signature"] = sig;
      write_output(o.output, j.dump(1) + "\n");
    } else {
      std::string out;
      for (const auto& x : s) out += fmt::format("{:.2f}\n", x.score);
      write_output(o.output, out);
    }
    return;
  }
  const auto segments = text::corpus_segment_stats(l.hyps, l.refs, b);
  text::bleu_stats total;
  for (const auto& x : segments) total += x;
  const auto s = text::compute_bleu(total, b);
  std::optional<stats::bootstrap_result> ci;
  if (boot) ci = text::bootstrap_bleu(segments, b, *boot);
  if (o.format == "json") {
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
    write_output(o.output, j.dump(2) + "\n");
  } else {
    write_output(o.output, fmt::format("BLEU = {:.2f} {:.1f}/{:.1f}/{:.1f}/{:.1f} (BP = {:.3f} ratio = {:.3f} hyp_len = {} "
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

void run_chrf(const text_options& o) {
  current_command = "assay text chrf";
  text::chrf_options c;
  c.word_order = o.word_order;
  c.char_order = o.char_order;
  c.beta = o.beta;
  const auto l = load(o);
  const std::string sig = text::chrf_signature(l.refs.size(), c);
  const std::string name = fmt::format("chrF{}{}", c.beta, c.word_order > 0 ? "++" : "");
  if (o.sentence) {
    const auto s = text::sentence_chrf(l.hyps, l.refs, c);
    if (o.format == "json") {
      ojson j;
      j["chrf"] = s;
      j["signature"] = sig;
      write_output(o.output, j.dump(1) + "\n");
    } else {
      std::string out;
      for (double x : s) out += fmt::format("{:.2f}\n", x);
      write_output(o.output, out);
    }
    return;
  }
  const double s = text::corpus_chrf(l.hyps, l.refs, c);
  if (o.format == "json") {
    ojson j;
    j["chrf"] = s;
    j["signature"] = sig;
    write_output(o.output, j.dump(2) + "\n");
  } else {
    write_output(o.output, fmt::format("{} = {:.2f}\nsignature: {}\n", name, s, sig));
  }
}

void run_ngram(const text_options& o) {
  current_command = "assay text ngram";
  if (o.refs.size() != 1) throw_usage(fmt::format("--ref: give exactly one reference file, got {}", o.refs.size()));
  const auto l = load(o);
  const auto tok = tokenizer_of(o.tokenize);
  const auto s = text::corpus_ngram(l.hyps, l.refs[0], tok);
  if (o.format == "json") {
    ojson j;
    for (std::size_t n = 0; n < 4; ++n) {
      put(j, fmt::format("precision_{}", n + 1), s.precision[n]);
      put(j, fmt::format("recall_{}", n + 1), s.recall[n]);
    }
    j["tokenize"] = text::tokenizer_name(tok);
    write_output(o.output, j.dump(2) + "\n");
    return;
  }
  std::string out = fmt::format("exact n-gram match (tok:{}, {} segments, counts summed over segments)\n{:>3} {:>10} {:>10}\n",
                                text::tokenizer_name(tok), l.hyps.size(), "n", "precision", "recall");
  for (std::size_t n = 0; n < 4; ++n)
    out += fmt::format("{:>3} {:>10} {:>10}\n", n + 1, fmt_value(s.precision[n]), fmt_value(s.recall[n]));
  write_output(o.output, out);
}

void run_bertscore(const text_options& o) {
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
  if (o.format == "json") {
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
    write_output(o.output, j.dump(2) + "\n");
    return;
  }
  std::string out;
  if (o.sentence)
    for (std::size_t i = 0; i < s.p.size(); ++i)
      out += fmt::format("{}\t{}\t{}\n", fmt_value(s.p[i]), fmt_value(s.r[i]), fmt_value(s.f[i]));
  out += fmt::format("BERTScore (mean over {} sentences{}{}): P = {} R = {} F1 = {}\n", s.p.size(), b.idf ? ", idf" : "",
                     b.rescale ? ", rescaled" : "", fmt_value(s.mean_p), fmt_value(s.mean_r), fmt_value(s.mean_f));
  write_output(o.output, out);
}

void common(CLI::App* c, text_options& o) {
  c->add_option("--format,-f", o.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  c->add_option("--output,-o", o.output, "Write to this file instead of standard output");
}

void hyp_ref(CLI::App* c, text_options& o) {
  c->add_option("--hyp", o.hyp, "Hypothesis file, one segment per line (UTF-8)")->required();
  c->add_option("--ref", o.refs, "Reference file, one segment per line; repeat for several references")->required();
}

}  // namespace

void register_text(CLI::App& app) {
  auto o = std::make_shared<text_options>();
  auto* cmd = app.add_subcommand("text", "Text generation: BLEU, chrF/chrF++, exact n-gram P/R, BERTScore");
  cmd->require_subcommand(1);
  cmd->footer("Example:\n  assay text chrf --hyp out.txt --ref ref.txt --word-order 2");

  auto* bleu = cmd->add_subcommand("bleu", "BLEU as sacreBLEU computes it, with its signature");
  hyp_ref(bleu, *o);
  bleu->add_option("--tokenize", o->tokenize, "13a (default), intl (Unicode punctuation and symbols) or none");
  bleu->add_option("--smooth", o->smooth, "exp (default), floor, add-k or none")
      ->check(CLI::IsMember({"exp", "floor", "add-k", "none"}));
  bleu->add_option("--smooth-value", o->smooth_value, "floor: value for zero counts (0.1); add-k: k (1)");
  bleu->add_flag("--effective-order", o->effective_order, "Average over orders with hypothesis n-grams (on with --sentence)");
  bleu->add_flag("--sentence", o->sentence, "One score per line instead of the corpus score");
  add_ci_options(bleu, o->ci, "sentences");
  common(bleu, *o);
  bleu->footer("Example:\n  assay text bleu --hyp out.txt --ref ref1.txt --ref ref2.txt --format json\n"
               "  assay text bleu --hyp out.txt --ref ref.txt --ci 0.95 --bootstrap 1000 --seed 1");
  bleu->callback([o] { run_bleu(*o); });

  auto* chrf = cmd->add_subcommand("chrf", "chrF (character n-gram F-score); --word-order 2 for chrF++");
  hyp_ref(chrf, *o);
  chrf->add_option("--word-order", o->word_order, "Word n-gram order (0: chrF, 2: chrF++)");
  chrf->add_option("--char-order", o->char_order, "Character n-gram order (default 6)");
  chrf->add_option("--beta", o->beta, "Recall weight (default 2)");
  chrf->add_flag("--sentence", o->sentence, "One score per line instead of the corpus score");
  common(chrf, *o);
  chrf->footer("Example:\n  assay text chrf --hyp out.txt --ref ref.txt --word-order 2 --format json");
  chrf->callback([o] { run_chrf(*o); });

  auto* ngram = cmd->add_subcommand("ngram", "Exact n-gram precision and recall, n = 1..4");
  hyp_ref(ngram, *o);
  ngram->add_option("--tokenize", o->tokenize, "13a (default), intl or none");
  common(ngram, *o);
  ngram->footer("Example:\n  assay text ngram --hyp out.txt --ref ref.txt --tokenize none");
  ngram->callback([o] { run_ngram(*o); });

  auto* bs = cmd->add_subcommand("bertscore", "BERTScore P/R/F1 from token embeddings (JSON Lines, docs/text.md)");
  bs->add_option("--hyp-emb", o->hyp_emb, "Candidate embeddings, one JSON object per line")->required();
  bs->add_option("--ref-emb", o->ref_emb, "Reference embeddings, one JSON object per line")->required();
  bs->add_flag("--idf", o->idf, "idf weights (from the file's \"idf\", else from the references' tokens)");
  bs->add_option("--baseline", o->baseline, "Rescale with baselines P R F: (s - b) / (1 - b)")->expected(3);
  bs->add_flag("--sentence", o->sentence, "Also print per-sentence scores");
  common(bs, *o);
  bs->footer("Example:\n  assay text bertscore --hyp-emb hyp.jsonl --ref-emb ref.jsonl --idf --format json");
  bs->callback([o] { run_bertscore(*o); });
}

}  // namespace assay::cli
