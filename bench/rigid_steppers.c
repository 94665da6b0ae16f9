// SPDX-License-Identifier: MIT
// Cost of the rigid-body steppers on the fast top: ns/step, torque evaluations, work-precision.
//
// usage: rigid_steppers [--deck FILE] [--repeat N] [--dt DT] [--quick]
//        rigid_steppers --rk4-loop DT     (only the plain RK4 loop, for `time` comparisons)
//
// 1. Every rigid method of the library, through the public API on the deck (default
//    input/rigid/fast_top.yaml) at one step DT (default 1e-4) to t = 10: median ns per step
//    over N runs (default 7) and torque (load) evaluations per step (rdStats).
// 2. Work-precision at t = 10 against an in-process GSL rk8pd reference (rtol = atol = 1e-13):
//    the library methods at step sizes 0.02 ... 3.125e-4, GSL's rk4 at fixed steps (the GSL
//    stepper estimates its error by step doubling, so it costs more than 4 evaluations a step),
//    GSL's adaptive rk8pd at tolerances 1e-3 ... 1e-12, and a plain classical RK4 loop on the
//    quaternion (4 evaluations a step, renormalized each step) -- what a user would write
//    otherwise. For each: error in R and in Pi, torque evaluations, wall time.
// 3. Interpolated cost (log-log) to reach a given attitude error, and ratios to RK4 and rk8pd,
//    all from this one run.
// The ODE data of the top are tests/support/rigid_models.h (Krysl & Endres 2005, §3.4); the
// deck's initial state is checked against them.
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "rodrigues/rodrigues.h"
#include "tests/support/rigid_models.h"

#define TEND 10.0
#define MAXPTS 16


// one point of a work-precision curve
typedef struct wpPoint_ {
  double h;  // step size, or tolerance for adaptive methods
  int ok;
  double eR, ePi;
  long loads, steps;
  double wall;  // seconds, median of the repeats
} wpPoint;

typedef struct wpCurve_ {
  char name[32];
  int npt;
  wpPoint pt[MAXPTS];
} wpCurve;

static const rigidModel* top;
static double yref[7];

// ---------------------------------------------------------------------------------------------
// the library

static const char* const lib_methods[] = {"nmb",      "nms", "liemid_e1", "liemid_e2", "liemid_ea",
                                          "liemid_i", "sw",  "hstagm",    "akw"};
#define NLIB ((int)(sizeof(lib_methods) / sizeof(lib_methods[0])))

// Run the deck with `method` and step h to TEND; fills p (errors against yref). Returns 0 on
// success, 1 if the run failed, -1 if the deck could not be loaded.
static int run_library(const char* deck, const char* method, double h, wpPoint* p) {
  char s_method[64], s_dt[64], s_tend[64];
  snprintf(s_method, sizeof(s_method), "solver.method=%s", method);
  snprintf(s_dt, sizeof(s_dt), "solver.time_step=%.17g", h);
  snprintf(s_tend, sizeof(s_tend), "solver.final_time=%.17g", TEND);
  const char* set[] = {"solver.start_time=0", s_tend, s_method, s_dt};
  rdContext* ctx = NULL;
  rdSpec* spec = NULL;
  rdModel* model = NULL;
  rdData* data = NULL;
  memset(p, 0, sizeof(*p));
  p->h = h;
  int ret = 1;
  if (rd_createContext(&ctx, NULL) != RD_OK) {
    return -1;
  }
  int st = rd_readDeck(ctx, deck, set, 4, &spec);
  if (st == RD_OK) {
    st = rd_compile(spec, &model);
  }
  rd_destroySpec(&spec);
  if (st != RD_OK) {
    fprintf(stderr, "rigid_steppers: %s\n", rd_lastError(ctx));
    ret = -1;
    goto done;
  }
  int node = rd_outputNode(model, 0) >= 0 ? rd_outputNode(model, 0) : 0;
  st = rd_createData(model, &data);
  if (st == RD_OK) {
    st = rd_initialize(model, data);
  }
  double t0 = bench_now();
  if (st == RD_OK) {
    st = rd_advance(model, data, TEND, NULL, NULL);
  }
  p->wall = bench_now() - t0;
  double q[4], Pi[3];
  if (st == RD_OK) {
    st = rd_getNodeState(model, data, node, NULL, q, NULL, NULL, NULL);
  }
  if (st == RD_OK) {
    st = rd_getBodyMomentum(model, data, node, Pi);
  }
  if (st != RD_OK) {
    goto done;
  }
  rdStats stats;
  rd_getStats(data, &stats);
  p->steps = stats.steps;
  p->loads = stats.load_evaluations;
  p->eR = ref_attitudeError(q, yref);
  double d = 0;
  for (int i = 0; i < 3; i++) {
    double e = Pi[i] - top->ode.J[i] * yref[4 + i];
    d += e * e;
  }
  p->ePi = sqrt(d);
  p->ok = isfinite(p->eR) && isfinite(p->ePi);
  ret = p->ok ? 0 : 1;
done:
  rd_destroyData(&data);
  rd_destroyModel(&model);
  rd_destroyContext(&ctx);
  return ret;
}


