// `assay report` out of core, pass 1 (src/scale/out_of_core_impl.hpp, docs/scaling.md): the file is
// read in pieces cut at line ends; each piece is parsed by the in-memory reader's parallel parser on
// its byte range of the file (or serially with the header line in front, where that parser gives
// up: the same table, and every message), one piece ahead, and added to an evaluation state that
// keeps everything but the score runs (cells, loss sums, classes), while on a second thread the
// score of every row becomes a record (order key, label id, weight) appended to one of P partition
// files by key range (spill.hpp); the ranges are quantiles of the first piece's keys, so partitions
// are about equal. Regression spills its targets and its residuals by range of |residual| instead.
#include <malloc.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <exception>
#include <fmt/format.h>
#include <future>
#include <optional>
#include <unordered_map>

#include "../io/parallel_table.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/detail/radix.hpp"
#include "assay/error.hpp"
#include "assay/io/csv.hpp"
#include "assay/threads.hpp"
#include "out_of_core_impl.hpp"
#include "piece_lines.hpp"

namespace assay::scale::detail {

namespace fs = std::filesystem;

ooc_file read_ooc_file(const report_request& q) {
  ooc_file f;
  {
    io::csv_reader head(q.path, q.csv);
    f.data_start = head.offset();
    f.name = head.name();
    f.fields = head.header();
  }
  std::ifstream file(q.path, std::ios::binary);
  if (!file) throw_io(fmt::format("{}: cannot open {}", q.path, q.path));
  f.header.assign(f.data_start, '\0');
  file.read(f.header.data(), static_cast<std::streamsize>(f.data_start));
  if (!f.header.empty() && f.header.back() != '\n') f.header.push_back('\n');
  f.bytes = fs::file_size(q.path);
  return f;
}

namespace {

struct piece_range {
  std::uint64_t first, last;  // bytes of the file
};

// A piece's rows and its line feeds.
struct parsed {
  io::table t;
  std::uint64_t lines = 0;
};

// The file cut into pieces at line ends, and a piece parsed.
class piece_source {
 public:
  piece_source(const report_request& q, const ooc_plan& plan, const ooc_file& f, const std::vector<io::column_spec>& specs)
      : q_(q), f_(f), specs_(specs), piece_bytes_(plan.piece_bytes), csv_(chunked(q.csv, plan.piece_bytes)),
        file_(q.path, std::ios::binary), next_byte_(f.data_start), head_(q.path, csv_) {
    if (!file_) throw_io(fmt::format("{}: cannot open {}", q.path, q.path));
    ps_.max_threads = assay::detail::team_threads(8);
    // At least 256 KiB a thread: a smaller piece is parsed serially faster than threads start (at a
    // cap of 1 MiB, pieces of 64 KiB in parallel made the run 1.5x slower).
    ps_.min_bytes_per_thread = std::max<std::uint64_t>(piece_bytes_ / 8, std::uint64_t{256} << 10);
    ps_.max_record_bytes = q.csv.max_record_bytes;
  }

  // The next piece: from next_byte_ to just after the first line feed at or after piece_bytes_
  // further on (a record longer than that is read whole), or to the end of the file; nullopt at the
  // end. The first piece is returned even when the file has no data bytes (read_table then says so).
  std::optional<piece_range> next() {
    const std::uint64_t file_bytes = f_.bytes;
    if (next_byte_ >= file_bytes && !first_piece_) return std::nullopt;
    first_piece_ = false;
    const std::uint64_t first = std::min(next_byte_, file_bytes);
    std::uint64_t last = file_bytes;
    if (file_bytes - first > piece_bytes_) {
      std::uint64_t pos = first + piece_bytes_ - 1;
      file_.clear();
      file_.seekg(static_cast<std::streamoff>(pos));
      while (pos < file_bytes) {
        file_.read(probe_.data(), static_cast<std::streamsize>(std::min<std::uint64_t>(probe_.size(), file_bytes - pos)));
        const auto got = static_cast<std::size_t>(file_.gcount());
        if (got == 0) break;  // the file was cut shorter: the parse says what it finds
        if (const void* nl = std::memchr(probe_.data(), '\n', got)) {
          last = pos + static_cast<std::uint64_t>(static_cast<const char*>(nl) - probe_.data()) + 1;
          break;
        }
        pos += got;
      }
    }
    next_byte_ = last;
    return piece_range{first, last};
  }

