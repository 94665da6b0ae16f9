// SPDX-License-Identifier: MIT
// Beam geometry for building a spec: reference lines (straight, circular arc, natural cubic
// spline through key points) and the nodes of a beam element along one, with positions and
// section frames. The deck's generated beam nodes (`nodes: N` with `from`/`to`, `arc` or
// `key_points`, and `twist`; docs/deck.md) are made by these functions, so a host gets the same
// nodes to the last bit.
//
// Lengths in m, angles in degrees (as in the deck). A reference line is a plain value: no
// allocation, copy it freely. Functions that build one take a context for the error message
// (ctx may be NULL: the status alone).
#ifndef RODRIGUES_GEOMETRY_H
#define RODRIGUES_GEOMETRY_H

#include "rodrigues/context.h"
#include "rodrigues/export.h"
#include "rodrigues/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

// largest number of key points of a spline line
#define RD_BEAM_LINE_MAX_POINTS 64

// kinds of reference lines
typedef enum rdBeamLineKind_ {
  RD_BEAM_LINE_NONE = 0,  // not built (a zeroed rdBeamLine)
  RD_BEAM_LINE_STRAIGHT,
  RD_BEAM_LINE_ARC,
  RD_BEAM_LINE_SPLINE
} rdBeamLineKind;

// A reference line, parametrized by the fraction s in [0, 1] of its arc length. Built by
// rdu_beamLineStraight, rdu_beamLineArc or rdu_beamLineSpline; `kind` and `length` may be read,
// the other fields are derived data for rdu_beamLinePoint.
typedef struct rdBeamLine_ {
  int kind;                               // rdBeamLineKind
  double length;                          // arc length, m
  double a[3], b[3];                      // straight: the ends
  double c[3], r0[3], n[3];               // arc: centre, start - centre, unit normal
  double angle;                           // arc: radians
  int nk;                                 // spline: key points
  double u[RD_BEAM_LINE_MAX_POINTS];      // spline: chord-length parameter of the key points
  double p[RD_BEAM_LINE_MAX_POINTS][3];   // spline: the key points
  double m2[RD_BEAM_LINE_MAX_POINTS][3];  // spline: second derivatives at the key points
  double sk[RD_BEAM_LINE_MAX_POINTS];     // spline: arc length at the key points
} rdBeamLine;

// The straight line from `from` to `to`. Returns RD_OK, or RD_ERR_ARG (a NULL or non-finite
// argument; "'from' and 'to' are the same point").
RD_API int rdu_beamLineStraight(rdContext* ctx, rdBeamLine* line, const double from[3],
                                const double to[3]);

// The exact circular arc that turns the point `start` about the axis through `center` along
// `normal` (right hand) by `angle` degrees, 0 < angle <= 360: radius R = |start - center|,
// length R angle. `normal` need not be a unit vector; it must be perpendicular to
// start - center (to 1e-9 R). Returns RD_OK, or RD_ERR_ARG (a NULL or non-finite argument;
// "'start' and 'center' are the same point (zero radius)", "'normal' must not be zero",
// "'normal' must be perpendicular to start - center", "'angle' must be in (0, 360] degrees").
RD_API int rdu_beamLineArc(rdContext* ctx, rdBeamLine* line, const double center[3],
                           const double start[3], double angle, const double normal[3]);

// The natural cubic spline (zero second derivative at both ends) through `npoint` key points
// (`points`: npoint x 3, row by row), 3 <= npoint <= RD_BEAM_LINE_MAX_POINTS, in the chord-length
// parameter; its arc length by 16-point Gauss-Legendre quadrature per segment. It passes through
// every key point. Returns RD_OK, or RD_ERR_ARG (NULL, too few or too many points, a non-finite
// coordinate; "key_points[i] repeats the point before it").
RD_API int rdu_beamLineSpline(rdContext* ctx, rdBeamLine* line, int npoint, const double* points);

// The point x (m) and the unit tangent t of the line at the arc-length fraction s in [0, 1]
// (on a spline, the parameter of s is found by Newton's method on the arc length, to 1e-13 of
// the length). t may be NULL. Returns RD_OK, or RD_ERR_ARG (line not built, s outside [0, 1],
// x NULL).
RD_API int rdu_beamLinePoint(const rdBeamLine* line, double s, double x[3], double t[3]);

// The n nodes of a beam element on the line, 2 <= n <= RD_BEAM_MAX_NODES, at the
// Gauss-Lobatto-Legendre points of the arc-length fraction (s = (xi + 1) / 2, xi the GLL points
// of [-1, 1]; the element's own interpolation points). Positions x (n x 3, m) and orientations q
// (n x 4, unit quaternions (w, x, y, z), body -> global): body x is the tangent; body y and z
// come from the smallest rotation taking the global x axis to the tangent (undefined for a
// tangent along -x, where a half turn about z is taken), then turned about the tangent by the
// twist, linear in s from twist[0] at s = 0 to twist[1] at s = 1 (degrees; twist NULL: none).
// A planar curve in the xy plane keeps body z = global z. Give them to rds_addNode and their
// indices to rdBeamDef.nodes. Returns RD_OK, or RD_ERR_ARG (line not built, n out of range, x or
// q NULL).
RD_API int rdu_beamLineNodes(const rdBeamLine* line, int n, const double twist[2], double* x,
                             double* q);

#ifdef __cplusplus
}
#endif

#endif  // RODRIGUES_GEOMETRY_H
