// The Poisson bootstrap; see include/assay/stats/poisson_bootstrap.hpp.
#include "assay/stats/poisson_bootstrap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

#include "assay/error.hpp"
#include "assay/stats/detail/poisson_draws.hpp"
#include "assay/stats/detail/radix_sort.hpp"
#include "assay/stats/detail/replicates.hpp"
#include "assay/stats/detail/weighted_sweep.hpp"
#include "assay/stats/random.hpp"

namespace assay::stats {

namespace {

// Replicates per pass over the rows: enough to amortise reading the rows, few enough that the
// per-replicate sums stay in registers and L1.
constexpr std::size_t batch = detail::poisson_lanes;

void check(const char* fn, std::size_t rows, std::span<const double> weight, const bootstrap_options& o) {
  if (rows == 0) throw_usage(fmt::format("{}: no rows to resample", fn));
  if (o.replicates < 1) throw_usage(fmt::format("{}: replicates must be >= 1; got 0", fn));
  if (!(o.level > 0 && o.level < 1)) throw_usage(fmt::format("{}: level must be in (0, 1); got {}", fn, o.level));
  if (o.method != bootstrap_method::percentile) throw_usage(fmt::format("{}: only the percentile method", fn));
  if (!o.strata.empty()) throw_usage(fmt::format("{}: strata are not supported", fn));
  if (!weight.empty() && weight.size() != rows) {
    throw_usage(fmt::format("{}: {} rows but {} weights", fn, rows, weight.size()));
  }
}

// A case in decreasing score order: its row, whether it is positive, whether it starts a tie group.
struct sorted_case {
  std::uint32_t row;
  std::uint8_t positive, starts_group;
};

// Cases sorted once: tie groups from the highest score down, rows of a group in row order.
std::vector<sorted_case> order_cases(std::span<const std::int32_t> y, std::span<const double> s, unsigned threads) {
  const auto asc = detail::sort_by_score(s, y, threads == 0 ? 8u : threads);
  std::vector<sorted_case> out;
  out.reserve(asc.size());
  for (std::size_t j = asc.size(); j > 0;) {
    std::size_t i = j - 1;
    while (i > 0 && asc[i - 1].score == asc[j - 1].score) --i;
    for (std::size_t t = i; t < j; ++t) {
      out.push_back({asc[t].index, static_cast<std::uint8_t>(asc[t].label == 1), static_cast<std::uint8_t>(t == i)});
    }
    j = i;
  }
  return out;
}

// The weights of one batch for a block of positions: k[t * batch + b] for position t of the block
// and replicate b, either the Poisson counts of replicates first..first+batch-1 of the rows' ids
// (detail::draw_poisson_counts) or 1 (the estimate).
struct poisson_weights {
  std::array<std::uint64_t, batch> key;
  void operator()(const std::uint64_t* ids, std::size_t count, double* k) const {
    detail::draw_poisson_counts(key.data(), ids, count, k);
  }
};
struct unit_weights {
  void operator()(const std::uint64_t*, std::size_t count, double* k) const { std::fill(k, k + count * batch, 1.0); }
};

// Positions whose weights are drawn at a time: 2 KiB of ids and 16 KiB of weights, in L1.
constexpr std::size_t block = 256;

// The rows in the order of the pass (sorted cases when there is a score, else row order), with the
// mean columns and the weights copied into that order so that the pass reads memory sequentially.
struct pass_data {
  std::vector<sorted_case> cases;           // empty: row order, no ranking statistic
  std::vector<std::vector<double>> means;   // means[m][t]: value of mean m at position t
  std::vector<double> weight;               // weight at position t (empty: unit)
  const std::uint64_t* row_ids = nullptr;   // the rows' stable ids; null: the row index
  std::size_t rows = 0;
  bool auc = false, ap = false, other_ap = false;

