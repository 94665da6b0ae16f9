// SPDX-License-Identifier: MIT
// Geometrically exact beam element: residual and exact M, C, K (normalized-quaternion field).
// The section kernel is elements/beam_section.c, the quaternion maps src/math/quatmap.h.
//
// Rotation field: p(s) = sum_k phi_k(s) q_k over the nodal unit quaternions (signs aligned
// node to node), R(s) = R(p / |p|). Left-multiplying every q_k by one rotation multiplies p by
// it, so strains are objective; the field depends only on the current nodal rotations, so it
// is path independent. With Lam(p) b = 2 vec(conj(p) (x) b) / |p|^2 (3x4):
//   Gamma = R^T x' - Gamma0,  kappa = Lam(p) p' - kappa0,  omega = Lam(p) pdot,
//   delta theta (body) = Lam(p) delta p,  delta q_k = 1/2 q_k (x) (0, delta Theta_k).
// Each quadrature point gives the densities a = (a_x, a_x', a_p, a_p') conjugate to
// (dx, dx', dp, dp') and their exact Jacobian with respect to the 32 section inputs
// s = (p, p', pdot, pdot', pddot, x', xdot, xddot, xdot'); the nodal maps chain them to the
// DOFs. The displacement field (RD_BEAM_FIELD_DISPLACEMENT) runs the same kernel on the nodal
// displacement rotations d_k = q_k conj(q0_k) (increments R0_k dTheta) with the sections turned
// once into fixed reference frames R0(s) at the quadrature points, and turns the rotation rows
// and columns back. With RD_BEAM_VIRTUAL_INTERPOLATED the moment rows are tested with the
// interpolated nodal spatial virtual rotations: a_p = R c1, a_p' = R M (global) and
// r_theta_k = R_k^T g_k. See docs/beam.md.
#include "elements/beam.h"

#include <math.h>
#include <string.h>

#include "elements/beam_pairs.h"
#include "elements/beam_section.h"
#include "elements/beam_section4.h"
#include "rodrigues/liegroup.h"
#include "src/core/hash.h"
#include "src/math/blk.h"
#include "src/math/quat.h"
#include "src/math/quatmap.h"
#include "src/math/simd.h"
#include "src/math/vec3.h"

struct rdBeam_ {
  rdContext* ctx;
  int n, nq;
  rdBeamField field;
  rdBeamVirtual virt;
  int node[RD_BEAM_MAX_NODES];
  int ident[RD_BEAM_MAX_NODES];  // 0 .. n-1: node indices of the local arrays (displacement field)
  double* phi;                   // nq x n
  double* dphi;                  // nq x n, d/ds (arc length of the reference line)
  double* jw;                    // nq, weight times the Jacobian ds/dxi
  double* G0;                    // nq x 3 reference Gamma (R0^T x0')
  double* k0;                    // nq x 3 reference curvature
  double* Ks;                    // nq x 36 stiffness
  double* Ds;                    // nq x 36 damping diag(mu) K
  double* Ms;                    // nq x 36 mass
  double* Kt;                    // nq x 36 the transposes of Ks and Ds (the sectional forces take
  double* Dt;                    // their columns, four rows at a time)
  double* et;                    // nq x 4 extension-twist term: section axis t (kernel frame),
                                 // cet = K44 + K55 of the section; NULL: off
  // displacement field only (RD_BEAM_FIELD_DISPLACEMENT): sections, G0 and k0 above are then
  // in the reference frame R0 of each quadrature point rotated to global axes
  double* R0n;  // n x 9 initial nodal rotations
  double* q0c;  // n x 4 their conjugate quaternions (sign aligned)
  double* R0g;  // nq x 9 reference section frames at the quadrature points
  // the pair sums on nv = 2n - 1 points when there are many more quadrature points
  // (rd_beamPairsCompress; nv = 0: on the quadrature points)
  int nv;
  double* cL;     // nv x nq x 3: L_m(xi_g) / J_g^t, t = 0, 1, 2
  double* vphi;   // nv x n basis at the points xi_m
  double* vdphi;  // nv x n its derivative d/dxi there
  double* work;   // own workspace of rd_beamEval, made by its first call (rd_beamWorkSize
                  // doubles, layout in wk); NULL until then
  // the residual-only kernel's copies, four quadrature points per block (nb blocks; a padded
  // lane repeats the last point): sections, basis and derivative (n x 4 per block)
  int nb;
  rdSectionProp4* sec4;
  double* phi4;
  double* dphi4;
  double* cphi;  // nq x n: jw phi, jw phi' (the weights of a point's densities at the nodes)
  double* cdphi;
};

// doubles of nodal maps per node (wk.nod)
enum { NNOD = 60, ER = 48 };

// workspace of one evaluation, carved from rd_beamWorkSize doubles
typedef struct {
  double* xq;   // nq x 3 positions of the last evaluation
  double* Fq;   // nq x 6 sectional forces of the last evaluation (displacement field: in the
                // reference frame R0 at the point, turned by rd_beamQuadForcesWork)
  double* qn;   // n x 4 sign-aligned quaternions
  double* nod;  // n x 5 x 4 x 3: E, Fw, Fa, dqdd/dW, Er (the map of the moment rows, r = Er^T g)
  double* g;    // n x 4 generalized quaternion forces
  double* jq;   // (nq + nv) x JROWS x JCOLS section Jacobians (elements/beam_section.h), then
                // their sums on the nv points (rd_beamPairsCompress)
  double* ab;   // nq x PAIR_ROWS x JCOLS scratch of the pair accumulation
  double* acc;  // n x n x PAIR_SIZE pair accumulators (elements/beam_pairs.h)
  double* W;    // n x 3 x 12: the maps of the blocks JG1, JG2, JG3 of node j (finish_sum)
  double* loc;  // n x 19: displacement-field nodal states (7 q, 6 v, 6 vd)
} wk;


// doubles of workspace for an element of n nodes and nq quadrature points
static size_t work_doubles(int n, int nq, int nv) {
  return (size_t)nq * (9 + JROWS * JCOLS + PAIR_ROWS * JCOLS) + (size_t)nv * JROWS * JCOLS +
         (size_t)n * (4 + NNOD + 4 + 36 + 19) + (size_t)n * (size_t)n * PAIR_SIZE;
}


static wk carve(const rdBeam* b, double* mem) {
  wk w;
  w.xq = mem;
  w.Fq = w.xq + 3 * b->nq;
  w.qn = w.Fq + 6 * b->nq;
  w.nod = w.qn + 4 * b->n;
  w.g = w.nod + NNOD * b->n;
  w.jq = w.g + 4 * b->n;
  w.ab = w.jq + (size_t)(b->nq + b->nv) * JROWS * JCOLS;
  w.acc = w.ab + (size_t)b->nq * PAIR_ROWS * JCOLS;
  w.W = w.acc + (size_t)b->n * (size_t)b->n * PAIR_SIZE;
  w.loc = w.W + 36 * (size_t)b->n;
  return w;
}

