// Typed column extraction; see include/assay/io/table.hpp.
#include "assay/io/table.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>
#include <fast_float/fast_float.h>
#include <fmt/format.h>

#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"
#include "assay/io/text.hpp"
#include "decimal.hpp"
#include "value_rules.hpp"
#include "interner.hpp"
#include "parallel_table.hpp"

namespace assay::io {

bool parse_double(std::string_view field, double& out) noexcept {
  const char* b = field.data();
  const char* e = b + field.size();
  while (b < e && (*b == ' ' || *b == '\t')) ++b;
  while (e > b && (e[-1] == ' ' || e[-1] == '\t')) --e;
  if (b == e) return false;
  if (*b == '+') {  // fast_float, like from_chars, refuses a leading plus; accept one, never "+-1" or "++1"
    ++b;
    if (b == e || *b == '-' || *b == '+') return false;
  }
  // The common plain decimal first: the same double as fast_float's (src/io/decimal.hpp).
  if (detail::parse_decimal(b, e, out, detail::rounds_to_nearest()) == e) return true;
  auto r = fast_float::from_chars(b, e, out);
  return r.ec == std::errc() && r.ptr == e;
}

std::size_t find_column(const std::vector<std::string>& header, std::string_view ref, std::string_view where) {
  std::size_t found = header.size();
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] != ref) continue;
    if (found < header.size()) {
      throw_usage(fmt::format("{}: column {} is ambiguous: header columns {} and {} both have that name", where,
                              quote_text(ref), found + 1, i + 1));
    }
    found = i;
  }
  if (found == header.size() && !ref.empty() && ref.size() < 10 &&
      ref.find_first_not_of("0123456789") == std::string_view::npos) {
    std::size_t idx = 0;
    for (char c : ref) idx = idx * 10 + static_cast<std::size_t>(c - '0');
    if (idx >= 1 && idx <= header.size()) found = idx - 1;
  }
  return found;
}

void missing_rows::add(const missing_rows& later) {
  if (later.rows == 0) return;
  if (rows == 0) {
    first_line = later.first_line;
    first_column = later.first_column;
  }
  rows += later.rows;
}

void refuse_missing(const missing_rows& m, const std::string& source, std::string_view scope, bool offer_drop) {
  if (m.rows == 0) return;
  throw_data(fmt::format("{}:{}: column '{}': empty cell; {} row{}{} {} a missing value (an empty cell in a column that "
                         "is read), this is the first; fill or remove them{}",
                         source, m.first_line, m.first_column, m.rows, m.rows == 1 ? "" : "s", scope,
                         m.rows == 1 ? "has" : "have",
                         offer_drop ? ", or skip them with " + param("drop_missing") : std::string()));
}

