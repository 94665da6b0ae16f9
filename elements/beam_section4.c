// SPDX-License-Identifier: MIT
// The beam's residual-only section kernel, four quadrature points at a time: the formulas of
// densities() in elements/beam_section.c with every scalar an rdV4 over four points (their
// sections stored value by value, rdSectionProp4), so the 6x6 products and the quaternion and
// rotation algebra run four points per operation.
#include "elements/beam_section4.h"

#include "elements/beam_section.h"
#include "src/math/blk.h"
#include "src/math/simd.h"

// rows of 4 lanes
#define LD(x) ((rdV4)V4LD(x))


// y = a x b (3 rows)
RD_HOT void cross4(rdV4 y[3], const rdV4 a[3], const rdV4 b[3]) {
  rdV4 y0 = a[1] * b[2] - a[2] * b[1];
  rdV4 y1 = a[2] * b[0] - a[0] * b[2];
  rdV4 y2 = a[0] * b[1] - a[1] * b[0];
  y[0] = y0;
  y[1] = y1;
  y[2] = y2;
}


// y = R x, y = R^T x for a 3x3 R of rows (row-major, 9 values)
RD_HOT void mul4(rdV4 y[3], const rdV4 R[9], const rdV4 x[3]) {
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    y[i] = R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2];
  }
}


RD_HOT void tmul4(rdV4 y[3], const rdV4 R[9], const rdV4 x[3]) {
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    y[i] = R[i] * x[0] + R[3 + i] * x[1] + R[6 + i] * x[2];
  }
}


// y = R x for a broadcast x (a global vector)
RD_HOT void tmul4b(rdV4 y[3], const rdV4 R[9], const double x[3]) {
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    y[i] = R[i] * x[0] + R[3 + i] * x[1] + R[6 + i] * x[2];
  }
}


// vec(conj(a) (x) b) = a0 bv - b0 av + bv x av (qvec of elements/beam_section.c)
RD_HOT void qvec4(rdV4 y[3], const rdV4 a[4], const rdV4 b[4]) {
  rdV4 y0 = a[0] * b[1] - b[0] * a[1] + b[2] * a[3] - b[3] * a[2];
  rdV4 y1 = a[0] * b[2] - b[0] * a[2] + b[3] * a[1] - b[1] * a[3];
  rdV4 y2 = a[0] * b[3] - b[0] * a[3] + b[1] * a[2] - b[2] * a[1];
  y[0] = y0;
  y[1] = y1;
  y[2] = y2;
}


// y = A x for a 6x6 A of rows (36 values)
RD_HOT void m6_mul4(rdV4 y[6], const double (*A)[4], const rdV4 x[6]) {
#pragma GCC unroll 6
  for (int i = 0; i < 6; i++) {
    const double(*a)[4] = A + 6 * i;
    rdV4 s = LD(a[0]) * x[0];
#pragma GCC unroll 5
    for (int j = 1; j < 6; j++) {
      s = s + LD(a[j]) * x[j];
    }
    y[i] = s;
  }
}


// the 4x4 block of rows r0 .. r3 (lanes = points) stored by point: out[l * stride + i] = ri[l]
// (a macro: a vector argument by value is an ABI warning for clang's generic clone)
#if defined(__clang__)
#define SHUF4(a, b, i, j, k, l) __builtin_shufflevector((a), (b), i, j, k, l)
#else
typedef long long rdM4 __attribute__((vector_size(32)));
#define SHUF4(a, b, i, j, k, l) __builtin_shuffle((a), (b), (rdM4){i, j, k, l})
#endif
#define STORE_BY_POINT(out, stride, r0, r1, r2, r3)          \
  do {                                                       \
    rdV4 t0_ = SHUF4((r0), (r1), 0, 4, 2, 6);                \
    rdV4 t1_ = SHUF4((r0), (r1), 1, 5, 3, 7);                \
    rdV4 t2_ = SHUF4((r2), (r3), 0, 4, 2, 6);                \
    rdV4 t3_ = SHUF4((r2), (r3), 1, 5, 3, 7);                \
    V4ST((out), SHUF4(t0_, t2_, 0, 1, 4, 5));                \
    V4ST((out) + (stride), SHUF4(t1_, t3_, 0, 1, 4, 5));     \
    V4ST((out) + 2 * (stride), SHUF4(t0_, t2_, 2, 3, 6, 7)); \
    V4ST((out) + 3 * (stride), SHUF4(t1_, t3_, 2, 3, 6, 7)); \
  } while (0)


// L(p)^T v (4 rows): the transpose of the rows of rows_L (elements/beam_section.c)
RD_HOT void ltv4(rdV4 y[4], const rdV4 p[4], const rdV4 v[3]) {
  y[0] = -v[0] * p[1] - v[1] * p[2] - v[2] * p[3];
  y[1] = v[0] * p[0] - v[1] * p[3] + v[2] * p[2];
  y[2] = v[0] * p[3] + v[1] * p[0] - v[2] * p[1];
  y[3] = -v[0] * p[2] + v[1] * p[1] + v[2] * p[0];
}