// ---------------------------------------------------------------------------------------------
// element

uint64_t rd_beamHash(const rdBeam* b, uint64_t h) {
  int head[4] = {b->n, b->nq, (int)b->field, (int)b->virt};
  h = rd_hash(h, head, sizeof(head));
  h = rd_hash(h, b->node, (size_t)b->n * sizeof(int));
  // the derived data: one block from phi to the end of R0g (rd_createBeam)
  size_t nd = (size_t)(b->R0g + 9 * b->nq - b->phi);
  return rd_hash(h, b->phi, nd * sizeof(double));
}


int rd_beamNodes(const rdBeam* b) {
  return b->n;
}


int rd_beamQuadPoints(const rdBeam* b) {
  return b->nq;
}


void rd_destroyBeam(rdBeam** b) {
  if (b && *b) {
    rd_free((*b)->ctx, (*b)->work);
    rd_free((*b)->ctx, *b);
    *b = NULL;
  }
}


// align quaternion signs node to node (q_k . q_{k-1} >= 0)
static void align(int n, const double* const* qin, double* qout) {
  for (int k = 0; k < n; k++) {
    double s = 1;
    if (k > 0) {
      s = q4_dot(qin[k], qout + 4 * (k - 1)) < 0 ? -1 : 1;
    }
    for (int j = 0; j < 4; j++) {
      qout[4 * k + j] = s * qin[k][j];
    }
  }
}


// Wiener-Milenkovic parameters c = 4 tan(theta/4) n of a unit quaternion (taken with w >= 0)
static void quat_to_wm(double c[3], const double q[4]) {
  double s = q[0] < 0 ? -1 : 1;
  for (int i = 0; i < 3; i++) {
    c[i] = 4 * s * q[1 + i] / (1 + s * q[0]);
  }
}

// unit quaternion of the Wiener-Milenkovic parameters c
static void wm_to_quat(double q[4], const double c[3]) {
  double t2 = v3_dot(c, c) / 16;
  q[0] = (1 - t2) / (1 + t2);
  for (int i = 0; i < 3; i++) {
    q[1 + i] = c[i] / (2 * (1 + t2));
  }
}

// the section inputs' sums at one point: sv = sum_k phi_k nv_k, sd = sum_k phi'_k nv_k (NV
// values each, six rdV4, in the order of the nodes)
RD_CLONES static void interp_point(int n, const double* phi, const double* dphi,
                                   const double (*nv)[NV], double* sv, double* sd) {
  // node by node into twelve accumulators (registers in the AVX2 clone); each sum still runs
  // over the nodes in order
  rdV4 v[NV / 4], d[NV / 4];
#pragma GCC unroll 6
  for (int i = 0; i < NV / 4; i++) {
    v[i] = d[i] = V4ZERO;
  }
  for (int k = 0; k < n; k++) {
    double f = phi[k], df = dphi[k];
#pragma GCC unroll 6
    for (int i = 0; i < NV / 4; i++) {
      rdV4 x = V4LD(nv[k] + 4 * i);
      v[i] += f * x;
      d[i] += df * x;
    }
  }
#pragma GCC unroll 6
  for (int i = 0; i < NV / 4; i++) {
    V4ST(sv + 4 * i, v[i]);
    V4ST(sd + 4 * i, d[i]);
  }
}


// out[i0 + r] = sum_k b4_k nv_k[i0 + r] for cnt <= 12 rows (constants once inlined): the rows
// in registers, one basis value of four points per node
RD_HOT void sum_rows4(int n, const double* b4, const double (*nv)[NV], int i0, int cnt,
                      double (*out)[4]) {
  rdV4 s[12];
#pragma GCC unroll 12
  for (int r = 0; r < cnt; r++) {
    s[r] = V4ZERO;
  }
  for (int k = 0; k < n; k++) {
    rdV4 f = V4LD(b4 + 4 * k);
#pragma GCC unroll 12
    for (int r = 0; r < cnt; r++) {
      s[r] += f * nv[k][i0 + r];
    }
  }
#pragma GCC unroll 12
  for (int r = 0; r < cnt; r++) {
    V4ST(out[i0 + r], s[r]);
  }
}


// the section inputs' sums at four points (lanes), the rows rd_beamSectionResidual4 reads:
// sv[i] = sum_k phi4_k nv_k[i] (q, qd, qdd, x, xd, xdd), sd[i] = sum_k phi4'_k nv_k[i] (q, qd,
// x, xd); each sum over the nodes in order as interp_point's, so the bits are the same
RD_CLONES static void interp_points4(int n, const double* phi4, const double* dphi4,
                                     const double (*nv)[NV], double (*sv)[4], double (*sd)[4]) {
  sum_rows4(n, phi4, nv, NV_Q, 12, sv);
  sum_rows4(n, phi4, nv, NV_X, 9, sv);
  sum_rows4(n, dphi4, nv, NV_Q, 8, sd);
  sum_rows4(n, dphi4, nv, NV_X, 6, sd);
}


// r_k += cp a_x + cd a_x' (rx: 4 per node, the 4th a scratch lane), g_k += cp a_p + cd a_p'
// with cp = jw phi_k, cd = jw phi'_k: one point's densities onto the nodes. The products are
// not fused into FMAs in the AVX2 clone, so both versions round as the scalar sums did.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif
RD_CLONES static void add_densities(int n, double jw, const double* phi, const double* dphi,
                                    const double a[NA], double* rx, double* g) {
  rdV4 ax = V4LD(a + AX), ax1 = V4LD(a + AX1), ap = V4LD(a + AP), ap1 = V4LD(a + AP1);
  for (int k = 0; k < n; k++) {
    double cp = jw * phi[k], cd = jw * dphi[k];
    V4ST(rx + 4 * k, V4LD(rx + 4 * k) + (cp * ax + cd * ax1));
    V4ST(g + 4 * k, V4LD(g + 4 * k) + (cp * ap + cd * ap1));
  }
}


// add_densities for nl <= 4 points in order, their densities by point (a[l]: NA values and 2
// unused) and jw phi_k, jw phi'_k given (cphi, cdphi: n per point); a node's sums stay in
// registers across the points. The same operations in the same order, so the same bits.
RD_HOT void add_points(int n, int nl, const double* cphi, const double* cdphi,
                       const double (*a)[16], double* rx, double* g) {
  for (int k = 0; k < n; k++) {
    rdV4 x = V4LD(rx + 4 * k), y = V4LD(g + 4 * k);
#pragma GCC unroll 4
    for (int l = 0; l < nl; l++) {
      double cp = cphi[l * n + k], cd = cdphi[l * n + k];
      x = x + (cp * V4LD(a[l] + AX) + cd * V4LD(a[l] + AX1));
      y = y + (cp * V4LD(a[l] + AP) + cd * V4LD(a[l] + AP1));
    }
    V4ST(rx + 4 * k, x);
    V4ST(g + 4 * k, y);
  }
}


