// SPDX-License-Identifier: MIT
// One immutable model drives several data objects stepped at once in different threads; each
// thread's result equals the sequential one bit for bit. The beam assembly's own threads
// (solver.threads, OpenMP builds) give bitwise the same results as one thread, also when host
// threads step at the same time, and report the same failing element.
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "solver/assemble.h"
#include "solver/pattern.h"
#include "src/model/data_impl.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"
#ifdef _OPENMP
#include <omp.h>
#endif

enum { NTHREAD = 4 };

typedef struct {
  const rdModel* m;
  rdData* d;
  int status;
} job;

// pinned top under gravity with a formula moment: exercises loads, formulas and, for
// generalized-alpha, the sparse factorization
static rdModel* build(rdContext* ctx, const char* method) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "top";
  n.position[1] = 1;
  n.angular_velocity[1] = 30;
  n.angular_velocity_frame = RD_FRAME_BODY;
  rdu_rotvecToQuat(n.orientation, (double[3]){0.2, 0, 0});
  int node = model_addRigidBody(s, &n, "body", 15, (double[3]){0.234375, 0.46875, 0.234375}, NULL);
  model_addPivot(s, node);
  rdTimeFnDef f = rd_defaultTimeFnDef();
  f.name = "wave";
  f.type = RD_TIMEFN_EXPRESSION;
  f.expression = "t < 0.5 ? sin(10*t) : 0";
  int fn = rds_addTimeFn(s, &f);
  rdLoadDef l = rd_defaultLoadDef();
  l.name = "nudge";
  l.node = node;
  l.kind = RD_LOAD_MOMENT;
  l.value[2] = 2;
  l.timefn = fn;
  rds_addLoad(s, &l);
  rds_setGravity(s, (double[3]){0, 0, -9.81});
  rds_setOption(s, "solver.method", method);
  rds_setOption(s, "solver.time_step", "1e-3");
  rdModel* m = NULL;
  CHECK_MSG(rd_compile(s, &m) == RD_OK, "%s", rd_lastError(ctx));
  rd_destroySpec(&s);
  return m;
}


static void* run(void* arg) {
  job* jb = arg;
  jb->status = rd_initialize(jb->m, jb->d);
  if (!jb->status) {
    jb->status = rd_advance(jb->m, jb->d, 1.0, NULL, NULL);
  }
  return NULL;
}


