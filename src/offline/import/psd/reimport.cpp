// Re-import: merging a fresh import of the same art into the rig an earlier one made.

#include "mf/offline/import/psd/reimport.hpp"

#include <cmath>
#include <numbers>
#include <optional>
#include <set>

#include "art_names.hpp"
#include "mf/core/math/affine2.hpp"
#include "mf/offline/format/setup_world.hpp"
#include "mf/offline/format/skeleton_format.hpp"

namespace mf::offline {
namespace {

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

// The image an attachment shows: its own, else its name.
const std::string* image_of(const Attachment& a) {
  const std::string* image = nullptr;
  if (const auto* r = std::get_if<RegionAttachment>(&a.data)) image = &r->image;
  else if (const auto* m = std::get_if<MeshAttachment>(&a.data)) image = &m->image;
  else if (const auto* l = std::get_if<LinkedMeshAttachment>(&a.data)) image = &l->image;
  else return nullptr;
  return image->empty() ? &a.name : image;
}

Vec2d to_vec(float x, float y) { return {static_cast<double>(x), static_cast<double>(y)}; }

// A region's own placement as a matrix (rotation, then scale: the build's region corners).
Affine2d region_matrix(const RegionAttachment& r) {
  const double t = static_cast<double>(r.rotation) * std::numbers::pi / 180.0;
  const double c = std::cos(t), s = std::sin(t);
  return Affine2d{c * r.scale_x, -s * r.scale_y, s * r.scale_x, c * r.scale_y, r.x, r.y};
}

// The inverse of region_matrix for a matrix without shear.
void set_region_matrix(RegionAttachment& r, const Affine2d& m) {
  const double sx = std::hypot(m.a, m.c);
  const double sy = sx > 0 ? m.det() / sx : std::hypot(m.b, m.d);
  r.rotation = static_cast<float>(std::atan2(m.c, m.a) * 180.0 / std::numbers::pi);
  r.scale_x = static_cast<float>(sx);
  r.scale_y = static_cast<float>(sy);
  r.x = static_cast<float>(m.x);
  r.y = static_cast<float>(m.y);
}

class Merger {
 public:
  Merger(const SkeletonSource& rig, const ArtImport& fresh) : fresh_(fresh) { out_.skeleton = rig; }

  Expected<Reimport> run() {
    SkeletonSource& s = out_.skeleton;
    const std::string prefix = previous_source() + ":";
    std::map<std::string, std::size_t> rig_by_source;  // by the layer's path in the art
    for (std::size_t i = 0; i < s.images.size(); ++i) {
      image_names_.reserve(s.images[i].name);
      if (s.images[i].source.starts_with(prefix))
        rig_by_source.emplace(fresh_.source + ":" + s.images[i].source.substr(prefix.size()), i);
    }
    world_ = setup_world_transforms(s);
    std::set<std::string> in_art;
    for (const ImageEntry& fe : fresh_.skeleton.images) {
      in_art.insert(fe.source);
      auto it = rig_by_source.find(fe.source);
      if (it == rig_by_source.end()) {
        new_images_.insert(fe.name);
        continue;
      }
      ImageEntry& re = s.images[it->second];
      re.source = fe.source;  // the art's new file name, when it was renamed
      out_.image_names[fe.name] = re.name;
      // A rig imported before rectangles were kept has none to compare with: it takes this one.
      if (re.rect && fe.rect && *re.rect != *fe.rect) {
        shift(re.name, *re.rect, *fe.rect, fe.source);
        out_.moved.push_back(fe.source);
      }
      re.rect = fe.rect;
    }
    for (const auto& [source, index] : rig_by_source) {
      if (in_art.count(source)) continue;
      s.images[index].source = source;  // under the art's new name too, so the next import still finds it missing
      out_.missing.push_back(source);
      out_.notes.push_back({source, "the layer is no longer in " + fresh_.source + ": image " +
                                        in_quotes(s.images[index].name) + " and the attachments showing it are kept"});
    }
    add_new_layers();
    for (const auto& [map, image] : fresh_.normal_maps)
      if (auto it = out_.image_names.find(image); it != out_.image_names.end())
        out_.image_names[map] = it->second + s.import.normal_suffix;
    compare_slots();
    note_regions_tagged_mesh();
    // What the rig's reader would refuse is an error here, not a file nothing can load.
    if (Expected<SkeletonSource> check = read_skeleton(write_skeleton(s), fresh_.name + ".mskel"); !check)
      return Unexpected{Error{fresh_.source, check.error().path, {},
                              "the merged rig is not valid: " + check.error().message}};
    return std::move(out_);
  }

