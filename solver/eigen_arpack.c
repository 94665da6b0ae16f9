// SPDX-License-Identifier: MIT
// ARPACK eigen-solutions with shift-invert on a sparse factorization (the linear-solver backends
// of the time stepper): dsaupd/dseupd for the symmetric problem, dnaupd/dneupd for the
// first-order form of the quadratic one.
#include <math.h>
#include <string.h>

#include "solver/eigen.h"
#include "solver/linsol.h"
#include "src/model/options.h"

#if defined(RD_HAVE_ARPACK)
#include <arpack/arpack.h>

#include "src/core/lazylib.h"

// ARPACK's functions, loaded when first used (src/core/lazylib.h): ARPACK loads OpenBLAS, which
// starts threads when loaded, and only a modal analysis needs it
typedef struct {
  __typeof__(&dsaupd_c) dsaupd;
  __typeof__(&dseupd_c) dseupd;
  __typeof__(&dnaupd_c) dnaupd;
  __typeof__(&dneupd_c) dneupd;
} arpackLib;


#ifdef RD_ARPACK_SONAME

static arpackLib g_arpack;
static rdLazyLib g_arpack_lib = {"ARPACK", RD_ARPACK_SONAME, 0, ""};


// the functions, or NULL with RD_ERR_IO raised in ctx
static const arpackLib* arpack_lib(rdContext* ctx) {
  const rdLazySym syms[] = {
      {"dsaupd_c", &g_arpack.dsaupd, sizeof(g_arpack.dsaupd)},
      {"dseupd_c", &g_arpack.dseupd, sizeof(g_arpack.dseupd)},
      {"dnaupd_c", &g_arpack.dnaupd, sizeof(g_arpack.dnaupd)},
      {"dneupd_c", &g_arpack.dneupd, sizeof(g_arpack.dneupd)},
  };
  int n = (int)(sizeof(syms) / sizeof(syms[0]));
  return rd_lazyLoad(ctx, &g_arpack_lib, syms, n, "the modes (ARPACK)") == RD_OK ? &g_arpack : NULL;
}

#else

static const arpackLib* arpack_lib(rdContext* ctx) {
  static const arpackLib linked = {dsaupd_c, dseupd_c, dnaupd_c, dneupd_c};
  (void)ctx;
  return &linked;
}

#endif

// the factorization of P(sigma) = K + sigma D + sigma^2 M (symmetric: K - sigma M, given as
// the shift of w^2) on the common structure of the matrices
typedef struct {
  rdContext* ctx;
  const arpackLib* ar;
  const rdCsc *M, *D, *K;
  rdLinSol* ls;
  double* Px;  // values of P(sigma)
  double* t;   // n: scratch
  int n;
} shiftInvert;


// factor K + a D + b M with the backend kind; RD_OK or RD_RECOVER_SINGULAR (or an error)
static int si_factor(shiftInvert* s, int kind, double a, double b) {
  rd_linsolDestroy(&s->ls);
  int st = rd_linsolCreate(s->ctx, kind, s->n, s->K->Ap, s->K->Ai, &s->ls);
  if (st != RD_OK) {
    return st;
  }
  int nnz = s->K->Ap[s->n];
  for (int p = 0; p < nnz; p++) {
    s->Px[p] = s->K->Ax[p] + a * s->D->Ax[p] + b * s->M->Ax[p];
  }
  return rd_linsolFactor(s->ls, s->Px);
}


// factor at the shift (sym: P = K - sigma M; else K + sigma D + sigma^2 M); if that is singular
// and the shift is 0, at sigma = -1e-9 max(K_ii / M_ii). Backend: CHOLMOD for the symmetric
// problem when the caller did not choose (KLU if CHOLMOD finds P indefinite)
static int si_setup(shiftInvert* s, const rdEigenOpts* o, double* sigma) {
  int kind = o->linsol != RD_LINSOL_AUTO ? o->linsol
             : o->symmetric              ? RD_LINSOL_CHOLMOD
                                         : RD_LINSOL_KLU;
  double sg = o->symmetric ? o->shift : 0;
  for (int attempt = 0; attempt < 2; attempt++) {
    int st = o->symmetric ? si_factor(s, kind, 0, -sg) : si_factor(s, kind, sg, sg * sg);
    if (st > 0 && kind == RD_LINSOL_CHOLMOD) {
      kind = RD_LINSOL_KLU;  // indefinite (a shift above the lowest modes): LU
      st = o->symmetric ? si_factor(s, kind, 0, -sg) : si_factor(s, kind, sg, sg * sg);
    }
    if (st <= 0) {
      *sigma = sg;
      return st;
    }
    if (attempt == 0 && sg == 0) {
      double rho = rd_eigenScale(s->M, s->K);
      sg = -1e-9 * (rho > 0 ? rho : 1);  // a free body: K is singular
      if (!o->symmetric) {
        sg = -sqrt(-sg);  // the shift of lambda, not of lambda^2
      }
      continue;
    }
    return RD_ERROR(s->ctx, RD_ERR_NUMERIC,
                    "modes: the shifted matrix is singular at sigma = %g (choose another shift)",
                    sg);
  }
  return RD_ERR_NUMERIC;
}


