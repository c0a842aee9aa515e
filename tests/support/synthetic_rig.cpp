#include "synthetic_rig.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace mf::testing {
namespace {

using namespace mf::offline;

constexpr int kBones = 40;
constexpr int kMeshes = 10;
constexpr int kMeshRows = 20;  // 20 × 4 = 80 vertices per mesh
constexpr int kRegions = 20;

Curve ease() { return Curve::bezier(0.25f, 0.1f, 0.25f, 1); }

CurveTimeline curve_timeline(CurveKind kind, const std::string& target, std::vector<float> times,
                             std::vector<float> values) {
  CurveTimeline t;
  t.kind = kind;
  t.target = target;
  t.times = std::move(times);
  t.values = std::move(values);
  const std::size_t segments = t.times.size() - 1;
  t.curves.assign(segments * static_cast<std::size_t>(layout(kind).curved), ease());
  return t;
}

// A strip mesh along a bone chain: rows of 4 vertices, each weighted to the two or three nearest
// bones of the chain (plus the chain's parent for the first rows, giving 2–4 influences).
MeshAttachment strip_mesh(int first_bone, int chain_length, const std::string& image) {
  MeshAttachment mesh;
  mesh.image = image;
  const int vertices = kMeshRows * 4;
  for (int row = 0; row < kMeshRows; ++row) {
    for (int col = 0; col < 4; ++col) {
      const float along = static_cast<float>(row) / (kMeshRows - 1);  // 0..1 along the chain
      const float across = static_cast<float>(col) / 3;
      mesh.uvs.push_back(across);
      mesh.uvs.push_back(along);
      const float chain_pos = along * static_cast<float>(chain_length - 1);
      const int near = static_cast<int>(std::floor(chain_pos));
      const float frac = chain_pos - static_cast<float>(near);
      std::vector<InfluenceSource> influences;
      const int count = 2 + (row + col) % 3;  // 2, 3 or 4 influences
      float total = 0;
      for (int k = 0; k < count; ++k) {
        const int bone = first_bone + std::min(chain_length - 1, std::max(0, near - 1 + k));
        const float weight = 1.0f / (1.0f + std::fabs(static_cast<float>(near - 1 + k) - chain_pos)) + 0.05f * frac;
        bool merged = false;
        for (InfluenceSource& inf : influences) {
          if (inf.bone == bone) {
            inf.weight += weight;
            merged = true;
          }
        }
        if (!merged) influences.push_back({bone, weight, (across - 0.5f) * 30, 4 + 6 * frac});
        total += weight;
      }
      for (InfluenceSource& inf : influences) inf.weight /= total;
      // Renormalise in float so the weights sum to 1 as tightly as the check demands.
      float sum = 0;
      for (std::size_t k = 0; k + 1 < influences.size(); ++k) sum += influences[k].weight;
      influences.back().weight = 1 - sum;
      mesh.vertices.weights.push_back(std::move(influences));
    }
  }
  for (int row = 0; row + 1 < kMeshRows; ++row) {
    for (int col = 0; col < 3; ++col) {
      const int i = row * 4 + col;
      mesh.triangles.insert(mesh.triangles.end(), {i, i + 1, i + 5, i + 5, i + 4, i});
    }
  }
  mesh.hull = 4;
  (void)vertices;
  return mesh;
}

SkeletonSource mid_skeleton() {
  SkeletonSource s;
  s.uid = "skl_00000000bead";
  s.bones.push_back(Bone{.name = "root"});
  // Five chains of eight bones under the root, fanned out.
  for (int chain = 0; chain < 5; ++chain) {
    for (int k = 0; k < 8; ++k) {
      Bone b;
      b.name = "c" + std::to_string(chain) + "_" + std::to_string(k);
      b.parent = k == 0 ? 0 : static_cast<int>(s.bones.size()) - 1;
      b.x = k == 0 ? 0 : 20;
      b.rotation = k == 0 ? -90.0f + 45.0f * static_cast<float>(chain) : 5;
      b.length = 20;
      s.bones.push_back(b);
      if (static_cast<int>(s.bones.size()) == kBones) break;
    }
  }
  while (static_cast<int>(s.bones.size()) < kBones)
    s.bones.push_back(Bone{.name = "extra" + std::to_string(s.bones.size()), .parent = 0});

  Skin skin;
  skin.name = "default";
  for (int m = 0; m < kMeshes; ++m) {
    const int chain = m % 5;
    const int first = 1 + chain * 8 + (m / 5) * 3;
    Slot slot{.name = "mesh" + std::to_string(m), .bone = first, .attachment = "mesh" + std::to_string(m)};
    s.slots.push_back(slot);
    skin.attachments.push_back(
        Attachment{static_cast<int>(s.slots.size()) - 1, slot.attachment, strip_mesh(first, 4, "mesh")});
  }
  for (int r = 0; r < kRegions; ++r) {
    const int bone = 1 + (r * 2) % (kBones - 1);
    Slot slot{.name = "region" + std::to_string(r), .bone = bone, .attachment = "region" + std::to_string(r)};
    s.slots.push_back(slot);
    RegionAttachment region;
    region.image = "part";
    region.x = 10;
    region.rotation = 15.0f * static_cast<float>(r % 4);
    skin.attachments.push_back(Attachment{static_cast<int>(s.slots.size()) - 1, slot.attachment, region});
  }
  s.skins.push_back(std::move(skin));
  s.events.push_back(EventDef{.name = "step", .int_value = 1});
  return s;
}

ClipSource mid_clip(const SkeletonSource& s) {
  ClipSource clip;
  clip.uid = "anm_00000000bead";
  clip.skeleton_uid = s.uid;
  clip.length = 2;
  for (std::size_t b = 0; b < s.bones.size(); ++b) {
    const float phase = static_cast<float>(b) * 0.3f;
    clip.curves.push_back(curve_timeline(CurveKind::Rotate, s.bones[b].name, {0, 0.5f, 1, 1.5f, 2},
                                         {0, 20 * std::sin(phase), -15, 10 * std::cos(phase), 0}));
    if (b % 4 == 0)
      clip.curves.push_back(curve_timeline(CurveKind::Translate, s.bones[b].name, {0, 1, 2}, {0, 0, 3, -2, 0, 0}));
    if (b % 8 == 0)
      clip.curves.push_back(curve_timeline(CurveKind::Scale, s.bones[b].name, {0, 1, 2}, {1, 1, 1.1f, 0.9f, 1, 1}));
  }
  for (int k = 0; k < 5; ++k) {
    const std::string slot = "region" + std::to_string(k);
    clip.curves.push_back(curve_timeline(CurveKind::Rgba, slot, {0, 1, 2}, {1, 1, 1, 1, 1, 0.5f, 0.5f, 0.8f, 1, 1, 1, 1}));
  }
  for (int m = 0; m < 2; ++m) {
    DeformTimeline d;
    d.skin = "default";
    d.slot = "mesh" + std::to_string(m);
    d.attachment = d.slot;
    d.times = {0, 1, 2};
    d.keys = {{0, {}}, {8, {2, -2, 2, -2, 3, 3}}, {0, {}}};
    d.curves.assign(2, Curve::linear());
    clip.deforms.push_back(d);
  }
  clip.events.times = {0.5f, 1.5f};
  clip.events.keys = {EventKeySource{.name = "step"}, EventKeySource{.name = "step", .int_value = 2}};
  sort_timelines(clip);
  return clip;
}

// Two two-bone IK chains, a transform constraint, a path constraint along an open path on the root,
// and two physics constraints, all on existing bones (the rig keeps its 40 bones).
void add_constraints(SkeletonSource& s, int first_order) {
  int order = first_order;
  auto bone = [&](const char* name) { return s.find_bone(name); };
  s.ik.push_back(IkConstraint{.name = "reach0", .order = order++, .bones = {bone("c0_1"), bone("c0_2")}, .target = bone("c1_7")});
  s.ik.push_back(IkConstraint{.name = "reach3", .order = order++, .bones = {bone("c3_4"), bone("c3_5")}, .target = bone("c2_3"),
                              .softness = 4, .bend = -1, .stretch = true});
  s.transform.push_back(TransformConstraint{.name = "follow", .order = order++, .bones = {bone("c2_0")}, .target = bone("c3_0"),
                                            .mix_rotate = 0.5f, .mix_x = 0, .mix_y = 0, .mix_scale_x = 0, .mix_scale_y = 0,
                                            .mix_shear_y = 0, .offset_rotation = 20});
  Slot rail{.name = "rail", .bone = 0, .attachment = "rail"};
  s.slots.push_back(rail);
  PathAttachment path;
  // Three knots (in, point, out each) making an open S curve of two segments.
  path.vertices.positions = {-60, 40, -40, 0, -20, -40, 20, -60, 40, -60, 60, -60, 80, -40, 100, 0, 120, 40};
  path.lengths = {130, 260};
  s.skins[0].attachments.push_back(Attachment{static_cast<int>(s.slots.size()) - 1, "rail", path});
  s.path.push_back(PathConstraint{.name = "along", .order = order++,
                                  .bones = {bone("c4_3"), bone("c4_4"), bone("c4_5"), bone("c4_6")},
                                  .target = static_cast<int>(s.slots.size()) - 1, .rotate_mode = RotateMode::Chain,
                                  .position = 0.1f});
  for (const char* name : {"c2_6", "c2_7"}) {
    PhysicsConstraint p{.name = std::string("sway_") + name, .order = order++, .bone = bone(name)};
    p.rotate = 1;
    p.inertia = 0.8f;
    s.physics.push_back(p);
  }
}

}  // namespace

