// Typed column extraction; see include/assay/io/table.hpp.
#include "assay/io/table.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <fast_float/fast_float.h>
#include <fmt/format.h>
#include <unordered_map>

#include "assay/error.hpp"

namespace assay::io {

bool parse_double(std::string_view field, double& out) noexcept {
  const char* b = field.data();
  const char* e = b + field.size();
  while (b < e && (*b == ' ' || *b == '\t')) ++b;
  while (e > b && (e[-1] == ' ' || e[-1] == '\t')) --e;
  if (b == e) return false;
  if (*b == '+') ++b;  // fast_float, like from_chars, refuses a leading plus
  auto r = fast_float::from_chars(b, e, out);
  return r.ec == std::errc() && r.ptr == e;
}

namespace {

std::string preview(std::string_view s) {
  constexpr std::size_t max_len = 40;
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size() && i < max_len; ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '"') out += "\\\"";
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += static_cast<char>(c);
  }
  if (s.size() > max_len) out += "...";
  return out + "\"";
}

std::size_t resolve(const csv_reader& reader, const column_spec& spec) {
  const auto& header = reader.header();
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == spec.ref) return i;
  }
  const std::string who = spec.option.empty() ? std::string() : spec.option + ": ";
  bool digits = !spec.ref.empty() && spec.ref.size() < 10 &&
                spec.ref.find_first_not_of("0123456789") == std::string::npos;
  if (digits) {
    std::size_t idx = std::stoul(spec.ref);
    if (idx >= 1 && idx <= header.size()) return idx - 1;
    throw_usage(fmt::format("{}{}: column index {} is out of range (the file has {} columns)", who, reader.name(),
                            spec.ref, header.size()));
  }
  std::string names;
  for (std::size_t i = 0; i < header.size() && i < 20; ++i) names += (i ? ", " : "") + preview(header[i]);
  if (header.size() > 20) names += ", ...";
  throw_usage(fmt::format("{}{}: no column named {} (columns: {})", who, reader.name(), preview(spec.ref), names));
}

// Interns label strings; a handful of levels is the common case, so a short linear scan with a
// one-entry cache beats hashing until the dictionary grows.
class interner {
 public:
  explicit interner(column& c) : col_(c) {}
  std::int32_t code(std::string_view s) {
    // Hot path: the same label as the previous row.
    if (last_ >= 0 && same(col_.levels[static_cast<std::size_t>(last_)], s)) return last_;
    return slow(s);
  }

 private:
  // Labels are short: an inline comparison beats a call to memcmp per cell (which cost ~7% of a
  // 10^7-row read).
  static bool same(const std::string& level, std::string_view s) noexcept {
    if (level.size() != s.size()) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (level[i] != s[i]) return false;
    }
    return true;
  }
  std::int32_t remember(std::int32_t c) { return last_ = c; }
  std::int32_t slow(std::string_view s) {
    if (col_.levels.size() <= 16) {
      for (std::size_t i = 0; i < col_.levels.size(); ++i) {
        if (same(col_.levels[i], s)) return remember(static_cast<std::int32_t>(i));
      }
    } else {
      if (auto it = map_.find(s); it != map_.end()) return remember(it->second);
    }
    auto c = static_cast<std::int32_t>(col_.levels.size());
    col_.levels.emplace_back(s);
    if (col_.levels.size() > 16) {
      if (map_.empty()) {
        for (std::size_t i = 0; i < col_.levels.size(); ++i) map_.emplace(col_.levels[i], static_cast<std::int32_t>(i));
      } else {
        map_.emplace(col_.levels.back(), c);
      }
    }
    return remember(c);
  }

  column& col_;
  std::int32_t last_ = -1;
  struct hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::int32_t, hash, std::equal_to<>> map_;
};

// Reads the columns; `file_bytes` (0 if unknown) lets the column vectors be reserved once, from the
// average record size of the first rows, instead of growing by doubling (which copies every column
// about twice and briefly holds old and new arrays together).
table read_columns(csv_reader& reader, const std::vector<column_spec>& specs, std::size_t file_bytes) {
  table t;
  t.source = reader.name();
  std::vector<std::size_t> index;
  for (const auto& s : specs) {
    index.push_back(resolve(reader, s));
    column c;
    c.name = reader.header()[index.back()];
    c.type = s.type;
    t.columns.push_back(std::move(c));
  }
  std::vector<interner> interners;
  interners.reserve(specs.size());
  for (auto& c : t.columns) interners.emplace_back(c);

  constexpr std::size_t sample_rows = 4096;
  std::size_t sample_bytes = 0;
  std::vector<std::string_view> fields;
  while (reader.next(fields)) {
    if (file_bytes > 0 && t.rows < sample_rows) {
      for (auto f : fields) sample_bytes += f.size() + 1;  // + the delimiter or line end
      if (t.rows + 1 == sample_rows) {
        const double per_row = static_cast<double>(sample_bytes) / static_cast<double>(sample_rows);
        const auto expect = static_cast<std::size_t>(static_cast<double>(file_bytes) / per_row * 1.02) + sample_rows;
        for (auto& c : t.columns) {
          if (c.type == column_type::label) c.codes.reserve(expect);
          else c.numbers.reserve(expect);
        }
      }
    }
    for (std::size_t k = 0; k < specs.size(); ++k) {
      std::string_view f = fields[index[k]];
      column& c = t.columns[k];
      if (c.type == column_type::label) {
        if (f.empty()) {
          throw_data(fmt::format("{}:{}: column '{}': empty label", t.source, reader.line(), c.name));
        }
        c.codes.push_back(interners[k].code(f));
        continue;
      }
      double x;
      if (!parse_double(f, x)) {
        throw_data(fmt::format("{}:{}: column '{}': cannot parse {} as a number", t.source, reader.line(), c.name,
                               preview(f)));
      }
      if (!std::isfinite(x)) {
        throw_data(fmt::format("{}:{}: column '{}': value {} is not a finite number", t.source, reader.line(), c.name,
                               preview(f)));
      }
      if (c.type == column_type::weight && x < 0) {
        throw_data(fmt::format("{}:{}: column '{}': weight {} is negative (weights must be >= 0)", t.source,
                               reader.line(), c.name, preview(f)));
      }
      if (c.type == column_type::probability && !(x >= 0 && x <= 1)) {
        throw_data(fmt::format("{}:{}: column '{}': probability {} is outside [0, 1]", t.source, reader.line(), c.name,
                               preview(f)));
      }
      c.numbers.push_back(x);
    }
    ++t.rows;
  }
  if (t.rows == 0) throw_data(fmt::format("{}: no data rows after the header", t.source));
  return t;
}

}  // namespace

table read_table(const std::string& path, const std::vector<column_spec>& specs, const csv_options& options) {
  csv_reader reader(path, options);
  std::size_t bytes = 0;
  struct stat st {};
  if (path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    bytes = static_cast<std::size_t>(st.st_size);
  }
  return read_columns(reader, specs, bytes);
}

table read_table(csv_reader& reader, const std::vector<column_spec>& specs) { return read_columns(reader, specs, 0); }

}  // namespace assay::io
