// SPDX-License-Identifier: MIT
// The matrices of a linearization and of a state-space model in Matrix Market form, each set
// with a JSON index (docs/modal.md, "Files").
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "src/core/atomic_file.h"
#include "src/io/json_write.h"
#include "src/math/vec3.h"
#include "src/sim/modal_impl.h"

// "DIR/NAME" in a new string, NULL if out of memory
static char* join(rdContext* ctx, const char* dir, const char* name) {
  size_t n = strlen(dir);
  char* p = rd_alloc(ctx, n + strlen(name) + 2);
  if (p) {
    sprintf(p, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
  }
  return p;
}


// the directory must exist
static int check_dir(rdContext* ctx, const char* dir, const char* who) {
  struct stat sb;
  if (!dir || !*dir) {
    return RD_ERROR(ctx, RD_ERR_ARG, "%s: no directory", who);
  }
  if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
    return RD_ERROR(ctx, RD_ERR_IO, "%s: '%s' is not a directory", who, dir);
  }
  return RD_OK;
}


// a file DIR/NAME being written: its stream and its final and partial names
typedef struct {
  FILE* f;
  char* path;
  char* tmp;
} outFile;


// open DIR/NAME under its partial name; RD_OK, RD_ERR_NOMEM or RD_ERR_IO (raised)
static int out_open(rdContext* ctx, const char* dir, const char* name, outFile* o) {
  o->tmp = NULL;
  o->f = NULL;
  o->path = join(ctx, dir, name);
  if (!o->path) {
    return RD_ERR_NOMEM;
  }
  o->f = rd_atomicOpen(ctx, o->path, &o->tmp);
  if (!o->f) {
    rd_free(ctx, o->path);
    return RD_ERR_IO;
  }
  return RD_OK;
}


// flush, sync and rename into place; the status of rd_atomicCommit
static int out_commit(rdContext* ctx, outFile* o) {
  int st = rd_atomicCommit(ctx, o->f, o->tmp, o->path, ferror(o->f));
  rd_free(ctx, o->tmp);
  rd_free(ctx, o->path);
  return st;
}


// open the JSON index DIR/NAME and write its first keys: the format, the time and the spin rate
static int open_index(rdContext* ctx, const char* dir, const char* name, const char* format,
                      double t, double spin_rate, outFile* o) {
  int st = out_open(ctx, dir, name, o);
  if (st != RD_OK) {
    return st;
  }
  FILE* f = o->f;
  fputs("{\n", f);
  rd_jsonKey(f, 2, "format");
  rd_jsonString(f, format);
  fputs(",\n", f);
  rd_jsonKey(f, 2, "time");
  rd_jsonNumber(f, t);
  fputs(",\n", f);
  rd_jsonKey(f, 2, "spin_rate");
  rd_jsonNumber(f, spin_rate);
  return RD_OK;
}


// DIR/NAME.mtx: coordinate real general, 1-based
static int write_sparse(rdContext* ctx, const char* dir, const char* name, const rdCsc* A,
                        const char* what) {
  char file[64];
  snprintf(file, sizeof(file), "%s.mtx", name);
  outFile o;
  int st = out_open(ctx, dir, file, &o);
  if (st != RD_OK) {
    return st;
  }
  int nnz = A->Ap ? A->Ap[A->ncol] : 0;
  fprintf(o.f, "%%%%MatrixMarket matrix coordinate real general\n%% rodrigues: %s\n%d %d %d\n",
          what, A->nrow, A->ncol, nnz);
  for (int j = 0; j < A->ncol; j++) {
    for (int p = A->Ap[j]; p < A->Ap[j + 1]; p++) {
      fprintf(o.f, "%d %d %.17g\n", A->Ai[p] + 1, j + 1, A->Ax[p]);
    }
  }
  return out_commit(ctx, &o);
}


// DIR/NAME.mtx: array real general (column-major)
static int write_dense(rdContext* ctx, const char* dir, const char* name, const double* A, int nrow,
                       int ncol, const char* what) {
  char file[64];
  snprintf(file, sizeof(file), "%s.mtx", name);
  outFile o;
  int st = out_open(ctx, dir, file, &o);
  if (st != RD_OK) {
    return st;
  }
  fprintf(o.f, "%%%%MatrixMarket matrix array real general\n%% rodrigues: %s\n%d %d\n", what, nrow,
          ncol);
  for (size_t k = 0; k < (size_t)nrow * (size_t)ncol; k++) {
    fprintf(o.f, "%.17g\n", A[k]);
  }
  return out_commit(ctx, &o);
}


static void put_vec3(FILE* f, const double v[3]) {
  fputc('[', f);
  for (int k = 0; k < 3; k++) {
    rd_jsonNumber(f, v[k]);
    fputs(k < 2 ? ", " : "]", f);
  }
}


// the layout of the degrees of freedom and of the constraint equations
static void put_layout(FILE* f, const rdModel* m) {
  rd_jsonKey(f, 2, "dofs");
  fputs("[\n", f);
  for (int i = 0; i < m->nnode; i++) {
    fputs("    {\"node\": ", f);
    rd_jsonString(f, m->node_name[i]);
    fprintf(f, ", \"kind\": \"%s\", \"first\": %d, \"count\": %d}%s\n",
            m->node_kind[i] == RD_NODE_RIGID ? "rigid" : "point", m->node_dof[i],
            m->node_kind[i] == RD_NODE_RIGID ? 6 : 3, i + 1 < m->nnode ? "," : "");
  }
  fputs("  ],\n", f);
  rd_jsonKey(f, 2, "equations");
  fputs("[\n", f);
  for (int j = 0; j < m->njoint; j++) {
    fputs("    {\"joint\": ", f);
    rd_jsonString(f, m->joint[j].def.name);
    fprintf(f, ", \"first\": %d, \"count\": %d}%s\n", m->joint[j].row, m->joint[j].nrow,
            j + 1 < m->njoint ? "," : "");
  }
  fputs("  ]", f);
}


