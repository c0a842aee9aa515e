// The skeleton part of the Spine importer: version, bones, slots, constraints and events. Spine is
// Y-up with counter-clockwise angles; we are Y-down, clockwise: y, rotation and shear change sign
// here, once. Spine's defaults are applied where a key is left out, and written explicitly where
// ours differ (IK bend, path mixY).

#include <algorithm>
#include <cstdlib>
#include <tuple>

#include "mf/offline/json/json_path.hpp"
#include "spine_internal.hpp"
#include "spine_json_reader.hpp"

namespace mf::offline::spine {
namespace {

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

// Negation that never writes -0 (the canonical writer would print it as 0 anyway; tests compare).
float flip(float v) { return v == 0 ? 0.0f : -v; }

class SkeletonConverter {
 public:
  SkeletonConverter(const json::Value& root, const Context& context) : root_(root), c_(context) {}

  SkeletonSource run() {
    ObjectReader top(c_, root_, "");
    if (const json::Value* meta = top.optional("skeleton", json::Type::Object)) read_meta(*meta);
    if (const json::Value* v = top.optional("bones", json::Type::Array)) read_bones(*v);
    if (s_.bones.empty()) fail(c_, &root_, "bones", "the skeleton has no bones");
    if (const json::Value* v = top.optional("slots", json::Type::Array)) read_slots(*v);
    for (const char* kind : {"ik", "transform", "path", "physics"})
      if (const json::Value* v = top.optional(kind, json::Type::Array))
        for (std::size_t i = 0; i < v->items.size(); ++i)
          read_constraint(kind, v->items[i], json::path_index(kind, i), true);
    if (const json::Value* v = top.optional("constraints", json::Type::Array)) read_constraints_43(*v);
    assign_orders();
    report_direction_physics();
    if (const json::Value* v = top.optional("events", json::Type::Object)) read_events(*v);
    if (const json::Value* v = top.get("skins")) {
      if (v->is_object())
        fail(c_, v, "skins", "skins as an object is the layout of Spine 3.7 and older; export JSON from Spine 4.x");
      convert_skins(*v, "skins", s_, c_, editor_);
    }
    top.skip("animations");  // converted by convert_animations
    top.finish();
    editor_.report(c_);
    return std::move(s_);
  }

 private:
  const json::Value& root_;
  const Context& c_;
  SkeletonSource s_;
  EditorOnlyKeys editor_;
  // (Spine order, kind, index within kind) per constraint, to number the update order.
  std::vector<std::tuple<int, int, int>> orders_;
  std::vector<std::string> direction_physics_;  // JSON paths of physics constraints with direction channels

  int bone_index(const json::Value* v, const std::string& path, const std::string& name) {
    const int b = s_.find_bone(name);
    if (b < 0) fail(c_, v, path, "unknown bone " + in_quotes(name));
    return b;
  }

  std::vector<int> bone_list(ObjectReader& r, std::string_view key) {
    const json::Value& list = r.required(key, json::Type::Array);
    std::vector<int> out;
    const std::vector<std::string> names = read_strings(c_, list, r.at(key));
    for (std::size_t i = 0; i < names.size(); ++i)
      out.push_back(bone_index(&list.items[i], json::path_index(r.at(key), i), names[i]));
    if (out.empty()) fail(c_, &list, r.at(key), "lists no bones");
    return out;
  }

  void read_meta(const json::Value& meta) {
    ObjectReader r(c_, meta, "skeleton");
    r.skip("spine");  // read by read_version
    // Derived data: a checksum and the setup pose's bounds, which the build recomputes.
    for (const char* k : {"hash", "x", "y", "width", "height"}) r.skip(k);
    for (const char* k : {"images", "audio"}) {
      const std::string folder = r.string(k);
      if (!folder.empty())
        c_.note(r.at(k), std::string("the ") + (k[0] == 'i' ? "image" : "audio") + " folder \"" + folder +
                             "\" of the Spine project is not used" +
                             (k[0] == 'i' ? ": images are unpacked from the atlas" : ": event audio paths are kept as written"));
    }
    if (const json::Value* fps = r.optional("fps", json::Type::Number)) {
      if (fps->number >= 1 && fps->number <= 1000 && fps->number == static_cast<int>(fps->number))
        s_.fps = static_cast<int>(fps->number);
      else
        c_.note(r.at("fps"), "dopesheet fps " + std::to_string(fps->number) + " is not a whole number; kept 30");
    }
    if (const json::Value* ref = r.optional("referenceScale", json::Type::Number))
      if (ref->number != 100)
        c_.note(r.at("referenceScale"),
                "physics reference scale " + std::to_string(ref->number) + " is not imported (ours is fixed at 100)");
    r.finish();
  }

