// SPDX-License-Identifier: MIT
// BeamDyn importer: reads an OpenFAST BeamDyn v5 driver, primary and blade file into a spec,
// or writes the equivalent YAML deck (docs/import.md).
#include <ctype.h>
#include <lapacke.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "beam.h"
#include "core.h"
#include "rodrigues/import.h"
#include "rodrigues/liegroup.h"
#include "rodrigues/spec.h"

#define BD_MAXPATH 4096

// one input file split into lines (in place)
typedef struct bdFile_ {
  char path[BD_MAXPATH];
  char* text;
  char** line;
  int nline;
  int cur;  // next line (0-based)
} bdFile;

// everything read from the three files
typedef struct bdInput_ {
  // driver
  int dynamic;
  double t0, tf, dt, g[3], pos[3], dcm[9], rootvel[3], distr[6], tip[6];
  // primary
  double rhoinf, dtbeam;
  int quadrature, refine, order, nkp;
  double* kp;  // nkp x 4: x, y, z, twist (deg)
  // blade
  int nst, damp_type;
  double mu[6];
  double *eta, *K, *M;  // BeamDyn order
  char files[3][BD_MAXPATH];
} bdInput;

// the model derived from it, in our conventions
typedef struct bdModel_ {
  int n;
  double x[RD_BEAM_MAXNODE][3], q[RD_BEAM_MAXNODE][4], v[RD_BEAM_MAXNODE][3];
  double w[3];   // root angular velocity, global (0: clamped)
  double mu[6];  // our order
  double *K, *M;  // our order, nst x 36
  int rotating;
} bdModel;

// BeamDyn component -> ours: ours[i] = bd[perm[i]] (axial z first; cyclic, a proper rotation)
static const int perm[6] = {2, 0, 1, 5, 3, 4};

// ---------------------------------------------------------------------------------------------
// lines and tokens

static void file_free(rdContext* ctx, bdFile* f) {
  rd_free(ctx, f->text);
  rd_free(ctx, f->line);
  f->text = NULL;
  f->line = NULL;
}


static int file_load(rdContext* ctx, const char* path, bdFile* f) {
  memset(f, 0, sizeof(*f));
  snprintf(f->path, sizeof(f->path), "%s", path);
  FILE* fp = fopen(path, "rb");
  if (!fp) {
    return RD_ERROR(ctx, RD_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  }
  size_t cap = 4096, len = 0;
  f->text = rd_alloc(ctx, cap);
  while (f->text) {
    if (len + 1 >= cap) {
      char* t = rd_alloc(ctx, 2 * cap);
      if (t) {
        memcpy(t, f->text, len);
      }
      rd_free(ctx, f->text);
      f->text = t;
      cap *= 2;
      if (!t) {
        break;
      }
    }
    size_t k = fread(f->text + len, 1, cap - 1 - len, fp);
    len += k;
    if (k == 0) {
      break;
    }
  }
  int bad = ferror(fp);
  fclose(fp);
  if (!f->text) {
    return RD_ERR_NOMEM;
  }
  if (bad) {
    file_free(ctx, f);
    return RD_ERROR(ctx, RD_ERR_IO, "%s: read error", path);
  }
  f->text[len] = '\0';
  if (strlen(f->text) != len) {
    file_free(ctx, f);
    return RD_ERROR(ctx, RD_ERR_DECK, "%s: not a text file (NUL byte)", path);
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


// next line, skipping separators and blank lines if `skip`; its 1-based number in *lineno
static int next_line(rdContext* ctx, bdFile* f, int skip, const char* what, const char** s) {
  while (f->cur < f->nline && skip && is_skippable(f->line[f->cur])) {
    f->cur++;
  }
  if (f->cur >= f->nline) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: unexpected end of file, expected %s", f->path,
                    f->nline, what);
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


static int parse_real(const char* t, double* v) {
  char* e;
  errno = 0;
  *v = strtod(t, &e);
  return e != t && *e == '\0' && errno == 0 && isfinite(*v);
}


static int is_default(const char* t) {
  return !strcmp(t, "\"DEFAULT\"") || !strcmp(t, "DEFAULT") || !strcmp(t, "\"default\"");
}


// a "VALUE LABEL - help" line: returns the value token in tok[0]; checks the label.
// *isdef is set when the value is "DEFAULT" (then allowed only if isdef is not NULL)
static int value_line(rdContext* ctx, bdFile* f, const char* label, char* buf, int size,
                      char** val, int* isdef) {
  const char* s;
  int st = next_line(ctx, f, 1, label, &s);
  if (st) {
    return st;
  }
  char* tok[2];
  int n = tokens(s, buf, size, tok, 2);
  if (n < 2 || strcasecmp(tok[1], label)) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: expected a value of '%s', found '%s'", f->path,
                    f->cur, label, s);
  }
  *val = tok[0];
  if (isdef) {
    *isdef = is_default(tok[0]);
  } else if (is_default(tok[0])) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: '%s' has no default", f->path, f->cur, label);
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
  if (!parse_real(t, v)) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: '%s' must be a finite number, not '%s'", f->path,
                    f->cur, label, t);
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
  char* e;
  errno = 0;
  long l = strtol(t, &e, 10);
  if (e == t || *e || errno || l < lo || l > hi) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: '%s' must be an integer in [%d, %d], not '%s'",
                    f->path, f->cur, label, lo, hi, t);
  }
  *v = (int)l;
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
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: '%s' must be True or False, not '%s'", f->path,
                    f->cur, label, t);
  }
  return RD_OK;
}


