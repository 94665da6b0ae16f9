// SPDX-License-Identifier: MIT
// The linearization (docs/modal.md): M, D, K and B against central differences of the residual
// along exactly perturbed motions, in the inertial frame and in a spinning one; the null-space
// basis (B N = 0, N^T N = I, the rank with redundant constraints); the reduced matrices; the
// state-space model against closed forms; API misuse and allocation failures.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "solver/assemble.h"
#include "src/model/data_impl.h"
#include "tests/support/fail_alloc.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

// after the headers above: lapacke.h brings complex.h, whose macro I clashes with names
#include <lapacke.h>

// a small deterministic generator: uniform in [-1, 1]
static unsigned long rng_state = 12345;

static double rnd(void) {
  rng_state = rng_state * 6364136223846793005ul + 1442695040888963407ul;
  return (double)(rng_state >> 11) / (double)(1ul << 53) * 2 - 1;
}


// a beam of two 4-node elements along x, coupled section, root clamped; a rigid body
// with an offset centre of mass on a revolute joint at the tip; a point mass on a spring to the
// middle node; a spring from the body to the ground; gravity; damping in the beam and, with et,
// BeamDyn's extension-twist term
static rdSpec* mixed(rdContext* ctx, int et) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  int nodes[7];
  double K[36], M[36];
  memcpy(K, model_b3Stiffness, sizeof(K));
  static const double mass[6] = {2, 2, 2, 0.03, 0.02, 0.01};
  model_diag6(M, mass);
  // centre of mass at (0, 0.025, 0): m skew(c) in rows 3..5, columns 0..2, and its transpose
  M[20] = M[15] = 0.05;
  M[30] = M[5] = -0.05;
  rdBeamDef proto = rd_defaultBeamDef();
  static const double mu[6] = {1e-3, 2e-3, 2e-3, 3e-3, 1e-3, 1.5e-3};
  memcpy(proto.damping, mu, sizeof(mu));
  proto.extension_twist = et;
  model_addGllBeamsLike(s, 2, 4, 3, K, M, "beam", nodes, &proto);
  model_addClamp(s, nodes[0]);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "body";
  n.position[0] = 3.2;
  n.position[2] = 0.1;
  double q[4] = {0.9, 0.2, -0.1, 0.3}, nq = sqrt(0.81 + 0.04 + 0.01 + 0.09);
  for (int k = 0; k < 4; k++) {
    n.orientation[k] = q[k] / nq;
  }
  double J[3] = {0.4, 0.6, 0.5}, c[3] = {0.1, -0.2, 0.15};
  int body = model_addRigidBody(s, &n, "b", 3, J, c);
  rdJointDef j = rd_defaultJointDef();
  j.name = "hinge";
  j.type = RD_JOINT_REVOLUTE;
  j.node[0] = nodes[6];
  j.node[1] = body;
  j.point[0] = 3;
  j.axis[1] = 1;
  rds_addJoint(s, &j);
  rdNodeDef p = rd_defaultNodeDef();
  p.name = "p";
  p.kind = RD_NODE_POINT;
  p.position[0] = 1.5;
  p.position[1] = 0.4;
  int pn = rds_addNode(s, &p);
  rdPointMassDef pm = rd_defaultPointMassDef();
  pm.name = "pm";
  pm.node = pn;
  pm.mass = 0.7;
  rds_addPointMass(s, &pm);
  rdSpringDef sp = rd_defaultSpringDef();
  sp.name = "k1";
  sp.node[0] = pn;
  sp.node[1] = nodes[3];
  sp.stiffness[0] = 50;
  sp.stiffness[2] = 20;
  sp.damping = 0.3;
  rds_addSpring(s, &sp);
  sp = rd_defaultSpringDef();
  sp.name = "k2";
  sp.node[0] = body;
  sp.node[1] = RD_GROUND;
  sp.anchor[0] = 3.5;
  sp.anchor[1] = 1;
  sp.stiffness[0] = 30;
  rds_addSpring(s, &sp);
  double g[3] = {0.2, -9.81, -1};
  rds_setGravity(s, g);
  return s;
}


