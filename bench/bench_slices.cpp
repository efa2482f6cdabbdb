// Speed of the sliced report (issue 14): evaluate_slices on 10^7 binary rows (a score with ties)
// in 1000 slices, the target being under 3 s; next to evaluate() of the whole table once, the floor
// a sliced report cannot beat (it evaluates every row once more, in its slice). The table is built
// in memory (reading the file is bench_io's subject). Wall-clock medians of --repetitions runs
// (default 3); the work uses every core the thread limit allows (ASSAY_NUM_THREADS).
// Run: ./build/bench/bench_slices [--rows N] [--slices K] [--repetitions R]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "assay/data/predictions.hpp"
#include "assay/report/slices.hpp"
#include "assay/stats/slices.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU seconds of the process (every thread), to read the timings on a machine shared with others.
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t rows = 10'000'000, slices = 1000, reps = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::size_t v = std::strtoull(argv[i + 1], nullptr, 10);
    if (!std::strcmp(argv[i], "--rows")) rows = v;
    else if (!std::strcmp(argv[i], "--slices")) slices = v;
    else if (!std::strcmp(argv[i], "--repetitions")) reps = std::max<std::size_t>(1, v);
  }
  std::mt19937_64 rng(42);
  std::normal_distribution<double> z;
  std::vector<double> y(rows), s(rows);
  assay::slice_column key;
  key.name = "slice";
  for (std::size_t k = 0; k < slices; ++k) {
    std::string level = std::to_string(k);
    key.levels.push_back(level.insert(0, 1, 's'));
  }
  key.codes.resize(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    y[i] = (rng() % 10) < 3 ? 1 : 0;
    s[i] = std::round(1e4 / (1 + std::exp(-(z(rng) + y[i])))) / 1e4;  // a probability on a 10^-4 grid
    key.codes[i] = static_cast<std::int32_t>(rng() % slices);
  }
  assay::prediction_options po;
  po.pos_label = "1";
  const auto table = assay::predictions_from_scores(y, s, po);
  const std::vector<assay::slice_column> by{key};
  std::vector<double> whole, sliced, grouping, delong, whole_cpu, sliced_cpu;
  std::size_t got = 0;
  for (std::size_t r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpu_seconds();
    const auto rep = assay::evaluate(table);
    whole.push_back(seconds_since(t0));
    whole_cpu.push_back(cpu_seconds() - c0);
    t0 = std::chrono::steady_clock::now();
    c0 = cpu_seconds();
    const auto sr = assay::evaluate_slices(table, by);
    sliced.push_back(seconds_since(t0));
    sliced_cpu.push_back(cpu_seconds() - c0);
    got = sr.slices.size() + (rep.rows == rows ? 0 : 1);
    // Two parts of it on their own: the grouping of the rows, the DeLong tests of every slice.
    t0 = std::chrono::steady_clock::now();
    const auto groups = assay::stats::group_rows(key.codes, slices);
    grouping.push_back(seconds_since(t0));
    std::vector<std::int32_t> y01(rows);
    for (std::size_t i = 0; i < rows; ++i) y01[i] = y[i] == 1 ? 1 : 0;
    t0 = std::chrono::steady_clock::now();
    const auto aucs = assay::stats::delong_slices_vs_rest(y01, s, groups);
    delong.push_back(seconds_since(t0));
    got += aucs.size() == slices ? 0 : 1;
  }
  const double ms = median(sliced), mw = median(whole);
  std::printf("rows %zu, slices %zu (%zu evaluated), %zu repetitions\n", rows, slices, got, reps);
  std::printf("evaluate (whole table, once)   median %.3f s wall, %.3f s CPU\n", mw, median(whole_cpu));
  std::printf("evaluate_slices (all slices)   median %.3f s wall, %.3f s CPU  (%.2fx the whole-table report's wall)\n",
              ms, median(sliced_cpu), ms / mw);
  std::printf("  of which: grouping the rows  median %.3f s; DeLong of every slice vs the rest  median %.3f s\n",
              median(grouping), median(delong));
  std::printf("target: under 3 s for 10^7 rows in 1000 slices -> %s\n",
              rows == 10'000'000 && slices == 1000 ? (ms < 3 ? "met" : "NOT met") : "not this size");
  return 0;
}
