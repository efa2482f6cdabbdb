#include "assay/stats/multiple.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

#include "assay/error.hpp"

namespace assay::stats {

std::string_view to_string(p_adjust_method m) {
  switch (m) {
    case p_adjust_method::holm: return "holm";
    case p_adjust_method::bonferroni: return "bonferroni";
    case p_adjust_method::fdr_bh: return "fdr_bh";
    case p_adjust_method::none: return "none";
  }
  return "holm";
}

p_adjust_method parse_p_adjust(std::string_view text, std::string_view what) {
  for (auto m : {p_adjust_method::holm, p_adjust_method::bonferroni, p_adjust_method::fdr_bh, p_adjust_method::none}) {
    if (text == to_string(m)) return m;
  }
  throw_usage(fmt::format("{}: unknown correction \"{}\"; choose holm, bonferroni, fdr_bh or none", what, text));
}

std::vector<double> adjust_p_values(std::span<const double> p, p_adjust_method method) {
  const std::size_t m = p.size();
  for (std::size_t i = 0; i < m; ++i) {
    if (!(p[i] >= 0 && p[i] <= 1)) {
      throw_usage(fmt::format("adjust_p_values: p[{}] must be in [0, 1]; got {}", i, p[i]));
    }
  }
  std::vector<double> out(p.begin(), p.end());
  if (m == 0 || method == p_adjust_method::none) return out;
  const double md = static_cast<double>(m);
  if (method == p_adjust_method::bonferroni) {
    for (auto& v : out) v = std::min(1.0, md * v);
    return out;
  }
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  if (method == p_adjust_method::holm) {
    double running = 0;
    for (std::size_t j = 0; j < m; ++j) {
      running = std::max(running, std::min(1.0, (md - static_cast<double>(j)) * p[order[j]]));
      out[order[j]] = running;
    }
  } else {  // fdr_bh
    double running = 1;
    for (std::size_t j = m; j-- > 0;) {
      running = std::min(running, std::min(1.0, md * p[order[j]] / static_cast<double>(j + 1)));
      out[order[j]] = running;
    }
  }
  return out;
}

}  // namespace assay::stats