  void read_bones(const json::Value& bones) {
    for (std::size_t i = 0; i < bones.items.size(); ++i) {
      ObjectReader r(c_, bones.items[i], json::path_index("bones", i));
      Bone b;
      b.name = r.required_string("name");
      if (s_.find_bone(b.name) >= 0) fail(c_, r.get("name"), r.at("name"), "duplicate bone name " + in_quotes(b.name));
      if (const json::Value* p = r.optional("parent", json::Type::String)) {
        b.parent = s_.find_bone(p->string);
        if (b.parent < 0)
          fail(c_, p, r.at("parent"), "unknown parent bone " + in_quotes(p->string) + " (parents must come first)");
      } else if (i > 0) {
        c_.note(r.path(), "bone " + in_quotes(b.name) + " is a second root bone");
      }
      b.length = r.number("length", 0);
      if (b.length < 0) {
        c_.note(r.at("length"), "negative bone length " + std::to_string(b.length) + " read as its magnitude");
        b.length = -b.length;
      }
      b.x = r.number("x", 0);
      b.y = flip(r.number("y", 0));
      b.rotation = flip(r.number("rotation", 0));
      b.scale_x = r.number("scaleX", 1);
      b.scale_y = r.number("scaleY", 1);
      b.shear_x = flip(r.number("shearX", 0));
      b.shear_y = flip(r.number("shearY", 0));
      // 4.2 renamed "transform" to "inherit"; either is read.
      for (const char* key : {"inherit", "transform"})
        if (const json::Value* v = r.optional(key, json::Type::String)) {
          const std::optional<Inherit> mode = parse_spine_inherit(v->string);
          if (!mode) fail(c_, v, r.at(key), "unknown inherit mode " + in_quotes(v->string));
          b.inherit = *mode;
        }
      b.skin_required = r.boolean("skin", false);
      if (std::optional<Rgba8> color = r.color("color")) b.color = *color;
      r.finish({"icon", "visible"}, &editor_);
      s_.bones.push_back(std::move(b));
    }
  }

  void read_slots(const json::Value& slots) {
    for (std::size_t i = 0; i < slots.items.size(); ++i) {
      ObjectReader r(c_, slots.items[i], json::path_index("slots", i));
      Slot s;
      s.name = r.required_string("name");
      if (s_.find_slot(s.name) >= 0) fail(c_, r.get("name"), r.at("name"), "duplicate slot name " + in_quotes(s.name));
      const std::string bone = r.required_string("bone");
      s.bone = bone_index(r.get("bone"), r.at("bone"), bone);
      s.attachment = r.string("attachment");
      if (std::optional<Rgba8> color = r.color("color")) s.color = *color;
      s.dark = r.rgb("dark");
      if (const json::Value* v = r.optional("blend", json::Type::String)) {
        if (v->string == "normal") s.blend = BlendMode::Normal;
        else if (v->string == "additive") s.blend = BlendMode::Additive;
        else if (v->string == "multiply") s.blend = BlendMode::Multiply;
        else if (v->string == "screen") s.blend = BlendMode::Screen;
        else fail(c_, v, r.at("blend"), "unknown blend mode " + in_quotes(v->string));
      }
      r.finish({"visible"}, &editor_);
      s_.slots.push_back(std::move(s));
    }
  }

  // Spine keeps constraint names unique per kind: a physics constraint may share its name with a
  // transform constraint.
  std::string constraint_name(ObjectReader& r, ConstraintKind kind) {
    std::string name = r.required_string("name");
    if (s_.find_constraint(kind, name) >= 0)
      fail(c_, r.get("name"), r.at("name"), std::string("duplicate ") + to_string(kind) + " constraint name " + in_quotes(name));
    return name;
  }

  // One constraint of `kind` ("ik", "transform", "path", "physics", "slider"). `with_order`: the
  // 4.0–4.2 layout, where each carries its place in the update order.
  void read_constraint(std::string_view kind, const json::Value& v, const std::string& path, bool with_order) {
    ObjectReader r(c_, v, path);
    const int order = with_order ? r.integer("order", 0) : static_cast<int>(orders_.size());
    r.skip("type");  // the 4.3 layout names the kind
    if (kind == "ik") read_ik(r, order);
    else if (kind == "transform") read_transform(r, order);
    else if (kind == "path") read_path(r, order);
    else if (kind == "physics") read_physics(r, order);
    else if (kind == "slider") {
      c_.note(path, "slider constraint " + in_quotes(r.string("name")) + " is not imported: there is no equivalent");
      for (const auto& m : v.members) r.skip(m.first);
    } else {
      fail(c_, &v, path, "unknown constraint type " + in_quotes(kind));
    }
    r.finish();
  }

