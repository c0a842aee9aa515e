// The attachment half of the build: every attachment of every skin becomes an AttachmentRecord over
// shared arrays (influences for every vertex, UVs, local triangle indices, regions, path lengths), and
// each skin a sorted (slot, name) → attachment table. Linked meshes share their parent's ranges.
// The images the attachments show are packed into the atlas first (atlas_build.hpp), so regions know
// their page rectangles and region quads can be cut to the trimmed pixels.

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <variant>

#include "mf/offline/json/json_path.hpp"
#include "skeleton_builder_internal.hpp"
#include "mf/imaging/rect_union.hpp"

namespace mf::offline::build_detail {
namespace {

constexpr std::size_t kMaxMeshVertices = std::numeric_limits<std::uint16_t>::max();

skel::AttachmentKind kind_of(AttachmentType type) {
  switch (type) {
    case AttachmentType::Region: return skel::AttachmentKind::Region;
    case AttachmentType::Mesh:
    case AttachmentType::LinkedMesh: return skel::AttachmentKind::Mesh;
    case AttachmentType::BoundingBox: return skel::AttachmentKind::BoundingBox;
    case AttachmentType::Clipping: return skel::AttachmentKind::Clipping;
    case AttachmentType::Point: return skel::AttachmentKind::Point;
    case AttachmentType::Path: return skel::AttachmentKind::Path;
  }
  return skel::AttachmentKind::Region;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

class AttachmentBuilder {
 public:
  AttachmentBuilder(const SkeletonSource& skeleton, const ImageLookup& images, const std::string& file,
                    skel::SkeletonData& data, std::vector<Error>& warnings, AtlasOccupancy& occupancy)
      : skeleton_(skeleton), images_(images), file_(file), data_(data), warnings_(warnings), occupancy_(occupancy),
        scale_(skeleton.import.scale) {
    for (std::size_t i = 0; i < data.attachment_names.names.size(); ++i)
      name_ids_.emplace(data.attachment_names.names[i], static_cast<std::int32_t>(i));
  }

  void run() {
    // Indices first (skin-major, in file order), so linked meshes can name parents that come later.
    for (std::size_t s = 0; s < skeleton_.skins.size(); ++s) {
      const Skin& skin = skeleton_.skins[s];
      for (std::size_t a = 0; a < skin.attachments.size(); ++a) {
        const Attachment& att = skin.attachments[a];
        const std::string path = attachment_path(s, a);
        if (att.slot < 0 || static_cast<std::size_t>(att.slot) >= skeleton_.slots.size())
          fail(file_, json::path_key(path, "slot"), "slot index " + std::to_string(att.slot) + " is out of range");
        const auto [it, inserted] =
            by_key_.emplace(std::tuple(s, att.slot, att.name), static_cast<std::int32_t>(sources_.size()));
        if (!inserted)
          fail(file_, json::path_key(path, "name"),
               "skin " + quoted(skin.name) + " has two attachments named " + quoted(att.name) + " for slot " +
                   quoted(skeleton_.slots[static_cast<std::size_t>(att.slot)].name));
        sources_.push_back({&att, s, a});
      }
    }
    pack_images();
    data_.attachments.resize(sources_.size());
    for (std::size_t i = 0; i < sources_.size(); ++i)
      if (sources_[i].attachment->type() != AttachmentType::LinkedMesh) build(i);
    // Linked meshes after every mesh exists, since they copy their parent's ranges.
    for (std::size_t i = 0; i < sources_.size(); ++i)
      if (sources_[i].attachment->type() == AttachmentType::LinkedMesh) build(i);

    build_skin_tables();
    size_slot_deform();
  }

 private:
  struct Source {
    const Attachment* attachment;
    std::size_t skin, position;
  };

  std::string path_of(std::size_t i) const { return attachment_path(sources_[i].skin, sources_[i].position); }

  void build(std::size_t i) {
    const Attachment& att = *sources_[i].attachment;
    const std::string path = path_of(i);
    skel::AttachmentRecord rec;
    rec.kind = kind_of(att.type());
    rec.name = name_ids_.at(att.name);
    rec.slot = att.slot;
    rec.deform_source = static_cast<std::int32_t>(i);
    rec.vertex_start = static_cast<std::uint32_t>(data_.vertices.size());
    rec.index_start = static_cast<std::uint32_t>(data_.indices.size());
    rec.region_start = static_cast<std::uint32_t>(data_.regions.size());
    rec.lengths_start = static_cast<std::uint32_t>(data_.path_lengths.size());
    const int bone = skeleton_.slots[static_cast<std::size_t>(att.slot)].bone;

    std::visit(
        [&](const auto& a) {
          using T = std::decay_t<decltype(a)>;
          // Only drawn kinds tint; the other kinds' colours are for the editor.
          if constexpr (!std::is_same_v<T, BoundingBoxAttachment> && !std::is_same_v<T, ClippingAttachment> &&
                        !std::is_same_v<T, PointAttachment> && !std::is_same_v<T, PathAttachment>)
            rec.color = a.color;
          if constexpr (std::is_same_v<T, RegionAttachment>) build_region(a, att.name, bone, path, rec);
          if constexpr (std::is_same_v<T, MeshAttachment>) build_mesh(a, att.name, bone, path, rec);
          if constexpr (std::is_same_v<T, LinkedMeshAttachment>) build_linked(a, i, path, rec);
          if constexpr (std::is_same_v<T, BoundingBoxAttachment>) build_outline(a.vertices, bone, path, rec);
          if constexpr (std::is_same_v<T, ClippingAttachment>) {
            build_outline(a.vertices, bone, path, rec);
            if (a.end_slot < -1 || a.end_slot >= static_cast<int>(skeleton_.slots.size()))
              fail(file_, json::path_key(path, "end"), "end slot index " + std::to_string(a.end_slot) +
                                                           " is out of range");
            rec.end_slot = a.end_slot;
          }
          if constexpr (std::is_same_v<T, PointAttachment>) {
            rec.x = a.x * scale_;
            rec.y = a.y * scale_;
            rec.rotation = a.rotation;
          }
          if constexpr (std::is_same_v<T, PathAttachment>) {
            build_outline(a.vertices, bone, path, rec);
            rec.closed = a.closed;
            rec.constant_speed = a.constant_speed;
            for (float length : a.lengths) data_.path_lengths.push_back(length * scale_);
            rec.lengths_count = static_cast<std::uint32_t>(a.lengths.size());
          }
        },
        att.data);
    data_.attachments[i] = rec;
  }

  // ---- images and the atlas ----

  // An image the attachments show, looked up once.
  struct ImageEntry {
    std::string name;
    std::variant<AtlasSource, std::string> found;  // moved into the atlas sources when packed
    std::string missing;       // why it cannot be used (reported by the first attachment showing it); empty when it can
    std::int32_t source = -1;  // index into the atlas's placements
    std::size_t group = 0;     // union-find parent: images sharing one trim
  };

  // The frames' image names of an attachment showing `base`, or nothing when the sequence is invalid
  // (add_regions reports that).
  static std::vector<std::string> frame_images(const std::string& base, const std::optional<Sequence>& sequence) {
    std::vector<std::string> frames;
    if (!sequence) return {base};
    if (sequence->count < 1 || sequence->setup < 0 || sequence->setup >= sequence->count) return {};
    for (int f = 0; f < sequence->count; ++f) frames.push_back(sequence_frame_image(base, *sequence, f));
    return frames;
  }

  std::size_t image_entry(const std::string& image) {
    const auto [it, inserted] = image_ids_.emplace(image, images_found_.size());
    if (inserted) {
      ImageEntry entry;
      entry.name = image;
      entry.found = images_(image);
      entry.group = images_found_.size();
      if (const std::string* why = std::get_if<std::string>(&entry.found)) {
        entry.missing = *why;
      } else {
        const AtlasSource& src = std::get<AtlasSource>(entry.found);
        if (src.width <= 0 || src.height <= 0)
          entry.missing = "it has an empty size " + std::to_string(src.width) + "x" + std::to_string(src.height);
      }
      images_found_.push_back(std::move(entry));
    }
    return it->second;
  }

  std::size_t group_root(std::size_t i) {
    while (images_found_[i].group != i) i = images_found_[i].group = images_found_[images_found_[i].group].group;
    return i;
  }

  // The box of a mesh's UVs in the pixels of `image`, one pixel wider on each side so bilinear
  // filtering at its edge reads the image's own pixels; empty without UVs.
  static imaging::Rect uv_box(const std::vector<float>& uvs, const AtlasSource& image) {
    if (uvs.size() < 2) return {};
    float u0 = uvs[0], u1 = uvs[0], v0 = uvs[1], v1 = uvs[1];
    for (std::size_t k = 0; k + 1 < uvs.size(); k += 2) {
      u0 = std::min(u0, uvs[k]);
      u1 = std::max(u1, uvs[k]);
      v0 = std::min(v0, uvs[k + 1]);
      v1 = std::max(v1, uvs[k + 1]);
    }
    const auto px = [](float f, int size, bool up) {
      const double v = static_cast<double>(f) * size;
      const double r = up ? std::ceil(v) + 1 : std::floor(v) - 1;
      return static_cast<int>(std::clamp(r, 0.0, static_cast<double>(size)));
    };
    const int x0 = px(u0, image.width, false), x1 = px(u1, image.width, true);
    const int y0 = px(v0, image.height, false), y1 = px(v1, image.height, true);
    return {x0, y0, x1 - x0, y1 - y0};
  }

  // Looks up every image the attachments show, decides how each may be trimmed (a sequence's frames
  // share one trim; meshes keep their UV box; a linked mesh of an unknown parent is not trimmed), and
  // packs them into the atlas pages.
  void pack_images() {
    if (skeleton_.import.padding < 0)
      fail(file_, "import.padding", "padding must be >= 0, found " + std::to_string(skeleton_.import.padding));
    if (skeleton_.import.page_size <= 0)
      fail(file_, "import.pageSize", "page size must be > 0, found " + std::to_string(skeleton_.import.page_size));
    std::vector<imaging::Rect> keep;
    std::vector<std::uint8_t> untrimmed;
    auto use = [&](const std::string& base, const std::optional<Sequence>& sequence, const std::vector<float>* uvs,
                   bool trim) {
      const std::vector<std::string> frames = frame_images(base, sequence);
      std::size_t first = 0;
      for (std::size_t f = 0; f < frames.size(); ++f) {
        const std::size_t id = image_entry(frames[f]);
        keep.resize(images_found_.size());
        untrimmed.resize(images_found_.size(), 0);
        if (f == 0) first = id;
        images_found_[group_root(id)].group = group_root(first);
        if (!images_found_[id].missing.empty()) continue;
        if (!trim) untrimmed[id] = 1;
        if (uvs) keep[id] = imaging::united(keep[id], uv_box(*uvs, std::get<AtlasSource>(images_found_[id].found)));
      }
    };
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      const Attachment& att = *sources_[i].attachment;
      if (const auto* r = std::get_if<RegionAttachment>(&att.data)) {
        use(image_or_name(r->image, att.name), r->sequence, nullptr, true);
      } else if (const auto* m = std::get_if<MeshAttachment>(&att.data)) {
        use(image_or_name(m->image, att.name), m->sequence, &m->uvs, true);
      } else if (const auto* l = std::get_if<LinkedMeshAttachment>(&att.data)) {
        const MeshAttachment* parent = linked_parent(*l, i);
        use(image_or_name(l->image, att.name), l->sequence, parent ? &parent->uvs : nullptr, parent != nullptr);
      }
    }

    std::vector<AtlasSource> sources;
    std::vector<std::size_t> source_image;
    for (std::size_t id = 0; id < images_found_.size(); ++id) {
      ImageEntry& entry = images_found_[id];
      if (!entry.missing.empty()) continue;
      AtlasSource source = std::move(std::get<AtlasSource>(entry.found));
      source.name = entry.name;
      source.keep = keep[id];
      source.trim = untrimmed[id] == 0 && skeleton_.import.trim;
      source.trim_group = static_cast<std::int32_t>(group_root(id));
      entry.source = static_cast<std::int32_t>(sources.size());
      sources.push_back(std::move(source));
      source_image.push_back(id);
    }
    AtlasSettings settings;
    settings.page_size = skeleton_.import.page_size;
    settings.padding = skeleton_.import.padding;
    settings.page_name = data_.name.empty() ? std::string("atlas") : data_.name;
    Expected<Atlas> atlas = build_atlas(sources, settings);
    if (!atlas) fail(file_, "import.pageSize", atlas.error().message);
    atlas_ = std::move(*atlas);
    data_.pages = std::move(atlas_.pages);
    data_.normal_pages = std::move(atlas_.normal_pages);
    atlas_.pages = data_.pages;  // sizes for Atlas::region; bytes are not needed again
    for (skel::Page& p : atlas_.pages) p.bytes.clear();
    data_.filter = skeleton_.import.filter == TextureFilter::Nearest ? skel::TextureFilter::Nearest
                                                                     : skel::TextureFilter::Linear;
    data_.mipmaps = skeleton_.import.mipmaps;
    occupancy_ = atlas_.occupancy;
  }

  // The mesh a linked mesh takes its geometry from, or nullptr when it cannot be found (build_linked
  // reports that).
  const MeshAttachment* linked_parent(const LinkedMeshAttachment& a, std::size_t self) const {
    const Source& src = sources_[self];
    std::size_t parent_skin = src.skin;
    if (!a.skin.empty()) {
      const int s = skeleton_.find_skin(a.skin);
      if (s < 0) return nullptr;
      parent_skin = static_cast<std::size_t>(s);
    }
    const auto it = by_key_.find(std::tuple(parent_skin, src.attachment->slot, a.parent));
    if (it == by_key_.end()) return nullptr;
    return std::get_if<MeshAttachment>(&sources_[static_cast<std::size_t>(it->second)].attachment->data);
  }

  struct FrameImage {
    ImageSize size;
    imaging::Rect trim;  // the part of the image on the page
  };

  FrameImage placed_image(const std::string& image, const std::string& path, skel::Region& region) {
    const ImageEntry& entry = images_found_.at(image_ids_.at(image));
    if (!entry.missing.empty()) fail(file_, path, "image " + quoted(image) + ": " + entry.missing);
    const auto index = static_cast<std::size_t>(entry.source);
    region = atlas_.region(index);
    const AtlasPlacement& p = atlas_.placements[index];
    return {ImageSize{p.width, p.height}, p.trim};
  }

  // One region per image (per frame of a sequence); returns the setup frame's image.
  FrameImage add_regions(const std::string& base, const std::optional<Sequence>& sequence, const std::string& path,
                         skel::AttachmentRecord& rec) {
    rec.region_start = static_cast<std::uint32_t>(data_.regions.size());
    std::vector<std::string> frames;
    if (sequence) {
      if (sequence->count < 1)
        fail(file_, json::path_key(json::path_key(path, "sequence"), "count"),
             "sequence count must be >= 1, found " + std::to_string(sequence->count));
      if (sequence->setup < 0 || sequence->setup >= sequence->count)
        fail(file_, json::path_key(json::path_key(path, "sequence"), "setup"),
             "sequence setup frame " + std::to_string(sequence->setup) + " is outside [0, " +
                 std::to_string(sequence->count) + ")");
      rec.sequence_setup = sequence->setup;
    }
    frames = frame_images(base, sequence);
    FrameImage setup{};
    for (std::size_t f = 0; f < frames.size(); ++f) {
      skel::Region region{};
      const FrameImage image = placed_image(frames[f], path, region);
      data_.regions.push_back(region);
      if (static_cast<std::int32_t>(f) == rec.sequence_setup) setup = image;
    }
    rec.region_count = static_cast<std::uint32_t>(frames.size());
    return setup;
  }

  // ---- geometry ----

  // One influence with weight 1; x, y already scaled.
  void push_vertex(std::int32_t bone, float x, float y, float u, float v) {
    data_.vertices.push_back({static_cast<std::uint32_t>(data_.influences.size()), 1});
    data_.influences.push_back({bone, 1, x, y});
    data_.uvs.push_back(u);
    data_.uvs.push_back(v);
  }

  void check_bone(int bone, const std::string& path) const {
    if (bone < 0 || static_cast<std::size_t>(bone) >= skeleton_.bones.size())
      fail(file_, path, "bone index " + std::to_string(bone) + " is out of range");
  }

  // Influences for every vertex (UVs are added by the caller).
  void add_vertices(const Vertices& v, int slot_bone, const std::string& path, skel::AttachmentRecord& rec) {
    rec.vertex_start = static_cast<std::uint32_t>(data_.vertices.size());
    const std::size_t first_influence = data_.influences.size();
    if (!v.weighted()) {
      if (v.positions.size() % 2 != 0)
        fail(file_, json::path_key(path, "vertices"),
             "has " + std::to_string(v.positions.size()) + " numbers; expected x, y pairs");
      for (std::size_t k = 0; k + 1 < v.positions.size(); k += 2) {
        data_.vertices.push_back({static_cast<std::uint32_t>(data_.influences.size()), 1});
        data_.influences.push_back({slot_bone, 1, v.positions[k] * scale_, v.positions[k + 1] * scale_});
      }
    } else {
      for (std::size_t k = 0; k < v.weights.size(); ++k) add_weighted_vertex(v.weights[k], path, k);
    }
    rec.vertex_count = static_cast<std::uint32_t>(data_.vertices.size() - rec.vertex_start);
    rec.influence_count = static_cast<std::uint32_t>(data_.influences.size() - first_influence);
  }

  void add_weighted_vertex(const std::vector<InfluenceSource>& influences, const std::string& path, std::size_t k) {
    const std::string vpath = json::path_index(json::path_key(json::path_key(path, "weights"), "v"), k);
    if (influences.empty()) fail(file_, vpath, "a weighted vertex needs at least one influence");
    for (const InfluenceSource& in : influences) check_bone(in.bone, vpath);
    const std::vector<std::size_t> kept = kept_influences(influences);
    float sum = 1;
    if (kept.size() < influences.size()) {
      sum = 0;
      for (std::size_t i : kept) sum += influences[i].weight;
      if (!(sum > 0))
        fail(file_, vpath, "the " + std::to_string(kept.size()) + " largest of " + std::to_string(influences.size()) +
                               " influences have no weight to renormalise");
      warnings_.push_back(Error{file_, vpath, {},
                                "vertex has " + std::to_string(influences.size()) + " influences; kept the " +
                                    std::to_string(kept.size()) + " largest weights, renormalised to sum 1"});
    }
    data_.vertices.push_back(
        {static_cast<std::uint32_t>(data_.influences.size()), static_cast<std::uint32_t>(kept.size())});
    for (std::size_t i : kept) {
      const InfluenceSource& in = influences[i];
      data_.influences.push_back({in.bone, in.weight / sum, in.x * scale_, in.y * scale_});
    }
  }

  void build_region(const RegionAttachment& a, const std::string& name, int bone, const std::string& path,
                    skel::AttachmentRecord& rec) {
    const FrameImage image = add_regions(image_or_name(a.image, name), a.sequence, path, rec);
    const float w = (a.width > 0 ? a.width : static_cast<float>(image.size.width)) * scale_;
    const float h = (a.height > 0 ? a.height : static_cast<float>(image.size.height)) * scale_;
    // The quad covers only the trimmed pixels: its corners are the trim rectangle's, as fractions of
    // the whole image, so the picture stays exactly where the untrimmed image put it.
    const auto fraction = [](int pixels, int size) { return static_cast<float>(pixels) / static_cast<float>(size); };
    const float fx0 = fraction(image.trim.x, image.size.width);
    const float fx1 = fraction(image.trim.x + image.trim.width, image.size.width);
    const float fy0 = fraction(image.trim.y, image.size.height);
    const float fy1 = fraction(image.trim.y + image.trim.height, image.size.height);
    // Corners of the image rectangle centred on the origin, scaled, rotated (clockwise on a Y-down
    // screen is the usual matrix), then offset.
    const double radians = static_cast<double>(a.rotation) * std::numbers::pi / 180.0;
    const float c = static_cast<float>(std::cos(radians)), s = static_cast<float>(std::sin(radians));
    // Spine's corner order (bottom right, bottom left, top left, top right of the picture), so tools
    // that list a region's vertices agree with Spine's runtime; the two triangles share the diagonal
    // from top left to bottom right.
    const float corners[4][2] = {{fx1, fy1}, {fx0, fy1}, {fx0, fy0}, {fx1, fy0}};
    rec.vertex_start = static_cast<std::uint32_t>(data_.vertices.size());
    for (const auto& k : corners) {
      const float lx = (k[0] - 0.5f) * w * a.scale_x, ly = (k[1] - 0.5f) * h * a.scale_y;
      push_vertex(bone, c * lx - s * ly + a.x * scale_, s * lx + c * ly + a.y * scale_, k[0], k[1]);
    }
    rec.vertex_count = 4;
    rec.influence_count = 4;
    rec.index_start = static_cast<std::uint32_t>(data_.indices.size());
    for (std::uint16_t i : {0, 1, 2, 2, 3, 0}) data_.indices.push_back(i);
    rec.index_count = 6;
  }

  void build_mesh(const MeshAttachment& a, const std::string& name, int bone, const std::string& path,
                  skel::AttachmentRecord& rec) {
    add_regions(image_or_name(a.image, name), a.sequence, path, rec);
    const std::size_t count = a.vertices.count();
    if (count > kMaxMeshVertices)
      fail(file_, path, "mesh has " + std::to_string(count) + " vertices; at most " +
                            std::to_string(kMaxMeshVertices) + " are supported");
    if (a.uvs.size() != 2 * count)
      fail(file_, json::path_key(path, "uvs"), "has " + std::to_string(a.uvs.size()) + " numbers; expected " +
                                                   std::to_string(2 * count) + " (2 per vertex)");
    if (a.triangles.size() % 3 != 0)
      fail(file_, json::path_key(path, "triangles"),
           "has " + std::to_string(a.triangles.size()) + " indices; expected 3 per triangle");
    add_vertices(a.vertices, bone, path, rec);
    data_.uvs.insert(data_.uvs.end(), a.uvs.begin(), a.uvs.end());
    rec.index_start = static_cast<std::uint32_t>(data_.indices.size());
    for (std::size_t t = 0; t < a.triangles.size(); ++t) {
      const int i = a.triangles[t];
      if (i < 0 || static_cast<std::size_t>(i) >= count)
        fail(file_, json::path_index(json::path_key(path, "triangles"), t),
             "vertex index " + std::to_string(i) + " is out of range (" + std::to_string(count) + " vertices)");
      data_.indices.push_back(static_cast<std::uint16_t>(i));
    }
    rec.index_count = static_cast<std::uint32_t>(a.triangles.size());
  }

  void build_linked(const LinkedMeshAttachment& a, std::size_t self, const std::string& path,
                    skel::AttachmentRecord& rec) {
    const Source& src = sources_[self];
    std::size_t parent_skin = src.skin;
    if (!a.skin.empty()) {
      const int s = skeleton_.find_skin(a.skin);
      if (s < 0) fail(file_, json::path_key(path, "skin"), "unknown skin " + quoted(a.skin));
      parent_skin = static_cast<std::size_t>(s);
    }
    const auto it = by_key_.find(std::tuple(parent_skin, src.attachment->slot, a.parent));
    if (it == by_key_.end())
      fail(file_, json::path_key(path, "parent"),
           "skin " + quoted(skeleton_.skins[parent_skin].name) + " has no attachment " + quoted(a.parent) +
               " for slot " + quoted(skeleton_.slots[static_cast<std::size_t>(src.attachment->slot)].name));
    const std::int32_t parent = it->second;
    if (sources_[static_cast<std::size_t>(parent)].attachment->type() != AttachmentType::Mesh)
      fail(file_, json::path_key(path, "parent"),
           "the parent " + quoted(a.parent) + " is a " +
               to_string(sources_[static_cast<std::size_t>(parent)].attachment->type()) + ", not a Mesh");
    const skel::AttachmentRecord& p = data_.attachments[static_cast<std::size_t>(parent)];
    rec.vertex_start = p.vertex_start;
    rec.vertex_count = p.vertex_count;
    rec.influence_count = p.influence_count;
    rec.index_start = p.index_start;
    rec.index_count = p.index_count;
    rec.deform_source = a.deform ? parent : static_cast<std::int32_t>(self);
    add_regions(image_or_name(a.image, src.attachment->name), a.sequence, path, rec);
  }

  // Bounding boxes, clipping polygons and paths: vertices with zero UVs, no triangles.
  void build_outline(const Vertices& v, int bone, const std::string& path, skel::AttachmentRecord& rec) {
    add_vertices(v, bone, path, rec);
    data_.uvs.resize(data_.uvs.size() + 2 * rec.vertex_count, 0.0f);
  }

  // ---- tables ----

  void build_skin_tables() {
    data_.skins.resize(skeleton_.skins.size());
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      const skel::AttachmentRecord& rec = data_.attachments[i];
      data_.skins[sources_[i].skin].entries.push_back({rec.slot, rec.name, static_cast<std::int32_t>(i)});
    }
    for (std::size_t s = 0; s < data_.skins.size(); ++s) {
      data_.skins[s].name = skeleton_.skins[s].name;
      std::sort(data_.skins[s].entries.begin(), data_.skins[s].entries.end(),
                [](const skel::SkinEntry& a, const skel::SkinEntry& b) {
                  return std::tie(a.slot, a.name) < std::tie(b.slot, b.name);
                });
    }
  }

