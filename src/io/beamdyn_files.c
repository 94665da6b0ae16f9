// SPDX-License-Identifier: MIT
// Readers of OpenFAST BeamDyn (v5) driver, primary and blade files (src/beamdyn.h).
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "elements/beam.h"
#include "src/core/core.h"
#include "src/core/input.h"
#include "src/core/strutil.h"
#include "src/io/beamdyn.h"

// one input file split into lines (in place)
typedef struct bdFile_ {
  const char* path;
  const char* kind;   // "driver", "primary", "blade"
  const char* where;  // deck position, or NULL (see beamdyn.h)
  char* text;
  char** line;
  int nline;
  int cur;  // next line (0-based); after reading a line, its 1-based number
} bdFile;

// BeamDyn component -> ours: ours[i] = bd[perm[i]] (axial z first; cyclic, a proper rotation)
static const int perm[6] = {2, 0, 1, 5, 3, 4};

// ---------------------------------------------------------------------------------------------
// errors, lines and tokens

// raise an error about line `line` of f (0: the whole file) in the form of beamdyn.h
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int
bd_error(rdContext* ctx, const bdFile* f, int status, int line, const char* fmt, ...) {
  char msg[RD_ERRLEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (f->where) {
    char at[64] = "";
    if (line > 0) {
      snprintf(at, sizeof(at), " line %d", line);
    }
    return RD_ERROR(ctx, RD_ERR_DECK, "%s: beamdyn %s file '%s'%s: %s", f->where, f->kind, f->path,
                    at, msg);
  }
  if (line > 0) {
    return RD_ERROR(ctx, status, "%s:%d: %s", f->path, line, msg);
  }
  return RD_ERROR(ctx, status, "%s: %s", f->path, msg);
}


static void file_free(rdContext* ctx, bdFile* f) {
  rd_free(ctx, f->text);
  rd_free(ctx, f->line);
  f->text = NULL;
  f->line = NULL;
}


// BeamDyn files are text of a few hundred kB at most
enum { MAX_FILE_BYTES = 64 << 20 };


// 1-based line of the character at offset off
static int line_at(const char* text, size_t off) {
  int line = 1;
  for (size_t i = 0; i < off; i++) {
    line += text[i] == '\n';
  }
  return line;
}


static int file_load(rdContext* ctx, bdFile* f) {
  size_t len;
  int too_large;
  int st = rd_readInput(ctx, f->path, MAX_FILE_BYTES, 1, &f->text, &len, &too_large);
  if (st == RD_ERR_IO) {
    // the reader's message, in the form of beamdyn.h
    char msg[RD_ERRLEN];
    const char* m = rd_lastError(ctx);
    size_t skip = strlen(f->path) + 2;
    snprintf(msg, sizeof(msg), "%s", strlen(m) > skip ? m + skip : m);
    return bd_error(ctx, f, RD_ERR_IO, 0, "%s", msg);
  }
  if (st) {
    return st;
  }
  if (too_large) {
    return bd_error(ctx, f, RD_ERR_DECK, 0, "larger than %d MiB: not a BeamDyn file",
                    MAX_FILE_BYTES >> 20);
  }
  // our own tokenizer reads the bytes: any encoding of comments is fine, but not a NUL
  if (strlen(f->text) != len) {
    int line = line_at(f->text, strlen(f->text));
    file_free(ctx, f);
    return bd_error(ctx, f, RD_ERR_DECK, line, "not a text file (NUL byte)");
  }
  int n = 1;
  for (size_t i = 0; i < len; i++) {
    n += f->text[i] == '\n';
  }
  f->line = rd_calloc(ctx, (size_t)n, sizeof(char*));
  if (!f->line) {
    file_free(ctx, f);
    return RD_ERR_NOMEM;
  }
  char* s = f->text;
  while (*s || f->nline == 0) {
    f->line[f->nline++] = s;
    char* e = strchr(s, '\n');
    if (!e) {
      break;
    }
    *e = '\0';
    if (e > s && e[-1] == '\r') {
      e[-1] = '\0';
    }
    s = e + 1;
  }
  return RD_OK;
}


// separator or blank line: skipped before values
static int is_skippable(const char* s) {
  while (isspace((unsigned char)*s)) {
    s++;
  }
  return *s == '\0' || !strncmp(s, "--", 2) || !strncmp(s, "==", 2);
}


// split into at most max tokens (whitespace and commas), copying into buf
static int tokens(const char* s, char* buf, int size, char** tok, int max) {
  snprintf(buf, (size_t)size, "%s", s);
  int n = 0;
  char* p = buf;
  while (n < max) {
    while (*p && (isspace((unsigned char)*p) || *p == ',')) {
      p++;
    }
    if (!*p) {
      break;
    }
    tok[n++] = p;
    while (*p && !isspace((unsigned char)*p) && *p != ',') {
      p++;
    }
    if (*p) {
      *p++ = '\0';
    }
  }
  return n;
}


// next line, skipping separators and blank lines if `skip`
static int next_line(rdContext* ctx, bdFile* f, int skip, const char* what, const char** s) {
  while (f->cur < f->nline && skip && is_skippable(f->line[f->cur])) {
    f->cur++;
  }
  if (f->cur >= f->nline) {
    return bd_error(ctx, f, RD_ERR_DECK, f->nline, "unexpected end of file, expected %s", what);
  }
  *s = f->line[f->cur++];
  return RD_OK;
}


static int skip_lines(rdContext* ctx, bdFile* f, int n, const char* what) {
  for (int i = 0; i < n; i++) {
    const char* s;
    int st = next_line(ctx, f, 0, what, &s);
    if (st) {
      return st;
    }
  }
  return RD_OK;
}


static int is_default(const char* t) {
  return !strcmp(t, "\"DEFAULT\"") || !strcmp(t, "DEFAULT") || !strcmp(t, "\"default\"");
}


// a "VALUE LABEL - help" line: returns the value token in tok[0]; checks the label.
// *isdef is set when the value is "DEFAULT" (then allowed only if isdef is not NULL)
static int value_line(rdContext* ctx, bdFile* f, const char* label, char* buf, int size, char** val,
                      int* isdef) {
  const char* s;
  int st = next_line(ctx, f, 1, label, &s);
  if (st) {
    return st;
  }
  char* tok[2];
  int n = tokens(s, buf, size, tok, 2);
  if (n < 2 || strcasecmp(tok[1], label)) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "expected a value of '%s', found '%s'", label, s);
  }
  *val = tok[0];
  if (isdef) {
    *isdef = is_default(tok[0]);
  } else if (is_default(tok[0])) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "'%s' has no default", label);
  }
  return RD_OK;
}