// ---------------------------------------------------------------------------------------------
// general-purpose integrators

static long rhs_calls;

static int gsl_rhs(double t, const double y[], double dydt[], void* params) {
  rhs_calls++;
  ref_rhs(params, t, y, dydt);
  return GSL_SUCCESS;
}


static void fill_errors(wpPoint* p, double y[7]) {
  p->eR = ref_attitudeError(y, yref);
  p->ePi = ref_momentumError(top->ode.J, y + 4, yref + 4);
  p->ok = isfinite(p->eR) && isfinite(p->ePi);
}


// GSL rk4 with n fixed steps (h = TEND/n), or rk8pd adaptive at tolerance tol (fixed == 0).
// Fixed steps: a huge tolerance, or the driver's control rejects steps it deems too inaccurate
static void run_gsl(int fixed, double h_or_tol, wpPoint* p, double yend[7]) {
  gsl_odeiv2_system sys = {gsl_rhs, NULL, 7, (void*)&top->ode};
  gsl_odeiv2_driver* d =
      fixed ? gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk4, h_or_tol, 1e300, 0)
            : gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-3, h_or_tol, h_or_tol);
  double y[7], t = 0;
  rigid_initialState(top, y);
  rhs_calls = 0;
  double t0 = bench_now();
  int st;
  if (fixed) {
    unsigned long n = (unsigned long)lround(TEND / h_or_tol);
    st = gsl_odeiv2_driver_apply_fixed_step(d, &t, TEND / (double)n, n, y);
    p->steps = (long)n;
  } else {
    st = gsl_odeiv2_driver_apply(d, &t, TEND, y);
    p->steps = (long)d->n;
  }
  p->wall = bench_now() - t0;
  p->h = h_or_tol;
  p->loads = rhs_calls;
  gsl_odeiv2_driver_free(d);
  fill_errors(p, y);
  p->ok = p->ok && st == GSL_SUCCESS;
  if (yend) {
    memcpy(yend, y, sizeof(y));
  }
}


// plain classical RK4 on (q, Omega), quaternion renormalized after each step
static void run_rk4_loop(double h, wpPoint* p) {
  long n = lround(TEND / h);
  h = TEND / (double)n;
  double y[7], k1[7], k2[7], k3[7], k4[7], yt[7];
  rigid_initialState(top, y);
  long calls = 0;
  double t = 0, t0 = bench_now();
  for (long s = 0; s < n; s++) {
    ref_rhs(&top->ode, t, y, k1);
    for (int i = 0; i < 7; i++) {
      yt[i] = y[i] + 0.5 * h * k1[i];
    }
    ref_rhs(&top->ode, t + 0.5 * h, yt, k2);
    for (int i = 0; i < 7; i++) {
      yt[i] = y[i] + 0.5 * h * k2[i];
    }
    ref_rhs(&top->ode, t + 0.5 * h, yt, k3);
    for (int i = 0; i < 7; i++) {
      yt[i] = y[i] + h * k3[i];
    }
    ref_rhs(&top->ode, t + h, yt, k4);
    calls += 4;
    for (int i = 0; i < 7; i++) {
      y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
    double nq = 1 / sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2] + y[3] * y[3]);
    for (int i = 0; i < 4; i++) {
      y[i] *= nq;
    }
    t = (double)(s + 1) * h;
  }
  p->wall = bench_now() - t0;
  p->h = h;
  p->steps = n;
  p->loads = calls;
  fill_errors(p, y);
}

// ---------------------------------------------------------------------------------------------
// reporting

static void print_point(const char* name, const wpPoint* p, int adaptive) {
  if (!p->ok) {
    printf("  %-12s %-9s %9.3g %11s %11s %10ld %8s %10s %8s\n", name, adaptive ? "tol" : "dt", p->h,
           "failed", "failed", p->loads, "-", "-", "-");
    return;
  }
  printf("  %-12s %-9s %9.3g %11.3e %11.3e %10ld %8.2f %10.3e %8.1f\n", name,
         adaptive ? "tol" : "dt", p->h, p->eR, p->ePi, p->loads,
         p->steps ? (double)p->loads / (double)p->steps : 0.0, p->wall,
         p->steps ? 1e9 * p->wall / (double)p->steps : 0.0);
}


