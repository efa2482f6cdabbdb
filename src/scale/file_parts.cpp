// A prediction file cut into parts and the evaluation state of one part; see
// include/assay/scale/file_parts.hpp and docs/scaling.md ("MPI").
#include "assay/scale/file_parts.hpp"
#include "assay/scale/ranges.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "assay/data/predictions.hpp"
#include "assay/error.hpp"
#include "piece_lines.hpp"
#include "../io/parallel_table.hpp"
#include "assay/detail/parallel.hpp"
#include "state_impl.hpp"
#include "sliced_parts.hpp"
#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"

namespace assay::scale {

namespace {

namespace fs = std::filesystem;

// What the state evaluates.
void check_supported(const report_request& q, const char* fn) {
  if (q.path == "-") throw_usage(fmt::format("{}: standard input cannot be cut into parts (give a file)", fn));
  if ((q.score ? 1 : 0) + (q.pred ? 1 : 0) + (q.proba.empty() ? 0 : 1) != 1) {
    throw_usage(fmt::format("{}: give exactly one of a score column, a predicted-class column and class-probability "
                            "columns", fn));
  }
}

// The first byte after the first line feed at or after byte `from`; `size` when there is none.
std::uint64_t after_line_feed(std::ifstream& f, std::uint64_t from, std::uint64_t size, const std::string& name) {
  std::vector<char> buf(std::size_t{1} << 16);
  std::uint64_t at = from;
  f.clear();
  f.seekg(static_cast<std::streamoff>(at));
  while (at < size) {
    f.read(buf.data(), static_cast<std::streamsize>(std::min<std::uint64_t>(buf.size(), size - at)));
    const auto got = static_cast<std::size_t>(f.gcount());
    if (got == 0) throw_io(fmt::format("{}: cannot read byte {}", name, at));
    if (const void* p = std::memchr(buf.data(), '\n', got)) {
      return at + static_cast<std::uint64_t>(static_cast<const char*>(p) - buf.data()) + 1;
    }
    at += got;
  }
  return size;
}

// Physical lines (line feeds, and carriage returns not followed by a line feed: the CSV reader's
// lines) in bytes [from, to) of the file.
std::uint64_t lines_in(const std::string& path, std::uint64_t from, std::uint64_t to) {
  std::ifstream f(path, std::ios::binary);
  f.seekg(static_cast<std::streamoff>(from));
  std::vector<char> buf(std::size_t{1} << 20);
  std::uint64_t lines = 0, at = from;
  bool cr = false;  // the previous byte was a carriage return
  while (at < to && f) {
    f.read(buf.data(), static_cast<std::streamsize>(std::min<std::uint64_t>(buf.size(), to - at)));
    const auto got = static_cast<std::size_t>(f.gcount());
    if (got == 0) break;
    for (std::size_t i = 0; i < got; ++i) {
      const char c = buf[i];
      if (c == '\n') ++lines;
      else if (cr) ++lines;  // a lone CR before this byte
      cr = c == '\r';
    }
    at += got;
  }
  return lines + (cr ? 1 : 0);
}


// The header's bytes (as the CSV reader reads them: byte-order mark, delimiter detection), ended by a
// line feed, the first data byte and the reader's display name.
struct header_info {
  std::vector<std::string> fields;
  std::string text;
  std::uint64_t data_start = 0;
  std::string name;
};

header_info read_header(const std::string& path, const io::csv_options& csv) {
  header_info h;
  {
    io::csv_reader head(path, csv);
    h.data_start = head.offset();
    h.name = head.name();
    h.fields = head.header();
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw_io(fmt::format("{}: cannot open {}", path, path));
  h.text.assign(h.data_start, '\0');
  f.read(h.text.data(), static_cast<std::streamsize>(h.data_start));
  if (static_cast<std::uint64_t>(f.gcount()) != h.data_start) throw_io(fmt::format("{}: cannot read its header", h.name));
  if (!h.text.empty() && h.text.back() != '\n') h.text.push_back('\n');
  return h;
}

void check_part(const file_part& part, const char* fn) {
  if (part.begin > part.end) {
    throw_usage(fmt::format("{}: the part begins at byte {}, after its end {}", fn, part.begin, part.end));
  }
}

// Reads the records of a part of a file in pieces of about `piece_bytes` bytes, each with the header
// line in front, parsed by io::read_table as the whole file would be (line numbers of the file in its
// messages). What the state of a part (state_of_file_part) and the columns of a part
// (table_of_file_part) share.
struct part_reader {
  std::string path;
  io::csv_options csv;  // the caller's, with chunks no larger than a quarter of a piece
  std::vector<io::column_spec> specs;
  std::size_t piece_bytes;
  header_info header;

  part_reader(const std::string& p, const io::csv_options& c, std::vector<io::column_spec> s, std::size_t piece)
      : path(p), csv(c), specs(std::move(s)), piece_bytes(std::max<std::size_t>(piece, 4096)), header(read_header(p, c)) {
    csv.chunk_bytes = std::min<std::size_t>(csv.chunk_bytes, std::max<std::size_t>(piece_bytes / 4, 1 << 16));
  }

  // The rows of `text` (the header line, then records that start at the file's byte `first_byte`);
  // rows with an empty cell are counted (refused or skipped by the caller, for the whole part).
  io::table parse(std::string text, std::uint64_t first_byte) const {
    const std::size_t data_bytes = text.size() - header.text.size();
    try {
      io::csv_reader reader = io::csv_reader::from_string(std::move(text), path, csv);
      return io::read_table(reader, specs, true);
    } catch (const error&) {
      // A failure: the piece is read again with its lines numbered as the file's (the data lines
      // before it are counted only now), which throws the same error naming the file's line.
      std::string again = header.text;
      again.resize(header.text.size() + data_bytes);
      std::ifstream in(path, std::ios::binary);
      in.seekg(static_cast<std::streamoff>(first_byte));
      in.read(again.data() + header.text.size(), static_cast<std::streamsize>(data_bytes));
      if (static_cast<std::size_t>(in.gcount()) == data_bytes) {
        io::csv_reader reader = io::csv_reader::from_string(std::move(again), path, csv);
        reader.skip_lines(lines_in(path, header.data_start, first_byte));
        (void)io::read_table(reader, specs, true);
      }
      throw;  // the file changed since: the first reading's error
    }
  }

  // Calls on_piece(io::table&&) with the rows of each piece of `part`, in file order; returns the
  // part's rows with an empty cell (the first one's line a line of the file). A quote character is
  // refused (data): a cut at a line end is then not known to be a record boundary.
  template <class OnPiece>
  io::missing_rows read(const file_part& part, OnPiece&& on_piece) const {
    const header_info& h = header;
    std::ifstream file(path, std::ios::binary);
    if (!file) throw_io(fmt::format("{}: cannot open {}", path, path));
    file.seekg(static_cast<std::streamoff>(part.begin));
    std::string carry, piece;
    std::uint64_t at = part.begin;          // the file's next unread byte
    std::uint64_t carry_from = part.begin;  // the file offset of carry's first byte
    io::missing_rows missing;               // of this part
    while (at < part.end || !carry.empty()) {
      piece.clear();
      piece.append(h.text);
      piece.append(carry);
      const std::uint64_t first_byte = carry_from;
      carry.clear();
      bool last = at >= part.end;
      if (!last) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(piece_bytes, part.end - at));
        const std::size_t from = piece.size();
        piece.resize(from + want);
        file.read(piece.data() + from, static_cast<std::streamsize>(want));
        const auto got = static_cast<std::size_t>(file.gcount());
        if (got != want) throw_io(fmt::format("{}: cannot read bytes {} to {}", h.name, at, at + want));
        at += got;
        last = at >= part.end;
      }
      if (!last) {  // cut after the last line feed; the rest waits for the next piece
        const std::size_t c = piece.rfind('\n');
        if (c == std::string::npos || c < h.text.size()) {
          carry.assign(piece, h.text.size());  // one record longer than a piece: read on
          carry_from = first_byte;
          continue;
        }
        carry.assign(piece, c + 1);
        carry_from = first_byte + (c + 1 - h.text.size());
        piece.resize(c + 1);
      }
      if (piece.find('"', h.text.size()) != std::string::npos) {
        throw_data(fmt::format("{}: the file has quote characters; it cannot be cut into parts at line ends (a quoted "
                               "field may hold a line break): read it as one part",
                               h.name));
      }
      if (piece.find_first_not_of("\r\n", h.text.size()) == std::string::npos) continue;  // blank lines only
      io::table t = parse(std::move(piece), first_byte);
      piece = std::string();
      if (t.missing.rows > 0) {
        if (missing.rows == 0) t.missing.first_line += lines_in(path, h.data_start, first_byte);
        missing.add(t.missing);
      }
      on_piece(std::move(t));
    }
    return missing;
  }

