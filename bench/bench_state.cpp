// The mergeable evaluation state's phases, timed apart (docs/scaling.md, "Cost model"):
//   bench_state [ROWS=10000000] [PARTS=2] [LEVELS=0] [WEIGHTED=0]
// Generates ROWS rows in memory as bench/scale/gen_scores.py does (labels 0/1 with P(1) = 0.3,
// score = logistic(normal + 1.2 y), rounded to LEVELS distinct values when LEVELS > 0; weights in
// 0.1 steps, some 0, when WEIGHTED), splits them into PARTS contiguous parts, and prints for each
// phase its wall time on this thread (ASSAY_NUM_THREADS sets the radix sort's team): update of each
// part (batches of 2^20 rows), serialize (and the blob's bytes), read_state, the merges along a
// binary tree (as `mpirun -n PARTS assay report`: rank r - t receives from rank r at step t, so the
// critical path is one update, then one read and merge per level), finish; then evaluate() on all
// rows for reference, and checks that the two reports' JSON is identical. BENCH_CLOCK=cpu times
// the process's CPU time instead of wall time. No parsing: the CSV
// reader's share is measured by bench/mpi_scaling.sh.
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "assay/data/predictions.hpp"
#include "assay/report/report.hpp"
#include "assay/scale/state.hpp"

namespace {

// Seconds of wall time, or with BENCH_CLOCK=cpu of the process's CPU time (user + sys, all threads):
// on a machine shared with other jobs the wall times of one thread are mostly the others' load.
bool cpu_clock() {
  static const bool cpu = [] {
    const char* c = std::getenv("BENCH_CLOCK");
    return c != nullptr && std::string(c) == "cpu";
  }();
  return cpu;
}
double now() {
  if (cpu_clock()) {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double since(double t0) { return now() - t0; }

}  // namespace

int main(int argc, char** argv) {
  const std::size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
  const std::size_t parts = argc > 2 ? std::max<std::size_t>(1, std::strtoull(argv[2], nullptr, 10)) : 2;
  const long levels = argc > 3 ? std::strtol(argv[3], nullptr, 10) : 0;
  const bool weighted = argc > 4 && std::string(argv[4]) == "1";

  std::vector<double> y(rows), score(rows), w(weighted ? rows : 0);
  std::mt19937_64 g(1);
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> z(0, 1);
  for (std::size_t i = 0; i < rows; ++i) {
    y[i] = u(g) < 0.3 ? 1 : 0;
    double s = 1 / (1 + std::exp(-(z(g) + 1.2 * y[i])));
    if (levels > 0) s = std::round(s * static_cast<double>(levels)) / static_cast<double>(levels);
    score[i] = s;
    if (weighted) w[i] = std::round(u(g) * 30) * 0.1;
  }

  assay::scale::state_options so;
  so.kind = assay::scale::prediction_kind::scores;
  so.weighted = weighted;
  so.source = "predictions_from_scores";
  fmt::print("{} rows, {} parts, levels {}, {}\n", rows, parts, levels, weighted ? "weighted" : "unweighted");

  std::vector<assay::scale::evaluation_state> states;
  double update_max = 0, serialize_max = 0, read_max = 0;
  std::size_t bytes_max = 0, bytes_total = 0;
  std::vector<std::string> blobs;
  for (std::size_t p = 0; p < parts; ++p) {
    const std::size_t b = rows * p / parts, e = rows * (p + 1) / parts;
    assay::scale::evaluation_state s(so);
    const auto t0 = now();
    for (std::size_t at = b; at < e; at += std::size_t{1} << 20) {
      const std::size_t to = std::min(e, at + (std::size_t{1} << 20));
      assay::scale::row_batch rb;
      rb.y_true = assay::scale::label_column::of_numbers(std::span<const double>(y).subspan(at, to - at));
      rb.y_score = std::span<const double>(score).subspan(at, to - at);
      if (weighted) rb.sample_weight = std::span<const double>(w).subspan(at, to - at);
      rb.first_row_id = at;
      s.update(rb);
    }
    const double tu = since(t0);
    const auto t1 = now();
    std::string blob = s.serialize();
    const double ts = since(t1);
    fmt::print("part {}: {} rows, update {:.3f} s, serialize {:.3f} s, {} bytes ({:.1f} a row)\n", p, e - b, tu, ts,
               blob.size(), static_cast<double>(blob.size()) / static_cast<double>(std::max<std::size_t>(1, e - b)));
    update_max = std::max(update_max, tu);
    serialize_max = std::max(serialize_max, ts);
    bytes_max = std::max(bytes_max, blob.size());
    bytes_total += blob.size();
    states.push_back(std::move(s));
    blobs.push_back(std::move(blob));
  }
  // The tree: at step t, part r (r mod 2t == t) goes to part r - t as bytes (read back, then merged).
  double tree_critical = 0;
  for (std::size_t t = 1; t < parts; t *= 2) {
    double level_max = 0;
    for (std::size_t r = t; r < parts; r += 2 * t) {
      const auto t0 = now();
      assay::scale::evaluation_state other = assay::scale::read_state(blobs[r], so);
      const double tr = since(t0);
      const auto t1 = now();
      states[r - t].merge(std::move(other));
      const double tm = since(t1);
      read_max = std::max(read_max, tr);
      double ts = 0;
      if ((r - t) % (4 * t) != 0) {  // part r - t sends its merged state at the next step
        const auto t2 = now();
        blobs[r - t] = states[r - t].serialize();
        ts = since(t2);
      }
      fmt::print("step {}: part {} into part {}: read_state {:.3f} s, merge {:.3f} s, serialize to send {:.3f} s\n", t,
                 r, r - t, tr, tm, ts);
      level_max = std::max(level_max, tr + tm + ts);
    }
    tree_critical += level_max;
  }
  const auto t2 = now();
  const assay::report r = states[0].finish();
  const double tf = since(t2);
  fmt::print("finish {:.3f} s\n", tf);
  fmt::print("critical path (update + serialize + tree + finish): {:.3f} s; largest blob {} bytes, all blobs {} bytes\n",
             update_max + (parts > 1 ? serialize_max : 0) + tree_critical + tf, bytes_max, bytes_total);

  const auto t3 = now();
  assay::prediction_options po;
  if (weighted) po.sample_weight = w;
  const assay::prediction_table table = assay::predictions_from_scores(y, score, po);
  const assay::report want = assay::evaluate(table);
  fmt::print("evaluate on all rows (prediction table + evaluate): {:.3f} s\n", since(t3));
  const bool same = assay::to_json(r) == assay::to_json(want);
  fmt::print("JSON {}\n", same ? "identical" : "DIFFERS");
  return same ? 0 : 1;
}
