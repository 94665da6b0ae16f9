// SPDX-License-Identifier: MIT
// Stepping: initialize, one step with cutting on recoverable failure, advance to a time.
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "solver/stepper.h"
#include "src/core/core.h"
#include "src/model/data_impl.h"
#include "src/sim/stepping.h"

double rd_stepClock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


static int check_pair(const rdModel* m, const rdData* d, const char* fn) {
  if (!rd_modelValid(m) || !d || d->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  if (d->model != m) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "%s: data was made from another model", fn);
  }
  return RD_OK;
}


// 1 if every number of the state is finite: x * 0 is 0 for a finite x and NaN otherwise, so
// one branch-free sum per array instead of a test per number
static double zero_sum(const double* x, size_t n) {
  double z = 0;
  for (size_t i = 0; i < n; i++) {
    z += x[i] * 0.0;
  }
  return z;
}


static int state_finite(const rdModel* m, const rdState* s) {
  size_t n = 6 * (size_t)m->nnode;
  double z = zero_sum(s->q, 7 * (size_t)m->nnode) + zero_sum(s->v, n) + zero_sum(s->vd, n) +
             zero_sum(s->lambda, (size_t)m->nconstraint);
  return z == 0;
}


// first node with a non-finite entry, -1 if none
static int first_bad_node(const rdModel* m, const rdState* s) {
  for (int i = 0; i < m->nnode; i++) {
    for (int k = 0; k < 7; k++) {
      if (!isfinite(s->q[7 * i + k])) {
        return i;
      }
    }
    for (int k = 0; k < 6; k++) {
      if (!isfinite(s->v[6 * i + k]) || !isfinite(s->vd[6 * i + k])) {
        return i;
      }
    }
  }
  return -1;
}


int rd_initialize(const rdModel* m, rdData* d) {
  int st = check_pair(m, d, "rd_initialize");
  if (st < 0) {
    return st;
  }
  if (d->in_step) {
    return RD_ERROR(m->ctx, RD_ERR_STATE,
                    "rd_initialize called inside a step (rd_stepBegin without rd_stepEnd)");
  }
  const rdStepper* stp = rd_modelStepper(m);
  st = stp->initialize(m, d);
  if (st != RD_OK) {
    return st < 0
               ? st
               : RD_ERROR(m->ctx, RD_ERR_NUMERIC, "initialization failed: %s", m->ctx->last_error);
  }
  if (!state_finite(m, &d->s)) {
    int node = first_bad_node(m, &d->s);
    return RD_ERROR(m->ctx, RD_ERR_NUMERIC, "initial accelerations are not finite (node '%s')",
                    node >= 0 ? m->node_name[node] : "?");
  }
  d->initialized = 1;
  return RD_OK;
}


int rd_stepAttempt(const rdModel* m, rdData* d, const rdStepper* stp, double h) {
  int st = stp->step(m, d, h);
  if (st == RD_OK && !stp->atomic && !state_finite(m, &d->s)) {
    int node = first_bad_node(m, &d->s);
    st = RD_ERROR(m->ctx, RD_RECOVER_NONFINITE, "non-finite state at node '%s'",
                  node >= 0 ? m->node_name[node] : "?");
  }
  return st;
}


// the start of src, truncated to fit size bytes with its terminating 0
static void copy_message(char* dst, size_t size, const char* src) {
  size_t n = strlen(src);
  n = n < size - 1 ? n : size - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}


void rd_stepAccepted(rdData* d, double h) {
  d->stats.steps++;
  if (h < d->stats.min_step) {
    d->stats.min_step = h;
  }
  if (h > d->stats.max_step) {
    d->stats.max_step = h;
  }
  if (d->stats.last_newton_iterations > d->stats.max_newton_iterations) {
    d->stats.max_newton_iterations = d->stats.last_newton_iterations;
  }
  double e = d->step_error;
  if (!isfinite(e)) {
    return;
  }
  d->stats.error_estimate += e;
  if (e > d->stats.max_local_error) {
    d->stats.max_local_error = e;
  }
  // fixed steps: say so once when the estimates pass the tolerance (adaptive steps keep them
  // below it)
  const rdModel* m = d->model;
  if (!m->opt.adaptive && d->stats.error_estimate > m->opt.tolerance) {
    rd_warnOnce(m->ctx, RD_WARN_ERROR_ESTIMATE,
                "%s: the local error estimates of the first %ld steps add up to %.3g (m, rad), "
                "above solver.tolerance = %g: the step h = %g is too large for that accuracy "
                "(set a smaller solver.time_step, or solver.adaptive: true)",
                rd_methodName(m->opt.method), d->stats.steps, d->stats.error_estimate,
                m->opt.tolerance, h);
  }
}


