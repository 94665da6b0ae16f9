// SPDX-License-Identifier: MIT
// The time-history writer: history.csv, written as a hidden partial file and renamed on commit.
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/output.h"
#include "src/core/atomic_file.h"
#include "src/core/core.h"
#include "src/io/history_row.h"
#include "src/model/data_impl.h"

// bytes of the stdio buffer, allocated once through the context allocator
#define HISTORY_BUFSIZE 65536

struct rdHistory_ {
  uint32_t magic;
  rdContext* ctx;
  const rdModel* model;
  FILE* f;
  char* buf;      // stdio buffer (HISTORY_BUFSIZE)
  double* row;    // one row's values (rd_historyColumnCount)
  char* partial;  // DIR/.history.csv.partial
  char* final;    // DIR/history.csv
  int failed;     // a write failed: the file can no longer be committed
};


static int history_valid(const rdHistory* h) {
  return h && h->magic == RD_MAGIC_HISTORY;
}


// "DIR/NAME" in a new string (one '/' between them)
static char* join_path(rdContext* ctx, const char* dir, const char* name) {
  size_t n = strlen(dir);
  int slash = n > 0 && dir[n - 1] != '/';
  char* p = rd_alloc(ctx, n + (size_t)slash + strlen(name) + 1);
  if (p) {
    memcpy(p, dir, n);
    if (slash) {
      p[n] = '/';
    }
    strcpy(p + n + slash, name);
  }
  return p;
}


static int io_error(rdContext* ctx, const char* path, int err) {
  return RD_ERROR(ctx, RD_ERR_IO, "cannot write '%s': %s", path, strerror(err));
}


// write a header field, quoted as RFC 4180 asks when it holds a comma, quote or line break
static void put_field(FILE* f, const char* node, const char* suffix) {
  if (!strpbrk(node, ",\"\r\n")) {
    fprintf(f, ",%s.%s", node, suffix);
    return;
  }
  fputs(",\"", f);
  for (const char* c = node; *c; c++) {
    if (*c == '"') {
      fputc('"', f);
    }
    fputc(*c, f);
  }
  fprintf(f, ".%s\"", suffix);
}


static void free_history(rdHistory* h) {
  rdContext* ctx = h->ctx;
  rd_free(ctx, h->partial);
  rd_free(ctx, h->final);
  rd_free(ctx, h->buf);
  rd_free(ctx, h->row);
  h->magic = 0;
  rd_free(ctx, h);
}


int rd_createHistory(const rdModel* model, const char* dir, rdHistory** history) {
  if (history) {
    *history = NULL;
  }
  if (!rd_modelValid(model)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = model->ctx;
  if (!dir || !history) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_createHistory: NULL %s", dir ? "output" : "directory");
  }
  rdHistory* h = rd_calloc(ctx, 1, sizeof(rdHistory));
  if (!h) {
    return RD_ERR_NOMEM;
  }
  h->ctx = ctx;
  h->model = model;
  h->final = join_path(ctx, dir, "history.csv");
  h->buf = rd_alloc(ctx, HISTORY_BUFSIZE);
  h->row = rd_alloc(ctx, sizeof(double) * (size_t)rd_historyColumnCount(model));
  if (!h->final || !h->buf || !h->row) {
    free_history(h);
    return RD_ERR_NOMEM;
  }
  h->f = rd_atomicOpen(ctx, h->final, &h->partial);
  if (!h->f) {
    int st = rd_lastStatus(ctx);
    free_history(h);
    return st;
  }
  setvbuf(h->f, h->buf, _IOFBF, HISTORY_BUFSIZE);

  // header
  errno = 0;
  fputs("time", h->f);
  for (int k = 0; k < model->nout; k++) {
    const char* name = model->node_name[model->out_node[k]];
    for (int c = 0; c < 16; c++) {
      put_field(h->f, name, rd_historyNodeColumns[c]);
    }
  }
  fputs(
      ",kinetic_energy,potential_energy,total_energy,momentum_x,momentum_y,momentum_z,"
      "angular_momentum_x,angular_momentum_y,angular_momentum_z,newton_iterations\n",
      h->f);
  if (ferror(h->f)) {
    int st = io_error(ctx, h->partial, errno ? errno : EIO);
    fclose(h->f);
    remove(h->partial);
    free_history(h);
    return st;
  }
  h->magic = RD_MAGIC_HISTORY;
  *history = h;
  return RD_OK;
}


int rd_writeHistory(rdHistory* h, const rdModel* model, const rdData* data) {
  if (!history_valid(h) || !rd_modelValid(model) || !data || data->magic != RD_MAGIC_DATA) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = h->ctx;
  if (model != h->model || data->model != model) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_writeHistory: history, model and data do not match");
  }
  if (h->failed) {
    return RD_ERROR(ctx, RD_ERR_IO, "cannot write '%s': an earlier write failed", h->partial);
  }
  // the values first, so that a failed query leaves no half-written row
  int st = rd_historyRow(model, data, h->row);
  if (st != RD_OK) {
    return st;
  }
  FILE* f = h->f;
  int ncol = rd_historyColumnCount(model);
  errno = 0;
  fprintf(f, "%.17g", h->row[0]);
  for (int k = 1; k < ncol - 1; k++) {
    fprintf(f, ",%.17g", h->row[k]);
  }
  fprintf(f, ",%d\n", (int)h->row[ncol - 1]);  // newton_iterations
  if (ferror(f)) {
    h->failed = 1;
    return io_error(ctx, h->partial, errno ? errno : EIO);
  }
  return RD_OK;
}


int rd_closeHistory(rdHistory** history, int do_commit) {
  if (!history || !*history) {
    return RD_OK;
  }
  rdHistory* h = *history;
  if (!history_valid(h)) {
    return RD_ERR_HANDLE;
  }
  int st = RD_OK;
  if (do_commit) {
    st = rd_atomicCommit(h->ctx, h->f, h->partial, h->final, h->failed);
  } else {
    st = rd_atomicAbort(h->ctx, h->f, h->partial);
  }
  h->f = NULL;
  free_history(h);
  *history = NULL;
  return st;
}
