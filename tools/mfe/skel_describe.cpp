// `mfe skel describe <mskel> [--clip name] [--json]`: the rig and its clips in a compact form that
// people and agents read instead of the raw JSON. Every clip is summed up by its timelines' key times;
// one clip named by --clip is shown key by key, with values and curves as `mfe skel key` reads them
// (clip_keys_print.hpp).

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "clip_keys_print.hpp"
#include "commands.hpp"
#include "mf/offline/json/json_path.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "mf/offline/format/rig_files.hpp"

namespace mf::tools {
namespace {

using namespace mf::offline;
using json::format_float;
using json::Layout;
using json::path_key;

struct DescribeOptions {
  std::string mskel;
  std::string clip;
  bool json = false;
};

// ---- helpers shared by both outputs ------------------------------------------------------------

std::string join(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out + "]";
}

std::vector<std::string> bone_names(const SkeletonSource& sk, const std::vector<int>& bones) {
  std::vector<std::string> out;
  for (int b : bones) out.push_back(sk.bones[static_cast<std::size_t>(b)].name);
  return out;
}

const char* bool_text(bool v) { return v ? "true" : "false"; }

int bone_depth(const SkeletonSource& sk, int bone) {
  int depth = 0;
  for (int p = sk.bones[static_cast<std::size_t>(bone)].parent; p >= 0; p = sk.bones[static_cast<std::size_t>(p)].parent)
    ++depth;
  return depth;
}

// A named parameter of a constraint or attachment: numbers, booleans and names alike.
struct Param {
  std::string key;
  enum class Kind { Number, Integer, Bool, String, Names } kind;
  float number = 0;
  bool flag = false;
  std::string text;
  std::vector<std::string> names;
};

Param num(std::string key, float v) { return {std::move(key), Param::Kind::Number, v, false, {}, {}}; }
Param integer(std::string key, int v) {
  return {std::move(key), Param::Kind::Integer, static_cast<float>(v), false, {}, {}};
}
Param flag(std::string key, bool v) { return {std::move(key), Param::Kind::Bool, 0, v, {}, {}}; }
Param text(std::string key, std::string v) { return {std::move(key), Param::Kind::String, 0, false, std::move(v), {}}; }
Param names(std::string key, std::vector<std::string> v) {
  return {std::move(key), Param::Kind::Names, 0, false, {}, std::move(v)};
}

std::string param_text(const Param& p) {
  switch (p.kind) {
    case Param::Kind::Number: return format_float(p.number);
    case Param::Kind::Integer: return std::to_string(static_cast<long long>(p.number));
    case Param::Kind::Bool: return bool_text(p.flag);
    case Param::Kind::String:
      // Quoted only where a bare word would be ambiguous.
      if (p.text.empty() || p.text.find_first_of(" \"=") != std::string::npos) return "\"" + p.text + "\"";
      return p.text;
    case Param::Kind::Names: return join(p.names);
  }
  return {};
}

void write_param(json::Writer& w, const Param& p) {
  w.key(p.key);
  switch (p.kind) {
    case Param::Kind::Number: w.number(p.number); break;
    case Param::Kind::Integer: w.integer(static_cast<std::int64_t>(p.number)); break;
    case Param::Kind::Bool: w.boolean(p.flag); break;
    case Param::Kind::String: w.string(p.text); break;
    case Param::Kind::Names:
      w.begin_array(Layout::Inline);
      for (const std::string& n : p.names) w.string(n);
      w.end_array();
      break;
  }
}

std::string params_text(const std::vector<Param>& params) {
  std::string out;
  for (const Param& p : params) out += "  " + p.key + "=" + param_text(p);
  return out;
}

std::vector<Param> bone_params(const SkeletonSource& sk, const Bone& b) {
  std::vector<Param> p;
  if (b.parent >= 0) p.push_back(text("parent", sk.bones[static_cast<std::size_t>(b.parent)].name));
  p.push_back(num("x", b.x));
  p.push_back(num("y", b.y));
  p.push_back(num("rot", b.rotation));
  p.push_back(num("sx", b.scale_x));
  p.push_back(num("sy", b.scale_y));
  p.push_back(num("shx", b.shear_x));
  p.push_back(num("shy", b.shear_y));
  p.push_back(num("length", b.length));
  p.push_back(text("inherit", to_string(b.inherit)));
  if (b.skin_required) p.push_back(flag("skinRequired", true));
  return p;
}

std::vector<Param> slot_params(const SkeletonSource& sk, const Slot& s) {
  std::vector<Param> p;
  p.push_back(text("bone", sk.bones[static_cast<std::size_t>(s.bone)].name));
  p.push_back(text("attachment", s.attachment.empty() ? "none" : s.attachment));
  p.push_back(text("color", to_hex_rgba(s.color)));
  p.push_back(text("dark", s.dark ? to_hex_rgb(*s.dark) : "none"));
  p.push_back(text("blend", to_string(s.blend)));
  return p;
}

void add_vertices(std::vector<Param>& p, const SkeletonSource& sk, const Vertices& v) {
  p.push_back(integer("vertices", static_cast<int>(v.count())));
  p.push_back(flag("weighted", v.weighted()));
  if (!v.weighted()) return;
  std::vector<int> used;
  int most = 0;
  for (const auto& influences : v.weights) {
    most = std::max(most, static_cast<int>(influences.size()));
    for (const InfluenceSource& in : influences)
      if (std::find(used.begin(), used.end(), in.bone) == used.end()) used.push_back(in.bone);
  }
  p.push_back(names("bones", bone_names(sk, used)));
  p.push_back(integer("maxInfluences", most));
}

void add_image(std::vector<Param>& p, const std::string& attachment, const std::string& image,
               const std::optional<Sequence>& sequence) {
  p.push_back(text("image", image.empty() ? attachment : image));
  if (!sequence) return;
  p.push_back(integer("sequenceCount", sequence->count));
  p.push_back(integer("sequenceStart", sequence->start));
  p.push_back(integer("sequenceDigits", sequence->digits));
}

std::vector<Param> attachment_params(const SkeletonSource& sk, const Attachment& a) {
  std::vector<Param> p;
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, RegionAttachment>) {
          add_image(p, a.name, d.image, d.sequence);
          if (d.width != 0 || d.height != 0) {
            p.push_back(num("width", d.width));
            p.push_back(num("height", d.height));
          }
        } else if constexpr (std::is_same_v<T, MeshAttachment>) {
          add_image(p, a.name, d.image, d.sequence);
          add_vertices(p, sk, d.vertices);
          p.push_back(integer("triangles", static_cast<int>(d.triangles.size() / 3)));
          p.push_back(integer("hull", d.hull));
        } else if constexpr (std::is_same_v<T, LinkedMeshAttachment>) {
          add_image(p, a.name, d.image, d.sequence);
          p.push_back(text("parent", d.parent));
          if (!d.skin.empty()) p.push_back(text("skin", d.skin));
          p.push_back(flag("deform", d.deform));
        } else if constexpr (std::is_same_v<T, BoundingBoxAttachment>) {
          add_vertices(p, sk, d.vertices);
        } else if constexpr (std::is_same_v<T, ClippingAttachment>) {
          add_vertices(p, sk, d.vertices);
          p.push_back(text("end", d.end_slot < 0 ? "none" : sk.slots[static_cast<std::size_t>(d.end_slot)].name));
        } else if constexpr (std::is_same_v<T, PointAttachment>) {
          p.push_back(num("x", d.x));
          p.push_back(num("y", d.y));
          p.push_back(num("rot", d.rotation));
        } else if constexpr (std::is_same_v<T, PathAttachment>) {
          add_vertices(p, sk, d.vertices);
          p.push_back(flag("closed", d.closed));
          p.push_back(flag("constantSpeed", d.constant_speed));
        }
      },
      a.data);
  return p;
}

