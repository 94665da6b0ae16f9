// SPDX-License-Identifier: MIT
// Beam element kernel in isolation: basis, exact tangents against Lie-group differences,
// objectivity, patch tests, static roll-up (B1) and composite cantilever (B3).
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "elements/beam.h"
#include "rodrigues/liegroup.h"
#include "src/math/vec3.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

#define PI 3.14159265358979323846
#define RND() (2.0 * rand() / RAND_MAX - 1)

static rdContext* ctx;

// ---------------------------------------------------------------------------------------------
// basis and quadrature

static void test_basis(void) {
  double x[64], w[64], phi[64], dphi[64];
  CHECK(rd_gaussLobatto(3, x) == RD_OK);
  CHECK_NEAR(x[1], 0, 1e-15);
  rd_gaussLobatto(5, x);
  CHECK_NEAR(x[1], -sqrt(3.0 / 7), 1e-15);
  CHECK_NEAR(x[3], sqrt(3.0 / 7), 1e-15);
  rd_gaussLobatto(4, x);
  CHECK_NEAR(x[2], sqrt(1.0 / 5), 1e-15);
  CHECK(rd_gaussLobatto(1, x) == RD_ERR_ARG);
  // Gauss with n points integrates x^k exactly for k <= 2n - 1
  double worst = 0;
  for (int n = 1; n <= 40; n++) {
    rd_gaussLegendre(n, x, w);
    for (int k = 0; k <= 2 * n - 1; k++) {
      double s = 0;
      for (int i = 0; i < n; i++) {
        s += w[i] * pow(x[i], k);
      }
      double ex = k % 2 ? 0 : 2.0 / (k + 1);
      worst = fmax(worst, fabs(s - ex));
    }
  }
  CHECK_MSG(worst < 1e-13, "gauss moments %g", worst);
  // Lagrange on GLL nodes: interpolates polynomials of degree n - 1 and their derivatives
  worst = 0;
  for (int n = 2; n <= 20; n++) {
    double xn[64];
    rd_gaussLobatto(n, xn);
    for (int t = 0; t < 7; t++) {
      double xx = -1 + 2.0 * t / 6.3;
      rd_lagrangeBasis(n, xn, xx, phi, dphi);
      double f = 0, df = 0;
      for (int k = 0; k < n; k++) {
        f += phi[k] * pow(xn[k], n - 1);
        df += dphi[k] * pow(xn[k], n - 1);
      }
      worst = fmax(worst, fabs(f - pow(xx, n - 1)));
      worst = fmax(worst, fabs(df - (n - 1) * pow(xx, n - 2)) / n);
    }
  }
  CHECK_MSG(worst < 1e-11, "lagrange %g", worst);
}

// ---------------------------------------------------------------------------------------------
// random beams

// sections per random beam: 3 (eta 0, 0.4, 1), or MANY_STATIONS evenly spaced, whose station
// quadrature has enough points for the element to sum its node pairs on 2n - 1 points
// (rd_beamPairsCompress) up to n = 6
enum { MANY_STATIONS = 24 };
static int g_nsta = 3;

typedef struct {
  int n;
  int node[RD_BEAM_MAX_NODES];
  double x0[3 * RD_BEAM_MAX_NODES], q0[4 * RD_BEAM_MAX_NODES];
  double eta[MANY_STATIONS], K[MANY_STATIONS * 36], M[MANY_STATIONS * 36];
  rdBeamSection sec;
  rdBeam* b;
} beamCase;

static void rot_quat(double q[4], double ax, double ay, double az) {
  double psi[3] = {ax, ay, az};
  rdu_rotvecToQuat(q, psi);
}

// random SPD with couplings: A A^T + d I
static void rand_spd(double* K, double scale) {
  double A[36];
  for (int i = 0; i < 36; i++) {
    A[i] = RND();
  }
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++) {
      double s = (i == j) ? 1.5 : 0;
      for (int k = 0; k < 6; k++) {
        s += A[6 * i + k] * A[6 * j + k];
      }
      K[6 * i + j] = scale * s;
    }
  }
}

// rigid-section mass [m I, m skew(eta)^T; m skew(eta), J]
static void rand_mass(double* M) {
  double m = 1 + 0.5 * RND(), e[3] = {0.1 * RND(), 0.2 * RND(), 0.2 * RND()}, S[9];
  rdu_skew(S, e);
  memset(M, 0, 36 * sizeof(double));
  double J[36];
  rand_spd(J, 0.1);
  for (int i = 0; i < 3; i++) {
    M[6 * i + i] = m;
    for (int j = 0; j < 3; j++) {
      M[6 * i + 3 + j] = -m * S[3 * i + j];
      M[6 * (3 + i) + j] = m * S[3 * i + j];
      // J about the node = J_c - m skew(e)^2
      double ss = 0;
      for (int k = 0; k < 3; k++) {
        ss += S[3 * i + k] * S[3 * k + j];
      }
      M[6 * (3 + i) + 3 + j] = J[6 * i + j] - m * ss;
    }
  }
}

// curved and twisted reference: helix-like arc, section frame twisted along the span
static void make_case(beamCase* c, int n, rdBeamQuad quad, int curved, rdBeamField field,
                      rdBeamVirtual virt, int et) {
  memset(c, 0, sizeof(*c));
  c->n = n;
  double xn[RD_BEAM_MAX_NODES];
  rd_gaussLobatto(n, xn);
  for (int k = 0; k < n; k++) {
    double s = 0.5 * (xn[k] + 1);  // 0 .. 1
    c->node[k] = k;
    double th = curved ? 1.2 * s : 0;
    c->x0[3 * k] = curved ? 2 * sin(th) : 2 * s;
    c->x0[3 * k + 1] = curved ? 2 * (1 - cos(th)) : 0;
    c->x0[3 * k + 2] = curved ? 0.4 * s * s : 0;
    // frame: heading th about z, then twist 1.5 s about the local x
    double qa[4], qb[4];
    rot_quat(qa, 0, 0, th);
    rot_quat(qb, curved ? 1.5 * s : 0, 0, 0);
    rdu_quatMul(c->q0 + 4 * k, qa, qb);
  }
  int nsta = g_nsta;
  for (int i = 0; i < nsta; i++) {
    c->eta[i] = nsta == 3 ? (i == 1 ? 0.4 : i / 2.0) : (double)i / (nsta - 1);
    rand_spd(c->K + 36 * i, 10);
    rand_mass(c->M + 36 * i);
  }
  c->sec.nsta = nsta;
  c->sec.eta = c->eta;
  c->sec.K = c->K;
  c->sec.M = c->M;
  for (int i = 0; i < 6; i++) {
    c->sec.mu[i] = 0.01 * (1 + i);
  }
  rdBeamElemDef d = {n, c->node, c->x0, c->q0, &c->sec, 0, 1, quad, field, virt, et};
  int st = rd_createBeam(ctx, &d, &c->b);
  CHECK(st == RD_OK);
}

