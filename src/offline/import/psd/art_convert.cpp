// The layer → rig conversion of the art import: the tagged layer tree becomes bones, slots,
// attachments, skins and images. The rules are in docs/import-art.md.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "art_names.hpp"
#include "mf/core/math/vec2.hpp"
#include "mf/imaging/composite.hpp"
#include "mf/imaging/image_ops.hpp"
#include "mf/offline/format/uid.hpp"
#include "mf/offline/import/psd/art_import.hpp"
#include "mf/offline/import/psd/layer_tags.hpp"
#include "mf/offline/mesh/mesh_from_region.hpp"
#include "mf/imaging/rect_union.hpp"

namespace mf::offline {
namespace fs = std::filesystem;
namespace {

using imaging::Image;
using imaging::PsdDocument;
using imaging::PsdLayer;
using imaging::Rect;

constexpr const char* kRootBone = "root";
constexpr const char* kDefaultSkin = "default";

Vec2d centre(Rect r) { return {r.x + r.width / 2.0, r.y + r.height / 2.0}; }

std::uint8_t to_alpha(double a) { return static_cast<std::uint8_t>(std::lround(std::clamp(a, 0.0, 1.0) * 255.0)); }

double opacity_of(const PsdLayer& l) { return l.opacity / 255.0 * (l.fill / 255.0); }

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

// "Torso #1" → "Torso": the suffix GIMP adds to a layer named like another.
std::string without_duplicate_suffix(const std::string& name) {
  const std::size_t hash = name.rfind(" #");
  if (hash == std::string::npos || hash == 0 || hash + 2 == name.size()) return name;
  for (std::size_t i = hash + 2; i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return name;
  return name.substr(0, hash);
}

// A layer of the document with its tags read and its place named.
struct Layer {
  const PsdLayer* psd = nullptr;
  LayerTags tags;
  std::string path;  // tag-free names from the top joined by '/', unique in the document
  std::vector<Layer> children;
  Rect trimmed;      // pixel layers: where the non-transparent pixels sit on the canvas
  Rect alpha;        // pixel layers: the same rectangle within the layer's own pixels

  bool group() const { return psd->is_group(); }
  // A layer that marks something rather than holding art.
  bool marker() const { return tags.ignore || tags.origin || tags.normal; }
};

// One image ready for a slot: a layer's trimmed pixels, or a merged group's.
struct Leaf {
  Image pixels;
  Rect rect;  // on the canvas
};

std::optional<BlendMode> blend_mode(std::string_view key) {
  if (key == "norm") return BlendMode::Normal;
  if (key == "mul ") return BlendMode::Multiply;
  if (key == "scrn") return BlendMode::Screen;
  if (key == "lddg") return BlendMode::Additive;
  return std::nullopt;
}

struct AttachmentDraft {
  std::string skin;  // empty: the default skin
  std::string name;
  std::string image;
  Vec2d centre;      // the image's centre in the rig (origin at the rig's origin)
  double alpha = 1;  // the attachment colour's alpha
  BlendMode blend = BlendMode::Normal;  // the layer's, for its slot
  bool mesh = false;
  std::string where;
};

struct SlotDraft {
  std::string name;
  int bone = 0;
  double alpha = 1;
  BlendMode blend = BlendMode::Normal;
  std::vector<AttachmentDraft> attachments;
  int setup = -1;          // index into attachments; -1: nothing shown in the setup pose
  bool from_skin = false;  // made by a [skin] layer; merged into the slot of its name when there is one
  bool dropped = false;
  std::string where;
};

class Converter {
 public:
  Converter(const PsdDocument& document, std::string source, ArtImport& out)
      : doc_(document), source_(std::move(source)), out_(out) {}

  void run() {
    for (const imaging::PsdWarning& w : doc_.warnings) note(w.layer, w.message);
    std::set<std::string> paths;
    for (const PsdLayer& l : doc_.layers) layers_.push_back(read_layer(l, "", paths, false));
    find_origin();
    SkeletonSource& s = out_.skeleton;
    bone_names_.reserve(kRootBone);
    s.bones.push_back(Bone{.name = kRootBone});
    bone_world_.push_back({0, 0});
    walk(layers_, Context{}, nullptr);
    pair_normal_maps();
    resolve_skins();
    finish_slots();
  }

 private:
  struct Context {
    int bone = 0;
    double alpha = 1;      // the enclosing groups' opacity, for the slot colour
    double inner = 1;      // inside a [slot] or [skin] group: the groups' opacity within it
    bool visible = true;   // every enclosing group visible
    bool mesh = false;     // inside a group tagged [mesh]
    std::string folder;    // image folder: group names, each followed by '/'
    int slot = -1;         // inside a [slot] group: its draft
    std::string skin;      // inside a [skin] group: the skin's name
  };

  struct NormalRequest {
    const Layer* layer;
    const Layer* parent;
  };

  void note(const std::string& layer_path, std::string message) {
    out_.notes.push_back({layer_path.empty() ? source_ : source_ + ":" + layer_path, std::move(message)});
  }

  // `ignored`: inside an [ignore]d group, so nothing about it is reported.
  Layer read_layer(const PsdLayer& psd, const std::string& parent_path, std::set<std::string>& paths, bool ignored) {
    Layer l;
    l.psd = &psd;
    l.tags = parse_layer_tags(psd.name);
    ignored = ignored || l.tags.ignore;
    if (l.tags.name.empty() && !l.tags.origin) {
      l.tags.name = (psd.is_group() ? "Group " : "Layer ") + std::to_string(psd.record);
      if (!ignored)
        note(parent_path + l.tags.name, "the name " + in_quotes(psd.name) + " is empty without its tags: named " +
                                            in_quotes(l.tags.name));
    }
    std::string path = parent_path + (l.tags.origin && l.tags.name.empty() ? "[origin]" : l.tags.name);
    for (int n = 2; paths.count(path); ++n)
      path = parent_path + l.tags.name + "#" + std::to_string(n);
    paths.insert(path);
    l.path = path;
    if (!ignored)
      for (const std::string& tag : l.tags.unsupported)
        note(l.path, "tag " + tag + " is not supported: ignored");
    if (psd.is_group()) {
      for (const PsdLayer& c : psd.children) l.children.push_back(read_layer(c, path + "/", paths, ignored));
    } else if (!psd.pixels.empty()) {
      l.alpha = imaging::alpha_bounds(psd.pixels);
      if (!l.alpha.empty()) l.trimmed = {psd.bounds.x + l.alpha.x, psd.bounds.y + l.alpha.y, l.alpha.width, l.alpha.height};
    }
    return l;
  }

  // The canvas rectangle of a layer's art: its trimmed pixels, or for a group the union over its
  // layers, leaving out [ignore]d ones and the markers.
  static Rect content(const Layer& l) {
    if (!l.group()) return l.trimmed;
    Rect r;
    for (const Layer& c : l.children)
      if (!c.tags.ignore && !c.tags.normal && !c.tags.origin) r = imaging::united(r, content(c));
    return r;
  }

  // The rectangle an [origin] marker marks: a layer's pixels, or a group's layers' union.
  static Rect marked(const Layer& l) {
    if (!l.group()) return l.trimmed;
    Rect r;
    for (const Layer& c : l.children) r = imaging::united(r, marked(c));
    return r;
  }

  void find_origin() {
    origin_ = {doc_.width / 2.0, static_cast<double>(doc_.height)};
    const Layer* found = nullptr;
    // Top-most first: the marker an artist sees first in the Layers panel wins.
    for (auto it = layers_.rbegin(); it != layers_.rend(); ++it) {
      if (!it->tags.origin || it->tags.ignore) continue;
      if (found) {
        note(it->path, "another [origin] (" + found->path + ") is above this one: this one is not used");
        continue;
      }
      const Rect r = marked(*it);
      if (r.empty()) {
        note(it->path, "the [origin] marker has no pixels: the origin is the canvas's bottom centre");
        continue;
      }
      found = &*it;
      origin_ = centre(r);
    }
  }

  Vec2d rig(Vec2d canvas) const { return canvas - origin_; }

  int add_bone(const std::string& name, int parent, Vec2d world, const std::string& path) {
    const std::string unique = bone_names_.claim(name);
    if (unique != name) note(path, "bone " + in_quotes(name) + " is taken: named " + in_quotes(unique));
    Bone b;
    b.name = unique;
    b.parent = parent;
    const Vec2d local = world - bone_world_[static_cast<std::size_t>(parent)];
    b.x = static_cast<float>(local.x);
    b.y = static_cast<float>(local.y);
    out_.skeleton.bones.push_back(b);
    bone_world_.push_back(world);
    return static_cast<int>(out_.skeleton.bones.size()) - 1;
  }

  std::string add_image(const std::string& folder, const Layer& l, const std::string& layer_name, Leaf leaf) {
    const std::string wanted = folder + art::file_name_part(layer_name);
    const std::string name = image_names_.claim(wanted);
    if (name != wanted) note(l.path, "image " + in_quotes(wanted) + " is taken: named " + in_quotes(name));
    out_.skeleton.images.push_back(
        ImageEntry{name, source_ + ":" + l.path, CanvasRect{leaf.rect.x, leaf.rect.y, leaf.rect.width, leaf.rect.height}});
    out_.images.emplace_back(name, std::move(leaf.pixels));
    image_of_.emplace(&l, std::make_pair(name, leaf.rect));
    return name;
  }

  BlendMode blend_of(const Layer& l, std::string_view key) {
    if (std::optional<BlendMode> b = blend_mode(key)) return *b;
    note(l.path, "blend mode " + art::blend_key_name(key) + " is not in the rig's blend modes: the slot blends normally");
    return BlendMode::Normal;
  }

  void walk(const std::vector<Layer>& layers, const Context& ctx, const Layer* parent) {
    for (const Layer& l : layers) {
      if (l.tags.ignore) continue;
      if (l.tags.origin) continue;  // a marker: read by find_origin or by its group's bone
      if (l.tags.normal) {
        if (l.group()) note(l.path, "[normal] marks a layer, not a group: the group is not imported");
        else normals_.push_back({&l, parent});
        continue;
      }
      if (l.group()) walk_group(l, ctx);
      else walk_pixels(l, ctx);
    }
  }

  void walk_group(const Layer& l, const Context& ctx) {
    const PsdLayer& g = *l.psd;
    const std::string key = g.blend_key();
    if (l.tags.merge) {
      Leaf leaf = flatten(l);
      if (leaf.rect.empty()) {
        note(l.path, "the [merge] group shows no pixels: nothing to import");
        return;
      }
      add_layer(l, std::move(leaf), ctx, key == "pass" ? std::string_view("norm") : std::string_view(key));
      return;
    }
    if (key != "pass" && key != "norm")
      note(l.path, "group blend mode " + art::blend_key_name(key) + " is not applied: its layers keep their own");
    if (l.psd->clipping) note(l.path, "the group is a clipping mask: not applied");
    Context c = ctx;
    c.visible = ctx.visible && g.visible;
    c.mesh = ctx.mesh || l.tags.mesh;
    c.folder = ctx.folder + art::file_name_part(l.tags.name) + "/";
    const bool nested = ctx.slot >= 0 || !ctx.skin.empty();
    if (l.tags.skin && nested) note(l.path, "[skin] inside a [slot] or [skin] group: read as a plain folder");
    if (l.tags.slot && nested) note(l.path, "[slot] inside a [slot] or [skin] group: read as a plain folder");
    if (l.tags.skin && !nested) {
      c.skin = l.tags.skin_name.empty() ? l.tags.name : l.tags.skin_name;
      c.folder = ctx.folder + art::file_name_part(c.skin) + "/";
      c.inner = ctx.inner * opacity_of(g);
      if (std::find(skins_.begin(), skins_.end(), c.skin) == skins_.end()) skins_.push_back(c.skin);
    } else if (l.tags.slot && !nested) {
      SlotDraft slot;
      slot.name = l.tags.name;
      slot.bone = ctx.bone;
      slot.alpha = ctx.alpha * opacity_of(g);
      slot.where = l.path;
      slots_.push_back(std::move(slot));
      c.slot = static_cast<int>(slots_.size()) - 1;
      c.inner = 1;
    } else if (nested) {
      c.inner = ctx.inner * opacity_of(g);
    } else {
      // A bone at the [origin] layer inside the group, else at the centre of its layers.
      Rect at = content(l);
      for (auto it = l.children.rbegin(); it != l.children.rend(); ++it)
        if (it->tags.origin && !it->tags.ignore) {
          at = marked(*it);
          break;
        }
      const Vec2d world = at.empty() ? bone_world_[static_cast<std::size_t>(ctx.bone)] : rig(centre(at));
      c.bone = add_bone(l.tags.name, ctx.bone, world, l.path);
      c.alpha = ctx.alpha * opacity_of(g);
    }
    walk(l.children, c, &l);
    if (c.slot >= 0 && c.slot != ctx.slot) finish_slot_group(slots_[static_cast<std::size_t>(c.slot)]);
  }

  // A [slot] group's slot blends like the layer it shows; layers that blend otherwise are reported.
  void finish_slot_group(SlotDraft& slot) {
    if (slot.attachments.empty()) {
      note(slot.where, "the [slot] group has no layers: no slot");
      slot.dropped = true;
      return;
    }
    const std::size_t shown = slot.setup >= 0 ? static_cast<std::size_t>(slot.setup) : slot.attachments.size() - 1;
    slot.blend = slot.attachments[shown].blend;
    for (const AttachmentDraft& a : slot.attachments)
      if (a.blend != slot.blend)
        note(a.where, std::string("blends as ") + to_string(a.blend) + " but its slot has one blend mode: " +
                          to_string(slot.blend) + ", from " + slot.attachments[shown].where);
  }

  void walk_pixels(const Layer& l, const Context& ctx) {
    if (l.trimmed.empty()) {
      note(l.path, "the layer has no visible pixels: nothing to import");
      return;
    }
    Leaf leaf{imaging::crop(l.psd->pixels, l.alpha), l.trimmed};
    add_layer(l, std::move(leaf), ctx, l.psd->blend_key());
  }

  // A layer's image and its attachment: in a slot of its own, in its [slot] group's slot, or in its skin.
  void add_layer(const Layer& l, Leaf leaf, const Context& ctx, std::string_view blend_key) {
    const PsdLayer& p = *l.psd;
    if (p.clipping) note(l.path, "clipping mask (clipped to the layer below): not applied, the layer is imported whole");
    const Vec2d world = rig(centre(leaf.rect));
    AttachmentDraft att;
    // A skin's layer is named after its slot, which GIMP (keeping layer names unique) may have
    // written as "Torso #1".
    att.name = ctx.skin.empty() ? l.tags.name : without_duplicate_suffix(l.tags.name);
    att.image = add_image(ctx.folder, l, att.name, std::move(leaf));
    att.centre = world;
    att.mesh = ctx.mesh || l.tags.mesh;
    att.where = l.path;
    const bool visible = ctx.visible && p.visible;
    const BlendMode blend = blend_of(l, blend_key);
    att.blend = blend;
    const bool nested = ctx.slot >= 0 || !ctx.skin.empty();
    if (l.tags.bone && nested) note(l.path, "[bone] inside a [slot] or [skin] group: no bone of its own");
    if (!ctx.skin.empty()) {
      att.skin = ctx.skin;
      att.alpha = ctx.inner * opacity_of(p);
      SlotDraft slot;
      slot.name = att.name;
      slot.bone = ctx.bone;
      slot.alpha = ctx.alpha;
      slot.blend = blend;
      slot.from_skin = true;
      slot.setup = 0;
      slot.where = l.path;
      slot.attachments.push_back(std::move(att));
      slots_.push_back(std::move(slot));
      return;
    }
    if (ctx.slot >= 0) {
      SlotDraft& slot = slots_[static_cast<std::size_t>(ctx.slot)];
      att.alpha = ctx.inner * opacity_of(p);
      slot.attachments.push_back(std::move(att));
      // Bottom first: a later visible layer is above, and the top-most visible one is what the PSD shows.
      if (visible) {
        if (slot.setup >= 0)
          note(slot.attachments.back().where,
               "the [slot] group shows more than one layer: the slot shows only the top-most, " +
                   in_quotes(slot.attachments.back().name));
        slot.setup = static_cast<int>(slot.attachments.size()) - 1;
      }
      return;
    }
    SlotDraft slot;
    slot.name = l.tags.name;
    slot.bone = l.tags.bone ? add_bone(l.tags.name, ctx.bone, world, l.path) : ctx.bone;
    slot.alpha = ctx.alpha * opacity_of(p);
    slot.blend = blend;
    slot.setup = visible ? 0 : -1;
    slot.where = l.path;
    slot.attachments.push_back(std::move(att));
    slots_.push_back(std::move(slot));
  }

  // A [merge] group as one image: its visible layers composited bottom first, normally, each with
  // its opacity and fill and the opacity of the groups between it and the merged group.
  Leaf flatten(const Layer& group) {
    std::vector<std::pair<const Layer*, double>> parts;
    collect_visible(group, 1, parts, group);
    Rect rect;
    for (const auto& part : parts) rect = imaging::united(rect, part.first->trimmed);
    if (rect.empty()) return {};
    Image canvas = Image::blank(rect.width, rect.height);
    for (const auto& [layer, opacity] : parts)
      imaging::composite_over(canvas, layer->psd->pixels, layer->psd->bounds.x - rect.x, layer->psd->bounds.y - rect.y,
                              opacity);
    const Rect trim = imaging::alpha_bounds(canvas);
    if (trim.empty()) return {};
    return Leaf{imaging::crop(canvas, trim), Rect{rect.x + trim.x, rect.y + trim.y, trim.width, trim.height}};
  }

  void collect_visible(const Layer& group, double opacity, std::vector<std::pair<const Layer*, double>>& parts,
                       const Layer& merged) {
    for (const Layer& c : group.children) {
      if (c.marker() || !c.psd->visible) continue;
      const std::string key = c.psd->blend_key();
      if (key != "norm" && !(c.group() && key == "pass"))
        note(c.path, "blend mode " + art::blend_key_name(key) + " inside [merge] group " + in_quotes(merged.path) +
                         ": composited as normal");
      if (c.psd->clipping) note(c.path, "clipping mask inside a [merge] group: not applied");
      if (c.group()) collect_visible(c, opacity * opacity_of(*c.psd), parts, merged);
      else if (!c.trimmed.empty()) parts.emplace_back(&c, opacity * opacity_of(*c.psd));
    }
  }

  // Each [normal] layer becomes "<image><suffix>": the image of the layer of the same name (in the
  // same group, else the one layer of that name in the file), cut to that image's rectangle.
  void pair_normal_maps() {
    for (const NormalRequest& n : normals_) {
      const std::string& name = n.layer->tags.name;
      std::vector<std::pair<const Layer*, const std::pair<std::string, Rect>*>> same_group, anywhere;
      for (const auto& [layer, image] : image_of_) {
        if (layer->tags.name != name) continue;
        anywhere.emplace_back(layer, &image);
        const std::vector<Layer>& siblings = n.parent ? n.parent->children : layers_;
        for (const Layer& s : siblings)
          if (&s == layer) same_group.emplace_back(layer, &image);
      }
      const auto* pick = same_group.size() == 1 ? &same_group : anywhere.size() == 1 ? &anywhere : nullptr;
      if (!pick) {
        note(n.layer->path, anywhere.empty() ? "[normal] has no layer named " + in_quotes(name) + " to be the normal map of"
                                             : "[normal]: several layers are named " + in_quotes(name) +
                                                   " and none of them in the same group: not imported");
        continue;
      }
      const auto& [image, rect] = *pick->front().second;
      const std::string map = image + out_.skeleton.import.normal_suffix;
      if (normal_done_.count(map)) {
        note(n.layer->path, "image " + in_quotes(image) + " has a normal map already: this one is not imported");
        continue;
      }
      normal_done_.insert(map);
      // Where the normal layer has no pixels the surface is flat (the build's flat normal colour).
      Image pixels = Image::blank(rect.width, rect.height);
      for (std::size_t i = 0; i < pixels.rgba.size(); i += 4) {
        pixels.rgba[i] = 128;
        pixels.rgba[i + 1] = 128;
        pixels.rgba[i + 2] = 255;
        pixels.rgba[i + 3] = 255;
      }
      const PsdLayer& p = *n.layer->psd;
      if (!p.pixels.empty()) imaging::composite_over(pixels, p.pixels, p.bounds.x - rect.x, p.bounds.y - rect.y);
      out_.images.emplace_back(map, std::move(pixels));
      out_.normal_maps.emplace(map, image);
    }
  }

  // A [skin] layer's attachment goes to the slot of its name, taking the name of what that slot
  // shows so the skin replaces it; with no such slot, skin layers of one name share a new slot.
  void resolve_skins() {
    std::map<std::string, std::size_t> by_name;  // first slot of each name made by a layer or [slot] group
    for (std::size_t i = 0; i < slots_.size(); ++i)
      if (!slots_[i].from_skin && !slots_[i].dropped) by_name.emplace(slots_[i].name, i);
    std::map<std::string, std::size_t> skin_only;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      SlotDraft& d = slots_[i];
      if (!d.from_skin) continue;
      AttachmentDraft att = d.attachments.front();
      if (auto it = by_name.find(d.name); it != by_name.end()) {
        SlotDraft& target = slots_[it->second];
        if (target.setup >= 0) att.name = target.attachments[static_cast<std::size_t>(target.setup)].name;
        target.attachments.push_back(std::move(att));
        d.dropped = true;
      } else if (auto same = skin_only.find(d.name); same != skin_only.end()) {
        slots_[same->second].attachments.push_back(std::move(att));
        d.dropped = true;
      } else {
        skin_only.emplace(d.name, i);
      }
    }
  }

  void finish_slots() {
    SkeletonSource& s = out_.skeleton;
    s.skins.push_back(Skin{.name = kDefaultSkin});
    for (const std::string& name : skins_) {
      if (name == kDefaultSkin) continue;
      s.skins.push_back(Skin{.name = name});
    }
    art::UniqueNames slot_names;
    for (SlotDraft& d : slots_) {
      if (d.dropped) continue;
      const std::string name = slot_names.claim(d.name);
      if (name != d.name) note(d.where, "slot " + in_quotes(d.name) + " is taken: named " + in_quotes(name));
      const int slot_index = static_cast<int>(s.slots.size());
      std::map<std::string, art::UniqueNames> names;  // per skin
      std::string setup;
      for (std::size_t i = 0; i < d.attachments.size(); ++i) {
        AttachmentDraft& a = d.attachments[i];
        const std::string skin = a.skin.empty() ? kDefaultSkin : a.skin;
        const std::string unique = names[skin].claim(a.name);
        if (unique != a.name)
          note(a.where, "attachment " + in_quotes(a.name) + " of slot " + in_quotes(name) + " is taken: named " +
                            in_quotes(unique));
        if (static_cast<int>(i) == d.setup) setup = unique;
        RegionAttachment region;
        region.image = a.image == unique ? std::string() : a.image;
        const Vec2d local = a.centre - bone_world_[static_cast<std::size_t>(d.bone)];
        region.x = static_cast<float>(local.x);
        region.y = static_cast<float>(local.y);
        region.color.a = to_alpha(a.alpha);
        const int skin_index = s.find_skin(skin);
        s.skins[static_cast<std::size_t>(skin_index)].attachments.push_back(Attachment{slot_index, unique, region});
        if (a.mesh) out_.meshes.push_back({name, unique, skin, a.where});
      }
      Slot slot;
      slot.name = name;
      slot.bone = d.bone;
      slot.attachment = setup;
      slot.color.a = to_alpha(d.alpha);
      slot.blend = d.blend;
      s.slots.push_back(std::move(slot));
    }
  }

  const PsdDocument& doc_;
  std::string source_;
  ArtImport& out_;
  std::vector<Layer> layers_;
  Vec2d origin_;
  std::vector<Vec2d> bone_world_;  // the rig position of each bone (translations only)
  art::UniqueNames bone_names_;
  art::UniqueNames image_names_{true};
  std::vector<SlotDraft> slots_;
  std::vector<std::string> skins_;
  std::map<const Layer*, std::pair<std::string, Rect>> image_of_;
  std::vector<NormalRequest> normals_;
  std::set<std::string> normal_done_;
};

// Each attachment tagged [mesh] becomes an auto mesh of its image, in place; one that cannot be
// meshed stays a Region, reported.
void mesh_tagged(ArtImport& out) {
  const ImageSource images = [&out](const std::string& name) -> Expected<Image> {
    for (const auto& [n, pixels] : out.images)
      if (n == name) return pixels;
    return Unexpected{Error{name, {}, {}, "no such image"}};
  };
  for (const ArtImport::MeshRequest& m : out.meshes) {
    const int skin = out.skeleton.find_skin(m.skin), slot = out.skeleton.find_slot(m.slot);
    Expected<RegionMesh> meshed = mesh_region(out.skeleton, skin, slot, m.attachment, images);
    if (!meshed)
      out.notes.push_back({out.source + ":" + m.where, "[mesh]: " + meshed.error().message + ": imported as a region"});
  }
}

}  // namespace

Expected<ArtImport> convert_art(const imaging::PsdDocument& document, const std::string& source,
                                const ArtImportOptions& options) {
  ArtImport out;
  out.source = fs::path(source).filename().string();
  if (out.source.empty()) out.source = fs::path(source).parent_path().filename().string();
  out.name = options.name.empty() ? fs::path(out.source).stem().string() : options.name;
  if (out.name.empty()) return Unexpected{Error{source, {}, {}, "no rig name: name it with --name"}};
  bool any = false;
  for (const PsdLayer& l : document.layers) any = any || !l.is_group() || !l.children.empty();
  if (!any)
    return Unexpected{Error{source, {}, {},
                            document.layers.empty() ? "the file has no layers (a flattened image): nothing to import"
                                                    : "the file has only empty groups: nothing to import"}};
  // Derived from the source's name, so importing the same art again gives the same rig.
  out.skeleton.uid = derive_uid(kSkeletonUidPrefix, out.source);
  Converter(document, out.source, out).run();
  mesh_tagged(out);
  return out;
}

}  // namespace mf::offline
