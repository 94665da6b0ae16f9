// SPDX-License-Identifier: MIT
// The time-history writer: history.csv, written as a hidden partial file and renamed on commit.
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rodrigues/output.h"
#include "rodrigues/query.h"
#include "src/core/atomic_file.h"
#include "src/core/core.h"
#include "src/io/history_row.h"
#include "src/model/data_impl.h"
#include "src/model/model_impl.h"
#include "src/sim/query_beam.h"

// bytes of the stdio buffer, allocated once through the context allocator
#define HISTORY_BUFSIZE 65536

// after the columns of history_row.h: the joint reactions and beam section loads the model
// names (output.reactions, output.section_loads), 6 columns each
static const char* const reaction_columns[6] = {"Fx", "Fy", "Fz", "Mx", "My", "Mz"};
static const char* const section_columns[6] = {"Nx", "Ny", "Nz", "Mx", "My", "Mz"};

struct rdHistory_ {
  uint32_t magic;
  rdContext* ctx;
  const rdModel* model;
  FILE* f;
  char* buf;      // stdio buffer (HISTORY_BUFSIZE)
  double* row;    // one row's values (rd_historyColumnCount), then 6 per reaction and section
  double* swork;  // beam section loads: residual and kernel workspace (output.section_loads)
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
  rd_free(ctx, h->swork);
  if (h->magic == RD_MAGIC_HISTORY) {
    rd_release(&((rdModel*)h->model)->children);
  }
  h->magic = RD_MAGIC_DEAD;
  rd_bury(ctx, RD_KIND_WRITER, h);
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
  size_t nextra = 6 * (size_t)(model->nout_reaction + model->nout_section);
  h->row = rd_alloc(ctx, sizeof(double) * ((size_t)rd_historyColumnCount(model) + nextra));
  if (model->nout_section > 0) {
    h->swork = rd_alloc(ctx, sizeof(double) * rd_beamSectionWork(model, model->nbeam, NULL, NULL));
  }
  if (!h->final || !h->buf || !h->row || (model->nout_section > 0 && !h->swork)) {
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
      "angular_momentum_x,angular_momentum_y,angular_momentum_z,newton_iterations",
      h->f);
  for (int k = 0; k < model->nout_reaction; k++) {
    for (int c = 0; c < 6; c++) {
      put_field(h->f, model->joint[model->out_reaction[k]].def.name, reaction_columns[c]);
    }
  }
  for (int k = 0; k < model->nout_section; k++) {
    // "BEAM@S": the beam's name and the element fraction
    char name[512];
    snprintf(name, sizeof(name), "%s@%g", model->beam[model->out_section_beam[k]].def.name,
             model->out_section_s[k]);
    for (int c = 0; c < 6; c++) {
      put_field(h->f, name, section_columns[c]);
    }
  }
  fputc('\n', h->f);
  if (ferror(h->f)) {
    int st = io_error(ctx, h->partial, errno ? errno : EIO);
    fclose(h->f);
    remove(h->partial);
    free_history(h);
    return st;
  }
  h->magic = RD_MAGIC_HISTORY;
  rd_adopt(&((rdModel*)model)->children);
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
  int ncol = rd_historyColumnCount(model);
  double* extra = h->row + ncol;
  for (int k = 0; k < model->nout_reaction && st == RD_OK; k++, extra += 6) {
    st = rd_getJointReaction(model, data, model->out_reaction[k], extra, extra + 3);
  }
  for (int k = 0; k < model->nout_section && st == RD_OK; k++, extra += 6) {
    int b = model->out_section_beam[k];
    double* r = h->swork;
    if (rd_beamSectionLoadIn(model, data, b, model->out_section_s[k], r,
                             r + 6 * (size_t)model->beam[b].def.nnode, extra) != RD_OK) {
      st = RD_ERROR(ctx, RD_ERR_NUMERIC, "history: beam '%s': section loads failed",
                    model->beam[b].def.name);
    }
  }
  if (st != RD_OK) {
    return st;
  }
  FILE* f = h->f;
  errno = 0;
  fprintf(f, "%.17g", h->row[0]);
  for (int k = 1; k < ncol - 1; k++) {
    fprintf(f, ",%.17g", h->row[k]);
  }
  fprintf(f, ",%d", (int)h->row[ncol - 1]);  // newton_iterations
  for (int k = ncol; k < ncol + 6 * (model->nout_reaction + model->nout_section); k++) {
    fprintf(f, ",%.17g", h->row[k]);
  }
  fputc('\n', f);
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