// Lr(b)^T v (4 rows): the transpose of the rows of rows_Lr
RD_HOT void lrtv4(rdV4 y[4], const rdV4 b[4], const rdV4 v[3]) {
  y[0] = v[0] * b[1] + v[1] * b[2] + v[2] * b[3];
  y[1] = -v[0] * b[0] + v[1] * b[3] - v[2] * b[2];
  y[2] = -v[0] * b[3] - v[1] * b[0] + v[2] * b[1];
  y[3] = v[0] * b[2] - v[1] * b[1] - v[2] * b[0];
}


RD_CLONES void rd_beamSectionResidual4(const double (*sv)[4], const double (*sd)[4],
                                       const rdSectionProp4* sp, int et, const rdBeamLoads* ld,
                                       const double (*follow)[4], int interp, double (*a)[16],
                                       double (*F)[8]) {
  // the inputs are loaded where they are first needed (fewer values live at once)
  rdV4 p[4], p1[4], pd[4], pd1[4], pdd[4], x1[3], xd[3], xdd[3], xd1[3];
#pragma GCC unroll 4
  for (int i = 0; i < 4; i++) {
    p[i] = LD(sv[NV_Q + i]);
  }
  // c = 2 / |p|^2 and R(p / |p|) (rdu_quatToMat)
  rdV4 n2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3];
  rdV4 c = 2 / n2;
  rdV4 R[9];
  {
    rdV4 w = p[0], x = p[1], y = p[2], z = p[3];
    rdV4 xx = c * x * x, yy = c * y * y, zz = c * z * z;
    rdV4 xy = c * x * y, xz = c * x * z, yz = c * y * z;
    rdV4 wx = c * w * x, wy = c * w * y, wz = c * w * z;
    R[0] = 1.0 - yy - zz, R[1] = xy - wz, R[2] = xz + wy;
    R[3] = xy + wz, R[4] = 1.0 - xx - zz, R[5] = yz - wx;
    R[6] = xz - wy, R[7] = yz + wx, R[8] = 1.0 - xx - yy;
  }
  // kinematics: kappa = Lam p', w = Lam pd, wd = Lam pdd + D_Lam(pd) pd,
  // kd = Lam pd' + D_Lam(p') pd, ud = R^T xdd - w x u, Gd = R^T xd' + G x w, with
  // D_Lam(b) d = c [vec(conj(d) (x) b) - (p . d) Lam b] (vec(conj(pd) (x) pd) = 0)
  rdV4 kap[3], w[3], G[3], u[3], w1[3], w2[3], ud[3], wd[3], Gd[3], kd[3], t[3], y[3];
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    x1[i] = LD(sd[NV_X + i]);
    xd[i] = LD(sv[NV_XD + i]);
    xdd[i] = LD(sv[NV_XDD + i]);
    xd1[i] = LD(sd[NV_XD + i]);
  }
  tmul4(G, R, x1);
  tmul4(u, R, xd);
  tmul4(w1, R, xdd);
  tmul4(w2, R, xd1);
#pragma GCC unroll 4
  for (int i = 0; i < 4; i++) {
    p1[i] = LD(sd[NV_Q + i]);
    pd[i] = LD(sv[NV_QD + i]);
    pd1[i] = LD(sd[NV_QD + i]);
    pdd[i] = LD(sv[NV_QDD + i]);
  }
  qvec4(kap, p, p1);
  qvec4(w, p, pd);
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    kap[i] = c * kap[i];
    w[i] = c * w[i];
  }
  cross4(t, w, u);
  rdV4 ppd = p[0] * pd[0] + p[1] * pd[1] + p[2] * pd[2] + p[3] * pd[3];
  qvec4(wd, p, pdd);
  qvec4(kd, p, pd1);
  qvec4(y, pd, p1);
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    ud[i] = w1[i] - t[i];
    wd[i] = c * wd[i] + c * (-(ppd * w[i]));
    kd[i] = c * kd[i] + c * (y[i] - ppd * kap[i]);
  }
  cross4(t, G, w);
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    Gd[i] = w2[i] + t[i];
  }
  // sectional forces F = K e + D ed (+ the extension-twist term)
  rdV4 e[6], ed[6], f[6], fd[6];
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    e[i] = G[i] - LD(sp->G0[i]);
    e[3 + i] = kap[i] - LD(sp->k0[i]);
    ed[i] = Gd[i];
    ed[3 + i] = kd[i];
  }
  m6_mul4(f, sp->K, e);
  m6_mul4(fd, sp->D, ed);