// random state: large rigid rotation and translation, plus a smooth deformation
static void random_state(const beamCase* c, double* q, double* v, double* vd) {
  double qg[4];
  rot_quat(qg, 2 * RND(), 2 * RND(), 2 * RND());
  double a[3] = {RND(), RND(), RND()};
  for (int k = 0; k < c->n; k++) {
    double xg[3];
    rdu_quatRotate(xg, qg, c->x0 + 3 * k);
    double s = (double)k / (c->n - 1);
    for (int i = 0; i < 3; i++) {
      q[7 * k + i] = xg[i] + 0.2 * RND() + 0.5;
    }
    double qd[4], t[4];
    rot_quat(qd, a[0] * s + 0.2 * RND(), a[1] * s + 0.2 * RND(), a[2] * s + 0.2 * RND());
    rdu_quatMul(t, qg, c->q0 + 4 * k);
    rdu_quatMul(q + 7 * k + 3, t, qd);
    if (k % 2) {  // sign flips must not matter
      for (int i = 3; i < 7; i++) {
        q[7 * k + i] = -q[7 * k + i];
      }
    }
    for (int i = 0; i < 6; i++) {
      v[6 * k + i] = RND();
      vd[6 * k + i] = RND();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// exact tangents against central differences on the Lie group

static double relerr(const double* A, const double* F, int nd, int r0, int c0, int nr, int nc) {
  double e = 0, s = 0;
  for (int i = 0; i < nd; i++) {
    for (int j = 0; j < nd; j++) {
      s = fmax(s, fabs(A[i * nd + j]));
    }
  }
  for (int i = r0; i < r0 + nr; i++) {
    for (int j = c0; j < c0 + nc; j++) {
      e = fmax(e, fabs(A[i * nd + j] - F[i * nd + j]));
    }
  }
  return s > 0 ? e / s : e;
}

static void fd_check(int n, rdBeamQuad quad, rdBeamField field, rdBeamVirtual virt, int et,
                     unsigned seed, double* worst) {
  srand(seed);
  beamCase c;
  make_case(&c, n, quad, 1, field, virt, et);
  int nd = 6 * n;
  size_t nn = (size_t)nd * (size_t)nd;
  double* q = malloc(sizeof(double) * 7 * (size_t)n);
  double* v = malloc(sizeof(double) * (size_t)nd);
  double* vd = malloc(sizeof(double) * (size_t)nd);
  double* qp = malloc(sizeof(double) * 7 * (size_t)n);
  double* vp = malloc(sizeof(double) * (size_t)nd);
  double* r = malloc(sizeof(double) * (size_t)nd);
  double* rp = malloc(sizeof(double) * (size_t)nd);
  double* rm = malloc(sizeof(double) * (size_t)nd);
  double* M = malloc(sizeof(double) * nn);
  double* C = malloc(sizeof(double) * nn);
  double* K = malloc(sizeof(double) * nn);
  double* F = malloc(sizeof(double) * nn);
  random_state(&c, q, v, vd);
  rdBeamLoads ld = {{0.3, -9.81, 1}, {1, 2, -1}, {0.5, 0, 0.2}, {-1, 0.5, 2}, {0.1, -0.3, 0.4}};
  CHECK(rd_beamEval(c.b, q, v, vd, &ld, r, M, C, K) == RD_OK);
  // K: x + dx, R exp(dtheta), step 1e-6. r is quadratic in v and linear in vd, so central
  // differences are exact there at any step: 1e-3 keeps round-off out of C and M.
  for (int which = 0; which < 3; which++) {
    double* A = which == 0 ? K : which == 1 ? C : M;
    double eps = which == 0 ? 1e-6 : 1e-3;
    for (int j = 0; j < nd; j++) {
      int k = j / 6, l = j % 6;
      for (int sgn = -1; sgn <= 1; sgn += 2) {
        memcpy(qp, q, sizeof(double) * 7 * (size_t)n);
        double* vv = vp;
        memcpy(vp, which == 1 ? v : vd, sizeof(double) * (size_t)nd);
        if (which == 0) {
          double du[6] = {0};
          du[l] = sgn * eps;
          rdu_poseExpIncrementRight(qp + 7 * k, q + 7 * k, du);
        } else {
          vv[j] += sgn * eps;
        }
        const double* v1 = which == 1 ? vp : v;
        const double* a1 = which == 2 ? vp : vd;
        rd_beamEval(c.b, qp, v1, a1, &ld, sgn > 0 ? rp : rm, NULL, NULL, NULL);
      }
      for (int i = 0; i < nd; i++) {
        F[i * nd + j] = (rp[i] - rm[i]) / (2 * eps);
      }
    }
    // blocks: translation/rotation rows x translation/rotation columns over all node pairs
    for (int bi = 0; bi < 2; bi++) {
      for (int bj = 0; bj < 2; bj++) {
        double e = 0;
        for (int ni = 0; ni < n; ni++) {
          for (int nj = 0; nj < n; nj++) {
            e = fmax(e, relerr(A, F, nd, 6 * ni + 3 * bi, 6 * nj + 3 * bj, 3, 3));
          }
        }
        worst[4 * which + 2 * bi + bj] = fmax(worst[4 * which + 2 * bi + bj], e);
      }
    }
  }
  rd_destroyBeam(&c.b);
  free(q);
  free(v);
  free(vd);
  free(qp);
  free(vp);
  free(r);
  free(rp);
  free(rm);
  free(M);
  free(C);
  free(K);
  free(F);
}

static void test_tangents(void) {
  static const int orders[] = {2, 3, 5, 15};
  static const char* names[] = {"K", "C", "M"};
  printf("exact tangents vs central differences, max error / max |entry| of the matrix:\n");
  printf("  order quad  field virt   et %-9s %-9s %-9s %-9s | C: xx .. | M: ..\n", "K_xx", "K_xt",
         "K_tx", "K_tt");
  // (field, virtual rotations, extension-twist term): total/field, displacement/field, then
  // both fields with the interpolated virtual rotations; then the four with the term on
  for (int fv = 0; fv < 8; fv++) {
    int field = fv % 2, virt = fv / 2 % 2, et = fv / 4;
    for (int o = 0; o < 4; o++) {
      for (int quad = 0; quad < 3; quad++) {
        if ((field || virt || et) && (orders[o] == 3 || quad == 1)) {
          continue;  // orders 2, 5, 15, full and station quadrature
        }
        double worst[12] = {0};
        for (unsigned seed = 1; seed <= 3; seed++) {
          fd_check(orders[o], (rdBeamQuad)quad, (rdBeamField)field, (rdBeamVirtual)virt, et,
                   seed + 17 * (unsigned)o, worst);
        }
        printf("  %5d %-6s %-5s %-6s %d", orders[o],
               quad == 0   ? "full"
               : quad == 1 ? "red."
                           : "stat.",
               field ? "disp" : "total", virt ? "interp" : "field", et);
        for (int k = 0; k < 12; k++) {
          printf(" %.1e", worst[k]);
          CHECK_MSG(worst[k] < 1e-6, "order %d quad %d field %d virt %d et %d %s block %d: %g",
                    orders[o], quad, field, virt, et, names[k / 4], k % 4, worst[k]);
        }
        printf("\n");
      }
    }
  }
  // many stations: the pair sums on 2n - 1 points (n = 2, 5); the extension-twist term on with
  // the interpolated virtual rotations (BeamDyn's pair)
  g_nsta = MANY_STATIONS;
  for (int fv = 0; fv < 4; fv++) {
    int field = fv % 2, virt = fv / 2, et = virt;
    for (int o = 0; o < 2; o++) {
      int n = o ? 5 : 2;
      double worst[12] = {0};
      for (unsigned seed = 1; seed <= 2; seed++) {
        fd_check(n, RD_BEAM_QUAD_STATIONS, (rdBeamField)field, (rdBeamVirtual)virt, et, seed + 101,
                 worst);
      }
      printf("  %5d %-6s %-5s %-6s %d", n, "24 st.", field ? "disp" : "total",
             virt ? "interp" : "field", et);
      for (int k = 0; k < 12; k++) {
        printf(" %.1e", worst[k]);
        CHECK_MSG(worst[k] < 1e-6, "order %d, 24 stations, field %d virt %d et %d %s block %d: %g",
                  n, field, virt, et, names[k / 4], k % 4, worst[k]);
      }
      printf("\n");
    }
  }
  g_nsta = 3;
}

// ---------------------------------------------------------------------------------------------
// objectivity, reference state, patch tests

static void test_objectivity(void) {
  for (int t = 0; t < 16; t++) {
    int n = t % 2 ? 15 : 2;
    rdBeamField field = t / 2 % 2 ? RD_BEAM_FIELD_DISPLACEMENT : RD_BEAM_FIELD_TOTAL;
    rdBeamVirtual virt = t / 4 % 2 ? RD_BEAM_VIRTUAL_INTERPOLATED : RD_BEAM_VIRTUAL_FIELD;
    srand(5);
    beamCase c;
    make_case(&c, n, RD_BEAM_QUAD_FULL, 1, field, virt, t / 8);
    int nd = 6 * n;
    double q[7 * RD_BEAM_MAX_NODES], z[6 * RD_BEAM_MAX_NODES] = {0}, r[6 * RD_BEAM_MAX_NODES];
    double r2[6 * RD_BEAM_MAX_NODES];
    // reference configuration: zero strain, zero residual
    for (int k = 0; k < n; k++) {
      memcpy(q + 7 * k, c.x0 + 3 * k, 3 * sizeof(double));
      memcpy(q + 7 * k + 3, c.q0 + 4 * k, 4 * sizeof(double));
    }
    rd_beamEval(c.b, q, z, z, NULL, r, NULL, NULL, NULL);
    double e = 0;
    for (int i = 0; i < nd; i++) {
      e = fmax(e, fabs(r[i]));
    }
    CHECK_MSG(e < 1e-12, "n %d: reference residual %g", n, e);
    // rigid motion of the reference: still zero
    double qg[4], tr[3] = {3, -2, 7};
    rot_quat(qg, 2.1, -1.3, 0.7);
    for (int k = 0; k < n; k++) {
      double xg[3];
      rdu_quatRotate(xg, qg, c.x0 + 3 * k);
      v3_add(q + 7 * k, xg, tr);
      rdu_quatMul(q + 7 * k + 3, qg, c.q0 + 4 * k);
    }
    rd_beamEval(c.b, q, z, z, NULL, r, NULL, NULL, NULL);
    e = 0;
    for (int i = 0; i < nd; i++) {
      e = fmax(e, fabs(r[i]));
    }
    CHECK_MSG(e < 1e-11, "n %d: rigidly rotated reference, residual %g", n, e);
    // deformed state, then rigidly rotated: force rows rotate, moment rows (body) unchanged
    double v[6 * RD_BEAM_MAX_NODES], vd[6 * RD_BEAM_MAX_NODES], q2[7 * RD_BEAM_MAX_NODES];
    random_state(&c, q, v, vd);
    rd_beamEval(c.b, q, z, z, NULL, r, NULL, NULL, NULL);
    for (int k = 0; k < n; k++) {
      double xg[3];
      rdu_quatRotate(xg, qg, q + 7 * k);
      v3_add(q2 + 7 * k, xg, tr);
      rdu_quatMul(q2 + 7 * k + 3, qg, q + 7 * k + 3);
    }
    rd_beamEval(c.b, q2, z, z, NULL, r2, NULL, NULL, NULL);
    double s = 0;
    e = 0;
    for (int k = 0; k < n; k++) {
      double f[3];
      rdu_quatRotate(f, qg, r + 6 * k);
      for (int i = 0; i < 3; i++) {
        e = fmax(e, fabs(f[i] - r2[6 * k + i]));
        e = fmax(e, fabs(r[6 * k + 3 + i] - r2[6 * k + 3 + i]));
        s = fmax(s, fmax(fabs(r[6 * k + i]), fabs(r[6 * k + 3 + i])));
      }
    }
    CHECK_MSG(e < 1e-12 * s, "n %d: objectivity of the deformed state %g (scale %g)", n, e, s);
    rd_destroyBeam(&c.b);
  }
}

// the two rotation fields coincide when every node has the same reference frame: R_d R0 with a
// constant R0 is the total field (residual, matrices, energy, section forces); the second seed
// with the extension-twist term on (its axis: x of the section frame, or R0 x)
static void test_field_agree(void) {
  for (int n = 3; n <= 6; n += 3) {
    double e = 0, s = 0;
    for (unsigned seed = 1; seed <= 2; seed++) {
      beamCase c[2];
      int nd = 6 * n;
      size_t nn = (size_t)nd * (size_t)nd;
      double* buf = calloc((2 * (size_t)nd + 3 * nn) * 2, sizeof(double));
      double q[7 * RD_BEAM_MAX_NODES], v[6 * RD_BEAM_MAX_NODES], vd[6 * RD_BEAM_MAX_NODES];
      double en[2][9];
      for (int f = 0; f < 2; f++) {
        srand(seed);
        make_case(&c[f], n, RD_BEAM_QUAD_STATIONS, 0, (rdBeamField)f, RD_BEAM_VIRTUAL_FIELD,
                  seed == 2);
        double qr[4];
        rot_quat(qr, 0.4, -0.3, 1.1);  // the same frame at every node, not the identity
        for (int k = 0; k < n; k++) {
          memcpy(c[f].q0 + 4 * k, qr, sizeof(qr));
        }
        rd_destroyBeam(&c[f].b);
        rdBeamElemDef d = {n,
                           c[f].node,
                           c[f].x0,
                           c[f].q0,
                           &c[f].sec,
                           0,
                           1,
                           RD_BEAM_QUAD_STATIONS,
                           (rdBeamField)f,
                           RD_BEAM_VIRTUAL_FIELD,
                           seed == 2};
        CHECK(rd_createBeam(ctx, &d, &c[f].b) == RD_OK);
      }
      srand(100 + seed);
      random_state(&c[0], q, v, vd);
      rdBeamLoads ld = {{0.3, -9.81, 1}, {1, 2, -1}, {0.5, 0, 0.2}, {-1, 0.5, 2}, {0.1, -0.3, 0.4}};
      for (int f = 0; f < 2; f++) {
        double* r = buf + (size_t)f * (2 * (size_t)nd + 3 * nn);
        double* F = r + nd;
        double* M = F + nd;
        CHECK(rd_beamEval(c[f].b, q, v, vd, &ld, r, M, M + nn, M + 2 * nn) == RD_OK);
        for (int g = 0; g < rd_beamQuadPoints(c[f].b) && g < n; g++) {
          double x[3];
          rd_beamQuadForces(c[f].b, g, x, F + 6 * g);
        }
        double g3[3] = {0.3, -9.81, 1};
        CHECK(rd_beamEnergy(c[f].b, q, v, g3, en[f], en[f] + 1, en[f] + 2, en[f] + 3, en[f] + 6) ==
              RD_OK);
      }
      double* a = buf;
      double* b = buf + (2 * (size_t)nd + 3 * nn);
      for (size_t i = 0; i < 2 * (size_t)nd + 3 * nn; i++) {
        e = fmax(e, fabs(a[i] - b[i]));
        s = fmax(s, fabs(a[i]));
      }
      for (int i = 0; i < 9; i++) {
        e = fmax(e, fabs(en[0][i] - en[1][i]));
      }
      rd_destroyBeam(&c[0].b);
      rd_destroyBeam(&c[1].b);
      free(buf);
    }
    CHECK_MSG(e < 1e-11 * s, "n %d: displacement vs total field with equal frames: %g (scale %g)",
              n, e, s);
  }
}

// the two virtual rotations on the displacement field differ at second order in the
// displacement: halving a deformation of amplitude a (rotations, translations, rates) quarters
// the difference of the residuals, while the residuals themselves halve. On the total field of
// the curved, twisted reference the nodal frames differ by O(1): the gap is first order there.
static double virtual_gap(rdBeamField field, double a, double* scale) {
  beamCase c[2];
  int n = 5, nd = 6 * n;
  double q[7 * RD_BEAM_MAX_NODES], v[6 * RD_BEAM_MAX_NODES], vd[6 * RD_BEAM_MAX_NODES];
  double r[2][6 * RD_BEAM_MAX_NODES];
  for (int t = 0; t < 2; t++) {
    srand(31);
    make_case(&c[t], n, RD_BEAM_QUAD_STATIONS, 1, field, (rdBeamVirtual)t, 0);
  }
  srand(32);
  for (int k = 0; k < n; k++) {
    double th[4];
    rot_quat(th, a * RND(), a * RND(), a * RND());
    for (int i = 0; i < 3; i++) {
      q[7 * k + i] = c[0].x0[3 * k + i] + a * RND();
    }
    rdu_quatMul(q + 7 * k + 3, c[0].q0 + 4 * k, th);
    for (int i = 0; i < 6; i++) {
      v[6 * k + i] = a * RND();
      vd[6 * k + i] = a * RND();
    }
  }
  for (int t = 0; t < 2; t++) {
    CHECK(rd_beamEval(c[t].b, q, v, vd, NULL, r[t], NULL, NULL, NULL) == RD_OK);
    rd_destroyBeam(&c[t].b);
  }
  double e = 0, s = 0;
  for (int i = 0; i < nd; i++) {
    e = fmax(e, fabs(r[0][i] - r[1][i]));
    s = fmax(s, fabs(r[0][i]));
  }
  *scale = s;
  return e;
}

static void test_virtual_order(void) {
  for (int f = 1; f >= 0; f--) {
    double s1, s2;
    double e1 = virtual_gap((rdBeamField)f, 1e-2, &s1);
    double e2 = virtual_gap((rdBeamField)f, 5e-3, &s2);
    printf(
        "virtual rotations field vs interpolated, %s field: gap %.3e (a = 1e-2), %.3e (a/2), "
        "ratio %.3f; residual ratio %.3f\n",
        f ? "displacement" : "total", e1, e2, e1 / e2, s1 / s2);
    double order = f ? 4 : 2;
    CHECK_MSG(e1 > 0 && fabs(e1 / e2 - order) < 0.2, "field %d: gap ratio %g", f, e1 / e2);
    CHECK_MSG(fabs(s1 / s2 - 2) < 0.1, "field %d: first-order residual: ratio %g", f, s1 / s2);
  }
}

// straight beam along x, identity section frames, section K (6x6) and optional mass
static rdBeam* straight(int n, double L, const double* K, const double* M, rdBeamSection* sec,
                        double* x0, double* q0, int* node, int et) {
  static const double eta1[1] = {0};
  static double Mdef[36];
  double xn[RD_BEAM_MAX_NODES];
  rd_gaussLobatto(n, xn);
  for (int k = 0; k < n; k++) {
    node[k] = k;
    x0[3 * k] = 0.5 * L * (xn[k] + 1);
    x0[3 * k + 1] = x0[3 * k + 2] = 0;
    q0[4 * k] = 1;
    q0[4 * k + 1] = q0[4 * k + 2] = q0[4 * k + 3] = 0;
  }
  if (!M) {
    memset(Mdef, 0, sizeof(Mdef));
    for (int i = 0; i < 6; i++) {
      Mdef[7 * i] = 1;
    }
    M = Mdef;
  }
  memset(sec, 0, sizeof(*sec));
  sec->nsta = 1;
  sec->eta = eta1;
  sec->K = K;
  sec->M = M;
  rdBeamElemDef d = {
      n, node, x0, q0, sec, 0, 1, RD_BEAM_QUAD_FULL, RD_BEAM_FIELD_TOTAL, RD_BEAM_VIRTUAL_FIELD,
      et};
  rdBeam* b = NULL;
  rd_createBeam(ctx, &d, &b);
  return b;
}

static void test_patch(void) {
  srand(11);
  double K[36];
  rand_spd(K, 100);
  // uniform axial stretch, uniform shear (x' = R (e1 + gamma)) and uniform twist-free state:
  // every quadrature point carries exactly F = K eps
  printf("patch tests (uniform strain exact; constant curvature converges with order):\n");
  for (int n = 2; n <= 15; n++) {
    rdBeamSection sec;
    double x0[3 * RD_BEAM_MAX_NODES], q0[4 * RD_BEAM_MAX_NODES];
    int node[RD_BEAM_MAX_NODES];
    rdBeam* b = straight(n, 3, K, NULL, &sec, x0, q0, node, 0);
    double q[7 * RD_BEAM_MAX_NODES], z[6 * RD_BEAM_MAX_NODES] = {0}, r[6 * RD_BEAM_MAX_NODES];
    double gam[3] = {0.01, -0.02, 0.03}, qr[4];
    rot_quat(qr, 0.3, -0.8, 1.1);
    for (int k = 0; k < n; k++) {
      double xl[3] = {x0[3 * k] * (1 + gam[0]), x0[3 * k] * gam[1], x0[3 * k] * gam[2]};
      rdu_quatRotate(q + 7 * k, qr, xl);
      memcpy(q + 7 * k + 3, qr, 4 * sizeof(double));
    }
    rd_beamEval(b, q, z, z, NULL, r, NULL, NULL, NULL);
    double e = 0;
    for (int g = 0; g < rd_beamQuadPoints(b); g++) {
      double x[3], F[6];
      rd_beamQuadForces(b, g, x, F);
      for (int i = 0; i < 6; i++) {
        double ex = K[6 * i] * gam[0] + K[6 * i + 1] * gam[1] + K[6 * i + 2] * gam[2];
        e = fmax(e, fabs(F[i] - ex));
      }
    }
    CHECK_MSG(e < 1e-11 * K[0], "n %d: uniform strain patch %g", n, e);
    // constant curvature k about y (rotations exact at the nodes, positions on the circle):
    // the bending moment at the quadrature points against K k
    double kap = 0.5, eb = 0;
    for (int k = 0; k < n; k++) {
      double s = x0[3 * k];
      double xl[3] = {sin(kap * s) / kap, 0, -(1 - cos(kap * s)) / kap};
      memcpy(q + 7 * k, xl, sizeof(xl));
      rot_quat(q + 7 * k + 3, 0, kap * s, 0);
    }
    rd_beamEval(b, q, z, z, NULL, r, NULL, NULL, NULL);
    for (int g = 0; g < rd_beamQuadPoints(b); g++) {
      double x[3], F[6];
      rd_beamQuadForces(b, g, x, F);
      for (int i = 0; i < 6; i++) {
        eb = fmax(eb, fabs(F[i] - K[6 * i + 4] * kap) / fabs(K[6 * 4 + 4] * kap));
      }
    }
    printf("  n %2d: uniform strain |F - K eps| %.1e, constant curvature rel. error %.1e\n", n, e,
           eb);
    if (n >= 12) {
      CHECK_MSG(eb < 1e-8, "n %d: constant curvature %g", n, eb);
    }
    rd_destroyBeam(&b);
  }
}

// ---------------------------------------------------------------------------------------------
// extension-twist term

// uniform stretch eps and twist k1 of a straight, rigidly rotated beam: Gamma = eps e1,
// kappa = k1 e1, and every quadrature point carries F = K e + (1/2 cet k1^2, 0, 0, cet eps k1,
// 0, 0) with cet = K44 + K55 (constant twist is not exact in the quaternion field: 15 nodes)
static void et_patch(void) {
  srand(12);
  double K[36];
  rand_spd(K, 100);
  int n = 15;
  double cet = K[6 * 4 + 4] + K[6 * 5 + 5];
  rdBeamSection sec;
  double x0[3 * RD_BEAM_MAX_NODES], q0[4 * RD_BEAM_MAX_NODES];
  int node[RD_BEAM_MAX_NODES];
  rdBeam* b = straight(n, 3, K, NULL, &sec, x0, q0, node, 1);
  double q[7 * RD_BEAM_MAX_NODES], z[6 * RD_BEAM_MAX_NODES] = {0}, r[6 * RD_BEAM_MAX_NODES];
  double qr[4], worst = 0, big = 0;
  rot_quat(qr, 0.3, -0.8, 1.1);
  for (int sg = -1; sg <= 1; sg += 2) {
    double eps = 0.02 * sg, k1 = 0.4;
    for (int k = 0; k < n; k++) {
      double xl[3] = {x0[3 * k] * (1 + eps), 0, 0};
      rdu_quatRotate(q + 7 * k, qr, xl);
      double qt[4];
      rot_quat(qt, k1 * x0[3 * k], 0, 0);
      rdu_quatMul(q + 7 * k + 3, qr, qt);
    }
    rd_beamEval(b, q, z, z, NULL, r, NULL, NULL, NULL);
    for (int g = 0; g < rd_beamQuadPoints(b); g++) {
      double x[3], F[6];
      rd_beamQuadForces(b, g, x, F);
      for (int i = 0; i < 6; i++) {
        double ex = K[6 * i] * eps + K[6 * i + 3] * k1;
        ex += i == 0 ? 0.5 * cet * k1 * k1 : i == 3 ? cet * eps * k1 : 0;
        worst = fmax(worst, fabs(F[i] - ex));
        big = fmax(big, fabs(ex));
      }
    }
  }
  printf(
      "extension-twist patch (uniform stretch and twist, 15 nodes): |F - F_exact| %.1e of %.1e\n",
      worst, big);
  CHECK_MSG(worst < 1e-10 * big, "extension-twist patch: %g of %g", worst, big);
  rd_destroyBeam(&b);
}


// internal forces are the gradient of the strain energy (Galerkin virtual rotations, at rest,
// no loads): r_k = dU/d(x_k, Theta_k) by central differences of rd_beamEnergy, both fields,
// with and without the term; the term's share of r must be seen
static void et_gradient(void) {
  double roff[2][6 * RD_BEAM_MAX_NODES];
  for (int t = 0; t < 4; t++) {
    int field = t % 2, et = t / 2, n = 5, nd = 6 * n;
    srand(41);
    beamCase c;
    make_case(&c, n, RD_BEAM_QUAD_FULL, 1, (rdBeamField)field, RD_BEAM_VIRTUAL_FIELD, et);
    double q[7 * RD_BEAM_MAX_NODES], v[6 * RD_BEAM_MAX_NODES], vd[6 * RD_BEAM_MAX_NODES];
    double z[6 * RD_BEAM_MAX_NODES] = {0}, r[6 * RD_BEAM_MAX_NODES], qp[7 * RD_BEAM_MAX_NODES];
    random_state(&c, q, v, vd);
    CHECK(rd_beamEval(c.b, q, z, z, NULL, r, NULL, NULL, NULL) == RD_OK);
    double e = 0, s = 0, h = 1e-6;
    for (int j = 0; j < nd; j++) {
      double u[2];
      for (int sg = 0; sg < 2; sg++) {
        double du[6] = {0};
        memcpy(qp, q, sizeof(double) * 7 * (size_t)n);
        du[j % 6] = sg ? h : -h;
        rdu_poseExpIncrementRight(qp + 7 * (j / 6), q + 7 * (j / 6), du);
        rd_beamEnergy(c.b, qp, z, NULL, u + sg, NULL, NULL, NULL, NULL);
      }
      e = fmax(e, fabs(r[j] - (u[1] - u[0]) / (2 * h)));
      s = fmax(s, fabs(r[j]));
    }
    printf("  %s field, extension-twist %s: |r - dU/dq| %.1e of max |r| %.1e\n",
           field ? "displacement" : "total", et ? "on " : "off", e, s);
    CHECK_MSG(e < 1e-7 * s, "field %d et %d: residual is not the energy's gradient: %g of %g",
              field, et, e, s);
    if (!et) {
      memcpy(roff[field], r, sizeof(double) * (size_t)nd);
    } else {
      double d = 0;
      for (int j = 0; j < nd; j++) {
        d = fmax(d, fabs(r[j] - roff[field][j]));
      }
      printf("    the term's share of r: %.1e\n", d);
      CHECK_MSG(d > 1e-3 * s, "field %d: the term changes r by only %g", field, d);
    }
    rd_destroyBeam(&c.b);
  }
}


static void test_extension_twist(void) {
  et_patch();
  et_gradient();
}

// ---------------------------------------------------------------------------------------------
// static Newton on one element, clamped at node 0, dead tip force and moment (global)

static int static_solve(rdBeam* b, int n, double* q, const double Ftip[3], const double Mtip[3],
                        int steps, void (*each)(int, const double*, void*), void* user,
                        int* iters) {
  int nd = 6 * n, nf = nd - 6;
  size_t nn = (size_t)nd * (size_t)nd;
  double* K = malloc(sizeof(double) * nn);
  double* A = malloc(sizeof(double) * (size_t)nf * (size_t)nf);
  double* r = malloc(sizeof(double) * (size_t)nd);
  double* z = calloc((size_t)nd, sizeof(double));
  lapack_int* piv = malloc(sizeof(lapack_int) * (size_t)nf);
  int ok = 1, total = 0;
  for (int st = 1; st <= steps && ok; st++) {
    double lam = (double)st / steps;
    int conv = 0;
    for (int it = 0; it < 40 && !conv; it++) {
      rd_beamEval(b, q, z, z, NULL, r, NULL, NULL, K);
      // dead tip loads: r_x -= F, r_theta -= R^T M, K_tt -= skew(R^T M)
      double* qt = q + 7 * (n - 1);
      double RtM[3], S[9];
      rdu_quatRotateInv(RtM, qt + 3, Mtip);
      for (int i = 0; i < 3; i++) {
        r[nd - 6 + i] -= lam * Ftip[i];
        r[nd - 3 + i] -= lam * RtM[i];
      }
      rdu_skew(S, RtM);
      for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
          K[(size_t)(nd - 3 + i) * (size_t)nd + (size_t)(nd - 3 + j)] -= lam * S[3 * i + j];
        }
      }
      for (int i = 0; i < nf; i++) {
        for (int j = 0; j < nf; j++) {
          A[(size_t)i * (size_t)nf + (size_t)j] = K[(size_t)(i + 6) * (size_t)nd + (size_t)(j + 6)];
        }
        r[6 + i] = -r[6 + i];
      }
      if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, nf, 1, A, nf, piv, r + 6, 1) != 0) {
        ok = 0;
        break;
      }
      double dn = 0;
      for (int k = 1; k < n; k++) {
        double du[6];
        memcpy(du, r + 6 * k, sizeof(du));
        rdu_poseExpIncrementRight(q + 7 * k, q + 7 * k, du);
        for (int i = 0; i < 6; i++) {
          dn = fmax(dn, fabs(du[i]));
        }
      }
      total++;
      conv = dn < 1e-13;
    }
    if (!conv) {
      ok = 0;
    }
    if (ok && each) {
      each(st, q, user);
    }
  }
  if (iters) {
    *iters = total;
  }
  free(K);
  free(A);
  free(r);
  free(z);
  free(piv);
  return ok;
}

