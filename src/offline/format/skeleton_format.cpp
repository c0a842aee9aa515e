// The `.mskel` reader and canonical writer: the skeleton, bones, slots, constraints, events and skins.
// Attachments live in skeleton_format_attachments.cpp. docs/format-mskel.md is the spec.

#include "mf/offline/format/skeleton_format.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "mf/core/file_io.hpp"
#include "mf/offline/json/json_path.hpp"
#include "mf/offline/format/uid.hpp"
#include "skeleton_format_internal.hpp"

namespace mf::offline {
namespace detail {

// ---- shared helpers ---------------------------------------------------------------------------

void NameIndex::add(const json::Node& node, const std::string& name, int index, std::string_view what) {
  const auto [it, inserted] = entries_.emplace(name, Entry{index, node.path()});
  if (!inserted) node.fail("duplicate " + std::string(what) + " name \"" + name + "\" (first at " + it->second.path + ")");
}

int NameIndex::find(std::string_view name) const {
  const auto it = entries_.find(std::string(name));
  return it == entries_.end() ? -1 : it->second.index;
}

std::string read_name(json::ObjectReader& r, std::string_view key) { return r.required(key).as_nonempty_string(); }

int resolve_bone(const json::Node& node, const ReadNames& names) {
  const std::string& name = node.as_nonempty_string();
  const int index = names.bones.find(name);
  if (index < 0) node.fail("unknown bone \"" + name + "\"");
  return index;
}

int resolve_slot(const json::Node& node, const ReadNames& names) {
  const std::string& name = node.as_nonempty_string();
  const int index = names.slots.find(name);
  if (index < 0) node.fail("unknown slot \"" + name + "\"");
  return index;
}

float get_nonnegative(json::ObjectReader& r, std::string_view key, float fallback) {
  const auto node = r.optional(key);
  if (!node) return fallback;
  const float v = node->as_float();
  if (v < 0) node->fail("expected a number >= 0, found " + json::format_float(v));
  return v;
}

float get_positive(json::ObjectReader& r, std::string_view key, float fallback) {
  const auto node = r.optional(key);
  if (!node) return fallback;
  const float v = node->as_float();
  if (v <= 0) node->fail("expected a number > 0, found " + json::format_float(v));
  return v;
}

float get_in_range(json::ObjectReader& r, std::string_view key, float fallback, float min, float max) {
  const auto node = r.optional(key);
  if (!node) return fallback;
  const float v = node->as_float();
  if (v < min || v > max)
    node->fail("expected a number from " + json::format_float(min) + " to " + json::format_float(max) + ", found " +
               json::format_float(v));
  return v;
}

std::optional<json::Node> member(const json::Node& object, std::string_view key) {
  const json::Value* v = object.value().find(key);
  if (!v) return std::nullopt;
  return json::Node(*v, json::path_key(object.path(), key), object.file());
}

int as_int_at_least(const json::Node& node, int min) {
  const int v = node.as_int();
  if (v < min) node.fail("expected an integer >= " + std::to_string(min) + ", found " + std::to_string(v));
  return v;
}

void write_number(json::Writer& w, float v) { w.number(v); }

void put_string(json::Writer& w, std::string_view key, std::string_view v) {
  w.key(key);
  w.string(v);
}

void put_integer(json::Writer& w, std::string_view key, std::int64_t v) {
  w.key(key);
  w.integer(v);
}

void put_number(json::Writer& w, std::string_view key, float v) {
  w.key(key);
  write_number(w, v);
}

void put_bool(json::Writer& w, std::string_view key, bool v) {
  w.key(key);
  w.boolean(v);
}

void write_float(json::Writer& w, std::string_view key, float v, float fallback) {
  if (v != fallback) put_number(w, key, v);
}

void write_bool(json::Writer& w, std::string_view key, bool v, bool fallback) {
  if (v != fallback) put_bool(w, key, v);
}

void write_color(json::Writer& w, std::string_view key, Rgba8 v, Rgba8 fallback) {
  if (v != fallback) put_string(w, key, to_hex_rgba(v));
}

void write_string(json::Writer& w, std::string_view key, const std::string& v) {
  if (!v.empty()) put_string(w, key, v);
}

namespace {
const std::string kNoName;

template <class T>
const std::string& name_at(const std::vector<T>& items, int index) {
  if (index < 0 || static_cast<std::size_t>(index) >= items.size()) return kNoName;
  return items[static_cast<std::size_t>(index)].name;
}
}  // namespace

const std::string& bone_name(const SkeletonSource& s, int index) { return name_at(s.bones, index); }
const std::string& slot_name(const SkeletonSource& s, int index) { return name_at(s.slots, index); }

}  // namespace detail

namespace {

using detail::as_int_at_least;
using detail::get_in_range;
using detail::get_nonnegative;
using detail::get_positive;
using detail::member;
using detail::read_enum;
using json::Layout;
using json::Node;
using json::ObjectReader;
using json::Writer;

constexpr std::array<ConstraintKind, 4> kConstraintKinds = {ConstraintKind::Ik, ConstraintKind::Transform,
                                                            ConstraintKind::Path, ConstraintKind::Physics};

// ---- reading ----------------------------------------------------------------------------------

class SkeletonReader {
 public:
  SkeletonSource read(const Node& root) {
    ObjectReader r(root);
    s_.format = r.format_version(kSkeletonFormatVersion);
    const Node type = r.required("type");
    if (type.as_string() != "Skeleton")
      type.fail("expected type \"Skeleton\", found \"" + type.as_string() + "\"");
    const Node uid = r.required("uid");
    s_.uid = uid.as_string();
    if (!is_valid_uid(s_.uid, kSkeletonUidPrefix))
      uid.fail("malformed uid \"" + s_.uid + "\": expected \"" + std::string(kSkeletonUidPrefix) +
               "\" and 12 lower-case hex digits");
    if (auto fps = r.optional("fps")) s_.fps = as_int_at_least(*fps, 1);
    const auto import = r.optional("import");
    s_.clips = r.get("clips", "");
    const auto images = r.optional("images");
    const auto bones = r.optional("bones");
    const auto slots = r.optional("slots");
    const auto ik = r.optional("ik");
    const auto transform = r.optional("transform");
    const auto path = r.optional("path");
    const auto physics = r.optional("physics");
    const auto events = r.optional("events");
    const auto skins = r.optional("skins");
    r.finish();

    if (import) read_import(*import);
    if (images) read_images(*images);
    if (bones) read_bones(*bones);
    if (slots) read_slots(*slots);
    if (ik) read_list(*ik, s_.ik, &SkeletonReader::read_ik);
    if (transform) read_list(*transform, s_.transform, &SkeletonReader::read_transform);
    if (path) read_list(*path, s_.path, &SkeletonReader::read_path);
    if (physics) read_list(*physics, s_.physics, &SkeletonReader::read_physics);
    if (events) read_list(*events, s_.events, &SkeletonReader::read_event);
    if (skins) {
      read_list(*skins, s_.skins, &SkeletonReader::read_skin);
      detail::check_linked_meshes(s_, *skins);
    }
    if (slots) check_setup_attachments(*slots);
    return std::move(s_);
  }