  // Refuses the part's rows with an empty cell (without drop_missing): the whole file's message when
  // the part is the whole file, else naming the part's bytes.
  void refuse_missing(const io::missing_rows& missing, const file_part& part) const {
    if (missing.rows == 0) return;
    const bool whole = part.begin <= header.data_start && part.end >= fs::file_size(path);
    io::refuse_missing(missing, header.name,
                       whole ? "" : fmt::format(" in bytes {} to {} (this part)", part.begin, part.end));
  }
};

}  // namespace

file_part part_of_file(const std::string& path, const io::csv_options& csv, std::size_t index, std::size_t count) {
  const char* fn = "part_of_file";
  if (path == "-") throw_usage(fmt::format("{}: standard input cannot be cut into parts (give a file)", fn));
  if (count == 0 || index >= count) {
    throw_usage(fmt::format("{}: index is {} and count is {}; index must be below count", fn, index, count));
  }
  const header_info h = read_header(path, csv);
  std::error_code ec;
  const std::uint64_t size = fs::file_size(path, ec);
  if (ec) throw_io(fmt::format("{}: cannot read its size: {}", h.name, ec.message()));
  const std::uint64_t d = std::min(h.data_start, size), data = size - d;
  std::ifstream f(path, std::ios::binary);
  if (!f) throw_io(fmt::format("{}: cannot open {}", path, path));
  // s_k = d + floor(data * k / count) without overflow: data = q * count + rem with rem < count, so
  // data * k / count = q * k + rem * k / count (count below 2^32).
  if (count >= (std::size_t{1} << 32)) throw_usage(fmt::format("{}: count is {}; it must be below 2^32", fn, count));
  auto split = [&](std::size_t k) {
    const std::uint64_t q = data / count, rem = data % count;
    return d + q * k + rem * k / count;
  };
  auto cut = [&](std::size_t k) -> std::uint64_t {
    if (k == 0) return d;
    if (k == count) return size;
    const std::uint64_t s = split(k);
    return s <= d ? d : after_line_feed(f, s - 1, size, h.name);
  };
  return {cut(index), cut(index + 1)};
}

