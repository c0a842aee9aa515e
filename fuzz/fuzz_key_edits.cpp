// Fuzzes the reader of `mfe skel key --keys` files and the edits they make: whatever the reader
// accepts is applied to a small clip of a small skeleton, and edits that apply must leave a clip that
// the .manim reader accepts against that skeleton and that survives the canonical round trip.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/clip_key_edit.hpp"
#include "mf/offline/format/clip_key_reader.hpp"

namespace {

using namespace mf::offline;

// Names match the seed corpus: bones root/hips/arm, slots body/arm, skin "default" with regions
// "body" and "arm", constraints leg_ik (ik), follow (transform), along (path), hair (physics), events
// footstep and land.
SkeletonSource make_skeleton() {
  SkeletonSource s;
  s.uid = "skl_0123456789ab";
  s.bones = {Bone{.name = "root"}, Bone{.name = "hips", .parent = 0}, Bone{.name = "arm", .parent = 1}};
  s.slots = {Slot{.name = "body", .bone = 1}, Slot{.name = "arm", .bone = 2}};
  Skin skin;
  skin.name = "default";
  skin.attachments.push_back(Attachment{0, "body", RegionAttachment{}});
  skin.attachments.push_back(Attachment{1, "arm", RegionAttachment{}});
  s.skins.push_back(skin);
  s.ik.push_back(IkConstraint{.name = "leg_ik", .order = 0, .bones = {1, 2}, .target = 0});
  s.transform.push_back(TransformConstraint{.name = "follow", .order = 1, .bones = {2}, .target = 1});
  s.path.push_back(PathConstraint{.name = "along", .order = 2, .bones = {2}, .target = 1});
  s.physics.push_back(PhysicsConstraint{.name = "hair", .order = 3, .bone = 2});
  s.events = {EventDef{.name = "footstep"}, EventDef{.name = "land"}};
  return s;
}

ClipSource make_clip() {
  ClipSource c;
  c.uid = "anm_0123456789ab";
  c.skeleton_uid = "skl_0123456789ab";
  c.length = 2;
  CurveTimeline rotate;
  rotate.kind = CurveKind::Rotate;
  rotate.target = "arm";
  rotate.times = {0, 1, 2};
  rotate.values = {0, 30, 0};
  rotate.curves = {Curve::bezier(0.25f, 0, 0.75f, 1), Curve::stepped()};
  c.curves.push_back(rotate);
  c.events.times = {0.5f};
  c.events.keys = {EventKeySource{.name = "footstep"}};
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const SkeletonSource skeleton = make_skeleton();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto items = read_key_edits(text, "fuzz.json");
  if (!items.ok()) return 0;
  std::vector<KeyEdit> edits;
  for (const KeyEditSource& item : *items) edits.push_back(item.edit);
  ClipSource clip = make_clip();
  const std::vector<KeyEditResult> results = apply_key_edits(clip, edits, &skeleton);
  if (results.size() != edits.size() || (!results.empty() && results.back().failure)) return 0;
  const std::string canonical = write_clip(clip);
  auto again = read_clip(canonical, "edited.manim", &skeleton);
  if (!again.ok() || write_clip(*again) != canonical) std::abort();
  return 0;
}
