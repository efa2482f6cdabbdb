#include "assay/validation/cancel.hpp"

#include <atomic>

namespace assay::validation {

namespace {
std::atomic<bool> flag{false};
static_assert(std::atomic<bool>::is_always_lock_free);
}  // namespace

void request_cancel() noexcept { flag.store(true, std::memory_order_relaxed); }
bool cancel_requested() noexcept { return flag.load(std::memory_order_relaxed); }
void reset_cancel() noexcept { flag.store(false, std::memory_order_relaxed); }

}  // namespace assay::validation
