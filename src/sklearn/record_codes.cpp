#include "assay/sklearn/record_codes.hpp"

#include <cstring>
#include <fmt/format.h>

#include "assay/error.hpp"

namespace assay::sklearn {
namespace {

std::uint64_t hash_record(const std::uint8_t* p, std::size_t width) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ width;
  std::size_t i = 0;
  for (; i + 8 <= width; i += 8) {
    std::uint64_t x;
    std::memcpy(&x, p + i, 8);
    h = (h ^ x) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  if (i < width) {
    std::uint64_t x = 0;
    std::memcpy(&x, p + i, width - i);
    h = (h ^ x) * 0x94D049BB133111EBull;
    h ^= h >> 29;
  }
  return h;
}

// Open addressing over the distinct records (slots hold an index into `first`, or -1).
class record_table {
 public:
  record_table(const std::uint8_t* const* bases, std::size_t width) : bases_(bases), width_(width) { rehash(64); }

  // The code of the record at (array a, index i), adding it when new.
  std::int32_t code(int a, std::size_t i, std::int64_t position) {
    const std::uint8_t* rec = bases_[a] + i * width_;
    std::uint64_t h = hash_record(rec, width_);
    for (std::size_t s = h & mask_;; s = (s + 1) & mask_) {
      const std::int32_t c = slots_[s];
      if (c < 0) {
        slots_[s] = static_cast<std::int32_t>(records_.size());
        records_.push_back(rec);
        hashes_.push_back(h);
        first_.push_back(position);
        if (records_.size() * 2 > slots_.size()) rehash(slots_.size() * 2);
        return static_cast<std::int32_t>(records_.size() - 1);
      }
      if (hashes_[c] == h && std::memcmp(records_[c], rec, width_) == 0) return c;
    }
  }

  std::vector<std::int64_t> take_first() { return std::move(first_); }

 private:
  void rehash(std::size_t size) {
    slots_.assign(size, -1);
    mask_ = size - 1;
    for (std::size_t c = 0; c < records_.size(); ++c) {
      std::size_t s = hashes_[c] & mask_;
      while (slots_[s] >= 0) s = (s + 1) & mask_;
      slots_[s] = static_cast<std::int32_t>(c);
    }
  }

  const std::uint8_t* const* bases_;
  std::size_t width_;
  std::vector<std::int32_t> slots_;
  std::size_t mask_ = 0;
  std::vector<const std::uint8_t*> records_;
  std::vector<std::uint64_t> hashes_;
  std::vector<std::int64_t> first_;
};

}  // namespace

record_codes encode_records(std::span<const std::uint8_t> first, std::span<const std::uint8_t> second,
                            std::size_t width) {
  if (width == 0 || first.size() % width != 0 || second.size() % width != 0) {
    throw_usage(fmt::format("encode_records: sizes {} and {} are not multiples of the record width {}", first.size(),
                            second.size(), width));
  }
  const std::size_t n1 = first.size() / width, n2 = second.size() / width;
  const std::uint8_t* bases[2] = {first.data(), second.data()};
  record_table table(bases, width);
  record_codes out;
  out.codes_first.resize(n1);
  out.codes_second.resize(n2);
  // Runs of one label are common (sorted or grouped data): compare with the previous record first.
  auto run = [&](int a, std::size_t n, std::vector<std::int32_t>& codes, std::int64_t offset) {
    const std::uint8_t* previous = nullptr;
    std::int32_t previous_code = -1;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t* rec = bases[a] + i * width;
      if (previous != nullptr && std::memcmp(previous, rec, width) == 0) {
        codes[i] = previous_code;
        continue;
      }
      previous = rec;
      previous_code = codes[i] = table.code(a, i, offset + static_cast<std::int64_t>(i));
    }
  };
  run(0, n1, out.codes_first, 0);
  run(1, n2, out.codes_second, static_cast<std::int64_t>(n1));
  out.first = table.take_first();
  return out;
}

}  // namespace assay::sklearn