// a quoted file name, resolved relative to the directory of f
static int read_path(rdContext* ctx, bdFile* f, const char* label, char* out, int size) {
  char buf[BD_MAXPATH], *t;
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
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: '%s' is empty", f->path, f->cur, label);
  }
  const char* slash = strrchr(f->path, '/');
  int dir = (t[0] == '/' || !slash) ? 0 : (int)(slash - f->path) + 1;
  if (snprintf(out, (size_t)size, "%.*s%s", dir, f->path, t) >= size) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: path too long", f->path, f->cur);
  }
  return RD_OK;
}


// a line of exactly n numbers (extra tokens not allowed)
static int read_row(rdContext* ctx, bdFile* f, int n, double* v, const char* what) {
  const char* s;
  int st = next_line(ctx, f, 1, what, &s);
  if (st) {
    return st;
  }
  char buf[1024], *tok[8];
  int k = tokens(s, buf, sizeof(buf), tok, 8);
  if (k < n) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: expected %d numbers (%s), found %d", f->path,
                    f->cur, n, what, k);
  }
  for (int i = 0; i < n; i++) {
    if (!parse_real(tok[i], v + i)) {
      return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: %s: '%s' is not a finite number", f->path,
                      f->cur, what, tok[i]);
    }
  }
  return RD_OK;
}

// ---------------------------------------------------------------------------------------------
// the three files

static int read_driver(rdContext* ctx, bdFile* f, bdInput* in) {
  static const char* const g[3] = {"Gx", "Gy", "Gz"};
  static const char* const pos[3] = {"GlbPos(1)", "GlbPos(2)", "GlbPos(3)"};
  static const char* const rv[3] = {"RootVel(4)", "RootVel(5)", "RootVel(6)"};
  char lab[32];
  int st = skip_lines(ctx, f, 2, "the header");
  if (!st) st = read_bool(ctx, f, "DynamicSolve", &in->dynamic);
  if (!st) st = read_real(ctx, f, "t_initial", 0, &in->t0);
  if (!st) st = read_real(ctx, f, "t_final", 0, &in->tf);
  if (!st) st = read_real(ctx, f, "dt", 0, &in->dt);
  if (!st && !(in->dt > 0)) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: dt must be > 0", f->path, f->cur);
  }
  if (!st && in->tf < in->t0) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: t_final < t_initial", f->path, f->cur);
  }
  for (int i = 0; i < 3 && !st; i++) st = read_real(ctx, f, g[i], 0, in->g + i);
  for (int i = 0; i < 3 && !st; i++) st = read_real(ctx, f, pos[i], 0, in->pos + i);
  for (int i = 0; i < 3 && !st; i++) st = read_row(ctx, f, 3, in->dcm + 3 * i, "a row of GlbDCM");
  if (st) {
    return st;
  }
  // orthonormal with det +1
  double e = 0;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      double d = 0;
      for (int k = 0; k < 3; k++) d += in->dcm[3 * i + k] * in->dcm[3 * j + k];
      e = fmax(e, fabs(d - (i == j)));
    }
  }
  const double* D = in->dcm;
  double det = D[0] * (D[4] * D[8] - D[5] * D[7]) - D[1] * (D[3] * D[8] - D[5] * D[6]) +
               D[2] * (D[3] * D[7] - D[4] * D[6]);
  if (e > 1e-6 || det < 0) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: GlbDCM is not a rotation matrix", f->path, f->cur);
  }
  int rotT0;
  st = read_bool(ctx, f, "GlbRotBladeT0", &rotT0);
  for (int i = 0; i < 3 && !st; i++) st = read_real(ctx, f, rv[i], 0, in->rootvel + i);
  for (int i = 0; i < 6 && !st; i++) {
    snprintf(lab, sizeof(lab), "DistrLoad(%d)", i + 1);
    st = read_real(ctx, f, lab, 0, in->distr + i);
  }
  for (int i = 0; i < 6 && !st; i++) {
    snprintf(lab, sizeof(lab), "TipLoad(%d)", i + 1);
    st = read_real(ctx, f, lab, 0, in->tip + i);
  }
  int npl = 0;
  if (!st) st = read_int(ctx, f, "NumPointLoads", 0, 0, 100000, &npl);
  if (!st && npl > 0) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: point loads (NumPointLoads > 0) are not supported",
                    f->path, f->cur);
  }
  if (!st) st = skip_lines(ctx, f, 2, "the point-load table header");
  if (!st) st = read_path(ctx, f, "InputFile", in->files[1], BD_MAXPATH);
  return st;
}