static void test_method(const char* method) {
  rdContext* ctx;
  rd_createContext(&ctx, NULL);
  rdModel* m = build(ctx, method);
  job ref = {m, NULL, 0};
  CHECK(rd_createData(m, &ref.d) == RD_OK);
  run(&ref);
  CHECK_MSG(ref.status == RD_OK, "%s: %s", method, rd_lastError(ctx));
  job jobs[NTHREAD];
  pthread_t th[NTHREAD];
  for (int k = 0; k < NTHREAD; k++) {
    jobs[k] = (job){m, NULL, 0};
    CHECK(rd_createData(m, &jobs[k].d) == RD_OK);
    CHECK(pthread_create(&th[k], NULL, run, &jobs[k]) == 0);
  }
  for (int k = 0; k < NTHREAD; k++) {
    pthread_join(th[k], NULL);
    CHECK(jobs[k].status == RD_OK);
    double a[16], b[16];
    rd_getNodeState(m, ref.d, 0, a, a + 3, a + 7, a + 10, a + 13);
    rd_getNodeState(m, jobs[k].d, 0, b, b + 3, b + 7, b + 10, b + 13);
    CHECK_MSG(!memcmp(a, b, sizeof(a)), "%s: thread %d differs from the sequential run", method, k);
    rd_destroyData(&jobs[k].d);
  }
  rd_destroyData(&ref.d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// ---------------------------------------------------------------------------------------------
// beams: a cantilever of E elements of 4 nodes (equally spaced: any distinct points will do),
// coupled 6x6 section, gravity, a follower distributed load scaled by a formula, a tip moment

enum { E = 7, P = 4, NN = E * (P - 1) + 1 };

static rdModel* beams(rdContext* ctx, int threads) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  int node[NN];
  char name[16];
  for (int k = 0; k < NN; k++) {
    rdNodeDef n = rd_defaultNodeDef();
    snprintf(name, sizeof(name), "n%d", k);
    n.name = name;
    n.position[0] = 0.5 * k;
    node[k] = rds_addNode(s, &n);
  }
  rdTimeFnDef f = rd_defaultTimeFnDef();
  f.name = "gust";
  f.type = RD_TIMEFN_EXPRESSION;
  f.expression = "sin(30*t)";
  int fn = rds_addTimeFn(s, &f);
  double K[36] = {0}, M[36] = {0}, eta = 0;
  const double kd[6] = {2e5, 4e4, 3e4, 2e3, 5e3, 9e3}, md[6] = {1, 1, 1, 0.02, 0.01, 0.01};
  for (int i = 0; i < 6; i++) {
    K[7 * i] = kd[i];
    M[7 * i] = md[i];
  }
  K[4 * 6 + 3] = K[3 * 6 + 4] = 1.5e3;  // bend-twist coupling
  for (int e = 0; e < E; e++) {
    rdBeamDef b = rd_defaultBeamDef();
    snprintf(name, sizeof(name), "b%d", e);
    b.name = name;
    b.nnode = P;
    b.nodes = node + e * (P - 1);
    b.nstation = 1;
    b.station = &eta;
    b.stiffness = K;
    b.mass = M;
    b.damping[1] = b.damping[2] = 1e-3;
    b.force[2] = 3;
    b.load_frame = RD_FRAME_BODY;
    b.timefn = fn;
    rds_addBeam(s, &b);
  }
  model_addClamp(s, node[0]);
  rdLoadDef l = rd_defaultLoadDef();
  l.name = "twist";
  l.node = node[NN - 1];
  l.kind = RD_LOAD_MOMENT;
  l.value[0] = 40;
  rds_addLoad(s, &l);
  rds_setGravity(s, (double[3]){0, 0, -9.81});
  rds_setOption(s, "solver.time_step", "2e-3");
  rds_setOptionReal(s, "solver.threads", threads);
  rdModel* m = NULL;
  CHECK_MSG(rd_compile(s, &m) == RD_OK, "%s", rd_lastError(ctx));
  rd_destroySpec(&s);
  return m;
}


// every node's state after rd_advance to 0.2 s
static int beam_run(const rdModel* m, rdData* d, double* out) {
  int st = rd_initialize(m, d);
  st = st ? st : rd_advance(m, d, 0.2, NULL, NULL);
  for (int i = 0; i < NN; i++) {
    double* y = out + 16 * i;
    rd_getNodeState(m, d, i, y, y + 3, y + 7, y + 10, y + 13);
  }
  return st;
}


typedef struct {
  const rdModel* m;
  rdData* d;
  double out[16 * NN];
  int status;
} beamJob;

static void* beam_job(void* arg) {
  beamJob* jb = arg;
  jb->status = beam_run(jb->m, jb->d, jb->out);
  return NULL;
}


// the error of rd_assemble with non-finite interior nodes of the elements `bad`
static void failing(rdContext* ctx, const rdModel* m, const int* bad, int nbad, char* msg,
                    int size) {
  rdData* d = NULL;
  rd_createData(m, &d);
  rd_initialize(m, d);
  for (int k = 0; k < nbad; k++) {
    d->s.q[7 * (bad[k] * (P - 1) + 1) + 3] = NAN;
  }
  double* r = calloc((size_t)(m->ndof + m->nconstraint), sizeof(double));
  double* Ax = calloc((size_t)m->pattern->nnz, sizeof(double));
  rdAsmCoef c = {1, 1, 1, NULL, NULL};
  int st = rd_assemble(m, d, 0, d->s.q, d->s.v, d->s.vd, d->s.lambda, &c, r, NULL, Ax);
  CHECK_MSG(st == RD_RECOVER_NEWTON, "status %d", st);
  snprintf(msg, (size_t)size, "%s", rd_lastError(ctx));
  free(r);
  free(Ax);
  rd_destroyData(&d);
}


static void test_beams(void) {
  rdContext* ctx;
  rd_createContext(&ctx, NULL);
#ifdef _OPENMP
  printf("OpenMP build, omp_get_max_threads() = %d\n", omp_get_max_threads());
#else
  printf("built without OpenMP: solver.threads has no effect\n");
#endif
  rdModel* m1 = beams(ctx, 1);
  rdModel* m2 = beams(ctx, 2);
  rdData* d = NULL;
  static double ref[16 * NN], two[16 * NN];
  rd_createData(m1, &d);
  CHECK_MSG(beam_run(m1, d, ref) == RD_OK, "%s", rd_lastError(ctx));
  rd_destroyData(&d);
  rd_createData(m2, &d);
  CHECK_MSG(d->nbeamslot >= 1, "slots %d", d->nbeamslot);
#ifdef _OPENMP
  CHECK_MSG(d->nbeamslot == 2, "solver.threads = 2 gives %d workspace slots", d->nbeamslot);
#endif
  CHECK_MSG(beam_run(m2, d, two) == RD_OK, "%s", rd_lastError(ctx));
  rd_destroyData(&d);
  CHECK_MSG(!memcmp(ref, two, sizeof(ref)), "solver.threads = 2 differs from 1");
  CHECK_MSG(fabs(ref[16 * (NN - 1) + 2]) > 1e-3, "the tip did not move: %g",
            ref[16 * (NN - 1) + 2]);
  // host threads, each with its own data of the 2-thread model
  beamJob* jobs = calloc(NTHREAD, sizeof(beamJob));
  pthread_t th[NTHREAD];
  for (int k = 0; k < NTHREAD; k++) {
    jobs[k].m = m2;
    CHECK(rd_createData(m2, &jobs[k].d) == RD_OK);
    CHECK(pthread_create(&th[k], NULL, beam_job, &jobs[k]) == 0);
  }
  for (int k = 0; k < NTHREAD; k++) {
    pthread_join(th[k], NULL);
    CHECK(jobs[k].status == RD_OK);
    CHECK_MSG(!memcmp(ref, jobs[k].out, sizeof(ref)), "host thread %d differs", k);
    rd_destroyData(&jobs[k].d);
  }
  free(jobs);
  // the failing element reported: the first colour group with a failure, in it the first
  // element (a chain alternates b0, b2, ... and b1, b3, ...)
  char a[512], b[512];
  const int bad1[2] = {3, 1}, bad2[2] = {1, 4};
  failing(ctx, m1, bad1, 2, a, sizeof(a));
  failing(ctx, m2, bad1, 2, b, sizeof(b));
  CHECK_MSG(strstr(a, "beam 'b1'") && !strcmp(a, b), "1 thread: %s / 2 threads: %s", a, b);
  failing(ctx, m1, bad2, 2, a, sizeof(a));
  failing(ctx, m2, bad2, 2, b, sizeof(b));
  CHECK_MSG(strstr(a, "beam 'b4'") && !strcmp(a, b), "1 thread: %s / 2 threads: %s", a, b);
  printf("failing element reported: %s\n", a);
  rd_destroyModel(&m1);
  rd_destroyModel(&m2);
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_method("generalized_alpha"));
  TEST_CASE(test_method("nmb"));
  TEST_CASE(test_beams());
  return TEST_SUMMARY();
}