typedef struct {
  int n, steps;
  double kfull, L;
  double worst;
} rollCtx;

static void roll_each(int st, const double* q, void* user) {
  rollCtx* c = user;
  double kap = c->kfull * st / c->steps;
  double ex = sin(kap * c->L) / kap, ez = (1 - cos(kap * c->L)) / kap;
  const double* xt = q + 7 * (c->n - 1);
  double e = fmax(fabs(xt[0] - ex), fmax(fabs(xt[1]), fabs(xt[2] - ez)));
  c->worst = fmax(c->worst, e);
  if (c->n == 15) {
    printf("  load %d/%d: tip (%.12f, %.1e, %.12f), exact (%.12f, 0, %.12f), error %.1e\n", st,
           c->steps, xt[0] - c->L, xt[1], xt[2], ex - c->L, ez, e);
  }
}

static void test_rollup(FILE* table) {
  double K[36];
  model_diag6(K, model_b1Stiffness);
  double L = 10, EI = model_b1Stiffness[4], Mtot = 2 * PI * EI / L;
  double Mtip[3] = {0, -Mtot, 0}, F0[3] = {0, 0, 0};
  printf("B1 roll-up (one element, tip moment -2 pi EI/L about y, 4 load steps):\n");
  if (table) {
    fprintf(
        table,
        "| nodes | tip error, full load | worst error at 1/4, 1/2, 3/4, 1 | Newton iterations |\n");
    fprintf(table, "| --- | --- | --- | --- |\n");
  }
  for (int n = 3; n <= 20; n++) {
    rdBeamSection sec;
    double x0[3 * RD_BEAM_MAX_NODES], q0[4 * RD_BEAM_MAX_NODES], q[7 * RD_BEAM_MAX_NODES];
    int node[RD_BEAM_MAX_NODES];
    rdBeam* b = straight(n, L, K, NULL, &sec, x0, q0, node, 0);
    for (int k = 0; k < n; k++) {
      memcpy(q + 7 * k, x0 + 3 * k, 3 * sizeof(double));
      memcpy(q + 7 * k + 3, q0 + 4 * k, 4 * sizeof(double));
    }
    rollCtx c = {n, 4, Mtot / EI, L, 0};
    int iters = 0;
    int ok = static_solve(b, n, q, F0, Mtip, 4, roll_each, &c, &iters);
    CHECK_MSG(ok, "roll-up n %d: Newton failed", n);
    const double* xt = q + 7 * (n - 1);
    double err = sqrt(xt[0] * xt[0] + xt[1] * xt[1] + xt[2] * xt[2]);
    printf("  n %2d: tip |x| %.3e (u_x = %.13f), worst over load steps %.3e, %d iterations\n", n,
           err, xt[0] - L, c.worst, iters);
    if (table) {
      fprintf(table, "| %d | %.2e | %.2e | %d |\n", n, err, c.worst, iters);
    }
    if (n == 15) {
      CHECK_MSG(err < 1e-8, "roll-up tip error %g", err);
      CHECK_MSG(c.worst < 1e-8, "roll-up load steps %g", c.worst);
      // tip rotation back to the identity (quaternion +-1)
      CHECK_NEAR(fabs(xt[3]), 1, 1e-8);
    }
    rd_destroyBeam(&b);
  }
}

