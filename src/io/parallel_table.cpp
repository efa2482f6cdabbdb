// The parallel reader of large regular files; see parallel_table.hpp.
//
// The file is cut just after a line feed into one byte range per thread, and each range is mapped a
// window of 32 MiB at a time (or, with use_mmap off, read with pread in pieces that end at a line
// feed; a map that fails gives up, and the serial reader takes over). Three passes, each on all threads:
// (1) count the line feeds of each range and look for quotes, NUL bytes and lone CRs; (2) allocate every
// column once, for the sum of the counts (an upper bound on the rows); (3) parse each range
// straight into its rows of the columns. A range yields fewer rows than line feeds only when it
// holds blank lines; the rows are then moved down once at the end. Label codes are per range:
// the first rows of the file are read before the threads start, every range starts from the
// levels seen there, and at the end the codes of a range are rewritten only if its levels do not
// begin as the table's (first-seen order in the file).
//
// The per-record path handles only what the serial reader accepts without an error, and checks it
// byte for byte the same way: the same field cuts (delimiter, line feed, one '\r' dropped before
// the line feed of the last field), blank lines skipped, the same number parser and the same
// checks. Anything else gives up, and read_table then reads serially and reports the problem with
// its line number.
//
// On the 10^7-row `label,score` file of bench/bench_io.cpp (213 MB, 2 cores) the passes take about
// 13, 29 and 100 ms, ~150 ms in all; the serial reader takes ~500 ms and the former parallel reader
// (a csv_reader per range, then the parts appended) took ~300 ms.
#include "parallel_table.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "decimal.hpp"
#include "interner.hpp"
#include "value_rules.hpp"

namespace assay::io::detail {
namespace {

constexpr std::size_t prefetch_distance = 4096;  // reading a page ahead cut the parse's CPU time by a third

// Runs f(0), ..., f(n - 1) on n threads (the caller runs f(0)); an exception sets `failed`.
template <class F>
void on_threads(std::size_t n, std::atomic<bool>& failed, F&& f) {
  auto guarded = [&](std::size_t k) {
    try {
      f(k);
    } catch (...) {
      failed = true;
    }
  };
  std::vector<std::jthread> pool;
  pool.reserve(n - 1);
  for (std::size_t k = 1; k < n; ++k) pool.emplace_back(guarded, k);
  guarded(0);
}

// The file: mapped a window at a time, or read with pread.
struct source {
  int fd = -1;
  bool windows = false;  // map the file a window at a time (for_each_window), else pread
  std::uint64_t size = 0;

  source() = default;
  source(const source&) = delete;
  source& operator=(const source&) = delete;
  ~source() {
    if (fd >= 0) ::close(fd);
  }

  // Reads exactly n bytes at pos; false on an error or a short file.
  bool read_at(char* p, std::size_t n, std::uint64_t pos) const {
    while (n > 0) {
      const ssize_t got = ::pread(fd, p, n, static_cast<off_t>(pos));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      p += got;
      n -= static_cast<std::size_t>(got);
      pos += static_cast<std::uint64_t>(got);
    }
    return true;
  }

