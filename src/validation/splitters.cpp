#include "assay/validation/splitters.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "assay/error.hpp"

namespace assay::validation {

namespace {

std::vector<std::size_t> iota(std::size_t n) {
  std::vector<std::size_t> v(n);
  std::iota(v.begin(), v.end(), std::size_t{0});
  return v;
}

void check_fraction(const char* who, const char* what, double f) {
  if (!(f > 0 && f < 1)) throw_usage(fmt::format("{}: {} must be in (0, 1), got {}", who, what, f));
}

void check_strata(const char* who, std::span<const std::int32_t> s, std::size_t n) {
  if (!s.empty() && s.size() != n) throw_usage(fmt::format("{}: {} strata for {} rows", who, s.size(), n));
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] < 0) throw_usage(fmt::format("{}: stratum/group code {} of row {} is negative", who, s[i], i));
  }
}

std::size_t count_codes(std::span<const std::int32_t> s) {
  std::int32_t m = -1;
  for (auto c : s) m = std::max(m, c);
  return static_cast<std::size_t>(m + 1);
}

// Splits `rows` (already shuffled) into parts of sizes given by fractions, stratum by stratum with
// largest-remainder rounding so that the total part sizes are floor(n * f) (train) as documented.
// Returns a part index (0 = train, 1 = validation, 2 = test) per row of `rows`.
std::vector<int> assign_parts(std::size_t n, const std::vector<double>& fractions, rng& g,
                              std::span<const std::int32_t> strata, const char* who) {
  std::vector<int> part(n, static_cast<int>(fractions.size()));
  std::vector<std::size_t> target(fractions.size());
  double cum = 0;
  std::size_t used = 0;
  for (std::size_t j = 0; j < fractions.size(); ++j) {
    cum += fractions[j];
    const auto upto = static_cast<std::size_t>(std::floor(cum * static_cast<double>(n) + 1e-9));
    target[j] = upto - used;
    used = upto;
    if (target[j] == 0) throw_usage(fmt::format("{}: {} rows leave a part empty (fraction {})", who, n, fractions[j]));
  }
  if (used >= n) throw_usage(fmt::format("{}: {} rows leave the test part empty", who, n));
  if (strata.empty()) {
    auto order = iota(n);
    g.shuffle(order);
    std::size_t pos = 0;
    for (std::size_t j = 0; j < fractions.size(); ++j)
      for (std::size_t t = 0; t < target[j]; ++t) part[order[pos++]] = static_cast<int>(j);
    return part;
  }
  // Stratified: per stratum, quota_j = size * f_j, floored; leftover rows of each part are given to
  // the strata with the largest remainders so that the totals equal `target`.
  const std::size_t s_count = count_codes(strata);
  std::vector<std::vector<std::size_t>> members(s_count);
  for (std::size_t i = 0; i < n; ++i) members[static_cast<std::size_t>(strata[i])].push_back(i);
  std::vector<std::vector<std::size_t>> quota(s_count, std::vector<std::size_t>(fractions.size()));
  for (std::size_t j = 0; j < fractions.size(); ++j) {
    std::vector<std::pair<double, std::size_t>> rem;
    std::size_t given = 0;
    for (std::size_t s = 0; s < s_count; ++s) {
      const double exact =
          static_cast<double>(members[s].size()) * static_cast<double>(target[j]) / static_cast<double>(n);
      quota[s][j] = static_cast<std::size_t>(std::floor(exact));
      given += quota[s][j];
      rem.emplace_back(exact - std::floor(exact), s);
    }
    std::stable_sort(rem.begin(), rem.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (std::size_t r = 0; given < target[j] && r < rem.size(); ++r) {
      auto s = rem[r].second;
      std::size_t assigned = 0;
      for (std::size_t jj = 0; jj <= j; ++jj) assigned += quota[s][jj];
      if (assigned < members[s].size()) {
        ++quota[s][j];
        ++given;
      }
    }
  }
  for (std::size_t s = 0; s < s_count; ++s) {
    auto rows = members[s];
    g.shuffle(rows);
    std::size_t pos = 0;
    for (std::size_t j = 0; j < fractions.size(); ++j)
      for (std::size_t t = 0; t < quota[s][j] && pos < rows.size(); ++t) part[rows[pos++]] = static_cast<int>(j);
  }
  return part;
}

split_list from_fold_ids(const std::vector<std::size_t>& fold, std::size_t k, std::size_t repeat = 0) {
  split_list out(k);
  for (std::size_t f = 0; f < k; ++f) out[f].repeat = repeat;
  for (std::size_t i = 0; i < fold.size(); ++i) {
    for (std::size_t f = 0; f < k; ++f) (fold[i] == f ? out[f].test : out[f].train).push_back(i);
  }
  return out;
}

void check_k(const char* who, std::size_t k, std::size_t n, const char* unit = "rows") {
  if (k < 2) throw_usage(fmt::format("{}: the number of folds must be at least 2, got {}", who, k));
  if (k > n) throw_usage(fmt::format("{}: {} folds but only {} {}", who, k, n, unit));
}

// Calls f(subset) for every p-subset of {0..m-1} in lexicographic order.
template <class F>
void for_each_combination(std::size_t m, std::size_t p, F f) {
  std::vector<std::size_t> c = iota(p);
  while (true) {
    f(c);
    std::size_t i = p;
    while (i > 0 && c[i - 1] == m - p + i - 1) --i;
    if (i == 0) return;
    ++c[i - 1];
    for (std::size_t j = i; j < p; ++j) c[j] = c[j - 1] + 1;
  }
}

}  // namespace

