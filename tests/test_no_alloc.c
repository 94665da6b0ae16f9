// SPDX-License-Identifier: MIT
// Nothing is allocated in the time loop (docs/architecture.md): malloc, calloc and realloc are
// counted around 100 steps, after a few steps of warm-up (OpenBLAS sets itself up at its first
// call), for generalized-alpha with the linear solvers that refactor in place (dense, KLU;
// UMFPACK and CHOLMOD allocate in each numeric factorization, as docs/architecture.md says) and
// for the rigid-body methods. This program replaces malloc and its kin to count them,
// so it is not built with the sanitizers (which replace them too). Issue 16, finding 11: the
// dense backend allocated dgecon's workspace at every factorization.
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "tests/test_macros.h"

void* __libc_malloc(size_t size);
void* __libc_calloc(size_t n, size_t size);
void* __libc_realloc(void* p, size_t size);

static long allocations;


void* malloc(size_t size) {
  allocations++;
  return __libc_malloc(size);
}


void* calloc(size_t n, size_t size) {
  allocations++;
  return __libc_calloc(n, size);
}


void* realloc(void* p, size_t size) {
  allocations++;
  return __libc_realloc(p, size);
}


static const char deck[] =
    "gravity: [0, 0, -9.81]\n"
    "nodes:\n"
    "  - {name: a, position: [1, 0, 0]}\n"
    "  - {name: b, position: [2, 0, 0]}\n"
    "elements:\n"
    "  - {type: rigid_body, name: A, node: a, mass: 1, inertia: [0.1, 0.1, 0.1]}\n"
    "  - {type: rigid_body, name: B, node: b, mass: 1, inertia: [0.1, 0.1, 0.1]}\n"
    "joints:\n"
    "  - {name: pin, type: revolute, node: a, point: [0, 0, 0], axis: [0, 1, 0]}\n"
    "  - {name: hinge, type: revolute, nodes: [b, a], point: [1, 0, 0], axis: [0, 1, 0]}\n";

static const char top[] =
    "nodes:\n"
    "  - {name: top, angular_velocity: [1, 2, 30], angular_velocity_frame: body}\n"
    "elements:\n"
    "  - {type: rigid_body, name: body, node: top, mass: 2, inertia: [1, 2, 3]}\n";


static void count_steps(const char* text, const char* method, const char* solver) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  char set0[64], set1[64];
  snprintf(set0, sizeof(set0), "solver.method=%s", method);
  snprintf(set1, sizeof(set1), "solver.linear_solver=%s", solver ? solver : "auto");
  const char* sets[2] = {set0, set1};
  rdSpec* spec = NULL;
  rdModel* m = NULL;
  rdData* d = NULL;
  int st = rd_readDeckText(ctx, "model.yaml", text, strlen(text), sets, 2, &spec);
  st = st ? st : rd_compile(spec, &m);
  st = st ? st : rd_createData(m, &d);
  st = st ? st : rd_initialize(m, d);
  for (int k = 0; st == RD_OK && k < 5; k++) {
    st = rd_step(m, d, 1e-3);
  }
  long before = allocations;
  for (int k = 0; st == RD_OK && k < 100; k++) {
    st = rd_step(m, d, 1e-3);
  }
  long n = allocations - before;
  CHECK_MSG(st == RD_OK, "%s %s: %s", method, solver ? solver : "", rd_lastError(ctx));
  CHECK_MSG(n == 0, "%s %s: %ld allocations in 100 steps", method, solver ? solver : "", n);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroySpec(&spec);
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(count_steps(deck, "generalized_alpha", "dense"));
  TEST_CASE(count_steps(deck, "generalized_alpha", "klu"));
  const char* rigid[] = {"nmb", "nms", "liemid_ea", "sw", "akw"};
  for (int k = 0; k < 5; k++) {
    TEST_CASE(count_steps(top, rigid[k], NULL));
  }
  return TEST_SUMMARY();
}
