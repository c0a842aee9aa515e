// Fuzzes the .manim reader, alone and against a small skeleton (so name and draw-order validation
// run too). Whatever the reader accepts must survive the canonical round trip.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mf/offline/format/clip_format.hpp"

namespace {

using namespace mf::offline;

// Names match the seed corpus: bones root/hips/arm, slots body/arm/glow, skin "default" with a
// weighted mesh "body" and a region "arm", constraints leg_ik (ik), follow (transform), along (path),
// hair (physics), event footstep.
SkeletonSource make_skeleton() {
  SkeletonSource s;
  s.uid = "skl_0123456789ab";
  s.bones = {Bone{.name = "root"}, Bone{.name = "hips", .parent = 0}, Bone{.name = "arm", .parent = 1}};
  s.slots = {Slot{.name = "body", .bone = 1}, Slot{.name = "arm", .bone = 2}, Slot{.name = "glow", .bone = 1}};
  MeshAttachment mesh;
  mesh.uvs = {0, 0, 1, 0, 1, 1, 0, 1};
  mesh.triangles = {0, 1, 2, 2, 3, 0};
  mesh.hull = 4;
  mesh.vertices.weights = {{{1, 1, 0, 0}}, {{1, 0.5f, 10, 0}, {2, 0.5f, 5, 0}}, {{2, 1, 10, 10}}, {{1, 1, 0, 10}}};
  Skin skin;
  skin.name = "default";
  skin.attachments.push_back(Attachment{0, "body", mesh});
  skin.attachments.push_back(Attachment{1, "arm", RegionAttachment{}});
  s.skins.push_back(skin);
  s.ik.push_back(IkConstraint{.name = "leg_ik", .order = 0, .bones = {1, 2}, .target = 0});
  s.transform.push_back(TransformConstraint{.name = "follow", .order = 1, .bones = {2}, .target = 1});
  s.path.push_back(PathConstraint{.name = "along", .order = 2, .bones = {2}, .target = 2});
  s.physics.push_back(PhysicsConstraint{.name = "hair", .order = 3, .bone = 2});
  s.events.push_back(EventDef{.name = "footstep"});
  return s;
}

void round_trip(const ClipSource& clip, const SkeletonSource* skeleton) {
  const std::string canonical = write_clip(clip);
  auto again = read_clip(canonical, "canonical.manim", skeleton);
  if (!again.ok() || !(*again == clip) || write_clip(*again) != canonical) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const SkeletonSource skeleton = make_skeleton();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto alone = read_clip(text, "fuzz.manim");
  if (alone.ok()) round_trip(*alone, nullptr);
  auto checked = read_clip(text, "fuzz.manim", &skeleton);
  if (checked.ok()) {
    if (!alone.ok()) std::abort();  // a skeleton only adds checks
    round_trip(*checked, &skeleton);
  }
  return 0;
}
