// SPDX-License-Identifier: MIT
// Bricard's mechanism (IFToMM A04, input/bricard.yaml): an over-constrained loop (30 equations,
// rank 29) run with solver.redundant_constraints = remove, against an independent reference.
//
// Reference: the open chain ground-A-rod1-B-...-E-rod5 in its five joint angles, closed at F by
// 5 equations of rank 4; M(th) th'' = Q(th, th') - Phi^T lambda, Phi th'' = -gamma, solved with
// the SVD of Phi (least-squares, minimum-norm multipliers: the accelerations are unique, the
// multipliers are not), integrated by Dormand-Prince 5(4) at tolerance 1e-12 with projection
// onto the closure after every step. Checks: P3 (the joint C, tip of rod 2) against the
// reference over 10 s, observed order 2 at t = 10, every joint equation (removed ones
// included) satisfied at the Newton tolerance over the run, energy (rho_inf = 1 stabilized: no
// drift; rho_inf = 0, 0.5: decreasing at the turning points).
//
// usage: test_bricard DECK_DIR [--table] [--dat FILE]
//   --table prints P3 every second; --dat writes t, P3 of the reference, P3 - reference for
//   h = 1e-3 and 5e-4 every 0.05 s (tools/verify_bricard.sh plots it) and exits
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "tests/support/dopri_tableau.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

static const char* deck_dir = "input";

// ---------------------------------------------------------------------------------------------
// reference in joint angles

#define NB 5
#define G 9.81

static const double jp0[6][3] = {{0, 0, 0},  {1, 0, 0},  {1, -1, 0},
                                 {1, -1, 1}, {0, -1, 1}, {0, 0, 1}};
static const double js0[6][3] = {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 0}};
static const double bc0[NB][3] = {
    {0.5, 0, 0}, {1, -0.5, 0}, {1, -1, 0.5}, {0.5, -1, 1}, {0, -0.5, 1}};
// rod along axis ax: square section 0.1 m, m = 1 kg, L = 1 m
static const int bax[NB] = {0, 1, 2, 0, 1};
#define I_AX (0.01 * 2 / 12)
#define I_TR ((1 + 0.01) / 12)

static void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// R (row-major) of the rotation by th about the unit axis s (Rodrigues' formula)
static void rot(const double s[3], double th, double R[9]) {
  double c = cos(th), sn = sin(th), v = 1 - c;
  R[0] = c + s[0] * s[0] * v;
  R[1] = s[0] * s[1] * v - s[2] * sn;
  R[2] = s[0] * s[2] * v + s[1] * sn;
  R[3] = s[1] * s[0] * v + s[2] * sn;
  R[4] = c + s[1] * s[1] * v;
  R[5] = s[1] * s[2] * v - s[0] * sn;
  R[6] = s[2] * s[0] * v - s[1] * sn;
  R[7] = s[2] * s[1] * v + s[0] * sn;
  R[8] = c + s[2] * s[2] * v;
}

static void mulv(const double R[9], const double x[3], double y[3]) {
  for (int i = 0; i < 3; i++) {
    y[i] = R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2];
  }
}

static void mulm(const double A[9], const double B[9], double C[9]) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    }
  }
}

// kinematics of the chain at (th, u): poses g_k = (R, t) of rod k (x -> R x + t from the
// reference), COMs, current joint points p and axes s (6: F's from rod 5), velocities and the
// accelerations at th'' = 0
typedef struct {
  double R[NB + 1][9], t[NB + 1][3];  // [0]: ground
  double c[NB][3], p[6][3], s[6][3];
  double w[NB + 1][3], al[NB + 1][3], ac[NB][3];  // omega, bias angular / COM acceleration
  double xF[3], aF[3];                            // F on rod 5: position, bias acceleration
} chain;

