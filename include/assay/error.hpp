// assay: the one error type of the library, and the process exit codes the CLI maps it to.
#pragma once

#include <stdexcept>
#include <string>

namespace assay {

/// What went wrong, which decides the CLI's exit code (documented in docs/cli.md).
enum class error_kind {
  usage = 2,  ///< a bad or conflicting argument (an option, a column name that does not exist)
  data = 3,   ///< the input was read but its content breaks a rule (unparsable number, NaN, ragged row)
  io = 4,     ///< a file could not be opened, read or written
};

/// The exception thrown by every assay function. `what()` is a complete sentence for a person:
/// it names the argument (file:line, column or parameter), the rule and the offending value,
/// e.g. `preds.csv:18: column 'score': cannot parse "0.7.1" as a number`. The CLI prefixes it
/// with the command name (`assay report: ...`).
class error : public std::runtime_error {
 public:
  error(error_kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  [[nodiscard]] error_kind kind() const noexcept { return kind_; }
  [[nodiscard]] int exit_code() const noexcept { return static_cast<int>(kind_); }

 private:
  error_kind kind_;
};

/// Shorthands used across the library.
[[noreturn]] inline void throw_usage(const std::string& m) { throw error(error_kind::usage, m); }
[[noreturn]] inline void throw_data(const std::string& m) { throw error(error_kind::data, m); }
[[noreturn]] inline void throw_io(const std::string& m) { throw error(error_kind::io, m); }

}  // namespace assay