file_part part_of_file(const report_request& q, std::size_t index, std::size_t count) {
  return part_of_file(q.path, q.csv, index, count);
}

namespace {

// What a state of a part (sliced or not) is read with: the request's checked columns, the reader of
// the part's pieces and the state's options with the columns' header names (as read_predictions
// names them). `by`: slice columns read after the prediction columns, as labels.
struct part_source {
  part_reader in;
  state_options options;
  std::vector<std::string> by;  // the slice columns' header names
};

part_source source_of_part(const report_request& q, const std::vector<std::string>& by, const file_part& part,
                           std::size_t piece_bytes, const char* fn) {
  const prediction_file pf = prediction_file_of(q);  // make_report's checks of the request, its messages
  check_supported(q, fn);
  check_part(part, fn);
  std::vector<io::column_spec> specs = column_specs(pf);
  for (const auto& c : by) specs.push_back({c, io::column_type::label, param("by")});
  part_source src{part_reader(q.path, q.csv, std::move(specs), piece_bytes), {}, {}};
  const part_reader& in = src.in;
  const header_info& h = in.header;
  state_options& so = src.options;
  so = detail::state_options_of(q, h.name);
  // The prediction column (scores, predicted classes) or the probability columns (after the weight).
  const std::size_t first = so.kind == prediction_kind::proba ? (so.weighted ? 2 : 1) : 1;
  const std::size_t count = so.kind == prediction_kind::proba ? q.proba.size() : 1;
  std::size_t label = h.fields.size(), prediction = h.fields.size();
  std::vector<std::size_t> columns, slices;
  try {
    label = io::find_column(h.fields, in.specs[0].ref, h.name);
    for (std::size_t k = 0; k < count; ++k) columns.push_back(io::find_column(h.fields, in.specs[first + k].ref, h.name));
    prediction = *std::max_element(columns.begin(), columns.end());
    for (std::size_t c = 0; c < by.size(); ++c) {
      slices.push_back(io::find_column(h.fields, in.specs[in.specs.size() - by.size() + c].ref, h.name));
      if (slices.back() >= h.fields.size()) slices.clear();
      if (slices.empty()) break;
    }
  } catch (const error&) {  // an ambiguous name: read_table's message below
  }
  if (std::max(label, prediction) >= h.fields.size() || slices.size() != by.size()) {
    // read_table resolves the columns before it reads rows: its message for a column that does
    // not exist or is ambiguous.
    (void)in.parse(h.text, h.data_start);
    throw_usage(fmt::format("{}: cannot find the label, prediction or slice column", fn));
  }
  so.label_name = h.fields[label];
  if (so.kind == prediction_kind::proba) {
    for (auto c : columns) so.proba_names.push_back(h.fields[c]);
  } else {
    so.prediction_name = h.fields[prediction];
  }
  for (auto c : slices) src.by.push_back(h.fields[c]);
  return src;
}

// The rows of a part with an empty cell: counted with drop_missing (by `count`), else described in
// `unrefused` when the caller refuses them for all parts at once (refuse_missing_of_parts), else
// refused with the part's count.
template <class Count>
void skipped_rows(const report_request& q, const part_reader& in, const io::missing_rows& missing,
                  const file_part& part, Count&& count, io::missing_rows* unrefused) {
  if (q.csv.drop_missing) count(missing.rows);
  else if (unrefused != nullptr) *unrefused = missing;
  else in.refuse_missing(missing, part);
}

}  // namespace