 private:
  // The file the rig's images of this art came from: the fresh import's own name, else (the art was
  // renamed or saved under a new name) the one file every imported image of the rig came from.
  std::string previous_source() {
    const std::string own = fresh_.source + ":";
    std::set<std::string> files;
    for (const ImageEntry& e : out_.skeleton.images) {
      if (e.source.starts_with(own)) return fresh_.source;
      const std::size_t colon = e.source.find(':');
      if (e.rect && colon != std::string::npos) files.insert(e.source.substr(0, colon));
    }
    if (files.size() != 1) return fresh_.source;
    out_.renamed_from = *files.begin();
    return out_.renamed_from;
  }

  // The setup world's linear part of a bone, inverted: a rig (canvas) delta into the bone's space.
  std::optional<Affine2d> to_bone(int bone) const {
    const std::optional<Affine2d>& w = world_[static_cast<std::size_t>(bone)];
    if (!w) return std::nullopt;
    return Affine2d::from(w->linear(), 0, 0).inverse();
  }

  void not_shifted(const std::string& source, const std::string& what, const std::string& why) {
    out_.not_shifted.push_back(source + ": " + what + " was not shifted: " + why + "; move it by hand");
  }

  // Moves every attachment showing `image` by as much as its art moved from `from` to `to`.
  void shift(const std::string& image, const CanvasRect& from, const CanvasRect& to, const std::string& source) {
    SkeletonSource& s = out_.skeleton;
    const Vec2d corner{static_cast<double>(to.x - from.x), static_cast<double>(to.y - from.y)};
    const Vec2d grow{static_cast<double>(to.width - from.width), static_cast<double>(to.height - from.height)};
    for (Skin& skin : s.skins) {
      for (Attachment& a : skin.attachments) {
        const std::string* shown = image_of(a);
        if (!shown || *shown != image) continue;
        const std::string what = "attachment " + in_quotes(a.name) + " of slot " +
                                 in_quotes(s.slots[static_cast<std::size_t>(a.slot)].name) + " in skin " +
                                 in_quotes(skin.name);
        const int bone = s.slots[static_cast<std::size_t>(a.slot)].bone;
        if (auto* r = std::get_if<RegionAttachment>(&a.data)) {
          const std::optional<Affine2d> into = to_bone(bone);
          if (!into) {
            not_shifted(source, what, "its bone has no setup world transform (it inherits less than all of its parent's)");
            continue;
          }
          // The region is centred on its image: its centre moves by the corner's move and half the growth.
          const Vec2d d = into->apply_vector(corner + grow * 0.5);
          r->x = static_cast<float>(r->x + d.x);
          r->y = static_cast<float>(r->y + d.y);
          if (static_cast<int>(r->width) == from.width && static_cast<int>(r->height) == from.height && r->width > 0) {
            r->width = static_cast<float>(to.width);
            r->height = static_cast<float>(to.height);
          }
        } else if (auto* m = std::get_if<MeshAttachment>(&a.data)) {
          shift_mesh(*m, bone, corner, grow, from, to, source, what);
        } else {
          not_shifted(source, what, "a linked mesh shares its parent mesh's vertices");
        }
      }
    }
  }

