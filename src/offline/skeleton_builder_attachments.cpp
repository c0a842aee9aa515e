// The attachment half of the build: every attachment of every skin becomes an AttachmentRecord over
// shared arrays (influences for every vertex, UVs, local triangle indices, regions, path lengths), and
// each skin a sorted (slot, name) → attachment table. Linked meshes share their parent's ranges.

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <variant>

#include "mf/offline/json_path.hpp"
#include "skeleton_builder_internal.hpp"

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
  AttachmentBuilder(const Skeleton& skeleton, const ImageLookup& images, const std::string& file,
                    skel::SkeletonData& data, std::vector<Error>& warnings)
      : skeleton_(skeleton), images_(images), file_(file), data_(data), warnings_(warnings),
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

  // ---- images ----

  ImageSize image_size(const std::string& image, const std::string& path) {
    std::variant<ImageSize, std::string> found = images_(image);
    if (const std::string* why = std::get_if<std::string>(&found))
      fail(file_, path, "image " + quoted(image) + " not found: " + *why);
    const ImageSize size = std::get<ImageSize>(found);
    if (size.width <= 0 || size.height <= 0)
      fail(file_, path, "image " + quoted(image) + " has an empty size " + std::to_string(size.width) + "x" +
                            std::to_string(size.height));
    return size;
  }

  std::int32_t page_of(const std::string& image, ImageSize size) {
    const auto [it, inserted] = pages_.emplace(image, static_cast<std::int32_t>(data_.pages.size()));
    if (inserted) data_.pages.push_back({image, size.width, size.height, skel::PageEncoding::Png, {}});
    return it->second;
  }

  // One region per image (per frame of a sequence); returns the size of the setup frame's image.
  ImageSize add_regions(const std::string& base, const std::optional<Sequence>& sequence, const std::string& path,
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
      for (int f = 0; f < sequence->count; ++f) frames.push_back(sequence_frame_image(base, *sequence, f));
      rec.sequence_setup = sequence->setup;
    } else {
      frames.push_back(base);
    }
    ImageSize setup{};
    for (std::size_t f = 0; f < frames.size(); ++f) {
      const ImageSize size = image_size(frames[f], path);
      data_.regions.push_back({page_of(frames[f], size), 0, 0, 1, 1, static_cast<float>(size.width),
                               static_cast<float>(size.height)});
      if (static_cast<std::int32_t>(f) == rec.sequence_setup) setup = size;
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

  void add_weighted_vertex(const std::vector<Influence>& influences, const std::string& path, std::size_t k) {
    const std::string vpath = json::path_index(json::path_key(json::path_key(path, "weights"), "v"), k);
    if (influences.empty()) fail(file_, vpath, "a weighted vertex needs at least one influence");
    for (const Influence& in : influences) check_bone(in.bone, vpath);
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
      const Influence& in = influences[i];
      data_.influences.push_back({in.bone, in.weight / sum, in.x * scale_, in.y * scale_});
    }
  }

  void build_region(const RegionAttachment& a, const std::string& name, int bone, const std::string& path,
                    skel::AttachmentRecord& rec) {
    const ImageSize image = add_regions(image_or_name(a.image, name), a.sequence, path, rec);
    const float w = (a.width > 0 ? a.width : static_cast<float>(image.width)) * scale_;
    const float h = (a.height > 0 ? a.height : static_cast<float>(image.height)) * scale_;
    // Corners of the image rectangle centred on the origin, scaled, rotated (clockwise on a Y-down
    // screen is the usual matrix), then offset.
    const double radians = static_cast<double>(a.rotation) * std::numbers::pi / 180.0;
    const float c = static_cast<float>(std::cos(radians)), s = static_cast<float>(std::sin(radians));
    const float corners[4][4] = {{-0.5f, -0.5f, 0, 0}, {0.5f, -0.5f, 1, 0}, {0.5f, 0.5f, 1, 1}, {-0.5f, 0.5f, 0, 1}};
    rec.vertex_start = static_cast<std::uint32_t>(data_.vertices.size());
    for (const auto& k : corners) {
      const float lx = k[0] * w * a.scale_x, ly = k[1] * h * a.scale_y;
      push_vertex(bone, c * lx - s * ly + a.x * scale_, s * lx + c * ly + a.y * scale_, k[2], k[3]);
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

  // A slot's deform range fits the largest mesh it can show (linked meshes count their parent's).
  void size_slot_deform() {
    data_.slot_deform_floats.assign(skeleton_.slots.size(), 0);
    for (const skel::AttachmentRecord& rec : data_.attachments) {
      if (rec.kind != skel::AttachmentKind::Mesh) continue;
      std::uint32_t& floats = data_.slot_deform_floats[static_cast<std::size_t>(rec.slot)];
      floats = std::max(floats, 2 * rec.influence_count);
    }
  }

  const Skeleton& skeleton_;
  const ImageLookup& images_;
  const std::string& file_;
  skel::SkeletonData& data_;
  std::vector<Error>& warnings_;
  const float scale_;

  std::unordered_map<std::string, std::int32_t> name_ids_;
  std::map<std::tuple<std::size_t, int, std::string>, std::int32_t> by_key_;  // (skin, slot, name) → index
  std::vector<Source> sources_;
  std::map<std::string, std::int32_t> pages_;
};

}  // namespace

void build_attachments(const Skeleton& skeleton, const ImageLookup& images, const std::string& file,
                       skel::SkeletonData& data, std::vector<Error>& warnings) {
  AttachmentBuilder(skeleton, images, file, data, warnings).run();
}

std::vector<std::size_t> kept_influences(const std::vector<Influence>& influences) {
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
  for (const std::vector<Influence>& v : vertices.weights)
    capped = capped || v.size() > static_cast<std::size_t>(skel::kMaxInfluences);
  if (!capped) return {};
  std::vector<long> map;
  long next = 0;
  for (const std::vector<Influence>& v : vertices.weights) {
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
