// assay curve: the text of curve documents: CSV cells and rows, JSON numbers, and JSON documents whose
// long number arrays are written straight as text. Used by the writers of `assay curve`
// (curve_documents.cpp, curve_stream.cpp); private to the library.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "assay/curves/curve_report.hpp"
#include "assay/value.hpp"
#include "assay/plot/svg.hpp"

namespace assay::curves::detail {

using json = nlohmann::json;
inline constexpr double inf = std::numeric_limits<double>::infinity();

// ---- CSV and number text (inline: they run once per curve point) --------------------------------

/// A CSV field, quoted (with doubled quotes) when it holds a comma, a quote or a line break.
inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/// Shortest round-trip text of a finite double (std::to_chars), appended.
inline void append_double(std::string& s, double x) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  s.append(buf, res.ptr);
}

/// The text std::to_chars gives finite x, written at p (at most 24 characters); returns the end. Whole
/// numbers below 2^53 take the integer conversion, several times faster: for them to_chars writes the
/// plain digits unless they end in 5 or more zeros (then "1e+05" and the like are shorter).
inline char* put_double(char* p, double x) {
  if (x >= 0 && x < 9007199254740992.0) {
    const auto u = static_cast<std::uint64_t>(x);
    if (static_cast<double>(u) == x && (u % 100000 != 0 || u == 0) && !(x == 0 && std::signbit(x))) {
      return std::to_chars(p, p + 24, u).ptr;
    }
  }
  return std::to_chars(p, p + 24, x).ptr;
}

/// A comma and a CSV cell at p (at most 25 characters): nothing after the comma for NaN, inf / -inf.
inline char* put_csv_next(char* p, double x) {
  *p++ = ',';
  if (std::isnan(x)) return p;
  if (std::isinf(x)) {
    if (x < 0) *p++ = '-';
    *p++ = 'i', *p++ = 'n', *p++ = 'f';
    return p;
  }
  return put_double(p, x);
}

/// A CSV cell: empty for NaN (undefined), "inf"/"-inf", else the shortest round-trip number.
inline void csv_cell(std::string& s, double x) {
  if (std::isnan(x)) return;
  if (std::isinf(x)) s += x > 0 ? "inf" : "-inf";
  else append_double(s, x);
}

/// One CSV row: the (escaped) model field, then the cells.
inline void csv_row(std::string& s, const std::string& model_field, std::initializer_list<double> cells) {
  s += model_field;
  for (double x : cells) {
    s += ',';
    csv_cell(s, x);
  }
  s += '\n';
}

/// A JSON array element: the shortest round-trip number, or null when not finite.
inline void json_cell(std::string& s, double x) {
  if (std::isfinite(x)) {
    char buf[24];
    s.append(buf, put_double(buf, x));
  } else {
    s += "null";
  }
}

/// A double for JSON: non-finite numbers become null (the schema says what null means per field).
inline json jnum(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

// ---- JSON documents with long arrays ------------------------------------------------------------
// Long arrays are written straight as text (std::to_chars) instead of through nlohmann::json nodes,
// which would take ~50 bytes per number: jvec() / jstream() register a writer for the array and
// return a marker string that write_json() replaces, in the dumped document, by what the writer
// sends. One document is built at a time per thread.

/// Registers `writer` for one array of the document being built; returns its marker.
json jstream(std::function<void(const text_sink&)> writer);
/// An array of numbers (null where not finite / undefined), as a marker.
json jvec(const std::vector<double>& v);
json jvec(const std::vector<value>& v);
/// Forgets the writers registered for a document that was not written (one that threw).
void clear_array_writers();
/// Dumps `j` to `sink`, the arrays' writers in place of their markers, and forgets the writers.
void write_json(const json& j, const text_sink& sink);
/// write_json into a string.
std::string finish_json(const json& j);

/// o[key] = the number, or null and o[key + "_undefined"] = the reason.
void put(json& o, const std::string& key, const value& v);

// ---- charts -------------------------------------------------------------------------------------

plot::chart make_chart(std::string title, std::string x_label, std::string y_label);
plot::series line(std::string name, std::vector<double> x, std::vector<double> y, bool dashed = false);
/// A value with 3 decimals for a legend, or "undefined".
std::string short_value(const value& v);

}  // namespace assay::curves::detail
