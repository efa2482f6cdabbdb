// The range-partitioned report over the ranks of a transport (report_by_ranges in
// include/assay/scale/over_ranks.hpp), on the pieces of include/assay/scale/ranges.hpp.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

#include "assay/scale/file_parts.hpp"
#include "assay/scale/over_ranks.hpp"
#include "assay/scale/ranges.hpp"
#include "assay/scale/state.hpp"
#include "tree_merge.hpp"

namespace assay::scale {

namespace {

// Each step's wall and CPU time on this rank (over_ranks_options::trace).
class step_clock {
 public:
  void mark(const char* what) {
    const auto t = std::chrono::steady_clock::now();
    const double c = cpu_now();
    steps_.push_back({what, std::chrono::duration<double>(t - t0_).count(), c - c0_});
    t0_ = t;
    c0_ = c;
  }
  [[nodiscard]] std::string line(int r, int n, std::size_t rows) const {
    std::string out = fmt::format("rank {} of {}: {} rows in its range; wall (CPU) of each step:", r, n, rows);
    for (const auto& st : steps_) out += fmt::format(" {} {:.3f} ({:.3f}) s,", st.what, st.wall, st.cpu);
    out.back() = '\n';
    return out;
  }

 private:
  static double cpu_now() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  struct step {
    const char* what;
    double wall, cpu;
  };
  std::vector<step> steps_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
  double c0_ = cpu_now();
};

// One link of a chain between ranks: receives the carry from rank `from` (none: -1, then `link` gets
// nullptr), computes `link(carry)` and sends its bytes to rank `to` (none: -1). A failure, here or
// upstream (a marker received), is passed on as a marker and thrown here, so every rank of the chain
// returns and the agreement after it names the first failure.
template <class Link>
void relay(transport& t, int from, int to, Link&& link) {
  std::string carry;
  std::exception_ptr failed;
  if (from >= 0 && !t.receive(from, carry)) {
    failed = std::make_exception_ptr(std::runtime_error(fmt::format("no carry from rank {}", from)));
  }
  std::string mine;
  if (!failed) {
    try {
      mine = link(from >= 0 ? &carry : nullptr);
    } catch (...) {
      failed = std::current_exception();
    }
  }
  if (to >= 0) t.send(to, failed ? nullptr : &mine);
  if (failed) std::rethrow_exception(failed);
}

// The classes, decided on every part's spellings (as finish() decides them on the union): the sorted
// union of the spellings and, for each of this part's spellings, whether it is the positive class.
// False on every rank when evaluate cannot decide them (the state path gives the message).
bool classes_over_ranks(transport& t, const ranked_part& part, std::vector<std::string>& all,
                        std::vector<std::uint8_t>& positive_of_mine) {
  for (const auto& b : t.all_gather(detail::pack_strings(part.spellings))) {
    for (auto& x : detail::unpack_strings(b)) all.push_back(std::move(x));
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  std::vector<std::uint8_t> positive_of_all;
  bool ok = true;
  try {
    positive_of_all = positive_spellings(all, part.state.options());
  } catch (const std::exception&) {
    ok = false;
  }
  if (!all_ok(t, ok)) return false;
  positive_of_mine.resize(part.spellings.size());
  for (std::size_t k = 0; k < part.spellings.size(); ++k) {
    const auto at = std::lower_bound(all.begin(), all.end(), part.spellings[k]) - all.begin();
    positive_of_mine[k] = positive_of_all[static_cast<std::size_t>(at)];
  }
  return true;
}

// The cuts between the ranks' score ranges (rank 0 the highest scores), at a sample pooled from every
// part.
std::vector<std::uint64_t> cuts_over_ranks(transport& t, const ranked_part& part) {
  std::vector<std::uint64_t> pooled;
  const std::vector<std::uint64_t> keys = sample_keys(part.scores);
  const std::string mine(reinterpret_cast<const char*>(keys.data()), keys.size() * sizeof(std::uint64_t));
  for (const auto& b : t.all_gather(mine)) {
    const std::size_t k = pooled.size();
    pooled.resize(k + b.size() / sizeof(std::uint64_t));
    if (b.size() >= sizeof(std::uint64_t)) {  // a part without rows sends no keys (and data() may be null)
      std::memcpy(pooled.data() + k, b.data(), b.size() - b.size() % sizeof(std::uint64_t));
    }
  }
  return range_splitters(std::move(pooled), static_cast<std::size_t>(t.size()));
}

// The part's rows split by range, sent to their ranks, and this rank's range sorted. The state takes
// the part's rows (the loss terms of each row's class only) while they are counted by range. False on
// every rank for a bad value (not finite, ...): the state path's message.
bool ranges_over_ranks(transport& t, ranked_part& part, const std::vector<std::string>& all,
                       std::span<const std::uint8_t> positive_of_mine, std::span<const std::uint64_t> splitters,
                       std::optional<score_range>& range, step_clock& clock) {
  const auto n = static_cast<std::size_t>(t.size()), r = static_cast<std::size_t>(t.rank());
  std::vector<range_bytes> out(n);
  bool ok = true;
  try {
    out = fill_and_split(part, all, positive_of_mine, splitters);
  } catch (const std::exception&) {
    ok = false;
  }
  std::vector<double>().swap(part.scores);
  std::vector<std::int32_t>().swap(part.codes);
  std::vector<double>().swap(part.weights);
  if (!all_ok(t, ok)) return false;
  clock.mark("fill and split");
  std::vector<std::string_view> views(n);
  for (std::size_t k = 0; k < n; ++k) views[k] = out[k].view();
  std::vector<range_bytes> in = t.exchange(views);
  clock.mark("exchange");
  const bool weighted = part.state.options().weighted;
  agreed(t, [&] {
    in[r] = std::move(out[r]);  // this rank's own range
    out.clear();
    range.emplace(score_range::of_bytes(std::move(in), weighted));
  });
  clock.mark("sort");
  return true;
}

// Running sums from the top range down; the last range's end is the totals (P, N). Each link of the
// chain receives its carry, computes and passes its own on (relay).
running_edge totals_over_ranks(transport& t, score_range& range) {
  const int r = t.rank(), n = t.size();
  running_edge end;
  agreed(t, [&] {
    relay(t, r > 0 ? r - 1 : -1, r + 1 < n ? r + 1 : -1, [&](const std::string* carry) {
      end = range.running_sums(carry != nullptr ? walker_of<running_edge>(*carry) : running_edge{});
      return bytes_of(end);
    });
  });
  const std::vector<std::string> ends = t.all_gather(bytes_of(end));
  return walker_of<running_edge>(ends.back());
}

// The two chained walks: down from rank 0 (the positive class), up from rank n - 1 (the other class).
// Each rank takes first the walk whose carry reaches it first; each chain goes one way, so no rank
// waits on one that waits on it. Rank n - 1's descending walker, the whole walk, then goes to rank 0
// (a third chain of one link). Frees the range.
void walks_over_ranks(transport& t, std::optional<score_range>& range, running_edge totals,
                      curves::summary_walker<true>& down, curves::areas_walker& up) {
  const int r = t.rank(), n = t.size();
  agreed(t, [&] {
    auto walk_down = [&] {
      relay(t, r > 0 ? r - 1 : -1, r + 1 < n ? r + 1 : -1, [&](const std::string* carry) {
        down = carry != nullptr ? walker_of<curves::summary_walker<true>>(*carry)
                                : curves::summary_walker<true>(totals.tp, totals.fp);
        range->walk_down(down);
        return bytes_of(down);
      });
    };
    auto walk_up = [&] {
      relay(t, r + 1 < n ? r + 1 : -1, r > 0 ? r - 1 : -1, [&](const std::string* carry) {
        up = carry != nullptr ? walker_of<curves::areas_walker>(*carry) : curves::areas_walker(totals.fp, totals.tp);
        range->walk_up(up);
        return bytes_of(up);
      });
    };
    if (2 * r < n) {
      walk_down();
      walk_up();
    } else {
      walk_up();
      walk_down();
    }
    range.reset();
    if (r == n - 1 || r == 0) {
      relay(t, r == 0 ? n - 1 : -1, r == n - 1 ? 0 : -1, [&](const std::string* carry) {
        if (carry != nullptr) down = walker_of<curves::summary_walker<true>>(*carry);
        return bytes_of(down);
      });
    }
  });
}

bool applies(const transport& t, const report_request& q, const over_ranks_options& options) {
  return t.size() >= 2 && q.score && q.task != task_kind::regression && !q.ci_level && !q.keep_curves &&
         !q.constraints.any() && options.ranges != over_ranks_options::range_path::never;
}

}  // namespace

bool report_by_ranges(transport& t, const report_request& q, const std::function<void(const report&)>& on_root,
                      const over_ranks_options& options) {
  if (!applies(t, q, options)) return false;
  const bool always = options.ranges == over_ranks_options::range_path::always;
  const int r = t.rank(), n = t.size();
  step_clock clock;
  // 1. The part: a state without runs, and the rows' scores, spellings and weights. A part that fails
  // to read (a bad row, ...) or whose first piece has few distinct scores sends every rank to the
  // state path, which reads again (its messages are the one-process run's).
  std::optional<ranked_part> part;
  bool ok = true;
  try {
    part = ranked_part_of_file(q, part_of_file(q, static_cast<std::size_t>(r), static_cast<std::size_t>(n)),
                               [&](std::span<const double> s) { return always || mostly_distinct(s); });
    ok = part.has_value();
  } catch (const std::exception&) {
    ok = false;
  }
  if (!all_ok(t, ok)) return false;
  clock.mark("read");
  // 2. The classes; 3. the rows to the ranks of their score ranges.
  std::vector<std::string> all;
  std::vector<std::uint8_t> positive_of_mine;
  if (!classes_over_ranks(t, *part, all, positive_of_mine)) return false;
  const std::vector<std::uint64_t> splitters = cuts_over_ranks(t, *part);
  clock.mark("classes and cuts");
  std::optional<score_range> range;
  if (!ranges_over_ranks(t, *part, all, positive_of_mine, splitters, range, clock)) return false;
  const std::size_t rows_here = range ? range->rows() : 0;
  // 4. The totals; 5. the walks.
  const running_edge totals = totals_over_ranks(t, *range);
  if (!(totals.tp > 0 && totals.fp > 0)) return false;  // one class: the state path reads its sweep's reasons
  clock.mark("running sums");
  curves::summary_walker<true> down;
  curves::areas_walker up;
  walks_over_ranks(t, range, totals, down, up);
  clock.mark("walks");
  // 6. The states (counts, cells, losses) merged on rank 0, finished with the walks' results.
  std::optional<evaluation_state> state;
  detail::state_on_root(
      t, state, [&](int, int, io::missing_rows*) { return std::move(part->state); },
      [](const std::string& blob, const evaluation_state& mine) { return read_state(blob, mine.options()); });
  agreed(t, [&] {
    if (r == 0) {
      detail::check_rows_of(*state);
      given_ranking given;
      given.P = totals.tp;
      given.N = totals.fp;
      given.positive = down.result();
      given.negative = up.result();
      report rep = finish_with_ranking(*state, options_of(q), given);
      if (q.csv.drop_missing) rep.missing = state->missing();
      on_root(rep);
    }
  });
  clock.mark("merge and finish");
  if (options.trace) {
    const std::vector<std::string> lines = t.all_gather(clock.line(r, n, rows_here));
    if (r == 0) {
      std::string text = fmt::format("range-partitioned over {} ranks\n", n);
      for (const auto& l : lines) text += "  " + l;
      options.trace(text);
    }
  }
  return true;
}

}  // namespace assay::scale