static void kin(const double* th, const double* u, chain* k) {
  memset(k, 0, sizeof(*k));
  k->R[0][0] = k->R[0][4] = k->R[0][8] = 1;
  double apb[3] = {0, 0, 0};  // bias acceleration of the joint point on the previous body
  for (int i = 0; i < NB; i++) {
    const double* Rp = k->R[i];
    double Ri[9], x[3];
    rot(js0[i], th[i], Ri);
    mulm(Rp, Ri, k->R[i + 1]);
    mulv(Rp, jp0[i], k->p[i]);
    mulv(Rp, js0[i], k->s[i]);
    for (int a = 0; a < 3; a++) {
      k->p[i][a] += k->t[i][a];
    }
    // t_i = R_{i-1} (p0 - Rot p0) + t_{i-1}
    double rp[3], d[3];
    mulv(Ri, jp0[i], rp);
    for (int a = 0; a < 3; a++) {
      d[a] = jp0[i][a] - rp[a];
    }
    mulv(Rp, d, x);
    for (int a = 0; a < 3; a++) {
      k->t[i + 1][a] = x[a] + k->t[i][a];
    }
    mulv(k->R[i + 1], bc0[i], k->c[i]);
    for (int a = 0; a < 3; a++) {
      k->c[i][a] += k->t[i + 1][a];
    }
    // rates: omega_i = omega_{i-1} + s u, alpha_i = alpha_{i-1} + omega_{i-1} x s u
    double su[3] = {k->s[i][0] * u[i], k->s[i][1] * u[i], k->s[i][2] * u[i]}, ws[3];
    cross(k->w[i], su, ws);
    for (int a = 0; a < 3; a++) {
      k->w[i + 1][a] = k->w[i][a] + su[a];
      k->al[i + 1][a] = k->al[i][a] + ws[a];
    }
    if (i > 0) {
      // the joint point as a point of the previous body
      double r[3], t1[3], t2[3], t3[3];
      for (int a = 0; a < 3; a++) {
        r[a] = k->p[i][a] - k->c[i - 1][a];
      }
      cross(k->al[i], r, t1);
      cross(k->w[i], r, t2);
      cross(k->w[i], t2, t3);
      for (int a = 0; a < 3; a++) {
        apb[a] = k->ac[i - 1][a] + t1[a] + t3[a];
      }
    }
    double r[3], t1[3], t2[3], t3[3];
    for (int a = 0; a < 3; a++) {
      r[a] = k->c[i][a] - k->p[i][a];
    }
    cross(k->al[i + 1], r, t1);
    cross(k->w[i + 1], r, t2);
    cross(k->w[i + 1], t2, t3);
    for (int a = 0; a < 3; a++) {
      k->ac[i][a] = apb[a] + t1[a] + t3[a];
    }
  }
  // F: the point and axis on rod 5
  mulv(k->R[NB], jp0[5], k->xF);
  mulv(k->R[NB], js0[5], k->s[5]);
  for (int a = 0; a < 3; a++) {
    k->xF[a] += k->t[NB][a];
    k->p[5][a] = k->xF[a];
  }
  double r[3], t1[3], t2[3], t3[3];
  for (int a = 0; a < 3; a++) {
    r[a] = k->xF[a] - k->c[NB - 1][a];
  }
  cross(k->al[NB], r, t1);
  cross(k->w[NB], r, t2);
  cross(k->w[NB], t2, t3);
  for (int a = 0; a < 3; a++) {
    k->aF[a] = k->ac[NB - 1][a] + t1[a] + t3[a];
  }
}

// closure at F: position residual (5), Jacobian Phi (5 x 5, row-major) and bias gamma (5)
static void closure(const chain* k, double phi[5], double Phi[25], double gam[5]) {
  static const double ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1};
  const double* a = k->s[5];
  for (int r = 0; r < 3; r++) {
    phi[r] = k->xF[r] - jp0[5][r];
  }
  phi[3] = dot(a, ey);
  phi[4] = dot(a, ez);
  for (int i = 0; i < NB; i++) {
    double d[3], v[3], sa[3];
    for (int r = 0; r < 3; r++) {
      d[r] = k->xF[r] - k->p[i][r];
    }
    cross(k->s[i], d, v);
    cross(k->s[i], a, sa);
    for (int r = 0; r < 3; r++) {
      Phi[5 * r + i] = v[r];
    }
    Phi[15 + i] = dot(sa, ey);
    Phi[20 + i] = dot(sa, ez);
  }
  if (gam) {
    double t1[3], t2[3], t3[3];
    cross(k->al[NB], a, t1);
    cross(k->w[NB], a, t2);
    cross(k->w[NB], t2, t3);
    for (int r = 0; r < 3; r++) {
      gam[r] = k->aF[r];
      t1[r] += t3[r];
    }
    gam[3] = dot(t1, ey);
    gam[4] = dot(t1, ez);
  }
}

