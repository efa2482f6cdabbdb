// assay: the one error type of the library, and the process exit codes the CLI maps it to.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace assay {

/// What went wrong, which decides the CLI's exit code (documented in docs/cli.md).
enum class error_kind {
  usage = 2,  ///< a bad or conflicting argument (an option, a column name that does not exist)
  data = 3,   ///< the input was read but its content breaks a rule (unparsable number, NaN, ragged row)
  io = 4,     ///< a file could not be opened, read or written
};

/// A parameter named inside an error message, in the library's own terms (the field or argument
/// name, e.g. `pos_label`). `what()` shows the name as is; a front end that calls the parameter
/// something else renders the message with its own names (error::render; the CLI shows
/// `--pos-label`). Names are lower-case letters, digits and '_'.
inline std::string param(std::string_view name) {
  std::string s;
  s.reserve(name.size() + 2);
  s += '\x1e';
  s += name;
  s += '\x1f';
  return s;
}

/// The function a message comes from, as its prefix ("make_report: "): shown by `what()`, left out
/// by front ends that put their own command name first (error::render with drop_functions).
inline std::string in_function(std::string_view name) {
  std::string s;
  s.reserve(name.size() + 4);
  s += '\x1c';
  s += name;
  s += ": ";
  s += '\x1d';
  return s;
}

/// The exception thrown by every assay function. `what()` is a complete sentence for a person:
/// it names the argument (file:line, column or parameter), the rule and the offending value,
/// e.g. `preds.csv:18: column 'score': cannot parse "0.7.1" as a number`, or
/// `evaluate: threshold is nan; it must be a finite number`. Parameters are named in the library's
/// terms; the CLI renders them as its options (render) and prefixes the command name.
class error : public std::runtime_error {
 public:
  /// `message` may hold param(...) and in_function(...) marks.
  error(error_kind kind, const std::string& message)
      : std::runtime_error(render_marked(message, {}, false)), marked_(message), kind_(kind) {}
  [[nodiscard]] error_kind kind() const noexcept { return kind_; }
  [[nodiscard]] int exit_code() const noexcept { return static_cast<int>(kind_); }
  /// The message with its marks, for wrapping it in a longer one that keeps them
  /// (`throw error(e.kind(), "split 3: " + e.marked())`).
  [[nodiscard]] const std::string& marked() const noexcept { return marked_; }
  /// The message with every parameter name replaced by `name_of(name)` (the CLI: "--pos-label"),
  /// and without the function prefixes when `drop_functions`.
  [[nodiscard]] std::string render(const std::function<std::string(std::string_view)>& name_of,
                                   bool drop_functions = true) const {
    return render_marked(marked_, name_of, drop_functions);
  }

  /// The text of a marked message (see render).
  static std::string render_marked(std::string_view marked, const std::function<std::string(std::string_view)>& name_of,
                                   bool drop_functions) {
    std::string out;
    out.reserve(marked.size());
    auto is_name = [](std::string_view s) {
      if (s.empty()) return false;
      for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
      return true;
    };
    for (std::size_t i = 0; i < marked.size();) {
      const char c = marked[i];
      if (c == '\x1e' || c == '\x1c') {
        const char close = c == '\x1e' ? '\x1f' : '\x1d';
        const std::size_t end = marked.find(close, i + 1);
        if (end != std::string_view::npos) {
          const std::string_view inner = marked.substr(i + 1, end - i - 1);
          if (c == '\x1e' && is_name(inner)) {
            out += name_of ? name_of(inner) : std::string(inner);
            i = end + 1;
            continue;
          }
          if (c == '\x1c' && inner.size() > 2 && is_name(inner.substr(0, inner.size() - 2))) {
            if (!drop_functions) out += inner;
            i = end + 1;
            continue;
          }
        }
      }
      out += c;  // not a mark (e.g. a control byte in the data): kept as is
      ++i;
    }
    return out;
  }

 private:
  std::string marked_;
  error_kind kind_;
};

/// Shorthands used across the library.
[[noreturn]] inline void throw_usage(const std::string& m) { throw error(error_kind::usage, m); }
[[noreturn]] inline void throw_data(const std::string& m) { throw error(error_kind::data, m); }
[[noreturn]] inline void throw_io(const std::string& m) { throw error(error_kind::io, m); }

}  // namespace assay
