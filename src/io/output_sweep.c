// SPDX-License-Identifier: MIT
// The tables of a sweep: DIR/index.csv (the cases), DIR/sweep.csv and DIR/sweep.nc (the results
// by case), each written under a temporary name and renamed.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "src/core/atomic_file.h"
#include "src/core/core.h"
#include "src/core/strutil.h"
#include "src/io/netcdf_lib.h"
#include "src/io/sweep_impl.h"

// a CSV field, quoted as RFC 4180 asks when it holds a comma, quote or line break
static void put_field(FILE* f, const char* s, int first) {
  if (!first) {
    fputc(',', f);
  }
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') {
      fputc('"', f);
    }
    fputc(*s, f);
  }
  fputc('"', f);
}


// a number; empty when it is not finite
static void put_number(FILE* f, double x) {
  fputc(',', f);
  if (isfinite(x)) {
    fprintf(f, "%.17g", x);
  }
}


static char* join(rdContext* ctx, const char* dir, const char* name) {
  char* p = rd_alloc(ctx, strlen(dir) + strlen(name) + 2);
  if (p) {
    size_t n = strlen(dir);
    sprintf(p, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
  }
  return p;
}


// open DIR/NAME for an atomic write
static FILE* open_table(const rdSweep* sw, const char* dir, const char* name, char** path,
                        char** tmp) {
  *tmp = NULL;
  *path = join(sw->ctx, dir, name);
  FILE* f = *path ? rd_atomicOpen(sw->ctx, *path, tmp) : NULL;
  if (!f) {
    rd_free(sw->ctx, *path);
    *path = NULL;
  }
  return f;
}


static int close_table(const rdSweep* sw, FILE* f, char* path, char* tmp) {
  int st = rd_atomicCommit(sw->ctx, f, tmp, path, 0);
  rd_free(sw->ctx, tmp);
  rd_free(sw->ctx, path);
  return st;
}


int rd_writeSweepIndex(const rdSweep* sw, const char* dir) {
  if (!rd_sweepValid(sw) || !dir) {
    return RD_ERR_HANDLE;
  }
  char *path, *tmp;
  FILE* f = open_table(sw, dir, "index.csv", &path, &tmp);
  if (!f) {
    return rd_lastStatus(sw->ctx);
  }
  fputs("case,id", f);
  for (int v = 0; v < sw->nvar; v++) {
    put_field(f, sw->var[v], 0);
  }
  fputc('\n', f);
  for (int i = 0; i < sw->ncase; i++) {
    fprintf(f, "%d", i);
    put_field(f, sw->id[i], 0);
    for (int v = 0; v < sw->nvar; v++) {
      const char* val = sw->value[(size_t)i * (size_t)sw->nvar + (size_t)v];
      put_field(f, val ? val : "", 0);
    }
    fputc('\n', f);
  }
  return close_table(sw, f, path, tmp);
}


static int write_csv(const rdSweep* sw, const rdCaseResult* res, const char* dir) {
  char *path, *tmp;
  FILE* f = open_table(sw, dir, "sweep.csv", &path, &tmp);
  if (!f) {
    return rd_lastStatus(sw->ctx);
  }
  fputs("case,id", f);
  for (int v = 0; v < sw->nvar; v++) {
    put_field(f, sw->var[v], 0);
  }
  fputs(",state,exit_code,wall_time,steps,rejected_steps", f);
  for (int q = 0; q < sw->nquantity; q++) {
    put_field(f, sw->quantity[q], 0);
  }
  fputs(",error\n", f);
  for (int i = 0; i < sw->ncase; i++) {
    const rdCaseResult* r = res + i;
    fprintf(f, "%d", i);
    put_field(f, sw->id[i], 0);
    for (int v = 0; v < sw->nvar; v++) {
      const char* val = sw->value[(size_t)i * (size_t)sw->nvar + (size_t)v];
      put_field(f, val ? val : "", 0);
    }
    fprintf(f, ",%s,%d,", rd_caseStateName(r->state), r->exit_code);
    if (isfinite(r->wall_time)) {
      fprintf(f, "%.6g", r->wall_time);  // a measurement: six digits are plenty
    }
    fprintf(f, ",%ld,%ld", r->steps, r->rejected_steps);
    for (int q = 0; q < sw->nquantity; q++) {
      put_number(f, r->values[q]);
    }
    put_field(f, r->error, 0);
    fputc('\n', f);
  }
  return close_table(sw, f, path, tmp);
}

// ---------------------------------------------------------------------------------------------
// NetCDF

// 1 if every value of variable v that is set reads as a number (and one is)
static int numeric_variable(const rdSweep* sw, int v) {
  int any = 0;
  for (int i = 0; i < sw->ncase; i++) {
    const char* val = sw->value[(size_t)i * (size_t)sw->nvar + (size_t)v];
    double x;
    if (val && rd_parseReal(val, &x) != 0) {
      return 0;
    }
    any |= val != NULL;
  }
  return any;
}


static int put_text(const rdNetcdfLib* L, int id, int var, const char* name, const char* text) {
  return L->put_att_text(id, var, name, strlen(text), text);
}


// a string variable (case) from texts[i] (NULL: "")
static int def_strings(const rdNetcdfLib* L, int id, int dim, const char* name, int* var) {
  return L->def_var(id, name, NC_STRING, 1, &dim, var);
}


static int put_strings(const rdNetcdfLib* L, int id, int var, const char** texts, int n) {
  for (int i = 0; i < n; i++) {
    const char* s = texts[i] ? texts[i] : "";
    size_t at[1] = {(size_t)i};
    int e = L->put_var1_string(id, var, at, &s);
    if (e) {
      return e;
    }
  }
  return NC_NOERR;
}


typedef struct {
  const rdNetcdfLib* L;
  int id, dim;
  int vcase, vid, vstate, vexit, vwall, vsteps, vrejected, verror;
  int* vvar;  // nvar
  int* vq;    // nquantity
  int* num;   // nvar: 1 if numeric
} ncTable;


static int define_nc(const rdSweep* sw, ncTable* t, const char* coords) {
  const rdNetcdfLib* L = t->L;
  int id = t->id, d = t->dim, e;
  double nan = NAN;
  if ((e = L->def_var(id, "case", NC_INT, 1, &d, &t->vcase)) ||
      (e = def_strings(L, id, d, "id", &t->vid))) {
    return e;
  }
  for (int v = 0; v < sw->nvar; v++) {
    t->num[v] = numeric_variable(sw, v);
    e = t->num[v] ? L->def_var(id, sw->var[v], NC_DOUBLE, 1, &d, t->vvar + v)
                  : def_strings(L, id, d, sw->var[v], t->vvar + v);
    if (!e && t->num[v]) {
      e = L->put_att_double(id, t->vvar[v], "_FillValue", NC_DOUBLE, 1, &nan);
    }
    if (!e) {
      e = put_text(L, id, t->vvar[v], "long_name",
                   sw->is_param[v] ? "sweep parameter" : "deck value set by the sweep");
    }
    if (e) {
      return e;
    }
  }
  if ((e = def_strings(L, id, d, "state", &t->vstate)) ||
      (e = L->def_var(id, "exit_code", NC_INT, 1, &d, &t->vexit)) ||
      (e = L->def_var(id, "wall_time", NC_DOUBLE, 1, &d, &t->vwall)) ||
      (e = put_text(L, id, t->vwall, "units", "s")) ||
      (e = L->put_att_double(id, t->vwall, "_FillValue", NC_DOUBLE, 1, &nan)) ||
      (e = L->def_var(id, "steps", NC_INT64, 1, &d, &t->vsteps)) ||
      (e = L->def_var(id, "rejected_steps", NC_INT64, 1, &d, &t->vrejected))) {
    return e;
  }
  for (int q = 0; q < sw->nquantity; q++) {
    if ((e = L->def_var(id, sw->quantity[q], NC_DOUBLE, 1, &d, t->vq + q)) ||
        (e = L->put_att_double(id, t->vq[q], "_FillValue", NC_DOUBLE, 1, &nan)) ||
        (e = put_text(L, id, t->vq[q], "coordinates", coords))) {
      return e;
    }
  }
  if ((e = def_strings(L, id, d, "error", &t->verror)) ||
      (e = put_text(L, id, NC_GLOBAL, "title", "rodrigues sweep")) ||
      (e = put_text(L, id, NC_GLOBAL, "sweep_file", sw->path)) ||
      (e = put_text(L, id, NC_GLOBAL, "deck", sw->deck))) {
    return e;
  }
  return L->enddef(id);
}


static int fill_nc(const rdSweep* sw, const rdCaseResult* res, ncTable* t, double* col,
                   const char** texts) {
  const rdNetcdfLib* L = t->L;
  int id = t->id, n = sw->ncase, e;
  for (int i = 0; i < n; i++) {
    size_t at[1] = {(size_t)i};
    long long steps = res[i].steps, rejected = res[i].rejected_steps;
    const char* state = rd_caseStateName(res[i].state);
    const char* err = res[i].error;
    if ((e = L->put_var1_int(id, t->vcase, at, &i)) ||
        (e = L->put_var1_string(id, t->vid, at, (const char**)&sw->id[i])) ||
        (e = L->put_var1_string(id, t->vstate, at, &state)) ||
        (e = L->put_var1_int(id, t->vexit, at, &res[i].exit_code)) ||
        (e = L->put_var1_double(id, t->vwall, at, &res[i].wall_time)) ||
        (e = L->put_var1_longlong(id, t->vsteps, at, &steps)) ||
        (e = L->put_var1_longlong(id, t->vrejected, at, &rejected)) ||
        (e = L->put_var1_string(id, t->verror, at, &err))) {
      return e;
    }
  }
  for (int v = 0; v < sw->nvar; v++) {
    for (int i = 0; i < n; i++) {
      texts[i] = sw->value[(size_t)i * (size_t)sw->nvar + (size_t)v];
      col[i] = NAN;
      if (t->num[v] && texts[i]) {
        rd_parseReal(texts[i], col + i);
      }
    }
    e = t->num[v] ? L->put_var_double(id, t->vvar[v], col)
                  : put_strings(L, id, t->vvar[v], texts, n);
    if (e) {
      return e;
    }
  }
  for (int q = 0; q < sw->nquantity; q++) {
    for (int i = 0; i < n; i++) {
      col[i] = res[i].values[q];
    }
    if ((e = L->put_var_double(id, t->vq[q], col))) {
      return e;
    }
  }
  return NC_NOERR;
}


static int write_nc(const rdSweep* sw, const rdCaseResult* res, const char* dir) {
  rdContext* ctx = sw->ctx;
  char* path = join(ctx, dir, "sweep.nc");
  char* partial = path ? join(ctx, dir, "sweep.nc.partial") : NULL;
  size_t clen = 3;
  for (int v = 0; v < sw->nvar; v++) {
    clen += strlen(sw->var[v]) + 1;
  }
  ncTable t;
  memset(&t, 0, sizeof(t));
  size_t n = (size_t)sw->ncase;
  t.vvar = rd_calloc(ctx, (size_t)sw->nvar + 1, sizeof(int));
  t.num = rd_calloc(ctx, (size_t)sw->nvar + 1, sizeof(int));
  t.vq = rd_calloc(ctx, (size_t)sw->nquantity + 1, sizeof(int));
  double* col = rd_calloc(ctx, n, sizeof(double));
  const char** texts = rd_calloc(ctx, n, sizeof(char*));
  char* coords = rd_calloc(ctx, clen, 1);
  const rdNetcdfLib* L = NULL;
  int st = RD_OK;
  if (!path || !partial || !t.vvar || !t.num || !t.vq || !col || !texts || !coords) {
    st = RD_ERR_NOMEM;
  } else if (!(L = rd_netcdfLib(ctx))) {
    st = RD_ERR_IO;  // raised by rd_netcdfLib
  } else {
    t.L = L;
    // the quantities' coordinates: the case's id and its variables
    strcpy(coords, "id");
    for (int v = 0; v < sw->nvar; v++) {
      strcat(coords, " ");
      strcat(coords, sw->var[v]);
    }
    int e = L->create(partial, NC_CLOBBER | NC_NETCDF4, &t.id);
    if (!e) {
      e = L->def_dim(t.id, "case", n, &t.dim);
      if (!e) {
        e = define_nc(sw, &t, coords);
      }
      if (!e) {
        e = fill_nc(sw, res, &t, col, texts);
      }
      int ec = L->close(t.id);
      e = e ? e : ec;
    }
    if (e) {
      remove(partial);
      st = RD_ERROR(ctx, RD_ERR_IO, "NetCDF '%s': %s", path, L->strerror(e));
    } else if (rename(partial, path)) {
      remove(partial);
      st = RD_ERROR(ctx, RD_ERR_IO, "cannot rename '%s' to '%s'", partial, path);
    }
  }
  rd_free(ctx, coords);
  rd_free(ctx, (void*)texts);
  rd_free(ctx, col);
  rd_free(ctx, t.vq);
  rd_free(ctx, t.num);
  rd_free(ctx, t.vvar);
  rd_free(ctx, partial);
  rd_free(ctx, path);
  return st;
}


int rd_writeSweepTables(const rdSweep* sw, const rdCaseResult* results, const char* dir) {
  if (!rd_sweepValid(sw)) {
    return RD_ERR_HANDLE;
  }
  if (!results || !dir) {
    return RD_ERROR(sw->ctx, RD_ERR_ARG, "rd_writeSweepTables: invalid argument");
  }
  int st = write_csv(sw, results, dir);
  return st == RD_OK ? write_nc(sw, results, dir) : st;
}
