#pragma once
// Handles to what a renderer holds (SkeletonRenderer, ForwardRenderer): a slot of the renderer's
// tables and the slot's generation. A handle is valid from its add until its remove; removing bumps
// the slot's generation and a later add reuses the slot, so a removed handle never names the later
// entry: every call given one fails with an error saying it is stale. Default-constructed handles
// name nothing.

#include <cstdint>

namespace mf::render {

struct DataHandle {
  std::int32_t index = -1;
  std::uint32_t generation = 0;
  friend bool operator==(const DataHandle&, const DataHandle&) = default;
};
struct InstanceHandle {
  std::int32_t index = -1;
  std::uint32_t generation = 0;
  friend bool operator==(const InstanceHandle&, const InstanceHandle&) = default;
};
// ForwardRenderer's meshes (vertex and index buffers) and materials (textures and parameters).
struct MeshHandle {
  std::int32_t index = -1;
  std::uint32_t generation = 0;
  friend bool operator==(const MeshHandle&, const MeshHandle&) = default;
};
struct MaterialHandle {
  std::int32_t index = -1;
  std::uint32_t generation = 0;
  friend bool operator==(const MaterialHandle&, const MaterialHandle&) = default;
};

}  // namespace mf::render
