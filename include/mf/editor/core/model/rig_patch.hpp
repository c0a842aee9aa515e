#pragma once
// The difference between two versions of a rig (RigModel), kept small: per list of the skeleton the
// run of items that changed (vector_patch.hpp), per skin its header and attachment run, per clip its
// changed timeline runs. Applied to a Document it edits only what differs, so only the files that
// really changed become dirty, and applying it backward restores the old version exactly.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mf/editor/core/document.hpp"
#include "mf/editor/core/model/vector_patch.hpp"
#include "mf/editor/core/rig_model.hpp"

namespace mf::editor {

class RigPatch {
 public:
  // `before` and `after` have the same clips (both none, or one per document clip in order).
  static RigPatch diff(const RigModel& before, const RigModel& after);

  bool empty() const { return !skeleton_changed() && clips_.empty(); }
  // Applies the patch to `doc` (whose content must be `before` for forward, `after` for backward).
  void apply(Document& doc, bool forward) const;

 private:
  struct SkeletonHeader {
    int format = 0;
    std::string uid;
    int fps = 0;
    offline::ImportSettings import;
    std::string clips;
    friend bool operator==(const SkeletonHeader&, const SkeletonHeader&) = default;
  };
  struct SkinHeader {
    std::string name;
    std::vector<int> bones;
    std::vector<offline::ConstraintRef> constraints;
    friend bool operator==(const SkinHeader&, const SkinHeader&) = default;
  };
  struct SkinChange {
    std::size_t index = 0;
    std::optional<std::pair<SkinHeader, SkinHeader>> header;
    VectorPatch<offline::Attachment> attachments;
  };
  struct ClipHeader {
    int format = 0;
    std::string uid, skeleton_uid, skeleton_path;
    float length = 0;
    int fps = 0;
    offline::LoopMode loop = offline::LoopMode::Linear;
    friend bool operator==(const ClipHeader&, const ClipHeader&) = default;
  };
  struct ClipChange {
    std::size_t index = 0;
    std::optional<std::pair<ClipHeader, ClipHeader>> header;
    VectorPatch<offline::CurveTimeline> curves;
    VectorPatch<offline::InheritTimeline> inherits;
    VectorPatch<offline::AttachmentTimeline> attachments;
    VectorPatch<offline::SequenceTimeline> sequences;
    VectorPatch<offline::DeformTimeline> deforms;
    VectorPatch<offline::PhysicsResetTimeline> physics_resets;
    std::optional<std::pair<offline::DrawOrderTimeline, offline::DrawOrderTimeline>> draw_order;
    std::optional<std::pair<offline::EventTimeline, offline::EventTimeline>> events;
  };

  static SkeletonHeader header_of(const offline::SkeletonSource& s);
  static void set_header(offline::SkeletonSource& s, const SkeletonHeader& h);
  static SkinHeader header_of(const offline::Skin& s);
  static void set_header(offline::Skin& s, const SkinHeader& h);
  static ClipHeader header_of(const offline::ClipSource& c);
  static void set_header(offline::ClipSource& c, const ClipHeader& h);
  bool skeleton_changed() const;

  std::optional<std::pair<SkeletonHeader, SkeletonHeader>> header_;
  VectorPatch<offline::ImageEntry> images_;
  VectorPatch<offline::Bone> bones_;
  VectorPatch<offline::Slot> slots_;
  VectorPatch<offline::IkConstraint> ik_;
  VectorPatch<offline::TransformConstraint> transform_;
  VectorPatch<offline::PathConstraint> path_;
  VectorPatch<offline::PhysicsConstraint> physics_;
  VectorPatch<offline::EventDef> events_;
  // Skins: when the count and order of names stay, per changed skin; otherwise the whole list.
  std::vector<SkinChange> skin_changes_;
  VectorPatch<offline::Skin> skins_;
  std::vector<ClipChange> clips_;
};

}  // namespace mf::editor
