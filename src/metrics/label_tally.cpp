#include "assay/metrics/label_tally.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"

namespace assay {
namespace {

constexpr std::int64_t max_table_span = std::int64_t{1} << 20;
// Up to this many possible values, integer labels are tallied by value directly (one pass, no coding).
constexpr std::size_t max_direct_width = 64;

void check_lengths(const char* caller, std::size_t a, std::size_t p, std::size_t w) {
  if (a != p) throw_usage(fmt::format("{}: {} actual labels but {} predicted", caller, a, p));
  if (w != 0 && w != a) throw_usage(fmt::format("{}: {} labels but {} weights", caller, a, w));
}

// Counts without weights. Several interleaved copies of the table take turns, so that runs of the
// same cell do not wait on each other's increments; they are added up at the end (exact integers).
template <typename Code>
void count_cells(std::size_t n, std::size_t k, Code&& code, label_tally& t) {
  constexpr std::size_t copies = 4;
  const std::size_t kk = k * k;
  std::vector<std::uint64_t> counts(copies * kk, 0);
  std::size_t i = 0;
  for (; i + copies <= n; i += copies) {
    for (std::size_t c = 0; c < copies; ++c) ++counts[c * kk + code(i + c)];
  }
  for (; i < n; ++i) ++counts[code(i)];
  t.cells.assign(kk, 0.0);
  for (std::size_t j = 0; j < kk; ++j) {
    std::uint64_t s = 0;
    for (std::size_t c = 0; c < copies; ++c) s += counts[c * kk + j];
    t.cells[j] = static_cast<double>(s);
  }
  t.actual.assign(k, 0.0);
  t.predicted.assign(k, 0.0);
  t.correct.assign(k, 0.0);
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t p = 0; p < k; ++p) {
      t.actual[a] += t.cells[a * k + p];  // exact: integers below 2^53
      t.predicted[p] += t.cells[a * k + p];
    }
    t.correct[a] = t.cells[a * k + a];
  }
}

// Adds the tally of a second half of the cases (exact: unweighted counts are integers below 2^53).
void add_half(label_tally& t, const label_tally& second) {
  for (std::size_t j = 0; j < t.cells.size(); ++j) t.cells[j] += second.cells[j];
  for (std::size_t a = 0; a < t.classes; ++a) {
    t.actual[a] += second.actual[a];
    t.predicted[a] += second.predicted[a];
    t.correct[a] += second.correct[a];
  }
}

// Weighted: case by case, in order, into every sum the case belongs to.
template <typename Pair>
void sum_weights(std::size_t n, std::size_t k, std::span<const double> weight, Pair&& pair, label_tally& t) {
  t.cells.assign(k * k, 0.0);
  t.actual.assign(k, 0.0);
  t.predicted.assign(k, 0.0);
  t.correct.assign(k, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    auto [a, p] = pair(i);
    const double w = weight[i];
    t.cells[a * k + p] += w;
    t.actual[a] += w;
    t.predicted[p] += w;
    if (a == p) t.correct[a] += w;
  }
}

// The tally of values lo, lo + 1, ... restricted to the values that occur (seen[j]), as classes.
integer_label_tally keep_occurring(const label_tally& raw, const std::vector<std::uint8_t>& seen, std::int64_t lo) {
  const std::size_t width = seen.size();
  integer_label_tally out;
  std::vector<std::size_t> keep;
  for (std::size_t j = 0; j < width; ++j) {
    if (seen[j]) {
      keep.push_back(j);
      out.classes.push_back(lo + static_cast<std::int64_t>(j));
    }
  }
  const std::size_t k = keep.size();
  label_tally& t = out.tally;
  t.classes = k;
  t.cells.resize(k * k);
  t.actual.resize(k);
  t.predicted.resize(k);
  t.correct.resize(k);
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t p = 0; p < k; ++p) t.cells[a * k + p] = raw.cells[keep[a] * width + keep[p]];
    t.actual[a] = raw.actual[keep[a]];
    t.predicted[a] = raw.predicted[keep[a]];
    t.correct[a] = raw.correct[keep[a]];
  }
  return out;
}

}  // namespace