static int arpack_fail(rdContext* ctx, const char* who, int info) {
  return RD_ERROR(ctx, RD_ERR_NUMERIC, "ARPACK %s failed (info %d)", who, info);
}


// the symmetric problem: dsaupd mode 3, bmat G
static int arpack_symmetric(shiftInvert* s, const rdEigenOpts* o, double sigma, rdEigen* out) {
  rdContext* ctx = s->ctx;
  int n = s->n, nev = o->count < n - 1 ? o->count : n - 1;
  int ncv = 2 * nev + 1 > 20 ? 2 * nev + 1 : 20;
  ncv = ncv < n ? ncv : n;
  int lworkl = ncv * (ncv + 8);
  double* resid = rd_calloc(ctx, (size_t)n, sizeof(double));
  double* V = rd_alloc(ctx, sizeof(double) * (size_t)n * (size_t)ncv);
  double* workd = rd_alloc(ctx, sizeof(double) * 3 * (size_t)n);
  double* workl = rd_alloc(ctx, sizeof(double) * (size_t)lworkl);
  double* d = rd_alloc(ctx, sizeof(double) * (size_t)(nev + 1));
  double* Z = rd_alloc(ctx, sizeof(double) * (size_t)n * (size_t)(nev + 1));
  int* select = rd_calloc(ctx, (size_t)ncv, sizeof(int));
  int st = resid && V && workd && workl && d && Z && select ? RD_OK : RD_ERR_NOMEM;
  a_int iparam[11] = {0}, ipntr[14] = {0}, ido = 0, info = 0;
  iparam[0] = 1;
  iparam[2] = o->max_iter > 0 ? o->max_iter : 1000;
  iparam[6] = 3;
  double tol = o->tol;
  int products = 0;
  while (st == RD_OK) {
    s->ar->dsaupd(&ido, "G", n, "LM", nev, tol, resid, ncv, V, n, iparam, ipntr, workd, workl,
                  lworkl, &info);
    double* x = workd + ipntr[0] - 1;
    double* y = workd + ipntr[1] - 1;
    if (ido == -1) {
      rd_cscMatVec(s->M, x, y, 0);
      st = rd_linsolSolve(s->ls, y);
      products++;
    } else if (ido == 1) {
      memcpy(y, workd + ipntr[2] - 1, sizeof(double) * (size_t)n);
      st = rd_linsolSolve(s->ls, y);
      products++;
    } else if (ido == 2) {
      rd_cscMatVec(s->M, x, y, 0);
    } else {
      break;
    }
  }
  if (st == RD_OK && info < 0) {
    st = arpack_fail(ctx, "dsaupd", info);
  }
  int nconv = (int)iparam[4];
  if (st == RD_OK && nconv > 0) {
    a_int ierr = 0;
    s->ar->dseupd(1, "A", select, d, Z, n, sigma, "G", n, "LM", nev, tol, resid, ncv, V, n, iparam,
                  ipntr, workd, workl, lworkl, &ierr);
    if (ierr != 0) {
      st = arpack_fail(ctx, "dseupd", ierr);
    }
  }
  if (st == RD_OK && nconv < nev) {
    st = RD_ERROR(ctx, RD_ERR_NUMERIC,
                  "modes: ARPACK found %d of %d eigenvalues in %d restarts (raise the restarts or "
                  "the tolerance, or use the dense solver)",
                  nconv, nev, (int)iparam[2]);
  }
  int* order = rd_alloc(ctx, sizeof(int) * (size_t)(nev + 1));
  double* lre = rd_alloc(ctx, sizeof(double) * (size_t)(nev + 1));
  double* lim = rd_alloc(ctx, sizeof(double) * (size_t)(nev + 1));
  if (st == RD_OK && (!order || !lre || !lim)) {
    st = RD_ERR_NOMEM;
  }
  if (st == RD_OK) {
    for (int k = 0; k < nconv; k++) {
      lre[k] = d[k] < 0 ? sqrt(-d[k]) : 0;
      lim[k] = d[k] < 0 ? 0 : sqrt(d[k]);
    }
    int kept = rd_eigenSelect(lre, lim, nconv, nev, order);
    st = rd_eigenAlloc(ctx, n, kept, out);
    for (int k = 0; st == RD_OK && k < kept; k++) {
      out->lre[k] = lre[order[k]];
      out->lim[k] = lim[order[k]];
      memcpy(out->zre + (size_t)k * (size_t)n, Z + (size_t)order[k] * (size_t)n,
             sizeof(double) * (size_t)n);
    }
    out->converged = nconv;
    out->restarts = (int)iparam[2];
    out->products = products;
    out->sigma = sigma;
  }
  rd_free(ctx, order);
  rd_free(ctx, lre);
  rd_free(ctx, lim);
  rd_free(ctx, resid);
  rd_free(ctx, V);
  rd_free(ctx, workd);
  rd_free(ctx, workl);
  rd_free(ctx, d);
  rd_free(ctx, Z);
  rd_free(ctx, select);
  return st;
}


