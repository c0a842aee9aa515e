#include "mf/offline/check/rig_check.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <type_traits>
#include <variant>

#include "mf/core/file_io.hpp"
#include "mf/core/math/affine2.hpp"
#include "mf/core/math/bone_local.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/json/source_location.hpp"
#include "mf/offline/json/json_path.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/offline/format/setup_world.hpp"
#include "mf/skel/clip_sampler.hpp"
#include "mf/skel/constraints.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::offline {
namespace {

namespace fs = std::filesystem;
using json::path_index;
using json::path_key;

std::string num(float v) { return json::format_float(v); }

// A two-bone IK target further than the chain's reach by more than this (pixels) at a sampled time of
// a clip is reported as out of reach.
constexpr double kIkReachSlack = 0.5;

// A source file's positions as its reader kept them (Skeleton::positions, Clip::positions). The
// readers have accepted the file, so paths built from the model exist in it, but a missing path only
// costs the position. The readers keep the file's order and reject duplicate names, so an index in
// the model is the index in the file.
struct Doc {
  std::string file;
  json::SourceMap positions;

  const json::SourceMap::Entry* find(const std::string& path) const { return positions.find(path); }

  // The position of `path`, or of its deepest ancestor that exists.
  TextPosition position(const std::string& path) const { return positions.nearest(path); }
};

class Checker {
 public:
  Checker(const Rig& rig, std::vector<Finding>& out) : rig_(rig), out_(out) {}

  void check_skeleton() {
    const Doc doc{rig_.path, rig_.skeleton.positions};
    const SkeletonSource& sk = rig_.skeleton;
    for (std::size_t s = 0; s < sk.skins.size(); ++s) {
      const Skin& skin = sk.skins[s];
      const std::string attachments_path = path_key(path_index("skins", s), "attachments");
      for (std::size_t a = 0; a < skin.attachments.size(); ++a)
        check_attachment(doc, skin.attachments[a], path_index(attachments_path, a));
    }
    check_ik_setup(doc);
  }

  void check_clip(const ClipFile& source) {
    Expected<std::string> text = read_file(source.path);
    if (!text) return add(Severity::Error, text.error());
    Expected<ClipSource> read = read_clip(*text, source.path, &rig_.skeleton);
    if (!read) return add(Severity::Error, read.error());
    const ClipSource& clip = *read;
    const Doc doc{source.path, clip.positions};
    clip_docs_[source.path] = doc;  // for the runtime checks of the clip

    if (clip.skeleton_uid != rig_.skeleton.uid)
      add(Severity::Error, doc, "skeleton.uid",
          "the clip animates skeleton \"" + clip.skeleton_uid + "\", not this rig's \"" + rig_.skeleton.uid + "\"");

    for (const CurveTimeline& tl : clip.curves) check_curve_timeline(doc, clip, tl);
    for (const InheritTimeline& tl : clip.inherits)
      check_times(doc, clip, path_key(path_key("bones", tl.bone), "inherit"), tl.times);
    for (const AttachmentTimeline& tl : clip.attachments)
      check_times(doc, clip, path_key(path_key("slots", tl.slot), "attachment"), tl.times);
    for (const SequenceTimeline& tl : clip.sequences)
      check_times(doc, clip, path_key(path_key("slots", tl.slot), "sequence"), tl.times);
    for (const PhysicsResetTimeline& tl : clip.physics_resets)
      check_times(doc, clip, path_key(path_key("physics", tl.constraint), "reset"), tl.times);
    for (const DeformTimeline& tl : clip.deforms) {
      const std::string base =
          path_key(path_key(path_key("deform", tl.skin), tl.slot), tl.attachment);
      check_times(doc, clip, base, tl.times);
      for (std::size_t seg = 0; seg < tl.curves.size(); ++seg) check_bezier(doc, base, seg, 0, tl.curves[seg]);
    }
    check_times(doc, clip, "drawOrder", clip.draw_order.times);
    check_times(doc, clip, "events", clip.events.times);
  }

