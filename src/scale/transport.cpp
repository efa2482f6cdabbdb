// The transport's default collectives and the error agreement (include/assay/scale/transport.hpp).
#include "assay/scale/transport.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

#include "assay/error.hpp"
#include "string_list.hpp"

namespace assay::scale {

namespace {

std::string bytes_of_u64(std::uint64_t v) { return {reinterpret_cast<const char*>(&v), sizeof v}; }

std::uint64_t u64_of(const std::string& b, const char* what) {
  if (b.size() != sizeof(std::uint64_t)) {
    throw std::runtime_error(fmt::format("{}: a rank sent {} bytes; 8 expected", what, b.size()));
  }
  std::uint64_t v = 0;
  std::memcpy(&v, b.data(), sizeof v);
  return v;
}

// The failure classes agreed on besides assay::error's kinds (whose codes are 2, 3, 4).
constexpr int internal_failure = 1, out_of_memory = 5;

}  // namespace

std::uint64_t transport::min_over_ranks(std::uint64_t mine) {
  std::uint64_t low = mine;
  for (const auto& b : all_gather(bytes_of_u64(mine))) low = std::min(low, u64_of(b, "min_over_ranks"));
  return low;
}

std::uint64_t transport::sum_over_lower_ranks(std::uint64_t mine) {
  const std::vector<std::string> all = all_gather(bytes_of_u64(mine));
  std::uint64_t below = 0;
  for (int k = 0; k < rank(); ++k) below += u64_of(all[static_cast<std::size_t>(k)], "sum_over_lower_ranks");
  return below;
}

std::vector<range_bytes> transport::exchange(std::span<const std::string_view> to_each) {
  const int n = size(), me = rank();
  if (to_each.size() != static_cast<std::size_t>(n)) {
    throw std::logic_error(fmt::format("exchange: {} strings for {} ranks", to_each.size(), n));
  }
  std::vector<range_bytes> from(static_cast<std::size_t>(n));
  for (int k = 1; k < n; ++k) {
    const int to = (me + k) % n, src = (me - k + n) % n;
    const std::string out(to_each[static_cast<std::size_t>(to)]);
    send(to, &out);
    std::string in;
    if (!receive(src, in)) throw std::runtime_error(fmt::format("exchange: rank {} sent no bytes", src));
    range_bytes& b = from[static_cast<std::size_t>(src)];
    b = range_bytes::of_size(in.size());
    if (!in.empty()) std::memcpy(b.data.get(), in.data(), in.size());
  }
  return from;
}

void solo_transport::send(int to, const std::string*) {
  throw std::logic_error(fmt::format("solo_transport::send: to rank {}, but there is one rank", to));
}

bool solo_transport::receive(int from, std::string&) {
  throw std::logic_error(fmt::format("solo_transport::receive: from rank {}, but there is one rank", from));
}

void agreed(transport& t, const std::function<void()>& local, const std::uint64_t* key) {
  int code = 0;
  std::string text;
  try {
    local();
  } catch (const error& e) {
    code = e.exit_code();
    text = e.marked();
  } catch (const std::bad_alloc&) {
    code = out_of_memory;
  } catch (const std::exception& e) {
    code = internal_failure;
    text = e.what();
  }
  const int n = t.size();
  if (n > 1) {
    // The failure with the lowest (key, rank); none: all ones. Only a failure costs more than this
    // one collective: then every rank's code and message are gathered.
    const std::uint64_t none = ~std::uint64_t{0};
    const auto me = static_cast<std::uint64_t>(t.rank());
    const std::uint64_t mine = code == 0        ? none
                               : key != nullptr ? std::min<std::uint64_t>(*key, (none >> 16) - 1) << 16 | me
                                                : me;
    const std::uint64_t low = t.min_over_ranks(mine);
    if (low == none) return;
    const std::vector<std::string> all =
        t.all_gather(code == 0 ? std::string() : detail::pack_strings({std::to_string(code), text}));
    const auto failed_ranks = std::count_if(all.begin(), all.end(), [](const std::string& b) { return !b.empty(); });
    const auto lowest = static_cast<int>(key != nullptr ? low & 0xFFFF : low);
    const std::vector<std::string> failure = detail::unpack_strings(all.at(static_cast<std::size_t>(lowest)));
    if (failure.size() != 2) throw std::runtime_error(fmt::format("agreed: rank {} sent no failure", lowest));
    code = std::stoi(failure[0]);
    text = failure[1];
    // The rank is named when it matters: not when every rank failed alike (a missing column).
    if (key == nullptr && failed_ranks < n) text = fmt::format("rank {} of {}: {}", lowest, n, text);
  } else if (code == 0) {
    return;
  }
  if (code == out_of_memory) throw std::bad_alloc();
  if (code == internal_failure) throw std::runtime_error(text);
  throw error(static_cast<error_kind>(code), text);
}

bool all_ok(transport& t, bool ok) { return t.min_over_ranks(ok ? 1 : 0) == 1; }

}  // namespace assay::scale
