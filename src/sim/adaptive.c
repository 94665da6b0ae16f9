// SPDX-License-Identifier: MIT
// Adaptive steps (solver.adaptive): the step size from the local error estimate with the
// controller of Hairer, Norsett & Wanner (Solving Ordinary Differential Equations I, 2nd ed.,
// Springer 1993, II.4), the estimate by step doubling for steppers without their own, and the
// output rows interpolated on the group at the requested times.
#include <math.h>
#include <string.h>

#include "rodrigues/liegroup.h"
#include "src/core/core.h"
#include "src/math/vec3.h"
#include "src/sim/stepping.h"

// the controller: accept a step whose error ratio r <= 1; the next step is
// h min(GROW, max(SHRINK, SAFETY r^(-1/p))), no growth right after a rejection
#define CTRL_SAFETY 0.9
#define CTRL_GROW 2.0
#define CTRL_SHRINK 0.2
// consecutive rejections (error or failure) after which the step fails
#define CTRL_MAX_REJECT 50
// Newton's corrections stop below this fraction of the error a step may make, e <= h tol / T
// (Hairer & Wanner, Solving Ordinary Differential Equations II, 2nd ed., Springer 1996, IV.8:
// kappa between 0.01 and 0.1); else the estimate measures Newton's error at small tolerances
#define CTRL_NEWTON 0.1


// the time over which the local estimates add up to solver.tolerance: the run's length
static double run_length(const rdModel* m) {
  double T = m->opt.final_time - m->opt.start_time;
  return T > 0 ? T : 1;
}


// largest difference of two states in the tangent space: |x_a - x_b| and the angle of
// R_a^T R_b over the nodes (m, rad)
static double state_distance(const rdModel* m, const rdState* a, const rdState* b) {
  double e = 0;
  for (int i = 0; i < m->nnode; i++) {
    const double* qa = a->q + 7 * i;
    const double* qb = b->q + 7 * i;
    double dx[3];
    v3_sub(dx, qa, qb);
    e = fmax(e, v3_norm(dx));
    if (m->node_kind[i] == RD_NODE_RIGID) {
      e = fmax(e, rdu_quatDistance(qa + 3, qb + 3));
    }
  }
  return e;
}


// one step of size h from d->s (saved in d->saved) with its error estimate in d->step_error.
// A stepper with its own estimate takes the step; the others take it twice as two halves,
// compared with one whole step (Richardson: the halves' error is the difference over
// 2^p - 1), and keep the halves. RD_OK, > 0 recoverable, < 0 fatal.
static int estimated_step(const rdModel* m, rdData* d, const rdStepper* stp, double h) {
  if (rd_stepperEstimates(m->opt.method)) {
    return rd_stepAttempt(m, d, stp, h);
  }
  double t = d->s.t;
  int st = rd_stepAttempt(m, d, stp, h);
  if (st != RD_OK) {
    return st;
  }
  rd_stateCopy(m, d, &d->interp, &d->s);
  rd_stateCopy(m, d, &d->s, &d->saved);
  st = rd_stepAttempt(m, d, stp, 0.5 * h);
  if (st == RD_OK) {
    d->s.t = t + 0.5 * h;
    st = rd_stepAttempt(m, d, stp, (t + h) - (t + 0.5 * h));
    d->s.t = t;
  }
  if (st == RD_OK) {
    int p = rd_stepperOrder(m->opt.method);
    d->step_error = state_distance(m, &d->s, &d->interp) / ((1 << p) - 1);
  }
  return st;
}