static int read_real(rdContext* ctx, bdFile* f, const char* label, double dflt, double* v) {
  char buf[512], *t;
  int isdef = 0;
  int st = value_line(ctx, f, label, buf, sizeof(buf), &t, &isdef);
  if (st) {
    return st;
  }
  if (isdef) {
    *v = dflt;
    return RD_OK;
  }
  if (rd_parseReal(t, v)) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "'%s' must be a finite number, not '%s'", label,
                    t);
  }
  return RD_OK;
}


static int read_int(rdContext* ctx, bdFile* f, const char* label, int dflt, int lo, int hi,
                    int* v) {
  char buf[512], *t;
  int isdef = 0;
  int st = value_line(ctx, f, label, buf, sizeof(buf), &t, &isdef);
  if (st) {
    return st;
  }
  if (isdef) {
    *v = dflt;
    return RD_OK;
  }
  if (rd_parseInt(t, v) || *v < lo || *v > hi) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "'%s' must be an integer in [%d, %d], not '%s'",
                    label, lo, hi, t);
  }
  return RD_OK;
}


static int read_bool(rdContext* ctx, bdFile* f, const char* label, int* v) {
  char buf[512], *t;
  int st = value_line(ctx, f, label, buf, sizeof(buf), &t, NULL);
  if (st) {
    return st;
  }
  if (!strcasecmp(t, "true") || !strcasecmp(t, "t")) {
    *v = 1;
  } else if (!strcasecmp(t, "false") || !strcasecmp(t, "f")) {
    *v = 0;
  } else {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "'%s' must be True or False, not '%s'", label, t);
  }
  return RD_OK;
}


// a quoted file name, resolved relative to the directory of f
static int read_path(rdContext* ctx, bdFile* f, const char* label, char* out, int size) {
  char buf[RD_BD_MAXPATH], *t;
  int st = value_line(ctx, f, label, buf, sizeof(buf), &t, NULL);
  if (st) {
    return st;
  }
  size_t n = strlen(t);
  if (n >= 2 && t[0] == '"' && t[n - 1] == '"') {
    t[n - 1] = '\0';
    t++;
  }
  if (!*t) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "'%s' is empty", label);
  }
  if (rd_pathBeside(out, size, f->path, t)) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "path too long");
  }
  return RD_OK;
}


