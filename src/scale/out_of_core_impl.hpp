// assay (internal): what the three parts of `assay report --max-memory` share
// (include/assay/scale/out_of_core.hpp, docs/scaling.md). src/scale/out_of_core.cpp checks the
// request and plans the memory; out_of_core_reader.cpp is pass 1 (the file read in pieces into the
// state, the score records or regression rows spilled by key range, spill.hpp);
// out_of_core_finish.cpp is pass 2 (the spilled partitions sorted and walked to finish the report).
// Private to src/scale.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "assay/io/table.hpp"
#include "assay/report/report.hpp"
#include "assay/scale/out_of_core.hpp"
#include "spill.hpp"
#include "state_impl.hpp"

namespace assay::scale::detail {

/// A run's budget, decided once (docs/scaling.md, "Memory that counts").
struct ooc_plan {
  std::uint64_t budget = 0;         ///< options.max_memory
  std::size_t piece_bytes = 0;      ///< a piece of the file's text (budget / 16)
  std::size_t spill_buffers = 0;    ///< the spill files' write buffers together (budget / 16)
  std::uint64_t cap_records = 0;    ///< records sorted in memory at once (budget / 8 of records)
  std::filesystem::path dir;        ///< where the spill files go
  bool pipelined = false;           ///< two threads allowed: work overlaps (the next piece, partition)
};

/// The file's header (as the CSV reader reads it: BOM, delimiter detection) and its size.
struct ooc_file {
  std::uint64_t data_start = 0;     ///< where the data starts
  std::string name;                 ///< the name in messages
  std::vector<std::string> fields;  ///< the header's fields
  std::string header;               ///< the header's bytes, ending in a line feed
  std::uint64_t bytes = 0;          ///< the file's size
};

/// Reads the header of the request's file (throws what the CSV reader throws, or io when the file
/// cannot be opened).
ooc_file read_ooc_file(const report_request& q);

/// What pass 1 leaves for pass 2.
struct pass_one {
  /// Scores: the label spellings by first-seen id (the records' ids), and the score records by key
  /// range. Regression: the residual records (key: order key of |residual|, id: its sign) by range.
  std::vector<std::string> ids;
  std::unique_ptr<key_spill> parts;
  /// Regression: the sums of every row (first stage) and the targets of the rows of positive weight
  /// (key: the target's bits).
  regression_sums rsum;
  std::unique_ptr<spill_file> targets;
  io::missing_rows missing;  ///< rows with an empty cell, of the whole file
};

/// Pass 1: the file `f` read in pieces (columns `specs`) into `state` (options `so`; its score runs
/// not kept), the scores or regression rows spilled; `eo` decides what the state need not keep.
/// Refuses (data) rows with an empty cell unless dropped, and a state that outgrows its share.
pass_one read_pass_one(const report_request& q, const evaluate_options& eo, const ooc_plan& plan, const ooc_file& f,
                       const std::vector<io::column_spec>& specs, const state_options& so, evaluation_state& state,
                       out_of_core_info& inf);

/// Pass 2 of regression: the spreads and the median absolute error from the spill, then the report.
report finish_regression_out_of_core(evaluation_state::impl& s, const evaluate_options& eo, const ooc_plan& plan,
                                     bool weighted, pass_one& p1, out_of_core_info& inf);

/// Pass 2 of scores (and of predicted classes and class probabilities, which spill nothing): the
/// loss sums to redo, then the partitions sorted and walked into the state's finish.
report finish_scores_out_of_core(evaluation_state::impl& s, const evaluate_options& eo, const ooc_plan& plan,
                                 bool weighted, pass_one& p1, out_of_core_info& inf);

}  // namespace assay::scale::detail
