// The build step's clip half: a .manim clip compiled against built SkeletonData. Names become indices,
// curves become codes with every bezier pre-sampled, pixel values take import.scale, draw-order moves
// become full orders, and deform keys follow the influences the build kept.

#include <algorithm>
#include <array>
#include <map>
#include <tuple>
#include <unordered_map>

#include "mf/offline/json/json_path.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/skel/bounds.hpp"
#include "skeleton_builder_internal.hpp"

namespace mf::offline {
namespace {

using build_detail::BuildFailure;
using build_detail::fail;

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

skel::TimelineKind timeline_kind(CurveKind kind) {
  switch (kind) {
    case CurveKind::Rotate: return skel::TimelineKind::Rotate;
    case CurveKind::Translate: return skel::TimelineKind::Translate;
    case CurveKind::TranslateX: return skel::TimelineKind::TranslateX;
    case CurveKind::TranslateY: return skel::TimelineKind::TranslateY;
    case CurveKind::Scale: return skel::TimelineKind::Scale;
    case CurveKind::ScaleX: return skel::TimelineKind::ScaleX;
    case CurveKind::ScaleY: return skel::TimelineKind::ScaleY;
    case CurveKind::Shear: return skel::TimelineKind::Shear;
    case CurveKind::ShearX: return skel::TimelineKind::ShearX;
    case CurveKind::ShearY: return skel::TimelineKind::ShearY;
    case CurveKind::Rgba: return skel::TimelineKind::Rgba;
    case CurveKind::Rgb: return skel::TimelineKind::Rgb;
    case CurveKind::Alpha: return skel::TimelineKind::Alpha;
    case CurveKind::Rgba2: return skel::TimelineKind::Rgba2;
    case CurveKind::Rgb2: return skel::TimelineKind::Rgb2;
    case CurveKind::Ik: return skel::TimelineKind::Ik;
    case CurveKind::Transform: return skel::TimelineKind::Transform;
    case CurveKind::Path: return skel::TimelineKind::Path;
    case CurveKind::PhysicsInertia: return skel::TimelineKind::PhysicsInertia;
    case CurveKind::PhysicsStrength: return skel::TimelineKind::PhysicsStrength;
    case CurveKind::PhysicsDamping: return skel::TimelineKind::PhysicsDamping;
    case CurveKind::PhysicsMass: return skel::TimelineKind::PhysicsMass;
    case CurveKind::PhysicsWind: return skel::TimelineKind::PhysicsWind;
    case CurveKind::PhysicsGravity: return skel::TimelineKind::PhysicsGravity;
    case CurveKind::PhysicsMix: return skel::TimelineKind::PhysicsMix;
  }
  return skel::TimelineKind::Rotate;
}

skel::LoopMode loop_mode(LoopMode mode) {
  switch (mode) {
    case LoopMode::None: return skel::LoopMode::None;
    case LoopMode::Linear: return skel::LoopMode::Linear;
    case LoopMode::PingPong: return skel::LoopMode::PingPong;
  }
  return skel::LoopMode::Linear;
}

constexpr std::uint8_t kAllChannels = 0xff;

class ClipCompiler {
 public:
  ClipCompiler(const ClipSource& clip, const SkeletonSource& skeleton, const skel::SkeletonData& data, const std::string& file)
      : clip_(clip), sk_(skeleton), data_(data), file_(file), scale_(skeleton.import.scale) {
    for (std::size_t i = 0; i < data.attachment_names.names.size(); ++i)
      name_ids_.emplace(data.attachment_names.names[i], static_cast<std::int32_t>(i));
  }