  // A piece's rows, parsed in parallel by the in-memory reader's parser (io::read_table's, on a byte
  // range of the file: each thread maps its part of the piece and writes its rows in place), and the
  // piece's line feeds. Where that parser gives up (a quote, an odd byte, any error, one thread
  // allowed) the piece is read serially with the header line in front, exactly as read_table reads
  // a file, its lines numbered from the file's line after the `lines_before` data lines before the
  // piece, which gives every message the file's line. Both give the same table. Safe to call on
  // another thread while next() runs (the header's reader is only read).
  parsed parse(piece_range r, std::uint64_t lines_before) const {
    parsed out;
    if (auto t = io::detail::read_range_parallel(q_.path, head_, specs_, r.first, r.last, ps_, &out.lines)) {
      out.t = std::move(*t);
      if (out.t.missing.rows > 0) out.t.missing.first_line += lines_before;
      return out;
    }
    const std::string& header = f_.header;
    std::string text = header;
    text.resize(header.size() + (r.last - r.first));
    std::ifstream in(q_.path, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(r.first));
    in.read(text.data() + header.size(), static_cast<std::streamsize>(r.last - r.first));
    text.resize(header.size() + static_cast<std::size_t>(in.gcount()));
    if (text.find('"', header.size()) != std::string::npos) {
      throw_data(fmt::format("{}: the file has quote characters; it cannot be read out of core (its records "
                             "cannot be cut at line ends): read it in memory", f_.name));
    }
    out.lines = static_cast<std::uint64_t>(
        std::count(text.begin() + static_cast<std::ptrdiff_t>(header.size()), text.end(), '\n'));
    io::csv_reader reader = io::csv_reader::from_string(std::move(text), q_.path, csv_);
    reader.skip_lines(lines_before);
    out.t = io::read_table(reader, specs_, true);  // rows with an empty cell: counted, refused after pass 1
    return out;
  }

 private:
  static io::csv_options chunked(io::csv_options csv, std::size_t piece_bytes) {
    csv.chunk_bytes = std::min<std::size_t>(csv.chunk_bytes, std::max<std::size_t>(piece_bytes / 4, 1 << 16));
    return csv;
  }
  const report_request& q_;
  const ooc_file& f_;
  const std::vector<io::column_spec>& specs_;
  std::size_t piece_bytes_;
  io::csv_options csv_;
  std::ifstream file_;
  std::uint64_t next_byte_;
  bool first_piece_ = true;
  std::vector<char> probe_ = std::vector<char>(std::size_t{1} << 16);
  io::csv_reader head_;  // the header, as the parallel parser needs it
  io::detail::parallel_settings ps_;
};

// Rows of the file, estimated from the first piece (`rows` rows of about piece_bytes of text);
// three partitions per partition's worth of records, so that few need to be split again.
std::size_t partitions_wanted(std::size_t rows, const ooc_plan& plan, std::uint64_t file_bytes) {
  const double rows_est = static_cast<double>(rows) * static_cast<double>(file_bytes) /
                          static_cast<double>(std::min<std::uint64_t>(file_bytes, plan.piece_bytes) + 1);
  return static_cast<std::size_t>(std::clamp(rows_est / static_cast<double>(plan.cap_records) * 3, 1.0, 4096.0));
}

// Pass 1's loop: pieces parsed one ahead, added to the state (shared between two states for scores
// with two threads) while their records are spilled.
class pass_one_reader {
 public:
  pass_one_reader(const report_request& q, const evaluate_options& eo, const ooc_plan& plan, const ooc_file& f,
                  const std::vector<io::column_spec>& specs, const state_options& so, evaluation_state& state,
                  out_of_core_info& inf)
      : q_(q), plan_(plan), f_(f), so_(so), state_(state), inf_(inf), source_(q, plan, f, specs),
        regression_(q.task == task_kind::regression), scores_(q.score.has_value()),
        // Scores (no rows kept) with two threads: the update of a piece is shared between two states,
        // which give the same report merged as one state given all rows (evaluation_state::merge:
        // exact sums and counts; tests/scale/state_test.cpp checks any partition and merge order).
        halves_(plan.pipelined && so.kind == prediction_kind::scores && !so.row_ids) {
    if (halves_) state2_.emplace(so);
    impl& s = state_access::of(state_);
    impl& s2 = state_access::of(halves_ ? *state2_ : state_);
    s.keep_runs = false;
    s2.keep_runs = false;
    // The reliability curve's sums of scores are read only by kept curves (--html): without them, a
    // bin, a tally and an exact sum a row less in pass 1.
    s.calibration = s2.calibration = eo.keep_curves;
    // Each score row's log-loss and Brier terms for the class its spelling is in as far as the
    // spellings seen tell (a logarithm and two exact sums a row less than for both classes); the
    // spellings whose class changed later are summed again from the spill after pass 1 (pass 2).
    s.one_class_loss = s2.one_class_loss = scores_;
  }

