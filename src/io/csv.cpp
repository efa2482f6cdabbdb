// Streaming RFC 4180 reader; see include/assay/io/csv.hpp.
#include "assay/io/csv.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>

#include "assay/error.hpp"

namespace assay::io {

namespace {

// Returns the first index in [i, end) holding the delimiter, a line feed, a quote or a NUL byte (or
// `end`). A quote inside an unquoted field is data, but the parallel reader must know of it.
// Sixteen bytes at a time with SSE2 where available: the common unquoted field is skipped in one
// or two steps instead of byte by byte.
inline std::size_t skip_plain(const char* base, std::size_t i, std::size_t end, char delim) {
#if defined(__SSE2__)
  const __m128i d = _mm_set1_epi8(delim), nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128(),
                q = _mm_set1_epi8('"');
  while (i + 16 <= end) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + i));
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, d), _mm_cmpeq_epi8(v, nl)),
                                     _mm_or_si128(_mm_cmpeq_epi8(v, zero), _mm_cmpeq_epi8(v, q)));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
    i += 16;
  }
#endif
  while (i < end && base[i] != delim && base[i] != '\n' && base[i] != '\0' && base[i] != '"') ++i;
  return i;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string quoted_preview(std::string_view s) {
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

}  // namespace

struct csv_reader::impl {
  std::string name;
  csv_options options;
  int fd = -1;
  bool owns_fd = false;
  bool eof = false;           // no more bytes from the source
  bool use_pread = false;     // a byte range of a file (csv_reader::range)
  bool saw_quote = false;     // a '"' was seen anywhere in the data
  std::uint64_t source_pos = 0;                   // bytes taken from the source so far
  std::uint64_t range_end = ~std::uint64_t{0};    // with use_pread: stop here
  std::vector<char> buf;      // bytes [begin, end) are unread
  std::size_t begin = 0, end = 0;
  std::size_t next_line = 1;  // physical line where the next record starts
  std::size_t record_line = 0;
  std::vector<std::string> header;
  // Field boundaries of the current record, as offsets into buf.
  struct span_t {
    std::size_t b, e;
    bool escaped;  // holds doubled quotes to undo
  };
  std::vector<span_t> spans;

  ~impl() {
    if (owns_fd && fd >= 0) ::close(fd);
  }

  // Reads more bytes, keeping [begin, end). Returns false when the source is exhausted.
  bool fill() {
    if (eof) return false;
    if (begin > 0) {
      std::memmove(buf.data(), buf.data() + begin, end - begin);
      end -= begin;
      begin = 0;
    }
    if (buf.size() - end < options.chunk_bytes / 2) {
      buf.resize(std::max(buf.size() * 2, end + options.chunk_bytes));
    }
    for (;;) {
      std::size_t want = buf.size() - end;
      if (use_pread) {
        if (source_pos >= range_end) {
          eof = true;
          return false;
        }
        want = static_cast<std::size_t>(std::min<std::uint64_t>(want, range_end - source_pos));
      }
      ssize_t got = use_pread ? ::pread(fd, buf.data() + end, want, static_cast<off_t>(source_pos))
                              : ::read(fd, buf.data() + end, want);
      if (got < 0) {
        if (errno == EINTR) continue;
        throw_io(fmt::format("{}: read failed: {}", name, std::strerror(errno)));
      }
      if (got == 0) {
        eof = true;
        return false;
      }
      end += static_cast<std::size_t>(got);
      source_pos += static_cast<std::uint64_t>(got);
      return true;
    }
  }

  // Scans one record starting at `begin`. Returns false if the buffer ends before the record does
  // (and the source has more). On success fills `spans`, advances `begin` and the line counter.
  bool scan_record(std::size_t& lines_in_record) {
    const char delim = options.delimiter;
    const char* base = buf.data();
    std::size_t i = begin;
    spans.clear();
    lines_in_record = 0;
    for (;;) {
      // Start of a field.
      if (i < end && base[i] == '"') {
        saw_quote = true;
        std::size_t open_line = next_line + lines_in_record;
        std::size_t b = ++i;
        bool escaped = false;
        for (;;) {
          const void* q = (i < end) ? std::memchr(base + i, '"', end - i) : nullptr;
          if (q == nullptr) {
            if (!eof) return false;
            throw_data(fmt::format("{}:{}: unterminated quoted field (the quote opened on line {} is never closed)",
                                   name, next_line, open_line));
          }
          std::size_t qi = static_cast<std::size_t>(static_cast<const char*>(q) - base);
          for (std::size_t k = i; k < qi; ++k) {
            if (base[k] == '\n') ++lines_in_record;
            else if (base[k] == '\0') nul_error(lines_in_record);
          }
          if (qi + 1 >= end && !eof) return false;  // need the next byte to decide
          if (qi + 1 < end && base[qi + 1] == '"') {
            escaped = true;
            i = qi + 2;
            continue;
          }
          spans.push_back({b, qi, escaped});
          i = qi + 1;
          break;
        }
        // After a closing quote: delimiter, line end, or end of input.
        if (i >= end) {
          begin = end;
          return true;
        }
        char c = base[i];
        if (c == '\r' && i + 1 < end && base[i + 1] == '\n') ++i, c = '\n';
        else if (c == '\r' && i + 1 >= end && !eof) return false;
        else if (c == '\r' && i + 1 >= end) c = '\n';
        if (c == delim) {
          ++i;
          continue;
        }
        if (c == '\n') {
          ++lines_in_record;
          begin = i + 1;
          return true;
        }
        throw_data(fmt::format("{}:{}: field {}: unexpected character {} after a closing quote", name,
                               next_line + lines_in_record, spans.size(), quoted_preview(std::string_view(base + i, 1))));
      }
      // Unquoted field: runs to the delimiter or the line end.
      std::size_t b = i;
      for (;;) {
        if (i >= end) {
          if (!eof) return false;
          spans.push_back({b, trim_cr(b, i), false});
          begin = end;
          return true;
        }
        char c = base[i];
        if (c == delim) {
          spans.push_back({b, i, false});
          ++i;
          break;
        }
        if (c == '\n') {
          spans.push_back({b, trim_cr(b, i), false});
          ++lines_in_record;
          begin = i + 1;
          return true;
        }
        if (c == '\0') nul_error(lines_in_record);
        if (c == '"') saw_quote = true;
        i = skip_plain(base, i + 1, end, delim);
      }
    }
  }