  // The checks that need the runtime build the rig with the clips being checked that read (a clip
  // that does not read or compile is left out: check_clip reports why). A rig that does not build is
  // an error unless the other checks already found one (they say why); then the runtime checks are
  // skipped.
  void build_runtime(const std::vector<const ClipFile*>& sources) {
    Rig rig = rig_;
    rig.clips.clear();
    for (const ClipFile* source : sources)
      if (load_clip(rig_, source->name)) rig.clips.push_back(*source);
    Expected<BuildResult> built = build_rig(rig);
    if (!built) {
      if (!has_errors(out_)) add(Severity::Error, built.error());
      return;
    }
    runtime_ = built->data;
  }

  // Each clip is sampled at its keys and halfway between them, with the update order solved.
  void check_clip_runtime(const ClipFile& source) {
    if (!runtime_) return;
    const int clip = runtime_->find_clip(source.name);
    if (clip < 0 || !runtime_->load_clip(clip)) return;
    check_ik_reach_over_clip(*runtime_, clip, source);
  }

 private:
  void add(Severity severity, Error error) { out_.push_back({severity, std::move(error)}); }
  void add(Severity severity, const Doc& doc, const std::string& path, const std::string& message) {
    add(severity, Error{doc.file, path, doc.position(path), message});
  }

  // ---- skeleton ----

  void check_attachment(const Doc& doc, const Attachment& att, const std::string& path) {
    std::visit(
        [&](const auto& data) {
          using T = std::decay_t<decltype(data)>;
          if constexpr (std::is_same_v<T, RegionAttachment> || std::is_same_v<T, MeshAttachment> ||
                        std::is_same_v<T, LinkedMeshAttachment>)
            check_images(doc, att.name, data.image, data.sequence, path);
          if constexpr (std::is_same_v<T, MeshAttachment> || std::is_same_v<T, BoundingBoxAttachment> ||
                        std::is_same_v<T, ClippingAttachment> || std::is_same_v<T, PathAttachment>)
            check_weights(doc, data.vertices, path);
        },
        att.data);
  }

  void check_weights(const Doc& doc, const Vertices& vertices, const std::string& path) {
    const std::string v_path = path_key(path_key(path, "weights"), "v");
    for (std::size_t i = 0; i < vertices.weights.size(); ++i) {
      const std::vector<InfluenceSource>& influences = vertices.weights[i];
      double sum = 0;
      for (const InfluenceSource& in : influences) sum += in.weight;
      const std::string at = path_index(v_path, i);
      if (std::fabs(sum - 1) > kWeightSumTolerance)
        add(Severity::Error, doc, at,
            "the weights of this vertex sum to " + num(static_cast<float>(sum)) + ", not 1 (tolerance " +
                num(kWeightSumTolerance) + ")");
      if (influences.size() > static_cast<std::size_t>(kMaxInfluences))
        add(Severity::Warning, doc, at,
            std::to_string(influences.size()) + " influences, more than " + std::to_string(kMaxInfluences) +
                ": the build renormalises it to " + std::to_string(kMaxInfluences));
    }
  }

  void check_images(const Doc& doc, const std::string& attachment_name, const std::string& image,
                    const std::optional<Sequence>& sequence, const std::string& path) {
    const std::string base = image.empty() ? attachment_name : image;
    const json::SourceMap::Entry* att = doc.find(path);
    const bool explicit_image = att && att->member("image");
    const std::string image_path = path_key(path, explicit_image ? "image" : "name");
    if (!sequence) {
      check_image_file(doc, base, image_path, "");
      return;
    }
    for (int k = 0; k < sequence->count; ++k) {
      std::string number = std::to_string(sequence->start + k);
      if (number.size() < static_cast<std::size_t>(sequence->digits))
        number.insert(0, static_cast<std::size_t>(sequence->digits) - number.size(), '0');
      check_image_file(doc, base + number, path_key(path, "sequence"),
                       " (frame " + std::to_string(k) + " of the sequence)");
    }
  }

  void check_image_file(const Doc& doc, const std::string& name, const std::string& path, const std::string& note) {
    const std::string file = (fs::path(images_folder(rig_)) / (name + ".png")).string();
    std::error_code ec;
    if (fs::is_regular_file(file, ec)) return;
    add(Severity::Error, doc, path, "image \"" + name + "\" is missing: no file " + file + note);
  }

