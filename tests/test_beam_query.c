// SPDX-License-Identifier: MIT
// rd_getBeamSectionForces against statics: on a cantilever with a tip force P, every section
// carries the shear P and the bending moment P (L - x) (small deflection: P scaled down).
#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rodrigues/rodrigues.h"
#include "tests/support/fail_alloc.h"
#include "tests/test_macros.h"


// the beam model's creation path (deck, compile, data, initialize) with allocation n failing:
// every failure is RD_ERR_NOMEM and leaks nothing; returns 1 once the path gets through
static int beam_path(long n, int* bad) {
  failAlloc fa = {0, n, 0};
  rdAllocator a = {fa_malloc, fa_free, &fa};
  rdContext* ctx = NULL;
  rdSpec* s = NULL;
  rdModel* m = NULL;
  rdData* d = NULL;
  int st = rd_createContext(&ctx, &a);
  st = st ? st : rd_readDeck(ctx, "input/beam/composite_static.yaml", NULL, 0, &s);
  st = st ? st : rd_compile(s, &m);
  st = st ? st : rd_createData(m, &d);
  st = st ? st : rd_initialize(m, d);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroySpec(&s);
  rd_destroyContext(&ctx);
  if ((st != RD_OK && st != RD_ERR_NOMEM) || fa.live != 0) {
    (*bad)++;
    printf("allocation %ld failing: status %s, %ld blocks leaked\n", n, rd_statusName(st), fa.live);
  }
  return st == RD_OK;
}


// every allocation of the creation path failing in turn
static void test_alloc_failures(void) {
  int bad = 0;
  long n = 0;
  while (n < 100000 && !beam_path(n, &bad)) {
    n++;
  }
  printf("beam model creation path: %ld allocations, each made to fail once\n", n);
  CHECK(n > 10 && n < 100000);
  CHECK(bad == 0);
}


// section forces of the composite cantilever under a small tip force against statics, the same
// forces in the NetCDF file, misuse
static void test_section_forces(void) {
  rdContext* ctx;
  rd_createContext(&ctx, NULL);
  const double P = 1e-3, L = 10;
  const char* set[] = {"loads.tip_force.value=[0, 0, 1e-3]"};
  rdSpec* s = NULL;
  CHECK_MSG(rd_readDeck(ctx, "input/beam/composite_static.yaml", set, 1, &s) == RD_OK, "%s",
            rd_lastError(ctx));
  rdModel* m = NULL;
  CHECK_MSG(rd_compile(s, &m) == RD_OK, "%s", rd_lastError(ctx));
  rd_destroySpec(&s);
  rdModelInfo info;
  CHECK(rd_modelInfo(m, &info) == RD_OK && info.nbeam == 1);
  rdData* d = NULL;
  CHECK(rd_createData(m, &d) == RD_OK);
  CHECK(rd_initialize(m, d) == RD_OK);
  CHECK_MSG(rd_advance(m, d, 1, NULL, NULL) == RD_OK, "%s", rd_lastError(ctx));

  int nq = 0;
  CHECK(rd_getBeamSectionForces(m, d, 0, &nq, NULL, NULL) == RD_OK);
  CHECK(nq >= 15);
  double x[64 * 3], F[64 * 6];
  CHECK(nq <= 64 && rd_getBeamSectionForces(m, d, 0, &nq, x, F) == RD_OK);
  // section frame = global to O(1e-5) rotations here: shear along z, moment about y
  double worst_shear = 0, worst_moment = 0, worst_other = 0;
  for (int g = 0; g < nq; g++) {
    worst_shear = fmax(worst_shear, fabs(fabs(F[6 * g + 2]) - P) / P);
    worst_moment = fmax(worst_moment, fabs(fabs(F[6 * g + 4]) - P * (L - x[3 * g])) / (P * L));
    worst_other = fmax(worst_other, fmax(fabs(F[6 * g + 1]), fabs(F[6 * g + 5])) / P);
  }
  printf("shear error %.2e, moment error %.2e (relative), other components %.2e P\n", worst_shear,
         worst_moment, worst_other);
  CHECK(worst_shear < 1e-3);
  CHECK(worst_moment < 1e-3);
  CHECK(worst_other < 1e-3);
  // the NetCDF writer stores the same section forces
  char path[] = "/tmp/rd_beamnc_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  rdNetcdf* nc = NULL;
  CHECK(rd_createNetcdf(m, path, &nc) == RD_OK);
  CHECK(rd_writeNetcdf(nc, m, d) == RD_OK);
  CHECK(rd_closeNetcdf(&nc, 1) == RD_OK);
  int id, var, off[2] = {-1, -1};
  double Fn[64 * 3], Mn[64 * 3];
  size_t start[3] = {0, 0, 0}, count[3] = {1, (size_t)nq, 3};
  CHECK(nc_open(path, NC_NOWRITE, &id) == NC_NOERR);
  CHECK(nc_inq_varid(id, "beam_section_force", &var) == NC_NOERR);
  CHECK(nc_get_vara_double(id, var, start, count, Fn) == NC_NOERR);
  CHECK(nc_inq_varid(id, "beam_section_moment", &var) == NC_NOERR);
  CHECK(nc_get_vara_double(id, var, start, count, Mn) == NC_NOERR);
  CHECK(nc_get_att_int(id, NC_GLOBAL, "beam_qpoint_offset", off) == NC_NOERR);
  CHECK(off[0] == 0 && off[1] == nq);
  int same = 0;
  for (int g = 0; g < nq; g++) {
    same += !memcmp(Fn + 3 * g, F + 6 * g, 3 * sizeof(double));
    same += !memcmp(Mn + 3 * g, F + 6 * g + 3, 3 * sizeof(double));
  }
  CHECK(same == 2 * nq);
  nc_close(id);
  remove(path);
  // misuse
  CHECK(rd_getBeamSectionForces(m, d, 1, &nq, x, F) == RD_ERR_ARG);
  CHECK(rd_getBeamSectionForces(m, d, 0, NULL, x, F) == RD_ERR_ARG);
  CHECK(rd_getBeamSectionForces(NULL, d, 0, &nq, x, F) == RD_ERR_HANDLE);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_alloc_failures());
  TEST_CASE(test_section_forces());
  return TEST_SUMMARY();
}
