#pragma once
// Running a command-line tool from a test as a user would: through the shell, with stdout and stderr
// captured together and the exit code kept.

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace mf::testing {

struct CommandResult {
  int exit_code = -1;  // −1 when the command could not run or did not exit normally
  std::string output;  // stdout and stderr together
};

// Single-quotes a word for the shell (paths in tests hold no single quotes).
inline std::string shell_quote(const std::string& s) { return "'" + s + "'"; }

// Runs `command` with `sh -c`, stderr joined to stdout.
inline CommandResult run_shell(const std::string& command) {
  CommandResult r;
  const std::string joined = command + " 2>&1";
  std::FILE* pipe = ::popen(joined.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace mf::testing