split holdout(std::size_t n, double train_fraction, std::uint64_t seed, std::span<const std::int32_t> strata) {
  check_fraction("holdout", "train fraction", train_fraction);
  check_strata("holdout", strata, n);
  rng g(seed);
  auto part = assign_parts(n, {train_fraction}, g, strata, "holdout");
  split s;
  for (std::size_t i = 0; i < n; ++i) (part[i] == 0 ? s.train : s.test).push_back(i);
  return s;
}

split train_validation_test(std::size_t n, double train_fraction, double validation_fraction, std::uint64_t seed,
                            std::span<const std::int32_t> strata) {
  check_fraction("train_validation_test", "train fraction", train_fraction);
  check_fraction("train_validation_test", "validation fraction", validation_fraction);
  if (train_fraction + validation_fraction >= 1) {
    throw_usage(fmt::format("train_validation_test: train fraction {} + validation fraction {} leaves no test part",
                            train_fraction, validation_fraction));
  }
  check_strata("train_validation_test", strata, n);
  rng g(seed);
  auto part = assign_parts(n, {train_fraction, validation_fraction}, g, strata, "train_validation_test");
  split s;
  for (std::size_t i = 0; i < n; ++i) (part[i] == 0 ? s.train : part[i] == 1 ? s.validation : s.test).push_back(i);
  return s;
}

split_list shuffle_split(std::size_t n, std::size_t repeats, double train_fraction, std::uint64_t seed,
                         std::span<const std::int32_t> strata) {
  if (repeats == 0) throw_usage("shuffle_split: the number of repeats must be at least 1");
  split_list out;
  for (std::size_t r = 0; r < repeats; ++r) {
    out.push_back(holdout(n, train_fraction, derive_seed(seed, r), strata));
    out.back().repeat = r;
  }
  return out;
}

split_list kfold(std::size_t n, std::size_t k, bool shuffle, std::uint64_t seed) {
  check_k("kfold", k, n);
  auto order = iota(n);
  if (shuffle) {
    rng g(seed);
    g.shuffle(order);
  }
  std::vector<std::size_t> fold(n);
  std::size_t pos = 0;
  for (std::size_t f = 0; f < k; ++f) {
    const std::size_t size = n / k + (f < n % k ? 1 : 0);
    for (std::size_t t = 0; t < size; ++t) fold[order[pos++]] = f;
  }
  return from_fold_ids(fold, k);
}

