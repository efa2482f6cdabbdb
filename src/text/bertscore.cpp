// BERTScore from user-supplied embeddings; see include/assay/text/bertscore.hpp.
#include "assay/text/bertscore.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unordered_map>

#include "assay/error.hpp"

namespace assay::text {

namespace {

std::vector<std::vector<double>> normalised(const std::vector<std::vector<double>>& v) {
  std::vector<std::vector<double>> out = v;
  for (auto& x : out) {
    double s = 0;
    for (double e : x) s += e * e;
    const double n = std::sqrt(s);
    for (double& e : x) e /= n;
  }
  return out;
}

value mean_defined(const std::vector<value>& v) {
  double s = 0;
  std::size_t n = 0;
  for (const auto& x : v)
    if (x.defined()) s += x.v, ++n;
  if (n == 0) return value::undefined("no sentence has a defined score");
  return s / static_cast<double>(n);
}

}  // namespace

bertscore_result bertscore(const std::vector<embedded_sentence>& hyps, const std::vector<embedded_sentence>& refs,
                           const bertscore_options& o) {
  if (hyps.size() != refs.size())
    throw_data(fmt::format("bertscore: {} candidate sentences but {} references", hyps.size(), refs.size()));
  // idf from the references when asked for and not given.
  std::unordered_map<std::string, double> idf;
  bool computed_idf = false;
  if (o.idf) {
    const bool given = !hyps.empty() && !hyps[0].idf.empty();
    if (!given) {
      std::unordered_map<std::string, double> df;
      for (std::size_t i = 0; i < refs.size(); ++i) {
        if (refs[i].tokens.size() != refs[i].vectors.size())
          throw_usage(fmt::format("bertscore: {}: reference sentence {} has no tokens to count (give \"tokens\" or "
                                  "\"idf\")", param("idf"), i + 1));
        for (const auto& t : std::set<std::string>(refs[i].tokens.begin(), refs[i].tokens.end())) df[t] += 1;
      }
      const double M = static_cast<double>(refs.size());
      for (auto& [t, c] : df) idf[t] = std::log((M + 1) / (c + 1));
      computed_idf = true;
    }
  }
  auto weights = [&](const embedded_sentence& s, std::size_t i, const char* side) {
    std::vector<double> w(s.vectors.size(), 1.0);
    if (!o.idf) return w;
    if (!computed_idf) {
      if (s.idf.size() != s.vectors.size())
        throw_data(fmt::format("bertscore: {} sentence {}: {} idf weights for {} tokens", side, i + 1, s.idf.size(),
                               s.vectors.size()));
      return s.idf;
    }
    if (s.tokens.size() != s.vectors.size())
      throw_usage(fmt::format("bertscore: {}: {} sentence {} has no tokens", param("idf"), side, i + 1));
    const double unseen = std::log(static_cast<double>(refs.size()) + 1);
    for (std::size_t k = 0; k < w.size(); ++k) {
      auto it = idf.find(s.tokens[k]);
      w[k] = it == idf.end() ? unseen : it->second;
    }
    return w;
  };
  auto rescale = [&](value v, double b) -> value {
    if (!o.rescale || !v.defined()) return v;
    return (v.v - b) / (1 - b);
  };
  bertscore_result res;
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    const auto h = normalised(hyps[i].vectors), r = normalised(refs[i].vectors);
    if (h.empty() || r.empty()) {
      const char* why = "a sentence has no tokens";
      res.p.push_back(value::undefined(why));
      res.r.push_back(value::undefined(why));
      res.f.push_back(value::undefined(why));
      continue;
    }
    if (h[0].size() != r[0].size())
      throw_data(fmt::format("bertscore: sentence {}: candidate embeddings have dimension {} but references {}", i + 1,
                             h[0].size(), r[0].size()));
    const auto wh = weights(hyps[i], i, "candidate"), wr = weights(refs[i], i, "reference");
    std::vector<double> best_h(h.size(), -INFINITY), best_r(r.size(), -INFINITY);
    for (std::size_t a = 0; a < r.size(); ++a)
      for (std::size_t b = 0; b < h.size(); ++b) {
        double s = 0;
        for (std::size_t d = 0; d < r[a].size(); ++d) s += r[a][d] * h[b][d];
        best_r[a] = std::max(best_r[a], s);
        best_h[b] = std::max(best_h[b], s);
      }
    double num = 0, den = 0;
    for (std::size_t b = 0; b < h.size(); ++b) num += wh[b] * best_h[b], den += wh[b];
    const value P = ratio(num, den, "candidate tokens have zero total weight");
    num = den = 0;
    for (std::size_t a = 0; a < r.size(); ++a) num += wr[a] * best_r[a], den += wr[a];
    const value R = ratio(num, den, "reference tokens have zero total weight");
    value F = value::undefined("precision or recall undefined");
    if (P.defined() && R.defined()) F = P.v + R.v == 0 ? 0.0 : 2 * P.v * R.v / (P.v + R.v);
    res.p.push_back(rescale(P, o.baseline_p));
    res.r.push_back(rescale(R, o.baseline_r));
    res.f.push_back(rescale(F, o.baseline_f));
  }
  res.mean_p = mean_defined(res.p);
  res.mean_r = mean_defined(res.r);
  res.mean_f = mean_defined(res.f);
  return res;
}