  // Just after the first line feed at or after pos (or the end of the file).
  std::uint64_t after_line_feed(std::uint64_t pos) const {
    char buf[4096];
    while (pos < size) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof buf, size - pos));
      if (!read_at(buf, n, pos)) return size;
      if (const void* nl = std::memchr(buf, '\n', n))
        return pos + static_cast<std::uint64_t>(static_cast<const char*>(nl) - buf) + 1;
      pos += n;
    }
    return size;
  }

  // Calls f(b, e, at_end) on the bytes [first, last) in pieces that end just after a line feed,
  // the last piece at `last` (at_end). Returns false if f does, a read fails, or a line grows past
  // `max_line` bytes.
  template <class F>
  bool for_each_piece(std::uint64_t first, std::uint64_t last, std::size_t chunk, std::size_t max_line, F&& f) const {
    if (windows) return for_each_window(first, last, chunk, max_line, f);
    std::vector<char> buf(std::max<std::size_t>(chunk, 16));
    std::size_t have = 0;  // unparsed bytes at the front of buf
    std::uint64_t pos = first;
    while (pos < last) {
      if (have == buf.size()) {
        if (have > max_line) return false;
        buf.resize(buf.size() * 2);
      }
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size() - have, last - pos));
      if (!read_at(buf.data() + have, n, pos)) return false;
      pos += n;
      have += n;
      std::size_t use = have;
      if (pos < last) {
        const void* nl = ::memrchr(buf.data(), '\n', have);
        if (nl == nullptr) continue;
        use = static_cast<std::size_t>(static_cast<const char*>(nl) - buf.data()) + 1;
      }
      if (!f(buf.data(), buf.data() + use, pos == last)) return false;
      std::memmove(buf.data(), buf.data() + use, have - use);
      have -= use;
    }
    return true;
  }
  // for_each_piece by mapping `chunk` bytes at a time (more when a line is longer), each window
  // unmapped before the next: no copy, and no more than a window per thread stays mapped (the
  // resident size does not grow with the file: the whole file mapped at once made `assay report`'s
  // peak 2.9x its columns). False if a map fails (the caller falls back).
  template <class F>
  bool for_each_window(std::uint64_t first, std::uint64_t last, std::size_t chunk, std::size_t max_line, F&& f) const {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    std::uint64_t pos = first, want = std::max<std::uint64_t>(chunk, page);
    while (pos < last) {
      const std::uint64_t end = std::min(last, pos + want), base = pos / page * page;
      const auto len = static_cast<std::size_t>(end - base);
      // A file cut shorter since it was measured would raise SIGBUS at the first byte past its new
      // end: check its size before reading (the serial reader then reads what is there).
      struct stat now {};
      if (::fstat(fd, &now) != 0 || static_cast<std::uint64_t>(now.st_size) < end) return false;
      void* m = ::mmap(nullptr, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, static_cast<off_t>(base));
      if (m == MAP_FAILED) return false;
      const char* b = static_cast<const char*>(m) + (pos - base);
      const char* e = static_cast<const char*>(m) + len;
      if (end < last) {
        const void* nl = ::memrchr(b, '\n', static_cast<std::size_t>(e - b));
        if (nl == nullptr) {  // a line longer than the window: a wider one
          ::munmap(m, len);
          if (end - pos > max_line) return false;
          want *= 2;
          continue;
        }
        e = static_cast<const char*>(nl) + 1;
      }
      const bool ok = f(b, e, end == last);
      pos += static_cast<std::uint64_t>(e - b);
      ::munmap(m, len);
      if (!ok) return false;
    }
    return true;
  }
};

struct scan_result {
  std::uint64_t line_feeds = 0;
  bool clean = true;      // no quote, no NUL byte, no lone CR
  char last_byte = '\n';  // of the range ('\n' when empty)
};

// Counts the line feeds of [b, e) into r and notes a quote, a NUL byte or a lone CR (a carriage
// return not followed by a line feed: a classic Mac OS line end, which the cuts at line feeds and
// the row counts cannot see), then stops early. [b, e) ends just after a line feed or at the end
// of the file (`at_eof`), so the byte after a CR is in it unless the CR ends the file (a line end
// that both readers take alike).
void scan(const char* b, const char* e, bool at_eof, scan_result& r) {
  if (b == e) return;
  r.last_byte = e[-1];
  std::uint64_t n = 0;
  bool odd = false;
#if defined(__SSE2__) && defined(__x86_64__)
  const __m128i nl = _mm_set1_epi8('\n'), quote = _mm_set1_epi8('"'), zero = _mm_setzero_si128(),
                cr = _mm_set1_epi8('\r');
  while (e - b >= 17 && !odd) {
    // Byte counters of up to 255 blocks, then summed with SAD. Each block is also read one byte
    // further on (hence 17 bytes), to see whether a line feed follows each CR.
    const auto blocks = static_cast<std::size_t>(std::min<std::ptrdiff_t>(255, (e - b - 1) / 16));
    __m128i count = zero, bad = zero;
    for (std::size_t i = 0; i < blocks; ++i, b += 16) {
      if (i % 4 == 0) __builtin_prefetch(b + prefetch_distance);
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
      const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 1));
      count = _mm_sub_epi8(count, _mm_cmpeq_epi8(v, nl));
      const __m128i lone_cr = _mm_andnot_si128(_mm_cmpeq_epi8(next, nl), _mm_cmpeq_epi8(v, cr));
      bad = _mm_or_si128(bad, _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, zero)), lone_cr));
    }
    const __m128i sum = _mm_sad_epu8(count, zero);
    n += static_cast<std::uint64_t>(_mm_cvtsi128_si64(sum)) +
         static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum)));
    odd = _mm_movemask_epi8(bad) != 0;
  }