 private:
  template <class T>
  void read_list(const Node& node, std::vector<T>& out, T (SkeletonReader::*read_one)(const Node&)) {
    const std::vector<Node> items = node.items();
    out.reserve(items.size());
    for (const Node& item : items) out.push_back((this->*read_one)(item));
  }

  void read_import(const Node& node) {
    ObjectReader r(node);
    ImportSettings& im = s_.import;
    im.images = r.get("images", im.images);
    if (auto n = r.optional("pageSize")) im.page_size = n->as_int(64, 16384);
    if (auto n = r.optional("padding")) im.padding = n->as_int(0, 64);
    im.scale = get_positive(r, "scale", im.scale);
    if (auto n = r.optional("filter")) im.filter = read_enum(*n, "texture filter", &parse_texture_filter, 2);
    im.mipmaps = r.get("mipmaps", im.mipmaps);
    im.trim = r.get("trim", im.trim);
    im.normal_suffix = r.get("normalSuffix", im.normal_suffix);
    r.finish();
  }

  void read_images(const Node& node) {
    detail::NameIndex names;
    for (const Node& item : node.items()) {
      ObjectReader r(item);
      ImageEntry image;
      image.name = add_name(r, names, static_cast<int>(s_.images.size()), "image");
      image.source = r.get("source", "");
      if (auto rect = r.optional("rect")) image.rect = read_canvas_rect(*rect);
      r.finish();
      s_.images.push_back(std::move(image));
    }
  }