// inertia of rod i at the current rotation (global): R diag R^T
static void inertia(const chain* k, int i, double Ib[9]) {
  double D[3] = {I_TR, I_TR, I_TR};
  D[bax[i]] = I_AX;
  const double* R = k->R[i + 1];
  for (int a = 0; a < 3; a++) {
    for (int b = 0; b < 3; b++) {
      Ib[3 * a + b] = 0;
      for (int c = 0; c < 3; c++) {
        Ib[3 * a + b] += R[3 * a + c] * D[c] * R[3 * b + c];
      }
    }
  }
}

// minimum-norm solution of Phi x = b (5 x 5 of rank 4) and its null vector n
static void svd_solve(const double Phi[25], const double b[5], double x[5], double n[5]) {
  double A[25], S[5], U[25], VT[25], sup[5];
  memcpy(A, Phi, sizeof(A));
  LAPACKE_dgesvd(LAPACK_ROW_MAJOR, 'A', 'A', 5, 5, A, 5, S, U, 5, VT, 5, sup);
  double y[5];
  for (int i = 0; i < 5; i++) {
    double s = 0;
    for (int r = 0; r < 5; r++) {
      s += U[5 * r + i] * b[r];
    }
    y[i] = S[i] > 1e-10 * S[0] ? s / S[i] : 0;
  }
  for (int j = 0; j < 5; j++) {
    x[j] = 0;
    for (int i = 0; i < 5; i++) {
      x[j] += VT[5 * i + j] * y[i];
    }
    n[j] = VT[20 + j];
  }
}

// y = (th, u): y' = (u, th'')
static void rhs(const double* y, double* f) {
  chain k;
  kin(y, y + NB, &k);
  double Jv[NB][3][NB], Jw[NB][3][NB];
  memset(Jv, 0, sizeof(Jv));
  memset(Jw, 0, sizeof(Jw));
  double M[NB][NB] = {{0}}, Q[NB] = {0};
  for (int b = 0; b < NB; b++) {
    double Ib[9], Iw[3], wIw[3], q[3];
    inertia(&k, b, Ib);
    for (int i = 0; i <= b; i++) {
      double d[3], v[3];
      for (int r = 0; r < 3; r++) {
        d[r] = k.c[b][r] - k.p[i][r];
      }
      cross(k.s[i], d, v);
      for (int r = 0; r < 3; r++) {
        Jv[b][r][i] = v[r];
        Jw[b][r][i] = k.s[i][r];
      }
    }
    mulv(Ib, k.w[b + 1], Iw);
    cross(k.w[b + 1], Iw, wIw);
    mulv(Ib, k.al[b + 1], q);
    for (int i = 0; i < NB; i++) {
      for (int j = 0; j < NB; j++) {
        double s = 0;
        for (int r = 0; r < 3; r++) {
          double IJ =
              Ib[3 * r] * Jw[b][0][j] + Ib[3 * r + 1] * Jw[b][1][j] + Ib[3 * r + 2] * Jw[b][2][j];
          s += Jv[b][r][i] * Jv[b][r][j] + Jw[b][r][i] * IJ;
        }
        M[i][j] += s;
      }
      double gv[3] = {0, -G, 0};
      for (int r = 0; r < 3; r++) {
        Q[i] += Jv[b][r][i] * (gv[r] - k.ac[b][r]) - Jw[b][r][i] * (q[r] + wIw[r]);
      }
    }
  }
  double phi[5], Phi[25], gam[5], mg[5], a[5], n[5];
  closure(&k, phi, Phi, gam);
  for (int r = 0; r < 5; r++) {
    mg[r] = -gam[r];
  }
  svd_solve(Phi, mg, a, n);
  // along the null vector: n^T (M a - Q) = 0
  double nMn = 0, nr = 0;
  for (int i = 0; i < NB; i++) {
    double Ma = 0, Mn = 0;
    for (int j = 0; j < NB; j++) {
      Ma += M[i][j] * a[j];
      Mn += M[i][j] * n[j];
    }
    nMn += n[i] * Mn;
    nr += n[i] * (Q[i] - Ma);
  }
  for (int i = 0; i < NB; i++) {
    f[i] = y[NB + i];
    f[NB + i] = a[i] + n[i] * nr / nMn;
  }
}

