// The build step's skeleton half: bones, slots, events and constraints into the runtime tables (with
// import.scale applied to every pixel quantity), skins, the update order, and the rig-on-disk entry
// points. Attachments are built in skeleton_builder_attachments.cpp.

#include "mf/offline/build/skeleton_builder.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

#include "mf/imaging/png.hpp"
#include "mf/offline/json/source_location.hpp"
#include "mf/offline/json/json_path.hpp"
#include "skeleton_builder_internal.hpp"

namespace mf::offline {
namespace build_detail {

void fail(const std::string& file, const std::string& path, const std::string& message) {
  throw BuildFailure{Error{file, path, {}, message}};
}

namespace {

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

class SkeletonCompiler {
 public:
  SkeletonCompiler(const SkeletonSource& skeleton, const ImageLookup& images, const std::string& file)
      : sk_(skeleton), images_(images), file_(file), scale_(skeleton.import.scale) {}

  BuildResult run(const std::string& name) {
    if (!(scale_ > 0)) fail(file_, "import.scale", "scale must be > 0");
    result_.data = std::make_shared<skel::SkeletonData>();
    skel::SkeletonData& d = *result_.data;
    d.name = name;
    build_bones(d);
    intern_names(d);
    build_slots(d);
    build_attachments(sk_, images_, file_, d, result_.warnings, result_.atlas);
    build_events(d);
    build_constraints(d);
    build_update_order(d);
    build_skin_lists(d);
    return std::move(result_);
  }

 private:
  int check_bone(int bone, const std::string& path) const {
    if (bone < 0 || static_cast<std::size_t>(bone) >= sk_.bones.size())
      fail(file_, path, "bone index " + std::to_string(bone) + " is out of range");
    return bone;
  }

  std::vector<std::int32_t> bone_list(const std::vector<int>& bones, const std::string& path) const {
    if (bones.empty()) fail(file_, path, "a constraint needs at least one bone");
    std::vector<std::int32_t> out;
    for (std::size_t i = 0; i < bones.size(); ++i) out.push_back(check_bone(bones[i], json::path_index(path, i)));
    return out;
  }

  void build_bones(skel::SkeletonData& d) const {
    skel::BoneTable& t = d.bones;
    for (std::size_t i = 0; i < sk_.bones.size(); ++i) {
      const Bone& b = sk_.bones[i];
      if (b.parent < -1 || b.parent >= static_cast<int>(i))
        fail(file_, json::path_key(json::path_index("bones", i), "parent"),
             "parent index " + std::to_string(b.parent) + " must be a bone listed before " + quoted(b.name));
      t.names.push_back(b.name);
      t.parent.push_back(b.parent);
      t.x.push_back(b.x * scale_);
      t.y.push_back(b.y * scale_);
      t.rotation.push_back(b.rotation);
      t.scale_x.push_back(b.scale_x);
      t.scale_y.push_back(b.scale_y);
      t.shear_x.push_back(b.shear_x);
      t.shear_y.push_back(b.shear_y);
      t.length.push_back(b.length * scale_);
      t.inherit.push_back(static_cast<skel::Inherit>(b.inherit));
      t.skin_required.push_back(b.skin_required ? 1 : 0);
    }
  }

  // Attachment names in order of first use: skins (in file order), then slots' setup attachments.
  void intern_names(skel::SkeletonData& d) {
    auto intern = [&](const std::string& n) {
      const auto [it, inserted] = names_.emplace(n, static_cast<std::int32_t>(d.attachment_names.names.size()));
      if (inserted) d.attachment_names.names.push_back(n);
      return it->second;
    };
    for (const Skin& skin : sk_.skins)
      for (const Attachment& a : skin.attachments) intern(a.name);
    for (const Slot& slot : sk_.slots)
      if (!slot.attachment.empty()) intern(slot.attachment);
  }

  void build_slots(skel::SkeletonData& d) const {
    skel::SlotTable& t = d.slots;
    for (std::size_t i = 0; i < sk_.slots.size(); ++i) {
      const Slot& s = sk_.slots[i];
      t.names.push_back(s.name);
      t.bone.push_back(check_bone(s.bone, json::path_key(json::path_index("slots", i), "bone")));
      t.setup_attachment.push_back(s.attachment.empty() ? -1 : names_.at(s.attachment));
      t.color.push_back(s.color);
      t.dark.push_back(s.dark ? *s.dark : Rgba8{0, 0, 0, 0});
      t.has_dark.push_back(s.dark ? 1 : 0);
      t.blend.push_back(static_cast<skel::BlendMode>(s.blend));
    }
  }