split_list stratified_kfold(std::span<const std::int32_t> strata, std::size_t k, bool shuffle, std::uint64_t seed) {
  const std::size_t n = strata.size();
  check_k("stratified_kfold", k, n);
  check_strata("stratified_kfold", strata, n);
  // Classes in order of first appearance, as scikit-learn encodes them.
  const std::size_t codes = count_codes(strata);
  std::vector<std::int64_t> first(codes, -1);
  std::vector<std::size_t> count(codes, 0);
  for (std::size_t i = 0; i < n; ++i) {
    auto c = static_cast<std::size_t>(strata[i]);
    if (first[c] < 0) first[c] = static_cast<std::int64_t>(i);
    ++count[c];
  }
  std::vector<std::size_t> classes;
  for (std::size_t c = 0; c < codes; ++c)
    if (count[c] > 0) classes.push_back(c);
  std::sort(classes.begin(), classes.end(), [&](auto a, auto b) { return first[a] < first[b]; });
  std::size_t largest = 0;
  for (auto c : classes) largest = std::max(largest, count[c]);
  if (largest < k) {
    throw_usage(fmt::format("stratified_kfold: {} folds but the largest class has only {} cases", k, largest));
  }
  // Allocation: deal the class-sorted rows round-robin over the folds; fold f gets the count of each
  // class among positions f, f + k, f + 2k, ...
  std::vector<std::vector<std::size_t>> alloc(k, std::vector<std::size_t>(classes.size(), 0));
  std::size_t pos = 0;
  for (std::size_t ci = 0; ci < classes.size(); ++ci)
    for (std::size_t t = 0; t < count[classes[ci]]; ++t, ++pos) ++alloc[pos % k][ci];
  rng g(seed);
  std::vector<std::size_t> fold(n);
  for (std::size_t ci = 0; ci < classes.size(); ++ci) {
    std::vector<std::size_t> folds_for_class;
    for (std::size_t f = 0; f < k; ++f) folds_for_class.insert(folds_for_class.end(), alloc[f][ci], f);
    if (shuffle) g.shuffle(folds_for_class);
    std::size_t j = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (static_cast<std::size_t>(strata[i]) == classes[ci]) fold[i] = folds_for_class[j++];
  }
  return from_fold_ids(fold, k);
}

split_list repeated_kfold(std::size_t n, std::size_t k, std::size_t repeats, std::uint64_t seed,
                          std::span<const std::int32_t> strata) {
  if (repeats == 0) throw_usage("repeated_kfold: the number of repeats must be at least 1");
  if (!strata.empty() && strata.size() != n)
    throw_usage(fmt::format("repeated_kfold: {} strata for {} rows", strata.size(), n));
  split_list out;
  for (std::size_t r = 0; r < repeats; ++r) {
    auto one = strata.empty() ? kfold(n, k, true, derive_seed(seed, r))
                              : stratified_kfold(strata, k, true, derive_seed(seed, r));
    for (auto& s : one) {
      s.repeat = r;
      out.push_back(std::move(s));
    }
  }
  return out;
}

split_list leave_one_out(std::size_t n) {
  if (n < 2) throw_usage(fmt::format("leave_one_out: needs at least 2 rows, got {}", n));
  return kfold(n, n);
}

std::size_t binomial(std::size_t n, std::size_t p) {
  if (p > n) return 0;
  p = std::min(p, n - p);
  // C(m, i) = C(m - 1, i - 1) * m / i with m = n - p + i; dividing out gcd(r, i) first keeps it exact.
  std::size_t r = 1;
  for (std::size_t i = 1; i <= p; ++i) {
    const std::size_t g = std::gcd(r, i);
    const std::size_t factor = (n - p + i) / (i / g);
    std::size_t next;
    if (__builtin_mul_overflow(r / g, factor, &next)) return std::numeric_limits<std::size_t>::max();
    r = next;
  }
  return r;
}

namespace {
std::string count_text(std::size_t c) {
  return c == std::numeric_limits<std::size_t>::max() ? std::string("more than 1.8e19") : std::to_string(c);
}
}  // namespace

split_list leave_p_out(std::size_t n, std::size_t p, std::size_t max_splits) {
  if (p < 1 || p >= n) throw_usage(fmt::format("leave_p_out: p must be in [1, {}) for {} rows, got {}", n, n, p));
  const std::size_t count = binomial(n, p);
  if (count > max_splits) {
    throw_usage(
        fmt::format("leave_p_out: C({}, {}) = {} splits is more than the limit of {}; use k-fold or "
                    "shuffle splits, or raise the limit",
                    n, p, count_text(count), max_splits));
  }
  split_list out;
  out.reserve(count);
  for_each_combination(n, p, [&](const std::vector<std::size_t>& c) {
    split s;
    s.test = c;
    std::size_t j = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (j < p && c[j] == i)
        ++j;
      else
        s.train.push_back(i);
    }
    out.push_back(std::move(s));
  });
  return out;
}

namespace {
// The distinct group codes present, in increasing order.
std::vector<std::int32_t> distinct(std::span<const std::int32_t> g) {
  std::vector<std::int32_t> u(g.begin(), g.end());
  std::sort(u.begin(), u.end());
  u.erase(std::unique(u.begin(), u.end()), u.end());
  return u;
}

split_list from_group_sets(std::span<const std::int32_t> groups, const std::vector<std::vector<bool>>& test_groups) {
  split_list out;
  for (const auto& in_test : test_groups) {
    split s;
    for (std::size_t i = 0; i < groups.size(); ++i)
      (in_test[static_cast<std::size_t>(groups[i])] ? s.test : s.train).push_back(i);
    out.push_back(std::move(s));
  }
  return out;
}
}  // namespace

