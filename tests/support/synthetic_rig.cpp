#include "synthetic_rig.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "mf/core/math/angle.hpp"
#include "rig_builder.hpp"

namespace mf::testing {
namespace {

using namespace mf::offline;

constexpr int kBones = 40;
constexpr int kMeshes = 10;
constexpr int kMeshRows = 20;  // 20 × 4 = 80 vertices per mesh
constexpr int kRegions = 20;

Curve ease() { return Curve::bezier(0.25f, 0.1f, 0.25f, 1); }

ClipSource empty_clip(const SkeletonSource& s, const std::string& uid, float length) {
  ClipSource clip;
  clip.uid = uid;
  clip.skeleton_uid = s.uid;
  clip.length = length;
  return clip;
}

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
  ClipSource clip = empty_clip(s, "anm_00000000bead", 2);
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


// ---- rigs of the shapes of Spine's "raptor" and "celestial-circus" examples --------------------------
// Counts from docs/performance.md's peer figures; everything else is made up here.

constexpr float kTau = 6.2831853f;

// A timeline of evenly spaced keys over `length` that ends where it starts: `keys` holds every key's
// values but the last one's (the kind's components per key); the last key repeats the first.
CurveTimeline looping(CurveKind kind, const std::string& target, float length, std::vector<float> keys) {
  const auto components = static_cast<std::size_t>(layout(kind).components);
  const std::size_t n = keys.size() / components;
  std::vector<float> times;
  for (std::size_t k = 0; k <= n; ++k) times.push_back(length * static_cast<float>(k) / static_cast<float>(n));
  for (std::size_t c = 0; c < components; ++c) keys.push_back(keys[c]);
  return curve_timeline(kind, target, std::move(times), std::move(keys));
}

// Rotation keys of a sine wave: `cycles` periods over the clip, four keys per period.
CurveTimeline rotate_wave(const std::string& bone, float length, float amplitude, float phase, int cycles = 1) {
  std::vector<float> keys;
  for (int k = 0; k < 4 * cycles; ++k) keys.push_back(amplitude * std::sin(phase + kTau * static_cast<float>(k) / 4));
  return looping(CurveKind::Rotate, bone, length, std::move(keys));
}

// A translate timeline through the given x, y offsets (evenly spaced, looping).
CurveTimeline translate_keys(const std::string& bone, float length, std::vector<float> xy) {
  return looping(CurveKind::Translate, bone, length, std::move(xy));
}

// Keys of an IK constraint's mix alone.
CurveTimeline ik_mix_keys(const std::string& constraint, float length, const std::vector<float>& mixes) {
  std::vector<float> keys;
  for (float mix : mixes) keys.insert(keys.end(), {mix, 0, 0, 0, 0});
  CurveTimeline t = looping(CurveKind::Ik, constraint, length, std::move(keys));
  t.channels = 0b00001;
  return t;
}

void add_slot(SkeletonSource& s, const std::string& name, int bone, AttachmentData attachment, bool shown = true) {
  s.slots.push_back(Slot{.name = name, .bone = bone, .attachment = shown ? name : ""});
  s.skins[0].attachments.push_back(Attachment{static_cast<int>(s.slots.size()) - 1, name, std::move(attachment)});
}

// A region along its bone: centred `along` pixels from the origin, turned by `rotation`.
RegionAttachment part(float along, float width, float height, float rotation = 0, float across = 0) {
  RegionAttachment r;
  r.x = along;
  r.y = across;
  r.rotation = rotation;
  r.width = width;
  r.height = height;
  return r;
}

// The slot's bone is the strip's first bone.
void add_mesh(SkeletonSource& s, const RigBuilder& rig, const std::string& name, const StripMesh& strip) {
  add_slot(s, name, strip.bones.front(), strip_mesh(rig, strip));
}

SkeletonSource raptor_skeleton() {
  SkeletonSource s;
  s.uid = "skl_0000000a7a70";
  s.skins.push_back(Skin{.name = "default"});
  RigBuilder rig(s);
  const int root = rig.bone("root", -1, {0, 0}, 0, 0);
  const int hip = rig.bone("hip", root, {-10, -190}, 0, 40);
  const std::vector<int> torso = rig.chain("torso", hip, {{30, -190}, {80, -200}, {128, -210}, {165, -225}});
  const std::vector<int> neck = rig.chain("neck", torso[2], {{165, -225}, {190, -255}, {205, -285}, {225, -310}, {250, -325}});
  const int head = rig.bone("head", neck[3], {250, -325}, 10, 75);
  const int jaw = rig.bone("jaw", head, {262, -312}, 22, 55);
  rig.bone("jaw_tip", jaw, rig.tip(jaw), 22, 12);
  const int eye_l = rig.bone("eye_l", head, {290, -332}, 0, 0);
  const int eye_r = rig.bone("eye_r", head, {294, -330}, 0, 0);
  const std::vector<int> crest = rig.chain("crest", head, {{262, -335}, {245, -352}, {228, -358}});
  const std::vector<int> tongue = rig.chain("tongue", jaw, {{270, -310}, {292, -303}, {312, -300}});
  std::vector<Vec2> tail_joints{{-10, -190}};
  for (int k = 0; k < 10; ++k) {
    const float step = 40 - 2 * static_cast<float>(k);
    const float bend = -0.18f + 0.045f * static_cast<float>(k);  // up at the base, down towards the tip
    tail_joints.push_back(tail_joints.back() + Vec2{-step * std::cos(bend), step * std::sin(bend)});
  }
  const std::vector<int> tail = rig.chain("tail", hip, tail_joints);
  for (int k = 0; k < 3; ++k) {
    const int parent = tail[static_cast<std::size_t>(7 + k)];
    rig.bone("tail_fluff" + std::to_string(k + 1), parent, lerp(rig.origin(parent), rig.tip(parent), 0.5f),
             200 - 20 * static_cast<float>(k), 25);
  }
  // Legs: l is the far side, r the near side (drawn in front), 12 px apart.
  struct Leg { int thigh, shin, metatarsus, foot; };
  Leg legs[2];
  for (int side = 0; side < 2; ++side) {
    const std::string n = side == 0 ? "_l" : "_r";
    const Vec2 o{12.0f * static_cast<float>(side), 0};
    Leg& leg = legs[side];
    leg.thigh = rig.between("thigh" + n, hip, Vec2{5, -185} + o, Vec2{40, -112} + o);
    leg.shin = rig.between("shin" + n, leg.thigh, Vec2{40, -112} + o, Vec2{-18, -60} + o);
    leg.metatarsus = rig.between("metatarsus" + n, leg.shin, Vec2{-18, -60} + o, Vec2{12, -12} + o);
    leg.foot = rig.between("foot" + n, leg.metatarsus, Vec2{12, -12} + o, Vec2{30, -7} + o);
    const int toe = rig.between("toe_front1" + n, leg.foot, Vec2{30, -7} + o, Vec2{52, -4} + o);
    rig.between("toe_front2" + n, toe, Vec2{52, -4} + o, Vec2{66, 0} + o);
    rig.between("toe_back" + n, leg.foot, Vec2{12, -12} + o, Vec2{-8, -2} + o);
    rig.between("claw" + n, leg.metatarsus, Vec2{-2, -38} + o, Vec2{-12, -30} + o);
  }
  struct Arm { int upper, fore, hand; };
  Arm arms[2];
  for (int side = 0; side < 2; ++side) {
    const std::string n = side == 0 ? "_l" : "_r";
    const Vec2 o{6.0f * static_cast<float>(side), 4.0f * static_cast<float>(side)};
    Arm& arm = arms[side];
    arm.upper = rig.between("upper_arm" + n, torso[2], Vec2{150, -205} + o, Vec2{160, -175} + o);
    arm.fore = rig.between("forearm" + n, arm.upper, Vec2{160, -175} + o, Vec2{182, -168} + o);
    arm.hand = rig.between("hand" + n, arm.fore, Vec2{182, -168} + o, Vec2{194, -160} + o);
    rig.between("finger1" + n, arm.hand, Vec2{194, -160} + o, Vec2{204, -152} + o);
    rig.between("finger2" + n, arm.hand, Vec2{194, -160} + o, Vec2{199, -147} + o);
  }
  const int spine_parents[6] = {torso[0], torso[1], torso[2], neck[0], neck[1], neck[2]};
  for (int k = 0; k < 6; ++k) {
    const int parent = spine_parents[k];
    const Vec2 at = lerp(rig.origin(parent), rig.tip(parent), 0.5f) + Vec2{0, k < 3 ? -22.0f : -14.0f};
    rig.bone("back_spike" + std::to_string(k + 1), parent, at, -100 - 5 * static_cast<float>(k), k < 3 ? 20.0f : 14.0f);
  }
  const int saddle = rig.between("saddle", torso[1], {62, -222}, {104, -226});
  const int strap = rig.between("saddle_strap", saddle, {92, -224}, {96, -176});
  const int bag = rig.between("bag", saddle, {66, -218}, {62, -182});
  const int flap = rig.between("bag_flap", bag, {62, -182}, {60, -166});
  // IK targets where the chains end in the setup pose, so the setup pose is solved already.
  int leg_target[2], foot_target[2], arm_target[2];
  for (int side = 0; side < 2; ++side) {
    const std::string n = side == 0 ? "_l" : "_r";
    leg_target[side] = rig.bone("leg_target" + n, root, rig.tip(legs[side].shin), 0, 0);
    foot_target[side] = rig.bone("foot_target" + n, root, rig.tip(legs[side].metatarsus), 0, 0);
    arm_target[side] = rig.bone("arm_target" + n, torso[2], rig.tip(arms[side].fore), 0, 0);
  }
  const int neck_target = rig.bone("neck_target", root, rig.tip(neck[3]), 0, 0);
  const int head_target = rig.bone("head_target", root, rig.tip(head), 0, 0);
  const int tail_target = rig.bone("tail_target", hip, rig.tip(tail[0]), 0, 0);

  for (int side = 0; side < 2; ++side) {
    const std::string n = side == 0 ? "_l" : "_r";
    // Digitigrade legs: the knee bends back, soft and stretching near full extension.
    s.ik.push_back(IkConstraint{.name = "leg" + n, .bones = {legs[side].thigh, legs[side].shin}, .target = leg_target[side],
                                .softness = 6, .bend = -1, .stretch = true});
    s.ik.push_back(IkConstraint{.name = "foot" + n, .bones = {legs[side].metatarsus}, .target = foot_target[side]});
  }
  for (int side = 0; side < 2; ++side)
    s.ik.push_back(IkConstraint{.name = std::string("arm") + (side == 0 ? "_l" : "_r"),
                                .bones = {arms[side].upper, arms[side].fore}, .target = arm_target[side], .mix = 0.9f});
  s.ik.push_back(IkConstraint{.name = "neck", .bones = {neck[2], neck[3]}, .target = neck_target, .mix = 0.6f,
                              .softness = 10, .compress = true, .stretch = true});
  s.ik.push_back(IkConstraint{.name = "head", .bones = {head}, .target = head_target, .mix = 0.8f});
  s.ik.push_back(IkConstraint{.name = "tail", .bones = {tail[0]}, .target = tail_target, .mix = 0.4f});

  // Draw order, back to front: the far arm and leg, the tail, the body, the head, the near leg and arm.
  // 12 weighted meshes (583 vertices) and 24 regions.
  const auto toes = [&](const std::string& n) {
    add_slot(s, "toe_back" + n, s.find_bone("toe_back" + n), part(10, 22, 10));
    add_slot(s, "toe_front1" + n, s.find_bone("toe_front1" + n), part(11, 24, 11));
    add_slot(s, "toe_front2" + n, s.find_bone("toe_front2" + n), part(8, 18, 8, 5));
  };
  const auto fingers = [&](const std::string& n) {
    add_slot(s, "finger1" + n, s.find_bone("finger1" + n), part(5, 12, 6));
    add_slot(s, "finger2" + n, s.find_bone("finger2" + n), part(5, 11, 6));
  };
  add_mesh(s, rig, "arm_l", {.bones = {arms[0].upper, arms[0].fore, arms[0].hand}, .rows = 8, .columns = 3,
                             .width_start = 14, .width_end = 8});  // 24
  fingers("_l");
  add_mesh(s, rig, "leg_l", {.bones = {legs[0].thigh, legs[0].shin, legs[0].metatarsus, legs[0].foot}, .rows = 18,
                             .columns = 3, .width_start = 46, .width_end = 12});  // 54
  toes("_l");
  add_mesh(s, rig, "tail", {.bones = tail, .rows = 33, .columns = 3, .point = true, .width_start = 52, .width_end = 8});  // 100
  for (int k = 1; k <= 3; ++k) add_slot(s, "tail_fluff" + std::to_string(k), s.find_bone("tail_fluff" + std::to_string(k)), part(12, 28, 14));
  for (int k = 1; k <= 6; ++k) add_slot(s, "back_spike" + std::to_string(k), s.find_bone("back_spike" + std::to_string(k)), part(9, 22, 14));
  add_mesh(s, rig, "body", {.bones = {hip, torso[0], torso[1], torso[2]}, .rows = 24, .columns = 5, .width_start = 80,
                            .width_end = 62});  // 120
  add_mesh(s, rig, "bag", {.bones = {bag, flap}, .rows = 11, .columns = 2, .point = true, .width_start = 26, .width_end = 22});  // 23
  add_mesh(s, rig, "saddle", {.bones = {saddle, strap}, .rows = 6, .columns = 4, .width_start = 18, .width_end = 10});  // 24
  add_mesh(s, rig, "neck", {.bones = neck, .rows = 20, .columns = 3, .width_start = 50, .width_end = 34});  // 60
  add_mesh(s, rig, "tongue", {.bones = tongue, .rows = 10, .columns = 2, .point = true, .width_start = 10, .width_end = 6});  // 21
  add_mesh(s, rig, "jaw", {.bones = {jaw, s.find_bone("jaw_tip")}, .rows = 7, .columns = 4, .point = true, .width_start = 22,
                           .width_end = 10});  // 29
  add_slot(s, "teeth_lower", jaw, part(34, 40, 8, 0, -8));
  add_slot(s, "eye_l", eye_l, part(0, 10, 9));
  add_mesh(s, rig, "head", {.bones = {neck[3], head}, .rows = 10, .columns = 5, .width_start = 36, .width_end = 30});  // 50
  add_slot(s, "teeth_upper", head, part(52, 44, 9, 0, 10));
  add_slot(s, "eye_r", eye_r, part(0, 12, 10));
  add_slot(s, "crest", crest[0], part(18, 40, 16, 10));
  add_mesh(s, rig, "leg_r", {.bones = {legs[1].thigh, legs[1].shin, legs[1].metatarsus, legs[1].foot}, .rows = 18,
                             .columns = 3, .width_start = 48, .width_end = 12});  // 54
  toes("_r");
  add_mesh(s, rig, "arm_r", {.bones = {arms[1].upper, arms[1].fore, arms[1].hand}, .rows = 8, .columns = 3,
                             .width_start = 14, .width_end = 8});  // 24
  fingers("_r");
  return s;
}

// A walk cycle of 1 s: two steps, each leg planted for half the cycle and lifted for the other half;
// the body bobs twice; a wave runs down the tail; the arms, jaw and trappings swing.
ClipSource raptor_walk(const SkeletonSource& s) {
  constexpr float kLength = 1;
  ClipSource clip = empty_clip(s, "anm_0000000a7a70", kLength);
  const auto starts = [](const std::string& name, const char* prefix) { return name.rfind(prefix, 0) == 0; };
  for (std::size_t b = 0; b < s.bones.size(); ++b) {
    const std::string& name = s.bones[b].name;
    if (name == "root" || starts(name, "eye") || name.find("target") != std::string::npos) continue;
    const float phase = 0.35f * static_cast<float>(b);
    float amplitude = 4;
    int cycles = 1;
    if (starts(name, "tail")) amplitude = starts(name, "tail_fluff") ? 14 : 6;
    else if (starts(name, "neck") || starts(name, "torso") || name == "hip") amplitude = 3, cycles = 2;
    else if (starts(name, "jaw") || starts(name, "tongue")) amplitude = 8, cycles = 2;
    else if (starts(name, "toe") || starts(name, "finger") || starts(name, "claw")) amplitude = 15;
    else if (starts(name, "bag") || starts(name, "saddle_strap")) amplitude = 10, cycles = 2;
    else if (starts(name, "thigh") || starts(name, "shin") || starts(name, "metatarsus") || starts(name, "foot")) amplitude = 12;
    clip.curves.push_back(rotate_wave(name, kLength, amplitude, phase, cycles));
  }
  // The hip bobs twice per cycle; the feet step: planted and sliding back for half the cycle, lifted
  // and carried forward for the other half.
  clip.curves.push_back(translate_keys("hip", kLength, {0, 0, 2, -9, 0, 0, -2, -9}));
  for (int side = 0; side < 2; ++side) {
    const std::string n = side == 0 ? "_l" : "_r";
    const float sign = side == 0 ? 1.0f : -1.0f;
    // Keys at 0, ¼, ½ and ¾ of the cycle: the far leg is planted first, the near leg half a cycle later.
    std::vector<float> ankle{40, 0, 0, 0, -40, 0, 0, -34};
    std::vector<float> ball{40, 0, 0, 0, -40, 0, 8, -28};
    if (side == 1) {
      std::rotate(ankle.begin(), ankle.begin() + 4, ankle.end());
      std::rotate(ball.begin(), ball.begin() + 4, ball.end());
    }
    clip.curves.push_back(translate_keys("leg_target" + n, kLength, ankle));
    clip.curves.push_back(translate_keys("foot_target" + n, kLength, ball));
    clip.curves.push_back(translate_keys("arm_target" + n, kLength, {0, 0, 6 * sign, -4, 0, 0, -6 * sign, 4}));
  }
  clip.curves.push_back(translate_keys("neck_target", kLength, {0, 0, 4, -6, 0, 0, 4, -6}));
  clip.curves.push_back(translate_keys("head_target", kLength, {0, 0, 3, -8, 0, 0, 3, -8}));
  clip.curves.push_back(translate_keys("tail_target", kLength, {0, -10, 0, 0, 0, 10, 0, 0}));
  clip.curves.push_back(looping(CurveKind::Scale, "torso2", kLength, {1, 1, 1.02f, 1.03f}));
  clip.curves.push_back(ik_mix_keys("arm_l", kLength, {0.9f, 0.7f}));
  clip.curves.push_back(ik_mix_keys("arm_r", kLength, {0.7f, 0.9f}));
  clip.curves.push_back(ik_mix_keys("head", kLength, {0.8f, 1, 0.8f, 0.6f}));
  clip.curves.push_back(ik_mix_keys("tail", kLength, {0.4f, 0.6f}));
  sort_timelines(clip);
  return clip;
}

SkeletonSource celestial_circus_skeleton() {
  SkeletonSource s;
  s.uid = "skl_00000c1c0505";
  s.skins.push_back(Skin{.name = "default"});
  RigBuilder rig(s);
  const int root = rig.bone("root", -1, {0, 0}, 0, 0);
  // The swing hangs from a pivot 620 px up; the girl sits on its seat facing right.
  const int pivot = rig.bone("swing_pivot", root, {0, -620}, 90, 400);
  const int rope_l = rig.between("rope_l", pivot, {-40, -620}, {-40, -225});
  const int rope_r = rig.between("rope_r", pivot, {40, -620}, {40, -225});
  const int seat = rig.bone("seat", pivot, {-22, -220}, 0, 44);
  const int hips = rig.between("hips", seat, {-5, -232}, {-5, -272});
  const int spine1 = rig.between("spine1", hips, {-5, -272}, {-4, -305});
  const int spine2 = rig.between("spine2", spine1, {-4, -305}, {-2, -338});
  const int chest = rig.between("chest", spine2, {-2, -338}, {0, -375});
  const int neck = rig.between("neck", chest, {0, -375}, {2, -392});
  const int head = rig.between("head", neck, {2, -392}, {8, -470});
  int hands[2];
  std::vector<int> arms[2], legs[2];
  for (int side = 0; side < 2; ++side) {
    const std::string n = side == 0 ? "_l" : "_r";
    const float x = side == 0 ? -1.0f : 1.0f;  // the arms reach out to the ropes
    arms[side].push_back(rig.between("upper_arm" + n, chest, {14 * x, -362}, {32 * x, -398}));
    arms[side].push_back(rig.between("forearm" + n, arms[side][0], {32 * x, -398}, {40 * x, -432}));
    hands[side] = rig.between("hand" + n, arms[side][1], {40 * x, -432}, {40 * x, -448});
    arms[side].push_back(hands[side]);
    const float o = 6.0f * static_cast<float>(side);
    legs[side].push_back(rig.between("thigh" + n, hips, Vec2{-2 + o, -236}, Vec2{58 + o, -240}));
    legs[side].push_back(rig.between("shin" + n, legs[side][0], Vec2{58 + o, -240}, Vec2{70 + 1.6f * o, -175}));
    legs[side].push_back(rig.between("foot" + n, legs[side][1], Vec2{70 + 1.6f * o, -175}, Vec2{92 + 1.6f * o, -170}));
  }
  const std::vector<int> hair_back = rig.chain("hair_back", head, {{-20, -455}, {-40, -425}, {-48, -392}, {-52, -358}, {-54, -322}});
  const std::vector<int> hair_l = rig.chain("hair_side_l", head, {{-10, -440}, {-22, -410}, {-26, -380}, {-28, -350}, {-28, -320}});
  const std::vector<int> hair_r = rig.chain("hair_side_r", head, {{22, -440}, {30, -410}, {32, -380}, {32, -352}, {30, -325}});
  const std::vector<int> ponytail = rig.chain("ponytail", head, {{-28, -470}, {-60, -470}, {-85, -455}, {-100, -430}, {-108, -400}});
  const std::vector<int> skirt_l = rig.chain("skirt_l", hips, {{-18, -262}, {-24, -240}, {-28, -218}, {-30, -196}});
  const std::vector<int> skirt_c = rig.chain("skirt_c", hips, {{5, -262}, {30, -258}, {55, -252}, {78, -240}});
  const std::vector<int> skirt_r = rig.chain("skirt_r", hips, {{12, -262}, {14, -240}, {16, -218}, {18, -196}});
  const std::vector<int> ribbon_l = rig.chain("ribbon_l", hips, {{-20, -280}, {-38, -262}, {-50, -238}});
  const std::vector<int> ribbon_r = rig.chain("ribbon_r", hips, {{-18, -282}, {-44, -274}, {-64, -258}});
  const int bow = rig.bone("bow", head, {-18, -468}, 200, 22);
  const int earring_l = rig.bone("earring_l", head, {-6, -415}, 90, 10);
  const int earring_r = rig.bone("earring_r", head, {14, -415}, 90, 10);
  const int eye_l = rig.bone("eye_l", head, {14, -435}, 0, 0);
  const int eye_r = rig.bone("eye_r", head, {30, -435}, 0, 0);
  // At the head's origin with its angle: its local pose is zero, so "look" adds only its keys.
  const int look = rig.bone("look_target", head, rig.origin(head), degrees(direction(rig.tip(head) - rig.origin(head))), 0);
  const int star_l = rig.bone("star_l", root, {-180, -520}, 0, 0);
  const int star_r = rig.bone("star_r", root, {190, -500}, 0, 0);

  // The eyes follow the look target's keys; the back leans against the swing; the stars drift after
  // the head.
  s.transform.push_back(TransformConstraint{.name = "look", .bones = {eye_l, eye_r}, .target = look, .mix_rotate = 0,
                                            .mix_x = 1, .mix_y = 1, .mix_scale_x = 0, .mix_scale_y = 0, .mix_shear_y = 0,
                                            .local = true, .relative = true});
  s.transform.push_back(TransformConstraint{.name = "lean", .bones = {spine1, spine2}, .target = pivot, .mix_rotate = 0.3f,
                                            .mix_x = 0, .mix_y = 0, .mix_scale_x = 0, .mix_scale_y = 0, .mix_shear_y = 0,
                                            .offset_rotation = -90, .local = true, .relative = true});
  s.transform.push_back(TransformConstraint{.name = "stars", .bones = {star_l, star_r}, .target = head, .mix_rotate = 0,
                                            .mix_x = 0.1f, .mix_y = 0.1f, .mix_scale_x = 0, .mix_scale_y = 0, .mix_shear_y = 0,
                                            .offset_x = 40});
  // 30 physics constraints: every bone of the hair, skirt and ribbon chains, and the bow. The first
  // bone of a chain also lags in translation; springs soften towards the tips.
  int chain_index = 0;
  const auto simulate = [&](const std::vector<int>& chain, float strength, float damping, float mass, float wind, float gravity) {
    for (std::size_t k = 0; k < chain.size(); ++k) {
      PhysicsConstraint p{.name = s.bones[static_cast<std::size_t>(chain[k])].name, .bone = chain[k]};
      p.rotate = 1;
      if (k == 0) p.x = p.y = 0.5f;
      p.inertia = 0.5f + 0.1f * static_cast<float>(k);
      p.strength = strength * (1 - 0.15f * static_cast<float>(k));
      p.damping = damping;
      p.mass = mass + 0.25f * static_cast<float>(chain_index % 3);
      p.wind = wind;
      p.gravity = gravity;
      s.physics.push_back(p);
    }
    ++chain_index;
  };
  for (const auto* hair : {&hair_back, &hair_l, &hair_r, &ponytail}) simulate(*hair, 160, 0.85f, 1.5f, 0.4f, 1.2f);
  for (const auto* panel : {&skirt_l, &skirt_c, &skirt_r}) simulate(*panel, 220, 0.8f, 2, 0.2f, 0.8f);
  for (const auto* ribbon : {&ribbon_l, &ribbon_r}) simulate(*ribbon, 90, 0.9f, 1, 1, 0.6f);
  simulate({bow}, 200, 0.8f, 1, 0.3f, 0.5f);

  // Draw order, back to front. 19 weighted meshes (699 vertices) and 51 regions; the eyelids are
  // hidden until a blink shows them.
  const auto sparkles = [&](int first, int count) {
    const int bones[3] = {root, star_l, star_r};
    for (int k = first; k < first + count; ++k) {
      const float angle = kTau * static_cast<float>(k) / 24;
      RegionAttachment r = part(0, 16, 16, 45);
      if (k % 3 == 0) {  // on the root: around the swing
        r.x = 320 * std::cos(angle);
        r.y = -380 + 280 * std::sin(angle);
      } else {
        r.x = 30 * std::cos(angle);
        r.y = 30 * std::sin(angle);
      }
      add_slot(s, "sparkle" + std::to_string(k), bones[k % 3], r);
    }
  };
  add_slot(s, "shadow", root, part(0, 180, 24, 0, -4));
  sparkles(0, 12);
  add_slot(s, "star_l", star_l, part(0, 40, 40));
  add_slot(s, "pivot_ring", pivot, part(0, 96, 14, 90));
  add_mesh(s, rig, "rope_l", {.bones = {rope_l}, .rows = 11, .columns = 2, .width_start = 6, .width_end = 6});  // 22
  add_mesh(s, rig, "hair_back", {.bones = hair_back, .rows = 13, .columns = 3, .point = true, .width_start = 34, .width_end = 16});  // 40
  add_mesh(s, rig, "ponytail", {.bones = ponytail, .rows = 13, .columns = 3, .point = true, .width_start = 26, .width_end = 12});  // 40
  add_mesh(s, rig, "ribbon_l", {.bones = ribbon_l, .rows = 10, .columns = 2, .width_start = 10, .width_end = 12});  // 20
  add_mesh(s, rig, "ribbon_r", {.bones = ribbon_r, .rows = 10, .columns = 2, .width_start = 10, .width_end = 12});  // 20
  add_mesh(s, rig, "arm_l", {.bones = arms[0], .rows = 10, .columns = 3, .width_start = 14, .width_end = 9});  // 30
  add_slot(s, "hand_l", hands[0], part(8, 16, 12));
  add_mesh(s, rig, "leg_l", {.bones = legs[0], .rows = 17, .columns = 2, .point = true, .width_start = 22, .width_end = 12});  // 35
  add_slot(s, "shoe_l", legs[0][2], part(12, 30, 14));
  add_slot(s, "seat_board", seat, part(22, 110, 12));
  add_mesh(s, rig, "skirt_l", {.bones = skirt_l, .rows = 10, .columns = 5, .width_start = 24, .width_end = 36});  // 50
  add_mesh(s, rig, "torso", {.bones = {hips, spine1, spine2, chest}, .rows = 14, .columns = 5, .width_start = 44,
                             .width_end = 40});  // 70
  add_slot(s, "belt", hips, part(36, 12, 46, 0));
  add_slot(s, "collar", chest, part(34, 14, 40));
  add_slot(s, "necklace", chest, part(28, 10, 22));
  add_mesh(s, rig, "skirt_c", {.bones = skirt_c, .rows = 10, .columns = 5, .width_start = 30, .width_end = 40});  // 50
  add_mesh(s, rig, "leg_r", {.bones = legs[1], .rows = 17, .columns = 2, .point = true, .width_start = 22, .width_end = 12});  // 35
  add_slot(s, "shoe_r", legs[1][2], part(12, 30, 14));
  add_mesh(s, rig, "skirt_r", {.bones = skirt_r, .rows = 10, .columns = 5, .width_start = 24, .width_end = 36});  // 50
  add_mesh(s, rig, "hair_side_l", {.bones = hair_l, .rows = 13, .columns = 3, .point = true, .width_start = 22, .width_end = 10});  // 40
  add_mesh(s, rig, "face", {.bones = {neck, head}, .rows = 10, .columns = 4, .width_start = 20, .width_end = 58});  // 40
  for (const char* n : {"_l", "_r"}) {
    const int eye = std::string(n) == "_l" ? eye_l : eye_r;
    add_slot(s, std::string("eye_white") + n, head, part(58, 12, 10, 90, n[1] == 'l' ? -12.0f : 4.0f));
    add_slot(s, std::string("pupil") + n, eye, part(0, 6, 6));
    add_slot(s, std::string("lid") + n, eye, part(-2, 13, 6), false);
  }
  add_slot(s, "brow_l", head, part(64, 12, 3, 95, -12));
  add_slot(s, "brow_r", head, part(64, 12, 3, 85, 4));
  add_slot(s, "nose", head, part(50, 5, 6, 0, 12));
  add_slot(s, "mouth", head, part(36, 10, 4, 0, 8));
  add_slot(s, "blush_l", head, part(44, 10, 5, 0, -10));
  add_slot(s, "blush_r", head, part(44, 10, 5, 0, 10));
  add_slot(s, "earring_l", earring_l, part(6, 6, 12));
  add_slot(s, "earring_r", earring_r, part(6, 6, 12));
  add_mesh(s, rig, "bangs", {.bones = {neck, head}, .rows = 9, .columns = 5, .width_start = 30, .width_end = 64});  // 45
  add_mesh(s, rig, "hair_side_r", {.bones = hair_r, .rows = 13, .columns = 3, .point = true, .width_start = 22, .width_end = 10});  // 40
  add_mesh(s, rig, "bow", {.bones = {bow}, .rows = 5, .columns = 4, .width_start = 26, .width_end = 20});  // 20
  add_slot(s, "hair_clip", head, part(70, 10, 8, 0, -10));
  add_mesh(s, rig, "rope_r", {.bones = {rope_r}, .rows = 11, .columns = 2, .width_start = 6, .width_end = 6});  // 22
  add_mesh(s, rig, "arm_r", {.bones = arms[1], .rows = 10, .columns = 3, .width_start = 14, .width_end = 9});  // 30
  add_slot(s, "hand_r", hands[1], part(8, 16, 12));
  add_slot(s, "star_r", star_r, part(0, 40, 40));
  sparkles(12, 12);
  return s;
}

// A swing of 2 s: the swing sways ±24°, the legs pump, the body leans, the eyes look around, the
// stars turn and some sparkles twinkle; one blink. Hair, skirt and ribbons are left to physics.
ClipSource celestial_circus_swing(const SkeletonSource& s) {
  constexpr float kLength = 2;
  ClipSource clip = empty_clip(s, "anm_00000c1c0505", kLength);
  clip.curves.push_back(rotate_wave("swing_pivot", kLength, 24, 0));
  clip.curves.push_back(rotate_wave("seat", kLength, 5, 0.5f));
  const char* body[] = {"hips", "spine1", "spine2", "chest", "neck", "head"};
  for (int k = 0; k < 6; ++k) clip.curves.push_back(rotate_wave(body[k], kLength, 3 + static_cast<float>(k), -0.3f * static_cast<float>(k)));
  for (const char* n : {"_l", "_r"}) {
    const float phase = n[1] == 'l' ? 0.0f : 0.3f;
    clip.curves.push_back(rotate_wave(std::string("upper_arm") + n, kLength, 6, 1 + phase));
    clip.curves.push_back(rotate_wave(std::string("forearm") + n, kLength, 8, 1.4f + phase));
    clip.curves.push_back(rotate_wave(std::string("hand") + n, kLength, 10, 1.8f + phase));
    clip.curves.push_back(rotate_wave(std::string("thigh") + n, kLength, 15, 0.2f + phase));  // pumping
    clip.curves.push_back(rotate_wave(std::string("shin") + n, kLength, 30, 0.6f + phase));
    clip.curves.push_back(rotate_wave(std::string("foot") + n, kLength, 12, 1 + phase));
    clip.curves.push_back(rotate_wave(std::string("earring") + n, kLength, 10, 2 + phase, 2));
    clip.curves.push_back(looping(CurveKind::Rotate, std::string("star") + n, kLength, {0, 90, 180, 270}));
    clip.curves.back().values.back() = 360;  // a whole turn per cycle
    clip.curves.push_back(translate_keys(std::string("star") + n, kLength, {0, 0, 6, -10, 0, -4, -6, -10}));
  }
  clip.curves.push_back(translate_keys("look_target", kLength, {0, 0, 3, -1, 0, 1, -2, 0}));
  for (int k = 0; k < 6; ++k)
    clip.curves.push_back(looping(CurveKind::Alpha, "sparkle" + std::to_string(k * 4), kLength,
                                  {1, 0.3f + 0.1f * static_cast<float>(k), 1, 0.5f}));
  for (const char* n : {"_l", "_r"}) {
    AttachmentTimeline blink;
    blink.slot = std::string("lid") + n;
    blink.times = {1.2f, 1.3f};
    blink.names = {blink.slot, std::nullopt};
    clip.attachments.push_back(blink);
  }
  sort_timelines(clip);
  return clip;
}

// A rig of `skeleton` with the one clip `make_clip` makes for it.
SyntheticRig rig_with_clip(SkeletonSource skeleton, const std::string& name, ClipSource (*make_clip)(const SkeletonSource&)) {
  SyntheticRig rig;
  rig.skeleton = std::move(skeleton);
  rig.clips.emplace_back(name, make_clip(rig.skeleton));
  return rig;
}

}  // namespace

SyntheticRig make_constraint_rig() {
  SyntheticRig rig = make_mid_complexity_rig();
  add_constraints(rig.skeleton, 0);
  return rig;
}

SyntheticRig make_mid_complexity_rig() { return rig_with_clip(mid_skeleton(), "move", mid_clip); }

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

SyntheticRig make_raptor_shaped_rig() { return rig_with_clip(raptor_skeleton(), "walk", raptor_walk); }

SyntheticRig make_celestial_circus_shaped_rig() {
  return rig_with_clip(celestial_circus_skeleton(), "swing", celestial_circus_swing);
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
