// Speed of the curve kernel (issue 3): ROC curve + AUC + PR curve + AP on 10^7 rows from one sort
// (compute_ranking_curves), next to the floor of one radix sort of the same scores (boost float_sort,
// on a fresh copy, as a caller that keeps its data must do) and std::sort, in the same run. Wall-clock
// times (the kernel uses every core). bench/compare_curves.sh runs this next to scikit-learn.
// Run: ./build/bench/bench_curves [--benchmark_repetitions=3]
// With ASSAY_BENCH_CURVES_DATA=FILE (int32 labels then float64 scores, as bench/compare_curves.py
// writes them) it also times file/floor_float_sort and file/all_curves on those arrays, the ones
// scikit-learn is timed on.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <boost/sort/spreadsort/float_sort.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <map>
#include <utility>
#include <random>
#include <vector>

#include "assay/curves/class_sort.hpp"
#include "assay/curves/pr.hpp"
#include "assay/curves/ranking.hpp"
#include "assay/curves/roc.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/sklearn/ranking.hpp"

namespace {

struct data {
  std::vector<std::int32_t> y;
  std::vector<double> s;
};

// n cases, 30% positives, score N(0, 1) + y; `distinct` > 0 rounds to 1/distinct (ties).
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
      d.s[i] = distinct ? std::round(v * distinct) / distinct : v;
    }
  }
  return d;
}

std::size_t rows(const benchmark::State& st) { return static_cast<std::size_t>(st.range(0)); }