RD_CLONES static void add_densities4(int n, int nl, const double* cphi, const double* cdphi,
                                     const double (*a)[16], double* rx, double* g) {
  if (nl == 4) {
    add_points(n, 4, cphi, cdphi, a, rx, g);
  } else {
    add_points(n, nl, cphi, cdphi, a, rx, g);
  }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif


// the residual-only kernel's copies of the sections and the basis, four points per block
static void pack_points4(rdBeam* b) {
  int n = b->n;
  for (int blk = 0; blk < b->nb; blk++) {
    rdSectionProp4* s4 = b->sec4 + blk;
    double* phi4 = b->phi4 + 4 * (size_t)n * blk;
    double* dphi4 = b->dphi4 + 4 * (size_t)n * blk;
    for (int l = 0; l < 4; l++) {
      int g = 4 * blk + l < b->nq ? 4 * blk + l : b->nq - 1;
      for (int i = 0; i < 36; i++) {
        s4->K[i][l] = b->Ks[36 * g + i];
        s4->D[i][l] = b->Ds[36 * g + i];
        s4->M[i][l] = b->Ms[36 * g + i];
      }
      for (int i = 0; i < 3; i++) {
        s4->G0[i][l] = b->G0[3 * g + i];
        s4->k0[i][l] = b->k0[3 * g + i];
      }
      for (int i = 0; i < 4; i++) {
        s4->et[i][l] = b->et ? b->et[4 * g + i] : 0;
      }
      for (int k = 0; k < n; k++) {
        phi4[4 * k + l] = b->phi[g * n + k];
        dphi4[4 * k + l] = b->dphi[g * n + k];
      }
    }
  }
  for (int g = 0; g < b->nq; g++) {
    for (int k = 0; k < n; k++) {
      b->cphi[g * n + k] = b->jw[g] * b->phi[g * n + k];
      b->cdphi[g * n + k] = b->jw[g] * b->dphi[g * n + k];
    }
  }
}


int rd_createBeam(rdContext* ctx, const rdBeamElemDef* def, rdBeam** out) {
  *out = NULL;
  int n = def->n;
  if (n < 2 || n > RD_BEAM_MAX_NODES || !def->node || !def->x0 || !def->q0) {
    return RD_ERROR(ctx, RD_ERR_ARG, "beam: %d nodes (2 .. %d, with positions and rotations)", n,
                    RD_BEAM_MAX_NODES);
  }
  int st = rd_beamSectionCheck(ctx, def->section);
  if (st) {
    return st;
  }
  if (!(def->s1 > def->s0) || def->s0 < 0 || def->s1 > 1) {
    return RD_ERROR(ctx, RD_ERR_ARG, "beam: span coordinates %g .. %g (need 0 <= s0 < s1 <= 1)",
                    def->s0, def->s1);
  }
  // quadrature points and weights in [-1, 1]
  const rdBeamSection* sec = def->section;
  double xi[RD_BEAM_MAX_NODES + 2 + 256], w[RD_BEAM_MAX_NODES + 2 + 256];
  int nq = 0;
  switch (def->quad) {
    case RD_BEAM_QUAD_FULL:
      nq = n;
      rd_gaussLegendre(nq, xi, w);
      break;
    case RD_BEAM_QUAD_REDUCED:
      nq = n - 1;
      rd_gaussLegendre(nq, xi, w);
      break;
    case RD_BEAM_QUAD_STATIONS: {
      if (sec->nsta > 256) {
        return RD_ERROR(ctx, RD_ERR_ARG, "beam: station quadrature with %d > 256 stations",
                        sec->nsta);
      }
      double h = def->s1 - def->s0;
      xi[nq++] = -1;
      for (int i = 0; i < sec->nsta; i++) {
        double x = -1 + 2 * (sec->eta[i] - def->s0) / h;
        if (x > -1 + 1e-12 && x < 1 - 1e-12) {
          xi[nq++] = x;
        }
      }
      xi[nq++] = 1;
      for (int i = 0; i < nq; i++) {
        w[i] = 0.5 * ((i > 0 ? xi[i] - xi[i - 1] : 0) + (i < nq - 1 ? xi[i + 1] - xi[i] : 0));
      }
      break;
    }
    default:
      return RD_ERROR(ctx, RD_ERR_ARG, "beam: unknown quadrature %d", (int)def->quad);
  }
  if (def->field != RD_BEAM_FIELD_TOTAL && def->field != RD_BEAM_FIELD_DISPLACEMENT) {
    return RD_ERROR(ctx, RD_ERR_ARG, "beam: unknown rotation field %d", (int)def->field);
  }
  if (def->virt != RD_BEAM_VIRTUAL_FIELD && def->virt != RD_BEAM_VIRTUAL_INTERPOLATED) {
    return RD_ERROR(ctx, RD_ERR_ARG, "beam: unknown virtual rotations %d", (int)def->virt);
  }
  // one allocation (rd_beamEval's workspace apart: models evaluate into their data's)
  int nv = nq >= 2 * (2 * n - 1) ? 2 * n - 1 : 0;
  int nb = (nq + 3) / 4;
  size_t nd4 = sizeof(rdSectionProp4) / sizeof(double) + 16 * (size_t)n;
  size_t nd = (size_t)nq * (2 * (size_t)n + 1 + 3 + 3 + 5 * 36 + 9 + 4) + (size_t)n * 13 +
              (size_t)nv * (3 * (size_t)nq + 2 * (size_t)n) + (size_t)nb * nd4;
  rdBeam* b = rd_alloc(ctx, sizeof(rdBeam) + nd * sizeof(double));
  if (!b) {
    return RD_ERR_NOMEM;
  }
  memset(b, 0, sizeof(rdBeam) + nd * sizeof(double));
  b->ctx = ctx;
  b->n = n;
  b->nq = nq;
  double* mem = (double*)(b + 1);
#define TAKE(ptr, cnt) (ptr = mem, mem += (cnt))
  TAKE(b->phi, nq * n);
  TAKE(b->dphi, nq * n);
  TAKE(b->jw, nq);
  TAKE(b->G0, 3 * nq);
  TAKE(b->k0, 3 * nq);
  TAKE(b->Ks, 36 * nq);
  TAKE(b->Ds, 36 * nq);
  TAKE(b->Ms, 36 * nq);
  TAKE(b->R0n, 9 * n);
  TAKE(b->q0c, 4 * n);
  TAKE(b->R0g, 9 * nq);
  TAKE(b->et, 4 * nq);
  TAKE(b->cL, 3 * nv * nq);
  TAKE(b->vphi, nv * n);
  TAKE(b->vdphi, nv * n);
  TAKE(b->Kt, 36 * nq);
  TAKE(b->Dt, 36 * nq);
  b->sec4 = (rdSectionProp4*)mem;
  mem += (size_t)nb * (sizeof(rdSectionProp4) / sizeof(double));
  TAKE(b->phi4, 4 * n * nb);
  TAKE(b->dphi4, 4 * n * nb);
  TAKE(b->cphi, 4 * n * nb);
  TAKE(b->cdphi, 4 * n * nb);
  b->nv = nv;
  b->nb = nb;
#undef TAKE
  if (!def->ext_twist) {
    b->et = NULL;
  }
  b->field = def->field;
  b->virt = def->virt;
  for (int k = 0; k < n; k++) {
    b->node[k] = def->node[k];
    b->ident[k] = k;
  }
  double xn[RD_BEAM_MAX_NODES];
  rd_gaussLobatto(n, xn);
  const double* qin[RD_BEAM_MAX_NODES] = {0};
  for (int k = 0; k < n; k++) {
    qin[k] = def->q0 + 4 * k;
  }
  double q0[4 * RD_BEAM_MAX_NODES];
  align(n, qin, q0);
  // displacement field: nodal reference rotations, their WM parameters relative to node 0;
  // the field itself starts at the identity
  double wm[3 * RD_BEAM_MAX_NODES];
  int disp = def->field == RD_BEAM_FIELD_DISPLACEMENT;
  if (disp) {
    for (int k = 0; k < n; k++) {
      double* qk = q0 + 4 * k;
      rdu_quatNormalize(qk, qk);
      rdu_quatToMat(b->R0n + 9 * k, qk);
      rdu_quatConj(b->q0c + 4 * k, qk);
    }
    for (int k = 0; k < n; k++) {
      double rel[4];
      rdu_quatMul(rel, b->q0c, q0 + 4 * k);
      quat_to_wm(wm + 3 * k, rel);
    }
    for (int k = 0; k < n; k++) {
      q0[4 * k] = 1;
      q0[4 * k + 1] = q0[4 * k + 2] = q0[4 * k + 3] = 0;
    }
  }
  if (nv) {
    double xv[2 * RD_BEAM_MAX_NODES];
    rd_gaussLobatto(nv, xv);
    for (int m = 0; m < nv; m++) {
      rd_lagrangeBasis(n, xn, xv[m], b->vphi + m * n, b->vdphi + m * n);
    }
  }
  for (int g = 0; g < nq; g++) {
    double* phi = b->phi + g * n;
    double* dphi = b->dphi + g * n;
    rd_lagrangeBasis(n, xn, xi[g], phi, dphi);
    double dx[3] = {0};
    for (int k = 0; k < n; k++) {
      v3_axpy(dx, dphi[k], def->x0 + 3 * k);
    }
    double J = v3_norm(dx);
    if (!(J > 1e-12)) {
      rd_free(ctx, b);
      return RD_ERROR(ctx, RD_ERR_MODEL, "beam: degenerate reference line at quadrature point %d",
                      g);
    }
    for (int k = 0; k < n; k++) {
      dphi[k] /= J;
    }
    b->jw[g] = w[g] * J;
    if (nv) {
      // the interpolation onto the nv Gauss-Lobatto points, with 1 / J for each arc-length
      // derivative
      double xv[2 * RD_BEAM_MAX_NODES], L[2 * RD_BEAM_MAX_NODES], dL[2 * RD_BEAM_MAX_NODES];
      rd_gaussLobatto(nv, xv);
      rd_lagrangeBasis(nv, xv, xi[g], L, dL);
      for (int m = 0; m < nv; m++) {
        double* c = b->cL + ((size_t)m * (size_t)nq + (size_t)g) * 3;
        c[0] = L[m];
        c[1] = L[m] / J;
        c[2] = L[m] / (J * J);
      }
    }
    // reference strains: the same formulas at the initial configuration
    // (the sums as rd_beamEval forms them, so that the reference state has the same bits)
    rdSectionIn s;
    memset(&s, 0, sizeof(s));
    double nv0[RD_BEAM_MAX_NODES][NV] = {{0}}, sv[NV], sd[NV];
    for (int k = 0; k < n; k++) {
      memcpy(nv0[k], q0 + 4 * k, 4 * sizeof(double));
      v3_copy(nv0[k] + 12, def->x0 + 3 * k);
    }
    interp_point(n, phi, dphi, (const double(*)[NV])nv0, sv, sd);
    memcpy(s.p, sv, 4 * sizeof(double));
    memcpy(s.p1, sd, 4 * sizeof(double));
    v3_copy(s.x1, sd + 12);
    double R[9], n2 = q4_dot(s.p, s.p), L[12];
    rdu_quatToMat(R, s.p);
    m3_tmulv(b->G0 + 3 * g, R, s.x1);
    qm_L(L, s.p);
    for (int i = 0; i < 3; i++) {
      b->k0[3 * g + i] = 2 * q4_dot(L + 4 * i, s.p1) / n2;
    }
    double eta = def->s0 + (def->s1 - def->s0) * 0.5 * (xi[g] + 1);
    rd_beamSectionAt(sec, eta, b->Ks + 36 * g, b->Ms + 36 * g);
    if (b->et) {
      // the section axis: x of the section frame, or of R0 in the displacement field's frame
      double* et = b->et + 4 * g;
      et[0] = 1;
      et[1] = et[2] = 0;
      et[3] = b->Ks[36 * g + 6 * 4 + 4] + b->Ks[36 * g + 6 * 5 + 5];
    }
    for (int i = 0; i < 6; i++) {
      for (int j = 0; j < 6; j++) {
        b->Ds[36 * g + 6 * i + j] = sec->mu[i] * b->Ks[36 * g + 6 * i + j];
      }
    }
    if (disp) {
      // reference frame: node 0 composed with the interpolated relative WM parameters
      double c[3] = {0}, rq[4], qg[4];
      for (int k = 0; k < n; k++) {
        v3_axpy(c, phi[k], wm + 3 * k);
      }
      wm_to_quat(rq, c);
      double q00[4];
      rdu_quatConj(q00, b->q0c);
      rdu_quatMul(qg, q00, rq);
      rdu_quatToMat(b->R0g + 9 * g, qg);
      if (b->et) {
        for (int i = 0; i < 3; i++) {
          b->et[4 * g + i] = b->R0g[9 * g + 3 * i];
        }
      }
      blk_rotate6(b->Ks + 36 * g, b->R0g + 9 * g);
      blk_rotate6(b->Ds + 36 * g, b->R0g + 9 * g);
      blk_rotate6(b->Ms + 36 * g, b->R0g + 9 * g);
    }
    for (int i = 0; i < 6; i++) {
      for (int j = 0; j < 6; j++) {
        b->Kt[36 * g + 6 * j + i] = b->Ks[36 * g + 6 * i + j];
        b->Dt[36 * g + 6 * j + i] = b->Ds[36 * g + 6 * i + j];
      }
    }
  }
  pack_points4(b);
  *out = b;
  return RD_OK;
}


void rd_beamQuadForces(const rdBeam* b, int g, double x[3], double F[6]) {
  if (!b->work) {
    memset(x, 0, 3 * sizeof(double));
    memset(F, 0, 6 * sizeof(double));
    return;
  }
  rd_beamQuadForcesWork(b, b->work, g, x, F);
}


void rd_beamQuadForcesWork(const rdBeam* b, const double* work, int g, double x[3], double F[6]) {
  wk w = carve(b, (double*)work);
  v3_copy(x, w.xq + 3 * g);
  const double* Fg = w.Fq + 6 * g;
  if (b->field == RD_BEAM_FIELD_DISPLACEMENT) {
    // kept in the field's reference frame at the point: to the section frame
    m3_tmulv(F, b->R0g + 9 * g, Fg);
    m3_tmulv(F + 3, b->R0g + 9 * g, Fg + 3);
  } else {
    memcpy(F, Fg, 6 * sizeof(double));
  }
}


void rd_beamQuadSection(const rdBeam* b, int g, double* jw, double K[36]) {
  *jw = b->jw[g];
  memcpy(K, b->Ks + 36 * g, 36 * sizeof(double));
  if (b->field == RD_BEAM_FIELD_DISPLACEMENT) {
    // stored in the reference frame turned to global axes: back to the section frame
    const double* R = b->R0g + 9 * g;
    double Rt[9] = {R[0], R[3], R[6], R[1], R[4], R[7], R[2], R[5], R[8]};
    blk_rotate6(K, Rt);
  }
}


double rd_beamQuadXi(const rdBeam* b, int g) {
  // the Lagrange basis reproduces xi: sum_k phi_k(xi) xi_k
  double xn[RD_BEAM_MAX_NODES], x = 0;
  rd_gaussLobatto(b->n, xn);
  for (int k = 0; k < b->n; k++) {
    x += b->phi[g * b->n + k] * xn[k];
  }
  return x;
}


size_t rd_beamWorkSize(const rdBeam* b) {
  return work_doubles(b->n, b->nq, b->nv);
}


int rd_beamEval(rdBeam* b, const double* q, const double* v, const double* vd,
                const rdBeamLoads* ld, double* r, double* M, double* C, double* K) {
  if (!b->work) {
    b->work = rd_calloc(b->ctx, work_doubles(b->n, b->nq, b->nv), sizeof(double));
    if (!b->work) {
      return RD_ERR_NOMEM;
    }
  }
  return rd_beamEvalWork(b, b->work, q, v, vd, ld, r, M, C, K);
}


// the residual's quadrature points without the Jacobian, four at a time
// (rd_beamSectionResidual4): positions and sectional forces into w, the densities onto the
// nodes (rx, w->g) point by point in order. RD_ERR_NUMERIC as eval.
static int residual_points4(const rdBeam* b, const wk* w, const double (*nv)[NV],
                            const rdBeamLoads* ld, int follow, double* rx, int* bad, double* bn2) {
  int n = b->n;
  int interp = b->virt == RD_BEAM_VIRTUAL_INTERPOLATED;
  for (int blk = 0; blk < b->nb; blk++) {
    double sv[NV][4], sd[NV][4], a4[4][16], F4[4][8], fl[6][4];
    interp_points4(n, b->phi4 + 4 * (size_t)n * blk, b->dphi4 + 4 * (size_t)n * blk, nv, sv, sd);
    int g0 = 4 * blk, nl = b->nq - g0 < 4 ? b->nq - g0 : 4;
    for (int l = 0; l < nl; l++) {
      double p[4] = {sv[0][l], sv[1][l], sv[2][l], sv[3][l]};
      double n2 = q4_dot(p, p);
      if (!(n2 > 1e-6)) {
        *bad = g0 + l;
        *bn2 = n2;
        return RD_ERR_NUMERIC;
      }
      for (int i = 0; i < 3; i++) {
        w->xq[3 * (g0 + l) + i] = sv[NV_X + i][l];
      }
    }
    if (follow) {
      // follower loads: from the section frame to the reference frame of the field
      for (int l = 0; l < 4; l++) {
        const double* R0 = b->R0g + 9 * (g0 + (l < nl ? l : nl - 1));
        double f[3], m[3];
        m3_mulv(f, R0, ld->f_follow);
        m3_mulv(m, R0, ld->m_follow);
        for (int i = 0; i < 3; i++) {
          fl[i][l] = f[i];
          fl[3 + i][l] = m[i];
        }
      }
    }
    rd_beamSectionResidual4((const double(*)[4])sv, (const double(*)[4])sd, b->sec4 + blk,
                            b->et != NULL, ld, follow ? (const double(*)[4])fl : NULL, interp, a4,
                            F4);
    for (int l = 0; l < nl; l++) {
      memcpy(w->Fq + 6 * (g0 + l), F4[l], 6 * sizeof(double));
    }
    add_densities4(n, nl, b->cphi + (size_t)g0 * n, b->cdphi + (size_t)g0 * n,
                   (const double(*)[16])a4, rx, w->g);
  }
  return RD_OK;
}


// One evaluation into the workspace at the states q, v, vd read at nodes node[k] (the model's,
// or the local displacement-field arrays; sections and reference strains as stored in b):
// sign-aligned quaternions and nodal maps, the residual r (6n), the quadrature-point outputs
// and, if c is not NULL, the accumulators of every node pair for S = cM M + cC C + cK K.
// RD_ERR_NUMERIC (not raised) if the rotation field degenerates: *bad = quadrature point,
// *bn2 = |p|^2 there.
static int eval(const rdBeam* b, const wk* w, const int* node, const double* q, const double* v,
                const double* vd, const rdBeamLoads* ld, double* r, const rdSectionCoef* c,
                int* bad, double* bn2) {
  int n = b->n;
  int jac = c != NULL;
  const double* qin[RD_BEAM_MAX_NODES] = {0};
  for (int k = 0; k < n; k++) {
    qin[k] = q + 7 * node[k] + 3;
  }
  align(n, qin, w->qn);
  // nodal rates of the quaternions and their maps: E = 1/2 Xi(q), Fw, Fa, dqdd/dW; the nodal
  // values the section inputs interpolate, nv[k] (NV)
  double nv[RD_BEAM_MAX_NODES][NV];
  for (int k = 0; k < n; k++) {
    const double* qk = w->qn + 4 * k;
    const double* W = v + 6 * node[k] + 3;
    const double* Wd = vd + 6 * node[k] + 3;
    double Q[16], Y[12];
    double* E = w->nod + NNOD * k;
    double* Fw = E + 12;
    double* Fa = E + 24;
    double* dW = E + 36;
    double* Er = E + ER;
    qm_Q(Q, qk);
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 3; j++) {
        E[3 * i + j] = 0.5 * Q[4 * i + 1 + j];
      }
    }
    if (b->virt == RD_BEAM_VIRTUAL_INTERPOLATED) {
      // Er = [R_k; 0]: Er^T g = R_k^T g (global to the node's body frame)
      rdu_quatToMat(Er, qk);
      Er[9] = Er[10] = Er[11] = 0;
    } else {
      memcpy(Er, E, 12 * sizeof(double));
    }
    double W2 = v3_dot(W, W);
    double* nk = nv[k];
    for (int i = 0; i < 4; i++) {
      nk[i] = qk[i];
      nk[4 + i] = E[3 * i] * W[0] + E[3 * i + 1] * W[1] + E[3 * i + 2] * W[2];
      nk[8 + i] =
          E[3 * i] * Wd[0] + E[3 * i + 1] * Wd[1] + E[3 * i + 2] * Wd[2] - 0.25 * W2 * qk[i];
    }
    v3_copy(nk + 12, q + 7 * node[k]);
    v3_copy(nk + 15, v + 6 * node[k]);
    v3_copy(nk + 18, vd + 6 * node[k]);
    nk[21] = nk[22] = nk[23] = 0;
    if (jac) {
      memset(Fw, 0, 36 * sizeof(double));
      qm_Y(Y, W);
      blk_mmFull(Fw, 3, Q, 4, Y, 3, 4, 4, 3, 0.25);
      qm_Y(Y, Wd);
      blk_mmFull(Fa, 3, Q, 4, Y, 3, 4, 4, 3, 0.25);
      for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 3; j++) {
          Fa[3 * i + j] -= 0.25 * W2 * E[3 * i + j];
          dW[3 * i + j] = -0.5 * qk[i] * W[j];
        }
      }
    }
  }
  memset(r, 0, sizeof(double) * 6 * (size_t)n);
  memset(w->g, 0, sizeof(double) * 4 * (size_t)n);
  double a[NA], rx[4 * RD_BEAM_MAX_NODES];
  memset(rx, 0, sizeof(double) * 4 * (size_t)n);
  // follower loads to turn into each point's reference frame (displacement field)
  int follow = 0;
  for (int i = 0; ld && b->field == RD_BEAM_FIELD_DISPLACEMENT && i < 3; i++) {
    follow |= ld->f_follow[i] != 0 || ld->m_follow[i] != 0;
  }
  if (!jac) {
    int st = residual_points4(b, w, (const double(*)[NV])nv, ld, follow, rx, bad, bn2);
    if (st != RD_OK) {
      return st;
    }
  }
  for (int g = 0; jac && g < b->nq; g++) {
    const double* phi = b->phi + g * n;
    const double* dphi = b->dphi + g * n;
    // the section inputs: sums of the nodal values with phi and phi'
    double sv[NV], sd[NV];
    interp_point(n, phi, dphi, (const double(*)[NV])nv, sv, sd);
    rdSectionIn s;
    memcpy(s.p, sv, 4 * sizeof(double));
    memcpy(s.p1, sd, 4 * sizeof(double));
    memcpy(s.pd, sv + 4, 4 * sizeof(double));
    memcpy(s.pd1, sd + 4, 4 * sizeof(double));
    memcpy(s.pdd, sv + 8, 4 * sizeof(double));
    v3_copy(s.x1, sd + 12);
    v3_copy(s.xd, sv + 15);
    v3_copy(s.xdd, sv + 18);
    v3_copy(s.xd1, sd + 15);
    v3_copy(w->xq + 3 * g, sv + 12);
    double n2 = q4_dot(s.p, s.p);
    if (!(n2 > 1e-6)) {
      *bad = g;
      *bn2 = n2;
      return RD_ERR_NUMERIC;
    }
    rdSectionProp sp = {
        b->Ks + 36 * g, b->Ds + 36 * g, b->Ms + 36 * g, b->Kt + 36 * g,
        b->Dt + 36 * g, b->G0 + 3 * g,  b->k0 + 3 * g,  b->et ? b->et + 4 * g : NULL};
    const rdBeamLoads* lg = ld;
    rdBeamLoads lr;
    double* Fg = w->Fq + 6 * g;
    if (follow) {
      // follower loads: from the section frame to the reference frame of the field
      lr = *ld;
      m3_mulv(lr.f_follow, b->R0g + 9 * g, ld->f_follow);
      m3_mulv(lr.m_follow, b->R0g + 9 * g, ld->m_follow);
      lg = &lr;
    }
    double jw = b->jw[g];
    rd_beamSectionEval(&s, &sp, lg, b->virt == RD_BEAM_VIRTUAL_INTERPOLATED, c, jw, a,
                       w->jq + (size_t)g * JROWS * JCOLS, Fg);
    add_densities(n, jw, phi, dphi, a, rx, w->g);
  }
  for (int k = 0; k < n; k++) {
    v3_copy(r + 6 * k, rx + 4 * k);
  }
  // moment rows r_theta_k = Er_k^T g_k
  for (int k = 0; k < n; k++) {
    blk_mtm(r + 6 * k + 3, 1, w->nod + NNOD * k + ER, 3, w->g + 4 * k, 1, 3, 4, 1, 1);
  }
  if (jac) {
    int nrow = b->virt == RD_BEAM_VIRTUAL_INTERPOLATED ? 6 : 7;
    if (b->nv) {
      // on nv points: the compressed sums in jq's second half
      double* Y = w->jq + (size_t)b->nq * JROWS * JCOLS;
      rd_beamPairsCompress(b->nq, b->nv, nrow, b->cL, w->jq, Y);
      rd_beamPairs(n, b->nv, nrow, b->vphi, b->vdphi, Y, w->ab, w->acc);
    } else {
      rd_beamPairs(n, b->nq, nrow, b->phi, b->dphi, w->jq, w->ab, w->acc);
    }
  }
  return RD_OK;
}


