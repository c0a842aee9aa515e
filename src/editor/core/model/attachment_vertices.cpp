#include "mf/editor/core/model/attachment_vertices.hpp"

#include <type_traits>
#include <variant>

namespace mf::editor {

using namespace offline;

namespace {
template <class D, class V>
V* vertices_in(D& data) {
  return std::visit(
      [](auto& a) -> V* {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, MeshAttachment> || std::is_same_v<T, BoundingBoxAttachment> ||
                      std::is_same_v<T, ClippingAttachment> || std::is_same_v<T, PathAttachment>)
          return &a.vertices;
        else
          return nullptr;
      },
      data);
}
}  // namespace

const Vertices* vertices_of(const AttachmentData& data) { return vertices_in<const AttachmentData, const Vertices>(data); }
Vertices* vertices_of(AttachmentData& data) { return vertices_in<AttachmentData, Vertices>(data); }

bool weights_use_bone(const Vertices& v, int bone) {
  for (const std::vector<InfluenceSource>& influences : v.weights)
    for (const InfluenceSource& i : influences)
      if (i.bone == bone) return true;
  return false;
}

}  // namespace mf::editor
