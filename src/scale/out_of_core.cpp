// `assay report` out of core; see include/assay/scale/out_of_core.hpp and docs/scaling.md.
//
// Pass 1 reads the file in pieces cut at line ends; each piece is parsed by the in-memory reader's
// parallel parser on its byte range of the file (or serially with the header line in front, where
// that parser gives up: the same table, and every message), one piece ahead, and added to an
// evaluation state that keeps everything but the score runs (cells, loss sums, classes), while on a
// second thread the score of every row becomes a record (order key, label id, weight) appended to
// one of P partition files by key range; the ranges are quantiles of the first piece's keys, so
// partitions are about equal. Pass 2 (twice when weighted, or unweighted with two threads) loads the
// partitions from the highest range down (lowest first for the ascending walk), sorts each in memory
// (the next one on a second thread while this one is walked) and hands its runs, highest key first,
// to the state's finish. A partition larger than its share of memory is split again by the
// quantiles of a sample of its own keys.
#include "assay/scale/out_of_core.hpp"

#include <algorithm>
#include <bit>
#include <barrier>
#include <map>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <future>
#include <optional>
#include <cmath>
#include <malloc.h>
#include <memory>
#include <unordered_map>
#include <fcntl.h>
#include <unistd.h>

#include "assay/detail/parallel.hpp"
#include "assay/detail/msd_sort.hpp"
#include "assay/detail/radix.hpp"
#include "assay/error.hpp"
#include "../io/parallel_table.hpp"
#include "key_ranges.hpp"
#include "piece_lines.hpp"
#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"
#include "assay/threads.hpp"
#include "state_impl.hpp"

namespace assay::scale {

namespace {

namespace fs = std::filesystem;

// A record of the score runs as spilled: key, label id (first-seen order of the file), weight.
struct record {
  std::uint64_t key;
  std::uint32_t id;
  double w;
  // Left uninitialised: a vector of records is resized before a read writes every field, and a
  // value-initialising resize would write each partition's records once more (a memset pass).
  record() noexcept {}  // NOLINT(modernize-use-equals-default): = default would zero them in resize
  record(std::uint64_t k, std::uint32_t i, double weight) noexcept : key(k), id(i), w(weight) {}
};

// A temporary file of records without a name in the temporary directory (O_TMPFILE, or a named file
// unlinked as soon as it is created where that is not supported): the open file stays readable and
// writable, and the system frees its space when it is closed, however the process ends (an error,
// Ctrl-C, a kill), so no spill is left behind.
class spill_file {
 public:
  spill_file(const fs::path& dir, std::size_t buffer_bytes, bool weighted)
      : weighted_(weighted), cap_(std::max<std::size_t>(buffer_bytes, 4096)) {
    int fd = -1;
#ifdef O_TMPFILE
    fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_EXCL, 0600);  // a file without a name (Linux >= 3.11)
    path_ = (dir / "(unnamed temporary file)").string();             // for messages only
#endif
    if (fd < 0) {  // no O_TMPFILE here (or not on this file system): a named file, unlinked at once
      std::string templ = (dir / "assay-spill-XXXXXX").string();
      fd = mkstemp(templ.data());
      if (fd < 0) throw_io(fmt::format("make_report_out_of_core: cannot create a temporary file in {}: {}",
                                       dir.string(), std::strerror(errno)));
      path_ = templ;
      (void)::unlink(templ.c_str());
    }
    f_ = fdopen(fd, "w+b");
    if (f_ == nullptr) {
      ::close(fd);
      throw_io(fmt::format("make_report_out_of_core: cannot open the temporary file {}", path_));
    }
  }
  ~spill_file() {
    if (f_ != nullptr) std::fclose(f_);
  }
  spill_file(const spill_file&) = delete;
  spill_file& operator=(const spill_file&) = delete;