  std::uint64_t id_at(std::size_t t) const {
    const std::size_t row = cases.empty() ? t : cases[t].row;
    return row_ids != nullptr ? row_ids[row] : row;
  }
  // Draws the weights of positions [first, first + count) (count <= block) into k, times the sample
  // weights if any: w_t k_bt, as the plain definition multiplies them.
  template <class Draw>
  void weights(const Draw& draw, std::size_t first, std::size_t count, double* k) const {
    std::array<std::uint64_t, block> ids;
    for (std::size_t t = 0; t < count; ++t) ids[t] = id_at(first + t);
    draw(ids.data(), count, k);
    if (weight.empty()) return;
    for (std::size_t t = 0; t < count; ++t)
#pragma GCC unroll 8
      for (std::size_t b = 0; b < batch; ++b) k[t * batch + b] = weight[first + t] * k[t * batch + b];
  }
};

// The kernels below run each block of positions once for each pair of replicates of the batch
// (pair h: replicates 2h and 2h + 1), one sum at a time: so that each loop's running sums stay in
// registers. Each sum still adds the rows in the order of the pass.
using detail::double2;
constexpr std::size_t pair = 2, pairs = batch / pair;
using lanes_sweep = detail::ranking_lanes<double2>;

// The weights of pair h of position i of a block drawn by pass_data::weights.
inline void load_pair(double2& w, const double* k, std::size_t i, std::size_t h) {
  std::memcpy(&w, k + i * batch + h * pair, sizeof w);
}

// A pair of replicates' running sums of the ranking statistics between blocks: the sweep, and the sums of
// the tie group not yet closed.
struct ranking_pair {
  lanes_sweep sweep;
  double2 gp{}, gn{};
  bool group_has_positive = false;
};

// Pairs of replicates whose ranking sums one loop carries side by side (enough independent sums to
// fill the pipeline, few enough to stay in registers).
constexpr std::size_t pairs_together = 2;

// The tie groups of positions [first, first + count), the weights at k, fed to the sweeps of pairs
// h0 .. h0 + pairs_together - 1 (r points to the first).
void descending_ranking(const pass_data& d, std::size_t first, std::size_t count, const double* k, std::size_t h0,
                        ranking_pair* r) {
  constexpr std::size_t P = pairs_together;
  std::array<lanes_sweep, P> sweep;
  std::array<double2, P> gp, gn;
  for (std::size_t j = 0; j < P; ++j) sweep[j] = r[j].sweep, gp[j] = r[j].gp, gn[j] = r[j].gn;
  bool has_positive = r[0].group_has_positive;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t t = first + i;
    const sorted_case c = d.cases[t];
    if (c.starts_group && t > 0) {
#pragma GCC unroll 2
      for (std::size_t j = 0; j < P; ++j) {
        sweep[j].group(gp[j], gn[j], d.ap && has_positive);
        gp[j] = double2{};
        gn[j] = double2{};
      }
      has_positive = false;
    }
    has_positive |= c.positive != 0;
    const double pos = c.positive, neg = 1 - pos;
#pragma GCC unroll 2
    for (std::size_t j = 0; j < P; ++j) {
      double2 wk;
      load_pair(wk, k, i, h0 + j);
      gp[j] += pos * wk;
      gn[j] += neg * wk;
    }
  }
  for (std::size_t j = 0; j < P; ++j) {
    r[j].sweep = sweep[j];
    r[j].gp = gp[j];
    r[j].gn = gn[j];
    r[j].group_has_positive = has_positive;
  }
}

// Adds the weights of a block's `count` positions (times x[i] at position i, if x is given) to the
// running sums of each pair, in position order (the pairs side by side: their sums are independent).
template <bool Times>
void sum_pairs(std::array<double2, pairs>& sums, const double* k, std::size_t count, const double* x) {
  std::array<double2, pairs> s = sums;
  double2 wk;
  for (std::size_t i = 0; i < count; ++i) {
#pragma GCC unroll 4
    for (std::size_t h = 0; h < pairs; ++h) {
      load_pair(wk, k, i, h);
      if constexpr (Times) s[h] += wk * x[i];
      else s[h] += wk;
    }
  }
  sums = s;
}

// One pass over the rows for a batch, from the highest score down: out[s][b] = statistic s of batch
// member b. Means are summed in the order of the pass; tie groups of the ranking statistics are fed
// to detail::ranking_lanes (the positive class's areas).
template <bool Ranked, class Draw>
void descending_pass(const pass_data& d, const Draw& draw, std::vector<std::array<double, batch>>& out) {
  const std::size_t M = d.means.size();
  std::array<double2, pairs> den{};
  std::vector<std::array<double2, pairs>> num(M, std::array<double2, pairs>{});
  std::array<ranking_pair, pairs> rank{};
  alignas(64) std::array<double, block * batch> k;
  for (std::size_t first = 0; first < d.rows; first += block) {
    const std::size_t count = std::min(block, d.rows - first);
    d.weights(draw, first, count, k.data());
    sum_pairs<false>(den, k.data(), count, nullptr);
    for (std::size_t m = 0; m < M; ++m) sum_pairs<true>(num[m], k.data(), count, d.means[m].data() + first);
    if constexpr (Ranked)
      for (std::size_t h = 0; h < pairs; h += pairs_together) descending_ranking(d, first, count, k.data(), h, &rank[h]);
  }
  for (std::size_t m = 0; m < M; ++m)
    for (std::size_t b = 0; b < batch; ++b) {
      const double n = num[m][b / pair][b % pair], w = den[b / pair][b % pair];
      out[m][b] = w > 0 ? n / w : std::numeric_limits<double>::quiet_NaN();
    }
  if constexpr (Ranked) {
    for (auto& r : rank) r.sweep.group(r.gp, r.gn, d.ap && r.group_has_positive);
    std::size_t s = M;
    if (d.auc) {
      for (std::size_t b = 0; b < batch; ++b) out[s][b] = rank[b / pair].sweep.auc(b % pair);
      ++s;
    }
    if (d.ap)
      for (std::size_t b = 0; b < batch; ++b) out[s][b] = rank[b / pair].sweep.average_precision(b % pair);
  }
}

// Sums one tie group [first, last) of positions, in position order (its rows' order), for pairs
// h0 .. h0 + pairs_together - 1: into the other class's weight a (the negatives') and the positives'
// weight c; the weights of positions [k_first, ...) are at k. Returns whether the group holds a
// negative case.
bool other_group(const pass_data& d, std::size_t first, std::size_t last, std::size_t k_first, const double* k,
                 std::size_t h0, double2* a, double2* c) {
  bool has_negative = false;
  for (std::size_t t = first; t < last; ++t) {
    const double pos = d.cases[t].positive, neg = 1 - pos;
    has_negative |= d.cases[t].positive == 0;
#pragma GCC unroll 2
    for (std::size_t j = 0; j < pairs_together; ++j) {
      double2 wk;
      load_pair(wk, k, t - k_first, h0 + j);
      a[j] += neg * wk;
      c[j] += pos * wk;
    }
  }
  return has_negative;
}

// The first position of the tie group holding position t.
std::size_t group_start(const pass_data& d, std::size_t t) {
  while (!d.cases[t].starts_group) --t;
  return t;
}

// The other class's average precision (truth 1 - y ranked by -score): tie groups swept from the
// lowest score up, each group's rows summed in row order, exactly as a pass over the cases sorted
// by -score would (the same groups, ties in row order). The weights are drawn again, a run of whole
// groups at a time (a group longer than a block in blocks, in order).
template <class Draw>
void ascending_other_ap(const pass_data& d, const Draw& draw, std::array<double, batch>& out) {
  std::array<lanes_sweep, pairs> sweep{};
  alignas(64) std::array<double, block * batch> k;
  std::size_t end = d.rows;
  while (end > 0) {
    std::size_t begin = end > block ? end - block : 0;
    while (begin < end && !d.cases[begin].starts_group) ++begin;
    if (begin == end) {  // one group longer than a block: drawn and summed forward, a block at a time
      const std::size_t g = group_start(d, end - 1);
      std::array<double2, pairs> a{}, c{};
      bool has_negative = false;
      for (std::size_t first = g; first < end; first += block) {
        const std::size_t count = std::min(block, end - first);
        d.weights(draw, first, count, k.data());
        for (std::size_t h = 0; h < pairs; h += pairs_together)
          has_negative |= other_group(d, first, first + count, first, k.data(), h, &a[h], &c[h]);
      }
      for (std::size_t h = 0; h < pairs; ++h) sweep[h].group(a[h], c[h], has_negative);
      end = g;
      continue;
    }
    d.weights(draw, begin, end - begin, k.data());
    for (std::size_t h = 0; h < pairs; h += pairs_together) {
      std::array<lanes_sweep, pairs_together> s;
      for (std::size_t j = 0; j < pairs_together; ++j) s[j] = sweep[h + j];
      for (std::size_t last = end; last > begin;) {  // the run's groups from the last down
        const std::size_t g = group_start(d, last - 1);
        std::array<double2, pairs_together> a{}, c{};
        const bool has_negative = other_group(d, g, last, begin, k.data(), h, a.data(), c.data());
#pragma GCC unroll 2
        for (std::size_t j = 0; j < pairs_together; ++j) s[j].group(a[j], c[j], has_negative);
        last = g;
      }
      for (std::size_t j = 0; j < pairs_together; ++j) sweep[h + j] = s[j];
    }
    end = begin;
  }
  for (std::size_t b = 0; b < batch; ++b) out[b] = sweep[b / pair].average_precision(b % pair);
}

template <class Draw>
void run_pass(const pass_data& d, const Draw& draw, std::vector<std::array<double, batch>>& out) {
  if (d.cases.empty()) descending_pass<false>(d, draw, out);
  else descending_pass<true>(d, draw, out);
  if (d.other_ap) ascending_other_ap(d, draw, out.back());
}

}  // namespace