  // [x, y, width, height]: four integers, the size not negative.
  static CanvasRect read_canvas_rect(const Node& node) {
    if (node.size() != 4) node.fail("expected [x, y, width, height]: 4 integers, found " + std::to_string(node.size()));
    const int limit = std::numeric_limits<int>::max() / 2;
    return CanvasRect{node[0].as_int(-limit, limit), node[1].as_int(-limit, limit), node[2].as_int(0, limit),
                      node[3].as_int(0, limit)};
  }

  void read_bones(const Node& node) {
    const std::vector<Node> items = node.items();
    for (std::size_t i = 0; i < items.size(); ++i) {
      ObjectReader r(items[i]);
      Bone b;
      b.name = add_name(r, names_.bones, static_cast<int>(i), "bone");
      if (auto parent = r.optional("parent")) b.parent = resolve_parent(*parent, items, i);
      b.x = r.get("x", 0.f);
      b.y = r.get("y", 0.f);
      b.rotation = r.get("rot", 0.f);
      b.scale_x = r.get("sx", 1.f);
      b.scale_y = r.get("sy", 1.f);
      b.shear_x = r.get("shx", 0.f);
      b.shear_y = r.get("shy", 0.f);
      b.length = get_nonnegative(r, "length", 0);
      if (auto n = r.optional("inherit")) b.inherit = read_enum(*n, "inherit mode", &parse_inherit, 5);
      b.color = r.get_color("color", kDefaultBoneColor);
      b.skin_required = r.get("skinRequired", false);
      r.finish();
      s_.bones.push_back(std::move(b));
    }
  }

  // A parent must be listed before its child, which also rules out cycles.
  int resolve_parent(const Node& node, const std::vector<Node>& bones, std::size_t child) {
    const std::string& name = node.as_nonempty_string();
    const int index = names_.bones.find(name);
    if (index == static_cast<int>(child)) node.fail("a bone cannot be its own parent");
    if (index >= 0) return index;
    for (std::size_t j = child + 1; j < bones.size(); ++j) {
      const json::Value* later = bones[j].value().find("name");
      if (later && later->is_string() && later->string == name)
        node.fail("parent \"" + name + "\" is listed after this bone (at " + bones[j].path() +
                  "); parents must come before their children");
    }
    node.fail("unknown bone \"" + name + "\"");
  }

  void read_slots(const Node& node) {
    const std::vector<Node> items = node.items();
    for (std::size_t i = 0; i < items.size(); ++i) {
      ObjectReader r(items[i]);
      Slot slot;
      slot.name = add_name(r, names_.slots, static_cast<int>(i), "slot");
      slot.bone = detail::resolve_bone(r.required("bone"), names_);
      if (auto n = r.optional("attachment")) slot.attachment = n->as_nonempty_string();
      slot.color = r.get_color("color", Rgba8::white());
      if (auto n = r.optional("dark")) slot.dark = n->as_rgb();
      if (auto n = r.optional("blend")) slot.blend = read_enum(*n, "blend mode", &parse_blend_mode, 4);
      r.finish();
      s_.slots.push_back(std::move(slot));
    }
  }

  // A slot's setup attachment must exist for that slot in some skin.
  void check_setup_attachments(const Node& slots) {
    std::unordered_set<std::string> present;  // attachment_key() of every attachment in every skin
    for (const Skin& skin : s_.skins)
      for (const Attachment& a : skin.attachments) present.insert(attachment_key(a.slot, a.name));
    for (std::size_t i = 0; i < s_.slots.size(); ++i) {
      const Slot& slot = s_.slots[i];
      if (slot.attachment.empty()) continue;
      if (!present.count(attachment_key(static_cast<int>(i), slot.attachment)))
        member(slots[i], "attachment")
            ->fail("unknown attachment \"" + slot.attachment + "\": no skin has it for slot \"" + slot.name + "\"");
    }
  }

  // ---- constraints ----