  skel::ClipData run(const std::string& name) {
    out_.name = name;
    out_.length = clip_.length;
    out_.loop = loop_mode(clip_.loop);
    for (const CurveTimeline& tl : clip_.curves) add_curve_timeline(tl);
    for (const InheritTimeline& tl : clip_.inherits) add_inherit(tl);
    for (const AttachmentTimeline& tl : clip_.attachments) add_attachment(tl);
    for (const SequenceTimeline& tl : clip_.sequences) add_sequence(tl);
    for (const PhysicsResetTimeline& tl : clip_.physics_resets) add_physics_reset(tl);
    for (const DeformTimeline& tl : clip_.deforms) add_deform(tl);
    if (!clip_.draw_order.empty()) add_draw_order(clip_.draw_order);
    add_events(clip_.events);
    // Records point into the shared arrays, so their order is free: by kind, then target.
    std::stable_sort(out_.timelines.begin(), out_.timelines.end(), [](const skel::Timeline& a, const skel::Timeline& b) {
      return std::tuple(a.kind, a.target) < std::tuple(b.kind, b.target);
    });
    return std::move(out_);
  }

 private:
  // ---- targets ----

  std::int32_t bone(const std::string& name, const std::string& path) const {
    const int i = sk_.find_bone(name);
    if (i < 0) fail(file_, path, "unknown bone " + quoted(name));
    return i;
  }

  std::int32_t slot(const std::string& name, const std::string& path) const {
    const int i = sk_.find_slot(name);
    if (i < 0) fail(file_, path, "unknown slot " + quoted(name));
    return i;
  }

  std::int32_t constraint(const std::string& name, ConstraintKind kind, const std::string& path) const {
    const int index = sk_.find_constraint(kind, name);
    if (index < 0) fail(file_, path, std::string("unknown ") + to_string(kind) + " constraint " + quoted(name));
    return index;
  }

  static std::string section(TimelineTarget target) {
    switch (target) {
      case TimelineTarget::Bone: return "bones";
      case TimelineTarget::Slot: return "slots";
      case TimelineTarget::Ik: return "ik";
      case TimelineTarget::Transform: return "transform";
      case TimelineTarget::Path: return "path";
      case TimelineTarget::Physics: return "physics";
    }
    return "";
  }

  // ---- keys and curves ----

  void check_times(const std::vector<float>& times, const std::string& path, bool allow_equal) const {
    if (times.empty()) fail(file_, json::path_key(path, "t"), "a timeline needs at least one key");
    for (std::size_t k = 0; k < times.size(); ++k) {
      if (!(times[k] >= 0)) fail(file_, json::path_index(json::path_key(path, "t"), k), "key time must be >= 0");
      if (k > 0 && (allow_equal ? times[k] < times[k - 1] : times[k] <= times[k - 1]))
        fail(file_, json::path_index(json::path_key(path, "t"), k), "key times must increase");
    }
  }

  skel::Timeline begin(skel::TimelineKind kind, std::int32_t target, const std::vector<float>& times, int components,
                       int curved, std::uint8_t channels) {
    skel::Timeline t{};
    t.kind = kind;
    t.components = static_cast<std::uint8_t>(components);
    t.curved = static_cast<std::uint8_t>(curved);
    t.channels = channels;
    t.target = target;
    t.key_start = static_cast<std::uint32_t>(out_.times.size());
    t.key_count = static_cast<std::uint32_t>(times.size());
    t.value_start = static_cast<std::uint32_t>(out_.values.size());
    t.curve_start = static_cast<std::uint32_t>(out_.curves.size());
    out_.times.insert(out_.times.end(), times.begin(), times.end());
    return t;
  }

  std::uint32_t curve_code(const Curve& c) {
    switch (c.type) {
      case CurveType::Linear: return anim::kCurveLinear;
      case CurveType::Stepped: return anim::kCurveStepped;
      case CurveType::Bezier: break;
    }
    // x must be monotonic for the pre-sampled lookup; out-of-range x is a check error upstream.
    const float cx1 = std::clamp(c.cx1, 0.0f, 1.0f), cx2 = std::clamp(c.cx2, 0.0f, 1.0f);
    const auto [it, inserted] =
        beziers_.emplace(std::array{cx1, c.cy1, cx2, c.cy2}, static_cast<std::uint32_t>(out_.beziers.size()));
    if (inserted) out_.beziers.push_back(anim::sample_bezier(cx1, c.cy1, cx2, c.cy2));
    return anim::kCurveBezierBase + it->second;
  }