static void test_composite(FILE* table) {
  const double* K = model_b3Stiffness;
  double M[36];
  model_diag6(M, model_b3Mass);
  const double* ex = model_b3StaticTip;
  double F[3] = {0, 0, 150}, M0[3] = {0, 0, 0};
  printf("B3 composite cantilever, tip force 150 along z:\n");
  if (table) {
    fprintf(table, "\n| nodes | u_x | u_y | u_z | max error |\n| --- | --- | --- | --- | --- |\n");
  }
  for (int n = 3; n <= 18; n += 3) {
    rdBeamSection sec;
    double x0[3 * RD_BEAM_MAX_NODES], q0[4 * RD_BEAM_MAX_NODES], q[7 * RD_BEAM_MAX_NODES];
    int node[RD_BEAM_MAX_NODES];
    rdBeam* b = straight(n, 10, K, M, &sec, x0, q0, node, 0);
    for (int k = 0; k < n; k++) {
      memcpy(q + 7 * k, x0 + 3 * k, 3 * sizeof(double));
      memcpy(q + 7 * k + 3, q0 + 4 * k, 4 * sizeof(double));
    }
    int ok = static_solve(b, n, q, F, M0, 1, NULL, NULL, NULL);
    CHECK(ok);
    const double* xt = q + 7 * (n - 1);
    double u[3] = {xt[0] - 10, xt[1], xt[2]};
    double e = fmax(fabs(u[0] - ex[0]), fmax(fabs(u[1] - ex[1]), fabs(u[2] - ex[2])));
    printf("  n %2d: u = (%.15f, %.15f, %.15f), error %.1e\n", n, u[0], u[1], u[2], e);
    if (table) {
      fprintf(table, "| %d | %.15f | %.15f | %.15f | %.1e |\n", n, u[0], u[1], u[2], e);
    }
    if (n >= 15) {
      CHECK_MSG(e < 1e-10, "composite n %d error %g", n, e);
    }
    rd_destroyBeam(&b);
  }
}

