// SPDX-License-Identifier: MIT
// Beam sections: 6x6 stiffness and mass at stations along the span, checks and interpolation;
// the section kernel (densities and their Jacobian at a quadrature point).
#include "elements/beam_section.h"

#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "src/math/blk.h"
#include "src/math/quatmap.h"
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

// the Jacobian products of the kernel on the columns they can reach: elastic [F0, F1),
// inertial [I0, I1), all
BLK_MM_RANGE(mmF, NS, F0, F1)
BLK_MM_RANGE(mmI, NS, I0, I1)
BLK_MTM_RANGE(mtmF, NS, F0, F1)
BLK_MTM_RANGE(mtmA, NS, 0, NS)
BLK_MM_RANGE(mmA, NS, 0, NS)


// row block `row` of the density Jacobian Ja gets the rotation's part of
// d(R y) = R dy - R skew(y) Lam dp (Lam: 3x4, the quaternion map at the point)
static void rotated_density(double* Ja, int row, const double R[9], const double y[3],
                            const double Lam[12]) {
  double S[9], RS[9], SL[12] = {0};
  m3_skew(S, y);
  m3_mul(RS, R, S);
  blk_mm(SL, 4, RS, 3, Lam, 4, 3, 3, 4, 1);
  blk_put(Ja, NS, row, CP, SL, 3, 4, -1);
}


// extension-twist term (BeamDyn's, from Dymore; docs/beam.md "Extension-twist term"): strain
// energy 1/2 cet e1 k1^2 with e1 = t . Gamma and k1 = t . kappa along the section axis t, so
// N += 1/2 cet k1^2 t and M += cet e1 k1 t (et = (t, cet), e = [Gamma; kappa])
static void extension_twist(const double et[4], const double e[6], double F[6]) {
  double e1 = v3_dot(et, e), k1 = v3_dot(et, e + 3), c = et[3];
  v3_axpy(F, 0.5 * c * k1 * k1, et);
  v3_axpy(F + 3, c * e1 * k1, et);
}


// its Jacobian, added to JF (6 x NS) from Je = d e / d s (6 x NS, elastic columns):
// dN = cet k1 t (t . dkappa), dM = cet t (k1 t . dGamma + e1 t . dkappa)
static void extension_twist_jacobian(const double et[4], const double e[6], const double* Je,
                                     double* JF) {
  double e1 = v3_dot(et, e), k1 = v3_dot(et, e + 3), c = et[3];
  for (int j = F0; j < F1; j++) {
    double dg = 0, dk = 0;
    for (int i = 0; i < 3; i++) {
      dg += et[i] * Je[i * NS + j];
      dk += et[i] * Je[(3 + i) * NS + j];
    }
    double dn = c * k1 * dk, dm = c * (k1 * dg + e1 * dk);
    for (int i = 0; i < 3; i++) {
      JF[i * NS + j] += dn * et[i];
      JF[(3 + i) * NS + j] += dm * et[i];
    }
  }
}