struct ConstraintEntry {
  int order;
  const char* kind;
  std::string name;
  std::vector<Param> params;
};

// Parameters of one constraint, whatever its kind.
std::vector<Param> constraint_params(const SkeletonSource& sk, ConstraintRef ref) {
  const auto i = static_cast<std::size_t>(ref.index);
  std::vector<Param> p;
  bool skin_required = false;
  switch (ref.kind) {
    case ConstraintKind::Ik: {
      const IkConstraint& c = sk.ik[i];
      skin_required = c.skin_required;
      p = {names("bones", bone_names(sk, c.bones)), text("target", sk.bones[static_cast<std::size_t>(c.target)].name),
           num("mix", c.mix), num("softness", c.softness), integer("bend", c.bend), flag("compress", c.compress),
           flag("stretch", c.stretch), flag("uniform", c.uniform)};
      break;
    }
    case ConstraintKind::Transform: {
      const TransformConstraint& c = sk.transform[i];
      skin_required = c.skin_required;
      p = {names("bones", bone_names(sk, c.bones)), text("target", sk.bones[static_cast<std::size_t>(c.target)].name),
           flag("local", c.local), flag("relative", c.relative), num("mixRotate", c.mix_rotate),
           num("mixX", c.mix_x), num("mixY", c.mix_y), num("mixScaleX", c.mix_scale_x),
           num("mixScaleY", c.mix_scale_y), num("mixShearY", c.mix_shear_y), num("rotation", c.offset_rotation),
           num("x", c.offset_x), num("y", c.offset_y), num("scaleX", c.offset_scale_x),
           num("scaleY", c.offset_scale_y), num("shearY", c.offset_shear_y)};
      break;
    }
    case ConstraintKind::Path: {
      const PathConstraint& c = sk.path[i];
      skin_required = c.skin_required;
      p = {names("bones", bone_names(sk, c.bones)), text("target", sk.slots[static_cast<std::size_t>(c.target)].name),
           text("positionMode", to_string(c.position_mode)), text("spacingMode", to_string(c.spacing_mode)),
           text("rotateMode", to_string(c.rotate_mode)), num("rotation", c.offset_rotation),
           num("position", c.position), num("spacing", c.spacing), num("mixRotate", c.mix_rotate),
           num("mixX", c.mix_x), num("mixY", c.mix_y)};
      break;
    }
    case ConstraintKind::Physics: {
      const PhysicsConstraint& c = sk.physics[i];
      skin_required = c.skin_required;
      p = {text("bone", sk.bones[static_cast<std::size_t>(c.bone)].name), num("x", c.x), num("y", c.y),
           num("rotate", c.rotate), num("scaleX", c.scale_x), num("shearX", c.shear_x), num("limit", c.limit),
           num("fps", c.fps), num("inertia", c.inertia), num("strength", c.strength), num("damping", c.damping),
           num("mass", c.mass), num("wind", c.wind), num("gravity", c.gravity), num("mix", c.mix)};
      break;
    }
  }
  if (skin_required) p.push_back(flag("skinRequired", true));
  return p;
}