  // Each vertex follows the canvas point under its UV: the corner's move plus the growth times the UV.
  void shift_mesh(MeshAttachment& m, int slot_bone, Vec2d corner, Vec2d grow, const CanvasRect& from,
                  const CanvasRect& to, const std::string& source, const std::string& what) {
    const std::size_t count = m.vertices.count();
    if (m.uvs.size() != count * 2) {
      not_shifted(source, what, "its UVs do not match its vertices");
      return;
    }
    const auto delta = [&](std::size_t v) { return corner + Vec2d{grow.x * m.uvs[2 * v], grow.y * m.uvs[2 * v + 1]}; };
    if (!m.vertices.weighted()) {
      const std::optional<Affine2d> into = to_bone(slot_bone);
      if (!into) return not_shifted(source, what, "its bone has no setup world transform");
      for (std::size_t v = 0; v < count; ++v) {
        const Vec2d d = into->apply_vector(delta(v));
        m.vertices.positions[2 * v] = static_cast<float>(m.vertices.positions[2 * v] + d.x);
        m.vertices.positions[2 * v + 1] = static_cast<float>(m.vertices.positions[2 * v + 1] + d.y);
      }
    } else {
      for (const auto& influences : m.vertices.weights)
        for (const InfluenceSource& in : influences)
          if (!to_bone(in.bone))
            return not_shifted(source, what, "bone " + in_quotes(out_.skeleton.bones[static_cast<std::size_t>(in.bone)].name) +
                                                 " that weights it has no setup world transform");
      // Weights summing to 1 move the vertex by the delta when every influence moves by it in world.
      for (std::size_t v = 0; v < count; ++v)
        for (InfluenceSource& in : m.vertices.weights[v]) {
          const Vec2d d = to_bone(in.bone)->apply_vector(delta(v));
          in.x = static_cast<float>(in.x + d.x);
          in.y = static_cast<float>(in.y + d.y);
        }
    }
    if (static_cast<int>(m.width) == from.width && static_cast<int>(m.height) == from.height) {
      m.width = static_cast<float>(to.width);
      m.height = static_cast<float>(to.height);
    }
  }

  // ---- new layers ----

  int map_bone(int fresh_bone) {
    if (auto it = bone_map_.find(fresh_bone); it != bone_map_.end()) return it->second;
    SkeletonSource& s = out_.skeleton;
    const Bone& fb = fresh_.skeleton.bones[static_cast<std::size_t>(fresh_bone)];
    int index = s.find_bone(fb.name);
    if (index < 0) {
      // A group the rig lacks: a bone where the art puts it, under its parent group's bone.
      Bone b = fb;
      b.parent = fb.parent >= 0 ? map_bone(fb.parent) : -1;
      const Vec2d at = fresh_world(fresh_bone).origin();
      const std::optional<Affine2d>& parent_world =
          b.parent >= 0 ? world_[static_cast<std::size_t>(b.parent)] : std::optional<Affine2d>(Affine2d{});
      if (const std::optional<Affine2d> inv = parent_world ? parent_world->inverse() : std::nullopt) {
        const Vec2d local = inv->apply(at);
        b.x = static_cast<float>(local.x);
        b.y = static_cast<float>(local.y);
      }
      s.bones.push_back(b);
      index = static_cast<int>(s.bones.size()) - 1;
      world_ = setup_world_transforms(s);
    }
    bone_map_.emplace(fresh_bone, index);
    return index;
  }

  // Shifts every slot index at or after `at` by one, for a slot inserted there.
  void make_room_for_slot(int at) {
    SkeletonSource& s = out_.skeleton;
    for (Skin& skin : s.skins)
      for (Attachment& a : skin.attachments) {
        if (a.slot >= at) ++a.slot;
        if (auto* c = std::get_if<ClippingAttachment>(&a.data); c && c->end_slot >= at) ++c->end_slot;
      }
    for (PathConstraint& p : s.path)
      if (p.target >= at) ++p.target;
    for (auto& [fresh, rig] : slot_map_)
      if (rig >= at) ++rig;
  }

