// Google Benchmark programs for the domain metrics (issue 7): COCO evaluation, one bootstrap
// replicate of it (re-accumulation with image weights), corpus BLEU and its sentence bootstrap.
// Synthetic, seeded data. The end-to-end comparison with the pure-Python references is
// bench/compare_domain.sh.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "assay/detection/coco.hpp"
#include "assay/stats/bootstrap_many.hpp"
#include "assay/text/bleu.hpp"

namespace {

using namespace assay;

detection::dataset make_detections(std::size_t images, std::size_t per_image, std::size_t classes) {
  std::mt19937_64 gen(1);
  std::uniform_real_distribution<double> u(0, 1);
  detection::dataset d;
  for (std::size_t i = 0; i < images; ++i) d.images.push_back(std::to_string(i + 1));
  for (std::size_t k = 0; k < classes; ++k) {
    d.categories.push_back(std::to_string(k + 1));
    d.category_names.push_back("class" + std::to_string(k + 1));
  }
  std::int64_t id = 1;
  for (std::size_t i = 0; i < images; ++i) {
    const int objects = 2 + static_cast<int>(u(gen) * 10);
    std::vector<detection::ground_truth> here;
    for (int o = 0; o < objects; ++o) {
      detection::ground_truth g;
      g.image = i;
      g.category = static_cast<std::size_t>(u(gen) * classes);
      g.box = {u(gen) * 500, u(gen) * 400, 8 + u(gen) * 200, 8 + u(gen) * 200};
      g.area = g.box.w * g.box.h;
      g.id = id++;
      here.push_back(g);
      d.truths.push_back(g);
    }
    for (std::size_t j = 0; j < per_image; ++j) {
      detection::detection x;
      x.image = i;
      if (j < 3 * here.size()) {
        const auto& g = here[j % here.size()];
        x.category = g.category;
        x.box = {g.box.x + (u(gen) - 0.5) * 10, g.box.y + (u(gen) - 0.5) * 10, g.box.w, g.box.h};
      } else {
        x.category = static_cast<std::size_t>(u(gen) * classes);
        x.box = {u(gen) * 500, u(gen) * 400, 8 + u(gen) * 200, 8 + u(gen) * 200};
      }
      x.score = static_cast<double>(static_cast<int>(u(gen) * 1000)) / 1000;  // ties
      d.detections.push_back(x);
    }
  }
  return d;
}

void BM_CocoEvaluate(benchmark::State& state) {
  const auto d = make_detections(static_cast<std::size_t>(state.range(0)), 100, 80);
  for (auto _ : state) benchmark::DoNotOptimize(detection::evaluate_coco(d).stats[0].v);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * d.detections.size()));
}
BENCHMARK(BM_CocoEvaluate)->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond);

void BM_CocoBootstrapReplicate(benchmark::State& state) {
  const auto d = make_detections(static_cast<std::size_t>(state.range(0)), 100, 80);
  const auto m = detection::match_coco(d);
  std::mt19937 gen(2);
  std::vector<std::uint32_t> rows(d.images.size());
  for (auto& r : rows) r = static_cast<std::uint32_t>(gen() % d.images.size());
  const auto w = stats::row_weights(rows, d.images.size());
  for (auto _ : state) benchmark::DoNotOptimize(detection::accumulate_coco(m, w).stats[0].v);
}
BENCHMARK(BM_CocoBootstrapReplicate)->Arg(1000)->Unit(benchmark::kMillisecond);

struct corpus {
  std::vector<std::string> hyps;
  std::vector<std::vector<std::string>> refs{1};
};

corpus make_corpus(std::size_t n) {
  static const char* words[] = {"the", "a", "of", "to", "and", "in", "is", "was", "for", "on", "that", "with",
                                "city", "report", "1990", "3.5", "U.S.", "--", "(", ")", "\"", ";", "?", "$"};
  std::mt19937 gen(1);
  corpus c;
  for (std::size_t i = 0; i < n; ++i) {
    std::string h, r;
    const std::size_t len = 5 + gen() % 40;
    for (std::size_t k = 0; k < len; ++k) {
      const char* w = words[gen() % 24];
      r += std::string(w) + " ";
      h += std::string(gen() % 10 < 7 ? w : words[gen() % 24]) + " ";
    }
    c.hyps.push_back(h);
    c.refs[0].push_back(r);
  }
  return c;
}

void BM_CorpusBleu(benchmark::State& state) {
  const auto c = make_corpus(static_cast<std::size_t>(state.range(0)));
  text::bleu_options o;
  o.threads = static_cast<unsigned>(state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(text::corpus_bleu(c.hyps, c.refs, o).score);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * c.hyps.size()));
}
BENCHMARK(BM_CorpusBleu)->Args({100000, 1})->Args({100000, 0})->Unit(benchmark::kMillisecond);

void BM_BleuBootstrap(benchmark::State& state) {
  const auto c = make_corpus(100000);
  const text::bleu_options o;
  const auto segs = text::corpus_segment_stats(c.hyps, c.refs, o);
  stats::bootstrap_options b;
  b.replicates = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(text::bootstrap_bleu(segs, o, b).lower.v);
}
BENCHMARK(BM_BleuBootstrap)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