  // A slot's deform range fits the largest deformable attachment it can show: meshes, bounding boxes,
  // clipping polygons and paths (linked meshes count their parent's).
  void size_slot_deform() {
    data_.slot_deform_floats.assign(skeleton_.slots.size(), 0);
    for (const skel::AttachmentRecord& rec : data_.attachments) {
      if (rec.kind != skel::AttachmentKind::Mesh && rec.kind != skel::AttachmentKind::BoundingBox &&
          rec.kind != skel::AttachmentKind::Clipping && rec.kind != skel::AttachmentKind::Path)
        continue;
      std::uint32_t& floats = data_.slot_deform_floats[static_cast<std::size_t>(rec.slot)];
      floats = std::max(floats, 2 * rec.influence_count);
    }
  }

  const SkeletonSource& skeleton_;
  const ImageLookup& images_;
  const std::string& file_;
  skel::SkeletonData& data_;
  std::vector<Error>& warnings_;
  AtlasOccupancy& occupancy_;
  const float scale_;

  std::unordered_map<std::string, std::int32_t> name_ids_;
  std::map<std::tuple<std::size_t, int, std::string>, std::int32_t> by_key_;  // (skin, slot, name) → index
  std::vector<Source> sources_;
  std::map<std::string, std::size_t> image_ids_;  // image name → images_found_
  std::vector<ImageEntry> images_found_;
  Atlas atlas_;  // placements and page sizes (the pages' bytes live in data_)
};

}  // namespace