  void add_curves(const std::vector<Curve>& curves) {
    for (const Curve& c : curves) out_.curves.push_back(curve_code(c));
  }

  // Components of a curve timeline that are pixels and take import.scale.
  std::vector<bool> pixel_components(const CurveTimeline& tl, std::int32_t target) const {
    const int n = layout(tl.kind).components;
    std::vector<bool> pixels(static_cast<std::size_t>(n), false);
    switch (tl.kind) {
      case CurveKind::Translate: pixels[0] = pixels[1] = true; break;
      case CurveKind::TranslateX:
      case CurveKind::TranslateY: pixels[0] = true; break;
      case CurveKind::Ik: pixels[1] = true; break;  // softness
      case CurveKind::Path: {
        const PathConstraint& c = sk_.path[static_cast<std::size_t>(target)];
        pixels[0] = c.position_mode == PositionMode::Fixed;
        pixels[1] = c.spacing_mode == SpacingMode::Length || c.spacing_mode == SpacingMode::Fixed;
        break;
      }
      default: break;
    }
    return pixels;
  }

  void add_curve_timeline(const CurveTimeline& tl) {
    const CurveLayout& l = layout(tl.kind);
    std::string path = json::path_key(section(l.target), tl.target);
    if (l.target == TimelineTarget::Bone || l.target == TimelineTarget::Slot || l.target == TimelineTarget::Physics)
      path = json::path_key(path, l.name);
    std::int32_t target = 0;
    switch (l.target) {
      case TimelineTarget::Bone: target = bone(tl.target, path); break;
      case TimelineTarget::Slot: target = slot(tl.target, path); break;
      case TimelineTarget::Ik: target = constraint(tl.target, ConstraintKind::Ik, path); break;
      case TimelineTarget::Transform: target = constraint(tl.target, ConstraintKind::Transform, path); break;
      case TimelineTarget::Path: target = constraint(tl.target, ConstraintKind::Path, path); break;
      case TimelineTarget::Physics: target = constraint(tl.target, ConstraintKind::Physics, path); break;
    }
    check_times(tl.times, path, false);
    const std::size_t keys = tl.times.size();
    const auto components = static_cast<std::size_t>(l.components), curved = static_cast<std::size_t>(l.curved);
    if (tl.values.size() != keys * components)
      fail(file_, path, "has " + std::to_string(tl.values.size()) + " values; expected " +
                            std::to_string(keys * components) + " (" + std::to_string(components) + " per key)");
    if (tl.curves.size() != (keys - 1) * curved)
      fail(file_, json::path_key(path, "curve"), "has " + std::to_string(tl.curves.size()) + " curves; expected " +
                                                     std::to_string((keys - 1) * curved));
    const bool named_channels = !l.channel_names.empty();
    const std::uint8_t channels =
        named_channels ? static_cast<std::uint8_t>(tl.channels & ((1u << components) - 1u)) : kAllChannels;
    if (named_channels && channels == 0) fail(file_, path, "no property is keyed");

    skel::Timeline t = begin(timeline_kind(tl.kind), target, tl.times, l.components, l.curved, channels);
    const std::vector<bool> pixels = pixel_components(tl, target);
    for (std::size_t i = 0; i < tl.values.size(); ++i)
      out_.values.push_back(pixels[i % components] ? tl.values[i] * scale_ : tl.values[i]);
    add_curves(tl.curves);
    out_.timelines.push_back(t);
  }

