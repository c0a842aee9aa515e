#pragma once
// Draw-order keys between their two forms: the moves a clip stores (slots moved relative to the setup
// order, docs/format-manim.md) and the whole order they give. When the setup order changes, the
// editor turns every key into its whole order, edits that, and writes it back as moves against the
// new setup order, so each key keeps showing the slots in the order it showed them.

#include <string>
#include <vector>

#include "mf/offline/format/clip_model.hpp"

namespace mf::editor {

// The draw order (slot names, back to front) that `moves` give over `setup` (slot names in setup
// order): each moved slot at setup index i goes to place i + offset, the others fill the remaining
// places in setup order. Moves naming unknown slots or places outside the order are skipped.
std::vector<std::string> draw_order_of(const std::vector<std::string>& setup,
                                       const std::vector<offline::DrawOrderMove>& moves);

// The fewest moves that give `order` over `setup` (both the same names): the slots of a longest run
// that is in setup order stay, the others are listed, in order of their places.
std::vector<offline::DrawOrderMove> moves_for(const std::vector<std::string>& setup,
                                              const std::vector<std::string>& order);

}  // namespace mf::editor
