// `assay report` out of core; see include/assay/scale/out_of_core.hpp and docs/scaling.md.
//
// This file checks the request, plans the memory and runs the two passes: pass 1 (the file read in
// pieces into an evaluation state, the score records or regression rows spilled to partition files
// by key range) is src/scale/out_of_core_reader.cpp, pass 2 (the partitions sorted and walked into
// the state's finish) src/scale/out_of_core_finish.cpp, the spill src/scale/spill.hpp; the three
// share src/scale/out_of_core_impl.hpp.
#include "assay/scale/out_of_core.hpp"

#include <malloc.h>

#include <cstdint>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <string>

#include "assay/error.hpp"
#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"
#include "assay/threads.hpp"
#include "out_of_core_impl.hpp"
#include "piece_lines.hpp"

namespace assay::scale {

namespace {

namespace fs = std::filesystem;

// The refusals of make_report_out_of_core that need no file.
void check_request(const report_request& q, const out_of_core_options& options, const char* fn) {
  if (options.max_memory < (std::uint64_t{1} << 20)) {
    throw_usage(fmt::format("{}: max_memory is {} bytes; it must be at least 1 MiB", fn, options.max_memory));
  }
  const bool regression = q.task == task_kind::regression;
  if (q.ci_level && q.proba.empty() && !regression && (q.weight || q.ci == ci_method::bootstrap)) {
    // The Poisson bootstrap weighs every row by its id: the state would have to keep every row. (Class
    // probabilities and regression keep their rows for every interval, in memory, within a quarter of
    // the cap.)
    throw_usage(fmt::format("{}: intervals with {} resample rows, which needs every row in memory: they are not "
                            "computed out of core", fn, q.weight ? "weights" : "ci_method bootstrap"));
  }
  if (q.path == "-") throw_usage(fmt::format("{}: standard input cannot be read out of core (give a file)", fn));
  if ((q.score ? 1 : 0) + (q.pred ? 1 : 0) + (q.proba.empty() ? 0 : 1) != 1 || (regression && !q.pred)) {
    throw_usage(fmt::format("{}: give exactly one of a score column, a predicted-class column and class-probability "
                            "columns (a predicted-value column for regression)", fn));
  }
}

// The columns read: the label, the score, predicted class or value, the weight, the probabilities
// (whose header names become the state's proba_names, as read_predictions names them; a column that
// does not exist is read_table's message on the first piece).
std::vector<io::column_spec> columns_read(const report_request& q, const detail::ooc_file& f, state_options& so) {
  // Regression reads the target and the predicted value as numbers (data/predictions.hpp's column_specs).
  const bool regression = q.task == task_kind::regression;
  const io::column_type label_type = regression ? io::column_type::number : io::column_type::label;
  std::vector<io::column_spec> specs{{q.label, label_type, param("label")}};
  if (q.score) specs.push_back({*q.score, io::column_type::number, param("scores")});
  else if (q.pred) specs.push_back({*q.pred, label_type, param("predictions")});
  if (so.weighted) specs.push_back({*q.weight, io::column_type::weight, param("weight")});
  for (const auto& ref : q.proba) {
    specs.push_back({ref, io::column_type::probability, param("proba")});
    try {
      so.proba_names.push_back(f.fields.at(io::find_column(f.fields, ref, f.name)));
    } catch (const std::exception&) {
      so.proba_names.push_back(ref);
    }
  }
  return specs;
}

// Memory (docs/scaling.md): pass 1 holds a piece's text (budget / 16), its columns (about as much
// again), the CSV reader's buffer and the spill buffers (budget / 16); pass 2 one partition's records
// (budget / 8, 24 bytes a record) and the radix sort's second buffer (as much again). The rest is the
// process itself (code, thread pool: about 15 MiB) and allocator slack.
detail::ooc_plan plan_of(const out_of_core_options& options) {
  detail::ooc_plan plan;
  plan.budget = options.max_memory;
  plan.piece_bytes = static_cast<std::size_t>(plan.budget / 16);
  plan.spill_buffers = static_cast<std::size_t>(plan.budget / 16);
  plan.cap_records = plan.budget / 8 / sizeof(detail::spill_record);
  plan.dir = detail::temp_directory(options.temp_dir);
  plan.pipelined = assay::max_threads() >= 2;
  return plan;
}

}  // namespace

std::uint64_t available_memory() {
  std::uint64_t avail = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (meminfo >> key >> kb >> unit) {
    if (key == "MemAvailable:") {
      avail = kb * 1024;
      break;
    }
  }
  for (const char* f : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(f);
    std::string v;
    if (in >> v && !v.empty() && v != "max" && v.find_first_not_of("0123456789") == std::string::npos) {
      const std::uint64_t lim = std::stoull(v);
      if (lim > 0 && (avail == 0 || lim < avail)) avail = lim;
    }
  }
  return avail;
}

std::uint64_t in_memory_estimate(const std::string& path) {
  if (path == "-") return 0;
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || !fs::is_regular_file(path, ec)) return 0;
  return 2 * static_cast<std::uint64_t>(size);
}

report make_report_out_of_core(const report_request& q, const out_of_core_options& options, out_of_core_info* info) {
  check_request(q, options, "make_report_out_of_core");
  const evaluate_options eo = options_of(q);
  out_of_core_info local;
  out_of_core_info& inf = info != nullptr ? *info : local;
  inf = {};
  const detail::ooc_file f = detail::read_ooc_file(q);
  state_options so = detail::state_options_of(q, f.name);
  const std::vector<io::column_spec> specs = columns_read(q, f, so);
  evaluation_state state(so);
  auto& s = detail::state_access::of(state);
  s.keep_runs = false;
  const detail::ooc_plan plan = plan_of(options);
  detail::pass_one p1 = detail::read_pass_one(q, eo, plan, f, specs, so, state, inf);
  malloc_trim(0);  // give pass 1's buffers back before pass 2 allocates its own
  report r = q.task == task_kind::regression
                 ? detail::finish_regression_out_of_core(s, eo, plan, so.weighted, p1, inf)
                 : detail::finish_scores_out_of_core(s, eo, plan, so.weighted, p1, inf);
  if (q.csv.drop_missing) r.missing = p1.missing.rows;
  return r;
}

}  // namespace assay::scale