// The floor: one radix sort of the scores (on a copy, which is part of the cost for any caller that
// keeps its data).
void floor_float_sort(benchmark::State& st) {
  const data& d = get(rows(st), 0);
  for (auto _ : st) {
    std::vector<double> v = d.s;
    boost::sort::spreadsort::float_sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

void floor_std_sort(benchmark::State& st) {
  const data& d = get(rows(st), 0);
  for (auto _ : st) {
    std::vector<double> v = d.s;
    std::sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

// The sort alone: split by class + parallel LSD radix sort.
void class_sort_only(benchmark::State& st) {
  const data& d = get(rows(st), 0);
  for (auto _ : st) {
    auto sorted = assay::curves::sort_by_class(d.y, d.s);
    benchmark::DoNotOptimize(sorted.pos().data());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

// The target: ROC curve + AUC + PR curve + AP from one sort and one walk. range(1) = ties (0 = none).
void all_curves(benchmark::State& st) {
  const data& d = get(rows(st), static_cast<int>(st.range(1)));
  for (auto _ : st) {
    const auto r = assay::curves::compute_ranking_curves(d.y, d.s);
    benchmark::DoNotOptimize(r.fpr.data());
    benchmark::DoNotOptimize(r.precision.data());
    benchmark::DoNotOptimize(r.roc_auc.v + r.average_precision.v);
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

// The same through the separate functions of the sweep (what a library user calling roc_curve,
// roc_auc, precision_recall_curve and average_precision on one sweep gets).
void all_curves_via_sweep(benchmark::State& st) {
  const data& d = get(rows(st), 0);
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

// Weighted data take the float_sort of (score, weight) records: slower, reported for reference.
void all_curves_weighted(benchmark::State& st) {
  const data& d = get(rows(st), 0);
  static std::vector<double> w;
  if (w.size() != d.y.size()) {
    std::mt19937_64 rng(7);
    w.resize(d.y.size());
    for (auto& x : w) x = 0.5 + std::uniform_real_distribution<double>(0, 1)(rng);
  }
  for (auto _ : st) {
    const auto r = assay::curves::compute_ranking_curves(d.y, d.s, w);
    benchmark::DoNotOptimize(r.fpr.data());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

// The arrays of ASSAY_BENCH_CURVES_DATA: n int32 labels, then n float64 scores.
data load(const char* path) {
  data d;
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return d;
  std::fseek(f, 0, SEEK_END);
  const auto bytes = static_cast<std::size_t>(std::ftell(f));
  std::fseek(f, 0, SEEK_SET);
  const std::size_t n = bytes / 12;
  d.y.resize(n);
  d.s.resize(n);
  if (std::fread(d.y.data(), 4, n, f) != n || std::fread(d.s.data(), 8, n, f) != n) d.y.clear(), d.s.clear();
  std::fclose(f);
  return d;
}

// The pieces of the Python package's binary roc_auc_score / average_precision_score (scikit-learn to
// the bit) at 10^6 cases, uniform scores and balanced classes as bench/python_ranking.py draws them;
// range(1) = sort threads (0 = the kernel's choice); range(2), when > 0: the scores rounded to
// that many decimals (10^range(2) + 1 distinct values: python_ranking.py's "ties" at 3), else continuous.
const data& uniform(std::size_t n, int decimals = 0) {
  static std::map<std::pair<std::size_t, int>, data> cache;
  auto& d = cache[{n, decimals}];
  if (d.y.empty()) {
    std::mt19937_64 rng(3);
    d.y.resize(n);
    d.s.resize(n);
    const double scale = std::pow(10.0, decimals);
    for (std::size_t i = 0; i < n; ++i) {
      d.y[i] = static_cast<std::int32_t>(rng() & 1u);
      d.s[i] = std::uniform_real_distribution<double>(0, 1)(rng);
      if (decimals > 0) d.s[i] = std::round(d.s[i] * scale) / scale;
    }
  }
  return d;
}
int decimals(const benchmark::State& st) { return static_cast<int>(st.range(2)); }

void sklearn_check(benchmark::State& st) {
  const data& d = uniform(rows(st));
  for (auto _ : st) assay::curves::check_binary_input("bench", d.y, d.s, {});
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

void sklearn_sort_labelled(benchmark::State& st) {
  const data& d = uniform(rows(st), decimals(st));
  for (auto _ : st) {
    auto r = assay::curves::sort_labelled(d.y, d.s, static_cast<unsigned>(st.range(1)));
    benchmark::DoNotOptimize(r->keys().data());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

// sort_labelled on n = range(0) scores taking D = range(2) distinct values, threads = range(1), with
// grouping up to range(3) distinct scores (0: never): where counting per distinct score pays.
void sklearn_sort_labelled_groups(benchmark::State& st) {
  const auto n = static_cast<std::size_t>(st.range(0)), D = static_cast<std::size_t>(st.range(2));
  static std::map<std::pair<std::size_t, std::size_t>, data> cache;
  auto& d = cache[{n, D}];
  if (d.y.empty()) {
    std::mt19937_64 rng(5);
    for (std::size_t i = 0; i < n; ++i) {
      d.y.push_back(static_cast<std::int32_t>(rng() & 1u));
      d.s.push_back(static_cast<double>(rng() % D) / static_cast<double>(D) + 0.25);
    }
  }
  for (auto _ : st) {
    auto r = assay::curves::sort_labelled(d.y, d.s, static_cast<unsigned>(st.range(1)), {},
                                          static_cast<std::size_t>(st.range(3)));
    benchmark::DoNotOptimize(r->keys().data());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

void sklearn_roc_auc(benchmark::State& st) {
  const data& d = uniform(rows(st), decimals(st));
  assay::sklearn::set_sort_threads(static_cast<unsigned>(st.range(1)));
  for (auto _ : st) benchmark::DoNotOptimize(assay::sklearn::roc_auc(d.y, d.s, {}));
  assay::sklearn::set_sort_threads(0);
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

void sklearn_average_precision(benchmark::State& st) {
  const data& d = uniform(rows(st), decimals(st));
  assay::sklearn::set_sort_threads(static_cast<unsigned>(st.range(1)));
  for (auto _ : st) benchmark::DoNotOptimize(assay::sklearn::average_precision(d.y, d.s, {}));
  assay::sklearn::set_sort_threads(0);
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

}  // namespace

BENCHMARK(sklearn_check)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(sklearn_sort_labelled)->Args({1'000'000, 1, 0})->Args({1'000'000, 0, 0})->Args({1'000'000, 1, 3})->Args({1'000'000, 0, 3})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(sklearn_sort_labelled_groups)
    ->ArgsProduct({{1'000'000, 100'000}, {1}, {1000, 4000, 16000, 32768, 65536}, {0, 1 << 17}})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(sklearn_roc_auc)->Args({1'000'000, 1, 0})->Args({1'000'000, 0, 0})->Args({1'000'000, 1, 3})->Args({1'000'000, 0, 3})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(sklearn_average_precision)->Args({1'000'000, 1, 0})->Args({1'000'000, 0, 0})->Args({1'000'000, 1, 3})->Args({1'000'000, 0, 3})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(floor_float_sort)->Arg(10'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(floor_std_sort)->Arg(10'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(class_sort_only)->Arg(10'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(all_curves)->Args({10'000'000, 0})->Args({10'000'000, 100})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(all_curves_via_sweep)->Arg(10'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(all_curves_weighted)->Arg(10'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
int main(int argc, char** argv) {
  static data file;
  if (const char* path = std::getenv("ASSAY_BENCH_CURVES_DATA")) {
    file = load(path);
    if (file.y.empty()) {
      std::fprintf(stderr, "bench_curves: cannot read %s\n", path);
      return 2;
    }
    benchmark::RegisterBenchmark("file/floor_float_sort", [](benchmark::State& st) {
      for (auto _ : st) {
        std::vector<double> v = file.s;
        boost::sort::spreadsort::float_sort(v.begin(), v.end());
        benchmark::DoNotOptimize(v.data());
      }
    })->Unit(benchmark::kMillisecond)->UseRealTime();
    benchmark::RegisterBenchmark("file/all_curves", [](benchmark::State& st) {
      for (auto _ : st) {
        const auto r = assay::curves::compute_ranking_curves(file.y, file.s);
        benchmark::DoNotOptimize(r.fpr.data());
        benchmark::DoNotOptimize(r.precision.data());
        benchmark::DoNotOptimize(r.roc_auc.v + r.average_precision.v);
      }
    })->Unit(benchmark::kMillisecond)->UseRealTime();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