  int map_slot(int fresh_slot) {
    if (auto it = slot_map_.find(fresh_slot); it != slot_map_.end()) return it->second;
    SkeletonSource& s = out_.skeleton;
    const Slot& fs = fresh_.skeleton.slots[static_cast<std::size_t>(fresh_slot)];
    int index = s.find_slot(fs.name);
    if (index < 0) {
      // In draw order after the nearest slot below it in the art that the rig has, else first.
      int at = 0;
      for (int below = fresh_slot - 1; below >= 0; --below)
        if (int found = s.find_slot(fresh_.skeleton.slots[static_cast<std::size_t>(below)].name); found >= 0) {
          at = found + 1;
          break;
        }
      Slot slot = fs;
      slot.bone = map_bone(fs.bone);
      slot.attachment.clear();  // set when its setup attachment is added
      make_room_for_slot(at);
      s.slots.insert(s.slots.begin() + at, std::move(slot));
      new_slots_.insert(fs.name);
      index = at;
    }
    slot_map_.emplace(fresh_slot, index);
    return index;
  }

  // The art's rig space (the fresh root's) in the rig: the rig's bone of the root's name, so that
  // new art follows a root the user moved. Identity when the rig has no such bone.
  Affine2d art_to_rig() const {
    const int root = out_.skeleton.find_bone(fresh_.skeleton.bones.front().name);
    if (root < 0 || !world_[static_cast<std::size_t>(root)]) return Affine2d{};
    return *world_[static_cast<std::size_t>(root)];
  }

  // Where a fresh bone is in the rig's setup world: the art places every fresh bone by translations.
  Affine2d fresh_world(int fresh_bone) const {
    Affine2d w;
    for (int b = fresh_bone; b > 0; b = fresh_.skeleton.bones[static_cast<std::size_t>(b)].parent) {
      const Bone& fb = fresh_.skeleton.bones[static_cast<std::size_t>(b)];
      w = Affine2d::translation(fb.x, fb.y) * w;
    }
    return art_to_rig() * w;
  }

  // An attachment of the fresh rig, in fresh bone `fresh_bone`'s space, into rig bone `rig_bone`'s:
  // the art's place on the canvas, whatever bones the rig has there now (the fresh rig's bones sit
  // at their layers' centres, which new layers move). Empty when that bone has no setup world.
  std::optional<AttachmentData> place(const AttachmentData& data, int fresh_bone, int rig_bone) const {
    const std::optional<Affine2d>& dst = world_[static_cast<std::size_t>(rig_bone)];
    const std::optional<Affine2d> inv = dst ? dst->inverse() : std::nullopt;
    if (!inv) return std::nullopt;
    const Affine2d m = *inv * fresh_world(fresh_bone);
    AttachmentData out = data;
    if (auto* r = std::get_if<RegionAttachment>(&out)) set_region_matrix(*r, m * region_matrix(*r));
    if (auto* mesh = std::get_if<MeshAttachment>(&out))
      for (std::size_t v = 0; v + 1 < mesh->vertices.positions.size(); v += 2) {
        const Vec2d p = m.apply(to_vec(mesh->vertices.positions[v], mesh->vertices.positions[v + 1]));
        mesh->vertices.positions[v] = static_cast<float>(p.x);
        mesh->vertices.positions[v + 1] = static_cast<float>(p.y);
      }
    return out;
  }

