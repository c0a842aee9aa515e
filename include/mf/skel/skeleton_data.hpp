#pragma once
// SkeletonData: a rig compiled for the runtime. Every name is resolved to an index, every array is
// sized once, and nothing here changes after load; many instances (SkeletonPose) share one
// SkeletonData. It is made by the offline build step (mf::offline::build_skeleton) or, later, loaded
// from a binary build. Standard library only.
//
// Arrays are structure-of-arrays by concept (bones, slots, attachments, ...), indexed by the
// concept's index. Units: pixels, Y down, degrees clockwise on screen.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/color.hpp"
#include "mf/core/expected.hpp"
#include "mf/skel/clip_data.hpp"
#include "mf/skel/rig_modes.hpp"

namespace mf::skel {

enum class AttachmentKind : std::uint8_t { Region, Mesh, BoundingBox, Clipping, Point, Path };

inline constexpr int kMaxInfluences = 8;

struct BoneTable {
  std::vector<std::string> names;
  std::vector<std::int32_t> parent;  // lower index than the bone's own, or −1
  // Setup pose (after import.scale).
  std::vector<float> x, y, rotation, scale_x, scale_y, shear_x, shear_y, length;
  std::vector<Inherit> inherit;
  std::vector<std::uint8_t> skin_required;

  std::size_t size() const { return names.size(); }
};

struct SlotTable {
  std::vector<std::string> names;
  std::vector<std::int32_t> bone;
  std::vector<std::int32_t> setup_attachment;  // attachment name id, −1 for none
  std::vector<Rgba8> color;
  std::vector<Rgba8> dark;                     // alpha 0 when the slot has no dark colour
  std::vector<std::uint8_t> has_dark;
  std::vector<BlendMode> blend;

  std::size_t size() const { return names.size(); }
};

// One influence of a vertex, the layout the skinning shader reads: [bone, weight, x, y].
struct Influence {
  std::int32_t bone;
  float weight;
  float x, y;  // position in the bone's space
};

// Where a vertex's influences are.
struct VertexInfluences {
  std::uint32_t first;  // into SkeletonData::influences
  std::uint32_t count;  // 1 … kMaxInfluences
};

// An image on an atlas page: the UV rectangle a mesh's 0…1 UVs map into. It is the rectangle the
// whole (untrimmed) image would cover on the page, so it can reach past the packed pixels when the
// image was trimmed to its alpha bounds; region quads are cut to the trimmed part at build time.
struct Region {
  std::int32_t page;
  float u0, v0, u1, v1;
  float width, height;  // pixels of the untrimmed image
};

// How a page's pixels travel: encoded PNG (decoded by the renderer) or raw RGBA8 rows. Either way
// the colours have straight (not premultiplied) alpha.
enum class PageEncoding : std::uint8_t { Png, Rgba8 };

struct Page {
  std::string name;  // for messages and tools, e.g. "mannequin_0"
  int width = 0, height = 0;
  PageEncoding encoding = PageEncoding::Png;
  std::vector<std::uint8_t> bytes;  // empty when the data was built without pixels (sizes only)
};


// An attachment of any skin. Geometry is stored as influences for every vertex: an unweighted vertex
// has one influence on its slot's bone with weight 1, so one skinning path serves all attachments.
// A region is four vertices (corners in the order top-left, top-right, bottom-right, bottom-left of the
// image) and two triangles. Deform keys offset the influence positions, two floats per influence.
struct AttachmentRecord {
  AttachmentKind kind = AttachmentKind::Region;
  std::int32_t name = -1;        // attachment name id
  std::int32_t slot = -1;
  Rgba8 color = Rgba8::white();
  std::uint32_t vertex_start = 0, vertex_count = 0;  // into vertices and uvs
  std::uint32_t influence_count = 0;                 // total of its vertices' influences (deform floats / 2)
  std::uint32_t index_start = 0, index_count = 0;    // into indices (triangles), local vertex numbers
  std::uint32_t region_start = 0, region_count = 0;  // into regions: 1, or one per sequence frame
  std::int32_t sequence_setup = 0;                   // frame shown when the slot has no sequence key
  std::int32_t deform_source = -1;  // the attachment whose deform keys apply (itself, or a linked mesh's parent)
  std::int32_t end_slot = -1;       // Clipping: last slot clipped (−1: to the end)
  float x = 0, y = 0, rotation = 0; // Point
  bool closed = false, constant_speed = true;          // Path
  std::uint32_t lengths_start = 0, lengths_count = 0;  // Path: into path_lengths
};

// A skin: (slot, attachment name id) → attachment index, sorted by slot then name id.
struct SkinEntry {
  std::int32_t slot;
  std::int32_t name;
  std::int32_t attachment;
};

// The attachment for (slot, name id) in a sorted skin table, or −1.
std::int32_t find_skin_attachment(std::span<const SkinEntry> entries, std::int32_t slot, std::int32_t name);

// The name of the skin that is the base of every skin composition, as in Spine.
inline constexpr std::string_view kDefaultSkinName = "default";

struct SkinData {
  std::string name;
  std::vector<SkinEntry> entries;
  std::vector<std::int32_t> bones;        // skinRequired bones it activates
  std::vector<std::int32_t> constraints;  // skinRequired constraints it activates, as update-order constraint ids
};

struct EventData {
  std::string name;
  std::int32_t int_value = 0;
  float float_value = 0;
  std::string string_value;
  std::string audio;
  float volume = 1, balance = 0;
};

// ---- constraints (solved by the constraints module; the data is complete here) --------------------

struct IkData {
  std::string name;
  std::vector<std::int32_t> bones;
  std::int32_t target = 0;
  float mix = 1, softness = 0;
  std::int8_t bend = 1;
  bool compress = false, stretch = false, uniform = false, skin_required = false;
};

struct TransformData {
  std::string name;
  std::vector<std::int32_t> bones;
  std::int32_t target = 0;
  float mix_rotate = 1, mix_x = 1, mix_y = 1, mix_scale_x = 1, mix_scale_y = 1, mix_shear_y = 1;
  float offset_rotation = 0, offset_x = 0, offset_y = 0, offset_scale_x = 0, offset_scale_y = 0, offset_shear_y = 0;
  bool local = false, relative = false, skin_required = false;
};


struct PathData {
  std::string name;
  std::vector<std::int32_t> bones;
  std::int32_t target_slot = 0;
  PositionMode position_mode = PositionMode::Percent;
  SpacingMode spacing_mode = SpacingMode::Length;
  RotateMode rotate_mode = RotateMode::Tangent;
  float offset_rotation = 0, position = 0, spacing = 0, mix_rotate = 1, mix_x = 1, mix_y = 1;
  bool skin_required = false;
};

struct PhysicsData {
  std::string name;
  std::int32_t bone = 0;
  float x = 0, y = 0, rotate = 0, scale_x = 0, shear_x = 0;
  float limit = 5000, step = 1.0f / 60;
  float inertia = 1, strength = 100, damping = 1, mass_inverse = 1, wind = 0, gravity = 0, mix = 1;
  bool skin_required = false;
};

// One step of the update order: compute a bone's world transform, or solve a constraint.
//
// The build makes the order like this. Constraints are taken by their `order`. Before each one, every
// bone it reads that is not up to date is emitted, ancestors first: the target bone (ik, transform),
// the target slot's bone and the bones weighting that slot's paths (path), and the constrained bones
// and their parents. Then the constraint is emitted, and every bone it changes (its constrained bones)
// and all their descendants become stale, so each is emitted again before the next constraint that
// reads it. After the last constraint, every bone still stale or never emitted follows in index order
// (parents first). A bone can therefore appear several times; skin-required bones and constraints are
// in the order too and are skipped while inactive.
enum class UpdateKind : std::uint8_t { Bone, Ik, Transform, Path, Physics };
struct UpdateStep {
  UpdateKind kind;
  std::int32_t index;
};

// Interned attachment names, so skins and attachment keys compare integers.
struct NameTable {
  std::vector<std::string> names;
  std::int32_t find(std::string_view name) const;  // −1 when missing
};

class SkeletonData {
 public:
  std::string name;
  BoneTable bones;
  SlotTable slots;
  NameTable attachment_names;

