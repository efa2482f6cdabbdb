// Timing executable for bench/compare_proc.sh (issue 4, "Speed"): reads a `label,a,b` CSV once, then
// times assay's DeLong interval, paired DeLong test and stratified AUC bootstrap from the raw arrays
// (the file reading is not timed), `runs` times each, and prints one line per run:
//   <what> <rows> <seconds>
// Usage: stats_timing FILE [runs=3] [replicates=2000] [threads=2] [small_rows=100000]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "assay/io/table.hpp"
#include "assay/stats/bootstrap.hpp"
#include "assay/stats/delong.hpp"

namespace {

template <class F>
void time_it(const char* what, std::size_t rows, int runs, F&& f) {
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const double sink = f();
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    std::printf("%s %zu %.6f\n", what, rows, dt.count());
    std::fflush(stdout);
    if (sink == -12345.0) std::puts("");  // keep the result alive
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: stats_timing FILE [runs] [replicates] [threads] [small_rows]\n");
    return 2;
  }
  const int runs = argc > 2 ? std::atoi(argv[2]) : 3;
  const std::size_t reps = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 2000;
  const unsigned threads = argc > 4 ? static_cast<unsigned>(std::atoi(argv[4])) : 2;
  const std::size_t small = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : 100000;
  const auto t = assay::io::read_table(argv[1], {{"label", assay::io::column_type::number, "label"},
                                                  {"a", assay::io::column_type::number, "a"},
                                                  {"b", assay::io::column_type::number, "b"}});
  const std::size_t n = t.rows;
  std::vector<std::int32_t> y(n);
  for (std::size_t i = 0; i < n; ++i) y[i] = t.columns[0].numbers[i] == 1 ? 1 : 0;
  const auto& a = t.columns[1].numbers;
  const auto& b = t.columns[2].numbers;
  time_it("delong_ci", n, runs, [&] { return assay::stats::delong_ci(y, a).upper.v; });
  time_it("delong_paired", n, runs, [&] { return assay::stats::delong_paired_test(y, a, b).test.p_value; });
  assay::stats::bootstrap_options o;
  o.replicates = reps;
  o.threads = threads;
  o.seed = 1;
  time_it("bootstrap_auc", n, runs, [&] { return assay::stats::bootstrap_auc(y, a, o).upper.v; });
  const std::size_t m = std::min(small, n);
  const std::span<const std::int32_t> ys(y.data(), m);
  const std::span<const double> as(a.data(), m);
  time_it("bootstrap_auc", m, runs, [&] { return assay::stats::bootstrap_auc(ys, as, o).upper.v; });
  return 0;
}
