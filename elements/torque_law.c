// SPDX-License-Identifier: MIT
// Torque laws on rigid nodes: the coulomb wall (with its potential), user formulas of t, R and
// the angular velocity, host callbacks.
#include <math.h>

#include "elements/loads.h"
#include "rodrigues/liegroup.h"
#include "src/core/core.h"
#include "src/math/vec3.h"

// spatial torque of the coulomb potential with soft wall (Krysl & Endres 2005, §3.6):
// (-(a + R33)^-2 + c (a + R33)^-11) (-R23, R13, 0)
static void coulomb_wall(double torque[3], const double R[9], double a, double c) {
  double s = a + R[8];
  double k = -1 / (s * s) + c * pow(s, -11);
  torque[0] = -k * R[5];
  torque[1] = k * R[2];
  torque[2] = 0;
}


int rd_torqueLawEval(const rdModel* m, int i, double t, const double* q, const double* v,
                     double torque[3]) {
  const rdTorqueLaw* tl = &m->torque[i];
  double R[9];
  rdu_quatToMat(R, q + 7 * tl->def.node + 3);
  switch (tl->def.type) {
    case RD_TORQUE_COULOMB_WALL:
      coulomb_wall(torque, R, tl->def.param[0], tl->def.param[1]);
      return RD_OK;
    case RD_TORQUE_EXPRESSION: {
      // the node's angular velocity, body (W) and global (w = R W)
      const double* W = v + 6 * tl->def.node + 3;
      double w[3];
      m3_mulv(w, R, W);
      double vars[16] = {t,    R[0], R[1], R[2], R[3], R[4], R[5], R[6],
                         R[7], R[8], w[0], w[1], w[2], W[0], W[1], W[2]};
      for (int k = 0; k < 3; k++) {
        torque[k] = rd_exprEval(&tl->expr[k], vars);
      }
      return RD_OK;
    }
    case RD_TORQUE_CALLBACK: {
      int st = tl->def.callback(t, R, torque, tl->def.user);
      if (st > 0) {
        return RD_ERROR(m->ctx, RD_RECOVER_CALLBACK,
                        "torque law '%s' asked for a smaller step at t = %.17g", tl->def.name, t);
      }
      if (st < 0) {
        return RD_ERROR(m->ctx, RD_ERR_CALLBACK,
                        "torque law '%s' callback failed at t = %.17g (status %d)", tl->def.name, t,
                        st);
      }
      return RD_OK;
    }
    default:
      return RD_ERROR(m->ctx, RD_ERR_MODEL, "corrupt torque law '%s'", tl->def.name);
  }
}


double rd_torqueLawPotential(const rdModel* m, const double* q) {
  double V = 0;
  for (int i = 0; i < m->ntorque; i++) {
    const rdTorqueLawDef* d = &m->torque[i].def;
    if (d->type == RD_TORQUE_COULOMB_WALL) {
      // V(R33) with dV/dR33 = -(a + R33)^-2 + c (a + R33)^-11
      double R[9];
      rdu_quatToMat(R, q + 7 * d->node + 3);
      double s = d->param[0] + R[8];
      V += 1 / s - d->param[1] / 10 * pow(s, -10);
    }
  }
  return V;
}
