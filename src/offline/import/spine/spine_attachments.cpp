// Skins and attachments of the Spine importer. Positions flip to Y-down (vertex y, region and point
// y and rotation); mesh UVs are image coordinates with v down in both formats and stay as they are.
// Weighted vertices come as [bone count, (bone, x, y, weight) × count] per vertex and become our
// per-vertex influence lists.

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include "mf/offline/json/json_path.hpp"
#include "spine_json_reader.hpp"

namespace mf::offline::spine {
namespace {

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }
float flip(float v) { return v == 0 ? 0.0f : -v; }

// A linked mesh waiting for its parent (which may live in a skin read later).
struct PendingLink {
  std::size_t skin;
  std::size_t attachment;
  std::string parent_skin;
  std::string path;
  const json::Value* value;
};

class SkinConverter {
 public:
  SkinConverter(SkeletonSource& s, const Context& c, EditorOnlyKeys& e) : s_(s), c_(c), editor_(e) {}

  void run(const json::Value& skins, const std::string& path) {
    expect_type(c_, skins, path, json::Type::Array);
    for (std::size_t i = 0; i < skins.items.size(); ++i) read_skin(skins.items[i], json::path_index(path, i));
    resolve_links();
    std::sort(s_.images.begin(), s_.images.end(),
              [](const ImageEntry& a, const ImageEntry& b) { return a.name < b.name; });
  }

 private:
  SkeletonSource& s_;
  const Context& c_;
  EditorOnlyKeys& editor_;
  std::set<std::string> images_;
  std::vector<PendingLink> links_;

  void use_image(const std::string& name) {
    if (images_.insert(name).second) s_.images.push_back({name, {}});
  }

  void use_images(const std::string& base, const std::optional<Sequence>& seq) {
    if (!seq) return use_image(base);
    for (int f = 0; f < seq->count; ++f) {
      std::string digits = std::to_string(seq->start + f);
      if (static_cast<int>(digits.size()) < seq->digits)
        digits.insert(0, static_cast<std::size_t>(seq->digits) - digits.size(), '0');
      use_image(base + digits);
    }
  }

  void read_skin(const json::Value& v, const std::string& path) {
    ObjectReader r(c_, v, path);
    Skin skin;
    skin.name = r.required_string("name");
    if (s_.find_skin(skin.name) >= 0) fail(c_, r.get("name"), r.at("name"), "duplicate skin name " + in_quotes(skin.name));
    if (const json::Value* bones = r.optional("bones", json::Type::Array)) {
      const std::vector<std::string> names = read_strings(c_, *bones, r.at("bones"));
      for (std::size_t i = 0; i < names.size(); ++i) {
        const int b = s_.find_bone(names[i]);
        if (b < 0) fail(c_, &bones->items[i], json::path_index(r.at("bones"), i), "unknown bone " + in_quotes(names[i]));
        skin.bones.push_back(b);
      }
    }
    // Per-kind lists name constraints of that kind; the 4.3 "constraints" list names any kind.
    constexpr std::array<std::pair<const char*, std::optional<ConstraintKind>>, 5> kLists = {{
        {"ik", ConstraintKind::Ik},
        {"transform", ConstraintKind::Transform},
        {"path", ConstraintKind::Path},
        {"physics", ConstraintKind::Physics},
        {"constraints", std::nullopt},
    }};
    for (const auto& [key, list_kind] : kLists) {
      const json::Value* list = r.optional(key, json::Type::Array);
      if (!list) continue;
      const std::vector<std::string> names = read_strings(c_, *list, r.at(key));
      for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string where = json::path_index(r.at(key), i);
        std::vector<ConstraintRef> refs;
        for (ConstraintKind kind : {ConstraintKind::Ik, ConstraintKind::Transform, ConstraintKind::Path, ConstraintKind::Physics})
          if (!list_kind || *list_kind == kind)
            if (const int index = s_.find_constraint(kind, names[i]); index >= 0) refs.push_back({kind, index});
        if (refs.empty()) {
          // A slider (4.3) was reported where it was defined; anything else is a broken reference.
          if (!list_kind) {
            c_.note(where, "skin-required constraint " + in_quotes(names[i]) + " was not imported");
            continue;
          }
          fail(c_, &list->items[i], where, std::string("unknown ") + key + " constraint " + in_quotes(names[i]));
        }
        if (refs.size() > 1)
          fail(c_, &list->items[i], where,
               "constraint " + in_quotes(names[i]) + " is ambiguous: constraints of " + std::to_string(refs.size()) +
                   " kinds have that name");
        if (std::find(skin.constraints.begin(), skin.constraints.end(), refs[0]) == skin.constraints.end())
          skin.constraints.push_back(refs[0]);
      }
    }
    const std::size_t skin_index = s_.skins.size();
    s_.skins.push_back(std::move(skin));
    if (const json::Value* atts = r.optional("attachments", json::Type::Object)) {
      for (const json::Member& slot_entry : atts->members) {
        const std::string slot_path = json::path_key(r.at("attachments"), slot_entry.first);
        const int slot = s_.find_slot(slot_entry.first);
        if (slot < 0) fail(c_, &slot_entry.second, slot_path, "unknown slot " + in_quotes(slot_entry.first));
        expect_type(c_, slot_entry.second, slot_path, json::Type::Object);
        for (const json::Member& a : slot_entry.second.members)
          read_attachment(skin_index, slot, a.first, a.second, json::path_key(slot_path, a.first));
      }
    }
    r.finish({"color"}, &editor_);
  }

