// `assay report` (with --by too) over MPI ranks (cli/mpi.hpp, docs/scaling.md "MPI"): one part of the
// file per rank (scale::part_of_file / state_of_file_part / sliced_state_of_file_part), the states
// merged on rank 0 along a binary tree.
#include <malloc.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "assay/error.hpp"
#include "assay/scale/file_parts.hpp"
#include "assay/scale/ranges.hpp"
#include "assay/scale/sliced_state.hpp"
#include "assay/scale/state.hpp"
#include "mpi.hpp"

namespace assay::cli::mpi {

namespace {

// Strings as bytes: each one's length (8 bytes), then its bytes.
std::string pack(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& x : v) {
    const std::uint64_t n = x.size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out.append(x);
  }
  return out;
}

std::vector<std::string> unpack(std::string_view b) {
  std::vector<std::string> out;
  while (!b.empty()) {
    std::uint64_t n = 0;
    if (b.size() < sizeof n) throw std::runtime_error("unpack: truncated length");
    std::memcpy(&n, b.data(), sizeof n);
    b.remove_prefix(sizeof n);
    if (n > b.size()) throw std::runtime_error("unpack: truncated string");
    out.emplace_back(b.substr(0, n));
    b.remove_prefix(n);
  }
  return out;
}

// Rank r's state of part r of the file (pass 1: about 1/n of the file's bytes; `of_part`), its row ids
// those of the file, then merged into rank 0's; agreed (an error on any rank is thrown on every rank).
// `State` is scale::evaluation_state or scale::sliced_state (rows, offset_row_ids, serialize, merge);
// `read` reads a serialised state with the options of this rank's.
template <class State, class OfPart, class Read>
void state_on_root(std::optional<State>& state, const OfPart& of_part, const Read& read) {
  const int r = rank(), n = ranks();
  // Rows with an empty cell (without --drop-missing) are refused for the whole file at once, after
  // every part is read: the count of all parts and the file's first such row, the one-process message
  // (a part's own count would depend on how many ranks read the file).
  io::missing_rows unrefused;
  agreed([&] { state.emplace(of_part(r, n, &unrefused)); });
  {
    std::vector<io::missing_rows> parts;
    for (const auto& b : all_gather_bytes(pack({std::to_string(unrefused.rows), std::to_string(unrefused.first_line),
                                                unrefused.first_column}))) {
      const std::vector<std::string> f = unpack(b);
      io::missing_rows m;
      m.rows = std::stoull(f.at(0));
      m.first_line = std::stoull(f.at(1));
      m.first_column = f.at(2);
      parts.push_back(std::move(m));
    }
    const std::uint64_t whole_file = 0;
    agreed([&] {
      if (r == 0) scale::refuse_missing_of_parts(parts, state->options().source);
    }, &whole_file);
  }
  // A part's rows have ids from 0; its first row's index among the file's rows is the rows of the parts
  // before it (the row a message names, e.g. the first whose class probabilities do not sum to 1, and
  // the ids the Poisson bootstrap draws on). Rows skipped for an empty cell (--drop-missing) have no
  // index, as in the one-process table, which does not hold them.
  const std::uint64_t before = sum_over_lower_ranks(state->rows());
  agreed([&] { state->offset_row_ids(before); });
  // Merge along a binary tree: at step s (1, 2, 4, ...) rank r with r % 2s == s sends its state to
  // rank r - s, which merges it into its own; after ceil(log2 n) steps rank 0 holds every row. Each
  // state crosses the network once. A rank that fails sends a marker instead, so that no rank waits.
  agreed([&] {
    bool failed = false;
    std::exception_ptr first;
    for (int step = 1; step < n; step *= 2) {
      if (r % (2 * step) == step) {
        std::string blob;
        if (!failed) {
          try {
            blob = state->serialize();
          } catch (...) {
            failed = true;
            first = std::current_exception();
          }
        }
        state.reset();
        send_bytes(failed ? nullptr : &blob, r - step);
        break;
      }
      if (r % (2 * step) == 0 && r + step < n) {
        // While the sender serialises its state, this rank merges its own run lists (else the merge
        // below would, after the bytes arrive: 0.18 s of rank 0's tail at 10^7 distinct scores).
        if constexpr (requires(State& s) { s.compact(); }) {
          if (!failed) {
            try {
              state->compact();
            } catch (...) {
              failed = true;
              first = std::current_exception();
            }
          }
        }
        std::string blob;
        const bool got = receive_bytes(blob, r + step);
        if (failed) continue;
        if (!got) {  // the sender failed: its own message is the one agreed on
          failed = true;
          continue;
        }
        try {
          state->merge(read(blob, *state));
        } catch (...) {
          failed = true;
          first = std::current_exception();
        }
      }
    }
    if (first) std::rethrow_exception(first);
  });
}

// On rank 0: read_table's message for a file without rows (the one-process run reads the whole file
// with it) when no rank read a row, rather than the state's finish().
template <class State>
void check_rows_of(const State& state) {
  if (state.rows() > 0) return;
  io::table t;
  t.source = state.options().source;
  t.missing.rows = state.missing();
  scale::check_rows(t);
}

// The state of the report `q` on rank 0 (unsliced).
void state_on_root(const report_request& q, std::optional<scale::evaluation_state>& state) {
  state_on_root(
      state,
      [&](int r, int n, io::missing_rows* unrefused) {
        return scale::state_of_file_part(q, scale::part_of_file(q, r, n), std::size_t{64} << 20, unrefused);
      },
      [](const std::string& blob, const scale::evaluation_state& mine) { return scale::read_state(blob, mine.options()); });
}

// The pieces' columns and the state's run lists are large vectors made and freed again and again;
// glibc maps each one afresh (above 32 MiB) and faults its pages in anew (page clearing and faults
// were about 15% of rank 0's perf samples at 10^7 distinct scores). Large blocks then come from the
// heap, which is not trimmed, so their pages are reused.
void keep_large_blocks() {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

// One link of a chain between ranks: receives the carry from rank `from` (none: -1, then `link` gets
// nullptr), computes `link(carry)` and sends its bytes to rank `to` (none: -1). A failure, here or
// upstream (a marker received), is passed on as a marker and thrown here, so every rank of the chain
// returns and the agreement after it names the first failure.
template <class Link>
void relay(int from, int to, Link&& link) {
  std::string carry;
  std::exception_ptr failed;
  if (from >= 0 && !receive_bytes(carry, from)) {
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
  if (to >= 0) send_bytes(failed ? nullptr : &mine, to);
  if (failed) std::rethrow_exception(failed);
}

// Whether every rank's `ok` is true (a collective).
bool all_ok(bool ok) { return max_over_ranks(ok ? 0 : 1) == 0; }

}  // namespace

bool report_by_ranges(const report_request& q, const std::function<void(const report&)>& on_root) {
  const int r = rank(), n = ranks();
  if (n < 2 || !q.score || q.task == task_kind::regression || q.ci_level || q.keep_curves || q.constraints.any()) {
    return false;
  }
  const char* env = std::getenv("ASSAY_MPI_RANGES");
  const std::string_view mode = env != nullptr ? env : "";
  if (mode == "0") return false;
  const bool always = mode == "1";
  keep_large_blocks();
  // ASSAY_MPI_TRACE: which path ran and each step's wall time on each rank (docs/scaling.md).
  const bool trace = std::getenv("ASSAY_MPI_TRACE") != nullptr;
  struct step {
    const char* what;
    double wall, cpu;
  };
  std::vector<step> steps;
  auto cpu_now = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  };
  auto t0 = std::chrono::steady_clock::now();
  double c0 = cpu_now();
  auto mark = [&](const char* what) {
    const auto t = std::chrono::steady_clock::now();
    const double c = cpu_now();
    steps.push_back({what, std::chrono::duration<double>(t - t0).count(), c - c0});
    t0 = t;
    c0 = c;
  };

  // 1. The part: a state without runs, and the rows' scores, spellings and weights. A part that fails
  // to read (a bad row, ...) or whose first piece has few distinct scores sends every rank to the
  // state path, which reads again (its messages are the one-process run's).
  std::optional<scale::ranked_part> part;
  bool ok = true;
  try {
    part = scale::ranked_part_of_file(q, scale::part_of_file(q, static_cast<std::size_t>(r), static_cast<std::size_t>(n)),
                                      [&](std::span<const double> s) { return always || scale::mostly_distinct(s); });
    ok = part.has_value();
  } catch (const std::exception&) {
    ok = false;
  }
  if (!all_ok(ok)) return false;
  mark("read");

  // 2. The classes, decided on every part's spellings (as finish() decides them on the union).
  std::vector<std::string> all;
  for (const auto& b : all_gather_bytes(pack(part->spellings))) {
    for (auto& x : unpack(b)) all.push_back(std::move(x));
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  std::vector<std::uint8_t> positive_of_all;
  ok = true;
  try {
    positive_of_all = scale::positive_spellings(all, part->state.options());
  } catch (const std::exception&) {  // classes evaluate cannot decide: the state path's message
    ok = false;
  }
  if (!all_ok(ok)) return false;
  std::vector<std::uint8_t> positive_of_mine(part->spellings.size());
  for (std::size_t k = 0; k < part->spellings.size(); ++k) {
    const auto at = std::lower_bound(all.begin(), all.end(), part->spellings[k]) - all.begin();
    positive_of_mine[k] = positive_of_all[static_cast<std::size_t>(at)];
  }

  // 3. The rows to the ranks of their score ranges (rank 0 the highest scores), cut at a pooled sample.
  std::vector<std::uint64_t> pooled;
  {
    const std::vector<std::uint64_t> keys = scale::sample_keys(part->scores);
    std::string mine(reinterpret_cast<const char*>(keys.data()), keys.size() * sizeof(std::uint64_t));
    for (const auto& b : all_gather_bytes(mine)) {
      const std::size_t k = pooled.size();
      pooled.resize(k + b.size() / sizeof(std::uint64_t));
      if (b.size() >= sizeof(std::uint64_t)) {  // a part without rows sends no keys (and data() may be null)
        std::memcpy(pooled.data() + k, b.data(), b.size() - b.size() % sizeof(std::uint64_t));
      }
    }
  }
  const std::vector<std::uint64_t> splitters = scale::range_splitters(std::move(pooled), static_cast<std::size_t>(n));
  const bool weighted = part->state.options().weighted;
  mark("classes and cuts");
  // The state takes the part's rows (the loss terms of each row's class only) while they are counted by
  // range; then they are written into their ranges' bytes. A bad value (not finite, ...): the state
  // path's message.
  std::vector<scale::range_bytes> out(static_cast<std::size_t>(n));
  ok = true;
  try {
    out = scale::fill_and_split(*part, all, positive_of_mine, splitters);
  } catch (const std::exception&) {
    ok = false;
  }
  std::vector<double>().swap(part->scores);
  std::vector<std::int32_t>().swap(part->codes);
  std::vector<double>().swap(part->weights);
  if (!all_ok(ok)) return false;
  mark("fill and split");
  std::vector<std::string_view> views(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < views.size(); ++k) views[k] = out[k].view();
  std::vector<scale::range_bytes> in = exchange_bytes(views);
  mark("exchange");
  std::optional<scale::score_range> range;
  std::size_t rows_here = 0;
  agreed([&] {
    in[static_cast<std::size_t>(r)] = std::move(out[static_cast<std::size_t>(r)]);  // this rank's own range
    out.clear();
    range.emplace(scale::score_range::of_bytes(std::move(in), weighted));
    rows_here = range->rows();
  });
  mark("sort");

  // 4. Running sums from the top range down; the last range's end is the totals (P, N). Each link of
  // a chain receives its carry, computes and passes its own on; a link that fails passes a marker, so
  // that no rank waits for a carry that will not come (relay).
  scale::running_edge end;
  agreed([&] {
    relay(r > 0 ? r - 1 : -1, r + 1 < n ? r + 1 : -1, [&](const std::string* carry) {
      end = range->running_sums(carry != nullptr ? scale::walker_of<scale::running_edge>(*carry) : scale::running_edge{});
      return scale::bytes_of(end);
    });
  });
  const std::vector<std::string> ends = all_gather_bytes(scale::bytes_of(end));
  const scale::running_edge totals = scale::walker_of<scale::running_edge>(ends.back());
  if (!(totals.tp > 0 && totals.fp > 0)) return false;  // one class: the state path reads its sweep's reasons
  mark("running sums");

  // 5. The two chained walks: down from rank 0 (the positive class), up from rank n - 1 (the other
  // class). Each rank takes first the walk whose carry reaches it first; each chain goes one way, so
  // no rank waits on one that waits on it. Rank n - 1's descending walker, the whole walk, then goes
  // to rank 0 (a third chain of one link).
  curves::summary_walker<true> down;
  curves::areas_walker up;
  agreed([&] {
    auto walk_down = [&] {
      relay(r > 0 ? r - 1 : -1, r + 1 < n ? r + 1 : -1, [&](const std::string* carry) {
        down = carry != nullptr ? scale::walker_of<curves::summary_walker<true>>(*carry)
                                : curves::summary_walker<true>(totals.tp, totals.fp);
        range->walk_down(down);
        return scale::bytes_of(down);
      });
    };
    auto walk_up = [&] {
      relay(r + 1 < n ? r + 1 : -1, r > 0 ? r - 1 : -1, [&](const std::string* carry) {
        up = carry != nullptr ? scale::walker_of<curves::areas_walker>(*carry) : curves::areas_walker(totals.fp, totals.tp);
        range->walk_up(up);
        return scale::bytes_of(up);
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
      relay(r == 0 ? n - 1 : -1, r == n - 1 ? 0 : -1, [&](const std::string* carry) {
        if (carry != nullptr) down = scale::walker_of<curves::summary_walker<true>>(*carry);
        return scale::bytes_of(down);
      });
    }
  });

  mark("walks");

  // 6. The states (counts, cells, losses) merged on rank 0, finished with the walks' results.
  std::optional<scale::evaluation_state> state;
  state_on_root(
      state, [&](int, int, io::missing_rows*) { return std::move(part->state); },
      [](const std::string& blob, const scale::evaluation_state& mine) { return scale::read_state(blob, mine.options()); });
  agreed([&] {
    if (r == 0) {
      check_rows_of(*state);
      scale::given_ranking given;
      given.P = totals.tp;
      given.N = totals.fp;
      given.positive = down.result();
      given.negative = up.result();
      report rep = scale::finish_with_ranking(*state, options_of(q), given);
      if (q.csv.drop_missing) rep.missing = state->missing();
      on_root(rep);
    }
  });
  mark("merge and finish");
  if (trace) {
    std::string line = fmt::format("rank {} of {}: {} rows in its range; wall (CPU) of each step:", r, n, rows_here);
    for (const auto& st : steps) line += fmt::format(" {} {:.3f} ({:.3f}) s,", st.what, st.wall, st.cpu);
    line.back() = '\n';
    const std::vector<std::string> lines = all_gather_bytes(line);
    if (r == 0) {
      fmt::print(stderr, "assay report: range-partitioned over {} ranks\n", n);
      for (const auto& l : lines) fmt::print(stderr, "  {}", l);
    }
  }
  return true;
}

void report_by_parts(const report_request& q, const std::function<void(const report&)>& on_root) {
  if (report_by_ranges(q, on_root)) return;
  keep_large_blocks();
  std::optional<scale::evaluation_state> state;
  state_on_root(q, state);
  // Rank 0 finishes the report and writes it; agreed, so a failure there fails every rank. Its message
  // is about the whole file (no rank prefix: the one-process message).
  const std::uint64_t whole_file = 0;
  agreed([&] {
    if (rank() == 0) {
      check_rows_of(*state);
      scale::check_classes_as_file(*state, q);  // make_report's words for classes it refuses
      report rep = state->finish(options_of(q));
      if (q.csv.drop_missing) rep.missing = state->missing();  // rows skipped for an empty cell, all parts
      on_root(rep);
    }
  }, &whole_file);
}

void sliced_report_by_parts(const report_request& q, const std::vector<std::string>& by,
                            const std::function<void(const sliced_report&)>& on_root) {
  keep_large_blocks();
  std::optional<scale::sliced_state> state;
  state_on_root(
      state,
      [&](int r, int n, io::missing_rows* unrefused) {
        return scale::sliced_state_of_file_part(q, by, scale::part_of_file(q, r, n), std::size_t{64} << 20, unrefused);
      },
      [](const std::string& blob, const scale::sliced_state& mine) {
        return scale::read_sliced_state(blob, mine.options(), mine.by());
      });
  agreed([&] {
    if (rank() == 0) {
      check_rows_of(*state);
      sliced_report rep = state->finish(options_of(q));
      if (q.csv.drop_missing) rep.overall.missing = state->missing();  // as make_sliced_report: all parts
      on_root(rep);
    }
  });
}

void curve_by_parts(const curves::curve_request& c, const std::function<void(curves::swept_models)>& on_root) {
  keep_large_blocks();
  curves::swept_models out;
  // One state (one pass over the rank's part) per score column: the models' sweeps.
  for (const auto& score : c.scores) {
    report_request q;
    q.path = c.path;
    q.csv = c.csv;
    q.label = c.label;
    q.score = score;
    q.weight = c.weight;
    q.pos_label = c.pos_label;
    std::optional<scale::evaluation_state> state;
    state_on_root(q, state);
    agreed([&] {
      if (rank() != 0) return;
      const scale::state_options& o = state->options();
      if (state->rows() == 0) throw_data(fmt::format("{}: no data rows", o.source));
      scale::evaluation_state::scores_swept s = state->sweep_of_scores(c.max_fpr.has_value() && !c.weight);
      out.source = o.source;
      out.label_column = o.label_name;
      out.classes = s.classes;
      out.positive = s.classes[s.positive];
      out.weighted = o.weighted;
      if (c.csv.drop_missing) out.missing = state->missing();  // the same rows in every column's pass
      out.models.emplace_back(o.prediction_name, std::move(s.sweep));
      out.negatives.push_back(std::move(s.negatives));
    });
  }
  agreed([&] {
    if (rank() == 0) on_root(std::move(out));
  });
}

}  // namespace assay::cli::mpi