  // Timelines of stepped values: one value (or `components`) per key, no curves.
  template <class Item, class ToValues>
  void add_stepped(skel::TimelineKind kind, std::int32_t target, const std::vector<float>& times,
                   const std::vector<Item>& items, int components, const std::string& path, ToValues to_values) {
    check_times(times, path, false);
    if (items.size() != times.size())
      fail(file_, json::path_key(path, "v"), "has " + std::to_string(items.size()) + " values but \"t\" has " +
                                                 std::to_string(times.size()) + " keys");
    skel::Timeline t = begin(kind, target, times, components, 0, kAllChannels);
    for (std::size_t k = 0; k < items.size(); ++k) to_values(items[k], json::path_index(json::path_key(path, "v"), k));
    out_.timelines.push_back(t);
  }

  void add_inherit(const InheritTimeline& tl) {
    const std::string path = json::path_key(json::path_key("bones", tl.bone), "inherit");
    add_stepped(skel::TimelineKind::Inherit, bone(tl.bone, path), tl.times, tl.values, 1, path,
                [&](Inherit v, const std::string&) { out_.values.push_back(static_cast<float>(v)); });
  }

  void add_attachment(const AttachmentTimeline& tl) {
    const std::string path = json::path_key(json::path_key("slots", tl.slot), "attachment");
    add_stepped(skel::TimelineKind::Attachment, slot(tl.slot, path), tl.times, tl.names, 1, path,
                [&](const std::optional<std::string>& name, const std::string& at) {
                  std::int32_t id = -1;
                  if (name) {
                    const auto it = name_ids_.find(*name);
                    if (it == name_ids_.end()) fail(file_, at, "no skin has an attachment named " + quoted(*name));
                    id = it->second;
                  }
                  out_.values.push_back(static_cast<float>(id));
                });
  }

  void add_sequence(const SequenceTimeline& tl) {
    const std::string path = json::path_key(json::path_key("slots", tl.slot), "sequence");
    add_stepped(skel::TimelineKind::Sequence, slot(tl.slot, path), tl.times, tl.keys, 3, path,
                [&](const SequenceKey& key, const std::string& at) {
                  if (key.index < 0) fail(file_, json::path_key(at, "index"), "index must be >= 0");
                  out_.values.push_back(static_cast<float>(key.mode));
                  out_.values.push_back(static_cast<float>(key.index));
                  out_.values.push_back(key.delay);
                });
  }

  void add_physics_reset(const PhysicsResetTimeline& tl) {
    const std::string path = json::path_key(json::path_key("physics", tl.constraint), "reset");
    const std::int32_t target = constraint(tl.constraint, ConstraintKind::Physics, path);
    check_times(tl.times, path, false);
    out_.timelines.push_back(begin(skel::TimelineKind::PhysicsReset, target, tl.times, 0, 0, kAllChannels));
  }

  // ---- deform ----

  const Attachment* source_attachment(int skin, int slot, const std::string& name) const {
    for (const Attachment& a : sk_.skins[static_cast<std::size_t>(skin)].attachments)
      if (a.slot == slot && a.name == name) return &a;
    return nullptr;
  }

  std::int32_t built_attachment(int skin, std::int32_t slot, std::int32_t name) const {
    const std::vector<skel::SkinEntry>& entries = data_.skins[static_cast<std::size_t>(skin)].entries;
    const auto it = std::lower_bound(entries.begin(), entries.end(), std::pair(slot, name),
                                     [](const skel::SkinEntry& e, const std::pair<std::int32_t, std::int32_t>& key) {
                                       return std::tie(e.slot, e.name) < std::tie(key.first, key.second);
                                     });
    return it != entries.end() && it->slot == slot && it->name == name ? it->attachment : -1;
  }

