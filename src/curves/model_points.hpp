// assay curve: the points of a binary model's ROC or PR curve walked on demand, highest threshold first
// or lowest first, optionally thinned by scikit-learn's drop_intermediate rule, and handed in pieces to
// a formatter (on several threads for large unweighted inputs). The kernel side of the streamed
// `assay curve roc` / `pr`; src/render/curve_stream.cpp formats the points. Private to the library.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "assay/curves/class_sort.hpp"
#include "assay/curves/curve_report.hpp"
#include "assay/curves/roc.hpp"
#include "assay/curves/sweep.hpp"
#include "assay/detail/parallel.hpp"
#include "curve_input.hpp"

namespace assay::curves::detail {

constexpr std::size_t flush_bytes = std::size_t{1} << 20;

// The r-th smallest (1-based, 1 <= r <= |a| + |b|) value of the union of the ascending runs a and b:
// binary search for how many of the r come from a.
inline double kth_smallest(std::span<const double> a, std::span<const double> b, std::size_t r) {
  std::size_t lo = r > b.size() ? r - b.size() : 0, hi = std::min(r, a.size());
  while (lo < hi) {
    const std::size_t i = lo + (hi - lo) / 2;  // i from a and r - i from b: too few from a if a[i] < b[r - i - 1]
    if (a[i] < b[r - i - 1]) lo = i + 1;
    else hi = i;
  }
  const std::size_t j = r - lo;
  if (lo == 0) return b[j - 1];
  if (j == 0) return a[lo - 1];
  return std::max(a[lo - 1], b[j - 1]);
}

struct roc_point {
  double t, tp, fp;
};

// Passes on to f the points of a stretch of a ROC curve (highest threshold first) that scikit-learn's
// drop_intermediate keeps: call it for each point, then finish(). `before` / `after` are the curve's
// points just outside the stretch; none = the stretch starts / ends the curve (an end is always kept).
template <typename F>
class roc_thinner {
 public:
  roc_thinner(std::optional<roc_point> before, F& f) : has_prev_(before.has_value()), f_(f) {
    if (before) prev_ = *before;
  }
  void operator()(double t, double tp, double fp) {
    const roc_point c{t, tp, fp};
    if (has_cur_) {
      send(&c);
      prev_ = cur_, has_prev_ = true;
    }
    cur_ = c, has_cur_ = true;
  }
  void finish(std::optional<roc_point> after) {
    if (has_cur_) send(after ? &*after : nullptr);
  }

 private:
  void send(const roc_point* next) {
    if (!has_prev_ || next == nullptr || keeps_roc_point(prev_.fp, prev_.tp, cur_.fp, cur_.tp, next->fp, next->tp)) {
      f_(cur_.t, cur_.tp, cur_.fp);
    }
  }
  roc_point prev_{}, cur_{};
  bool has_prev_ = false, has_cur_ = false;
  F& f_;
};

// The cumulative counts (TP, FP) of one binary model at each distinct threshold, walked on demand
// from the highest threshold down or from the lowest up. Unweighted: the two runs of class_sort, and
// the walk can be cut into independent pieces (every count is an exact integer, so a piece can start
// anywhere with the counts above it); weighted: the sweep.
class model_points {
 public:
  // From a sweep made elsewhere (sweep_scores on the rows): its points are the same as the runs'.
  explicit model_points(score_sweep&& sw) : weighted_(true), has_sweep_(true), sweep_(std::move(sw)) {
    P_ = sweep_.positives;
    N_ = sweep_.negatives;
  }
  model_points(std::span<const std::int32_t> y, std::vector<double>&& score, std::span<const double> weight,
               const char* caller) {
    if (weight.empty()) {
      if (y.size() != score.size()) check_binary_input(caller, y, score, {});  // names the lengths
      const std::span<const double> view(score);  // the scores are read before their storage is reused
      sorted_ = sort_by_class(y, view, std::move(score), 0, caller);  // checks the values as it reads them
      P_ = static_cast<double>(sorted_.pos().size());
      N_ = static_cast<double>(sorted_.neg().size());
    } else {
      weighted_ = true;
      sweep_ = sweep_scores(caller, y, score, weight);
      has_sweep_ = true;
      std::vector<double>().swap(score);
      P_ = sweep_.positives;
      N_ = sweep_.negatives;
    }
  }
  [[nodiscard]] double positives() const { return P_; }
  [[nodiscard]] double negatives() const { return N_; }
  [[nodiscard]] bool weighted() const { return weighted_; }