static const char* const matrix_what[RD_LIN_COUNT] = {
    "mass M = dr/dvd",
    "damping D = dr/dv + M Gc (gyroscopic, Coriolis)",
    "stiffness K = dr/dq + (dr/dv) Gv + M Ga",
    "constraint Jacobian B",
    "null-space basis N of B",
    "reduced mass N^T M N",
    "reduced damping N^T D N",
    "reduced stiffness N^T K N"};


int rd_writeLinearMatrices(const rdLinearization* lin, const char* dir) {
  if (!rd_linValid(lin)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = lin->ctx;
  const rdModel* m = lin->model;
  int st = check_dir(ctx, dir, "rd_writeLinearMatrices");
  for (int k = 0; st == RD_OK && k < RD_LIN_COUNT; k++) {
    st = write_sparse(ctx, dir, rd_linearMatrixName(k), &lin->mat[k], matrix_what[k]);
  }
  if (st != RD_OK) {
    return st;
  }
  outFile o;
  st = open_index(ctx, dir, "matrices.json",
                  "rodrigues linearization 1: M y'' + D y' + K y + B^T mu = f, B y = 0, y = N z",
                  lin->t, lin->spin_rate, &o);
  if (st != RD_OK) {
    return st;
  }
  FILE* f = o.f;
  fputs(",\n", f);
  rd_jsonKey(f, 2, "spin_axis");
  put_vec3(f, lin->axis);
  fputs(",\n", f);
  rd_jsonKey(f, 2, "spin_center");
  put_vec3(f, lin->frame.center);
  fprintf(f, ",\n  \"ndof\": %d,\n  \"nconstraint\": %d,\n  \"rank\": %d,\n  \"nreduced\": %d,\n",
          m->ndof, m->nconstraint, lin->rank, lin->mat[RD_LIN_N].ncol);
  fprintf(f, "  \"symmetric\": %s,\n", lin->symmetric ? "true" : "false");
  rd_jsonKey(f, 2, "residual");
  rd_jsonNumber(f, lin->residual);
  fputs(",\n", f);
  rd_jsonKey(f, 2, "matrices");
  fputs("{\n", f);
  for (int k = 0; k < RD_LIN_COUNT; k++) {
    const rdCsc* A = &lin->mat[k];
    fprintf(f, "    \"%s\": {\"file\": \"%s.mtx\", \"rows\": %d, \"cols\": %d, \"nnz\": %d, ",
            rd_linearMatrixName(k), rd_linearMatrixName(k), A->nrow, A->ncol,
            A->Ap ? A->Ap[A->ncol] : 0);
    rd_jsonKey(f, 0, "what");
    rd_jsonString(f, matrix_what[k]);
    fprintf(f, "}%s\n", k + 1 < RD_LIN_COUNT ? "," : "");
  }
  fputs("  },\n", f);
  put_layout(f, m);
  fputs("\n}\n", f);
  return out_commit(ctx, &o);
}


static void put_names(FILE* f, const char* key, char** names, int n) {
  rd_jsonKey(f, 2, key);
  fputs("[", f);
  for (int k = 0; k < n; k++) {
    fputs(k ? ", " : "", f);
    rd_jsonString(f, names[k]);
  }
  fputs("]", f);
}


int rd_writeStateSpace(const rdStateSpace* ss, const char* dir) {
  if (!rd_ssValid(ss)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = ss->ctx;
  int st = check_dir(ctx, dir, "rd_writeStateSpace");
  if (st == RD_OK) {
    st = write_dense(ctx, dir, "A", ss->A, ss->nx, ss->nx, "state matrix A");
  }
  if (st == RD_OK) {
    st = write_dense(ctx, dir, "B", ss->B, ss->nx, ss->nu, "input matrix B");
  }
  if (st == RD_OK) {
    st = write_dense(ctx, dir, "C", ss->C, ss->ny, ss->nx, "output matrix C");
  }
  if (st == RD_OK) {
    st = write_dense(ctx, dir, "D", ss->D, ss->ny, ss->nu, "feedthrough matrix D");
  }
  if (st != RD_OK) {
    return st;
  }
  outFile o;
  st = open_index(ctx, dir, "statespace.json",
                  "rodrigues state space 1: x' = A x + B u, y = C x + D u, x = (z, z')", ss->t,
                  ss->spin_rate, &o);
  if (st != RD_OK) {
    return st;
  }
  FILE* f = o.f;
  fprintf(f, ",\n  \"nx\": %d,\n  \"nu\": %d,\n  \"ny\": %d,\n", ss->nx, ss->nu, ss->ny);
  fputs("  \"files\": {\"A\": \"A.mtx\", \"B\": \"B.mtx\", \"C\": \"C.mtx\", \"D\": \"D.mtx\"},\n",
        f);
  fprintf(f, "  \"states\": \"z1 .. z%d (reduced coordinates, y = N z), then their rates\",\n",
          ss->nx / 2);
  put_names(f, "inputs", ss->uname, ss->nu);
  fputs(",\n", f);
  put_names(f, "outputs", ss->yname, ss->ny);
  fputs("\n}\n", f);
  return out_commit(ctx, &o);
}
