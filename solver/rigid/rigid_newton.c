// SPDX-License-Identifier: MIT
// Inner Newton solves of the explicit rigid steppers, and their failure reports.
//
// Inner Newton solves of the rigid steppers: the acceleration of the explicit Newmark (NMB, NMS)
// and the incremental rotation vector of the explicit midpoint Lie methods; failure reports.
#include <math.h>
#include <string.h>

#include "core.h"
#include "rigid_kernels.h"
#include "rodrigues/liegroup.h"
#include "vec3.h"

int rg_newtonFail(const rdModel* m, const rgView* v, int ib, double t, const char* what,
                  double res, double scale, int iters) {
  const rgBody* b = &v->body[ib];
  return RD_ERROR(m->ctx, RD_RECOVER_NEWTON,
                  "method '%s': Newton solve for %s of body '%s' (node '%s') did not converge "
                  "at t = %.17g: residual %.3e (%.3e relative, tolerance %.1e) after %d "
                  "iterations (solver.rigid_max_iter = %d)",
                  v->method, what, m->elem[b->elem].def.u.body.name, m->node_name[b->node], t,
                  res, scale > 0 ? res / scale : res, m->opt.rigid_tol, iters,
                  m->opt.rigid_max_iter);
}


void rg_countIterations(rdData* d, int iters) {
  d->stats.newton_iterations += iters;
  d->stats.last_newton_iterations = iters;
}


int rg_solveAccel(const rdModel* m, const rgView* v, int ib, double t, const double J[9],
                  const double T[3], const double Wp[3], double h, double A[3], int* iters) {
  return rg_accelNewton(m, v, ib, t, J, 0, T, Wp, h, A, iters);
}


int rg_solveAccelBody(const rdModel* m, const rgView* v, int ib, double t, const double T[3],
                      const double Wp[3], double h, double A[3], int* iters) {
  const rgBody* b = &v->body[ib];
  return b->diag ? rg_accelNewton(m, v, ib, t, b->J, 1, T, Wp, h, A, iters)
                 : rg_accelNewton(m, v, ib, t, b->J, 0, T, Wp, h, A, iters);
}


int rg_solveRotvec(const rdModel* m, const rgView* v, int ib, double t, const double b[3],
                   double h, double psi[3], double eb[3], double dq[4], int* iters) {
  const rgBody* bd = &v->body[ib];
  return bd->diag ? rg_rotvecNewton(m, v, ib, t, bd->J, 1, b, h, psi, eb, dq, iters)
                  : rg_rotvecNewton(m, v, ib, t, bd->J, 0, b, h, psi, eb, dq, iters);
}