// project (th, u) onto the closure: Gauss-Newton on the positions, u onto the null space
static void project(double* y) {
  for (int it = 0; it < 3; it++) {
    chain k;
    kin(y, y + NB, &k);
    double phi[5], Phi[25], dx[5], n[5];
    closure(&k, phi, Phi, NULL);
    for (int r = 0; r < 5; r++) {
      phi[r] = -phi[r];
    }
    svd_solve(Phi, phi, dx, n);
    for (int i = 0; i < NB; i++) {
      y[i] += dx[i];
    }
  }
  chain k;
  kin(y, y + NB, &k);
  double phi[5], Phi[25], z[5] = {0}, x[5], n[5];
  closure(&k, phi, Phi, NULL);
  svd_solve(Phi, z, x, n);
  double un = 0;
  for (int i = 0; i < NB; i++) {
    un += n[i] * y[NB + i];
  }
  for (int i = 0; i < NB; i++) {
    y[NB + i] = n[i] * un;
  }
}

// Dormand-Prince 5(4), adaptive, from t0 to t1 (lands on t1); returns the number of steps
static long dopri(double* y, double t0, double t1, double tol) {
  const double(*A)[6] = rd_dp_a;
  const double* e = rd_dp_e;
  enum { N = 2 * NB };
  double t = t0, h = 1e-3, K[7][N], z[N];
  long steps = 0;
  while (t < t1 - 1e-14) {
    if (t + h > t1) {
      h = t1 - t;
    }
    rhs(y, K[0]);
    for (int s = 1; s < 7; s++) {
      for (int i = 0; i < N; i++) {
        z[i] = y[i];
        for (int r = 0; r < s; r++) {
          z[i] += h * A[s][r] * K[r][i];
        }
      }
      rhs(z, K[s]);
    }
    double err = 0;
    for (int i = 0; i < N; i++) {
      double ei = 0;
      for (int s = 0; s < 7; s++) {
        ei += h * e[s] * K[s][i];
      }
      double sc = tol + tol * fmax(fabs(y[i]), fabs(z[i]));
      err += (ei / sc) * (ei / sc);
    }
    err = sqrt(err / N);
    if (err <= 1) {
      t += h;
      memcpy(y, z, sizeof(z));  // the 7th stage is the 5th-order solution
      project(y);
      steps++;
    }
    h *= fmin(5, fmax(0.2, 0.9 * pow(err > 1e-300 ? err : 1e-300, -0.2)));
  }
  return steps;
}

// P3 (joint C: on rod 2) and the energy of the reference state
static void ref_output(const double* y, double p3[3], double* energy) {
  chain k;
  kin(y, y + NB, &k);
  memcpy(p3, k.p[2], 3 * sizeof(double));
  double T = 0, V = 0;
  for (int b = 0; b < NB; b++) {
    double v[3] = {0, 0, 0}, Ib[9], Iw[3];
    for (int i = 0; i <= b; i++) {
      double d[3], vi[3];
      for (int r = 0; r < 3; r++) {
        d[r] = k.c[b][r] - k.p[i][r];
      }
      cross(k.s[i], d, vi);
      for (int r = 0; r < 3; r++) {
        v[r] += vi[r] * y[NB + i];
      }
    }
    inertia(&k, b, Ib);
    mulv(Ib, k.w[b + 1], Iw);
    T += 0.5 * (dot(v, v) + dot(k.w[b + 1], Iw));
    V += G * k.c[b][1];
  }
  *energy = T + V;
}

// ---------------------------------------------------------------------------------------------
// rodrigues

static int open_deck(rdContext* ctx, const char* const* set, int nset, rdModel** m, rdData** d) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/bricard.yaml", deck_dir);
  return model_openDeck(ctx, path, set, nset, m, d);
}


// global position of the body point b (body frame) of node i
static void point(const rdModel* m, const rdData* d, int i, const double b[3], double p[3]) {
  double x[3], q[4], r[3];
  rd_getNodeState(m, d, i, x, q, NULL, NULL, NULL);
  rdu_quatRotate(r, q, b);
  for (int k = 0; k < 3; k++) {
    p[k] = x[k] + r[k];
  }
}