static void test_errors(void) {
  double K[36] = {0}, Mm[36] = {0}, eta = 0;
  rdBeamSection sec = {1, &eta, K, Mm, {0}};
  CHECK(rd_beamSectionCheck(ctx, &sec) == RD_ERR_MODEL);  // zero stiffness
  for (int i = 0; i < 6; i++) {
    K[7 * i] = Mm[7 * i] = 1;
  }
  CHECK(rd_beamSectionCheck(ctx, &sec) == RD_OK);
  K[1] = 5;
  CHECK(rd_beamSectionCheck(ctx, &sec) == RD_ERR_MODEL);  // not symmetric
  K[1] = 0;
  sec.mu[2] = -1;
  CHECK(rd_beamSectionCheck(ctx, &sec) == RD_ERR_MODEL);
  sec.mu[2] = 0;
  int node[2] = {0, 1};
  double x0[6] = {0}, q0[8] = {1, 0, 0, 0, 1, 0, 0, 0};
  rdBeamElemDef d = {
      2, node, x0, q0, &sec, 0, 1, RD_BEAM_QUAD_FULL, RD_BEAM_FIELD_TOTAL, RD_BEAM_VIRTUAL_FIELD,
      0};
  rdBeam* b = NULL;
  CHECK(rd_createBeam(ctx, &d, &b) == RD_ERR_MODEL);  // coincident nodes
  CHECK(b == NULL);
  d.virt = (rdBeamVirtual)2;
  CHECK(rd_createBeam(ctx, &d, &b) == RD_ERR_ARG);
  d.virt = RD_BEAM_VIRTUAL_FIELD;
  d.n = 1;
  CHECK(rd_createBeam(ctx, &d, &b) == RD_ERR_ARG);
}

