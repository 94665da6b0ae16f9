// SPDX-License-Identifier: MIT
// The name index (src/core/names.c) and the spec's lookups built on it: every name found at its
// index, absent names not found, growth, reservations that make insertions allocation-free, and
// a failed growth leaving the index as it was.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rodrigues/rodrigues.h"
#include "src/core/names.h"
#include "test_macros.h"

// an allocator that counts its calls and fails from call `fail_at` on (-1: never)
typedef struct {
  long calls, fail_at;
} countAlloc;

static void* ca_malloc(size_t size, void* user) {
  countAlloc* c = user;
  if (c->fail_at >= 0 && c->calls >= c->fail_at) {
    return NULL;
  }
  c->calls++;
  return malloc(size);
}


static void ca_free(void* p, void* user) {
  (void)user;
  free(p);
}


static void test_index(void) {
  enum { N = 50000 };
  countAlloc ca = {0, -1};
  rdAllocator a = {ca_malloc, ca_free, &ca};
  rdContext* ctx = NULL;
  CHECK(rd_createContext(&ctx, &a) == RD_OK);
  char* text = malloc((size_t)N * 16);
  rdNameIndex x = {0};
  CHECK(rd_nameIndexGet(&x, "anything") == -1);
  int ok = 1;
  for (int i = 0; i < N; i++) {
    snprintf(text + 16 * i, 16, "n%d", i);
    ok &= rd_nameIndexPut(ctx, &x, text + 16 * i, i) == RD_OK;
  }
  CHECK(ok && x.count == N && x.capacity >= 2 * N);
  int found = 0, absent = 0;
  for (int i = 0; i < N; i++) {
    char other[16];
    snprintf(other, sizeof(other), "n%d", i);  // another copy: keys compare by text
    found += rd_nameIndexGet(&x, other) == i;
    snprintf(other, sizeof(other), "m%d", i);
    absent += rd_nameIndexGet(&x, other) == -1;
  }
  CHECK_MSG(found == N && absent == N, "found %d, absent %d of %d", found, absent, N);
  CHECK(rd_nameIndexGet(&x, "") == -1 && rd_nameIndexGet(&x, NULL) == -1);
  // a key already present takes the new value and is not counted twice
  CHECK(rd_nameIndexPut(ctx, &x, "n7", -5) == RD_OK && rd_nameIndexGet(&x, "n7") == -5 &&
        x.count == N);
  rd_nameIndexFree(ctx, &x);
  CHECK(x.count == 0 && x.capacity == 0 && rd_nameIndexGet(&x, "n1") == -1);

  // after a reservation for n names, n insertions allocate nothing
  CHECK(rd_nameIndexReserve(ctx, &x, 1000) == RD_OK);
  long calls = ca.calls;
  for (int i = 0; i < 1000; i++) {
    rd_nameIndexPut(ctx, &x, text + 16 * i, i);
  }
  CHECK(ca.calls == calls && x.count == 1000 && rd_nameIndexGet(&x, "n999") == 999);

  // a growth that fails leaves every name where it was
  int cap = x.capacity;
  ca.fail_at = ca.calls;
  int st = RD_OK;
  int i = 1000;
  for (; i < N && st == RD_OK; i++) {
    st = rd_nameIndexPut(ctx, &x, text + 16 * i, i);
  }
  CHECK(st == RD_ERR_NOMEM && x.capacity == cap && x.count == i - 1);
  found = 0;
  for (int k = 0; k < i - 1; k++) {
    found += rd_nameIndexGet(&x, text + 16 * k) == k;
  }
  CHECK(found == i - 1 && rd_nameIndexGet(&x, text + 16 * (i - 1)) == -1);
  ca.fail_at = -1;
  rd_nameIndexFree(ctx, &x);
  free(text);
  rd_destroyContext(&ctx);
}


// n point masses of 1 kg on rigid nodes x0 ... x{n-1} along the x axis, each element named as
// its node (separate name spaces); 1 if every one was added at its index
static int add_masses(rdSpec* s, int n) {
  char name[32];
  int ok = 1;
  for (int i = 0; i < n; i++) {
    rdNodeDef nd = rd_defaultNodeDef();
    snprintf(name, sizeof(name), "x%d", i);
    nd.name = name;
    nd.position[0] = i;
    ok &= rds_addNode(s, &nd) == i;
    rdPointMassDef pm = rd_defaultPointMassDef();
    pm.name = name;
    pm.node = i;
    pm.mass = 1;
    ok &= rds_addPointMass(s, &pm) == i;
  }
  return ok;
}


