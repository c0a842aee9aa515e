#include "mf/scene/hitboxes/skeleton_hitboxes_2d.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "hitbox_shared.hpp"
#include "mf/scene/physics2d/convex_pieces.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"
#include "mf/skel/cpu_vertices.hpp"

namespace mf::scene {
namespace {

// A shape whose body-frame points moved less than this (pixels) keeps its fixtures.
constexpr float kShapeTolerance = 1e-3f;

// The convex hull of up to 8 points, counter-clockwise with Y up (Andrew's monotone chain); its
// point count. A piece a deformation made concave is replaced by its hull.
std::size_t convex_hull(Vec2* points, std::size_t n, Vec2* hull) {
  // Insertion sort by x, then y: at most 8 points. (std::sort here trips g++ 12's -Warray-bounds under
  // the sanitizers: it cannot see that n ≤ 8 keeps its 16-element insertion pass inside the array.)
  for (std::size_t i = 1; i < n; ++i) {
    const Vec2 p = points[i];
    std::size_t j = i;
    for (; j > 0 && (p.x < points[j - 1].x || (p.x == points[j - 1].x && p.y < points[j - 1].y)); --j) points[j] = points[j - 1];
    points[j] = p;
  }
  const auto cross = [](Vec2 o, Vec2 a, Vec2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); };
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = n - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  return k > 1 ? k - 1 : k;
}

double area2(std::span<const Vec2> points) {
  double a = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Vec2 p = points[i], q = points[(i + 1) % points.size()];
    a += static_cast<double>(p.x) * q.y - static_cast<double>(q.x) * p.y;
  }
  return a;
}

}  // namespace

SkeletonHitboxes2D::SkeletonHitboxes2D(std::string name) : Node2D(std::move(name)) { overlaps_.reserve(32); }

SkeletonHitboxes2D::~SkeletonHitboxes2D() { release(); }

void SkeletonHitboxes2D::set_mode(HitboxMode mode) {
  mode_ = mode;
  dirty_ = true;
}

Status SkeletonHitboxes2D::set_collision_layer(std::uint32_t layer) {
  if (Status s = detail::check_collision_bits("layer", layer); !s) return s;
  layer_ = layer;
  dirty_ = true;
  return {};
}

Status SkeletonHitboxes2D::set_collision_mask(std::uint32_t mask) {
  if (Status s = detail::check_collision_bits("mask", mask); !s) return s;
  mask_ = mask;
  dirty_ = true;
  return {};
}

void SkeletonHitboxes2D::set_slots(std::vector<std::string> slots) {
  slots_ = std::move(slots);
  dirty_ = true;
}

void SkeletonHitboxes2D::on_enter_tree() {
  dirty_ = true;
  build();
}

void SkeletonHitboxes2D::on_exit_tree() { release(); }

void SkeletonHitboxes2D::release() {
  if (space_) {
    for (Hitbox& h : hitboxes_) (void)space_->world().remove_body(h.body);
    space_->remove_receiver(key_);
  }
  hitboxes_.clear();
  overlaps_.clear();
  space_ = nullptr;
  skeleton_ = nullptr;
  built_data_ = nullptr;
  key_ = 0;
}

void SkeletonHitboxes2D::build() {
  release();
  dirty_ = false;
  error_.clear();
  skeleton_ = dynamic_cast<Skeleton2D*>(parent());
  space_ = PhysicsSpace2D::find(*this);
  if (!skeleton_ || !space_) {
    error_ = path() + (skeleton_ ? ": no PhysicsSpace2D above these hitboxes" : ": the parent is not a Skeleton2D");
    skeleton_ = nullptr;
    space_ = nullptr;
    return;
  }
  if (!skeleton_->data() || !skeleton_->pose()) return;  // built when data comes
  const skel::SkeletonData& data = *skeleton_->data();
  built_data_ = &data;
  key_ = space_->add_receiver(this);

  std::vector<std::uint8_t> wanted(data.slots.names.size(), slots_.empty() ? 1 : 0);
  for (const std::string& name : slots_) {
    const int slot = data.find_slot(name);
    if (slot < 0) {
      error_ = path() + ": slot \"" + name + "\": the skeleton data \"" + data.name + "\" has no such slot";
      release();
      return;
    }
    wanted[static_cast<std::size_t>(slot)] = 1;
  }
  std::size_t most_vertices = 0;
  for (std::size_t a = 0; a < data.attachments.size(); ++a) {
    const skel::AttachmentRecord& r = data.attachments[a];
    if (r.kind != skel::AttachmentKind::BoundingBox || r.slot < 0 || !wanted[static_cast<std::size_t>(r.slot)]) continue;
    Hitbox h;
    h.slot = r.slot;
    h.attachment = static_cast<int>(a);
    most_vertices = std::max<std::size_t>(most_vertices, r.vertex_count);
    hitboxes_.push_back(std::move(h));
  }
  scratch_.assign(most_vertices * 2, 0.0f);
  previous_.assign(most_vertices, Vec2{});
  for (Hitbox& h : hitboxes_) {
    if (Status s = build_hitbox(h); !s) {
      error_ = path() + ": slot \"" + data.slots.names[static_cast<std::size_t>(h.slot)] + "\": " + s.error().message;
      release();
      return;
    }
  }
}