// a 3 x 3 row-major matrix times a vector
static void mv3(double r[3], const double A[9], const double a[3]) {
  for (int i = 0; i < 3; i++) {
    r[i] = A[3 * i] * a[0] + A[3 * i + 1] * a[1] + A[3 * i + 2] * a[2];
  }
}


static void cross(double r[3], const double a[3], const double b[3]) {
  double t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  memcpy(r, t, sizeof(t));
}


// the state at t0 of the perturbed motion: translation x* + eps u (frame axes at t0), rotation
// R* exp(eps theta(t)), theta = th0 + t th1 + t^2/2 th2, the frame turning at w about c
// (docs/modal.md): exact, with the tangent operator and its derivative
static void perturbed(const rdModel* m, const double* q0, const double* v0, const double* vd0,
                      const double w[3], const double* y, double eps, double* q, double* v,
                      double* vd) {
  int nn = m->nnode;
  for (int i = 0; i < nn; i++) {
    const double* u0 = y + 18 * i;
    const double* u1 = u0 + 6;
    const double* u2 = u0 + 12;
    double* qi = q + 7 * i;
    double* vi = v + 6 * i;
    double* ai = vd + 6 * i;
    memcpy(qi, q0 + 7 * i, 7 * sizeof(double));
    memcpy(vi, v0 + 6 * i, 6 * sizeof(double));
    memcpy(ai, vd0 + 6 * i, 6 * sizeof(double));
    double wu[3], wu1[3], wwu[3];
    cross(wu, w, u0);
    cross(wu1, w, u1);
    cross(wwu, w, wu);
    for (int k = 0; k < 3; k++) {
      qi[k] += eps * u0[k];
      vi[k] += eps * (wu[k] + u1[k]);
      ai[k] += eps * (wwu[k] + 2 * wu1[k] + u2[k]);
    }
    if (m->node_kind[i] != RD_NODE_RIGID) {
      continue;
    }
    double psi[3], dpsi[3], ddpsi[3], e[4], r4[4], R[9], T[9], D[9];
    for (int k = 0; k < 3; k++) {
      psi[k] = eps * u0[3 + k];
      dpsi[k] = eps * u1[3 + k];
      ddpsi[k] = eps * u2[3 + k];
    }
    rdu_rotvecToQuat(e, psi);
    rdu_quatMul(r4, q0 + 7 * i + 3, e);
    rdu_quatNormalize(qi + 3, r4);
    // W = E^T W* + T dpsi, Wd = E^T Wd* - (T dpsi) x (E^T W*) + T ddpsi + D(psi, dpsi) dpsi
    rdu_expSO3(R, psi);
    double EW[3], EWd[3], Td[3], Tdd[3], Dd[3], c[3];
    for (int k = 0; k < 3; k++) {
      EW[k] = R[k] * v0[6 * i + 3] + R[3 + k] * v0[6 * i + 4] + R[6 + k] * v0[6 * i + 5];
      EWd[k] = R[k] * vd0[6 * i + 3] + R[3 + k] * vd0[6 * i + 4] + R[6 + k] * vd0[6 * i + 5];
    }
    rdu_tangentSO3(T, psi);
    rdu_dTangentSO3(D, psi, dpsi);
    mv3(Td, T, dpsi);
    mv3(Tdd, T, ddpsi);
    mv3(Dd, D, dpsi);
    cross(c, Td, EW);
    for (int k = 0; k < 3; k++) {
      vi[3 + k] = EW[k] + Td[k];
      ai[3 + k] = EWd[k] - c[k] + Tdd[k] + Dd[k];
    }
  }
}


// a CSC matrix of the linearization, allocated (free the three arrays)
typedef struct {
  int nrow, ncol, nnz;
  int *Ap, *Ai;
  double* Ax;
} csc;