  // The sweep (built from the runs on first use when unweighted).
  const score_sweep& sweep() {
    if (!has_sweep_) {
      sweep_.positives = P_, sweep_.negatives = N_;
      walk_sorted_classes(sorted_.pos(), sorted_.neg(), [this](double t, double tp, double fp) {
        sweep_.thresholds.push_back(t);
        sweep_.tp.push_back(tp);
        sweep_.fp.push_back(fp);
      });
      has_sweep_ = true;
    }
    return sweep_;
  }

  // f(threshold, tp, fp) for every point, highest threshold first (descending) or lowest first.
  template <typename F>
  void each(bool descending, F&& f) const {
    if (weighted_) {
      const std::size_t m = sweep_.size();
      for (std::size_t i = 0; i < m; ++i) {
        const std::size_t k = descending ? i : m - 1 - i;
        f(sweep_.thresholds[k], sweep_.tp[k], sweep_.fp[k]);
      }
      return;
    }
    piece(descending, 0, sorted_.pos().size(), 0, sorted_.neg().size(), f);
  }

  // Appends fmt(out, threshold, tp, fp) for every point to text sent to `sink` in order, in pieces of
  // about flush_bytes. With `thin` (ROC, highest threshold first only), only the points kept by
  // scikit-learn's drop_intermediate rule (keeps_roc_point). Unweighted large inputs are formatted on
  // several threads, a piece each; a thinned piece is told its neighbouring points outside it.
  template <typename Fmt>
  void emit(bool descending, bool thin, const Fmt& fmt, const text_sink& sink) const {
    const std::size_t n = weighted_ ? sweep_.size() : sorted_.size();
    const unsigned threads = assay::detail::team_threads(8);  // within the thread cap (threads.hpp)
    if (weighted_ || n < (std::size_t{1} << 15) || threads < 2) {
      std::string buf;
      buf.reserve(flush_bytes + 4096);
      auto put = [&](double t, double tp, double fp) {
        fmt(buf, t, tp, fp);
        if (buf.size() >= flush_bytes) {
          sink(buf);
          buf.clear();
        }
      };
      if (thin) {
        roc_thinner<decltype(put)> keep(std::nullopt, put);
        each(true, keep);
        keep.finish(std::nullopt);
      } else {
        each(descending, put);
      }
      if (!buf.empty()) sink(buf);
      return;
    }
    // Cut points at even ranks of the merged runs; piece k holds the thresholds in (cut[k-1], cut[k]];
    // ip[k] / in[k] = how many positives / negatives score <= cut[k] (so no tie group is split).
    const auto pos = sorted_.pos(), neg = sorted_.neg();
    const std::size_t pieces = std::max<std::size_t>(2, n >> 16);
    std::vector<std::size_t> ip{0}, in{0};
    for (std::size_t k = 1; k < pieces; ++k) {
      const double cut = kth_smallest(pos, neg, n * k / pieces);
      ip.push_back(static_cast<std::size_t>(std::upper_bound(pos.begin(), pos.end(), cut) - pos.begin()));
      in.push_back(static_cast<std::size_t>(std::upper_bound(neg.begin(), neg.end(), cut) - neg.begin()));
    }
    ip.push_back(pos.size());
    in.push_back(neg.size());
    auto run = [&](std::size_t k, std::string& out) {
      out.clear();
      out.reserve((ip[k + 1] - ip[k] + in[k + 1] - in[k]) * (thin ? 16 : 64));
      auto put = [&](double t, double tp, double fp) { fmt(out, t, tp, fp); };
      if (!thin) {
        piece(descending, ip[k], ip[k + 1], in[k], in[k + 1], put);
        return;
      }
      if (ip[k] == ip[k + 1] && in[k] == in[k + 1]) return;
      // The piece's highest and lowest scores; its neighbours on the curve are the points at the
      // next distinct score above and below it.
      constexpr double inf = std::numeric_limits<double>::infinity();
      double hi = -inf, lo = inf;
      if (ip[k] < ip[k + 1]) hi = std::max(hi, pos[ip[k + 1] - 1]), lo = std::min(lo, pos[ip[k]]);
      if (in[k] < in[k + 1]) hi = std::max(hi, neg[in[k + 1] - 1]), lo = std::min(lo, neg[in[k]]);
      roc_thinner<decltype(put)> keep(point_above(hi), put);
      piece(true, ip[k], ip[k + 1], in[k], in[k + 1], keep);
      keep.finish(point_below(lo));
    };
    std::vector<std::string> out(threads);
    std::vector<std::exception_ptr> errors(threads);
    for (std::size_t r = 0; r < pieces; r += threads) {
      {
        std::vector<std::jthread> pool;
        for (unsigned u = 0; u < threads && r + u < pieces; ++u) {
          const std::size_t k = descending ? pieces - 1 - (r + u) : r + u;
          auto task = [&, k, u] {
            try {
              run(k, out[u]);
            } catch (...) {
              errors[u] = std::current_exception();
            }
          };
          if (u == 0) continue;
          pool.emplace_back(task);
        }
        const std::size_t k0 = descending ? pieces - 1 - r : r;
        run(k0, out[0]);
      }
      for (unsigned u = 0; u < threads && r + u < pieces; ++u) {
        if (errors[u]) std::rethrow_exception(errors[u]);
        if (!out[u].empty()) sink(out[u]);
      }
    }
  }