  void read_constraints_43(const json::Value& list) {
    for (std::size_t i = 0; i < list.items.size(); ++i) {
      const std::string path = json::path_index("constraints", i);
      ObjectReader peek(c_, list.items[i], path);
      const std::string type = peek.required_string("type");
      read_constraint(type, list.items[i], path, peek.has("order"));
    }
  }

  void read_ik(ObjectReader& r, int order) {
    IkConstraint k;
    k.name = constraint_name(r, ConstraintKind::Ik);
    k.skin_required = r.boolean("skin", false);
    k.bones = bone_list(r, "bones");
    if (k.bones.size() > 2) fail(c_, r.get("bones"), r.at("bones"), "an IK constraint takes one or two bones");
    k.target = bone_index(r.get("target"), r.at("target"), r.required_string("target"));
    k.mix = r.number("mix", 1);
    k.softness = r.number("softness", 0);
    // Spine's positive bend turns the child counter-clockwise on screen; ours (+1) clockwise.
    k.bend = r.boolean("bendPositive", true) ? -1 : 1;
    k.compress = r.boolean("compress", false);
    k.stretch = r.boolean("stretch", false);
    k.uniform = r.boolean("uniform", false);
    orders_.emplace_back(order, 0, static_cast<int>(s_.ik.size()));
    s_.ik.push_back(std::move(k));
  }

  void read_transform(ObjectReader& r, int order) {
    TransformConstraint t;
    t.name = constraint_name(r, ConstraintKind::Transform);
    t.skin_required = r.boolean("skin", false);
    t.bones = bone_list(r, "bones");
    const char* target_key = r.has("source") ? "source" : "target";  // 4.3 calls the target "source"
    t.target = bone_index(r.get(target_key), r.at(target_key), r.required_string(target_key));
    t.local = r.boolean("local", false);
    t.relative = r.boolean(r.has("additive") ? "additive" : "relative", false);
    t.mix_rotate = r.number("mixRotate", 1);
    t.mix_x = r.number("mixX", 1);
    t.mix_y = r.number("mixY", t.mix_x);
    t.mix_scale_x = r.number("mixScaleX", 1);
    t.mix_scale_y = r.number("mixScaleY", t.mix_scale_x);
    t.mix_shear_y = r.number("mixShearY", 1);
    t.offset_rotation = flip(r.number("rotation", 0));
    t.offset_x = r.number("x", 0);
    t.offset_y = flip(r.number("y", 0));
    t.offset_scale_x = r.number("scaleX", 0);
    t.offset_scale_y = r.number("scaleY", 0);
    t.offset_shear_y = flip(r.number("shearY", 0));
    if (r.has("shearX"))
      c_.note(r.at("shearX"), "transform constraint shearX offset " + std::to_string(r.number("shearX", 0)) +
                                  " is not imported (ours offsets shearY only)");
    if (const json::Value* props = r.optional("properties", json::Type::Object)) read_property_mapping(t, *props, r.at("properties"));
    if (r.has("clamp")) {
      if (r.boolean("clamp", false)) c_.note(r.at("clamp"), "clamped property mapping is not imported");
    }
    orders_.emplace_back(order, 1, static_cast<int>(s_.transform.size()));
    s_.transform.push_back(std::move(t));
  }