// cost (what = 0: torque evaluations, 1: wall time) to reach attitude error `target`,
// interpolated log-log between the two points that bracket it; NaN if none do
static double cost_at(const wpCurve* c, double target, int what) {
  for (int i = 0; i + 1 < c->npt; i++) {
    const wpPoint *a = c->pt + i, *b = c->pt + i + 1;
    if (!a->ok || !b->ok || a->eR <= 0 || b->eR <= 0) {
      continue;
    }
    double lo = fmin(a->eR, b->eR), hi = fmax(a->eR, b->eR);
    if (target < lo || target > hi || lo == hi) {
      continue;
    }
    double ca = what ? a->wall : (double)a->loads, cb = what ? b->wall : (double)b->loads;
    double s = (log(target) - log(a->eR)) / (log(b->eR) - log(a->eR));
    return exp(log(ca) + s * (log(cb) - log(ca)));
  }
  return NAN;
}


static int run_all(const char* deck, int repeat, double dt_bench, int quick) {
  // 1. ns/step and loads/step of every library method at dt_bench
  printf("== 1. library steppers on %s, dt = %g, t = 0..%g, median of %d runs ==\n", deck, dt_bench,
         TEND, repeat);
  printf("  %-12s %10s %10s %12s %12s %11s\n", "method", "steps", "loads/step", "ns/step",
         "min ns/step", "err_R");
  double nmb_ns = NAN, ea_ns = NAN;
  for (int m = 0; m < NLIB; m++) {
    double ns[64];
    wpPoint p = {0};
    int ok = 1;
    for (int r = 0; r < repeat && ok; r++) {
      int st = run_library(deck, lib_methods[m], dt_bench, &p);
      if (st < 0) {
        return 1;
      }
      ok = st == 0;
      ns[r] = 1e9 * p.wall / (double)(p.steps ? p.steps : 1);
    }
    if (!ok) {
      printf("  %-12s failed\n", lib_methods[m]);
      continue;
    }
    double mn = ns[0];
    for (int r = 1; r < repeat; r++) {
      mn = fmin(mn, ns[r]);
    }
    double med = bench_median(ns, repeat);
    if (!strcmp(lib_methods[m], "nmb")) {
      nmb_ns = med;
    } else if (!strcmp(lib_methods[m], "liemid_ea")) {
      ea_ns = med;
    }
    printf("  %-12s %10ld %10.2f %12.1f %12.1f %11.3e\n", lib_methods[m], p.steps,
           (double)p.loads / (double)p.steps, med, mn, p.eR);
  }
  {
    double ns[64];
    wpPoint p = {0};
    for (int r = 0; r < repeat; r++) {
      run_rk4_loop(dt_bench, &p);
      ns[r] = 1e9 * p.wall / (double)p.steps;
    }
    double med = bench_median(ns, repeat);
    printf("  %-12s %10ld %10.2f %12.1f %12s %11.3e\n", "rk4-loop", p.steps,
           (double)p.loads / (double)p.steps, med, "", p.eR);
    for (int r = 0; r < repeat; r++) {
      run_gsl(1, dt_bench, &p, NULL);
      ns[r] = 1e9 * p.wall / (double)p.steps;
    }
    double gmed = bench_median(ns, repeat);
    printf("  %-12s %10ld %10.2f %12.1f %12s %11.3e\n", "gsl-rk4", p.steps,
           (double)p.loads / (double)p.steps, gmed, "", p.eR);
    printf(
        "  ratio ns/step: nmb / rk4-loop = %.2f, liemid_ea / rk4-loop = %.2f, "
        "nmb / gsl-rk4 = %.2f, liemid_ea / gsl-rk4 = %.2f\n",
        nmb_ns / med, ea_ns / med, nmb_ns / gmed, ea_ns / gmed);
  }

  // 2. work-precision
  static const double dts[] = {0.02, 0.01, 0.005, 0.0025, 0.00125, 6.25e-4, 3.125e-4};
  int ndt = quick ? 4 : (int)(sizeof(dts) / sizeof(dts[0]));
  static const double tols[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12};
  int ntol = (int)(sizeof(tols) / sizeof(tols[0]));
  int wrep = repeat < 3 ? repeat : 3;
  wpCurve* curves = calloc(NLIB + 3, sizeof(*curves));
  if (!curves) {
    return 1;
  }
  int ncurve = 0;
  printf(
      "\n== 2. work-precision at t = %g (reference: GSL rk8pd, tol 1e-13); wall: median of "
      "%d ==\n",
      TEND, wrep);
  printf("  %-12s %-9s %9s %11s %11s %10s %8s %10s %8s\n", "method", "", "dt/tol", "err_R",
         "err_Pi", "loads", "loads/st", "wall [s]", "ns/step");
  for (int m = 0; m < NLIB; m++) {
    wpCurve* c = curves + ncurve++;
    snprintf(c->name, sizeof(c->name), "%s", lib_methods[m]);
    for (int k = 0; k < ndt; k++) {
      wpPoint* p = c->pt + c->npt++;
      double w[8];
      for (int r = 0; r < wrep; r++) {
        if (run_library(deck, lib_methods[m], dts[k], p) < 0) {
          free(curves);
          return 1;
        }
        w[r] = p->wall;
      }
      p->wall = bench_median(w, wrep);
      print_point(c->name, p, 0);
    }
  }
  for (int g = 0; g < 3; g++) {
    wpCurve* c = curves + ncurve++;
    snprintf(c->name, sizeof(c->name), "%s",
             g == 0   ? "rk4-loop"
             : g == 1 ? "gsl-rk4"
                      : "gsl-rk8pd");
    int n = g == 2 ? ntol : ndt;
    for (int k = 0; k < n; k++) {
      wpPoint* p = c->pt + c->npt++;
      double w[8];
      for (int r = 0; r < wrep; r++) {
        if (g == 0) {
          run_rk4_loop(dts[k], p);
        } else {
          run_gsl(g == 1, g == 1 ? dts[k] : tols[k], p, NULL);
        }
        w[r] = p->wall;
      }
      p->wall = bench_median(w, wrep);
      print_point(c->name, p, g == 2);
    }
  }

  // 3. cost to reach an attitude error, and ratios
  static const double targets[] = {1e-3, 1e-4, 1e-5, 1e-6};
  for (int what = 0; what < 2; what++) {
    printf(
        "\n== 3%c. %s to reach err_R = target (log-log interpolation); ratio = method / "
        "rk4-loop, method / gsl-rk8pd ==\n",
        what ? 'b' : 'a', what ? "wall time [s]" : "torque evaluations");
    printf("  %-12s", "method");
    for (int t = 0; t < 4; t++) {
      printf("   %8.0e: cost  /rk4  /rk8pd", targets[t]);
    }
    printf("\n");
    for (int i = 0; i < ncurve; i++) {
      printf("  %-12s", curves[i].name);
      for (int t = 0; t < 4; t++) {
        double c = cost_at(curves + i, targets[t], what);
        double r4 = cost_at(curves + ncurve - 3, targets[t], what);
        double r8 = cost_at(curves + ncurve - 1, targets[t], what);
        if (isnan(c)) {
          printf("   %8s  %9s %5s %6s", "", "-", "", "");
        } else {
          printf("   %8s  %9.3g %5.2f %6.2f", "", c, c / r4, c / r8);
        }
      }
      printf("\n");
    }
  }
  free(curves);
  return 0;
}


