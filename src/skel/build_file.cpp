#include "mf/skel/build_file.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "mf/anim/curve.hpp"
#include "mf/core/file_io.hpp"

// Reading is two passes: parse the bytes into the runtime structures (every count checked against the
// bytes left before anything is allocated), then validate every index and range the runtime reads.
// Both passes report by throwing a Failure that the public functions turn into an Error, so no
// half-checked data ever leaves this file.

namespace mf::skel {
namespace {

constexpr std::size_t kHeaderBytes = 24;        // magic, version, section count, file size
constexpr std::size_t kSectionEntryBytes = 24;  // tag, flags, offset, size

struct Failure {
  std::string path;
  std::string message;
};

[[noreturn]] void fail(std::string path, std::string message) { throw Failure{std::move(path), std::move(message)}; }

std::string tag_name(std::uint32_t tag) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>((tag >> (8 * i)) & 0xff);
    s += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return s;
}

// Little-endian reads over one section, bounds-checked.
class ByteReader {
 public:
  ByteReader(std::span<const std::uint8_t> bytes, std::string where) : bytes_(bytes), where_(std::move(where)) {}

  std::uint8_t u8() {
    need(1);
    return bytes_[pos_++];
  }
  std::uint16_t u16() {
    need(2);
    const auto v = static_cast<std::uint16_t>(bytes_[pos_] | bytes_[pos_ + 1] << 8);
    pos_ += 2;
    return v;
  }
  std::uint32_t u32() {
    need(4);
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = v << 8 | bytes_[pos_ + static_cast<std::size_t>(i)];
    pos_ += 4;
    return v;
  }
  std::uint64_t u64() {
    const std::uint64_t lo = u32();
    return lo | static_cast<std::uint64_t>(u32()) << 32;
  }
  std::int32_t i32() { return static_cast<std::int32_t>(u32()); }
  std::int8_t i8() { return static_cast<std::int8_t>(u8()); }
  float f32() { return std::bit_cast<float>(u32()); }
  bool flag(const char* what) {
    const std::uint8_t v = u8();
    if (v > 1) fail(what, "a flag must be 0 or 1, not " + std::to_string(v) + at());
    return v == 1;
  }
  template <class E>
  E enumeration(int count, const char* what) {
    const std::uint8_t v = u8();
    if (v >= count) fail(what, "value " + std::to_string(v) + " is not one of the " + std::to_string(count) + " known" + at());
    return static_cast<E>(v);
  }
  // A count of items that take at least `item_bytes` each: refused when the rest cannot hold them, so a
  // damaged count never allocates.
  std::size_t count(std::size_t item_bytes, const char* what) {
    const std::uint32_t n = u32();
    if (item_bytes > 0 && n > remaining() / item_bytes)
      fail(what, "count " + std::to_string(n) + " needs more bytes than the " + std::to_string(remaining()) + " left" + at());
    return n;
  }
  std::string str(const char* what) {
    const std::size_t n = count(1, what);
    std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  std::span<const std::uint8_t> take(std::size_t n, const char* what) {
    if (n > remaining()) fail(what, std::to_string(n) + " bytes do not fit in the " + std::to_string(remaining()) + " left" + at());
    const auto s = bytes_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  std::size_t position() const { return pos_; }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  void expect_end() const {
    if (remaining() != 0) fail("", std::to_string(remaining()) + " unread bytes at the end of " + where_);
  }
  std::string at() const { return " (" + where_ + ", byte " + std::to_string(pos_) + ")"; }

 private:
  void need(std::size_t n) {
    if (n > remaining()) fail("", where_ + " ends too early (truncated at byte " + std::to_string(bytes_.size()) + ")");
  }

  std::span<const std::uint8_t> bytes_;
  std::string where_;
  std::size_t pos_ = 0;
};

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
  r.expect_end();
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
    if (n > r.remaining()) fail(what, "page \"" + p.name + "\" claims " + std::to_string(n) + " bytes; " + std::to_string(r.remaining()) + " are left" + r.at());
    const auto bytes = r.take(static_cast<std::size_t>(n), what);
    p.bytes.assign(bytes.begin(), bytes.end());
    return p;
  });
}

// ---- parse: CLIP ----------------------------------------------------------------------------------

struct ClipBlob {
  std::size_t offset = 0, size = 0;  // within the file's bytes; size 0: left out of this build
};