 private:
  // The curve's point at the next distinct score above v / below v (none past the ends); unweighted.
  std::optional<roc_point> point_above(double v) const {
    const auto pos = sorted_.pos(), neg = sorted_.neg();
    const auto a = std::upper_bound(pos.begin(), pos.end(), v), b = std::upper_bound(neg.begin(), neg.end(), v);
    if (a == pos.end() && b == neg.end()) return std::nullopt;
    return point_at(a == pos.end() ? *b : b == neg.end() ? *a : std::min(*a, *b));
  }
  std::optional<roc_point> point_below(double v) const {
    const auto pos = sorted_.pos(), neg = sorted_.neg();
    const auto a = std::lower_bound(pos.begin(), pos.end(), v), b = std::lower_bound(neg.begin(), neg.end(), v);
    if (a == pos.begin() && b == neg.begin()) return std::nullopt;
    return point_at(a == pos.begin() ? b[-1] : b == neg.begin() ? a[-1] : std::max(a[-1], b[-1]));
  }
  // Threshold t with the counts of the scores >= t.
  roc_point point_at(double t) const {
    const auto pos = sorted_.pos(), neg = sorted_.neg();
    return {t, static_cast<double>(pos.end() - std::lower_bound(pos.begin(), pos.end(), t)),
            static_cast<double>(neg.end() - std::lower_bound(neg.begin(), neg.end(), t))};
  }

  // The points whose thresholds lie in the slice pos[ip0, ip1) / neg[in0, in1) of the runs (a slice
  // never splits a tie group), with the counts of everything above it.
  template <typename F>
  void piece(bool descending, std::size_t ip0, std::size_t ip1, std::size_t in0, std::size_t in1, F&& f) const {
    const auto pos = sorted_.pos().subspan(ip0, ip1 - ip0), neg = sorted_.neg().subspan(in0, in1 - in0);
    const double tp_above = static_cast<double>(sorted_.pos().size() - ip1);
    const double fp_above = static_cast<double>(sorted_.neg().size() - in1);
    if (descending) {
      walk_sorted_classes(pos, neg, [&](double t, double tp, double fp) { f(t, tp_above + tp, fp_above + fp); });
      return;
    }
    // Lowest threshold first: at a group, TP = positives from it upwards.
    const std::size_t np = pos.size(), nn = neg.size();
    std::size_t a = 0, b = 0;
    while (a < np || b < nn) {
      const double t = a == np ? neg[b] : b == nn ? pos[a] : std::min(pos[a], neg[b]);
      const double tp = tp_above + static_cast<double>(np - a), fp = fp_above + static_cast<double>(nn - b);
      while (a < np && pos[a] == t) ++a;
      while (b < nn && neg[b] == t) ++b;
      f(t + 0.0, tp, fp);
    }
  }

  bool weighted_ = false, has_sweep_ = false;
  class_sorted sorted_;
  score_sweep sweep_;
  double P_ = 0, N_ = 0;
};

inline model_points points_of(loaded& d, model& m, const char* caller) {
  if (m.swept) return model_points(std::move(*m.swept));
  return model_points(m.y, std::move(m.score), d.weight, caller);
}

inline std::vector<model_points> sort_models(loaded& d, const char* caller) {
  std::vector<model_points> pts;
  pts.reserve(d.models.size());
  for (auto& m : d.models) pts.push_back(points_of(d, m, caller));
  return pts;
}

// Sends the ROC points (all, or those scikit-learn's drop_intermediate keeps) through fmt.
template <typename Fmt>
void emit_roc_points(const model_points& mp, bool drop, const Fmt& fmt, const text_sink& sink) {
  mp.emit(true, drop, fmt, sink);
}

}  // namespace assay::curves::detail