static void p3_of(const rdModel* m, const rdData* d, double p[3]) {
  static const double arm[3] = {0, -0.5, 0};  // C on rod 2
  point(m, d, 1, arm, p);
}


// largest residual of the 30 joint equations (point coincidence and axis normality, removed
// ones included) from the node states: nodes 0..4 = rods 1..5, -1 = ground
static double violation(const rdModel* m, const rdData* d) {
  static const int jn[6][2] = {{0, -1}, {1, 0}, {2, 1}, {3, 2}, {4, 3}, {4, -1}};
  double e = 0;
  for (int j = 0; j < 6; j++) {
    double pa[3], pb[3], a[3], b1[3], b2[3];
    for (int s = 0; s < 2; s++) {
      int node = jn[j][s];
      double* out = s ? pb : pa;
      if (node < 0) {
        memcpy(out, jp0[j], sizeof(pa));
        continue;
      }
      const double* x0 = bc0[node];  // the node in the reference configuration, unrotated
      double arm[3] = {jp0[j][0] - x0[0], jp0[j][1] - x0[1], jp0[j][2] - x0[2]};
      point(m, d, node, arm, out);
    }
    // the axis in node a, two normals in node b (or the ground): both unrotated initially
    double q[4], u1[3] = {0}, u2[3] = {0};
    int ax = js0[j][0] != 0 ? 0 : js0[j][1] != 0 ? 1 : 2;
    u1[(ax + 1) % 3] = 1;
    u2[(ax + 2) % 3] = 1;
    rd_getNodeState(m, d, jn[j][0], NULL, q, NULL, NULL, NULL);
    rdu_quatRotate(a, q, js0[j]);
    if (jn[j][1] >= 0) {
      rd_getNodeState(m, d, jn[j][1], NULL, q, NULL, NULL, NULL);
      rdu_quatRotate(b1, q, u1);
      rdu_quatRotate(b2, q, u2);
    } else {
      memcpy(b1, u1, sizeof(b1));
      memcpy(b2, u2, sizeof(b2));
    }
    for (int r = 0; r < 3; r++) {
      e = fmax(e, fabs(pa[r] - pb[r]));
    }
    e = fmax(e, fmax(fabs(dot(a, b1)), fabs(dot(a, b2))));
  }
  return e;
}


static double total_energy(const rdModel* m, const rdData* d) {
  double ke, pe;
  rd_getEnergy(m, d, &ke, &pe);
  return ke + pe;
}


// the largest violation so far, and the removed equation (printed when it changes)
typedef struct {
  double viol;
  int joint, eq, print;
} observed;

static int observe(const rdModel* m, const rdData* d, void* user) {
  observed* o = user;
  o->viol = fmax(o->viol, violation(m, d));
  int j, e;
  if (rd_getRedundantConstraints(m, d, &j, &e, 1) == 1 && (j != o->joint || e != o->eq)) {
    if (o->print) {
      printf("  removed from t = %.3f: joint '%s' equation %d\n", rd_time(d), rd_jointName(m, j),
             e + 1);
    }
    o->joint = j;
    o->eq = e;
  }
  return 0;
}