  void add_deform(const DeformTimeline& tl) {
    const std::string at = json::path_key(json::path_key(json::path_key("deform", tl.skin), tl.slot), tl.attachment);
    const int skin = sk_.find_skin(tl.skin);
    if (skin < 0 || static_cast<std::size_t>(skin) >= data_.skins.size())
      fail(file_, at, "unknown skin " + quoted(tl.skin));
    const std::int32_t slot_index = slot(tl.slot, at);
    const Attachment* a = source_attachment(skin, slot_index, tl.attachment);
    const auto name = name_ids_.find(tl.attachment);
    const std::int32_t built = a && name != name_ids_.end() ? built_attachment(skin, slot_index, name->second) : -1;
    if (!a || built < 0)
      fail(file_, at, "skin " + quoted(tl.skin) + " has no attachment " + quoted(tl.attachment) + " for slot " +
                          quoted(tl.slot));
    // The geometry the keys offset: the attachment's own, or a linked mesh's parent's.
    const DeformVertices source = deform_vertices(sk_, skin, *a);
    if (!source.vertices) fail(file_, at, source.problem);
    const std::int32_t target = data_.attachments[static_cast<std::size_t>(built)].deform_source;
    const std::size_t source_floats = deform_float_count(*source.vertices);
    const std::vector<long> map = build_detail::deform_float_map(*source.vertices);

    check_times(tl.times, at, false);
    if (tl.keys.size() != tl.times.size())
      fail(file_, json::path_key(at, "v"), "has " + std::to_string(tl.keys.size()) + " keys but \"t\" has " +
                                               std::to_string(tl.times.size()));
    if (tl.curves.size() != tl.times.size() - 1)
      fail(file_, json::path_key(at, "curve"), "has " + std::to_string(tl.curves.size()) + " curves; expected " +
                                                   std::to_string(tl.times.size() - 1));
    skel::Timeline t = begin(skel::TimelineKind::Deform, target, tl.times, 0, 1, kAllChannels);
    t.value_start = static_cast<std::uint32_t>(out_.deform_keys.size());
    for (std::size_t k = 0; k < tl.keys.size(); ++k) {
      const DeformKeySource& key = tl.keys[k];
      const std::size_t end = static_cast<std::size_t>(std::max(key.offset, 0)) + key.values.size();
      if (key.offset < 0 || end > source_floats)
        fail(file_, json::path_index(json::path_key(at, "v"), k),
             "offset " + std::to_string(key.offset) + " + " + std::to_string(key.values.size()) + " values pass the " +
                 std::to_string(source_floats) + " vertex floats of " + quoted(tl.attachment));
      skel::DeformKey out{0, 0, static_cast<std::uint32_t>(out_.values.size())};
      bool first = true;
      for (std::size_t i = 0; i < key.values.size(); ++i) {
        const std::size_t source = static_cast<std::size_t>(key.offset) + i;
        // Floats of influences the cap dropped go with them; the kept ones stay contiguous.
        const long mapped = map.empty() ? static_cast<long>(source) : map[source];
        if (mapped < 0) continue;
        if (first) out.offset = static_cast<std::uint32_t>(mapped);
        first = false;
        out_.values.push_back(key.values[i] * scale_);
        ++out.count;
      }
      out_.deform_keys.push_back(out);
    }
    add_curves(tl.curves);
    out_.timelines.push_back(t);
  }

  // ---- draw order ----