SyntheticRig make_constraint_rig() {
  SyntheticRig rig = make_mid_complexity_rig();
  add_constraints(rig.skeleton, 0);
  return rig;
}

SyntheticRig make_mid_complexity_rig() {
  SyntheticRig rig;
  rig.skeleton = mid_skeleton();
  rig.clips.emplace_back("move", mid_clip(rig.skeleton));
  return rig;
}

SyntheticRig make_feature_rig() {
  SyntheticRig rig = make_mid_complexity_rig();
  SkeletonSource& s = rig.skeleton;
  // Two outfit skins that replace some regions.
  for (const char* outfit : {"red", "blue"}) {
    Skin skin;
    skin.name = outfit;
    for (int r = 0; r < 6; ++r) {
      RegionAttachment region;
      region.image = std::string("part_") + outfit;
      region.width = 30;
      region.height = 20;
      skin.attachments.push_back(Attachment{s.find_slot("region" + std::to_string(r)), "region" + std::to_string(r), region});
    }
    s.skins.push_back(std::move(skin));
  }
  // A sequence attachment: frames flame1 … flame4.
  Slot flame{.name = "flame", .bone = 3, .attachment = "flame", .blend = BlendMode::Additive};
  s.slots.push_back(flame);
  RegionAttachment flame_region;
  flame_region.image = "flame";
  flame_region.sequence = Sequence{4, 1, 0, 0};
  s.skins[0].attachments.push_back(Attachment{static_cast<int>(s.slots.size()) - 1, "flame", flame_region});
  // A closed-eye alternative for attachment keys.
  RegionAttachment closed;
  closed.image = "part_closed";
  s.skins[0].attachments.push_back(Attachment{s.find_slot("region7"), "region7_closed", closed});
  // A clipping polygon (concave L) on the root clipping the first three mesh slots.
  Slot clip_slot{.name = "clipper", .bone = 0, .attachment = "clip"};
  s.slots.insert(s.slots.begin(), clip_slot);
  for (Skin& skin : s.skins)
    for (Attachment& a : skin.attachments) ++a.slot;
  ClippingAttachment clipping;
  clipping.vertices.positions = {-200, -200, 200, -200, 200, 0, 0, 0, 0, 200, -200, 200};
  clipping.end_slot = 3;  // clipper, mesh0, mesh1, mesh2
  s.skins[0].attachments.push_back(Attachment{0, "clip", clipping});
  s.events.push_back(EventDef{.name = "flash", .string_value = "bright"});

  add_constraints(s, 0);

  ClipSource alt = rig.clips[0].second;
  alt.uid = "anm_00000000beef";
  SequenceTimeline seq;
  seq.slot = "flame";
  seq.times = {0, 1};
  seq.keys = {{SequenceMode::Loop, 0, 0.1f}, {SequenceMode::PingPong, 1, 0.05f}};
  alt.sequences.push_back(seq);
  AttachmentTimeline eyes;
  eyes.slot = "region7";
  eyes.times = {0, 0.5f, 1.5f};
  eyes.names = {std::string("region7"), std::string("region7_closed"), std::nullopt};
  alt.attachments.push_back(eyes);
  CurveTimeline reach = curve_timeline(CurveKind::Ik, "reach0", {0, 1, 2}, std::vector<float>(15, 0));
  for (int k = 0; k < 3; ++k) {
    reach.values[static_cast<std::size_t>(k) * 5] = k == 1 ? 0.3f : 1.0f;  // mix
    reach.values[static_cast<std::size_t>(k) * 5 + 2] = k == 1 ? -1.0f : 1.0f;  // bend
  }
  reach.channels = 0b00101;
  alt.curves.push_back(reach);
  PhysicsResetTimeline reset;
  reset.constraint = "sway_c2_7";
  reset.times = {1.2f};
  alt.physics_resets.push_back(reset);
  alt.draw_order.times = {0.5f, 1.5f};
  alt.draw_order.keys = {{DrawOrderMove{"flame", -5}}, {}};
  alt.events.times = {0.25f, 0.5f, 1.75f};
  alt.events.keys = {EventKeySource{.name = "flash"}, EventKeySource{.name = "step", .string_value = std::string("loud")},
                     EventKeySource{.name = "step", .float_value = 2.5f}};
  sort_timelines(alt);
  rig.clips.emplace_back("alt", std::move(alt));
  return rig;
}

offline::BuildResult build_synthetic(const SyntheticRig& rig) {
  auto image_size = [](const std::string&) -> std::optional<ImageSize> { return ImageSize{64, 64}; };
  auto built = build_skeleton(rig.skeleton, image_size, "synthetic", "synthetic.mskel");
  if (!built.ok()) throw std::runtime_error(built.error().to_string());
  BuildResult result = std::move(built).value();
  skel::SkeletonData& data = *result.data;
  for (const auto& [name, clip] : rig.clips) {
    auto compiled = compile_clip(clip, rig.skeleton, data, name, name + ".manim");
    if (!compiled.ok()) throw std::runtime_error(compiled.error().to_string());
    auto shared = std::make_shared<skel::ClipData>(std::move(compiled).value());
    shared->cursor_base = data.cursor_count;
    data.cursor_count += static_cast<std::uint32_t>(shared->timelines.size());
    data.clips.push_back({name, shared->length, shared});
  }
  return result;
}

}  // namespace mf::testing
