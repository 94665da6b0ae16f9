// SPDX-License-Identifier: MIT
// Libraries loaded when first used (src/core/lazylib.c): the loader's messages for a library or
// a function that is missing, a function that works once loaded, and what the process has
// mapped as a run goes: nothing of OpenBLAS, UMFPACK, CHOLMOD or netCDF for a model solved with
// KLU or the dense backend's own LU, each of them once a model or an output needs it.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "src/core/lazylib.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

static void test_loader(void) {
  rdContext* ctx = NULL;
  CHECK(rd_createContext(&ctx, NULL) == RD_OK);
  double (*fn)(double) = NULL;
  rdLazySym cos_sym[] = {{"cos", &fn, sizeof(fn)}};
  rdLazyLib none = {"Nothing", "librodrigues-none.so.9", 0, ""};
  CHECK(rd_lazyLoad(ctx, &none, cos_sym, 1, "the test") == RD_ERR_IO);
  printf("missing library: %s\n", rd_lastError(ctx));
  CHECK(strstr(rd_lastError(ctx), "the test: cannot load Nothing: librodrigues-none.so.9") != NULL);
  CHECK(none.state == -1 && fn == NULL);
  // a failure is remembered: the same error without a second attempt
  CHECK(rd_lazyLoad(ctx, &none, cos_sym, 1, "again") == RD_ERR_IO);
  CHECK(strstr(rd_lastError(ctx), "again: cannot load Nothing") != NULL);
  rdLazySym bad_sym[] = {{"cos", &fn, sizeof(fn)}, {"rd_no_such_function", &fn, sizeof(fn)}};
  rdLazyLib libm_bad = {"libm", "libm.so.6", 0, ""};
  CHECK(rd_lazyLoad(ctx, &libm_bad, bad_sym, 2, "the test") == RD_ERR_IO);
  printf("missing function: %s\n", rd_lastError(ctx));
  CHECK(strstr(rd_lastError(ctx), "libm.so.6 has no rd_no_such_function") != NULL);
  rdLazyLib libm = {"libm", "libm.so.6", 0, ""};
  fn = NULL;
  CHECK(rd_lazyLoad(ctx, &libm, cos_sym, 1, "the test") == RD_OK && libm.state == 1);
  CHECK(fn && fn(0.0) == 1.0 && fabs(fn(3.141592653589793) + 1) < 1e-15);
  rd_destroyContext(&ctx);
}


// 1 if a file whose name contains `name` is mapped into this process
static int mapped(const char* name) {
  FILE* f = fopen("/proc/self/maps", "r");
  if (!f) {
    return -1;
  }
  char line[4096];
  int found = 0;
  while (!found && fgets(line, sizeof(line), f)) {
    found = strstr(line, name) != NULL;
  }
  fclose(f);
  return found;
}


// a heavy top stepped 10 times with the linear solver `linsol`, and a history.nc if netcdf
static int run_top(rdContext* ctx, const char* linsol, int netcdf) {
  rdModel* m = NULL;
  rdData* d = NULL;
  int st = model_make(model_heavyTopAlpha(ctx, 0.9, 1e-3, linsol), &m, &d);
  for (int k = 0; k < 10 && st == RD_OK; k++) {
    st = rd_step(m, d, 0);
  }
  if (st == RD_OK && netcdf) {
    rdNetcdf* nc = NULL;
    const char* path = "test_lazylib.nc";
    st = rd_createNetcdf(m, path, &nc);
    st = st ? st : rd_writeNetcdf(nc, m, d);
    int cl = rd_closeNetcdf(&nc, 1);
    st = st ? st : cl;
    remove(path);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  return st;
}


static void test_on_demand(void) {
#if defined(RD_UMFPACK_SONAME) && defined(RD_LAPACKE_SONAME) && defined(RD_NETCDF_SONAME)
  rdContext* ctx = NULL;
  CHECK(rd_createContext(&ctx, NULL) == RD_OK);
  if (mapped("libc.so") != 1) {
    printf("no /proc/self/maps: skipped\n");
    rd_destroyContext(&ctx);
    return;
  }
  CHECK(run_top(ctx, "klu", 0) == RD_OK);
  printf("after a KLU run: openblas %d, umfpack %d, cholmod %d, lapacke %d, netcdf %d\n",
         mapped("openblas"), mapped("libumfpack"), mapped("libcholmod"), mapped("liblapacke"),
         mapped("libnetcdf"));
  CHECK(!mapped("openblas") && !mapped("libumfpack") && !mapped("libcholmod") &&
        !mapped("liblapacke") && !mapped("libnetcdf"));
  CHECK(!mapped("libarpack"));  // the modal analysis's, loaded by its first ARPACK solve
  CHECK(run_top(ctx, "umfpack", 0) == RD_OK);
  CHECK(mapped("libumfpack") == 1 && !mapped("libnetcdf"));
  // the dense backend factors a model this small with its own LU: still no LAPACK
  CHECK(run_top(ctx, "dense", 0) == RD_OK);
  CHECK(!mapped("liblapacke"));
  CHECK_MSG(run_top(ctx, "klu", 1) == RD_OK, "%s", rd_lastError(ctx));
  CHECK(mapped("libnetcdf") == 1);
  rd_destroyContext(&ctx);
#else
  printf("built with the libraries linked: nothing to load on demand\n");
#endif
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_loader());
  TEST_CASE(test_on_demand());
  return TEST_SUMMARY();
}
