// SPDX-License-Identifier: MIT
// The time-history writer: history.csv, as a file renamed into place when complete
// (rd_createHistory) or written in place by a run that may be killed (rd_openHistory). Rows are
// formatted into memory and written whole, so the file is always a header and complete rows.
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rodrigues/output.h"
#include "rodrigues/query.h"
#include "src/core/atomic_file.h"
#include "src/core/core.h"
#include "src/io/history_row.h"
#include "src/model/data_impl.h"
#include "src/model/model_impl.h"
#include "src/sim/query_beam.h"

// bytes of rows held in memory before they are written (more for very wide rows)
#define HISTORY_BUFSIZE 65536

// bytes of one number of a row, its comma included ("%.17g": at most 24 characters)
#define HISTORY_FIELD 26

// after the columns of history_row.h: the joint reactions and beam section loads the model
// names (output.reactions, output.section_loads), 6 columns each
static const char* const reaction_columns[6] = {"Fx", "Fy", "Fz", "Mx", "My", "Mz"};
static const char* const section_columns[6] = {"Nx", "Ny", "Nz", "Mx", "My", "Mz"};

struct rdHistory_ {
  uint32_t magic;
  rdContext* ctx;
  const rdModel* model;
  FILE* f;        // the rows are formatted through this stream into buf (fmemopen)
  char* buf;      // cap bytes
  double* row;    // one row's values (rd_historyColumnCount), then 6 per reaction and section
  double* swork;  // beam section loads: residual and kernel workspace (output.section_loads)
  size_t cap;     // rows are moved to the file when fewer than rowmax bytes are left
  size_t rowmax;  // the longest row (and header) the columns allow
  FILE* out;      // rd_createHistory: the file, unbuffered (each move one write of whole rows)
  char* partial;  // rd_createHistory: the temporary name DIR/.history.csv.XXXXXX; NULL in place
  char* final;    // the file's name
  // in place (rd_openHistory): two copies .NAME.0 and .NAME.1 take every row; `final` is a hard
  // link to the one that holds all rows written so far while the other catches up, so what a
  // reader sees is complete rows even if the writer is killed inside a write (which the kernel
  // may cut at a page boundary). Without hard links: one file, written in place.
  int copy[2];  // their descriptors (-1: none)
  char* copy_name[2];
  char* link_name;  // .NAME.link, the new link's name before it is renamed over `final`
  int shown;        // the copy `final` links to (-1: none yet)
  int single;       // no hard links here: rows go to copy[0], which is `final` itself
  long rows;        // rows in the file and in memory
  int failed;       // a write failed: the file can no longer be committed
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
  if (h->f) {
    fclose(h->f);
  }
  for (int k = 0; k < 2; k++) {
    if (h->copy[k] >= 0) {
      close(h->copy[k]);
    }
    rd_free(ctx, h->copy_name[k]);
  }
  rd_free(ctx, h->link_name);
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


// write n bytes to fd, whole (a short write is continued); 0 or -1 with errno set
static int write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) {
      continue;
    }
    if (k <= 0) {
      errno = k < 0 ? errno : EIO;
      return -1;
    }
    p += k;
    n -= (size_t)k;
  }
  return 0;
}


// make `final` the copy k: a new hard link renamed over it; 0 or -1 with errno set
static int show(rdHistory* h, int k) {
  remove(h->link_name);
  if (link(h->copy_name[k], h->link_name) != 0 || rename(h->link_name, h->final) != 0) {
    return -1;
  }
  h->shown = k;
  return 0;
}


// in place: n bytes of rows to the copy not shown, show it, then the other catches up
static int put_rows(rdHistory* h, const char* p, size_t n) {
  if (h->single) {
    return write_all(h->copy[0], p, n);
  }
  int k = h->shown == 0 ? 1 : 0;
  if (write_all(h->copy[k], p, n) != 0 || show(h, k) != 0) {
    return -1;
  }
  return write_all(h->copy[1 - k], p, n);
}


// write the rows held in memory to the file, whole, and start the memory over
static int move_rows(rdHistory* h) {
  if (fflush(h->f) != 0) {
    h->failed = 1;
    return RD_ERROR(h->ctx, RD_ERR_IO, "history '%s': a row does not fit its buffer", h->final);
  }
  long n = ftell(h->f);
  if (n > 0) {
    errno = 0;
    int bad = h->partial ? fwrite(h->buf, 1, (size_t)n, h->out) != (size_t)n
                         : put_rows(h, h->buf, (size_t)n) != 0;
    if (bad) {
      h->failed = 1;
      return io_error(h->ctx, h->partial ? h->partial : h->final, errno ? errno : EIO);
    }
    rewind(h->f);
  }
  return RD_OK;
}


