// assay (internal): records of (64-bit key, 32-bit id, weight) spilled to temporary files by key
// range and read back in key order, within a memory cap. What `assay report --max-memory` spills its
// score records and regression residuals to (src/scale/out_of_core*.cpp), usable by any code that
// must sort more records than memory holds. Private to src/scale.
//
// The pieces: spill_file (one temporary file of records behind a write buffer; it has no name, so
// its space is freed however the process ends), key_spill (records appended under a cap on the
// write buffers, each to the file of its key range; ranges from the quantiles of a sample of keys),
// and key_spill::for_each_sorted (the records back in key order, one range sorted in memory at a
// time; a range holding more than the cap is split again by the quantiles of a sample of its own
// keys). Errors (a file that cannot be created, written or read) are assay::error (io) naming the
// temporary file; every file is closed, and so freed, by the destructors when an error unwinds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "key_ranges.hpp"

namespace assay::scale::detail {

/// A spilled record: an order key, an id (a label's id, a sign, ...) and a weight. Left
/// uninitialised by the default constructor: a vector of records is resized before a read writes
/// every field, and a value-initialising resize would write each partition's records once more.
struct spill_record {
  std::uint64_t key;
  std::uint32_t id;
  double w;
  spill_record() noexcept {}  // NOLINT(modernize-use-equals-default): = default would zero them in resize
  spill_record(std::uint64_t k, std::uint32_t i, double weight) noexcept : key(k), id(i), w(weight) {}
};

/// The temporary directory: `given`, else $TMPDIR, else /tmp.
std::filesystem::path temp_directory(const std::string& given);

/// A temporary file of records without a name in `dir` (O_TMPFILE, or a named file unlinked as soon
/// as it is created where that is not supported): the open file stays readable and writable, and
/// the system frees its space when it is closed, however the process ends (an error, Ctrl-C, a kill).
/// Records are 12 bytes (key, id) or, when `weighted`, 20 (key, id, weight); unweighted ones read
/// back with weight 1. Appends go through a buffer of `buffer_bytes` (at least 4 KiB, allocated on
/// the first append: an empty file costs no buffer). `who` names the caller in messages.
class spill_file {
 public:
  spill_file(const std::filesystem::path& dir, std::size_t buffer_bytes, bool weighted,
             const char* who = "make_report_out_of_core");
  ~spill_file();
  spill_file(const spill_file&) = delete;
  spill_file& operator=(const spill_file&) = delete;

  [[nodiscard]] std::size_t record_bytes() const { return weighted_ ? 20 : 12; }
  void add(const spill_record& r) {
    const std::size_t rb = record_bytes();
    if (used_ + rb > cap_) flush();
    if (!buf_) buf_ = std::make_unique_for_overwrite<char[]>(cap_);
    char* p = buf_.get() + used_;
    std::memcpy(p, &r.key, 8);
    std::memcpy(p + 8, &r.id, 4);
    if (weighted_) std::memcpy(p + 12, &r.w, 8);
    used_ += rb;
    ++count_;
  }
  /// Writes the buffered records.
  void flush();
  /// Reads records [from, from + n) into `out` (appended); with `id_map`, each record's id is
  /// id_map[id] (in the same pass).
  void read(std::uint64_t from, std::uint64_t n, std::vector<spill_record>& out, const std::uint32_t* id_map = nullptr);
  /// Overwrites the records (all count() of them) with `recs`, the same number of records (e.g.
  /// sorted, ids mapped), so that a later read finds them so. Returns the bytes written.
  std::uint64_t rewrite_sorted(const std::vector<spill_record>& recs);
  [[nodiscard]] std::uint64_t count() const { return count_; }
  /// Bytes written to the file so far (rewrites included).
  [[nodiscard]] std::uint64_t written() const { return written_; }
  /// Whether rewrite_sorted has replaced the records.
  [[nodiscard]] bool sorted() const { return sorted_; }

 private:
  const char* who_;
  bool weighted_;
  std::size_t cap_;
  std::unique_ptr<char[]> buf_;  // the records not yet written: used_ bytes of cap_
  std::size_t used_ = 0;
  std::string path_;  // for messages
  std::FILE* f_ = nullptr;
  std::uint64_t count_ = 0, written_ = 0;
  bool sorted_ = false;
};

/// Calls g(record) for every record of `f`, in file order, reading `step` records at a time.
template <class G>
void each_record(spill_file& f, std::uint64_t step, G&& g) {
  std::vector<spill_record> chunk;
  step = std::max<std::uint64_t>(step, 1);
  for (std::uint64_t from = 0, n = f.count(); from < n; from += step) {
    chunk.clear();
    f.read(from, std::min(n - from, step), chunk);
    for (const spill_record& r : chunk) g(r);
  }
}

/// Sorts by key, ascending (equal keys in any order). From 2^16 records whose keys vary in more than
/// a top digit, the curves' MSD-first kernel (detail/msd_sort.hpp), which may leave the records in
/// `scratch` (the two are then swapped); else the shared LSD kernel (detail/radix.hpp); std::sort
/// beyond its 2^32 - 1 limit. `scratch` keeps its capacity from one call to the next (a fresh buffer
/// per call costs its page faults). `threads`: the radix kernels' team (from 2^17 records).
void sort_by_key(std::vector<spill_record>& recs, std::vector<spill_record>& scratch, unsigned threads);

/// Split points for about `parts` key ranges: the quantiles of `keys` (sorted in place), ascending
/// and unique, none at the smallest key (no empty first range).
std::vector<std::uint64_t> quantile_splitters(std::vector<std::uint64_t>& keys, std::size_t parts);

/// Records spilled by key range: range p (file p) holds splitters[p - 1] <= key < splitters[p].
class key_spill {
 public:
  key_spill() = default;
  /// Ranges at the quantiles of `sample` for about `parts` ranges, one file each in `dir`; the
  /// files' write buffers share `buffer_bytes`.
  key_spill(std::vector<std::uint64_t> sample, std::size_t parts, const std::filesystem::path& dir,
            std::size_t buffer_bytes, bool weighted);
  /// Ranges at the given splitters (ascending, unique), the files' buffers sharing `buffer_bytes`.
  static key_spill at(std::vector<std::uint64_t> splitters, const std::filesystem::path& dir,
                      std::size_t buffer_bytes, bool weighted);