static int read_primary(rdContext* ctx, bdFile* f, bdInput* in) {
  int b, qsi, dum;
  double r;
  int st = skip_lines(ctx, f, 2, "the header");
  if (!st) st = read_bool(ctx, f, "Echo", &b);
  if (!st) st = read_bool(ctx, f, "QuasiStaticInit", &qsi);
  if (!st && qsi && in->dynamic) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: QuasiStaticInit = True is not supported", f->path,
                    f->cur);
  }
  if (!st) st = read_real(ctx, f, "rhoinf", 0, &in->rhoinf);
  if (!st && (in->rhoinf < 0 || in->rhoinf > 1)) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: rhoinf must be in [0, 1]", f->path, f->cur);
  }
  if (!st) st = read_int(ctx, f, "quadrature", 1, 1, 2, &in->quadrature);
  if (!st) st = read_int(ctx, f, "refine", 1, 1, 1000, &in->refine);
  if (!st && in->quadrature == 2 && in->refine != 1) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: refine > 1 is not supported (trapezoidal "
                    "quadrature on the stations only)", f->path, f->cur);
  }
  if (!st) st = read_int(ctx, f, "n_fact", 5, 1, 1000000, &dum);
  if (!st) st = read_real(ctx, f, "DTBeam", 0, &in->dtbeam);
  if (!st && in->dtbeam < 0) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: DTBeam must be > 0", f->path, f->cur);
  }
  if (!st) st = read_int(ctx, f, "load_retries", 20, 0, 1000000, &dum);
  if (!st) st = read_int(ctx, f, "NRMax", 10, 1, 1000000, &dum);
  if (!st) st = read_real(ctx, f, "stop_tol", 1e-5, &r);
  if (!st) st = read_bool(ctx, f, "tngt_stf_fd", &b);
  if (!st) st = read_bool(ctx, f, "tngt_stf_comp", &b);
  if (!st) st = read_real(ctx, f, "tngt_stf_pert", 1e-6, &r);
  if (!st) st = read_real(ctx, f, "tngt_stf_difftol", 0.1, &r);
  if (!st) st = read_bool(ctx, f, "RotStates", &b);
  int nmem = 0;
  if (!st) st = read_int(ctx, f, "member_total", 0, 1, 1000000, &nmem);
  if (!st && nmem != 1) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: member_total = %d: only one member is supported",
                    f->path, f->cur, nmem);
  }
  if (!st) st = read_int(ctx, f, "kp_total", 0, 3, 100000, &in->nkp);
  if (st) {
    return st;
  }
  double mk[2];
  st = read_row(ctx, f, 2, mk, "member number and key points");
  if (!st && (mk[0] != 1 || mk[1] != in->nkp)) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: expected member 1 with %d key points", f->path,
                    f->cur, in->nkp);
  }
  if (!st) st = skip_lines(ctx, f, 2, "the key-point table header");
  if (st) {
    return st;
  }
  in->kp = rd_alloc(ctx, sizeof(double) * 4 * (size_t)in->nkp);
  if (!in->kp) {
    return RD_ERR_NOMEM;
  }
  for (int i = 0; i < in->nkp; i++) {
    st = read_row(ctx, f, 4, in->kp + 4 * i, "kp_xr kp_yr kp_zr initial_twist");
    if (st) {
      return st;
    }
    if (i > 0 && !(in->kp[4 * i + 2] > in->kp[4 * i - 2])) {
      return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: kp_zr must increase strictly along the member",
                      f->path, f->cur);
    }
  }
  st = read_int(ctx, f, "order_elem", 0, 1, RD_BEAM_MAXNODE - 1, &in->order);
  if (!st) st = read_path(ctx, f, "BldFile", in->files[2], BD_MAXPATH);
  return st;
}