  void check_ik_setup(const Doc& doc) {
    const SkeletonSource& sk = rig_.skeleton;
    const auto world = setup_world_transforms(rig_.skeleton);
    for (std::size_t i = 0; i < sk.ik.size(); ++i) {
      const IkConstraint& ik = sk.ik[i];
      const std::string ik_path = path_index("ik", i);
      for (std::size_t j = 0; j < ik.bones.size(); ++j) {
        const Bone& bone = sk.bones[static_cast<std::size_t>(ik.bones[j])];
        if (bone.shear_x == 0 && bone.shear_y == 0) continue;
        add(Severity::Warning, doc, path_index(path_key(ik_path, "bones"), j),
            "bone \"" + bone.name + "\" has setup shear (shx " + num(bone.shear_x) + ", shy " + num(bone.shear_y) +
                ") but is in IK constraint \"" + ik.name + "\", which solves for rotation only");
      }
      if (ik.bones.size() != 2 || ik.stretch || ik.mix == 0) continue;
      const auto& parent = world[static_cast<std::size_t>(ik.bones[0])];
      const auto& child = world[static_cast<std::size_t>(ik.bones[1])];
      const auto& target = world[static_cast<std::size_t>(ik.target)];
      if (!parent || !child || !target) continue;
      const double child_length = sk.bones[static_cast<std::size_t>(ik.bones[1])].length;
      const double reach = std::hypot(child->x - parent->x, child->y - parent->y) +
                           child_length * std::hypot(child->a, child->c);
      const double distance = std::hypot(target->x - parent->x, target->y - parent->y);
      if (distance <= reach * (1 + 1e-3) + 1e-3) continue;
      add(Severity::Warning, doc, path_key(ik_path, "target"),
          "target \"" + sk.bones[static_cast<std::size_t>(ik.target)].name + "\" is " +
              num(static_cast<float>(distance)) + " px from the chain's root in the setup pose, beyond its reach of " +
              num(static_cast<float>(reach)) + " px");
    }
  }

  // ---- clips ----

  static std::string timeline_path(const CurveTimeline& tl) {
    const CurveLayout& lay = layout(tl.kind);
    switch (lay.target) {
      case TimelineTarget::Bone: return path_key(path_key("bones", tl.target), lay.name);
      case TimelineTarget::Slot: return path_key(path_key("slots", tl.target), lay.name);
      case TimelineTarget::Ik: return path_key("ik", tl.target);
      case TimelineTarget::Transform: return path_key("transform", tl.target);
      case TimelineTarget::Path: return path_key("path", tl.target);
      case TimelineTarget::Physics: return path_key(path_key("physics", tl.target), lay.name);
    }
    return {};
  }

  void check_times(const Doc& doc, const ClipSource& clip, const std::string& base, const std::vector<float>& times) {
    for (std::size_t i = 0; i < times.size(); ++i) {
      if (times[i] <= clip.length) continue;
      add(Severity::Error, doc, path_index(path_key(base, "t"), i),
          "key at " + num(times[i]) + " s is past the clip's length of " + num(clip.length) + " s");
    }
  }

  // One curve entry of a timeline; `component` counts the interpolated components the file lists.
  void check_bezier(const Doc& doc, const std::string& base, std::size_t segment, std::size_t component,
                    const Curve& curve) {
    if (curve.type != CurveType::Bezier) return;
    std::string path = path_index(path_key(base, "curve"), segment);
    const json::SourceMap::Entry* entry = doc.find(path);
    const bool per_component = entry && entry->type == json::Type::Array && !entry->children.empty() &&
                               (entry->children[0].type == json::Type::Array ||
                                entry->children[0].type == json::Type::String);
    if (per_component)
      path = path_index(path, component);
    else if (component > 0)
      return;  // one shared curve: reported with the first component
    for (float x : {curve.cx1, curve.cx2}) {
      if (x >= 0 && x <= 1) continue;
      add(Severity::Error, doc, path,
          "bezier x control value " + num(x) + " is outside [0, 1] (x is the time fraction; y is free)");
      return;
    }
  }