split_list group_kfold(std::span<const std::int32_t> groups, std::size_t k) {
  check_strata("group_kfold", groups, groups.size());
  const auto u = distinct(groups);
  check_k("group_kfold", k, u.size(), "groups");
  const std::size_t codes = count_codes(groups);
  std::vector<std::size_t> size(codes, 0);
  std::vector<std::size_t> first(codes, groups.size());
  for (std::size_t i = 0; i < groups.size(); ++i) {
    auto c = static_cast<std::size_t>(groups[i]);
    ++size[c];
    first[c] = std::min(first[c], i);
  }
  auto order = std::vector<std::int32_t>(u);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
    if (size[a] != size[b]) return size[a] > size[b];
    return first[a] < first[b];
  });
  std::vector<std::size_t> fold_rows(k, 0);
  std::vector<std::vector<bool>> test(k, std::vector<bool>(codes, false));
  for (auto gcode : order) {
    const auto f = static_cast<std::size_t>(std::min_element(fold_rows.begin(), fold_rows.end()) - fold_rows.begin());
    fold_rows[f] += size[static_cast<std::size_t>(gcode)];
    test[f][static_cast<std::size_t>(gcode)] = true;
  }
  return from_group_sets(groups, test);
}

split_list leave_one_group_out(std::span<const std::int32_t> groups) {
  return leave_p_groups_out(groups, 1, std::numeric_limits<std::size_t>::max());
}

split_list leave_p_groups_out(std::span<const std::int32_t> groups, std::size_t p, std::size_t max_splits) {
  check_strata("leave_p_groups_out", groups, groups.size());
  const auto u = distinct(groups);
  if (u.size() < 2) throw_usage(fmt::format("leave_p_groups_out: needs at least 2 groups, got {}", u.size()));
  if (p < 1 || p >= u.size()) {
    throw_usage(fmt::format("leave_p_groups_out: p must be in [1, {}) for {} groups, got {}", u.size(), u.size(), p));
  }
  const std::size_t count = binomial(u.size(), p);
  if (count > max_splits) {
    throw_usage(fmt::format("leave_p_groups_out: C({}, {}) = {} splits is more than the limit of {}", u.size(), p,
                            count_text(count), max_splits));
  }
  const std::size_t codes = count_codes(groups);
  std::vector<std::vector<bool>> test;
  for_each_combination(u.size(), p, [&](const std::vector<std::size_t>& c) {
    std::vector<bool> t(codes, false);
    for (auto j : c) t[static_cast<std::size_t>(u[j])] = true;
    test.push_back(std::move(t));
  });
  return from_group_sets(groups, test);
}

split_list stratified_group_kfold(std::span<const std::int32_t> strata, std::span<const std::int32_t> groups,
                                  std::size_t k, bool shuffle, std::uint64_t seed) {
  const std::size_t n = groups.size();
  check_strata("stratified_group_kfold", groups, n);
  check_strata("stratified_group_kfold", strata, n);
  if (strata.size() != n) throw_usage(fmt::format("stratified_group_kfold: {} classes for {} rows", strata.size(), n));
  auto u = distinct(groups);
  check_k("stratified_group_kfold", k, u.size(), "groups");
  const std::size_t classes = count_codes(strata);
  const std::size_t codes = count_codes(groups);
  std::vector<std::vector<double>> per_group(codes, std::vector<double>(classes, 0));
  std::vector<double> class_total(classes, 0);
  for (std::size_t i = 0; i < n; ++i) {
    per_group[static_cast<std::size_t>(groups[i])][static_cast<std::size_t>(strata[i])] += 1;
    class_total[static_cast<std::size_t>(strata[i])] += 1;
  }
  auto sd = [](const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m += x;
    m /= static_cast<double>(v.size());
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size()));
  };
  if (shuffle) {
    rng g(seed);
    g.shuffle(u);
  }
  std::stable_sort(u.begin(), u.end(), [&](auto a, auto b) {
    return sd(per_group[static_cast<std::size_t>(a)]) > sd(per_group[static_cast<std::size_t>(b)]);
  });
  std::vector<std::vector<double>> fold_class(k, std::vector<double>(classes, 0));
  std::vector<double> fold_rows(k, 0);
  std::vector<std::vector<bool>> test(k, std::vector<bool>(codes, false));
  for (auto gcode : u) {
    const auto& gc = per_group[static_cast<std::size_t>(gcode)];
    double best = std::numeric_limits<double>::infinity();
    std::size_t best_fold = 0;
    for (std::size_t f = 0; f < k; ++f) {
      for (std::size_t c = 0; c < classes; ++c) fold_class[f][c] += gc[c];
      double mean_sd = 0;
      for (std::size_t c = 0; c < classes; ++c) {
        if (class_total[c] == 0) continue;
        std::vector<double> share(k);
        for (std::size_t ff = 0; ff < k; ++ff) share[ff] = fold_class[ff][c] / class_total[c];
        mean_sd += sd(share);
      }
      for (std::size_t c = 0; c < classes; ++c) fold_class[f][c] -= gc[c];
      if (mean_sd < best - 1e-12 || (std::abs(mean_sd - best) <= 1e-12 && fold_rows[f] < fold_rows[best_fold])) {
        best = mean_sd;
        best_fold = f;
      }
    }
    for (std::size_t c = 0; c < classes; ++c) fold_class[best_fold][c] += gc[c];
    double rows = 0;
    for (double x : gc) rows += x;
    fold_rows[best_fold] += rows;
    test[best_fold][static_cast<std::size_t>(gcode)] = true;
  }
  return from_group_sets(groups, test);
}