label_tally tally_codes(std::span<const std::int32_t> actual, std::span<const std::int32_t> predicted,
                        std::size_t classes, std::span<const double> weight, std::string_view caller) {
  check_lengths("tally_codes", actual.size(), predicted.size(), weight.size());
  const auto k = static_cast<std::uint32_t>(classes);
  const std::size_t n = actual.size();
  auto name_bad_case = [&] {
    for (std::size_t i = 0; i < n; ++i) {
      if (static_cast<std::uint32_t>(actual[i]) >= k || static_cast<std::uint32_t>(predicted[i]) >= k) {
        throw_usage(fmt::format("{}: case {} has class index ({}, {}) outside [0, {})", caller, i, actual[i],
                                predicted[i], classes));
      }
    }
  };
  if (classes == 0 && n > 0) name_bad_case();  // no cell to count into
  label_tally t;
  t.classes = classes;
  if (weight.empty()) {
    // The check rides along the count: a case out of range counts into cell 0 and clears `ok`, and
    // then the loop above names it. Halves on two threads from 2^20 cases (integer counts add exactly).
    auto part = [&](std::size_t b, std::size_t e, label_tally& into) {
      bool ok = true;
      count_cells(e - b, classes, [&](std::size_t j) {
        const std::size_t i = b + j;
        const auto a = static_cast<std::uint32_t>(actual[i]), p = static_cast<std::uint32_t>(predicted[i]);
        const bool in = (a < k) & (p < k);
        ok &= in;
        return in ? static_cast<std::size_t>(a) * classes + p : 0;
      }, into);
      return ok;
    };
    if (n < (std::size_t{1} << 20)) {
      if (!part(0, n, t)) name_bad_case();
      return t;
    }
    label_tally second;
    bool ok_first = true, ok_second = true;
    assay::detail::run_both([&] { ok_first = part(0, n / 2, t); }, [&] { ok_second = part(n / 2, n, second); });
    if (!ok_first || !ok_second) name_bad_case();
    add_half(t, second);
    return t;
  }
  name_bad_case();
  sum_weights(n, classes, weight, [&](std::size_t i) {
    return std::pair{static_cast<std::size_t>(actual[i]), static_cast<std::size_t>(predicted[i])};
  }, t);
  return t;
}

label_tally tally_at_threshold(std::span<const std::int32_t> actual, std::span<const double> scores, double threshold,
                               std::int32_t positive, bool& scores_in_unit, std::string_view caller) {
  check_lengths("tally_at_threshold", actual.size(), scores.size(), 0);
  if (positive != 0 && positive != 1) {
    throw_usage(fmt::format("{}: the positive class index is {}, not 0 or 1", caller, positive));
  }
  const std::size_t n = actual.size();
  const auto pos = static_cast<std::uint32_t>(positive), neg = 1 - pos;
  // Four sums instead of a table of cells: the cases of class 1, those at or above the threshold, and
  // those that are both, so that the loop has no indexed increment and vectorises; the cells follow
  // (exact integers). A class index other than 0 or 1 shows in the OR of the indices, and then the
  // loop below names it. Two fixed halves go to two threads from 2^20 cases, as in tally_codes.
  auto part = [&](std::size_t b, std::size_t e, label_tally& into, bool& unit) {
    std::uint64_t ones = 0, above = 0, both = 0;
    std::uint32_t bits = 0;
    bool in_unit = true;
    for (std::size_t i = b; i < e; ++i) {
      const auto a = static_cast<std::uint32_t>(actual[i]);
      const double s = scores[i];
      const std::uint32_t ge = s >= threshold ? 1U : 0U;
      bits |= a;
      ones += a & 1U;
      above += ge;
      both += a & ge & 1U;
      in_unit &= (s >= 0) & (s <= 1);
    }
    unit = in_unit;
    const auto cases = static_cast<double>(e - b);
    const auto n1 = static_cast<double>(ones), ge = static_cast<double>(above), n11 = static_cast<double>(both);
    // cell (actual, at-or-above): (1, 1) = both; (1, 0) = ones - both; (0, 1) = above - both; (0, 0) the rest
    const double at[2][2] = {{cases - n1 - ge + n11, ge - n11}, {n1 - n11, n11}};
    into.classes = 2;
    into.cells.assign(4, 0.0);
    for (std::uint32_t a = 0; a < 2; ++a) {
      for (std::uint32_t g = 0; g < 2; ++g) into.cells[a * 2 + (g == 1 ? pos : neg)] = at[a][g];
    }
    into.actual = {into.cells[0] + into.cells[1], into.cells[2] + into.cells[3]};
    into.predicted = {into.cells[0] + into.cells[2], into.cells[1] + into.cells[3]};
    into.correct = {into.cells[0], into.cells[3]};
    return bits <= 1;
  };
  auto name_bad_case = [&] {
    for (std::size_t i = 0; i < n; ++i) {
      if (static_cast<std::uint32_t>(actual[i]) >= 2) {
        throw_usage(fmt::format("{}: case {} has class index {} outside [0, 2)", caller, i, actual[i]));
      }
    }
  };
  label_tally t;
  t.classes = 2;
  if (n < (std::size_t{1} << 20)) {
    if (!part(0, n, t, scores_in_unit)) name_bad_case();
    return t;
  }
  label_tally second;
  bool ok_first = true, ok_second = true, unit_first = true, unit_second = true;
  assay::detail::run_both([&] { ok_first = part(0, n / 2, t, unit_first); },
                          [&] { ok_second = part(n / 2, n, second, unit_second); });
  if (!ok_first || !ok_second) name_bad_case();
  scores_in_unit = unit_first && unit_second;
  add_half(t, second);
  return t;
}