static int read_blade(rdContext* ctx, bdFile* f, bdInput* in) {
  int st = skip_lines(ctx, f, 2, "the header");
  if (!st) st = read_int(ctx, f, "station_total", 0, 1, 1000000, &in->nst);
  if (!st) st = read_int(ctx, f, "damp_type", 0, 0, 2, &in->damp_type);
  if (!st && in->damp_type == 2) {
    return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: modal damping (damp_type 2) is not supported",
                    f->path, f->cur);
  }
  if (!st) {
    while (f->cur < f->nline && is_skippable(f->line[f->cur])) f->cur++;
    st = skip_lines(ctx, f, 2, "the damping table header");
  }
  if (!st) st = read_row(ctx, f, 6, in->mu, "mu1 ... mu6");
  int nm;
  if (!st) st = read_int(ctx, f, "n_modes", 0, 0, 1000000, &nm);
  if (!st) st = skip_lines(ctx, f, 1, "zeta");
  if (st) {
    return st;
  }
  if (in->damp_type == 0) {
    memset(in->mu, 0, sizeof(in->mu));
  }
  for (int i = 0; i < 6; i++) {
    if (in->mu[i] < 0) {
      return RD_ERROR(ctx, RD_ERR_DECK, "%s: damping mu%d must be >= 0", f->path, i + 1);
    }
  }
  size_t n = (size_t)in->nst;
  in->eta = rd_alloc(ctx, sizeof(double) * n);
  in->K = rd_alloc(ctx, sizeof(double) * 36 * n);
  in->M = rd_alloc(ctx, sizeof(double) * 36 * n);
  if (!in->eta || !in->K || !in->M) {
    return RD_ERR_NOMEM;
  }
  for (int s = 0; s < in->nst; s++) {
    st = read_row(ctx, f, 1, in->eta + s, "station eta");
    if (st) {
      return st;
    }
    double e = in->eta[s];
    if (e < 0 || e > 1 || (s > 0 && !(e > in->eta[s - 1])) || (s == 0 && e != 0 && in->nst > 1) ||
        (s == in->nst - 1 && in->nst > 1 && e != 1)) {
      return RD_ERROR(ctx, RD_ERR_DECK, "%s:%d: station eta = %g: the stations must increase "
                      "strictly from 0 to 1", f->path, f->cur, e);
    }
    for (int r = 0; r < 6 && !st; r++) st = read_row(ctx, f, 6, in->K + 36 * s + 6 * r, "a stiffness row");
    for (int r = 0; r < 6 && !st; r++) st = read_row(ctx, f, 6, in->M + 36 * s + 6 * r, "a mass row");
    if (st) {
      return st;
    }
  }
  return RD_OK;
}


static void input_free(rdContext* ctx, bdInput* in) {
  rd_free(ctx, in->kp);
  rd_free(ctx, in->eta);
  rd_free(ctx, in->K);
  rd_free(ctx, in->M);
}


static int read_input(rdContext* ctx, const char* driver, bdInput* in) {
  memset(in, 0, sizeof(*in));
  snprintf(in->files[0], BD_MAXPATH, "%s", driver);
  bdFile f;
  int (*readers[3])(rdContext*, bdFile*, bdInput*) = {read_driver, read_primary, read_blade};
  for (int i = 0; i < 3; i++) {
    int st = file_load(ctx, in->files[i], &f);
    if (st) {
      return st;
    }
    st = readers[i](ctx, &f, in);
    file_free(ctx, &f);
    if (st) {
      return st;
    }
  }
  return RD_OK;
}

// ---------------------------------------------------------------------------------------------
// geometry: BeamDyn's least-squares fit of the key points (docs/import.md)
//
// x, y, z and the twist are fitted as polynomials of degree q - 1, q = min(n, nkp), in the
// parameter t = 2 (z - z_0) / (z_end - z_0) - 1 of the key points: Lagrange basis at the q GLL
// points of [-1, 1], least squares over the key points, the first and last coefficients fixed
// to the end key points. The nodes sit at the n GLL points of t.

// the fitted coefficients c (q x 4: x, y, z, twist at the q GLL points)
static int kp_fit(rdContext* ctx, int nk, const double* kp, int q, double* c) {
  double tg[RD_BEAM_MAXNODE], phi[RD_BEAM_MAXNODE], dphi[RD_BEAM_MAXNODE];
  double A[RD_BEAM_MAXNODE * RD_BEAM_MAXNODE];
  lapack_int piv[RD_BEAM_MAXNODE];
  int st = rd_beamGLL(q, tg);
  if (st) {
    return RD_ERROR(ctx, RD_ERR_ARG, "key-point fit of order %d", q - 1);
  }
  memset(A, 0, sizeof(double) * (size_t)(q * q));
  memset(c, 0, sizeof(double) * 4 * (size_t)q);
  double z0 = kp[2], z1 = kp[4 * (nk - 1) + 2];
  for (int i = 0; i < nk; i++) {
    double t = 2 * (kp[4 * i + 2] - z0) / (z1 - z0) - 1;
    rd_beamLagrange(q, tg, t, phi, dphi);
    for (int a = 0; a < q; a++) {
      for (int b = 0; b < q; b++) {
        A[q * a + b] += phi[a] * phi[b];
      }
      for (int j = 0; j < 4; j++) {
        c[4 * a + j] += phi[a] * kp[4 * i + j];
      }
    }
  }
  // the ends interpolate the first and last key points
  for (int b = 0; b < q; b++) {
    A[b] = A[q * (q - 1) + b] = 0;
  }
  A[0] = A[q * q - 1] = 1;
  for (int j = 0; j < 4; j++) {
    c[j] = kp[j];
    c[4 * (q - 1) + j] = kp[4 * (nk - 1) + j];
  }
  lapack_int info = LAPACKE_dgesv(LAPACK_ROW_MAJOR, q, 4, A, q, piv, c, 4);
  if (info != 0) {
    return RD_ERROR(ctx, RD_ERR_DECK, "key-point fit: singular least-squares system (%d)",
                    (int)info);
  }
  return RD_OK;
}