split_list time_series_split(std::size_t n, std::size_t k, std::size_t test_size, std::size_t gap,
                             std::size_t max_train) {
  if (k < 2) throw_usage(fmt::format("time_series_split: the number of splits must be at least 2, got {}", k));
  if (test_size == 0) test_size = n / (k + 1);
  if (test_size == 0 || k * test_size + gap >= n) {
    throw_usage(fmt::format("time_series_split: {} rows are too few for {} splits with test size {} and gap {}", n, k,
                            test_size, gap));
  }
  split_list out;
  for (std::size_t f = 0; f < k; ++f) {
    const std::size_t start = n - (k - f) * test_size;
    split s;
    const std::size_t train_end = start - gap;
    const std::size_t train_begin = max_train > 0 && train_end > max_train ? train_end - max_train : 0;
    for (std::size_t i = train_begin; i < train_end; ++i) s.train.push_back(i);
    for (std::size_t i = start; i < start + test_size; ++i) s.test.push_back(i);
    out.push_back(std::move(s));
  }
  return out;
}

split_list bootstrap(std::size_t n, std::size_t repeats, std::uint64_t seed) {
  if (n < 2) throw_usage(fmt::format("bootstrap: needs at least 2 rows, got {}", n));
  if (repeats == 0) throw_usage("bootstrap: the number of repeats must be at least 1");
  split_list out;
  for (std::size_t r = 0; r < repeats; ++r) {
    rng g(derive_seed(seed, r));
    std::vector<std::size_t> drawn(n, 0);
    split s;
    s.repeat = r;
    for (std::size_t i = 0; i < n; ++i) ++drawn[static_cast<std::size_t>(g.below(n))];
    for (std::size_t i = 0; i < n; ++i) {
      s.train.insert(s.train.end(), drawn[i], i);
      if (drawn[i] == 0) s.test.push_back(i);
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::int32_t> quantile_bins(std::span<const double> y, std::size_t bins) {
  const std::size_t n = y.size();
  if (bins < 1 || bins > n) throw_usage(fmt::format("quantile_bins: {} bins for {} values", bins, n));
  auto order = iota(n);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return y[a] < y[b]; });
  std::vector<std::int32_t> out(n);
  for (std::size_t r = 0; r < n; ++r) out[order[r]] = static_cast<std::int32_t>(r * bins / n);
  return out;
}

void check_splits(const split_list& splits, std::size_t n) {
  for (std::size_t s = 0; s < splits.size(); ++s) {
    const auto& sp = splits[s];
    std::vector<char> seen(n, 0);
    for (auto* part : {&sp.train, &sp.validation, &sp.test}) {
      for (auto i : *part) {
        if (i >= n) throw_data(fmt::format("split {}: row index {} is outside the {} rows", s + 1, i, n));
      }
    }
    for (auto i : sp.test) seen[i] = 1;
    for (auto i : sp.train)
      if (seen[i]) throw_data(fmt::format("split {}: row {} is in both train and test", s + 1, i));
    if (sp.train.empty() || sp.test.empty()) throw_data(fmt::format("split {}: an empty train or test part", s + 1));
  }
}

}  // namespace assay::validation