// after a row (or the header): move the rows to the file when the next might not fit
static int row_done(rdHistory* h) {
  if (fflush(h->f) != 0 || ferror(h->f)) {
    h->failed = 1;
    return RD_ERROR(h->ctx, RD_ERR_IO, "history '%s': a row does not fit its buffer", h->final);
  }
  long n = ftell(h->f);
  return n >= 0 && (size_t)n + h->rowmax < h->cap ? RD_OK : move_rows(h);
}


// a history of `model` writing to `out` (name `final`, temporary name `partial` or NULL): the
// memory stream sized for its rows and header
static int new_history(const rdModel* model, rdHistory** out) {
  rdContext* ctx = model->ctx;
  rdHistory* h = rd_calloc(ctx, 1, sizeof(rdHistory));
  if (!h) {
    return RD_ERR_NOMEM;
  }
  h->ctx = ctx;
  h->model = model;
  h->copy[0] = h->copy[1] = -1;
  h->shown = -1;
  size_t nextra = 6 * (size_t)(model->nout_reaction + model->nout_section);
  size_t ncol = (size_t)rd_historyColumnCount(model) + nextra;
  h->rowmax = (size_t)HISTORY_FIELD * ncol + 16;
  size_t header = 512;
  for (int k = 0; k < model->nout; k++) {
    header += 16 * (2 * strlen(model->node_name[model->out_node[k]]) + 8);
  }
  for (int k = 0; k < model->nout_reaction; k++) {
    header += 6 * (2 * strlen(model->joint[model->out_reaction[k]].def.name) + 8);
  }
  for (int k = 0; k < model->nout_section; k++) {
    header += 6 * (2 * strlen(model->beam[model->out_section_beam[k]].def.name) + 40);
  }
  h->rowmax = header > h->rowmax ? header : h->rowmax;
  h->cap = HISTORY_BUFSIZE + 2 * h->rowmax;
  h->buf = rd_alloc(ctx, h->cap);
  h->row = rd_alloc(ctx, sizeof(double) * ncol);
  if (model->nout_section > 0) {
    h->swork = rd_alloc(ctx, sizeof(double) * rd_beamSectionWork(model, model->nbeam, NULL, NULL));
  }
  int have = h->buf && h->row && (model->nout_section == 0 || h->swork);
  h->f = have ? fmemopen(h->buf, h->cap, "w") : NULL;
  if (!h->f) {
    int st = have ? RD_ERROR(ctx, RD_ERR_NOMEM, "history: cannot open a memory stream") : 0;
    free_history(h);
    return st ? st : RD_ERR_NOMEM;
  }
  *out = h;
  return RD_OK;
}


// the header line into the memory stream
static void put_header(rdHistory* h) {
  const rdModel* model = h->model;
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
  rdHistory* h = NULL;
  int st = new_history(model, &h);
  if (st != RD_OK) {
    return st;
  }
  h->final = join_path(ctx, dir, "history.csv");
  if (!h->final) {
    free_history(h);
    return RD_ERR_NOMEM;
  }
  h->out = rd_atomicOpen(ctx, h->final, &h->partial);
  if (!h->out) {
    st = rd_lastStatus(ctx);
    free_history(h);
    return st;
  }
  setvbuf(h->out, NULL, _IONBF, 0);
  put_header(h);
  st = move_rows(h);
  if (st != RD_OK) {
    rd_atomicAbort(ctx, h->out, h->partial);
    h->out = NULL;
    free_history(h);
    return st;
  }
  h->magic = RD_MAGIC_HISTORY;
  rd_adopt(&((rdModel*)model)->children);
  *history = h;
  return RD_OK;
}