#endif
  for (; b < e && !odd; ++b) {
    n += *b == '\n';
    odd = *b == '"' || *b == '\0' || (*b == '\r' && (b + 1 == e ? !at_eof : b[1] != '\n'));
  }
  r.line_feeds += n;
  if (odd) r.clean = false;
}

// The first delimiter or line feed in [p, e), or e.
inline const char* field_end(const char* p, const char* e, char delim) {
#if defined(__SSE2__) && defined(__x86_64__)
  const __m128i d = _mm_set1_epi8(delim), nl = _mm_set1_epi8('\n');
  while (e - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const auto mask =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, d), _mm_cmpeq_epi8(v, nl))));
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  while (p < e && *p != delim && *p != '\n') ++p;
  return p;
}

// Each cell of a column is written once, long after the zero fill left its cache: a streaming
// store does not read the line back first (measured: ~3 ms of ~150 on the 10^7-row file).
inline void store(double* p, double x) {
#if defined(__SSE2__) && defined(__x86_64__)
  _mm_stream_si64(reinterpret_cast<long long*>(p), std::bit_cast<long long>(x));
#else
  *p = x;
#endif
}
inline void store(std::int32_t* p, std::int32_t x) {
#if defined(__SSE2__) && defined(__x86_64__)
  _mm_stream_si32(reinterpret_cast<int*>(p), x);
#else
  *p = x;
#endif
}

// What the parse of a record does with each field: the specs that read it, chained.
struct plan {
  char delim = ',';
  std::size_t fields = 0;
  std::size_t max_record = 0;               // give up on a record this long (the serial reader checks the limit)
  std::vector<unsigned char> fused_number;  // per field: first read as a number, and the delimiter
                                            // cannot be part of one: the number finds its own end
  std::vector<int> first_use;               // per field: the first spec reading it, or -1
  std::vector<int> next_use;                // per spec: the next spec reading the same field, or -1
  std::vector<column_type> type;            // per spec
  bool drop_missing = false;                // skip rows with an empty cell in a column read (else give up)
};

// Parses the records of one range into rows [row0, row0 + capacity) of the columns.
class range_parser {
 public:
  range_parser(const plan& pl, table& t, std::size_t row0, std::size_t capacity)
      : plan_(pl),
        capacity_(capacity),
        levels_before_(pl.type.size()),
        numbers_(pl.type.size()),
        codes_(pl.type.size()),
        levels_(pl.type.size()) {
    interners_.reserve(pl.type.size());
    for (std::size_t s = 0; s < pl.type.size(); ++s) {
      column& c = t.columns[s];
      if (pl.type[s] == column_type::label)
        codes_[s] = c.codes.data() + row0;
      else
        numbers_[s] = c.numbers.data() + row0;
      interners_.emplace_back(levels_[s]);
    }
  }
  range_parser(const range_parser&) = delete;
  range_parser& operator=(const range_parser&) = delete;

