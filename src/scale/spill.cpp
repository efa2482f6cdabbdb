// Records spilled to temporary files by key range; see src/scale/spill.hpp.
#include "spill.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <barrier>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "assay/detail/msd_sort.hpp"
#include "assay/detail/parallel.hpp"
#include "assay/detail/radix.hpp"
#include "assay/error.hpp"

namespace assay::scale::detail {

namespace fs = std::filesystem;

fs::path temp_directory(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* t = std::getenv("TMPDIR"); t != nullptr && *t != 0) return t;
  return "/tmp";
}

spill_file::spill_file(const fs::path& dir, std::size_t buffer_bytes, bool weighted, const char* who)
    : who_(who), weighted_(weighted), cap_(std::max<std::size_t>(buffer_bytes, 4096)) {
  int fd = -1;
#ifdef O_TMPFILE
  fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_EXCL, 0600);  // a file without a name (Linux >= 3.11)
  path_ = (dir / "(unnamed temporary file)").string();             // for messages only
#endif
  if (fd < 0) {  // no O_TMPFILE here (or not on this file system): a named file, unlinked at once
    std::string templ = (dir / "assay-spill-XXXXXX").string();
    fd = mkstemp(templ.data());
    if (fd < 0) {
      throw_io(fmt::format("{}: cannot create a temporary file in {}: {}", who_, dir.string(), std::strerror(errno)));
    }
    path_ = templ;
    (void)::unlink(templ.c_str());
  }
  f_ = fdopen(fd, "w+b");
  if (f_ == nullptr) {
    ::close(fd);
    throw_io(fmt::format("{}: cannot open the temporary file {}", who_, path_));
  }
}

spill_file::~spill_file() {
  if (f_ != nullptr) std::fclose(f_);
}

void spill_file::flush() {
  if (used_ == 0) return;
  if (std::fwrite(buf_.get(), 1, used_, f_) != used_) {
    throw_io(fmt::format("{}: cannot write the temporary file {} (disk full?)", who_, path_));
  }
  written_ += used_;
  used_ = 0;
}

void spill_file::read(std::uint64_t from, std::uint64_t n, std::vector<spill_record>& out, const std::uint32_t* id_map) {
  flush();
  const std::size_t rb = record_bytes();
  if (std::fseek(f_, static_cast<long>(from * rb), SEEK_SET) != 0) throw_io(fmt::format("{}: seek failed", who_));
  std::vector<char> chunk(std::min<std::uint64_t>(n, 1 << 16) * rb);
  while (n > 0) {
    const std::uint64_t k = std::min<std::uint64_t>(n, chunk.size() / rb);
    if (std::fread(chunk.data(), 1, k * rb, f_) != k * rb) {
      throw_io(fmt::format("{}: cannot read the temporary file {}", who_, path_));
    }
    const std::size_t at = out.size();
    out.resize(at + k);
    spill_record* o = out.data() + at;
    const char* c = chunk.data();
    if (weighted_) {
      for (std::uint64_t i = 0; i < k; ++i, c += 20) {
        std::memcpy(&o[i].key, c, 8);
        std::memcpy(&o[i].id, c + 8, 4);
        std::memcpy(&o[i].w, c + 12, 8);
      }
    } else {
      for (std::uint64_t i = 0; i < k; ++i, c += 12) {
        std::memcpy(&o[i].key, c, 8);
        std::memcpy(&o[i].id, c + 8, 4);
        o[i].w = 1.0;
      }
    }
    if (id_map != nullptr) {
      for (std::uint64_t i = 0; i < k; ++i) o[i].id = id_map[o[i].id];
    }
    n -= k;
  }
  std::fseek(f_, 0, SEEK_END);
}

