// SPDX-License-Identifier: MIT
// Evaluation of time functions f(t).
#include <math.h>

#include "src/core/core.h"
#include "src/model/model_impl.h"

// index of the last point with t[i] <= t (-1 if before the first)
static int locate(const double* ts, int n, double t) {
  int lo = -1, hi = n;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (ts[mid] <= t) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}


double rd_bodyLoadFactor(const rdModel* m, double t) {
  if (m->opt.method != RD_METHOD_STATIC) {
    return 1;
  }
  double span = m->opt.final_time - m->opt.start_time;
  if (!(span > 0)) {
    return 1;
  }
  double f = (t - m->opt.start_time) / span;
  return f < 0 ? 0 : f > 1 ? 1 : f;
}


int rd_timeFnEval(const rdModel* m, int k, double t, double* value) {
  if (k == RD_NO_TIMEFN) {
    *value = 1;
    return RD_OK;
  }
  const rdTimeFn* f = &m->timefn[k];
  double v = 0;
  switch (f->type) {
    case RD_TIMEFN_CONSTANT:
      v = f->value;
      break;
    case RD_TIMEFN_STEPS: {
      int i = locate(f->t, f->npoint, t);
      v = f->y[i < 0 ? 0 : i];
      break;
    }
    case RD_TIMEFN_LINEAR: {
      int i = locate(f->t, f->npoint, t);
      if (i < 0) {
        v = f->y[0];
      } else if (i >= f->npoint - 1) {
        v = f->y[f->npoint - 1];
      } else {
        double s = (t - f->t[i]) / (f->t[i + 1] - f->t[i]);
        v = (1 - s) * f->y[i] + s * f->y[i + 1];
      }
      break;
    }
    case RD_TIMEFN_EXPRESSION:
      v = rd_exprEval(f->expr, &t);
      break;
    case RD_TIMEFN_CALLBACK: {
      int st = f->callback(t, &v, NULL, f->user);
      if (st != 0) {
        return st > 0 ? RD_RECOVER_CALLBACK
                      : RD_ERROR(m->ctx, RD_ERR_CALLBACK,
                                 "time function '%s' callback failed at t = %.17g (status %d)",
                                 m->timefn_name[k], t, st);
      }
      break;
    }
    default:
      return RD_ERROR(m->ctx, RD_ERR_MODEL, "corrupt time function %d", k);
  }
  if (!isfinite(v)) {
    return RD_ERROR(m->ctx, RD_RECOVER_NONFINITE, "time function '%s' is not finite at t = %.17g",
                    m->timefn_name[k], t);
  }
  *value = v;
  return RD_OK;
}
