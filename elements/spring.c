// SPDX-License-Identifier: MIT
// Spring-damper along the line of two nodes (or a node and a ground point): tension
// N = k1 e + k2 e^2 + k3 e^3 + c de/dt, e = |d| - l0, d = x1 - x0; force N n on node 0.
#include <math.h>

#include "elements/element.h"
#include "src/math/blk.h"

void rd_springEval(const rdModel* m, const rdSpringDef* s, const double* q, const double* v,
                   int jac, rdElemEval* ev) {
  int n0 = s->node[0], n1 = s->node[1];
  rd_elemLayout(m, ev, n0, n1);
  double x1[3], v1[3] = {0, 0, 0};
  if (n1 >= 0) {
    v3_copy(x1, q + 7 * n1);
    v3_copy(v1, v + 6 * n1);
  } else {
    v3_copy(x1, s->anchor);
  }
  double d[3], dv[3];
  v3_sub(d, x1, q + 7 * n0);
  v3_sub(dv, v1, v + 6 * n0);
  double L = v3_norm(d);
  double F[3] = {0, 0, 0}, Kd[9] = {0}, Cd[9] = {0};
  const double* k = s->stiffness;
  if (L > 0) {
    double nv[3];
    v3_scale(nv, d, 1 / L);
    double e = L - s->rest_length;
    double edot = v3_dot(nv, dv);
    double N = e * (k[0] + e * (k[1] + e * k[2])) + s->damping * edot;
    double kt = k[0] + e * (2 * k[1] + 3 * e * k[2]);
    v3_scale(F, nv, N);
    // P dv / L: the rate of the direction
    double Pdv[3];
    for (int i = 0; i < 3; i++) {
      Pdv[i] = (dv[i] - nv[i] * edot) / L;
    }
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        double P = (i == j) - nv[i] * nv[j];
        Kd[3 * i + j] = kt * nv[i] * nv[j] + N / L * P + s->damping * nv[i] * Pdv[j];
        Cd[3 * i + j] = s->damping * nv[i] * nv[j];
      }
    }
  } else {
    // coincident ends: direction undefined; linear part only
    Kd[0] = Kd[4] = Kd[8] = k[0];
  }
  int o1 = ev->nnode > 1 ? ev->off[1] : -1;
  for (int i = 0; i < 3; i++) {
    ev->r[i] = -F[i];
    if (o1 >= 0) {
      ev->r[o1 + i] = F[i];
    }
  }
  if (!jac) {
    return;
  }
  int n = ev->n;
  blk_add(ev->K, n, 0, 0, Kd, 1);
  blk_add(ev->C, n, 0, 0, Cd, 1);
  if (o1 >= 0) {
    blk_add(ev->K, n, 0, o1, Kd, -1);
    blk_add(ev->K, n, o1, 0, Kd, -1);
    blk_add(ev->K, n, o1, o1, Kd, 1);
    blk_add(ev->C, n, 0, o1, Cd, -1);
    blk_add(ev->C, n, o1, 0, Cd, -1);
    blk_add(ev->C, n, o1, o1, Cd, 1);
  }
}
