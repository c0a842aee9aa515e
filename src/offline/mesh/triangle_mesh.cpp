// Triangles with neighbour links and the operations the constrained triangulator is made of. Lawson
// insertion only ever creates triangles around the new point, and flips keep the triangle count, so
// no triangle is ever deleted: indices stay valid, which keeps the refinement's queues simple.

#include "triangle_mesh.hpp"

#include <algorithm>
#include <deque>

#include "mf/offline/mesh/robust_predicates.hpp"

namespace mf::offline::mesh_core {

namespace {

inline int next(int i) { return i == 2 ? 0 : i + 1; }
inline int prev(int i) { return i == 0 ? 2 : i - 1; }

std::uint64_t edge_key(std::uint32_t a, std::uint32_t b) {
  if (a > b) std::swap(a, b);
  return (std::uint64_t{a} << 32) | b;
}

int index_of(const Triangle& t, std::uint32_t v) {
  for (int k = 0; k < 3; ++k)
    if (t.v[static_cast<std::size_t>(k)] == v) return k;
  return -1;
}

// True when a–b and c–d cross at a point inside both (touching at an end does not count).
bool segments_cross(Vec2d a, Vec2d b, Vec2d c, Vec2d d) {
  const double c1 = orient2d(a, b, c), d1 = orient2d(a, b, d);
  if (!((c1 > 0 && d1 < 0) || (c1 < 0 && d1 > 0))) return false;
  const double a1 = orient2d(c, d, a), b1 = orient2d(c, d, b);
  return (a1 > 0 && b1 < 0) || (a1 < 0 && b1 > 0);
}

}  // namespace

TriangleMesh::TriangleMesh(Vec2d lo, Vec2d hi) {
  const Vec2d centre = (lo + hi) * 0.5;
  // Large enough to hold the box with room; the exact predicates need no more, and a larger one only
  // sends more in-circle tests involving its far corners to the exact path.
  const double r = std::max({hi.x - lo.x, hi.y - lo.y, 1e-3 * (std::abs(centre.x) + std::abs(centre.y)), 1e-300}) * 2;
  points = {{centre.x - 3 * r, centre.y - 2 * r}, {centre.x + 3 * r, centre.y - 2 * r}, {centre.x, centre.y + 3 * r}};
  triangles.push_back(Triangle{{0, 1, 2}, {kNone, kNone, kNone}, {}, false});
  vertex_triangle = {0, 0, 0};
}

std::uint32_t TriangleMesh::apex_across(std::uint32_t t, int i) const {
  const std::uint32_t u = triangles[t].n[static_cast<std::size_t>(i)];
  if (u == kNone) return kNone;
  const Triangle& tu = triangles[u];
  for (int j = 0; j < 3; ++j)
    if (tu.n[static_cast<std::size_t>(j)] == t) return tu.v[static_cast<std::size_t>(j)];
  return kNone;
}

TriangleMesh::Location TriangleMesh::locate(Vec2d p, std::uint32_t start) const {
  // Visibility walk: step across an edge that has p strictly on its outer side. The starting edge
  // rotates with a fixed sequence so the walk cannot circle in a constrained triangulation; a walk
  // that takes too long falls back to a scan of every triangle.
  auto classify = [&](std::uint32_t t, bool& outside, int& step_to) {
    const Triangle& tr = triangles[t];
    Location loc{t, -1, kNone};
    int zeros = 0, zero_edges[3] = {0, 0, 0};
    outside = false;
    for (int i = 0; i < 3; ++i) {
      const double o = orient2d(points[tr.v[static_cast<std::size_t>(next(i))]], points[tr.v[static_cast<std::size_t>(prev(i))]], p);
      if (o < 0) {
        outside = true;
        step_to = i;
        return loc;
      }
      if (o == 0) zero_edges[zeros++] = i;
    }
    if (zeros == 1) loc.edge = zero_edges[0];
    if (zeros >= 2) loc.vertex = tr.v[static_cast<std::size_t>(3 - zero_edges[0] - zero_edges[1])];
    return loc;
  };
  std::uint32_t t = start < triangles.size() ? start : 0;
  std::uint32_t seed = 12345;
  const std::size_t limit = 4 * triangles.size() + 64;
  for (std::size_t steps = 0; steps < limit; ++steps) {
    const Triangle& tr = triangles[t];
    seed = seed * 1103515245u + 12345u;
    const int first = static_cast<int>((seed >> 16) % 3);
    bool moved = false;
    for (int k = 0; k < 3 && !moved; ++k) {
      const int i = (first + k) % 3;
      const double o = orient2d(points[tr.v[static_cast<std::size_t>(next(i))]], points[tr.v[static_cast<std::size_t>(prev(i))]], p);
      if (o < 0 && tr.n[static_cast<std::size_t>(i)] != kNone) {
        t = tr.n[static_cast<std::size_t>(i)];
        moved = true;
      }
    }
    if (!moved) {
      bool outside;
      int step_to = -1;
      Location loc = classify(t, outside, step_to);
      if (!outside) return loc;
      break;  // outside the enclosing triangle: cannot happen for points inside the box
    }
  }
  for (std::uint32_t s = 0; s < triangles.size(); ++s) {
    bool outside;
    int step_to = -1;
    Location loc = classify(s, outside, step_to);
    if (!outside) return loc;
  }
  return {};
}

void TriangleMesh::repoint(std::uint32_t nb, std::uint32_t from, std::uint32_t to) {
  if (nb == kNone) return;
  for (auto& x : triangles[nb].n)
    if (x == from) {
      x = to;
      return;
    }
}

void TriangleMesh::flip(std::uint32_t t, int i) {
  // t = (a, b, c) with the edge b–c opposite a; u = (d, c, b) across it. Afterwards t = (a, b, d),
  // u = (d, c, a), sharing a–d.
  const auto I = static_cast<std::size_t>(i);
  const std::uint32_t u = triangles[t].n[I];
  Triangle& T = triangles[t];
  Triangle& U = triangles[u];
  std::size_t j = 0;
  while (U.n[j] != t) ++j;
  const std::uint32_t a = T.v[I], b = T.v[static_cast<std::size_t>(next(i))], c = T.v[static_cast<std::size_t>(prev(i))];
  const std::uint32_t d = U.v[j];
  const std::size_t j1 = (j + 1) % 3, j2 = (j + 2) % 3;
  const std::uint32_t n_ca = T.n[static_cast<std::size_t>(next(i))], n_ab = T.n[static_cast<std::size_t>(prev(i))];
  const std::uint8_t f_ca = T.flags[static_cast<std::size_t>(next(i))], f_ab = T.flags[static_cast<std::size_t>(prev(i))];
  const std::uint32_t n_bd = U.n[j1], n_dc = U.n[j2];
  const std::uint8_t f_bd = U.flags[j1], f_dc = U.flags[j2];
  T.v = {a, b, d};
  T.n = {n_bd, u, n_ab};
  T.flags = {f_bd, 0, f_ab};
  U.v = {d, c, a};
  U.n = {n_ca, t, n_dc};
  U.flags = {f_ca, 0, f_dc};
  repoint(n_bd, u, t);
  repoint(n_ca, t, u);
  vertex_triangle[a] = t;
  vertex_triangle[b] = t;
  vertex_triangle[d] = t;
  vertex_triangle[c] = u;
}

void TriangleMesh::legalize_around(std::uint32_t p, std::vector<std::pair<std::uint32_t, int>> stack) {
  while (!stack.empty()) {
    auto [t, i] = stack.back();
    stack.pop_back();
    const Triangle& T = triangles[t];
    if (T.v[static_cast<std::size_t>(i)] != p) {
      i = index_of(T, p);
      if (i < 0) continue;
    }
    const auto I = static_cast<std::size_t>(i);
    if (T.flags[I] & kConstrained) continue;
    const std::uint32_t u = T.n[I];
    if (u == kNone) continue;
    const std::uint32_t d = apex_across(t, i);
    if (in_circle(points[T.v[0]], points[T.v[1]], points[T.v[2]], points[d]) <= 0) continue;
    flip(t, i);
    // Now t = (p, b, d) and u = (d, c, p): their edges opposite p may have become illegal.
    stack.push_back({t, 0});
    stack.push_back({u, 2});
  }
}

void TriangleMesh::legalize_edges(std::vector<std::array<std::uint32_t, 2>> edges) {
  while (!edges.empty()) {
    const auto [a, b] = edges.back();
    edges.pop_back();
    const EdgeRef e = find_edge(a, b);
    if (e.tri == kNone) continue;
    const Triangle& T = triangles[e.tri];
    const auto I = static_cast<std::size_t>(e.index);
    if ((T.flags[I] & kConstrained) || T.n[I] == kNone) continue;
    const std::uint32_t d = apex_across(e.tri, e.index);
    if (in_circle(points[T.v[0]], points[T.v[1]], points[T.v[2]], points[d]) <= 0) continue;
    const std::uint32_t x = T.v[I], y = T.v[static_cast<std::size_t>(next(e.index))], z = T.v[static_cast<std::size_t>(prev(e.index))];
    flip(e.tri, e.index);
    edges.push_back({x, y});
    edges.push_back({y, d});
    edges.push_back({d, z});
    edges.push_back({z, x});
  }
}

std::uint32_t TriangleMesh::insert(Vec2d p, Location where) {
  const auto v = static_cast<std::uint32_t>(points.size());
  points.push_back(p);
  vertex_triangle.push_back(where.tri);
  const std::uint32_t t = where.tri;
  if (where.edge < 0) {
    // (a, b, c) → (a, b, p), (b, c, p), (c, a, p).
    const Triangle old = triangles[t];
    const std::uint32_t a = old.v[0], b = old.v[1], c = old.v[2];
    const auto t1 = static_cast<std::uint32_t>(triangles.size());
    const std::uint32_t t2 = t1 + 1;
    triangles[t] = Triangle{{a, b, v}, {t1, t2, old.n[2]}, {0, 0, old.flags[2]}, old.inside};
    triangles.push_back(Triangle{{b, c, v}, {t2, t, old.n[0]}, {0, 0, old.flags[0]}, old.inside});
    triangles.push_back(Triangle{{c, a, v}, {t, t1, old.n[1]}, {0, 0, old.flags[1]}, old.inside});
    repoint(old.n[0], t, t1);
    repoint(old.n[1], t, t2);
    vertex_triangle[a] = t;
    vertex_triangle[b] = t;
    vertex_triangle[c] = t1;
    vertex_triangle[v] = t;
    legalize_around(v, {{t, 2}, {t1, 2}, {t2, 2}});
    return v;
  }
  // On edge b–c of t = (a, b, c), with u = (d, c, b) across it: four triangles around p.
  const int i = where.edge;
  const Triangle old_t = triangles[t];
  const std::uint32_t u = old_t.n[static_cast<std::size_t>(i)];
  const std::uint32_t a = old_t.v[static_cast<std::size_t>(i)], b = old_t.v[static_cast<std::size_t>(next(i))],
                      c = old_t.v[static_cast<std::size_t>(prev(i))];
  const std::uint8_t f = old_t.flags[static_cast<std::size_t>(i)];
  if (f & kConstrained) {
    const std::uint32_t id = constraint_of(b, c);
    erase_constraint_id(b, c);
    set_constraint_id(b, v, id);
    set_constraint_id(v, c, id);
  }
  const std::uint32_t n_ab = old_t.n[static_cast<std::size_t>(prev(i))], n_ca = old_t.n[static_cast<std::size_t>(next(i))];
  const std::uint8_t f_ab = old_t.flags[static_cast<std::size_t>(prev(i))], f_ca = old_t.flags[static_cast<std::size_t>(next(i))];
  const auto t1 = static_cast<std::uint32_t>(triangles.size());
  if (u == kNone) {
    triangles[t] = Triangle{{a, b, v}, {kNone, t1, n_ab}, {f, 0, f_ab}, old_t.inside};
    triangles.push_back(Triangle{{a, v, c}, {kNone, n_ca, t}, {f, f_ca, 0}, old_t.inside});
    repoint(n_ca, t, t1);
    vertex_triangle[a] = t;
    vertex_triangle[b] = t;
    vertex_triangle[v] = t;
    vertex_triangle[c] = t1;
    legalize_around(v, {{t, 2}, {t1, 1}});
    return v;
  }
  const Triangle old_u = triangles[u];
  std::size_t j = 0;
  while (old_u.n[j] != t) ++j;
  const std::uint32_t d = old_u.v[j];
  const std::uint32_t n_bd = old_u.n[(j + 1) % 3], n_dc = old_u.n[(j + 2) % 3];
  const std::uint8_t f_bd = old_u.flags[(j + 1) % 3], f_dc = old_u.flags[(j + 2) % 3];
  const std::uint32_t u1 = t1 + 1;
  triangles[t] = Triangle{{a, b, v}, {u1, t1, n_ab}, {f, 0, f_ab}, old_t.inside};
  triangles.push_back(Triangle{{a, v, c}, {u, n_ca, t}, {f, f_ca, 0}, old_t.inside});
  triangles[u] = Triangle{{d, c, v}, {t1, u1, n_dc}, {f, 0, f_dc}, old_u.inside};
  triangles.push_back(Triangle{{d, v, b}, {t, n_bd, u}, {f, f_bd, 0}, old_u.inside});
  repoint(n_ca, t, t1);
  repoint(n_bd, u, u1);
  vertex_triangle[a] = t;
  vertex_triangle[b] = t;
  vertex_triangle[v] = t;
  vertex_triangle[c] = t1;
  vertex_triangle[d] = u;
  legalize_around(v, {{t, 2}, {t1, 1}, {u, 2}, {u1, 1}});
  return v;
}

std::vector<std::uint32_t> TriangleMesh::ring(std::uint32_t v) const {
  std::vector<std::uint32_t> out;
  const std::uint32_t start = vertex_triangle[v];
  std::uint32_t t = start;
  do {
    out.push_back(t);
    const int k = index_of(triangles[t], v);
    t = triangles[t].n[static_cast<std::size_t>(next(k))];
  } while (t != kNone && t != start);
  if (t == kNone) {
    // A vertex of the enclosing triangle: walk the other way from the start too.
    std::vector<std::uint32_t> back;
    t = start;
    for (;;) {
      const int k = index_of(triangles[t], v);
      t = triangles[t].n[static_cast<std::size_t>(prev(k))];
      if (t == kNone) break;
      back.push_back(t);
    }
    out.insert(out.begin(), back.rbegin(), back.rend());
  }
  return out;
}

EdgeRef TriangleMesh::find_edge(std::uint32_t a, std::uint32_t b) const {
  for (std::uint32_t t : ring(a)) {
    const Triangle& T = triangles[t];
    const int k = index_of(T, a);
    if (T.v[static_cast<std::size_t>(next(k))] == b) return {t, prev(k)};
    if (T.v[static_cast<std::size_t>(prev(k))] == b) return {t, next(k)};
  }
  return {};
}

std::uint32_t TriangleMesh::constraint_of(std::uint32_t a, std::uint32_t b) const {
  const auto it = constraint_ids_.find(edge_key(a, b));
  return it == constraint_ids_.end() ? kNone : it->second;
}

void TriangleMesh::set_constraint_id(std::uint32_t a, std::uint32_t b, std::uint32_t id) {
  constraint_ids_.emplace(edge_key(a, b), id);
}

void TriangleMesh::erase_constraint_id(std::uint32_t a, std::uint32_t b) { constraint_ids_.erase(edge_key(a, b)); }

void TriangleMesh::insert_constraint(std::uint32_t a, std::uint32_t b, std::uint32_t id, bool toggles) {
  std::vector<std::array<std::uint32_t, 2>> pending = {{a, b}};
  while (!pending.empty()) {
    const auto [s, e] = pending.back();
    pending.pop_back();
    recover_segment(s, e, id, toggles, pending);
  }
}

bool TriangleMesh::recover_segment(std::uint32_t a, std::uint32_t b, std::uint32_t id, bool toggles,
                                   std::vector<std::array<std::uint32_t, 2>>& pending) {
  const Vec2d A = points[a], B = points[b];
  auto mark = [&]() {
    const EdgeRef e = find_edge(a, b);
    const std::uint32_t u = triangles[e.tri].n[static_cast<std::size_t>(e.index)];
    for (std::uint32_t t : {e.tri, u}) {
      if (t == kNone) continue;
      Triangle& T = triangles[t];
      for (int k = 0; k < 3; ++k) {
        const auto K = static_cast<std::size_t>(k);
        const std::uint32_t x = T.v[static_cast<std::size_t>(next(k))], y = T.v[static_cast<std::size_t>(prev(k))];
        if ((x == a && y == b) || (x == b && y == a)) {
          T.flags[K] |= kConstrained;
          if (toggles) T.flags[K] ^= kToggles;
        }
      }
    }
    set_constraint_id(a, b, id);
  };
  if (find_edge(a, b).tri != kNone) {
    mark();
    return true;
  }
  auto on_segment = [&](std::uint32_t p) {
    const Vec2d P = points[p];
    return orient2d(A, B, P) == 0 && (P.x - A.x) * (B.x - A.x) + (P.y - A.y) * (B.y - A.y) > 0;
  };
  // The triangle around a that the segment leaves a through.
  std::uint32_t cur = kNone;
  int edge = -1;
  std::uint32_t left = kNone, right = kNone;
  for (std::uint32_t t : ring(a)) {
    const Triangle& T = triangles[t];
    const int k = index_of(T, a);
    const std::uint32_t p = T.v[static_cast<std::size_t>(next(k))], q = T.v[static_cast<std::size_t>(prev(k))];
    for (std::uint32_t x : {p, q})
      if (on_segment(x)) {
        pending.push_back({x, b});
        pending.push_back({a, x});
        return false;
      }
    if (orient2d(A, B, points[p]) < 0 && orient2d(A, B, points[q]) > 0) {
      cur = t;
      edge = k;
      left = q;
      right = p;
      break;
    }
  }
  if (cur == kNone) throw CrossingError(id, kNone);
  std::vector<std::array<std::uint32_t, 2>> crossing;
  for (;;) {
    if (triangles[cur].flags[static_cast<std::size_t>(edge)] & kConstrained) throw CrossingError(id, constraint_of(left, right));
    crossing.push_back({left, right});
    const std::uint32_t u = triangles[cur].n[static_cast<std::size_t>(edge)];
    const std::uint32_t r = apex_across(cur, edge);
    if (u == kNone || r == kNone) throw CrossingError(id, kNone);
    if (r == b) break;
    const double o = orient2d(A, B, points[r]);
    if (o == 0) {
      pending.push_back({r, b});
      pending.push_back({a, r});
      return false;
    }
    const Triangle& U = triangles[u];
    if (o > 0) {
      edge = index_of(U, left);
      left = r;
    } else {
      edge = index_of(U, right);
      right = r;
    }
    cur = u;
  }
  // Sloan: flip crossing edges whose quadrilateral is convex until none crosses a–b.
  std::deque<std::array<std::uint32_t, 2>> queue(crossing.begin(), crossing.end());
  std::vector<std::array<std::uint32_t, 2>> created;
  std::size_t guard = 0;
  const std::size_t guard_limit = 64 * (queue.size() + 4) * (queue.size() + 4);
  while (!queue.empty()) {
    if (++guard > guard_limit) throw CrossingError(id, kNone);
    const auto [p, q] = queue.front();
    queue.pop_front();
    const EdgeRef e = find_edge(p, q);
    if (e.tri == kNone) throw CrossingError(id, kNone);
    const std::uint32_t x = triangles[e.tri].v[static_cast<std::size_t>(e.index)];
    const std::uint32_t y = apex_across(e.tri, e.index);
    const double op = orient2d(points[x], points[y], points[p]), oq = orient2d(points[x], points[y], points[q]);
    if (!((op > 0 && oq < 0) || (op < 0 && oq > 0))) {
      queue.push_back({p, q});
      continue;
    }
    flip(e.tri, e.index);
    if (x != a && x != b && y != a && y != b && segments_cross(A, B, points[x], points[y]))
      queue.push_back({x, y});
    else
      created.push_back({x, y});
  }
  mark();
  legalize_edges(std::move(created));
  return true;
}

void TriangleMesh::classify() {
  std::vector<std::uint8_t> seen(triangles.size(), 0);
  std::deque<std::uint32_t> queue;
  const std::uint32_t start = vertex_triangle[0];
  triangles[start].inside = false;
  seen[start] = 1;
  queue.push_back(start);
  while (!queue.empty()) {
    const std::uint32_t t = queue.front();
    queue.pop_front();
    for (std::size_t i = 0; i < 3; ++i) {
      const std::uint32_t u = triangles[t].n[i];
      if (u == kNone || seen[u]) continue;
      seen[u] = 1;
      triangles[u].inside = triangles[t].inside != ((triangles[t].flags[i] & kToggles) != 0);
      queue.push_back(u);
    }
  }
}

}  // namespace mf::offline::mesh_core
