// Shewchuk's filtered predicates: the double evaluation with its error bound (his "A" bounds), and,
// when that cannot decide, the exact determinant in floating-point expansions. An expansion is a sum
// of doubles, ordered by increasing magnitude and non-overlapping, so its sign is the sign of its
// last (largest) component. The operations below are Shewchuk's Two-Sum, Two-Product (here with a
// fused multiply-add, exact for finite non-underflowing products), and the zero-eliminating
// expansion sum and scaling.

#include "mf/offline/mesh/robust_predicates.hpp"

#include <cmath>
#include <vector>

namespace mf::offline {

namespace {

using Expansion = std::vector<double>;

constexpr double kEpsilon = 0x1p-53;  // half an ulp of 1: the relative rounding error of one operation
constexpr double kOrientBound = (3 + 16 * kEpsilon) * kEpsilon;
constexpr double kInCircleBound = (10 + 96 * kEpsilon) * kEpsilon;

// x + y == a + b exactly, x the rounded sum.
inline void two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  const double bv = x - a;
  const double av = x - bv;
  y = (a - av) + (b - bv);
}

// As two_sum, for |a| >= |b|.
inline void fast_two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  y = b - (x - a);
}

inline void two_product(double a, double b, double& x, double& y) {
  x = a * b;
  y = std::fma(a, b, -x);
}

// a − b as an expansion.
Expansion difference(double a, double b) {
  const double x = a - b;
  const double bv = a - x;
  const double av = x + bv;
  const double y = (a - av) + (bv - b);
  Expansion e;
  if (y != 0) e.push_back(y);
  e.push_back(x);
  return e;
}

// e + f (Shewchuk's fast expansion sum with zero elimination): merge by magnitude, then carry.
Expansion add(const Expansion& e, const Expansion& f) {
  Expansion h;
  h.reserve(e.size() + f.size());
  std::size_t i = 0, j = 0;
  auto take = [&]() {
    // The next component by magnitude from e or f.
    if (j == f.size() || (i < e.size() && ((f[j] > e[i]) == (f[j] > -e[i])))) return e[i++];
    return f[j++];
  };
  const std::size_t total = e.size() + f.size();
  double q = take();
  if (total >= 2) {
    double hh;
    double next = take();
    fast_two_sum(next, q, q, hh);
    if (hh != 0) h.push_back(hh);
    for (std::size_t k = 2; k < total; ++k) {
      next = take();
      two_sum(q, next, q, hh);
      if (hh != 0) h.push_back(hh);
    }
  }
  if (q != 0 || h.empty()) h.push_back(q);
  return h;
}

Expansion negate(Expansion e) {
  for (double& x : e) x = -x;
  return e;
}

// e · b (scale expansion with zero elimination).
Expansion scale(const Expansion& e, double b) {
  Expansion h;
  h.reserve(2 * e.size());
  double q, hh;
  two_product(e[0], b, q, hh);
  if (hh != 0) h.push_back(hh);
  for (std::size_t i = 1; i < e.size(); ++i) {
    double p1, p0, sum;
    two_product(e[i], b, p1, p0);
    two_sum(q, p0, sum, hh);
    if (hh != 0) h.push_back(hh);
    fast_two_sum(p1, sum, q, hh);
    if (hh != 0) h.push_back(hh);
  }
  if (q != 0 || h.empty()) h.push_back(q);
  return h;
}

Expansion multiply(const Expansion& e, const Expansion& f) {
  Expansion h = scale(e, f[0]);
  for (std::size_t i = 1; i < f.size(); ++i) h = add(h, scale(e, f[i]));
  return h;
}

// An estimate of the expansion's value with its exact sign: summing from the smallest component up
// leaves the largest one dominant.
double estimate(const Expansion& e) {
  double s = 0;
  for (double x : e) s += x;
  if ((s > 0) != (e.back() > 0) || s == 0) return e.back();
  return s;
}