// the derivative of the outer factor Er_k^T of the moment rows (3x3, added to K at node k's
// rotation-rotation block): E_k^T: 1/4 (skew(h_v) - h_w I), h = conj(q_k) (x) g_k;
// R_k^T (interpolated virtual rotations): skew(R_k^T g_k)
static void outer_stiffness(const rdBeam* b, const wk* w, int k, double D[9]) {
  const double* qk = w->qn + 4 * k;
  const double* gk = w->g + 4 * k;
  if (b->virt == RD_BEAM_VIRTUAL_INTERPOLATED) {
    double t[3];
    m3_tmulv(t, w->nod + NNOD * k + ER, gk);
    m3_skew(D, t);
    return;
  }
  double qc[4], h[4];
  rdu_quatConj(qc, qk);
  rdu_quatMul(h, qc, gk);
  m3_skew(D, h + 1);
  for (int i = 0; i < 9; i++) {
    D[i] = 0.25 * (D[i] - (i % 4 == 0 ? h[0] : 0));
  }
}


// S = cM M + cC C + cK K diag(I, T_k) from the accumulators of an evaluation with (cM, cC, cK):
// the translation columns are there, the rotation columns of node j take the blocks
// JG1 (cK E_j T_j) + JG2 (cK Fw_j T_j + cC E_j) + JG3 (cK Fa_j T_j + cC dW_j + cM E_j); the
// moment rows take Er_i^T
static void finish_sum(const rdBeam* b, const wk* w, const rdBeamSum* c, double* S) {
  int n = b->n;
  size_t nd = 6 * (size_t)n;
  static const double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int j = 0; c->Y && j < n; j++) {
    // general maps: W1 = E YK, W2 = Fw YK + E YC, W3 = Fa YK + dW YC + E YM
    const double* E = w->nod + NNOD * j;
    const double* Y = c->Y + 27 * j;
    const double* src[3][3] = {{E, NULL, NULL}, {E + 12, E, NULL}, {E + 24, E + 36, E}};
    for (int mm = 0; mm < 3; mm++) {
      double* Wm = w->W + 36 * j + 12 * mm;
      memset(Wm, 0, 12 * sizeof(double));
      for (int t = 0; t < 3; t++) {
        if (src[mm][t]) {
          blk_mmFull(Wm, 3, src[mm][t], 3, Y + 9 * t, 3, 4, 3, 3, 1);
        }
      }
    }
  }
  for (int j = 0; !c->Y && j < n; j++) {
    const double* E = w->nod + NNOD * j;
    const double* Fw = E + 12;
    const double* Fa = E + 24;
    const double* dW = E + 36;
    const double* T = c->T ? c->T + 9 * j : I3;
    double* W1 = w->W + 36 * j;
    double* W2 = W1 + 12;
    double* W3 = W1 + 24;
    for (int i = 0; i < 4; i++) {
      for (int k = 0; k < 3; k++) {
        // the K terms are right-multiplied by T
        double et = 0, ft = 0, at = 0;
        for (int l = 0; l < 3; l++) {
          et += E[3 * i + l] * T[3 * l + k];
          ft += Fw[3 * i + l] * T[3 * l + k];
          at += Fa[3 * i + l] * T[3 * l + k];
        }
        int ik = 3 * i + k;
        W1[ik] = c->cK * et;
        W2[ik] = c->cK * ft + c->cC * E[ik];
        W3[ik] = c->cK * at + c->cC * dW[ik] + c->cM * E[ik];
      }
    }
  }
  rd_beamPairsFinish(n, b->virt == RD_BEAM_VIRTUAL_INTERPOLATED ? 6 : 7, w->acc, w->W, w->nod + ER,
                     NNOD, S);
  for (int k = 0; (c->cK != 0 || c->Y) && k < n; k++) {
    double D[9], DT[9] = {0};
    outer_stiffness(b, w, k, D);
    if (c->Y) {
      blk_mm(DT, 3, D, 3, c->Y + 27 * k, 3, 3, 3, 3, 1);
    } else {
      blk_mm(DT, 3, D, 3, c->T ? c->T + 9 * k : I3, 3, 3, 3, 3, c->cK);
    }
    double* blk = S + (6 * (size_t)k + 3) * nd + 6 * (size_t)k + 3;
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        blk[i * nd + j] += DT[3 * i + j];
      }
    }
  }
}


