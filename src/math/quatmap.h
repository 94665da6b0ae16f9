// SPDX-License-Identifier: MIT
// Quaternion maps (w first) as matrices, and the derivatives of the angular map of a quaternion
// field (the beam's normalized-quaternion interpolation, docs/beam.md):
//   L(d) b = vec(conj(d) (x) b) = Lr(b) d,  Lc(c) p = L(p)^T c,  Q(q) y = q (x) y,
//   (0, a) (x) (0, b) = Y(b) a,  Lam(p) = 2 L(p) / |p|^2.
#ifndef RD_QUATMAP_H
#define RD_QUATMAP_H

#include "src/math/blk.h"
#include "src/math/quat.h"

// L(d) (3x4): L(d) b = vec(conj(d) (x) b)
static inline void qm_L(double L[12], const double d[4]) {
  double S[9];
  m3_skew(S, d + 1);
  for (int i = 0; i < 3; i++) {
    L[4 * i] = -d[1 + i];
    for (int j = 0; j < 3; j++) {
      L[4 * i + 1 + j] = (i == j ? d[0] : 0) - S[3 * i + j];
    }
  }
}


// Lr(b) (3x4): Lr(b) d = vec(conj(d) (x) b)
static inline void qm_Lr(double L[12], const double b[4]) {
  double S[9];
  m3_skew(S, b + 1);
  for (int i = 0; i < 3; i++) {
    L[4 * i] = b[1 + i];
    for (int j = 0; j < 3; j++) {
      L[4 * i + 1 + j] = (i == j ? -b[0] : 0) + S[3 * i + j];
    }
  }
}


// Lc(c) = [0, -c^T; c, -skew(c)] (4x4); tr != 0 gives Lc^T
static inline void qm_Lc(double P[16], const double c[3], int tr) {
  double S[9];
  m3_skew(S, c);
  double s = tr ? -1 : 1;
  P[0] = 0;
  for (int i = 0; i < 3; i++) {
    P[1 + i] = -s * c[i];
    P[4 * (1 + i)] = s * c[i];
    for (int j = 0; j < 3; j++) {
      P[4 * (1 + i) + 1 + j] = -s * S[3 * i + j];
    }
  }
}


// left product matrix: q (x) y = Q(q) y
static inline void qm_Q(double Q[16], const double q[4]) {
  double S[9];
  m3_skew(S, q + 1);
  Q[0] = q[0];
  for (int i = 0; i < 3; i++) {
    Q[1 + i] = -q[1 + i];
    Q[4 * (1 + i)] = q[1 + i];
    for (int j = 0; j < 3; j++) {
      Q[4 * (1 + i) + 1 + j] = (i == j ? q[0] : 0) + S[3 * i + j];
    }
  }
}


// (0, a) (x) (0, b) = Y(b) a: Y(b) = [-b^T; -skew(b)] (4x3)
static inline void qm_Y(double Y[12], const double b[3]) {
  double S[9];
  m3_skew(S, b);
  for (int j = 0; j < 3; j++) {
    Y[j] = -b[j];
    for (int i = 0; i < 3; i++) {
      Y[3 * (1 + i) + j] = -S[3 * i + j];
    }
  }
}


// a quaternion field at one point: p, 2/|p|^2 and Lam (qm_field)
typedef struct {
  const double* p;
  double c;        // 2 / |p|^2
  double Lam[12];  // 3x4
} qmField;


// D_Lam(b) = d(Lam b)/dp = c [Lr(b) - (Lam b) p^T]
static inline void qm_dLam(double D[12], const qmField* f, const double b[4]) {
  double Lb[3] = {0};
  blk_mm(Lb, 1, f->Lam, 4, b, 1, 3, 4, 1, 1);
  qm_Lr(D, b);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 4; j++) {
      D[4 * i + j] = f->c * (D[4 * i + j] - Lb[i] * f->p[j]);
    }
  }
}


// d/db [D_Lam(b) d] = c [L(d) - (p.d) Lam]
static inline void qm_dLamDb(double D[12], const qmField* f, const double d[4]) {
  double pd = q4_dot(f->p, d);
  qm_L(D, d);
  for (int k = 0; k < 12; k++) {
    D[k] = f->c * (D[k] - pd * f->Lam[k]);
  }
}


// d/dp [D_Lam(b) d] = -c [(D_Lam(b) d) p^T + (Lam b) d^T + (p.d) D_Lam(b)]
static inline void qm_d2Lam(double D[12], const qmField* f, const double b[4], const double d[4]) {
  double Db[12], Dbd[3] = {0}, Lb[3] = {0};
  qm_dLam(Db, f, b);
  blk_mm(Dbd, 1, Db, 4, d, 1, 3, 4, 1, 1);
  blk_mm(Lb, 1, f->Lam, 4, b, 1, 3, 4, 1, 1);
  double pd = q4_dot(f->p, d);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 4; j++) {
      D[4 * i + j] = -f->c * (Dbd[i] * f->p[j] + Lb[i] * d[j] + pd * Db[4 * i + j]);
    }
  }
}


// d/dp [Lam^T c] = c [Lc(c) - (Lam^T c) p^T] (4x4)
static inline void qm_dLamT(double P[16], const qmField* f, const double cv[3]) {
  double Ltc[4] = {0};
  blk_mtm(Ltc, 1, f->Lam, 4, cv, 1, 4, 3, 1, 1);
  qm_Lc(P, cv, 0);
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 4; j++) {
      P[4 * i + j] = f->c * (P[4 * i + j] - Ltc[i] * f->p[j]);
    }
  }
}


// d/dp [D_Lam(b)^T c] = -c [(D_Lam(b)^T c) p^T + (c.Lam b) I + p (c^T D_Lam(b))] (4x4)
static inline void qm_d2LamT(double P[16], const qmField* f, const double b[4],
                             const double cv[3]) {
  double Db[12], Dtc[4] = {0}, Lb[3] = {0};
  qm_dLam(Db, f, b);
  blk_mtm(Dtc, 1, Db, 4, cv, 1, 4, 3, 1, 1);
  blk_mm(Lb, 1, f->Lam, 4, b, 1, 3, 4, 1, 1);
  double cl = v3_dot(cv, Lb);
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 4; j++) {
      P[4 * i + j] = -f->c * (Dtc[i] * f->p[j] + (i == j ? cl : 0) + f->p[i] * Dtc[j]);
    }
  }
}


// d/db [D_Lam(b)^T c] = c [Lc(c)^T - p c^T Lam] (4x4)
static inline void qm_dLamTDb(double P[16], const qmField* f, const double cv[3]) {
  double cL[4] = {0};
  blk_mtm(cL, 1, f->Lam, 4, cv, 1, 4, 3, 1, 1);
  qm_Lc(P, cv, 1);
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 4; j++) {
      P[4 * i + j] = f->c * (P[4 * i + j] - f->p[i] * cL[j]);
    }
  }
}


// the field at p: p, c = 2 / |p|^2 and Lam = c L(p)
static inline void qm_field(qmField* f, const double p[4]) {
  f->p = p;
  f->c = 2 / q4_dot(p, p);
  qm_L(f->Lam, p);
  for (int k = 0; k < 12; k++) {
    f->Lam[k] *= f->c;
  }
}

#endif  // RD_QUATMAP_H
