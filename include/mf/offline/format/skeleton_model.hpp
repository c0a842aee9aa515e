#pragma once
// The rig as the `.mskel` source file holds it: plain, editable C++ types with every reference
// inside the skeleton resolved to an index. The build step turns this into runtime arrays.
//
// Units: pixels, Y down, degrees clockwise on screen. Field defaults are the file format's defaults
// (docs/formats.md lists them).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "mf/core/color.hpp"
#include "mf/offline/json/source_location.hpp"
#include "mf/skel/rig_modes.hpp"

namespace mf::offline {

// The rig's modes are the runtime's own types (mf/skel/rig_modes.hpp).
using skel::Inherit;
using skel::BlendMode;
using skel::TextureFilter;

// Default editor colour of a bone.
inline constexpr Rgba8 kDefaultBoneColor{0x98, 0x98, 0x98, 0xff};

struct ImportSettings {
  std::string images = "images/";  // image folder, relative to the .mskel's folder
  int page_size = 2048;            // atlas page edge in pixels
  int padding = 2;                 // pixels of padding and edge extrusion around each image
  float scale = 1;                 // scales every pixel quantity at build time
  TextureFilter filter = TextureFilter::Linear;
  bool mipmaps = false;
  std::string normal_suffix = "_n";  // <image><suffix>.png beside an image is its normal map
  bool trim = true;  // region quads cut to their images' opaque pixels (false: the whole image)

  friend bool operator==(const ImportSettings&, const ImportSettings&) = default;
};

// A rectangle of pixels on an imported image's source canvas: x, y of its top-left corner (Y down).
struct CanvasRect {
  int x = 0, y = 0, width = 0, height = 0;

  friend bool operator==(const CanvasRect&, const CanvasRect&) = default;
};

// An image the rig uses and, for imported art, where it came from (e.g. "art.psd:Body/Torso") and
// where its pixels sat on the source canvas when it was last imported, so that a re-import can shift
// the attachments that show it by as much as the layer moved.
struct ImageEntry {
  std::string name;
  std::string source;
  std::optional<CanvasRect> rect;

  friend bool operator==(const ImageEntry&, const ImageEntry&) = default;
};

struct Bone {
  std::string name;
  int parent = -1;  // index into SkeletonSource::bones, always lower than this bone's; -1 for a root
  float x = 0, y = 0, rotation = 0, scale_x = 1, scale_y = 1, shear_x = 0, shear_y = 0;
  float length = 0;
  Inherit inherit = Inherit::Normal;
  Rgba8 color = kDefaultBoneColor;  // editor only
  bool skin_required = false;       // exists only while an active skin lists it

  friend bool operator==(const Bone&, const Bone&) = default;
};

struct Slot {
  std::string name;
  int bone = 0;
  std::string attachment;  // setup attachment name; empty for none
  Rgba8 color = Rgba8::white();
  std::optional<Rgba8> dark;  // two-colour tint; the alpha is unused
  BlendMode blend = BlendMode::Normal;

  friend bool operator==(const Slot&, const Slot&) = default;
};

// ---- attachments ------------------------------------------------------------------------------

// A Region or Mesh whose image is a numbered sequence: name01…name08 for count 8, start 1, digits 2.
struct Sequence {
  int count = 1;
  int start = 1;
  int digits = 0;
  int setup = 0;  // frame shown in the setup pose

  friend bool operator==(const Sequence&, const Sequence&) = default;
};

// One bone's pull on a weighted vertex: the vertex's position in that bone's space and its weight.
struct InfluenceSource {
  int bone = 0;  // index into SkeletonSource::bones
  float weight = 0;
  float x = 0, y = 0;

  friend bool operator==(const InfluenceSource&, const InfluenceSource&) = default;
};

// Vertex positions of a mesh, bounding box, clipping polygon or path. Either unweighted (x, y pairs in
// the slot bone's space) or weighted (influences per vertex, in each bone's space), never both.
struct Vertices {
  std::vector<float> positions;
  std::vector<std::vector<InfluenceSource>> weights;