  [[nodiscard]] std::size_t record_bytes() const { return weighted_ ? 20 : 12; }
  void add(const record& r) {
    const std::size_t rb = record_bytes();
    if (used_ + rb > cap_) flush();
    if (!buf_) buf_ = std::make_unique_for_overwrite<char[]>(cap_);  // on first use: empty partitions cost nothing
    char* p = buf_.get() + used_;
    std::memcpy(p, &r.key, 8);
    std::memcpy(p + 8, &r.id, 4);
    if (weighted_) std::memcpy(p + 12, &r.w, 8);
    used_ += rb;
    ++count_;
  }
  void flush() {
    if (used_ == 0) return;
    if (std::fwrite(buf_.get(), 1, used_, f_) != used_) {
      throw_io(fmt::format("make_report_out_of_core: cannot write the temporary file {} (disk full?)", path_));
    }
    written_ += used_;
    used_ = 0;
  }
  /// Reads records [from, from + n) into `out` (appended); with `id_map`, each record's id is
  /// id_map[id] (in the same pass).
  void read(std::uint64_t from, std::uint64_t n, std::vector<record>& out, const std::uint32_t* id_map = nullptr) {
    flush();
    const std::size_t rb = record_bytes();
    if (std::fseek(f_, static_cast<long>(from * rb), SEEK_SET) != 0) throw_io("make_report_out_of_core: seek failed");
    std::vector<char> chunk(std::min<std::uint64_t>(n, 1 << 16) * rb);
    while (n > 0) {
      const std::uint64_t k = std::min<std::uint64_t>(n, chunk.size() / rb);
      if (std::fread(chunk.data(), 1, k * rb, f_) != k * rb) {
        throw_io(fmt::format("make_report_out_of_core: cannot read the temporary file {}", path_));
      }
      const std::size_t at = out.size();
      out.resize(at + k);
      record* o = out.data() + at;
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
  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] std::uint64_t written() const { return written_; }
  /// Overwrites the records (all count() of them) with `recs`, the same records sorted by key with
  /// their spellings' codes in place of the ids, so that a later walk reads them without sorting
  /// again. Returns the bytes written.
  std::uint64_t rewrite_sorted(const std::vector<record>& recs) {
    flush();
    const std::size_t rb = record_bytes();
    if (std::fseek(f_, 0, SEEK_SET) != 0) throw_io("make_report_out_of_core: seek failed");
    std::vector<char> chunk(std::min<std::size_t>(recs.size(), 1 << 16) * rb);
    for (std::size_t from = 0; from < recs.size();) {
      const std::size_t k = std::min(recs.size() - from, chunk.size() / rb);
      char* c = chunk.data();
      for (std::size_t i = 0; i < k; ++i, c += rb) {
        const record& r = recs[from + i];
        std::memcpy(c, &r.key, 8);
        std::memcpy(c + 8, &r.id, 4);
        if (weighted_) std::memcpy(c + 12, &r.w, 8);
      }
      if (std::fwrite(chunk.data(), 1, k * rb, f_) != k * rb) {
        throw_io(fmt::format("make_report_out_of_core: cannot write the temporary file {} (disk full?)", path_));
      }
      from += k;
    }
    std::fseek(f_, 0, SEEK_END);
    sorted_ = true;
    written_ += recs.size() * rb;
    return recs.size() * rb;
  }
  /// Whether the records are sorted and carry codes (rewrite_sorted).
  [[nodiscard]] bool sorted() const { return sorted_; }

 private:
  bool weighted_;
  std::size_t cap_;
  std::unique_ptr<char[]> buf_;  // the records not yet written: used_ bytes of cap_
  std::size_t used_ = 0;
  std::string path_;
  std::FILE* f_ = nullptr;
  std::uint64_t count_ = 0, written_ = 0;
  bool sorted_ = false;
};

// Records split by key range: partition p holds splitters[p - 1] <= key < splitters[p].
struct partitioned {
  std::vector<std::uint64_t> splitters;  // ascending, unique (set with split_at)
  std::vector<std::unique_ptr<spill_file>> parts;
  detail::key_ranges ranges;  // the number of splitters <= a key (upper_bound's index), from a table
  void split_at(std::vector<std::uint64_t> s) {
    splitters = std::move(s);
    ranges = detail::key_ranges(splitters);
  }
  std::size_t of(std::uint64_t key) const { return ranges.index_of(key); }
};

// Splitters: the quantiles of `keys` (sorted in place) for about `parts` ranges.
std::vector<std::uint64_t> quantiles(std::vector<std::uint64_t>& keys, std::size_t parts) {
  std::sort(keys.begin(), keys.end());
  std::vector<std::uint64_t> s;
  for (std::size_t p = 1; p < parts && !keys.empty(); ++p) {
    const std::uint64_t k = keys[p * keys.size() / parts];
    if (s.empty() || k > s.back()) s.push_back(k);
  }
  if (!s.empty() && s.front() == keys.front()) s.erase(s.begin());  // no empty first range
  return s;
}

partitioned make_partitions(std::vector<std::uint64_t> sample, std::size_t parts, const fs::path& dir,
                            std::size_t buffer_bytes, bool weighted) {
  partitioned out;
  out.split_at(quantiles(sample, parts));
  for (std::size_t p = 0; p <= out.splitters.size(); ++p) {
    out.parts.push_back(std::make_unique<spill_file>(dir, buffer_bytes / (out.splitters.size() + 1), weighted));
  }
  return out;
}

fs::path temp_directory(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* t = std::getenv("TMPDIR"); t != nullptr && *t != 0) return t;
  return "/tmp";
}


struct record_key {
  std::uint64_t operator()(const record& r) const noexcept { return r.key; }
};

// Sorts by key, ascending (the order of equal keys does not matter: a key's records are tallied by
// spelling with exact sums). From 2^16 records whose keys vary in more than a top digit, the
// curves' MSD-first kernel (detail/msd_sort.hpp: one pass into buckets of neighbouring keys, each
// finished in cache), which leaves the records in `scratch` (the two are then swapped); else the
// shared LSD kernel (detail/radix.hpp); std::sort beyond its 2^32 - 1 limit. `scratch` keeps its
// capacity from one partition to the next (a fresh buffer per partition costs its page faults).
// `threads`: the team of the radix kernels (from 2^17 records).
void sort_by_key(std::vector<record>& recs, std::vector<record>& scratch, unsigned threads) {
  namespace msd = assay::detail::msd;
  const std::size_t n = recs.size();
  if (n < 2) return;
  if (n > 0xFFFFFFFFu) {
    std::sort(recs.begin(), recs.end(), [](const record& a, const record& b) { return a.key < b.key; });
    return;
  }
  if (scratch.size() < n) scratch.resize(n);
  const unsigned T = n < (std::size_t{1} << 17) ? 1u : threads;
  std::uint64_t o = 0, d = ~std::uint64_t{0};
  for (const record& r : recs) o |= r.key, d &= r.key;
  const std::uint64_t varying = o ^ d;
  const bool wide = std::bit_width(varying) > msd::kTopBits + static_cast<unsigned>(std::countr_zero(varying));
  if (n >= msd::kMsdMinCases && wide) {
    record* sorted = msd::msd_first<record, record_key>(recs.data(), scratch.data(), n, n, varying, T);
    if (sorted == scratch.data()) {
      std::swap(recs, scratch);
      recs.resize(n);
    }
    return;
  }
  assay::detail::radix_sorter<record, record_key> sorter(recs.data(), scratch.data(), n, T, 1);
  sorter.plan(n, varying);
  assay::detail::run_team(sorter.threads(), [&sorter](unsigned t, std::barrier<>& sync) { sorter.sort(t, sync); });
  if (sorter.result() != recs.data()) std::copy(sorter.result(), sorter.result() + n, recs.data());
}


// What the regression pass needs of make_report_out_of_core's budget.
struct spill_plan {
  fs::path dir;
  std::size_t spill_buffers;   // bytes of write buffers for one split
  std::uint64_t cap_records;   // records sorted in memory at once
  bool weighted;
};

// Calls g(record) for every record of `f`, in chunks of a quarter of the records held at once.
template <class G>
void each_record(spill_file& f, std::uint64_t cap_records, G&& g) {
  std::vector<record> chunk;
  const std::uint64_t step = std::max<std::uint64_t>(cap_records / 4, 1);
  for (std::uint64_t from = 0, n = f.count(); from < n; from += step) {
    chunk.clear();
    f.read(from, std::min(n - from, step), chunk);
    for (const record& r : chunk) g(r);
  }
}

// Visits the residual records of `f` (key: order key of |residual|, id: its sign, w: weight > 0) in
// ascending order of (|residual|, weight), median_absolute_error's order: g(key, id, w). A file of
// more than cap_records records is split again by the quantiles of an evenly spread sample of its
// keys; one whose sample is one key k (ties) is split three ways, below k, at k and above k, and the
// records at k are visited by weight (their key replaced by the weight's bits, `at_key` = k), or as
// they come when their weights are equal too. Memory: cap_records records and the sort's second buffer.
class residual_walk {
 public:
  residual_walk(const spill_plan& plan, out_of_core_info& inf)
      : plan_(plan), inf_(inf), threads_(assay::detail::team_threads(8)) {}

