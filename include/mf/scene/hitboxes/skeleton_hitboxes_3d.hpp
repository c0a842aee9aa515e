#pragma once
// SkeletonHitboxes3D: SkeletonHitboxes2D for a SkeletonSprite3D in a PhysicsSpace3D (Bullet). Each
// bounding-box polygon is cut at build time into convex pieces (a Bullet body has one convex shape, so
// each piece is a body of its own) and extruded into a thin prism in the sprite's plane (make_prism:
// `depth`, default 0.1 m). Mode Area: ghost bodies (overlaps only); KinematicBody: kinematic bodies
// that push dynamic ones. Layers and masks are 16 bits as in 2D.
//
// Following the pose, in on_physics_process: each piece's body sits at its slot bone's place in the
// world (origin and in-plane rotation; reached by velocity, teleported when it turns on) and its hull
// points are the prism of the attachment's world vertices in that frame. Points that did not move in
// the bone's frame keep the hull (rigid boxes just follow their bone); others replace it
// (set_hull_points). While its slot does not show its attachment, a box's bodies have their layer and
// mask cleared, so they touch nothing (their contacts end), until the slot shows it again.
//
// Timing and signals as in 2D: no lag with the sprite's UpdateMode Physics, one tick with Process;
// hitbox_entered / hitbox_exited(hitboxes, slot name, other node), deferred, per slot and other node.

#include <cstdint>
#include <string>
#include <vector>

#include "mf/scene/hitboxes/skeleton_hitboxes_2d.hpp"
#include "mf/scene/node_3d.hpp"
#include "mf/scene/physics3d/physics_space_3d.hpp"
#include "mf/scene/physics3d/prism.hpp"
#include "mf/scene/signal.hpp"

namespace mf::scene {

class SkeletonSprite3D;

class SkeletonHitboxes3D : public Node3D, private ContactReceiver3D {
 public:
  struct Piece {
    int slot = -1;
    int attachment = -1;
    std::vector<int> indices;      // the attachment's vertices in this convex piece
    BodyHandle3D body;
    std::vector<Vec3> local;       // the prism's points in the body's frame, as the hull holds them
    bool active = false;
  };

  explicit SkeletonHitboxes3D(std::string name);
  ~SkeletonHitboxes3D() override;

  void set_mode(HitboxMode mode);
  HitboxMode mode() const { return mode_; }
  Status set_collision_layer(std::uint32_t layer);
  Status set_collision_mask(std::uint32_t mask);
  void set_slots(std::vector<std::string> slots);
  // Metres, positive (default kDefaultHitboxDepth, 0.1 m).
  Status set_depth(float metres);
  float depth() const { return depth_; }

  const std::vector<Piece>& pieces() const { return pieces_; }
  const std::string& build_error() const { return error_; }
  std::uint64_t shape_updates() const { return shape_updates_; }

  Signal<SkeletonHitboxes3D*, const std::string*, Node*> hitbox_entered;
  Signal<SkeletonHitboxes3D*, const std::string*, Node*> hitbox_exited;

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

  void on_contact(ContactKind kind, std::uint32_t part, Node* other, std::uint32_t other_part) override;
  Node* contact_node() override { return this; }

  void build();
  void release();
  // The slot bone's world frame (origin, rotation) and the piece's prism in it, into `local_out`.
  Status measure(const Piece& piece, Vec3& origin, Quat& rotation, std::span<Vec3> local_out);

  SkeletonSprite3D* sprite_ = nullptr;
  PhysicsSpace3D* space_ = nullptr;
  const void* built_data_ = nullptr;
  std::uint32_t key_ = 0;
  bool dirty_ = true;
  HitboxMode mode_ = HitboxMode::Area;
  std::uint32_t layer_ = 1, mask_ = 1;
  float depth_ = kDefaultHitboxDepth;
  std::vector<std::string> slots_;
  std::vector<Piece> pieces_;
  std::vector<float> vertices_;   // an attachment's world vertices, 2 floats each
  std::vector<Vec2> polygon_;     // a piece's points in skeleton space
  std::vector<Vec3> prism_;       // its prism in the world
  std::vector<Vec3> local_;       // and in the body's frame
  std::vector<Overlap> overlaps_;
  std::string error_;
  std::uint64_t shape_updates_ = 0;
};

}  // namespace mf::scene
