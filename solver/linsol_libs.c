// SPDX-License-Identifier: MIT
// UMFPACK and CHOLMOD on demand (linsol_libs.h): from dlopen with RD_UMFPACK_SONAME and
// RD_CHOLMOD_SONAME (meson reads the sonames of the libraries it builds against), else linked.
#include "solver/linsol_libs.h"

#include "src/core/core.h"
#include "src/core/lazylib.h"

#define SYM(table, name, field) \
  { name, &table.field, sizeof(table.field) }
#define COUNT(a) ((int)(sizeof(a) / sizeof(a[0])))

#ifdef RD_UMFPACK_SONAME

static rdUmfpack g_umf;
static rdLazyLib g_umf_lib = {"UMFPACK", RD_UMFPACK_SONAME, 0, ""};


const rdUmfpack* rd_umfpack(rdContext* ctx) {
  const rdLazySym syms[] = {
      SYM(g_umf, "umfpack_di_defaults", defaults),
      SYM(g_umf, "umfpack_di_symbolic", symbolic),
      SYM(g_umf, "umfpack_di_numeric", numeric),
      SYM(g_umf, "umfpack_di_solve", solve),
      SYM(g_umf, "umfpack_di_get_numeric", get_numeric),
      SYM(g_umf, "umfpack_di_free_symbolic", free_symbolic),
      SYM(g_umf, "umfpack_di_free_numeric", free_numeric),
  };
  int st = rd_lazyLoad(ctx, &g_umf_lib, syms, COUNT(syms), "solver.linear_solver = umfpack");
  return st == RD_OK ? &g_umf : NULL;
}

#else

const rdUmfpack* rd_umfpack(rdContext* ctx) {
  static const rdUmfpack linked = {
      umfpack_di_defaults,    umfpack_di_symbolic,      umfpack_di_numeric,     umfpack_di_solve,
      umfpack_di_get_numeric, umfpack_di_free_symbolic, umfpack_di_free_numeric};
  (void)ctx;
  return &linked;
}

#endif

#ifdef RD_CHOLMOD_SONAME

static rdCholmod g_chol;
static rdLazyLib g_chol_lib = {"CHOLMOD", RD_CHOLMOD_SONAME, 0, ""};


const rdCholmod* rd_cholmod(rdContext* ctx) {
  const rdLazySym syms[] = {
      SYM(g_chol, "cholmod_start", start),
      SYM(g_chol, "cholmod_finish", finish),
      SYM(g_chol, "cholmod_allocate_sparse", allocate_sparse),
      SYM(g_chol, "cholmod_free_sparse", free_sparse),
      SYM(g_chol, "cholmod_analyze", analyze),
      SYM(g_chol, "cholmod_factorize", factorize),
      SYM(g_chol, "cholmod_free_factor", free_factor),
      SYM(g_chol, "cholmod_rcond", rcond),
      SYM(g_chol, "cholmod_solve2", solve2),
      SYM(g_chol, "cholmod_free_dense", free_dense),
  };
  int st = rd_lazyLoad(ctx, &g_chol_lib, syms, COUNT(syms), "solver.linear_solver = cholmod");
  return st == RD_OK ? &g_chol : NULL;
}

#else

const rdCholmod* rd_cholmod(rdContext* ctx) {
  static const rdCholmod linked = {cholmod_start,       cholmod_finish,  cholmod_allocate_sparse,
                                   cholmod_free_sparse, cholmod_analyze, cholmod_factorize,
                                   cholmod_free_factor, cholmod_rcond,   cholmod_solve2,
                                   cholmod_free_dense};
  (void)ctx;
  return &linked;
}

#endif
