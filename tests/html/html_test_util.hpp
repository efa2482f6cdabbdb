// Helpers shared by the tests of the HTML report (tests/html).
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace assay::html::test {

namespace fs = std::filesystem;

inline std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline void write_file(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
  ASSERT_TRUE(f.good()) << "cannot write test file " << p;
}

/// A fresh directory under the system temp dir, removed when the object goes away.
class temp_dir {
 public:
  temp_dir() {
    std::string t = (fs::temp_directory_path() / "assay-html-XXXXXX").string();
    if (!mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
    path_ = t;
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

/// Single-quotes for /bin/sh.
inline std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// Runs a /bin/sh command line with stdout and stderr sent to files; returns the exit status
/// (or -1 when the command did not exit normally).
inline int run_shell(const std::string& command, const fs::path& out, const fs::path& err) {
  const std::string full = command + " >" + sh_quote(out.string()) + " 2>" + sh_quote(err.string());
  const int status = std::system(full.c_str());
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

inline std::string source_path(const std::string& rel) { return std::string(ASSAY_SOURCE_DIR) + "/" + rel; }

/// Number of (non-overlapping) occurrences of `needle` in `hay`.
inline std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + needle.size())) ++n;
  return n;
}

}  // namespace assay::html::test
