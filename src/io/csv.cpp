// Streaming RFC 4180 reader; see include/assay/io/csv.hpp.
//
// The reader keeps one buffer of at least `chunk_bytes`. A record is scanned from `begin`; when the
// buffer ends inside it, the unread tail is moved to the front, the buffer doubles if that tail
// fills more than half of it, and the scan starts again, so a record of n bytes costs O(n) over
// all rescans. Every check is positional (the first problem in the byte stream wins), and a record
// is never scanned past `max_record_bytes`, so what is read and every message are the same for any
// chunk size (the fuzz target checks exactly that).
#include "assay/io/csv.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cstring>
#include <fmt/format.h>

#include "assay/error.hpp"
#include "assay/io/text.hpp"

namespace assay::io {

namespace {

constexpr std::size_t min_chunk_bytes = 16;

// Returns the first index in [i, end) holding the delimiter, a line feed, a carriage return, a quote
// or a NUL byte (or `end`). A quote inside an unquoted field is data, but the parallel reader must know of it.
// Sixteen bytes at a time with SSE2 where available: the common unquoted field is skipped in one
// or two steps instead of byte by byte.
inline std::size_t skip_plain(const char* base, std::size_t i, std::size_t end, char delim) {
#if defined(__SSE2__)
  const __m128i d = _mm_set1_epi8(delim), nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128(),
                q = _mm_set1_epi8('"'), cr = _mm_set1_epi8('\r');
  while (i + 16 <= end) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + i));
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, d), _mm_cmpeq_epi8(v, nl)),
                                                  _mm_or_si128(_mm_cmpeq_epi8(v, zero), _mm_cmpeq_epi8(v, q))),
                                     _mm_cmpeq_epi8(v, cr));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
    i += 16;
  }
#endif
  while (i < end && base[i] != delim && base[i] != '\n' && base[i] != '\r' && base[i] != '\0' && base[i] != '"') ++i;
  return i;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

struct csv_reader::impl {
  std::string name;
  csv_options options;
  // The source: a file descriptor, or (from_string) text in memory served `chunk_bytes` at a time.
  int fd = -1;
  bool owns_fd = false;
  std::string text;
  std::size_t text_pos = 0;
  bool eof = false;           // no more bytes from the source
  bool saw_quote = false;     // a '"' was seen anywhere in the data
  std::uint64_t source_pos = 0;                 // bytes taken from the source so far
  std::uint64_t limit = UINT64_MAX;             // the source ends here (restrict_to)
  std::vector<char> buf;      // bytes [begin, end) are unread
  std::size_t begin = 0, end = 0;
  std::size_t next_line = 1;  // physical line where the next record starts
  std::size_t record_line = 0;
  std::vector<std::string> header;
  // Field boundaries of the current record, as offsets into buf.
  struct span_t {
    std::size_t b, e;
    bool escaped;  // holds doubled quotes to undo
    bool quoted;
  };
  std::vector<span_t> spans;

  ~impl() {
    if (owns_fd && fd >= 0) ::close(fd);
  }

  // Up to n bytes from the source into p; 0 at the end (or at `limit`: restrict_to).
  std::size_t read_some(char* p, std::size_t n) {
    if (source_pos >= limit) return 0;
    n = static_cast<std::size_t>(std::min<std::uint64_t>(n, limit - source_pos));
    if (fd < 0) {
      const std::size_t k = std::min({n, options.chunk_bytes, text.size() - text_pos});
      std::memcpy(p, text.data() + text_pos, k);
      text_pos += k;
      source_pos += k;
      return k;
    }
    for (;;) {
      const ssize_t got = ::read(fd, p, n);
      if (got >= 0) {
        source_pos += static_cast<std::uint64_t>(got);
        return static_cast<std::size_t>(got);
      }
      if (errno != EINTR) throw_io(fmt::format("{}: read failed: {}", name, std::strerror(errno)));
    }
  }

