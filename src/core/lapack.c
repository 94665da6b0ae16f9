// SPDX-License-Identifier: MIT
// LAPACKE on demand (lapack.h): from dlopen with RD_LAPACKE_SONAME (meson reads the soname of
// the library it builds against), else linked.
#include "src/core/core.h"
#include "src/core/lazylib.h"

// last: lapacke.h brings complex.h
#include "src/core/lapack.h"

#ifdef RD_LAPACKE_SONAME

static rdLapack g_lapack;
static rdLazyLib g_lib = {"LAPACKE", RD_LAPACKE_SONAME, 0, ""};


const rdLapack* rd_lapack(rdContext* ctx, const char* what) {
  const rdLazySym syms[] = {
      {"LAPACKE_dgetrf", &g_lapack.dgetrf, sizeof(g_lapack.dgetrf)},
      {"LAPACKE_dgecon_work", &g_lapack.dgecon_work, sizeof(g_lapack.dgecon_work)},
      {"LAPACKE_dgetrs", &g_lapack.dgetrs, sizeof(g_lapack.dgetrs)},
      {"LAPACKE_dgesv", &g_lapack.dgesv, sizeof(g_lapack.dgesv)},
      {"LAPACKE_dgeqp3_work", &g_lapack.dgeqp3_work, sizeof(g_lapack.dgeqp3_work)},
      {"LAPACKE_dsyev", &g_lapack.dsyev, sizeof(g_lapack.dsyev)},
      {"LAPACKE_dsygvd", &g_lapack.dsygvd, sizeof(g_lapack.dsygvd)},
      {"LAPACKE_dgeev", &g_lapack.dgeev, sizeof(g_lapack.dgeev)},
      {"LAPACKE_dgeqp3", &g_lapack.dgeqp3, sizeof(g_lapack.dgeqp3)},
      {"LAPACKE_dorgqr", &g_lapack.dorgqr, sizeof(g_lapack.dorgqr)},
      {"LAPACKE_dposv", &g_lapack.dposv, sizeof(g_lapack.dposv)},
      {"LAPACKE_dgelsd", &g_lapack.dgelsd, sizeof(g_lapack.dgelsd)},
  };
  int n = (int)(sizeof(syms) / sizeof(syms[0]));
  return rd_lazyLoad(ctx, &g_lib, syms, n, what) == RD_OK ? &g_lapack : NULL;
}

#else

const rdLapack* rd_lapack(rdContext* ctx, const char* what) {
  static const rdLapack linked = {LAPACKE_dgetrf, LAPACKE_dgecon_work, LAPACKE_dgetrs,
                                  LAPACKE_dgesv,  LAPACKE_dgeqp3_work, LAPACKE_dsyev,
                                  LAPACKE_dsygvd, LAPACKE_dgeev,       LAPACKE_dgeqp3,
                                  LAPACKE_dorgqr, LAPACKE_dposv,       LAPACKE_dgelsd};
  (void)ctx;
  (void)what;
  return &linked;
}

#endif