std::vector<embedded_sentence> parse_embeddings(const std::string& text, const std::string& name) {
  using json = nlohmann::json;
  std::vector<embedded_sentence> out;
  std::size_t dim = 0, dim_line = 0;
  std::size_t pos = 0, line_no = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j;
    try {
      j = json::parse(line);
    } catch (const json::parse_error& e) {
      throw_data(fmt::format("{}:{}: malformed JSON at byte {} of the line", name, line_no, e.byte));
    }
    const std::string where = fmt::format("{}:{}", name, line_no);
    if (!j.is_object() || !j.contains("embeddings") || !j["embeddings"].is_array())
      throw_data(where + ": expected an object with an array 'embeddings'");
    embedded_sentence s;
    for (std::size_t k = 0; k < j["embeddings"].size(); ++k) {
      const auto& row = j["embeddings"][k];
      if (!row.is_array() || row.empty()) throw_data(fmt::format("{}: embeddings[{}] must be a non-empty array of numbers", where, k));
      std::vector<double> v;
      double norm = 0;
      for (const auto& e : row) {
        if (!e.is_number() || !std::isfinite(e.get<double>()))
          throw_data(fmt::format("{}: embeddings[{}] holds a value that is not a finite number: {}", where, k, e.dump()));
        v.push_back(e.get<double>());
        norm += v.back() * v.back();
      }
      if (norm == 0) throw_data(fmt::format("{}: embeddings[{}] is the zero vector (no direction for a cosine)", where, k));
      if (dim == 0) dim = v.size(), dim_line = line_no;
      else if (v.size() != dim)
        throw_data(fmt::format("{}: embeddings[{}] has dimension {} but line {} has dimension {}", where, k, v.size(),
                               dim_line, dim));
      s.vectors.push_back(std::move(v));
    }
    if (j.contains("tokens")) {
      if (!j["tokens"].is_array()) throw_data(where + ": 'tokens' must be an array of strings");
      for (const auto& t : j["tokens"]) {
        if (!t.is_string()) throw_data(fmt::format("{}: 'tokens' holds a non-string {}", where, t.dump()));
        s.tokens.push_back(t.get<std::string>());
      }
      if (s.tokens.size() != s.vectors.size())
        throw_data(fmt::format("{}: {} tokens but {} embeddings", where, s.tokens.size(), s.vectors.size()));
    }
    if (j.contains("idf")) {
      if (!j["idf"].is_array()) throw_data(where + ": 'idf' must be an array of numbers");
      for (const auto& t : j["idf"]) {
        if (!t.is_number() || !(t.get<double>() >= 0))
          throw_data(fmt::format("{}: 'idf' holds {}, not a number >= 0", where, t.dump()));
        s.idf.push_back(t.get<double>());
      }
      if (s.idf.size() != s.vectors.size())
        throw_data(fmt::format("{}: {} idf weights but {} embeddings", where, s.idf.size(), s.vectors.size()));
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<embedded_sentence> read_embeddings(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw_io(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  std::ostringstream ss;
  ss << f.rdbuf();
  return parse_embeddings(ss.str(), path);
}

}  // namespace assay::text
