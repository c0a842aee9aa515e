#pragma once
// SkeletonHitboxes2D: a child of a Skeleton2D that turns its bounding-box attachments into Box2D
// bodies in the nearest PhysicsSpace2D above it.
//
// Building (on entering the tree, and again when the skeleton's data changes): one body per
// (slot, bounding-box attachment of that slot), for the slots named in `slots` (all slots when empty).
// Each polygon is cut at build time into convex pieces of at most 8 points (convex_pieces:
// Hertel–Mehlhorn), one fixture each. Mode Area: sensor fixtures on a dynamic body without gravity
// (Box2D reports no contacts between kinematic and static bodies, and a sensor never pushes); Mode
// KinematicBody: solid fixtures on a kinematic body that pushes dynamic bodies. CollisionLayer and
// CollisionMask are Box2D's 16-bit category and mask bits.
//
// Following the pose, in this node's on_physics_process (after its skeleton's tick in tree order, and
// before the space steps): a body is enabled while its slot shows its attachment (and the slot's bone
// is active), disabled otherwise. Its place is the slot bone's on the canvas (position and rotation,
// reached over the step by velocity, teleported when it turns on); its points are the attachment's
// world vertices (skinned on the CPU, with the pose's deform) in that frame. A box whose points did not
// move in the bone's frame (unweighted, not deformed, no bone scale change) keeps its fixtures; others
// get their pieces' points replaced (set_polygon). A piece that a deformation made non-convex or
// degenerate keeps its last valid shape (stale_piece_updates counts them).
//
// Timing: with the skeleton in UpdateMode Physics, the shapes match the pose of the same physics step;
// with Process, the pose comes from the previous frame's process tick: the shapes lag the drawn pose by
// up to one tick.
//
// Signals, deferred to the end of the step: hitbox_entered(this, slot name (the data's), other node) when a slot's
// first fixture starts touching a node's body, hitbox_exited when its last stops.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mf/scene/node_2d.hpp"
#include "mf/scene/physics2d/physics_space_2d.hpp"
#include "mf/scene/signal.hpp"

namespace mf::scene {

class Skeleton2D;

enum class HitboxMode : std::uint8_t { Area, KinematicBody };

class SkeletonHitboxes2D : public Node2D, private ContactReceiver2D {
 public:
  struct Hitbox {
    int slot = -1;
    int attachment = -1;
    BodyHandle body;
    std::vector<std::vector<int>> pieces;  // vertex indices of each convex piece
    std::vector<Vec2> canvas;              // the points of the last update, on the canvas
    std::vector<Vec2> local;               // the same in the body's frame, as the fixtures hold them
    bool active = false;
  };

  explicit SkeletonHitboxes2D(std::string name);
  ~SkeletonHitboxes2D() override;

  // Changing these inside the tree rebuilds the bodies at the next physics tick.
  void set_mode(HitboxMode mode);
  HitboxMode mode() const { return mode_; }
  // Errors for bits above Box2D's 16 (the value is not taken).
  Status set_collision_layer(std::uint32_t layer);
  Status set_collision_mask(std::uint32_t mask);
  std::uint32_t collision_layer() const { return layer_; }
  std::uint32_t collision_mask() const { return mask_; }
  void set_slots(std::vector<std::string> slots);
  const std::vector<std::string>& slots() const { return slots_; }

  const std::vector<Hitbox>& hitboxes() const { return hitboxes_; }
  // What went wrong in the last build (no Skeleton2D parent, no space, an unknown slot, a polygon that
  // cannot be cut), with this node's path; empty when it built.
  const std::string& build_error() const { return error_; }
  std::uint64_t shape_updates() const { return shape_updates_; }
  std::uint64_t stale_piece_updates() const { return stale_updates_; }

  Signal<SkeletonHitboxes2D*, const std::string*, Node*> hitbox_entered;
  Signal<SkeletonHitboxes2D*, const std::string*, Node*> hitbox_exited;

 protected:
  void on_enter_tree() override;
  void on_exit_tree() override;
  void on_physics_process(float step) override;

 private:
  struct Overlap {
    int slot;
    Node* other;
    int count;
  };

  void on_contact(ContactKind kind, std::uint32_t part, Node* other, std::uint32_t other_part, bool sensor) override;
  Node* contact_node() override { return this; }

  void build();
  void release();
  Status build_hitbox(Hitbox& h);
  // The slot bone's place on the canvas and the box's points, canvas and body frame, into h.
  void measure(Hitbox& h, Vec2& origin, float& angle);
  bool update_shape(Hitbox& h);

  Skeleton2D* skeleton_ = nullptr;
  PhysicsSpace2D* space_ = nullptr;
  const void* built_data_ = nullptr;
  std::uint32_t key_ = 0;
  bool dirty_ = true;
  HitboxMode mode_ = HitboxMode::Area;
  std::uint32_t layer_ = 1, mask_ = 1;
  std::vector<std::string> slots_;
  std::vector<Hitbox> hitboxes_;
  std::vector<float> scratch_;     // world vertices, 2 floats each
  std::vector<Vec2> previous_;     // a hitbox's body-frame points before an update
  std::vector<Overlap> overlaps_;
  std::string error_;
  std::uint64_t shape_updates_ = 0, stale_updates_ = 0;
};

}  // namespace mf::scene
