// assay curve: the JSON documents and chart parts of curve_text.hpp.
#include "curve_text.hpp"

#include <fmt/format.h>

#include <string_view>

namespace assay::curves::detail {

namespace {

thread_local std::vector<std::function<void(const text_sink&)>> array_writers;
constexpr char array_marker = '\x01';

}  // namespace

json jstream(std::function<void(const text_sink&)> writer) {
  array_writers.push_back(std::move(writer));
  std::string marker(1, array_marker);
  marker += std::to_string(array_writers.size() - 1);
  marker += array_marker;
  return marker;
}

json jvec(const std::vector<double>& v) {
  std::string a;
  a.reserve(v.size() * 20 + 2);
  a += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) a += ',';
    json_cell(a, v[i]);
  }
  a += ']';
  return jstream([a = std::move(a)](const text_sink& sink) { sink(a); });
}

json jvec(const std::vector<value>& v) {
  std::vector<double> x(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) x[i] = v[i].defined() ? v[i].v : std::nan("");
  return jvec(x);
}

void clear_array_writers() { array_writers.clear(); }

// The markers appear in the dump as "\u0001<id>\u0001" (escaped).
void write_json(const json& j, const text_sink& sink) {
  const std::string text = j.dump(1);
  const std::string open = "\"\\u0001";
  std::size_t pos = 0;
  while (true) {
    const std::size_t at = text.find(open, pos);
    if (at == std::string::npos) break;
    const std::size_t id_begin = at + open.size();
    const std::size_t id_end = text.find("\\u0001\"", id_begin);
    sink(std::string_view(text).substr(pos, at - pos));
    array_writers[std::stoul(text.substr(id_begin, id_end - id_begin))](sink);
    pos = id_end + 7;
  }
  sink(std::string_view(text).substr(pos));
  sink("\n");
  array_writers.clear();
}

std::string finish_json(const json& j) {
  std::string out;
  write_json(j, [&out](std::string_view piece) { out += piece; });
  return out;
}

void put(json& o, const std::string& key, const value& v) {
  o[key] = v.defined() ? jnum(v.v) : json(nullptr);
  if (!v.defined()) o[key + "_undefined"] = v.reason;
}

plot::chart make_chart(std::string title, std::string x_label, std::string y_label) {
  plot::chart c;
  c.title = std::move(title), c.x_label = std::move(x_label), c.y_label = std::move(y_label);
  return c;
}

plot::series line(std::string name, std::vector<double> x, std::vector<double> y, bool dashed) {
  plot::series s;
  s.name = std::move(name), s.x = std::move(x), s.y = std::move(y), s.dashed = dashed;
  return s;
}

std::string short_value(const value& v) { return v.defined() ? fmt::format("{:.3f}", v.v) : "undefined"; }

}  // namespace assay::curves::detail