// ---------------------------------------------------------------------------------------------
// the assembly's one-pass matrix: rd_beamEvalSum's S = cM M + cC C + cK K diag(I, T_k) against
// the same combination of rd_beamEval's M, C, K (which the finite differences check), with
// random tangent operators, for both rotation fields; a zero coefficient drops its matrix; the
// residuals are identical

static void test_sum(void) {
  double worst = 0, rworst = 0;
  static const int orders[] = {2, 5, 15};
  for (int cs = 0; cs < 18; cs++) {
    int o = cs / 6, quad = cs / 2 % 3, field = cs % 2, virt = cs / 2 % 2, et = cs % 3 == 1;
    {
      srand(91 + 7 * (unsigned)o + (unsigned)quad);
      beamCase c;
      make_case(&c, orders[o], (rdBeamQuad)quad, 1, (rdBeamField)field, (rdBeamVirtual)virt, et);
      int n = orders[o], nd = 6 * n;
      size_t nn = (size_t)nd * (size_t)nd;
      double* q = malloc(sizeof(double) * 7 * (size_t)n);
      double* v = malloc(sizeof(double) * (size_t)nd);
      double* vd = malloc(sizeof(double) * (size_t)nd);
      double* r = malloc(sizeof(double) * (size_t)nd);
      double* r2 = malloc(sizeof(double) * (size_t)nd);
      double* M = malloc(sizeof(double) * nn);
      double* C = malloc(sizeof(double) * nn);
      double* K = malloc(sizeof(double) * nn);
      double* S = malloc(sizeof(double) * nn);
      double* T = malloc(sizeof(double) * 9 * (size_t)n);
      double* work = malloc(sizeof(double) * rd_beamWorkSize(c.b));
      random_state(&c, q, v, vd);
      for (int k = 0; k < n; k++) {
        double psi[3] = {RND(), RND(), RND()};
        rdu_tangentSO3(T + 9 * k, psi);
      }
      rdBeamLoads ld = {{0.3, -9.81, 1}, {1, 2, -1}, {0.5, 0, 0.2}, {-1, 0.5, 2}, {0.1, -0.3, 0.4}};
      CHECK(rd_beamEval(c.b, q, v, vd, &ld, r, M, C, K) == RD_OK);
      const double coef[4][3] = {{0.7, 0.2, 1e-3}, {0, 0, 1}, {1, 0, 0}, {0, 3, 0}};
      for (int t = 0; t < 4; t++) {
        rdBeamSum sum = {coef[t][0], coef[t][1], coef[t][2], t == 1 ? NULL : T, NULL};
        CHECK(rd_beamEvalSum(c.b, work, q, v, vd, &ld, &sum, r2, S) == RD_OK);
        double e = 0, big = 0;
        for (int i = 0; i < nd; i++) {
          rworst = fmax(rworst, fabs(r2[i] - r[i]) / (fabs(r[i]) + 1));
          for (int j = 0; j < nd; j++) {
            // K's rotation columns times T of their node
            double kt = K[(size_t)i * nd + j];
            if (j % 6 >= 3 && sum.T) {
              const double* Tk = T + 9 * (j / 6);
              int c0 = j - j % 6 + 3, cc = j % 6 - 3;
              kt = 0;
              for (int l = 0; l < 3; l++) {
                kt += K[(size_t)i * nd + c0 + l] * Tk[3 * l + cc];
              }
            }
            double ex =
                sum.cM * M[(size_t)i * nd + j] + sum.cC * C[(size_t)i * nd + j] + sum.cK * kt;
            e = fmax(e, fabs(S[(size_t)i * nd + j] - ex));
            big = fmax(big, fabs(ex));
          }
        }
        worst = fmax(worst, e / big);
      }
      rd_destroyBeam(&c.b);
      free(q);
      free(v);
      free(vd);
      free(r);
      free(r2);
      free(M);
      free(C);
      free(K);
      free(S);
      free(T);
      free(work);
    }
  }
  printf("one-pass matrix vs cM M + cC C + cK K T: %.1e relative; residuals %.1e\n", worst, rworst);
  CHECK_MSG(worst < 1e-13, "one-pass matrix differs by %g", worst);
  CHECK_MSG(rworst == 0, "residual differs by %g", rworst);
}


