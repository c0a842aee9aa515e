#pragma once
// ClipData: one clip compiled for the runtime. Timelines are records over shared flat arrays (times,
// values, curve codes), every target is an index, every bezier is pre-sampled (mf::anim::curve.hpp).

#include <cstdint>
#include <string>
#include <vector>

#include "mf/anim/curve.hpp"
#include "mf/core/math/bounds.hpp"
#include "mf/skel/rig_modes.hpp"

namespace mf::skel {

enum class TimelineKind : std::uint8_t {
  // bones (values relative to the setup pose)
  Rotate, Translate, TranslateX, TranslateY, Scale, ScaleX, ScaleY, Shear, ShearX, ShearY,
  Inherit,     // 1 value: the Inherit enum
  // slots
  Attachment,  // 1 value: attachment name id, −1 for none
  Rgba, Rgb, Alpha, Rgba2, Rgb2,  // colour channels 0…1; rgba2 = light rgba + dark rgb
  Sequence,    // 3 values: SequenceMode, start index, delay
  // constraints (absolute values; `channels` says which components are keyed)
  Ik,          // mix, softness, bend (±1), compress (0/1), stretch (0/1)
  Transform,   // mixRotate, mixX, mixY, mixScaleX, mixScaleY, mixShearY
  Path,        // position, spacing, mixRotate, mixX, mixY
  PhysicsInertia, PhysicsStrength, PhysicsDamping, PhysicsMass, PhysicsWind, PhysicsGravity, PhysicsMix,
  PhysicsReset,  // no values
  // other
  Deform,      // target: attachment index; keys in deform_keys
  DrawOrder,   // 0 values; each key's order is in draw_orders
};


struct Timeline {
  TimelineKind kind;
  std::uint8_t components;     // values per key
  std::uint8_t curved;         // components [0, curved) interpolate; the rest are stepped
  std::uint8_t channels;       // bit c: component c keyed (constraint timelines); all bits otherwise
  std::int32_t target;         // bone, slot, constraint or attachment index; −1 for draw order
  std::uint32_t key_start;     // into ClipData::times
  std::uint32_t key_count;
  std::uint32_t value_start;   // into values (key-major), or deform_keys / draw_orders key records
  std::uint32_t curve_start;   // into curves: (key_count − 1) × curved codes, segment-major
};

// A sparse deform key: `count` floats from `value_start` in values, added from float `offset` on.
struct DeformKey {
  std::uint32_t offset;
  std::uint32_t count;
  std::uint32_t value_start;
};

struct EventKey {
  float time;
  std::int32_t event;         // index into SkeletonData::events
  std::int32_t int_value;
  float float_value;
  std::int32_t string_value;  // index into ClipData::strings, −1 for the event's default
  float volume, balance;
};

// Bounds are mf::Bounds (mf/core/math/bounds.hpp); the renderer names them skel::Bounds.
using mf::Bounds;

struct ClipData {
  std::string name;
  float length = 0;
  LoopMode loop = LoopMode::Linear;

  std::vector<Timeline> timelines;
  std::vector<float> times;
  std::vector<float> values;
  std::vector<std::uint32_t> curves;             // anim::kCurveLinear, kCurveStepped or kCurveBezierBase + i
  std::vector<anim::BezierSamples> beziers;
  std::vector<DeformKey> deform_keys;
  std::vector<std::int32_t> draw_orders;         // per draw-order key: slot count entries, slot indices in draw order
  std::vector<EventKey> events;                  // sorted by time
  std::vector<std::string> strings;

  // Conservative bounds of the skeleton's visible attachments over the clip, in skeleton space
  // (sampled at every key time and midway between keys, with the default skin).
  Bounds bounds;

  // Index of this clip's first timeline cursor in a pose's cursor table (set when the clip is loaded).
  std::uint32_t cursor_base = 0;

  // True when no two timelines key the same property (set when the clip is loaded, by
  // keys_each_property_once): the sampler may then write a lone full-weight sample straight into the
  // pose instead of averaging it.
  bool keys_each_property_once = false;
  // False when the clip has no physics reset timeline (set when the clip is loaded), so the sampler
  // need not look for reset keys.
  bool has_physics_resets = true;
};

class SkeletonData;

// Whether no two of the clip's timelines key the same property of the same bone, slot or constraint
// (what ClipData::keys_each_property_once records; clip_direct.cpp).
bool keys_each_property_once(const ClipData& clip, const SkeletonData& data);

}  // namespace mf::skel
