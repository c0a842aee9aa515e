// Spine constraint timelines to clip timelines: ik, transform, path and physics. Mixes, softness,
// path position and spacing, and physics parameters need no flip; Spine's bendPositive (counter-
// clockwise) is our bend −1, as our +1 bends the child clockwise on screen. Physics wind (+X) and
// gravity (positive pulls down) mean the same in both systems.

#include <algorithm>
#include <string>
#include <utility>

#include "mf/offline/json/json_path.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "spine_anim_convert.hpp"

namespace mf::offline::spine {

using json::Node;
using json::path_key;

void AnimationConverter::ik(const Node& section) {
  if (!section.is_object()) section.fail("expected an object of ik constraint names");
  for (const auto& [name, keys] : section.members()) {
    constraint(keys, name, ConstraintKind::Ik);
    auto track = read_track(keys, 5, 2, [](KeyFields& key, double* out) {
      out[0] = key.number("mix", 1);
      out[1] = key.number("softness", 0);
      out[2] = key.boolean("bendPositive", true) ? -1 : 1;
      out[3] = key.boolean("compress", false) ? 1 : 0;
      out[4] = key.boolean("stretch", false) ? 1 : 0;
    });
    if (track) add_curve_timeline(std::move(*track), CurveKind::Ik, name, keys.path());
  }
}

void AnimationConverter::transform(const Node& section) {
  if (!section.is_object()) section.fail("expected an object of transform constraint names");
  for (const auto& [name, keys] : section.members()) {
    constraint(keys, name, ConstraintKind::Transform);
    auto track = read_track(keys, 6, 6, [](KeyFields& key, double* out) {
      out[0] = key.number("mixRotate", 1);
      out[1] = key.number("mixX", 1);
      out[2] = key.number("mixY", out[1]);  // Spine leaves mixY out when it equals mixX
      out[3] = key.number("mixScaleX", 1);
      out[4] = key.number("mixScaleY", out[3]);
      out[5] = key.number("mixShearY", 1);
    });
    if (!track) continue;
    // Spine 4.3 transform constraints may map one property onto another; the skeleton keeps only
    // the identity mappings and turns the other channels off, so their mixes stay off here too.
    const std::vector<int> off = unmapped_transform_channels(name);
    for (int c : off)
      for (std::size_t k = 0; k < track->key_count(); ++k) track->values[k * 6 + static_cast<std::size_t>(c)] = 0;
    if (!off.empty())
      note(keys.path(), "the constraint maps properties onto others, which is not imported; the mixes of " +
                            std::to_string(off.size()) + " channel(s) stay 0");
    add_curve_timeline(std::move(*track), CurveKind::Transform, name, keys.path());
  }
}

std::vector<int> AnimationConverter::unmapped_transform_channels(const std::string& name) const {
  static constexpr std::string_view kChannels[] = {"rotate", "x", "y", "scaleX", "scaleY", "shearY"};
  const json::Value* found = nullptr;
  auto scan = [&](const json::Value* list, bool typed) {
    if (!list || !list->is_array()) return;
    for (const json::Value& c : list->items) {
      if (!c.is_object()) continue;
      const json::Value* type = c.find("type");
      if (typed && (!type || !type->is_string() || type->string != "transform")) continue;
      const json::Value* n = c.find("name");
      if (n && n->is_string() && n->string == name) found = &c;
    }
  };
  scan(root_.find("transform"), false);
  scan(root_.find("constraints"), true);
  const json::Value* props = found ? found->find("properties") : nullptr;
  std::vector<int> off;
  if (!props || !props->is_object()) return off;
  for (int c = 0; c < 6; ++c) {
    bool identity = false;
    if (const json::Value* from = props->find(kChannels[c]); from && from->is_object())
      if (const json::Value* to = from->find("to"); to && to->is_object())
        if (const json::Value* self = to->find(kChannels[c]); self && self->is_object()) {
          const json::Value* scale = self->find("scale");
          identity = !scale || (scale->is_number() && scale->number == 1);
        }
    if (!identity) off.push_back(c);
  }
  return off;
}

namespace {

// Gives `track` a key at every time of `times` (sorted, each already a float) that it lacks: inside
// its span by an exact split, after its last key by holding the last value, before its first key
// with `setup` values and a stepped segment to the first key. Returns whether keys went before.
bool fill_keys(KeyTrack& track, const std::vector<double>& times, const double* setup) {
  bool before = false;
  for (double t : times) {
    if (std::binary_search(track.times.begin(), track.times.end(), t)) continue;
    const auto comps = static_cast<std::size_t>(track.components);
    const auto curved = static_cast<std::size_t>(track.curved);
    if (t < track.times.front()) {
      before = true;
      track.times.insert(track.times.begin(), t);
      track.values.insert(track.values.begin(), setup, setup + comps);
      track.curves.insert(track.curves.begin(), curved, SpineCurve::stepped());
    } else if (t > track.times.back()) {
      const std::vector<double> last(track.values.end() - static_cast<std::ptrdiff_t>(comps), track.values.end());
      track.times.push_back(t);
      track.values.insert(track.values.end(), last.begin(), last.end());
      track.curves.insert(track.curves.end(), curved, SpineCurve::linear());
    } else {
      const auto after = std::upper_bound(track.times.begin(), track.times.end(), t) - track.times.begin();
      insert_key(track, static_cast<std::size_t>(after - 1), t);
    }
  }
  return before;
}

}  // namespace

void AnimationConverter::path(const Node& section) {
  if (!section.is_object()) section.fail("expected an object of path constraint names");
  for (const auto& [name, timelines] : section.members()) {
    const PathConstraint& pc = skeleton_.path[static_cast<std::size_t>(constraint(timelines, name, ConstraintKind::Path))];
    if (!timelines.is_object()) timelines.fail("expected an object of timelines");
    // Spine keeps position, spacing and the mixes as three timelines with their own key times; ours
    // is one timeline with a channel per value, so the three are merged onto the union of the times.
    struct Part {
      int first;  // our component
      std::optional<KeyTrack> track;
      std::string path;
    };
    Part parts[3] = {{0, {}, {}}, {1, {}, {}}, {2, {}, {}}};
    for (const auto& [kind, keys] : timelines.members()) {
      Part* part = nullptr;
      if (kind == "position" || kind == "spacing") {
        part = &parts[kind == "position" ? 0 : 1];
        part->track = read_track(keys, 1, 1, [](KeyFields& key, double* out) { out[0] = key.number("value", 0); });
      } else if (kind == "mix") {
        part = &parts[2];
        part->track = read_track(keys, 3, 3, [](KeyFields& key, double* out) {
          out[0] = key.number("mixRotate", 1);
          out[1] = key.number("mixX", 1);
          out[2] = key.number("mixY", out[1]);
        });
      } else {
        note(keys.path(), "unknown path constraint timeline \"" + kind + "\"; not imported");
        continue;
      }
      part->path = keys.path();
    }
    std::vector<double> times;
    for (Part& part : parts) {
      if (!part.track) continue;
      round_to_float(*part.track);
      times.insert(times.end(), part.track->times.begin(), part.track->times.end());
    }
    if (times.empty()) continue;
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());

    const double setup[5] = {pc.position, pc.spacing, pc.mix_rotate, pc.mix_x, pc.mix_y};
    KeyTrack merged;
    merged.components = merged.curved = 5;
    merged.times = times;
    merged.values.assign(times.size() * 5, 0);
    merged.curves.assign((times.size() - 1) * 5, SpineCurve::linear());
    std::uint32_t channels = 0;
    for (Part& part : parts) {
      if (!part.track) continue;
      const float first = static_cast<float>(part.track->times.front());
      if (fill_keys(*part.track, times, setup + part.first))
        note(part.path, "these keys start at " + json::format_float(first) +
                            " but other keys of the constraint start earlier; before " + json::format_float(first) +
                            " the setup value is keyed");
      const KeyTrack& t = *part.track;
      for (int c = 0; c < t.components; ++c) {
        const int ours = part.first + c;
        channels |= 1u << ours;
        for (std::size_t k = 0; k < times.size(); ++k) merged.values[k * 5 + static_cast<std::size_t>(ours)] = t.value(k, c);
        for (std::size_t s = 0; s + 1 < times.size(); ++s) merged.curve(s, ours) = t.curve(s, c);
      }
    }
    if (channels == 0b11111u) channels = ~0u;  // every array present: the model's default
    add_curve_timeline(std::move(merged), CurveKind::Path, name, timelines.path(), channels);
  }
}

