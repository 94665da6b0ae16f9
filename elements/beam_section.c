// SPDX-License-Identifier: MIT
// Beam sections: 6x6 stiffness and mass at stations along the span, checks and interpolation;
// the section kernel (densities and their Jacobian at a quadrature point).
#include "elements/beam_section.h"

#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "src/math/blk.h"
#include "src/math/quat.h"
#include "src/math/simd.h"
#include "src/math/vec3.h"

// largest |A_ij| of a 6x6 matrix
static double maxabs6(const double* A) {
  double s = 0;
  for (int i = 0; i < 36; i++) {
    s = fmax(s, fabs(A[i]));
  }
  return s;
}


// 1 if the symmetric part of the 6x6 A is positive definite (Cholesky, every pivot above
// floor), 0 otherwise
static int spd6(const double* A, double floor) {
  double L[36] = {0};
  for (int j = 0; j < 6; j++) {
    double d = A[6 * j + j];
    for (int k = 0; k < j; k++) {
      d -= L[6 * j + k] * L[6 * j + k];
    }
    if (!(d > floor)) {
      return 0;
    }
    L[6 * j + j] = sqrt(d);
    for (int i = j + 1; i < 6; i++) {
      double s = 0.5 * (A[6 * i + j] + A[6 * j + i]);
      for (int k = 0; k < j; k++) {
        s -= L[6 * i + k] * L[6 * j + k];
      }
      L[6 * i + j] = s / L[6 * j + j];
    }
  }
  return 1;
}


// largest |A_ij - A_ji| relative to the largest |A_ij|
static double asym6(const double* A) {
  double a = 0, s = maxabs6(A);
  for (int i = 0; i < 6; i++) {
    for (int j = i + 1; j < 6; j++) {
      a = fmax(a, fabs(A[6 * i + j] - A[6 * j + i]));
    }
  }
  return s > 0 ? a / s : 0;
}


// NULL if the 6x6 matrix is symmetric (relative 1e-6, as the beam kernel) and positive definite
// (every Cholesky pivot above 1e-14 of the largest entry)
const char* rd_beamMatrixDefect(const double A[36]) {
  if (asym6(A) > 1e-6) {
    return "is not symmetric";
  }
  if (!spd6(A, 1e-14 * maxabs6(A))) {
    return "is not positive definite";
  }
  return NULL;
}


int rd_beamSectionCheck(rdContext* ctx, const rdBeamSection* s) {
  if (!s || s->nsta < 1 || !s->eta || !s->K || !s->M) {
    return RD_ERROR(ctx, RD_ERR_MODEL, "beam section: no stations");
  }
  if (s->nsta > 1 && (s->eta[0] != 0 || s->eta[s->nsta - 1] != 1)) {
    return RD_ERROR(ctx, RD_ERR_MODEL, "beam section: stations must run from 0 to 1 (got %g .. %g)",
                    s->eta[0], s->eta[s->nsta - 1]);
  }
  for (int i = 0; i < s->nsta; i++) {
    if (i > 0 && !(s->eta[i] > s->eta[i - 1])) {
      return RD_ERROR(ctx, RD_ERR_MODEL, "beam section: station %d: eta %g not above %g", i,
                      s->eta[i], s->eta[i - 1]);
    }
    const double* K = s->K + 36 * i;
    const double* M = s->M + 36 * i;
    for (int k = 0; k < 36; k++) {
      if (!isfinite(K[k]) || !isfinite(M[k])) {
        return RD_ERROR(ctx, RD_ERR_MODEL, "beam section: station %d: non-finite entry", i);
      }
    }
    if (asym6(K) > 1e-6 || asym6(M) > 1e-6) {
      return RD_ERROR(ctx, RD_ERR_MODEL,
                      "beam section: station %d (eta %g): %s matrix not symmetric", i, s->eta[i],
                      asym6(K) > 1e-6 ? "stiffness" : "mass");
    }
    if (!spd6(K, 0)) {
      return RD_ERROR(ctx, RD_ERR_MODEL,
                      "beam section: station %d (eta %g): stiffness not positive definite", i,
                      s->eta[i]);
    }
    if (!spd6(M, 0)) {
      return RD_ERROR(ctx, RD_ERR_MODEL,
                      "beam section: station %d (eta %g): mass not positive definite", i,
                      s->eta[i]);
    }
  }
  for (int k = 0; k < 6; k++) {
    if (!(s->mu[k] >= 0)) {
      return RD_ERROR(ctx, RD_ERR_MODEL, "beam section: damping mu[%d] = %g is negative", k,
                      s->mu[k]);
    }
  }
  return RD_OK;
}