std::optional<integer_label_tally> tally_integer_labels(std::span<const std::int64_t> actual,
                                                        std::span<const std::int64_t> predicted,
                                                        std::span<const double> weight) {
  check_lengths("tally_integer_labels", actual.size(), predicted.size(), weight.size());
  const std::size_t n = actual.size();
  if (n == 0) return std::nullopt;
  // The common case, labels in [0, 64): tallied by value in one pass over the labels, with no pass
  // for their range first. Any label outside it (a bit above the lowest six, or a sign) shows in
  // `bits`, and then the tally is redone the general way; a look at the first labels avoids that
  // wasted pass in the usual case of labels that are not small.
  constexpr auto w = static_cast<std::uint64_t>(max_direct_width);
  static_assert((w & (w - 1)) == 0, "the direct width is a power of two");
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < std::min<std::size_t>(n, 4096); ++i) {
    bits |= static_cast<std::uint64_t>(actual[i]) | static_cast<std::uint64_t>(predicted[i]);
  }
  if ((bits & ~(w - 1)) == 0) {
    label_tally raw;
    std::vector<std::uint8_t> seen(max_direct_width, 0);
    auto code = [&](std::size_t i) {
      const auto a = static_cast<std::uint64_t>(actual[i]), p = static_cast<std::uint64_t>(predicted[i]);
      bits |= a | p;
      return std::pair{static_cast<std::size_t>(a & (w - 1)), static_cast<std::size_t>(p & (w - 1))};
    };
    if (weight.empty()) {
      count_cells(n, max_direct_width, [&](std::size_t i) {
        auto [a, p] = code(i);
        return a * max_direct_width + p;
      }, raw);
      for (std::size_t j = 0; j < max_direct_width; ++j) seen[j] = raw.actual[j] > 0 || raw.predicted[j] > 0;
    } else {
      sum_weights(n, max_direct_width, weight, [&](std::size_t i) {
        auto ap = code(i);
        seen[ap.first] = seen[ap.second] = 1;  // a case of weight 0 still makes its classes occur
        return ap;
      }, raw);
    }
    if ((bits & ~(w - 1)) == 0) return keep_occurring(raw, seen, 0);
  }
  std::int64_t lo = actual[0], hi = actual[0];
  for (auto labels : {actual, predicted}) {
    for (std::int64_t v : labels) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  // hi - lo could overflow for labels near both ends of the range: compare in unsigned arithmetic.
  if (static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) >= static_cast<std::uint64_t>(max_table_span)) {
    return std::nullopt;
  }
  const auto width = static_cast<std::size_t>(hi - lo) + 1;
  if (width <= max_direct_width) {
    // Few possible values: tally the values themselves in a width x width table in this one pass,
    // then keep the rows and columns of the values that occur.
    label_tally raw;
    std::vector<std::uint8_t> seen(width, 0);
    auto code = [&](std::int64_t v) { return static_cast<std::size_t>(v - lo); };
    if (weight.empty()) {
      count_cells(n, width, [&](std::size_t i) { return code(actual[i]) * width + code(predicted[i]); }, raw);
      for (std::size_t j = 0; j < width; ++j) seen[j] = raw.actual[j] > 0 || raw.predicted[j] > 0;
    } else {
      sum_weights(n, width, weight, [&](std::size_t i) {
        const std::size_t a = code(actual[i]), p = code(predicted[i]);
        seen[a] = seen[p] = 1;  // a case of weight 0 still makes its classes occur
        return std::pair{a, p};
      }, raw);
    }
    return keep_occurring(raw, seen, lo);
  }
  integer_label_tally out;
  std::vector<std::int32_t> index(width, -1);
  for (std::size_t i = 0; i < n; ++i) {
    index[static_cast<std::size_t>(actual[i] - lo)] = 0;
    index[static_cast<std::size_t>(predicted[i] - lo)] = 0;
  }
  std::int32_t next = 0;
  for (std::size_t j = 0; j < width; ++j) {
    if (index[j] == 0) {
      index[j] = next++;
      out.classes.push_back(lo + static_cast<std::int64_t>(j));
    }
  }
  const std::size_t k = out.classes.size();
  out.tally.classes = k;
  auto code = [&](std::int64_t v) { return static_cast<std::size_t>(index[static_cast<std::size_t>(v - lo)]); };
  if (weight.empty()) {
    count_cells(n, k, [&](std::size_t i) { return code(actual[i]) * k + code(predicted[i]); }, out.tally);
  } else {
    sum_weights(n, k, weight, [&](std::size_t i) { return std::pair{code(actual[i]), code(predicted[i])}; },
                out.tally);
  }
  return out;
}