namespace {

struct PhysicsProperty {
  std::string_view name;
  CurveKind kind;
};

constexpr PhysicsProperty kPhysicsProperties[] = {
    {"inertia", CurveKind::PhysicsInertia}, {"strength", CurveKind::PhysicsStrength},
    {"damping", CurveKind::PhysicsDamping}, {"mass", CurveKind::PhysicsMass},
    {"wind", CurveKind::PhysicsWind},       {"gravity", CurveKind::PhysicsGravity},
    {"mix", CurveKind::PhysicsMix},
};

}  // namespace

std::vector<std::string> AnimationConverter::global_physics(std::string_view property) const {
  // The constraints whose <property>Global flag is set take that property from the timelines keyed
  // on the empty constraint name. Spine 4.2 lists physics constraints in "physics"; later versions
  // may list all constraints in "constraints" with a "type".
  std::vector<std::string> names;
  const std::string flag = std::string(property) + "Global";
  auto scan = [&](const json::Value* list, bool typed) {
    if (!list || !list->is_array()) return;
    for (const json::Value& c : list->items) {
      if (!c.is_object()) continue;
      if (typed) {
        const json::Value* type = c.find("type");
        if (!type || !type->is_string() || type->string != "physics") continue;
      }
      const json::Value* name = c.find("name");
      const json::Value* global = c.find(flag);
      if (!name || !name->is_string() || !global || !global->is_bool() || !global->boolean) continue;
      if (skeleton_.find_constraint(ConstraintKind::Physics, name->string) >= 0) names.push_back(name->string);
    }
  };
  scan(root_.find("physics"), false);
  scan(root_.find("constraints"), true);
  return names;
}