// a line of at least n numbers (the first n are read)
static int read_row(rdContext* ctx, bdFile* f, int n, double* v, const char* what) {
  const char* s;
  int st = next_line(ctx, f, 1, what, &s);
  if (st) {
    return st;
  }
  char buf[1024], *tok[8];
  int k = tokens(s, buf, sizeof(buf), tok, 8);
  if (k < n) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "expected %d numbers (%s), found %d", n, what, k);
  }
  for (int i = 0; i < n; i++) {
    if (rd_parseReal(tok[i], v + i)) {
      return bd_error(ctx, f, RD_ERR_DECK, f->cur, "%s: '%s' is not a finite number", what, tok[i]);
    }
  }
  return RD_OK;
}


// load the file, run the reader on it, release it
static int read_file(rdContext* ctx, const char* path, const char* kind, const char* where,
                     int (*reader)(rdContext*, bdFile*, void*), void* out) {
  bdFile f = {path, kind, where, NULL, NULL, 0, 0};
  int st = file_load(ctx, &f);
  if (!st) {
    st = reader(ctx, &f, out);
  }
  file_free(ctx, &f);
  return st;
}

// ---------------------------------------------------------------------------------------------
// driver

static int driver(rdContext* ctx, bdFile* f, void* out) {
  static const char* const g[3] = {"Gx", "Gy", "Gz"};
  static const char* const pos[3] = {"GlbPos(1)", "GlbPos(2)", "GlbPos(3)"};
  static const char* const rv[3] = {"RootVel(4)", "RootVel(5)", "RootVel(6)"};
  rdBdDriver* d = out;
  char lab[32];
  int st = skip_lines(ctx, f, 2, "the header");
  if (!st)
    st = read_bool(ctx, f, "DynamicSolve", &d->dynamic);
  if (!st)
    st = read_real(ctx, f, "t_initial", 0, &d->t0);
  if (!st)
    st = read_real(ctx, f, "t_final", 0, &d->tf);
  if (!st)
    st = read_real(ctx, f, "dt", 0, &d->dt);
  if (!st && !(d->dt > 0)) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "dt must be > 0");
  }
  if (!st && d->tf < d->t0) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "t_final < t_initial");
  }
  for (int i = 0; i < 3 && !st; i++)
    st = read_real(ctx, f, g[i], 0, d->g + i);
  for (int i = 0; i < 3 && !st; i++)
    st = read_real(ctx, f, pos[i], 0, d->pos + i);
  for (int i = 0; i < 3 && !st; i++)
    st = read_row(ctx, f, 3, d->dcm + 3 * i, "a row of GlbDCM");
  if (st) {
    return st;
  }
  // orthonormal with det +1
  double e = 0;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      double s = 0;
      for (int k = 0; k < 3; k++)
        s += d->dcm[3 * i + k] * d->dcm[3 * j + k];
      e = fmax(e, fabs(s - (i == j)));
    }
  }
  const double* D = d->dcm;
  double det = D[0] * (D[4] * D[8] - D[5] * D[7]) - D[1] * (D[3] * D[8] - D[5] * D[6]) +
               D[2] * (D[3] * D[7] - D[4] * D[6]);
  if (e > 1e-6 || det < 0) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "GlbDCM is not a rotation matrix");
  }
  int rotT0;
  st = read_bool(ctx, f, "GlbRotBladeT0", &rotT0);
  for (int i = 0; i < 3 && !st; i++)
    st = read_real(ctx, f, rv[i], 0, d->rootvel + i);
  for (int i = 0; i < 6 && !st; i++) {
    snprintf(lab, sizeof(lab), "DistrLoad(%d)", i + 1);
    st = read_real(ctx, f, lab, 0, d->distr + i);
  }
  for (int i = 0; i < 6 && !st; i++) {
    snprintf(lab, sizeof(lab), "TipLoad(%d)", i + 1);
    st = read_real(ctx, f, lab, 0, d->tip + i);
  }
  int npl = 0;
  if (!st)
    st = read_int(ctx, f, "NumPointLoads", 0, 0, 100000, &npl);
  if (!st && npl > 0) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur,
                    "point loads (NumPointLoads > 0) are not supported");
  }
  if (!st)
    st = skip_lines(ctx, f, 2, "the point-load table header");
  if (!st)
    st = read_path(ctx, f, "InputFile", d->primary, RD_BD_MAXPATH);
  return st;
}