void rd_stepRejected(const rdModel* m, rdData* d, double t, double h, int st) {
  d->stats.rejected_steps++;
  if (d->ncut < RD_STEPCUT_LOG) {
    rdStepCut* c = &d->cut[d->ncut++];
    c->t = t;
    c->h = h;
    c->status = st;
    copy_message(c->reason, sizeof(c->reason), m->ctx->last_error);
  }
}


// rd_step without the argument checks and the timing. failed: 0, or the (non-zero) status of
// a first attempt at the whole step that the caller has already made (atomic steppers only:
// the state is untouched), which is then counted and cut as if made here
static int step_once(const rdModel* m, rdData* d, const rdStepper* stp, double h, int failed) {
  int st;
  double tend = d->s.t + h;
  double hs = h;
  int cuts = 0;
  // an atomic stepper leaves the state alone when it fails: nothing to save and restore
  int save = !stp->atomic;
  // substeps from t to tend: halve on a recoverable failure, grow back after success
  while (1) {
    double remaining = tend - d->s.t;
    int last = hs >= remaining * (1 - 1e-12);
    if (last) {
      hs = remaining;
    }
    if (save) {
      rd_stateCopy(m, d, &d->saved, &d->s);
    }
    st = failed ? failed : rd_stepAttempt(m, d, stp, hs);
    failed = 0;
    if (st == RD_OK) {
      // t + hs can round onto tend although hs < remaining (1 - 1e-12) (a time much larger
      // than the step: (t + h) - t > h): then the step is complete, no zero-length one follows
      double tnew = d->s.t + hs;
      last = last || !(tnew < tend);
      d->s.t = last ? tend : tnew;
      rd_stepAccepted(d, hs);
      if (last) {
        break;
      }
      if (cuts) {
        hs = fmin(2 * hs, h);
      }
      continue;
    }
    if (save) {
      rd_stateCopy(m, d, &d->s, &d->saved);
    }
    if (st < 0) {
      break;
    }
    rd_stepRejected(m, d, d->s.t, hs, st);
    if (++cuts > m->opt.max_step_cuts) {
      char why[RD_ERRLEN / 2];
      copy_message(why, sizeof(why), m->ctx->last_error);
      st = RD_ERROR(m->ctx, RD_ERR_NUMERIC,
                    "step from t = %.17g failed after %d step cuts (step %.3g): %s", d->s.t,
                    cuts - 1, hs, why);
      break;
    }
    hs *= 0.5;
  }
  return st;
}


// a step size the steppers can take from time t: positive and finite, large enough that t + h
// is another number and 1/h^2 (the implicit methods' mass term) does not overflow; RD_OK, or
// RD_ERR_ARG raised naming `fn`
static int check_step_size(const rdModel* m, const char* fn, double t, double h) {
  if (!(h > 0) || !isfinite(h)) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "%s: step size must be > 0, got %g", fn, h);
  }
  if (!(t + h > t) || !isfinite(1 / (h * h))) {
    return RD_ERROR(m->ctx, RD_ERR_ARG,
                    "%s: step size %g is too small at t = %g (t + h rounds to t, or 1/h^2 "
                    "overflows)",
                    fn, h, t);
  }
  return RD_OK;
}


// argument checks of rd_step and rd_advance; the step size (0: the model's)
static int check_step(const rdModel* m, const rdData* d, const char* fn) {
  int st = check_pair(m, d, fn);
  if (st < 0) {
    return st;
  }
  if (!d->initialized) {
    return RD_ERROR(m->ctx, RD_ERR_STATE, "%s called before rd_initialize", fn);
  }
  if (d->in_step) {
    return RD_ERROR(m->ctx, RD_ERR_STATE,
                    "%s called inside a step (rd_stepBegin without rd_stepEnd)", fn);
  }
  return RD_OK;
}