std::vector<bootstrap_result> poisson_bootstrap(const poisson_statistics& s, const bootstrap_options& o) {
  const char* fn = "poisson_bootstrap";
  check(fn, s.rows, s.weight, o);
  const bool ranking = s.roc_auc || s.average_precision || s.other_average_precision;
  const std::size_t n_out = s.means.size() + (s.roc_auc ? 1 : 0) + (s.average_precision ? 1 : 0) +
                            (s.other_average_precision ? 1 : 0);
  if (n_out == 0) throw_usage(fmt::format("{}: no statistic to compute", fn));
  for (std::size_t m = 0; m < s.means.size(); ++m) {
    if (s.means[m].size() != s.rows) {
      throw_usage(fmt::format("{}: {} rows but mean {} has {} values", fn, s.rows, m, s.means[m].size()));
    }
  }
  if (!s.row_ids.empty() && s.row_ids.size() != s.rows) {
    throw_usage(fmt::format("{}: {} rows but {} row ids", fn, s.rows, s.row_ids.size()));
  }
  pass_data d;
  d.rows = s.rows;
  d.row_ids = s.row_ids.empty() ? nullptr : s.row_ids.data();
  d.auc = s.roc_auc;
  d.ap = s.average_precision;
  d.other_ap = s.other_average_precision;
  if (ranking) {
    if (s.y_true.size() != s.rows || s.y_score.size() != s.rows) {
      throw_usage(fmt::format("{}: {} rows but {} labels and {} scores", fn, s.rows, s.y_true.size(),
                              s.y_score.size()));
    }
    if (s.rows > std::numeric_limits<std::uint32_t>::max()) {
      throw_usage(fmt::format("{}: at most 4294967295 rows with a score; got {}", fn, s.rows));
    }
    for (std::size_t i = 0; i < s.rows; ++i) {
      if (s.y_true[i] != 0 && s.y_true[i] != 1) {
        throw_usage(fmt::format("{}: label {} of row {} is not 0 or 1", fn, s.y_true[i], i));
      }
    }
    d.cases = order_cases(s.y_true, s.y_score, o.threads);
  }
  auto in_pass_order = [&](std::span<const double> v) {
    if (d.cases.empty()) return std::vector<double>(v.begin(), v.end());
    std::vector<double> out(v.size());
    for (std::size_t t = 0; t < out.size(); ++t) out[t] = v[d.cases[t].row];
    return out;
  };
  for (const auto& m : s.means) d.means.push_back(in_pass_order(m));
  if (!s.weight.empty()) d.weight = in_pass_order(s.weight);

  std::vector<std::array<double, batch>> est(n_out);
  run_pass(d, unit_weights{}, est);
  std::vector<double> estimates(n_out);
  for (std::size_t k = 0; k < n_out; ++k) estimates[k] = est[k][0];

  const std::size_t B = o.replicates;
  std::vector<double> reps(n_out * B);
  detail::for_each_replicate_batch(
      B, batch, o.threads, std::vector<std::array<double, batch>>(n_out),
      [&](std::vector<std::array<double, batch>>& out, std::size_t first, std::size_t count) {
        poisson_weights draw;
        for (std::size_t b = 0; b < batch; ++b) draw.key[b] = poisson1_key(o.seed, first + b);
        run_pass(d, draw, out);
        for (std::size_t k = 0; k < n_out; ++k)
          for (std::size_t b = 0; b < count; ++b) reps[k * B + first + b] = out[k][b];
      },
      o.progress);
  return detail::summarise_replicates(std::move(reps), estimates, o);
}