static int build_model(rdContext* ctx, const bdInput* in, bdModel* m) {
  memset(m, 0, sizeof(*m));
  int n = in->order + 1, nk = in->nkp;
  int q = n < nk ? n : nk;
  m->n = n;
  m->K = rd_alloc(ctx, sizeof(double) * 36 * (size_t)in->nst);
  m->M = rd_alloc(ctx, sizeof(double) * 36 * (size_t)in->nst);
  double c[4 * RD_BEAM_MAXNODE], xi[RD_BEAM_MAXNODE], tq[RD_BEAM_MAXNODE];
  int st = (m->K && m->M) ? RD_OK : RD_ERR_NOMEM;
  if (!st) st = kp_fit(ctx, nk, in->kp, q, c);
  if (!st) st = rd_beamGLL(n, xi);
  if (!st) st = rd_beamGLL(q, tq);
  // blade axes in the global frame: R_b = GlbDCM^T
  double Rb[9];
  for (int i = 0; i < 9; i++) Rb[i] = in->dcm[3 * (i % 3) + i / 3];
  for (int k = 0; k < n && !st; k++) {
    double phi[RD_BEAM_MAXNODE], dphi[RD_BEAM_MAXNODE], p[3] = {0}, e3[3] = {0}, tw = 0;
    rd_beamLagrange(q, tq, xi[k], phi, dphi);
    for (int a = 0; a < q; a++) {
      for (int i = 0; i < 3; i++) {
        p[i] += phi[a] * c[4 * a + i];
        e3[i] += dphi[a] * c[4 * a + i];
      }
      tw += phi[a] * c[4 * a + 3];
    }
    double l3 = sqrt(e3[0] * e3[0] + e3[1] * e3[1] + e3[2] * e3[2]);
    for (int i = 0; i < 3; i++) e3[i] /= l3;
    // BeamDyn's section frame: e1 normal to the tangent e3 with no y component, e2 = e3 x e1,
    // then both turned about e3 by -twist (BeamDyn negates the input twist: its N1Fxl is
    // RootFxr turned by -13.308 deg in the r-test output)
    double e1[3], e2[3];
    e1[2] = -e3[0] / sqrt(e3[0] * e3[0] + e3[2] * e3[2]);
    e1[0] = sqrt(1 - e1[2] * e1[2]);
    e1[1] = 0;
    e2[0] = e3[1] * e1[2] - e3[2] * e1[1];
    e2[1] = e3[2] * e1[0] - e3[0] * e1[2];
    e2[2] = e3[0] * e1[1] - e3[1] * e1[0];
    double ph = -tw * 3.14159265358979323846 / 180, cs = cos(ph), sn = sin(ph);
    double f1[3], f2[3];
    for (int i = 0; i < 3; i++) {
      f1[i] = cs * e1[i] + sn * e2[i];
      f2[i] = -sn * e1[i] + cs * e2[i];
    }
    // our body axes (x along the beam) = BeamDyn's (e3, e1, e2), then to global
    double F[9], R[9];
    for (int i = 0; i < 3; i++) {
      F[3 * i + 0] = e3[i];
      F[3 * i + 1] = f1[i];
      F[3 * i + 2] = f2[i];
    }
    for (int i = 0; i < 3; i++) {
      m->x[k][i] = in->pos[i];
      for (int j = 0; j < 3; j++) {
        m->x[k][i] += Rb[3 * i + j] * p[j];
        R[3 * i + j] = 0;
        for (int l = 0; l < 3; l++) R[3 * i + j] += Rb[3 * i + l] * F[3 * l + j];
      }
    }
    rdu_matToQuat(m->q[k], R);
  }
  // rotating root: the whole blade spins rigidly about the origin at t = 0
  m->rotating = in->rootvel[0] != 0 || in->rootvel[1] != 0 || in->rootvel[2] != 0;
  for (int i = 0; i < 3; i++) m->w[i] = in->rootvel[i];
  for (int k = 0; k < n; k++) {
    const double* w = m->w;
    const double* x = m->x[k];
    m->v[k][0] = w[1] * x[2] - w[2] * x[1];
    m->v[k][1] = w[2] * x[0] - w[0] * x[2];
    m->v[k][2] = w[0] * x[1] - w[1] * x[0];
  }
  for (int s = 0; s < in->nst && !st; s++) {
    for (int i = 0; i < 6; i++) {
      for (int j = 0; j < 6; j++) {
        m->K[36 * s + 6 * i + j] = in->K[36 * s + 6 * perm[i] + perm[j]];
        m->M[36 * s + 6 * i + j] = in->M[36 * s + 6 * perm[i] + perm[j]];
      }
    }
  }
  for (int i = 0; i < 6; i++) m->mu[i] = in->mu[perm[i]];
  return st;
}