  // Moves the unread bytes to the front and reads until the buffer is full or the source ends.
  // Returns false when no byte was added.
  bool fill() {
    if (eof) return false;
    if (begin > 0) {
      std::memmove(buf.data(), buf.data() + begin, end - begin);
      end -= begin;
      begin = 0;
    }
    if (end * 2 > buf.size()) buf.resize(std::max(buf.size() * 2, options.chunk_bytes));
    const std::size_t before = end;
    while (end < buf.size()) {
      const std::size_t got = read_some(buf.data() + end, buf.size() - end);
      if (got == 0) {
        eof = true;
        break;
      }
      end += got;
    }
    return end > before;
  }

  [[noreturn]] void nul_error(std::size_t lines_in_record) const {
    throw_data(fmt::format("{}:{}: NUL byte: this looks like a binary file, not delimited text", name,
                           next_line + lines_in_record));
  }
  [[noreturn]] void over_long() const {
    throw_data(fmt::format("{}:{}: record longer than {} bytes: not a delimited text file, or a quote is never closed",
                           name, next_line, options.max_record_bytes));
  }

  // The record ends at the carriage return at i: with the line feed after it (CRLF) or alone (a
  // classic Mac OS line end; Python's csv module reads both so). Returns false if the buffer ends
  // right after the CR and the source has more (whether a line feed follows is not known yet).
  template <class EndsHere>
  bool end_at_cr(std::size_t i, std::size_t lim, EndsHere& input_ends_here, std::size_t& lines) {
    if (i + 1 >= lim) {
      if (!input_ends_here()) return false;
      ++lines;
      begin = lim;
      return true;
    }
    ++lines;
    begin = (buf[i + 1] == '\n') ? i + 2 : i + 1;
    return true;
  }

  // Scans one record starting at `begin`, looking at no more than max_record_bytes bytes. Returns
  // false if the buffer ends before the record does and the source has more. On success fills
  // `spans`, advances `begin` and sets `lines` to the physical lines the record spans.
  bool scan_record(std::size_t& lines) {
    const char delim = options.delimiter;
    const char* base = buf.data();
    const std::size_t lim = (end - begin > options.max_record_bytes) ? begin + options.max_record_bytes : end;
    // At `lim`: throws if the record is too long; true if the input ends there, false if more may come.
    auto input_ends_here = [&]() {
      if (lim < end) over_long();
      return eof;
    };
    std::size_t i = begin;
    spans.clear();
    lines = 0;
    for (;;) {
      if (i < lim && base[i] == '"') {
        saw_quote = true;
        const std::size_t open_line = next_line + lines;
        const std::size_t b = ++i;
        bool escaped = false;
        for (;;) {
          const void* q = (i < lim) ? std::memchr(base + i, '"', lim - i) : nullptr;
          const std::size_t qi = q ? static_cast<std::size_t>(static_cast<const char*>(q) - base) : lim;
          for (std::size_t k = i; k < qi; ++k) {
            // Line ends inside the field count as physical lines: LF, CRLF (once) and a lone CR.
            if (base[k] == '\n') ++lines;
            else if (base[k] == '\r' && (k + 1 >= lim || base[k + 1] != '\n')) ++lines;
            else if (base[k] == '\0') nul_error(lines);
          }
          if (q == nullptr) {
            if (!input_ends_here()) return false;
            throw_data(fmt::format("{}:{}: unterminated quoted field (the quote opened on line {} is never closed)",
                                   name, next_line, open_line));
          }
          if (qi + 1 >= lim) {  // the closing quote is the last byte we may look at
            if (!input_ends_here()) return false;
            spans.push_back({b, qi, escaped, true});
            begin = lim;
            return true;
          }
          if (base[qi + 1] == '"') {
            escaped = true;
            i = qi + 2;
            continue;
          }
          spans.push_back({b, qi, escaped, true});
          i = qi + 1;
          break;
        }
        // After a closing quote (i < lim): a delimiter, a line end, or an error.
        const char c = base[i];
        if (c == delim) {
          ++i;
          continue;
        }
        if (c == '\n') {
          ++lines;
          begin = i + 1;
          return true;
        }
        if (c == '\r') return end_at_cr(i, lim, input_ends_here, lines);
        if (c == '\0') nul_error(lines);
        throw_data(fmt::format("{}:{}: field {}: unexpected character {} after a closing quote", name,
                               next_line + lines, spans.size(), quote_text(std::string_view(base + i, 1))));
      }
      // Unquoted field: runs to the delimiter or the line end.
      const std::size_t b = i;
      for (;; ++i) {
        i = skip_plain(base, i, lim, delim);
        if (i >= lim) {
          if (!input_ends_here()) return false;
          spans.push_back({b, i, false, false});
          begin = lim;
          return true;
        }
        const char c = base[i];
        if (c == delim) {
          spans.push_back({b, i, false, false});
          ++i;
          break;
        }
        if (c == '\n') {
          spans.push_back({b, i, false, false});
          ++lines;
          begin = i + 1;
          return true;
        }
        if (c == '\r') {
          spans.push_back({b, i, false, false});
          return end_at_cr(i, lim, input_ends_here, lines);
        }
        if (c == '\0') nul_error(lines);
        saw_quote = true;  // a quote inside an unquoted field: data, but noted
      }
    }
  }

