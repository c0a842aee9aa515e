#include "mf/scene/hitboxes/skeleton_hitboxes_3d.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "hitbox_shared.hpp"
#include "mf/scene/physics2d/convex_pieces.hpp"
#include "mf/scene/sprite3d/skeleton_sprite_3d.hpp"
#include "mf/skel/cpu_vertices.hpp"

namespace mf::scene {
namespace {

// Hull points that moved less than this (metres) in the body's frame keep the hull.
constexpr float kShapeTolerance = 1e-5f;

}  // namespace

SkeletonHitboxes3D::SkeletonHitboxes3D(std::string name) : Node3D(std::move(name)) { overlaps_.reserve(32); }

SkeletonHitboxes3D::~SkeletonHitboxes3D() { release(); }

void SkeletonHitboxes3D::set_mode(HitboxMode mode) {
  mode_ = mode;
  dirty_ = true;
}

Status SkeletonHitboxes3D::set_collision_layer(std::uint32_t layer) {
  if (Status s = detail::check_collision_bits("layer", layer); !s) return s;
  layer_ = layer;
  dirty_ = true;
  return {};
}

Status SkeletonHitboxes3D::set_collision_mask(std::uint32_t mask) {
  if (Status s = detail::check_collision_bits("mask", mask); !s) return s;
  mask_ = mask;
  dirty_ = true;
  return {};
}

void SkeletonHitboxes3D::set_slots(std::vector<std::string> slots) {
  slots_ = std::move(slots);
  dirty_ = true;
}

Status SkeletonHitboxes3D::set_depth(float metres) {
  if (!(metres > 0) || !std::isfinite(metres))
    return Unexpected{Error{.message = "hitbox depth " + std::to_string(metres) + " m: it must be positive and finite"}};
  depth_ = metres;
  dirty_ = true;
  return {};
}

void SkeletonHitboxes3D::on_enter_tree() { build(); }

void SkeletonHitboxes3D::on_exit_tree() { release(); }

void SkeletonHitboxes3D::release() {
  if (space_) {
    for (Piece& p : pieces_) (void)space_->world().remove_body(p.body);
    space_->remove_receiver(key_);
  }
  pieces_.clear();
  overlaps_.clear();
  space_ = nullptr;
  sprite_ = nullptr;
  built_data_ = nullptr;
  key_ = 0;
}

void SkeletonHitboxes3D::build() {
  release();
  dirty_ = false;
  error_.clear();
  sprite_ = dynamic_cast<SkeletonSprite3D*>(parent());
  space_ = PhysicsSpace3D::find(*this);
  if (!sprite_ || !space_) {
    error_ = path() + (sprite_ ? ": no PhysicsSpace3D above these hitboxes" : ": the parent is not a SkeletonSprite3D");
    sprite_ = nullptr;
    space_ = nullptr;
    return;
  }
  if (!sprite_->data() || !sprite_->pose()) return;  // built when data comes
  const skel::SkeletonData& data = *sprite_->data();
  built_data_ = &data;
  key_ = space_->add_receiver(this);
  const auto fail = [&](std::string message) {
    error_ = path() + ": " + std::move(message);
    release();
  };

  std::vector<std::uint8_t> wanted(data.slots.names.size(), slots_.empty() ? 1 : 0);
  for (const std::string& name : slots_) {
    const int slot = data.find_slot(name);
    if (slot < 0) return fail("slot \"" + name + "\": the skeleton data \"" + data.name + "\" has no such slot");
    wanted[static_cast<std::size_t>(slot)] = 1;
  }
  std::size_t most = 0;
  for (const skel::AttachmentRecord& r : data.attachments)
    if (r.kind == skel::AttachmentKind::BoundingBox) most = std::max<std::size_t>(most, r.vertex_count);
  vertices_.assign(most * 2, 0.0f);
  polygon_.reserve(most);
  prism_.assign(most * 2, Vec3{});
  local_.assign(most * 2, Vec3{});

  for (std::size_t a = 0; a < data.attachments.size(); ++a) {
    const skel::AttachmentRecord& r = data.attachments[a];
    if (r.kind != skel::AttachmentKind::BoundingBox || r.slot < 0 || !wanted[static_cast<std::size_t>(r.slot)]) continue;
    const std::string& slot_name = data.slots.names[static_cast<std::size_t>(r.slot)];
    // The outline in skeleton space now, cut into convex pieces by vertex index.
    skel::compute_world_vertices(*sprite_->pose(), r.slot, static_cast<std::int32_t>(a), std::span<float>(vertices_.data(), r.vertex_count * 2));
    std::vector<Vec2> outline(r.vertex_count);
    for (std::size_t i = 0; i < outline.size(); ++i) outline[i] = {vertices_[2 * i], vertices_[2 * i + 1]};
    auto cut = convex_pieces(outline);
    if (!cut) return fail("slot \"" + slot_name + "\": " + cut.error().message);
    for (const std::vector<Vec2>& points : *cut) {
      Piece piece;
      piece.slot = r.slot;
      piece.attachment = static_cast<int>(a);
      for (const Vec2& p : points) {
        const int i = detail::vertex_index(outline, p);
        if (i < 0) return fail("slot \"" + slot_name + "\": a convex piece has a point that is not one of the box's vertices");
        piece.indices.push_back(i);
      }
      piece.local.assign(piece.indices.size() * 2, Vec3{});
      pieces_.push_back(std::move(piece));
    }
  }
  for (std::size_t k = 0; k < pieces_.size(); ++k) {
    Piece& piece = pieces_[k];
    Vec3 origin;
    Quat rotation;
    if (Status s = measure(piece, origin, rotation, piece.local); !s) return fail(s.error().message);
    BodyDesc3D desc;
    desc.type = mode_ == HitboxMode::Area ? BodyType3D::kGhost : BodyType3D::kKinematic;
    desc.position = origin;
    desc.rotation = rotation;
    desc.layer = layer_;
    desc.mask = mask_;
    desc.user_data = PhysicsSpace3D::contact_user_data(key_, static_cast<std::uint32_t>(k));
    auto body = space_->world().add_body(desc, Shape3D::convex_hull(piece.local));
    if (!body) return fail(body.error().message);
    piece.body = *body;
    piece.active = true;
  }
}

Status SkeletonHitboxes3D::measure(const Piece& piece, Vec3& origin, Quat& rotation, std::span<Vec3> local_out) {
  const skel::SkeletonData& data = *sprite_->data();
  const skel::AttachmentRecord& r = data.attachments[static_cast<std::size_t>(piece.attachment)];
  const int bone = data.slots.bone[static_cast<std::size_t>(piece.slot)];
  // The bone's frame in the world: its origin, and a rotation whose X follows the bone and whose Z is
  // the sprite plane's normal.
  const Mat4 frame = sprite_->bone_global_transform(bone);
  origin = frame.column3(3);
  const Vec3 x = normalize(frame.column3(0), {1, 0, 0});
  const Vec3 z = normalize(cross(frame.column3(0), frame.column3(1)), {0, 0, 1});
  const Vec3 y = cross(z, x);
  Mat4 basis = Mat4::identity();
  const Vec3 columns[3] = {x, y, z};
  for (int c = 0; c < 3; ++c) {
    basis.at(0, c) = columns[c].x;
    basis.at(1, c) = columns[c].y;
    basis.at(2, c) = columns[c].z;
  }
  rotation = Quat::from_rotation_matrix(basis);
  // The piece's polygon in skeleton space, its prism in the world, then in the body's frame.
  skel::compute_world_vertices(*sprite_->pose(), piece.slot, piece.attachment, std::span<float>(vertices_.data(), r.vertex_count * 2));
  polygon_.clear();
  for (int i : piece.indices) polygon_.push_back({vertices_[2 * static_cast<std::size_t>(i)], vertices_[2 * static_cast<std::size_t>(i) + 1]});
  const std::span<Vec3> prism(prism_.data(), polygon_.size() * 2);
  if (Status s = make_prism(polygon_, depth_, sprite_->skeleton_transform(), prism); !s) return s;
  for (std::size_t i = 0; i < prism.size(); ++i) {
    const Vec3 d = prism[i] - origin;
    local_out[i] = {dot(d, x), dot(d, y), dot(d, z)};
  }
  return {};
}

void SkeletonHitboxes3D::on_physics_process(float) {
  if (!sprite_ && !dirty_) return;
  if (dirty_ || (sprite_ && sprite_->data().get() != built_data_)) build();
  if (!space_ || !sprite_ || !sprite_->pose()) return;
  const skel::SkeletonPose& pose = *sprite_->pose();
  const skel::SkeletonData& data = *sprite_->data();
  PhysicsWorld3D& world = space_->world();
  for (Piece& piece : pieces_) {
    const auto slot = static_cast<std::size_t>(piece.slot);
    const bool shown = pose.attachment[slot] == piece.attachment && pose.active[static_cast<std::size_t>(data.slots.bone[slot])];
    if (!shown) {
      if (piece.active) (void)world.set_collision(piece.body, 0, 0);
      piece.active = false;
      continue;
    }
    Vec3 origin;
    Quat rotation;
    const std::span<Vec3> local(local_.data(), piece.local.size());
    if (!measure(piece, origin, rotation, local)) continue;  // a degenerate frame: the body stays
    if (!piece.active) {
      (void)world.set_collision(piece.body, layer_, mask_);
      (void)world.set_transform(piece.body, origin, rotation, MoveMode::kTeleport);
      piece.active = true;
    } else {
      (void)world.set_transform(piece.body, origin, rotation, MoveMode::kVelocity);
    }
    bool moved = false;
    for (std::size_t i = 0; i < local.size() && !moved; ++i) moved = length(local[i] - piece.local[i]) > kShapeTolerance;
    if (moved && world.set_hull_points(piece.body, local)) {
      std::copy(local.begin(), local.end(), piece.local.begin());
      ++shape_updates_;
    }
  }
}

void SkeletonHitboxes3D::on_contact(ContactKind kind, std::uint32_t part, Node* other, std::uint32_t) {
  if (part >= pieces_.size() || !sprite_ || !tree() || other == this) return;
  const int slot = pieces_[part].slot;
  auto it = std::find_if(overlaps_.begin(), overlaps_.end(), [&](const Overlap& o) { return o.slot == slot && o.other == other; });
  const std::string* name = &sprite_->data()->slots.names[static_cast<std::size_t>(slot)];
  if (kind == ContactKind::kBegin) {
    if (it != overlaps_.end()) {
      ++it->count;
      return;
    }
    overlaps_.push_back({slot, other, 1});
    hitbox_entered.emit_deferred(*tree(), this, name, other);
    return;
  }
  if (it == overlaps_.end()) return;
  if (--it->count > 0) return;
  overlaps_.erase(it);
  hitbox_exited.emit_deferred(*tree(), this, name, other);
}

}  // namespace mf::scene