indicator_tally tally_indicators(std::span<const std::int32_t> y_true, std::span<const std::int32_t> y_pred,
                                 std::size_t cases, std::size_t labels, bool by_case, std::span<const double> weight) {
  if (labels != 0 && cases > static_cast<std::size_t>(-1) / labels) {
    throw_usage(fmt::format("tally_indicators: {} cases x {} labels is too many entries", cases, labels));
  }
  if (y_true.size() != cases * labels || y_pred.size() != cases * labels) {
    throw_usage(fmt::format("tally_indicators: {} cases x {} labels but y_true has {} entries and y_pred {}", cases,
                            labels, y_true.size(), y_pred.size()));
  }
  if (!weight.empty() && (by_case || weight.size() != cases)) {
    throw_usage(by_case ? std::string("tally_indicators: weights are taken per label only")
                        : fmt::format("tally_indicators: {} cases but {} weights", cases, weight.size()));
  }
  const std::size_t units = by_case ? cases : labels;
  indicator_tally out;
  out.tp.resize(units);
  out.actual.resize(units);
  out.predicted.resize(units);
  auto keep = [&out](std::size_t u, const label_tally& t) {
    out.tp[u] = t.correct[1];
    out.actual[u] = t.actual[1];
    out.predicted[u] = t.predicted[1];
  };
  try {
    if (by_case) {
      for (std::size_t i = 0; i < cases; ++i) {
        keep(i, tally_codes(y_true.subspan(i * labels, labels), y_pred.subspan(i * labels, labels), 2));
      }
    } else {
      std::vector<std::int32_t> column_true(cases), column_pred(cases);
      for (std::size_t j = 0; j < labels; ++j) {
        for (std::size_t i = 0; i < cases; ++i) {
          column_true[i] = y_true[i * labels + j];
          column_pred[i] = y_pred[i * labels + j];
        }
        keep(j, tally_codes(column_true, column_pred, 2, weight));
      }
    }
  } catch (const error&) {
    // Name the entry, not the position within one column or row.
    for (std::size_t e = 0; e < y_true.size(); ++e) {
      if ((y_true[e] != 0 && y_true[e] != 1) || (y_pred[e] != 0 && y_pred[e] != 1)) {
        throw_usage(fmt::format("tally_indicators: entry ({}, {}) is ({}, {}), not 0 or 1", e / labels, e % labels,
                                y_true[e], y_pred[e]));
      }
    }
    throw;
  }
  return out;
}

}  // namespace assay

