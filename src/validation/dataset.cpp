#include "assay/validation/dataset.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "assay/error.hpp"
#include "assay/io/table.hpp"
#include "assay/io/text.hpp"
#include "assay/metrics/labels.hpp"

namespace assay::validation {

bool is_missing_cell(std::string_view c) noexcept {
  while (!c.empty() && (c.front() == ' ' || c.front() == '\t')) c.remove_prefix(1);
  while (!c.empty() && (c.back() == ' ' || c.back() == '\t')) c.remove_suffix(1);
  return c.empty() || c == "NA" || c == "N/A" || c == "NaN" || c == "nan" || c == "?" || c == "null";
}

namespace {

// Strings of one column, interned.
struct raw_column {
  std::vector<std::int32_t> codes;  // -1 = missing
  std::vector<std::string> levels;
  std::unordered_map<std::string, std::int32_t> index;
  std::size_t missing = 0;

  // False (and nothing added) for a new value that is not valid UTF-8: every kept text must be.
  bool add(std::string_view cell) {
    if (is_missing_cell(cell)) {
      codes.push_back(-1);
      ++missing;
      return true;
    }
    auto [it, fresh] = index.try_emplace(std::string(cell), static_cast<std::int32_t>(levels.size()));
    if (fresh) {
      if (!io::is_utf8(cell)) return false;
      levels.emplace_back(cell);
    }
    codes.push_back(it->second);
    return true;
  }
};

std::size_t resolve(const std::vector<std::string>& header, const std::string& ref, const std::string& who,
                    const std::string& option, const std::string& source) {
  const std::size_t found = io::find_column(header, ref, fmt::format("{}{}: {}", who, option, source));
  if (found < header.size()) {
    io::require_utf8(header[found], fmt::format("{}{}: {}", who, option, source),
                     fmt::format("the name of column {}", found + 1));
    return found;
  }
  std::string names;
  for (std::size_t i = 0; i < header.size() && i < 20; ++i) names += (i ? ", " : "") + header[i];
  if (header.size() > 20) names += ", ...";
  throw_usage(fmt::format("{}{}: {}: no column named '{}' (columns: {})", who, option, source, ref, names));
}

// Codes of `raw` re-indexed into sorted levels. With `by_value` (class labels), spellings of one number
// are one level, named as every evaluation names classes (unify_numeric_labels: "1.0", "True" -> "1").
void sorted_codes(const raw_column& raw, std::vector<std::int32_t>& codes, std::vector<std::string>& levels,
                  bool by_value = false) {
  std::vector<std::string> spelled = raw.levels;
  if (by_value) unify_numeric_labels({&spelled}, {});
  levels = sort_labels(spelled);
  std::unordered_map<std::string, std::int32_t> position;
  for (std::size_t i = 0; i < levels.size(); ++i) position.emplace(levels[i], static_cast<std::int32_t>(i));
  std::vector<std::int32_t> map(raw.levels.size());
  for (std::size_t i = 0; i < raw.levels.size(); ++i) map[i] = position.at(spelled[i]);
  codes.resize(raw.codes.size());
  for (std::size_t i = 0; i < raw.codes.size(); ++i)
    codes[i] = raw.codes[i] < 0 ? -1 : map[static_cast<std::size_t>(raw.codes[i])];
}

bool numeric_levels(const raw_column& raw, std::vector<double>& value) {
  value.resize(raw.levels.size());
  for (std::size_t i = 0; i < raw.levels.size(); ++i) {
    if (!io::parse_double(raw.levels[i], value[i]) || !std::isfinite(value[i])) return false;
  }
  return true;
}

}  // namespace

dataset read_dataset(const dataset_request& q) {
  io::csv_reader reader(q.path, q.csv);
  const auto& header = reader.header();
  const std::string who = q.command.empty() ? std::string() : q.command + ": ";
  dataset d;
  d.source = reader.name();
  std::optional<std::size_t> target, group;
  if (!q.target.empty()) target = resolve(header, q.target, who, param("target"), d.source);
  if (q.group) group = resolve(header, *q.group, who, param("group"), d.source);
  if (target && group && *target == *group) {
    throw_usage(fmt::format("{}{} and {} name the same column '{}'", who, param("group"), param("target"), header[*target]));
  }
  std::vector<bool> dropped(header.size(), false);
  for (const auto& c : q.drop) dropped[resolve(header, c, who, param("drop"), d.source)] = true;
  std::vector<std::size_t> feature_index;
  if (!q.features.empty()) {
    for (const auto& c : q.features) {
      auto i = resolve(header, c, who, param("features"), d.source);
      if ((target && i == *target) || (group && i == *group)) {
        throw_usage(fmt::format("{}{}: column '{}' is the target or the group column", who, param("features"), header[i]));
      }
      if (!dropped[i]) feature_index.push_back(i);
    }
  } else {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (!dropped[i] && (!target || i != *target) && (!group || i != *group)) feature_index.push_back(i);
  }
  for (auto i : feature_index) {  // feature names are kept (and written out): UTF-8 only
    io::require_utf8(header[i], fmt::format("{}{}:{}", who, d.source, reader.line()),
                     fmt::format("the name of column {}", i + 1));
  }
  std::vector<raw_column> raw(header.size());
  std::vector<bool> wanted(header.size(), false);
  for (auto i : feature_index) wanted[i] = true;
  if (target) wanted[*target] = true;
  if (group) wanted[*group] = true;
  std::vector<std::string_view> fields;
  while (reader.next(fields)) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (wanted[i] && !raw[i].add(fields[i])) {
        io::require_utf8(fields[i], fmt::format("{}{}:{}: column '{}'", who, d.source, reader.line(), header[i]),
                         "value");
      }
    }
    if (target && raw[*target].codes.back() < 0) {
      throw_data(fmt::format("{}{}:{}: column '{}': the target is missing (\"{}\")", who, d.source, reader.line(),
                             header[*target], fields[*target]));
    }
    if (group && raw[*group].codes.back() < 0) {
      throw_data(fmt::format("{}{}:{}: column '{}': the group is missing (\"{}\")", who, d.source, reader.line(),
                             header[*group], fields[*group]));
    }
    ++d.rows;
  }
  if (d.rows == 0) throw_data(fmt::format("{}{}: no data rows after the header", who, d.source));

  for (auto i : feature_index) {
    feature_column f;
    f.name = header[i];
    f.missing = raw[i].missing;
    std::vector<double> v;
    if (numeric_levels(raw[i], v)) {
      f.numbers.resize(d.rows);
      for (std::size_t r = 0; r < d.rows; ++r) {
        auto c = raw[i].codes[r];
        f.numbers[r] = c < 0 ? std::nan("") : v[static_cast<std::size_t>(c)];
      }
    } else {
      f.categorical = true;
      sorted_codes(raw[i], f.codes, f.levels);
    }
    d.features.push_back(std::move(f));
  }
  if (target) {
    d.target_name = header[*target];
    const auto& t = raw[*target];
    std::vector<double> v;
    const bool numeric = numeric_levels(t, v);
    task_type task = q.task;
    if (task == task_type::automatic) {
      bool integral = numeric && std::all_of(v.begin(), v.end(), [](double x) { return x == std::floor(x); });
      task = !numeric || (integral && t.levels.size() <= 10) ? task_type::classification : task_type::regression;
    }
    d.task = task;
    if (task == task_type::regression) {
      if (!numeric) {
        for (const auto& l : t.levels) {
          double x;
          if (!io::parse_double(l, x) || !std::isfinite(x)) {
            throw_data(fmt::format("{}{}: column '{}': regression target value \"{}\" is not a finite number", who,
                                   d.source, d.target_name, l));
          }
        }
      }
      d.y_value.resize(d.rows);
      for (std::size_t r = 0; r < d.rows; ++r) d.y_value[r] = v[static_cast<std::size_t>(t.codes[r])];
    } else {
      sorted_codes(t, d.y_class, d.classes, true);
    }
  }
  if (group) {
    d.group_name = header[*group];
    sorted_codes(raw[*group], d.groups, d.group_levels);
  }
  return d;
}

}  // namespace assay::validation