evaluation_state state_of_file_part(const report_request& q, const file_part& part, std::size_t piece_bytes,
                                    io::missing_rows* unrefused) {
  const part_source src = source_of_part(q, {}, part, piece_bytes, "state_of_file_part");
  const part_reader& in = src.in;
  evaluation_state state(src.options);
  std::uint64_t rows = 0;  // rows of the part read so far: ids from 0 (scale::evaluation_state::offset_row_ids)
  const io::missing_rows missing = in.read(part, [&](io::table&& t) {
    detail::update_with_piece(state, t, in.header.name, rows);
    rows += t.rows;
  });
  // Merged with the states: evaluation_state::missing.
  skipped_rows(q, in, missing, part, [&](std::uint64_t n) { detail::state_access::of(state).missing += n; },
               unrefused);
  return state;
}

void refuse_missing_of_parts(const std::vector<io::missing_rows>& parts, const std::string& source) {
  io::missing_rows all;
  for (const io::missing_rows& m : parts) all.add(m);  // the first row of the first part that has one
  io::refuse_missing(all, source);
}

namespace detail {

sliced_state sliced_state_of_file_part(const report_request& q, const std::vector<std::string>& by,
                                       const file_part& part, std::size_t piece_bytes,
                                       const std::function<void(const sliced_state&, std::uint64_t)>& after_piece,
                                       io::missing_rows* unrefused) {
  const char* fn = "sliced_state_of_file_part";
  // make_sliced_report's refusals of the slice columns, its messages.
  if (by.empty() || by.size() > 2) {
    throw_usage(fmt::format("{}: given {} times; give 1 or 2 slice columns", param("by"), by.size()));
  }
  const part_source src = source_of_part(q, by, part, piece_bytes, fn);
  if (src.by.size() == 2 && src.by[0] == src.by[1]) {
    throw_usage(fmt::format("{}: the two slice columns are the same column ('{}'); give two different columns",
                            param("by"), src.by[0]));
  }
  const part_reader& in = src.in;
  sliced_state state(src.options, src.by);
  std::uint64_t rows = 0;  // rows of the part read so far: ids from 0 (sliced_state::offset_row_ids)
  const std::size_t base = in.specs.size() - by.size();
  std::vector<std::span<const double>> proba;
  std::vector<label_column> keys;
  const io::missing_rows missing = in.read(part, [&](io::table&& t) {
    const row_batch b = batch_of_piece(state.options(), t, rows, proba);
    keys.clear();
    for (std::size_t c = 0; c < by.size(); ++c) {
      const io::column& k = t.columns[base + c];
      keys.push_back(label_column::of_codes(k.codes, k.levels));
    }
    try {
      state.update(b, keys);
    } catch (const error& e) {
      throw error(e.kind(), fmt::format("{}: {}", in.header.name, e.marked()));
    }
    rows += t.rows;
    if (after_piece) {
      // The piece's columns (8 bytes a row per number column, 4 per label column and the labels'
      // levels) and its text (about as many bytes as the piece, given to read_table whole).
      std::uint64_t held = in.piece_bytes;
      for (const io::column& c : t.columns) {
        held += c.numbers.capacity() * sizeof(double) + c.codes.capacity() * sizeof(std::int32_t);
        for (const auto& l : c.levels) held += sizeof l + l.capacity();
      }
      after_piece(state, held);
    }
  });
  skipped_rows(q, in, missing, part, [&](std::uint64_t n) { state.add_missing(n); }, unrefused);
  return state;
}

}  // namespace detail