  // The keys every constraint starts with: names are unique within each kind (a physics and a
  // transform constraint may share one); explicit orders are unique across all four kinds.
  template <class C>
  void read_common(ObjectReader& r, C& c, ConstraintKind kind) {
    c.name = add_name(r, constraint_names_[static_cast<std::size_t>(kind)],
                      static_cast<int>(s_.constraint_count(kind)), std::string(to_string(kind)) + " constraint");
    if (const auto order = r.optional("order")) {
      c.order = as_int_at_least(*order, 0);
      const auto [it, inserted] = orders_.emplace(*c.order, order->path());
      if (!inserted)
        order->fail("duplicate constraint order " + std::to_string(*c.order) + " (also at " + it->second + ")");
    }
    c.skin_required = r.get("skinRequired", false);
  }

  // Bone names, each once.
  std::vector<int> read_bone_list(const Node& node) {
    std::vector<int> out;
    std::unordered_set<int> listed;
    for (const Node& item : node.items()) {
      const int bone = detail::resolve_bone(item, names_);
      if (!listed.insert(bone).second) item.fail("bone \"" + item.as_string() + "\" is listed twice");
      out.push_back(bone);
    }
    return out;
  }

  std::vector<int> read_constrained_bones(const Node& node, std::size_t max) {
    std::vector<int> bones = read_bone_list(node);
    if (bones.empty()) node.fail("expected at least one bone");
    if (bones.size() > max) node.fail("expected 1 or 2 bones, found " + std::to_string(bones.size()));
    return bones;
  }

  IkConstraint read_ik(const Node& node) {
    ObjectReader r(node);
    IkConstraint c;
    read_common(r, c, ConstraintKind::Ik);
    const Node bones = r.required("bones");
    c.bones = read_constrained_bones(bones, 2);
    if (c.bones.size() == 2 && s_.bones[static_cast<std::size_t>(c.bones[1])].parent != c.bones[0])
      bones[1].fail("the second bone \"" + s_.bones[static_cast<std::size_t>(c.bones[1])].name +
                    "\" must be a child of the first, \"" + s_.bones[static_cast<std::size_t>(c.bones[0])].name + "\"");
    const Node target = r.required("target");
    c.target = detail::resolve_bone(target, names_);
    // The chain's descendants move with the chain, so the target cannot be one of them.
    for (int b = c.target; b >= 0; b = s_.bones[static_cast<std::size_t>(b)].parent)
      if (b == c.bones[0])
        target.fail("the target \"" + target.as_string() + "\" is inside its own chain (\"" +
                    s_.bones[static_cast<std::size_t>(b)].name + "\" or one of its descendants)");
    c.mix = r.get("mix", 1.f);
    c.softness = get_nonnegative(r, "softness", 0);
    if (auto n = r.optional("bend")) {
      c.bend = n->as_int();
      if (c.bend != 1 && c.bend != -1) n->fail("expected 1 or -1, found " + std::to_string(c.bend));
    }
    c.compress = r.get("compress", false);
    c.stretch = r.get("stretch", false);
    c.uniform = r.get("uniform", false);
    r.finish();
    return c;
  }

  TransformConstraint read_transform(const Node& node) {
    ObjectReader r(node);
    TransformConstraint c;
    read_common(r, c, ConstraintKind::Transform);
    c.bones = read_constrained_bones(r.required("bones"), std::numeric_limits<std::size_t>::max());
    const Node target = r.required("target");
    c.target = detail::resolve_bone(target, names_);
    if (std::find(c.bones.begin(), c.bones.end(), c.target) != c.bones.end())
      target.fail("the target \"" + target.as_string() + "\" is one of the constrained bones");
    c.local = r.get("local", false);
    c.relative = r.get("relative", false);
    c.mix_rotate = r.get("mixRotate", 1.f);
    c.mix_x = r.get("mixX", 1.f);
    c.mix_y = r.get("mixY", 1.f);
    c.mix_scale_x = r.get("mixScaleX", 1.f);
    c.mix_scale_y = r.get("mixScaleY", 1.f);
    c.mix_shear_y = r.get("mixShearY", 1.f);
    c.offset_rotation = r.get("rotation", 0.f);
    c.offset_x = r.get("x", 0.f);
    c.offset_y = r.get("y", 0.f);
    c.offset_scale_x = r.get("scaleX", 0.f);
    c.offset_scale_y = r.get("scaleY", 0.f);
    c.offset_shear_y = r.get("shearY", 0.f);
    r.finish();
    return c;
  }

