// SPDX-License-Identifier: MIT
// Beam reference lines: straight, exact circular arc, natural cubic spline through key points in
// chord length; the point and unit tangent at a fraction of the arc length; the nodes of a beam
// element at the GLL points of the arc length with their section frames.
#include "src/model/geometry.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "src/core/core.h"
#include "src/math/quadrature.h"
#include "src/math/vec3.h"

#define GEOMETRY_PI 3.14159265358979323846


// RD_ERR_ARG with the fault: argument `arg`, message from fmt
static int fault_at(rdLineFault* fault, int arg, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;


static int fault_at(rdLineFault* fault, int arg, const char* fmt, ...) {
  fault->arg = arg;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(fault->text, sizeof(fault->text), fmt, ap);
  va_end(ap);
  return RD_ERR_ARG;
}


static int finite3(const double v[3]) {
  return v && isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}


// ---------------------------------------------------------------------------------------------
// building a line

int rd_lineStraight(rdBeamLine* L, const double from[3], const double to[3], rdLineFault* fault) {
  if (!L || !finite3(from) || !finite3(to)) {
    return fault_at(fault, !finite3(from) ? 0 : 1, "a NULL line or a non-finite end");
  }
  memset(L, 0, sizeof(*L));
  v3_copy(L->a, from);
  v3_copy(L->b, to);
  double e[3];
  v3_sub(e, L->b, L->a);
  L->length = v3_norm(e);
  if (!(L->length > 0)) {
    return fault_at(fault, 1, "'from' and 'to' are the same point");
  }
  L->kind = RD_BEAM_LINE_STRAIGHT;
  return RD_OK;
}


int rd_lineArc(rdBeamLine* L, const double center[3], const double start[3], double angle,
               const double normal[3], rdLineFault* fault) {
  if (!L || !finite3(center) || !finite3(start) || !isfinite(angle) || !finite3(normal)) {
    int arg = !finite3(center) ? 0 : !finite3(start) ? 1 : !isfinite(angle) ? 2 : 3;
    return fault_at(fault, arg, "a NULL line or a non-finite argument");
  }
  memset(L, 0, sizeof(*L));
  v3_copy(L->c, center);
  v3_sub(L->r0, start, center);
  double R = v3_norm(L->r0), nn = v3_norm(normal);
  if (!(R > 0)) {
    return fault_at(fault, 1, "'start' and 'center' are the same point (zero radius)");
  }
  if (!(nn > 0)) {
    return fault_at(fault, 3, "'normal' must not be zero");
  }
  for (int j = 0; j < 3; j++) {
    L->n[j] = normal[j] / nn;
  }
  if (fabs(v3_dot(L->n, L->r0)) > 1e-9 * R) {
    return fault_at(fault, 3, "'normal' must be perpendicular to start - center");
  }
  if (!(angle > 0 && angle <= 360)) {
    return fault_at(fault, 2,
                    "'angle' must be in (0, 360] degrees, got %g (turn the 'normal' over to "
                    "curve the other way)",
                    angle);
  }
  L->angle = angle * GEOMETRY_PI / 180;
  L->length = R * L->angle;
  L->kind = RD_BEAM_LINE_ARC;
  return RD_OK;
}


// spline segment i at parameter u: position x and derivative dx (either may be NULL)
static void spline_eval(const rdBeamLine* L, int i, double u, double x[3], double dx[3]) {
  double h = L->u[i + 1] - L->u[i], A = (L->u[i + 1] - u) / h, B = (u - L->u[i]) / h;
  for (int j = 0; j < 3; j++) {
    double y0 = L->p[i][j], y1 = L->p[i + 1][j], m0 = L->m2[i][j], m1 = L->m2[i + 1][j];
    if (x) {
      x[j] = A * y0 + B * y1 + ((A * A * A - A) * m0 + (B * B * B - B) * m1) * h * h / 6;
    }
    if (dx) {
      dx[j] = (y1 - y0) / h + (-(3 * A * A - 1) * m0 + (3 * B * B - 1) * m1) * h / 6;
    }
  }
}


// arc length of spline segment i from u[i] to u (16-point Gauss)
static double spline_length(const rdBeamLine* L, int i, double u) {
  double xg[16], wg[16], len = 0;
  rd_gaussLegendre(16, xg, wg);
  double a = L->u[i], half = 0.5 * (u - a);
  for (int g = 0; g < 16; g++) {
    double d[3];
    spline_eval(L, i, a + half * (xg[g] + 1), NULL, d);
    len += wg[g] * half * v3_norm(d);
  }
  return len;
}


int rd_lineSpline(rdBeamLine* L, int npoint, const double* points, rdLineFault* fault) {
  if (!L || !points || npoint < 3 || npoint > RD_BEAM_LINE_MAX_POINTS) {
    return fault_at(fault, -1, "a spline needs 3 to %d key points, got %d", RD_BEAM_LINE_MAX_POINTS,
                    points ? npoint : 0);
  }
  memset(L, 0, sizeof(*L));
  int n = L->nk = npoint;
  for (int i = 0; i < n; i++) {
    const double* p = points + 3 * i;
    if (!finite3(p)) {
      return fault_at(fault, i, "key_points[%d] is not finite", i);
    }
    if (i > 0 && p[0] == p[-3] && p[1] == p[-2] && p[2] == p[-1]) {
      return fault_at(fault, i, "key_points[%d] repeats the point before it", i);
    }
    v3_copy(L->p[i], p);
  }
  // chord length
  L->u[0] = 0;
  for (int i = 1; i < n; i++) {
    double e[3];
    v3_sub(e, L->p[i], L->p[i - 1]);
    L->u[i] = L->u[i - 1] + v3_norm(e);
  }
  // tridiagonal system for the second derivatives (zero at both ends), Thomas algorithm
  double c[RD_BEAM_LINE_MAX_POINTS], d[RD_BEAM_LINE_MAX_POINTS][3];
  for (int j = 0; j < 3; j++) {
    L->m2[0][j] = L->m2[n - 1][j] = 0;
  }
  c[0] = 0;
  for (int j = 0; j < 3; j++) {
    d[0][j] = 0;
  }
  for (int i = 1; i < n - 1; i++) {
    double h0 = L->u[i] - L->u[i - 1], h1 = L->u[i + 1] - L->u[i];
    double a = h0 / 6, b = (h0 + h1) / 3, cc = h1 / 6;
    double den = b - a * c[i - 1];
    c[i] = cc / den;
    for (int j = 0; j < 3; j++) {
      double rhs = (L->p[i + 1][j] - L->p[i][j]) / h1 - (L->p[i][j] - L->p[i - 1][j]) / h0;
      d[i][j] = (rhs - a * d[i - 1][j]) / den;
    }
  }
  for (int i = n - 2; i >= 1; i--) {
    for (int j = 0; j < 3; j++) {
      L->m2[i][j] = d[i][j] - c[i] * L->m2[i + 1][j];
    }
  }
  // arc length at the key points
  L->sk[0] = 0;
  for (int i = 0; i < n - 1; i++) {
    L->sk[i + 1] = L->sk[i] + spline_length(L, i, L->u[i + 1]);
  }
  L->length = L->sk[n - 1];
  L->kind = RD_BEAM_LINE_SPLINE;
  return RD_OK;
}


// the public builders: the fault's message into ctx
static int raise_fault(rdContext* ctx, int status, const rdLineFault* fault) {
  return status == RD_OK ? RD_OK : RD_ERROR(ctx, status, "%s", fault->text);
}


int rdu_beamLineStraight(rdContext* ctx, rdBeamLine* line, const double from[3],
                         const double to[3]) {
  rdLineFault f;
  return raise_fault(ctx, rd_lineStraight(line, from, to, &f), &f);
}


int rdu_beamLineArc(rdContext* ctx, rdBeamLine* line, const double center[3], const double start[3],
                    double angle, const double normal[3]) {
  rdLineFault f;
  return raise_fault(ctx, rd_lineArc(line, center, start, angle, normal, &f), &f);
}


int rdu_beamLineSpline(rdContext* ctx, rdBeamLine* line, int npoint, const double* points) {
  rdLineFault f;
  return raise_fault(ctx, rd_lineSpline(line, npoint, points, &f), &f);
}


// ---------------------------------------------------------------------------------------------
// points on a line

// point x and unit tangent t at the fraction s of the arc length
static void line_point(const rdBeamLine* L, double s, double x[3], double t[3]) {
  if (L->kind == RD_BEAM_LINE_STRAIGHT) {
    double e[3];
    v3_sub(e, L->b, L->a);
    double len = v3_norm(e);
    for (int j = 0; j < 3; j++) {
      x[j] = L->a[j] + s * e[j];
      t[j] = e[j] / len;
    }
  } else if (L->kind == RD_BEAM_LINE_ARC) {
    // Rodrigues' formula: r0 turned by phi about n (n perpendicular to r0)
    double phi = s * L->angle, nr[3];
    v3_cross(nr, L->n, L->r0);
    double R = v3_norm(L->r0);
    for (int j = 0; j < 3; j++) {
      x[j] = L->c[j] + cos(phi) * L->r0[j] + sin(phi) * nr[j];
      t[j] = (-sin(phi) * L->r0[j] + cos(phi) * nr[j]) / R;
    }
  } else {
    double target = s * L->length;
    int i = 0;
    while (i < L->nk - 2 && L->sk[i + 1] < target) {
      i++;
    }
    // Newton on the arc length within segment i, safeguarded by bisection
    double lo = L->u[i], hi = L->u[i + 1],
           u = lo + (hi - lo) * (target - L->sk[i]) / (L->sk[i + 1] - L->sk[i]);
    for (int it = 0; it < 60; it++) {
      double d[3];
      double f = L->sk[i] + spline_length(L, i, u) - target;
      if (fabs(f) < 1e-13 * L->length) {
        break;
      }
      if (f > 0) {
        hi = u;
      } else {
        lo = u;
      }
      spline_eval(L, i, u, NULL, d);
      double un = u - f / v3_norm(d);
      u = un > lo && un < hi ? un : 0.5 * (lo + hi);
    }
    spline_eval(L, i, u, x, t);
    double len = v3_norm(t);
    for (int j = 0; j < 3; j++) {
      t[j] /= len;
    }
  }
}


static int line_built(const rdBeamLine* L) {
  return L && L->kind >= RD_BEAM_LINE_STRAIGHT && L->kind <= RD_BEAM_LINE_SPLINE;
}


int rdu_beamLinePoint(const rdBeamLine* line, double s, double x[3], double t[3]) {
  if (!line_built(line) || !x || !(s >= 0 && s <= 1)) {
    return RD_ERR_ARG;
  }
  double tt[3];
  line_point(line, s, x, t ? t : tt);
  return RD_OK;
}


// quaternion of the smallest rotation taking the x axis to the unit vector e
static void x_to(double q[4], const double e[3]) {
  // q = (1 + x.e, x cross e), normalized; opposite to x: half a turn about z
  double r[4] = {1 + e[0], 0, -e[2], e[1]};
  if (e[0] < -1 + 1e-14) {
    r[0] = r[1] = r[2] = 0;
    r[3] = 1;
  }
  double n = sqrt(r[0] * r[0] + r[2] * r[2] + r[3] * r[3]);
  for (int k = 0; k < 4; k++) {
    q[k] = r[k] / n;
  }
}


int rdu_beamLineNodes(const rdBeamLine* line, int n, const double twist[2], double* x, double* q) {
  if (!line_built(line) || n < 2 || n > RD_BEAM_MAX_NODES || !x || !q) {
    return RD_ERR_ARG;
  }
  double xi[RD_BEAM_MAX_NODES], tw[2] = {0, 0};
  if (twist) {
    tw[0] = twist[0];
    tw[1] = twist[1];
  }
  rd_gaussLobatto(n, xi);
  for (int k = 0; k < n; k++) {
    double s = 0.5 * (xi[k] + 1), t[3], q0[4];
    line_point(line, s, x + 3 * k, t);
    x_to(q0, t);
    // turned by the twist about body x: q0 * (cos, sin x) of half the angle
    double th = (tw[0] + s * (tw[1] - tw[0])) * GEOMETRY_PI / 360;
    double c = cos(th), sn = sin(th);
    double* qk = q + 4 * k;
    qk[0] = q0[0] * c - q0[1] * sn;
    qk[1] = q0[1] * c + q0[0] * sn;
    qk[2] = q0[2] * c + q0[3] * sn;
    qk[3] = q0[3] * c - q0[2] * sn;
  }
  return RD_OK;
}