  std::optional<Sequence> read_sequence(ObjectReader& r) {
    const json::Value* v = r.optional("sequence", json::Type::Object);
    if (!v) return std::nullopt;
    ObjectReader sr(c_, *v, r.at("sequence"));
    Sequence seq;
    const json::Value& count = sr.required("count", json::Type::Number);
    seq.count = sr.integer("count", 1);
    seq.start = sr.integer("start", 1);
    seq.digits = sr.integer("digits", 0);
    seq.setup = sr.integer("setup", 0);
    if (seq.count < 1 || seq.count > 100000) fail(c_, &count, sr.at("count"), "sequence count must be within 1–100000");
    if (seq.start < 0) fail(c_, sr.get("start"), sr.at("start"), "sequence start must be >= 0");
    if (seq.digits < 0 || seq.digits > 10) fail(c_, sr.get("digits"), sr.at("digits"), "sequence digits must be within 0–10");
    if (seq.setup < 0 || seq.setup >= seq.count)
      fail(c_, sr.get("setup"), sr.at("setup"), "sequence setup frame is outside [0, count)");
    sr.finish();
    return seq;
  }

  // Spine's vertices: x, y pairs when there are exactly 2 numbers per vertex, weighted otherwise.
  Vertices read_vertices(ObjectReader& r, std::size_t count) {
    const json::Value& arr = r.required("vertices", json::Type::Array);
    const std::string path = r.at("vertices");
    const std::vector<float> f = read_numbers(c_, arr, path);
    Vertices out;
    if (f.size() == 2 * count) {
      out.positions = f;
      for (std::size_t i = 1; i < out.positions.size(); i += 2) out.positions[i] = flip(out.positions[i]);
      return out;
    }
    std::size_t i = 0;
    for (std::size_t v = 0; v < count; ++v) {
      if (i >= f.size())
        fail(c_, &arr, path, "has weights for " + std::to_string(v) + " of " + std::to_string(count) + " vertices");
      const float n = f[i];
      if (n < 1 || n != std::floor(n) || i + 1 + 4 * static_cast<std::size_t>(n) > f.size())
        fail(c_, &arr.items[i], json::path_index(path, i),
             "expected a bone count for vertex " + std::to_string(v) + " followed by that many (bone, x, y, weight) groups");
      ++i;
      std::vector<InfluenceSource> influences;
      for (int k = 0; k < static_cast<int>(n); ++k, i += 4) {
        const float b = f[i];
        if (b < 0 || b != std::floor(b) || b >= static_cast<float>(s_.bones.size()))
          fail(c_, &arr.items[i], json::path_index(path, i), "bone index " + std::to_string(b) + " is out of range");
        influences.push_back({static_cast<int>(b), f[i + 3], f[i + 1], flip(f[i + 2])});
      }
      out.weights.push_back(std::move(influences));
    }
    if (i != f.size())
      fail(c_, &arr, path, "has " + std::to_string(f.size() - i) + " numbers after the last of " + std::to_string(count) + " vertices");
    return out;
  }

  std::size_t vertex_count(ObjectReader& r, std::size_t minimum) {
    const int n = r.integer("vertexCount", -1);
    if (n < 0) fail(c_, &r.value(), r.path(), "missing required key \"vertexCount\"");
    if (static_cast<std::size_t>(n) < minimum)
      fail(c_, r.get("vertexCount"), r.at("vertexCount"), "needs at least " + std::to_string(minimum) + " vertices");
    return static_cast<std::size_t>(n);
  }

