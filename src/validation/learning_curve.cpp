#include "assay/validation/learning_curve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "assay/error.hpp"

namespace assay::validation {

namespace {

metric_summary summarise(const std::string& name, const std::vector<value>& v) {
  metric_summary s;
  s.name = name;
  std::vector<double> x;
  for (const auto& e : v)
    if (e.defined()) x.push_back(e.v);
  s.defined = x.size();
  s.pooled = value::undefined("not pooled");
  if (x.empty()) {
    s.mean = s.sd = value::undefined("undefined in every split");
    return s;
  }
  double m = 0;
  for (double e : x) m += e;
  m /= static_cast<double>(x.size());
  s.mean = m;
  if (x.size() < 2) {
    s.sd = value::undefined("fewer than 2 splits");
  } else {
    double ss = 0;
    for (double e : x) ss += (e - m) * (e - m);
    s.sd = std::sqrt(ss / static_cast<double>(x.size() - 1));
  }
  return s;
}

}  // namespace

learning_curve_result learning_curve(const dataset& d, const any_learner& learner, const split_list& splits,
                                     const learning_curve_options& options) {
  if (options.sizes.empty()) throw_usage("learning curve: no training sizes");
  learning_curve_result out;
  out.learner = learner.name();
  out.splits = splits.size();
  // One permutation of each split's training rows, shared by all sizes (nested subsets).
  std::vector<std::vector<std::size_t>> order(splits.size());
  for (std::size_t s = 0; s < splits.size(); ++s) {
    order[s] = splits[s].train;
    rng g(derive_seed(options.seed, s));
    g.shuffle(order[s]);
  }
  for (double share : options.sizes) {
    if (!(share > 0 && share <= 1)) throw_usage(fmt::format("--sizes: {} is not in (0, 1]", share));
    split_list sub = splits;
    double rows = 0;
    for (std::size_t s = 0; s < splits.size(); ++s) {
      const auto m = static_cast<std::size_t>(std::llround(share * static_cast<double>(order[s].size())));
      if (m < 2) {
        throw_usage(fmt::format("--sizes: {} of {} training rows is fewer than 2 rows", share, order[s].size()));
      }
      sub[s].train.assign(order[s].begin(), order[s].begin() + static_cast<long>(m));
      std::sort(sub[s].train.begin(), sub[s].train.end());
      rows += static_cast<double>(m);
    }
    cv_options o = options.cv;
    o.score_training = true;
    o.keep_predictions = false;
    const auto r = cross_validate(d, learner, sub, o);
    learning_curve_point p;
    p.share = share;
    p.train_rows = static_cast<std::size_t>(std::llround(rows / static_cast<double>(splits.size())));
    for (std::size_t m = 0; m < r.summary.size(); ++m) {
      std::vector<value> tr;
      for (const auto& f : r.folds) tr.push_back(f.train[m]);
      p.test.push_back(r.summary[m]);
      p.train.push_back(summarise(r.summary[m].name, tr));
      p.train.back().title = r.summary[m].title;
      p.train.back().higher_is_better = r.summary[m].higher_is_better;
    }
    out.points.push_back(std::move(p));
  }
  return out;
}

std::string to_text(const learning_curve_result& r) {
  std::string out =
      fmt::format("Learning curve of {} over {} splits (mean +- sd over the splits)\n", r.learner, r.splits);
  if (r.points.empty()) return out;
  for (std::size_t m = 0; m < r.points[0].test.size(); ++m) {
    out += fmt::format("\n{}\n{:>6}  {:>10}  {:>21}  {:>21}\n", r.points[0].test[m].name, "share", "train rows",
                       "train score", "test score");
    for (const auto& p : r.points) {
      auto cell = [](const metric_summary& s) {
        if (!s.mean.defined()) return std::string("undefined");
        return fmt::format("{:.4f} +- {}", s.mean.v, s.sd.defined() ? fmt::format("{:.4f}", s.sd.v) : "undef");
      };
      out +=
          fmt::format("{:>6.3f}  {:>10}  {:>21}  {:>21}\n", p.share, p.train_rows, cell(p.train[m]), cell(p.test[m]));
    }
  }
  return out;
}

std::string to_json(const learning_curve_result& r) {
  nlohmann::json j;
  j["learner"] = r.learner;
  j["splits"] = r.splits;
  auto jv = [](const value& v) { return v.defined() ? nlohmann::json(v.v) : nlohmann::json(nullptr); };
  for (const auto& p : r.points) {
    nlohmann::json o{{"share", p.share}, {"train_rows", p.train_rows}};
    for (std::size_t m = 0; m < p.test.size(); ++m) {
      o["test"][p.test[m].name] = {{"mean", jv(p.test[m].mean)}, {"sd", jv(p.test[m].sd)}};
      o["train"][p.train[m].name] = {{"mean", jv(p.train[m].mean)}, {"sd", jv(p.train[m].sd)}};
    }
    j["points"].push_back(o);
  }
  return j.dump(2) + "\n";
}

std::string to_svg(const learning_curve_result& r) {
  constexpr double width = 640, height = 400, left = 70, right = 20, top = 40, bottom = 50;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" "
      "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height);
  if (r.points.empty() || r.points[0].test.empty()) return out + "</svg>\n";
  double xmax = 1, ylo = INFINITY, yhi = -INFINITY;
  for (const auto& p : r.points) {
    xmax = std::max(xmax, static_cast<double>(p.train_rows));
    for (const auto* s : {&p.train[0], &p.test[0]}) {
      if (!s->mean.defined()) continue;
      const double e = s->sd.defined() ? s->sd.v : 0;
      ylo = std::min(ylo, s->mean.v - e);
      yhi = std::max(yhi, s->mean.v + e);
    }
  }
  if (!std::isfinite(ylo)) return out + "</svg>\n";
  if (yhi - ylo < 1e-9) {
    ylo -= 0.5;
    yhi += 0.5;
  }
  const double pad = (yhi - ylo) * 0.05;
  ylo -= pad;
  yhi += pad;
  auto px = [&](double x) { return left + x / xmax * (width - left - right); };
  auto py = [&](double y) { return top + (yhi - y) / (yhi - ylo) * (height - top - bottom); };
  out += fmt::format("<text x=\"{}\" y=\"20\" text-anchor=\"middle\">Learning curve: {} ({})</text>\n", width / 2,
                     r.learner, r.points[0].test[0].name);
  out +=
      fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"black\"/>\n", left, top, height - bottom);
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"black\"/>\n", left, height - bottom,
                     width - right);
  for (int t = 0; t <= 4; ++t) {
    const double y = ylo + (yhi - ylo) * t / 4, x = xmax * t / 4;
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:.3f}</text>\n", left - 5, py(y) + 4, y);
    out +=
        fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{:.0f}</text>\n", px(x), height - bottom + 16, x);
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">training rows</text>\n", width / 2, height - 12);
  const char* colour[2] = {"#1f77b4", "#d62728"};
  const char* label[2] = {"train", "test"};
  for (int which = 0; which < 2; ++which) {
    std::string path;
    for (const auto& p : r.points) {
      const auto& s = which == 0 ? p.train[0] : p.test[0];
      if (!s.mean.defined()) continue;
      const double x = px(static_cast<double>(p.train_rows)), y = py(s.mean.v);
      path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "M" : " L", x, y);
      if (s.sd.defined()) {
        out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\"/>\n", x,
                           py(s.mean.v - s.sd.v), py(s.mean.v + s.sd.v), colour[which]);
      }
      out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n", x, y, colour[which]);
    }
    out += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\"/>\n", path, colour[which]);
    out += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>\n", width - right - 60, top + 15 + 15 * which,
                       colour[which], label[which]);
  }
  return out + "</svg>\n";
}

}  // namespace assay::validation
