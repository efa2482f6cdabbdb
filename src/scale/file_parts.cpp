// A prediction file cut into parts and the evaluation state of one part; see
// include/assay/scale/file_parts.hpp and docs/scaling.md ("MPI").
#include "assay/scale/file_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "assay/data/predictions.hpp"
#include "assay/error.hpp"
#include "piece_lines.hpp"
#include "state_impl.hpp"
#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"

namespace assay::scale {

namespace {

namespace fs = std::filesystem;

// What the state evaluates; the same refusals as the out-of-core reader, for the same reasons.
void check_supported(const report_request& q, const char* fn) {
  if (q.task == task_kind::regression) throw_usage(fmt::format("{}: regression is not evaluated by parts yet", fn));
  if (q.ci_level) throw_usage(fmt::format("{}: intervals are not computed by parts yet", fn));
  if (q.keep_curves) throw_usage(fmt::format("{}: curves are not kept by parts yet", fn));
  if (q.path == "-") throw_usage(fmt::format("{}: standard input cannot be cut into parts (give a file)", fn));
  if ((q.score ? 1 : 0) + (q.pred ? 1 : 0) + (q.proba.empty() ? 0 : 1) != 1) {
    throw_usage(fmt::format("{}: give exactly one of a score column, a predicted-class column and class-probability "
                            "columns", fn));
  }
}

// The header's bytes (as the CSV reader reads them: byte-order mark, delimiter detection), ended by a
// line feed, the first data byte and the reader's display name.
struct header_info {
  std::vector<std::string> fields;
  std::string text;
  std::uint64_t data_start = 0;
  std::string name;
};

header_info read_header(const report_request& q) {
  header_info h;
  {
    io::csv_reader head(q.path, q.csv);
    h.data_start = head.offset();
    h.name = head.name();
    h.fields = head.header();
  }
  std::ifstream f(q.path, std::ios::binary);
  if (!f) throw_io(fmt::format("{}: cannot open {}", q.path, q.path));
  h.text.assign(h.data_start, '\0');
  f.read(h.text.data(), static_cast<std::streamsize>(h.data_start));
  if (static_cast<std::uint64_t>(f.gcount()) != h.data_start) throw_io(fmt::format("{}: cannot read its header", h.name));
  if (!h.text.empty() && h.text.back() != '\n') h.text.push_back('\n');
  return h;
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


}  // namespace

file_part part_of_file(const report_request& q, std::size_t index, std::size_t count) {
  const char* fn = "part_of_file";
  if (q.path == "-") throw_usage(fmt::format("{}: standard input cannot be cut into parts (give a file)", fn));
  if (count == 0 || index >= count) {
    throw_usage(fmt::format("{}: index is {} and count is {}; index must be below count", fn, index, count));
  }
  const header_info h = read_header(q);
  std::error_code ec;
  const std::uint64_t size = fs::file_size(q.path, ec);
  if (ec) throw_io(fmt::format("{}: cannot read its size: {}", h.name, ec.message()));
  const std::uint64_t d = std::min(h.data_start, size), data = size - d;
  std::ifstream f(q.path, std::ios::binary);
  if (!f) throw_io(fmt::format("{}: cannot open {}", q.path, q.path));
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

evaluation_state state_of_file_part(const report_request& q, const file_part& part, std::size_t piece_bytes) {
  const char* fn = "state_of_file_part";
  const prediction_file pf = prediction_file_of(q);  // make_report's checks of the request, its messages
  check_supported(q, fn);
  if (part.begin > part.end) {
    throw_usage(fmt::format("{}: the part begins at byte {}, after its end {}", fn, part.begin, part.end));
  }
  piece_bytes = std::max<std::size_t>(piece_bytes, 4096);
  const header_info h = read_header(q);
  const std::vector<io::column_spec> specs = column_specs(pf);
  io::csv_options csv = q.csv;
  csv.chunk_bytes = std::min<std::size_t>(csv.chunk_bytes, std::max<std::size_t>(piece_bytes / 4, 1 << 16));
  auto parse = [&](std::string text, std::uint64_t first_byte) {
    try {
      io::csv_reader reader = io::csv_reader::from_string(std::move(text), q.path, csv);
      return io::read_table(reader, specs, true);  // rows with an empty cell: counted, refused below
    } catch (const error& e) {
      // Line numbers of the file: the data lines before this piece are counted only now (a failure).
      detail::rethrow_with_line(e, h.name, lines_in(q.path, h.data_start, first_byte));
    }
  };

  // The columns' header names, for the report's header (as read_predictions names them).
  state_options so = detail::state_options_of(q, h.name);
  {
    // The prediction column (scores, predicted classes) or the probability columns (after the weight).
    const std::size_t first = so.kind == prediction_kind::proba ? (so.weighted ? 2 : 1) : 1;
    const std::size_t count = so.kind == prediction_kind::proba ? q.proba.size() : 1;
    std::size_t label = h.fields.size(), prediction = h.fields.size();
    std::vector<std::size_t> columns;
    try {
      label = io::find_column(h.fields, specs[0].ref, h.name);
      for (std::size_t k = 0; k < count; ++k) columns.push_back(io::find_column(h.fields, specs[first + k].ref, h.name));
      prediction = *std::max_element(columns.begin(), columns.end());
    } catch (const error&) {  // an ambiguous name: read_table's message below
    }
    if (std::max(label, prediction) >= h.fields.size()) {
      // read_table resolves the columns before it reads rows: its message for a column that does
      // not exist or is ambiguous.
      (void)parse(h.text, h.data_start);
      throw_usage(fmt::format("{}: cannot find the label or prediction column", fn));
    }
    so.label_name = h.fields[label];
    if (so.kind == prediction_kind::proba) {
      for (auto c : columns) so.proba_names.push_back(h.fields[c]);
    } else {
      so.prediction_name = h.fields[prediction];
    }
  }
  evaluation_state state(so);

  std::ifstream file(q.path, std::ios::binary);
  if (!file) throw_io(fmt::format("{}: cannot open {}", q.path, q.path));
  file.seekg(static_cast<std::streamoff>(part.begin));
  std::string carry, piece;
  std::uint64_t at = part.begin;  // the file's next unread byte
  std::uint64_t carry_from = part.begin;  // the file offset of carry's first byte
  std::uint64_t rows = 0;  // rows of the part read so far: ids from 0 (scale::evaluation_state::offset_row_ids)
  io::missing_rows missing;  // of this part
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
      if (missing.rows == 0) t.missing.first_line += lines_in(q.path, h.data_start, first_byte);
      missing.add(t.missing);
    }
    detail::update_with_piece(state, t, h.name, rows);
    rows += t.rows;
  }
  if (q.csv.drop_missing) {
    detail::state_access::of(state).missing += missing.rows;  // merged with the states: evaluation_state::missing
  } else if (missing.rows > 0) {
    const bool whole = part.begin <= h.data_start && part.end >= fs::file_size(q.path);
    io::refuse_missing(missing, h.name, whole ? "" : fmt::format(" in bytes {} to {} (this part)", part.begin, part.end));
  }
  return state;
}

}  // namespace assay::scale