sliced_state sliced_state_of_file_part(const report_request& q, const std::vector<std::string>& by,
                                       const file_part& part, std::size_t piece_bytes, io::missing_rows* unrefused) {
  return detail::sliced_state_of_file_part(q, by, part, piece_bytes, {}, unrefused);
}

std::optional<ranked_part> ranked_part_of_file(const report_request& q, const file_part& part,
                                               const std::function<bool(std::span<const double>)>& go_on,
                                               std::size_t sample_bytes) {
  const char* fn = "ranked_part_of_file";
  if (!q.score || q.task == task_kind::regression) {
    throw_usage(fmt::format("{}: the request has no score column; the ranges are those of a binary score", fn));
  }
  if (q.ci_level || q.keep_curves || q.constraints.any()) {
    throw_usage(fmt::format("{}: intervals, kept curves and constraints read the score runs, which a ranked part's "
                            "state does not keep", fn));
  }
  const part_source src = source_of_part(q, {}, part, sample_bytes, fn);
  const part_reader& in = src.in;
  // The part's records with one reader over the file (as make_report reads the whole file: no piece
  // copied), the header read first, then the part's bytes only.
  auto read = [&](std::uint64_t end) {
    io::csv_reader reader(q.path, q.csv);
    const std::uint64_t first = std::max(part.begin, reader.offset());
    end = std::max(end, first);
    if (end == first) {  // no records: the columns without rows (read_table refuses a table without rows)
      io::table none;
      none.source = in.header.name;
      for (const io::column_spec& spec : in.specs) {
        io::column c;
        c.name = spec.ref;
        c.type = spec.type;
        none.columns.push_back(std::move(c));
      }
      return none;
    }
    // make_report's readers: the parallel one (a window of the file mapped at a time, as many threads
    // as the team allows; it declines one thread, small ranges and any quote, NUL byte, lone CR or
    // record it would not read exactly as the serial reader), else the serial one.
    io::detail::parallel_settings ps;
    ps.max_threads = assay::detail::team_threads(8);
    ps.max_record_bytes = q.csv.max_record_bytes;
    if (auto t = io::detail::read_range_parallel(q.path, reader, in.specs, first, end, ps, nullptr)) return std::move(*t);
    reader.restrict_to(first, end);
    io::table t = io::read_table(reader, in.specs, true, end - first);  // the columns sized once
    if (reader.saw_quote()) {  // a cut at a line end need not be a record boundary
      throw_data(fmt::format("{}: the file has quote characters; it cannot be cut into parts at line ends (a quoted "
                             "field may hold a line break): read it as one part", in.header.name));
    }
    return t;
  };
  // go_on's sample: the records of about the part's first `sample_bytes` bytes.
  {
    std::ifstream f(q.path, std::ios::binary);
    const std::uint64_t size = fs::file_size(q.path);
    const std::uint64_t want = part.begin + std::min<std::uint64_t>(sample_bytes, part.end - part.begin);
    const std::uint64_t cut = want >= part.end ? part.end : std::min(part.end, after_line_feed(f, want - 1, size, in.header.name));
    const io::table sample = read(cut);
    if (!go_on(sample.columns[1].numbers)) return std::nullopt;
  }
  io::table t = read(part.end);
  if (t.missing.rows > 0 && !q.csv.drop_missing) in.refuse_missing(t.missing, part);
  ranked_part out{evaluation_state(src.options), {}, {}, {}, {}};
  auto& s = detail::state_access::of(out.state);
  s.keep_runs = false;      // the rows go to their ranges instead
  s.calibration = false;    // only kept curves read the reliability sums
  s.one_class_loss = true;  // fill_ranked_state knows every spelling's class
  s.missing = t.missing.rows;  // skipped with drop_missing (refused above otherwise)
  out.spellings = std::move(t.columns[0].levels);
  out.codes = std::move(t.columns[0].codes);
  out.scores = std::move(t.columns[1].numbers);
  if (src.options.weighted) out.weights = std::move(t.columns[2].numbers);
  return out;
}