// an existing history at `path` whose header is this one (in h's memory): the offset after its
// last complete row with a time <= after (*keep), and the rows up to there; RD_ERR_ARG if the
// header differs
static int scan_history(rdHistory* h, FILE* f, double after, long* keep, long* rows) {
  size_t header_len = (size_t)ftell(h->f);
  fflush(h->f);
  *keep = 0;
  *rows = 0;
  char field[64];
  size_t nfield = 0, pos = 0;
  int in_header = 1, header_ok = 1, first = 1;
  int c;
  while ((c = fgetc(f)) != EOF) {
    pos++;
    if (in_header) {
      header_ok = header_ok && pos <= header_len && h->buf[pos - 1] == (char)c;
      if (c == '\n') {
        in_header = 0;
        header_ok = header_ok && pos == header_len;
        if (!header_ok) {
          break;
        }
        *keep = (long)pos;
      }
      continue;
    }
    if (first && c != ',' && c != '\n' && nfield < sizeof(field) - 1) {
      field[nfield++] = (char)c;
    } else if (c == ',' || c == '\n') {
      first = 0;
    }
    if (c == '\n') {
      field[nfield] = '\0';
      char* end = NULL;
      double t = strtod(field, &end);
      if (end == field || !(t <= after)) {
        break;  // rows are in time order: this one and all after it go
      }
      *keep = (long)pos;
      ++*rows;
      nfield = 0;
      first = 1;
    }
  }
  if (in_header && header_ok) {
    return RD_OK;  // empty, or a header cut short by a killed writer: nothing to keep
  }
  if (in_header || !header_ok) {
    return RD_ERROR(h->ctx, RD_ERR_ARG,
                    "history '%s' has another header (another model or other output nodes): "
                    "it cannot be continued",
                    h->final);
  }
  return RD_OK;
}


// "DIR/.BASE.SUFFIX" beside path, in a new string
static char* beside(rdContext* ctx, const char* path, const char* suffix) {
  const char* slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  size_t size = strlen(path) + strlen(suffix) + 3;
  char* p = rd_alloc(ctx, size);
  if (p) {
    memcpy(p, path, dirlen);
    snprintf(p + dirlen, size - dirlen, ".%s.%s", path + dirlen, suffix);
  }
  return p;
}


// the two copies of an in-place history, each with the first `keep` bytes of `old` (the rows
// kept; may be NULL when keep is 0), `final` a link to the first; one file `final` itself where
// the file system has no hard links
static int open_copies(rdHistory* h, FILE* old, long keep) {
  rdContext* ctx = h->ctx;
  h->link_name = beside(ctx, h->final, "link");
  h->copy_name[0] = beside(ctx, h->final, "0");
  h->copy_name[1] = beside(ctx, h->final, "1");
  if (!h->link_name || !h->copy_name[0] || !h->copy_name[1]) {
    return RD_ERR_NOMEM;
  }
  for (int k = 0; k < 2; k++) {
    // a killed writer's copy may be the very file `final` links to: unlinked, not truncated
    remove(h->copy_name[k]);
    h->copy[k] = open(h->copy_name[k], O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (h->copy[k] < 0) {
      return io_error(ctx, h->copy_name[k], errno);
    }
  }
  if (keep > 0) {
    rewind(old);
    char chunk[16384];
    for (long done = 0; done < keep;) {
      size_t want = (size_t)(keep - done) < sizeof(chunk) ? (size_t)(keep - done) : sizeof(chunk);
      size_t got = fread(chunk, 1, want, old);
      if (got == 0 || write_all(h->copy[0], chunk, got) || write_all(h->copy[1], chunk, got)) {
        return io_error(ctx, h->copy_name[0], errno ? errno : EIO);
      }
      done += (long)got;
    }
  }
  // the kept rows shown at once (a torn row of a killed writer gone); a new history shows copy
  // 0 at its first move
  h->shown = 1;
  if (keep > 0 && show(h, 0) == 0) {
    return RD_OK;
  }
  if (keep == 0 && link(h->copy_name[0], h->link_name) == 0) {
    remove(h->link_name);  // hard links work here
    return RD_OK;
  }
  int err = errno;
  if (err != EPERM && err != EXDEV && err != EMLINK && err != ENOTSUP && err != ENOSYS) {
    return io_error(ctx, h->final, err);
  }
  // no hard links: `final` itself, cut after the rows kept
  for (int k = 0; k < 2; k++) {
    close(h->copy[k]);
    h->copy[k] = -1;
    remove(h->copy_name[k]);
  }
  h->single = 1;
  h->copy[0] = open(h->final, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (h->copy[0] < 0 || ftruncate(h->copy[0], keep) != 0 || lseek(h->copy[0], keep, SEEK_SET) < 0) {
    return io_error(ctx, h->final, errno);
  }
  return RD_OK;
}


int rd_openHistory(const rdModel* model, const char* path, double after, rdHistory** history,
                   long* rows) {
  if (history) {
    *history = NULL;
  }
  if (rows) {
    *rows = 0;
  }
  if (!rd_modelValid(model)) {
    return RD_ERR_HANDLE;
  }
  rdContext* ctx = model->ctx;
  if (!path || !*path || !history || isnan(after)) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_openHistory: NULL %s or NaN time",
                    path ? "output" : "path");
  }
  rdHistory* h = NULL;
  int st = new_history(model, &h);
  if (st != RD_OK) {
    return st;
  }
  h->final = rd_strdup(ctx, path);
  if (!h->final) {
    free_history(h);
    return RD_ERR_NOMEM;
  }
  put_header(h);
  // an existing file is continued: its rows up to `after` kept, the rest cut; a row at `after`
  // off the output grid too (a run stopped by a signal wrote it where it stopped, and the
  // uninterrupted run has no row there)
  long keep = 0;
  FILE* old = fopen(path, "rb");
  if (old) {
    double last =
        isfinite(after) && !rd_isOutputTime(model, after) ? nextafter(after, -INFINITY) : after;
    st = scan_history(h, old, last, &keep, &h->rows);
  }
  if (st == RD_OK) {
    st = open_copies(h, old, keep);
  }
  if (old) {
    fclose(old);
  }
  if (st != RD_OK) {
    free_history(h);
    return st;
  }
  if (keep > 0) {
    rewind(h->f);  // the file has its header
  }
  h->magic = RD_MAGIC_HISTORY;
  rd_adopt(&((rdModel*)model)->children);
  st = rd_flushHistory(h);
  if (st != RD_OK) {
    rd_closeHistory(&h, 0);
    return st;
  }
  if (rows) {
    *rows = h->rows;
  }
  *history = h;
  return RD_OK;
}