int rd_step(const rdModel* m, rdData* d, double h) {
  int st = check_step(m, d, "rd_step");
  if (st < 0) {
    return st;
  }
  if (h == 0) {
    h = m->opt.time_step;
  }
  st = check_step_size(m, "rd_step", d->s.t, h);
  if (st < 0) {
    return st;
  }
  double t0 = rd_stepClock();
  if (m->opt.adaptive) {
    // substeps chosen from the error estimate, ending at t + h
    st = rd_adaptiveAdvance(m, d, d->s.t + h, NULL, NULL);
  } else {
    st = step_once(m, d, rd_modelStepper(m), h, 0);
  }
  d->stats.wall_time += rd_stepClock() - t0;
  return st;
}


int rd_advance(const rdModel* m, rdData* d, double tend, rdObserver observer, void* user) {
  int st = check_step(m, d, "rd_advance");
  if (st < 0) {
    return st;
  }
  if (!isfinite(tend) || tend < d->s.t) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_advance: end time %g is before the current time %g",
                    tend, d->s.t);
  }
  if (m->opt.adaptive) {
    if (tend == d->s.t) {
      return RD_OK;
    }
    double c0 = rd_stepClock();
    st = rd_adaptiveAdvance(m, d, tend, observer, user);
    d->stats.wall_time += rd_stepClock() - c0;
    return st;
  }
  double h = m->opt.time_step;
  // step times are start_time + k h with a global index k, so that a run resumed from a
  // checkpoint lands on the same times, bit for bit, as the uninterrupted run; a final partial
  // step only when tend is not on the grid (to 1e-9 of a step)
  double t0 = m->opt.start_time;
  double kreal = (d->s.t - t0) / h;
  double k0 = nearbyint(kreal);
  if (fabs(kreal - k0) > 1e-9) {
    t0 = d->s.t;  // off the grid (after a partial step): a new grid from here
    k0 = 0;
  } else {
    // on the grid: take the grid's own value of the time (an earlier run may have labelled it
    // with its end time, which can differ from t0 + k h in the last bit)
    d->s.t = t0 + k0 * h;
  }
  double nreal = (tend - t0) / h - k0;
  long n = (long)floor(nreal + 1e-9);
  int partial = nreal - (double)n > 1e-9;
  long total = n + partial;
  int every = m->opt.output_every;
  const rdStepper* stp = rd_modelStepper(m);
  // (k0 + i) % every, kept by counting instead of a division per step
  long phase = ((long)k0 % every + every) % every;
  // wall time of the steps: one clock reading per stretch between observer calls, not two per
  // step (the observer's time is not counted)
  double clock0 = rd_stepClock();
  for (long i = 1; i <= total; i++) {
    if (++phase == every) {
      phase = 0;
    }
    // on-grid steps go to the grid point even at the end (a run stopped there and resumed
    // then repeats the full run exactly); only the label of the final time is tend
    double target = i <= n ? t0 + (k0 + (double)i) * h : tend;
    double hs = target - d->s.t;
    double h1 = (d->s.t + hs) - d->s.t;
    if (!(hs > 0) || !isfinite(hs)) {
      st = RD_ERROR(m->ctx, RD_ERR_ARG, "rd_step: step size must be > 0, got %g", hs);
    } else if (stp->atomic && hs >= h1 * (1 - 1e-12)) {
      // step_once's first attempt without its machinery (the usual case: an atomic stepper
      // takes the whole step); a failure goes on to the step cutting there
      st = stp->step(m, d, h1);
      if (st == RD_OK) {
        rd_stepAccepted(d, h1);
      } else {
        st = step_once(m, d, stp, hs, st);
      }
    } else {
      st = step_once(m, d, stp, hs, 0);
    }
    if (st != RD_OK) {
      d->stats.wall_time += rd_stepClock() - clock0;
      return st;
    }
    d->s.t = i == total ? tend : target;
    // rows on the global grid too, so a resumed run writes the rows the full run writes
    if (observer && (phase == 0 || i == total)) {
      d->stats.wall_time += rd_stepClock() - clock0;
      if (observer(m, d, user)) {
        return RD_OK;
      }
      clock0 = rd_stepClock();
    }
    // between two steps: the host may stop the run here (a signal), or checkpoint it
    if (d->step_cb) {
      d->stats.wall_time += rd_stepClock() - clock0;
      if (d->step_cb(m, d, d->step_user)) {
        return RD_OK;
      }
      clock0 = rd_stepClock();
    }
  }
  d->stats.wall_time += rd_stepClock() - clock0;
  return RD_OK;
}