void check_classes_as_file(const evaluation_state& state, const report_request& q) {
  const state_options& o = state.options();
  if (o.kind != prediction_kind::scores && o.kind != prediction_kind::labels) return;
  const auto [truth, predicted] = detail::spellings_of(detail::state_access::of(state));
  if (truth.empty()) return;
  // The class rules on the union of every part's spellings, in make_report's words (the file and the
  // columns named).
  const prediction_file pf = prediction_file_of(q);
  label_spellings seen;
  seen.truth = truth;
  if (!pf.predictions.empty()) seen.predicted.push_back(predicted);
  seen.score_columns = pf.scores.size();
  (void)decide_classes(std::move(seen), {pf.pos_label, pf.task, pf.classes},
                       {true, o.source, o.label_name, {o.prediction_name}});
}

io::table table_of_file_part(const std::string& path, const io::csv_options& csv,
                             const std::vector<io::column_spec>& specs, const file_part& part, std::size_t piece_bytes) {
  const char* fn = "table_of_file_part";
  if (path == "-") throw_usage(fmt::format("{}: standard input cannot be cut into parts (give a file)", fn));
  check_part(part, fn);
  const part_reader in(path, csv, specs, piece_bytes);
  const header_info& h = in.header;
  // The columns with no rows yet (what a part without rows gives): resolved by name or index as
  // read_table resolves them, whose message a column that does not exist or is ambiguous gets (on
  // every part alike).
  io::table all;
  all.source = h.name;
  for (const io::column_spec& spec : specs) {
    std::size_t at = h.fields.size();
    try {
      at = io::find_column(h.fields, spec.ref, h.name);
    } catch (const error&) {  // ambiguous: read_table's message below
    }
    if (at >= h.fields.size()) {
      (void)in.parse(h.text, h.data_start);
      throw_usage(fmt::format("{}: cannot find the column '{}'", fn, spec.ref));
    }
    io::column c;
    c.name = h.fields[at];
    c.type = spec.type;
    all.columns.push_back(std::move(c));
  }
  const io::missing_rows missing = in.read(part, [&](io::table&& t) { append_rows(all, std::move(t)); });
  all.missing = missing;
  if (!csv.drop_missing) in.refuse_missing(missing, part);
  return all;
}

void check_rows(const io::table& t) {
  if (t.rows > 0) return;
  // (A line 0: not known, e.g. the rows skipped by the parts of a merged state.)
  const std::string line = t.missing.first_line == 0 ? "" : fmt::format(", the first on line {}", t.missing.first_line);
  const std::string left = t.missing.rows == 0 ? ""
                                               : fmt::format(" but rows with a missing value ({} skipped{})",
                                                             t.missing.rows, line);
  throw_data(fmt::format("{}: no data rows after the header{}", t.source, left));
}

