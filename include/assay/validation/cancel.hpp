// assay: cooperative cancellation of long validation runs (Ctrl-C in the CLI). The engine checks
// the flag before each split and external commands are killed when it is set; the run then throws
// `interrupted` after every temporary file has been removed.
#pragma once

#include "assay/error.hpp"

namespace assay::validation {

/// Thrown when a run stops because cancellation was requested.
class interrupted : public error {
 public:
  interrupted() : error(error_kind::usage, "interrupted") {}
};

/// Sets the flag; async-signal-safe (a lock-free atomic store), callable from a signal handler.
void request_cancel() noexcept;
[[nodiscard]] bool cancel_requested() noexcept;
void reset_cancel() noexcept;

}  // namespace assay::validation
