// sacreBLEU's paired significance tests; see include/assay/text/paired.hpp.
#include "assay/text/paired.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/detail/parallel.hpp"
#include "assay/error.hpp"
#include "numpy_pcg64.hpp"

namespace assay::text {

namespace {

constexpr std::size_t chunk = 64;  // samples drawn (in order, on one thread) before they are scored in parallel

// sacreBLEU's estimate_ci: the mean of the scores and half the width between the (S // 40)-th
// smallest and the (S // 40)-th largest, an approximate 95% percentile interval.
std::pair<double, double> mean_and_ci(std::vector<double> s) {
  std::sort(s.begin(), s.end());
  const std::size_t lo = s.size() / 40, hi = s.size() - lo - 1;
  double sum = 0;
  for (double x : s) sum += x;
  return {sum / static_cast<double>(s.size()), 0.5 * (s[hi] - s[lo])};
}

// The MultEval/sacreBLEU p-value: (1 + the number of sampled statistics above the observed one) / (S + 1).
double p_value(const std::vector<double>& sampled, double observed) {
  std::size_t c = 0;
  for (double x : sampled) c += x > observed ? 1 : 0;
  return static_cast<double>(c + 1) / static_cast<double>(sampled.size() + 1);
}

void check(const std::vector<segment_table>& systems) {
  if (systems.size() < 2) throw_usage(fmt::format("paired test: needs a baseline and at least one system, got {} system(s)", systems.size()));
  const std::size_t n = systems[0].rows(), k = systems[0].k;
  if (n == 0) throw_data("paired test: the baseline has no segments");
  for (std::size_t s = 1; s < systems.size(); ++s)
    if (systems[s].rows() != n || systems[s].k != k)
      throw_data(fmt::format("paired test: system {} has {} segments but the baseline has {}", s + 1, systems[s].rows(), n));
}

double corpus_score(const segment_table& t, const score_of_stats& score) {
  std::vector<double> sum(t.k, 0.0);
  for (std::size_t i = 0; i < t.rows(); ++i)
    for (std::size_t c = 0; c < t.k; ++c) sum[c] += t.v[i * t.k + c];
  return score(sum);
}

// Bootstrap: score[system][sample], every system summed over the same resampled indices, in single
// precision (sacreBLEU converts the statistics to float32 before summing).
std::vector<std::vector<double>> bootstrap_scores(const std::vector<segment_table>& systems,
                                                  const score_of_stats& score, std::size_t samples,
                                                  const paired_options& o) {
  const std::size_t n = systems[0].rows(), k = systems[0].k;
  std::vector<std::vector<float>> f32(systems.size());
  for (std::size_t s = 0; s < systems.size(); ++s) f32[s].assign(systems[s].v.begin(), systems[s].v.end());
  std::vector<std::vector<double>> out(systems.size(), std::vector<double>(samples));
  detail::numpy_pcg64 rng(o.seed);
  std::vector<std::uint32_t> idx(chunk * n);
  const unsigned threads = assay::detail::resolve_threads(o.threads, chunk);
  std::vector<std::vector<float>> sum(threads, std::vector<float>(k));
  std::vector<std::vector<double>> sum64(threads, std::vector<double>(k));
  for (std::size_t first = 0; first < samples; first += chunk) {
    const std::size_t m = std::min(chunk, samples - first);
    for (std::size_t j = 0; j < m * n; ++j) idx[j] = rng.below(n);
    assay::detail::parallel_for(m * systems.size(), threads, [&](unsigned t, std::size_t job) {
      const std::size_t r = job / systems.size(), s = job % systems.size();
      auto& acc = sum[t];
      std::fill(acc.begin(), acc.end(), 0.0f);
      const std::uint32_t* rows = &idx[r * n];
      const float* v = f32[s].data();
      for (std::size_t i = 0; i < n; ++i) {
        const float* row = v + static_cast<std::size_t>(rows[i]) * k;
        for (std::size_t c = 0; c < k; ++c) acc[c] += row[c];
      }
      for (std::size_t c = 0; c < k; ++c) sum64[t][c] = acc[c];
      out[s][first + r] = score(sum64[t]);
    });
  }
  return out;
}

// Approximate randomisation of `sys` against `base`: for each trial, the scores of the two pseudo
// systems formed by taking each segment's statistics from one or the other as the draw says.
std::vector<double> ar_differences(const segment_table& base, const segment_table& sys, const score_of_stats& score,
                                   std::size_t samples, const paired_options& o) {
  const std::size_t n = base.rows(), k = base.k;
  std::vector<double> out(samples);
  detail::numpy_pcg64 rng(o.seed);
  std::vector<char> bits(chunk * n);
  const unsigned threads = assay::detail::resolve_threads(o.threads, chunk);
  std::vector<std::vector<double>> work(threads, std::vector<double>(4 * k));
  for (std::size_t first = 0; first < samples; first += chunk) {
    const std::size_t m = std::min(chunk, samples - first);
    for (std::size_t j = 0; j < m * n; ++j) bits[j] = rng.next_bool() ? 1 : 0;
    assay::detail::parallel_for(m, threads, [&](unsigned t, std::size_t r) {
      // a = chosen(base) + unchosen(sys), b = unchosen(base) + chosen(sys), each part summed on its own.
      double* w = work[t].data();
      std::fill(w, w + 4 * k, 0.0);
      const char* pick = &bits[r * n];
      for (std::size_t i = 0; i < n; ++i) {
        const double* bl = &base.v[i * k];
        const double* sy = &sys.v[i * k];
        double* to_a = pick[i] ? w : w + k;              // base part of a, or base part of b
        double* to_b = pick[i] ? w + 3 * k : w + 2 * k;  // sys part of b, or sys part of a
        for (std::size_t c = 0; c < k; ++c) to_a[c] += bl[c], to_b[c] += sy[c];
      }
      std::vector<double> a(k), b(k);
      for (std::size_t c = 0; c < k; ++c) a[c] = w[c] + w[2 * k + c], b[c] = w[k + c] + w[3 * k + c];
      out[first + r] = std::abs(score(a) - score(b));
    });
  }
  return out;
}

}  // namespace

std::size_t paired_samples(const paired_options& o) {
  if (o.samples > 0) return o.samples;
  return o.method == paired_method::bootstrap ? 1000 : 10000;
}

std::vector<paired_result> paired_test(const std::vector<segment_table>& systems, const score_of_stats& score,
                                       const paired_options& o) {
  check(systems);
  const std::size_t samples = paired_samples(o);
  if (samples > 10'000'000) throw_usage(fmt::format("paired test: {} samples requested; at most 10000000", samples));
  std::vector<paired_result> res(systems.size());
  for (std::size_t s = 0; s < systems.size(); ++s) res[s].score = corpus_score(systems[s], score);
  const std::string undefined_for_ar = "approximate randomisation gives no interval";
  if (o.method == paired_method::bootstrap) {
    const auto sc = bootstrap_scores(systems, score, samples, o);
    for (std::size_t s = 0; s < systems.size(); ++s) {
      const auto [mean, ci] = mean_and_ci(sc[s]);
      res[s].mean = value(mean);
      res[s].ci = value(ci);
      if (s == 0) {
        res[s].p_value = value::undefined("the baseline is not tested against itself");
        continue;
      }
      std::vector<double> d(samples);
      double dmean = 0;
      for (std::size_t r = 0; r < samples; ++r) dmean += d[r] = std::abs(sc[s][r] - sc[0][r]);
      dmean /= static_cast<double>(samples);
      for (double& x : d) x -= dmean;
      res[s].p_value = value(p_value(d, std::abs(res[0].score - res[s].score)));
    }
  } else {
    res[0].p_value = value::undefined("the baseline is not tested against itself");
    res[0].mean = res[0].ci = value::undefined(undefined_for_ar);
    for (std::size_t s = 1; s < systems.size(); ++s) {
      const auto d = ar_differences(systems[0], systems[s], score, samples, o);
      res[s].p_value = value(p_value(d, std::abs(res[0].score - res[s].score)));
      res[s].mean = res[s].ci = value::undefined(undefined_for_ar);
    }
  }
  return res;
}

segment_table bleu_table(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                         const bleu_options& o) {
  segment_table t;
  t.k = 10;
  for (const auto& s : corpus_segment_stats(hyps, refs, o)) {
    t.v.push_back(s.hyp_len);
    t.v.push_back(s.ref_len);
    t.v.insert(t.v.end(), s.correct.begin(), s.correct.end());
    t.v.insert(t.v.end(), s.total.begin(), s.total.end());
  }
  return t;
}

score_of_stats bleu_scorer(const bleu_options& o) {
  return [o](std::span<const double> v) {
    bleu_stats s;
    s.hyp_len = v[0];
    s.ref_len = v[1];
    for (std::size_t n = 0; n < 4; ++n) s.correct[n] = v[2 + n], s.total[n] = v[6 + n];
    return compute_bleu(s, o).score;
  };
}

segment_table chrf_table(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                         const chrf_options& o) {
  if (refs.empty()) throw_usage("chrF: no reference given");
  for (std::size_t j = 0; j < refs.size(); ++j)
    if (refs[j].size() != hyps.size())
      throw_data(fmt::format("chrF: reference stream {} has {} lines but the hypothesis has {}", j + 1, refs[j].size(), hyps.size()));
  std::vector<chrf_stats> st(hyps.size());
  const unsigned threads = assay::detail::resolve_threads(0, hyps.size() / 256 + 1);
  std::vector<std::vector<std::string>> seg(threads, std::vector<std::string>(refs.size()));
  assay::detail::parallel_for(hyps.size(), threads, [&](unsigned t, std::size_t i) {
    for (std::size_t j = 0; j < refs.size(); ++j) seg[t][j] = refs[j][i];
    st[i] = chrf_segment_stats(hyps[i], seg[t], o);
  });
  segment_table t;
  t.k = hyps.empty() ? 0 : st[0].v.size();
  for (const auto& s : st) t.v.insert(t.v.end(), s.v.begin(), s.v.end());
  return t;
}

score_of_stats chrf_scorer(const chrf_options& o) {
  return [o](std::span<const double> v) {
    chrf_stats s;
    s.v.assign(v.begin(), v.end());
    return chrf_from_stats(s, o);
  };
}

segment_table ter_table(const std::vector<std::string>& hyps, const std::vector<std::vector<std::string>>& refs,
                        const ter_options& o) {
  segment_table t;
  t.k = 2;
  for (const auto& s : ter_corpus_stats(hyps, refs, o)) t.v.push_back(s.edits), t.v.push_back(s.ref_len);
  return t;
}

score_of_stats ter_scorer() {
  return [](std::span<const double> v) { return ter_from_stats({v[0], v[1]}); };
}

std::string paired_signature(const std::string& metric_signature, const paired_options& o) {
  const std::string test = fmt::format("{}:{}|seed:{}", o.method == paired_method::bootstrap ? "bs" : "ar",
                                       paired_samples(o), o.seed);
  const auto bar = metric_signature.find('|');
  if (bar == std::string::npos) return metric_signature + "|" + test;
  return metric_signature.substr(0, bar + 1) + test + metric_signature.substr(bar);
}

}  // namespace assay::text