#pragma GCC unroll 6
  for (int i = 0; i < 6; i++) {
    f[i] += fd[i];
  }
  if (et) {
    // N += 1/2 cet k1^2 t, M += cet e1 k1 t
    rdV4 t0 = LD(sp->et[0]), t1 = LD(sp->et[1]), t2 = LD(sp->et[2]), ce = LD(sp->et[3]);
    rdV4 e1 = t0 * e[0] + t1 * e[1] + t2 * e[2];
    rdV4 k1 = t0 * e[3] + t1 * e[4] + t2 * e[5];
    rdV4 sn = 0.5 * ce * k1 * k1, sm = ce * e1 * k1;
    f[0] += sn * t0;
    f[1] += sn * t1;
    f[2] += sn * t2;
    f[3] += sm * t0;
    f[4] += sm * t1;
    f[5] += sm * t2;
  }
  const rdV4* N = f;
  const rdV4* Mm = f + 3;
  // inertia: P = Ms [u; w], Pd = Ms [ud; wd]; ht = Pd_t + w x P_t, mi = Pd_r + w x P_r + u x P_t
  rdV4 V[6], A[6], P[6], Pd[6], ht[3], mi[3];
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    V[i] = u[i];
    V[3 + i] = w[i];
    A[i] = ud[i];
    A[3 + i] = wd[i];
  }
  m6_mul4(P, sp->M, V);
  m6_mul4(Pd, sp->M, A);
  cross4(t, w, P);
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    ht[i] = Pd[i] + t[i];
  }
  cross4(t, w, P + 3);
  cross4(y, u, P);
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    mi[i] = Pd[3 + i] + t[i] + y[i];
  }
  // applied: gravity (m g, m eta x R^T g), dead and follower loads; c1 = N x G + mi - me
  rdV4 c1[3];
  cross4(c1, N, G);
#pragma GCC unroll 3
  for (int i = 0; i < 3; i++) {
    c1[i] += mi[i];
  }
  if (ld) {
    const double(*M)[4] = sp->M;
    rdV4 meta[3], rg[3], rmd[3];
    meta[0] = 0.5 * (LD(M[6 * 5 + 1]) - LD(M[6 * 4 + 2]));
    meta[1] = 0.5 * (LD(M[6 * 3 + 2]) - LD(M[6 * 5 + 0]));
    meta[2] = 0.5 * (LD(M[6 * 4 + 0]) - LD(M[6 * 3 + 1]));
    tmul4b(rg, R, ld->gravity);
    tmul4b(rmd, R, ld->m_dead);
    cross4(t, meta, rg);
#pragma GCC unroll 3
    for (int i = 0; i < 3; i++) {
      rdV4 ff = follow ? LD(follow[i]) : V4B(ld->f_follow[i]);
      rdV4 mf = follow ? LD(follow[3 + i]) : V4B(ld->m_follow[i]);
      c1[i] -= (t[i] + rmd[i]) + mf;
      ht[i] -= ff;
    }
  }
  // densities: a_x = R ht (- m g - f_dead), a_x' = R N; a_p, a_p' as in densities()
  rdV4 ax[3], ax1[3], ap[4], ap1[4];
  mul4(ax, R, ht);
  mul4(ax1, R, N);
  if (ld) {
#pragma GCC unroll 3
    for (int i = 0; i < 3; i++) {
      ax[i] -= LD(sp->M[0]) * ld->gravity[i] + ld->f_dead[i];
    }
  }
  if (interp) {
    mul4(ap, R, c1);
    mul4(ap1, R, Mm);
    ap[3] = ap1[3] = V4ZERO;
  } else {
    // a_p = Lam^T c1 + D_Lam(p')^T M, a_p' = Lam^T M with Lam = c L(p),
    // D_Lam(p') = c [Lr(p') - (Lam p') p^T]
    rdV4 lc[4], lm[4], dm[4];
    ltv4(lc, p, c1);
    ltv4(lm, p, Mm);
    lrtv4(dm, p1, Mm);
    rdV4 km = kap[0] * Mm[0] + kap[1] * Mm[1] + kap[2] * Mm[2];
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) {
      ap[k] = c * lc[k] + c * (dm[k] - km * p[k]);
      ap1[k] = c * lm[k];
    }
  }
  // by point: a rows AX, AX1, AP, AP1 (and two unused), F
  STORE_BY_POINT(a[0] + AX, 16, ax[0], ax[1], ax[2], ax1[0]);
  STORE_BY_POINT(a[0] + AX1 + 1, 16, ax1[1], ax1[2], ap[0], ap[1]);
  STORE_BY_POINT(a[0] + AP + 2, 16, ap[2], ap[3], ap1[0], ap1[1]);
  STORE_BY_POINT(a[0] + AP1 + 2, 16, ap1[2], ap1[3], V4ZERO, V4ZERO);
  STORE_BY_POINT(F[0], 8, f[0], f[1], f[2], f[3]);
  STORE_BY_POINT(F[0] + 4, 8, f[4], f[5], V4ZERO, V4ZERO);
}
