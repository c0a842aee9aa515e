#pragma once
// The rig's modes: the enumerations that the source model (mf::offline) and the runtime data
// (mf::skel) share, so a value read from a file is the value the runtime plays. Names and meanings
// follow Spine's user guide; the source formats write them by these names (docs/formats.md).

#include <cstdint>

namespace mf::skel {

// How a bone takes its parent's world transform.
enum class Inherit : std::uint8_t { Normal, OnlyTranslation, NoRotationOrReflection, NoScale, NoScaleOrReflection };
// How a slot's pixels combine with what is under them (premultiplied).
enum class BlendMode : std::uint8_t { Normal, Additive, Multiply, Screen };
// How atlas pages are sampled.
enum class TextureFilter : std::uint8_t { Linear, Nearest };

// Path constraints: how position and spacing are measured, and how bones turn along the path.
enum class PositionMode : std::uint8_t { Fixed, Percent };
enum class SpacingMode : std::uint8_t { Length, Fixed, Percent, Proportional };
enum class RotateMode : std::uint8_t { Tangent, Chain, ChainScale };

// Image sequences: how a sequence key steps through its frames.
enum class SequenceMode : std::uint8_t { Hold, Once, Loop, PingPong, OnceReverse, LoopReverse, PingPongReverse };
// How a clip's timelines repeat past their last key.
enum class LoopMode : std::uint8_t { None, Linear, PingPong };

}  // namespace mf::skel