int rd_flushHistory(rdHistory* h) {
  if (!history_valid(h)) {
    return RD_ERR_HANDLE;
  }
  if (h->failed) {
    return RD_ERROR(h->ctx, RD_ERR_IO, "cannot write '%s': an earlier write failed", h->final);
  }
  int st = move_rows(h);
  int fd[2] = {h->partial ? fileno(h->out) : h->copy[0], h->partial ? -1 : h->copy[1]};
  for (int k = 0; k < 2 && st == RD_OK; k++) {
    if (fd[k] >= 0 && fsync(fd[k]) != 0 && errno != EINVAL) {
      h->failed = 1;
      st = io_error(h->ctx, h->partial ? h->partial : h->final, errno);
    }
  }
  return st;
}


long rd_historyRows(const rdHistory* h) {
  return history_valid(h) ? h->rows : -1;
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
    return RD_ERROR(ctx, RD_ERR_IO, "cannot write '%s': an earlier write failed",
                    h->partial ? h->partial : h->final);
  }
  // the values first, so that a failed query leaves no half-formatted row
  int st = rd_historyRow(model, data, h->row);
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
  fprintf(f, "%.17g", h->row[0]);
  for (int k = 1; k < ncol - 1; k++) {
    fprintf(f, ",%.17g", h->row[k]);
  }
  fprintf(f, ",%d", (int)h->row[ncol - 1]);  // newton_iterations
  for (int k = ncol; k < ncol + 6 * (model->nout_reaction + model->nout_section); k++) {
    fprintf(f, ",%.17g", h->row[k]);
  }
  fputc('\n', f);
  st = row_done(h);
  h->rows += st == RD_OK;
  return st;
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
  if (!h->partial) {
    // in place: the rows are kept either way
    st = h->failed
             ? RD_ERROR(h->ctx, RD_ERR_IO, "cannot write '%s': an earlier write failed", h->final)
             : rd_flushHistory(h);
    for (int k = 0; k < 2; k++) {
      if (h->copy[k] >= 0 && close(h->copy[k]) != 0 && st == RD_OK) {
        st = io_error(h->ctx, h->final, errno);
      }
      h->copy[k] = -1;
      if (!h->single) {
        remove(h->copy_name[k]);  // `final` keeps the copy it shows
      }
    }
  } else if (do_commit) {
    int moved = h->failed ? RD_ERR_IO : move_rows(h);
    st = rd_atomicCommit(h->ctx, h->out, h->partial, h->final, moved != RD_OK);
  } else {
    st = rd_atomicAbort(h->ctx, h->out, h->partial);
  }
  h->out = NULL;
  free_history(h);
  *history = NULL;
  return st;
}