// y = OP x = (A - sigma E)^-1 E x on the first-order state x = [p; q] (2n):
// a = -P(sigma)^-1 (M q + (D + sigma M) p), b = p + sigma a
static int op_general(shiftInvert* s, double sigma, const double* x, double* y) {
  int n = s->n;
  const double *p = x, *q = x + n;
  double *a = y, *b = y + n;
  rd_cscMatVec(s->M, q, s->t, 0);
  rd_cscMatVec(s->D, p, s->t, 1);
  if (sigma != 0) {
    rd_cscMatVec(s->M, p, a, 0);
    for (int i = 0; i < n; i++) {
      s->t[i] += sigma * a[i];
    }
  }
  for (int i = 0; i < n; i++) {
    a[i] = -s->t[i];
  }
  int st = rd_linsolSolve(s->ls, a);
  for (int i = 0; i < n; i++) {
    b[i] = p[i] + sigma * a[i];
  }
  return st;
}


// the general problem: dnaupd mode 1 on OP, lambda = sigma + 1 / nu
static int arpack_general(shiftInvert* s, const rdEigenOpts* o, double sigma, rdEigen* out) {
  rdContext* ctx = s->ctx;
  int n = s->n, n2 = 2 * n;
  // both members of a pair converge: ask for two per mode, and one more for a pair split at the
  // end
  int nev = 2 * o->count + 1 < n2 - 2 ? 2 * o->count + 1 : n2 - 2;
  int ncv = 2 * nev + 1 > 24 ? 2 * nev + 1 : 24;
  ncv = ncv < n2 ? ncv : n2;
  int lworkl = 3 * ncv * ncv + 6 * ncv;
  double* resid = rd_calloc(ctx, (size_t)n2, sizeof(double));
  double* V = rd_alloc(ctx, sizeof(double) * (size_t)n2 * (size_t)ncv);
  double* workd = rd_alloc(ctx, sizeof(double) * 3 * (size_t)n2);
  double* workl = rd_alloc(ctx, sizeof(double) * (size_t)lworkl);
  double* workev = rd_alloc(ctx, sizeof(double) * 3 * (size_t)ncv);
  double* dr = rd_alloc(ctx, sizeof(double) * (size_t)(nev + 2));
  double* di = rd_alloc(ctx, sizeof(double) * (size_t)(nev + 2));
  double* Z = rd_alloc(ctx, sizeof(double) * (size_t)n2 * (size_t)(nev + 2));
  int* select = rd_calloc(ctx, (size_t)ncv, sizeof(int));
  int* order = rd_alloc(ctx, sizeof(int) * (size_t)(nev + 2));
  int* first = rd_alloc(ctx, sizeof(int) * (size_t)(nev + 2));
  int st = resid && V && workd && workl && workev && dr && di && Z && select && order && first
               ? RD_OK
               : RD_ERR_NOMEM;
  a_int iparam[11] = {0}, ipntr[14] = {0}, ido = 0, info = 0;
  iparam[0] = 1;
  iparam[2] = o->max_iter > 0 ? o->max_iter : 1000;
  iparam[6] = 1;
  int products = 0;
  while (st == RD_OK) {
    s->ar->dnaupd(&ido, "I", n2, "LM", nev, o->tol, resid, ncv, V, n2, iparam, ipntr, workd, workl,
                  lworkl, &info);
    if (ido == -1 || ido == 1) {
      st = op_general(s, sigma, workd + ipntr[0] - 1, workd + ipntr[1] - 1);
      products++;
    } else {
      break;
    }
  }
  if (st == RD_OK && info < 0) {
    st = arpack_fail(ctx, "dnaupd", info);
  }
  int nconv = (int)iparam[4];
  if (st == RD_OK && nconv > 0) {
    a_int ierr = 0;
    s->ar->dneupd(1, "A", select, dr, di, Z, n2, 0, 0, workev, "I", n2, "LM", nev, o->tol, resid,
                  ncv, V, n2, iparam, ipntr, workd, workl, lworkl, &ierr);
    if (ierr != 0) {
      st = arpack_fail(ctx, "dneupd", ierr);
    }
  }
  if (st == RD_OK && nconv < nev) {
    st = RD_ERROR(ctx, RD_ERR_NUMERIC,
                  "modes: ARPACK found %d of %d eigenvalues in %d restarts (raise the restarts or "
                  "the tolerance, or use the dense solver)",
                  nconv, nev, (int)iparam[2]);
  }
  if (st == RD_OK) {
    // the pairs' storage (dneupd stores a pair as LAPACK does: columns i, i + 1, the first with
    // Im nu > 0), then nu -> lambda = sigma + 1 / nu
    rd_eigenPairStorage(di, nconv, first);
    for (int k = 0; k < nconv; k++) {
      double den = dr[k] * dr[k] + di[k] * di[k];
      double re = dr[k] / den, im = -di[k] / den;
      dr[k] = sigma + re;
      di[k] = im;
    }
    int kept = rd_eigenSelect(dr, di, nconv, o->count, order);
    st = rd_eigenAlloc(ctx, n, kept, out);
    for (int k = 0; st == RD_OK && k < kept; k++) {
      rd_eigenStorePair(out, k, order[k], dr, di, Z, (size_t)n2, nconv, first);
    }
    out->converged = nconv;
    out->restarts = (int)iparam[2];
    out->products = products;
    out->sigma = sigma;
  }
  rd_free(ctx, resid);
  rd_free(ctx, V);
  rd_free(ctx, workd);
  rd_free(ctx, workl);
  rd_free(ctx, workev);
  rd_free(ctx, dr);
  rd_free(ctx, di);
  rd_free(ctx, Z);
  rd_free(ctx, select);
  rd_free(ctx, order);
  rd_free(ctx, first);
  return st;
}