  void add_new_layers() {
    SkeletonSource& s = out_.skeleton;
    std::map<std::string, const ImageEntry*> fresh_entries;
    for (const ImageEntry& e : fresh_.skeleton.images) fresh_entries.emplace(e.name, &e);
    for (const Skin& fskin : fresh_.skeleton.skins) {
      for (const Attachment& fa : fskin.attachments) {
        const std::string* fresh_image = image_of(fa);
        if (!fresh_image || !new_images_.count(*fresh_image)) continue;
        const ImageEntry& fe = *fresh_entries.at(*fresh_image);
        const int slot = map_slot(fa.slot);
        int skin = s.find_skin(fskin.name);
        if (skin < 0) {
          s.skins.push_back(Skin{.name = fskin.name});
          skin = static_cast<int>(s.skins.size()) - 1;
        }
        std::string image = out_.image_names.count(fe.name) ? out_.image_names[fe.name] : std::string();
        if (image.empty()) {
          image = image_names_.claim(fe.name);
          out_.image_names[fe.name] = image;
          s.images.push_back(ImageEntry{image, fe.source, fe.rect});
          out_.added.push_back(fe.source);
        }
        art::UniqueNames names;
        for (const Attachment& a : s.skins[static_cast<std::size_t>(skin)].attachments)
          if (a.slot == slot) names.reserve(a.name);
        Attachment a;
        a.slot = slot;
        a.name = names.claim(fa.name);
        const int fresh_bone = fresh_.skeleton.slots[static_cast<std::size_t>(fa.slot)].bone;
        std::optional<AttachmentData> data = place(fa.data, fresh_bone, s.slots[static_cast<std::size_t>(slot)].bone);
        if (!data) {
          data = fa.data;
          not_shifted(fe.source, "new attachment " + in_quotes(a.name),
                      "its bone has no setup world transform, so it keeps the art's offset from its group");
        }
        a.data = std::move(*data);
        if (auto* r = std::get_if<RegionAttachment>(&a.data)) r->image = image == a.name ? std::string() : image;
        if (auto* m = std::get_if<MeshAttachment>(&a.data)) m->image = image == a.name ? std::string() : image;
        Slot& rig_slot = s.slots[static_cast<std::size_t>(slot)];
        const Slot& fresh_slot = fresh_.skeleton.slots[static_cast<std::size_t>(fa.slot)];
        if (new_slots_.count(rig_slot.name) && rig_slot.attachment.empty() && fresh_slot.attachment == fa.name)
          rig_slot.attachment = a.name;
        s.skins[static_cast<std::size_t>(skin)].attachments.push_back(std::move(a));
      }
    }
  }

  // A layer tagged [mesh] after the rig was made: the rig's attachment stays what it is (it may be
  // keyed, weighted or hand-made), and the report says how to mesh it.
  void note_regions_tagged_mesh() {
    const SkeletonSource& s = out_.skeleton;
    for (const ArtImport::MeshRequest& m : fresh_.meshes) {
      const int skin = s.find_skin(m.skin), slot = s.find_slot(m.slot);
      if (skin < 0 || slot < 0) continue;
      for (const Attachment& a : s.skins[static_cast<std::size_t>(skin)].attachments)
        if (a.slot == slot && a.name == m.attachment && a.type() == AttachmentType::Region)
          out_.notes.push_back({fresh_.source + ":" + m.where,
                                "tagged [mesh] but the rig's attachment is a region: mesh it with mfe skel automesh --slot \"" +
                                    m.slot + "\" --attachment \"" + m.attachment + "\"" +
                                    (skin == 0 ? std::string() : " --skin \"" + m.skin + "\"")});
    }
  }

  // The art's slot settings the rig keeps otherwise: noted, since the rig's win.
  void compare_slots() {
    const SkeletonSource& s = out_.skeleton;
    for (const Slot& fs : fresh_.skeleton.slots) {
      if (new_slots_.count(fs.name)) continue;
      const int index = s.find_slot(fs.name);
      if (index < 0) continue;
      const Slot& rs = s.slots[static_cast<std::size_t>(index)];
      if (rs.color.a != fs.color.a || rs.blend != fs.blend)
        out_.notes.push_back({"slot " + in_quotes(fs.name),
                              "the art gives alpha " + std::to_string(fs.color.a) + " and blend " + to_string(fs.blend) +
                                  "; the rig keeps alpha " + std::to_string(rs.color.a) + " and blend " +
                                  to_string(rs.blend)});
    }
  }

  const ArtImport& fresh_;
  Reimport out_;
  std::vector<std::optional<Affine2d>> world_;
  art::UniqueNames image_names_{true};
  std::set<std::string> new_images_;
  std::map<int, int> bone_map_, slot_map_;
  std::set<std::string> new_slots_;
};

}  // namespace

Expected<Reimport> merge_reimport(const SkeletonSource& rig, const ArtImport& fresh) { return Merger(rig, fresh).run(); }

}  // namespace mf::offline
