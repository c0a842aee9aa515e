#include "findings_print.hpp"

#include <cstdio>
#include <string>

namespace mf::tools {

namespace {

std::string count(std::size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

}  // namespace

int print_findings(const std::vector<offline::Finding>& findings) {
  std::size_t errors = 0, warnings = 0;
  for (const offline::Finding& f : findings) {
    const bool error = f.severity == offline::Severity::Error;
    (error ? errors : warnings) += 1;
    std::printf("%s: %s\n", error ? "error" : "warning", f.error.to_string().c_str());
  }
  std::printf("%s, %s\n", count(errors, "error").c_str(), count(warnings, "warning").c_str());
  return errors > 0 ? 1 : 0;
}

}  // namespace mf::tools