void rd_beamSectionEval(const rdSectionIn* s, const rdSectionProp* sp, const rdBeamLoads* ld,
                        int interp, double* a, double* Ja, double F[6]) {
  qmField f;
  qm_field(&f, s->p);
  double R[9];
  rdu_quatToMat(R, s->p);
  // kinematics
  double G[3], kap[3], w[3], u[3], w1[3], w2[3], ud[3], wd[3], Gd[3], kd[3], t[3];
  m3_tmulv(G, R, s->x1);
  m3_tmulv(u, R, s->xd);
  m3_tmulv(w1, R, s->xdd);
  m3_tmulv(w2, R, s->xd1);
  memset(kap, 0, sizeof(kap));
  memset(w, 0, sizeof(w));
  blk_mm(kap, 1, f.Lam, 4, s->p1, 1, 3, 4, 1, 1);
  blk_mm(w, 1, f.Lam, 4, s->pd, 1, 3, 4, 1, 1);
  double Dpd[12], Dp1[12];
  qm_dLam(Dpd, &f, s->pd);
  qm_dLam(Dp1, &f, s->p1);
  v3_cross(t, w, u);
  v3_sub(ud, w1, t);
  memset(wd, 0, sizeof(wd));
  blk_mm(wd, 1, f.Lam, 4, s->pdd, 1, 3, 4, 1, 1);
  blk_mm(wd, 1, Dpd, 4, s->pd, 1, 3, 4, 1, 1);
  v3_cross(t, G, w);
  v3_add(Gd, w2, t);
  memset(kd, 0, sizeof(kd));
  blk_mm(kd, 1, f.Lam, 4, s->pd1, 1, 3, 4, 1, 1);
  blk_mm(kd, 1, Dp1, 4, s->pd, 1, 3, 4, 1, 1);
  // sectional forces
  double e[6], ed[6];
  for (int i = 0; i < 3; i++) {
    e[i] = G[i] - sp->G0[i];
    e[3 + i] = kap[i] - sp->k0[i];
    ed[i] = Gd[i];
    ed[3 + i] = kd[i];
  }
  memset(F, 0, 6 * sizeof(double));
  blk_mm(F, 1, sp->K, 6, e, 1, 6, 6, 1, 1);
  blk_mm(F, 1, sp->D, 6, ed, 1, 6, 6, 1, 1);
  if (sp->et) {
    extension_twist(sp->et, e, F);
  }
  const double* N = F;
  const double* Mm = F + 3;
  // inertia: P = Ms [u; w], Pd = Ms [ud; wd]
  double V[6], A[6], P[6] = {0}, Pd[6] = {0};
  v3_copy(V, u);
  v3_copy(V + 3, w);
  v3_copy(A, ud);
  v3_copy(A + 3, wd);
  blk_mm(P, 1, sp->M, 6, V, 1, 6, 6, 1, 1);
  blk_mm(Pd, 1, sp->M, 6, A, 1, 6, 6, 1, 1);
  double ht[3], mi[3], me[3] = {0}, c1[3];
  v3_cross(t, w, P);
  v3_add(ht, Pd, t);
  v3_cross(t, w, P + 3);
  v3_add(mi, Pd + 3, t);
  v3_cross(t, u, P);
  v3_add(mi, mi, t);
  // applied: gravity (m g, m eta x R^T g), dead and follower loads
  double mass = sp->M[0], meta[3], rg[3] = {0}, rmd[3] = {0};
  meta[0] = 0.5 * (sp->M[6 * 5 + 1] - sp->M[6 * 4 + 2]);
  meta[1] = 0.5 * (sp->M[6 * 3 + 2] - sp->M[6 * 5 + 0]);
  meta[2] = 0.5 * (sp->M[6 * 4 + 0] - sp->M[6 * 3 + 1]);
  if (ld) {
    m3_tmulv(rg, R, ld->gravity);
    m3_tmulv(rmd, R, ld->m_dead);
    v3_cross(me, meta, rg);
    v3_add(me, me, rmd);
    v3_add(me, me, ld->m_follow);
    v3_sub(ht, ht, ld->f_follow);
  }
  v3_cross(c1, N, G);
  v3_add(c1, c1, mi);
  v3_sub(c1, c1, me);
  // densities
  m3_mulv(a + AX, R, ht);
  if (ld) {
    for (int i = 0; i < 3; i++) {
      a[AX + i] -= mass * ld->gravity[i] + ld->f_dead[i];
    }
  }
  m3_mulv(a + AX1, R, N);
  memset(a + AP, 0, 8 * sizeof(double));
  if (interp) {
    m3_mulv(a + AP, R, c1);
    m3_mulv(a + AP1, R, Mm);
  } else {
    blk_mtm(a + AP, 1, f.Lam, 4, c1, 1, 4, 3, 1, 1);
    blk_mtm(a + AP, 1, Dp1, 4, Mm, 1, 4, 3, 1, 1);
    blk_mtm(a + AP1, 1, f.Lam, 4, Mm, 1, 4, 3, 1, 1);
  }
  if (!Ja) {
    return;
  }
  // ----- Jacobians with respect to s (3 x NS unless noted)
  double JG[3 * NS] = {0}, Jk[3 * NS] = {0}, Jw[3 * NS] = {0}, Ju[3 * NS] = {0};
  double Jud[3 * NS] = {0}, Jwd[3 * NS] = {0}, JGd[3 * NS] = {0}, Jkd[3 * NS] = {0};
  double Je[6 * NS], Jed[6 * NS], JF[6 * NS] = {0}, JV[6 * NS], JA[6 * NS];
  double JP[6 * NS] = {0}, JPd[6 * NS] = {0};
  double Jht[3 * NS] = {0}, Jmi[3 * NS] = {0}, Jc1[3 * NS] = {0};
  double Rt[9], S[9], SL[12], D[12], X[16];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      Rt[3 * i + j] = R[3 * j + i];
    }
  }
  // R^T y for y an input: R^T dy + skew(R^T y) Lam dp