  // Spine 4.3's property mapping: each source property may drive other properties with a scale. Ours
  // copies each property onto itself: identity mappings are imported, everything else is reported
  // and its channel turned off.
  void read_property_mapping(TransformConstraint& t, const json::Value& props, const std::string& path) {
    struct Channel {
      const char* name;
      float* mix;
      float* offset;
      bool flips;
      bool seen = false;
    };
    Channel channels[] = {{"rotate", &t.mix_rotate, &t.offset_rotation, true},
                          {"x", &t.mix_x, &t.offset_x, false},
                          {"y", &t.mix_y, &t.offset_y, true},
                          {"scaleX", &t.mix_scale_x, &t.offset_scale_x, false},
                          {"scaleY", &t.mix_scale_y, &t.offset_scale_y, false},
                          {"shearY", &t.mix_shear_y, &t.offset_shear_y, true}};
    for (const json::Member& from : props.members) {
      const std::string from_path = json::path_key(path, from.first);
      ObjectReader fr(c_, from.second, from_path);
      const float from_offset = fr.number("offset", 0);
      if (from_offset != 0) c_.note(fr.at("offset"), "source offset " + std::to_string(from_offset) + " is not imported");
      if (const json::Value* to = fr.optional("to", json::Type::Object)) {
        for (const json::Member& m : to->members) {
          ObjectReader tr(c_, m.second, json::path_key(fr.at("to"), m.first));
          const float scale = tr.number("scale", 1), offset = tr.number("offset", 0);
          tr.skip("max");
          Channel* ch = nullptr;
          for (Channel& c : channels)
            if (m.first == c.name && from.first == c.name) ch = &c;
          if (!ch || scale != 1) {
            c_.note(tr.path(), "maps " + from.first + " to " + m.first + " with scale " + std::to_string(scale) +
                                   ": only a property onto itself with scale 1 is imported");
          } else {
            ch->seen = true;
            *ch->offset = ch->flips ? flip(offset) : offset;
          }
          tr.finish();
        }
      }
      fr.finish();
    }
    for (Channel& c : channels)
      if (!c.seen) *c.mix = 0;
  }

  void read_path(ObjectReader& r, int order) {
    PathConstraint p;
    p.name = constraint_name(r, ConstraintKind::Path);
    p.skin_required = r.boolean("skin", false);
    p.bones = bone_list(r, "bones");
    const std::string slot = r.required_string("target");
    p.target = s_.find_slot(slot);
    if (p.target < 0) fail(c_, r.get("target"), r.at("target"), "unknown slot " + in_quotes(slot));
    if (const json::Value* v = r.optional("positionMode", json::Type::String)) {
      if (v->string == "fixed") p.position_mode = PositionMode::Fixed;
      else if (v->string == "percent") p.position_mode = PositionMode::Percent;
      else fail(c_, v, r.at("positionMode"), "unknown position mode " + in_quotes(v->string));
    }
    if (const json::Value* v = r.optional("spacingMode", json::Type::String)) {
      if (v->string == "length") p.spacing_mode = SpacingMode::Length;
      else if (v->string == "fixed") p.spacing_mode = SpacingMode::Fixed;
      else if (v->string == "percent") p.spacing_mode = SpacingMode::Percent;
      else if (v->string == "proportional") p.spacing_mode = SpacingMode::Proportional;
      else fail(c_, v, r.at("spacingMode"), "unknown spacing mode " + in_quotes(v->string));
    }
    if (const json::Value* v = r.optional("rotateMode", json::Type::String)) {
      if (v->string == "tangent") p.rotate_mode = RotateMode::Tangent;
      else if (v->string == "chain") p.rotate_mode = RotateMode::Chain;
      else if (v->string == "chainScale") p.rotate_mode = RotateMode::ChainScale;
      else fail(c_, v, r.at("rotateMode"), "unknown rotate mode " + in_quotes(v->string));
    }
    p.offset_rotation = flip(r.number("rotation", 0));
    p.position = r.number("position", 0);
    p.spacing = r.number("spacing", 0);
    p.mix_rotate = r.number("mixRotate", 1);
    p.mix_x = r.number("mixX", 1);
    p.mix_y = r.number("mixY", p.mix_x);
    orders_.emplace_back(order, 2, static_cast<int>(s_.path.size()));
    s_.path.push_back(std::move(p));
  }

  // One report line for the physics constraints whose motion no comparison with Spine's runtime covers:
  // a scale X channel, or wind or gravity acting on rotate or shear X (docs/spine-import.md, Physics).
  void report_direction_physics() {
    if (direction_physics_.empty()) return;
    std::string list;
    for (const std::string& path : direction_physics_) list += (list.empty() ? "" : ", ") + path;
    c_.note(direction_physics_.front(),
            std::to_string(direction_physics_.size()) +
                " physics constraint(s) simulate scale X, or wind or gravity turning rotate or shear X; these play by "
                "our own model and may move differently from Spine's runtime once the simulation runs (the setup pose, "
                "the translation channels and the inertia and springs of rotate and shear X match): " + list);
  }

