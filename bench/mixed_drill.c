// SPDX-License-Identifier: MIT
// Mixed stepping against monolithic generalized-alpha on the drill string, with a bit-rock law as
// expensive as a user's: end-to-end time and law evaluations at the same accuracy.
//
// usage: mixed_drill [--deck FILE] [--final T] [--cost US] [--eps E] [--ref H] [--rounds N]
//                    [--quick]
//
// The deck (default input/mixed/drill_string.yaml) loses its formula torque law
// (--set 'torque_laws=[]'); the same law comes back as a host load callback on the bit node
// that burns US microseconds (default 20, a busy loop calibrated at the start) per evaluation;
// E (default 0.05 rad/s, the deck's) is the velocity of its regularized sign, tanh(w3 / E). The
// monolithic runs give Newton the law's Jacobian in one of four ways:
//   none      no Jacobian callback (a black-box law as it comes; the law enters Newton constant);
//   fd1       forward differences of the callback in w3 alone (a user who knows the law reads
//             only the bit's spin), 1 more evaluation per Jacobian;
//   fd6       forward differences in the 6 velocity components of the bit node (a user who knows
//             the law reads only velocities), 6 more evaluations per Jacobian;
//   analytic  the exact d torque / d w3 (a callback that costs as much as the law).
// The differences reuse the callback's value at the same state (cached), as a user would; all
// their evaluations are counted as law evaluations. The mixed runs never call a Jacobian.
// Every run goes to T (default 10 s), sampling the bit's angular velocity w3 every 0.01 s.
//  1. The reference: monolithic generalized-alpha, analytic Jacobian, at step H (default 1e-4).
//  2. Monolithic generalized-alpha at several steps with each Jacobian, and mixed stepping at
//     several macro steps and sub-step counts (both predictors): the largest error of the
//     sampled w3 against the reference, the CPU time of the steps, law and Jacobian
//     evaluations, steps, rejected steps, Newton iterations.
//  3. At the same accuracy: for each Jacobian the cheapest monolithic run and the cheapest mixed
//     configuration whose errors are below a target (the error of the default mixed
//     configuration, + 5 %), timed again in N interleaved rounds (default 5), medians; the
//     ratios of time and of law evaluations.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "rodrigues/rodrigues.h"

#define SAMPLE 0.01
#define MAXS 4096
#define MAXRUN 48


// ---------------------------------------------------------------------------------------------
// the bit-rock law as a user's expensive callback

static volatile double g_sink;
static long g_spin = 1000;  // iterations of the busy loop (calibrated)


static void burn(long n) {
  double x = 1.0;
  for (long i = 0; i < n; i++) {
    x = x * 1.0000001 + 1e-9;
  }
  g_sink = x;
}


// calibrate the busy loop to cost `us` microseconds (median of 9 timings of 200 calls)
static void calibrate(double us) {
  double t[9];
  long n = 100000;
  double t0 = bench_cpu();
  burn(n);
  double per = (bench_cpu() - t0) / (double)n;
  g_spin = (long)(us * 1e-6 / per);
  for (int k = 0; k < 9; k++) {
    t0 = bench_cpu();
    for (int i = 0; i < 200; i++) {
      burn(g_spin);
    }
    t[k] = (bench_cpu() - t0) / 200;
  }
  double m = bench_median(t, 9);
  g_spin = (long)((double)g_spin * us * 1e-6 / m);
}


// Navarro-Lopez & Cortes (2007): T = -W R (mu_c + (mu_s - mu_c) exp(-gamma |w|)) tanh(w / eps)
static const double WR = 97347 * 0.155575, MU_C = 0.5, MU_S = 0.8, GAMMA = 0.9;
static double g_eps = 0.05;

typedef enum { JAC_NONE, JAC_FD1, JAC_FD6, JAC_ANALYTIC } jacKind;
static const char* jac_names[] = {"none", "fd1", "fd6", "analytic"};

typedef struct {
  long calls, jac_calls;
  int have;  // last_vel / last_load hold a callback's value
  double last_vel[6], last_load[6];
} lawCount;


// the law itself: the bit's moment about the vertical from its angular velocity w3
static void law(const double* vel, double* load) {
  burn(g_spin);
  double w = vel[5];
  double mu = MU_C + (MU_S - MU_C) * exp(-GAMMA * fabs(w));
  load[5] = -WR * mu * tanh(w / g_eps);
}