// Every constraint in update order; `order` is the place in it (explicit in the file or not).
std::vector<ConstraintEntry> constraints_in_order(const SkeletonSource& sk) {
  std::vector<ConstraintEntry> out;
  for (const ConstraintRef& ref : sk.update_order())
    out.push_back({static_cast<int>(out.size()), to_string(ref.kind), sk.constraint_name(ref), constraint_params(sk, ref)});
  return out;
}

// A skin's skin-required constraints of one kind, by name.
std::vector<std::string> skin_constraints(const SkeletonSource& sk, const Skin& skin, ConstraintKind kind) {
  std::vector<std::string> out;
  for (const ConstraintRef& r : skin.constraints)
    if (r.kind == kind) out.push_back(sk.constraint_name(r));
  return out;
}

constexpr ConstraintKind kConstraintKinds[] = {ConstraintKind::Ik, ConstraintKind::Transform, ConstraintKind::Path,
                                               ConstraintKind::Physics};

std::vector<Param> event_params(const EventDef& e) {
  return {integer("int", e.int_value), num("float", e.float_value), text("string", e.string_value),
          text("audio", e.audio),      num("volume", e.volume),     num("balance", e.balance)};
}

// One keyed timeline of a clip, named by its JSON path in the .manim.
struct TimelineEntry {
  std::tuple<int, std::string, int> order;  // section, target, kind: the file's order
  std::string path;
  std::vector<float> times;
  std::vector<std::string> labels;  // event names, for the event timeline
};