int rd_bdReadDriver(rdContext* ctx, const char* path, rdBdDriver* d) {
  memset(d, 0, sizeof(*d));
  return read_file(ctx, path, "driver", NULL, driver, d);
}

// ---------------------------------------------------------------------------------------------
// primary

static int primary(rdContext* ctx, bdFile* f, void* out) {
  rdBdPrimary* p = out;
  int b, qsi, refine, dum;
  double r;
  int st = skip_lines(ctx, f, 2, "the header");
  if (!st)
    st = read_bool(ctx, f, "Echo", &b);
  if (!st)
    st = read_bool(ctx, f, "QuasiStaticInit", &qsi);
  if (!st && qsi)
    p->qsi_line = f->cur;
  if (!st)
    st = read_real(ctx, f, "rhoinf", 0, &p->rhoinf);
  if (!st && (p->rhoinf < 0 || p->rhoinf > 1)) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "rhoinf must be in [0, 1]");
  }
  if (!st)
    st = read_int(ctx, f, "quadrature", 1, 1, 2, &p->quadrature);
  if (!st)
    st = read_int(ctx, f, "refine", 1, 1, 1000, &refine);
  if (!st && p->quadrature == 2 && refine != 1) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur,
                    "refine > 1 is not supported (trapezoidal quadrature on the stations only)");
  }
  if (!st)
    st = read_int(ctx, f, "n_fact", 5, 1, 1000000, &dum);
  if (!st)
    st = read_real(ctx, f, "DTBeam", 0, &p->dtbeam);
  if (!st && p->dtbeam < 0) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "DTBeam must be > 0");
  }
  if (!st)
    st = read_int(ctx, f, "load_retries", 20, 0, 1000000, &dum);
  if (!st)
    st = read_int(ctx, f, "NRMax", 10, 1, 1000000, &dum);
  if (!st)
    st = read_real(ctx, f, "stop_tol", 1e-5, &r);
  if (!st)
    st = read_bool(ctx, f, "tngt_stf_fd", &b);
  if (!st)
    st = read_bool(ctx, f, "tngt_stf_comp", &b);
  if (!st)
    st = read_real(ctx, f, "tngt_stf_pert", 1e-6, &r);
  if (!st)
    st = read_real(ctx, f, "tngt_stf_difftol", 0.1, &r);
  if (!st)
    st = read_bool(ctx, f, "RotStates", &b);
  int nmem = 0;
  if (!st)
    st = read_int(ctx, f, "member_total", 0, 1, 1000000, &nmem);
  if (!st && nmem != 1) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "member_total = %d: only one member is supported",
                    nmem);
  }
  if (!st)
    st = read_int(ctx, f, "kp_total", 0, 3, 100000, &p->nkp);
  if (st) {
    return st;
  }
  double mk[2];
  st = read_row(ctx, f, 2, mk, "member number and key points");
  if (!st && (mk[0] != 1 || mk[1] != p->nkp)) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "expected member 1 with %d key points", p->nkp);
  }
  if (!st)
    st = skip_lines(ctx, f, 2, "the key-point table header");
  if (st) {
    return st;
  }
  p->kp = rd_alloc(ctx, sizeof(double) * 4 * (size_t)p->nkp);
  if (!p->kp) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < p->nkp; i++) {
    st = read_row(ctx, f, 4, p->kp + 4 * i, "kp_xr kp_yr kp_zr initial_twist");
    if (st) {
      return st;
    }
    if (i > 0 && !(p->kp[4 * i + 2] > p->kp[4 * i - 2])) {
      return bd_error(ctx, f, RD_ERR_DECK, f->cur, "kp_zr must increase strictly along the member");
    }
  }
  st = read_int(ctx, f, "order_elem", 0, 1, RD_BEAM_MAX_NODES - 1, &p->order);
  if (!st)
    st = read_path(ctx, f, "BldFile", p->blade, RD_BD_MAXPATH);
  return st;
}


int rd_bdReadPrimary(rdContext* ctx, const char* path, const char* where, rdBdPrimary* p) {
  memset(p, 0, sizeof(*p));
  return read_file(ctx, path, "primary", where, primary, p);
}


void rd_bdFreePrimary(rdContext* ctx, rdBdPrimary* p) {
  rd_free(ctx, p->kp);
  p->kp = NULL;
}