// the static method has no predictor: its step starts from the current state
static int can_split(const rdStepper* stp) {
  return (stp->predict && stp->correct) || stp->method == RD_METHOD_STATIC;
}


int rd_stepBegin(const rdModel* m, rdData* d, double h) {
  int st = check_step(m, d, "rd_stepBegin");
  if (st < 0) {
    return st;
  }
  if (h == 0) {
    h = m->opt.time_step;
  }
  st = check_step_size(m, "rd_stepBegin", d->s.t, h);
  if (st < 0) {
    return st;
  }
  const rdStepper* stp = rd_modelStepper(m);
  if (!can_split(stp)) {
    return RD_ERROR(m->ctx, RD_ERR_UNSUPPORTED,
                    "rd_stepBegin: method '%s' has no predictor/corrector split (use "
                    "generalized_alpha or static, or rd_step)",
                    rd_methodName(m->opt.method));
  }
  double t0 = rd_stepClock();
  // the step as rd_step takes it, so that begin + end reproduce rd_step bit for bit
  double tend = d->s.t + h;
  h = tend - d->s.t;
  rd_stateCopy(m, d, &d->saved, &d->s);
  st = stp->predict ? stp->predict(m, d, h) : RD_OK;
  if (st != RD_OK) {
    rd_stateCopy(m, d, &d->s, &d->saved);
  } else {
    d->in_step = 1;
    d->step_h = h;
    d->step_tend = tend;
  }
  d->stats.wall_time += rd_stepClock() - t0;
  return st;
}


int rd_stepEnd(const rdModel* m, rdData* d) {
  int st = check_pair(m, d, "rd_stepEnd");
  if (st < 0) {
    return st;
  }
  if (!d->in_step) {
    return RD_ERROR(m->ctx, RD_ERR_STATE, "rd_stepEnd called without rd_stepBegin");
  }
  const rdStepper* stp = rd_modelStepper(m);
  double h = d->step_h, t0 = rd_stepClock();
  d->in_step = 0;
  st = stp->correct ? stp->correct(m, d, h) : stp->step(m, d, h);
  if (st == RD_OK && !stp->atomic && !state_finite(m, &d->s)) {
    int node = first_bad_node(m, &d->s);
    st = RD_ERROR(m->ctx, RD_RECOVER_NONFINITE, "non-finite state at node '%s'",
                  node >= 0 ? m->node_name[node] : "?");
  }
  if (st == RD_OK) {
    d->s.t = d->step_tend;
    rd_stepAccepted(d, h);
  } else {
    // no step cutting across the host boundary: back to t, the host redoes the step
    rd_stateCopy(m, d, &d->s, &d->saved);
    if (st > 0) {
      rd_stepRejected(m, d, d->s.t, h, st);
    }
  }
  d->stats.wall_time += rd_stepClock() - t0;
  return st;
}


int rd_setStepCallback(rdData* d, rdStepCallback fn, void* user) {
  if (!rd_dataValid(d)) {
    return RD_ERR_HANDLE;
  }
  d->step_cb = fn;
  d->step_user = user;
  return RD_OK;
}


int rd_setNodeLoad(const rdModel* m, rdData* d, int node, const double force[3],
                   const double moment[3]) {
  int st = check_pair(m, d, "rd_setNodeLoad");
  if (st < 0) {
    return st;
  }
  if (node < 0 || node >= m->nnode) {
    return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_setNodeLoad: node index %d out of range", node);
  }
  double f[6] = {0, 0, 0, 0, 0, 0};
  for (int k = 0; k < 3; k++) {
    f[k] = force ? force[k] : 0;
    f[3 + k] = moment ? moment[k] : 0;
  }
  for (int k = 0; k < 6; k++) {
    if (!isfinite(f[k])) {
      return RD_ERROR(m->ctx, RD_ERR_ARG, "rd_setNodeLoad: non-finite load on node '%s'",
                      m->node_name[node]);
    }
  }
  memcpy(d->hostload + 6 * node, f, sizeof(f));
  d->hostload_set = 1;
  return RD_OK;
}