static int rock(double t, int n, const int* nodes, const double* pose, const double* vel,
                double* load, void* user) {
  (void)t, (void)n, (void)nodes, (void)pose;
  lawCount* c = user;
  c->calls++;
  law(vel, load);
  memcpy(c->last_vel, vel, sizeof(c->last_vel));
  memcpy(c->last_load, load, sizeof(c->last_load));
  c->have = 1;
  return 0;
}


static int rock_jacobian(double t, int n, const int* nodes, const double* pose, const double* vel,
                         double* dfdx, double* dfdv, void* user) {
  (void)t, (void)n, (void)nodes, (void)pose, (void)dfdx;
  lawCount* c = user;
  c->jac_calls++;
  burn(g_spin);
  double w = vel[5], e = exp(-GAMMA * fabs(w)), th = tanh(w / g_eps);
  double mu = MU_C + (MU_S - MU_C) * e;
  double dmu = -(MU_S - MU_C) * GAMMA * e * (w > 0 ? 1 : w < 0 ? -1 : 0);
  dfdv[6 * 5 + 5] = -WR * (dmu * th + mu * (1 - th * th) / g_eps);
  return 0;
}


// forward differences of the callback in the last `ncol` velocity components (w3 is the last)
static int fd_jacobian(const double* vel, double* dfdv, lawCount* c, int ncol) {
  double f0[6] = {0}, f[6], v[6];
  if (c->have && !memcmp(vel, c->last_vel, sizeof(c->last_vel))) {
    memcpy(f0, c->last_load, sizeof(f0));
  } else {
    c->calls++;
    law(vel, f0);
  }
  for (int j = 6 - ncol; j < 6; j++) {
    memcpy(v, vel, sizeof(v));
    double dv = 1e-7 * fmax(fabs(v[j]), g_eps);
    v[j] += dv;
    memset(f, 0, sizeof(f));
    c->calls++;
    law(v, f);
    for (int i = 0; i < 6; i++) {
      dfdv[6 * i + j] = (f[i] - f0[i]) / dv;
    }
  }
  return 0;
}


static int rock_fd1(double t, int n, const int* nodes, const double* pose, const double* vel,
                    double* dfdx, double* dfdv, void* user) {
  (void)t, (void)n, (void)nodes, (void)pose, (void)dfdx;
  return fd_jacobian(vel, dfdv, user, 1);
}


static int rock_fd6(double t, int n, const int* nodes, const double* pose, const double* vel,
                    double* dfdx, double* dfdv, void* user) {
  (void)t, (void)n, (void)nodes, (void)pose, (void)dfdx;
  return fd_jacobian(vel, dfdv, user, 6);
}

// ---------------------------------------------------------------------------------------------
// runs

typedef struct {
  const char* name;
  int mixed;    // 1: the deck's subsystem; 0: subsystems=[]
  double h;     // (macro) step
  int sub;      // sub-steps
  int taylor;   // predictor taylor (else substeps)
  jacKind jac;  // monolithic: how Newton gets the law's Jacobian
  // results
  int ok;
  double err;  // max |w3 - w3_ref| over the samples
  double cpu;  // CPU seconds in the steps
  long calls, jac_calls, steps, rejected, newton;
  double w3[MAXS];
} run;


static const char* g_deck = "input/mixed/drill_string.yaml";
static double g_final = 10;


