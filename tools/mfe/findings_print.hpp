#pragma once
// How the checking commands (`mfe skel check`, `mfe skel graph check`) print what they found.

#include <vector>

#include "mf/offline/check/findings.hpp"

namespace mf::tools {

// Prints each finding as "error: …" or "warning: …", then "N errors, M warnings". Returns the exit
// code: 1 when there are errors, 0 otherwise (warnings alone pass).
int print_findings(const std::vector<offline::Finding>& findings);

}  // namespace mf::tools