void append_rows(io::table& into, io::table&& t) {
  const char* fn = "append_rows";
  if (t.columns.size() != into.columns.size()) {
    throw_usage(fmt::format("{}: the table has {} columns and the rows to append {}", fn, into.columns.size(),
                            t.columns.size()));
  }
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    io::column& a = into.columns[c];
    io::column& b = t.columns[c];
    if (a.type != b.type || a.name != b.name) {
      throw_usage(fmt::format("{}: column {} is '{}' in the table and '{}' in the rows to append", fn, c + 1, a.name,
                              b.name));
    }
    const bool label = a.type == io::column_type::label;
    if ((label ? b.codes.size() : b.numbers.size()) != t.rows) {
      throw_usage(fmt::format("{}: column '{}' of the rows to append has {} entries for {} rows", fn, b.name,
                              label ? b.codes.size() : b.numbers.size(), t.rows));
    }
    if (!label) {
      a.numbers.insert(a.numbers.end(), b.numbers.begin(), b.numbers.end());
      continue;
    }
    // b's levels as codes of a (first-seen order kept: a level new to `into` is appended in b's order,
    // which is its order of first appearance in the rows of both).
    std::unordered_map<std::string, std::int32_t> known;
    for (std::size_t l = 0; l < a.levels.size(); ++l) known.emplace(a.levels[l], static_cast<std::int32_t>(l));
    std::vector<std::int32_t> map(b.levels.size());
    for (std::size_t l = 0; l < b.levels.size(); ++l) {
      const auto [it, fresh] = known.emplace(b.levels[l], static_cast<std::int32_t>(a.levels.size()));
      if (fresh) a.levels.push_back(b.levels[l]);
      map[l] = it->second;
    }
    a.codes.reserve(a.codes.size() + b.codes.size());
    for (const std::int32_t code : b.codes) {
      if (code < 0 || static_cast<std::size_t>(code) >= map.size()) {
        throw_usage(fmt::format("{}: column '{}' of the rows to append has the code {} for {} levels", fn, b.name,
                                code, map.size()));
      }
      a.codes.push_back(map[static_cast<std::size_t>(code)]);
    }
  }
  into.rows += t.rows;
  into.missing.add(t.missing);
}

// ---- a table as bytes --------------------------------------------------------------------------------

namespace {

constexpr char table_magic[8] = {'A', 'S', 'S', 'A', 'Y', 'T', 'B', '\0'};
constexpr std::uint32_t table_format_version = 1;

// Little-endian fixed-width values, and arrays of them (one copy on a little-endian host).
template <class T>
void put(std::string& out, const T* v, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + n * sizeof(T));
  if constexpr (std::endian::native == std::endian::little) {
    if (n > 0) std::memcpy(out.data() + at, v, n * sizeof(T));
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      auto u = std::bit_cast<std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>>(v[i]);
      for (std::size_t k = 0; k < sizeof(T); ++k) out[at + i * sizeof(T) + k] = static_cast<char>((u >> (8 * k)) & 0xff);
    }
  }
}
void put_u64(std::string& out, std::uint64_t v) { put(out, &v, 1); }
void put_str(std::string& out, std::string_view s) {
  put_u64(out, s.size());
  out.append(s);
}

struct table_reader {
  std::string_view in;
  std::size_t at = 0;
  [[noreturn]] static void malformed(const std::string& what) {
    throw_data(fmt::format("read_table_bytes: the bytes are not a table: {}", what));
  }
  void need(std::uint64_t n) {
    if (in.size() - at < n) malformed("they end early (truncated)");
  }
  template <class T>
  void get(T* v, std::uint64_t n) {
    if (n > (in.size() - at) / sizeof(T)) malformed("they end early (truncated)");
    if constexpr (std::endian::native == std::endian::little) {
      if (n > 0) std::memcpy(v, in.data() + at, n * sizeof(T));
    } else {
      using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
      for (std::size_t i = 0; i < n; ++i) {
        U u = 0;
        for (std::size_t k = 0; k < sizeof(T); ++k) {
          u |= static_cast<U>(static_cast<unsigned char>(in[at + i * sizeof(T) + k])) << (8 * k);
        }
        v[i] = std::bit_cast<T>(u);
      }
    }
    at += n * sizeof(T);
  }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    get(&v, 1);
    return v;
  }
  std::uint8_t u8() {
    need(1);
    return static_cast<std::uint8_t>(in[at++]);
  }
  std::string str() {
    const std::uint64_t n = u64();
    need(n);
    std::string s(in.substr(at, n));
    at += n;
    return s;
  }
};

}  // namespace

