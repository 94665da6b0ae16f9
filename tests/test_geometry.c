// SPDX-License-Identifier: MIT
// Tests of the beam geometry API (include/rodrigues/geometry.h, src/model/geometry.c): the
// nodes it generates are the deck's to the bit (tests/decks/good/beam_lines.yaml), and the lines
// are exact where geometry says what they must be: points of an arc at its radius and angle,
// GLL fractions of a straight line, a spline through its key points with a continuous tangent,
// a spline through collinear points straight, the twist as a rotation about the tangent.
// Run from the source root.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "src/math/quadrature.h"
#include "src/model/spec_impl.h"
#include "tests/test_macros.h"

#define DECK "tests/decks/good/beam_lines.yaml"
#define PI 3.14159265358979323846

// the deck's three lines (keep in step with DECK)
static const double spline_points[9][3] = {{10, 0, 0},
                                           {9.807852804, 1.950903220, 0},
                                           {9.238795325, 3.826834324, 0},
                                           {8.314696123, 5.555702330, 0},
                                           {7.071067812, 7.071067812, 0},
                                           {5.555702330, 8.314696123, 0},
                                           {3.826834324, 9.238795325, 0},
                                           {1.950903220, 9.807852804, 0},
                                           {0, 10, 0}};


static double dist3(const double a[3], const double b[3]) {
  return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
              (a[2] - b[2]) * (a[2] - b[2]));
}


// body axis k (0 x, 1 y, 2 z) of the orientation q, in global components
static void body_axis(double e[3], const double q[4], int k) {
  double R[9];
  rdu_quatToMat(R, q);
  for (int i = 0; i < 3; i++) {
    e[i] = R[3 * i + k];
  }
}


// the nodes NAME_0 .. NAME_{n-1} of the deck's spec: bitwise the same as the nodes a host adds
// from x (n x 3) and q (n x 4) with rds_addNode (which normalizes the quaternion as for the deck)?
static int same_as_deck(const rdSpec* deck, const char* name, int n, const double* x,
                        const double* q) {
  rdSpec* host = NULL;
  if (rd_createSpec(deck->ctx, &host) != RD_OK) {
    return 0;
  }
  for (int k = 0; k < n; k++) {
    char nm[64];
    snprintf(nm, sizeof(nm), "%s_%d", name, k);
    rdNodeDef def = rd_defaultNodeDef();
    def.name = nm;
    memcpy(def.position, x + 3 * k, sizeof(def.position));
    memcpy(def.orientation, q + 4 * k, sizeof(def.orientation));
    rds_addNode(host, &def);
  }
  const rdNodeDef* dn = deck->nodes.items;
  const rdNodeDef* hn = host->nodes.items;
  int found = 0, same = host->nodes.count == n;
  for (int i = 0; i < deck->nodes.count; i++) {
    for (int k = 0; k < host->nodes.count; k++) {
      if (!strcmp(dn[i].name, hn[k].name)) {
        found++;
        same = same && !memcmp(dn[i].position, hn[k].position, sizeof(hn[k].position)) &&
               !memcmp(dn[i].orientation, hn[k].orientation, sizeof(hn[k].orientation));
      }
    }
  }
  rd_destroySpec(&host);
  return found == n && same;
}


// the API gives the deck's nodes, bit for bit
static void test_deck_nodes(void) {
  rdContext* ctx = NULL;
  rdSpec* spec = NULL;
  CHECK(rd_createContext(&ctx, NULL) == RD_OK);
  int st = rd_readDeck(ctx, DECK, NULL, 0, &spec);
  CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  if (st != RD_OK) {
    rd_destroyContext(&ctx);
    return;
  }
  rdBeamLine L;
  double x[RD_BEAM_MAX_NODES * 3], q[RD_BEAM_MAX_NODES * 4];

  const double from[3] = {0, 0, 0}, to[3] = {0, 10, 0}, twist[2] = {0, 90};
  CHECK(rdu_beamLineStraight(ctx, &L, from, to) == RD_OK);
  CHECK(rdu_beamLineNodes(&L, 5, twist, x, q) == RD_OK);
  CHECK(same_as_deck(spec, "twisted", 5, x, q));

  const double c[3] = {0, 0, 5}, p[3] = {10, 0, 5}, n[3] = {0, 0, 2};
  CHECK(rdu_beamLineArc(ctx, &L, c, p, 90, n) == RD_OK);
  CHECK(rdu_beamLineNodes(&L, 7, NULL, x, q) == RD_OK);
  CHECK(same_as_deck(spec, "arc", 7, x, q));

  CHECK(rdu_beamLineSpline(ctx, &L, 9, &spline_points[0][0]) == RD_OK);
  CHECK(rdu_beamLineNodes(&L, 7, NULL, x, q) == RD_OK);
  CHECK(same_as_deck(spec, "spline", 7, x, q));
  // a changed bit shows: the check can fail
  x[3] = nextafter(x[3], 1e300);
  CHECK(!same_as_deck(spec, "spline", 7, x, q));

  rd_destroySpec(&spec);
  rd_destroyContext(&ctx);
}