// displacement field: nodal states d_k = q_k conj(q0_k) with angular velocities and
// accelerations R0_k W (local arrays, 7 / 6 / 6 per node)
static void to_displacement(const rdBeam* b, const double* q, const double* v, const double* vd,
                            double* ql, double* vl, double* vdl) {
  for (int k = 0; k < b->n; k++) {
    const double* qk = q + 7 * b->node[k];
    const double* R0 = b->R0n + 9 * k;
    v3_copy(ql + 7 * k, qk);
    rdu_quatMul(ql + 7 * k + 3, qk + 3, b->q0c + 4 * k);
    v3_copy(vl + 6 * k, v + 6 * b->node[k]);
    m3_mulv(vl + 6 * k + 3, R0, v + 6 * b->node[k] + 3);
    if (vd) {
      v3_copy(vdl + 6 * k, vd + 6 * b->node[k]);
      m3_mulv(vdl + 6 * k + 3, R0, vd + 6 * b->node[k] + 3);
    }
  }
}


// A <- T^T A T, T = blockdiag(I, R0_0, I, R0_1, ...): rotation rows and columns back to the
// nodes' body frames
static void from_displacement(const rdBeam* b, double* A) {
  int nd = 6 * b->n;
  for (int k = 0; k < b->n; k++) {
    const double* R0 = b->R0n + 9 * k;
    blk_rowsTmul(A, nd, 6 * k + 3, R0);
    blk_colsMul(A, nd, 6 * k + 3, R0);
  }
}


