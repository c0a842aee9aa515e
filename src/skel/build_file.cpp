#include "mf/skel/build_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "mf/anim/curve.hpp"
#include "mf/core/byte_reader.hpp"
#include "mf/core/file_io.hpp"

// Reading is two passes: parse the bytes into the runtime structures with mf::ByteReader (every count
// checked against the bytes left before anything is allocated, so what a damaged file can make this
// allocate is bounded by its size), then validate every index and range the runtime reads. Both passes
// report errors as values: the reader's first problem (with its byte offset in the file), or the first
// Problem validation finds; the public functions turn either into an Error, so no half-checked data
// ever leaves this file.

namespace mf::skel {
namespace {

constexpr std::size_t kHeaderBytes = 24;        // magic, version, section count, file size
constexpr std::size_t kSectionEntryBytes = 24;  // tag, flags, offset, size

// The first problem validation found: the path of the offending value and what is wrong.
struct Problem {
  std::string path;
  std::string message;
};

// Records the problem; false, so a check can `return fail(...)`.
bool fail(Problem& problem, std::string path, std::string message) {
  problem = {std::move(path), std::move(message)};
  return false;
}

std::string tag_name(std::uint32_t tag) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>((tag >> (8 * i)) & 0xff);
    s += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return s;
}

// A reader's problem as an Error: the field under `prefix`, the part of the file (`where`) and the byte.
Error read_error(const ByteReader& r, const std::string& file, const char* where, const std::string& prefix = {}) {
  const ByteError& e = r.error();
  std::string path = e.field;
  if (!prefix.empty()) path = path.empty() ? prefix : prefix + "." + path;
  return Error{file, std::move(path), {}, std::string(where) + ", byte " + std::to_string(e.offset) + ": " + e.message};
}

Error to_error(const Problem& p, const std::string& file, const std::string& prefix = {}) {
  std::string path = p.path;
  if (!prefix.empty()) path = path.empty() ? prefix : prefix + "." + path;
  return Error{file, std::move(path), {}, p.message};
}

// Nothing may follow a section's (or a clip's) last field.
void expect_end(ByteReader& r) {
  if (r.ok() && r.remaining() != 0) r.fail("", std::to_string(r.remaining()) + " unread bytes at the end");
}

template <class T, class Read>
void read_list(ByteReader& r, std::vector<T>& out, std::size_t item_bytes, const char* what, Read read) {
  const std::size_t n = r.count(item_bytes, what);
  out.resize(n);
  for (T& item : out) item = read();
}

template <class T, class Read>
void read_column(std::vector<T>& out, std::size_t n, Read read) {
  out.resize(n);
  for (T& item : out) item = read();
}

std::vector<std::int32_t> read_indices(ByteReader& r, const char* what) {
  std::vector<std::int32_t> v;
  read_list(r, v, 4, what, [&] { return r.i32(); });
  return v;
}

Rgba8 read_color(ByteReader& r) {
  Rgba8 c;
  c.r = r.u8();
  c.g = r.u8();
  c.b = r.u8();
  c.a = r.u8();
  return c;
}

UpdateStep read_step(ByteReader& r, const char* what) {
  UpdateStep s{};
  s.kind = r.enumeration<UpdateKind>(5, what);
  s.index = r.i32();
  return s;
}

// ---- parse: SKEL ----------------------------------------------------------------------------------

void read_skeleton_section(ByteReader& r, SkeletonData& d) {
  d.name = r.str("name");

  BoneTable& b = d.bones;
  const std::size_t bones = r.count(4 * 11, "bones");
  read_column(b.names, bones, [&] { return r.str("bones.name"); });
  read_column(b.parent, bones, [&] { return r.i32(); });
  for (auto* column : {&b.x, &b.y, &b.rotation, &b.scale_x, &b.scale_y, &b.shear_x, &b.shear_y, &b.length})
    read_column(*column, bones, [&] { return r.f32(); });
  read_column(b.inherit, bones, [&] { return r.enumeration<Inherit>(5, "bones.inherit"); });
  read_column(b.skin_required, bones, [&] { return static_cast<std::uint8_t>(r.flag("bones.skinRequired")); });

  SlotTable& s = d.slots;
  const std::size_t slots = r.count(4 * 5, "slots");
  read_column(s.names, slots, [&] { return r.str("slots.name"); });
  read_column(s.bone, slots, [&] { return r.i32(); });
  read_column(s.setup_attachment, slots, [&] { return r.i32(); });
  read_column(s.color, slots, [&] { return read_color(r); });
  read_column(s.dark, slots, [&] { return read_color(r); });
  read_column(s.has_dark, slots, [&] { return static_cast<std::uint8_t>(r.flag("slots.hasDark")); });
  read_column(s.blend, slots, [&] { return r.enumeration<BlendMode>(4, "slots.blend"); });

  read_list(r, d.attachment_names.names, 4, "attachmentNames", [&] { return r.str("attachmentNames"); });

  read_list(r, d.attachments, 60, "attachments", [&] {
    AttachmentRecord a;
    a.kind = r.enumeration<AttachmentKind>(6, "attachments.kind");
    a.name = r.i32();
    a.slot = r.i32();
    a.color = read_color(r);
    a.vertex_start = r.u32();
    a.vertex_count = r.u32();
    a.influence_count = r.u32();
    a.index_start = r.u32();
    a.index_count = r.u32();
    a.region_start = r.u32();
    a.region_count = r.u32();
    a.sequence_setup = r.i32();
    a.deform_source = r.i32();
    a.end_slot = r.i32();
    a.x = r.f32();
    a.y = r.f32();
    a.rotation = r.f32();
    a.closed = r.flag("attachments.closed");
    a.constant_speed = r.flag("attachments.constantSpeed");
    a.lengths_start = r.u32();
    a.lengths_count = r.u32();
    return a;
  });
  read_list(r, d.influences, 16, "influences", [&] {
    Influence in{};
    in.bone = r.i32();
    in.weight = r.f32();
    in.x = r.f32();
    in.y = r.f32();
    return in;
  });
  read_list(r, d.vertices, 8, "vertices", [&] {
    VertexInfluences v{};
    v.first = r.u32();
    v.count = r.u32();
    return v;
  });
  read_list(r, d.uvs, 4, "uvs", [&] { return r.f32(); });
  read_list(r, d.indices, 2, "indices", [&] { return r.u16(); });
  read_list(r, d.regions, 28, "regions", [&] {
    Region g{};
    g.page = r.i32();
    g.u0 = r.f32();
    g.v0 = r.f32();
    g.u1 = r.f32();
    g.v1 = r.f32();
    g.width = r.f32();
    g.height = r.f32();
    return g;
  });
  d.filter = r.enumeration<TextureFilter>(2, "filter");
  d.mipmaps = r.flag("mipmaps");
  read_list(r, d.path_lengths, 4, "pathLengths", [&] { return r.f32(); });

  read_list(r, d.skins, 16, "skins", [&] {
    SkinData skin;
    skin.name = r.str("skins.name");
    read_list(r, skin.entries, 12, "skins.entries", [&] {
      SkinEntry e{};
      e.slot = r.i32();
      e.name = r.i32();
      e.attachment = r.i32();
      return e;
    });
    skin.bones = read_indices(r, "skins.bones");
    skin.constraints = read_indices(r, "skins.constraints");
    return skin;
  });
  read_list(r, d.events, 24, "events", [&] {
    EventData e;
    e.name = r.str("events.name");
    e.int_value = r.i32();
    e.float_value = r.f32();
    e.string_value = r.str("events.string");
    e.audio = r.str("events.audio");
    e.volume = r.f32();
    e.balance = r.f32();
    return e;
  });
  read_list(r, d.ik, 25, "ik", [&] {
    IkData c;
    c.name = r.str("ik.name");
    c.bones = read_indices(r, "ik.bones");
    c.target = r.i32();
    c.mix = r.f32();
    c.softness = r.f32();
    c.bend = r.i8();
    c.compress = r.flag("ik.compress");
    c.stretch = r.flag("ik.stretch");
    c.uniform = r.flag("ik.uniform");
    c.skin_required = r.flag("ik.skinRequired");
    return c;
  });
  read_list(r, d.transform, 63, "transform", [&] {
    TransformData c;
    c.name = r.str("transform.name");
    c.bones = read_indices(r, "transform.bones");
    c.target = r.i32();
    for (float* f : {&c.mix_rotate, &c.mix_x, &c.mix_y, &c.mix_scale_x, &c.mix_scale_y, &c.mix_shear_y, &c.offset_rotation,
                     &c.offset_x, &c.offset_y, &c.offset_scale_x, &c.offset_scale_y, &c.offset_shear_y})
      *f = r.f32();
    c.local = r.flag("transform.local");
    c.relative = r.flag("transform.relative");
    c.skin_required = r.flag("transform.skinRequired");
    return c;
  });
  read_list(r, d.path, 40, "path", [&] {
    PathData c;
    c.name = r.str("path.name");
    c.bones = read_indices(r, "path.bones");
    c.target_slot = r.i32();
    c.position_mode = r.enumeration<PositionMode>(2, "path.positionMode");
    c.spacing_mode = r.enumeration<SpacingMode>(4, "path.spacingMode");
    c.rotate_mode = r.enumeration<RotateMode>(3, "path.rotateMode");
    for (float* f : {&c.offset_rotation, &c.position, &c.spacing, &c.mix_rotate, &c.mix_x, &c.mix_y}) *f = r.f32();
    c.skin_required = r.flag("path.skinRequired");
    return c;
  });
  read_list(r, d.physics, 73, "physics", [&] {
    PhysicsData c;
    c.name = r.str("physics.name");
    c.bone = r.i32();
    for (float* f : {&c.x, &c.y, &c.rotate, &c.scale_x, &c.shear_x, &c.limit, &c.step, &c.inertia, &c.strength, &c.damping,
                     &c.mass_inverse, &c.wind, &c.gravity, &c.mix})
      *f = r.f32();
    c.skin_required = r.flag("physics.skinRequired");
    return c;
  });
  read_list(r, d.update_order, 5, "updateOrder", [&] { return read_step(r, "updateOrder.kind"); });
  read_list(r, d.constraint_steps, 5, "constraintSteps", [&] { return read_step(r, "constraintSteps.kind"); });
  read_list(r, d.slot_deform_floats, 4, "slotDeformFloats", [&] { return r.u32(); });
  expect_end(r);
}

// ---- parse: PAGE ----------------------------------------------------------------------------------

void read_pages(ByteReader& r, std::vector<Page>& pages, const char* what) {
  read_list(r, pages, 17, what, [&] {
    Page p;
    p.name = r.str(what);
    p.width = r.i32();
    p.height = r.i32();
    p.encoding = r.enumeration<PageEncoding>(2, what);
    const std::uint64_t n = r.u64();
    if (r.ok() && n > r.remaining())
      r.fail(what, "page \"" + p.name + "\" claims " + std::to_string(n) + " bytes; " + std::to_string(r.remaining()) + " are left");
    const auto bytes = r.bytes(r.ok() ? static_cast<std::size_t>(n) : 0, what);
    p.bytes.assign(bytes.begin(), bytes.end());
    return p;
  });
}

// ---- parse: CLIP ----------------------------------------------------------------------------------

struct ClipBlob {
  std::size_t offset = 0, size = 0;  // within the file's bytes; size 0: left out of this build
};

std::vector<ClipBlob> read_clip_table(ByteReader& r, SkeletonData& d) {
  std::vector<ClipBlob> blobs;
  const std::size_t n = r.count(16, "clips");
  d.clips.reserve(n);
  blobs.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    SkeletonData::ClipEntry entry;
    entry.name = r.str("clips.name");
    entry.length = r.f32();
    const std::uint64_t size = r.u64();
    if (r.ok() && size > r.remaining())
      r.fail("clips[" + std::to_string(i) + "]",
             "clip \"" + entry.name + "\" claims " + std::to_string(size) + " bytes; " + std::to_string(r.remaining()) + " are left");
    if (r.failed()) break;
    ClipBlob blob{r.offset(), static_cast<std::size_t>(size)};  // r's base is the section's offset in the file
    r.bytes(blob.size, "clips");
    d.clips.push_back(std::move(entry));
    blobs.push_back(blob);
  }
  expect_end(r);
  return blobs;
}

