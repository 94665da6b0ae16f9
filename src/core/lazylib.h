// SPDX-License-Identifier: MIT
// Shared libraries loaded when first needed (dlopen): the BLAS-based solvers and LAPACK, and
// netCDF-C, which a run that does not use them should not pay for at start-up (each pulls in
// OpenBLAS, NetCDF 45 more libraries). A library's functions go into a table of function
// pointers of its own (src/core/lapack.c, solver/linsol_libs.c, src/io/netcdf_lib.c).
#ifndef RD_LAZYLIB_H
#define RD_LAZYLIB_H

#include <stddef.h>

#include "rodrigues/context.h"

// one function to load: its name and where its address goes (a function pointer of `size` bytes)
typedef struct rdLazySym_ {
  const char* name;
  void* slot;
  size_t size;
} rdLazySym;

// a library, loaded at most once per process
typedef struct rdLazyLib_ {
  const char* what;    // for messages: "UMFPACK"
  const char* soname;  // e.g. "libumfpack.so.5"
  int state;           // 0 not tried, 1 loaded, -1 failed (why says why)
  char why[384];
} rdLazyLib;

// fill every slot of syms[0..n) from lib (loading it the first time; under one process-wide
// lock, so several contexts and threads may call it); RD_OK, or RD_ERR_IO raised in ctx saying
// who needed what and why it could not be loaded ("user: cannot load UMFPACK: ..."). The library
// stays loaded until the process ends.
int rd_lazyLoad(rdContext* ctx, rdLazyLib* lib, const rdLazySym* syms, int n, const char* user);

#endif  // RD_LAZYLIB_H
