// The spill of the out-of-core reader (src/scale/spill.hpp): records appended by key range come back
// in key order, every one of them, whatever the cap (ranges split again) and the ties; unweighted
// records read back with weight 1; the files leave nothing in the directory, during the run or after
// an error; a directory that cannot hold them is an io error naming it.
#include "../../src/scale/spill.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "assay/error.hpp"

namespace assay::scale::detail {
namespace {

namespace fs = std::filesystem;

// A fresh empty directory, removed at the end.
struct temp_dir {
  fs::path path;
  temp_dir() {
    path = fs::temp_directory_path() / ("assay_spill_test_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~temp_dir() { fs::remove_all(path); }
  [[nodiscard]] bool empty() const { return fs::is_empty(path); }
};

using tuple3 = std::tuple<std::uint64_t, std::uint32_t, double>;

std::vector<spill_record> records(std::size_t n, std::uint64_t distinct, bool weighted, std::mt19937_64& g) {
  std::uniform_int_distribution<std::uint64_t> key(0, distinct - 1);
  std::uniform_int_distribution<std::uint32_t> id(0, 6);
  std::uniform_int_distribution<int> w(0, 8);
  std::vector<spill_record> out;
  for (std::size_t i = 0; i < n; ++i) {
    // Keys spread over the 64-bit range (multiplied by an odd constant) or all in a narrow band.
    const std::uint64_t k = distinct > 1000 ? key(g) * 0x9E3779B97F4A7C15ULL : key(g) + 1000;
    out.emplace_back(k, id(g), weighted ? w(g) / 4.0 : 1.0);
  }
  return out;
}

// Spills `recs` (ranges from the first `sample` keys) and reads them back in key order with at most
// `cap` held: the keys come in order and, sorted within each key, the records are those appended.
void round_trip(const std::vector<spill_record>& recs, std::size_t sample, std::uint64_t cap, bool weighted,
                bool up, const fs::path& dir) {
  std::vector<std::uint64_t> keys;
  for (std::size_t i = 0; i < std::min(sample, recs.size()); ++i) keys.push_back(recs[i].key);
  key_spill spill(keys, 8, dir, 1 << 14, weighted);
  for (const auto& r : recs) spill.add(r);
  spill.flush();
  ASSERT_EQ(spill.count(), recs.size());
  std::vector<tuple3> got;
  std::size_t largest = 0;
  spill.for_each_sorted(cap, dir, 1 << 14, up, [&](std::span<const spill_record> batch) {
    largest = std::max(largest, batch.size());
    for (const auto& r : batch) got.emplace_back(r.key, r.id, r.w);
  });
  ASSERT_EQ(got.size(), recs.size());
  for (std::size_t i = 1; i < got.size(); ++i) {
    ASSERT_TRUE(up ? std::get<0>(got[i - 1]) <= std::get<0>(got[i]) : std::get<0>(got[i - 1]) >= std::get<0>(got[i]))
        << "record " << i;
  }
  std::vector<tuple3> want;
  for (const auto& r : recs) want.emplace_back(r.key, r.id, r.w);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  EXPECT_TRUE(fs::is_empty(dir)) << "the spill files have no name";
  // More distinct keys than the cap: no batch held more than the cap.
  if (recs.size() > cap && std::get<0>(want.front()) != std::get<0>(want.back()) && cap >= 400) {
    std::vector<std::uint64_t> distinct;
    for (const auto& t : want) distinct.push_back(std::get<0>(t));
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() > 1000) {
      EXPECT_LE(largest, cap);
    }
  }
}

TEST(Spill, RecordsComeBackInKeyOrderWhateverTheCapAndTies) {
  temp_dir dir;
  std::mt19937_64 g(20261128);
  for (const bool weighted : {false, true}) {
    for (const bool up : {true, false}) {
      // Distinct keys, few keys (heavy ties), one key; the cap above, near and far below the count.
      for (const std::uint64_t distinct : {std::uint64_t{1} << 40, std::uint64_t{37}, std::uint64_t{1}}) {
        const auto recs = records(6000, distinct, weighted, g);
        for (const std::uint64_t cap : {std::uint64_t{10000}, std::uint64_t{2500}, std::uint64_t{500}}) {
          SCOPED_TRACE(::testing::Message() << "weighted " << weighted << ", up " << up << ", distinct " << distinct
                                            << ", cap " << cap);
          round_trip(recs, 3000, cap, weighted, up, dir.path);
          // Ranges from a sample that misses most keys (the first 10 records): ranges split again.
          round_trip(recs, 10, cap, weighted, up, dir.path);
        }
      }
    }
  }
}

TEST(Spill, UnweightedRecordsReadBackWithWeightOneAndIdsMapped) {
  temp_dir dir;
  spill_file f(dir.path, 4096, false);
  for (std::uint32_t i = 0; i < 1000; ++i) f.add({std::uint64_t{999} - i, i % 3, 7.5});
  std::vector<spill_record> back;
  const std::vector<std::uint32_t> map{10, 20, 30};
  f.read(0, f.count(), back, map.data());
  ASSERT_EQ(back.size(), 1000U);
  for (std::uint32_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(back[i].key, 999 - i);
    EXPECT_EQ(back[i].id, map[i % 3]);
    EXPECT_EQ(back[i].w, 1.0);
  }
  std::vector<spill_record> scratch;
  sort_by_key(back, scratch, 1);
  EXPECT_EQ(f.rewrite_sorted(back), 1000U * 12);
  EXPECT_TRUE(f.sorted());
  std::vector<spill_record> again;
  f.read(0, f.count(), again);
  for (std::uint32_t i = 0; i < 1000; ++i) EXPECT_EQ(again[i].key, i);
  EXPECT_TRUE(dir.empty());
}

TEST(Spill, NothingIsLeftBehindWhenAnErrorUnwinds) {
  temp_dir dir;
  try {
    key_spill spill(std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6}, 4, dir.path, 1 << 12, true);
    for (std::uint64_t i = 0; i < 5000; ++i) spill.add({i % 7, 0, 1.0});
    throw error(error_kind::data, "a caller's error mid-spill");
  } catch (const error& e) {
    EXPECT_STREQ(e.what(), "a caller's error mid-spill");
  }
  EXPECT_TRUE(dir.empty());
}

TEST(Spill, ADirectoryThatCannotHoldTheFilesIsAnIoErrorNamingIt) {
  const fs::path missing = fs::temp_directory_path() / "assay_spill_test_no_such_dir" / "deeper";
  try {
    spill_file f(missing, 4096, false, "spill_test");
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::io);
    EXPECT_EQ(std::string(e.what()),
              "spill_test: cannot create a temporary file in " + missing.string() + ": No such file or directory");
  }
}

}  // namespace
}  // namespace assay::scale::detail