static void get_matrix(const rdLinearization* lin, int which, csc* A) {
  rd_getLinearMatrix(lin, which, &A->nrow, &A->ncol, &A->nnz, NULL, NULL, NULL);
  A->Ap = malloc(sizeof(int) * (size_t)(A->ncol + 1));
  A->Ai = malloc(sizeof(int) * (size_t)(A->nnz + 1));
  A->Ax = malloc(sizeof(double) * (size_t)(A->nnz + 1));
  rd_getLinearMatrix(lin, which, NULL, NULL, NULL, A->Ap, A->Ai, A->Ax);
}


static void free_matrix(csc* A) {
  free(A->Ap);
  free(A->Ai);
  free(A->Ax);
}


// y += A x (trans: y += A^T x)
static void matvec(const csc* A, const double* x, double* y, int trans) {
  for (int j = 0; j < A->ncol; j++) {
    for (int p = A->Ap[j]; p < A->Ap[j + 1]; p++) {
      if (trans) {
        y[j] += A->Ax[p] * x[A->Ai[p]];
      } else {
        y[A->Ai[p]] += A->Ax[p] * x[j];
      }
    }
  }
}


// the DOF vector of part `part` (0: u0, 1: u1, 2: u2) of the perturbation y (18 per node)
static void dof_vector(const rdModel* m, const double* y, int part, double* out) {
  for (int i = 0; i < m->nnode; i++) {
    int nd = m->node_kind[i] == RD_NODE_RIGID ? 6 : 3;
    for (int k = 0; k < nd; k++) {
      out[m->node_dof[i] + k] = y[18 * i + 6 * part + k];
    }
  }
}


