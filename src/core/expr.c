// SPDX-License-Identifier: MIT
// User formulas through muparser's C interface.
#include "src/core/expr.h"

#include <muParserDLL.h>
#include <stdio.h>
#include <string.h>

#include "src/core/core.h"

int rd_exprCreate(rdContext* ctx, rdExpr* e, const char* text, const char* vars,
                  const char* owner) {
  memset(e, 0, sizeof(*e));
  muParserHandle_t h = mupCreate(muBASETYPE_FLOAT);
  if (!h) {
    return RD_ERROR(ctx, RD_ERR_NOMEM, "cannot create an expression parser");
  }
  // define the variables in order, bound to e->vars
  char names[256];
  snprintf(names, sizeof(names), "%s", vars);
  int n = 0;
  for (char* tok = strtok(names, " "); tok && n < RD_EXPR_MAXVAR; tok = strtok(NULL, " ")) {
    mupDefineVar(h, tok, &e->vars[n++]);
  }
  e->nvar = n;
  mupSetExpr(h, text);
  (void)mupEval(h);
  if (mupError(h)) {
    const char* tok = mupGetErrorToken(h);
    int pos = (int)mupGetErrorPos(h);
    int st;
    if (tok && *tok && mupGetErrorCode(h) == 1 /* ecUNASSIGNABLE_TOKEN */) {
      st = RD_ERROR(ctx, RD_ERR_ARG,
                    "%s: unknown name '%s' at position %d of expression \"%s\" (variables: %s)",
                    owner, tok, pos + 1, text, vars);
    } else {
      st = RD_ERROR(ctx, RD_ERR_ARG, "%s: invalid expression \"%s\": %s", owner, text,
                    mupGetErrorMsg(h));
    }
    mupRelease(h);
    return st;
  }
  if (pthread_mutex_init(&e->lock, NULL)) {
    mupRelease(h);
    return RD_ERROR(ctx, RD_ERR_NOMEM, "cannot create a mutex for %s", owner);
  }
  e->handle = h;
  return RD_OK;
}


double rd_exprEval(rdExpr* e, const double* values) {
  pthread_mutex_lock(&e->lock);
  for (int i = 0; i < e->nvar; i++) {
    e->vars[i] = values[i];
  }
  double v = mupEval((muParserHandle_t)e->handle);
  pthread_mutex_unlock(&e->lock);
  return v;
}


const char* rd_exprText(rdExpr* e) {
  if (!e->handle) {
    return "";
  }
  pthread_mutex_lock(&e->lock);
  const char* text = mupGetExpr((muParserHandle_t)e->handle);
  pthread_mutex_unlock(&e->lock);
  return text ? text : "";
}


void rd_exprDestroy(rdExpr* e) {
  if (e->handle) {
    mupRelease((muParserHandle_t)e->handle);
    pthread_mutex_destroy(&e->lock);
  }
  e->handle = NULL;
}


int rd_exprCheck(rdContext* ctx, const char* text, const char* vars, const char* owner) {
  rdExpr e;
  int st = rd_exprCreate(ctx, &e, text, vars, owner);
  rd_exprDestroy(&e);
  return st;
}