std::string serialize_table(const io::table& t) {
  std::string out(table_magic, sizeof table_magic);
  const std::uint32_t version = table_format_version;
  put(out, &version, 1);
  put_str(out, t.source);
  put_u64(out, t.rows);
  put_u64(out, t.columns.size());
  for (const io::column& c : t.columns) {
    put_str(out, c.name);
    out.push_back(static_cast<char>(c.type));
    if (c.type == io::column_type::label) {
      if (c.codes.size() != t.rows) throw_usage(fmt::format("serialize_table: column '{}' has {} codes for {} rows", c.name, c.codes.size(), t.rows));
      put_u64(out, c.levels.size());
      for (const std::string& l : c.levels) put_str(out, l);
      put(out, c.codes.data(), c.codes.size());
    } else {
      if (c.numbers.size() != t.rows) throw_usage(fmt::format("serialize_table: column '{}' has {} numbers for {} rows", c.name, c.numbers.size(), t.rows));
      put(out, c.numbers.data(), c.numbers.size());
    }
  }
  put_u64(out, t.missing.rows);
  put_u64(out, t.missing.first_line);
  put_str(out, t.missing.first_column);
  return out;
}

io::table read_table_bytes(std::string_view bytes) {
  table_reader r{bytes};
  r.need(sizeof table_magic);
  if (bytes.substr(0, sizeof table_magic) != std::string_view(table_magic, sizeof table_magic)) {
    r.malformed("no table magic");
  }
  r.at = sizeof table_magic;
  std::uint32_t version = 0;
  r.get(&version, 1);
  if (version != table_format_version) {
    r.malformed(fmt::format("format version {}; this assay reads version {}", version, table_format_version));
  }
  io::table t;
  t.source = r.str();
  const std::uint64_t rows = r.u64(), columns = r.u64();
  if (columns > bytes.size()) r.malformed("more columns than bytes");
  t.rows = static_cast<std::size_t>(rows);
  for (std::uint64_t k = 0; k < columns; ++k) {
    io::column c;
    c.name = r.str();
    const std::uint8_t type = r.u8();
    if (type > static_cast<std::uint8_t>(io::column_type::label)) r.malformed(fmt::format("column type {}", type));
    c.type = static_cast<io::column_type>(type);
    if (c.type == io::column_type::label) {
      const std::uint64_t levels = r.u64();
      if (levels > (bytes.size() - r.at) / 8 || levels > std::uint64_t{INT32_MAX}) r.malformed("more levels than bytes");
      c.levels.reserve(levels);
      for (std::uint64_t l = 0; l < levels; ++l) c.levels.push_back(r.str());
      if (rows > (bytes.size() - r.at) / 4) r.malformed("they end early (truncated)");
      c.codes.resize(rows);
      r.get(c.codes.data(), rows);
      for (const std::int32_t code : c.codes) {
        if (code < 0 || static_cast<std::uint64_t>(code) >= levels) {
          r.malformed(fmt::format("column '{}' has the code {} for {} levels", c.name, code, levels));
        }
      }
    } else {
      if (rows > (bytes.size() - r.at) / 8) r.malformed("they end early (truncated)");
      c.numbers.resize(rows);
      r.get(c.numbers.data(), rows);
    }
    t.columns.push_back(std::move(c));
  }
  t.missing.rows = r.u64();
  t.missing.first_line = r.u64();
  t.missing.first_column = r.str();
  if (r.at != bytes.size()) r.malformed(fmt::format("{} bytes after the end", bytes.size() - r.at));
  return t;
}

}  // namespace assay::scale