  // Reads the next non-blank record into spans. Returns false at the end of the input.
  bool read_record() {
    for (;;) {
      if (begin >= end && !fill()) return false;
      std::size_t lines = 0;
      while (!scan_record(lines)) fill();
      record_line = next_line;
      next_line += lines;
      // A blank line is one empty unquoted field.
      if (spans.size() == 1 && !spans[0].quoted && spans[0].b == spans[0].e) continue;
      return true;
    }
  }

  std::string_view view(span_t& s) {
    char* p = buf.data();
    if (!s.escaped) return {p + s.b, s.e - s.b};
    // Undo doubled quotes in place; the record's bytes are ours until the next read.
    std::size_t w = s.b;
    for (std::size_t r = s.b; r < s.e; ++r) {
      p[w++] = p[r];
      if (p[r] == '"') ++r;
    }
    s.e = w;
    s.escaped = false;
    return {p + s.b, w - s.b};
  }

  // The first non-blank line (at most max_record_bytes of it), reading as much as that needs.
  std::string_view first_line() {
    for (;;) {
      const std::string_view rest(buf.data() + begin, end - begin);
      std::size_t pos = 0;
      for (;;) {
        const std::size_t nl = rest.find_first_of("\r\n", pos);  // LF, CRLF or a lone CR
        const std::size_t stop = nl == std::string_view::npos ? rest.size() : nl;
        const std::string_view line = rest.substr(pos, stop - pos);
        if (line.size() >= options.max_record_bytes || (nl == std::string_view::npos && eof)) {
          return line.substr(0, options.max_record_bytes);
        }
        if (nl == std::string_view::npos) break;  // need more bytes
        if (!line.empty()) return line;
        pos = nl + 1;
      }
      fill();
    }
  }

  void open_and_read_header() {
    if (options.chunk_bytes < min_chunk_bytes) options.chunk_bytes = min_chunk_bytes;
    const char d = options.delimiter;
    if (d == '"' || d == '\n' || d == '\r') {
      throw_usage(fmt::format("{}: {} cannot be the field delimiter", name, quote_text(std::string_view(&d, 1))));
    }
    buf.resize(options.chunk_bytes);
    fill();
    if (end - begin >= 3 && std::memcmp(buf.data() + begin, "\xEF\xBB\xBF", 3) == 0) begin += 3;
    if (options.delimiter == 0) {
      if (ends_with(name, ".tsv") || ends_with(name, ".tab")) {
        options.delimiter = '\t';
      } else {
        const std::string_view first = first_line();
        const bool tabs = first.find('\t') != std::string_view::npos;
        const bool commas = first.find(',') != std::string_view::npos;
        options.delimiter = (tabs && !commas) ? '\t' : ',';
      }
    }
    if (!read_record()) throw_data(fmt::format("{}: empty file: expected a header row", name));
    header.reserve(spans.size());
    for (auto& s : spans) header.emplace_back(view(s));
  }
};

