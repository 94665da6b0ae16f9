// SPDX-License-Identifier: MIT
// Newton driver of the implicit rigid steppers (LIEMID[I], AKW).
//
// Newton driver of the implicit rigid steppers (LIEMID[I], AKW): one unknown 3-vector per body,
// the torque at a midpoint attitude that depends on it, its Jacobian by finite differences.
#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "solver/rigid/rigid_implicit.h"
#include "solver/rigid/rigid_kernels.h"
#include "src/core/core.h"
#include "src/math/vec3.h"

// place every body at the attitude of its unknown x (+ eps e_k if k >= 0) and evaluate the
// loads at t; the torque term of each body goes to g (scratch g, or column k of dg)
static int evaluate(const rdModel* m, rdData* d, rgView* v, const rgImplicit* im, double t,
                    double h, int k) {
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgScratch* sc = &v->sc[i];
    double x[3], xr[3];
    v3_copy(x, sc->x);
    if (k >= 0) {
      x[k] += 1.5e-8 * fmax(1, v3_norm(sc->x));
    }
    im->attitude(sc, x, sc->q);
    v3_copy(xr, v->mem[i].xr);
    v3_axpy(xr, 0.5 * h, v->mem[i].vr);
    rg_placeNode(b, v->q, sc->q, xr);
  }
  int st = rg_loads(m, d, v, t, v->q, 0);
  if (st != RD_OK) {
    return st;
  }
  for (int i = 0; i < v->nb; i++) {
    rgScratch* sc = &v->sc[i];
    double g[3];
    rdu_quatRotateInv(g, im->frame_is_mid ? sc->q : sc->q0, sc->tau);
    if (k < 0) {
      v3_copy(sc->g, g);
    } else {
      double eps = 1.5e-8 * fmax(1, v3_norm(sc->x));
      for (int r = 0; r < 3; r++) {
        sc->dg[3 * r + k] = (g[r] - sc->g[r]) / eps;
      }
    }
  }
  return RD_OK;
}


static int newton(const rdModel* m, rdData* d, rgView* v, const rgImplicit* im, double h,
                  int* iters);


int rg_implicitSolve(const rdModel* m, rdData* d, rgView* v, const rgImplicit* im, double h,
                     int* iters) {
  const rdState* s = &d->s;
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgScratch* sc = &v->sc[i];
    memcpy(sc->q0, s->q + 7 * b->node + 3, sizeof(sc->q0));
    v3_copy(sc->W0, s->v + 6 * b->node + 3);
    m3_mulv(sc->P0, b->J, sc->W0);
    // guess: the explicit Newmark increment h W + h^2/2 Wdot (for AKW: h W(t + h/2))
    v3_scale(sc->x, sc->W0, h);
    v3_axpy(sc->x, 0.5 * h * h, s->vd + 6 * b->node + 3);
  }
  int st = newton(m, d, v, im, h, iters);
  if (st != RD_OK) {
    d->stats.newton_iterations += *iters;
  }
  return st;
}


static int newton(const rdModel* m, rdData* d, rgView* v, const rgImplicit* im, double h,
                  int* iters) {
  double t = d->s.t, tm = t + 0.5 * h;
  double tol = m->opt.rigid_tol;
  int maxit = m->opt.rigid_max_iter;
  memcpy(v->q, d->s.q, 7 * (size_t)m->nnode * sizeof(double));
  for (int it = 0;; it++) {
    int st = evaluate(m, d, v, im, tm, h, -1);
    if (st != RD_OK) {
      *iters += it;
      return st;
    }
    int worst = -1;
    double worst_rel = 0, worst_res = 0, worst_scale = 0;
    for (int i = 0; i < v->nb; i++) {
      rgScratch* sc = &v->sc[i];
      im->residual(&v->body[i], sc, h, sc->res, &sc->scale);
      double rn = v3_norm(sc->res);
      if (!(rn <= tol * sc->scale)) {
        double rel = sc->scale > 0 ? rn / sc->scale : INFINITY;
        if (worst < 0 || !(rel <= worst_rel)) {
          worst = i;
          worst_rel = rel;
          worst_res = rn;
          worst_scale = sc->scale;
        }
      }
    }
    if (worst < 0) {
      // the scratch torques and forces are those of the solution
      *iters += it;
      return RD_OK;
    }
    if (it == maxit || !isfinite(worst_res)) {
      *iters += it;
      return rg_newtonFail(m, v, worst, d->s.t, im->what, worst_res, worst_scale, it);
    }
    for (int k = 0; k < 3; k++) {
      st = evaluate(m, d, v, im, tm, h, k);
      if (st != RD_OK) {
        *iters += it;
        return st;
      }
    }
    for (int i = 0; i < v->nb; i++) {
      rgScratch* sc = &v->sc[i];
      double K[9], dx[3];
      im->jacobian(&v->body[i], sc, h, K);
      if (rg_solve3(dx, K, sc->res)) {
        *iters += it;
        return rg_newtonFail(m, v, i, d->s.t, im->what, v3_norm(sc->res), sc->scale, it);
      }
      v3_axpy(sc->x, -1, dx);
    }
  }
}


int rg_implicitFinish(const rdModel* m, rdData* d, rgView* v, double h, int iters) {
  rdState* s = &d->s;
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    rgScratch* sc = &v->sc[i];
    // translation: implicit midpoint with the force at the midpoint attitude
    if (!b->pinned) {
      double v0[3];
      v3_copy(v0, mem->vr);
      v3_axpy(mem->vr, h / b->mass, sc->f);
      v3_add(v0, v0, mem->vr);
      v3_axpy(mem->xr, 0.5 * h, v0);
    }
    rg_placeNode(b, s->q, sc->q, mem->xr);
  }
  // loads at the end, for consistent accelerations (not used by the next step)
  int st = rg_loads(m, d, v, s->t + h, s->q, 1);
  if (st != RD_OK) {
    d->stats.newton_iterations += iters;
    return st;
  }
  for (int i = 0; i < v->nb; i++) {
    const rgBody* b = &v->body[i];
    rgMem* mem = &v->mem[i];
    rgScratch* sc = &v->sc[i];
    double A[3];
    if (!b->pinned) {
      v3_scale(mem->ar, mem->f, 1 / b->mass);
    }
    rg_eulerAccel(b, sc->q, sc->b, mem->tau, A);
    rg_writeNode(b, mem, s, sc->q, sc->b, A);
  }
  rg_countIterations(d, iters);
  return RD_OK;
}