  // Parses the records of [p, e), which ends just after a line feed unless `at_eof` (the end of the
  // file). Returns false to give up.
  bool run(const char* p, const char* e, bool at_eof) {
    // Locals, so that the stores into the columns cannot make the compiler reload them.
    const char delim = plan_.delim;
    const std::size_t nf = plan_.fields, max_record = plan_.max_record, capacity = capacity_;
    const int* const first_use = plan_.first_use.data();
    const int* const next_use = plan_.next_use.data();
    const unsigned char* const fused = plan_.fused_number.data();
    const column_type* const types = plan_.type.data();
    double* const* const numbers = numbers_.data();
    std::int32_t* const* const codes = codes_.data();
    const bool nearest = rounds_to_nearest();
    const bool drop_missing = plan_.drop_missing;
    std::size_t rows = rows_;
    while (p < e) {
      __builtin_prefetch(p + prefetch_distance);
      const char* const line = p;
      ++lines_;
      // A blank line ("", or "\r" before a line feed or at the end of the file) is skipped.
      if (*p == '\n') {
        ++p;
        continue;
      }
      if (*p == '\r' && (p + 1 == e ? at_eof : p[1] == '\n')) {
        p += p + 1 == e ? 1 : 2;
        continue;
      }
      // A row with an empty cell in a column read (drop_missing) is skipped whole once its other
      // cells are checked as for any row; its labels must not become classes (a label seen only on
      // skipped rows is none, and a class's code goes by its first kept row), so the levels it added
      // are forgotten again.
      std::size_t empty_spec = std::size_t(-1);
      if (drop_missing) {
        for (std::size_t s = 0; s < levels_.size(); ++s) levels_before_[s] = levels_[s].levels.size();
      }
      if (rows == capacity) return false;  // more records than line feeds: the file changed
      for (std::size_t f = 0; f < nf; ++f) {
        const bool last = f + 1 == nf;
        const char term = last ? '\n' : delim;
        const char* const fb = p;
        const char* fe = nullptr;
        double x = 0;
        bool have_x = false;
        if (fused[f] != 0) {
          // The common case: a plain number that ends right at the delimiter or line end.
          if (const char* t = parse_decimal(p, e, x, nearest)) {
            if (t == e) {
              if (last && at_eof) fe = p = t;
            } else if (*t == term) {
              fe = t;
              p = t + 1;
            } else if (last && *t == '\r' && e - t >= 2 && t[1] == '\n') {
              fe = t;
              p = t + 2;
            }
            have_x = fe != nullptr;
          }
        }
        if (fe == nullptr) {
          if (e - p >= 2 && p[1] == term && *p != delim && *p != '\n' && *p != '\r') {
            fe = p + 1;  // a one-byte field, such as most labels
            p += 2;
          } else {
            const char* q = field_end(p, e, delim);
            if (last) {
              if (q < e && *q == delim) return false;  // more fields than the header
              if (q == e && !at_eof) return false;
              fe = (q > fb && q[-1] == '\r') ? q - 1 : q;
              p = q < e ? q + 1 : e;
            } else {
              if (q == e || *q != delim) return false;  // fewer fields than the header
              fe = q;
              p = q + 1;
            }
          }
        }
        for (int u = first_use[f]; u >= 0; u = next_use[static_cast<std::size_t>(u)]) {
          const auto s = static_cast<std::size_t>(u);
          const std::string_view field(fb, static_cast<std::size_t>(fe - fb));
          const column_type type = types[s];
          if (field.empty()) {
            if (!drop_missing) return false;  // refused: the serial reader counts and names them
            if (empty_spec == std::size_t(-1) || s < empty_spec) empty_spec = s;
            continue;
          }
          if (type == column_type::label) {
            const std::int32_t code = interners_[s].code(field);
            if (code < 0) return false;  // not UTF-8: the serial reader says where
            store(codes[s] + rows, code);
            continue;
          }
          if (!have_x && !parse_double(field, x)) return false;
          have_x = true;
          if (broken_rule(type, x) != value_rule::ok) return false;
          store(numbers[s] + rows, x);
        }
      }
      if (static_cast<std::size_t>(p - line) >= max_record) return false;
      if (empty_spec != std::size_t(-1)) {
        for (std::size_t s = 0; s < levels_.size(); ++s) {
          if (levels_[s].levels.size() != levels_before_[s]) interners_[s].keep_first(levels_before_[s]);
        }
        if (missing_++ == 0) first_missing_line_ = lines_ - 1, first_missing_spec_ = empty_spec;
        continue;
      }
      ++rows;
    }
#if defined(__SSE2__) && defined(__x86_64__)
    _mm_sfence();  // the streaming stores are complete before the thread is joined
#endif
    rows_ = rows;
    return true;
  }

  // Starts the levels of label spec s with `levels` (codes 0, 1, ... in that order).
  void seed(std::size_t s, const std::vector<std::string>& levels) {
    for (const auto& l : levels) interners_[s].code(l);
  }