  void read_attachment(std::size_t skin, int slot, const std::string& key, const json::Value& v, const std::string& path) {
    ObjectReader r(c_, v, path);
    const std::string type = r.string("type", "region");
    // "name" is the attachment's own name, "path" the image; the skin key is what slots and
    // timelines refer to, so it becomes our attachment name.
    const std::string name = r.string("name", key);
    const std::string image_base = r.string("path", name);
    const std::string image = image_base == key ? std::string() : image_base;
    Attachment a;
    a.slot = slot;
    a.name = key;
    if (type == "region") {
      RegionAttachment g;
      g.image = image;
      g.x = r.number("x", 0);
      g.y = flip(r.number("y", 0));
      g.rotation = flip(r.number("rotation", 0));
      g.scale_x = r.number("scaleX", 1);
      g.scale_y = r.number("scaleY", 1);
      g.width = r.number("width", 32);
      g.height = r.number("height", 32);
      if (g.width < 0 || g.height < 0) fail(c_, &v, path, "width and height must be >= 0");
      if (std::optional<Rgba8> col = r.color("color")) g.color = *col;
      g.sequence = read_sequence(r);
      use_images(image_base, g.sequence);
      a.data = std::move(g);
    } else if (type == "mesh") {
      MeshAttachment g;
      g.image = image;
      g.uvs = read_numbers(c_, r.required("uvs", json::Type::Array), r.at("uvs"));
      if (g.uvs.size() % 2 != 0 || g.uvs.size() < 6)
        fail(c_, r.get("uvs"), r.at("uvs"), "expected u, v pairs for at least 3 vertices");
      const std::size_t count = g.uvs.size() / 2;
      g.triangles = read_integers(c_, r.required("triangles", json::Type::Array), r.at("triangles"));
      if (g.triangles.empty() || g.triangles.size() % 3 != 0)
        fail(c_, r.get("triangles"), r.at("triangles"), "expected 3 vertex indices per triangle");
      for (std::size_t t = 0; t < g.triangles.size(); ++t)
        if (g.triangles[t] < 0 || static_cast<std::size_t>(g.triangles[t]) >= count)
          fail(c_, &r.get("triangles")->items[t], json::path_index(r.at("triangles"), t),
               "vertex index " + std::to_string(g.triangles[t]) + " is out of range (" + std::to_string(count) + " vertices)");
      g.vertices = read_vertices(r, count);
      g.hull = r.integer("hull", 0);
      if (g.hull < 3 || static_cast<std::size_t>(g.hull) > count) {
        c_.note(r.at("hull"), "hull count " + std::to_string(g.hull) + " is outside [3, " + std::to_string(count) +
                                  "]; the outline is taken as every vertex");
        g.hull = static_cast<int>(count);
      }
      if (const json::Value* e = r.optional("edges", json::Type::Array)) {
        g.edges = read_integers(c_, *e, r.at("edges"));
        // Spine writes each edge end as a doubled vertex index (an offset into x, y pairs).
        bool bad = g.edges.size() % 2 != 0;
        for (int& x : g.edges) {
          bad = bad || x < 0 || x % 2 != 0 || static_cast<std::size_t>(x / 2) >= count;
          x /= 2;
        }
        if (bad) {
          c_.note(r.at("edges"), "editor edges do not fit the mesh; not imported");
          g.edges.clear();
        }
      }
      g.width = std::max(0.0f, r.number("width", 0));
      g.height = std::max(0.0f, r.number("height", 0));
      if (std::optional<Rgba8> col = r.color("color")) g.color = *col;
      g.sequence = read_sequence(r);
      use_images(image_base, g.sequence);
      a.data = std::move(g);
    } else if (type == "linkedmesh") {
      LinkedMeshAttachment g;
      g.image = image;
      g.parent = r.required_string("parent");
      // 4.0 onwards: "timelines"; 3.x wrote "deform".
      g.deform = r.boolean(r.has("timelines") ? "timelines" : "deform", true);
      if (std::optional<Rgba8> col = r.color("color")) g.color = *col;
      g.sequence = read_sequence(r);
      r.skip("width");
      r.skip("height");  // the parent's image size; ours lives on the parent mesh only
      use_images(image_base, g.sequence);
      links_.push_back({skin, s_.skins[skin].attachments.size(), r.string("skin", "default"), path, &v});
      a.data = std::move(g);
    } else if (type == "boundingbox") {
      BoundingBoxAttachment g;
      g.vertices = read_vertices(r, vertex_count(r, 3));
      if (std::optional<Rgba8> col = r.color("color")) g.color = *col;
      a.data = std::move(g);
    } else if (type == "clipping") {
      ClippingAttachment g;
      g.vertices = read_vertices(r, vertex_count(r, 3));
      if (const json::Value* end = r.optional("end", json::Type::String)) {
        g.end_slot = s_.find_slot(end->string);
        if (g.end_slot < 0) fail(c_, end, r.at("end"), "unknown slot " + in_quotes(end->string));
      }
      if (std::optional<Rgba8> col = r.color("color")) g.color = *col;
      a.data = std::move(g);
    } else if (type == "point") {
      PointAttachment g;
      g.x = r.number("x", 0);
      g.y = flip(r.number("y", 0));
      g.rotation = flip(r.number("rotation", 0));
      if (std::optional<Rgba8> col = r.color("color")) g.color = *col;
      a.data = std::move(g);
    } else if (type == "path") {
      PathAttachment g;
      const std::size_t count = vertex_count(r, 6);
      if (count % 3 != 0) fail(c_, r.get("vertexCount"), r.at("vertexCount"), "a path has 3 control points per knot");
      g.vertices = read_vertices(r, count);
      g.closed = r.boolean("closed", false);
      g.constant_speed = r.boolean("constantSpeed", true);
      g.lengths = read_numbers(c_, r.required("lengths", json::Type::Array), r.at("lengths"));
      // Spine lists a length per knot; an open path has one segment fewer, whose entry is unused.
      const std::size_t segments = count / 3 - (g.closed ? 0 : 1);
      if (g.lengths.size() < segments)
        fail(c_, r.get("lengths"), r.at("lengths"),
             "has " + std::to_string(g.lengths.size()) + " lengths for " + std::to_string(segments) + " segments");
      g.lengths.resize(segments);
      for (std::size_t i = 1; i < g.lengths.size(); ++i) g.lengths[i] = std::max(g.lengths[i], g.lengths[i - 1]);
      if (std::optional<Rgba8> col = r.color("color")) g.color = *col;
      a.data = std::move(g);
    } else {
      fail(c_, r.get("type"), r.at("type"), "unknown attachment type " + in_quotes(type));
    }
    r.finish();
    s_.skins[skin].attachments.push_back(std::move(a));
  }

