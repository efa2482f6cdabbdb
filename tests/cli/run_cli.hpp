// Test helper: runs the built `assay` binary (ASSAY_CLI_PATH) with an argument vector and optional
// standard input, and captures its standard output, standard error and exit code.
//
// The child is started with posix_spawn and an argv array (no shell, so no quoting problems); its
// stdin, stdout and stderr are temporary files, so a large output can never deadlock on a pipe.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace assay::test {

struct cli_result {
  int exit_code = -1;  ///< the exit status, or 128 + signal number if the child was killed
  std::string out, err;
};

/// The whole content of a file ("" if it cannot be read).
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

/// Creates or replaces a file with exactly `text` (binary: no newline translation).
inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!f) throw std::runtime_error("write_file: cannot write " + p.string());
}

/// A fresh directory under the system temp directory, removed (with its content) on destruction.
class temp_dir {
 public:
  temp_dir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "assay_cli_test_XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("temp_dir: mkdtemp failed");
    path_ = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    // Restore permissions a test may have taken away, so that the directory can be removed.
    for (auto& e : std::filesystem::recursive_directory_iterator(path_, ec)) {
      std::filesystem::permissions(e.path(), std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    }
    std::filesystem::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  /// Writes `text` to a file of that name in the directory and returns its full path.
  [[nodiscard]] std::string file(const std::string& name, const std::string& text) const {
    write_file(path_ / name, text);
    return (path_ / name).string();
  }

 private:
  std::filesystem::path path_;
};

/// Runs `assay args...` in `cwd` (default: the source tree, so that examples/... paths work), with
/// `stdin_text` as standard input (empty input when not given).
inline cli_result run_assay(const std::vector<std::string>& args, const std::string& stdin_text = "",
                            const std::string& cwd = ASSAY_SOURCE_DIR) {
  temp_dir io;
  const std::string in = io.file("stdin", stdin_text);
  const std::string out = (io.path() / "stdout").string(), err = (io.path() / "stderr").string();

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  // posix_spawn has no portable chdir action (glibc >= 2.29 has _np); the child is the binary
  // itself, so change directory around the spawn instead.
  const auto old_cwd = std::filesystem::current_path();
  std::filesystem::current_path(cwd);

  std::vector<std::string> storage;
  storage.reserve(args.size() + 1);
  storage.emplace_back(ASSAY_CLI_PATH);
  for (const auto& a : args) storage.push_back(a);
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);

  pid_t pid = 0;
  const int rc = posix_spawn(&pid, ASSAY_CLI_PATH, &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  std::filesystem::current_path(old_cwd);
  if (rc != 0) throw std::runtime_error(std::string("run_assay: posix_spawn failed for ") + ASSAY_CLI_PATH);

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("run_assay: waitpid failed");
  }
  cli_result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

/// For messages: the command line as a readable string.
inline std::string show_args(const std::vector<std::string>& args) {
  std::string s = "assay";
  for (const auto& a : args) s += " '" + a + "'";
  return s;
}

}  // namespace assay::test
