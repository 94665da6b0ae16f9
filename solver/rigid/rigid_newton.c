// SPDX-License-Identifier: MIT
// Inner Newton solves of the explicit rigid steppers, and their failure reports.
//
// Inner Newton solves of the rigid steppers: the acceleration of the explicit Newmark (NMB, NMS)
// and the incremental rotation vector of the explicit midpoint Lie methods; failure reports.
#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/rigid/rigid_kernels.h"
#include "src/core/core.h"
#include "src/math/vec3.h"

int rg_newtonFail(const rdModel* m, const rgView* v, int ib, double t, const char* what, double res,
                  double scale, int iters) {
  const rgBody* b = &v->body[ib];
  return RD_ERROR(m->ctx, RD_RECOVER_NEWTON,
                  "method '%s': Newton solve for %s of body '%s' (node '%s') did not converge "
                  "at t = %.17g: residual %.3e (%.3e relative, tolerance %.1e) after %d "
                  "iterations (solver.rigid_max_iter = %d)",
                  v->method, what, m->elem[b->elem].def.u.body.name, m->node_name[b->node], t, res,
                  scale > 0 ? res / scale : res, m->opt.rigid_tol, iters, m->opt.rigid_max_iter);
}


int rg_solveAccel(const rdModel* m, const rgView* v, int ib, double t, const double J[9],
                  const double T[3], const double Wp[3], double h, double A[3], int* iters) {
  return rg_accelNewton(m, v, ib, t, J, 0, T, Wp, h, A, iters);
}


int rg_rotvecTangent(double Ki[9], const double Jh[9], const double psi[3], const double e[3],
                     double s1, double s2, double y) {
  // d(exp(-psi/2) b)/dpsi = 1/2 skew(e) Jl(-psi/2) = 1/2 skew(e) T(u), u = psi/2, with T the
  // right tangent I + f1 skew(u) + f2 skew(u)^2, f1 = (cos x - 1)/x^2 = -s2,
  // f2 = (x - sin x)/x^3 (its series below x = 1/2, where the difference cancels), and
  // skew(e) T(u) = s1 skew(e) + f1 (u e^T - (e.u) I) + f2 (e x u) u^T
  double u[3], eu[3], K[9];
  v3_scale(u, psi, 0.5);
  v3_cross(eu, e, u);
  double f1 = -s2, ed = v3_dot(e, u);
  double f2 =
      y < 0.25 ? 1.0 / 6 - y * (1.0 / 120 - y * (1.0 / 5040 - y * (1.0 / 362880))) : (1 - s1) / y;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      K[3 * i + j] = Jh[3 * i + j] - 0.5 * (f1 * u[i] * e[j] + f2 * eu[i] * u[j]);
    }
    K[4 * i] += 0.5 * f1 * ed;
  }
  K[1] += 0.5 * s1 * e[2], K[2] -= 0.5 * s1 * e[1];
  K[3] -= 0.5 * s1 * e[2], K[5] += 0.5 * s1 * e[0];
  K[6] += 0.5 * s1 * e[1], K[7] -= 0.5 * s1 * e[0];
  return rg_inverse3(Ki, K);
}
