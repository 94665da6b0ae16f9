// SPDX-License-Identifier: MIT
// Example MPI host: each rank advances a model of its own and the ranks exchange interface loads
// through MPI, as a partitioned code embeds one rodrigues model per rank (the library knows
// nothing of MPI). Two ranks each own a mass on a spring to the ground; a coupling spring between
// the two masses lives in the host. At every step each rank begins the step (rd_stepBegin), sends
// the predicted position of its mass at t + h to the other rank, holds the coupling force from
// both predictions (rd_setNodeLoad) and ends the step (rd_stepEnd). The force is exchanged once
// more before rd_initialize, so that the initial accelerations include it (without that the
// coupled run is only first order in time). The result is compared with the exact normal-mode
// solution at two step sizes. Run: mpirun -n 2 ./mpi_host. Build (from the source root; -lm for
// the example's own functions) against an installed rodrigues:
//   mpicc examples/mpi_host.c $(pkg-config --cflags --libs rodrigues) -lm -o mpi_host
#include <math.h>
#include <mpi.h>
#include <rodrigues/rodrigues.h>
#include <stdio.h>

#define MASS 2.0        // kg
#define STIFFNESS 50.0  // N/m, each mass to the ground
#define COUPLING 10.0   // N/m, between the masses (in the host)
#define TEND 2.0        // s

// a mass on a spring to the ground along x, released from x0 at rest
static int build(rdContext* ctx, double x0, double h, rdModel** model) {
  rdSpec* s = NULL;
  int st = rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "mass";
  n.kind = RD_NODE_POINT;
  n.position[0] = x0;
  int node = st ? st : rds_addNode(s, &n);
  rdPointMassDef pm = rd_defaultPointMassDef();
  pm.name = "m";
  pm.node = node;
  pm.mass = MASS;
  st = node < 0 ? node : rds_addPointMass(s, &pm);
  // the spring's anchor far along x, so that it acts along x only; unstretched at x = 0
  rdSpringDef sp = rd_defaultSpringDef();
  sp.name = "spring";
  sp.node[0] = node;
  sp.anchor[0] = 1001;
  sp.stiffness[0] = STIFFNESS;
  sp.rest_length = 1001;
  st = st < 0 ? st : rds_addSpring(s, &sp);
  char step[32];
  snprintf(step, sizeof(step), "%.17g", h);
  st = st < 0 ? st : rds_setOption(s, "solver.time_step", step);
  st = st < 0 ? st : rds_setOption(s, "solver.rho_inf", "1");
  st = st < 0 ? st : rds_setOption(s, "solver.atol", "1e-13");
  st = st < 0 ? st : rds_setOption(s, "solver.rtol", "1e-12");
  st = st < 0 ? st : rd_compile(s, model);
  rd_destroySpec(&s);
  return st < 0 ? st : RD_OK;
}


// advance this rank's model to TEND with step h, coupled to the other rank; x: final position
static int run(rdContext* ctx, int rank, double h, double* x) {
  rdModel* m = NULL;
  rdData* d = NULL;
  int st = build(ctx, rank == 0 ? 1.0 : 0.0, h, &m);
  st = st ? st : rd_createData(m, &d);
  // the coupling force at the start too, for consistent initial accelerations
  double x0[3] = {0}, other0 = 0;
  if (!st) {
    rd_getNodeState(m, d, 0, x0, NULL, NULL, NULL, NULL);
  }
  MPI_Sendrecv(x0, 1, MPI_DOUBLE, 1 - rank, 0, &other0, 1, MPI_DOUBLE, 1 - rank, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  double f0[3] = {COUPLING * (other0 - x0[0]), 0, 0};
  st = st ? st : rd_setNodeLoad(m, d, 0, f0, NULL);
  st = st ? st : rd_initialize(m, d);
  int nstep = (int)lround(TEND / h);
  for (int i = 0; i < nstep && !st; i++) {
    st = rd_stepBegin(m, d, h);
    // the interface: the predicted positions at t + h, one double each way
    double mine[3] = {0}, other = 0;
    if (!st) {
      rd_getNodeState(m, d, 0, mine, NULL, NULL, NULL, NULL);
    }
    MPI_Sendrecv(mine, 1, MPI_DOUBLE, 1 - rank, 0, &other, 1, MPI_DOUBLE, 1 - rank, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double f[3] = {COUPLING * (other - mine[0]), 0, 0};
    st = st ? st : rd_setNodeLoad(m, d, 0, f, NULL);
    st = st ? st : rd_stepEnd(m, d);
    // a failed step on either rank stops both
    int any = st != 0;
    MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    st = st ? st : any ? RD_ERR_NUMERIC : 0;
  }
  double state[3] = {0};
  if (!st) {
    rd_getNodeState(m, d, 0, state, NULL, NULL, NULL, NULL);
  }
  *x = state[0];
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return st;
}


int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) {
      fprintf(stderr, "mpi_host: run it on 2 ranks (mpirun -n 2), not %d\n", size);
    }
    MPI_Finalize();
    return 1;
  }
  rdContext* ctx = NULL;
  int st = rd_createContext(&ctx, NULL);
  // normal modes: in phase at sqrt(k/m), in opposition at sqrt((k + 2 kc)/m)
  double w1 = sqrt(STIFFNESS / MASS), w2 = sqrt((STIFFNESS + 2 * COUPLING) / MASS);
  double exact = 0.5 * (cos(w1 * TEND) + (rank == 0 ? 1 : -1) * cos(w2 * TEND));
  double h[2] = {2e-3, 1e-3}, err[2] = {0, 0};
  for (int k = 0; k < 2 && !st; k++) {
    double x = 0;
    st = run(ctx, rank, h[k], &x);
    err[k] = fabs(x - exact);
    if (!st) {
      printf("rank %d: h = %g: x(%g) = %.12f, exact %.12f, error %.3e\n", rank, h[k], TEND, x,
             exact, err[k]);
    }
  }
  if (st) {
    fprintf(stderr, "mpi_host: rank %d: %s\n", rank, rd_lastError(ctx));
  }
  // second order in time: the error falls by about 4 when the step halves
  double order = log(err[0] / err[1]) / log(2.0);
  int ok = !st && err[1] < 1e-3 && order > 1.8;
  printf("rank %d: observed order %.2f  %s\n", rank, order, ok ? "OK" : "MISMATCH");
  int all = ok;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  rd_destroyContext(&ctx);
  MPI_Finalize();
  return all ? 0 : 1;
}