double orient2d_exact(Vec2d a, Vec2d b, Vec2d c) {
  const Expansion acx = difference(a.x, c.x), acy = difference(a.y, c.y);
  const Expansion bcx = difference(b.x, c.x), bcy = difference(b.y, c.y);
  return estimate(add(multiply(acx, bcy), negate(multiply(acy, bcx))));
}

double in_circle_exact(Vec2d a, Vec2d b, Vec2d c, Vec2d d) {
  const Expansion adx = difference(a.x, d.x), ady = difference(a.y, d.y);
  const Expansion bdx = difference(b.x, d.x), bdy = difference(b.y, d.y);
  const Expansion cdx = difference(c.x, d.x), cdy = difference(c.y, d.y);
  const Expansion alift = add(multiply(adx, adx), multiply(ady, ady));
  const Expansion blift = add(multiply(bdx, bdx), multiply(bdy, bdy));
  const Expansion clift = add(multiply(cdx, cdx), multiply(cdy, cdy));
  const Expansion bc = add(multiply(bdx, cdy), negate(multiply(cdx, bdy)));
  const Expansion ca = add(multiply(cdx, ady), negate(multiply(adx, cdy)));
  const Expansion ab = add(multiply(adx, bdy), negate(multiply(bdx, ady)));
  return estimate(add(add(multiply(alift, bc), multiply(blift, ca)), multiply(clift, ab)));
}

}  // namespace

double orient2d_inexact(Vec2d a, Vec2d b, Vec2d c) { return (a.x - c.x) * (b.y - c.y) - (a.y - c.y) * (b.x - c.x); }

double in_circle_inexact(Vec2d a, Vec2d b, Vec2d c, Vec2d d) {
  const double adx = a.x - d.x, ady = a.y - d.y;
  const double bdx = b.x - d.x, bdy = b.y - d.y;
  const double cdx = c.x - d.x, cdy = c.y - d.y;
  const double alift = adx * adx + ady * ady;
  const double blift = bdx * bdx + bdy * bdy;
  const double clift = cdx * cdx + cdy * cdy;
  return alift * (bdx * cdy - cdx * bdy) + blift * (cdx * ady - adx * cdy) + clift * (adx * bdy - bdx * ady);
}

double orient2d(Vec2d a, Vec2d b, Vec2d c) {
  const double left = (a.x - c.x) * (b.y - c.y);
  const double right = (a.y - c.y) * (b.x - c.x);
  const double det = left - right;
  // Terms of opposite signs (or a zero term) cannot cancel: the rounded difference has the right sign.
  double sum;
  if (left > 0) {
    if (right <= 0) return det;
    sum = left + right;
  } else if (left < 0) {
    if (right >= 0) return det;
    sum = -left - right;
  } else {
    return det;
  }
  const double bound = kOrientBound * sum;
  if (det >= bound || -det >= bound) return det;
  return orient2d_exact(a, b, c);
}

double in_circle(Vec2d a, Vec2d b, Vec2d c, Vec2d d) {
  const double adx = a.x - d.x, ady = a.y - d.y;
  const double bdx = b.x - d.x, bdy = b.y - d.y;
  const double cdx = c.x - d.x, cdy = c.y - d.y;
  const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
  const double cdxady = cdx * ady, adxcdy = adx * cdy;
  const double adxbdy = adx * bdy, bdxady = bdx * ady;
  const double alift = adx * adx + ady * ady;
  const double blift = bdx * bdx + bdy * bdy;
  const double clift = cdx * cdx + cdy * cdy;
  const double det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) + clift * (adxbdy - bdxady);
  const double permanent = (std::abs(bdxcdy) + std::abs(cdxbdy)) * alift + (std::abs(cdxady) + std::abs(adxcdy)) * blift +
                           (std::abs(adxbdy) + std::abs(bdxady)) * clift;
  const double bound = kInCircleBound * permanent;
  if (det > bound || -det > bound) return det;
  return in_circle_exact(a, b, c, d);
}

}  // namespace mf::offline