csv_reader::csv_reader(std::unique_ptr<impl> p) : impl_(std::move(p)) {}

csv_reader::csv_reader(const std::string& path, const csv_options& options) : impl_(std::make_unique<impl>()) {
  impl_->options = options;
  if (path == "-") {
    impl_->name = "<stdin>";
    impl_->fd = 0;
  } else {
    impl_->name = path;
    impl_->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (impl_->fd < 0) throw_io(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
    impl_->owns_fd = true;
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(impl_->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  }
  impl_->open_and_read_header();
}

csv_reader csv_reader::from_string(std::string text, std::string display_name, const csv_options& options) {
  auto p = std::make_unique<impl>();
  p->name = std::move(display_name);
  p->options = options;
  p->text = std::move(text);
  p->open_and_read_header();
  return csv_reader(std::move(p));
}

csv_reader::~csv_reader() = default;
csv_reader::csv_reader(csv_reader&&) noexcept = default;
csv_reader& csv_reader::operator=(csv_reader&&) noexcept = default;

const std::vector<std::string>& csv_reader::header() const noexcept { return impl_->header; }
std::size_t csv_reader::line() const noexcept { return impl_->record_line; }
void csv_reader::skip_lines(std::size_t n) noexcept { impl_->next_line += n; }
const std::string& csv_reader::name() const noexcept { return impl_->name; }
char csv_reader::delimiter() const noexcept { return impl_->options.delimiter; }
std::uint64_t csv_reader::offset() const noexcept { return impl_->source_pos - (impl_->end - impl_->begin); }
bool csv_reader::saw_quote() const noexcept { return impl_->saw_quote; }

void csv_reader::restrict_to(std::uint64_t begin, std::uint64_t end) {
  impl& s = *impl_;
  if (s.fd <= 0) {
    throw_usage(fmt::format("csv_reader::restrict_to: {} is not a file that can be positioned", s.name));
  }
  const std::uint64_t at = offset();
  if (begin < at || end < begin) {
    throw_usage(fmt::format("csv_reader::restrict_to: bytes {} to {} of {}; the reader is at byte {}", begin, end,
                            s.name, at));
  }
  const std::uint64_t buffered = s.end - s.begin;
  if (begin - at <= buffered) {  // in the buffer already
    s.begin += static_cast<std::size_t>(begin - at);
  } else {
    if (::lseek(s.fd, static_cast<off_t>(begin), SEEK_SET) < 0) {
      throw_io(fmt::format("{}: cannot go to byte {}: {}", s.name, begin, std::strerror(errno)));
    }
    s.begin = s.end = 0;
    s.source_pos = begin;
    s.eof = false;
  }
  if (s.source_pos > end) {  // the buffer holds bytes past the end: drop them
    s.end -= static_cast<std::size_t>(s.source_pos - end);
    s.source_pos = end;
  }
  s.limit = end;
  if (s.source_pos >= end) s.eof = true;
  else s.eof = false;
}

bool csv_reader::next(std::vector<std::string_view>& fields) {
  if (!impl_->read_record()) return false;
  auto& spans = impl_->spans;
  if (spans.size() != impl_->header.size()) {
    throw_data(fmt::format("{}:{}: expected {} fields as in the header, found {}", impl_->name, impl_->record_line,
                           impl_->header.size(), spans.size()));
  }
  fields.resize(spans.size());
  for (std::size_t i = 0; i < spans.size(); ++i) fields[i] = impl_->view(spans[i]);
  return true;
}

}  // namespace assay::io
