#pragma once
// The structural checks of `mfe skel check`, beyond what the readers already reject: findings
// (check/findings.hpp) are errors (the rig is broken) or warnings (it works but probably not as
// meant). DESIGN.md's "Check" decision says which is which.

#include <optional>
#include <string>
#include <vector>

#include "mf/offline/check/findings.hpp"
#include "mf/offline/format/rig_files.hpp"

namespace mf::offline {

// Weights of a vertex must sum to 1 within this.
inline constexpr float kWeightSumTolerance = 1e-3f;
// Rotation keys further apart than this (degrees) between neighbours are reported as joint flips.
inline constexpr float kJointFlipDegrees = 180;

struct CheckOptions {
  std::optional<std::string> clip;  // check only this clip; all clips when empty
};

// Runs every check on the rig and its clips. Reader errors of clips become Error findings.
std::vector<Finding> check_rig(const Rig& rig, const CheckOptions& options = {});

}  // namespace mf::offline