  [[nodiscard]] std::size_t rows() const noexcept { return rows_; }
  // Rows skipped for an empty cell (plan::drop_missing); the first one's line within the range
  // (0-based, counting every line the parser passed, blank ones too) and its first empty cell's spec.
  [[nodiscard]] std::size_t missing() const noexcept { return missing_; }
  [[nodiscard]] std::size_t first_missing_line() const noexcept { return first_missing_line_; }
  [[nodiscard]] std::size_t first_missing_spec() const noexcept { return first_missing_spec_; }
  // The levels of label spec s, in first-seen order within the range.
  [[nodiscard]] const std::vector<std::string>& levels(std::size_t s) const noexcept { return levels_[s].levels; }

 private:
  const plan& plan_;
  std::size_t capacity_;
  std::size_t rows_ = 0;
  std::size_t lines_ = 0;  // lines passed so far (records and blank lines)
  std::size_t missing_ = 0, first_missing_line_ = 0, first_missing_spec_ = 0;
  std::vector<std::size_t> levels_before_;  // per spec, at the start of the row (drop_missing)
  std::vector<double*> numbers_;
  std::vector<std::int32_t*> codes_;
  std::vector<column> levels_;
  std::vector<interner> interners_;
};

plan make_plan(const csv_reader& head, const table& shape, const std::vector<std::size_t>& index,
               std::size_t max_record) {
  plan pl;
  pl.delim = head.delimiter();
  pl.fields = head.header().size();
  pl.max_record = max_record;
  pl.first_use.assign(pl.fields, -1);
  pl.next_use.assign(index.size(), -1);
  for (std::size_t s = index.size(); s-- > 0;) {  // chained in spec order
    pl.next_use[s] = pl.first_use[index[s]];
    pl.first_use[index[s]] = static_cast<int>(s);
  }
  for (const auto& c : shape.columns) pl.type.push_back(c.type);
  const bool fused = !((pl.delim >= '0' && pl.delim <= '9') || pl.delim == '-' || pl.delim == '.');
  for (std::size_t f = 0; f < pl.fields; ++f) {
    const int u = pl.first_use[f];
    pl.fused_number.push_back(fused && u >= 0 && pl.type[static_cast<std::size_t>(u)] != column_type::label);
  }
  return pl;
}

// The columns of t sized for `capacity` = offset.back() rows, ranges k of rows [offset[k],
// offset[k + 1]) written by thread k; false when the memory is not there.
bool allocate_rows(table& t, const std::vector<std::size_t>& offset, std::size_t threads, std::atomic<bool>& failed) {
  const std::size_t capacity = offset[threads];
  try {
    for (auto& col : t.columns)
      (col.type == column_type::label ? col.codes.reserve(capacity) : col.numbers.reserve(capacity));
  } catch (const std::exception&) {  // std::bad_alloc
    return false;                    // e.g. mostly blank lines: the serial reader needs only the rows
  }
  // Zero-filling the columns takes a page fault per page of fresh memory: the threads take those
  // faults for their own rows first, all at once (MADV_POPULATE_WRITE, Linux 5.14; without it the
  // fill takes them), then the fill is spread over the threads by column.
#ifdef MADV_POPULATE_WRITE
  on_threads(threads, failed, [&](std::size_t k) {
    for (auto& col : t.columns) {
      const bool label = col.type == column_type::label;
      const std::size_t width = label ? sizeof(std::int32_t) : sizeof(double);
      const auto base = reinterpret_cast<std::uintptr_t>(label ? static_cast<void*>(col.codes.data())
                                                               : static_cast<void*>(col.numbers.data()));
      const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
      const std::uintptr_t b = (base + offset[k] * width + page - 1) & ~(page - 1),
                           e = (base + offset[k + 1] * width) & ~(page - 1);
      if (e > b) ::madvise(reinterpret_cast<void*>(b), e - b, MADV_POPULATE_WRITE);
    }
  });
#endif
  const std::size_t fillers = std::min(threads, t.columns.size());
  on_threads(fillers, failed, [&](std::size_t k) {
    for (std::size_t c = k; c < t.columns.size(); c += fillers) {
      column& col = t.columns[c];
      if (col.type == column_type::label)
        col.codes.resize(capacity);
      else
        col.numbers.resize(capacity);
    }
  });
  return !failed;
}