// ---------------------------------------------------------------------------------------------
// blade

// a 6x6 matrix from BeamDyn's section frame to ours, in place: C'_ij = C_perm[i] perm[j]
static void to_ours(double* A) {
  double B[36];
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++) {
      B[6 * i + j] = A[6 * perm[i] + perm[j]];
    }
  }
  memcpy(A, B, sizeof(B));
}


// a station's 6x6 stiffness and mass must be symmetric positive definite (as rd_compile wants
// them), reported at the station's eta line rather than in a deck written from the file
static int check_station(rdContext* ctx, bdFile* f, int line, int s, const double* K,
                         const double* M) {
  const char* why = rd_beamMatrixDefect(K);
  const char* what = "stiffness";
  if (!why) {
    why = rd_beamMatrixDefect(M);
    what = "mass";
  }
  if (why) {
    return bd_error(ctx, f, RD_ERR_DECK, line, "station %d: %s %s", s + 1, what, why);
  }
  return RD_OK;
}


static int blade(rdContext* ctx, bdFile* f, void* out) {
  rdBdBlade* b = out;
  double mu[6];
  int st = skip_lines(ctx, f, 2, "the header");
  if (!st)
    st = read_int(ctx, f, "station_total", 0, 1, 1000000, &b->nst);
  if (!st)
    st = read_int(ctx, f, "damp_type", 0, 0, 2, &b->damp_type);
  if (!st && b->damp_type == 2) {
    return bd_error(ctx, f, RD_ERR_DECK, f->cur, "modal damping (damp_type 2) is not supported");
  }
  if (!st) {
    while (f->cur < f->nline && is_skippable(f->line[f->cur]))
      f->cur++;
    st = skip_lines(ctx, f, 2, "the damping table header");
  }
  if (!st)
    st = read_row(ctx, f, 6, mu, "mu1 ... mu6");
  int mu_line = f->cur;
  int nm;
  if (!st)
    st = read_int(ctx, f, "n_modes", 0, 0, 1000000, &nm);
  if (!st)
    st = skip_lines(ctx, f, 1, "zeta");
  if (st) {
    return st;
  }
  for (int i = 0; i < 6; i++) {
    if (mu[i] < 0 && b->damp_type) {
      return bd_error(ctx, f, RD_ERR_DECK, mu_line, "damping mu%d must be >= 0", i + 1);
    }
    b->mu[i] = b->damp_type ? mu[perm[i]] : 0;
  }
  size_t n = (size_t)b->nst;
  b->eta = rd_alloc(ctx, sizeof(double) * n);
  b->K = rd_alloc(ctx, sizeof(double) * 36 * n);
  b->M = rd_alloc(ctx, sizeof(double) * 36 * n);
  if (!b->eta || !b->K || !b->M) {
    return RD_ERR_NOMEM;
  }
  for (int s = 0; s < b->nst; s++) {
    st = read_row(ctx, f, 1, b->eta + s, "station eta");
    if (st) {
      return st;
    }
    double e = b->eta[s];
    if (e < 0 || e > 1 || (s > 0 && !(e > b->eta[s - 1])) || (s == 0 && e != 0 && b->nst > 1) ||
        (s == b->nst - 1 && b->nst > 1 && e != 1)) {
      return bd_error(ctx, f, RD_ERR_DECK, f->cur,
                      "station eta = %g: the stations must increase strictly from 0 to 1", e);
    }
    int eta_line = f->cur;
    double* K = b->K + 36 * s;
    double* M = b->M + 36 * s;
    for (int r = 0; r < 6 && !st; r++)
      st = read_row(ctx, f, 6, K + 6 * r, "a stiffness row");
    for (int r = 0; r < 6 && !st; r++)
      st = read_row(ctx, f, 6, M + 6 * r, "a mass row");
    if (!st)
      st = check_station(ctx, f, eta_line, s, K, M);
    if (st) {
      return st;
    }
    to_ours(K);
    to_ours(M);
  }
  return RD_OK;
}


int rd_bdReadBlade(rdContext* ctx, const char* path, const char* where, rdBdBlade* b) {
  memset(b, 0, sizeof(*b));
  return read_file(ctx, path, "blade", where, blade, b);
}


void rd_bdFreeBlade(rdContext* ctx, rdBdBlade* b) {
  rd_free(ctx, b->eta);
  rd_free(ctx, b->K);
  rd_free(ctx, b->M);
  b->eta = b->K = b->M = NULL;
}