  bool weighted() const { return !weights.empty(); }
  std::size_t count() const { return weighted() ? weights.size() : positions.size() / 2; }

  friend bool operator==(const Vertices&, const Vertices&) = default;
};

struct RegionAttachment {
  std::string image;  // image name under import.images; empty means the attachment's name
  float x = 0, y = 0, rotation = 0, scale_x = 1, scale_y = 1;
  float width = 0, height = 0;  // size in pixels; 0 takes the image's size
  Rgba8 color = Rgba8::white();
  std::optional<Sequence> sequence;

  friend bool operator==(const RegionAttachment&, const RegionAttachment&) = default;
};

struct MeshAttachment {
  std::string image;
  Rgba8 color = Rgba8::white();
  std::vector<float> uvs;         // u, v per vertex in [0, 1] of the image, v down
  std::vector<int> triangles;     // three vertex indices per triangle
  int hull = 0;                   // the first `hull` vertices are the outline
  std::vector<int> edges;         // vertex index pairs, editor only
  Vertices vertices;
  float width = 0, height = 0;    // image size when the mesh was made, editor only
  std::optional<Sequence> sequence;

  friend bool operator==(const MeshAttachment&, const MeshAttachment&) = default;
};

// Shares the geometry and weights of a mesh in some skin, with its own image.
struct LinkedMeshAttachment {
  std::string parent;          // the parent mesh's attachment name (same slot)
  std::string skin;            // the parent's skin; empty means this attachment's own skin
  std::string image;
  Rgba8 color = Rgba8::white();
  bool deform = true;          // also share the parent's deform keys
  std::optional<Sequence> sequence;

  friend bool operator==(const LinkedMeshAttachment&, const LinkedMeshAttachment&) = default;
};

struct BoundingBoxAttachment {
  Vertices vertices;
  Rgba8 color = {0x60, 0xf0, 0x00, 0xff};  // editor only

  friend bool operator==(const BoundingBoxAttachment&, const BoundingBoxAttachment&) = default;
};

struct ClippingAttachment {
  Vertices vertices;
  int end_slot = -1;  // clipping ends after this slot; -1 clips to the end of the draw order
  Rgba8 color = {0xce, 0x3a, 0x3a, 0xff};  // editor only

  friend bool operator==(const ClippingAttachment&, const ClippingAttachment&) = default;
};

struct PointAttachment {
  float x = 0, y = 0, rotation = 0;
  Rgba8 color = {0xf1, 0xf1, 0x00, 0xff};  // editor only

  friend bool operator==(const PointAttachment&, const PointAttachment&) = default;
};

// A cubic bezier path: control points come three per knot (in-handle, point, out-handle). n knots make
// n segments when closed and n − 1 when open.
struct PathAttachment {
  Vertices vertices;
  bool closed = false;
  bool constant_speed = true;
  std::vector<float> lengths;  // arc length from the start of the path to the end of each segment
  Rgba8 color = {0xff, 0x77, 0x00, 0xff};  // editor only

  friend bool operator==(const PathAttachment&, const PathAttachment&) = default;
};

enum class AttachmentType : std::uint8_t { Region, Mesh, LinkedMesh, BoundingBox, Clipping, Point, Path };

// Variant order matches AttachmentType.
using AttachmentData = std::variant<RegionAttachment, MeshAttachment, LinkedMeshAttachment, BoundingBoxAttachment,
                                    ClippingAttachment, PointAttachment, PathAttachment>;

struct Attachment {
  int slot = 0;      // index into SkeletonSource::slots
  std::string name;  // unique per (skin, slot)
  AttachmentData data;

  AttachmentType type() const { return static_cast<AttachmentType>(data.index()); }
  friend bool operator==(const Attachment&, const Attachment&) = default;
};

enum class ConstraintKind : std::uint8_t { Ik, Transform, Path, Physics };

struct ConstraintRef {
  ConstraintKind kind = ConstraintKind::Ik;
  int index = 0;  // into the skeleton's array of that kind