// Label codes of later ranges to the table's levels (first-seen order: ranges are in file order);
// the codes to rewrite are shared out over the threads. False when a thread failed.
bool unify_label_codes(table& t, const std::vector<std::unique_ptr<range_parser>>& parsers,
                       const std::vector<std::size_t>& offset, std::size_t threads, std::atomic<bool>& failed) {
  struct remap {
    std::int32_t* codes;
    std::size_t rows;
    std::vector<std::int32_t> map;
  };
  std::vector<remap> remaps;
  for (std::size_t s = 0; s < t.columns.size(); ++s) {
    column& col = t.columns[s];
    if (col.type != column_type::label) continue;
    col.levels = parsers[0]->levels(s);
    // Level -> code of the table, hashed (a column of ids can hold millions of distinct labels).
    std::unordered_map<std::string, std::int32_t> code_of;
    code_of.reserve(col.levels.size());
    for (std::size_t i = 0; i < col.levels.size(); ++i) code_of.emplace(col.levels[i], static_cast<std::int32_t>(i));
    for (std::size_t k = 1; k < threads; ++k) {
      const auto& part = parsers[k]->levels(s);
      std::vector<std::int32_t> map(part.size());
      bool identity = true;
      for (std::size_t i = 0; i < part.size(); ++i) {
        const auto [it, added] = code_of.emplace(part[i], static_cast<std::int32_t>(col.levels.size()));
        if (added) col.levels.push_back(part[i]);
        map[i] = it->second;
        identity = identity && map[i] == static_cast<std::int32_t>(i);
      }
      if (!identity) remaps.push_back({col.codes.data() + offset[k], parsers[k]->rows(), std::move(map)});
    }
  }
  if (!remaps.empty()) {
    on_threads(threads, failed, [&](std::size_t k) {
      for (const auto& r : remaps) {
        for (std::size_t i = r.rows * k / threads, n = r.rows * (k + 1) / threads; i < n; ++i) {
          r.codes[i] = r.map[static_cast<std::size_t>(r.codes[i])];
        }
      }
    });
  }
  return !failed;
}

// Blank lines left gaps between the ranges' rows: moves the rows down; returns how many there are.
std::size_t close_gaps(table& t, const std::vector<std::unique_ptr<range_parser>>& parsers,
                       const std::vector<std::size_t>& offset) {
  const std::size_t threads = parsers.size();
  std::size_t rows = parsers[0]->rows();
  for (std::size_t k = 1; k < threads; ++k) {
    const std::size_t n = parsers[k]->rows();
    if (rows != offset[k]) {
      for (auto& col : t.columns) {
        if (col.type == column_type::label)
          std::memmove(col.codes.data() + rows, col.codes.data() + offset[k], n * sizeof(std::int32_t));
        else
          std::memmove(col.numbers.data() + rows, col.numbers.data() + offset[k], n * sizeof(double));
      }
    }
    rows += n;
  }
  return rows;
}

}  // namespace