ClipData read_clip(ByteReader& r) {
  ClipData c;
  c.name = r.str("name");
  c.length = r.f32();
  c.loop = r.enumeration<LoopMode>(3, "loop");
  read_list(r, c.timelines, 24, "timelines", [&] {
    Timeline t{};
    t.kind = r.enumeration<TimelineKind>(static_cast<int>(TimelineKind::DrawOrder) + 1, "timelines.kind");
    t.components = r.u8();
    t.curved = r.u8();
    t.channels = r.u8();
    t.target = r.i32();
    t.key_start = r.u32();
    t.key_count = r.u32();
    t.value_start = r.u32();
    t.curve_start = r.u32();
    return t;
  });
  read_list(r, c.times, 4, "times", [&] { return r.f32(); });
  read_list(r, c.values, 4, "values", [&] { return r.f32(); });
  read_list(r, c.curves, 4, "curves", [&] { return r.u32(); });
  read_list(r, c.beziers, 8 * (anim::kBezierPieces - 1), "beziers", [&] {
    anim::BezierSamples b{};
    for (float& x : b.x) x = r.f32();
    for (float& y : b.y) y = r.f32();
    return b;
  });
  read_list(r, c.deform_keys, 12, "deformKeys", [&] {
    DeformKey k{};
    k.offset = r.u32();
    k.count = r.u32();
    k.value_start = r.u32();
    return k;
  });
  read_list(r, c.draw_orders, 4, "drawOrders", [&] { return r.i32(); });
  read_list(r, c.events, 28, "events", [&] {
    EventKey e{};
    e.time = r.f32();
    e.event = r.i32();
    e.int_value = r.i32();
    e.float_value = r.f32();
    e.string_value = r.i32();
    e.volume = r.f32();
    e.balance = r.f32();
    return e;
  });
  read_list(r, c.strings, 4, "strings", [&] { return r.str("strings"); });
  c.bounds.min_x = r.f32();
  c.bounds.min_y = r.f32();
  c.bounds.max_x = r.f32();
  c.bounds.max_y = r.f32();
  expect_end(r);
  return c;
}

