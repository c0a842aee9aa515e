#pragma once
// A synthetic rig (synthetic_rig.hpp) written to disk as an ordinary rig folder, so that anything that
// takes a .mskel (mfe skel bench, mfe skel render, the loading API) can use it.

#include <filesystem>
#include <string>

#include "synthetic_rig.hpp"

namespace mf::testing {

// Writes <dir>/<name>.mskel, <dir>/<name>.clips/<clip>.manim and one PNG of image_edge × image_edge
// pixels under <dir>/images/ for every image the rig's attachments use: smooth gradients under an
// opaque ellipse with transparent corners, art that compresses and trims like drawn art. Missing UIDs
// are filled in. Returns the .mskel's path; throws std::runtime_error naming what failed.
std::string write_synthetic_rig(SyntheticRig rig, const std::filesystem::path& dir, const std::string& name,
                                int image_edge);

}  // namespace mf::testing