// the linearized operator against central differences of the residual along the exactly
// perturbed motion: spin != 0 linearizes in the frame turning at spin about an axis, otherwise
// at random velocities and accelerations in the inertial frame; returns the relative mismatch
static double tangent_mismatch(double spin, unsigned long seed, int et) {
  rng_state = seed;
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m = NULL;
  rdData* d = NULL;
  double worst = 1;
  if (model_make(mixed(ctx, et), &m, &d) != 0) {
    rd_destroyContext(&ctx);
    return worst;
  }
  int nn = m->nnode, ndof = m->ndof, nc = m->nconstraint, N = ndof + nc;
  // a deformed, stressed state
  for (int i = 0; i < nn; i++) {
    double* q = d->s.q + 7 * i;
    for (int k = 0; k < 3; k++) {
      q[k] += 0.03 * rnd();
    }
    if (m->node_kind[i] == RD_NODE_RIGID) {
      double p[3] = {0.1 * rnd(), 0.1 * rnd(), 0.1 * rnd()}, e[4], r[4];
      rdu_rotvecToQuat(e, p);
      rdu_quatMul(r, q + 3, e);
      rdu_quatNormalize(q + 3, r);
    }
    for (int k = 0; k < 6; k++) {
      d->s.v[6 * i + k] = spin ? 0 : rnd();
      d->s.vd[6 * i + k] = spin ? 0 : 3 * rnd();
    }
  }
  for (int k = 0; k < nc; k++) {
    d->s.lambda[k] = 20 * rnd();
  }
  rdLinearizeDef def = rd_defaultLinearizeDef();
  double axis[3] = {0.2, 0.9, 0.3}, c[3] = {0.5, -0.3, 0.2}, w[3] = {0, 0, 0};
  if (spin) {
    def.spin_rate = spin;
    memcpy(def.spin_axis, axis, sizeof(axis));
    memcpy(def.spin_center, c, sizeof(c));
    double a = sqrt(0.04 + 0.81 + 0.09);
    for (int k = 0; k < 3; k++) {
      w[k] = spin * axis[k] / a;
    }
  }
  rdLinearization* lin = NULL;
  if (rd_linearize(m, d, &def, &lin) != RD_OK) {
    printf("linearize: %s\n", rd_lastError(ctx));
    rd_destroyData(&d);
    rd_destroyModel(&m);
    rd_destroyContext(&ctx);
    return worst;
  }
  // the reference motion's rates: the spin's (computed here), or the data's
  double* v0 = calloc((size_t)(6 * nn), sizeof(double));
  double* vd0 = calloc((size_t)(6 * nn), sizeof(double));
  for (int i = 0; i < nn; i++) {
    const double* q = d->s.q + 7 * i;
    if (!spin) {
      memcpy(v0 + 6 * i, d->s.v + 6 * i, 6 * sizeof(double));
      memcpy(vd0 + 6 * i, d->s.vd + 6 * i, 6 * sizeof(double));
      continue;
    }
    double r[3] = {q[0] - c[0], q[1] - c[1], q[2] - c[2]};
    cross(v0 + 6 * i, w, r);
    cross(vd0 + 6 * i, w, v0 + 6 * i);
    if (m->node_kind[i] == RD_NODE_RIGID) {
      rdu_quatRotateInv(v0 + 6 * i + 3, q + 3, w);
    }
  }
  double* y = malloc(sizeof(double) * (size_t)(18 * nn));
  double* mu = malloc(sizeof(double) * (size_t)(nc + 1));
  for (int k = 0; k < 18 * nn; k++) {
    y[k] = rnd();
  }
  for (int k = 0; k < nc; k++) {
    mu[k] = 5 * rnd();
  }
  double *q = malloc(sizeof(double) * (size_t)(7 * nn)), *v = malloc(sizeof(double) * 6 * nn);
  double* vd = malloc(sizeof(double) * (size_t)(6 * nn));
  double* lam = malloc(sizeof(double) * (size_t)(nc + 1));
  double* rp = malloc(sizeof(double) * (size_t)N);
  double* rm = malloc(sizeof(double) * (size_t)N);
  double eps = 1e-6;
  rdAsmCoef none = {0, 0, 0, NULL, NULL};
  for (int sgn = 1; sgn >= -1; sgn -= 2) {
    perturbed(m, d->s.q, v0, vd0, w, y, sgn * eps, q, v, vd);
    for (int k = 0; k < nc; k++) {
      lam[k] = d->s.lambda[k] + sgn * eps * mu[k];
    }
    rd_assemble(m, d, d->s.t, q, v, vd, lam, &none, sgn > 0 ? rp : rm, NULL, NULL);
  }
  // the linear prediction M y'' + D y' + K y + B^T mu; B y
  csc A[4];
  for (int k = 0; k < 4; k++) {
    get_matrix(lin, RD_LIN_M + k, &A[k]);
  }
  double* L = calloc((size_t)N, sizeof(double));
  double* Y = calloc((size_t)ndof, sizeof(double));
  static const int part[3] = {2, 1, 0};
  for (int k = 0; k < 3; k++) {
    dof_vector(m, y, part[k], Y);
    matvec(&A[k], Y, L, 0);
  }
  matvec(&A[3], mu, L, 1);
  matvec(&A[3], Y, L + ndof, 0);
  double big = 0, diff = 0;
  int at = 0;
  for (int k = 0; k < N; k++) {
    double fd = (rp[k] - rm[k]) / (2 * eps);
    big = fmax(big, fabs(L[k]));
    if (fabs(fd - L[k]) > diff) {
      diff = fabs(fd - L[k]);
      at = k;
    }
  }
  // and row by row, against the row's own size (rows of the light body and the point mass too)
  double rowrel = 0;
  for (int k = 0; k < N; k++) {
    double fd = (rp[k] - rm[k]) / (2 * eps);
    rowrel = fmax(rowrel, fabs(fd - L[k]) / fmax(fabs(L[k]), 1e-9 * big));
  }
  worst = fmax(diff / big, 1e-3 * rowrel);
  printf("  spin %g%s: largest mismatch %.2e of %.3g (row %d); row by row %.2e\n", spin,
         et ? ", extension-twist" : "", diff, big, at, rowrel);
  for (int k = 0; k < 4; k++) {
    free_matrix(&A[k]);
  }
  free(L);
  free(Y);
  free(y);
  free(mu);
  free(q);
  free(v);
  free(vd);
  free(lam);
  free(rp);
  free(rm);
  free(v0);
  free(vd0);
  rd_destroyLinearization(&lin);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
  return worst;
}


