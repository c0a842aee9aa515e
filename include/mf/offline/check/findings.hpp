#pragma once
// What the checks report (`mfe skel check` on a rig, `mfe skel graph check` on a graph): findings,
// each an error (the data is broken) or a warning (it works but probably not as meant), with the
// file, JSON path and position where it was found.

#include <cstdint>
#include <vector>

#include "mf/core/error.hpp"

namespace mf::offline {

enum class Severity : std::uint8_t { Warning, Error };

struct Finding {
  Severity severity = Severity::Error;
  Error error;  // file, JSON path, position where known, message
};

// Whether any finding is an error.
bool has_errors(const std::vector<Finding>& findings);

}  // namespace mf::offline