#define ROTT(J, y, col)                        \
  do {                                         \
    blk_put(J, NS, 0, col, Rt, 3, 3, 1);       \
    m3_skew(S, y);                             \
    memset(SL, 0, sizeof(SL));                 \
    blk_mm(SL, 4, S, 3, f.Lam, 4, 3, 3, 4, 1); \
    blk_put(J, NS, 0, CP, SL, 3, 4, 1);        \
  } while (0)
  ROTT(JG, G, CX1);
  ROTT(Ju, u, CXD);
  ROTT(Jud, w1, CXDD);  // R^T xdd, then - w x u below
  ROTT(JGd, w2, CXD1);  // R^T xd1, then + G x w below
#undef ROTT
  blk_put(Jk, NS, 0, CP, Dp1, 3, 4, 1);
  blk_put(Jk, NS, 0, CP1, f.Lam, 3, 4, 1);
  blk_put(Jw, NS, 0, CP, Dpd, 3, 4, 1);
  blk_put(Jw, NS, 0, CPD, f.Lam, 3, 4, 1);
  // ud = R^T xdd - w x u
  m3_skew(S, w);
  mmI(Jud, S, 3, Ju, 3, 3, -1);
  m3_skew(S, u);
  mmI(Jud, S, 3, Jw, 3, 3, 1);
  // wd = Lam pdd + D_Lam(pd) pd
  qm_dLam(D, &f, s->pdd);
  blk_put(Jwd, NS, 0, CP, D, 3, 4, 1);
  blk_put(Jwd, NS, 0, CPDD, f.Lam, 3, 4, 1);
  qm_d2Lam(D, &f, s->pd, s->pd);
  blk_put(Jwd, NS, 0, CP, D, 3, 4, 1);
  qm_dLamDb(D, &f, s->pd);
  blk_put(Jwd, NS, 0, CPD, D, 3, 4, 1);
  blk_put(Jwd, NS, 0, CPD, Dpd, 3, 4, 1);
  // Gd = R^T xd1 + G x w
  m3_skew(S, w);
  mmF(JGd, S, 3, JG, 3, 3, -1);
  m3_skew(S, G);
  mmF(JGd, S, 3, Jw, 3, 3, 1);
  // kd = Lam pd1 + D_Lam(p1) pd
  qm_dLam(D, &f, s->pd1);
  blk_put(Jkd, NS, 0, CP, D, 3, 4, 1);
  blk_put(Jkd, NS, 0, CPD1, f.Lam, 3, 4, 1);
  qm_d2Lam(D, &f, s->p1, s->pd);
  blk_put(Jkd, NS, 0, CP, D, 3, 4, 1);
  qm_dLamDb(D, &f, s->pd);
  blk_put(Jkd, NS, 0, CP1, D, 3, 4, 1);
  blk_put(Jkd, NS, 0, CPD, Dp1, 3, 4, 1);
  // F = K e + D ed
  memcpy(Je, JG, sizeof(JG));
  memcpy(Je + 3 * NS, Jk, sizeof(Jk));
  memcpy(Jed, JGd, sizeof(JGd));
  memcpy(Jed + 3 * NS, Jkd, sizeof(Jkd));
  mmF(JF, sp->K, 6, Je, 6, 6, 1);
  mmF(JF, sp->D, 6, Jed, 6, 6, 1);
  if (sp->et) {
    extension_twist_jacobian(sp->et, e, Je, JF);
  }
  const double* JN = JF;
  const double* JM = JF + 3 * NS;
  // P, Pd
  memcpy(JV, Ju, sizeof(Ju));
  memcpy(JV + 3 * NS, Jw, sizeof(Jw));
  memcpy(JA, Jud, sizeof(Jud));
  memcpy(JA + 3 * NS, Jwd, sizeof(Jwd));
  mmI(JP, sp->M, 6, JV, 6, 6, 1);
  mmI(JPd, sp->M, 6, JA, 6, 6, 1);
  // ht = Pd_t + w x P_t (- f_follow)
  memcpy(Jht, JPd, sizeof(Jht));
  m3_skew(S, P);
  mmI(Jht, S, 3, Jw, 3, 3, -1);
  m3_skew(S, w);
  mmI(Jht, S, 3, JP, 3, 3, 1);
  // mi = Pd_r + w x P_r + u x P_t
  memcpy(Jmi, JPd + 3 * NS, sizeof(Jmi));
  m3_skew(S, P + 3);
  mmI(Jmi, S, 3, Jw, 3, 3, -1);
  m3_skew(S, w);
  mmI(Jmi, S, 3, JP + 3 * NS, 3, 3, 1);
  m3_skew(S, P);
  mmI(Jmi, S, 3, Ju, 3, 3, -1);
  m3_skew(S, u);
  mmI(Jmi, S, 3, JP, 3, 3, 1);
  // c1 = N x G + mi - me
  m3_skew(S, G);
  mmF(Jc1, S, 3, JN, 3, 3, -1);
  m3_skew(S, N);
  mmF(Jc1, S, 3, JG, 3, 3, 1);
  for (int k = 0; k < 3 * NS; k++) {
    Jc1[k] += Jmi[k];
  }
  if (ld) {
    // me = meta x (R^T g) + R^T m_dead + m_follow: d me = [skew(meta) skew(rg) + skew(rmd)] Lam dp
    double S2[9], B[9];
    m3_skew(S, meta);
    m3_skew(S2, rg);
    m3_mul(B, S, S2);
    m3_skew(S2, rmd);
    for (int k = 0; k < 9; k++) {
      B[k] += S2[k];
    }
    memset(SL, 0, sizeof(SL));
    blk_mm(SL, 4, B, 3, f.Lam, 4, 3, 3, 4, 1);
    blk_put(Jc1, NS, 0, CP, SL, 3, 4, -1);
  }
  // ----- densities
  memset(Ja, 0, sizeof(double) * NA * NS);
  // a_x = R ht - ...: R dht - R skew(ht) Lam dp
  mmI(Ja + AX * NS, R, 3, Jht, 3, 3, 1);
  rotated_density(Ja, AX, R, ht, f.Lam);
  // a_x1 = R N
  mmF(Ja + AX1 * NS, R, 3, JN, 3, 3, 1);
  rotated_density(Ja, AX1, R, N, f.Lam);
  if (interp) {
    // a_p = R c1, a_p1 = R M: R dy - R skew(y) Lam dp
    mmA(Ja + AP * NS, R, 3, Jc1, 3, 3, 1);
    rotated_density(Ja, AP, R, c1, f.Lam);
    mmF(Ja + AP1 * NS, R, 3, JM, 3, 3, 1);
    rotated_density(Ja, AP1, R, Mm, f.Lam);
    return;
  }
  // a_p = Lam^T c1 + D_Lam(p1)^T M
  qm_dLamT(X, &f, c1);
  blk_put(Ja, NS, AP, CP, X, 4, 4, 1);
  mtmA(Ja + AP * NS, f.Lam, 4, Jc1, 4, 3, 1);
  qm_d2LamT(X, &f, s->p1, Mm);
  blk_put(Ja, NS, AP, CP, X, 4, 4, 1);
  qm_dLamTDb(X, &f, Mm);
  blk_put(Ja, NS, AP, CP1, X, 4, 4, 1);
  mtmF(Ja + AP * NS, Dp1, 4, JM, 4, 3, 1);
  // a_p1 = Lam^T M
  qm_dLamT(X, &f, Mm);
  blk_put(Ja, NS, AP1, CP, X, 4, 4, 1);
  mtmF(Ja + AP1 * NS, f.Lam, 4, JM, 4, 3, 1);
}