// the residual alone (four quadrature points at a time, elements/beam_section4.c) against the
// residual of an evaluation with the Jacobian (point by point, elements/beam_section.c): the
// same formulas, so they agree to round-off, as do the points' positions and sectional forces
static void test_residual4(void) {
  static const int orders[] = {2, 3, 5, 6, 15};
  double worst = 0, fworst = 0;
  int cases = 0;
  for (int cs = 0; cs < 5 * 3 * 8 * 2; cs++) {
    int o = cs % 5, quad = cs / 5 % 3, fv = cs / 15 % 8, many = cs / 120;
    int field = fv % 2, virt = fv / 2 % 2, et = fv / 4;
    g_nsta = many ? MANY_STATIONS : 3;
    srand(301 + (unsigned)cs);
    beamCase c;
    make_case(&c, orders[o], (rdBeamQuad)quad, 1, (rdBeamField)field, (rdBeamVirtual)virt, et);
    int n = orders[o], nd = 6 * n, nq = rd_beamQuadPoints(c.b);
    double q[7 * 15], v[6 * 15], vd[6 * 15], r[6 * 15], r4[6 * 15],
        *M = malloc(sizeof(double) * (size_t)nd * nd);
    double x[3 * 300], F[6 * 300];
    CHECK(nq <= 300);
    random_state(&c, q, v, vd);
    // loads: none, then every kind (follower loads turned point by point in the displacement
    // field)
    rdBeamLoads ld = {{0.3, -9.81, 1}, {1, 2, -1}, {0.5, 0, 0.2}, {-1, 0.5, 2}, {0.1, -0.3, 0.4}};
    for (int withld = 0; withld < 2; withld++) {
      const rdBeamLoads* l = withld ? &ld : NULL;
      CHECK(rd_beamEval(c.b, q, v, vd, l, r, M, NULL, NULL) == RD_OK);
      for (int g = 0; g < nq; g++) {
        rd_beamQuadForces(c.b, g, x + 3 * g, F + 6 * g);
      }
      CHECK(rd_beamEval(c.b, q, v, vd, l, r4, NULL, NULL, NULL) == RD_OK);
      double e = 0, big = 0;
      for (int i = 0; i < nd; i++) {
        e = fmax(e, fabs(r4[i] - r[i]));
        big = fmax(big, fabs(r[i]));
      }
      worst = fmax(worst, e / big);
      e = big = 0;
      for (int g = 0; g < nq; g++) {
        double xg[3], Fg[6];
        rd_beamQuadForces(c.b, g, xg, Fg);
        for (int i = 0; i < 3; i++) {
          CHECK(xg[i] == x[3 * g + i]);
        }
        for (int i = 0; i < 6; i++) {
          e = fmax(e, fabs(Fg[i] - F[6 * g + i]));
          big = fmax(big, fabs(F[6 * g + i]));
        }
      }
      fworst = fmax(fworst, e / big);
      cases++;
    }
    rd_destroyBeam(&c.b);
    free(M);
  }
  g_nsta = 3;
  printf(
      "residual alone vs with the Jacobian, %d cases: residual %.1e, sectional forces %.1e "
      "(relative to the largest entry)\n",
      cases, worst, fworst);
  CHECK_MSG(worst < 1e-13, "four-point residual differs by %g", worst);
  CHECK_MSG(fworst < 1e-13, "four-point sectional forces differ by %g", fworst);
}


// optional argument: a file for the roll-up and composite tables (Markdown)
int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  rd_createContext(&ctx, NULL);
  rd_setErrorHandler(ctx, NULL, NULL);
  FILE* table = argc > 1 ? fopen(argv[1], "w") : NULL;
  TEST_CASE(test_basis());
  TEST_CASE(test_errors());
  TEST_CASE(test_objectivity());
  TEST_CASE(test_field_agree());
  TEST_CASE(test_virtual_order());
  TEST_CASE(test_patch());
  TEST_CASE(test_extension_twist());
  TEST_CASE(test_tangents());
  TEST_CASE(test_sum());
  TEST_CASE(test_residual4());
  TEST_CASE(test_rollup(table));
  TEST_CASE(test_composite(table));
  if (table) {
    fclose(table);
  }
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