void rd_beamSectionAt(const rdBeamSection* s, double eta, double K[36], double M[36]) {
  int i = 0;
  double t = 0;
  if (s->nsta > 1) {
    eta = fmin(1, fmax(0, eta));
    while (i < s->nsta - 2 && eta > s->eta[i + 1]) {
      i++;
    }
    t = (eta - s->eta[i]) / (s->eta[i + 1] - s->eta[i]);
  }
  const double* K0 = s->K + 36 * i;
  const double* M0 = s->M + 36 * i;
  const double* K1 = s->nsta > 1 ? K0 + 36 : K0;
  const double* M1 = s->nsta > 1 ? M0 + 36 : M0;
  for (int a = 0; a < 6; a++) {
    for (int b = 0; b < 6; b++) {
      int ab = 6 * a + b, ba = 6 * b + a;
      K[ab] = 0.5 * ((1 - t) * (K0[ab] + K0[ba]) + t * (K1[ab] + K1[ba]));
      M[ab] = 0.5 * ((1 - t) * (M0[ab] + M0[ba]) + t * (M1[ab] + M1[ba]));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// section kernel
//
// The densities a at one point and their Jacobian in blocks of at most four columns: every
// column block goes through the same chain (strains and rates -> sectional forces, velocities
// and accelerations -> momenta -> densities) as one rdV4 per row, with the parts a column group
// cannot reach (elastic or inertial) left out at compile time. The quaternion maps of
// src/math/quatmap.h are written out here on rdV4 rows: Lam = c L(p) with c = 2 / |p|^2,
// L(d) b = vec(conj(d) (x) b) = Lr(b) d.

// vec(conj(a) (x) b) = a0 bv - b0 av + bv x av
RD_HOT void qvec(double y[3], const double a[4], const double b[4]) {
  y[0] = a[0] * b[1] - b[0] * a[1] + b[2] * a[3] - b[3] * a[2];
  y[1] = a[0] * b[2] - b[0] * a[2] + b[3] * a[1] - b[1] * a[3];
  y[2] = a[0] * b[3] - b[0] * a[3] + b[1] * a[2] - b[2] * a[1];
}


// the rows of L(d) (3x4): L(d) b = vec(conj(d) (x) b)
RD_HOT void rows_L(rdV4 y[3], const double d[4]) {
  y[0] = (rdV4){-d[1], d[0], d[3], -d[2]};
  y[1] = (rdV4){-d[2], -d[3], d[0], d[1]};
  y[2] = (rdV4){-d[3], d[2], -d[1], d[0]};
}


// the rows of Lr(b) (3x4): Lr(b) d = vec(conj(d) (x) b)
RD_HOT void rows_Lr(rdV4 y[3], const double b[4]) {
  y[0] = (rdV4){b[1], -b[0], -b[3], b[2]};
  y[1] = (rdV4){b[2], b[3], -b[0], -b[1]};
  y[2] = (rdV4){b[3], -b[2], b[1], -b[0]};
}


// the rows of Lc(v) = [0, -v^T; v, -skew(v)] (4x4), or of its transpose
RD_HOT void rows_Lc(rdV4 y[4], const double v[3], double s) {
  y[0] = s * (rdV4){0, -v[0], -v[1], -v[2]};
  y[1] = s * (rdV4){v[0], 0, v[2], -v[1]};
  y[2] = s * (rdV4){v[1], -v[2], 0, v[0]};
  y[3] = s * (rdV4){v[2], v[1], -v[0], 0};
}


// sum_i v_i y[i] for 3 rows (a macro: an rdV4 returned by a function changes the ABI)
#define COMB3(v, y) ((v)[0] * (y)[0] + (v)[1] * (y)[1] + (v)[2] * (y)[2])


// the section's quantities at the point, shared by the densities and their Jacobian
typedef struct {
  double p[4], c, pp1;                    // p, 2 / |p|^2, p . p1
  rdV4 p4, Lam[3], Dpd[3], Dp1[3];        // Lam, D_Lam(pd), D_Lam(p1) (rows)
  double Lpd[3], Lp1[3];                  // Lam pd = w, Lam p1
  double R[9];                            // R(p / |p|)
  double G[3], u[3], w[3], w1[3], w2[3];  // R^T x', R^T xd, Lam pd, R^T xdd, R^T xd'
  double e[6], F[6], P[6], ht[3], c1[3];  // strains, [N; M], momenta, force and moment balance
  double rg[3], rmd[3], meta[3];          // R^T g, R^T m_dead, m eta
} sectionState;


// D_Lam(b) = d(Lam b)/dp = c [Lr(b) - (Lam b) p^T], given Lb = Lam b
RD_HOT void rows_dLam(rdV4 y[3], const sectionState* st, const double b[4], const double Lb[3]) {
  rows_Lr(y, b);
  for (int i = 0; i < 3; i++) {
    y[i] = st->c * y[i] - (st->c * Lb[i]) * st->p4;
  }
}


// D_Lam(b) d = c [vec(conj(d) (x) b) - (p . d) Lam b]
RD_HOT void dLam_times(double y[3], const sectionState* st, const double b[4], const double Lb[3],
                       const double d[4]) {
  double pd = q4_dot(st->p, d);
  qvec(y, d, b);
  for (int i = 0; i < 3; i++) {
    y[i] = st->c * (y[i] - pd * Lb[i]);
  }
}


// d/db [D_Lam(b) d] = c [L(d) - (p . d) Lam] (rows)
RD_HOT void rows_dLamDb(rdV4 y[3], const sectionState* st, const double d[4]) {
  double pd = q4_dot(st->p, d);
  rows_L(y, d);
  for (int i = 0; i < 3; i++) {
    y[i] = st->c * y[i] - (st->c * pd) * st->Lam[i];
  }
}


// d/dp [D_Lam(b) d] = -c [(D_Lam(b) d) p^T + (Lam b) d^T + (p . d) D_Lam(b)], given
// Db = D_Lam(b), Lb = Lam b (rows added to y)
RD_HOT void add_d2Lam(rdV4 y[3], const sectionState* st, const rdV4 Db[3], const double b[4],
                      const double Lb[3], const double d[4]) {
  double Dbd[3], pd = q4_dot(st->p, d);
  dLam_times(Dbd, st, b, Lb, d);
  rdV4 d4 = V4LD(d);
  for (int i = 0; i < 3; i++) {
    y[i] -= st->c * (Dbd[i] * st->p4 + Lb[i] * d4 + pd * Db[i]);
  }
}


// y = A x for a 6x6 A (row-major)
RD_HOT void m6_mulv(double y[6], const double* A, const double x[6]) {
  for (int i = 0; i < 6; i++) {
    const double* a = A + 6 * i;
    y[i] = a[0] * x[0] + a[1] * x[1] + a[2] * x[2] + a[3] * x[3] + a[4] * x[4] + a[5] * x[5];
  }
}


// y = A x for a 6x6 A given by At = A^T (row-major): the columns of A, four and two rows at a
// time; the products of a row in m6_mulv's order and fused alike, so the bits are the same. The
// momenta keep m6_mulv: in their place GCC fuses the vector form differently (round-off moves)
RD_HOT void m6_mulvt(double y[6], const double* At, const double x[6]) {
  rdV4 lo = x[0] * V4LD(At) + x[1] * V4LD(At + 6);
  rdV4 hi = x[0] * V4LD(At + 2) + x[1] * V4LD(At + 8);
#pragma GCC unroll 4
  for (int j = 2; j < 6; j++) {
    lo = lo + x[j] * V4LD(At + 6 * j);
    hi = hi + x[j] * V4LD(At + 6 * j + 2);
  }
  V4ST(y, lo);
  y[4] = hi[2];
  y[5] = hi[3];
}


// extension-twist term (BeamDyn's, from Dymore; docs/beam.md "Extension-twist term"): strain
// energy 1/2 cet e1 k1^2 with e1 = t . Gamma and k1 = t . kappa along the section axis t, so
// N += 1/2 cet k1^2 t and M += cet e1 k1 t (et = (t, cet), e = [Gamma; kappa])
RD_HOT void extension_twist(const double et[4], const double e[6], double F[6]) {
  double e1 = v3_dot(et, e), k1 = v3_dot(et, e + 3), c = et[3];
  v3_axpy(F, 0.5 * c * k1 * k1, et);
  v3_axpy(F + 3, c * e1 * k1, et);
}


// the densities a (NA) and the state the Jacobian reuses; jac 0: the residual only (the rows
// Lam, D_Lam(pd), D_Lam(p1) are then formed only where the moment densities need them)
RD_HOT void densities(const rdSectionIn* s, const rdSectionProp* sp, const rdBeamLoads* ld,
                      int interp, int jac, sectionState* st, double* a) {
  memcpy(st->p, s->p, sizeof(st->p));
  st->p4 = V4LD(s->p);
  st->c = 2 / q4_dot(s->p, s->p);
  st->pp1 = q4_dot(s->p, s->p1);
  if (jac || !interp) {
    rows_L(st->Lam, s->p);
    for (int i = 0; i < 3; i++) {
      st->Lam[i] = st->c * st->Lam[i];
    }
  }
  double* R = st->R;
  rdu_quatToMat(R, s->p);
  // kinematics: kappa = Lam p', w = Lam pd, wd = Lam pdd + D_Lam(pd) pd,
  // kd = Lam pd' + D_Lam(p') pd, ud = R^T xdd - w x u, Gd = R^T xd' + G x w
  double kap[3], ud[3], wd[3], Gd[3], kd[3], t[3], y[3];
  qvec(st->Lp1, s->p, s->p1);
  qvec(st->Lpd, s->p, s->pd);
  for (int i = 0; i < 3; i++) {
    st->Lp1[i] *= st->c;
    st->Lpd[i] *= st->c;
    kap[i] = st->Lp1[i];
    st->w[i] = st->Lpd[i];
  }
  m3_tmulv(st->G, R, s->x1);
  m3_tmulv(st->u, R, s->xd);
  m3_tmulv(st->w1, R, s->xdd);
  m3_tmulv(st->w2, R, s->xd1);
  if (jac) {
    rows_dLam(st->Dpd, st, s->pd, st->Lpd);
  }
  if (jac || !interp) {
    rows_dLam(st->Dp1, st, s->p1, st->Lp1);
  }
  v3_cross(t, st->w, st->u);
  v3_sub(ud, st->w1, t);
  qvec(wd, s->p, s->pdd);
  dLam_times(y, st, s->pd, st->Lpd, s->pd);
  for (int i = 0; i < 3; i++) {
    wd[i] = st->c * wd[i] + y[i];
  }
  v3_cross(t, st->G, st->w);
  v3_add(Gd, st->w2, t);
  qvec(kd, s->p, s->pd1);
  dLam_times(y, st, s->p1, st->Lp1, s->pd);
  for (int i = 0; i < 3; i++) {
    kd[i] = st->c * kd[i] + y[i];
  }
  // sectional forces F = K e + D ed (+ the extension-twist term)
  double* e = st->e;
  double ed[6], Fd[6];
  for (int i = 0; i < 3; i++) {
    e[i] = st->G[i] - sp->G0[i];
    e[3 + i] = kap[i] - sp->k0[i];
    ed[i] = Gd[i];
    ed[3 + i] = kd[i];
  }
  double* F = st->F;
  m6_mulvt(F, sp->Kt, e);
  m6_mulvt(Fd, sp->Dt, ed);
  for (int i = 0; i < 6; i++) {
    F[i] += Fd[i];
  }
  if (sp->et) {
    extension_twist(sp->et, e, F);
  }
  const double* N = F;
  const double* Mm = F + 3;
  // inertia: P = Ms [u; w], Pd = Ms [ud; wd]
  double V[6], A[6], Pd[6];
  double* P = st->P;
  v3_copy(V, st->u);
  v3_copy(V + 3, st->w);
  v3_copy(A, ud);
  v3_copy(A + 3, wd);
  m6_mulv(P, sp->M, V);
  m6_mulv(Pd, sp->M, A);
  double mi[3], me[3] = {0};
  v3_cross(t, st->w, P);
  v3_add(st->ht, Pd, t);
  v3_cross(t, st->w, P + 3);
  v3_add(mi, Pd + 3, t);
  v3_cross(t, st->u, P);
  v3_add(mi, mi, t);
  // applied: gravity (m g, m eta x R^T g), dead and follower loads
  double mass = sp->M[0];
  double* meta = st->meta;
  meta[0] = 0.5 * (sp->M[6 * 5 + 1] - sp->M[6 * 4 + 2]);
  meta[1] = 0.5 * (sp->M[6 * 3 + 2] - sp->M[6 * 5 + 0]);
  meta[2] = 0.5 * (sp->M[6 * 4 + 0] - sp->M[6 * 3 + 1]);
  memset(st->rg, 0, sizeof(st->rg));
  memset(st->rmd, 0, sizeof(st->rmd));
  if (ld) {
    m3_tmulv(st->rg, R, ld->gravity);
    m3_tmulv(st->rmd, R, ld->m_dead);
    v3_cross(me, meta, st->rg);
    v3_add(me, me, st->rmd);
    v3_add(me, me, ld->m_follow);
    v3_sub(st->ht, st->ht, ld->f_follow);
  }
  double* c1 = st->c1;
  v3_cross(c1, N, st->G);
  v3_add(c1, c1, mi);
  v3_sub(c1, c1, me);
  // densities
  m3_mulv(a + AX, R, st->ht);
  if (ld) {
    for (int i = 0; i < 3; i++) {
      a[AX + i] -= mass * ld->gravity[i] + ld->f_dead[i];
    }
  }
  m3_mulv(a + AX1, R, N);
  if (interp) {
    m3_mulv(a + AP, R, c1);
    m3_mulv(a + AP1, R, Mm);
    a[AP + 3] = a[AP1 + 3] = 0;
  } else {
    // a_p = Lam^T c1 + D_Lam(p')^T M, a_p' = Lam^T M
    V4ST(a + AP, COMB3(c1, st->Lam) + COMB3(Mm, st->Dp1));
    V4ST(a + AP1, COMB3(Mm, st->Lam));
  }
}

// ----- the Jacobian, four columns at a time

// y = skew(v) x for 3 rows of columns: v x (each column of x)
#define SKEW4(y, v, x)                             \
  do {                                             \
    rdV4 x0_ = (x)[0], x1_ = (x)[1], x2_ = (x)[2]; \
    (y)[0] = (v)[1] * x2_ - (v)[2] * x1_;          \
    (y)[1] = (v)[2] * x0_ - (v)[0] * x2_;          \
    (y)[2] = (v)[0] * x1_ - (v)[1] * x0_;          \
  } while (0)


// y += s skew(v) x (3 rows)
RD_HOT void skew4_add(rdV4 y[3], const double v[3], const rdV4 x[3], double s) {
  rdV4 t[3];
  SKEW4(t, v, x);
  for (int i = 0; i < 3; i++) {
    y[i] += s * t[i];
  }
}


// y = A x for a 3x3 A (row-major) and 3 rows of columns
RD_HOT void m3_mul4(rdV4 y[3], const double A[9], const rdV4 x[3]) {
  for (int i = 0; i < 3; i++) {
    y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
  }
}


// the derivatives of the kinematic quantities along one block of columns, 3 rows each; NULL:
// zero (a constant NULL drops its products when the chain is inlined)
typedef struct {
  const rdV4 *dG, *dk, *dGd, *dkd;  // elastic: strains and their rates
  const rdV4 *du, *dw, *dud, *dwd;  // inertial: velocities and accelerations
  const rdV4* dc1;                  // added to d c1 (the applied moments' rotation)
} colBlock;


// the density rows of one column block (JROWS rows: a_x, a_p, a_x', a_p', see beam_section.h)
RD_HOT void chain(const sectionState* st, const rdSectionProp* sp, int interp, const colBlock* b,
                  rdV4 out[JROWS]) {
  int el = b->dG || b->dk || b->dGd || b->dkd;
  int in = b->du || b->dw || b->dud || b->dwd;
  rdV4 dN[3] = {V4ZERO, V4ZERO, V4ZERO}, dM[3] = {V4ZERO, V4ZERO, V4ZERO};
  rdV4 dc1[3] = {V4ZERO, V4ZERO, V4ZERO}, dht[3] = {V4ZERO, V4ZERO, V4ZERO};
  if (el) {
    // dF = K de + D ded (+ the extension-twist term's d/de)
    rdV4 dF[6];
    for (int i = 0; i < 6; i++) {
      const double* Ki = sp->K + 6 * i;
      const double* Di = sp->D + 6 * i;
      rdV4 y = V4ZERO;
      for (int j = 0; j < 3; j++) {
        if (b->dG) {
          y += Ki[j] * b->dG[j];
        }
        if (b->dk) {
          y += Ki[3 + j] * b->dk[j];
        }
        if (b->dGd) {
          y += Di[j] * b->dGd[j];
        }
        if (b->dkd) {
          y += Di[3 + j] * b->dkd[j];
        }
      }
      dF[i] = y;
    }
    if (sp->et && (b->dG || b->dk)) {
      // dN = cet k1 t (t . dkappa), dM = cet t (k1 t . dGamma + e1 t . dkappa)
      const double* t = sp->et;
      double e1 = v3_dot(t, st->e), k1 = v3_dot(t, st->e + 3), c = t[3];
      rdV4 dg = V4ZERO, dk = V4ZERO;
      if (b->dG) {
        dg = COMB3(t, b->dG);
      }
      if (b->dk) {
        dk = COMB3(t, b->dk);
      }
      rdV4 dn = (c * k1) * dk, dm = (c * k1) * dg + (c * e1) * dk;
      for (int i = 0; i < 3; i++) {
        dF[i] += t[i] * dn;
        dF[3 + i] += t[i] * dm;
      }
    }
    for (int i = 0; i < 3; i++) {
      dN[i] = dF[i];
      dM[i] = dF[3 + i];
    }
    // d(N x G) = N x dG - G x dN
    skew4_add(dc1, st->G, dN, -1);
    if (b->dG) {
      skew4_add(dc1, st->F, b->dG, 1);
    }
  }
  if (in) {
    // dP = M [du; dw], dPd = M [dud; dwd]
    rdV4 dP[6], dPd[6];
    for (int i = 0; i < 6; i++) {
      const double* Mi = sp->M + 6 * i;
      rdV4 y = V4ZERO, z = V4ZERO;
      for (int j = 0; j < 3; j++) {
        if (b->du) {
          y += Mi[j] * b->du[j];
        }
        if (b->dw) {
          y += Mi[3 + j] * b->dw[j];
        }
        if (b->dud) {
          z += Mi[j] * b->dud[j];
        }
        if (b->dwd) {
          z += Mi[3 + j] * b->dwd[j];
        }
      }
      dP[i] = y;
      dPd[i] = z;
    }
    // ht = Pd_t + w x P_t, mi = Pd_r + w x P_r + u x P_t
    const double* P = st->P;
    for (int i = 0; i < 3; i++) {
      dht[i] = dPd[i];
      dc1[i] += dPd[3 + i];
    }
    if (b->du || b->dw) {
      skew4_add(dht, st->w, dP, 1);
      skew4_add(dc1, st->w, dP + 3, 1);
      skew4_add(dc1, st->u, dP, 1);
    }
    if (b->dw) {
      skew4_add(dht, P, b->dw, -1);
      skew4_add(dc1, P + 3, b->dw, -1);
    }
    if (b->du) {
      skew4_add(dc1, P, b->du, -1);
    }
  }
  if (b->dc1) {
    for (int i = 0; i < 3; i++) {
      dc1[i] += b->dc1[i];
    }
  }
  // densities: a_x = R ht, a_x' = R N; a_p, a_p' as in densities()
  const double* R = st->R;
  m3_mul4(out + JX, R, dht);
  m3_mul4(out + JX1, R, dN);
  if (interp) {
    m3_mul4(out + JP, R, dc1);
    m3_mul4(out + JP1, R, dM);
    out[JP + 3] = out[JP1 + 3] = V4ZERO;
    return;
  }
  // a_p = Lam^T c1 + D_Lam(p')^T M, a_p' = Lam^T M: transposes of the 3x4 rows, as 4 rows
  // of 4 columns, through the 4 x 3 scalars
  double L[12], D1[12];
  for (int i = 0; i < 3; i++) {
    V4ST(L + 4 * i, st->Lam[i]);
    V4ST(D1 + 4 * i, st->Dp1[i]);
  }
  for (int k = 0; k < 4; k++) {
    out[JP + k] = L[k] * dc1[0] + L[4 + k] * dc1[1] + L[8 + k] * dc1[2] + D1[k] * dM[0] +
                  D1[4 + k] * dM[1] + D1[8 + k] * dM[2];
    out[JP1 + k] = L[k] * dM[0] + L[4 + k] * dM[1] + L[8 + k] * dM[2];
  }
}


// out[0 .. 2] -= R skew(y) Lam: the rotation of a density R y along p
RD_HOT void rotated_density(rdV4* out, const double R[9], const double y[3], const rdV4 L4[3]) {
  rdV4 t[3], u[3];
  SKEW4(t, y, L4);
  m3_mul4(u, R, t);
  for (int i = 0; i < 3; i++) {
    out[i] -= u[i];
  }
}


// rows x jw into the columns c0 .. c0+3 of Ja (JROWS x JCOLS)
RD_HOT void store_block(double* Ja, int c0, const rdV4 out[JROWS], double jw) {
  for (int r = 0; r < JROWS; r++) {
    V4ST(Ja + r * JCOLS + c0, jw * out[r]);
  }
}


// the Jacobian of the densities (beam_section.h), from the state of densities()
RD_HOT void jacobian(const rdSectionIn* s, const rdSectionProp* sp, const rdBeamLoads* ld,
                     int interp, const sectionState* st, const rdSectionCoef* c, double jw,
                     double* Ja) {
  const double* R = st->R;
  const double* N = st->F;
  const double* Mm = st->F + 3;
  const rdV4* L4 = st->Lam;
  rdV4 RT[3], SwRT[3], out[JROWS], Dpd_b[3];
  for (int i = 0; i < 3; i++) {
    RT[i] = (rdV4){R[i], R[3 + i], R[6 + i], 0};
  }
  SKEW4(SwRT, st->w, RT);
  // d/db [D_Lam(b) pd]: of kd along p' and of wd along pd
  rows_dLamDb(Dpd_b, st, s->pd);
  // translations, phi_j: cM d/dxdd + cC d/dxd (xd -> u = R^T xd, xdd -> ud = R^T xdd - w x u)
  {
    rdV4 du[3], dud[3];
    for (int i = 0; i < 3; i++) {
      du[i] = c->cC * RT[i];
      dud[i] = c->cM * RT[i] - c->cC * SwRT[i];
    }
    colBlock b = {.du = du, .dud = dud};
    chain(st, sp, interp, &b, out);
    store_block(Ja, JT, out, jw);
  }
  // translations, phi_j': cK d/dx' + cC d/dxd' (x' -> G = R^T x', Gd = R^T xd' + G x w)
  {
    rdV4 dG[3], dGd[3];
    for (int i = 0; i < 3; i++) {
      dG[i] = c->cK * RT[i];
      dGd[i] = c->cC * RT[i] - c->cK * SwRT[i];
    }
    colBlock b = {.dG = dG, .dGd = dGd};
    chain(st, sp, interp, &b, out);
    store_block(Ja, JT1, out, jw);
  }
  // pdd: wd = Lam pdd + ...
  {
    colBlock b = {.dwd = L4};
    chain(st, sp, interp, &b, out);
    store_block(Ja, JG3, out, jw);
  }
  // pd': kd = Lam pd' + ...
  {
    colBlock b = {.dkd = L4};
    chain(st, sp, interp, &b, out);
    store_block(Ja, JG21, out, jw);
  }
  // p': kappa = Lam p', kd = D_Lam(p') pd + ...; a_p (field) = D_Lam(p')^T M + ...:
  // d/dp' [D_Lam(p')^T M] = c [Lc(M)^T - p (M^T Lam)]
  {
    colBlock b = {.dk = L4, .dkd = Dpd_b};
    chain(st, sp, interp, &b, out);
    if (!interp) {
      rdV4 X[4], ml = COMB3(Mm, L4);
      rows_Lc(X, Mm, -1);
      for (int k = 0; k < 4; k++) {
        out[JP + k] += st->c * X[k] - (st->c * st->p[k]) * ml;
      }
    }
    store_block(Ja, JG11, out, jw);
  }
  // pd: w = Lam pd, Gd = .. + G x w, kd = .. + D_Lam(p') pd, ud = .. - w x u,
  // wd = .. + D_Lam(pd) pd
  {
    rdV4 dGd[3], dud[3], dwd[3];
    SKEW4(dGd, st->G, L4);
    SKEW4(dud, st->u, L4);
    for (int i = 0; i < 3; i++) {
      dwd[i] = Dpd_b[i] + st->Dpd[i];
    }
    colBlock b = {.dGd = dGd, .dkd = st->Dp1, .dw = L4, .dud = dud, .dwd = dwd};
    chain(st, sp, interp, &b, out);
    store_block(Ja, JG2, out, jw);
  }
  // p: every quantity, through R^T y (d = skew(R^T y) Lam dp), Lam and D_Lam
  {
    rdV4 dG[3], dGd[3], dkd[3], du[3], dud[3], dwd[3], dc1[3], t[3];
    SKEW4(dG, st->G, L4);
    SKEW4(du, st->u, L4);
    // ud = R^T xdd - w x u
    SKEW4(dud, st->w1, L4);
    skew4_add(dud, st->w, du, -1);
    skew4_add(dud, st->u, st->Dpd, 1);
    // wd = Lam pdd + D_Lam(pd) pd
    double Lb[3];
    qvec(Lb, s->p, s->pdd);
    for (int i = 0; i < 3; i++) {
      Lb[i] *= st->c;
    }
    rows_dLam(dwd, st, s->pdd, Lb);
    add_d2Lam(dwd, st, st->Dpd, s->pd, st->Lpd, s->pd);
    // Gd = R^T xd' + G x w
    SKEW4(dGd, st->w2, L4);
    skew4_add(dGd, st->w, dG, -1);
    skew4_add(dGd, st->G, st->Dpd, 1);
    // kd = Lam pd' + D_Lam(p') pd
    qvec(Lb, s->p, s->pd1);
    for (int i = 0; i < 3; i++) {
      Lb[i] *= st->c;
    }
    rows_dLam(dkd, st, s->pd1, Lb);
    add_d2Lam(dkd, st, st->Dp1, s->p1, st->Lp1, s->pd);
    // the applied moments: me = meta x R^T g + R^T m_dead + m_follow, c1 -= me
    SKEW4(t, st->rg, L4);
    SKEW4(dc1, st->meta, t);
    skew4_add(dc1, st->rmd, L4, 1);
    for (int i = 0; i < 3; i++) {
      dc1[i] = -dc1[i];
    }
    colBlock b = {.dG = dG,
                  .dk = st->Dp1,
                  .dGd = dGd,
                  .dkd = dkd,
                  .du = du,
                  .dw = st->Dpd,
                  .dud = dud,
                  .dwd = dwd,
                  .dc1 = ld ? dc1 : NULL};
    chain(st, sp, interp, &b, out);
    // the rotation of the densities themselves
    rotated_density(out + JX, R, st->ht, L4);
    rotated_density(out + JX1, R, N, L4);
    if (interp) {
      rotated_density(out + JP, R, st->c1, L4);
      rotated_density(out + JP1, R, Mm, L4);
    } else {
      // d/dp [Lam^T v] = c [Lc(v) - (Lam^T v) p^T] (v = c1 into a_p, M into a_p');
      // d/dp [D_Lam(p')^T M] = -c [(D_Lam(p')^T M) p^T + (M . Lam p') I + p (M^T D_Lam(p'))]
      rdV4 X[4], lc = COMB3(st->c1, L4), lm = COMB3(Mm, L4), dm = COMB3(Mm, st->Dp1);
      double ml = v3_dot(Mm, st->Lp1), dmv[4];
      V4ST(dmv, dm);
      rows_Lc(X, st->c1, 1);
      for (int k = 0; k < 4; k++) {
        rdV4 ek = {k == 0, k == 1, k == 2, k == 3};
        out[JP + k] += st->c * X[k] - (st->c * lc[k]) * st->p4;
        out[JP + k] -= st->c * (dmv[k] * st->p4 + ml * ek + st->p[k] * dm);
      }
      rows_Lc(X, Mm, 1);
      for (int k = 0; k < 4; k++) {
        out[JP1 + k] += st->c * X[k] - (st->c * lm[k]) * st->p4;
      }
    }
    store_block(Ja, JG1, out, jw);
  }
}


RD_CLONES void rd_beamSectionEval(const rdSectionIn* s, const rdSectionProp* sp,
                                  const rdBeamLoads* ld, int interp, const rdSectionCoef* c,
                                  double jw, double* a, double* Ja, double F[6]) {
  sectionState st;
  densities(s, sp, ld, interp, c && Ja, &st, a);
  memcpy(F, st.F, 6 * sizeof(double));
  if (c && Ja) {
    jacobian(s, sp, ld, interp, &st, c, jw, Ja);
  }
}