int main(int argc, char** argv) {
  const char* deck = "input/rigid/fast_top.yaml";
  int repeat = 7, quick = 0;
  double dt = 1e-4, rk4_loop = 0;
  for (int i = 1; i < argc; i++) {
    if (i + 1 < argc && !strcmp(argv[i], "--deck")) {
      deck = argv[++i];
    } else if (i + 1 < argc && !strcmp(argv[i], "--repeat")) {
      repeat = atoi(argv[++i]);
    } else if (i + 1 < argc && !strcmp(argv[i], "--dt")) {
      dt = atof(argv[++i]);
    } else if (i + 1 < argc && !strcmp(argv[i], "--rk4-loop")) {
      rk4_loop = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--quick")) {
      quick = 1;
    } else {
      fprintf(stderr,
              "usage: rigid_steppers [--deck FILE] [--repeat N] [--dt DT] [--quick]\n"
              "       rigid_steppers --rk4-loop DT\n");
      return 1;
    }
  }
  if (repeat < 1 || repeat > 64 || !(dt > 0)) {
    fprintf(stderr, "rigid_steppers: need 1 <= repeat <= 64 and dt > 0\n");
    return 1;
  }
  top = rigid_findModel("fast_top");
  gsl_set_error_handler_off();
  wpPoint ref;
  run_gsl(0, 1e-13, &ref, yref);

  if (rk4_loop > 0) {
    // end to end, for `time`: the same problem and output as `rodrigues run` at step DT
    wpPoint p;
    run_rk4_loop(rk4_loop, &p);
    printf("rk4-loop: dt = %g, %ld steps, %.1f ns/step, err_R = %.3e, err_Pi = %.3e\n", p.h,
           p.steps, 1e9 * p.wall / (double)p.steps, p.eR, p.ePi);
    return 0;
  }
  static const char* const nmb[] = {"solver.method=nmb"};
  if (rigid_checkDeck(top, deck, nmb, 1, NULL, "rigid_steppers") != 0) {
    return 1;
  }
  return run_all(deck, repeat, dt, quick);
}