void AnimationConverter::physics(const Node& section) {
  if (!section.is_object()) section.fail("expected an object of physics constraint names");
  struct Global {
    CurveKind kind;
    KeyTrack track;
    std::string path;
  };
  std::vector<Global> globals;
  for (const auto& [name, timelines] : section.members()) {
    const bool global = name.empty();
    if (!global) constraint(timelines, name, ConstraintKind::Physics);
    if (!timelines.is_object()) timelines.fail("expected an object of timelines");
    for (const auto& [kind, keys] : timelines.members()) {
      if (kind == "reset") {
        PhysicsResetTimeline reset;
        std::vector<std::string> noted;
        float previous = -1;
        for (const Node& k : keys.items()) {
          KeyFields key(k);
          previous = read_time(key, previous, false);
          reset.times.push_back(previous);
          note_unused(key, noted);
        }
        if (reset.times.empty()) continue;
        std::vector<std::string> targets;
        if (global)
          for (const PhysicsConstraint& p : skeleton_.physics) targets.push_back(p.name);
        else
          targets.push_back(name);
        for (const std::string& target : targets) {
          auto same = std::find_if(clip_.physics_resets.begin(), clip_.physics_resets.end(),
                                   [&](const PhysicsResetTimeline& r) { return r.constraint == target; });
          if (same == clip_.physics_resets.end()) {
            reset.constraint = target;
            clip_.physics_resets.push_back(reset);
            continue;
          }
          // Resets of all constraints and of this one: one timeline with both sets of times.
          std::vector<float> both = same->times;
          both.insert(both.end(), reset.times.begin(), reset.times.end());
          std::sort(both.begin(), both.end());
          both.erase(std::unique(both.begin(), both.end()), both.end());
          same->times = std::move(both);
        }
        continue;
      }
      const std::string& kind_name = kind;  // clang 14 cannot capture a structured binding
      const auto property = std::find_if(std::begin(kPhysicsProperties), std::end(kPhysicsProperties),
                                         [&kind_name](const PhysicsProperty& p) { return p.name == kind_name; });
      if (property == std::end(kPhysicsProperties)) {
        note(keys.path(), "unknown physics constraint timeline \"" + kind + "\"; not imported");
        continue;
      }
      // Spine omits a physics key's value when it is 0.
      auto track = read_track(keys, 1, 1, [](KeyFields& key, double* out) { out[0] = key.number("value", 0); });
      if (!track) continue;
      if (global)
        globals.push_back({property->kind, std::move(*track), keys.path()});
      else
        add_curve_timeline(std::move(*track), property->kind, name, keys.path());
    }
  }
  // Timelines of all constraints go to each constraint that takes the property globally, after the
  // constraints' own timelines so that those are known.
  for (Global& g : globals) {
    const std::string_view property = layout(g.kind).name;
    const std::vector<std::string> targets = global_physics(property);
    if (targets.empty())
      note(g.path, "no physics constraint sets " + std::string(property) +
                       "Global, so this timeline of all constraints animates none; not imported");
    for (const std::string& target : targets) {
      const bool own = std::any_of(clip_.curves.begin(), clip_.curves.end(),
                                   [&](const CurveTimeline& tl) { return tl.kind == g.kind && tl.target == target; });
      if (own) {
        note(g.path, "constraint \"" + target + "\" also has its own " + std::string(property) +
                         " timeline, which is kept instead of this one");
        continue;
      }
      add_curve_timeline(g.track, g.kind, target, g.path);
    }
  }
}

}  // namespace mf::offline::spine