  template <class G>
  void visit(spill_file& f, G& g, int depth = 0, std::optional<std::uint64_t> at_key = std::nullopt) {
    const std::uint64_t n = f.count();
    if (n == 0) return;
    auto emit = [&](const record& r) {
      if (at_key) g(*at_key, r.id, r.w);
      else g(r.key, r.id, r.w);
    };
    if (n <= plan_.cap_records) {
      recs_.clear();
      f.read(0, n, recs_);
      inf_.largest_partition = std::max<std::uint64_t>(inf_.largest_partition, n);
      sort_by_key(recs_, scratch_, threads_);
      if (plan_.weighted && !at_key) {  // a key's records by weight (positive: their bits are in order)
        for (std::size_t j = 0; j < recs_.size();) {
          std::size_t i = j + 1;
          while (i < recs_.size() && recs_[i].key == recs_[j].key) ++i;
          if (i - j > 1) {
            std::sort(recs_.begin() + static_cast<std::ptrdiff_t>(j), recs_.begin() + static_cast<std::ptrdiff_t>(i),
                      [](const record& a, const record& b) { return a.w < b.w; });
          }
          j = i;
        }
      }
      for (const record& r : recs_) emit(r);
      return;
    }
    // An evenly spread sample of the keys (a sequential read of the file).
    const std::uint64_t want = std::max<std::uint64_t>(plan_.cap_records / 4, 2);
    const std::uint64_t stride = n / want + 1;
    std::vector<std::uint64_t> keys;
    std::uint64_t i = 0;
    each_record(f, plan_.cap_records, [&](const record& r) {
      if (i++ % stride == 0) keys.push_back(r.key);
    });
    std::sort(keys.begin(), keys.end());
    if (depth < 8 && keys.front() != keys.back()) {
      partitioned sub = make_partitions(keys, static_cast<std::size_t>(2 * n / plan_.cap_records + 2), plan_.dir,
                                        plan_.spill_buffers, plan_.weighted);
      if (!sub.splitters.empty()) {
        split(f, sub);
        for (auto& p : sub.parts) visit(*p, g, depth + 1, at_key);
        return;
      }
    }
    // The most frequent key of the sample: below it, at it, above it.
    std::uint64_t k = keys.front();
    std::size_t best = 0;
    for (std::size_t j = 0; j < keys.size();) {
      std::size_t e = j;
      while (e < keys.size() && keys[e] == keys[j]) ++e;
      if (e - j > best) best = e - j, k = keys[j];
      j = e;
    }
    const bool by_weight = plan_.weighted && !at_key;  // else the records at k are equal but for the sign
    partitioned three;
    std::vector<std::uint64_t> at_k{k, k + 1};
    if (k == ~std::uint64_t{0}) at_k.pop_back();
    three.split_at(std::move(at_k));
    for (std::size_t p = 0; p <= three.splitters.size(); ++p) {
      three.parts.push_back(std::make_unique<spill_file>(plan_.dir, plan_.spill_buffers / 3, plan_.weighted));
    }
    std::vector<record> chunk;
    const std::uint64_t step = std::max<std::uint64_t>(plan_.cap_records / 4, 1);
    for (std::uint64_t from = 0; from < n; from += step) {
      chunk.clear();
      f.read(from, std::min(n - from, step), chunk);
      for (record r : chunk) {
        const std::size_t p = three.of(r.key);
        if (p == 1 && by_weight) r.key = std::bit_cast<std::uint64_t>(r.w);
        three.parts[p]->add(r);
      }
    }
    for (auto& p : three.parts) {
      p->flush();
      inf_.spilled_bytes += p->written();
    }
    visit(*three.parts[0], g, depth + 1, at_key);
    if (by_weight) {
      visit(*three.parts[1], g, depth + 1, at_key ? at_key : std::optional<std::uint64_t>(k));
    } else {
      each_record(*three.parts[1], plan_.cap_records, emit);
    }
    if (three.parts.size() > 2) visit(*three.parts[2], g, depth + 1, at_key);
  }

 private:
  void split(spill_file& f, partitioned& sub) {
    each_record(f, plan_.cap_records, [&](const record& r) { sub.parts[sub.of(r.key)]->add(r); });
    for (auto& p : sub.parts) {
      p->flush();
      inf_.spilled_bytes += p->written();
    }
  }
  spill_plan plan_;
  out_of_core_info& inf_;
  unsigned threads_;  // the sorts' team, decided on the calling thread
  std::vector<record> recs_, scratch_;
};

// Regression's second pass: the spreads of the targets and residuals about their means (any order)
// and the median absolute error (the residuals in ascending (|residual|, weight) order, partition by
// partition from the lowest range; once the median is found, the rest are only summed, unsorted).
void regression_pass_2(detail::regression_sums& sums, spill_file& targets, partitioned& residuals,
                       const spill_plan& plan, out_of_core_info& inf) {
  const double mean_y = sums.mean_target().v, mean_r = sums.mean_residual().v;
  each_record(targets, plan.cap_records,
              [&](const record& r) { sums.spread_target(std::bit_cast<double>(r.key), r.w, 1, mean_y); });
  detail::median_walk median(sums.den.value());
  auto residual = [&](std::uint64_t key, std::uint32_t sign, double w) {
    const double a = assay::detail::from_order_key(key);
    sums.spread_residual(sign != 0 ? -a : a, w, 1, mean_r);
    if (!median.done) median.add(a, w);
  };
  residual_walk walk(plan, inf);
  for (auto& p : residuals.parts) {
    if (!median.done) {
      walk.visit(*p, residual);
    } else {
      each_record(*p, plan.cap_records, [&](const record& r) { residual(r.key, r.id, r.w); });
    }
  }
  sums.median = median.result();
}

}  // namespace

std::uint64_t available_memory() {
  std::uint64_t avail = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (meminfo >> key >> kb >> unit) {
    if (key == "MemAvailable:") {
      avail = kb * 1024;
      break;
    }
  }
  for (const char* f : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(f);
    std::string v;
    if (in >> v && !v.empty() && v != "max" && v.find_first_not_of("0123456789") == std::string::npos) {
      const std::uint64_t lim = std::stoull(v);
      if (lim > 0 && (avail == 0 || lim < avail)) avail = lim;
    }
  }
  return avail;
}

std::uint64_t in_memory_estimate(const std::string& path) {
  if (path == "-") return 0;
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || !fs::is_regular_file(path, ec)) return 0;
  return 2 * static_cast<std::uint64_t>(size);
}

