#include "assay/validation/split_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "assay/error.hpp"

namespace assay::validation {

const std::vector<std::string>& split_methods() {
  static const std::vector<std::string> m{"kfold",
                                          "stratified-kfold",
                                          "repeated-kfold",
                                          "repeated-stratified-kfold",
                                          "group-kfold",
                                          "stratified-group-kfold",
                                          "logo",
                                          "lpgo",
                                          "loo",
                                          "lpo",
                                          "holdout",
                                          "tvt",
                                          "shuffle",
                                          "stratified-shuffle",
                                          "timeseries",
                                          "bootstrap"};
  return m;
}

bool method_needs_strata(const std::string& m) {
  return m == "stratified-kfold" || m == "repeated-stratified-kfold" || m == "stratified-group-kfold" ||
         m == "stratified-shuffle";
}

bool method_needs_groups(const std::string& m) {
  return m == "group-kfold" || m == "stratified-group-kfold" || m == "logo" || m == "lpgo";
}

namespace {

enum class layout { fold, repeated_fold, role, per_split, draws };

layout layout_of(const std::string& m, std::size_t repeats) {
  if (m == "holdout" || m == "tvt") return layout::role;
  if (m == "bootstrap") return layout::draws;
  if (m == "repeated-kfold" || m == "repeated-stratified-kfold")
    return repeats > 1 ? layout::repeated_fold : layout::fold;
  if (m == "shuffle" || m == "stratified-shuffle" || m == "lpo" || m == "lpgo") return layout::per_split;
  return layout::fold;
}

}  // namespace

split_list make_splits(const split_request& q, std::size_t n, std::span<const std::int32_t> classes,
                       std::span<const double> target_values, std::span<const std::int32_t> groups,
                       const std::string& command) {
  const std::string who = command.empty() ? std::string() : command + ": ";
  const auto& m = q.method;
  if (std::find(split_methods().begin(), split_methods().end(), m) == split_methods().end()) {
    throw_usage(fmt::format("{}{}: unknown method '{}'", who, param("method"), m));
  }
  std::vector<std::int32_t> bins;
  std::span<const std::int32_t> strata = classes;
  if (method_needs_strata(m) || (q.stratify && (m == "holdout" || m == "tvt" || m == "shuffle"))) {
    if (classes.empty() && !target_values.empty()) {
      const std::size_t b = q.bins ? q.bins : std::max<std::size_t>(q.folds, 2);
      bins = quantile_bins(target_values, std::min(b, n));
      strata = bins;
    }
    if (strata.empty() && method_needs_strata(m)) {
      throw_usage(fmt::format("{}{} {} needs {} (classes, or a numeric target to bin)", who, param("method"), m,
                              param("target")));
    }
  } else {
    strata = {};
  }
  if (method_needs_groups(m) && groups.empty()) {
    throw_usage(fmt::format("{}{} {} needs {} COLUMN", who, param("method"), m, param("group")));
  }
  try {
    if (m == "kfold") return kfold(n, q.folds, q.shuffle, q.seed);
    if (m == "stratified-kfold") return stratified_kfold(strata, q.folds, q.shuffle, q.seed);
    if (m == "repeated-kfold") return repeated_kfold(n, q.folds, q.repeats, q.seed);
    if (m == "repeated-stratified-kfold") {
      if (strata.empty()) throw_usage(fmt::format("repeated-stratified-kfold needs {}", param("target")));
      return repeated_kfold(n, q.folds, q.repeats, q.seed, strata);
    }
    if (m == "group-kfold") return group_kfold(groups, q.folds);
    if (m == "stratified-group-kfold") return stratified_group_kfold(strata, groups, q.folds, q.shuffle, q.seed);
    if (m == "logo") return leave_one_group_out(groups);
    if (m == "lpgo") return leave_p_groups_out(groups, q.p, q.max_splits);
    if (m == "loo") return leave_one_out(n);
    if (m == "lpo") return leave_p_out(n, q.p, q.max_splits);
    if (m == "holdout") return {holdout(n, q.train_fraction, q.seed, strata)};
    if (m == "tvt") return {train_validation_test(n, q.train_fraction, q.validation_fraction, q.seed, strata)};
    if (m == "shuffle" || m == "stratified-shuffle")
      return shuffle_split(n, q.repeats, q.train_fraction, q.seed, strata);
    if (m == "timeseries") return time_series_split(n, q.folds, q.test_size, q.gap, q.max_train);
    return bootstrap(n, q.repeats, q.seed);
  } catch (const error& e) {
    throw error(e.kind(), fmt::format("{}{}", who, e.marked()));
  }
}

std::string split_csv(const split_request& q, const split_list& splits, std::size_t n) {
  const layout l = layout_of(q.method, q.repeats);
  std::vector<std::vector<std::string>> cell;  // [column][row]
  std::vector<std::string> names;
  auto fold_column = [&](std::size_t first, std::size_t count) {
    std::vector<std::string> c(n);
    for (std::size_t s = first; s < first + count; ++s)
      for (auto i : splits[s].test) c[i] = std::to_string(s - first);
    return c;
  };
  if (l == layout::fold) {
    names.push_back("fold");
    cell.push_back(fold_column(0, splits.size()));
  } else if (l == layout::repeated_fold) {
    const std::size_t per = splits.size() / q.repeats;
    for (std::size_t r = 0; r < q.repeats; ++r) {
      names.push_back(fmt::format("fold_r{}", r));
      cell.push_back(fold_column(r * per, per));
    }
  } else if (l == layout::role) {
    names.push_back("role");
    std::vector<std::string> c(n);
    for (auto i : splits[0].train) c[i] = "train";
    for (auto i : splits[0].validation) c[i] = "validation";
    for (auto i : splits[0].test) c[i] = "test";
    cell.push_back(std::move(c));
  } else {
    for (std::size_t s = 0; s < splits.size(); ++s) {
      names.push_back(fmt::format("split_{}", s));
      std::vector<std::string> c(n, l == layout::draws ? "0" : "");
      if (l == layout::draws) {
        std::vector<std::size_t> count(n, 0);
        for (auto i : splits[s].train) ++count[i];
        for (std::size_t i = 0; i < n; ++i) c[i] = std::to_string(count[i]);
      } else {
        for (auto i : splits[s].train) c[i] = "train";
        for (auto i : splits[s].test) c[i] = "test";
      }
      cell.push_back(std::move(c));
    }
  }
  std::string out = "row";
  for (const auto& nm : names) out += "," + nm;
  out += "\n";
  for (std::size_t i = 0; i < n; ++i) {
    out += std::to_string(i);
    for (const auto& c : cell) {
      out += ',';
      out += c[i];
    }
    out += '\n';
  }
  return out;
}

}  // namespace assay::validation