  void build_events(skel::SkeletonData& d) const {
    for (const EventDef& e : sk_.events)
      d.events.push_back({e.name, e.int_value, e.float_value, e.string_value, e.audio, e.volume, e.balance});
  }

  void build_constraints(skel::SkeletonData& d) const {
    for (std::size_t i = 0; i < sk_.ik.size(); ++i) {
      const IkConstraint& c = sk_.ik[i];
      const std::string path = json::path_index("ik", i);
      skel::IkData o;
      o.name = c.name;
      o.bones = bone_list(c.bones, json::path_key(path, "bones"));
      if (o.bones.size() > 2)
        fail(file_, json::path_key(path, "bones"), "an ik constraint takes 1 or 2 bones, found " +
                                                       std::to_string(o.bones.size()));
      o.target = check_bone(c.target, json::path_key(path, "target"));
      o.mix = c.mix;
      o.softness = c.softness * scale_;
      o.bend = static_cast<std::int8_t>(c.bend < 0 ? -1 : 1);
      o.compress = c.compress;
      o.stretch = c.stretch;
      o.uniform = c.uniform;
      o.skin_required = c.skin_required;
      d.ik.push_back(std::move(o));
    }
    for (std::size_t i = 0; i < sk_.transform.size(); ++i) {
      const TransformConstraint& c = sk_.transform[i];
      const std::string path = json::path_index("transform", i);
      skel::TransformData o;
      o.name = c.name;
      o.bones = bone_list(c.bones, json::path_key(path, "bones"));
      o.target = check_bone(c.target, json::path_key(path, "target"));
      o.mix_rotate = c.mix_rotate;
      o.mix_x = c.mix_x;
      o.mix_y = c.mix_y;
      o.mix_scale_x = c.mix_scale_x;
      o.mix_scale_y = c.mix_scale_y;
      o.mix_shear_y = c.mix_shear_y;
      o.offset_rotation = c.offset_rotation;
      o.offset_x = c.offset_x * scale_;  // translation offsets are pixels
      o.offset_y = c.offset_y * scale_;
      o.offset_scale_x = c.offset_scale_x;
      o.offset_scale_y = c.offset_scale_y;
      o.offset_shear_y = c.offset_shear_y;
      o.local = c.local;
      o.relative = c.relative;
      o.skin_required = c.skin_required;
      d.transform.push_back(std::move(o));
    }
    for (std::size_t i = 0; i < sk_.path.size(); ++i) {
      const PathConstraint& c = sk_.path[i];
      const std::string path = json::path_index("path", i);
      skel::PathData o;
      o.name = c.name;
      o.bones = bone_list(c.bones, json::path_key(path, "bones"));
      if (c.target < 0 || static_cast<std::size_t>(c.target) >= sk_.slots.size())
        fail(file_, json::path_key(path, "target"), "slot index " + std::to_string(c.target) + " is out of range");
      o.target_slot = c.target;
      o.position_mode = static_cast<skel::PositionMode>(c.position_mode);
      o.spacing_mode = static_cast<skel::SpacingMode>(c.spacing_mode);
      o.rotate_mode = static_cast<skel::RotateMode>(c.rotate_mode);
      o.offset_rotation = c.offset_rotation;
      o.position = c.position_mode == PositionMode::Fixed ? c.position * scale_ : c.position;
      const bool pixel_spacing = c.spacing_mode == SpacingMode::Length || c.spacing_mode == SpacingMode::Fixed;
      o.spacing = pixel_spacing ? c.spacing * scale_ : c.spacing;
      o.mix_rotate = c.mix_rotate;
      o.mix_x = c.mix_x;
      o.mix_y = c.mix_y;
      o.skin_required = c.skin_required;
      d.path.push_back(std::move(o));
    }
    for (std::size_t i = 0; i < sk_.physics.size(); ++i) {
      const PhysicsConstraint& c = sk_.physics[i];
      const std::string path = json::path_index("physics", i);
      if (!(c.fps > 0)) fail(file_, json::path_key(path, "fps"), "fps must be > 0");
      if (!(c.mass > 0)) fail(file_, json::path_key(path, "mass"), "mass must be > 0");
      skel::PhysicsData o;
      o.name = c.name;
      o.bone = check_bone(c.bone, json::path_key(path, "bone"));
      o.x = c.x;
      o.y = c.y;
      o.rotate = c.rotate;
      o.scale_x = c.scale_x;
      o.shear_x = c.shear_x;
      o.limit = c.limit * scale_;
      o.step = 1.0f / c.fps;
      o.inertia = c.inertia;
      o.strength = c.strength;
      o.damping = c.damping;
      o.mass_inverse = 1.0f / c.mass;
      o.wind = c.wind;
      o.gravity = c.gravity;
      o.mix = c.mix;
      o.skin_required = c.skin_required;
      d.physics.push_back(std::move(o));
    }
  }

