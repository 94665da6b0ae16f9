// SPDX-License-Identifier: MIT
// The LAPACKE functions the library calls, loaded when first needed (lazylib.h): LAPACK comes
// with OpenBLAS, the heaviest library to load and one that starts threads when it is loaded.
// Include this header last: lapacke.h brings complex.h, whose macro I clashes with names.
#ifndef RD_LAPACK_H
#define RD_LAPACK_H

#include <lapacke.h>

#include "rodrigues/context.h"

typedef struct rdLapack_ {
  __typeof__(&LAPACKE_dgetrf) dgetrf;
  __typeof__(&LAPACKE_dgecon_work) dgecon_work;
  __typeof__(&LAPACKE_dgetrs) dgetrs;
  __typeof__(&LAPACKE_dgesv) dgesv;
  __typeof__(&LAPACKE_dgeqp3_work) dgeqp3_work;
  __typeof__(&LAPACKE_dsyev) dsyev;
  // the modal analysis (solver/eigen.c, nullspace.c, src/sim/modal.c, statespace.c)
  __typeof__(&LAPACKE_dsygvd) dsygvd;
  __typeof__(&LAPACKE_dgeev) dgeev;
  __typeof__(&LAPACKE_dgeqp3) dgeqp3;
  __typeof__(&LAPACKE_dorgqr) dorgqr;
  __typeof__(&LAPACKE_dposv) dposv;
  __typeof__(&LAPACKE_dgelsd) dgelsd;
} rdLapack;

// the functions, or NULL with RD_ERR_IO raised in ctx (LAPACKE could not be loaded); `what`
// names the user in the message ("the dense linear solver")
const rdLapack* rd_lapack(rdContext* ctx, const char* what);

#endif  // RD_LAPACK_H