// build and run r; samples into r->w3
static int do_run(rdContext* ctx, run* r) {
  char set[8][96];
  const char* sets[8];
  int ns = 0;
  snprintf(set[ns++], sizeof(set[0]), "torque_laws=[]");
  snprintf(set[ns++], sizeof(set[0]), "solver.time_step=%.17g", r->h);
  snprintf(set[ns++], sizeof(set[0]), "solver.final_time=%.17g", g_final);
  if (r->mixed) {
    snprintf(set[ns++], sizeof(set[0]), "subsystems.bit.substeps=%d", r->sub);
    snprintf(set[ns++], sizeof(set[0]), "subsystems.bit.predictor=%s",
             r->taylor ? "taylor" : "substeps");
  } else {
    snprintf(set[ns++], sizeof(set[0]), "subsystems=[]");
  }
  for (int i = 0; i < ns; i++) {
    sets[i] = set[i];
  }
  rdSpec* s = NULL;
  int st = rd_readDeck(ctx, g_deck, sets, ns, &s);
  lawCount count;
  memset(&count, 0, sizeof(count));
  int bit = st ? -1 : rds_find(s, RD_OBJ_NODE, "bit");
  if (!st) {
    rdLoadCallbackDef cb = rd_defaultLoadCallbackDef();
    cb.name = "rock";
    cb.nnode = 1;
    cb.nodes = &bit;
    cb.callback = rock;
    static const rdNodeLoadJacobian jac[] = {NULL, rock_fd1, rock_fd6, rock_jacobian};
    cb.jacobian = r->mixed ? NULL : jac[r->jac];
    cb.user = &count;
    st = rds_addLoadCallback(s, &cb) < 0;
  }
  rdModel* m = NULL;
  rdData* d = NULL;
  st = st ? st : rd_compile(s, &m);
  rd_destroySpec(&s);
  st = st ? st : rd_createData(m, &d);
  st = st ? st : rd_initialize(m, d);
  int ns_ = (int)floor(g_final / SAMPLE + 0.5);
  double t0 = bench_cpu();
  for (int k = 1; !st && k <= ns_ && k < MAXS; k++) {
    st = rd_advance(m, d, k * SAMPLE, NULL, NULL);
    double w[3];
    rd_getNodeState(m, d, rd_findNode(m, "bit"), NULL, NULL, NULL, w, NULL);
    r->w3[k] = w[2];
  }
  r->cpu = bench_cpu() - t0;
  rdStats stats;
  if (d) {
    rd_getStats(d, &stats);
    r->steps = stats.steps;
    r->rejected = stats.rejected_steps;
    r->newton = stats.newton_iterations;
  }
  r->calls = count.calls;
  r->jac_calls = count.jac_calls;
  r->ok = !st;
  if (st) {
    printf("  %s: failed: %s\n", r->name, rd_lastError(ctx));
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return st;
}


// a run to do (the results zeroed)
static run make_run(const char* name, int mixed, double h, int sub, int taylor, jacKind jac) {
  run r;
  memset(&r, 0, sizeof(r));
  r.name = name;
  r.mixed = mixed;
  r.h = h;
  r.sub = sub;
  r.taylor = taylor;
  r.jac = jac;
  return r;
}


static double error_of(const run* r, const run* ref) {
  int ns = (int)floor(g_final / SAMPLE + 0.5);
  double e = 0;
  for (int k = 1; k <= ns && k < MAXS; k++) {
    e = fmax(e, fabs(r->w3[k] - ref->w3[k]));
  }
  return e;
}


static void print_run(const run* r) {
  printf("  %-36s %9.3e  %8.3f  %7ld  %7ld  %6ld  %5ld  %7ld\n", r->name, r->ok ? r->err : NAN,
         r->cpu, r->calls, r->jac_calls, r->steps, r->rejected, r->newton);
}


int main(int argc, char** argv) {
  double cost = 20, href = 1e-4;
  int rounds = 5, quick = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--deck") && i + 1 < argc) {
      g_deck = argv[++i];
    } else if (!strcmp(argv[i], "--final") && i + 1 < argc) {
      g_final = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--cost") && i + 1 < argc) {
      cost = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--eps") && i + 1 < argc) {
      g_eps = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--ref") && i + 1 < argc) {
      href = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
      rounds = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--quick")) {
      quick = 1;
    } else {
      fprintf(stderr,
              "usage: mixed_drill [--deck FILE] [--final T] [--cost US] [--eps E] [--ref H] "
              "[--rounds N] [--quick]\n");
      return 2;
    }
  }
  if (quick) {
    g_final = 2;
    href = 1e-3;
    rounds = 1;
  }
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  calibrate(cost);
  double t0 = bench_cpu();
  for (int i = 0; i < 100; i++) {
    burn(g_spin);
  }
  printf(
      "law: %.1f us per evaluation (busy loop of %ld iterations); t = 0 .. %g, w3 sampled "
      "every %g s\n",
      (bench_cpu() - t0) / 100 * 1e6, g_spin, g_final, SAMPLE);
  static run ref, runs[MAXRUN];
  ref = make_run("reference", 0, href, 1, 0, JAC_ANALYTIC);
  if (do_run(ctx, &ref)) {
    return 1;
  }
  printf("reference: monolithic, analytic Jacobian, h = %g: %.1f s, %ld steps\n\n", href, ref.cpu,
         ref.steps);
  int n = 0;
  static const double hm[] = {1e-2, 5e-3, 4e-3, 2e-3, 1e-3, 5e-4};
  static char names[MAXRUN][64];
  for (int j = JAC_ANALYTIC; j >= JAC_NONE; j--) {
    for (int k = 0; k < 6 && n < MAXRUN; k++) {
      snprintf(names[n], sizeof(names[0]), "monolithic %s, h = %g", jac_names[j], hm[k]);
      runs[n] = make_run(names[n], 0, hm[k], 1, 0, (jacKind)j);
      n++;
    }
  }
  static const double Hx[] = {1e-2, 5e-3, 5e-3, 2.5e-3, 2e-3};
  static const int mx[] = {10, 5, 10, 5, 2};
  for (int k = 0; k < 5 && n + 1 < MAXRUN; k++) {
    for (int tay = 0; tay < 2; tay++) {
      snprintf(names[n], sizeof(names[0]), "mixed %s, H = %g x %d", tay ? "taylor" : "substeps",
               Hx[k], mx[k]);
      runs[n] = make_run(names[n], 1, Hx[k], mx[k], tay, JAC_NONE);
      n++;
    }
  }
  printf("  %-36s %9s  %8s  %7s  %7s  %6s  %5s  %7s\n", "run", "err w3", "CPU (s)", "law",
         "Jacobian", "steps", "rej.", "Newton");
  for (int i = 0; i < n; i++) {
    if (do_run(ctx, &runs[i]) == 0) {
      runs[i].err = error_of(&runs[i], &ref);
    }
    print_run(&runs[i]);
  }
  // at the same accuracy: the target is the default mixed configuration's error (H = 5e-3 x 5,
  // substeps predictor); the cheapest mixed run and, per Jacobian, monolithic run within it
  const run* target = NULL;
  for (int i = 0; i < n; i++) {
    if (runs[i].mixed && runs[i].h == 5e-3 && runs[i].sub == 5 && !runs[i].taylor && runs[i].ok) {
      target = &runs[i];
    }
  }
  if (!target) {
    printf("no target run\n");
    return 1;
  }
  double tol = 1.05 * target->err;
  const run *mono[4] = {NULL, NULL, NULL, NULL}, *mix = NULL;
  for (int i = 0; i < n; i++) {
    const run* r = &runs[i];
    if (!r->ok || r->err > tol) {
      continue;
    }
    const run** best = r->mixed ? &mix : &mono[r->jac];
    if (!*best || r->cpu < (*best)->cpu) {
      *best = r;
    }
  }
  printf("\nat an error in w3 of at most %.3e rad/s (the default mixed run's, + 5 %%):\n", tol);
  if (!mix) {
    printf("  no mixed run reaches it\n");
    return 0;
  }
  printf("  mixed:      %s (error %.3e)\n", mix->name, mix->err);
  // interleaved rounds of the mixed run and each monolithic one, medians of the CPU times
  static double tm[4][64], tx[64];
  run a[4], b = *mix;
  for (int j = 0; j < 4; j++) {
    if (mono[j]) {
      a[j] = *mono[j];
      printf("  monolithic: %s (error %.3e)\n", mono[j]->name, mono[j]->err);
    } else {
      printf("  monolithic, %s Jacobian: no run reaches it\n", jac_names[j]);
    }
  }
  rounds = rounds < 64 ? rounds : 64;
  for (int k = 0; k < rounds; k++) {
    do_run(ctx, &b);
    tx[k] = b.cpu;
    for (int j = 0; j < 4; j++) {
      if (mono[j]) {
        do_run(ctx, &a[j]);
        tm[j][k] = a[j].cpu;
      }
    }
  }
  double wx = bench_median(tx, rounds);
  printf("  %d interleaved rounds, medians of CPU time: mixed %.3f s\n", rounds, wx);
  for (int j = 0; j < 4; j++) {
    if (!mono[j]) {
      continue;
    }
    double wm = bench_median(tm[j], rounds);
    long em = mono[j]->calls + mono[j]->jac_calls, ex = mix->calls + mix->jac_calls;
    printf(
        "  against monolithic %-8s: %.3f s, mixed %.2fx faster; law evaluations %ld + %ld "
        "Jacobians against %ld: %.1fx fewer (%.1fx without the Jacobians)\n",
        jac_names[j], wm, wm / wx, mono[j]->calls, mono[j]->jac_calls, ex, (double)em / (double)ex,
        (double)mono[j]->calls / (double)mix->calls);
  }
  rd_destroyContext(&ctx);
  return 0;
}
