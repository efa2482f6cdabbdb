// assay stats: the parsing and output shared by the subcommands (cli/stats_options.hpp).
#include "stats_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "assay/error.hpp"
#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"
#include "commands.hpp"

namespace assay::cli::stats_cli {

using json = nlohmann::ordered_json;  // keys in the order they are added

double parse_real(const std::string& opt, const std::string& text) {
  double v = 0;
  if (!io::parse_double(text, v)) throw_usage(fmt::format("{}: cannot parse \"{}\" as a number", opt, text));
  if (!std::isfinite(v)) throw_usage(fmt::format("{}: must be a finite number; got \"{}\"", opt, text));
  return v;
}

std::int64_t parse_count(const std::string& opt, const std::string& text) {
  const double v = parse_real(opt, text);
  if (v < 0 || v != std::floor(v) || v > 9.0e15) {
    throw_usage(fmt::format("{}: must be a count (an integer >= 0); got {}", opt, text));
  }
  return static_cast<std::int64_t>(v);
}

double parse_level(const std::string& opt, const std::string& text) {
  const double v = parse_real(opt, text);
  if (!(v > 0 && v < 1)) throw_usage(fmt::format("{}: must be in (0, 1); got {}", opt, text));
  return v;
}

std::vector<double> parse_list(const std::string& opt, const std::string& text) {
  std::vector<double> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string field = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    out.push_back(parse_real(opt, field));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

void require_same_length(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) {
    throw_usage(fmt::format("--b: has {} values but --a has {}; the folds must be paired", b.size(), a.size()));
  }
}

void require_pairs_or_deltas(const std::string& a, const std::string& b, const std::string& d) {
  if (!d.empty() && (!a.empty() || !b.empty())) throw_usage("--d: give either --d or --a and --b, not both");
  if (d.empty() && (a.empty() || b.empty())) {
    throw_usage(fmt::format("{}: missing; give the paired values --a and --b (or the differences --d)",
                            a.empty() ? "--a" : "--b"));
  }
}

score_file read_scores(const std::string& path, std::vector<std::string> refs, const std::string& label,
                       const std::string& option) {
  io::csv_reader reader(path);
  if (refs.empty()) {
    // Every column but the label column (given by name, else by 1-based index, as read_table does).
    const auto& header = reader.header();
    const bool by_name = std::find(header.begin(), header.end(), label) != header.end();
    for (std::size_t i = 0; i < header.size(); ++i)
      if (label.empty() || (by_name ? header[i] != label : std::to_string(i + 1) != label)) refs.push_back(header[i]);
  }
  std::vector<io::column_spec> specs;
  for (const auto& r : refs) specs.push_back({r, io::column_type::number, option});
  if (!label.empty()) specs.push_back({label, io::column_type::label, "--label"});
  const io::table t = io::read_table(reader, specs);
  score_file f;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    f.names.push_back(t.columns[i].name);
    f.columns.push_back(t.columns[i].numbers);
  }
  if (!label.empty()) {
    const auto& l = t.columns.back();
    for (auto c : l.codes) f.labels.push_back(l.levels[static_cast<std::size_t>(c)]);
  }
  return f;
}

std::string number_text(double v) { return fmt::format("{:.6g}", v); }

namespace {

std::string to_text(const output& o) {
  std::string s = o.title + "\n";
  for (const auto& [key, v] : o.fields) {
    std::string text;
    if (const auto* d = std::get_if<double>(&v)) text = number_text(*d);
    if (const auto* i = std::get_if<std::int64_t>(&v)) text = std::to_string(*i);
    if (const auto* t = std::get_if<std::string>(&v)) text = *t;
    if (const auto* l = std::get_if<std::vector<double>>(&v)) {
      for (double x : *l) text += (text.empty() ? "" : ", ") + number_text(x);
      text = "[" + text + "]";
    }
    s += fmt::format("  {}: {}\n", key, text);
  }
  return s;
}

json number_json(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

std::string to_json(const output& o) {
  json j = json::object();
  for (const auto& [key, v] : o.fields) {
    if (const auto* d = std::get_if<double>(&v)) j[key] = number_json(*d);
    if (const auto* i = std::get_if<std::int64_t>(&v)) j[key] = *i;
    if (const auto* t = std::get_if<std::string>(&v)) j[key] = *t;
    if (const auto* l = std::get_if<std::vector<double>>(&v)) {
      json a = json::array();
      for (double x : *l) a.push_back(number_json(x));
      j[key] = a;
    }
  }
  return j.dump(2) + "\n";
}

}  // namespace

void emit(const common& c, const output& o) { write_output(c.out, c.format == "json" ? to_json(o) : to_text(o)); }

void add_common(CLI::App* cmd, common& c) {
  cmd->add_option("--format,-f", c.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--out,-o", c.out, "Output file (default: standard output)");
}

void add_test(output& o, const stats::test_result& t) {
  o.add("method", t.method);
  o.add("statistic", t.statistic);
  if (!std::isnan(t.df)) o.add("df", t.df);
  if (!std::isnan(t.df2)) o.add("df2", t.df2);
  o.add("alternative", std::string(stats::to_string(t.alt)));
  o.add("p_value", t.p_value);
}

void add_pairs(CLI::App* cmd, pairs_options& o) {
  cmd->add_option("--a", o.a, "Model A's values, comma-separated (one per fold or data set)");
  cmd->add_option("--b", o.b, "Model B's values, paired with --a");
  cmd->add_option("--d", o.d, "The differences A - B instead of --a and --b");
  cmd->add_option("--alternative", o.alternative, "two-sided (default), greater or less");
}

}  // namespace assay::cli::stats_cli