static void model_free(rdContext* ctx, bdModel* m) {
  rd_free(ctx, m->K);
  rd_free(ctx, m->M);
}


// prescribed root motion of a rigid rotation at constant w about the origin: rotation vector
// w t, displacement (exp(w t) - I) x0 = sin(|w|t) n x x0 + (1 - cos(|w|t)) n x (n x x0)
static void root_motion(const bdModel* m, char expr[6][160]) {
  double W = sqrt(m->w[0] * m->w[0] + m->w[1] * m->w[1] + m->w[2] * m->w[2]);
  double nv[3] = {m->w[0] / W, m->w[1] / W, m->w[2] / W};
  const double* x = m->x[0];
  double a[3] = {nv[1] * x[2] - nv[2] * x[1], nv[2] * x[0] - nv[0] * x[2],
                 nv[0] * x[1] - nv[1] * x[0]};
  double b[3] = {nv[1] * a[2] - nv[2] * a[1], nv[2] * a[0] - nv[0] * a[2],
                 nv[0] * a[1] - nv[1] * a[0]};
  for (int i = 0; i < 3; i++) {
    snprintf(expr[i], 160, "%.17g*sin(%.17g*t) + %.17g*(1 - cos(%.17g*t))", a[i], W, b[i], W);
    snprintf(expr[3 + i], 160, "%.17g*t", m->w[i]);
  }
}

// ---------------------------------------------------------------------------------------------
// spec

static int add_spec(rdSpec* spec, const bdInput* in, const bdModel* m) {
  int nodes[RD_BEAM_MAXNODE], st = RD_OK;
  char name[64];
  for (int k = 0; k < m->n; k++) {
    rdNodeDef nd = rd_defaultNodeDef();
    snprintf(name, sizeof(name), "blade_%d", k);
    nd.name = name;
    memcpy(nd.position, m->x[k], sizeof(nd.position));
    memcpy(nd.orientation, m->q[k], sizeof(nd.orientation));
    memcpy(nd.velocity, m->v[k], sizeof(nd.velocity));
    memcpy(nd.angular_velocity, m->w, sizeof(nd.angular_velocity));
    nodes[k] = rds_addNode(spec, &nd);
    if (nodes[k] < 0) {
      return nodes[k];
    }
  }
  rdBeamDef b = rd_defaultBeamDef();
  b.name = "blade";
  b.nnode = m->n;
  b.nodes = nodes;
  b.nstation = in->nst;
  b.station = in->eta;
  b.stiffness = m->K;
  b.mass = m->M;
  memcpy(b.damping, m->mu, sizeof(b.damping));
  b.quadrature = in->quadrature == 2 ? RD_BEAM_QUADRATURE_STATIONS : RD_BEAM_QUADRATURE_FULL;
  b.rotation_field = RD_BEAM_ROTATION_DISPLACEMENT;  // BeamDyn's reference frames
  for (int i = 0; i < 3; i++) {
    b.force[i] = in->distr[i];
    b.moment[i] = in->distr[3 + i];
  }
  int bi = rds_addBeam(spec, &b);
  if (bi < 0) {
    return bi;
  }
  st = rds_setOrigin(spec, RD_OBJ_BEAM, bi, in->files[2]);
  rdJointDef j = rd_defaultJointDef();
  j.name = "root";
  j.node[0] = nodes[0];
  if (!m->rotating) {
    j.type = RD_JOINT_FIXED;
  } else {
    static const char* const fn[6] = {"root_x", "root_y", "root_z", "root_rx", "root_ry",
                                      "root_rz"};
    char expr[6][160];
    root_motion(m, expr);
    j.type = RD_JOINT_PRESCRIBED;
    for (int i = 0; i < 6 && !st; i++) {
      rdTimeFnDef t = rd_defaultTimeFnDef();
      t.name = fn[i];
      t.type = RD_TIMEFN_EXPRESSION;
      t.expression = expr[i];
      j.motion_fn[i] = rds_addTimeFn(spec, &t);
      st = j.motion_fn[i] < 0 ? j.motion_fn[i] : RD_OK;
    }
  }
  if (!st) st = rds_addJoint(spec, &j) < 0 ? RD_ERR_ARG : RD_OK;
  if (!st && (in->tip[0] || in->tip[1] || in->tip[2] || in->tip[3] || in->tip[4] || in->tip[5])) {
    for (int kind = 0; kind < 2 && !st; kind++) {
      rdLoadDef l = rd_defaultLoadDef();
      l.name = kind ? "tip_moment" : "tip_force";
      l.node = nodes[m->n - 1];
      l.kind = kind ? RD_LOAD_MOMENT : RD_LOAD_FORCE;
      memcpy(l.value, in->tip + 3 * kind, sizeof(l.value));
      st = rds_addLoad(spec, &l) < 0 ? RD_ERR_ARG : RD_OK;
    }
  }
  if (!st) st = rds_setGravity(spec, in->g);
  if (!st) st = rds_setOption(spec, "solver.method", in->dynamic ? "generalized_alpha" : "static");
  if (!st) st = rds_setOptionReal(spec, "solver.rho_inf", in->rhoinf);
  if (!st) st = rds_setOptionReal(spec, "solver.start_time", in->t0);
  if (!st) st = rds_setOptionReal(spec, "solver.time_step", in->dtbeam > 0 ? in->dtbeam : in->dt);
  if (!st) st = rds_setOptionReal(spec, "solver.final_time", in->dynamic ? in->tf : in->t0 + 1);
  if (!st) st = rds_addOutputNode(spec, nodes[0]);
  if (!st) st = rds_addOutputNode(spec, nodes[m->n - 1]);
  return st;
}