std::optional<table> read_parallel(const std::string& path, const csv_reader& head, const table& shape,
                                   const std::vector<std::size_t>& index, const parallel_settings& settings,
                                   std::uint64_t* line_feeds) {
  if (path == "-" || head.saw_quote() || settings.max_record_bytes < 16 || settings.min_bytes_per_thread == 0) {
    return std::nullopt;
  }
  source src;
  src.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (src.fd < 0 || ::fstat(src.fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  src.size = static_cast<std::uint64_t>(st.st_size);
  const bool ranged = settings.first_byte != 0 || settings.last_byte != 0;
  const std::uint64_t first = ranged ? settings.first_byte : head.offset();
  const std::uint64_t last = ranged ? std::min(settings.last_byte, src.size) : src.size;
  if (first >= last || first < head.offset()) return std::nullopt;
  const auto threads = static_cast<std::size_t>(
      std::min<std::uint64_t>(settings.max_threads, (last - first) / settings.min_bytes_per_thread));
  if (threads < 2) return std::nullopt;
  src.windows = settings.use_mmap;
  const std::size_t piece_bytes = src.windows ? settings.window_bytes : settings.chunk_bytes;

  // Cut points: just after the first line feed at or after each even share.
  std::vector<std::uint64_t> cut{first};
  for (std::size_t k = 1; k < threads; ++k) {
    cut.push_back(std::min(last, src.after_line_feed(std::max(cut.back(), first + (last - first) * k / threads))));
  }
  cut.push_back(last);

  std::atomic<bool> failed{false};
  std::vector<scan_result> scans(threads);
  on_threads(threads, failed, [&](std::size_t k) {
    const bool ok = src.for_each_piece(cut[k], cut[k + 1], piece_bytes, settings.max_record_bytes,
                                       [&](const char* b, const char* e, bool at_end) {
                                         scan(b, e, at_end && cut[k + 1] == src.size, scans[k]);
                                         return scans[k].clean && !failed;
                                       });
    if (!ok) failed = true;
  });
  if (failed) return std::nullopt;

  // Row k of range j goes to row offset[j] + k; a range has at most one row per line feed, plus
  // one for a last line without a line feed.
  std::vector<std::size_t> offset(threads + 1, 0);
  for (std::size_t k = 0; k < threads; ++k) {
    offset[k + 1] = offset[k] + scans[k].line_feeds + (scans[k].last_byte != '\n' ? 1 : 0);
  }
  const std::size_t capacity = offset[threads];
  if (capacity == 0) return std::nullopt;

  table t = shape;
  if (!allocate_rows(t, offset, threads, failed)) return std::nullopt;

  plan pl = make_plan(head, shape, index, settings.max_record_bytes);
  pl.drop_missing = settings.drop_missing;
  std::vector<std::unique_ptr<range_parser>> parsers(threads);
  for (std::size_t k = 0; k < threads; ++k) {
    parsers[k] = std::make_unique<range_parser>(pl, t, offset[k], offset[k + 1] - offset[k]);
  }
  // The first rows of range 0 are read first, alone, and the other ranges start from the label
  // levels seen there: their levels then usually begin as the table's, and their codes need no
  // rewriting at the end.
  const std::uint64_t probe = std::min(cut[1], cut[0] + (std::uint64_t{64} << 10));
  const std::uint64_t head_end = probe == cut[1] ? cut[1] : std::min(cut[1], src.after_line_feed(probe));
  if (!src.for_each_piece(cut[0], head_end, piece_bytes, settings.max_record_bytes,
                          [&](const char* b, const char* e, bool at_end) {
                            return parsers[0]->run(b, e, at_end && head_end == src.size);
                          })) {
    return std::nullopt;
  }
  for (std::size_t s = 0; s < t.columns.size(); ++s) {
    if (t.columns[s].type != column_type::label) continue;
    for (std::size_t k = 1; k < threads; ++k) parsers[k]->seed(s, parsers[0]->levels(s));
  }
  on_threads(threads, failed, [&](std::size_t k) {
    range_parser& rp = *parsers[k];
    const bool ok = src.for_each_piece(k == 0 ? head_end : cut[k], cut[k + 1], piece_bytes,
                                       settings.max_record_bytes, [&](const char* b, const char* e, bool at_end) {
                                         return !failed && rp.run(b, e, at_end && cut[k + 1] == src.size);
                                       });
    if (!ok) failed = true;
  });
  if (failed) return std::nullopt;

  if (!unify_label_codes(t, parsers, offset, threads, failed)) return std::nullopt;

  const std::size_t rows = close_gaps(t, parsers, offset);
  if (rows == 0) return std::nullopt;  // (every row missing, say): the serial reader says why
  // Rows skipped for a missing value: their count, and the first one's physical line (the header's
  // line, then each range's lines; records span one line each in a file without quotes).
  std::size_t line0 = head.line() + 1;
  for (std::size_t k = 0; k < threads; ++k) {
    const range_parser& rp = *parsers[k];
    if (rp.missing() > 0 && t.missing.rows == 0) {
      t.missing.first_line = line0 + rp.first_missing_line();
      t.missing.first_column = t.columns[rp.first_missing_spec()].name;
    }
    t.missing.rows += rp.missing();
    line0 += scans[k].line_feeds;
  }
  for (auto& col : t.columns) (col.type == column_type::label ? col.codes.resize(rows) : col.numbers.resize(rows));
  t.rows = rows;
  t.threads = threads;
  if (line_feeds != nullptr) {
    *line_feeds = 0;
    for (const auto& sc : scans) *line_feeds += sc.line_feeds;
  }
  return t;
}

}  // namespace assay::io::detail