// ---- validation -----------------------------------------------------------------------------------

std::string item(const char* list, std::size_t i) { return std::string(list) + "[" + std::to_string(i) + "]"; }

bool check_index(Problem& problem, std::int64_t value, std::int64_t lowest, std::size_t size, const std::string& path,
                 const char* what) {
  if (value < lowest || value >= static_cast<std::int64_t>(size))
    return fail(problem, path, what + std::string(" ") + std::to_string(value) + " is out of range (" + std::to_string(lowest) + " … " +
                   std::to_string(static_cast<std::int64_t>(size) - 1) + ")");
  return true;
}

bool check_range(Problem& problem, std::uint64_t start, std::uint64_t count, std::size_t size, const std::string& path,
                 const char* what) {
  if (start > size || count > size - start)
    return fail(problem, path, what + std::string(" ") + std::to_string(start) + " + " + std::to_string(count) + " runs past the " +
                   std::to_string(size) + " there are");
  return true;
}

bool check_finite(Problem& problem, float v, const std::string& path) {
  if (!std::isfinite(v)) return fail(problem, path, "value is not a finite number");
  return true;
}

std::size_t constraint_count(const SkeletonData& d, UpdateKind kind) {
  switch (kind) {
    case UpdateKind::Bone: return d.bones.size();
    case UpdateKind::Ik: return d.ik.size();
    case UpdateKind::Transform: return d.transform.size();
    case UpdateKind::Path: return d.path.size();
    case UpdateKind::Physics: return d.physics.size();
  }
  return 0;
}

