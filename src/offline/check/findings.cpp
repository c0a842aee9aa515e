#include "mf/offline/check/findings.hpp"

#include <algorithm>

namespace mf::offline {

bool has_errors(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::Error; });
}

}  // namespace mf::offline