int rd_eigenArpack(rdContext* ctx, const rdCsc* M, const rdCsc* D, const rdCsc* K,
                   const rdEigenOpts* o, rdEigen* out) {
  memset(out, 0, sizeof(*out));
  int n = K->nrow;
  if (n < 3 || M->Ap[n] != K->Ap[n] || D->Ap[n] != K->Ap[n] ||
      memcmp(M->Ai, K->Ai, sizeof(int) * (size_t)K->Ap[n]) != 0 ||
      memcmp(D->Ai, K->Ai, sizeof(int) * (size_t)K->Ap[n]) != 0) {
    return RD_ERROR(ctx, RD_ERR_ARG, "modes: ARPACK needs at least 3 unknowns and one structure");
  }
  const arpackLib* ar = arpack_lib(ctx);
  if (!ar) {
    return RD_ERR_IO;
  }
  shiftInvert s = {ctx, ar, M, D, K, NULL, NULL, NULL, n};
  s.Px = rd_alloc(ctx, sizeof(double) * ((size_t)K->Ap[n] + 1));
  s.t = rd_alloc(ctx, sizeof(double) * (size_t)n);
  int st = s.Px && s.t ? RD_OK : RD_ERR_NOMEM;
  double sigma = 0;
  if (st == RD_OK) {
    st = si_setup(&s, o, &sigma);
  }
  if (st == RD_OK) {
    st = o->symmetric ? arpack_symmetric(&s, o, sigma, out) : arpack_general(&s, o, sigma, out);
  }
  rd_linsolDestroy(&s.ls);
  rd_free(ctx, s.Px);
  rd_free(ctx, s.t);
  return st;
}

#else

int rd_eigenArpack(rdContext* ctx, const rdCsc* M, const rdCsc* D, const rdCsc* K,
                   const rdEigenOpts* o, rdEigen* out) {
  (void)M;
  (void)D;
  (void)K;
  (void)o;
  memset(out, 0, sizeof(*out));
  return RD_ERROR(ctx, RD_ERR_UNSUPPORTED,
                  "modes: this build has no ARPACK (meson -Darpack=enabled); use the dense solver");
}

#endif