std::uint64_t spill_file::rewrite_sorted(const std::vector<spill_record>& recs) {
  flush();
  const std::size_t rb = record_bytes();
  if (std::fseek(f_, 0, SEEK_SET) != 0) throw_io(fmt::format("{}: seek failed", who_));
  std::vector<char> chunk(std::min<std::size_t>(recs.size(), 1 << 16) * rb);
  for (std::size_t from = 0; from < recs.size();) {
    const std::size_t k = std::min(recs.size() - from, chunk.size() / rb);
    char* c = chunk.data();
    for (std::size_t i = 0; i < k; ++i, c += rb) {
      const spill_record& r = recs[from + i];
      std::memcpy(c, &r.key, 8);
      std::memcpy(c + 8, &r.id, 4);
      if (weighted_) std::memcpy(c + 12, &r.w, 8);
    }
    if (std::fwrite(chunk.data(), 1, k * rb, f_) != k * rb) {
      throw_io(fmt::format("{}: cannot write the temporary file {} (disk full?)", who_, path_));
    }
    from += k;
  }
  std::fseek(f_, 0, SEEK_END);
  sorted_ = true;
  written_ += recs.size() * rb;
  return recs.size() * rb;
}

namespace {
struct record_key {
  std::uint64_t operator()(const spill_record& r) const noexcept { return r.key; }
};
}  // namespace

void sort_by_key(std::vector<spill_record>& recs, std::vector<spill_record>& scratch, unsigned threads) {
  namespace msd = assay::detail::msd;
  const std::size_t n = recs.size();
  if (n < 2) return;
  if (n > 0xFFFFFFFFu) {
    std::sort(recs.begin(), recs.end(), [](const spill_record& a, const spill_record& b) { return a.key < b.key; });
    return;
  }
  if (scratch.size() < n) scratch.resize(n);
  const unsigned T = n < (std::size_t{1} << 17) ? 1u : threads;
  std::uint64_t o = 0, d = ~std::uint64_t{0};
  for (const spill_record& r : recs) o |= r.key, d &= r.key;
  const std::uint64_t varying = o ^ d;
  const bool wide = std::bit_width(varying) > msd::kTopBits + static_cast<unsigned>(std::countr_zero(varying));
  if (n >= msd::kMsdMinCases && wide) {
    spill_record* sorted = msd::msd_first<spill_record, record_key>(recs.data(), scratch.data(), n, n, varying, T);
    if (sorted == scratch.data()) {
      std::swap(recs, scratch);
      recs.resize(n);
    }
    return;
  }
  assay::detail::radix_sorter<spill_record, record_key> sorter(recs.data(), scratch.data(), n, T, 1);
  sorter.plan(n, varying);
  assay::detail::run_team(sorter.threads(), [&sorter](unsigned t, std::barrier<>& sync) { sorter.sort(t, sync); });
  if (sorter.result() != recs.data()) std::copy(sorter.result(), sorter.result() + n, recs.data());
}

std::vector<std::uint64_t> quantile_splitters(std::vector<std::uint64_t>& keys, std::size_t parts) {
  std::sort(keys.begin(), keys.end());
  std::vector<std::uint64_t> s;
  for (std::size_t p = 1; p < parts && !keys.empty(); ++p) {
    const std::uint64_t k = keys[p * keys.size() / parts];
    if (s.empty() || k > s.back()) s.push_back(k);
  }
  if (!s.empty() && s.front() == keys.front()) s.erase(s.begin());  // no empty first range
  return s;
}

key_spill key_spill::at(std::vector<std::uint64_t> splitters, const fs::path& dir, std::size_t buffer_bytes,
                        bool weighted) {
  key_spill out;
  out.weighted_ = weighted;
  out.ranges_ = key_ranges(std::move(splitters));
  const std::size_t parts = out.ranges_.splitters().size() + 1;
  for (std::size_t p = 0; p < parts; ++p) {
    out.parts_.push_back(std::make_unique<spill_file>(dir, buffer_bytes / parts, weighted));
  }
  return out;
}

key_spill::key_spill(std::vector<std::uint64_t> sample, std::size_t parts, const fs::path& dir,
                     std::size_t buffer_bytes, bool weighted)
    : key_spill(at(quantile_splitters(sample, parts), dir, buffer_bytes, weighted)) {}

std::uint64_t key_spill::flush() {
  std::uint64_t bytes = 0;
  for (auto& p : parts_) {
    p->flush();
    bytes += p->written();
  }
  return bytes;
}

std::uint64_t key_spill::count() const {
  std::uint64_t n = 0;
  for (const auto& p : parts_) n += p->count();
  return n;
}

}  // namespace assay::scale::detail
