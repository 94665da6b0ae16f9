// SPDX-License-Identifier: MIT
// BeamDyn's reference line: least-squares fit of the key points and the section frames at the
// element's nodes (src/beamdyn.h, docs/import.md).
#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "src/core/core.h"
#include "src/io/beamdyn.h"
#include "src/math/quadrature.h"
#include "src/math/vec3.h"

// last: lapacke.h brings complex.h
#include "src/core/lapack.h"

// x, y, z and the twist are fitted as polynomials of degree q - 1, q = min(n, nkp), in the
// parameter t = 2 (z - z_0) / (z_end - z_0) - 1 of the key points: Lagrange basis at the q GLL
// points of [-1, 1], least squares over the key points, the first and last coefficients fixed
// to the end key points. The nodes sit at the n GLL points of t.

// the fitted coefficients c (q x 4: x, y, z, twist at the q GLL points)
static int kp_fit(rdContext* ctx, int nk, const double* kp, int q, double* c) {
  double tg[RD_BEAM_MAX_NODES], phi[RD_BEAM_MAX_NODES], dphi[RD_BEAM_MAX_NODES];
  double A[RD_BEAM_MAX_NODES * RD_BEAM_MAX_NODES];
  lapack_int piv[RD_BEAM_MAX_NODES];
  int st = rd_gaussLobatto(q, tg);
  if (st) {
    return RD_ERROR(ctx, RD_ERR_ARG, "key-point fit of order %d", q - 1);
  }
  memset(A, 0, sizeof(double) * (size_t)(q * q));
  memset(c, 0, sizeof(double) * 4 * (size_t)q);
  double z0 = kp[2], z1 = kp[4 * (nk - 1) + 2];
  for (int i = 0; i < nk; i++) {
    double t = 2 * (kp[4 * i + 2] - z0) / (z1 - z0) - 1;
    rd_lagrangeBasis(q, tg, t, phi, dphi);
    for (int a = 0; a < q; a++) {
      for (int b = 0; b < q; b++) {
        A[q * a + b] += phi[a] * phi[b];
      }
      for (int j = 0; j < 4; j++) {
        c[4 * a + j] += phi[a] * kp[4 * i + j];
      }
    }
  }
  // the ends interpolate the first and last key points
  for (int b = 0; b < q; b++) {
    A[b] = A[q * (q - 1) + b] = 0;
  }
  A[0] = A[q * q - 1] = 1;
  for (int j = 0; j < 4; j++) {
    c[j] = kp[j];
    c[4 * (q - 1) + j] = kp[4 * (nk - 1) + j];
  }
  const rdLapack* la = rd_lapack(ctx, "BeamDyn key-point fit");
  if (!la) {
    return RD_ERR_IO;
  }
  lapack_int info = la->dgesv(LAPACK_ROW_MAJOR, q, 4, A, q, piv, c, 4);
  if (info != 0) {
    return RD_ERROR(ctx, RD_ERR_DECK, "key-point fit: singular least-squares system (%d)",
                    (int)info);
  }
  return RD_OK;
}


int rd_bdNodes(rdContext* ctx, const rdBdPrimary* p, const double pos[3], const double Rb[9],
               rdBdNodes* out) {
  int n = p->order + 1, nk = p->nkp;
  int q = n < nk ? n : nk;
  out->n = n;
  double c[4 * RD_BEAM_MAX_NODES], xi[RD_BEAM_MAX_NODES], tq[RD_BEAM_MAX_NODES];
  int st = kp_fit(ctx, nk, p->kp, q, c);
  if (!st)
    st = rd_gaussLobatto(n, xi);
  if (!st)
    st = rd_gaussLobatto(q, tq);
  for (int k = 0; k < n && !st; k++) {
    double phi[RD_BEAM_MAX_NODES], dphi[RD_BEAM_MAX_NODES], x[3] = {0}, e3[3] = {0}, tw = 0;
    rd_lagrangeBasis(q, tq, xi[k], phi, dphi);
    for (int a = 0; a < q; a++) {
      for (int i = 0; i < 3; i++) {
        x[i] += phi[a] * c[4 * a + i];
        e3[i] += dphi[a] * c[4 * a + i];
      }
      tw += phi[a] * c[4 * a + 3];
    }
    double l3 = v3_norm(e3);
    for (int i = 0; i < 3; i++)
      e3[i] /= l3;
    // BeamDyn's section frame: e1 normal to the tangent e3 with no y component, e2 = e3 x e1,
    // then both turned about e3 by -twist (BeamDyn negates the input twist: its N1Fxl is
    // RootFxr turned by -13.308 deg in the r-test output)
    double e1[3], e2[3];
    e1[2] = -e3[0] / sqrt(e3[0] * e3[0] + e3[2] * e3[2]);
    e1[0] = sqrt(1 - e1[2] * e1[2]);
    e1[1] = 0;
    v3_cross(e2, e3, e1);
    double ph = -tw * 3.14159265358979323846 / 180, cs = cos(ph), sn = sin(ph);
    double f1[3], f2[3];
    for (int i = 0; i < 3; i++) {
      f1[i] = cs * e1[i] + sn * e2[i];
      f2[i] = -sn * e1[i] + cs * e2[i];
    }
    // our body axes (x along the beam) = BeamDyn's (e3, e1, e2), then to global
    double F[9], R[9];
    for (int i = 0; i < 3; i++) {
      F[3 * i + 0] = e3[i];
      F[3 * i + 1] = f1[i];
      F[3 * i + 2] = f2[i];
    }
    for (int i = 0; i < 3; i++) {
      out->x[k][i] = pos[i];
      for (int j = 0; j < 3; j++) {
        out->x[k][i] += Rb[3 * i + j] * x[j];
        R[3 * i + j] = 0;
        for (int l = 0; l < 3; l++)
          R[3 * i + j] += Rb[3 * i + l] * F[3 * l + j];
      }
    }
    rdu_matToQuat(out->q[k], R);
  }
  return st;
}