  // ---- update order ----

  struct Step {
    skel::UpdateKind kind;
    std::int32_t index;
  };

  static skel::UpdateKind update_kind(ConstraintKind kind) {
    switch (kind) {
      case ConstraintKind::Transform: return skel::UpdateKind::Transform;
      case ConstraintKind::Path: return skel::UpdateKind::Path;
      case ConstraintKind::Physics: return skel::UpdateKind::Physics;
      case ConstraintKind::Ik: break;
    }
    return skel::UpdateKind::Ik;
  }

  // Bones whose world transforms a constraint reads, and those it changes.
  void constraint_bones(const skel::SkeletonData& d, const Step& s, std::vector<std::int32_t>& reads,
                        std::vector<std::int32_t>& changes) const {
    const auto i = static_cast<std::size_t>(s.index);
    switch (s.kind) {
      case skel::UpdateKind::Ik:
        reads.push_back(d.ik[i].target);
        changes = d.ik[i].bones;
        break;
      case skel::UpdateKind::Transform:
        reads.push_back(d.transform[i].target);
        changes = d.transform[i].bones;
        break;
      case skel::UpdateKind::Path: {
        const std::int32_t slot = d.path[i].target_slot;
        reads.push_back(d.slots.bone[static_cast<std::size_t>(slot)]);
        // A weighted path follows the bones that weight it, in whichever skin shows it.
        for (const skel::AttachmentRecord& a : d.attachments) {
          if (a.slot != slot || a.kind != skel::AttachmentKind::Path) continue;
          for (std::uint32_t v = a.vertex_start; v < a.vertex_start + a.vertex_count; ++v) {
            const skel::VertexInfluences& vi = d.vertices[v];
            for (std::uint32_t k = vi.first; k < vi.first + vi.count; ++k) reads.push_back(d.influences[k].bone);
          }
        }
        changes = d.path[i].bones;
        break;
      }
      case skel::UpdateKind::Physics:
        changes = {d.physics[i].bone};
        break;
      case skel::UpdateKind::Bone: break;
    }
    // A solver starts from the constrained bones' current world transforms and their parents'.
    for (std::int32_t b : changes) {
      reads.push_back(b);
      if (d.bones.parent[static_cast<std::size_t>(b)] >= 0) reads.push_back(d.bones.parent[static_cast<std::size_t>(b)]);
    }
  }

  void build_update_order(skel::SkeletonData& d) const {
    // Explicit orders first (sorted), then the rest in the default order: SkeletonSource::update_order.
    std::vector<Step> steps;
    for (const ConstraintRef& ref : sk_.update_order()) {
      const std::optional<int>& order = sk_.constraint_order(ref);
      if (order && *order < 0)
        fail(file_, json::path_key(json::path_index(to_string(ref.kind), static_cast<std::size_t>(ref.index)), "order"),
             "order must be >= 0, found " + std::to_string(*order));
      steps.push_back({update_kind(ref.kind), ref.index});
    }

    const std::size_t bone_count = d.bones.size();
    std::vector<std::uint8_t> fresh(bone_count, 0);
    std::vector<std::vector<std::int32_t>> children(bone_count);
    for (std::size_t b = 0; b < bone_count; ++b)
      if (d.bones.parent[b] >= 0) children[static_cast<std::size_t>(d.bones.parent[b])].push_back(static_cast<std::int32_t>(b));

    auto emit = [&](std::int32_t bone) {
      std::vector<std::int32_t> chain;  // the bone and its stale ancestors, emitted root first
      for (std::int32_t b = bone; b >= 0 && !fresh[static_cast<std::size_t>(b)]; b = d.bones.parent[static_cast<std::size_t>(b)])
        chain.push_back(b);
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        d.update_order.push_back({skel::UpdateKind::Bone, *it});
        fresh[static_cast<std::size_t>(*it)] = 1;
      }
    };
    auto stale = [&](std::int32_t bone) {
      std::vector<std::int32_t> todo{bone};
      while (!todo.empty()) {
        const std::int32_t b = todo.back();
        todo.pop_back();
        fresh[static_cast<std::size_t>(b)] = 0;
        for (std::int32_t c : children[static_cast<std::size_t>(b)]) todo.push_back(c);
      }
    };