Status SkeletonHitboxes2D::build_hitbox(Hitbox& h) {
  const skel::AttachmentRecord& r = skeleton_->data()->attachments[static_cast<std::size_t>(h.attachment)];
  h.canvas.assign(r.vertex_count, Vec2{});
  h.local.assign(r.vertex_count, Vec2{});
  Vec2 origin;
  float angle = 0;
  measure(h, origin, angle);
  PhysicsWorld2D& world = space_->world();
  auto pieces = convex_pieces(h.local, world.piece_options());
  if (!pieces) return Unexpected{pieces.error()};
  for (const std::vector<Vec2>& piece : *pieces) {
    std::vector<int> indices;
    for (const Vec2& p : piece) {
      const int i = detail::vertex_index(h.local, p);
      if (i < 0) return Unexpected{Error{.message = "a convex piece has a point that is not one of the box's vertices"}};
      indices.push_back(i);
    }
    h.pieces.push_back(std::move(indices));
  }
  BodyDesc desc;
  desc.type = mode_ == HitboxMode::Area ? BodyType::kDynamic : BodyType::kKinematic;
  desc.position = origin;
  desc.angle = angle;
  desc.gravity_scale = 0;
  auto body = world.add_body(desc);
  if (!body) return Unexpected{body.error()};
  h.body = *body;
  FixtureDesc f;
  f.sensor = mode_ == HitboxMode::Area;
  f.layer = layer_;
  f.mask = mask_;
  f.user_data = PhysicsSpace2D::contact_user_data(key_, static_cast<std::uint32_t>(&h - hitboxes_.data()));
  if (Status s = world.add_polygons(h.body, *pieces, f); !s) return s;
  h.active = true;
  return {};
}

void SkeletonHitboxes2D::measure(Hitbox& h, Vec2& origin, float& angle) {
  const skel::SkeletonPose& pose = *skeleton_->pose();
  const int bone = skeleton_->data()->slots.bone[static_cast<std::size_t>(h.slot)];
  const Affine2 to_canvas = skeleton_->skeleton_transform();
  const Affine2 frame = skeleton_->bone_global_transform(bone);
  origin = frame.origin();
  angle = std::atan2(frame.c, frame.a);
  const std::size_t n = h.canvas.size();
  skel::compute_world_vertices(pose, h.slot, h.attachment, std::span<float>(scratch_.data(), n * 2));
  const float c = std::cos(angle), s = std::sin(angle);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 p = to_canvas.apply({scratch_[2 * i], scratch_[2 * i + 1]});
    h.canvas[i] = p;
    const Vec2 d{p.x - origin.x, p.y - origin.y};
    h.local[i] = {c * d.x + s * d.y, -s * d.x + c * d.y};
  }
}

bool SkeletonHitboxes2D::update_shape(Hitbox& h) {
  PhysicsWorld2D& world = space_->world();
  Vec2 piece[PhysicsWorld2D::kMaxPolygonVertices];
  Vec2 hull[PhysicsWorld2D::kMaxPolygonVertices + 1];
  bool all = true;
  for (std::size_t k = 0; k < h.pieces.size(); ++k) {
    const std::vector<int>& indices = h.pieces[k];
    const std::size_t n = indices.size();
    for (std::size_t i = 0; i < n; ++i) piece[i] = h.local[static_cast<std::size_t>(indices[i])];
    // A mirrored frame turns the winding round; Box2D wants it counter-clockwise (Y up).
    if (area2({piece, n}) < 0) std::reverse(piece, piece + n);
    std::span<const Vec2> points(piece, n);
    if (!world.fits_polygon(points)) {
      // Deformed out of convexity (or reordered): the piece's convex hull stands in for it.
      points = std::span<const Vec2>(hull, convex_hull(piece, n, hull));
    }
    if (!world.fits_polygon(points) || !world.set_polygon(h.body, static_cast<int>(k), points)) {
      ++stale_updates_;  // degenerate (squashed flat): the piece keeps its last shape
      all = false;
    }
  }
  return all;
}

void SkeletonHitboxes2D::on_physics_process(float) {
  if (!skeleton_ && !dirty_) return;
  if (dirty_ || (skeleton_ && skeleton_->data().get() != built_data_)) build();
  if (!space_ || !skeleton_ || !skeleton_->pose()) return;
  const skel::SkeletonPose& pose = *skeleton_->pose();
  const skel::SkeletonData& data = *skeleton_->data();
  PhysicsWorld2D& world = space_->world();
  for (Hitbox& h : hitboxes_) {
    const auto slot = static_cast<std::size_t>(h.slot);
    const bool shown = pose.attachment[slot] == h.attachment && pose.active[static_cast<std::size_t>(data.slots.bone[slot])];
    if (!shown) {
      if (h.active) (void)world.set_enabled(h.body, false);
      h.active = false;
      continue;
    }
    std::copy(h.local.begin(), h.local.end(), previous_.begin());
    Vec2 origin;
    float angle = 0;
    measure(h, origin, angle);
    if (!h.active) {
      (void)world.set_enabled(h.body, true);
      (void)world.set_transform(h.body, origin, angle, MoveMode::kTeleport);
      h.active = true;
    } else {
      (void)world.set_transform(h.body, origin, angle, MoveMode::kVelocity);
    }
    bool moved = false;
    for (std::size_t i = 0; i < h.local.size() && !moved; ++i)
      moved = std::abs(h.local[i].x - previous_[i].x) > kShapeTolerance || std::abs(h.local[i].y - previous_[i].y) > kShapeTolerance;
    if (moved) {
      ++shape_updates_;
      update_shape(h);
    }
  }
}

void SkeletonHitboxes2D::on_contact(ContactKind kind, std::uint32_t part, Node* other, std::uint32_t, bool) {
  // Contacts between this node's own boxes (overlapping slots) are not hits.
  if (part >= hitboxes_.size() || !skeleton_ || !tree() || other == this) return;
  const int slot = hitboxes_[part].slot;
  auto it = std::find_if(overlaps_.begin(), overlaps_.end(), [&](const Overlap& o) { return o.slot == slot && o.other == other; });
  const std::string* name = &skeleton_->data()->slots.names[static_cast<std::size_t>(slot)];
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