bool validate_skeleton(const SkeletonData& d, Problem& problem) {
  const std::size_t bones = d.bones.size(), slots = d.slots.size(), names = d.attachment_names.names.size();
  const auto& b = d.bones;
  for (auto* column : {&b.x, &b.y, &b.rotation, &b.scale_x, &b.scale_y, &b.shear_x, &b.shear_y, &b.length})
    if (column->size() != bones) return fail(problem, "bones", "the bone arrays differ in size");
  if (b.parent.size() != bones || b.inherit.size() != bones || b.skin_required.size() != bones)
    return fail(problem, "bones", "the bone arrays differ in size");
  for (std::size_t i = 0; i < bones; ++i) {
    const std::int32_t p = b.parent[i];
    if (p < -1 || p >= static_cast<std::int32_t>(i))
      return fail(problem, item("bones", i) + ".parent", "parent " + std::to_string(p) + " must be −1 or a bone before this one");
  }

  const auto& s = d.slots;
  if (s.bone.size() != slots || s.setup_attachment.size() != slots || s.color.size() != slots || s.dark.size() != slots ||
      s.has_dark.size() != slots || s.blend.size() != slots)
    return fail(problem, "slots", "the slot arrays differ in size");
  if (slots > std::numeric_limits<std::uint16_t>::max()) return fail(problem, "slots", "more than 65535 slots");
  for (std::size_t i = 0; i < slots; ++i) {
    if (!check_index(problem, s.bone[i], 0, bones, item("slots", i) + ".bone", "bone")) return false;
    if (!check_index(problem, s.setup_attachment[i], -1, names, item("slots", i) + ".attachment", "attachment name")) return false;
  }

  if (d.uvs.size() != 2 * d.vertices.size()) return fail(problem, "uvs", "there must be two UV floats per vertex");
  for (std::size_t i = 0; i < d.vertices.size(); ++i) {
    const VertexInfluences& v = d.vertices[i];
    if (v.count < 1 || v.count > kMaxInfluences)
      return fail(problem, item("vertices", i), "influence count " + std::to_string(v.count) + " is not 1 … " + std::to_string(kMaxInfluences));
    if (!check_range(problem, v.first, v.count, d.influences.size(), item("vertices", i), "influences")) return false;
  }
  for (std::size_t i = 0; i < d.influences.size(); ++i)
    if (!check_index(problem, d.influences[i].bone, 0, bones, item("influences", i) + ".bone", "bone")) return false;
  for (std::size_t i = 0; i < d.regions.size(); ++i) if (!check_index(problem, d.regions[i].page, 0, d.pages.size(), item("regions", i) + ".page", "page")) return false;

  for (std::size_t i = 0; i < d.attachments.size(); ++i) {
    const AttachmentRecord& a = d.attachments[i];
    const std::string at = item("attachments", i);
    if (!check_index(problem, a.name, 0, names, at + ".name", "attachment name")) return false;
    if (!check_index(problem, a.slot, 0, slots, at + ".slot", "slot")) return false;
    if (!check_range(problem, a.vertex_start, a.vertex_count, d.vertices.size(), at, "vertices")) return false;
    if (!check_range(problem, a.index_start, a.index_count, d.indices.size(), at, "indices")) return false;
    if (a.index_count % 3 != 0) return fail(problem, at, "index count " + std::to_string(a.index_count) + " is not a whole number of triangles");
    for (std::uint32_t k = 0; k < a.index_count; ++k)
      if (d.indices[a.index_start + k] >= a.vertex_count)
        return fail(problem, at, "triangle index " + std::to_string(d.indices[a.index_start + k]) + " is not one of its " + std::to_string(a.vertex_count) + " vertices");
    std::uint64_t influences = 0;
    for (std::uint32_t k = 0; k < a.vertex_count; ++k) influences += d.vertices[a.vertex_start + k].count;
    if (influences != a.influence_count)
      return fail(problem, at, "influence count " + std::to_string(a.influence_count) + " differs from its vertices' " + std::to_string(influences));
    if (!check_range(problem, a.region_start, a.region_count, d.regions.size(), at, "regions")) return false;
    if (a.region_count > 0 && !check_index(problem, a.sequence_setup, 0, a.region_count, at + ".sequenceSetup", "frame")) return false;
    if (!check_index(problem, a.deform_source, -1, d.attachments.size(), at + ".deformSource", "attachment")) return false;
    if (!check_index(problem, a.end_slot, -1, slots, at + ".endSlot", "slot")) return false;
    if (!check_range(problem, a.lengths_start, a.lengths_count, d.path_lengths.size(), at, "path lengths")) return false;
  }

  for (std::size_t p = 0; p < d.pages.size() + d.normal_pages.size(); ++p) {
    const bool normal = p >= d.pages.size();
    const Page& page = normal ? d.normal_pages[p - d.pages.size()] : d.pages[p];
    const std::string at = item(normal ? "normalPages" : "pages", normal ? p - d.pages.size() : p);
    if (page.width < 0 || page.height < 0) return fail(problem, at, "negative page size");
    if (page.encoding == PageEncoding::Rgba8 && !page.bytes.empty() &&
        page.bytes.size() != 4ull * static_cast<std::uint64_t>(page.width) * static_cast<std::uint64_t>(page.height))
      return fail(problem, at, "an RGBA8 page of " + std::to_string(page.width) + " × " + std::to_string(page.height) + " needs " +
                   std::to_string(4ull * static_cast<std::uint64_t>(page.width) * static_cast<std::uint64_t>(page.height)) +
                   " bytes, not " + std::to_string(page.bytes.size()));
  }
  if (!d.normal_pages.empty() && d.normal_pages.size() != d.pages.size())
    return fail(problem, "normalPages", "there must be one normal page per page, or none");

  const std::size_t constraints = d.constraint_steps.size();
  for (std::size_t i = 0; i < d.skins.size(); ++i) {
    const SkinData& skin = d.skins[i];
    const std::string at = item("skins", i);
    for (std::size_t k = 0; k < skin.entries.size(); ++k) {
      const SkinEntry& e = skin.entries[k];
      if (!check_index(problem, e.slot, 0, slots, at + "." + item("entries", k) + ".slot", "slot")) return false;
      if (!check_index(problem, e.name, 0, names, at + "." + item("entries", k) + ".name", "attachment name")) return false;
      if (!check_index(problem, e.attachment, 0, d.attachments.size(), at + "." + item("entries", k) + ".attachment", "attachment")) return false;
      if (k > 0) {
        const SkinEntry& prev = skin.entries[k - 1];
        if (prev.slot > e.slot || (prev.slot == e.slot && prev.name >= e.name))
          return fail(problem, at + "." + item("entries", k), "entries must be sorted by slot, then name, without repeats");
      }
    }
    for (std::size_t k = 0; k < skin.bones.size(); ++k) if (!check_index(problem, skin.bones[k], 0, bones, at + "." + item("bones", k), "bone")) return false;
    for (std::size_t k = 0; k < skin.constraints.size(); ++k)
      if (!check_index(problem, skin.constraints[k], 0, constraints, at + "." + item("constraints", k), "constraint")) return false;
  }

  const auto check_bones = [&](const std::vector<std::int32_t>& list, const std::string& at) {
    for (std::size_t k = 0; k < list.size(); ++k) if (!check_index(problem, list[k], 0, bones, at + "." + item("bones", k), "bone")) return false;
    return true;
  };
  for (std::size_t i = 0; i < d.ik.size(); ++i) {
    const IkData& c = d.ik[i];
    if (c.bones.size() != 1 && c.bones.size() != 2) return fail(problem, item("ik", i) + ".bones", "an IK constraint has one or two bones");
    if (!check_bones(c.bones, item("ik", i))) return false;
    if (!check_index(problem, c.target, 0, bones, item("ik", i) + ".target", "bone")) return false;
  }
  for (std::size_t i = 0; i < d.transform.size(); ++i) {
    if (!check_bones(d.transform[i].bones, item("transform", i))) return false;
    if (!check_index(problem, d.transform[i].target, 0, bones, item("transform", i) + ".target", "bone")) return false;
  }
  for (std::size_t i = 0; i < d.path.size(); ++i) {
    if (!check_bones(d.path[i].bones, item("path", i))) return false;
    if (!check_index(problem, d.path[i].target_slot, 0, slots, item("path", i) + ".target", "slot")) return false;
  }
  for (std::size_t i = 0; i < d.physics.size(); ++i) {
    if (!check_index(problem, d.physics[i].bone, 0, bones, item("physics", i) + ".bone", "bone")) return false;
    if (!(d.physics[i].step > 0) || !std::isfinite(d.physics[i].step)) return fail(problem, item("physics", i) + ".step", "the step must be a positive time");
  }
  for (std::size_t i = 0; i < d.update_order.size(); ++i)
    if (!check_index(problem, d.update_order[i].index, 0, constraint_count(d, d.update_order[i].kind), item("updateOrder", i), "index")) return false;
  for (std::size_t i = 0; i < constraints; ++i) {
    if (d.constraint_steps[i].kind == UpdateKind::Bone) return fail(problem, item("constraintSteps", i), "a constraint step cannot be a bone");
    if (!check_index(problem, d.constraint_steps[i].index, 0, constraint_count(d, d.constraint_steps[i].kind), item("constraintSteps", i), "index")) return false;
  }
  // The update order numbers its constraint steps by counting them (constraint ids index per-pose
  // tables sized by constraintSteps): they must be constraintSteps, in that order.
  std::size_t next_constraint = 0;
  for (std::size_t i = 0; i < d.update_order.size(); ++i) {
    const UpdateStep& step = d.update_order[i];
    if (step.kind == UpdateKind::Bone) continue;
    if (next_constraint >= constraints || d.constraint_steps[next_constraint].kind != step.kind ||
        d.constraint_steps[next_constraint].index != step.index)
      return fail(problem, item("updateOrder", i), "constraint step " + std::to_string(next_constraint) +
                                                       " of the update order differs from constraintSteps");
    ++next_constraint;
  }
  if (next_constraint != constraints)
    return fail(problem, "updateOrder", "has " + std::to_string(next_constraint) + " constraint steps where constraintSteps lists " +
                                            std::to_string(constraints));
  if (d.slot_deform_floats.size() != slots) return fail(problem, "slotDeformFloats", "there must be one entry per slot");
  // Poses allocate these ranges: each must be no larger than the slot's largest attachment needs, so a
  // damaged size can never ask for gigabytes.
  std::vector<std::uint64_t> largest(slots, 0);
  for (const AttachmentRecord& a : d.attachments)
    largest[static_cast<std::size_t>(a.slot)] = std::max<std::uint64_t>(largest[static_cast<std::size_t>(a.slot)], 2ull * a.influence_count);
  for (std::size_t i = 0; i < slots; ++i)
    if (d.slot_deform_floats[i] > largest[i])
      return fail(problem, item("slotDeformFloats", i), std::to_string(d.slot_deform_floats[i]) + " deform floats is more than the slot's attachments have (" +
                                            std::to_string(largest[i]) + ")");
  for (std::size_t i = 0; i < d.clips.size(); ++i)
    if (!std::isfinite(d.clips[i].length) || d.clips[i].length < 0) return fail(problem, item("clips", i) + ".length", "the length must be a finite time ≥ 0");
  return true;
}

