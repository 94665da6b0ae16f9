// SPDX-License-Identifier: MIT
// Example host code: an oscillator whose damping force the host computes from the node velocity
// (think of an aerodynamic damper supplied by a CFD code), compared with the same damper built
// into the model. The host runs it twice: without a Jacobian (Newton sees the damper as a
// constant load) and with one (Newton sees -dF/dv = c, as for the built-in damper). Build
// (from the source root; -lm for the example's own exp) against an installed rodrigues:
//   cc examples/host_damper.c $(pkg-config --cflags --libs rodrigues) -lm -o host_damper
#include <math.h>
#include <rodrigues/rodrigues.h>
#include <stdio.h>

typedef struct {
  double c;    // damping coefficient (N s/m)
  long calls;  // how often the library asked for the load
} damper;

// the host's load: F = -c v on every node of the set
static int host_load(double t, int n, const int* nodes, const double* pose, const double* vel,
                     double* load, void* user) {
  damper* dp = user;
  (void)t;
  (void)nodes;
  (void)pose;
  for (int k = 0; k < n; k++) {
    for (int i = 0; i < 3; i++) {
      load[6 * k + i] = -dp->c * vel[6 * k + i];
    }
  }
  dp->calls++;
  return 0;
}


// its Jacobian: dF/dv = -c I on every node (dfdx and dfdv come zeroed)
static int host_load_jacobian(double t, int n, const int* nodes, const double* pose,
                              const double* vel, double* dfdx, double* dfdv, void* user) {
  damper* dp = user;
  (void)t;
  (void)nodes;
  (void)pose;
  (void)vel;
  (void)dfdx;
  int N = 6 * n;
  for (int k = 0; k < n; k++) {
    for (int i = 0; i < 3; i++) {
      dfdv[(6 * k + i) * N + 6 * k + i] = -dp->c;
    }
  }
  return 0;
}


// mass m on a spring k along x, released from x = 1; damper in the host (host != NULL, with
// its Jacobian if jac) or built in
static int build(rdContext* ctx, damper* host, int jac, rdModel** model) {
  rdSpec* s = NULL;
  int st = rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "mass";
  n.kind = RD_NODE_POINT;
  n.position[0] = 1;
  int node = st ? st : rds_addNode(s, &n);
  rdPointMassDef pm = rd_defaultPointMassDef();
  pm.name = "m";
  pm.node = node;
  pm.mass = 2;
  st = node < 0 ? node : rds_addPointMass(s, &pm);
  // spring to a ground anchor far along x, so that it acts along x only
  rdSpringDef sp = rd_defaultSpringDef();
  sp.name = "spring";
  sp.node[0] = node;
  sp.anchor[0] = 101;
  sp.stiffness[0] = 50;
  sp.rest_length = 101;  // unstretched at x = 0
  sp.damping = host ? 0 : 0.8;
  st = st < 0 ? st : rds_addSpring(s, &sp);
  if (st >= 0 && host) {
    rdLoadCallbackDef cb = rd_defaultLoadCallbackDef();
    cb.name = "aero";
    cb.nnode = 1;
    cb.nodes = &node;
    cb.callback = host_load;
    cb.user = host;
    cb.jacobian = jac ? host_load_jacobian : NULL;
    st = rds_addLoadCallback(s, &cb);
  }
  st = st < 0 ? st : rds_setOption(s, "solver.time_step", "0.001");
  st = st < 0 ? st : rds_setOption(s, "solver.rho_inf", "0.9");
  st = st < 0 ? st : rds_setOption(s, "solver.atol", "1e-12");
  st = st < 0 ? st : rds_setOption(s, "solver.rtol", "1e-10");
  // Newton far inside its tolerance (the last correction within it): the dampers are compared
  // to 1e-8, and without a Jacobian each step's Newton error is of the tolerance's size
  st = st < 0 ? st : rds_setOption(s, "solver.newton_test", "increment");
  st = st < 0 ? st : rd_compile(s, model);
  rd_destroySpec(&s);
  return st < 0 ? st : RD_OK;
}


// run to t = 5 and return the final position
static int run(rdContext* ctx, damper* host, int jac, double* x, long* newton) {
  rdModel* m = NULL;
  rdData* d = NULL;
  int st = build(ctx, host, jac, &m);
  st = st ? st : rd_createData(m, &d);
  st = st ? st : rd_initialize(m, d);
  // the host drives the stepping: one rd_step per host time step
  for (int i = 0; i < 5000 && !st; i++) {
    st = rd_step(m, d, 0.001);
  }
  if (!st) {
    rd_getNodeState(m, d, 0, x, NULL, NULL, NULL, NULL);
    rdStats stats;
    rd_getStats(d, &stats);
    *newton = stats.newton_iterations;
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return st;
}


int main(void) {
  rdContext* ctx = NULL;
  if (rd_createContext(&ctx, NULL)) {
    return 1;
  }
  damper dp = {0.8, 0}, dj = {0.8, 0};
  double xh[3] = {0}, xj[3] = {0}, xb[3] = {0};
  long nh = 0, nj = 0, nb = 0;
  int st = run(ctx, &dp, 0, xh, &nh);
  st = st ? st : run(ctx, &dj, 1, xj, &nj);
  st = st ? st : run(ctx, NULL, 0, xb, &nb);
  if (st) {
    fprintf(stderr, "host_damper: %s\n", rd_lastError(ctx));
    rd_destroyContext(&ctx);
    return 1;
  }
  // exact damped oscillation for comparison: x'' + (c/m) x' + (k/m) x = 0, x(0) = 1, x'(0) = 0
  double z = 0.8 / (2 * sqrt(2 * 50.0)), w0 = 5, wd = w0 * sqrt(1 - z * z);
  double exact = exp(-z * w0 * 5) * (cos(wd * 5) + z * w0 / wd * sin(wd * 5));
  printf("host damper, no Jacobian: x(5) = %.15f (%ld Newton iterations, %ld host calls)\n", xh[0],
         nh, dp.calls);
  printf("host damper, Jacobian:    x(5) = %.15f (%ld Newton iterations, %ld host calls)\n", xj[0],
         nj, dj.calls);
  printf("built-in damper:          x(5) = %.15f (%ld Newton iterations)\n", xb[0], nb);
  printf("exact:                    x(5) = %.15f\n", exact);
  double diff = fabs(xh[0] - xb[0]), diffj = fabs(xj[0] - xb[0]);
  int ok = diff < 1e-8 && diffj < 1e-8 && fabs(xb[0] - exact) < 1e-4 && nj == nb;
  printf(
      "host vs built-in: %.3e (no Jacobian), %.3e (Jacobian); built-in vs exact: %.3e; "
      "Newton iterations %ld / %ld / %ld  %s\n",
      diff, diffj, fabs(xb[0] - exact), nh, nj, nb, ok ? "OK" : "MISMATCH");
  rd_destroyContext(&ctx);
  return ok ? 0 : 1;
}