// evaluate at the model state: directly (total field) or through the displacement-field
// states in w->loc, whose moment rows are then turned back to the nodes' body frames
static int eval_model(const rdBeam* b, const wk* w, const double* q, const double* v,
                      const double* vd, const rdBeamLoads* ld, double* r, const rdSectionCoef* c,
                      int* bad, double* bn2) {
  if (b->field == RD_BEAM_FIELD_TOTAL) {
    return eval(b, w, b->node, q, v, vd, ld, r, c, bad, bn2);
  }
  double* ql = w->loc;
  double* vl = ql + 7 * b->n;
  double* vdl = vl + 6 * b->n;
  to_displacement(b, q, v, vd, ql, vl, vdl);
  int st = eval(b, w, b->ident, ql, vl, vdl, ld, r, c, bad, bn2);
  for (int k = 0; st == RD_OK && k < b->n; k++) {
    double t[3];
    m3_tmulv(t, b->R0n + 9 * k, r + 6 * k + 3);
    v3_copy(r + 6 * k + 3, t);
  }
  return st;
}


// r and, if c and S are not NULL, S = cM M + cC C + cK K diag(I, T_k) (rd_beamEvalSum)
static int eval_sum(const rdBeam* b, const wk* w, const double* q, const double* v,
                    const double* vd, const rdBeamLoads* ld, const rdBeamSum* c, double* r,
                    double* S, int* bad, double* bn2) {
  int jac = c && S;
  rdSectionCoef sc = {jac ? c->cM : 0, jac ? c->cC : 0, jac ? c->cK : 0};
  int st = eval_model(b, w, q, v, vd, ld, r, jac ? &sc : NULL, bad, bn2);
  if (st != RD_OK || !jac) {
    return st;
  }
  if (b->field == RD_BEAM_FIELD_TOTAL) {
    finish_sum(b, w, c, S);
    return RD_OK;
  }
  // displacement field: S = T^T [cM M + cC C + cK K diag(I, R0_k T_k R0_k^T)] T with the
  // local matrices, T = blockdiag(I, R0_k) (from_displacement)
  double Tl[27 * RD_BEAM_MAX_NODES];
  rdBeamSum cl = *c;
  for (int k = 0; c->T && !c->Y && k < b->n; k++) {
    const double* R0 = b->R0n + 9 * k;
    double RT[9];
    m3_mul(RT, R0, c->T + 9 * k);
    m3_mult(Tl + 9 * k, RT, R0);
    cl.T = Tl;
  }
  // general maps likewise: R0 Y R0^T (the local rates are R0 W)
  for (int k = 0; c->Y && k < 3 * b->n; k++) {
    const double* R0 = b->R0n + 9 * (k / 3);
    double RY[9];
    m3_mul(RY, R0, c->Y + 9 * k);
    m3_mult(Tl + 9 * k, RY, R0);
    cl.Y = Tl;
  }
  finish_sum(b, w, &cl, S);
  from_displacement(b, S);
  return RD_OK;
}