// Values per key and curved components of each timeline kind, as the sampler reads them.
struct KindShape {
  std::uint8_t components, curved;
};
KindShape shape_of(TimelineKind k) {
  switch (k) {
    case TimelineKind::Rotate: case TimelineKind::TranslateX: case TimelineKind::TranslateY: case TimelineKind::ScaleX:
    case TimelineKind::ScaleY: case TimelineKind::ShearX: case TimelineKind::ShearY: case TimelineKind::Alpha:
    case TimelineKind::PhysicsInertia: case TimelineKind::PhysicsStrength: case TimelineKind::PhysicsDamping:
    case TimelineKind::PhysicsMass: case TimelineKind::PhysicsWind: case TimelineKind::PhysicsGravity:
    case TimelineKind::PhysicsMix:
      return {1, 1};
    case TimelineKind::Translate: case TimelineKind::Scale: case TimelineKind::Shear: return {2, 2};
    case TimelineKind::Inherit: case TimelineKind::Attachment: return {1, 0};
    case TimelineKind::Rgba: return {4, 4};
    case TimelineKind::Rgb: return {3, 3};
    case TimelineKind::Rgba2: return {7, 7};
    case TimelineKind::Rgb2: return {6, 6};
    case TimelineKind::Sequence: return {3, 0};
    case TimelineKind::Ik: return {5, 2};
    case TimelineKind::Transform: return {6, 6};
    case TimelineKind::Path: return {5, 5};
    case TimelineKind::PhysicsReset: case TimelineKind::DrawOrder: return {0, 0};
    case TimelineKind::Deform: return {0, 1};
  }
  return {0, 0};
}

