// assay (internal): asks the kernel to back a large buffer with transparent huge pages before it is
// first written. A fresh 80 MB buffer otherwise costs ~20,000 page faults of 4 KiB (about a tenth of
// `assay curve roc` on 10^7 rows); with 2 MiB pages, ~40. Linux only, and only where THP is enabled
// ("madvise" or "always"); elsewhere, or if the kernel says no, nothing changes.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace assay::detail {

/// Advises MADV_HUGEPAGE on the whole 2 MiB pages inside [p, p + bytes); a no-op below 4 MiB.
inline void advise_huge_pages(const void* p, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  if (p == nullptr || bytes < 2 * kHuge) return;
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

}  // namespace assay::detail
