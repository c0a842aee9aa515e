// The attachment half of the `.mskel` reader and canonical writer: the seven attachment types, their
// vertices (plain or weighted), sequences, and the geometry checks. docs/format-mskel.md is the spec.

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "skeleton_format_internal.hpp"

namespace mf::offline::detail {
namespace {

using json::Layout;
using json::Node;
using json::ObjectReader;
using json::Writer;

const Rgba8 kBoundingBoxColor = BoundingBoxAttachment{}.color;
const Rgba8 kClippingColor = ClippingAttachment{}.color;
const Rgba8 kPointColor = PointAttachment{}.color;
const Rgba8 kPathColor = PathAttachment{}.color;
constexpr int kMaxSequenceDigits = 10;  // an int has at most 10 decimal digits

std::string count_text(std::size_t n) { return std::to_string(n); }

// ---- reading ----------------------------------------------------------------------------------

std::optional<Sequence> read_sequence(ObjectReader& r) {
  const auto node = r.optional("sequence");
  if (!node) return std::nullopt;
  ObjectReader s(*node);
  Sequence seq;
  seq.count = as_int_at_least(s.required("count"), 1);
  if (auto n = s.optional("start")) seq.start = as_int_at_least(*n, 0);
  if (auto n = s.optional("digits")) seq.digits = n->as_int(0, kMaxSequenceDigits);
  if (auto n = s.optional("setup")) {
    seq.setup = n->as_int();
    if (seq.setup < 0 || seq.setup >= seq.count)
      n->fail("setup frame " + std::to_string(seq.setup) + " is out of range: the sequence has " +
              std::to_string(seq.count) + " frames (0 to " + std::to_string(seq.count - 1) + ")");
  }
  s.finish();
  return seq;
}

std::vector<std::vector<InfluenceSource>> read_weights(const Node& node, const ReadNames& names) {
  ObjectReader r(node);
  const Node bones_node = r.required("bones");
  const Node v_node = r.required("v");
  r.finish();

  std::vector<int> local;  // the file's local bone list, as skeleton bone indices
  std::unordered_set<int> listed;
  for (const Node& b : bones_node.items()) {
    const int bone = resolve_bone(b, names);
    if (!listed.insert(bone).second) b.fail("bone \"" + b.as_string() + "\" is listed twice");
    local.push_back(bone);
  }
  // The vertex that last used each local bone: finds a bone named twice in one vertex in linear time.
  std::vector<std::size_t> last_use(local.size(), v_node.size());

  std::vector<std::vector<InfluenceSource>> out;
  out.reserve(v_node.size());
  for (std::size_t vi = 0; vi < v_node.size(); ++vi) {
    const Node vertex = v_node[vi];
    const std::size_t n = vertex.size();
    if (n == 0) vertex.fail("a weighted vertex needs at least one influence [bone, weight, x, y]");
    if (n % 4 != 0)
      vertex.fail("expected 4 numbers per influence [bone, weight, x, y], found " + count_text(n) + " numbers");
    std::vector<InfluenceSource> influences;
    influences.reserve(n / 4);
    for (std::size_t k = 0; k < n; k += 4) {
      const Node b = vertex[k];
      const int local_index = b.as_int();
      if (local_index < 0 || static_cast<std::size_t>(local_index) >= local.size())
        b.fail("bone index " + std::to_string(local_index) + " is out of range: \"bones\" lists " +
               count_text(local.size()) + " bones");
      const auto li = static_cast<std::size_t>(local_index);
      if (last_use[li] == vi) b.fail("bone \"" + bones_node[li].as_string() + "\" influences this vertex twice");
      last_use[li] = vi;
      influences.push_back(
          {local[li], vertex[k + 1].as_float(), vertex[k + 2].as_float(), vertex[k + 3].as_float()});
    }
    out.push_back(std::move(influences));
  }
  return out;
}

// Vertices and the node they came from (for count errors).
struct ReadVertices {
  Vertices vertices;
  Node node;
};

ReadVertices read_vertices(ObjectReader& r, const ReadNames& names) {
  const auto plain = r.optional("vertices");
  const auto weighted = r.optional("weights");
  if (plain && weighted) weighted->fail("an attachment has either \"vertices\" or \"weights\", not both");
  if (!plain && !weighted) r.node().fail("missing required key \"vertices\" or \"weights\"");
  Vertices v;
  if (plain) {
    v.positions = plain->as_floats();
    if (v.positions.size() % 2 != 0)
      plain->fail("expected x, y pairs, found an odd count of " + count_text(v.positions.size()) + " numbers");
    return {std::move(v), *plain};
  }
  v.weights = read_weights(*weighted, names);
  return {std::move(v), *weighted};
}

void require_vertices(const ReadVertices& v, std::size_t min, const char* what) {
  if (v.vertices.count() < min)
    v.node.fail(std::string(what) + " needs at least " + count_text(min) + " vertices, found " +
                count_text(v.vertices.count()));
}

// Vertex indices (triangles, edges) must name existing vertices.
void check_indices(const Node& node, const std::vector<int>& indices, std::size_t vertex_count) {
  for (std::size_t i = 0; i < indices.size(); ++i)
    if (indices[i] < 0 || static_cast<std::size_t>(indices[i]) >= vertex_count)
      node[i].fail("vertex index " + std::to_string(indices[i]) + " is out of range: the mesh has " +
                   count_text(vertex_count) + " vertices");
}

RegionAttachment read_region(ObjectReader& r) {
  RegionAttachment a;
  a.image = r.get("image", "");
  a.x = r.get("x", 0.f);
  a.y = r.get("y", 0.f);
  a.rotation = r.get("rot", 0.f);
  a.scale_x = r.get("sx", 1.f);
  a.scale_y = r.get("sy", 1.f);
  a.width = get_nonnegative(r, "width", 0);
  a.height = get_nonnegative(r, "height", 0);
  a.color = r.get_color("color", Rgba8::white());
  a.sequence = read_sequence(r);
  return a;
}

MeshAttachment read_mesh(ObjectReader& r, const ReadNames& names) {
  MeshAttachment a;
  a.image = r.get("image", "");
  a.color = r.get_color("color", Rgba8::white());
  a.width = get_nonnegative(r, "width", 0);
  a.height = get_nonnegative(r, "height", 0);
  const Node hull = r.required("hull");
  const Node uvs = r.required("uvs");
  const Node triangles = r.required("triangles");
  const auto edges = r.optional("edges");
  ReadVertices v = read_vertices(r, names);
  a.sequence = read_sequence(r);

  require_vertices(v, 3, "a mesh");
  const std::size_t n = v.vertices.count();
  a.vertices = std::move(v.vertices);
  a.hull = hull.as_int();
  if (a.hull < 3 || static_cast<std::size_t>(a.hull) > n)
    hull.fail("hull must be from 3 to the vertex count (" + count_text(n) + "), found " + std::to_string(a.hull));
  a.uvs = uvs.as_floats();
  if (a.uvs.size() != 2 * n)
    uvs.fail("expected 2 numbers per vertex (" + count_text(2 * n) + " for " + count_text(n) + " vertices), found " +
             count_text(a.uvs.size()));
  a.triangles = triangles.as_ints();
  if (a.triangles.empty()) triangles.fail("a mesh needs at least one triangle");
  if (a.triangles.size() % 3 != 0)
    triangles.fail("expected 3 vertex indices per triangle, found " + count_text(a.triangles.size()) + " indices");
  check_indices(triangles, a.triangles, n);
  if (edges) {
    a.edges = edges->as_ints();
    if (a.edges.size() % 2 != 0)
      edges->fail("expected pairs of vertex indices, found " + count_text(a.edges.size()) + " indices");
    check_indices(*edges, a.edges, n);
  }
  return a;
}

LinkedMeshAttachment read_linked_mesh(ObjectReader& r) {
  LinkedMeshAttachment a;
  a.parent = read_name(r, "parent");
  if (auto skin = r.optional("skin")) a.skin = skin->as_nonempty_string();
  a.image = r.get("image", "");
  a.color = r.get_color("color", Rgba8::white());
  a.deform = r.get("deform", true);
  a.sequence = read_sequence(r);
  return a;
}

BoundingBoxAttachment read_bounding_box(ObjectReader& r, const ReadNames& names) {
  BoundingBoxAttachment a;
  ReadVertices v = read_vertices(r, names);
  require_vertices(v, 3, "a bounding box");
  a.vertices = std::move(v.vertices);
  a.color = r.get_color("color", kBoundingBoxColor);
  return a;
}

ClippingAttachment read_clipping(ObjectReader& r, const ReadNames& names) {
  ClippingAttachment a;
  if (auto end = r.optional("end")) a.end_slot = resolve_slot(*end, names);
  ReadVertices v = read_vertices(r, names);
  require_vertices(v, 3, "a clipping polygon");
  a.vertices = std::move(v.vertices);
  a.color = r.get_color("color", kClippingColor);
  return a;
}

PointAttachment read_point(ObjectReader& r) {
  PointAttachment a;
  a.x = r.get("x", 0.f);
  a.y = r.get("y", 0.f);
  a.rotation = r.get("rot", 0.f);
  a.color = r.get_color("color", kPointColor);
  return a;
}

PathAttachment read_path(ObjectReader& r, const ReadNames& names) {
  PathAttachment a;
  a.closed = r.get("closed", false);
  a.constant_speed = r.get("constantSpeed", true);
  const Node lengths = r.required("lengths");
  ReadVertices v = read_vertices(r, names);
  a.color = r.get_color("color", kPathColor);

  const std::size_t points = v.vertices.count();
  if (points % 3 != 0)
    v.node.fail("path control points come 3 per knot (in, point, out), found " + count_text(points) + " points");
  const std::size_t knots = points / 3;
  if (knots < 2) v.node.fail("a path needs at least 2 knots (6 control points), found " + count_text(knots));
  a.vertices = std::move(v.vertices);
  const std::size_t segments = a.closed ? knots : knots - 1;
  a.lengths = lengths.as_floats();
  if (a.lengths.size() != segments)
    lengths.fail("expected one length per segment (" + count_text(segments) + " for " + count_text(knots) + " knots, " +
                 (a.closed ? "closed" : "open") + "), found " + count_text(a.lengths.size()));
  for (std::size_t i = 0; i < a.lengths.size(); ++i) {
    const float previous = i == 0 ? 0.f : a.lengths[i - 1];
    if (a.lengths[i] < previous)
      lengths[i].fail("lengths are cumulative and must not decrease (" + json::format_float(a.lengths[i]) +
                      " after " + json::format_float(previous) + ")");
  }
  return a;
}

// ---- writing ----------------------------------------------------------------------------------

void write_floats(Writer& w, std::string_view key, const std::vector<float>& values) {
  w.key(key);
  w.begin_array(Layout::Inline);
  for (float v : values) write_number(w, v);
  w.end_array();
}

void write_ints(Writer& w, std::string_view key, const std::vector<int>& values) {
  w.key(key);
  w.begin_array(Layout::Inline);
  for (int v : values) w.integer(v);
  w.end_array();
}

void write_vertices(Writer& w, const SkeletonSource& s, const Vertices& v) {
  if (!v.weighted()) {
    write_floats(w, "vertices", v.positions);
    return;
  }
  // The local bone list in order of first use, so equal weights always give equal text.
  std::vector<int> local;
  std::unordered_map<int, int> local_index;
  for (const auto& vertex : v.weights)
    for (const InfluenceSource& influence : vertex)
      if (local_index.emplace(influence.bone, static_cast<int>(local.size())).second) local.push_back(influence.bone);

  w.key("weights");
  w.begin_object(Layout::Block);
  w.key("bones");
  w.begin_array(Layout::Inline);
  for (int bone : local) w.string(bone_name(s, bone));
  w.end_array();
  w.key("v");
  w.begin_array(Layout::Block);
  for (const auto& vertex : v.weights) {
    w.begin_array(Layout::Inline);
    for (const InfluenceSource& influence : vertex) {
      w.integer(local_index.at(influence.bone));
      write_number(w, influence.weight);
      write_number(w, influence.x);
      write_number(w, influence.y);
    }
    w.end_array();
  }
  w.end_array();
  w.end_object();
}

void write_sequence(Writer& w, const std::optional<Sequence>& sequence) {
  if (!sequence) return;
  const Sequence defaults;
  w.key("sequence");
  w.begin_object(Layout::Inline);
  put_integer(w, "count", sequence->count);
  if (sequence->start != defaults.start) put_integer(w, "start", sequence->start);
  if (sequence->digits != defaults.digits) put_integer(w, "digits", sequence->digits);
  if (sequence->setup != defaults.setup) put_integer(w, "setup", sequence->setup);
  w.end_object();
}

void write_data(Writer& w, const SkeletonSource&, const RegionAttachment& a) {
  write_string(w, "image", a.image);
  write_float(w, "x", a.x, 0);
  write_float(w, "y", a.y, 0);
  write_float(w, "rot", a.rotation, 0);
  write_float(w, "sx", a.scale_x, 1);
  write_float(w, "sy", a.scale_y, 1);
  write_float(w, "width", a.width, 0);
  write_float(w, "height", a.height, 0);
  write_color(w, "color", a.color, Rgba8::white());
  write_sequence(w, a.sequence);
}

void write_data(Writer& w, const SkeletonSource& s, const MeshAttachment& a) {
  write_string(w, "image", a.image);
  write_color(w, "color", a.color, Rgba8::white());
  write_float(w, "width", a.width, 0);
  write_float(w, "height", a.height, 0);
  put_integer(w, "hull", a.hull);
  write_floats(w, "uvs", a.uvs);
  write_ints(w, "triangles", a.triangles);
  if (!a.edges.empty()) write_ints(w, "edges", a.edges);
  write_vertices(w, s, a.vertices);
  write_sequence(w, a.sequence);
}

void write_data(Writer& w, const SkeletonSource&, const LinkedMeshAttachment& a) {
  put_string(w, "parent", a.parent);
  write_string(w, "skin", a.skin);
  write_string(w, "image", a.image);
  write_color(w, "color", a.color, Rgba8::white());
  write_bool(w, "deform", a.deform, true);
  write_sequence(w, a.sequence);
}

void write_data(Writer& w, const SkeletonSource& s, const BoundingBoxAttachment& a) {
  write_vertices(w, s, a.vertices);
  write_color(w, "color", a.color, kBoundingBoxColor);
}

void write_data(Writer& w, const SkeletonSource& s, const ClippingAttachment& a) {
  if (a.end_slot >= 0) put_string(w, "end", slot_name(s, a.end_slot));
  write_vertices(w, s, a.vertices);
  write_color(w, "color", a.color, kClippingColor);
}

void write_data(Writer& w, const SkeletonSource&, const PointAttachment& a) {
  write_float(w, "x", a.x, 0);
  write_float(w, "y", a.y, 0);
  write_float(w, "rot", a.rotation, 0);
  write_color(w, "color", a.color, kPointColor);
}

void write_data(Writer& w, const SkeletonSource& s, const PathAttachment& a) {
  write_bool(w, "closed", a.closed, false);
  write_bool(w, "constantSpeed", a.constant_speed, true);
  write_floats(w, "lengths", a.lengths);
  write_vertices(w, s, a.vertices);
  write_color(w, "color", a.color, kPathColor);
}

}  // namespace

Attachment read_attachment(const Node& node, const ReadNames& names) {
  ObjectReader r(node);
  Attachment a;
  a.slot = resolve_slot(r.required("slot"), names);
  a.name = read_name(r, "name");
  const AttachmentType type = read_enum(r.required("type"), "attachment type", &parse_attachment_type, 7);
  switch (type) {
    case AttachmentType::Region: a.data = read_region(r); break;
    case AttachmentType::Mesh: a.data = read_mesh(r, names); break;
    case AttachmentType::LinkedMesh: a.data = read_linked_mesh(r); break;
    case AttachmentType::BoundingBox: a.data = read_bounding_box(r, names); break;
    case AttachmentType::Clipping: a.data = read_clipping(r, names); break;
    case AttachmentType::Point: a.data = read_point(r); break;
    case AttachmentType::Path: a.data = read_path(r, names); break;
  }
  r.finish();
  return a;
}

void check_linked_meshes(const SkeletonSource& skeleton, const Node& skins) {
  for (std::size_t si = 0; si < skeleton.skins.size(); ++si) {
    const Skin& skin = skeleton.skins[si];
    for (std::size_t ai = 0; ai < skin.attachments.size(); ++ai) {
      const Attachment& attachment = skin.attachments[ai];
      const auto* linked = std::get_if<LinkedMeshAttachment>(&attachment.data);
      if (!linked) continue;
      const Node node = (*member(skins[si], "attachments"))[ai];

      int parent_skin = static_cast<int>(si);
      if (!linked->skin.empty()) {
        parent_skin = skeleton.find_skin(linked->skin);
        if (parent_skin < 0) member(node, "skin")->fail("unknown skin \"" + linked->skin + "\"");
      }
      const Skin& owner = skeleton.skins[static_cast<std::size_t>(parent_skin)];
      const auto parent = std::find_if(owner.attachments.begin(), owner.attachments.end(), [&](const Attachment& a) {
        return a.slot == attachment.slot && a.name == linked->parent;
      });
      const Node parent_node = *member(node, "parent");
      if (parent == owner.attachments.end())
        parent_node.fail("unknown parent mesh \"" + linked->parent + "\": skin \"" + owner.name +
                         "\" has no such attachment for slot \"" + slot_name(skeleton, attachment.slot) + "\"");
      if (parent->type() != AttachmentType::Mesh)
        parent_node.fail("the parent \"" + linked->parent + "\" is a " + to_string(parent->type()) +
                         " attachment; a linked mesh's parent must be a Mesh");
    }
  }
}

void write_attachment(Writer& w, const SkeletonSource& skeleton, const Attachment& attachment) {
  const AttachmentType type = attachment.type();
  const bool one_line =
      type == AttachmentType::Region || type == AttachmentType::Point || type == AttachmentType::LinkedMesh;
  w.begin_object(one_line ? Layout::Inline : Layout::Block);
  put_string(w, "slot", slot_name(skeleton, attachment.slot));
  put_string(w, "name", attachment.name);
  put_string(w, "type", to_string(type));
  std::visit([&](const auto& data) { write_data(w, skeleton, data); }, attachment.data);
  w.end_object();
}

}  // namespace mf::offline::detail