  void add_draw_order(const DrawOrderTimeline& tl) {
    const std::string path = "drawOrder";
    check_times(tl.times, path, false);
    if (tl.keys.size() != tl.times.size())
      fail(file_, json::path_key(path, "v"), "has " + std::to_string(tl.keys.size()) + " keys but \"t\" has " +
                                                 std::to_string(tl.times.size()));
    skel::Timeline t = begin(skel::TimelineKind::DrawOrder, -1, tl.times, 0, 0, kAllChannels);
    t.value_start = static_cast<std::uint32_t>(out_.draw_orders.size());
    const int slots = static_cast<int>(sk_.slots.size());
    for (std::size_t k = 0; k < tl.keys.size(); ++k) {
      std::vector<std::int32_t> order(static_cast<std::size_t>(slots), -1);
      std::vector<std::uint8_t> moved(static_cast<std::size_t>(slots), 0);
      for (std::size_t m = 0; m < tl.keys[k].size(); ++m) {
        const DrawOrderMove& move = tl.keys[k][m];
        const std::string at = json::path_index(json::path_index(json::path_key(path, "v"), k), m);
        const std::int32_t s = slot(move.slot, at);
        const long long place = static_cast<long long>(s) + move.offset;
        if (moved[static_cast<std::size_t>(s)]) fail(file_, at, "slot " + quoted(move.slot) + " moves twice in one key");
        if (place < 0 || place >= slots)
          fail(file_, at, "moves slot " + quoted(move.slot) + " to place " + std::to_string(place) +
                              ", outside the draw order of " + std::to_string(slots) + " slots");
        if (order[static_cast<std::size_t>(place)] >= 0)
          fail(file_, at, "two slots move to place " + std::to_string(place));
        order[static_cast<std::size_t>(place)] = s;
        moved[static_cast<std::size_t>(s)] = 1;
      }
      // Unmoved slots fill the free places in their setup order.
      std::size_t free = 0;
      for (int s = 0; s < slots; ++s) {
        if (moved[static_cast<std::size_t>(s)]) continue;
        while (order[free] >= 0) ++free;
        order[free] = s;
      }
      out_.draw_orders.insert(out_.draw_orders.end(), order.begin(), order.end());
    }
    out_.timelines.push_back(t);
  }

  // ---- events ----

  void add_events(const EventTimeline& tl) {
    if (tl.keys.size() != tl.times.size())
      fail(file_, "events.v", "has " + std::to_string(tl.keys.size()) + " keys but \"t\" has " +
                                  std::to_string(tl.times.size()));
    if (tl.empty()) return;
    check_times(tl.times, "events", true);
    std::map<std::string, std::int32_t> strings;
    for (std::size_t k = 0; k < tl.keys.size(); ++k) {
      const EventKeySource& key = tl.keys[k];
      const int e = sk_.find_event(key.name);
      if (e < 0) fail(file_, json::path_key(json::path_index("events.v", k), "name"), "unknown event " + quoted(key.name));
      const EventDef& def = sk_.events[static_cast<std::size_t>(e)];
      std::int32_t string_index = -1;
      if (key.string_value) {
        const auto [it, inserted] = strings.emplace(*key.string_value, static_cast<std::int32_t>(out_.strings.size()));
        if (inserted) out_.strings.push_back(*key.string_value);
        string_index = it->second;
      }
      out_.events.push_back({tl.times[k], e, key.int_value.value_or(def.int_value),
                             key.float_value.value_or(def.float_value), string_index, key.volume.value_or(def.volume),
                             key.balance.value_or(def.balance)});
    }
    std::stable_sort(out_.events.begin(), out_.events.end(),
                     [](const skel::EventKey& a, const skel::EventKey& b) { return a.time < b.time; });
  }

  const ClipSource& clip_;
  const SkeletonSource& sk_;
  const skel::SkeletonData& data_;
  const std::string& file_;
  const float scale_;
  std::unordered_map<std::string, std::int32_t> name_ids_;
  std::map<std::array<float, 4>, std::uint32_t> beziers_;
  skel::ClipData out_;
};

}  // namespace

Expected<skel::ClipData> compile_clip(const ClipSource& clip, const SkeletonSource& skeleton, const skel::SkeletonData& data,
                                      const std::string& name, const std::string& file) {
  try {
    if (data.bones.size() != skeleton.bones.size() || data.slots.size() != skeleton.slots.size() ||
        data.skins.size() != skeleton.skins.size())
      fail(file, {}, "the skeleton data was not built from this skeleton");
    skel::ClipData out = ClipCompiler(clip, skeleton, data, file).run(name);
    out.bounds = skel::compute_clip_bounds(data, out);
    return out;
  } catch (const BuildFailure& f) {
    return Unexpected{f.error};
  }
}

}  // namespace mf::offline