  pass_one run();

 private:
  using impl = evaluation_state::impl;
  bool launch();
  void add_piece(const io::table& t);
  void check_memory() const;
  void spill_scores(const io::table& t);
  void spill_regression(const io::table& t);

  const report_request& q_;
  const ooc_plan& plan_;
  const ooc_file& f_;
  const state_options& so_;
  evaluation_state& state_;
  out_of_core_info& inf_;
  piece_source source_;
  bool regression_, scores_, halves_;
  std::optional<evaluation_state> state2_;
  std::unordered_map<std::string, std::uint32_t> id_of_;
  pass_one out_;
  std::uint64_t lines_before_ = 0;  // data lines before the next piece
  std::uint64_t rows_before_ = 0;   // rows of the pieces added so far: the next row's index
  std::future<parsed> ahead_;
};

// Two pieces in flight when two threads are allowed: the next one is parsed while this one is added
// to the state and spilled (the order of the pieces is kept, so messages and results are those of
// the serial reading).
bool pass_one_reader::launch() {
  std::optional<piece_range> p = source_.next();
  if (!p) return false;
  auto parse = [this](piece_range r, std::uint64_t lines_before) { return source_.parse(r, lines_before); };
  ahead_ = plan_.pipelined ? std::async(std::launch::async, parse, *p, lines_before_)
                           : std::async(std::launch::deferred, parse, *p, lines_before_);
  return true;
}

pass_one pass_one_reader::run() {
  bool more = launch();
  impl& s = state_access::of(state_);
  impl& s2 = state_access::of(halves_ ? *state2_ : state_);
  while (more) {
    parsed got = ahead_.get();
    lines_before_ += got.lines;
    more = launch();
    io::table& t = got.t;
    out_.missing.add(t.missing);
    ++inf_.pieces;
    // The columns' header names, for the report's header (as read_predictions names them).
    s.o.label_name = t.columns[0].name;
    if (so_.kind != prediction_kind::proba) s.o.prediction_name = t.columns[1].name;
    s2.o.label_name = s.o.label_name;  // the second state's (the same state when there is none)
    s2.o.prediction_name = s.o.prediction_name;
    if (t.rows == 0) continue;
    add_piece(t);
    rows_before_ += t.rows;
    check_memory();
  }
  if (halves_) {
    state_.merge(std::move(*state2_));
    state2_.reset();
  }
  const io::missing_rows& missing = out_.missing;
  if (!q_.csv.drop_missing) io::refuse_missing(missing, f_.name);
  if (missing.rows > 0 && state_.rows() == 0) {  // as read_table says it of the whole file
    throw_data(fmt::format("{}: no data rows after the header but rows with a missing value ({} skipped, the first on "
                           "line {})", f_.name, missing.rows, missing.first_line));
  }
  if (out_.parts) {
    inf_.spilled_bytes += out_.parts->flush();
    inf_.partitions = out_.parts->size();
  }
  return std::move(out_);
}

// The piece's score records go to the partitions by key range while the state adds its rows: the two
// read the piece's columns and write nothing the other reads, so they run at the same time (each
// keeps the order of the rows, so the result is the serial one). An error of the spill is rethrown
// only after the state's, as the serial order would have it.
void pass_one_reader::add_piece(const io::table& t) {
  const std::string& name = f_.name;
  std::exception_ptr spill_error;
  auto spill = [&] {
    if (!scores_ && !regression_) return;
    try {
      if (scores_) spill_scores(t);
      else spill_regression(t);
    } catch (...) {
      spill_error = std::current_exception();
    }
  };
  if (halves_) {
    // The state's update is the longest of the three (two logarithms and exact sums a row): its rows
    // are shared between two states, each half in the order of the file, merged after pass 1. A
    // half's error is rethrown in the order of the rows (the first half's first).
    const std::size_t h = t.rows / 2;
    std::exception_ptr second_error;
    assay::detail::run_both(
        [&] {
          assay::detail::run_both([&] { update_with_piece(state_, t, name, rows_before_, 0, h); },
                                  [&] {
                                    try {
                                      update_with_piece(*state2_, t, name, rows_before_, h);
                                    } catch (...) {
                                      second_error = std::current_exception();
                                    }
                                  });
        },
        spill);
    if (second_error) std::rethrow_exception(second_error);
  } else {
    assay::detail::run_both([&] { update_with_piece(state_, t, name, rows_before_); }, spill);
  }
  if (spill_error) std::rethrow_exception(spill_error);
}

void pass_one_reader::check_memory() const {
  const std::uint64_t budget = plan_.budget;
  if (so_.kind == prediction_kind::proba && state_.memory_bytes() > budget / 4) {
    // The probability columns' runs are held in memory (not spilled as a score's are), and a merge of
    // a column's runs briefly holds them twice: a quarter of the cap. With intervals, the rows kept
    // for them are held too (every interval of class probabilities reads every row).
    throw_data(fmt::format("{}: the class probabilities {} to be evaluated within {} KiB (their state holds {} KiB "
                           "after {} rows, more than a quarter of it): raise max_memory or read the file in memory",
                           f_.name,
                           so_.row_ids ? "and the rows kept for their intervals (every row) are too many"
                                       : "have too many distinct values",
                           budget >> 10, state_.memory_bytes() >> 10, rows_before_));
  }
  if (regression_ && state_.memory_bytes() > budget / 4) {
    // Only the rows kept for the intervals (every interval of regression resamples rows) grow.
    throw_data(fmt::format("{}: the rows kept for the intervals of regression (every row) are too many to be "
                           "evaluated within {} KiB (the state holds {} KiB after {} rows, more than a quarter of "
                           "it): raise max_memory, or drop ci_level",
                           f_.name, budget >> 10, state_.memory_bytes() >> 10, rows_before_));
  }
}

// Appends a piece's score records to the partitions (made from the first piece's keys).
void pass_one_reader::spill_scores(const io::table& t) {
  const io::column& lab = t.columns[0];
  std::vector<std::uint32_t> level_id(lab.levels.size());
  for (std::size_t k = 0; k < lab.levels.size(); ++k) {
    auto [it, fresh] = id_of_.emplace(lab.levels[k], static_cast<std::uint32_t>(out_.ids.size()));
    if (fresh) out_.ids.push_back(lab.levels[k]);
    level_id[k] = it->second;
  }
  const auto& sc = t.columns[1].numbers;
  if (!out_.parts) {
    std::vector<std::uint64_t> sample(sc.size());
    for (std::size_t i = 0; i < sc.size(); ++i) sample[i] = assay::detail::order_key(sc[i]);
    out_.parts = std::make_unique<key_spill>(std::move(sample), partitions_wanted(t.rows, plan_, f_.bytes), plan_.dir,
                                             plan_.spill_buffers, so_.weighted);
  }
  key_spill& parts = *out_.parts;
  for (std::size_t i = 0; i < sc.size(); ++i) {
    const std::uint64_t key = assay::detail::order_key(sc[i]);
    parts[parts.of(key)].add(
        {key, level_id[static_cast<std::size_t>(lab.codes[i])], so_.weighted ? t.columns[2].numbers[i] : 1.0});
  }
}

// Appends a piece's regression rows: their sums (first stage), the targets of the rows of positive
// weight, and their residuals to the partitions by range of |residual| (made from the first piece's).
void pass_one_reader::spill_regression(const io::table& t) {
  const auto& y = t.columns[0].numbers;
  const auto& yhat = t.columns[1].numbers;
  const double* wt = so_.weighted ? t.columns[2].numbers.data() : nullptr;
  if (!out_.parts) {
    std::vector<std::uint64_t> sample(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) sample[i] = assay::detail::order_key(std::abs(y[i] - yhat[i]));
    out_.parts = std::make_unique<key_spill>(std::move(sample), partitions_wanted(t.rows, plan_, f_.bytes), plan_.dir,
                                             plan_.spill_buffers / 2, so_.weighted);
    out_.targets = std::make_unique<spill_file>(plan_.dir, plan_.spill_buffers / 2, so_.weighted);
  }
  regression_sums& rsum = out_.rsum;
  key_spill& parts = *out_.parts;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double w = wt != nullptr ? wt[i] : 1.0;
    if (std::isnan(y[i]) || std::isnan(yhat[i]) || std::isnan(w)) continue;  // skipped by the state (drop_missing)
    const double r = y[i] - yhat[i];
    rsum.add_target(y[i], w, 1);
    rsum.add_residual(r, w, 1);
    if (w == 0) continue;  // no term of the spreads or the median
    out_.targets->add({std::bit_cast<std::uint64_t>(y[i]), 0, w});
    const std::uint64_t key = assay::detail::order_key(std::abs(r));
    parts[parts.of(key)].add({key, std::signbit(r) ? 1U : 0U, w});
  }
}

}  // namespace

pass_one read_pass_one(const report_request& q, const evaluate_options& eo, const ooc_plan& plan, const ooc_file& f,
                       const std::vector<io::column_spec>& specs, const state_options& so, evaluation_state& state,
                       out_of_core_info& inf) {
  pass_one_reader reader(q, eo, plan, f, specs, so, state, inf);
  return reader.run();
}

}  // namespace assay::scale::detail