int rd_importBeamDyn(rdContext* ctx, const char* driver, rdSpec** spec) {
  if (spec) {
    *spec = NULL;
  }
  if (!rd_contextValid(ctx)) {
    return RD_ERR_HANDLE;
  }
  if (!driver || !spec) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_importBeamDyn: NULL argument");
  }
  bdInput in;
  bdModel m = {0};
  int st = read_input(ctx, driver, &in);
  if (!st) st = build_model(ctx, &in, &m);
  if (!st) st = rd_createSpec(ctx, spec);
  if (!st) st = add_spec(*spec, &in, &m);
  if (st && spec && *spec) {
    rd_destroySpec(spec);
  }
  model_free(ctx, &m);
  input_free(ctx, &in);
  return st;
}

// ---------------------------------------------------------------------------------------------
// deck

// shortest text that reads back as the same double
static const char* num(char* buf, double v) {
  if (v == 0) {
    return "0";
  }
  for (int p = 6; p <= 17; p++) {
    snprintf(buf, 40, "%.*g", p, v);
    if (strtod(buf, NULL) == v) {
      break;
    }
  }
  return buf;
}


static void vec(FILE* out, const double* v, int n) {
  char b[40];
  fputc('[', out);
  for (int i = 0; i < n; i++) {
    fprintf(out, "%s%s", i ? ", " : "", num(b, v[i]));
  }
  fputc(']', out);
}


static void mat6(FILE* out, const char* key, const double* A) {
  int diag = 1;
  for (int i = 0; i < 36; i++) {
    diag &= (i % 7 == 0) || A[i] == 0;
  }
  fprintf(out, "        %s: ", key);
  if (diag) {
    double d[6];
    for (int i = 0; i < 6; i++) d[i] = A[7 * i];
    vec(out, d, 6);
    fputc('\n', out);
    return;
  }
  fputc('\n', out);
  for (int i = 0; i < 6; i++) {
    fprintf(out, "          - ");
    vec(out, A + 6 * i, 6);
    fputc('\n', out);
  }
}