std::size_t target_count(const SkeletonData& d, TimelineKind k) {
  if (k <= TimelineKind::Inherit) return d.bones.size();
  if (k <= TimelineKind::Sequence) return d.slots.size();
  switch (k) {
    case TimelineKind::Ik: return d.ik.size();
    case TimelineKind::Transform: return d.transform.size();
    case TimelineKind::Path: return d.path.size();
    case TimelineKind::Deform: return d.attachments.size();
    case TimelineKind::DrawOrder: return 0;
    default: return d.physics.size();
  }
}

bool validate_clip(const ClipData& c, const SkeletonData& d, Problem& problem) {
  if (!std::isfinite(c.length) || c.length < 0) return fail(problem, "length", "the length must be a finite time ≥ 0");
  for (std::size_t i = 0; i < c.times.size(); ++i) if (!check_finite(problem, c.times[i], item("times", i))) return false;
  for (std::size_t i = 0; i < c.curves.size(); ++i)
    if (c.curves[i] >= anim::kCurveBezierBase && c.curves[i] - anim::kCurveBezierBase >= c.beziers.size())
      return fail(problem, item("curves", i), "bezier " + std::to_string(c.curves[i] - anim::kCurveBezierBase) + " is not one of the " +
                                  std::to_string(c.beziers.size()) + " there are");

  for (std::size_t i = 0; i < c.timelines.size(); ++i) {
    const Timeline& t = c.timelines[i];
    const std::string at = item("timelines", i);
    const KindShape shape = shape_of(t.kind);
    if (t.components != shape.components || t.curved != shape.curved)
      return fail(problem, at, "this timeline kind has " + std::to_string(shape.components) + " values and " + std::to_string(shape.curved) +
                   " curves per key, not " + std::to_string(t.components) + " and " + std::to_string(t.curved));
    if (t.kind == TimelineKind::DrawOrder) {
      if (t.target != -1) return fail(problem, at + ".target", "a draw-order timeline has target −1");
    } else {
      if (!check_index(problem, t.target, 0, target_count(d, t.kind), at + ".target", "target")) return false;
    }
    if (t.key_count == 0) return fail(problem, at, "a timeline needs at least one key");
    if (!check_range(problem, t.key_start, t.key_count, c.times.size(), at, "keys")) return false;
    for (std::uint32_t k = 1; k < t.key_count; ++k)
      if (c.times[t.key_start + k] < c.times[t.key_start + k - 1]) return fail(problem, at, "key times must not decrease");
    if (!check_range(problem, t.curve_start, std::uint64_t{t.key_count - 1} * t.curved, c.curves.size(), at, "curves")) return false;
    if (t.kind == TimelineKind::Deform) {
      if (!check_range(problem, t.value_start, t.key_count, c.deform_keys.size(), at, "deform keys")) return false;
      const AttachmentRecord& att = d.attachments[static_cast<std::size_t>(t.target)];
      for (std::uint32_t k = 0; k < t.key_count; ++k) {
        const DeformKey& key = c.deform_keys[t.value_start + k];
        if (!check_range(problem, key.value_start, key.count, c.values.size(), at + ".deformKeys", "values")) return false;
        if (!check_range(problem, key.offset, key.count, 2ull * att.influence_count, at + ".deformKeys", "deform floats")) return false;
      }
    } else if (t.kind == TimelineKind::DrawOrder) {
      if (!check_range(problem, t.value_start, std::uint64_t{t.key_count} * d.slots.size(), c.draw_orders.size(), at, "draw orders")) return false;
      for (std::uint64_t k = 0; k < std::uint64_t{t.key_count} * d.slots.size(); ++k)
        if (!check_index(problem, c.draw_orders[t.value_start + k], 0, d.slots.size(), at + ".drawOrders", "slot")) return false;
    } else {
      if (!check_range(problem, t.value_start, std::uint64_t{t.key_count} * t.components, c.values.size(), at, "values")) return false;
      // Stepped values the runtime turns into integers must be integers in range.
      const auto check_integer = [&](float v, std::int64_t lowest, std::size_t count, const char* what) {
        if (!(v >= static_cast<float>(lowest) && v < static_cast<float>(count)) || v != std::floor(v))
          return fail(problem, at + ".values", std::string(what) + " value " + std::to_string(v) + " is not a whole number in " +
                                   std::to_string(lowest) + " … " + std::to_string(static_cast<std::int64_t>(count) - 1));
        return true;
      };
      for (std::uint32_t k = 0; k < t.key_count; ++k) {
        const float* v = c.values.data() + t.value_start + std::size_t{k} * t.components;
        if (t.kind == TimelineKind::Inherit && !check_integer(v[0], 0, 5, "inherit")) return false;
        if (t.kind == TimelineKind::Attachment && !check_integer(v[0], -1, d.attachment_names.names.size(), "attachment name")) return false;
        if (t.kind == TimelineKind::Sequence) {
          if (!check_integer(v[0], 0, 7, "sequence mode")) return false;
          if (!check_integer(v[1], -1000000, 1000000, "sequence index")) return false;
          if (!check_finite(problem, v[2], at + ".values")) return false;
        }
      }
    }
  }
  for (std::size_t i = 0; i < c.events.size(); ++i) {
    if (!check_index(problem, c.events[i].event, 0, d.events.size(), item("events", i) + ".event", "event")) return false;
    if (!check_index(problem, c.events[i].string_value, -1, c.strings.size(), item("events", i) + ".string", "string")) return false;
    if (!check_finite(problem, c.events[i].time, item("events", i) + ".time")) return false;
    if (i > 0 && c.events[i].time < c.events[i - 1].time) return fail(problem, item("events", i), "events must be sorted by time");
  }
  return true;
}

}  // namespace

