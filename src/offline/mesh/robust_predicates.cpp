// Shewchuk's filtered predicates: the double evaluation with its error bound (his "A" bounds), and,
// when that cannot decide, the exact determinant in floating-point expansions. An expansion is a sum
// of doubles, ordered by increasing magnitude and non-overlapping, so its sign is the sign of its
// last (largest) component. The operations below are Shewchuk's Two-Sum, Two-Product (here with a
// fused multiply-add, exact for finite non-underflowing products), and the zero-eliminating
// expansion sum and scaling.

#include "mf/offline/mesh/robust_predicates.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace mf::offline {

namespace {

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

// Expansions live in fixed arrays on the stack (no allocation on the exact path): each function
// writes its result to h and returns the number of components, which never exceeds the bound its
// comment gives.

// a − b (at most 2 components).
int difference(double a, double b, double* h) {
  const double x = a - b;
  const double bv = a - x;
  const double av = x + bv;
  const double y = (a - av) + (bv - b);
  int n = 0;
  if (y != 0) h[n++] = y;
  h[n++] = x;
  return n;
}

// e + f (Shewchuk's fast expansion sum with zero elimination: merge by magnitude, then carry; at
// most ne + nf components).
int add(const double* e, int ne, const double* f, int nf, double* h) {
  int i = 0, j = 0, n = 0;
  auto take = [&]() {
    // The next component by magnitude from e or f.
    if (j == nf || (i < ne && ((f[j] > e[i]) == (f[j] > -e[i])))) return e[i++];
    return f[j++];
  };
  const int total = ne + nf;
  double q = take();
  if (total >= 2) {
    double hh;
    fast_two_sum(take(), q, q, hh);
    if (hh != 0) h[n++] = hh;
    for (int k = 2; k < total; ++k) {
      two_sum(q, take(), q, hh);
      if (hh != 0) h[n++] = hh;
    }
  }
  if (q != 0 || n == 0) h[n++] = q;
  return n;
}

// e · b (scale expansion with zero elimination; at most 2·ne components).
int scale(const double* e, int ne, double b, double* h) {
  int n = 0;
  double q, hh;
  two_product(e[0], b, q, hh);
  if (hh != 0) h[n++] = hh;
  for (int i = 1; i < ne; ++i) {
    double p1, p0, sum;
    two_product(e[i], b, p1, p0);
    two_sum(q, p0, sum, hh);
    if (hh != 0) h[n++] = hh;
    fast_two_sum(p1, sum, q, hh);
    if (hh != 0) h[n++] = hh;
  }
  if (q != 0 || n == 0) h[n++] = q;
  return n;
}

// e · f for ne, nf ≤ 16 (at most 2·ne·nf components).
int multiply(const double* e, int ne, const double* f, int nf, double* h) {
  std::array<double, 32> scaled;
  std::array<double, 512> sum;
  int n = scale(e, ne, f[0], h);
  for (int i = 1; i < nf; ++i) {
    const int m = scale(e, ne, f[i], scaled.data());
    std::copy(h, h + n, sum.begin());
    n = add(sum.data(), n, scaled.data(), m, h);
  }
  return n;
}

void negate(double* e, int n) {
  for (int i = 0; i < n; ++i) e[i] = -e[i];
}

// An estimate of the expansion's value with its exact sign: summing from the smallest component up
// leaves the largest one dominant.
double estimate(const double* e, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += e[i];
  if ((s > 0) != (e[n - 1] > 0) || s == 0) return e[n - 1];
  return s;
}

// x·y − z·w for 2-component x, y, z, w (at most 16 components).
int cross_difference(const double* x, int nx, const double* y, int ny, const double* z, int nz, const double* w, int nw,
                     double* h) {
  std::array<double, 8> xy, zw;
  const int a = multiply(x, nx, y, ny, xy.data());
  const int b = multiply(z, nz, w, nw, zw.data());
  negate(zw.data(), b);
  return add(xy.data(), a, zw.data(), b, h);
}

double orient2d_exact(Vec2d a, Vec2d b, Vec2d c) {
  double acx[2], acy[2], bcx[2], bcy[2], det[16];
  const int n1 = difference(a.x, c.x, acx), n2 = difference(a.y, c.y, acy);
  const int n3 = difference(b.x, c.x, bcx), n4 = difference(b.y, c.y, bcy);
  const int n = cross_difference(acx, n1, bcy, n4, acy, n2, bcx, n3, det);
  return estimate(det, n);
}

double in_circle_exact(Vec2d a, Vec2d b, Vec2d c, Vec2d d) {
  double adx[2], ady[2], bdx[2], bdy[2], cdx[2], cdy[2];
  const int nadx = difference(a.x, d.x, adx), nady = difference(a.y, d.y, ady);
  const int nbdx = difference(b.x, d.x, bdx), nbdy = difference(b.y, d.y, bdy);
  const int ncdx = difference(c.x, d.x, cdx), ncdy = difference(c.y, d.y, cdy);
  // lift = dx² + dy² (at most 16 components each).
  auto lift = [](const double* x, int nx, const double* y, int ny, double* h) {
    double xx[8], yy[8];
    const int a = multiply(x, nx, x, nx, xx), b = multiply(y, ny, y, ny, yy);
    return add(xx, a, yy, b, h);
  };
  double alift[16], blift[16], clift[16], bc[16], ca[16], ab[16];
  const int nal = lift(adx, nadx, ady, nady, alift), nbl = lift(bdx, nbdx, bdy, nbdy, blift), ncl = lift(cdx, ncdx, cdy, ncdy, clift);
  const int nbc = cross_difference(bdx, nbdx, cdy, ncdy, cdx, ncdx, bdy, nbdy, bc);
  const int nca = cross_difference(cdx, ncdx, ady, nady, adx, nadx, cdy, ncdy, ca);
  const int nab = cross_difference(adx, nadx, bdy, nbdy, bdx, nbdx, ady, nady, ab);
  std::array<double, 512> ta, tb, tc;
  std::array<double, 1024> tab;
  std::array<double, 1536> det;
  const int na = multiply(alift, nal, bc, nbc, ta.data());
  const int nb = multiply(blift, nbl, ca, nca, tb.data());
  const int nc = multiply(clift, ncl, ab, nab, tc.data());
  const int nt = add(ta.data(), na, tb.data(), nb, tab.data());
  const int n = add(tab.data(), nt, tc.data(), nc, det.data());
  return estimate(det.data(), n);
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