namespace {

std::size_t resolve(const csv_reader& reader, const column_spec& spec) {
  const auto& header = reader.header();
  const std::string who = spec.option.empty() ? std::string() : spec.option + ": ";
  const std::string where = who + reader.name();
  const std::size_t found = find_column(header, spec.ref, where);
  if (found < header.size()) {
    // The name is kept (it names the column in every output): the header's line in the message.
    require_utf8(header[found], fmt::format("{}:{}", where, reader.line()), fmt::format("the name of column {}", found + 1));
    return found;
  }
  if (spec.ref.size() < 10 && !spec.ref.empty() && spec.ref.find_first_not_of("0123456789") == std::string::npos) {
    throw_usage(fmt::format("{}: column index {} is out of range (the file has {} columns)", where, spec.ref,
                            header.size()));
  }
  std::string names;
  for (std::size_t i = 0; i < header.size() && i < 20; ++i) names += (i ? ", " : "") + quote_text(header[i]);
  if (header.size() > 20) names += ", ...";
  throw_usage(fmt::format("{}{}: no column named {} (columns: {})", who, reader.name(), quote_text(spec.ref), names));
}

// The number in cell `f` of column c on line `line`, checked against the column's rules (throws
// assay::error naming the file, line, column and value).
double checked_number(const table& t, const column& c, std::string_view f, std::size_t line) {
  double x;
  if (!parse_double(f, x)) {
    throw_data(fmt::format("{}:{}: column '{}': cannot parse {} as a number", t.source, line, c.name, quote_text(f)));
  }
  switch (detail::broken_rule(c.type, x)) {
    case detail::value_rule::ok: break;
    case detail::value_rule::not_finite:
      throw_data(fmt::format("{}:{}: column '{}': value {} is not a finite number", t.source, line, c.name,
                             quote_text(f)));
    case detail::value_rule::negative_weight:
      throw_data(fmt::format("{}:{}: column '{}': weight {} is negative (weights must be >= 0)", t.source, line,
                             c.name, quote_text(f)));
    case detail::value_rule::outside_unit:
      throw_data(fmt::format("{}:{}: column '{}': probability {} is outside [0, 1]", t.source, line, c.name,
                             quote_text(f)));
  }
  return x;
}

// Appends every remaining record of `reader` to the columns of `t`. `expected_bytes`, when known,
// sizes the columns up front (from the bytes per row of the first rows) so that they do not grow by
// doubling, which would cost up to twice their size in memory.
void parse_rows(csv_reader& reader, const std::vector<std::size_t>& index, table& t, std::uint64_t expected_bytes) {
  std::vector<detail::interner> interners;
  interners.reserve(t.columns.size());
  for (auto& c : t.columns) interners.emplace_back(c);
  const std::uint64_t start = reader.offset();
  std::vector<std::string_view> fields;
  while (reader.next(fields)) {
    // A row with an empty cell in a column read is skipped whole (counted in t.missing), after the
    // other cells are checked: any other problem of the row is an error, missing value or not.
    std::size_t empty = index.size();
    for (std::size_t k = 0; k < index.size(); ++k) {
      if (fields[index[k]].empty() && empty == index.size()) empty = k;
    }
    if (empty < index.size()) {
      for (std::size_t k = 0; k < index.size(); ++k) {
        const std::string_view f = fields[index[k]];
        const column& c = t.columns[k];
        if (f.empty()) continue;
        if (c.type == column_type::label) {
          // Checked, not interned: a label seen only on skipped rows is no class.
          require_utf8(f, fmt::format("{}:{}: column '{}'", t.source, reader.line(), c.name), "label");
        } else {
          (void)checked_number(t, c, f, reader.line());
        }
      }
      if (t.missing.rows++ == 0) {
        t.missing.first_line = reader.line();
        t.missing.first_column = t.columns[empty].name;
      }
      continue;
    }
    for (std::size_t k = 0; k < index.size(); ++k) {
      std::string_view f = fields[index[k]];
      column& c = t.columns[k];
      if (c.type == column_type::label) {
        const std::int32_t code = interners[k].code(f);
        if (code < 0) require_utf8(f, fmt::format("{}:{}: column '{}'", t.source, reader.line(), c.name), "label");
        c.codes.push_back(code);
        continue;
      }
      c.numbers.push_back(checked_number(t, c, f, reader.line()));
    }
    ++t.rows;
    if (t.rows == 4096 && expected_bytes > 0) {
      const double per_row = static_cast<double>(reader.offset() - start) / 4096.0;
      const auto rows = static_cast<std::size_t>(static_cast<double>(expected_bytes) / per_row * 1.02) + 4096;
      for (auto& c : t.columns) (c.type == column_type::label ? c.codes.reserve(rows) : c.numbers.reserve(rows));
    }
  }
}

// The end of the message for a table without rows: why, when every row had a missing value.
std::string no_rows_left(const table& t) {
  if (t.missing.rows == 0) return "";
  return fmt::format(" but rows with a missing value ({} skipped, the first on line {})", t.missing.rows,
                     t.missing.first_line);
}

table empty_table(const csv_reader& reader, const std::vector<column_spec>& specs, std::vector<std::size_t>& index) {
  table t;
  t.source = reader.name();
  index.clear();
  for (const auto& s : specs) {
    index.push_back(resolve(reader, s));
    column c;
    c.name = reader.header()[index.back()];
    c.type = s.type;
    t.columns.push_back(std::move(c));
  }
  return t;
}

}  // namespace

table read_table(const std::string& path, const std::vector<column_spec>& specs, const csv_options& options) {
  csv_reader reader(path, options);
  std::vector<std::size_t> index;
  table t = empty_table(reader, specs, index);  // resolves the columns first: a wrong name is a usage error
  detail::parallel_settings settings;
  settings.max_threads = assay::detail::team_threads(8);  // within the thread cap (threads.hpp)
  settings.max_record_bytes = options.max_record_bytes;
  settings.drop_missing = options.drop_missing;
  if (auto p = detail::read_parallel(path, reader, t, index, settings)) return std::move(*p);
  std::uint64_t bytes = 0;  // lets parse_rows size the columns once
  struct stat st {};
  if (path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    bytes = static_cast<std::uint64_t>(st.st_size) - std::min<std::uint64_t>(reader.offset(), static_cast<std::uint64_t>(st.st_size));
  }
  parse_rows(reader, index, t, bytes);
  if (!options.drop_missing) refuse_missing(t.missing, t.source);
  if (t.rows == 0) throw_data(fmt::format("{}: no data rows after the header{}", t.source, no_rows_left(t)));
  return t;
}

std::optional<table> detail::read_range_parallel(const std::string& path, const csv_reader& head,
                                                 const std::vector<column_spec>& specs, std::uint64_t first_byte,
                                                 std::uint64_t last_byte, parallel_settings settings,
                                                 std::uint64_t* line_feeds) {
  if (first_byte >= last_byte) return std::nullopt;
  std::vector<std::size_t> index;
  table shape;
  try {
    shape = empty_table(head, specs, index);
  } catch (const error&) {  // a column that does not resolve: the serial reader's message
    return std::nullopt;
  }
  settings.first_byte = first_byte;
  settings.last_byte = last_byte;
  settings.drop_missing = true;
  return read_parallel(path, head, shape, index, settings, line_feeds);
}

table read_table(csv_reader& reader, const std::vector<column_spec>& specs, bool drop_missing,
                 std::uint64_t expected_bytes) {
  std::vector<std::size_t> index;
  table t = empty_table(reader, specs, index);
  parse_rows(reader, index, t, expected_bytes);
  if (!drop_missing) refuse_missing(t.missing, t.source, {}, false);
  // A piece of a file (drop_missing) may hold only missing rows: its caller counts them.
  if (t.rows == 0 && !(drop_missing && t.missing.rows > 0)) {
    throw_data(fmt::format("{}: no data rows after the header{}", t.source, no_rows_left(t)));
  }
  return t;
}

}  // namespace assay::io