  void check_curve_timeline(const Doc& doc, const ClipSource& clip, const CurveTimeline& tl) {
    const CurveLayout& lay = layout(tl.kind);
    const std::string base = timeline_path(tl);
    check_times(doc, clip, base, tl.times);

    const std::size_t curved = static_cast<std::size_t>(lay.curved);
    const std::size_t segments = tl.times.empty() ? 0 : tl.times.size() - 1;
    for (std::size_t seg = 0; seg < segments && (seg + 1) * curved <= tl.curves.size(); ++seg) {
      std::size_t listed = 0;  // index among the interpolated components the file holds
      for (std::size_t c = 0; c < curved; ++c) {
        if (!tl.keyed(static_cast<int>(c))) continue;
        check_bezier(doc, base, seg, listed++, tl.curves[seg * curved + c]);
      }
    }

    if (tl.kind == CurveKind::Rotate) check_joint_flips(doc, tl, base);
    if (lay.target == TimelineTarget::Bone &&
        (tl.kind == CurveKind::Shear || tl.kind == CurveKind::ShearX || tl.kind == CurveKind::ShearY))
      check_ik_shear_keys(doc, tl, base);
  }

  void check_joint_flips(const Doc& doc, const CurveTimeline& tl, const std::string& base) {
    for (std::size_t i = 0; i + 1 < tl.times.size(); ++i) {
      if (i < tl.curves.size() && tl.curves[i].type == CurveType::Stepped) continue;  // no in-between frames
      const float from = tl.values[i], to = tl.values[i + 1];
      const float turn = to - from;
      if (std::fabs(turn) <= kJointFlipDegrees) continue;
      const float short_way = to - 360 * std::round(turn / 360);
      add(Severity::Warning, doc, path_index(path_key(base, "v"), i + 1),
          "rotation turns " + num(turn) + "° between the keys at " + num(tl.times[i]) + " s and " +
              num(tl.times[i + 1]) + " s (more than " + num(kJointFlipDegrees) +
              "°): the joint spins the long way; a key of " + num(short_way) + " reaches the same pose the short way");
    }
  }

  void check_ik_shear_keys(const Doc& doc, const CurveTimeline& tl, const std::string& base) {
    const SkeletonSource& sk = rig_.skeleton;
    const int bone = sk.find_bone(tl.target);
    if (bone < 0 || std::all_of(tl.values.begin(), tl.values.end(), [](float v) { return v == 0; })) return;
    for (const IkConstraint& ik : sk.ik) {
      if (std::find(ik.bones.begin(), ik.bones.end(), bone) == ik.bones.end()) continue;
      add(Severity::Warning, doc, base,
          "bone \"" + tl.target + "\" is in IK constraint \"" + ik.name +
              "\", which solves for rotation only, but this clip shears it");
      return;
    }
  }

  // ---- runtime ----

  // Times a clip is checked at: 0, its length, every key within them and the midpoints between
  // neighbours.
  static std::vector<float> sample_times(const skel::ClipData& clip) {
    std::vector<float> keys{0, clip.length};
    for (const float t : clip.times)
      if (t >= 0 && t <= clip.length) keys.push_back(t);
    for (const skel::EventKey& e : clip.events)
      if (e.time >= 0 && e.time <= clip.length) keys.push_back(e.time);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::vector<float> times;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (i > 0) times.push_back((keys[i - 1] + keys[i]) / 2);
      times.push_back(keys[i]);
    }
    return times;
  }

