// Throughput of the `assay report` pipeline on a generated 10^6-row `label,score` file:
// CSV tokenising, typed column reading, the confusion matrix, and the whole make_report.
// Run: ./build/bench/assay_bench [--benchmark_filter=...]. The file is written once to $TMPDIR.
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"
#include "assay/metrics/confusion.hpp"
#include "assay/report/report.hpp"

namespace {

constexpr std::size_t kRows = 1'000'000;

// label in {0, 1} (30% positives), score uniform, shifted up for positives; scores are written in
// shortest round-trip form, as Python's repr() would.
const std::string& data_file() {
  static const std::string path = [] {
    auto p = std::filesystem::temp_directory_path() / fmt::format("assay_bench_{}_{}.csv", kRows, ::getpid());
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(0, 1);
    std::string text = "label,score\n";
    text.reserve(kRows * 24);
    for (std::size_t i = 0; i < kRows; ++i) {
      const int y = u(rng) < 0.3 ? 1 : 0;
      text += fmt::format("{},{}\n", y, u(rng) * 0.6 + 0.4 * y);
    }
    std::FILE* f = std::fopen(p.c_str(), "wb");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    std::atexit([] { std::filesystem::remove(data_file()); });
    return p.string();
  }();
  return path;
}

std::int64_t file_bytes() { return static_cast<std::int64_t>(std::filesystem::file_size(data_file())); }

void BM_csv_tokenise(benchmark::State& state) {
  std::vector<std::string_view> fields;
  for (auto _ : state) {
    assay::io::csv_reader r(data_file());
    std::size_t n = 0;
    while (r.next(fields)) n += fields.size();
    benchmark::DoNotOptimize(n);
  }
  state.SetBytesProcessed(state.iterations() * file_bytes());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRows));
}
BENCHMARK(BM_csv_tokenise)->Unit(benchmark::kMillisecond);

void BM_read_table(benchmark::State& state) {
  const std::vector<assay::io::column_spec> specs{{"label", assay::io::column_type::label, "--label"},
                                                  {"score", assay::io::column_type::number, "--score"}};
  for (auto _ : state) {
    auto t = assay::io::read_table(data_file(), specs);
    benchmark::DoNotOptimize(t.rows);
  }
  state.SetBytesProcessed(state.iterations() * file_bytes());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRows));
}
BENCHMARK(BM_read_table)->Unit(benchmark::kMillisecond);

void BM_confusion_matrix(benchmark::State& state) {
  const auto K = static_cast<std::size_t>(state.range(0));
  std::mt19937_64 rng(7);
  std::vector<std::int32_t> y(kRows), yhat(kRows);
  for (std::size_t i = 0; i < kRows; ++i) {
    y[i] = static_cast<std::int32_t>(rng() % K);
    yhat[i] = static_cast<std::int32_t>(rng() % K);
  }
  for (auto _ : state) {
    auto cm = assay::confusion_matrix::from_labels(y, yhat, K);
    benchmark::DoNotOptimize(cm(0, 0));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRows));
}
BENCHMARK(BM_confusion_matrix)->Arg(2)->Arg(10)->Unit(benchmark::kMillisecond);

void BM_make_report(benchmark::State& state) {
  assay::report_request q;
  q.path = data_file();
  q.label = "label";
  q.score = "score";
  for (auto _ : state) {
    auto r = assay::make_report(q);
    auto json = assay::to_json(r);
    benchmark::DoNotOptimize(json.data());
  }
  state.SetBytesProcessed(state.iterations() * file_bytes());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRows));
}
BENCHMARK(BM_make_report)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