Expected<std::shared_ptr<ClipData>> decode_clip(std::span<const std::uint8_t> blob, const SkeletonData& data,
                                                const std::string& file) {
  ByteReader r(blob);
  ClipData parsed = read_clip(r);
  if (r.failed()) return Unexpected{read_error(r, file, "the clip", "clip")};
  auto clip = std::make_shared<ClipData>(std::move(parsed));
  Problem problem;
  if (!validate_clip(*clip, data, problem)) return Unexpected{to_error(problem, file, "clips." + clip->name)};
  return clip;
}

Status validate_skeleton_data(const SkeletonData& data, const std::string& file) {
  Problem problem;
  if (!validate_skeleton(data, problem)) return Unexpected{to_error(problem, file)};
  return {};
}

Status validate_clip_data(const ClipData& clip, const SkeletonData& data, const std::string& file) {
  Problem problem;
  if (!validate_clip(clip, data, problem)) return Unexpected{to_error(problem, file, "clips." + clip.name)};
  return {};
}

Expected<std::shared_ptr<SkeletonData>> load_build(std::string bytes_in, const std::string& file) {
  const auto bytes = std::make_shared<const std::string>(std::move(bytes_in));
  const std::span<const std::uint8_t> all(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size());
  const auto error = [&](std::string path, std::string message) {
    return Unexpected{Error{file, std::move(path), {}, std::move(message)}};
  };
  if (all.size() < 8 || std::memcmp(all.data(), kBuildMagic, 8) != 0)
    return error("", "is not a skeleton build (it does not start with \"MFSKBLD\")");
  ByteReader header(all.subspan(0, std::min(all.size(), kHeaderBytes)));
  header.bytes(8, "magic");
  const std::uint32_t version = header.u32("version");
  if (header.failed()) return Unexpected{read_error(header, file, "the header")};
  if (version != kBuildVersion)
    return error("", "was written by build format version " + std::to_string(version) + "; this program reads version " +
                         std::to_string(kBuildVersion) + ": rebuild it with `mfe skel build`");
  const std::uint32_t section_count = header.u32("section count");
  const std::uint64_t file_size = header.u64("file size");
  if (header.failed()) return Unexpected{read_error(header, file, "the header")};
  if (file_size != all.size())
    return error("", "the header says the build has " + std::to_string(file_size) + " bytes, but the file has " +
                         std::to_string(all.size()) + (file_size > all.size() ? " (truncated)" : " (extra bytes at the end)"));
  if (section_count > (all.size() - kHeaderBytes) / kSectionEntryBytes)
    return error("", "the section table (" + std::to_string(section_count) + " sections) does not fit in the file");

  struct Section {
    std::uint32_t tag;
    std::size_t offset, size;
  };
  std::vector<Section> sections;
  ByteReader table(all.subspan(kHeaderBytes, section_count * kSectionEntryBytes), kHeaderBytes);
  const std::size_t data_start = kHeaderBytes + section_count * kSectionEntryBytes;
  for (std::uint32_t i = 0; i < section_count; ++i) {
    const std::uint32_t tag = table.u32("tag");
    table.u32("flags");  // none defined yet
    const std::uint64_t offset = table.u64("offset"), size = table.u64("size");
    if (table.failed()) return Unexpected{read_error(table, file, "the section table")};
    if (offset < data_start || offset > all.size() || size > all.size() - offset)
      return error("sections[" + std::to_string(i) + "]", "section " + tag_name(tag) + " (" + std::to_string(size) + " bytes at " +
                                                               std::to_string(offset) + ") lies outside the file's " +
                                                               std::to_string(all.size()) + " bytes");
    for (const Section& s : sections)
      if (s.tag == tag) return error("sections[" + std::to_string(i) + "]", "section " + tag_name(tag) + " appears twice");
    sections.push_back({tag, static_cast<std::size_t>(offset), static_cast<std::size_t>(size)});
  }
  // Unknown sections are skipped: a later version may add optional ones without breaking this reader.
  const auto find_section = [&](std::uint32_t tag) -> const Section* {
    for (const Section& s : sections)
      if (s.tag == tag) return &s;
    return nullptr;
  };
  const auto missing = [&](std::uint32_t tag) { return error("", "the build has no " + tag_name(tag) + " section"); };

  auto data = std::make_shared<SkeletonData>();
  const Section* skel = find_section(kSkeletonSection);
  if (!skel) return missing(kSkeletonSection);
  ByteReader skel_reader(all.subspan(skel->offset, skel->size), skel->offset);
  read_skeleton_section(skel_reader, *data);
  if (skel_reader.failed()) return Unexpected{read_error(skel_reader, file, "section SKEL")};

  const Section* pages = find_section(kPagesSection);
  if (!pages) return missing(kPagesSection);
  ByteReader page_reader(all.subspan(pages->offset, pages->size), pages->offset);
  read_pages(page_reader, data->pages, "pages");
  read_pages(page_reader, data->normal_pages, "normalPages");
  expect_end(page_reader);
  if (page_reader.failed()) return Unexpected{read_error(page_reader, file, "section PAGE")};

  const Section* clips = find_section(kClipsSection);
  if (!clips) return missing(kClipsSection);
  ByteReader clip_reader(all.subspan(clips->offset, clips->size), clips->offset);
  std::vector<ClipBlob> blobs = read_clip_table(clip_reader, *data);
  if (clip_reader.failed()) return Unexpected{read_error(clip_reader, file, "section CLIP")};

  Problem problem;
  if (!validate_skeleton(*data, problem)) return Unexpected{to_error(problem, file)};

  data->loader = [bytes, blobs = std::move(blobs), file](const SkeletonData& d, int index) -> Expected<std::shared_ptr<ClipData>> {
    if (index < 0 || static_cast<std::size_t>(index) >= blobs.size())
      return Unexpected{Error{file, {}, {}, "no clip with index " + std::to_string(index)}};
    const ClipBlob& blob = blobs[static_cast<std::size_t>(index)];
    const std::string& name = d.clips[static_cast<std::size_t>(index)].name;
    if (blob.size == 0)
      return Unexpected{Error{file, "clips." + name, {}, "this build lists the clip but does not hold its data"}};
    const std::span<const std::uint8_t> whole(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size());
    auto clip = decode_clip(whole.subspan(blob.offset, blob.size), d, file);
    if (clip.ok() && (*clip)->name != name)
      return Unexpected{Error{file, "clips." + name, {}, "the clip's data is named \"" + (*clip)->name + "\""}};
    return clip;
  };
  return data;
}

Expected<std::shared_ptr<SkeletonData>> load_build_file(const std::string& path) {
  Expected<std::string> bytes = read_file(path);
  if (!bytes) return Unexpected{bytes.error()};
  return load_build(std::move(bytes).value(), path);
}

}  // namespace mf::skel