  // Two-bone IK chains whose target is further from the chain's root than the chain reaches (the
  // distance from the parent's origin to the child's plus the child's world length), by more than
  // kIkReachSlack, while the constraint is active, its mix is above 0 and it does not stretch: the
  // chain points at the target and misses it. Distances are measured once the whole update order is
  // solved. One warning per clip and constraint, at the clip's ik timeline for the constraint, else at
  // the target bone's timelines, else at the clip.
  void check_ik_reach_over_clip(const skel::SkeletonData& data, int clip, const ClipFile& source) {
    struct Miss {
      int count = 0;
      float first = 0, worst_time = 0;
      double worst_distance = 0, worst_reach = 0;
    };
    std::vector<std::int32_t> ids(data.ik.size(), -1);  // constraint id of each ik constraint
    for (std::size_t id = 0; id < data.constraint_steps.size(); ++id)
      if (data.constraint_steps[id].kind == skel::UpdateKind::Ik)
        ids[static_cast<std::size_t>(data.constraint_steps[id].index)] = static_cast<std::int32_t>(id);
    std::vector<Miss> misses(data.ik.size());

    skel::SkeletonPose pose(data);
    skel::ClipSampler sampler(data);
    skel::EventBuffer events;
    skel::FrameContext context;
    context.physics = skel::PhysicsMode::Pose;  // no time passes between the sampled times
    const std::vector<float> times = sample_times(*data.clip(clip));
    for (const float t : times) {
      anim::ClipSample sample;
      sample.clip = clip;
      sample.time = t;
      sample.previous_time = t;
      events.clear();
      sampler.apply(pose, {&sample, 1}, events);
      skel::update_skeleton(pose, context);
      for (std::size_t i = 0; i < data.ik.size(); ++i) {
        const skel::IkData& ik = data.ik[i];
        const skel::IkPose& params = pose.ik[i];
        if (ik.bones.size() != 2 || params.stretch || !(params.mix > 0)) continue;
        if (ids[i] < 0 || !pose.constraint_active[static_cast<std::size_t>(ids[i])]) continue;
        const auto parent = static_cast<std::size_t>(ik.bones[0]), child = static_cast<std::size_t>(ik.bones[1]);
        const auto target = static_cast<std::size_t>(ik.target);
        if (!pose.active[parent] || !pose.active[child] || !pose.active[target]) continue;
        const double reach =
            std::hypot(pose.world_x[child] - pose.world_x[parent], pose.world_y[child] - pose.world_y[parent]) +
            data.bones.length[child] * std::hypot(pose.a[child], pose.c[child]);
        const double distance =
            std::hypot(pose.world_x[target] - pose.world_x[parent], pose.world_y[target] - pose.world_y[parent]);
        if (distance <= reach + kIkReachSlack) continue;
        Miss& m = misses[i];
        if (m.count++ == 0) m.first = t;
        if (distance - reach > m.worst_distance - m.worst_reach) {
          m.worst_time = t;
          m.worst_distance = distance;
          m.worst_reach = reach;
        }
      }
    }

    const auto read = clip_docs_.find(source.path);
    const Doc doc = read != clip_docs_.end() ? read->second : Doc{source.path, {}};
    for (std::size_t i = 0; i < data.ik.size(); ++i) {
      const Miss& m = misses[i];
      if (m.count == 0) continue;
      const skel::IkData& ik = data.ik[i];
      const std::string& target = data.bones.names[static_cast<std::size_t>(ik.target)];
      std::string path = path_key("ik", ik.name);
      if (!doc.find(path)) path = doc.find(path_key("bones", target)) ? path_key("bones", target) : "";
      auto px = [](double v) { return num(static_cast<float>(std::round(v * 100) / 100)); };
      add(Severity::Warning, doc, path,
          "ik constraint \"" + ik.name + "\" cannot reach its target \"" + target + "\" and does not stretch: at " +
              num(m.worst_time) + " s the target is " + px(m.worst_distance) +
              " px from the chain's root, beyond its reach of " + px(m.worst_reach) + " px (out of reach at " +
              std::to_string(m.count) + " of " + std::to_string(times.size()) + " sampled times, first at " +
              num(m.first) + " s)");
    }
  }

  const Rig& rig_;
  std::vector<Finding>& out_;
  std::shared_ptr<skel::SkeletonData> runtime_;  // null when the rig does not build
  std::map<std::string, Doc> clip_docs_;         // by file: the clips check_clip read
};

}  // namespace

std::vector<Finding> check_rig(const Rig& rig, const CheckOptions& options) {
  std::vector<Finding> findings;
  Checker checker(rig, findings);
  checker.check_skeleton();
  std::vector<const ClipFile*> checked;
  if (options.clip) {
    auto source = std::find_if(rig.clips.begin(), rig.clips.end(),
                               [&](const ClipFile& c) { return c.name == *options.clip; });
    if (source == rig.clips.end()) {
      // load_clip words the error, listing the clips there are.
      if (Expected<ClipSource> missing = load_clip(rig, *options.clip); !missing)
        findings.push_back({Severity::Error, missing.error()});
      return findings;
    }
    checked.push_back(&*source);
  } else {
    for (const ClipFile& source : rig.clips) checked.push_back(&source);
  }
  checker.build_runtime(checked);
  for (const ClipFile* source : checked) {
    checker.check_clip(*source);
    checker.check_clip_runtime(*source);
  }
  return findings;
}

}  // namespace mf::offline