// d->interp = the state at t between the start (d->saved, time ta) and the end (d->s, time tb)
// of an accepted step: positions cubic Hermite in the velocities; rotations R_a exp(psi(s))
// with psi the cubic Hermite of psi(0) = 0, psi(1) = log(R_a^T R_b), psi'(0) = h W_a,
// psi'(1) = h T(psi_1)^-1 W_b; rates, accelerations and multipliers linear
static void interpolate(const rdModel* m, rdData* d, double t) {
  const rdState* a = &d->saved;
  const rdState* b = &d->s;
  rdState* o = &d->interp;
  rd_stateCopy(m, d, o, b);
  double h = b->t - a->t, s = (t - a->t) / h, s2 = s * s, s3 = s2 * s;
  double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = 3 * s2 - 2 * s3, h11 = s3 - s2;
  for (int i = 0; i < m->nnode; i++) {
    const double* qa = a->q + 7 * i;
    const double* qb = b->q + 7 * i;
    const double* va = a->v + 6 * i;
    const double* vb = b->v + 6 * i;
    double* q = o->q + 7 * i;
    for (int k = 0; k < 3; k++) {
      q[k] = h00 * qa[k] + h10 * h * va[k] + h01 * qb[k] + h11 * h * vb[k];
    }
    if (m->node_kind[i] == RD_NODE_RIGID) {
      double c[4], rel[4], p1[3], Ti[9], w1[3], psi[3], e[4], r[4];
      rdu_quatConj(c, qa + 3);
      rdu_quatMul(rel, c, qb + 3);
      rdu_quatToRotvec(p1, rel);
      rdu_tangentInvSO3(Ti, p1);
      m3_mulv(w1, Ti, vb + 3);
      for (int k = 0; k < 3; k++) {
        psi[k] = h10 * h * va[3 + k] + h01 * p1[k] + h11 * h * w1[k];
      }
      rdu_rotvecToQuat(e, psi);
      rdu_quatMul(r, qa + 3, e);
      rdu_quatNormalize(q + 3, r);
    }
  }
  size_t n6 = 6 * (size_t)m->nnode;
  for (size_t k = 0; k < n6; k++) {
    o->v[k] = (1 - s) * a->v[k] + s * b->v[k];
    o->vd[k] = (1 - s) * a->vd[k] + s * b->vd[k];
    o->a[k] = (1 - s) * a->a[k] + s * b->a[k];
  }
  for (int k = 0; k < m->nconstraint; k++) {
    o->lambda[k] = (1 - s) * a->lambda[k] + s * b->lambda[k];
  }
  o->t = t;
}


// call the observer with the interpolated state at t (d->s swapped with d->interp meanwhile)
static int observe_at(const rdModel* m, rdData* d, double t, rdObserver observer, void* user) {
  interpolate(m, d, t);
  rdState keep = d->s;
  d->s = d->interp;
  d->interp = keep;
  d->interp_active = 1;
  int stop = observer(m, d, user);
  d->interp_active = 0;
  keep = d->s;
  d->s = d->interp;
  d->interp = keep;
  return stop;
}


