#pragma once
// Rigs the arena makes in code rather than loading from disk: the hero's weapon (one region showing a
// sword painted here) and the debug-lines rig (one bone and one white unit quad per line, see
// debug_lines.hpp). Each is a SkeletonSource built with offline::build_skeleton, which lays out the
// atlas from image sizes alone; the pages are then painted with the pixels made here (raw RGBA8), so
// the example ships no art files of its own.

#include <memory>
#include <string>
#include <vector>

#include "mf/core/color.hpp"
#include "mf/core/expected.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace arena {

// The sword, pointing along its root bone's +X, the middle of its grip at the bone's origin.
inline constexpr float kWeaponTip = 55;  // the tip's X in the weapon's skeleton space
mf::Expected<std::shared_ptr<mf::skel::SkeletonData>> make_weapon_rig();

// Lines in groups that share a colour: `count` lines each, slots in group order (later groups are
// drawn over earlier ones). Bone i + 1 carries line i (bone 0 is the root).
struct LineGroup {
  std::string name;
  mf::Rgba8 color;
  int count = 0;
};
mf::Expected<std::shared_ptr<mf::skel::SkeletonData>> make_lines_rig(const std::vector<LineGroup>& groups);

}  // namespace arena