  friend bool operator==(const ConstraintRef&, const ConstraintRef&) = default;
};

struct Skin {
  std::string name;
  std::vector<int> bones;                   // skinRequired bones this skin activates
  // skinRequired constraints this skin activates. The file lists them per kind ("ik", "transform",
  // "path", "physics"); the writer keeps each kind's references in this vector's order.
  std::vector<ConstraintRef> constraints;
  std::vector<Attachment> attachments;

  friend bool operator==(const Skin&, const Skin&) = default;
};

// ---- constraints ------------------------------------------------------------------------------

struct IkConstraint {
  std::string name;
  // Place in the update order among all constraints; absent: after every constraint that has one,
  // in the default order (ik, transform, path, physics, each list in file order). See update_order().
  std::optional<int> order;
  bool skin_required = false;
  std::vector<int> bones;        // one or two bones, parent first
  int target = 0;                // bone index
  float mix = 1;
  float softness = 0;            // pixels of softening near full extension
  int bend = 1;                  // +1 or -1
  bool compress = false, stretch = false, uniform = false;

  friend bool operator==(const IkConstraint&, const IkConstraint&) = default;
};

struct TransformConstraint {
  std::string name;
  std::optional<int> order;  // as IkConstraint::order
  bool skin_required = false;
  std::vector<int> bones;
  int target = 0;
  float mix_rotate = 1, mix_x = 1, mix_y = 1, mix_scale_x = 1, mix_scale_y = 1, mix_shear_y = 1;
  float offset_rotation = 0, offset_x = 0, offset_y = 0, offset_scale_x = 0, offset_scale_y = 0, offset_shear_y = 0;
  bool local = false;     // local space instead of world space
  bool relative = false;  // add to the bones' own values instead of replacing them

  friend bool operator==(const TransformConstraint&, const TransformConstraint&) = default;
};

using skel::PositionMode;
using skel::SpacingMode;
using skel::RotateMode;

struct PathConstraint {
  std::string name;
  std::optional<int> order;  // as IkConstraint::order
  bool skin_required = false;
  std::vector<int> bones;
  int target = 0;  // slot index whose attachment is the path
  PositionMode position_mode = PositionMode::Percent;
  SpacingMode spacing_mode = SpacingMode::Length;
  RotateMode rotate_mode = RotateMode::Tangent;
  float offset_rotation = 0;
  float position = 0, spacing = 0;
  float mix_rotate = 1, mix_x = 1, mix_y = 1;

  friend bool operator==(const PathConstraint&, const PathConstraint&) = default;
};

struct PhysicsConstraint {
  std::string name;
  std::optional<int> order;  // as IkConstraint::order
  bool skin_required = false;
  int bone = 0;
  // How strongly each channel is simulated (0 turns it off).
  float x = 0, y = 0, rotate = 0, scale_x = 0, shear_x = 0;
  float limit = 5000;  // teleport distance in pixels: larger jumps reset the simulation
  float fps = 60;      // fixed step rate
  float inertia = 1, strength = 100, damping = 1, mass = 1, wind = 0, gravity = 0, mix = 1;

  friend bool operator==(const PhysicsConstraint&, const PhysicsConstraint&) = default;
};

struct EventDef {
  std::string name;
  int int_value = 0;
  float float_value = 0;
  std::string string_value;
  std::string audio;  // path of a sound to play, relative to the project
  float volume = 1;
  float balance = 0;

  friend bool operator==(const EventDef&, const EventDef&) = default;
};

// ---- the skeleton -----------------------------------------------------------------------------

inline constexpr int kSkeletonFormatVersion = 1;
inline constexpr int kMaxInfluences = 8;

struct SkeletonSource {
  int format = kSkeletonFormatVersion;
  std::string uid;  // "skl_" + 12 lower-case hex digits
  int fps = 30;     // editor snapping rate
  ImportSettings import;
  std::string clips;  // clips folder relative to the .mskel; empty means "<name>.clips/"
  std::vector<ImageEntry> images;
  std::vector<Bone> bones;  // parents before children
  std::vector<Slot> slots;  // setup draw order
  std::vector<IkConstraint> ik;
  std::vector<TransformConstraint> transform;
  std::vector<PathConstraint> path;
  std::vector<PhysicsConstraint> physics;
  std::vector<EventDef> events;
  std::vector<Skin> skins;