static void test_tangent(void) {
  // the inertial frame at random rates, then spinning frames
  CHECK(tangent_mismatch(0, 1, 0) < 1e-7);
  CHECK(tangent_mismatch(0, 2, 0) < 1e-7);
  CHECK(tangent_mismatch(1.3, 3, 0) < 1e-7);
  CHECK(tangent_mismatch(-7, 4, 0) < 1e-7);
  // with the extension-twist term of the beam's elastic forces
  CHECK(tangent_mismatch(0, 5, 1) < 1e-7);
  CHECK(tangent_mismatch(1.3, 6, 1) < 1e-7);
}


// ---------------------------------------------------------------------------------------------
// the null-space basis: B N = 0, N^T N = I, rank and reduced size, with redundant constraints
// (a body held by two spherical joints at one point: 6 equations of rank 3) and with the mixed
// model; the reduced matrices are N^T X N

static void check_nullspace(rdModel* m, rdData* d, int rank, const char* what) {
  rdLinearization* lin = NULL;
  CHECK(rd_linearize(m, d, NULL, &lin) == RD_OK);
  if (!lin) {
    return;
  }
  rdLinearizationInfo info;
  rd_getLinearizationInfo(lin, &info);
  printf("  %s: %d equations of rank %d, %d of %d degrees of freedom left\n", what,
         info.nconstraint, info.rank, info.nreduced, info.ndof);
  CHECK(info.rank == rank && info.nreduced == info.ndof - rank);
  csc B, N, M, Mr;
  get_matrix(lin, RD_LIN_B, &B);
  get_matrix(lin, RD_LIN_N, &N);
  get_matrix(lin, RD_LIN_M, &M);
  get_matrix(lin, RD_LIN_MR, &Mr);
  int n = info.ndof, nr = info.nreduced;
  double* col = calloc((size_t)n, sizeof(double));
  double* bn = calloc((size_t)B.nrow + 1, sizeof(double));
  double* mn = calloc((size_t)n, sizeof(double));
  double worst_b = 0, worst_o = 0, worst_m = 0, bmax = 0;
  for (int p = 0; p < B.nnz; p++) {
    bmax = fmax(bmax, fabs(B.Ax[p]));
  }
  for (int j = 0; j < nr; j++) {
    memset(col, 0, sizeof(double) * (size_t)n);
    for (int p = N.Ap[j]; p < N.Ap[j + 1]; p++) {
      col[N.Ai[p]] = N.Ax[p];
    }
    memset(bn, 0, sizeof(double) * (size_t)B.nrow);
    matvec(&B, col, bn, 0);
    for (int k = 0; k < B.nrow; k++) {
      worst_b = fmax(worst_b, fabs(bn[k]) / bmax);
    }
    memset(mn, 0, sizeof(double) * (size_t)n);
    matvec(&M, col, mn, 0);
    for (int i = 0; i < nr; i++) {
      // (N^T N)_ij and (N^T M N)_ij against Mr
      double dot = 0, mm = 0, mr = 0;
      for (int p = N.Ap[i]; p < N.Ap[i + 1]; p++) {
        dot += N.Ax[p] * col[N.Ai[p]];
        mm += N.Ax[p] * mn[N.Ai[p]];
      }
      for (int p = Mr.Ap[j]; p < Mr.Ap[j + 1]; p++) {
        mr = Mr.Ai[p] == i ? Mr.Ax[p] : mr;
      }
      worst_o = fmax(worst_o, fabs(dot - (i == j)));
      worst_m = fmax(worst_m, fabs(mm - mr));
    }
  }
  printf("  %s: |B N| %.1e, |N^T N - I| %.1e, |N^T M N - Mr| %.1e\n", what, worst_b, worst_o,
         worst_m);
  CHECK(worst_b < 1e-14 && worst_o < 1e-14 && worst_m < 1e-12);
  free(col);
  free(bn);
  free(mn);
  free_matrix(&B);
  free_matrix(&N);
  free_matrix(&M);
  free_matrix(&Mr);
  rd_destroyLinearization(&lin);
}