static int write_deck(FILE* out, const bdInput* in, const bdModel* m) {
  char b[40];
  fprintf(out,
          "# Generated by `rodrigues import beamdyn %s` (rd_importBeamDyn) from the BeamDyn files\n"
          "#   %s\n#   %s\n#   %s\n"
          "# BeamDyn's blade frame has the beam axis along z; here the section frame has it along x:\n"
          "# 6x6 matrices C' = Q C Q^T, Q = diag(P, P), P = [[0,0,1],[1,0,0],[0,1,0]]; key points\n"
          "# fitted as BeamDyn does (least squares, degree order_elem, in z), nodes at the GLL points;\n"
          "# rotation_field: displacement gives BeamDyn's section frames between the nodes.\n",
          in->files[0], in->files[0], in->files[1], in->files[2]);
  fprintf(out, "title: \"BeamDyn import: %s\"\n", in->files[0]);
  fprintf(out, "gravity: ");
  vec(out, in->g, 3);
  fprintf(out, "\n\nsolver:\n  method: %s\n", in->dynamic ? "generalized_alpha" : "static");
  fprintf(out, "  rho_inf: %s\n", num(b, in->rhoinf));
  fprintf(out, "  start_time: %s\n", num(b, in->t0));
  fprintf(out, "  time_step: %s\n", num(b, in->dtbeam > 0 ? in->dtbeam : in->dt));
  fprintf(out, "  final_time: %s\n", num(b, in->dynamic ? in->tf : in->t0 + 1));
  fprintf(out, "\noutput:\n  nodes: [blade_0, blade_%d]\n\nnodes:\n", m->n - 1);
  for (int k = 0; k < m->n; k++) {
    fprintf(out, "  - name: blade_%d\n    position: ", k);
    vec(out, m->x[k], 3);
    fprintf(out, "\n    orientation: {quaternion: ");
    vec(out, m->q[k], 4);
    fprintf(out, "}\n");
    if (m->rotating) {
      fprintf(out, "    velocity: ");
      vec(out, m->v[k], 3);
      fprintf(out, "\n    angular_velocity: ");
      vec(out, m->w, 3);
      fprintf(out, "\n");
    }
  }
  if (m->rotating) {
    static const char* const fn[6] = {"root_x", "root_y", "root_z", "root_rx", "root_ry",
                                      "root_rz"};
    char expr[6][160];
    root_motion(m, expr);
    fprintf(out, "\ntime_functions:  # rigid rotation of the root at RootVel about the origin\n");
    for (int i = 0; i < 6; i++) {
      fprintf(out, "  - {name: %s, type: expression, expression: \"%s\"}\n", fn[i], expr[i]);
    }
  }
  fprintf(out, "\nelements:\n  - name: blade\n    type: beam\n    nodes: [");
  for (int k = 0; k < m->n; k++) {
    fprintf(out, "%sblade_%d", k ? ", " : "", k);
  }
  fprintf(out, "]\n    quadrature: %s\n    rotation_field: displacement\n    damping: ",
          in->quadrature == 2 ? "stations" : "full");
  vec(out, m->mu, 6);
  fprintf(out, "  # BeamDyn mu (%s)\n", in->damp_type ? "damp_type 1" : "no damping");
  if (in->distr[0] || in->distr[1] || in->distr[2] || in->distr[3] || in->distr[4] ||
      in->distr[5]) {
    fprintf(out, "    load: {force: ");
    vec(out, in->distr, 3);
    fprintf(out, ", moment: ");
    vec(out, in->distr + 3, 3);
    fprintf(out, ", frame: global}\n");
  }
  fprintf(out, "    sections:\n");
  for (int s = 0; s < in->nst; s++) {
    fprintf(out, "      - s: %s\n", num(b, in->eta[s]));
    mat6(out, "stiffness", m->K + 36 * s);
    mat6(out, "mass", m->M + 36 * s);
  }
  fprintf(out, "\njoints:\n");
  if (!m->rotating) {
    fprintf(out, "  - {name: root, type: fixed, node: blade_0}\n");
  } else {
    fprintf(out, "  - name: root\n    type: prescribed\n    node: blade_0\n    motion: {x: root_x, "
                 "y: root_y, z: root_z, rx: root_rx, ry: root_ry, rz: root_rz}\n");
  }
  if (in->tip[0] || in->tip[1] || in->tip[2] || in->tip[3] || in->tip[4] || in->tip[5]) {
    fprintf(out, "\nloads:\n  - {name: tip_force, type: force, node: blade_%d, value: ", m->n - 1);
    vec(out, in->tip, 3);
    fprintf(out, "}\n  - {name: tip_moment, type: moment, node: blade_%d, value: ", m->n - 1);
    vec(out, in->tip + 3, 3);
    fprintf(out, "}\n");
  }
  return ferror(out) ? RD_ERR_IO : RD_OK;
}


int rd_importBeamDynDeck(rdContext* ctx, const char* driver, FILE* out) {
  if (!rd_contextValid(ctx)) {
    return RD_ERR_HANDLE;
  }
  if (!driver || !out) {
    return RD_ERROR(ctx, RD_ERR_ARG, "rd_importBeamDynDeck: NULL argument");
  }
  bdInput in;
  bdModel m = {0};
  int st = read_input(ctx, driver, &in);
  if (!st) st = build_model(ctx, &in, &m);
  if (!st && write_deck(out, &in, &m)) {
    st = RD_ERROR(ctx, RD_ERR_IO, "cannot write the deck");
  }
  model_free(ctx, &m);
  input_free(ctx, &in);
  return st;
}