  std::vector<AttachmentRecord> attachments;
  std::vector<Influence> influences;
  std::vector<VertexInfluences> vertices;
  std::vector<float> uvs;                // 2 per vertex, 0…1 within the attachment's image
  std::vector<std::uint16_t> indices;    // triangles, local to the attachment's vertices
  std::vector<Region> regions;
  std::vector<Page> pages;
  // Normal maps: empty, or one page per entry of `pages` with the same rectangles.
  std::vector<Page> normal_pages;
  TextureFilter filter = TextureFilter::Linear;
  bool mipmaps = false;
  std::vector<float> path_lengths;

  std::vector<SkinData> skins;
  std::vector<EventData> events;
  std::vector<IkData> ik;
  std::vector<TransformData> transform;
  std::vector<PathData> path;
  std::vector<PhysicsData> physics;
  std::vector<UpdateStep> update_order;
  // Bones and constraints by update-order constraint id: constraint_steps[i] is the i-th constraint in
  // the update order (kind and index), as skins list them.
  std::vector<UpdateStep> constraint_steps;

  // Deform float counts: a slot can show several deformed attachments over time; the pose keeps one
  // range per slot sized for the largest.
  std::vector<std::uint32_t> slot_deform_floats;

  int find_bone(std::string_view name) const;
  int find_slot(std::string_view name) const;
  int find_skin(std::string_view name) const;
  // The skin named kDefaultSkinName, or −1: the base of every skin composition (skin_composer.hpp)
  // and the skin a new pose shows.
  int default_skin() const;
  int find_event(std::string_view name) const;

  // Clips: every clip the rig has is known by name and length; a clip's timelines are compiled when
  // first loaded and cached (shared_ptr, so loading one clip never moves another).
  struct ClipEntry {
    std::string name;
    float length = 0;
    std::shared_ptr<const ClipData> data;  // null until loaded
  };
  std::vector<ClipEntry> clips;
  int find_clip(std::string_view name) const;
  // The loaded clip, or nullptr when it is not loaded yet.
  const ClipData* clip(int index) const { return clips[static_cast<std::size_t>(index)].data.get(); }

  // Compiles a clip on demand; set by whoever made the data (the offline build, or a build file).
  using ClipLoader = std::function<Expected<std::shared_ptr<ClipData>>(const SkeletonData& data, int clip)>;
  ClipLoader loader;
  // Loads the clip once (through `loader`) and caches it. Not for the frame loop: it allocates.
  Expected<const ClipData*> load_clip(int index);
  // Loads every clip; the first error stops.
  Status load_all_clips();
  // Timeline cursors needed by all clips loaded so far (poses size their cursor table from it).
  std::uint32_t cursor_count = 0;
};

}  // namespace mf::skel