// the spec's lookups on a large model: each kind finds its own names only, duplicates are
// refused, output nodes are kept once
static void test_spec_lookups(void) {
  enum { N = 20000 };
  rdContext* ctx = NULL;
  rdSpec* s = NULL;
  CHECK(rd_createContext(&ctx, NULL) == RD_OK && rd_createSpec(ctx, &s) == RD_OK);
  char name[32];
  int ok = add_masses(s, N);
  CHECK(ok);
  int found = 0;
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof(name), "x%d", i);
    found += rds_find(s, RD_OBJ_NODE, name) == i && rds_find(s, RD_OBJ_ELEMENT, name) == i &&
             rds_find(s, RD_OBJ_JOINT, name) == -1;
  }
  CHECK(found == N);
  CHECK(rds_find(s, RD_OBJ_NODE, "y1") == -1 && rds_find(s, RD_OBJ_OPTION, "x1") == -1 &&
        rds_find(s, (rdObjKind)-1, "x1") == -1 && rds_find(s, RD_OBJ_COUNT, "x1") == -1);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "x123";
  CHECK(rds_addNode(s, &n) == RD_ERR_ARG);
  CHECK(strstr(rd_lastError(ctx), "duplicate node name 'x123'") != NULL);
  CHECK(rds_count(s, RD_OBJ_NODE) == N);
  // output nodes: each once, in the order first given
  for (int i = N - 1; i >= 0; i--) {
    ok &= rds_addOutputNode(s, i) == RD_OK && rds_addOutputNode(s, i) == RD_OK;
  }
  CHECK(ok);
  rdModel* m = NULL;
  CHECK(rd_compile(s, &m) == RD_OK);
  rdModelInfo info;
  CHECK(rd_modelInfo(m, &info) == RD_OK && info.noutput == N);
  CHECK(rd_outputNode(m, 0) == N - 1 && rd_outputNode(m, N - 1) == 0);
  CHECK(rd_findNode(m, "x777") == 777 && rd_findNode(m, "x") == -1);
  rd_destroyModel(&m);
  rd_destroySpec(&s);
  rd_destroyContext(&ctx);
}


// CPU seconds of this process
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


// a spec of n spherical joints to ground, and the CPU time of giving each joint's reaction as an
// output twice (the second a duplicate), in reverse order; -1 if a call failed
static double reaction_seconds(rdContext* ctx, int n, rdModel** model) {
  rdSpec* s = NULL;
  if (rd_createSpec(ctx, &s) != RD_OK) {
    return -1;
  }
  char name[32];
  int ok = add_masses(s, n);
  for (int i = 0; i < n; i++) {
    rdJointDef j = rd_defaultJointDef();
    snprintf(name, sizeof(name), "j%d", i);
    j.name = name;
    j.type = RD_JOINT_SPHERICAL;
    j.node[0] = i;
    j.point[0] = i;
    ok &= rds_addJoint(s, &j) == i;
  }
  double t0 = cpu_seconds();
  for (int i = n - 1; i >= 0; i--) {
    ok &= rds_addOutputReaction(s, i) == RD_OK && rds_addOutputReaction(s, i) == RD_OK;
  }
  double t = cpu_seconds() - t0;
  if (model) {
    ok &= rd_compile(s, model) == RD_OK;
  }
  rd_destroySpec(&s);
  return ok ? t : -1;
}


// review finding: the output reactions are kept once each through the name index, in the order
// first given, in time linear in their number (the scan it replaced was quadratic: 64 times the
// time for 8 times the joints)
static void test_output_reactions(void) {
  rdContext* ctx = NULL;
  CHECK(rd_createContext(&ctx, NULL) == RD_OK);
  rdModel* m = NULL;
  CHECK(reaction_seconds(ctx, 1000, &m) >= 0);
  rdModelInfo info;
  CHECK(m && rd_modelInfo(m, &info) == RD_OK && info.noutput_reaction == 1000);
  CHECK(rd_outputReaction(m, 0) == 999 && rd_outputReaction(m, 999) == 0);
  rd_destroyModel(&m);
  // the least of three rounds each, small and large interleaved
  enum { SMALL = 5000, LARGE = 40000 };
  double small = 1e30, large = 1e30;
  for (int r = 0; r < 3; r++) {
    double a = reaction_seconds(ctx, SMALL, NULL), b = reaction_seconds(ctx, LARGE, NULL);
    CHECK(a >= 0 && b >= 0);
    small = a < small ? a : small;
    large = b < large ? b : large;
  }
  double ratio = large / (small > 1e-6 ? small : 1e-6);
  CHECK_MSG(ratio < 24, "%d reactions took %.3g s, %d took %.3g s: %.1f times (linear: 8)", LARGE,
            large, SMALL, small, ratio);
  printf("  output reactions: %d in %.3g s, %d in %.3g s CPU (%.1f times)\n", SMALL, small, LARGE,
         large, ratio);
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_index());
  TEST_CASE(test_spec_lookups());
  TEST_CASE(test_output_reactions());
  return TEST_SUMMARY();
}