std::vector<TimelineEntry> timelines(const ClipSource& clip) {
  std::vector<TimelineEntry> out;
  constexpr int kAfterCurves = 100;
  for (const CurveTimeline& tl : clip.curves) {
    const CurveLayout& lay = layout(tl.kind);
    std::string path;
    int section = 0;
    switch (lay.target) {
      case TimelineTarget::Bone: section = 0; path = path_key(path_key("bones", tl.target), lay.name); break;
      case TimelineTarget::Slot: section = 1; path = path_key(path_key("slots", tl.target), lay.name); break;
      case TimelineTarget::Ik: section = 2; path = path_key("ik", tl.target); break;
      case TimelineTarget::Transform: section = 3; path = path_key("transform", tl.target); break;
      case TimelineTarget::Path: section = 4; path = path_key("path", tl.target); break;
      case TimelineTarget::Physics: section = 5; path = path_key(path_key("physics", tl.target), lay.name); break;
    }
    out.push_back({{section, tl.target, static_cast<int>(tl.kind) + 1}, path, tl.times, {}});
  }
  for (const InheritTimeline& tl : clip.inherits)
    out.push_back({{0, tl.bone, kAfterCurves}, path_key(path_key("bones", tl.bone), "inherit"), tl.times, {}});
  for (const AttachmentTimeline& tl : clip.attachments)
    out.push_back({{1, tl.slot, 0}, path_key(path_key("slots", tl.slot), "attachment"), tl.times, {}});
  for (const SequenceTimeline& tl : clip.sequences)
    out.push_back({{1, tl.slot, kAfterCurves}, path_key(path_key("slots", tl.slot), "sequence"), tl.times, {}});
  for (const PhysicsResetTimeline& tl : clip.physics_resets)
    out.push_back({{5, tl.constraint, kAfterCurves}, path_key(path_key("physics", tl.constraint), "reset"), tl.times, {}});
  for (const DeformTimeline& tl : clip.deforms) {
    const std::string path = path_key(path_key(path_key("deform", tl.skin), tl.slot), tl.attachment);
    out.push_back({{6, path, 0}, path, tl.times, {}});
  }
  if (!clip.draw_order.empty()) out.push_back({{7, "", 0}, "drawOrder", clip.draw_order.times, {}});
  if (!clip.events.empty()) {
    TimelineEntry e{{8, "", 0}, "events", clip.events.times, {}};
    for (const EventKeySource& k : clip.events.keys) e.labels.push_back(k.name);
    out.push_back(std::move(e));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  return out;
}

std::string times_text(const std::vector<float>& times) {
  std::vector<std::string> t;
  for (float v : times) t.push_back(format_float(v));
  return join(t);
}

struct ClipResult {
  std::string name;
  std::optional<ClipSource> clip;
  std::string error;
};

// ---- text ---------------------------------------------------------------------------------------

void print_text(const Rig& rig, const std::vector<ClipResult>& clips, bool all_clips) {
  const SkeletonSource& sk = rig.skeleton;
  std::printf("rig %s  uid=%s  fps=%d  images=%s  clips=%s\n", rig.path.c_str(), sk.uid.c_str(), sk.fps,
              images_folder(rig).c_str(), clips_folder(sk, rig.path).c_str());

  std::printf("bones (%zu), indented under their parents:\n", sk.bones.size());
  for (std::size_t i = 0; i < sk.bones.size(); ++i) {
    const Bone& b = sk.bones[i];
    std::printf("  %*s%s%s\n", 2 * bone_depth(sk, static_cast<int>(i)), "", b.name.c_str(),
                params_text(bone_params(sk, b)).c_str());
  }

  std::printf("slots (%zu), in draw order:\n", sk.slots.size());
  for (const Slot& s : sk.slots) std::printf("  %s%s\n", s.name.c_str(), params_text(slot_params(sk, s)).c_str());

  std::printf("skins (%zu):\n", sk.skins.size());
  for (const Skin& skin : sk.skins) {
    std::printf("  %s (%zu attachments)", skin.name.c_str(), skin.attachments.size());
    if (!skin.bones.empty()) std::printf("  bones=%s", join(bone_names(sk, skin.bones)).c_str());
    for (ConstraintKind kind : kConstraintKinds)
      if (const std::vector<std::string> c = skin_constraints(sk, skin, kind); !c.empty())
        std::printf("  %s=%s", to_string(kind), join(c).c_str());
    std::printf("\n");
    for (const Attachment& a : skin.attachments)
      std::printf("    %s/%s  %s%s\n", sk.slots[static_cast<std::size_t>(a.slot)].name.c_str(), a.name.c_str(),
                  to_string(a.type()), params_text(attachment_params(sk, a)).c_str());
  }

  const std::vector<ConstraintEntry> constraints = constraints_in_order(sk);
  std::printf("constraints (%zu), in update order:\n", constraints.size());
  for (const ConstraintEntry& c : constraints)
    std::printf("  %s %s  order=%d%s\n", c.kind, c.name.c_str(), c.order, params_text(c.params).c_str());

  std::printf("events (%zu):\n", sk.events.size());
  for (const EventDef& e : sk.events) std::printf("  %s%s\n", e.name.c_str(), params_text(event_params(e)).c_str());

  std::printf(all_clips ? "clips (%zu):\n" : "clip:\n", clips.size());
  for (const ClipResult& r : clips) {
    if (!r.clip) {
      std::printf("  %s  error: %s\n", r.name.c_str(), r.error.c_str());
      continue;
    }
    const ClipSource& c = *r.clip;
    std::printf("  %s  length=%s  fps=%d  loop=%s\n", r.name.c_str(), format_float(c.length).c_str(), c.fps,
                to_string(c.loop));
    if (!all_clips) {
      // One clip: every key, one line per timeline, in the syntax `mfe skel key` reads.
      std::fputs(clip_keys_text(c, "    ").c_str(), stdout);
      continue;
    }
    for (const TimelineEntry& t : timelines(c)) {
      std::printf("    %s  t=%s", t.path.c_str(), times_text(t.times).c_str());
      if (!t.labels.empty()) std::printf("  names=%s", join(t.labels).c_str());
      std::printf("\n");
    }
  }
}

// ---- JSON ---------------------------------------------------------------------------------------

void write_params(json::Writer& w, const std::vector<Param>& params) {
  for (const Param& p : params) write_param(w, p);
}

std::string to_json(const Rig& rig, const std::vector<ClipResult>& clips, bool one_clip) {
  const SkeletonSource& sk = rig.skeleton;
  json::Writer w;
  w.begin_object();
  w.key("file");
  w.string(rig.path);
  w.key("uid");
  w.string(sk.uid);
  w.key("fps");
  w.integer(sk.fps);
  w.key("imagesFolder");
  w.string(images_folder(rig));
  w.key("clipsFolder");
  w.string(clips_folder(sk, rig.path));

  w.key("bones");
  w.begin_array();
  for (const Bone& b : sk.bones) {
    w.begin_object(Layout::Inline);
    w.key("name");
    w.string(b.name);
    std::vector<Param> params = bone_params(sk, b);
    if (b.parent < 0) {
      w.key("parent");
      w.null();
    }
    write_params(w, params);
    w.end_object();
  }
  w.end_array();

  w.key("slots");
  w.begin_array();
  for (const Slot& s : sk.slots) {
    w.begin_object(Layout::Inline);
    w.key("name");
    w.string(s.name);
    w.key("bone");
    w.string(sk.bones[static_cast<std::size_t>(s.bone)].name);
    w.key("attachment");
    if (s.attachment.empty()) w.null(); else w.string(s.attachment);
    w.key("color");
    w.string(to_hex_rgba(s.color));
    w.key("dark");
    if (s.dark) w.string(to_hex_rgb(*s.dark)); else w.null();
    w.key("blend");
    w.string(to_string(s.blend));
    w.end_object();
  }
  w.end_array();

  w.key("skins");
  w.begin_array();
  for (const Skin& skin : sk.skins) {
    w.begin_object();
    w.key("name");
    w.string(skin.name);
    w.key("bones");
    w.begin_array(Layout::Inline);
    for (const std::string& n : bone_names(sk, skin.bones)) w.string(n);
    w.end_array();
    for (ConstraintKind kind : kConstraintKinds) {
      w.key(to_string(kind));
      w.begin_array(Layout::Inline);
      for (const std::string& n : skin_constraints(sk, skin, kind)) w.string(n);
      w.end_array();
    }
    w.key("attachments");
    w.begin_array();
    for (const Attachment& a : skin.attachments) {
      w.begin_object(Layout::Inline);
      w.key("slot");
      w.string(sk.slots[static_cast<std::size_t>(a.slot)].name);
      w.key("name");
      w.string(a.name);
      w.key("type");
      w.string(to_string(a.type()));
      write_params(w, attachment_params(sk, a));
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();

  w.key("constraints");
  w.begin_array();
  for (const ConstraintEntry& c : constraints_in_order(sk)) {
    w.begin_object(Layout::Inline);
    w.key("kind");
    w.string(c.kind);
    w.key("name");
    w.string(c.name);
    w.key("order");
    w.integer(c.order);
    write_params(w, c.params);
    w.end_object();
  }
  w.end_array();

  w.key("events");
  w.begin_array();
  for (const EventDef& e : sk.events) {
    w.begin_object(Layout::Inline);
    w.key("name");
    w.string(e.name);
    write_params(w, event_params(e));
    w.end_object();
  }
  w.end_array();

  w.key("clips");
  w.begin_array();
  for (const ClipResult& r : clips) {
    w.begin_object();
    w.key("name");
    w.string(r.name);
    if (!r.clip) {
      w.key("error");
      w.string(r.error);
      w.end_object();
      continue;
    }
    const ClipSource& c = *r.clip;
    w.key("uid");
    w.string(c.uid);
    w.key("length");
    w.number(c.length);
    w.key("fps");
    w.integer(c.fps);
    w.key("loop");
    w.string(to_string(c.loop));
    w.key("timelines");
    if (one_clip) {
      write_clip_keys_json(w, c);
      w.end_object();
      continue;
    }
    w.begin_array();
    for (const TimelineEntry& t : timelines(c)) {
      w.begin_object(Layout::Inline);
      w.key("path");
      w.string(t.path);
      w.key("t");
      w.begin_array();
      for (float v : t.times) w.number(v);
      w.end_array();
      if (!t.labels.empty()) {
        w.key("names");
        w.begin_array();
        for (const std::string& n : t.labels) w.string(n);
        w.end_array();
      }
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.finish();
}

int run_describe(const DescribeOptions& options) {
  Expected<Rig> rig = load_rig(options.mskel);
  if (!rig) {
    std::fprintf(stderr, "error: %s\n", rig.error().to_string().c_str());
    return 1;
  }
  std::vector<ClipResult> clips;
  int exit_code = 0;
  auto add_clip = [&](const std::string& name) {
    Expected<ClipSource> clip = load_clip(*rig, name);
    if (clip) {
      clips.push_back({name, std::move(clip).value(), {}});
    } else {
      clips.push_back({name, std::nullopt, clip.error().to_string()});
      exit_code = 1;
    }
  };
  if (!options.clip.empty()) {
    add_clip(options.clip);
    if (!clips.back().clip) {
      std::fprintf(stderr, "error: %s\n", clips.back().error.c_str());
      return 1;
    }
  } else {
    for (const ClipFile& source : rig->clips) add_clip(source.name);
  }

  if (options.json)
    std::fputs(to_json(*rig, clips, !options.clip.empty()).c_str(), stdout);
  else
    print_text(*rig, clips, options.clip.empty());
  return exit_code;
}

}  // namespace

void add_skel_describe(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<DescribeOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "describe",
      "Print a rig (bones, slots, skins, constraints, events) and its clips (length, keyed timelines, key times). "
      "Exit 1 when the rig or a clip fails to read; 2 on usage errors, including a missing file.");
  cmd->add_option("mskel", options->mskel, "The .mskel file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--clip", options->clip,
                  "Describe only this clip (its name: its path in the clips folder without .manim), with every key: "
                  "one line per timeline, \"bone chest rotate  0=0[ease] 0.5=-4 1=0\" (t=value[curve of the segment "
                  "from that key], as mfe skel key reads them); with --json, each key as a --keys item");
  cmd->add_flag("--json", options->json, "Print one JSON object instead of text");
  cmd->callback([options, &exit_code] { exit_code = run_describe(*options); });
}

}  // namespace mf::tools