    for (const Step& s : steps) {
      std::vector<std::int32_t> reads, changes;
      constraint_bones(d, s, reads, changes);
      for (std::int32_t b : reads) emit(b);
      d.update_order.push_back({s.kind, s.index});
      d.constraint_steps.push_back({s.kind, s.index});
      for (std::int32_t b : changes) stale(b);
    }
    for (std::size_t b = 0; b < bone_count; ++b) emit(static_cast<std::int32_t>(b));
  }

  void build_skin_lists(skel::SkeletonData& d) const {
    std::map<std::pair<ConstraintKind, int>, std::int32_t> ids;
    for (std::size_t i = 0; i < d.constraint_steps.size(); ++i) {
      const skel::UpdateStep& s = d.constraint_steps[i];
      const ConstraintKind kind = s.kind == skel::UpdateKind::Ik          ? ConstraintKind::Ik
                                  : s.kind == skel::UpdateKind::Transform ? ConstraintKind::Transform
                                  : s.kind == skel::UpdateKind::Path      ? ConstraintKind::Path
                                                                          : ConstraintKind::Physics;
      ids.emplace(std::pair(kind, s.index), static_cast<std::int32_t>(i));
    }
    for (std::size_t s = 0; s < sk_.skins.size(); ++s) {
      const Skin& skin = sk_.skins[s];
      const std::string path = json::path_index("skins", s);
      for (std::size_t i = 0; i < skin.bones.size(); ++i)
        d.skins[s].bones.push_back(check_bone(skin.bones[i], json::path_index(json::path_key(path, "bones"), i)));
      for (std::size_t i = 0; i < skin.constraints.size(); ++i) {
        const auto it = ids.find(std::pair(skin.constraints[i].kind, skin.constraints[i].index));
        if (it == ids.end())
          fail(file_, json::path_key(path, to_string(skin.constraints[i].kind)),
               std::string(to_string(skin.constraints[i].kind)) + " constraint index " +
                   std::to_string(skin.constraints[i].index) + " is out of range");
        d.skins[s].constraints.push_back(it->second);
      }
      // Ids in update order, whatever order the skin's per-kind lists give.
      std::sort(d.skins[s].constraints.begin(), d.skins[s].constraints.end());
    }
  }

  const SkeletonSource& sk_;
  const ImageLookup& images_;
  const std::string& file_;
  const float scale_;
  std::map<std::string, std::int32_t> names_;
  BuildResult result_;
};

}  // namespace

BuildResult compile_skeleton(const SkeletonSource& skeleton, const ImageLookup& images, const std::string& name,
                             const std::string& file) {
  return SkeletonCompiler(skeleton, images, file).run(name);
}

}  // namespace build_detail

namespace {

namespace fs = std::filesystem;
using build_detail::BuildFailure;

// Line and column of errors that name a JSON path of `file`, from the positions its reader kept.
void locate(std::vector<Error*> errors, const std::string& file, const json::SourceMap& positions) {
  for (Error* e : errors)
    if (e->file == file && !e->path.empty() && !e->position.known())
      if (const json::SourceMap::Entry* v = positions.find(e->path)) e->position = v->position;
}

}  // namespace

