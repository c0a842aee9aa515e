#pragma once
// The compiled animation graph as bytes: a versioned, little-endian binary that the runtime loads with
// the standard library alone (`mfe skel cook` ships it as <name>.mgbuild). Written by
// mf::offline::write_graph_binary; docs/format-mgraph.md has the byte layout.
//
// Layout: "MFGR", u32 version, then the AnimationGraph's fields in declaration order, field by field:
// strings as u32 byte count + UTF-8 bytes, floats as IEEE-754 binary32, bools and enums as u8, arrays
// as u32 count + records. Nothing may follow the last array.

#include <cstdint>
#include <span>
#include <string>

#include "mf/anim/animation_graph.hpp"
#include "mf/core/expected.hpp"

namespace mf::anim {

inline constexpr std::uint32_t kGraphBinaryVersion = 1;
inline constexpr char kGraphBinaryMagic[4] = {'M', 'F', 'G', 'R'};

// Loads and validates (AnimationGraph::validate); a wrong magic or version, a bad size or a truncated
// file is an error naming `file` and the byte offset, never a crash. Every count is checked against
// the bytes left before anything is allocated for it.
Expected<AnimationGraph> load_graph_binary(std::span<const std::uint8_t> bytes, const std::string& file);

}  // namespace mf::anim