std::vector<bootstrap_result> poisson_bootstrap_weighted(std::size_t rows, std::span<const double> weight,
                                                         std::size_t n_stats, const weighted_statistics& statistics,
                                                         const bootstrap_options& o) {
  return poisson_bootstrap_weighted(rows, weight, {}, n_stats, statistics, o);
}

std::vector<bootstrap_result> poisson_bootstrap_weighted(std::size_t rows, std::span<const double> weight,
                                                         std::span<const std::uint64_t> row_ids, std::size_t n_stats,
                                                         const weighted_statistics& statistics,
                                                         const bootstrap_options& o) {
  const char* fn = "poisson_bootstrap_weighted";
  check(fn, rows, weight, o);
  if (!row_ids.empty() && row_ids.size() != rows) {
    throw_usage(fmt::format("{}: {} rows but {} row ids", fn, rows, row_ids.size()));
  }
  if (n_stats == 0) throw_usage(fmt::format("{}: no statistic to compute", fn));
  std::vector<double> estimates(n_stats);
  {
    std::vector<double> w(rows, 1.0);
    if (!weight.empty()) w.assign(weight.begin(), weight.end());
    statistics(w, estimates);
  }
  const std::size_t B = o.replicates;
  std::vector<double> reps(n_stats * B);
  using scratch = std::pair<std::vector<double>, std::vector<double>>;
  detail::for_each_replicate_batch(
      B, 1, o.threads, scratch{std::vector<double>(rows), std::vector<double>(n_stats)},
      [&](scratch& sc, std::size_t r, std::size_t) {
        const std::uint64_t key = poisson1_key(o.seed, r);
        for (std::size_t i = 0; i < rows; ++i) {
          const double k = poisson1_at(key, row_ids.empty() ? i : row_ids[i]);
          sc.first[i] = weight.empty() ? k : weight[i] * k;
        }
        statistics(sc.first, sc.second);
        for (std::size_t k = 0; k < n_stats; ++k) reps[k * B + r] = sc.second[k];
      },
      o.progress);
  return detail::summarise_replicates(std::move(reps), estimates, o);
}

}  // namespace assay::stats