static void test_nullspace(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "b";
  n.position[2] = -1;
  double J[3] = {1, 2, 3}, c[3] = {0.1, 0, 0};
  int b = model_addRigidBody(s, &n, "body", 2, J, c);
  for (int k = 0; k < 2; k++) {
    rdJointDef j = rd_defaultJointDef();
    j.name = k ? "second" : "first";
    j.type = RD_JOINT_SPHERICAL;
    j.node[0] = b;
    rds_addJoint(s, &j);
  }
  rdModel* m = NULL;
  rdData* d = NULL;
  CHECK(model_make(s, &m, &d) == 0);
  if (m) {
    check_nullspace(m, d, 3, "two spherical joints at one point");
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  CHECK(model_make(mixed(ctx, 0), &m, &d) == 0);
  if (m) {
    check_nullspace(m, d, 11, "clamped beam, revolute, springs");
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// ---------------------------------------------------------------------------------------------
// state space: the cantilever's static gains, G(0) = D - C A^-1 B, against statics (a tip
// force: Timoshenko deflection F L^3 / (3 EI) + F L / GA, root reaction -F and F L); a
// prescribed root moved along z (the motion input): the beam follows as a rigid body; the
// eigenvalues of A are the modes'

static void static_gain(int nx, int nu, int ny, const double* A, const double* B, const double* C,
                        const double* D, double* G) {
  double* Af = malloc(sizeof(double) * (size_t)nx * (size_t)nx);
  double* X = malloc(sizeof(double) * (size_t)nx * (size_t)nu);
  lapack_int* piv = malloc(sizeof(lapack_int) * (size_t)nx);
  memcpy(Af, A, sizeof(double) * (size_t)nx * (size_t)nx);
  memcpy(X, B, sizeof(double) * (size_t)nx * (size_t)nu);
  LAPACKE_dgesv(LAPACK_COL_MAJOR, nx, nu, Af, nx, piv, X, nx);
  for (int u = 0; u < nu; u++) {
    for (int y = 0; y < ny; y++) {
      double s = D[(size_t)u * (size_t)ny + (size_t)y];
      for (int k = 0; k < nx; k++) {
        s -= C[(size_t)k * (size_t)ny + (size_t)y] * X[(size_t)u * (size_t)nx + (size_t)k];
      }
      G[u * ny + y] = s;
    }
  }
  free(Af);
  free(X);
  free(piv);
}


static void test_statespace(void) {
  double L = 2, EI = 3, GA = 50, K[36], M[36];
  double k6[6] = {1e3, GA, GA, 1, EI, EI}, m6[6] = {1, 1, 1, 1e-2, 1e-3, 1e-3};
  model_diag6(K, k6);
  model_diag6(M, m6);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  for (int prescribed = 0; prescribed < 2; prescribed++) {
    rdSpec* s = model_cantilever(ctx, 2, 5, L, K, M);
    if (prescribed) {
      // the clamp replaced by a prescribed motion held at 0 (the same constraint)
      rdSpec* t = NULL;
      rd_createSpec(ctx, &t);
      int nodes[9];
      model_addGllBeams(t, 2, 5, L, K, M, "beam", nodes);
      rdJointDef j = rd_defaultJointDef();
      j.name = "root";
      j.type = RD_JOINT_PRESCRIBED;
      j.node[0] = nodes[0];
      for (int k = 0; k < 6; k++) {
        j.motion_fn[k] = RD_NO_TIMEFN;
      }
      rds_addJoint(t, &j);
      rd_destroySpec(&s);
      s = t;
    }
    rdModel* m = NULL;
    rdData* d = NULL;
    CHECK(model_make(s, &m, &d) == 0);
    if (!m) {
      continue;
    }
    rdLinearization* lin = NULL;
    CHECK(rd_linearize(m, d, NULL, &lin) == RD_OK);
    int tip = m->nnode - 1;
    rdSsChannel in[2] = {{RD_SS_FORCE, tip, 2}, {RD_SS_MOTION, 0, 2}};
    rdSsChannel out[4] = {{RD_SS_DISPLACEMENT, tip, 2},
                          {RD_SS_REACTION_FORCE, 0, 2},
                          {RD_SS_REACTION_MOMENT, 0, 1},
                          {RD_SS_ROTATION, tip, 1}};
    rdStateSpace* ss = NULL;
    int st = rd_stateSpace(lin, prescribed ? 2 : 1, in, 4, out, &ss);
    CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
    int nx, nu, ny;
    rd_getStateSpace(ss, &nx, &nu, &ny, NULL, NULL, NULL, NULL);
    CHECK(nx == 2 * (m->ndof - 6) && nu == (prescribed ? 4 : 1) && ny == 4);
    double* A = malloc(sizeof(double) * (size_t)nx * (size_t)nx);
    double* B = malloc(sizeof(double) * (size_t)nx * (size_t)nu);
    double* C = malloc(sizeof(double) * (size_t)ny * (size_t)nx);
    double* D = malloc(sizeof(double) * (size_t)ny * (size_t)nu);
    double G[16];
    rd_getStateSpace(ss, NULL, NULL, NULL, A, B, C, D);
    static_gain(nx, nu, ny, A, B, C, D, G);
    double defl = L * L * L / (3 * EI) + L / GA, slope = L * L / (2 * EI);
    printf(
        "  tip force z: tip z %.12g (Timoshenko %.12g), root reaction z %.12g, moment y %.12g, "
        "tip rotation y %.12g (%.12g)\n",
        G[0], defl, G[1], G[2], G[3], -slope);
    CHECK_REL(G[0], defl, 1e-9);
    CHECK_REL(G[1], -1, 1e-9);
    CHECK_REL(G[2], L, 1e-9);
    CHECK_REL(G[3], -slope, 1e-9);
    if (prescribed) {
      // s, s', s'': a static base displacement moves the beam rigidly, without reaction
      printf("  root moved along z: tip z %.12g, reaction z %.3g, moment y %.3g\n", G[4], G[5],
             G[6]);
      CHECK_NEAR(G[4], 1, 1e-9);
      CHECK_NEAR(G[5], 0, 1e-8);
      CHECK_NEAR(G[6], 0, 1e-8);
      CHECK_NEAR(G[7], 0, 1e-9);
    }
    // the eigenvalues of A are the modes' (undamped: +-i w)
    double* wr = malloc(sizeof(double) * (size_t)nx);
    double* wi = malloc(sizeof(double) * (size_t)nx);
    LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', nx, A, nx, wr, wi, NULL, nx, NULL, nx);
    double wmin = INFINITY;
    for (int k = 0; k < nx; k++) {
      wmin = fmin(wmin, hypot(wr[k], wi[k]));
    }
    rdModes* md = NULL;
    rd_computeModes(lin, NULL, &md);
    rdModeInfo i0;
    rd_getMode(md, 0, &i0);
    CHECK_REL(wmin, 2 * 3.14159265358979323846 * i0.natural_hz, 1e-9);
    rd_destroyModes(&md);
    free(wr);
    free(wi);
    free(A);
    free(B);
    free(C);
    free(D);
    rd_destroyStateSpace(&ss);
    rd_destroyLinearization(&lin);
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_tangent());
  TEST_CASE(test_nullspace());
  TEST_CASE(test_statespace());
  return TEST_SUMMARY();
}