std::vector<ClipBlob> read_clip_table(ByteReader& r, std::size_t section_offset, SkeletonData& d) {
  std::vector<ClipBlob> blobs;
  const std::size_t n = r.count(16, "clips");
  d.clips.reserve(n);
  blobs.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    SkeletonData::ClipEntry entry;
    entry.name = r.str("clips.name");
    entry.length = r.f32();
    const std::uint64_t size = r.u64();
    if (size > r.remaining()) fail("clips[" + std::to_string(i) + "]", "clip \"" + entry.name + "\" claims " + std::to_string(size) + " bytes; " + std::to_string(r.remaining()) + " are left" + r.at());
    ClipBlob blob{section_offset + r.position(), static_cast<std::size_t>(size)};
    r.take(blob.size, "clips");
    d.clips.push_back(std::move(entry));
    blobs.push_back(blob);
  }
  r.expect_end();
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
  r.expect_end();
  return c;
}

// ---- validation -----------------------------------------------------------------------------------

std::string item(const char* list, std::size_t i) { return std::string(list) + "[" + std::to_string(i) + "]"; }

void check_index(std::int64_t value, std::int64_t lowest, std::size_t size, const std::string& path, const char* what) {
  if (value < lowest || value >= static_cast<std::int64_t>(size))
    fail(path, what + std::string(" ") + std::to_string(value) + " is out of range (" + std::to_string(lowest) + " … " +
                   std::to_string(static_cast<std::int64_t>(size) - 1) + ")");
}

void check_range(std::uint64_t start, std::uint64_t count, std::size_t size, const std::string& path, const char* what) {
  if (start > size || count > size - start)
    fail(path, what + std::string(" ") + std::to_string(start) + " + " + std::to_string(count) + " runs past the " +
                   std::to_string(size) + " there are");
}