  // Where each value of the .mskel was (read_skeleton fills it; empty for a skeleton built in code),
  // so that the builder and the checks give line:column for the JSON paths they name. Not part of
  // the skeleton's value: it never changes a comparison, and the writer ignores it.
  json::SourceMap positions;

  // Lookups by name; -1 when missing. Linear: for tools, not for per-frame code.
  int find_bone(std::string_view name) const;
  int find_slot(std::string_view name) const;
  int find_skin(std::string_view name) const;
  int find_event(std::string_view name) const;
  // The constraint of this kind with this name; -1 when missing. Names are unique per kind only: a
  // physics constraint may share its name with a transform constraint.
  int find_constraint(ConstraintKind kind, std::string_view name) const;
  const std::string& constraint_name(ConstraintRef ref) const;
  const std::optional<int>& constraint_order(ConstraintRef ref) const;
  std::size_t constraint_count(ConstraintKind kind) const;

  // Every constraint in the order the update runs them: first those with an explicit `order`,
  // sorted by it (ties in the default order), then those without, in the default order: ik,
  // transform, path, physics, each list in file order.
  std::vector<ConstraintRef> update_order() const;

  // The orders the canonical writer gives the constraints, per ConstraintKind and index: the same
  // update order, with `order` only where it is needed (docs/format-mskel.md, Constraints). With U
  // the update order and k the start of its longest tail that runs in the default order, U[0..k) get
  // orders 0..k-1 and the rest none.
  using ConstraintOrders = std::array<std::vector<std::optional<int>>, 4>;
  ConstraintOrders canonical_orders() const;
  // Sets every constraint's order to canonical_orders(): the model then equals what reading its
  // canonical file gives.
  void canonicalize_orders();


  friend bool operator==(const SkeletonSource&, const SkeletonSource&) = default;
};

// ---- deform ------------------------------------------------------------------------------------

// The vertices deform keys on an attachment offset: a mesh's, bounding box's, clipping polygon's or
// path's own, or a linked mesh's parent's (the parent is looked up in `skin`, the attachment's own
// skin, unless the linked mesh names another). `problem` says why there are none: a region or point,
// a linked mesh that does not share deform keys (`not_shared` is then set) or whose parent is missing.
struct DeformVertices {
  const Vertices* vertices = nullptr;
  bool not_shared = false;
  std::string problem;
};
DeformVertices deform_vertices(const SkeletonSource& s, int skin, const Attachment& attachment);

// Floats a deform key may cover: 2 per unweighted vertex, 2 per influence when weighted (offsets
// then apply to each influence's position in its bone's space).
std::size_t deform_float_count(const Vertices& v);

// Enum names as the file format writes them.
const char* to_string(Inherit v);
const char* to_string(BlendMode v);
const char* to_string(TextureFilter v);
const char* to_string(AttachmentType v);
const char* to_string(ConstraintKind v);
const char* to_string(PositionMode v);
const char* to_string(SpacingMode v);
const char* to_string(RotateMode v);
std::optional<Inherit> parse_inherit(std::string_view s);
std::optional<BlendMode> parse_blend_mode(std::string_view s);
std::optional<TextureFilter> parse_texture_filter(std::string_view s);
std::optional<AttachmentType> parse_attachment_type(std::string_view s);
std::optional<PositionMode> parse_position_mode(std::string_view s);
std::optional<SpacingMode> parse_spacing_mode(std::string_view s);
std::optional<RotateMode> parse_rotate_mode(std::string_view s);

}  // namespace mf::offline