// one accepted step from d->s.t towards tl (> d->s.t): the controller's step (clipped to tl),
// rejected and retried while the error ratio r = e T / (h tol) exceeds 1 or the stepper fails.
// On RD_OK d->s is at the new time, d->saved at the step's start.
static int adaptive_step(const rdModel* m, rdData* d, const rdStepper* stp, double tl) {
  double T = run_length(m), tol = m->opt.tolerance;
  double q = rd_stepperOrder(m->opt.method);
  int nreject = 0;
  while (1) {
    double t = d->s.t, hp = d->ctrl_h;
    if (m->opt.max_step > 0 && hp > m->opt.max_step) {
      hp = m->opt.max_step;
    }
    double remaining = tl - t, h = hp;
    int last = h >= remaining * (1 - 1e-12);
    if (last) {
      h = remaining;
    } else if (h > 0.5 * remaining) {
      h = 0.5 * remaining;  // two even steps to tl instead of a long one and a sliver
    }
    rd_stateCopy(m, d, &d->saved, &d->s);
    d->step_error = NAN;
    d->newton_cap = CTRL_NEWTON * h * tol / T;
    int st = estimated_step(m, d, stp, h);
    d->newton_cap = 0;
    double e = d->step_error;
    if (st == RD_OK && !isfinite(e)) {
      e = 0;  // no estimate (no moving unknowns): any step
    }
    if (st < 0) {
      rd_stateCopy(m, d, &d->s, &d->saved);
      return st;
    }
    double r = st == RD_OK ? e * T / (h * tol) : INFINITY;
    if (st == RD_OK && r <= 1) {
      double grow = d->ctrl_rejected ? 1 : CTRL_GROW;
      double fac = r > 0 ? CTRL_SAFETY * pow(r, -1 / q) : grow;
      double hn = h * fmin(grow, fmax(CTRL_SHRINK, fac));
      // a step shortened to reach tl does not shrink the next one
      d->ctrl_h = h < hp ? fmax(hn, hp) : hn;
      d->ctrl_rejected = 0;
      d->s.t = last ? tl : t + h;
      d->step_error = e;
      rd_stepAccepted(d, h);
      return RD_OK;
    }
    // rejected: back to t with a smaller step (a failure halves it, as a step cut)
    rd_stateCopy(m, d, &d->s, &d->saved);
    if (st > 0) {
      rd_stepRejected(m, d, t, h, st);
      d->ctrl_h = 0.5 * h;
    } else {
      d->stats.error_rejections++;
      d->ctrl_h = h * fmin(1, fmax(CTRL_SHRINK, CTRL_SAFETY * pow(r, -1 / q)));
    }
    d->ctrl_rejected = 1;
    if (++nreject > CTRL_MAX_REJECT || !(d->ctrl_h > 1e-12 * T)) {
      char why[RD_ERRLEN / 2] = "";
      if (st > 0) {
        size_t n = strlen(m->ctx->last_error);
        n = n < sizeof(why) - 1 ? n : sizeof(why) - 1;
        memcpy(why, m->ctx->last_error, n);
        why[n] = '\0';
      }
      return RD_ERROR(m->ctx, RD_ERR_NUMERIC,
                      "adaptive step from t = %.17g failed after %d rejections (step %.3g): %s%s",
                      t, nreject, h, st > 0 ? why : "the local error estimate stays above ",
                      st > 0 ? "" : "solver.tolerance times h / (final_time - start_time)");
    }
  }
}


int rd_adaptiveAdvance(const rdModel* m, rdData* d, double tend, rdObserver observer, void* user) {
  const rdStepper* stp = rd_modelStepper(m);
  // output rows at start_time + k dt_out, dt_out = output.every time_step, and at tend
  double dt_out = m->opt.output_every * m->opt.time_step;
  double t0 = m->opt.start_time;
  double k = floor((d->s.t - t0) / dt_out * (1 + 1e-12)) + 1;
  while (d->s.t < tend) {
    int st = adaptive_step(m, d, stp, tend);
    if (st != RD_OK) {
      return st;
    }
    // the rows this step passed: interpolated, the one at its end (or tend) from the state
    int stop = 0;
    for (double tk = t0 + k * dt_out; observer && !stop && tk <= d->s.t; tk = t0 + (++k) * dt_out) {
      double tol = 1e-9 * (d->s.t - d->saved.t);
      stop = tk >= d->s.t - tol ? observer(m, d, user) : observe_at(m, d, tk, observer, user);
    }
    if (observer && !stop && d->s.t >= tend && !(t0 + (k - 1) * dt_out >= tend - 1e-9 * dt_out)) {
      stop = observer(m, d, user);  // the final time, off the output grid
    }
    // between two steps, at the step's end (not an interpolated state): the host may stop the
    // run here (a signal), or checkpoint it (rd_setStepCallback)
    if (!stop && d->step_cb) {
      stop = d->step_cb(m, d, d->step_user);
    }
    if (stop) {
      return RD_OK;
    }
  }
  return RD_OK;
}
