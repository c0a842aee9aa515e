#include "mf/editor/core/model/new_attachments.hpp"

#include <cmath>

#include "mf/core/math/angle.hpp"
#include "mf/editor/core/model/names.hpp"

namespace mf::editor {

using namespace offline;

namespace {

Vertices plain(const std::vector<Vec2>& points) {
  Vertices v;
  for (const Vec2& p : points) {
    v.positions.push_back(p.x);
    v.positions.push_back(p.y);
  }
  return v;
}

}  // namespace

Attachment make_region(int slot, std::string name, std::string image, float width, float height) {
  RegionAttachment r;
  r.image = image == name ? std::string() : std::move(image);
  r.width = width;
  r.height = height;
  return Attachment{slot, std::move(name), r};
}

Expected<Attachment> make_mesh_from_region(const Attachment& region, std::string name, float image_width,
                                           float image_height) {
  const auto* r = std::get_if<RegionAttachment>(&region.data);
  if (!r) return edit_error("attachment " + quoted(region.name) + " is not a Region");
  const double w = (r->width > 0 ? r->width : image_width) * static_cast<double>(r->scale_x);
  const double h = (r->height > 0 ? r->height : image_height) * static_cast<double>(r->scale_y);
  if (!(std::abs(w) > 0) || !(std::abs(h) > 0))
    return edit_error("region " + quoted(region.name) + " has no size: give the image's size");
  // The corners of the quad the build draws (skeleton_builder_attachments.cpp): the image's
  // rectangle centred on the region's position, scaled, then turned clockwise.
  const double rad = r->rotation * kDegToRadD, cs = std::cos(rad), sn = std::sin(rad);
  const double corners[4][2] = {{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}};
  MeshAttachment m;
  m.image = r->image.empty() ? region.name : r->image;
  if (m.image == name) m.image.clear();
  m.color = r->color;
  m.sequence = r->sequence;
  m.width = r->width > 0 ? r->width : image_width;
  m.height = r->height > 0 ? r->height : image_height;
  for (const auto& c : corners) {
    const double px = c[0] * w, py = c[1] * h;
    m.vertices.positions.push_back(static_cast<float>(cs * px - sn * py + r->x));
    m.vertices.positions.push_back(static_cast<float>(sn * px + cs * py + r->y));
    m.uvs.push_back(static_cast<float>(c[0] + 0.5));
    m.uvs.push_back(static_cast<float>(c[1] + 0.5));
  }
  m.triangles = {0, 1, 2, 2, 3, 0};
  m.hull = 4;
  return Attachment{region.slot, std::move(name), m};
}

Attachment make_bounding_box(int slot, std::string name, const std::vector<Vec2>& polygon) {
  BoundingBoxAttachment b;
  b.vertices = plain(polygon);
  return Attachment{slot, std::move(name), b};
}

Attachment make_clipping(int slot, std::string name, const std::vector<Vec2>& polygon, int end_slot) {
  ClippingAttachment c;
  c.vertices = plain(polygon);
  c.end_slot = end_slot;
  return Attachment{slot, std::move(name), c};
}

Attachment make_point(int slot, std::string name, float x, float y, float rotation) {
  PointAttachment p;
  p.x = x;
  p.y = y;
  p.rotation = rotation;
  return Attachment{slot, std::move(name), p};
}

Attachment make_path(int slot, std::string name, const std::vector<Vec2>& points, bool closed) {
  PathAttachment p;
  p.vertices = plain(points);
  p.closed = closed;
  p.lengths = path_lengths(p.vertices.positions, closed);
  return Attachment{slot, std::move(name), p};
}

std::vector<float> path_lengths(const std::vector<float>& xy, bool closed) {
  const std::size_t points = xy.size() / 2;
  const std::size_t knots = points / 3;
  std::vector<float> out;
  if (knots < 2) return out;
  const std::size_t segments = closed ? knots : knots - 1;
  const auto point = [&](std::size_t i) {
    i %= points;
    return Vec2d{xy[2 * i], xy[2 * i + 1]};
  };
  double total = 0;
  for (std::size_t s = 0; s < segments; ++s) {
    // Knot k's point is control point 3k + 1; its out-handle 3k + 2; the next knot's in-handle 3k + 3.
    const Vec2d p0 = point(3 * s + 1), p1 = point(3 * s + 2), p2 = point(3 * s + 3), p3 = point(3 * s + 4);
    Vec2d previous = p0;
    constexpr int kChords = 64;
    for (int i = 1; i <= kChords; ++i) {
      const double t = static_cast<double>(i) / kChords, u = 1 - t;
      const Vec2d q = p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t);
      total += std::hypot(q.x - previous.x, q.y - previous.y);
      previous = q;
    }
    out.push_back(static_cast<float>(total));
  }
  return out;
}

}  // namespace mf::editor