report make_report_out_of_core(const report_request& q, const out_of_core_options& options, out_of_core_info* info) {
  const char* fn = "make_report_out_of_core";
  if (options.max_memory < (std::uint64_t{1} << 20)) {
    throw_usage(fmt::format("{}: max_memory is {} bytes; it must be at least 1 MiB", fn, options.max_memory));
  }
  const bool regression = q.task == task_kind::regression;
  if (q.ci_level && q.proba.empty() && !regression && (q.weight || q.ci == ci_method::bootstrap)) {
    // The Poisson bootstrap weighs every row by its id: the state would have to keep every row. (Class
    // probabilities and regression keep their rows for every interval, in memory, within a quarter of
    // the cap.)
    throw_usage(fmt::format("{}: intervals with {} resample rows, which needs every row in memory: they are not "
                            "computed out of core", fn, q.weight ? "weights" : "ci_method bootstrap"));
  }
  if (q.path == "-") throw_usage(fmt::format("{}: standard input cannot be read out of core (give a file)", fn));
  if ((q.score ? 1 : 0) + (q.pred ? 1 : 0) + (q.proba.empty() ? 0 : 1) != 1 || (regression && !q.pred)) {
    throw_usage(fmt::format("{}: give exactly one of a score column, a predicted-class column and class-probability "
                            "columns (a predicted-value column for regression)", fn));
  }
  const evaluate_options eo = options_of(q);
  const std::uint64_t budget = options.max_memory;
  out_of_core_info local;
  out_of_core_info& inf = info != nullptr ? *info : local;
  inf = {};

  // The header (read by the CSV reader: BOM, delimiter detection) and where the data starts.
  std::uint64_t data_start = 0;
  std::string name;
  std::vector<std::string> fields;
  {
    io::csv_reader head(q.path, q.csv);
    data_start = head.offset();
    name = head.name();
    fields = head.header();
  }
  std::ifstream file(q.path, std::ios::binary);
  if (!file) throw_io(fmt::format("{}: cannot open {}", q.path, q.path));
  std::string header(data_start, '\0');
  file.read(header.data(), static_cast<std::streamsize>(data_start));
  if (!header.empty() && header.back() != '\n') header.push_back('\n');
  const std::uint64_t file_bytes = fs::file_size(q.path);

  const bool scores = q.score.has_value();
  state_options so = detail::state_options_of(q, name);
  // Regression reads the target and the predicted value as numbers (data/predictions.hpp's column_specs).
  const io::column_type label_type = regression ? io::column_type::number : io::column_type::label;
  std::vector<io::column_spec> specs{{q.label, label_type, param("label")}};
  if (scores) specs.push_back({*q.score, io::column_type::number, param("scores")});
  else if (q.pred) specs.push_back({*q.pred, label_type, param("predictions")});
  if (so.weighted) specs.push_back({*q.weight, io::column_type::weight, param("weight")});
  if (!q.proba.empty()) {
    // The probability columns' header names (the state's proba_names, as read_predictions names them);
    // a column that does not exist is read_table's message on the first piece.
    for (const auto& ref : q.proba) {
      specs.push_back({ref, io::column_type::probability, param("proba")});
      try {
        so.proba_names.push_back(fields.at(io::find_column(fields, ref, name)));
      } catch (const std::exception&) {
        so.proba_names.push_back(ref);
      }
    }
  }
  evaluation_state state(so);
  auto& s = detail::state_access::of(state);
  s.keep_runs = false;

  // Memory (docs/scaling.md): pass 1 holds a piece's text (budget / 16), its columns (about as much
  // again), the CSV reader's buffer and the spill buffers (budget / 16); pass 2 one partition's
  // records (budget / 8, 24 bytes a record) and the radix sort's second buffer (as much again). The rest is the process itself
  // (code, thread pool: about 15 MiB) and allocator slack.
  const std::size_t piece_bytes = static_cast<std::size_t>(budget / 16);
  const std::size_t spill_buffers = static_cast<std::size_t>(budget / 16);
  const std::uint64_t cap_records = budget / 8 / sizeof(record);
  const fs::path dir = temp_directory(options.temp_dir);
  std::vector<std::string> ids;  // label spellings by first-seen id
  std::unordered_map<std::string, std::uint32_t> id_of;
  std::unique_ptr<partitioned> parts;
  // Regression: the sums of every row (detail::regression_sums, first stage), the targets of the rows
  // of positive weight (record key: the target's bits) and their residuals y - yhat by range of
  // |residual| (key: the order key of |residual|, id: its sign), for the spreads and the median.
  detail::regression_sums rsum;
  std::unique_ptr<spill_file> targets;

  io::csv_options csv = q.csv;
  csv.chunk_bytes = std::min<std::size_t>(csv.chunk_bytes, std::max<std::size_t>(piece_bytes / 4, 1 << 16));
  std::uint64_t lines_before = 0;  // data lines before the next piece
  std::uint64_t rows_before = 0;   // rows of the pieces added so far: the next row's index
  std::uint64_t next_byte = data_start;  // where the next piece starts
  bool first_piece = true;
  struct piece_range {
    std::uint64_t first, last;  // bytes of the file
  };
  // The next piece: from next_byte to just after the first line feed at or after piece_bytes further
  // on (a record longer than that is read whole), or to the end of the file; nullopt at the end. The
  // first piece is returned even when the file has no data bytes (read_table then says so).
  std::vector<char> probe(std::size_t{1} << 16);
  auto next_piece = [&]() -> std::optional<piece_range> {
    if (next_byte >= file_bytes && !first_piece) return std::nullopt;
    first_piece = false;
    const std::uint64_t first = std::min(next_byte, file_bytes);
    std::uint64_t last = file_bytes;
    if (file_bytes - first > piece_bytes) {
      std::uint64_t pos = first + piece_bytes - 1;
      file.clear();
      file.seekg(static_cast<std::streamoff>(pos));
      while (pos < file_bytes) {
        file.read(probe.data(), static_cast<std::streamsize>(std::min<std::uint64_t>(probe.size(), file_bytes - pos)));
        const auto got = static_cast<std::size_t>(file.gcount());
        if (got == 0) break;  // the file was cut shorter: the parse says what it finds
        if (const void* nl = std::memchr(probe.data(), '\n', got)) {
          last = pos + static_cast<std::uint64_t>(static_cast<const char*>(nl) - probe.data()) + 1;
          break;
        }
        pos += got;
      }
    }
    next_byte = last;
    return piece_range{first, last};
  };
  // A piece's rows, parsed in parallel by the in-memory reader's parser (io::read_table's, on a byte
  // range of the file: each thread maps its part of the piece and writes its rows in place), and
  // the piece's line feeds. Where that parser gives up (a quote, an odd byte, any error, one thread
  // allowed) the piece is read serially with the header line in front, exactly as read_table reads a
  // file, which gives every message its line (shifted to the file's). Both give the same table.
  struct parsed {
    io::table t;
    std::uint64_t lines = 0;
  };
  io::csv_reader head(q.path, csv);  // the header, as the parallel parser needs it (read-only while pieces are parsed)
  io::detail::parallel_settings ps;
  ps.max_threads = assay::detail::team_threads(8);
  // At least 256 KiB a thread: a smaller piece is parsed serially faster than threads start (at a cap
  // of 1 MiB, pieces of 64 KiB in parallel made the run 1.5x slower).
  ps.min_bytes_per_thread = std::max<std::uint64_t>(piece_bytes / 8, std::uint64_t{256} << 10);
  ps.max_record_bytes = q.csv.max_record_bytes;
  auto parse = [&, ps](piece_range r, std::uint64_t lines_before) -> parsed {
    parsed out;
    try {
      if (auto t = io::detail::read_range_parallel(q.path, head, specs, r.first, r.last, ps, &out.lines)) {
        out.t = std::move(*t);
      } else {
        std::string text = header;
        text.resize(header.size() + (r.last - r.first));
        std::ifstream in(q.path, std::ios::binary);
        in.seekg(static_cast<std::streamoff>(r.first));
        in.read(text.data() + header.size(), static_cast<std::streamsize>(r.last - r.first));
        text.resize(header.size() + static_cast<std::size_t>(in.gcount()));
        if (text.find('"', header.size()) != std::string::npos) {
          throw_data(fmt::format("{}: the file has quote characters; it cannot be read out of core (its records "
                                 "cannot be cut at line ends): read it in memory", name));
        }
        out.lines = static_cast<std::uint64_t>(
            std::count(text.begin() + static_cast<std::ptrdiff_t>(header.size()), text.end(), '\n'));
        io::csv_reader reader = io::csv_reader::from_string(std::move(text), q.path, csv);
        out.t = io::read_table(reader, specs, true);  // rows with an empty cell: counted, refused below
      }
      if (out.t.missing.rows > 0) out.t.missing.first_line += lines_before;
      return out;
    } catch (const error& e) {
      detail::rethrow_with_line(e, name, lines_before);
    }
  };
  // Two pieces in flight when two threads are allowed: the next one is parsed while this one is
  // added to the state and spilled (the order of the pieces is kept, so messages and results are
  // those of the serial reading).
  const bool pipelined = assay::max_threads() >= 2;
  std::future<parsed> ahead;
  auto launch = [&] {
    std::optional<piece_range> p = next_piece();
    if (!p) return false;
    ahead = pipelined ? std::async(std::launch::async, parse, *p, lines_before)
                      : std::async(std::launch::deferred, parse, *p, lines_before);
    return true;
  };
  // Appends a piece's regression rows: their sums (first stage), the targets of the rows of positive
  // weight, and their residuals to the partitions by range of |residual| (made from the first piece's).
  auto spill_regression_piece = [&](const io::table& t) {
    const auto& y = t.columns[0].numbers;
    const auto& yhat = t.columns[1].numbers;
    const double* wt = so.weighted ? t.columns[2].numbers.data() : nullptr;
    if (!parts) {
      std::vector<std::uint64_t> sample(y.size());
      for (std::size_t i = 0; i < y.size(); ++i) sample[i] = assay::detail::order_key(std::abs(y[i] - yhat[i]));
      const double rows_est = static_cast<double>(t.rows) * static_cast<double>(file_bytes) /
                              static_cast<double>(std::min<std::uint64_t>(file_bytes, piece_bytes) + 1);
      const auto want = static_cast<std::size_t>(std::clamp(rows_est / static_cast<double>(cap_records) * 3, 1.0, 4096.0));
      parts = std::make_unique<partitioned>(make_partitions(std::move(sample), want, dir, spill_buffers / 2, so.weighted));
      targets = std::make_unique<spill_file>(dir, spill_buffers / 2, so.weighted);
    }
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double w = wt != nullptr ? wt[i] : 1.0;
      if (std::isnan(y[i]) || std::isnan(yhat[i]) || std::isnan(w)) continue;  // skipped by the state (drop_missing)
      const double r = y[i] - yhat[i];
      rsum.add_target(y[i], w, 1);
      rsum.add_residual(r, w, 1);
      if (w == 0) continue;  // no term of the spreads or the median
      targets->add({std::bit_cast<std::uint64_t>(y[i]), 0, w});
      const std::uint64_t key = assay::detail::order_key(std::abs(r));
      parts->parts[parts->of(key)]->add({key, std::signbit(r) ? 1U : 0U, w});
    }
  };
  // Appends a piece's score records to the partitions (made from the first piece's keys).
  auto spill_piece = [&](const io::table& t) {
    const io::column& lab = t.columns[0];
    std::vector<std::uint32_t> level_id(lab.levels.size());
    for (std::size_t k = 0; k < lab.levels.size(); ++k) {
      auto [it, fresh] = id_of.emplace(lab.levels[k], static_cast<std::uint32_t>(ids.size()));
      if (fresh) ids.push_back(lab.levels[k]);
      level_id[k] = it->second;
    }
    const auto& sc = t.columns[1].numbers;
    if (!parts) {
      std::vector<std::uint64_t> sample(sc.size());
      for (std::size_t i = 0; i < sc.size(); ++i) sample[i] = assay::detail::order_key(sc[i]);
      // Rows of the file, estimated from the first piece (about piece_bytes of text); three
      // partitions per partition's worth of records, so that few need to be split again.
      const double rows_est = static_cast<double>(t.rows) * static_cast<double>(file_bytes) /
                              static_cast<double>(std::min<std::uint64_t>(file_bytes, piece_bytes) + 1);
      const auto want = static_cast<std::size_t>(std::clamp(rows_est / static_cast<double>(cap_records) * 3, 1.0, 4096.0));
      parts = std::make_unique<partitioned>(make_partitions(std::move(sample), want, dir, spill_buffers, so.weighted));
    }
    for (std::size_t i = 0; i < sc.size(); ++i) {
      const std::uint64_t key = assay::detail::order_key(sc[i]);
      parts->parts[parts->of(key)]->add({key, level_id[static_cast<std::size_t>(lab.codes[i])],
                                         so.weighted ? t.columns[2].numbers[i] : 1.0});
    }
  };
  // Scores (no rows kept) with two threads: the update of a piece is shared between two states
  // (above), which give the same report merged as one state given all rows (evaluation_state::merge:
  // exact sums and counts; tests/scale/state_test.cpp checks any partition and merge order).
  const bool halves = pipelined && so.kind == prediction_kind::scores && !so.row_ids;
  std::optional<evaluation_state> state2;
  if (halves) state2.emplace(so);
  auto& s2 = detail::state_access::of(halves ? *state2 : state);
  s2.keep_runs = false;
  // The reliability curve's sums of scores are read only by kept curves (--html): without them, a
  // bin, a tally and an exact sum a row less in pass 1.
  s.calibration = s2.calibration = eo.keep_curves;
  // Each score row's log-loss and Brier terms for the class its spelling is in as far as the
  // spellings seen tell (a logarithm and two exact sums a row less than for both classes); the
  // spellings whose class changed later are summed again from the spill after pass 1 (below).
  s.one_class_loss = s2.one_class_loss = scores;
  bool more = launch();
  io::missing_rows missing;  // of the whole file
  while (more) {
    parsed got = ahead.get();
    lines_before += got.lines;
    more = launch();
    io::table& t = got.t;
    missing.add(t.missing);
    ++inf.pieces;
    // The columns' header names, for the report's header (as read_predictions names them).
    s.o.label_name = t.columns[0].name;
    if (so.kind != prediction_kind::proba) s.o.prediction_name = t.columns[1].name;
    s2.o.label_name = s.o.label_name;  // the second state's (the same state when there is none)
    s2.o.prediction_name = s.o.prediction_name;
    if (t.rows == 0) continue;
    // The piece's score records go to the partitions by key range while the state adds its rows: the
    // two read the piece's columns and write nothing the other reads, so they run at the same time
    // (each keeps the order of the rows, so the result is the serial one). An error of the spill is
    // rethrown only after the state's, as the serial order would have it.
    std::exception_ptr spill_error;
    auto spill = [&] {
      if (!scores && !regression) return;
      try {
        if (scores) spill_piece(t);
        else spill_regression_piece(t);
      } catch (...) {
        spill_error = std::current_exception();
      }
    };
    if (halves) {
      // The state's update is the longest of the three (two logarithms and exact sums a row): its
      // rows are shared between two states, each half in the order of the file, merged after pass 1.
      // A half's error is rethrown in the order of the rows (the first half's first).
      const std::size_t h = t.rows / 2;
      std::exception_ptr second_error;
      assay::detail::run_both(
          [&] {
            assay::detail::run_both([&] { detail::update_with_piece(state, t, name, rows_before, 0, h); },
                                    [&] {
                                      try {
                                        detail::update_with_piece(*state2, t, name, rows_before, h);
                                      } catch (...) {
                                        second_error = std::current_exception();
                                      }
                                    });
          },
          spill);
      if (second_error) std::rethrow_exception(second_error);
    } else {
      assay::detail::run_both([&] { detail::update_with_piece(state, t, name, rows_before); }, spill);
    }
    if (spill_error) std::rethrow_exception(spill_error);
    rows_before += t.rows;
    if (so.kind == prediction_kind::proba && state.memory_bytes() > budget / 4) {
      // The probability columns' runs are held in memory (not spilled as a score's are), and a merge
      // of a column's runs briefly holds them twice: a quarter of the cap. With intervals, the rows
      // kept for them are held too (every interval of class probabilities reads every row).
      throw_data(fmt::format("{}: the class probabilities {} to be evaluated within {} KiB (their state holds {} KiB "
                             "after {} rows, more than a quarter of it): raise max_memory or read the file in memory",
                             name,
                             so.row_ids ? "and the rows kept for their intervals (every row) are too many"
                                        : "have too many distinct values",
                             budget >> 10, state.memory_bytes() >> 10, rows_before));
    }
    if (regression && state.memory_bytes() > budget / 4) {
      // Only the rows kept for the intervals (every interval of regression resamples rows) grow.
      throw_data(fmt::format("{}: the rows kept for the intervals of regression (every row) are too many to be "
                             "evaluated within {} KiB (the state holds {} KiB after {} rows, more than a quarter of "
                             "it): raise max_memory, or drop ci_level",
                             name, budget >> 10, state.memory_bytes() >> 10, rows_before));
    }
  }
  if (halves) {
    state.merge(std::move(*state2));
    state2.reset();
  }
  if (!q.csv.drop_missing) io::refuse_missing(missing, name);
  if (missing.rows > 0 && state.rows() == 0) {  // as read_table says it of the whole file
    throw_data(fmt::format("{}: no data rows after the header but rows with a missing value ({} skipped, the first on "
                           "line {})", name, missing.rows, missing.first_line));
  }
  if (parts) {
    for (auto& p : parts->parts) {
      p->flush();
      inf.spilled_bytes += p->written();
    }
    inf.partitions = parts->parts.size();
  }

  malloc_trim(0);  // give pass 1's buffers back before pass 2 allocates its own
  if (regression) {
    if (targets) {
      targets->flush();
      inf.spilled_bytes += targets->written();
    }
    if (rsum.seen) regression_pass_2(rsum, *targets, *parts, {dir, spill_buffers, cap_records, so.weighted}, inf);
    report r = detail::finish_state(s, eo, [](const detail::run_visitor&) {}, nullptr, nullptr, &rsum);
    if (q.csv.drop_missing) r.missing = missing.rows;
    return r;
  }

  // Pass 2: the partitions, highest range first, each sorted in memory (split again when too big).
  std::vector<std::uint32_t> code_of_id(ids.size());
  for (std::size_t k = 0; k < ids.size(); ++k) {
    code_of_id[k] = static_cast<std::uint32_t>(std::lower_bound(s.dict.begin(), s.dict.end(), ids[k]) - s.dict.begin());
  }
  // The loss sums of the spellings whose class changed during pass 1 (one_class_loss: a spelling's
  // rows added before its class was known for good, e.g. a file whose first piece holds one class
  // only): that class's terms again, over every row of the spelling, from the spill (every row of
  // positive weight is there: the same terms, w * term as update() takes them, summed exactly).
  if (const auto redo = detail::losses_to_redo(s); !redo.empty() && parts) {
    std::vector<int> class_k(s.dict.size(), -1);
    for (const auto& [code, k] : redo) {
      class_k[code] = k;
      s.loss[code].log_loss[k] = exact_sum();
      s.loss[code].brier[k] = exact_sum();
    }
    for (auto& p : parts->parts) {
      each_record(*p, cap_records, [&](const record& r) {
        const std::uint32_t code = code_of_id[r.id];
        const int k = class_k[code];
        if (k < 0 || r.w == 0) return;
        const double x = assay::detail::from_order_key(r.key);
        detail::losses& l = s.loss[code];
        l.log_loss[k].add(r.w * binary_log_loss_term(x, static_cast<std::size_t>(k)));
        l.brier[k].add(r.w * binary_brier_term(x, static_cast<std::size_t>(k)));
      });
    }
    for (const auto& [code, k] : redo) s.loss[code].have |= static_cast<std::uint8_t>(1U << k);
    inf.loss_rereads += parts->parts.size();
  }
  std::vector<record> recs, sort_scratch;  // one partition's records and the sort's second buffer, reused
  std::vector<std::pair<std::uint32_t, detail::tally>> codes_seen;  // one key's tallies by spelling (few)
  // The runs handed to the finish in batches (detail::run_batch_source: one call per batch, not per
  // run); `batch_size` of them are filled, then handed over.
  constexpr std::size_t batch_cap = 4096;
  std::vector<detail::run> batch(batch_cap);
  std::size_t batch_size = 0;
  auto put_run = [&](std::uint64_t key, std::uint32_t code, std::uint64_t n, const exact_sum* w,
                     const detail::run_batch_visitor& g) {
    detail::run& r = batch[batch_size];
    r.key = key;
    r.code = code;
    r.t.n = n;
    if (w != nullptr) r.t.w = *w;
    if (++batch_size == batch_cap) {
      g(std::span<const detail::run>(batch.data(), batch_size));
      batch_size = 0;
    }
  };
  auto flush_runs = [&](const detail::run_batch_visitor& g) {
    if (batch_size > 0) g(std::span<const detail::run>(batch.data(), batch_size));
    batch_size = 0;
  };
  // The sort's team, decided here: the helper thread that sorts the next partition does not carry the
  // caller's thread_limit (threads.hpp).
  const unsigned sort_threads = assay::detail::team_threads(8);
  // Reads a partition's records into `recs` with their spellings' codes, sorted by key. A partition
  // is sorted once: with `write_back` (another walk will read it) the sorted records replace the
  // file's, which later walks read as they are (writing 12 bytes a record costs less than a second
  // sort). Returns the bytes written.
  auto load_sorted = [&](spill_file& f, std::vector<record>& recs, std::vector<record>& scratch,
                         bool write_back) -> std::uint64_t {
    recs.clear();
    if (f.sorted()) {
      f.read(0, f.count(), recs);
      return 0;
    }
    f.read(0, f.count(), recs, code_of_id.data());  // the spellings' codes in place of the ids
    sort_by_key(recs, scratch, sort_threads);
    return write_back ? f.rewrite_sorted(recs) : 0;
  };
  // Partitions are walked again after the first walk with two threads (the ascending walk) and when
  // weighted (the totals, then the sweep); unweighted on one thread the runs file serves instead.
  const bool write_back = pipelined || so.weighted;
  // Hands the runs of sorted records `recs` to g (in batches, the last one at the caller's
  // flush_runs): highest key first (lowest when up); within a key, one tally per spelling (in any
  // order: the walk sums a key's spellings exactly). Leaves `recs` empty (its capacity serves the
  // next partition).
  auto emit_sorted = [&](std::vector<record>& recs, const detail::run_batch_visitor& g, bool up) {
    auto emit = [&](std::size_t j, std::size_t i) {  // the records [j, i) of one key
      if (i - j == 1) {  // a distinct score: its one record
        if (so.weighted) {
          exact_sum w;
          w.add(recs[j].w);
          put_run(recs[j].key, recs[j].id, 1, &w, g);
        } else {
          put_run(recs[j].key, recs[j].id, 1, nullptr, g);
        }
        return;
      }
      codes_seen.clear();
      for (std::size_t k = j; k < i; ++k) {
        auto it = std::find_if(codes_seen.begin(), codes_seen.end(), [&](const auto& c) { return c.first == recs[k].id; });
        if (it == codes_seen.end()) it = codes_seen.emplace(codes_seen.end(), recs[k].id, detail::tally{});
        ++it->second.n;
        if (so.weighted) it->second.w.add(recs[k].w);
      }
      for (const auto& [code, t] : codes_seen) put_run(recs[j].key, code, t.n, so.weighted ? &t.w : nullptr, g);
    };
    if (up) {
      for (std::size_t j = 0; j < recs.size();) {
        std::size_t i = j + 1;
        while (i < recs.size() && recs[i].key == recs[j].key) ++i;
        emit(j, i);
        j = i;
      }
    } else {
      for (std::size_t i = recs.size(); i > 0;) {
        std::size_t j = i - 1;
        while (j > 0 && recs[j - 1].key == recs[i - 1].key) --j;
        emit(j, i);
        i = j;
      }
    }
    recs.clear();
  };
  // Visits a partition's runs, highest key first, or lowest first when `up`.
  std::function<void(spill_file&, const detail::run_batch_visitor&, int, bool)> visit_part =
      [&](spill_file& f, const detail::run_batch_visitor& g, int depth, bool up) {
        const std::uint64_t n = f.count();
        if (n == 0) return;
        if (n > cap_records && depth < 6) {
          std::vector<record> sample;
          f.read(0, std::min<std::uint64_t>(n, cap_records / 2), sample);
          std::vector<std::uint64_t> keys(sample.size());
          for (std::size_t i = 0; i < sample.size(); ++i) keys[i] = sample[i].key;
          sample = std::vector<record>();
          partitioned sub = make_partitions(std::move(keys), static_cast<std::size_t>(2 * n / cap_records + 1), dir,
                                            spill_buffers, so.weighted);
          if (!sub.splitters.empty()) {  // else one key fills the sample: sort it as it is
            std::vector<record> chunk;
            for (std::uint64_t from = 0; from < n; from += cap_records / 4) {
              chunk.clear();
              f.read(from, std::min<std::uint64_t>(n - from, cap_records / 4), chunk);
              for (const auto& r : chunk) sub.parts[sub.of(r.key)]->add(r);
            }
            for (auto& p : sub.parts) {
              p->flush();
              inf.spilled_bytes += p->written();
            }
            for (std::size_t p = 0; p < sub.parts.size(); ++p) {
              visit_part(*sub.parts[up ? p : sub.parts.size() - 1 - p], g, depth + 1, up);
            }
            return;
          }
        }
        if (n > cap_records) {
          // Few distinct keys among many records (heavy ties): aggregate chunk by chunk into one
          // tally per (key, spelling) instead of holding the records.
          std::map<std::pair<std::uint64_t, std::uint32_t>, detail::tally, std::greater<>> agg;
          std::vector<record> chunk;
          for (std::uint64_t from = 0; from < n; from += cap_records / 4) {
            chunk.clear();
            f.read(from, std::min<std::uint64_t>(n - from, cap_records / 4), chunk);
            for (const auto& r : chunk) {
              detail::tally& t = agg[{r.key, code_of_id[r.id]}];
              ++t.n;
              if (so.weighted) t.w.add(r.w);
            }
          }
          auto put = [&](const std::pair<std::uint64_t, std::uint32_t>& k, const detail::tally& t) {
            put_run(k.first, k.second, t.n, so.weighted ? &t.w : nullptr, g);
          };
          if (up) {
            for (auto it = agg.rbegin(); it != agg.rend(); ++it) put(it->first, it->second);
          } else {
            for (const auto& [k, t] : agg) put(k, t);
          }
          return;
        }
        inf.largest_partition = std::max<std::uint64_t>(inf.largest_partition, n);
        load_sorted(f, recs, sort_scratch, false);  // a piece of a split partition: split again next walk
        emit_sorted(recs, g, up);
      };
  // Pass 2 overlaps the partitions: while the runs of one are walked (on this thread: the finish's
  // accumulators are serial), the next one that fits in memory is read and sorted on a second thread
  // into a second buffer (the sort's second buffer is the helper's; the partition walked keeps its
  // own). The runs handed to the finish are the same, in the same order: only the time they are
  // sorted at changes. Memory: three partitions' worth of records instead of two (docs/scaling.md).
  std::vector<record> ahead_recs;
  auto walk = [&](const detail::run_batch_visitor& g, bool up) {
    if (!parts) return;
    const std::size_t m = parts->parts.size();
    auto at = [&](std::size_t p) -> spill_file& { return *parts->parts[up ? p : m - 1 - p]; };
    auto fits = [&](std::size_t p) { return at(p).count() <= cap_records; };
    std::future<std::uint64_t> next;  // reads and sorts partition p + 1 into ahead_recs
    for (std::size_t p = 0; p < m; ++p) {
      bool loaded = false;
      if (next.valid()) {
        inf.spilled_bytes += next.get();
        std::swap(recs, ahead_recs);
        loaded = true;
      }
      if (!fits(p)) {  // split again or tallied, on this thread alone (it uses both buffers)
        visit_part(at(p), g, 0, up);
        continue;
      }
      if (!loaded) inf.spilled_bytes += load_sorted(at(p), recs, sort_scratch, write_back);
      inf.largest_partition = std::max<std::uint64_t>(inf.largest_partition, at(p).count());
      if (pipelined && p + 1 < m && fits(p + 1) && at(p + 1).count() > 0) {
        next = std::async(std::launch::async,
                          [&, q = p + 1] { return load_sorted(at(q), ahead_recs, sort_scratch, write_back); });
      }
      emit_sorted(recs, g, up);
    }
    flush_runs(g);
  };
  // The ascending walk lets an unweighted finish stream the other class's areas instead of holding
  // the sweep of every distinct score. With two threads it reads the partitions again, lowest range
  // first, as the first walk rewrote them sorted, on the second thread (above), so this thread only
  // walks. On one
  // thread, unweighted, the first descending walk instead writes its runs (key, spelling, count: 20
  // bytes a run, at most 20 bytes a row) to a file that the ascending walk then reads backwards: less
  // CPU than a second sort, but all of it on the one thread that also walks (measured at 10^7 rows,
  // 32M: the walking thread's share of the CPU fell from 57% to 42% without the file).
  std::unique_ptr<spill_file> walked;
  bool recorded = false;
  const detail::run_batch_source descending = [&](const detail::run_batch_visitor& g) {
    if (so.weighted || pipelined || recorded || walked) return walk(g, false);
    walked = std::make_unique<spill_file>(dir, spill_buffers, true);
    walk([&](std::span<const detail::run> runs) {
      for (const detail::run& r : runs) walked->add({r.key, r.code, static_cast<double>(r.t.n)});  // a count below 2^53: exact
      g(runs);
    }, false);
    walked->flush();
    inf.spilled_bytes += walked->written();
    recorded = true;
  };
  const detail::run_batch_source ascending = [&](const detail::run_batch_visitor& g) {
    if (!recorded) return walk(g, true);
    std::vector<record> chunk;
    const std::uint64_t step = std::max<std::uint64_t>(cap_records / 4, 1);
    for (std::uint64_t end = walked->count(); end > 0;) {
      const std::uint64_t from = end > step ? end - step : 0;
      chunk.clear();
      walked->read(from, end - from, chunk);
      for (std::size_t k = chunk.size(); k > 0; --k) {
        put_run(chunk[k - 1].key, chunk[k - 1].id, static_cast<std::uint64_t>(chunk[k - 1].w), nullptr, g);
      }
      end = from;
    }
    flush_runs(g);
  };
  // Weighted: the other class's areas read the forward sweep's running sums backwards; they go to
  // one more temporary file (20 bytes a distinct score: the record's key holds tp's bits, its weight
  // fp) instead of a sweep in memory.
  std::unique_ptr<spill_file> sums;
  detail::sweep_store store;
  store.put = [&](double tp, double fp) {
    if (!sums) sums = std::make_unique<spill_file>(dir, spill_buffers, true);
    sums->add({std::bit_cast<std::uint64_t>(tp), 0, fp});
  };
  store.backwards = [&](const std::function<void(double, double)>& g) {
    if (!sums) return;
    sums->flush();
    inf.spilled_bytes += sums->written();
    std::vector<record> chunk;
    const std::uint64_t step = std::max<std::uint64_t>(cap_records / 4, 1);
    for (std::uint64_t end = sums->count(); end > 0;) {
      const std::uint64_t from = end > step ? end - step : 0;
      chunk.clear();
      sums->read(from, end - from, chunk);
      for (std::size_t k = chunk.size(); k > 0; --k) g(std::bit_cast<double>(chunk[k - 1].key), chunk[k - 1].w);
      end = from;
    }
  };
  report r = detail::finish_state(s, eo, descending, &ascending, so.weighted ? &store : nullptr);
  if (q.csv.drop_missing) r.missing = missing.rows;
  return r;
}

}  // namespace assay::scale
