#include "assay/validation/external.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "assay/error.hpp"
#include "assay/io/csv.hpp"
#include "assay/io/table.hpp"
#include "assay/validation/cancel.hpp"

extern char** environ;

namespace assay::validation {

namespace {

namespace fs = std::filesystem;

// A temporary directory removed when it goes out of scope.
struct temp_dir {
  fs::path path;
  temp_dir() {
    std::string tmpl = (fs::temp_directory_path() / "assay-external-XXXXXX").string();
    if (!mkdtemp(tmpl.data()))
      throw_io(fmt::format("learner external: cannot create a temporary directory in {}", tmpl));
    path = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
};

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

void write_matrix(const fs::path& p, const matrix& x, const std::vector<std::int32_t>* yc,
                  const std::vector<double>* yv) {
  std::string out;
  auto put = std::back_inserter(out);
  for (std::size_t j = 0; j < x.cols; ++j) fmt::format_to(put, "{}x{}", j ? "," : "", j);
  if (yc || yv) out += x.cols ? ",y" : "y";
  out += '\n';
  for (std::size_t i = 0; i < x.rows; ++i) {
    for (std::size_t j = 0; j < x.cols; ++j) fmt::format_to(put, "{}{}", j ? "," : "", x(i, j));
    if (yc) fmt::format_to(put, "{}{}", x.cols ? "," : "", (*yc)[i]);
    if (yv) fmt::format_to(put, "{}{}", x.cols ? "," : "", (*yv)[i]);
    out += '\n';
  }
  std::ofstream f(p, std::ios::binary);
  f.write(out.data(), static_cast<std::streamsize>(out.size()));
  if (!f) throw_io(fmt::format("learner external: cannot write {}", p.string()));
}

std::string tail_of(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  if (s.size() > 600) s = "..." + s.substr(s.size() - 600);
  return s.empty() ? std::string() : "; its standard error ends: " + s;
}

// Runs `cmd` with /bin/sh in its own process group, stdout and stderr to `log`. Returns the wait
// status, or throws on timeout.
int run(const std::string& cmd, const fs::path& log, double timeout, const std::string& shown) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::string sh = "/bin/sh", c = "-c";
  std::string body = cmd;
  char* argv[] = {sh.data(), c.data(), body.data(), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, "/bin/sh", &fa, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw_io(fmt::format("learner external: cannot start /bin/sh: {}", std::strerror(rc)));
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  auto pause = std::chrono::milliseconds(1);
  while (true) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) return status;
    if (w < 0 && errno != EINTR) throw_io(fmt::format("learner external: waitpid failed: {}", std::strerror(errno)));
    if (cancel_requested()) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      throw interrupted();
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      throw_data(fmt::format("learner external: command {} did not finish within the timeout of {} s (killed)", shown,
                             timeout));
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}

}  // namespace

external_learner::fitted external_learner::fit(const training_set& t) const {
  if (command.empty()) throw_usage("learner external: empty command");
  if (!(timeout_seconds > 0))
    throw_usage(fmt::format("learner external: timeout must be > 0, got {}", timeout_seconds));
  fitted f;
  f.command = command;
  f.timeout_seconds = timeout_seconds;
  f.classes = t.classes;
  f.x = t.x;
  f.y_class.assign(t.y_class.begin(), t.y_class.end());
  f.y_value.assign(t.y_value.begin(), t.y_value.end());
  return f;
}

predictions external_learner::fitted::predict(const matrix& test) const {
  temp_dir dir;
  const fs::path train_p = dir.path / "train.csv", test_p = dir.path / "test.csv",
                 pred_p = dir.path / "predictions.csv", log_p = dir.path / "stderr.txt";
  write_matrix(train_p, x, classes ? &y_class : nullptr, classes ? nullptr : &y_value);
  write_matrix(test_p, test, nullptr, nullptr);
  std::string cmd = replace_all(command, "{train}", quote(train_p.string()));
  cmd = replace_all(cmd, "{test}", quote(test_p.string()));
  cmd = replace_all(cmd, "{predictions}", quote(pred_p.string()));
  cmd = replace_all(cmd, "{classes}", std::to_string(classes));
  const std::string shown = "'" + command + "'";
  const int status = run(cmd, log_p, timeout_seconds, shown);
  if (WIFSIGNALED(status)) {
    throw_data(
        fmt::format("learner external: command {} was killed by signal {}{}", shown, WTERMSIG(status), tail_of(log_p)));
  }
  if (WEXITSTATUS(status) != 0) {
    throw_data(fmt::format("learner external: command {} failed with exit status {}{}", shown, WEXITSTATUS(status),
                           tail_of(log_p)));
  }
  if (!fs::exists(pred_p)) {
    throw_data(fmt::format("learner external: command {} exited 0 but wrote no {{predictions}} file{}", shown,
                           tail_of(log_p)));
  }
  io::csv_reader reader(pred_p.string());
  const auto& h = reader.header();
  std::size_t pred_col = h.size();
  std::vector<std::size_t> proba_col(classes, h.size());
  for (std::size_t j = 0; j < h.size(); ++j) {
    if (h[j] == "pred") pred_col = j;
    for (std::size_t k = 0; k < classes; ++k)
      if (h[j] == fmt::format("p{}", k)) proba_col[k] = j;
  }
  if (pred_col == h.size())
    throw_data(fmt::format("learner external: command {}: the predictions have no column 'pred'", shown));
  bool has_proba = false;
  for (auto c : proba_col) has_proba = has_proba || c < h.size();
  predictions p;
  std::vector<std::string_view> fields;
  std::size_t row = 0;
  while (reader.next(fields)) {
    if (row >= test.rows) {
      throw_data(fmt::format("learner external: command {} wrote more than the {} prediction rows expected", shown,
                             test.rows));
    }
    double v;
    if (!io::parse_double(fields[pred_col], v) || !std::isfinite(v)) {
      throw_data(fmt::format("learner external: predictions line {}: 'pred' = \"{}\" is not a number", reader.line(),
                             fields[pred_col]));
    }
    if (classes) {
      if (v != std::floor(v) || v < 0 || v >= static_cast<double>(classes)) {
        throw_data(fmt::format("learner external: predictions line {}: 'pred' = \"{}\" is not a class index in [0, {})",
                               reader.line(), fields[pred_col], classes));
      }
      p.cls.push_back(static_cast<std::int32_t>(v));
      if (has_proba) {
        for (std::size_t k = 0; k < classes; ++k) {
          double q = 0;
          if (proba_col[k] < h.size() && (!io::parse_double(fields[proba_col[k]], q) || !(q >= 0 && q <= 1))) {
            throw_data(fmt::format("learner external: predictions line {}: p{} = \"{}\" is not a probability",
                                   reader.line(), k, fields[proba_col[k]]));
          }
          p.proba.push_back(q);
        }
      }
    } else {
      p.value.push_back(v);
    }
    ++row;
  }
  if (row != test.rows) {
    throw_data(
        fmt::format("learner external: command {} wrote {} prediction rows for {} test rows", shown, row, test.rows));
  }
  return p;
}

any_learner make_external_learner(const std::string& command, double timeout_seconds) {
  return any_learner("external", external_learner{command, timeout_seconds});
}

}  // namespace assay::validation
