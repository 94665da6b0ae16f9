// SPDX-License-Identifier: MIT
// From a spec or a deck to a compiled model and initialized data, the error printed on failure.
#include <stdio.h>

#include "tests/support/models.h"

// compiles s (destroyed here), creates and initializes data; the error after `what` (may be
// NULL) and the stage that failed
static int make(rdSpec* s, rdModel** m, rdData** d, const char* what) {
  rdContext* ctx = rds_context(s);
  const char* prefix = what ? what : "";
  const char* sep = what ? ": " : "";
  int st = rd_compile(s, m);
  rd_destroySpec(&s);
  if (st) {
    printf("%s%scompile: %s\n", prefix, sep, rd_lastError(ctx));
    return st;
  }
  st = rd_createData(*m, d);
  if (st) {
    printf("%s%screateData: %s\n", prefix, sep, rd_lastError(ctx));
    return st;
  }
  st = rd_initialize(*m, *d);
  if (st) {
    printf("%s%sinitialize: %s\n", prefix, sep, rd_lastError(ctx));
  }
  return st;
}


rdModel* model_compile(rdSpec* s) {
  if (!s) {
    return NULL;
  }
  rdContext* ctx = rds_context(s);
  rdModel* m = NULL;
  if (rd_compile(s, &m) != RD_OK) {
    printf("compile: %s\n", rd_lastError(ctx));
  }
  rd_destroySpec(&s);
  return m;
}


int model_make(rdSpec* s, rdModel** m, rdData** d) {
  *m = NULL;
  *d = NULL;
  if (!s) {
    return -1;
  }
  return make(s, m, d, NULL);
}


int model_openDeck(rdContext* ctx, const char* path, const char* const* set, int nset, rdModel** m,
                   rdData** d) {
  *m = NULL;
  *d = NULL;
  rdSpec* s = NULL;
  int st = rd_readDeck(ctx, path, set, nset, &s);
  if (st) {
    printf("%s: %s\n", path, rd_lastError(ctx));
    return st;
  }
  return make(s, m, d, path);
}