void check_finite(float v, const std::string& path) {
  if (!std::isfinite(v)) fail(path, "value is not a finite number");
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

void validate_skeleton(const SkeletonData& d) {
  const std::size_t bones = d.bones.size(), slots = d.slots.size(), names = d.attachment_names.names.size();
  const auto& b = d.bones;
  for (auto* column : {&b.x, &b.y, &b.rotation, &b.scale_x, &b.scale_y, &b.shear_x, &b.shear_y, &b.length})
    if (column->size() != bones) fail("bones", "the bone arrays differ in size");
  if (b.parent.size() != bones || b.inherit.size() != bones || b.skin_required.size() != bones)
    fail("bones", "the bone arrays differ in size");
  for (std::size_t i = 0; i < bones; ++i) {
    const std::int32_t p = b.parent[i];
    if (p < -1 || p >= static_cast<std::int32_t>(i))
      fail(item("bones", i) + ".parent", "parent " + std::to_string(p) + " must be −1 or a bone before this one");
  }

  const auto& s = d.slots;
  if (s.bone.size() != slots || s.setup_attachment.size() != slots || s.color.size() != slots || s.dark.size() != slots ||
      s.has_dark.size() != slots || s.blend.size() != slots)
    fail("slots", "the slot arrays differ in size");
  if (slots > std::numeric_limits<std::uint16_t>::max()) fail("slots", "more than 65535 slots");
  for (std::size_t i = 0; i < slots; ++i) {
    check_index(s.bone[i], 0, bones, item("slots", i) + ".bone", "bone");
    check_index(s.setup_attachment[i], -1, names, item("slots", i) + ".attachment", "attachment name");
  }

  if (d.uvs.size() != 2 * d.vertices.size()) fail("uvs", "there must be two UV floats per vertex");
  for (std::size_t i = 0; i < d.vertices.size(); ++i) {
    const VertexInfluences& v = d.vertices[i];
    if (v.count < 1 || v.count > kMaxInfluences)
      fail(item("vertices", i), "influence count " + std::to_string(v.count) + " is not 1 … " + std::to_string(kMaxInfluences));
    check_range(v.first, v.count, d.influences.size(), item("vertices", i), "influences");
  }
  for (std::size_t i = 0; i < d.influences.size(); ++i)
    check_index(d.influences[i].bone, 0, bones, item("influences", i) + ".bone", "bone");
  for (std::size_t i = 0; i < d.regions.size(); ++i) check_index(d.regions[i].page, 0, d.pages.size(), item("regions", i) + ".page", "page");

  for (std::size_t i = 0; i < d.attachments.size(); ++i) {
    const AttachmentRecord& a = d.attachments[i];
    const std::string at = item("attachments", i);
    check_index(a.name, 0, names, at + ".name", "attachment name");
    check_index(a.slot, 0, slots, at + ".slot", "slot");
    check_range(a.vertex_start, a.vertex_count, d.vertices.size(), at, "vertices");
    check_range(a.index_start, a.index_count, d.indices.size(), at, "indices");
    if (a.index_count % 3 != 0) fail(at, "index count " + std::to_string(a.index_count) + " is not a whole number of triangles");
    for (std::uint32_t k = 0; k < a.index_count; ++k)
      if (d.indices[a.index_start + k] >= a.vertex_count)
        fail(at, "triangle index " + std::to_string(d.indices[a.index_start + k]) + " is not one of its " + std::to_string(a.vertex_count) + " vertices");
    std::uint64_t influences = 0;
    for (std::uint32_t k = 0; k < a.vertex_count; ++k) influences += d.vertices[a.vertex_start + k].count;
    if (influences != a.influence_count)
      fail(at, "influence count " + std::to_string(a.influence_count) + " differs from its vertices' " + std::to_string(influences));
    check_range(a.region_start, a.region_count, d.regions.size(), at, "regions");
    if (a.region_count > 0) check_index(a.sequence_setup, 0, a.region_count, at + ".sequenceSetup", "frame");
    check_index(a.deform_source, -1, d.attachments.size(), at + ".deformSource", "attachment");
    check_index(a.end_slot, -1, slots, at + ".endSlot", "slot");
    check_range(a.lengths_start, a.lengths_count, d.path_lengths.size(), at, "path lengths");
  }

  for (std::size_t p = 0; p < d.pages.size() + d.normal_pages.size(); ++p) {
    const bool normal = p >= d.pages.size();
    const Page& page = normal ? d.normal_pages[p - d.pages.size()] : d.pages[p];
    const std::string at = item(normal ? "normalPages" : "pages", normal ? p - d.pages.size() : p);
    if (page.width < 0 || page.height < 0) fail(at, "negative page size");
    if (page.encoding == PageEncoding::Rgba8 && !page.bytes.empty() &&
        page.bytes.size() != 4ull * static_cast<std::uint64_t>(page.width) * static_cast<std::uint64_t>(page.height))
      fail(at, "an RGBA8 page of " + std::to_string(page.width) + " × " + std::to_string(page.height) + " needs " +
                   std::to_string(4ull * static_cast<std::uint64_t>(page.width) * static_cast<std::uint64_t>(page.height)) +
                   " bytes, not " + std::to_string(page.bytes.size()));
  }
  if (!d.normal_pages.empty() && d.normal_pages.size() != d.pages.size())
    fail("normalPages", "there must be one normal page per page, or none");

  const std::size_t constraints = d.constraint_steps.size();
  for (std::size_t i = 0; i < d.skins.size(); ++i) {
    const SkinData& skin = d.skins[i];
    const std::string at = item("skins", i);
    for (std::size_t k = 0; k < skin.entries.size(); ++k) {
      const SkinEntry& e = skin.entries[k];
      check_index(e.slot, 0, slots, at + "." + item("entries", k) + ".slot", "slot");
      check_index(e.name, 0, names, at + "." + item("entries", k) + ".name", "attachment name");
      check_index(e.attachment, 0, d.attachments.size(), at + "." + item("entries", k) + ".attachment", "attachment");
      if (k > 0) {
        const SkinEntry& prev = skin.entries[k - 1];
        if (prev.slot > e.slot || (prev.slot == e.slot && prev.name >= e.name))
          fail(at + "." + item("entries", k), "entries must be sorted by slot, then name, without repeats");
      }
    }
    for (std::size_t k = 0; k < skin.bones.size(); ++k) check_index(skin.bones[k], 0, bones, at + "." + item("bones", k), "bone");
    for (std::size_t k = 0; k < skin.constraints.size(); ++k)
      check_index(skin.constraints[k], 0, constraints, at + "." + item("constraints", k), "constraint");
  }

  const auto check_bones = [&](const std::vector<std::int32_t>& list, const std::string& at) {
    for (std::size_t k = 0; k < list.size(); ++k) check_index(list[k], 0, bones, at + "." + item("bones", k), "bone");
  };
  for (std::size_t i = 0; i < d.ik.size(); ++i) {
    const IkData& c = d.ik[i];
    if (c.bones.size() != 1 && c.bones.size() != 2) fail(item("ik", i) + ".bones", "an IK constraint has one or two bones");
    check_bones(c.bones, item("ik", i));
    check_index(c.target, 0, bones, item("ik", i) + ".target", "bone");
  }
  for (std::size_t i = 0; i < d.transform.size(); ++i) {
    check_bones(d.transform[i].bones, item("transform", i));
    check_index(d.transform[i].target, 0, bones, item("transform", i) + ".target", "bone");
  }
  for (std::size_t i = 0; i < d.path.size(); ++i) {
    check_bones(d.path[i].bones, item("path", i));
    check_index(d.path[i].target_slot, 0, slots, item("path", i) + ".target", "slot");
  }
  for (std::size_t i = 0; i < d.physics.size(); ++i) {
    check_index(d.physics[i].bone, 0, bones, item("physics", i) + ".bone", "bone");
    if (!(d.physics[i].step > 0) || !std::isfinite(d.physics[i].step)) fail(item("physics", i) + ".step", "the step must be a positive time");
  }
  for (std::size_t i = 0; i < d.update_order.size(); ++i)
    check_index(d.update_order[i].index, 0, constraint_count(d, d.update_order[i].kind), item("updateOrder", i), "index");
  for (std::size_t i = 0; i < constraints; ++i) {
    if (d.constraint_steps[i].kind == UpdateKind::Bone) fail(item("constraintSteps", i), "a constraint step cannot be a bone");
    check_index(d.constraint_steps[i].index, 0, constraint_count(d, d.constraint_steps[i].kind), item("constraintSteps", i), "index");
  }
  if (d.slot_deform_floats.size() != slots) fail("slotDeformFloats", "there must be one entry per slot");
  // Poses allocate these ranges: each must be no larger than the slot's largest attachment needs, so a
  // damaged size can never ask for gigabytes.
  std::vector<std::uint64_t> largest(slots, 0);
  for (const AttachmentRecord& a : d.attachments)
    largest[static_cast<std::size_t>(a.slot)] = std::max<std::uint64_t>(largest[static_cast<std::size_t>(a.slot)], 2ull * a.influence_count);
  for (std::size_t i = 0; i < slots; ++i)
    if (d.slot_deform_floats[i] > largest[i])
      fail(item("slotDeformFloats", i), std::to_string(d.slot_deform_floats[i]) + " deform floats is more than the slot's attachments have (" +
                                            std::to_string(largest[i]) + ")");
  for (std::size_t i = 0; i < d.clips.size(); ++i)
    if (!std::isfinite(d.clips[i].length) || d.clips[i].length < 0) fail(item("clips", i) + ".length", "the length must be a finite time ≥ 0");
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

void validate_clip(const ClipData& c, const SkeletonData& d) {
  if (!std::isfinite(c.length) || c.length < 0) fail("length", "the length must be a finite time ≥ 0");
  for (std::size_t i = 0; i < c.times.size(); ++i) check_finite(c.times[i], item("times", i));
  for (std::size_t i = 0; i < c.curves.size(); ++i)
    if (c.curves[i] >= anim::kCurveBezierBase && c.curves[i] - anim::kCurveBezierBase >= c.beziers.size())
      fail(item("curves", i), "bezier " + std::to_string(c.curves[i] - anim::kCurveBezierBase) + " is not one of the " +
                                  std::to_string(c.beziers.size()) + " there are");

  for (std::size_t i = 0; i < c.timelines.size(); ++i) {
    const Timeline& t = c.timelines[i];
    const std::string at = item("timelines", i);
    const KindShape shape = shape_of(t.kind);
    if (t.components != shape.components || t.curved != shape.curved)
      fail(at, "this timeline kind has " + std::to_string(shape.components) + " values and " + std::to_string(shape.curved) +
                   " curves per key, not " + std::to_string(t.components) + " and " + std::to_string(t.curved));
    if (t.kind == TimelineKind::DrawOrder) {
      if (t.target != -1) fail(at + ".target", "a draw-order timeline has target −1");
    } else {
      check_index(t.target, 0, target_count(d, t.kind), at + ".target", "target");
    }
    if (t.key_count == 0) fail(at, "a timeline needs at least one key");
    check_range(t.key_start, t.key_count, c.times.size(), at, "keys");
    for (std::uint32_t k = 1; k < t.key_count; ++k)
      if (c.times[t.key_start + k] < c.times[t.key_start + k - 1]) fail(at, "key times must not decrease");
    check_range(t.curve_start, std::uint64_t{t.key_count - 1} * t.curved, c.curves.size(), at, "curves");
    if (t.kind == TimelineKind::Deform) {
      check_range(t.value_start, t.key_count, c.deform_keys.size(), at, "deform keys");
      const AttachmentRecord& att = d.attachments[static_cast<std::size_t>(t.target)];
      for (std::uint32_t k = 0; k < t.key_count; ++k) {
        const DeformKey& key = c.deform_keys[t.value_start + k];
        check_range(key.value_start, key.count, c.values.size(), at + ".deformKeys", "values");
        check_range(key.offset, key.count, 2ull * att.influence_count, at + ".deformKeys", "deform floats");
      }
    } else if (t.kind == TimelineKind::DrawOrder) {
      check_range(t.value_start, std::uint64_t{t.key_count} * d.slots.size(), c.draw_orders.size(), at, "draw orders");
      for (std::uint64_t k = 0; k < std::uint64_t{t.key_count} * d.slots.size(); ++k)
        check_index(c.draw_orders[t.value_start + k], 0, d.slots.size(), at + ".drawOrders", "slot");
    } else {
      check_range(t.value_start, std::uint64_t{t.key_count} * t.components, c.values.size(), at, "values");
      // Stepped values the runtime turns into integers must be integers in range.
      const auto check_integer = [&](float v, std::int64_t lowest, std::size_t count, const char* what) {
        if (!(v >= static_cast<float>(lowest) && v < static_cast<float>(count)) || v != std::floor(v))
          fail(at + ".values", std::string(what) + " value " + std::to_string(v) + " is not a whole number in " +
                                   std::to_string(lowest) + " … " + std::to_string(static_cast<std::int64_t>(count) - 1));
      };
      for (std::uint32_t k = 0; k < t.key_count; ++k) {
        const float* v = c.values.data() + t.value_start + std::size_t{k} * t.components;
        if (t.kind == TimelineKind::Inherit) check_integer(v[0], 0, 5, "inherit");
        if (t.kind == TimelineKind::Attachment) check_integer(v[0], -1, d.attachment_names.names.size(), "attachment name");
        if (t.kind == TimelineKind::Sequence) {
          check_integer(v[0], 0, 7, "sequence mode");
          check_integer(v[1], -1000000, 1000000, "sequence index");
          check_finite(v[2], at + ".values");
        }
      }
    }
  }
  for (std::size_t i = 0; i < c.events.size(); ++i) {
    check_index(c.events[i].event, 0, d.events.size(), item("events", i) + ".event", "event");
    check_index(c.events[i].string_value, -1, c.strings.size(), item("events", i) + ".string", "string");
    check_finite(c.events[i].time, item("events", i) + ".time");
    if (i > 0 && c.events[i].time < c.events[i - 1].time) fail(item("events", i), "events must be sorted by time");
  }
}

Error to_error(const Failure& f, const std::string& file, const std::string& prefix = {}) {
  std::string path = f.path;
  if (!prefix.empty()) path = path.empty() ? prefix : prefix + "." + path;
  return Error{file, path, {}, f.message};
}

}  // namespace

Expected<std::shared_ptr<ClipData>> decode_clip(std::span<const std::uint8_t> blob, const SkeletonData& data,
                                                const std::string& file) {
  std::string name;
  try {
    ByteReader r(blob, "the clip");
    auto clip = std::make_shared<ClipData>(read_clip(r));
    name = clip->name;
    validate_clip(*clip, data);
    return clip;
  } catch (const Failure& f) {
    return Unexpected{to_error(f, file, name.empty() ? "clip" : "clips." + name)};
  } catch (const std::bad_alloc&) {
    return Unexpected{Error{file, "clip", {}, "out of memory while decoding the clip"}};
  }
}

Status validate_skeleton_data(const SkeletonData& data, const std::string& file) {
  try {
    validate_skeleton(data);
    return {};
  } catch (const Failure& f) {
    return Unexpected{to_error(f, file)};
  }
}

Status validate_clip_data(const ClipData& clip, const SkeletonData& data, const std::string& file) {
  try {
    validate_clip(clip, data);
    return {};
  } catch (const Failure& f) {
    return Unexpected{to_error(f, file, "clips." + clip.name)};
  }
}

Expected<std::shared_ptr<SkeletonData>> load_build(std::string bytes_in, const std::string& file) {
  const auto bytes = std::make_shared<const std::string>(std::move(bytes_in));
  const std::span<const std::uint8_t> all(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size());
  try {
    if (all.size() < 8 || std::memcmp(all.data(), kBuildMagic, 8) != 0)
      fail("", "is not a skeleton build (it does not start with \"MFSKBLD\")");
    ByteReader header(all.subspan(0, std::min(all.size(), kHeaderBytes)), "the header");
    header.take(8, "magic");
    const std::uint32_t version = header.u32();
    if (version != kBuildVersion)
      fail("", "was written by build format version " + std::to_string(version) + "; this program reads version " +
                   std::to_string(kBuildVersion) + ": rebuild it with `mfe skel build`");
    const std::uint32_t section_count = header.u32();
    const std::uint64_t file_size = header.u64();
    if (file_size != all.size())
      fail("", "the header says the build has " + std::to_string(file_size) + " bytes, but the file has " +
                   std::to_string(all.size()) + (file_size > all.size() ? " (truncated)" : " (extra bytes at the end)"));
    if (section_count > (all.size() - kHeaderBytes) / kSectionEntryBytes)
      fail("", "the section table (" + std::to_string(section_count) + " sections) does not fit in the file");

    struct Section {
      std::uint32_t tag;
      std::size_t offset, size;
    };
    std::vector<Section> sections;
    ByteReader table(all.subspan(kHeaderBytes, section_count * kSectionEntryBytes), "the section table");
    const std::size_t data_start = kHeaderBytes + section_count * kSectionEntryBytes;
    for (std::uint32_t i = 0; i < section_count; ++i) {
      const std::uint32_t tag = table.u32();
      table.u32();  // flags: none defined yet
      const std::uint64_t offset = table.u64(), size = table.u64();
      if (offset < data_start || offset > all.size() || size > all.size() - offset)
        fail("sections[" + std::to_string(i) + "]", "section " + tag_name(tag) + " (" + std::to_string(size) + " bytes at " +
                                                         std::to_string(offset) + ") lies outside the file's " + std::to_string(all.size()) + " bytes");
      for (const Section& s : sections)
        if (s.tag == tag) fail("sections[" + std::to_string(i) + "]", "section " + tag_name(tag) + " appears twice");
      sections.push_back({tag, static_cast<std::size_t>(offset), static_cast<std::size_t>(size)});
    }
    // Unknown sections are skipped: a later version may add optional ones without breaking this reader.
    const auto section = [&](std::uint32_t tag) -> const Section& {
      for (const Section& s : sections)
        if (s.tag == tag) return s;
      fail("", "the build has no " + tag_name(tag) + " section");
    };

    auto data = std::make_shared<SkeletonData>();
    const Section& skel = section(kSkeletonSection);
    ByteReader skel_reader(all.subspan(skel.offset, skel.size), "section SKEL");
    read_skeleton_section(skel_reader, *data);

    const Section& pages = section(kPagesSection);
    ByteReader page_reader(all.subspan(pages.offset, pages.size), "section PAGE");
    read_pages(page_reader, data->pages, "pages");
    read_pages(page_reader, data->normal_pages, "normalPages");
    page_reader.expect_end();

    const Section& clips = section(kClipsSection);
    ByteReader clip_reader(all.subspan(clips.offset, clips.size), "section CLIP");
    std::vector<ClipBlob> blobs = read_clip_table(clip_reader, clips.offset, *data);

    validate_skeleton(*data);

    data->loader = [bytes, blobs = std::move(blobs), file](const SkeletonData& d,
                                                             int index) -> Expected<std::shared_ptr<ClipData>> {
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
  } catch (const Failure& f) {
    return Unexpected{to_error(f, file)};
  } catch (const std::bad_alloc&) {
    return Unexpected{Error{file, {}, {}, "out of memory while loading the build"}};
  }
}

Expected<std::shared_ptr<SkeletonData>> load_build_file(const std::string& path) {
  Expected<std::string> bytes = read_file(path);
  if (!bytes) return Unexpected{bytes.error()};
  return load_build(std::move(bytes).value(), path);
}

}  // namespace mf::skel