// a straight line: nodes at a + s (b - a) for the GLL fractions s, body x along b - a
static void test_straight(void) {
  const double a[3] = {1, -2, 3}, b[3] = {4, 2, 3};  // length 5
  rdBeamLine L;
  double x[5 * 3], q[5 * 4], xi[5];
  CHECK(rdu_beamLineStraight(NULL, &L, a, b) == RD_OK);
  CHECK(L.kind == RD_BEAM_LINE_STRAIGHT && L.length == 5);
  CHECK(rdu_beamLineNodes(&L, 5, NULL, x, q) == RD_OK);
  rd_gaussLobatto(5, xi);
  double err = 0, axis = 0;
  for (int k = 0; k < 5; k++) {
    double s = 0.5 * (xi[k] + 1), e1[3];
    for (int j = 0; j < 3; j++) {
      err = fmax(err, fabs(x[3 * k + j] - (a[j] + s * (b[j] - a[j]))));
    }
    body_axis(e1, q + 4 * k, 0);
    axis = fmax(axis, fabs(e1[0] - 0.6) + fabs(e1[1] - 0.8) + fabs(e1[2]));
  }
  CHECK_NEAR(err, 0, 4e-15);
  CHECK_NEAR(axis, 0, 4e-16);
}


// an arc: every point at the radius, in the plane, at the angle s * angle from start; the tangent
// unit, perpendicular to the radius, turning the right way; body x the tangent
static void test_arc(void) {
  const double c[3] = {1, 2, 3}, p[3] = {1, 2 + 7, 3}, n[3] = {3, 0, 0};  // radius 7, about +x
  const double angle = 300;
  rdBeamLine L;
  CHECK(rdu_beamLineArc(NULL, &L, c, p, angle, n) == RD_OK);
  CHECK(L.kind == RD_BEAM_LINE_ARC);
  CHECK_NEAR(L.length, 7 * angle * PI / 180, 1e-14 * L.length);
  double rad = 0, plane = 0, ang = 0, tan_err = 0;
  for (int i = 0; i <= 100; i++) {
    double s = i / 100.0, x[3], t[3];
    CHECK(rdu_beamLinePoint(&L, s, x, t) == RD_OK);
    double r[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
    rad = fmax(rad, fabs(sqrt(r[1] * r[1] + r[2] * r[2] + r[0] * r[0]) - 7));
    plane = fmax(plane, fabs(r[0]));
    // angle from start (+y) about +x: atan2(z, y), in [0, 2 pi)
    double phi = atan2(r[2], r[1]);
    phi = phi < -1e-12 ? phi + 2 * PI : phi;
    ang = fmax(ang, fabs(phi - s * angle * PI / 180) * 7);
    // tangent = x-axis cross radius / R
    double want[3] = {0, -r[2] / 7, r[1] / 7};
    tan_err = fmax(tan_err, dist3(t, want));
  }
  CHECK_NEAR(rad, 0, 8 * 2.2e-16 * 7);
  CHECK_NEAR(plane, 0, 0);
  CHECK_NEAR(ang, 0, 1e-13);
  CHECK_NEAR(tan_err, 0, 4e-16);
  double x[7 * 3], q[7 * 4], worst = 0;
  CHECK(rdu_beamLineNodes(&L, 7, NULL, x, q) == RD_OK);
  for (int k = 0; k < 7; k++) {
    double xi[7], t[3], xx[3], e1[3];
    rd_gaussLobatto(7, xi);
    rdu_beamLinePoint(&L, 0.5 * (xi[k] + 1), xx, t);
    body_axis(e1, q + 4 * k, 0);
    worst = fmax(worst, dist3(e1, t) + dist3(xx, x + 3 * k));
  }
  CHECK_NEAR(worst, 0, 4e-16);
}


// a spline: through its key points, tangent continuous at them, collinear points give a line
static void test_spline(void) {
  rdBeamLine L;
  CHECK(rdu_beamLineSpline(NULL, &L, 9, &spline_points[0][0]) == RD_OK);
  CHECK(L.kind == RD_BEAM_LINE_SPLINE);
  // the quarter circle of radius 10 is 15.70796...; the natural spline through 9 of its points,
  // straight at the ends, is shorter by 2.6e-3
  CHECK_NEAR(L.length, 5 * PI, 3e-3);
  CHECK(L.length < 5 * PI);
  double through = 0;
  for (int i = 0; i < 9; i++) {
    double x[3];
    CHECK(rdu_beamLinePoint(&L, L.sk[i] / L.length, x, NULL) == RD_OK);
    through = fmax(through, dist3(x, spline_points[i]));
  }
  CHECK_NEAR(through, 0, 1e-12 * L.length);
  // the tangent across each inner key point: the difference shrinks with the step, as for a
  // continuous tangent (a kink would leave it at the kink's size)
  for (int i = 1; i < 8; i++) {
    double s = L.sk[i] / L.length, jump[2];
    for (int h = 0; h < 2; h++) {
      double d = h ? 1e-7 : 1e-6, xm[3], xp[3], tm[3], tp[3];
      rdu_beamLinePoint(&L, s - d, xm, tm);
      rdu_beamLinePoint(&L, s + d, xp, tp);
      jump[h] = dist3(tm, tp);
    }
    CHECK_MSG(jump[0] < 1e-5 && jump[1] < 0.2 * jump[0], "key point %d: %.3e, %.3e", i, jump[0],
              jump[1]);
  }
  // collinear, unevenly spaced points: the natural spline is the straight line
  const double line_points[4][3] = {{0, 0, 0}, {1, 2, 2}, {1.5, 3, 3}, {3, 6, 6}};
  rdBeamLine S, T;
  const double a[3] = {0, 0, 0}, b[3] = {3, 6, 6};
  CHECK(rdu_beamLineSpline(NULL, &S, 4, &line_points[0][0]) == RD_OK);
  CHECK(rdu_beamLineStraight(NULL, &T, a, b) == RD_OK);
  CHECK_NEAR(S.length, 9, 1e-13);
  double xs[6 * 3], qs[6 * 4], xt[6 * 3], qt[6 * 4], dx = 0, dq = 0;
  CHECK(rdu_beamLineNodes(&S, 6, NULL, xs, qs) == RD_OK);
  CHECK(rdu_beamLineNodes(&T, 6, NULL, xt, qt) == RD_OK);
  for (int k = 0; k < 6; k++) {
    dx = fmax(dx, dist3(xs + 3 * k, xt + 3 * k));
    dq = fmax(dq, fabs(qs[4 * k] - qt[4 * k]) + dist3(qs + 4 * k + 1, qt + 4 * k + 1));
  }
  CHECK_NEAR(dx, 0, 1e-12);
  CHECK_NEAR(dq, 0, 1e-14);
}


// the twist: the twisted frame is the untwisted one turned about body x by the linear twist
static void test_twist(void) {
  const double c[3] = {0, 0, 0}, p[3] = {2, 0, 0}, n[3] = {0, 0, 1}, twist[2] = {-30, 120};
  rdBeamLine L;
  CHECK(rdu_beamLineArc(NULL, &L, c, p, 180, n) == RD_OK);
  double x0[6 * 3], q0[6 * 4], x1[6 * 3], q1[6 * 4], xi[6], err = 0, planar = 0;
  CHECK(rdu_beamLineNodes(&L, 6, NULL, x0, q0) == RD_OK);
  CHECK(rdu_beamLineNodes(&L, 6, twist, x1, q1) == RD_OK);
  CHECK(!memcmp(x0, x1, sizeof(x0)));
  rd_gaussLobatto(6, xi);
  for (int k = 0; k < 6; k++) {
    double s = 0.5 * (xi[k] + 1), th = (-30 + 150 * s) * PI / 180, rel[4], conj[4], psi[3];
    rdu_quatConj(conj, q0 + 4 * k);
    rdu_quatMul(rel, conj, q1 + 4 * k);
    rdu_quatToRotvec(psi, rel);
    err = fmax(err, fabs(psi[0] - th) + fabs(psi[1]) + fabs(psi[2]));
    double e3[3];
    body_axis(e3, q0 + 4 * k, 2);  // planar in xy: body z = global z without twist
    planar = fmax(planar, dist3(e3, n));
  }
  CHECK_NEAR(err, 0, 1e-15);
  CHECK_NEAR(planar, 0, 4e-16);
}


// every fault: its status and message
static void test_errors(void) {
  rdContext* ctx = NULL;
  CHECK(rd_createContext(&ctx, NULL) == RD_OK);
  rdBeamLine L;
  const double o[3] = {0, 0, 0}, x[3] = {1, 0, 0}, z[3] = {0, 0, 1}, nan3[3] = {NAN, 0, 0};
  CHECK(rdu_beamLineStraight(ctx, &L, o, o) == RD_ERR_ARG);
  CHECK(!strcmp(rd_lastError(ctx), "'from' and 'to' are the same point"));
  CHECK(rdu_beamLineStraight(ctx, &L, o, nan3) == RD_ERR_ARG);
  CHECK(rdu_beamLineStraight(ctx, NULL, o, x) == RD_ERR_ARG);
  CHECK(rdu_beamLineArc(ctx, &L, o, o, 90, z) == RD_ERR_ARG);
  CHECK(!strcmp(rd_lastError(ctx), "'start' and 'center' are the same point (zero radius)"));
  CHECK(rdu_beamLineArc(ctx, &L, o, x, 90, o) == RD_ERR_ARG);
  CHECK(!strcmp(rd_lastError(ctx), "'normal' must not be zero"));
  CHECK(rdu_beamLineArc(ctx, &L, o, x, 90, x) == RD_ERR_ARG);
  CHECK(!strcmp(rd_lastError(ctx), "'normal' must be perpendicular to start - center"));
  CHECK(rdu_beamLineArc(ctx, &L, o, x, 360.5, z) == RD_ERR_ARG);
  CHECK(!strncmp(rd_lastError(ctx), "'angle' must be in (0, 360] degrees, got 360.5", 46));
  CHECK(rdu_beamLineArc(ctx, &L, o, x, 0, z) == RD_ERR_ARG);
  CHECK(rdu_beamLineArc(ctx, &L, o, x, NAN, z) == RD_ERR_ARG);
  CHECK(rdu_beamLineArc(NULL, &L, o, x, 360, z) == RD_OK);
  const double rep[3][3] = {{0, 0, 0}, {1, 0, 0}, {1, 0, 0}};
  CHECK(rdu_beamLineSpline(ctx, &L, 3, &rep[0][0]) == RD_ERR_ARG);
  CHECK(!strcmp(rd_lastError(ctx), "key_points[2] repeats the point before it"));
  CHECK(rdu_beamLineSpline(ctx, &L, 2, &rep[0][0]) == RD_ERR_ARG);
  CHECK(rdu_beamLineSpline(ctx, &L, RD_BEAM_LINE_MAX_POINTS + 1, &rep[0][0]) == RD_ERR_ARG);
  CHECK(rdu_beamLineSpline(ctx, &L, 3, NULL) == RD_ERR_ARG);
  // evaluation: a line not built, s out of range, n out of range
  rdBeamLine none;
  memset(&none, 0, sizeof(none));
  double xx[3], q[4 * (RD_BEAM_MAX_NODES + 1)], xs[3 * (RD_BEAM_MAX_NODES + 1)];
  CHECK(rdu_beamLinePoint(&none, 0.5, xx, NULL) == RD_ERR_ARG);
  CHECK(rdu_beamLineStraight(ctx, &L, o, x) == RD_OK);
  CHECK(rdu_beamLinePoint(&L, 1.5, xx, NULL) == RD_ERR_ARG);
  CHECK(rdu_beamLinePoint(&L, -0.1, xx, NULL) == RD_ERR_ARG);
  CHECK(rdu_beamLinePoint(&L, NAN, xx, NULL) == RD_ERR_ARG);
  CHECK(rdu_beamLinePoint(&L, 1, NULL, NULL) == RD_ERR_ARG);
  CHECK(rdu_beamLinePoint(&L, 1, xx, NULL) == RD_OK && xx[0] == 1);
  CHECK(rdu_beamLineNodes(&L, 1, NULL, xs, q) == RD_ERR_ARG);
  CHECK(rdu_beamLineNodes(&L, RD_BEAM_MAX_NODES + 1, NULL, xs, q) == RD_ERR_ARG);
  CHECK(rdu_beamLineNodes(&L, RD_BEAM_MAX_NODES, NULL, xs, q) == RD_OK);
  CHECK(rdu_beamLineNodes(&none, 2, NULL, xs, q) == RD_ERR_ARG);
  CHECK(rdu_beamLineNodes(&L, 2, NULL, NULL, q) == RD_ERR_ARG);
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_deck_nodes());
  TEST_CASE(test_straight());
  TEST_CASE(test_arc());
  TEST_CASE(test_spline());
  TEST_CASE(test_twist());
  TEST_CASE(test_errors());
  return TEST_SUMMARY();
}