// run to t = 10 with step h; P3 every second into p3[10][3]; largest violation over the run
static int run(rdContext* ctx, const char* h, double p3[10][3], double* viol) {
  const char* set[] = {h, "output.every=1"};
  rdModel* m;
  rdData* d;
  int st = open_deck(ctx, set, 2, &m, &d);
  observed o = {0, -1, -1, !strcmp(h, "solver.time_step=1e-3")};
  int joint[4], eq[4];
  CHECK(st != RD_OK || rd_getRedundantConstraints(m, d, joint, eq, 4) == 1);
  if (st == RD_OK && o.print) {
    printf("%s: equations removed as redundant\n", h);
    observe(m, d, &o);
  }
  for (int s = 1; st == RD_OK && s <= 10; s++) {
    st = rd_advance(m, d, s, observe, &o);
    p3_of(m, d, p3[s - 1]);
  }
  *viol = o.viol;
  if (st) {
    printf("%s: %s\n", h, rd_lastError(ctx));
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return st;
}


// energy over the run: largest |E - E0|, and E at the turning points (local minima of the
// kinetic energy); returns the number of turning points (up to 8)
static int energy_run(rdContext* ctx, const char* const* set, int nset, double* maxdev,
                      double turn[8]) {
  rdModel* m;
  rdData* d;
  int nt = 0;
  *maxdev = 1e30;
  if (open_deck(ctx, set, nset, &m, &d) == 0) {
    double e0 = total_energy(m, d), kprev = 0, kprev2 = 0, eprev = e0;
    *maxdev = 0;
    int st = RD_OK;
    while (st == RD_OK && rd_time(d) < 10 - 1e-9) {
      st = rd_step(m, d, 0);
      double ke, pe;
      rd_getEnergy(m, d, &ke, &pe);
      *maxdev = fmax(*maxdev, fabs(ke + pe - e0));
      if (kprev < kprev2 && kprev <= ke && kprev < 0.01 && nt < 8) {
        turn[nt++] = eprev - e0;
      }
      kprev2 = kprev;
      kprev = ke;
      eprev = ke + pe;
    }
    CHECK(st == RD_OK);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return nt;
}


// the trajectory file of --dat
static int write_dat(rdContext* ctx, const char* path) {
  FILE* f = fopen(path, "w");
  if (!f) {
    return 1;
  }
  const char* set1[] = {"solver.time_step=1e-3"};
  const char* set2[] = {"solver.time_step=5e-4"};
  rdModel *m1, *m2;
  rdData *d1, *d2;
  int st = open_deck(ctx, set1, 1, &m1, &d1);
  st = st ? st : open_deck(ctx, set2, 1, &m2, &d2);
  double y[2 * NB] = {0};
  fprintf(f, "# t  P3 reference x y z  (P3 - reference) h = 1e-3: x y z  h = 5e-4: x y z\n");
  for (int i = 0; st == RD_OK && i <= 200; i++) {
    double t = 0.05 * i, ref[3], e, a[3], b[3];
    if (i > 0) {
      dopri(y, t - 0.05, t, 1e-12);
      st = rd_advance(m1, d1, t, NULL, NULL);
      st = st ? st : rd_advance(m2, d2, t, NULL, NULL);
    }
    ref_output(y, ref, &e);
    p3_of(m1, d1, a);
    p3_of(m2, d2, b);
    fprintf(f, "%.3f %.12f %.12f %.12f %.4e %.4e %.4e %.4e %.4e %.4e\n", t, ref[0], ref[1], ref[2],
            a[0] - ref[0], a[1] - ref[1], a[2] - ref[2], b[0] - ref[0], b[1] - ref[1],
            b[2] - ref[2]);
  }
  fclose(f);
  rd_destroyData(&d1);
  rd_destroyData(&d2);
  rd_destroyModel(&m1);
  rd_destroyModel(&m2);
  return st != RD_OK;
}


// the reference P3 at t = 1 ... 10 (tolerance 1e-12), checked against tolerance 1e-13, with its
// energy drift
static void reference(double ref[10][3]) {
  double ref2[10][3], eref[10], y[2 * NB] = {0}, y2[2 * NB] = {0}, e;
  long steps = 0;
  double rdiff = 0, edrift = 0, e0;
  ref_output(y, ref[0], &e0);
  for (int s = 1; s <= 10; s++) {
    steps += dopri(y, s - 1, s, 1e-12);
    dopri(y2, s - 1, s, 1e-13);
    ref_output(y, ref[s - 1], &eref[s - 1]);
    ref_output(y2, ref2[s - 1], &e);
    for (int k = 0; k < 3; k++) {
      rdiff = fmax(rdiff, fabs(ref[s - 1][k] - ref2[s - 1][k]));
    }
    edrift = fmax(edrift, fabs(eref[s - 1] - e0));
  }
  chain k;
  double phi[5], Phi[25];
  kin(y, y + NB, &k);
  closure(&k, phi, Phi, NULL);
  printf(
      "reference: %ld Dormand-Prince steps to t = 10 (tol 1e-12); P3 differs from tol 1e-13 "
      "by %.2e; energy drift %.2e; closure residual %.1e\n",
      steps, rdiff, edrift, fmax(fmax(fabs(phi[0]), fabs(phi[1])), fabs(phi[2])));
  printf("reference P3(10) = (%.12f, %.12f, %.12f)\n", ref[9][0], ref[9][1], ref[9][2]);
  CHECK(rdiff < 1e-9);
  CHECK(edrift < 1e-9);
}


// rodrigues: P3 against the reference, order at t = 10, violations over the run; with table,
// the differences at h = 1e-3 every second
static void test_order(rdContext* ctx, double ref[10][3], int table) {
  const char* hs[3] = {"solver.time_step=2e-3", "solver.time_step=1e-3", "solver.time_step=5e-4"};
  double p3[3][10][3], err[3], viol[3], emax[3] = {0};
  for (int i = 0; i < 3; i++) {
    CHECK(run(ctx, hs[i], p3[i], &viol[i]) == RD_OK);
    err[i] = 0;
    for (int s = 0; s < 10; s++) {
      double es = 0;
      for (int c = 0; c < 3; c++) {
        es = fmax(es, fabs(p3[i][s][c] - ref[s][c]));
      }
      emax[i] = fmax(emax[i], es);
      if (s == 9) {
        err[i] = es;
      }
    }
    printf(
        "%s: P3 error at t = 10 %.3e (largest at whole seconds %.3e), largest joint "
        "violation over the run %.2e\n",
        hs[i], err[i], emax[i], viol[i]);
    CHECK(viol[i] < 1e-9);
  }
  for (int i = 1; i < 3; i++) {
    double p = log2(err[i - 1] / err[i]);
    printf("observed order of P3 at t = 10: %.3f\n", p);
    CHECK_MSG(p > 1.9 && p < 2.1, "order %.3f", p);
  }
  CHECK(err[2] < 1e-3);
  if (table) {
    printf("t   P3 reference (x, y, z)   rodrigues h = 1e-3 minus reference\n");
    for (int s = 0; s < 10; s++) {
      printf("%2d  %+.9f %+.9f %+.9f   %+.2e %+.2e %+.2e\n", s + 1, ref[s][0], ref[s][1], ref[s][2],
             p3[1][s][0] - ref[s][0], p3[1][s][1] - ref[s][1], p3[1][s][2] - ref[s][2]);
    }
  }
}


// energy: rho_inf = 1 (stabilized: index 3 is weakly unstable there) conserves it, rho < 1
// dissipates: the energy at the turning points decreases
static void test_energy(rdContext* ctx) {
  double dev, turn[8];
  const char* s1[] = {"solver.rho_inf=1", "solver.formulation=stabilized"};
  int nt = energy_run(ctx, s1, 2, &dev, turn);
  printf("stabilized rho_inf = 1, h = 1e-3: |E - E0| <= %.2e over 10 s; at the turning points:",
         dev);
  for (int i = 0; i < nt; i++) {
    printf(" %.2e", turn[i]);
  }
  printf("\n");
  CHECK(nt >= 3);
  CHECK(dev < 1e-5);
  CHECK(nt >= 3 && fabs(turn[nt - 1]) < 1e-8);
  const char* rhos[2] = {"solver.rho_inf=0", "solver.rho_inf=0.5"};
  for (int r = 0; r < 2; r++) {
    nt = energy_run(ctx, rhos + r, 1, &dev, turn);
    printf("%s, h = 1e-3: at the turning points:", rhos[r]);
    int mono = nt >= 3;
    for (int i = 0; i < nt; i++) {
      printf(" %.3e", turn[i]);
      mono &= turn[i] < (i ? turn[i - 1] : 0);
    }
    printf("\n");
    CHECK_MSG(mono, "%s: energy not decreasing at the turning points", rhos[r]);
  }
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  int table = 0;
  const char* dat = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--table")) {
      table = 1;
    } else if (!strcmp(argv[i], "--dat") && i + 1 < argc) {
      dat = argv[++i];
    } else {
      deck_dir = argv[i];
    }
  }
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  if (dat) {
    int st = write_dat(ctx, dat);
    rd_destroyContext(&ctx);
    return st;
  }
  double ref[10][3];
  reference(ref);
  TEST_CASE(test_order(ctx, ref, table));
  TEST_CASE(test_energy(ctx));
  rd_destroyContext(&ctx);
  return TEST_SUMMARY();
}