int rd_beamEvalWork(const rdBeam* b, double* work, const double* q, const double* v,
                    const double* vd, const rdBeamLoads* ld, double* r, double* M, double* C,
                    double* K) {
  wk w = carve(b, work);
  int bad = 0;
  double n2 = 0;
  // M, C and K are the iteration matrices with one coefficient 1 (K without tangent operators):
  // one evaluation each (the residual is the same every time)
  double* mats[3] = {M, C, K};
  int st = RD_OK, done = 0;
  for (int m = 0; st == RD_OK && m < 3; m++) {
    if (mats[m]) {
      rdBeamSum c = {m == 0, m == 1, m == 2, NULL, NULL};
      st = eval_sum(b, &w, q, v, vd, ld, &c, r, mats[m], &bad, &n2);
      done = 1;
    }
  }
  if (!done) {
    st = eval_sum(b, &w, q, v, vd, ld, NULL, r, NULL, &bad, &n2);
  }
  if (st != RD_OK) {
    return RD_ERROR(b->ctx, RD_ERR_NUMERIC,
                    "beam: rotation field degenerates (|p|^2 = %g at quadrature point %d); "
                    "neighbouring nodes rotated by about pi relative to each other",
                    n2, bad);
  }
  return RD_OK;
}


int rd_beamEvalSum(const rdBeam* b, double* work, const double* q, const double* v,
                   const double* vd, const rdBeamLoads* ld, const rdBeamSum* c, double* r,
                   double* S) {
  wk w = carve(b, work);
  int bad = 0;
  double n2 = 0;
  return eval_sum(b, &w, q, v, vd, ld, c, r, S, &bad, &n2);
}


