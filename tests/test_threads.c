// SPDX-License-Identifier: MIT
// One immutable model drives several data objects stepped at once in different threads; each
// thread's result equals the sequential one bit for bit.
#include <pthread.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "test_macros.h"

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
  int node = rds_addNode(s, &n);
  rdRigidBodyDef b = rd_defaultRigidBodyDef();
  b.name = "body";
  b.node = node;
  b.mass = 15;
  b.inertia[0] = b.inertia[8] = 0.234375;
  b.inertia[4] = 0.46875;
  rds_addRigidBody(s, &b);
  rdJointDef j = rd_defaultJointDef();
  j.name = "pivot";
  j.type = RD_JOINT_SPHERICAL;
  j.node[0] = node;
  rds_addJoint(s, &j);
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


int main(void) {
  test_method("generalized_alpha");
  test_method("nmb");
  return TEST_SUMMARY();
}
