// Typed column extraction; see include/assay/io/table.hpp.
#include "assay/io/table.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <thread>
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
  if (*b == '+') {  // fast_float, like from_chars, refuses a leading plus; accept one, never "+-1" or "++1"
    ++b;
    if (b == e || *b == '-' || *b == '+') return false;
  }
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

// Appends every remaining record of `reader` to the columns of `t`. `expected_bytes`, when known,
// sizes the columns up front (from the bytes per row of the first rows) so that they do not grow by
// doubling, which would cost up to twice their size in memory.
void parse_rows(csv_reader& reader, const std::vector<std::size_t>& index, table& t, std::uint64_t expected_bytes) {
  std::vector<interner> interners;
  interners.reserve(t.columns.size());
  for (auto& c : t.columns) interners.emplace_back(c);
  const std::uint64_t start = reader.offset();
  std::vector<std::string_view> fields;
  while (reader.next(fields)) {
    for (std::size_t k = 0; k < index.size(); ++k) {
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
    if (t.rows == 4096 && expected_bytes > 0) {
      const double per_row = static_cast<double>(reader.offset() - start) / 4096.0;
      const auto rows = static_cast<std::size_t>(static_cast<double>(expected_bytes) / per_row * 1.02) + 4096;
      for (auto& c : t.columns) (c.type == column_type::label ? c.codes.reserve(rows) : c.numbers.reserve(rows));
    }
  }
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

// Appends `part` to `t`, mapping the part's label codes into t's levels (first-seen order is kept:
// parts come in file order).
void append(table& t, table& part) {
  for (std::size_t k = 0; k < t.columns.size(); ++k) {
    column& c = t.columns[k];
    column& p = part.columns[k];
    if (c.type != column_type::label) {
      c.numbers.insert(c.numbers.end(), p.numbers.begin(), p.numbers.end());
      std::vector<double>().swap(p.numbers);
      continue;
    }
    std::vector<std::int32_t> map(p.levels.size());
    for (std::size_t i = 0; i < p.levels.size(); ++i) {
      auto it = std::find(c.levels.begin(), c.levels.end(), p.levels[i]);
      map[i] = static_cast<std::int32_t>(it - c.levels.begin());
      if (it == c.levels.end()) c.levels.push_back(p.levels[i]);
    }
    const std::size_t old = c.codes.size();
    c.codes.resize(old + p.codes.size());
    for (std::size_t i = 0; i < p.codes.size(); ++i) c.codes[old + i] = map[static_cast<std::size_t>(p.codes[i])];
    std::vector<std::int32_t>().swap(p.codes);
  }
  t.rows += part.rows;
}

// Reads a large regular file in parallel: the data is cut into byte ranges at line ends and each
// range is parsed by its own thread. Valid only when no field is quoted (a line end inside quotes
// would be a false cut), so any quote, or any error, makes it give up and return nothing: the caller
// then reads serially, which also gives errors their exact line numbers.
std::optional<table> read_parallel(const std::string& path, csv_reader& head, const std::vector<column_spec>& specs) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  const std::uint64_t first = head.offset(), size = static_cast<std::uint64_t>(st.st_size);
  constexpr std::uint64_t min_bytes_per_thread = std::uint64_t{8} << 20;
  if (head.saw_quote() || size <= first + 2 * min_bytes_per_thread) return std::nullopt;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const auto threads = static_cast<std::size_t>(std::min<std::uint64_t>(std::min(hw, 8u), (size - first) / min_bytes_per_thread));
  if (threads < 2) return std::nullopt;

  // Cut points: just after the first line feed at or after each even share.
  std::vector<std::uint64_t> cut{first};
  {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    char buf[4096];
    for (std::size_t k = 1; k < threads; ++k) {
      std::uint64_t pos = std::max(cut.back(), first + (size - first) * k / threads);
      for (;;) {
        ssize_t got = ::pread(fd, buf, sizeof buf, static_cast<off_t>(pos));
        if (got <= 0) {
          pos = size;
          break;
        }
        const void* nl = std::memchr(buf, '\n', static_cast<std::size_t>(got));
        if (nl != nullptr) {
          pos += static_cast<std::uint64_t>(static_cast<const char*>(nl) - buf) + 1;
          break;
        }
        pos += static_cast<std::uint64_t>(got);
      }
      cut.push_back(pos);
    }
    ::close(fd);
    cut.push_back(size);
  }

  std::vector<std::size_t> index;
  std::vector<table> parts(threads);
  for (auto& p : parts) p = empty_table(head, specs, index);
  std::atomic<bool> failed{false};
  auto work = [&](std::size_t k) {
    try {
      csv_reader r = csv_reader::range(path, head, cut[k], cut[k + 1]);
      parse_rows(r, index, parts[k], cut[k + 1] - cut[k]);
      if (r.saw_quote()) failed = true;
    } catch (const std::exception&) {
      failed = true;
    }
  };
  {
    std::vector<std::jthread> pool;
    for (std::size_t k = 1; k < threads; ++k) pool.emplace_back(work, k);
    work(0);
  }
  if (failed) return std::nullopt;
  table t = std::move(parts[0]);
  std::size_t total = 0;
  for (const auto& p : parts) total += p.rows;
  for (auto& c : t.columns) (c.type == column_type::label ? c.codes.reserve(total) : c.numbers.reserve(total));
  for (std::size_t k = 1; k < threads; ++k) append(t, parts[k]);
  if (t.rows == 0) return std::nullopt;
  t.threads = threads;
  return t;
}

}  // namespace

table read_table(const std::string& path, const std::vector<column_spec>& specs, const csv_options& options) {
  csv_reader reader(path, options);
  std::vector<std::size_t> index;
  table t = empty_table(reader, specs, index);  // resolves the columns first: a wrong name is a usage error
  if (auto p = read_parallel(path, reader, specs)) return std::move(*p);
  std::uint64_t bytes = 0;  // lets parse_rows size the columns once
  struct stat st {};
  if (path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    bytes = static_cast<std::uint64_t>(st.st_size) - std::min<std::uint64_t>(reader.offset(), static_cast<std::uint64_t>(st.st_size));
  }
  parse_rows(reader, index, t, bytes);
  if (t.rows == 0) throw_data(fmt::format("{}: no data rows after the header", t.source));
  return t;
}

table read_table(csv_reader& reader, const std::vector<column_spec>& specs) {
  std::vector<std::size_t> index;
  table t = empty_table(reader, specs, index);
  parse_rows(reader, index, t, 0);
  if (t.rows == 0) throw_data(fmt::format("{}: no data rows after the header", t.source));
  return t;
}

}  // namespace assay::io