  std::size_t trim_cr(std::size_t b, std::size_t e) const { return (e > b && buf[e - 1] == '\r') ? e - 1 : e; }

  [[noreturn]] void nul_error(std::size_t lines_in_record) const {
    throw_data(fmt::format("{}:{}: NUL byte: this looks like a binary file, not delimited text", name,
                           next_line + lines_in_record));
  }

  // Reads the next non-blank record into spans. Returns false at the end of the input.
  bool read_record() {
    for (;;) {
      if (begin >= end && !fill()) return false;
      std::size_t lines = 0;
      while (!scan_record(lines)) {
        std::size_t have = end - begin;
        if (have > options.max_record_bytes) {
          throw_data(fmt::format("{}:{}: record longer than {} MiB: not a delimited text file, or a quote is never closed",
                                 name, next_line, options.max_record_bytes >> 20));
        }
        fill();
      }
      record_line = next_line;
      next_line += lines;
      // Skip blank lines (one empty unquoted field).
      if (spans.size() == 1 && spans[0].b == spans[0].e && !spans[0].escaped &&
          (spans[0].b == 0 || buf[spans[0].b - 1] != '"')) {
        continue;
      }
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

  void open_and_read_header() {
    buf.resize(options.chunk_bytes);
    fill();
    if (end - begin >= 3 && std::memcmp(buf.data() + begin, "\xEF\xBB\xBF", 3) == 0) begin += 3;
    if (options.delimiter == 0) {
      if (ends_with(name, ".tsv") || ends_with(name, ".tab")) {
        options.delimiter = '\t';
      } else {
        std::string_view rest(buf.data() + begin, end - begin);
        std::string_view first = rest.substr(0, rest.find('\n'));
        bool tabs = first.find('\t') != std::string_view::npos;
        bool commas = first.find(',') != std::string_view::npos;
        options.delimiter = (tabs && !commas) ? '\t' : ',';
      }
    }
    if (!read_record()) throw_data(fmt::format("{}: empty file: expected a header row", name));
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
  p->buf.assign(text.begin(), text.end());
  p->end = p->buf.size();
  p->source_pos = p->end;
  p->eof = true;
  if (p->options.chunk_bytes < 16) p->options.chunk_bytes = 16;
  // open_and_read_header would read from fd; do the same steps on the in-memory buffer.
  if (p->end >= 3 && std::memcmp(p->buf.data(), "\xEF\xBB\xBF", 3) == 0) p->begin = 3;
  if (p->options.delimiter == 0) {
    std::string_view rest(p->buf.data() + p->begin, p->end - p->begin);
    std::string_view first = rest.substr(0, rest.find('\n'));
    bool tabs = first.find('\t') != std::string_view::npos;
    bool commas = first.find(',') != std::string_view::npos;
    p->options.delimiter = (ends_with(p->name, ".tsv") || (tabs && !commas)) ? '\t' : ',';
  }
  if (!p->read_record()) throw_data(fmt::format("{}: empty file: expected a header row", p->name));
  for (auto& s : p->spans) p->header.emplace_back(p->view(s));
  return csv_reader(std::move(p));
}

csv_reader::~csv_reader() = default;
csv_reader::csv_reader(csv_reader&&) noexcept = default;
csv_reader& csv_reader::operator=(csv_reader&&) noexcept = default;

const std::vector<std::string>& csv_reader::header() const noexcept { return impl_->header; }
std::size_t csv_reader::line() const noexcept { return impl_->record_line; }
const std::string& csv_reader::name() const noexcept { return impl_->name; }
char csv_reader::delimiter() const noexcept { return impl_->options.delimiter; }
std::uint64_t csv_reader::offset() const noexcept { return impl_->source_pos - (impl_->end - impl_->begin); }
bool csv_reader::saw_quote() const noexcept { return impl_->saw_quote; }

csv_reader csv_reader::range(const std::string& path, const csv_reader& like, std::uint64_t first, std::uint64_t last) {
  auto p = std::make_unique<impl>();
  p->name = like.impl_->name;
  p->options = like.impl_->options;
  p->header = like.impl_->header;
  p->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (p->fd < 0) throw_io(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  p->owns_fd = true;
  p->use_pread = true;
  p->source_pos = first;
  p->range_end = last;
  p->next_line = 0;  // unknown: the caller re-reads serially to report an error
  p->buf.resize(p->options.chunk_bytes);
  return csv_reader(std::move(p));
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