  PathConstraint read_path(const Node& node) {
    ObjectReader r(node);
    PathConstraint c;
    read_common(r, c, ConstraintKind::Path);
    c.bones = read_constrained_bones(r.required("bones"), std::numeric_limits<std::size_t>::max());
    c.target = detail::resolve_slot(r.required("target"), names_);
    if (auto n = r.optional("positionMode")) c.position_mode = read_enum(*n, "position mode", &parse_position_mode, 2);
    if (auto n = r.optional("spacingMode")) c.spacing_mode = read_enum(*n, "spacing mode", &parse_spacing_mode, 4);
    if (auto n = r.optional("rotateMode")) c.rotate_mode = read_enum(*n, "rotate mode", &parse_rotate_mode, 3);
    c.offset_rotation = r.get("rotation", 0.f);
    c.position = r.get("position", 0.f);
    c.spacing = r.get("spacing", 0.f);
    c.mix_rotate = r.get("mixRotate", 1.f);
    c.mix_x = r.get("mixX", 1.f);
    c.mix_y = r.get("mixY", 1.f);
    r.finish();
    return c;
  }

  PhysicsConstraint read_physics(const Node& node) {
    ObjectReader r(node);
    PhysicsConstraint c;
    read_common(r, c, ConstraintKind::Physics);
    c.bone = detail::resolve_bone(r.required("bone"), names_);
    c.x = r.get("x", 0.f);
    c.y = r.get("y", 0.f);
    c.rotate = r.get("rotate", 0.f);
    c.scale_x = r.get("scaleX", 0.f);
    c.shear_x = r.get("shearX", 0.f);
    c.limit = get_positive(r, "limit", c.limit);
    c.fps = get_positive(r, "fps", c.fps);
    c.inertia = r.get("inertia", c.inertia);
    c.strength = r.get("strength", c.strength);
    c.damping = r.get("damping", c.damping);
    c.mass = get_positive(r, "mass", c.mass);
    c.wind = r.get("wind", c.wind);
    c.gravity = r.get("gravity", c.gravity);
    c.mix = r.get("mix", c.mix);
    r.finish();
    return c;
  }

  // ---- events and skins ----

  EventDef read_event(const Node& node) {
    ObjectReader r(node);
    EventDef e;
    e.name = add_name(r, event_names_, static_cast<int>(s_.events.size()), "event");
    e.int_value = r.get("int", 0);
    e.float_value = r.get("float", 0.f);
    e.string_value = r.get("string", "");
    e.audio = r.get("audio", "");
    e.volume = get_in_range(r, "volume", 1, 0, 1);
    e.balance = get_in_range(r, "balance", 0, -1, 1);
    r.finish();
    return e;
  }

  Skin read_skin(const Node& node) {
    ObjectReader r(node);
    Skin skin;
    skin.name = add_name(r, skin_names_, static_cast<int>(s_.skins.size()), "skin");
    if (auto bones = r.optional("bones")) skin.bones = read_bone_list(*bones);
    for (ConstraintKind kind : kConstraintKinds) {
      const auto list = r.optional(to_string(kind));
      if (!list) continue;
      const std::size_t first = skin.constraints.size();
      for (const Node& item : list->items()) {
        const std::string& name = item.as_nonempty_string();
        const int index = s_.find_constraint(kind, name);
        if (index < 0) item.fail("unknown " + std::string(to_string(kind)) + " constraint \"" + name + "\"");
        const ConstraintRef ref{kind, index};
        if (std::find(skin.constraints.begin() + static_cast<std::ptrdiff_t>(first), skin.constraints.end(), ref) !=
            skin.constraints.end())
          item.fail(std::string(to_string(kind)) + " constraint \"" + name + "\" is listed twice");
        skin.constraints.push_back(ref);
      }
    }
    if (auto old = r.optional("constraints"))
      old->fail("skin-required constraints are listed per kind: \"ik\", \"transform\", \"path\", \"physics\"");
    if (auto attachments = r.optional("attachments")) {
      // (slot, name) -> path of the first, for duplicate messages.
      std::unordered_map<std::string, std::string> seen;
      for (const Node& item : attachments->items()) {
        Attachment a = detail::read_attachment(item, names_);
        const Node name = *member(item, "name");
        const auto [it, inserted] = seen.emplace(attachment_key(a.slot, a.name), name.path());
        if (!inserted)
          name.fail("duplicate attachment \"" + a.name + "\" for slot \"" + s_.slots[static_cast<std::size_t>(a.slot)].name +
                    "\" in this skin (first at " + it->second + ")");
        skin.attachments.push_back(std::move(a));
      }
    }
    r.finish();
    return skin;
  }

