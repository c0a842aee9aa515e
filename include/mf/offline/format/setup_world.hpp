#pragma once
// Setup-pose world transforms of a rig's bones, as far as they can be known from the source alone
// (no constraints applied): a bone that inherits anything but Normal, or whose ancestor does, has
// none. Tools that place art on bones (imports, auto weights, the checks) share this one rule.

#include <optional>
#include <vector>

#include "mf/core/math/affine2.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::offline {

// One entry per bone, in SkeletonSource::bones order.
std::vector<std::optional<Affine2d>> setup_world_transforms(const SkeletonSource& skeleton);

}  // namespace mf::offline