  void read_physics(ObjectReader& r, int order) {
    PhysicsConstraint p;
    p.name = constraint_name(r, ConstraintKind::Physics);
    p.skin_required = r.boolean("skin", false);
    p.bone = bone_index(r.get("bone"), r.at("bone"), r.required_string("bone"));
    p.x = r.number("x", 0);
    p.y = r.number("y", 0);
    p.rotate = r.number("rotate", 0);
    p.scale_x = r.number("scaleX", 0);
    p.shear_x = r.number("shearX", 0);
    p.limit = r.number("limit", 5000);
    p.fps = r.number("fps", 60);
    p.inertia = r.number("inertia", 1);
    p.strength = r.number("strength", 100);
    p.damping = r.number("damping", 1);
    p.mass = r.number("mass", 1);
    p.wind = r.number("wind", 0);
    p.gravity = r.number("gravity", 0);
    p.mix = r.number("mix", 1);
    const bool turned_by_forces = (p.rotate != 0 || p.shear_x != 0) && (p.wind != 0 || p.gravity != 0);
    if (p.scale_x != 0 || turned_by_forces) direction_physics_.push_back(r.path());
    if (!(p.limit > 0)) fail(c_, r.get("limit"), r.at("limit"), "limit must be > 0");
    if (!(p.fps > 0)) fail(c_, r.get("fps"), r.at("fps"), "fps must be > 0");
    if (!(p.mass > 0)) fail(c_, r.get("mass"), r.at("mass"), "mass must be > 0");
    // "Global" values follow the skeleton-wide physics timelines in Spine; ours has no shared values.
    for (const char* g : {"inertiaGlobal", "strengthGlobal", "dampingGlobal", "massGlobal", "windGlobal",
                          "gravityGlobal", "mixGlobal"})
      if (r.boolean(g, false))
        c_.note(r.at(g), std::string("\"") + g + "\" (shared with every physics constraint) is not imported; the value is per constraint");
    orders_.emplace_back(order, 3, static_cast<int>(s_.physics.size()));
    s_.physics.push_back(std::move(p));
  }

  void assign_orders() {
    std::stable_sort(orders_.begin(), orders_.end());
    for (std::size_t i = 0; i < orders_.size(); ++i) {
      const auto [spine_order, kind, index] = orders_[i];
      (void)spine_order;
      const int o = static_cast<int>(i);
      const auto k = static_cast<std::size_t>(index);
      if (kind == 0) s_.ik[k].order = o;
      else if (kind == 1) s_.transform[k].order = o;
      else if (kind == 2) s_.path[k].order = o;
      else s_.physics[k].order = o;
    }
    s_.canonicalize_orders();  // `order` only where the default order would differ
  }

  void read_events(const json::Value& events) {
    for (const json::Member& m : events.members) {
      ObjectReader r(c_, m.second, json::path_key("events", m.first));
      EventDef e;
      e.name = m.first;
      if (e.name.empty()) fail(c_, &m.second, r.path(), "event name must not be empty");
      e.int_value = r.integer("int", 0);
      e.float_value = r.number("float", 0);
      e.string_value = r.string("string");
      e.audio = r.string("audio");
      e.volume = r.number("volume", 1);
      e.balance = r.number("balance", 0);
      if (e.volume < 0 || e.volume > 1) fail(c_, r.get("volume"), r.at("volume"), "volume must be within 0–1");
      if (e.balance < -1 || e.balance > 1) fail(c_, r.get("balance"), r.at("balance"), "balance must be within -1–1");
      r.finish();
      s_.events.push_back(std::move(e));
    }
  }
};

}  // namespace

Expected<Version> read_version(const json::Value& root, const std::string& file, std::vector<ImportNote>& notes) {
  if (!root.is_object())
    return Unexpected{Error{file, "", root.position, std::string("expected an object, found ") + json::type_name(root.type)}};
  const json::Value* meta = root.find("skeleton");
  const json::Value* spine = meta && meta->is_object() ? meta->find("spine") : nullptr;
  if (!spine || !spine->is_string()) {
    notes.push_back({"skeleton.spine", "the Spine version is not stated; read as 4.2"});
    return Version{};
  }
  Version v;
  char* end = nullptr;
  const std::string& s = spine->string;
  v.major = static_cast<int>(std::strtol(s.c_str(), &end, 10));
  v.minor = (end && *end == '.') ? static_cast<int>(std::strtol(end + 1, &end, 10)) : 0;
  if (v.major != 4)
    return Unexpected{Error{file, "skeleton.spine", spine->position,
                            "Spine " + s + " exports are not supported: this importer reads Spine 4.0 to 4.3 JSON"}};
  if (v.minor > 3) {
    notes.push_back({"skeleton.spine", "Spine " + s + " is newer than 4.3; read as 4.3"});
    v.minor = 3;
  }
  return v;
}

Expected<SkeletonSource> convert_skeleton(const json::Value& root, const Context& context) {
  try {
    return SkeletonConverter(root, context).run();
  } catch (const Failure& f) {
    return Unexpected{f.error};
  }
}

}  // namespace mf::offline::spine