Expected<BuildResult> build_skeleton(const SkeletonSource& skeleton, const ImageSizeFn& image_size, const std::string& name,
                                     const std::string& file) {
  const build_detail::ImageLookup lookup = [&](const std::string& image) -> std::variant<AtlasSource, std::string> {
    if (std::optional<ImageSize> size = image_size ? image_size(image) : std::nullopt) {
      AtlasSource source;
      source.name = image;
      source.width = size->width;
      source.height = size->height;
      return source;
    }
    return std::string("no such image");
  };
  try {
    return build_detail::compile_skeleton(skeleton, lookup, name, file);
  } catch (const BuildFailure& f) {
    return Unexpected{f.error};
  }
}

Expected<BuildResult> build_rig(const Rig& rig) {
  const std::string folder = images_folder(rig);
  const std::string& suffix = rig.skeleton.import.normal_suffix;
  const build_detail::ImageLookup lookup = [&](const std::string& image) -> std::variant<AtlasSource, std::string> {
    const std::string path = (fs::path(folder) / (image + ".png")).string();
    std::error_code ec;
    if (!fs::exists(path, ec)) return "there is no file " + path;
    Expected<imaging::Image> pixels = imaging::read_png(path);
    if (!pixels) return pixels.error().to_string();
    AtlasSource source;
    source.name = image;
    source.width = pixels->width;
    source.height = pixels->height;
    source.pixels = std::move(*pixels);
    const std::string normal_path = (fs::path(folder) / (image + suffix + ".png")).string();
    if (!suffix.empty() && fs::is_regular_file(normal_path, ec)) {
      Expected<imaging::Image> normal = imaging::read_png(normal_path);
      if (!normal) return "its normal map: " + normal.error().to_string();
      if (normal->width != source.width || normal->height != source.height)
        return "its normal map " + normal_path + " is " + std::to_string(normal->width) + "x" +
               std::to_string(normal->height) + " pixels, the image " + std::to_string(source.width) + "x" +
               std::to_string(source.height);
      source.normal = std::move(*normal);
    }
    return source;
  };

  BuildResult result;
  try {
    result = build_detail::compile_skeleton(rig.skeleton, lookup, fs::path(rig.path).stem().string(), rig.path);
  } catch (const BuildFailure& f) {
    Error error = f.error;
    locate({&error}, rig.path, rig.skeleton.positions);
    return Unexpected{error};
  }
  if (!result.warnings.empty()) {
    std::vector<Error*> warnings;
    for (Error& w : result.warnings) warnings.push_back(&w);
    locate(warnings, rig.path, rig.skeleton.positions);
  }

  // Every clip is listed by name and length now; its timelines compile when it is first loaded.
  for (const ClipFile& source : rig.clips) {
    Expected<ClipSource> clip = load_clip(rig, source.name);
    if (!clip) return Unexpected{clip.error()};
    result.data->clips.push_back({source.name, clip->length, nullptr});
  }
  const auto shared = std::make_shared<const Rig>(rig);  // the source stays alive with the loader
  result.data->loader = [shared](const skel::SkeletonData& data,
                                 int index) -> Expected<std::shared_ptr<skel::ClipData>> {
    if (index < 0 || static_cast<std::size_t>(index) >= data.clips.size())
      return Unexpected{Error{shared->path, {}, {}, "no clip with index " + std::to_string(index)}};
    const std::string& name = data.clips[static_cast<std::size_t>(index)].name;
    Expected<ClipSource> clip = load_clip(*shared, name);
    if (!clip) return Unexpected{clip.error()};
    const auto source = std::find_if(shared->clips.begin(), shared->clips.end(),
                                     [&](const ClipFile& c) { return c.name == name; });
    const std::string file = source != shared->clips.end() ? source->path : name;
    Expected<skel::ClipData> compiled = compile_clip(*clip, shared->skeleton, data, name, file);
    if (!compiled) {
      Error error = compiled.error();
      locate({&error}, file, clip->positions);
      return Unexpected{error};
    }
    return std::make_shared<skel::ClipData>(std::move(compiled).value());
  };
  return result;
}

Expected<BuildResult> build_rig_file(const std::string& mskel_path) {
  Expected<Rig> rig = load_rig(mskel_path);
  if (!rig) return Unexpected{rig.error()};
  Expected<BuildResult> result = build_rig(*rig);
  if (!result) return result;
  if (Status loaded = result->data->load_all_clips(); !loaded) return Unexpected{loaded.error()};
  return result;
}

}  // namespace mf::offline