  // One key per (slot, attachment name).
  static std::string attachment_key(int slot, const std::string& name) { return std::to_string(slot) + '/' + name; }

  std::string add_name(ObjectReader& r, detail::NameIndex& table, int index, const std::string& what) {
    const Node node = r.required("name");
    std::string name = node.as_nonempty_string();
    table.add(node, name, index, what);
    return name;
  }

  SkeletonSource s_;
  detail::ReadNames names_;
  std::array<detail::NameIndex, 4> constraint_names_;  // one per ConstraintKind
  detail::NameIndex event_names_, skin_names_;
  std::unordered_map<int, std::string> orders_;  // explicit constraint order -> path of its first use
};

// ---- writing ----------------------------------------------------------------------------------

using detail::bone_name;
using detail::put_bool;
using detail::put_integer;
using detail::put_number;
using detail::put_string;
using detail::slot_name;
using detail::write_bool;
using detail::write_color;
using detail::write_float;
using detail::write_string;

void write_bone_names(Writer& w, const SkeletonSource& s, std::string_view key, const std::vector<int>& bones) {
  w.key(key);
  w.begin_array(Layout::Inline);
  for (int b : bones) w.string(bone_name(s, b));
  w.end_array();
}

// The name of a constraint reference; empty when out of range (the reader rejects that file).
const std::string& constraint_name(const SkeletonSource& s, ConstraintRef ref) {
  static const std::string none;
  if (ref.index < 0 || static_cast<std::size_t>(ref.index) >= s.constraint_count(ref.kind)) return none;
  return s.constraint_name(ref);
}

template <class C>
void write_common(Writer& w, const C& c, std::optional<int> order) {
  put_string(w, "name", c.name);
  if (order) put_integer(w, "order", *order);
  write_bool(w, "skinRequired", c.skin_required, false);
}

void write_import(Writer& w, const ImportSettings& im) {
  w.key("import");
  w.begin_object(Layout::Inline);
  put_string(w, "images", im.images);
  put_integer(w, "pageSize", im.page_size);
  put_integer(w, "padding", im.padding);
  put_number(w, "scale", im.scale);
  put_string(w, "filter", to_string(im.filter));
  put_bool(w, "mipmaps", im.mipmaps);
  put_string(w, "normalSuffix", im.normal_suffix);
  if (!im.trim) put_bool(w, "trim", false);
  w.end_object();
}

void write_bone(Writer& w, const SkeletonSource& s, const Bone& b) {
  w.begin_object(Layout::Inline);
  put_string(w, "name", b.name);
  if (b.parent >= 0) put_string(w, "parent", bone_name(s, b.parent));
  write_float(w, "x", b.x, 0);
  write_float(w, "y", b.y, 0);
  write_float(w, "rot", b.rotation, 0);
  write_float(w, "sx", b.scale_x, 1);
  write_float(w, "sy", b.scale_y, 1);
  write_float(w, "shx", b.shear_x, 0);
  write_float(w, "shy", b.shear_y, 0);
  write_float(w, "length", b.length, 0);
  if (b.inherit != Inherit::Normal) put_string(w, "inherit", to_string(b.inherit));
  write_color(w, "color", b.color, kDefaultBoneColor);
  write_bool(w, "skinRequired", b.skin_required, false);
  w.end_object();
}

void write_slot(Writer& w, const SkeletonSource& s, const Slot& slot) {
  w.begin_object(Layout::Inline);
  put_string(w, "name", slot.name);
  put_string(w, "bone", bone_name(s, slot.bone));
  write_string(w, "attachment", slot.attachment);
  write_color(w, "color", slot.color, Rgba8::white());
  if (slot.dark) put_string(w, "dark", to_hex_rgb(*slot.dark));
  if (slot.blend != BlendMode::Normal) put_string(w, "blend", to_string(slot.blend));
  w.end_object();
}

void write_ik(Writer& w, const SkeletonSource& s, const IkConstraint& c, std::optional<int> order) {
  w.begin_object(Layout::Inline);
  write_common(w, c, order);
  write_bone_names(w, s, "bones", c.bones);
  put_string(w, "target", bone_name(s, c.target));
  write_float(w, "mix", c.mix, 1);
  write_float(w, "softness", c.softness, 0);
  if (c.bend != 1) put_integer(w, "bend", c.bend);
  write_bool(w, "compress", c.compress, false);
  write_bool(w, "stretch", c.stretch, false);
  write_bool(w, "uniform", c.uniform, false);
  w.end_object();
}

void write_transform(Writer& w, const SkeletonSource& s, const TransformConstraint& c, std::optional<int> order) {
  w.begin_object(Layout::Inline);
  write_common(w, c, order);
  write_bone_names(w, s, "bones", c.bones);
  put_string(w, "target", bone_name(s, c.target));
  write_bool(w, "local", c.local, false);
  write_bool(w, "relative", c.relative, false);
  write_float(w, "mixRotate", c.mix_rotate, 1);
  write_float(w, "mixX", c.mix_x, 1);
  write_float(w, "mixY", c.mix_y, 1);
  write_float(w, "mixScaleX", c.mix_scale_x, 1);
  write_float(w, "mixScaleY", c.mix_scale_y, 1);
  write_float(w, "mixShearY", c.mix_shear_y, 1);
  write_float(w, "rotation", c.offset_rotation, 0);
  write_float(w, "x", c.offset_x, 0);
  write_float(w, "y", c.offset_y, 0);
  write_float(w, "scaleX", c.offset_scale_x, 0);
  write_float(w, "scaleY", c.offset_scale_y, 0);
  write_float(w, "shearY", c.offset_shear_y, 0);
  w.end_object();
}

void write_path(Writer& w, const SkeletonSource& s, const PathConstraint& c, std::optional<int> order) {
  const PathConstraint defaults;
  w.begin_object(Layout::Inline);
  write_common(w, c, order);
  write_bone_names(w, s, "bones", c.bones);
  put_string(w, "target", slot_name(s, c.target));
  if (c.position_mode != defaults.position_mode) put_string(w, "positionMode", to_string(c.position_mode));
  if (c.spacing_mode != defaults.spacing_mode) put_string(w, "spacingMode", to_string(c.spacing_mode));
  if (c.rotate_mode != defaults.rotate_mode) put_string(w, "rotateMode", to_string(c.rotate_mode));
  write_float(w, "rotation", c.offset_rotation, 0);
  write_float(w, "position", c.position, 0);
  write_float(w, "spacing", c.spacing, 0);
  write_float(w, "mixRotate", c.mix_rotate, 1);
  write_float(w, "mixX", c.mix_x, 1);
  write_float(w, "mixY", c.mix_y, 1);
  w.end_object();
}

void write_physics(Writer& w, const SkeletonSource& s, const PhysicsConstraint& c, std::optional<int> order) {
  const PhysicsConstraint d;
  w.begin_object(Layout::Inline);
  write_common(w, c, order);
  put_string(w, "bone", bone_name(s, c.bone));
  write_float(w, "x", c.x, d.x);
  write_float(w, "y", c.y, d.y);
  write_float(w, "rotate", c.rotate, d.rotate);
  write_float(w, "scaleX", c.scale_x, d.scale_x);
  write_float(w, "shearX", c.shear_x, d.shear_x);
  write_float(w, "limit", c.limit, d.limit);
  write_float(w, "fps", c.fps, d.fps);
  write_float(w, "inertia", c.inertia, d.inertia);
  write_float(w, "strength", c.strength, d.strength);
  write_float(w, "damping", c.damping, d.damping);
  write_float(w, "mass", c.mass, d.mass);
  write_float(w, "wind", c.wind, d.wind);
  write_float(w, "gravity", c.gravity, d.gravity);
  write_float(w, "mix", c.mix, d.mix);
  w.end_object();
}

void write_event(Writer& w, const SkeletonSource&, const EventDef& e) {
  w.begin_object(Layout::Inline);
  put_string(w, "name", e.name);
  if (e.int_value != 0) put_integer(w, "int", e.int_value);
  write_float(w, "float", e.float_value, 0);
  write_string(w, "string", e.string_value);
  write_string(w, "audio", e.audio);
  write_float(w, "volume", e.volume, 1);
  write_float(w, "balance", e.balance, 0);
  w.end_object();
}

void write_skin(Writer& w, const SkeletonSource& s, const Skin& skin) {
  w.begin_object(Layout::Block);
  put_string(w, "name", skin.name);
  if (!skin.bones.empty()) write_bone_names(w, s, "bones", skin.bones);
  for (ConstraintKind kind : kConstraintKinds) {
    if (std::none_of(skin.constraints.begin(), skin.constraints.end(), [&](ConstraintRef r) { return r.kind == kind; }))
      continue;
    w.key(to_string(kind));
    w.begin_array(Layout::Inline);
    for (const ConstraintRef& ref : skin.constraints)
      if (ref.kind == kind) w.string(constraint_name(s, ref));
    w.end_array();
  }
  w.key("attachments");
  w.begin_array(Layout::Block);
  for (const Attachment& a : skin.attachments) detail::write_attachment(w, s, a);
  w.end_array();
  w.end_object();
}

// A block array with one item per element.
template <class T>
void write_list(Writer& w, const SkeletonSource& s, std::string_view key, const std::vector<T>& items,
                void (*write_one)(Writer&, const SkeletonSource&, const T&)) {
  w.key(key);
  w.begin_array(Layout::Block);
  for (const T& item : items) write_one(w, s, item);
  w.end_array();
}

// A constraint list, each with the order SkeletonSource::canonical_orders() gives it.
template <class T>
void write_constraints(Writer& w, const SkeletonSource& s, ConstraintKind kind, const std::vector<T>& items,
                       const SkeletonSource::ConstraintOrders& orders,
                       void (*write_one)(Writer&, const SkeletonSource&, const T&, std::optional<int>)) {
  w.key(to_string(kind));
  w.begin_array(Layout::Block);
  for (std::size_t i = 0; i < items.size(); ++i) write_one(w, s, items[i], orders[static_cast<std::size_t>(kind)][i]);
  w.end_array();
}

void write_image(Writer& w, const SkeletonSource&, const ImageEntry& image) {
  w.begin_object(Layout::Inline);
  put_string(w, "name", image.name);
  write_string(w, "source", image.source);
  if (image.rect) {
    w.key("rect");
    w.begin_array(Layout::Inline);
    for (int v : {image.rect->x, image.rect->y, image.rect->width, image.rect->height}) w.integer(v);
    w.end_array();
  }
  w.end_object();
}

}  // namespace

Expected<SkeletonSource> read_skeleton(std::string_view text, const std::string& file) {
  auto doc = json::parse(text, file);
  if (!doc) return Unexpected{doc.error()};
  try {
    SkeletonSource skeleton = SkeletonReader().read(Node(*doc, "", file));
    skeleton.positions = json::SourceMap(*doc);
    return skeleton;
  } catch (const json::ReadError& e) {
    return Unexpected{e.error};
  }
}

Expected<SkeletonSource> read_skeleton_file(const std::string& path) {
  auto bytes = read_file(path);
  if (!bytes) return Unexpected{bytes.error()};
  return read_skeleton(*bytes, path);
}

std::string write_skeleton(const SkeletonSource& s) {
  Writer w;
  w.begin_object(Layout::Block);
  put_integer(w, "format", kSkeletonFormatVersion);
  put_string(w, "uid", s.uid);
  put_string(w, "type", "Skeleton");
  put_integer(w, "fps", s.fps);
  write_import(w, s.import);
  write_string(w, "clips", s.clips);
  if (!s.images.empty()) write_list(w, s, "images", s.images, &write_image);
  write_list(w, s, "bones", s.bones, &write_bone);
  write_list(w, s, "slots", s.slots, &write_slot);
  const auto orders = s.canonical_orders();
  write_constraints(w, s, ConstraintKind::Ik, s.ik, orders, &write_ik);
  write_constraints(w, s, ConstraintKind::Transform, s.transform, orders, &write_transform);
  write_constraints(w, s, ConstraintKind::Path, s.path, orders, &write_path);
  write_constraints(w, s, ConstraintKind::Physics, s.physics, orders, &write_physics);
  write_list(w, s, "events", s.events, &write_event);
  write_list(w, s, "skins", s.skins, &write_skin);
  w.end_object();
  return w.finish();
}

Status save_skeleton(const SkeletonSource& skeleton, const std::string& path) {
  return write_file_atomic(path, write_skeleton(skeleton));
}

}  // namespace mf::offline
