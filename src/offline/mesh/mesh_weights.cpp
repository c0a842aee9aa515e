#include "mf/offline/mesh/mesh_weights.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "mf/offline/format/setup_world.hpp"
#include "mf/offline/json/json_path.hpp"

namespace mf::offline {
namespace {

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

Unexpected fail(std::string path, std::string message) { return Unexpected{Error{"", std::move(path), {}, std::move(message)}}; }

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

const Attachment& attachment_of(const SkeletonSource& s, MeshRef m) {
  return s.skins[static_cast<std::size_t>(m.skin)].attachments[static_cast<std::size_t>(m.attachment)];
}

// The name a user knows an attachment by: skin/slot/attachment.
std::string mesh_name(const SkeletonSource& s, MeshRef m) {
  const Attachment& a = attachment_of(s, m);
  return quoted(a.name) + " (skin " + quoted(s.skins[static_cast<std::size_t>(m.skin)].name) + ", slot " +
         quoted(s.slots[static_cast<std::size_t>(a.slot)].name) + ")";
}

// The clips with deform keys on the mesh's vertices, directly or through a linked mesh sharing them.
std::vector<std::string> clips_deforming(const SkeletonSource& s, const Vertices& vertices, std::span<const NamedClip> clips) {
  std::vector<std::string> out;
  for (const NamedClip& c : clips) {
    bool found = false;
    for (const DeformTimeline& tl : c.clip->deforms) {
      const int skin = s.find_skin(tl.skin);
      const int slot = s.find_slot(tl.slot);
      if (skin < 0 || slot < 0) continue;
      for (const Attachment& a : s.skins[static_cast<std::size_t>(skin)].attachments)
        if (a.slot == slot && a.name == tl.attachment && deform_vertices(s, skin, a).vertices == &vertices) found = true;
    }
    if (found) out.push_back(quoted(c.name));
  }
  return out;
}

}  // namespace

std::string mesh_path(MeshRef mesh) {
  return json::path_index(json::path_key(json::path_index("skins", static_cast<std::size_t>(mesh.skin)), "attachments"),
                          static_cast<std::size_t>(mesh.attachment));
}

Expected<MeshRef> find_mesh(const SkeletonSource& s, std::string_view skin, std::string_view slot_name,
                            std::string_view attachment) {
  const int slot = s.find_slot(slot_name);
  if (slot < 0) return fail("", "no slot named " + quoted(slot_name));
  std::string name(attachment);
  if (name.empty()) {
    name = s.slots[static_cast<std::size_t>(slot)].attachment;
    if (name.empty()) return fail("", "slot " + quoted(slot_name) + " has no setup attachment; name one");
  }
  int only_skin = -1;
  if (!skin.empty()) {
    only_skin = s.find_skin(skin);
    if (only_skin < 0) return fail("", "no skin named " + quoted(skin));
  }
  std::vector<MeshRef> found;
  for (std::size_t k = 0; k < s.skins.size(); ++k) {
    if (only_skin >= 0 && static_cast<int>(k) != only_skin) continue;
    const std::vector<Attachment>& list = s.skins[k].attachments;
    for (std::size_t a = 0; a < list.size(); ++a)
      if (list[a].slot == slot && list[a].name == name) found.push_back({static_cast<int>(k), static_cast<int>(a)});
  }
  const std::string where = "slot " + quoted(slot_name) + (skin.empty() ? "" : " of skin " + quoted(skin));
  if (found.empty()) return fail("", "no attachment named " + quoted(name) + " in " + where);
  if (found.size() > 1) {
    std::vector<std::string> skins;
    for (MeshRef m : found) skins.push_back(quoted(s.skins[static_cast<std::size_t>(m.skin)].name));
    return fail("", "attachment " + quoted(name) + " of slot " + quoted(slot_name) + " is in skins " + join(skins) +
                        "; choose one with --skin");
  }
  const Attachment& a = attachment_of(s, found[0]);
  if (const auto* linked = std::get_if<LinkedMeshAttachment>(&a.data))
    return fail(mesh_path(found[0]), "attachment " + quoted(name) + " is a LinkedMesh: it shares the weights of its parent mesh " +
                                         quoted(linked->parent) + ", weight that one");
  if (a.type() != AttachmentType::Mesh)
    return fail(mesh_path(found[0]), "attachment " + quoted(name) + " is a " + to_string(a.type()) + ", not a Mesh");
  return found[0];
}

std::vector<MeshRef> all_meshes(const SkeletonSource& s) {
  std::vector<MeshRef> out;
  for (std::size_t k = 0; k < s.skins.size(); ++k)
    for (std::size_t a = 0; a < s.skins[k].attachments.size(); ++a)
      if (s.skins[k].attachments[a].type() == AttachmentType::Mesh) out.push_back({static_cast<int>(k), static_cast<int>(a)});
  return out;
}

std::vector<int> default_weight_bones(const SkeletonSource& s) {
  const std::vector<std::optional<Affine2d>> world = setup_world_transforms(s);
  std::vector<bool> has_children(s.bones.size(), false);
  for (const Bone& b : s.bones)
    if (b.parent >= 0) has_children[static_cast<std::size_t>(b.parent)] = true;
  std::vector<bool> ik_target(s.bones.size(), false);
  for (const IkConstraint& ik : s.ik) ik_target[static_cast<std::size_t>(ik.target)] = true;
  std::vector<int> out;
  for (std::size_t i = 0; i < s.bones.size(); ++i)
    if (world[i] && !(s.bones[i].parent < 0 && has_children[i]) && !ik_target[i]) out.push_back(static_cast<int>(i));
  return out;
}

Expected<MeshWeightsResult> auto_weight_mesh(SkeletonSource& s, MeshRef mesh, std::span<const int> bones,
                                             std::span<const NamedClip> clips, const AutoWeightsOptions& options) {
  const std::string path = mesh_path(mesh);
  if (mesh.skin < 0 || static_cast<std::size_t>(mesh.skin) >= s.skins.size() || mesh.attachment < 0 ||
      static_cast<std::size_t>(mesh.attachment) >= s.skins[static_cast<std::size_t>(mesh.skin)].attachments.size())
    return fail(path, "no such attachment");
  Attachment& attachment = s.skins[static_cast<std::size_t>(mesh.skin)].attachments[static_cast<std::size_t>(mesh.attachment)];
  auto* data = std::get_if<MeshAttachment>(&attachment.data);
  if (!data) return fail(path, "attachment " + quoted(attachment.name) + " is a " + to_string(attachment.type()) + ", not a Mesh");

  if (std::vector<std::string> deforming = clips_deforming(s, data->vertices, clips); !deforming.empty())
    return fail(path, "mesh " + mesh_name(s, mesh) + " has deform keys in clip" + (deforming.size() > 1 ? "s " : " ") +
                          join(deforming) + "; they follow the mesh's vertex layout, which weighting changes: remove them first");

  const std::vector<std::optional<Affine2d>> world = setup_world_transforms(s);
  std::vector<std::string> no_world;
  std::vector<BoneSegment> segments;
  std::vector<Affine2d> to_bone(s.bones.size());
  for (std::size_t k = 0; k < bones.size(); ++k) {
    const int b = bones[k];
    if (b < 0 || static_cast<std::size_t>(b) >= s.bones.size()) return fail(path, "no bone " + std::to_string(b));
    const std::size_t i = static_cast<std::size_t>(b);
    if (std::find(bones.begin(), bones.begin() + static_cast<std::ptrdiff_t>(k), b) != bones.begin() + static_cast<std::ptrdiff_t>(k))
      return fail(path, "bone " + quoted(s.bones[i].name) + " is listed twice");
    if (!world[i]) {
      no_world.push_back(quoted(s.bones[i].name));
      continue;
    }
    const std::optional<Affine2d> inverse = world[i]->inverse();
    if (!inverse) return fail(path, "bone " + quoted(s.bones[i].name) + " has a setup transform that cannot be inverted (zero scale)");
    to_bone[i] = *inverse;
    segments.push_back({b, world[i]->origin(), world[i]->apply({static_cast<double>(s.bones[i].length), 0.0})});
  }
  if (!no_world.empty())
    return fail(path, "bones " + join(no_world) +
                          " have no setup world transform from the source alone (they or a parent inherit other than "
                          "Normal); leave them out of the bones to weight to");

  // The mesh's setup-pose vertices in world space.
  const Vertices& vertices = data->vertices;
  std::vector<Vec2d> positions(vertices.count());
  if (vertices.weighted()) {
    for (std::size_t v = 0; v < positions.size(); ++v)
      for (const InfluenceSource& in : vertices.weights[v]) {
        const std::optional<Affine2d>& t = world[static_cast<std::size_t>(in.bone)];
        if (!t) return fail(path, "the mesh is weighted to bone " + quoted(s.bones[static_cast<std::size_t>(in.bone)].name) +
                                      ", which has no setup world transform from the source alone");
        positions[v] += t->apply({in.x, in.y}) * static_cast<double>(in.weight);
      }
  } else {
    const std::optional<Affine2d>& t = world[static_cast<std::size_t>(s.slots[static_cast<std::size_t>(attachment.slot)].bone)];
    if (!t) return fail(path, "the mesh's slot bone has no setup world transform from the source alone");
    for (std::size_t v = 0; v < positions.size(); ++v) positions[v] = t->apply({vertices.positions[2 * v], vertices.positions[2 * v + 1]});
  }
  std::vector<std::array<int, 3>> triangles(data->triangles.size() / 3);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    triangles[t] = {data->triangles[3 * t], data->triangles[3 * t + 1], data->triangles[3 * t + 2]};

  Expected<std::vector<std::vector<VertexWeight>>> weights = heat_weights(positions, triangles, segments, options);
  if (!weights) return fail(path, "mesh " + mesh_name(s, mesh) + ": " + weights.error().message);

  Vertices out;
  out.weights.resize(positions.size());
  MeshWeightsResult result;
  result.vertices = positions.size();
  std::set<int> used;
  for (std::size_t v = 0; v < positions.size(); ++v) {
    std::vector<InfluenceSource>& influences = out.weights[v];
    for (const VertexWeight& w : (*weights)[v]) {
      const Vec2d local = to_bone[static_cast<std::size_t>(w.bone)].apply(positions[v]);
      influences.push_back({w.bone, static_cast<float>(w.weight), static_cast<float>(local.x), static_cast<float>(local.y)});
      used.insert(w.bone);
    }
    // Rounding to float may leave the sum a few ulps from 1: the largest weight takes the difference.
    double sum = 0;
    for (const InfluenceSource& in : influences) sum += in.weight;
    influences[0].weight = static_cast<float>(influences[0].weight + (1.0 - sum));
    sum = 0;
    for (const InfluenceSource& in : influences) sum += in.weight;
    result.max_sum_deviation = std::max(result.max_sum_deviation, std::abs(sum - 1.0));
    result.max_influences_used = std::max(result.max_influences_used, static_cast<int>(influences.size()));
  }
  result.bones_used.assign(used.begin(), used.end());
  data->vertices = std::move(out);
  return result;
}

}  // namespace mf::offline