int rd_beamEnergy(const rdBeam* b, const double* q, const double* v, const double* g,
                  double* strain, double* kinetic, double* gravity, double p[3], double L[3]) {
  int n = b->n;
  const int* node = b->node;
  double ql[7 * RD_BEAM_MAX_NODES], vl[6 * RD_BEAM_MAX_NODES];
  if (b->field == RD_BEAM_FIELD_DISPLACEMENT) {
    to_displacement(b, q, v, NULL, ql, vl, NULL);
    q = ql;
    v = vl;
    node = b->ident;
  }
  const double* qin[RD_BEAM_MAX_NODES] = {0};
  double qn[4 * RD_BEAM_MAX_NODES], qd[4 * RD_BEAM_MAX_NODES];
  for (int k = 0; k < n; k++) {
    qin[k] = q + 7 * node[k] + 3;
  }
  align(n, qin, qn);
  // quaternion rates: qdot_k = 1/2 q_k (x) (0, W_k)
  for (int k = 0; k < n; k++) {
    const double* W = v + 6 * node[k] + 3;
    double w4[4] = {0, W[0], W[1], W[2]};
    rdu_quatMul(qd + 4 * k, qn + 4 * k, w4);
    for (int j = 0; j < 4; j++) {
      qd[4 * k + j] *= 0.5;
    }
  }
  double es = 0, ek = 0, eg = 0, pt[3] = {0, 0, 0}, Lt[3] = {0, 0, 0};
  for (int gq = 0; gq < b->nq; gq++) {
    const double* phi = b->phi + gq * n;
    const double* dphi = b->dphi + gq * n;
    double pp[4] = {0}, p1[4] = {0}, pd[4] = {0}, x[3] = {0}, x1[3] = {0}, xd[3] = {0};
    for (int k = 0; k < n; k++) {
      for (int j = 0; j < 4; j++) {
        pp[j] += phi[k] * qn[4 * k + j];
        p1[j] += dphi[k] * qn[4 * k + j];
        pd[j] += phi[k] * qd[4 * k + j];
      }
      v3_axpy(x, phi[k], q + 7 * node[k]);
      v3_axpy(x1, dphi[k], q + 7 * node[k]);
      v3_axpy(xd, phi[k], v + 6 * node[k]);
    }
    double n2 = q4_dot(pp, pp);
    if (!(n2 > 1e-6)) {
      return RD_ERROR(b->ctx, RD_ERR_NUMERIC,
                      "beam: rotation field degenerates (|p|^2 = %g at quadrature point %d)", n2,
                      gq);
    }
    double R[9], Lam[12];
    rdu_quatToMat(R, pp);
    qm_L(Lam, pp);
    // strains e = [Gamma; kappa] and velocities V = [u; omega], section frame
    double e[6] = {0}, V[6] = {0};
    m3_tmulv(e, R, x1);
    m3_tmulv(V, R, xd);
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 4; j++) {
        e[3 + i] += 2 / n2 * Lam[4 * i + j] * p1[j];
        V[3 + i] += 2 / n2 * Lam[4 * i + j] * pd[j];
      }
      e[i] -= b->G0[3 * gq + i];
      e[3 + i] -= b->k0[3 * gq + i];
    }
    const double* Ks = b->Ks + 36 * gq;
    const double* Ms = b->Ms + 36 * gq;
    double Ke[6] = {0}, P[6] = {0};
    for (int i = 0; i < 6; i++) {
      for (int j = 0; j < 6; j++) {
        Ke[i] += Ks[6 * i + j] * e[j];
        P[i] += Ms[6 * i + j] * V[j];
      }
    }
    double jw = b->jw[gq], se = 0, ke = 0;
    for (int i = 0; i < 6; i++) {
      se += e[i] * Ke[i];
      ke += V[i] * P[i];
    }
    if (b->et) {
      // extension-twist term: 1/2 cet e1 k1^2 (twice that here, as e^T K e)
      const double* et = b->et + 4 * gq;
      double k1 = v3_dot(et, e + 3);
      se += et[3] * v3_dot(et, e) * k1 * k1;
    }
    es += 0.5 * jw * se;
    ek += 0.5 * jw * ke;
    double pg[3], lr[3], xp[3];
    m3_mulv(pg, R, P);
    m3_mulv(lr, R, P + 3);
    v3_cross(xp, x, pg);
    v3_axpy(pt, jw, pg);
    v3_axpy(Lt, jw, xp);
    v3_axpy(Lt, jw, lr);
    if (g) {
      // m = M11, m eta = axial(M_rt) (rows 3..5, columns 0..2)
      double me[3], Rme[3];
      me[0] = 0.5 * (Ms[6 * 5 + 1] - Ms[6 * 4 + 2]);
      me[1] = 0.5 * (Ms[6 * 3 + 2] - Ms[6 * 5 + 0]);
      me[2] = 0.5 * (Ms[6 * 4 + 0] - Ms[6 * 3 + 1]);
      m3_mulv(Rme, R, me);
      eg -= jw * (Ms[0] * v3_dot(g, x) + v3_dot(g, Rme));
    }
  }
  if (strain) {
    *strain = es;
  }
  if (kinetic) {
    *kinetic = ek;
  }
  if (gravity) {
    *gravity = eg;
  }
  if (p) {
    v3_copy(p, pt);
  }
  if (L) {
    v3_copy(L, Lt);
  }
  return RD_OK;
}
