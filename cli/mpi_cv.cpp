// `assay cv` over MPI ranks (cli/mpi.hpp, docs/scaling.md "MPI"): every rank reads the data and makes
// the same splits (same seed); rank r runs the splits s with s % N == r; the outcomes travel to rank 0
// as bytes (the same executable on every rank: native byte order, no format version), which
// summarises them as cross_validate does.
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "mpi.hpp"

namespace assay::cli::mpi {

namespace {

class writer {
 public:
  template <class T>
  void pod(const T& x) {
    const auto* p = reinterpret_cast<const char*>(&x);
    out.append(p, sizeof(T));
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    pod<std::uint64_t>(v.size());
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  void values(const std::vector<value>& v) {
    pod<std::uint64_t>(v.size());
    for (const value& x : v) {
      pod(x.v);
      pod<std::uint64_t>(x.reason.size());
      out += x.reason;
    }
  }
  std::string out;
};

class reader {
 public:
  explicit reader(const std::string& s) : s_(s) {}
  template <class T>
  T pod() {
    need(sizeof(T));
    T x;
    std::memcpy(&x, s_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return x;
  }
  template <class T>
  std::vector<T> vec() {
    const auto n = pod<std::uint64_t>();
    need(n * sizeof(T));
    std::vector<T> v(n);
    if (n > 0) std::memcpy(v.data(), s_.data() + at_, n * sizeof(T));
    at_ += n * sizeof(T);
    return v;
  }
  std::vector<value> values() {
    std::vector<value> v(pod<std::uint64_t>());
    for (value& x : v) {
      x.v = pod<double>();
      const auto n = pod<std::uint64_t>();
      need(n);
      x.reason.assign(s_, at_, n);
      at_ += n;
    }
    return v;
  }
  [[nodiscard]] bool done() const { return at_ == s_.size(); }

 private:
  void need(std::uint64_t n) const {
    if (n > s_.size() - at_) throw std::runtime_error("cross_validate_over_ranks: a rank's outcomes are truncated");
  }
  const std::string& s_;
  std::size_t at_ = 0;
};

std::string to_bytes(const std::vector<validation::split_outcome>& outcomes, unsigned lanes) {
  writer w;
  w.pod<std::uint64_t>(lanes);
  w.pod<std::uint64_t>(outcomes.size());
  for (const auto& o : outcomes) {
    const auto& f = o.fold;
    for (std::uint64_t x : {f.split, f.repeat, f.train_rows, f.test_rows}) w.pod(x);
    w.values(f.test);
    w.values(f.train);
    for (double x : {f.fit_seconds, f.predict_seconds, f.cpu_seconds, f.model_cpu_seconds, f.encode_cpu_seconds}) w.pod(x);
    w.vec(o.pred.cls);
    w.vec(o.pred.value);
    w.vec(o.pred.proba);
  }
  return std::move(w.out);
}

std::vector<validation::split_outcome> from_bytes(const std::string& bytes, std::uint64_t& lanes) {
  reader r(bytes);
  lanes = r.pod<std::uint64_t>();
  std::vector<validation::split_outcome> out(r.pod<std::uint64_t>());
  for (auto& o : out) {
    auto& f = o.fold;
    f.split = r.pod<std::uint64_t>();
    f.repeat = r.pod<std::uint64_t>();
    f.train_rows = r.pod<std::uint64_t>();
    f.test_rows = r.pod<std::uint64_t>();
    f.test = r.values();
    f.train = r.values();
    f.fit_seconds = r.pod<double>();
    f.predict_seconds = r.pod<double>();
    f.cpu_seconds = r.pod<double>();
    f.model_cpu_seconds = r.pod<double>();
    f.encode_cpu_seconds = r.pod<double>();
    o.pred.cls = r.vec<std::int32_t>();
    o.pred.value = r.vec<double>();
    o.pred.proba = r.vec<double>();
  }
  if (!r.done()) throw std::runtime_error("cross_validate_over_ranks: a rank's outcomes have trailing bytes");
  return out;
}

}  // namespace

validation::cv_result cross_validate_over_ranks(const validation::dataset& d, const validation::any_learner& learner,
                                                const validation::split_list& splits,
                                                const validation::cv_options& options) {
  const auto start = std::chrono::steady_clock::now();
  const int r = rank(), n = ranks();
  std::vector<std::size_t> mine;
  for (std::size_t s = static_cast<std::size_t>(r); s < splits.size(); s += static_cast<std::size_t>(n)) mine.push_back(s);
  std::vector<validation::split_outcome> outcomes;
  unsigned lanes = 0;
  std::uint64_t failed = ~std::uint64_t{0};
  {
    std::size_t failed_split = splits.size();
    agreed(
        [&] {
          try {
            outcomes = validation::run_splits(d, learner, splits, mine, options, &lanes, &failed_split);
          } catch (...) {
            failed = failed_split;  // splits.size() when the failure was not a split's (setup)
            throw;
          }
        },
        &failed);
  }
  // Every rank's outcomes to rank 0 (received whole before any is read, so that no sender waits for a
  // rank 0 that gave up), then the summary, on rank 0.
  validation::cv_result result;
  agreed([&] {
    if (r != 0) {
      const std::string bytes = to_bytes(outcomes, lanes);
      send_bytes(&bytes, 0);
      return;
    }
    std::vector<std::string> received(static_cast<std::size_t>(n));
    std::vector<bool> got(static_cast<std::size_t>(n), false);
    for (int from = 1; from < n; ++from) got[from] = receive_bytes(received[from], from);
    std::vector<validation::split_outcome> all(splits.size());
    for (auto& o : outcomes) all[o.fold.split] = std::move(o);
    std::uint64_t all_lanes = lanes;
    for (int from = 1; from < n; ++from) {
      if (!got[from]) throw std::runtime_error("cross_validate_over_ranks: a rank sent no outcomes");
      std::uint64_t l = 0;
      for (auto& o : from_bytes(received[from], l)) {
        const std::size_t s = o.fold.split;
        if (s >= all.size() || s % static_cast<std::size_t>(n) != static_cast<std::size_t>(from)) {
          throw std::runtime_error("cross_validate_over_ranks: a rank sent a split it does not own");
        }
        all[s] = std::move(o);
      }
      all_lanes += l;
      received[from] = std::string();
    }
    result = validation::summarize_splits(d, learner, splits, std::move(all), options);
    result.threads = static_cast<std::size_t>(all_lanes);
  });
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace assay::cli::mpi
