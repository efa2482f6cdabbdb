// Speed of the curve kernel (issue 3): ROC curve + AUC + PR curve + AP on 10^7 rows, next to the
// floor of one radix sort of the scores (boost float_sort) and std::sort, measured in the same run.
// Run: ./build/bench/bench_curves --benchmark_min_time=1
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <boost/sort/spreadsort/float_sort.hpp>
#include <random>
#include <vector>

#include "assay/curves/pr.hpp"
#include "assay/curves/roc.hpp"

namespace {

struct data {
  std::vector<std::int32_t> y;
  std::vector<double> s;
};

const data& get(std::size_t n, int distinct) {
  static std::map<std::pair<std::size_t, int>, data> cache;
  auto& d = cache[{n, distinct}];
  if (d.y.empty()) {
    std::mt19937_64 rng(42);
    std::normal_distribution<double> z;
    d.y.resize(n);
    d.s.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      d.y[i] = (rng() % 10) < 3;
      const double v = z(rng) + d.y[i];
      d.s[i] = distinct ? std::round(v * distinct) / distinct : v;  // distinct = levels per unit: ties
    }
  }
  return d;
}

void floor_float_sort(benchmark::State& st) {
  const data& d = get(static_cast<std::size_t>(st.range(0)), 0);
  for (auto _ : st) {
    std::vector<double> v = d.s;
    boost::sort::spreadsort::float_sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

void floor_std_sort(benchmark::State& st) {
  const data& d = get(static_cast<std::size_t>(st.range(0)), 0);
  for (auto _ : st) {
    std::vector<double> v = d.s;
    std::sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

// One sweep serves every curve: ROC curve + AUC + PR curve + AP.
void all_curves(benchmark::State& st) {
  const data& d = get(static_cast<std::size_t>(st.range(0)), static_cast<int>(st.range(1)));
  for (auto _ : st) {
    const auto sw = assay::curves::sweep_scores("bench", d.y, d.s);
    auto roc = assay::curves::roc_curve(sw);
    auto auc = assay::curves::roc_auc(sw);
    auto pr = assay::curves::precision_recall_curve(sw);
    auto ap = assay::curves::average_precision(sw);
    benchmark::DoNotOptimize(roc.fpr.data());
    benchmark::DoNotOptimize(pr.precision.data());
    benchmark::DoNotOptimize(auc.v + ap.v);
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

void sweep_only(benchmark::State& st) {
  const data& d = get(static_cast<std::size_t>(st.range(0)), 0);
  for (auto _ : st) {
    const auto sw = assay::curves::sweep_scores("bench", d.y, d.s);
    benchmark::DoNotOptimize(sw.tp.data());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

}  // namespace

BENCHMARK(floor_float_sort)->Arg(10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(floor_std_sort)->Arg(10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(sweep_only)->Arg(10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(all_curves)->Args({10'000'000, 0})->Args({10'000'000, 100})->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