void build_attachments(const SkeletonSource& skeleton, const ImageLookup& images, const std::string& file,
                       skel::SkeletonData& data, std::vector<Error>& warnings, AtlasOccupancy& atlas) {
  AttachmentBuilder(skeleton, images, file, data, warnings, atlas).run();
}

std::vector<std::size_t> kept_influences(const std::vector<InfluenceSource>& influences) {
  std::vector<std::size_t> order(influences.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (order.size() <= static_cast<std::size_t>(skel::kMaxInfluences)) return order;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return influences[a].weight > influences[b].weight; });
  order.resize(static_cast<std::size_t>(skel::kMaxInfluences));
  std::sort(order.begin(), order.end());
  return order;
}

std::vector<long> deform_float_map(const Vertices& vertices) {
  bool capped = false;
  for (const std::vector<InfluenceSource>& v : vertices.weights)
    capped = capped || v.size() > static_cast<std::size_t>(skel::kMaxInfluences);
  if (!capped) return {};
  std::vector<long> map;
  long next = 0;
  for (const std::vector<InfluenceSource>& v : vertices.weights) {
    const std::vector<std::size_t> kept = kept_influences(v);
    std::size_t k = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const bool keep = k < kept.size() && kept[k] == i;
      map.push_back(keep ? next : -1);
      map.push_back(keep ? next + 1 : -1);
      if (keep) {
        next += 2;
        ++k;
      }
    }
  }
  return map;
}

const std::string& image_or_name(const std::string& image, const std::string& name) {
  return image.empty() ? name : image;
}

std::string sequence_frame_image(const std::string& base, const Sequence& sequence, int frame) {
  std::string number = std::to_string(sequence.start + frame);
  const bool negative = !number.empty() && number[0] == '-';
  const std::size_t digits = number.size() - (negative ? 1 : 0);
  if (sequence.digits > 0 && digits < static_cast<std::size_t>(sequence.digits))
    number.insert(negative ? 1 : 0, static_cast<std::size_t>(sequence.digits) - digits, '0');
  return base + number;
}

std::string attachment_path(std::size_t skin, std::size_t attachment) {
  return json::path_index(json::path_key(json::path_index("skins", skin), "attachments"), attachment);
}

}  // namespace mf::offline::build_detail
