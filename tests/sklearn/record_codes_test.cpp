// Fixed-width records coded by hashing (include/assay/sklearn/record_codes.hpp).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "assay/error.hpp"
#include "assay/sklearn/record_codes.hpp"

namespace assay::sklearn {
namespace {

std::vector<std::uint8_t> records(const std::vector<std::string>& xs, std::size_t width) {
  std::vector<std::uint8_t> out(xs.size() * width, 0);
  for (std::size_t i = 0; i < xs.size(); ++i) std::memcpy(out.data() + i * width, xs[i].data(), xs[i].size());
  return out;
}

TEST(RecordCodes, CodesInOrderOfFirstAppearance) {
  auto a = records({"dog", "cat", "dog", "dog", "cat"}, 4);
  auto b = records({"fish", "cat", "", "dog"}, 4);
  auto c = encode_records(a, b, 4);
  EXPECT_EQ(c.first, (std::vector<std::int64_t>{0, 1, 5, 7}));
  EXPECT_EQ(c.codes_first, (std::vector<std::int32_t>{0, 1, 0, 0, 1}));
  EXPECT_EQ(c.codes_second, (std::vector<std::int32_t>{2, 1, 3, 0}));
}

TEST(RecordCodes, ManyDistinctRecordsGrowTheTable) {
  std::vector<std::string> xs;
  for (int i = 0; i < 5000; ++i) xs.push_back(std::to_string(i % 1000));
  auto a = records(xs, 12);
  auto c = encode_records(a, {}, 12);
  ASSERT_EQ(c.first.size(), 1000u);
  for (std::size_t i = 0; i < xs.size(); ++i) EXPECT_EQ(c.codes_first[i], static_cast<std::int32_t>(i % 1000));
}

TEST(RecordCodes, RejectsSizesThatAreNotWholeRecords) {
  std::vector<std::uint8_t> a(7);
  EXPECT_THROW(encode_records(a, {}, 4), error);
  EXPECT_THROW(encode_records(a, {}, 0), error);
}

}  // namespace
}  // namespace assay::sklearn
