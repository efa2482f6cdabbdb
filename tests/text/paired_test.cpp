// sacreBLEU's paired tests (--paired-bs, --paired-ar) and NumPy's default_rng draws: replay of
// tests/text/data/ter.json (tests/text/generate_ter.py runs sacreBLEU 2.6.0's PairedTest and
// numpy.random.default_rng). The resamples are drawn exactly as NumPy draws them, so scores and
// p-values are compared exactly; the bootstrap means and interval half-widths only to 1e-5, because
// sacreBLEU computes the resampled scores from single-precision sums in single precision and assay
// in double precision from the same single-precision sums.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../../src/text/numpy_pcg64.hpp"
#include "assay/error.hpp"
#include "assay/text/paired.hpp"

namespace assay::text {
namespace {

nlohmann::json load() {
  std::ifstream f(ASSAY_TEST_DIR "/text/data/ter.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return nlohmann::json::parse(ss.str());
}

TEST(NumpyPcg64, ReproducesDefaultRngDraws) {
  const auto j = load();
  for (const auto& [seed, d] : j.at("draws").items()) {
    detail::numpy_pcg64 rng(std::stoull(seed));
    for (auto x : d.at("below_7")) EXPECT_EQ(rng.below(7), x.get<std::uint32_t>()) << seed;
    for (auto x : d.at("below_1000003")) EXPECT_EQ(rng.below(1000003), x.get<std::uint32_t>()) << seed;
    for (auto x : d.at("bools")) EXPECT_EQ(rng.next_bool() ? 1 : 0, x.get<int>()) << seed;
  }
}

TEST(PairedTest, MatchesSacrebleu) {
  const auto j = load();
  const auto& p = j.at("paired");
  const auto all = p.at("systems").get<std::vector<std::vector<std::string>>>();
  const auto refs = p.at("refs").get<std::vector<std::vector<std::string>>>();
  for (const auto& t : p.at("tests")) {
    paired_options o;
    o.method = t.at("method") == "bs" ? paired_method::bootstrap : paired_method::approximate_randomization;
    o.seed = t.at("seed");
    o.samples = t.at("samples");
    const std::size_t n_sys = t.at("metrics").at("ter").at("results").size();
    for (const std::string metric : {"bleu", "chrf", "ter"}) {
      std::vector<segment_table> tables;
      score_of_stats score;
      std::string sig;
      for (std::size_t s = 0; s < n_sys; ++s) {
        // The bootstrap test with two systems compares the baseline with itself.
        const auto& hyps = n_sys == 2 && o.method == paired_method::bootstrap ? all[0] : all[s];
        if (metric == "bleu") tables.push_back(bleu_table(hyps, refs, {}));
        if (metric == "chrf") tables.push_back(chrf_table(hyps, refs, {}));
        if (metric == "ter") tables.push_back(ter_table(hyps, refs, {}));
      }
      if (metric == "bleu") score = bleu_scorer({}), sig = bleu_signature(refs.size(), {});
      if (metric == "chrf") score = chrf_scorer({}), sig = chrf_signature(refs.size(), {});
      if (metric == "ter") score = ter_scorer(), sig = ter_signature(refs.size(), {});
      const auto res = paired_test(tables, score, o);
      const auto& want = t.at("metrics").at(metric);
      const std::string label = metric + " " + t.at("method").get<std::string>() + " seed " + std::to_string(o.seed);
      std::string ws = want.at("signature");
      EXPECT_EQ(paired_signature(sig, o).substr(0, ws.find("|version:") + 1), ws.substr(0, ws.find("|version:") + 1)) << label;
      ASSERT_EQ(res.size(), want.at("results").size());
      for (std::size_t s = 0; s < res.size(); ++s) {
        const auto& w = want.at("results")[s];
        EXPECT_NEAR(res[s].score, w.at("score").get<double>(), 1e-9) << label << " system " << s;
        if (w.at("p_value").is_null()) EXPECT_FALSE(res[s].p_value.defined());
        else EXPECT_EQ(res[s].p_value.v, w.at("p_value").get<double>()) << label << " system " << s;
        if (w.at("mean").is_null()) {
          EXPECT_FALSE(res[s].mean.defined());
        } else {
          EXPECT_NEAR(res[s].mean.v, w.at("mean").get<double>(), 1e-5) << label << " system " << s;
          EXPECT_NEAR(res[s].ci.v, w.at("ci").get<double>(), 1e-5) << label << " system " << s;
        }
      }
    }
  }
}

TEST(PairedTest, RefusesMismatchedSystems) {
  segment_table a{2, {1, 2, 3, 4}}, b{2, {1, 2}};
  EXPECT_THROW((void)paired_test({a}, ter_scorer(), {}), assay::error);
  EXPECT_THROW((void)paired_test({a, b}, ter_scorer(), {}), assay::error);
  paired_options many;
  many.samples = 20'000'000;
  EXPECT_THROW((void)paired_test({a, a}, ter_scorer(), many), assay::error);
}

}  // namespace
}  // namespace assay::text
