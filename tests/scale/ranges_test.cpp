// The ranking metrics of a binary score range by range (include/assay/scale/ranges.hpp): the
// protocol of scale::report_by_ranges (src/scale/over_ranks_ranges.cpp) driven in one process (parts read with
// ranked_part_of_file, classes by positive_spellings, rows split at pooled splitters and moved as
// bytes, running sums and the two walks chained range to range through bytes_of / walker_of, the
// no-runs states merged, some through their bytes, and finished with finish_with_ranking) gives
// make_report's report byte for byte in JSON and text, for any cut into parts and ranges; the
// chained walks alone are those of one walk over the sweep of all rows (sweep_scores,
// curves::complement), and the ROC AUC is the O(n^2) pairwise count's; bad input and what the
// no-runs state cannot do are refused.
#include "assay/scale/ranges.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "assay/curves/sweep.hpp"
#include "assay/data/predictions.hpp"
#include "assay/detail/radix.hpp"
#include "assay/error.hpp"
#include "test_scale.hpp"
#include "assay/scale/file_parts.hpp"

namespace assay::scale {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / fmt::format("assay_ranges_{}_{}", ::getpid(), name)).string();
}

struct file_spec {
  std::size_t rows = 100;
  bool text_labels = false;  // "spam"/"ham", else "1"/"1.0"/"0" (two spellings of one class)
  int levels = 0;            // 0: distinct scores, else rounded to 1/levels (ties, also at the splitters)
  bool outside = false;      // scores in [-1, 2] (log loss undefined; -0.0 among the rounded ones)
  std::uint64_t seed = 1;
};

// Weights with ties, zeros and fractions that do not add exactly (0.1, 1.7).
constexpr double weight_levels[] = {0, 0.1, 0.25, 1, 1.7, 3, 0.5, 2};

std::string write_file(const std::string& name, const file_spec& f) {
  const std::string path = temp_path(name);
  std::ofstream out(path, std::ios::binary);
  std::mt19937_64 g(f.seed);
  std::uniform_real_distribution<double> u(0, 1);
  out << "y,score,w\n";
  for (std::size_t i = 0; i < f.rows; ++i) {
    // Both classes in the first two rows, so that every file has both.
    const bool pos = i == 0 ? true : i == 1 ? false : u(g) < 0.35;
    const char* y = f.text_labels ? (pos ? "spam" : "ham") : (pos ? (u(g) < 0.5 ? "1" : "1.0") : "0");
    double s = 0.6 * u(g) + (pos ? 0.3 : 0.0);
    if (f.outside) s = 3 * s - 1;
    if (f.levels > 0) s = std::round(s * f.levels) / f.levels;
    out << y << ',' << fmt::format("{}", s) << ',' << weight_levels[i < 2 ? 3 : g() % 8] << '\n';
  }
  return path;
}

report_request request(const std::string& path, bool weighted, std::optional<std::string> pos_label) {
  report_request q;
  q.path = path;
  q.label = "y";
  q.score = "score";
  if (weighted) q.weight = "w";
  q.pos_label = std::move(pos_label);
  return q;
}

// How the rows are cut into ranges: `ranges` ranges at the pooled sample's splitters, or the given
// splitters (ascending, any keys).
struct range_cut {
  std::size_t ranges = 1;
  std::optional<std::vector<std::uint64_t>> splitters;
};

struct ranged {
  report rep;
  running_edge totals;
  std::vector<std::size_t> rows_per_range;
};