  /// The range of `key`.
  [[nodiscard]] std::size_t of(std::uint64_t key) const { return ranges_.index_of(key); }
  /// Appends `r` to its range's file.
  void add(const spill_record& r) { parts_[of(r.key)]->add(r); }
  /// Writes every buffer; returns the bytes the files hold so far (their written()).
  std::uint64_t flush();
  [[nodiscard]] std::size_t size() const { return parts_.size(); }
  [[nodiscard]] spill_file& operator[](std::size_t p) { return *parts_[p]; }
  [[nodiscard]] const std::vector<std::uint64_t>& splitters() const { return ranges_.splitters(); }
  [[nodiscard]] std::uint64_t count() const;

  /// Calls g(std::span<const spill_record>) with every record in key order (ascending, or
  /// descending when `!up`; equal keys in any order), a range at a time, sorted in memory: at most
  /// `cap_records` records and the sort's second buffer are held. A range of more records is split
  /// again (into files in `dir`, `buffer_bytes` of buffers) by the quantiles of a sample of its keys,
  /// up to 6 times; a range that cannot be split (one key fills the sample) is sorted whole.
  /// Returns the bytes written by the splits.
  template <class G>
  std::uint64_t for_each_sorted(std::uint64_t cap_records, const std::filesystem::path& dir, std::size_t buffer_bytes,
                                bool up, G&& g, unsigned threads = 1);

 private:
  template <class G>
  std::uint64_t sorted_range(spill_file& f, std::uint64_t cap_records, const std::filesystem::path& dir,
                             std::size_t buffer_bytes, bool up, G& g, unsigned threads, int depth,
                             std::vector<spill_record>& recs, std::vector<spill_record>& scratch);
  bool weighted_ = false;
  key_ranges ranges_;
  std::vector<std::unique_ptr<spill_file>> parts_;
};

template <class G>
std::uint64_t key_spill::for_each_sorted(std::uint64_t cap_records, const std::filesystem::path& dir,
                                         std::size_t buffer_bytes, bool up, G&& g, unsigned threads) {
  std::vector<spill_record> recs, scratch;
  std::uint64_t bytes = 0;
  for (std::size_t p = 0; p < parts_.size(); ++p) {
    spill_file& f = *parts_[up ? p : parts_.size() - 1 - p];
    bytes += sorted_range(f, cap_records, dir, buffer_bytes, up, g, threads, 0, recs, scratch);
  }
  return bytes;
}

template <class G>
std::uint64_t key_spill::sorted_range(spill_file& f, std::uint64_t cap_records, const std::filesystem::path& dir,
                                      std::size_t buffer_bytes, bool up, G& g, unsigned threads, int depth,
                                      std::vector<spill_record>& recs, std::vector<spill_record>& scratch) {
  const std::uint64_t n = f.count();
  if (n == 0) return 0;
  cap_records = std::max<std::uint64_t>(cap_records, 4);
  if (n > cap_records && depth < 6) {
    std::vector<std::uint64_t> keys;
    each_record(f, cap_records / 4, [&, i = std::uint64_t{0}, stride = n / (cap_records / 2) + 1](
                                        const spill_record& r) mutable {
      if (i++ % stride == 0) keys.push_back(r.key);
    });
    key_spill sub(std::move(keys), static_cast<std::size_t>(2 * n / cap_records + 1), dir, buffer_bytes, weighted_);
    if (sub.size() > 1) {
      each_record(f, cap_records / 4, [&](const spill_record& r) { sub.add(r); });
      std::uint64_t bytes = sub.flush();
      for (std::size_t p = 0; p < sub.size(); ++p) {
        bytes += sorted_range(sub[up ? p : sub.size() - 1 - p], cap_records, dir, buffer_bytes, up, g, threads,
                              depth + 1, recs, scratch);
      }
      return bytes;
    }
  }
  recs.clear();
  f.read(0, n, recs);
  sort_by_key(recs, scratch, threads);
  if (!up) std::reverse(recs.begin(), recs.end());
  g(std::span<const spill_record>(recs));
  return 0;
}

}  // namespace assay::scale::detail