  const Attachment* find(std::size_t skin, int slot, const std::string& name) const {
    for (const Attachment& a : s_.skins[skin].attachments)
      if (a.slot == slot && a.name == name) return &a;
    return nullptr;
  }

  void resolve_links() {
    for (const PendingLink& link : links_) {
      Attachment& a = s_.skins[link.skin].attachments[link.attachment];
      auto& g = std::get<LinkedMeshAttachment>(a.data);
      int parent_skin = s_.find_skin(link.parent_skin);
      if (parent_skin < 0)
        fail(c_, link.value, json::path_key(link.path, "skin"), "unknown skin " + in_quotes(link.parent_skin));
      std::string parent = g.parent;
      // A linked mesh whose parent is itself linked shares the root mesh's geometry.
      for (int hops = 0;; ++hops) {
        const Attachment* p = find(static_cast<std::size_t>(parent_skin), a.slot, parent);
        if (!p)
          fail(c_, link.value, json::path_key(link.path, "parent"),
               "skin " + in_quotes(s_.skins[static_cast<std::size_t>(parent_skin)].name) + " has no attachment " +
                   in_quotes(parent) + " for slot " + in_quotes(s_.slots[static_cast<std::size_t>(a.slot)].name));
        if (p->type() == AttachmentType::Mesh) break;
        if (p->type() != AttachmentType::LinkedMesh || hops > 64)
          fail(c_, link.value, json::path_key(link.path, "parent"), "the parent " + in_quotes(parent) + " is not a mesh");
        // Follow the parent's own link (found among the pending ones).
        bool followed = false;
        for (const PendingLink& other : links_)
          if (&s_.skins[other.skin].attachments[other.attachment] == p) {
            parent_skin = s_.find_skin(other.parent_skin);
            if (parent_skin < 0) fail(c_, other.value, json::path_key(other.path, "skin"), "unknown skin " + in_quotes(other.parent_skin));
            parent = std::get<LinkedMeshAttachment>(p->data).parent;
            followed = true;
            break;
          }
        if (!followed) fail(c_, link.value, json::path_key(link.path, "parent"), "the parent " + in_quotes(parent) + " is not a mesh");
        if (hops == 0) c_.note(link.path, "the parent is a linked mesh; linked to its mesh " + in_quotes(parent) + " instead");
      }
      g.parent = parent;
      g.skin = static_cast<std::size_t>(parent_skin) == link.skin ? std::string() : s_.skins[static_cast<std::size_t>(parent_skin)].name;
    }
  }
};

}  // namespace

void convert_skins(const json::Value& skins, const std::string& path, SkeletonSource& skeleton, const Context& context,
                   EditorOnlyKeys& editor_only) {
  SkinConverter(skeleton, context, editor_only).run(skins, path);
}

}  // namespace mf::offline::spine