// report_by_ranges in one process: `parts` parts of the file, cut into ranges as `cut` says.
// std::nullopt when the totals lack a class (the MPI driver then takes the state path).
std::optional<ranged> by_ranges(const report_request& q, std::size_t parts, const range_cut& cut,
                                std::uint64_t shuffle_seed, std::size_t piece_bytes = 4096) {
  // 1. The parts, read as states without runs plus their rows.
  std::vector<ranked_part> read;
  for (std::size_t k = 0; k < parts; ++k) {
    std::optional<ranked_part> p =
        ranked_part_of_file(q, part_of_file(q, k, parts), [](std::span<const double>) { return true; }, piece_bytes);
    if (!p) throw std::logic_error("ranked_part_of_file: go_on returned true, but no part");
    read.push_back(std::move(*p));
  }
  // 2. The classes, on the union of the spellings.
  std::vector<std::string> all;
  for (const auto& p : read) all.insert(all.end(), p.spellings.begin(), p.spellings.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  const std::vector<std::uint8_t> positive_of_all = positive_spellings(all, read[0].state.options());
  // 3. The splitters, the rows to their ranges through bytes, each range sorted.
  std::vector<std::uint64_t> pooled;
  for (const auto& p : read) {
    const auto keys = sample_keys(p.scores, 64);
    pooled.insert(pooled.end(), keys.begin(), keys.end());
  }
  const std::vector<std::uint64_t> splitters = cut.splitters ? *cut.splitters : range_splitters(pooled, cut.ranges);
  const std::size_t R = splitters.size() + 1;
  const bool weighted = read[0].state.options().weighted;
  std::vector<range_rows> in(R);
  for (std::size_t k = 0; k < read.size(); ++k) {
    ranked_part& p = read[k];
    // The part's spellings' flags (as report_by_ranges), and each row's.
    std::vector<std::uint8_t> of_code(p.spellings.size());
    for (std::size_t c = 0; c < of_code.size(); ++c) {
      of_code[c] = positive_of_all[static_cast<std::size_t>(std::lower_bound(all.begin(), all.end(), p.spellings[c]) -
                                                            all.begin())];
    }
    std::vector<std::uint8_t> is_pos(p.codes.size());
    for (std::size_t i = 0; i < is_pos.size(); ++i) is_pos[i] = of_code[static_cast<std::size_t>(p.codes[i])];
    const std::vector<range_rows> by = split_into_ranges(p.scores, is_pos, p.weights, splitters);
    if (by.size() != R) throw std::logic_error("split_into_ranges: not one piece per range");
    // The bytes a part sends: written straight from its columns (split_into_range_bytes), or with the
    // state's rows counted as they are taken (fill_and_split, what report_by_ranges runs); both must be
    // split_into_ranges' pieces' bytes.
    std::vector<range_bytes> bytes;
    if (k % 2 == 0) {
      bytes = fill_and_split(p, all, of_code, splitters);
    } else {
      fill_ranked_state(p, all);
      bytes = split_into_range_bytes(p.scores, p.codes, of_code, p.weights, splitters);
    }
    if (bytes.size() != R) throw std::logic_error("split bytes: not one piece per range");
    for (std::size_t r = 0; r < R; ++r) {
      if (bytes[r].view() != by[r].to_bytes()) throw std::logic_error("split bytes: not split_into_ranges' bytes");
      in[r].append(range_rows::from_bytes(bytes[r].view()));
    }
  }
  std::vector<score_range> ranges;
  ranged out;
  for (auto& rows : in) {
    ranges.emplace_back(std::move(rows), weighted);
    out.rows_per_range.push_back(ranges.back().rows());
  }
  // 4. The running sums from range 0 down.
  running_edge edge;
  for (auto& range : ranges) edge = walker_of<running_edge>(bytes_of(range.running_sums(edge)));
  out.totals = edge;
  if (!(edge.tp > 0 && edge.fp > 0)) return std::nullopt;
  // 5. The walks: down from range 0, up from range R - 1, each carried as bytes.
  std::string down_bytes, up_bytes;
  for (std::size_t r = 0; r < R; ++r) {
    auto down = r == 0 ? curves::summary_walker<true>(edge.tp, edge.fp) : walker_of<curves::summary_walker<true>>(down_bytes);
    ranges[r].walk_down(down);
    down_bytes = bytes_of(down);
  }
  for (std::size_t r = R; r-- > 0;) {
    auto up = r == R - 1 ? curves::areas_walker(edge.fp, edge.tp) : walker_of<curves::areas_walker>(up_bytes);
    ranges[r].walk_up(up);
    up_bytes = bytes_of(up);
  }
  // 6. The states merged in a shuffled order, half of them through their bytes.
  std::vector<std::size_t> order(parts);
  for (std::size_t k = 0; k < parts; ++k) order[k] = k;
  std::mt19937_64 g(shuffle_seed);
  std::shuffle(order.begin(), order.end(), g);
  std::optional<evaluation_state> state;
  for (const std::size_t k : order) {
    evaluation_state s = std::move(read[k].state);
    if (k % 2 == 1) s = read_state(s.serialize(), s.options());
    if (!state) state.emplace(std::move(s));
    else state->merge(s);
  }
  given_ranking given;
  given.P = edge.tp;
  given.N = edge.fp;
  given.positive = walker_of<curves::summary_walker<true>>(down_bytes).result();
  given.negative = walker_of<curves::areas_walker>(up_bytes).result();
  out.rep = finish_with_ranking(*state, options_of(q), given);
  return out;
}

// Hand-made cuts of rows whose scores lie in [lo, hi]: duplicated splitters, every row in range 0,
// every row in the last range, empty ranges at both ends and in the middle, a cut at a score.
std::vector<range_cut> hand_made_cuts(double lo, double hi, double at_a_score) {
  using assay::detail::order_key;
  const std::uint64_t mid = order_key((lo + hi) / 2), low = order_key(lo - 1), high = order_key(hi + 1);
  std::vector<range_cut> out;
  out.push_back({0, std::vector<std::uint64_t>{mid, mid, mid}});              // duplicates: two empty ranges
  out.push_back({0, std::vector<std::uint64_t>{low}});                         // all rows in range 0
  out.push_back({0, std::vector<std::uint64_t>{high, high}});                  // all rows in the last range
  out.push_back({0, std::vector<std::uint64_t>{low, low, mid, high, high}});   // empty ranges everywhere
  out.push_back({0, std::vector<std::uint64_t>{0, order_key(at_a_score), std::numeric_limits<std::uint64_t>::max()}});
  out.push_back({0, std::vector<std::uint64_t>(16, mid)});                      // 17 ranges, 15 empty
  return out;
}

TEST(Ranges, ReportByRangesIsMakeReportByteForByteForAnyCut) {
  int compared = 0;
  const std::size_t sizes[] = {2, 7, 60, 2500};
  std::uint64_t seed = 100;
  for (const std::size_t rows : sizes) {
    for (const int levels : {0, 20}) {
      for (const bool text : {false, true}) {
        for (const bool outside : {false, true}) {
          file_spec f{rows, text, levels, outside, ++seed};
          const std::string path = write_file(fmt::format("r{}.csv", seed), f);
          const double lo = outside ? -1 : 0, hi = outside ? 2 : 1;
          // Text labels need pos_label (make_report: "cannot tell which class is positive").
          std::vector<std::optional<std::string>> labels;
          if (text) labels = {"spam", "ham"};
          else labels = {std::nullopt, "0"};  // numeric: "1" and "1.0" one class; or "0" the positive one
          for (const auto& pos_label : labels) {
            for (const bool weighted : {false, true}) {
              const report_request q = request(path, weighted, pos_label);
              const report one = make_report(q);
              const std::string want_json = to_json(one), want_text = to_text(one);
              // The case is the one meant: log loss undefined exactly when scores lie outside [0, 1].
              ASSERT_EQ(want_json.find("outside [0, 1]") != std::string::npos, outside) << path;
              std::vector<range_cut> cuts;
              for (const std::size_t R : {1, 2, 3, 5, 17}) cuts.push_back({R, std::nullopt});
              for (auto& c : hand_made_cuts(lo, hi, levels > 0 ? hi / 2 : 0.5)) cuts.push_back(std::move(c));
              for (const std::size_t parts : {1, 2, 3, 17}) {
                for (std::size_t c = 0; c < cuts.size(); ++c) {
                  // Every cut with 1 and 3 parts; a few with the others (time).
                  if (parts != 1 && parts != 3 && c % 3 != parts % 3) continue;
                  if (!assay::testing::keep_case(seed + parts + c)) continue;  // a third under the sanitizers
                  const auto got = by_ranges(q, parts, cuts[c], seed + parts + c);
                  const std::string what = fmt::format("{} weighted {} pos_label {} parts {} cut {}", path, weighted,
                                                       pos_label.value_or("-"), parts, c);
                  // Zero weights can leave a class without weight: not here (the first two rows).
                  ASSERT_TRUE(got.has_value()) << what;
                  EXPECT_EQ(to_json(got->rep), want_json) << what;
                  EXPECT_EQ(to_text(got->rep), want_text) << what;
                  ++compared;
                }
              }
            }
          }
          std::filesystem::remove(path);
        }
      }
    }
  }
  EXPECT_GT(compared, assay::testing::sanitized ? 300 : 1000);
}

// The cuts are not idle: ties at a splitter land in one range, and the pooled splitters spread the
// rows (17 ranges of 2500 rows: none holds more than a third of them).
TEST(Ranges, SplittersSpreadTheRowsAndKeepTiesTogether) {
  const std::string path = write_file("spread.csv", {2500, false, 0, false, 7});
  const report_request q = request(path, false, std::nullopt);
  const auto got = by_ranges(q, 3, {17, std::nullopt}, 1);
  ASSERT_TRUE(got.has_value());
  ASSERT_EQ(got->rows_per_range.size(), 17U);
  std::size_t total = 0;
  for (const std::size_t n : got->rows_per_range) {
    EXPECT_LT(n, 2500U / 3);
    EXPECT_GT(n, 0U);
    total += n;
  }
  EXPECT_EQ(total, 2500U);
  std::filesystem::remove(path);

  // Rounded scores: every row of one score in one range.
  std::vector<double> s;
  std::vector<std::uint8_t> pos;
  for (int i = 0; i < 400; ++i) s.push_back((i % 9) / 8.0), pos.push_back(i % 3 == 0 ? 1 : 0);
  const auto splitters = range_splitters(sample_keys(s, 50), 5);
  const auto by = split_into_ranges(s, pos, {}, splitters);
  for (int level = 0; level < 9; ++level) {
    int holding = 0;
    for (const auto& r : by) {
      const auto has = [&](const std::vector<double>& v) { return std::count(v.begin(), v.end(), level / 8.0) > 0; };
      holding += has(r.pos) || has(r.neg) ? 1 : 0;
    }
    EXPECT_EQ(holding, 1) << "score " << level / 8.0;
  }
}

// ---- the walks alone ----------------------------------------------------------------------------

struct walks {
  running_edge totals;
  curves::ranking_summary down;
  curves::ranking_areas up;
};

walks chained(std::span<const double> score, std::span<const std::uint8_t> positive, std::span<const double> weight,
              std::span<const std::uint64_t> splitters) {
  std::vector<score_range> ranges;
  for (auto& rows : split_into_ranges(score, positive, weight, splitters)) {
    ranges.emplace_back(range_rows::from_bytes(rows.to_bytes()), !weight.empty());
  }
  running_edge edge;
  for (auto& r : ranges) edge = walker_of<running_edge>(bytes_of(r.running_sums(edge)));
  curves::summary_walker<true> down(edge.tp, edge.fp);
  for (const auto& r : ranges) {
    r.walk_down(down);
    down = walker_of<curves::summary_walker<true>>(bytes_of(down));
  }
  curves::areas_walker up(edge.fp, edge.tp);
  for (std::size_t k = ranges.size(); k-- > 0;) {
    ranges[k].walk_up(up);
    up = walker_of<curves::areas_walker>(bytes_of(up));
  }
  return {edge, down.result(), up.result()};
}

std::uint64_t bits(const value& v) { return v.defined() ? std::bit_cast<std::uint64_t>(v.v) : 0x7ff8dead; }

TEST(Ranges, ChainedWalksAreOneWalkOverTheSweep) {
  std::mt19937_64 g(2024);
  std::uniform_real_distribution<double> u(0, 1);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + g() % (trial < 100 ? 12 : 3000);
    const int levels = static_cast<int>(g() % 4) * 7;  // 0: distinct
    const bool weighted = trial % 2 == 1;
    std::vector<double> score(n), weight;
    std::vector<std::int32_t> y(n);
    std::vector<std::uint8_t> positive(n);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = u(g) < 0.4 ? 1 : 0;
      positive[i] = static_cast<std::uint8_t>(y[i]);
      double s = 4 * u(g) - 2 + y[i];
      if (levels > 0) s = std::round(s * levels) / levels;  // ties; -0.0 too
      score[i] = s;
      if (weighted) weight.push_back(weight_levels[g() % 8]);
    }
    const curves::score_sweep sw = curves::sweep_scores("test", y, score, weight);
    auto walk_of = [](const curves::score_sweep& s) {
      return [&s](auto&& f) {
        for (std::size_t k = 0; k < s.size(); ++k) f(s.thresholds[k], s.tp[k], s.fp[k]);
      };
    };
    const curves::ranking_summary want = curves::summarize_walk(sw.positives, sw.negatives, walk_of(sw));
    const curves::score_sweep other = curves::complement(sw);
    const curves::ranking_areas want_up = curves::areas_walk(other.positives, other.negatives, walk_of(other));
    // Ranges at the pooled keys of the rows, and at random keys of the scores' span.
    for (const std::size_t R : {1, 2, 3, 5, 17}) {
      for (const bool random_cut : {false, true}) {
        std::vector<std::uint64_t> splitters;
        if (random_cut) {
          for (std::size_t k = 1; k < R; ++k) splitters.push_back(assay::detail::order_key(std::round((4 * u(g) - 2) * 4) / 4));
          std::sort(splitters.begin(), splitters.end());
        } else {
          splitters = range_splitters(sample_keys(score, 1 + g() % 100), R);
        }
        const walks got = chained(score, positive, weight, splitters);
        const std::string what = fmt::format("trial {} n {} levels {} weighted {} R {} random {}", trial, n, levels,
                                             weighted, R, random_cut);
        EXPECT_EQ(std::bit_cast<std::uint64_t>(got.totals.tp), std::bit_cast<std::uint64_t>(sw.positives)) << what;
        EXPECT_EQ(std::bit_cast<std::uint64_t>(got.totals.fp), std::bit_cast<std::uint64_t>(sw.negatives)) << what;
        EXPECT_EQ(bits(got.down.roc_auc), bits(want.roc_auc)) << what;
        EXPECT_EQ(bits(got.down.average_precision), bits(want.average_precision)) << what;
        EXPECT_EQ(bits(got.down.best_threshold_youden), bits(want.best_threshold_youden)) << what;
        EXPECT_EQ(bits(got.down.best_threshold_f1), bits(want.best_threshold_f1)) << what;
        EXPECT_EQ(bits(got.up.roc_auc), bits(want_up.roc_auc)) << what;
        EXPECT_EQ(bits(got.up.average_precision), bits(want_up.average_precision)) << what;
        EXPECT_EQ(got.down.roc_auc.reason, want.roc_auc.reason) << what;
        EXPECT_EQ(got.up.average_precision.reason, want_up.average_precision.reason) << what;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 3000);
}

// Unweighted, integer scores: the ROC AUC is the pairwise count (pairs ranked right, plus half the
// tied pairs) over P N. auc_sum holds twice that count, exact in a double, and divides by 2, P and N
// in turn: the reference does the same divisions of the exact count, and lies within 2 ulp of the
// rational's nearest double.
TEST(Ranges, RocAucIsThePairwiseCount) {
  std::mt19937_64 g(77);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 2 + g() % 400;
    std::vector<double> score(n);
    std::vector<std::uint8_t> positive(n);
    positive[0] = 1;  // both classes
    for (std::size_t i = 0; i < n; ++i) {
      if (i > 1) positive[i] = g() % 3 == 0 ? 1 : 0;
      score[i] = static_cast<double>(static_cast<int>(g() % 21) - 10 + 3 * positive[i]);
    }
    std::uint64_t twice = 0, P = 0, N = 0;
    for (std::size_t i = 0; i < n; ++i) (positive[i] ? P : N) += 1;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        if (!positive[i] || positive[j]) continue;
        twice += score[i] > score[j] ? 2 : score[i] == score[j] ? 1 : 0;
      }
    }
    const double want = static_cast<double>(twice) / 2 / static_cast<double>(P) / static_cast<double>(N);
    const double rational = static_cast<double>(twice) / static_cast<double>(2 * P * N);
    ASSERT_LE(std::abs(want - rational), 2 * std::numeric_limits<double>::epsilon() * rational);
    // The other class ranked by -score: the same pairs ranked right, over N P (in that order).
    const double want_other = static_cast<double>(twice) / 2 / static_cast<double>(N) / static_cast<double>(P);
    for (const std::size_t R : {1, 2, 5, 17}) {
      const walks got = chained(score, positive, {}, range_splitters(sample_keys(score, 30), R));
      ASSERT_TRUE(got.down.roc_auc.defined());
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got.down.roc_auc.v), std::bit_cast<std::uint64_t>(want))
          << "trial " << trial << " R " << R << ": " << got.down.roc_auc.v << " vs " << want;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got.up.roc_auc.v), std::bit_cast<std::uint64_t>(want_other))
          << "trial " << trial << " R " << R;
    }
  }
}

