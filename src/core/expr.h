// SPDX-License-Identifier: MIT
// User formulas (time functions, torque laws), evaluated with muparser.
#ifndef RD_EXPR_H
#define RD_EXPR_H

#include <pthread.h>

#include "rodrigues/context.h"

#define RD_EXPR_MAXVAR 16

// a compiled formula; must not move in memory after rd_exprCreate (the parser keeps pointers
// to `vars`). Evaluation writes `vars`, so it is serialized by `lock`: a model (which owns its
// formulas) may be shared by data objects stepped in different threads.
typedef struct rdExpr_ {
  void* handle;
  double vars[RD_EXPR_MAXVAR];
  int nvar;
  pthread_mutex_t lock;
} rdExpr;

// parse `text` with the space-separated variable names `vars`; raise RD_ERR_ARG naming `owner`
// and the position on a syntax error or an unknown variable
int rd_exprCreate(rdContext* ctx, rdExpr* e, const char* text, const char* vars, const char* owner);

// evaluate with values[0..nvar) for the variables, in the order given at creation
double rd_exprEval(rdExpr* e, const double* values);

// the formula's text as muparser holds it ("" for a zeroed rdExpr)
const char* rd_exprText(rdExpr* e);

// release the parser; accepts a zeroed rdExpr
void rd_exprDestroy(rdExpr* e);

// parse and release: RD_OK or RD_ERR_ARG (raised)
int rd_exprCheck(rdContext* ctx, const char* text, const char* vars, const char* owner);

#endif  // RD_EXPR_H
