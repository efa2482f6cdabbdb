// read_table on a large `label,score` file, the input of `assay curve roc` in issue 3:
// `cmake --build build --target bench_io && ./build/bench/bench_io [--benchmark_repetitions=5]`.
// The file (10^7 rows, ~213 MB, the format of bench/compare_sklearn.py's) is written once to
// $TMPDIR/assay_bench_io_10000000.csv. parallel = read_table(path) (the mapped parallel reader);
// serial = the same rows through one csv_reader (the path every error takes).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "assay/io/table.hpp"

namespace {

using assay::io::column_type;

const std::vector<assay::io::column_spec> specs{{"label", column_type::label, "--label"},
                                                {"score", column_type::number, "--score"}};

const std::string& data_file() {
  static const std::string path = [] {
    const auto p = std::filesystem::temp_directory_path() / "assay_bench_io_10000000.csv";
    if (!std::filesystem::exists(p)) {
      const auto part = p.string() + ".part";
      std::FILE* f = std::fopen(part.c_str(), "wb");
      std::mt19937_64 rng(1);
      std::uniform_real_distribution<double> u(0, 1);
      fmt::print(f, "label,score\n");
      for (int i = 0; i < 10'000'000; ++i) fmt::print(f, "{},{}\n", rng() % 2, u(rng));  // shortest round trip
      std::fclose(f);
      std::filesystem::rename(part, p);
    }
    return p.string();
  }();
  return path;
}

void read_table_parallel(benchmark::State& state) {
  const std::string& path = data_file();
  for (auto _ : state) {
    auto t = assay::io::read_table(path, specs);
    benchmark::DoNotOptimize(t.columns[1].numbers.data());
    state.counters["threads"] = static_cast<double>(t.threads);
  }
}

void read_table_serial(benchmark::State& state) {
  const std::string& path = data_file();
  for (auto _ : state) {
    assay::io::csv_reader r(path);
    auto t = assay::io::read_table(r, specs);
    benchmark::DoNotOptimize(t.columns[1].numbers.data());
  }
}

BENCHMARK(read_table_parallel)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(read_table_serial)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