// ---- refusals and bad input ---------------------------------------------------------------------

template <class F>
std::string message_of(F&& f, error_kind kind) {
  try {
    f();
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no assay::error thrown";
  return "";
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A no-runs state of the file `path`, and the ranking of all its rows (one range).
struct no_runs {
  report_request q;
  evaluation_state state;
  given_ranking given;
};

no_runs no_runs_of(const std::string& path, bool weighted) {
  const report_request q = request(path, weighted, std::nullopt);
  auto part = ranked_part_of_file(q, part_of_file(q, 0, 1), [](std::span<const double>) { return true; });
  std::vector<std::string> spellings = part->spellings;
  const auto pos = positive_spellings(spellings, part->state.options());
  fill_ranked_state(*part, spellings);
  std::vector<std::uint8_t> is_pos;
  for (const auto c : part->codes) is_pos.push_back(pos[c]);
  const walks w = chained(part->scores, is_pos, part->weights, {});
  return {q, std::move(part->state), {w.totals.tp, w.totals.fp, w.down, w.up}};
}

TEST(Ranges, FinishWithRankingRefusesOneClassAndWhatReadsTheRuns) {
  const std::string path = write_file("refuse.csv", {300, false, 0, false, 3});
  no_runs nr = no_runs_of(path, false);
  const evaluate_options o = options_of(nr.q);
  EXPECT_EQ(to_json(finish_with_ranking(nr.state, o, nr.given)), to_json(make_report(nr.q)));
  for (const auto& [P, N] : {std::pair{0.0, 5.0}, std::pair{5.0, 0.0}, std::pair{0.0, 0.0}}) {
    given_ranking g = nr.given;
    g.P = P;
    g.N = N;
    const std::string m = message_of([&] { finish_with_ranking(nr.state, o, g); }, error_kind::usage);
    EXPECT_TRUE(has(m, "finish_with_ranking") && has(m, "both classes")) << m;
  }
  evaluate_options ci = o, curves = o, constrained = o;
  ci.ci_level = 0.95;
  curves.keep_curves = true;
  constrained.constraints.max_fpr = 0.1;
  for (const auto* x : {&ci, &curves, &constrained}) {
    const std::string m = message_of([&] { finish_with_ranking(nr.state, *x, nr.given); }, error_kind::usage);
    EXPECT_TRUE(has(m, "finish_with_ranking") && has(m, "intervals, kept curves and constraints")) << m;
  }
  // ranked_part_of_file refuses them too, and what is not a binary score.
  report_request q = nr.q;
  q.ci_level = 0.9;
  EXPECT_TRUE(has(message_of([&] { ranked_part_of_file(q, part_of_file(q, 0, 1), [](auto) { return true; }); },
                             error_kind::usage),
                  "ranked_part_of_file"));
  q = nr.q;
  q.score.reset();
  q.pred = "y";
  EXPECT_TRUE(has(message_of([&] { ranked_part_of_file(q, part_of_file(q, 0, 1), [](auto) { return true; }); },
                             error_kind::usage),
                  "ranked_part_of_file"));
  // go_on false: no part.
  EXPECT_FALSE(ranked_part_of_file(nr.q, part_of_file(nr.q, 0, 1), [](auto) { return false; }).has_value());
  std::filesystem::remove(path);
}

TEST(Ranges, ANoRunsStateRefusesFinishAndSweepAndKeepsItsFlags) {
  const std::string path = write_file("flags.csv", {500, false, 0, false, 4});
  for (const bool weighted : {false, true}) {
    no_runs nr = no_runs_of(path, weighted);
    const evaluate_options o = options_of(nr.q);
    const std::string want = to_json(make_report(nr.q));
    auto refused = [&](const evaluation_state& s, const std::string& what) {
      const std::string m1 = message_of([&] { (void)s.finish(o); }, error_kind::usage);
      EXPECT_TRUE(has(m1, "evaluation_state::finish") && has(m1, "no score runs") && has(m1, "finish_with_ranking"))
          << what << ": " << m1;
      const std::string m2 = message_of([&] { (void)s.sweep_of_scores(false); }, error_kind::usage);
      EXPECT_TRUE(has(m2, "evaluation_state::sweep_of_scores") && has(m2, "no score runs")) << what << ": " << m2;
    };
    refused(nr.state, "read");
    // Through its bytes: still without runs (and without reliability sums: kept curves refused).
    const evaluation_state back = read_state(nr.state.serialize(), nr.state.options());
    refused(back, "read back");
    EXPECT_EQ(to_json(finish_with_ranking(back, o, nr.given)), want);
    EXPECT_EQ(back.serialize(), nr.state.serialize());
    // A normal state merged with a no-runs one keeps no runs either, whichever way round, and its
    // bytes read back (with the same flags).
    const evaluation_state full = state_of_file_part(nr.q, part_of_file(nr.q, 0, 1));
    EXPECT_EQ(to_json(full.finish(o)), want);
    // The merge holds every row twice: its report is that of the doubled rows' ranking.
    evaluation_state twice = full;
    twice.merge(full);
    const std::string want_merged = to_json(twice.finish(o));
    given_ranking merged_given;
    {
      auto part = ranked_part_of_file(nr.q, part_of_file(nr.q, 0, 1), [](std::span<const double>) { return true; });
      const auto pos = positive_spellings(part->spellings, part->state.options());
      std::vector<double> sc = part->scores, wt = part->weights;
      std::vector<std::uint8_t> is_pos;
      for (const auto c : part->codes) is_pos.push_back(pos[c]);
      sc.insert(sc.end(), part->scores.begin(), part->scores.end());
      if (weighted) wt.insert(wt.end(), part->weights.begin(), part->weights.end());
      const std::vector<std::uint8_t> once = is_pos;
      is_pos.insert(is_pos.end(), once.begin(), once.end());
      const walks w = chained(sc, is_pos, wt, range_splitters(sample_keys(sc, 20), 3));
      merged_given = {w.totals.tp, w.totals.fp, w.down, w.up};
    }
    for (const int how : {0, 1, 2, 3}) {
      const bool full_first = how % 2 == 0;
      evaluation_state m = full_first ? full : nr.state;
      evaluation_state other = full_first ? nr.state : full;
      if (how < 2) m.merge(static_cast<const evaluation_state&>(other));
      else m.merge(std::move(other));  // the merge that takes the other's runs
      refused(m, fmt::format("merged, full first {}, moved {}", full_first, how >= 2));
      EXPECT_EQ(to_json(finish_with_ranking(m, o, merged_given)), want_merged);
      const std::string bytes = m.serialize();
      evaluation_state m2 = read_state(bytes, m.options());
      refused(m2, "merged, read back");
      EXPECT_EQ(m2.serialize(), bytes);
    }
  }
  std::filesystem::remove(path);
}

TEST(Ranges, BadBytesAndArgumentsAreRefused) {
  range_rows rows;
  rows.pos = {0.5, 0.25};
  rows.neg = {0.75};
  rows.pos_w = {1, 2};
  rows.neg_w = {3};
  const std::string b = rows.to_bytes();
  ASSERT_EQ(b.size(), 32U + 8 * 6);
  const range_rows back = range_rows::from_bytes(b);
  EXPECT_EQ(back.pos, rows.pos);
  EXPECT_EQ(back.neg_w, rows.neg_w);
  EXPECT_EQ(range_rows::from_bytes(range_rows().to_bytes()).pos.size(), 0U);
  for (const std::string& bad : {b.substr(0, b.size() - 1), b.substr(0, b.size() - 8), b + "x", b + std::string(8, '\0'),
                                 b.substr(0, 31), std::string()}) {
    const std::string m = message_of([&] { (void)range_rows::from_bytes(bad); }, error_kind::data);
    EXPECT_TRUE(has(m, "range_rows::from_bytes")) << m;
  }
  {  // a count of 2^62: no overflow into a small size
    std::string huge = b;
    const std::uint64_t n = std::uint64_t{1} << 62;
    std::memcpy(huge.data(), &n, 8);
    EXPECT_TRUE(has(message_of([&] { (void)range_rows::from_bytes(huge); }, error_kind::data), "range_rows::from_bytes"));
    const std::uint64_t wrap = (std::uint64_t{1} << 61) + 2;  // 8 * wrap wraps to 16: the right size
    std::memcpy(huge.data(), &wrap, 8);
    EXPECT_TRUE(has(message_of([&] { (void)range_rows::from_bytes(huge); }, error_kind::data), "range_rows::from_bytes"));
  }
  const curves::summary_walker<true> w(3, 4);
  const std::string wb = bytes_of(w);
  for (const std::string& bad : {wb.substr(1), wb + "x", std::string()}) {
    const std::string m = message_of([&] { (void)walker_of<curves::summary_walker<true>>(bad); }, error_kind::data);
    EXPECT_TRUE(has(m, "walker_of")) << m;
  }
  EXPECT_TRUE(has(message_of([&] { (void)walker_of<curves::areas_walker>(wb); }, error_kind::data), "walker_of"));
  EXPECT_EQ(walker_of<curves::summary_walker<true>>(wb).P, 3);

  const std::vector<double> s = {0.1, 0.2, 0.3};
  const std::vector<std::uint8_t> p2 = {1, 0}, p3 = {1, 0, 1};
  const std::vector<double> w2 = {1, 1};
  EXPECT_TRUE(has(message_of([&] { (void)split_into_ranges(s, p2, {}, {}); }, error_kind::usage), "split_into_ranges"));
  EXPECT_TRUE(has(message_of([&] { (void)split_into_ranges(s, p3, w2, {}); }, error_kind::usage), "split_into_ranges"));
  range_rows unpaired;
  unpaired.pos = {0.5};
  EXPECT_TRUE(has(message_of([&] { score_range r(unpaired, true); }, error_kind::usage), "score_range"));

  EXPECT_TRUE(has(message_of([&] { (void)range_splitters({1, 2, 3}, 0); }, error_kind::usage), "range_splitters"));
  // An empty pool: any cut; every row then in one range.
  const auto none = range_splitters({}, 4);
  ASSERT_EQ(none.size(), 3U);
  const auto by = split_into_ranges(s, p3, {}, none);
  std::size_t nonempty = 0;
  for (const auto& r : by) nonempty += r.pos.size() + r.neg.size() > 0 ? 1 : 0;
  EXPECT_EQ(nonempty, 1U);
  EXPECT_EQ(by[0].pos.size() + by[0].neg.size(), 3U);
  EXPECT_TRUE(range_splitters({}, 1).empty());
  EXPECT_TRUE(range_splitters({5, 1}, 1).empty());
  {  // splitters ascending, from the pool in any order
    const auto sp = range_splitters({9, 1, 8, 2, 7, 3, 6, 4, 5, 0}, 5);
    EXPECT_EQ(sp, (std::vector<std::uint64_t>{2, 4, 6, 8}));
  }
}

TEST(Ranges, RangeOfPutsASplittersKeyAboveTheCutAndZerosTogether) {
  using assay::detail::order_key;
  const std::vector<std::uint64_t> sp = {order_key(0.0), order_key(0.5), order_key(0.5), order_key(0.9)};
  EXPECT_EQ(range_of(1.0, sp), 0U);
  EXPECT_EQ(range_of(0.9, sp), 0U);  // equal to a splitter: above the cut
  EXPECT_EQ(range_of(std::nextafter(0.9, 0.0), sp), 1U);
  EXPECT_EQ(range_of(0.5, sp), 1U);
  EXPECT_EQ(range_of(0.49, sp), 3U);  // below the duplicated cut: range 2 is empty
  EXPECT_EQ(range_of(0.0, sp), 3U);
  EXPECT_EQ(range_of(-0.0, sp), 3U);
  EXPECT_EQ(range_of(-1e-300, sp), 4U);
  EXPECT_EQ(range_of(-0.0, std::vector<std::uint64_t>{order_key(-0.0)}), range_of(0.0, std::vector<std::uint64_t>{order_key(0.0)}));
  EXPECT_EQ(range_of(0.3, {}), 0U);
  // split_into_ranges: -0.0 stored as +0.0, with +0.0 in its range; zero weights left out.
  const std::vector<double> s = {-0.0, 0.0, 0.7, 0.7};
  const std::vector<std::uint8_t> p = {1, 0, 1, 0};
  const std::vector<double> w = {1, 2, 0, 0.5};
  const auto by = split_into_ranges(s, p, w, std::vector<std::uint64_t>{order_key(0.0)});
  ASSERT_EQ(by.size(), 2U);
  EXPECT_EQ(by[0].pos, std::vector<double>{0.0});
  EXPECT_FALSE(std::signbit(by[0].pos[0]));
  EXPECT_EQ(by[0].neg, (std::vector<double>{0.0, 0.7}));
  EXPECT_EQ(by[0].neg_w, (std::vector<double>{2, 0.5}));
  EXPECT_TRUE(by[1].pos.empty() && by[1].neg.empty());
}

TEST(Ranges, PositiveSpellingsDecideAsEvaluate) {
  state_options o;
  o.kind = prediction_kind::scores;
  // Numeric spellings unified; the order of the spellings given does not matter.
  EXPECT_EQ(positive_spellings({"1.0", "0", "1"}, o), (std::vector<std::uint8_t>{1, 0, 1}));
  EXPECT_EQ(positive_spellings({"0", "1", "1.0"}, o), (std::vector<std::uint8_t>{0, 1, 1}));
  o.pos_label = "0";
  EXPECT_EQ(positive_spellings({"1.0", "0", "1"}, o), (std::vector<std::uint8_t>{0, 1, 0}));
  o.pos_label = "ham";
  EXPECT_EQ(positive_spellings({"spam", "ham"}, o), (std::vector<std::uint8_t>{0, 1}));
  // Three classes: what evaluate throws for them.
  o.pos_label.reset();
  const std::vector<std::string> three = {"a", "b", "c"};
  std::string want;
  error_kind kind = error_kind::usage;
  try {
    prediction_options po;
    (void)evaluate(predictions_from_scores(three, std::vector<double>{0.1, 0.5, 0.9}, po));
  } catch (const error& e) {
    want = e.what();
    kind = e.kind();
  }
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(message_of([&] { (void)positive_spellings(three, o); }, kind), want);
  // In any order: the classes as the state's finish() has them (sorted).
  EXPECT_EQ(message_of([&] { (void)positive_spellings({"c", "a", "b"}, o); }, kind), want);
  EXPECT_EQ(message_of([&] { (void)positive_spellings({"b", "c", "a"}, o); }, kind), want);
}

TEST(Ranges, MostlyDistinct) {
  std::vector<double> s;
  EXPECT_TRUE(mostly_distinct(s));
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < 200000; ++i) s.push_back(u(g));
  EXPECT_TRUE(mostly_distinct(s));
  for (auto& x : s) x = std::floor(x * 1000) / 1000;  // 1000 levels
  EXPECT_FALSE(mostly_distinct(s));
  EXPECT_FALSE(mostly_distinct(std::vector<double>{-0.0, 0.0, 0.0, 1.0}));  // -0.0 is 0.0: 2 of 4
  EXPECT_TRUE(mostly_distinct(std::vector<double>{0.5}));
}

}  // namespace
}  // namespace assay::scale
