// SPDX-License-Identifier: MIT
// Modes against the time integrator (docs/verification.md, "Modal analysis"): the spectrum
// (FFT) of a small free vibration computed by generalized-alpha from the operating point has its
// peaks at the modal frequencies, for a cantilever at rest and for a beam spinning on a hub
// (in the rotating frame); and the linearized response (the reduced M, D, K integrated with the
// same generalized-alpha) agrees with the nonlinear one, the difference first order in the
// amplitude.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "src/model/data_impl.h"
#include "tests/support/models.h"
#include "tests/test_macros.h"

// after the headers above: lapacke.h brings complex.h, whose macro I clashes with names
#include <lapacke.h>

#define PI 3.14159265358979323846

// in-place radix-2 FFT of n complex values (re, im), n a power of two
static void fft(int n, double* re, double* im) {
  for (int i = 1, j = 0; i < n; i++) {
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) {
      j ^= bit;
    }
    j ^= bit;
    if (i < j) {
      double t = re[i];
      re[i] = re[j];
      re[j] = t;
      t = im[i];
      im[i] = im[j];
      im[j] = t;
    }
  }
  for (int len = 2; len <= n; len <<= 1) {
    double a = -2 * PI / len;
    for (int i = 0; i < n; i += len) {
      for (int k = 0; k < len / 2; k++) {
        double c = cos(a * k), s = sin(a * k);
        double xr = re[i + k + len / 2] * c - im[i + k + len / 2] * s;
        double xi = re[i + k + len / 2] * s + im[i + k + len / 2] * c;
        re[i + k + len / 2] = re[i + k] - xr;
        im[i + k + len / 2] = im[i + k] - xi;
        re[i + k] += xr;
        im[i + k] += xi;
      }
    }
  }
}


// the amplitude spectrum of n samples (n a power of two) after removing the mean, Hann window:
// amp[k], k < n / 2, at frequency k / (n dt)
static void spectrum(int n, const double* x, double* amp) {
  double* re = malloc(sizeof(double) * (size_t)n);
  double* im = calloc((size_t)n, sizeof(double));
  double mean = 0;
  for (int i = 0; i < n; i++) {
    mean += x[i] / n;
  }
  for (int i = 0; i < n; i++) {
    re[i] = (x[i] - mean) * (0.5 - 0.5 * cos(2 * PI * i / n));
  }
  fft(n, re, im);
  for (int k = 0; k < n / 2; k++) {
    amp[k] = hypot(re[k], im[k]);
  }
  free(re);
  free(im);
}


// the peaks of a spectrum: local maxima above frac of the largest, bins 2 .. n/2 - 2; returns
// their number (<= max), their bins in order
static int peaks(const double* amp, int nb, double frac, int* bin, int max) {
  double big = 0;
  for (int k = 2; k < nb; k++) {
    big = fmax(big, amp[k]);
  }
  int n = 0;
  for (int k = 2; k < nb - 1 && n < max; k++) {
    if (amp[k] > frac * big && amp[k] >= amp[k - 1] && amp[k] > amp[k + 1]) {
      bin[n++] = k;
    }
  }
  return n;
}


// the frequency (Hz) generalized-alpha (rho_inf, step h, docs/generalized_alpha.md) gives an
// undamped oscillator of frequency f: the argument of the principal eigenvalue of its step map
// on (q, v, vd, a) over h; linear, so one Newton iteration is exact
static double ga_frequency(double f, double rho, double h) {
  double am = (2 * rho - 1) / (rho + 1), af = rho / (rho + 1), g = 0.5 + af - am;
  double b = 0.25 * (g + 0.5) * (g + 0.5), w2 = 4 * PI * PI * f * f;
  double bp = (1 - am) / (h * h * b * (1 - af)), gp = g / (h * b);
  double S[16];
  for (int c = 0; c < 4; c++) {
    double x[4] = {0, 0, 0, 0};
    x[c] = 1;
    double q = x[0], v = x[1], vd = x[2], a = x[3];
    double an = (af * vd - am * a) / (1 - am);
    double dq = v + (0.5 - b) * h * a + b * h * an;
    v += h * (1 - g) * a + g * h * an;
    vd = 0;
    double dx = -(vd + w2 * (q + h * dq)) / (bp + w2);
    dq += dx / h;
    v += gp * dx;
    vd += bp * dx;
    a = an + (1 - af) / (1 - am) * vd;
    double y[4] = {q + h * dq, v, vd, a};
    for (int r = 0; r < 4; r++) {
      S[c * 4 + r] = y[r];  // column-major
    }
  }
  double wr[4], wi[4];
  LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', 4, S, 4, wr, wi, NULL, 4, NULL, 4);
  double best = 0;
  for (int k = 0; k < 4; k++) {
    if (wi[k] > 0) {
      best = fmax(best, atan2(wi[k], wr[k]));
    }
  }
  return best / (2 * PI * h);
}


// every spectral peak (above 1e-3 of the largest, below fmax) of the signals sits within one
// bin (df) of a mode's frequency as generalized-alpha reproduces it (fga: the modal frequency f
// with the integrator's period error, ga_frequency), and every mode the excitation reaches
// (excited[k]) below fmax has such a peak in some signal
static void check_peaks(double** sig, int nsig, int n, double dt, const double* f,
                        const double* fga, const int* excited, int nf, double fmax,
                        const char* what) {
  double df = 1 / (n * dt);
  int* found = calloc((size_t)nf, sizeof(int));
  double* amp = malloc(sizeof(double) * (size_t)(n / 2));
  for (int s = 0; s < nsig; s++) {
    spectrum(n, sig[s], amp);
    int bin[64];
    int np = peaks(amp, (int)(fmax / df), 1e-3, bin, 64);
    for (int p = 0; p < np; p++) {
      double fp = bin[p] * df, best = INFINITY;
      int near = -1;
      for (int k = 0; k < nf; k++) {
        if (fabs(fga[k] - fp) < best) {
          best = fabs(fga[k] - fp);
          near = k;
        }
      }
      printf(
          "  %s, signal %d: peak at %8.4f Hz; mode %8.4f Hz, with the integrator's period "
          "error %8.4f Hz (%.2f bins)\n",
          what, s, fp, near >= 0 ? f[near] : NAN, near >= 0 ? fga[near] : NAN, best / df);
      CHECK_MSG(best <= df, "%s signal %d: peak at %.4f Hz has no mode within %.4f Hz", what, s, fp,
                df);
      if (near >= 0 && best <= df) {
        found[near] = 1;
      }
    }
  }
  for (int k = 0; k < nf; k++) {
    if (f[k] < fmax && excited[k]) {
      CHECK_MSG(found[k], "%s: mode at %.4f Hz has no peak", what, f[k]);
    }
  }
  free(found);
  free(amp);
}


// the frequencies (Hz) of a linearization's modes, and whether a tap of the node's velocity
// (v, 6 components) reaches each: |y_node . v| above 1e-3 of the largest (shapes normalized)
static int mode_frequencies(rdContext* ctx, const rdLinearization* lin, int count, int node,
                            const double* tap, int nnode, double* f, int* excited) {
  rdModalDef def = rd_defaultModalDef();
  def.count = count;
  rdModes* md = NULL;
  if (rd_computeModes(lin, &def, &md) != RD_OK) {
    printf("modes: %s\n", rd_lastError(ctx));
    return 0;
  }
  int n = rd_modeCount(md);
  double* re = malloc(sizeof(double) * 6 * (size_t)nnode);
  double* reach = malloc(sizeof(double) * (size_t)n);
  double big = 0;
  for (int k = 0; k < n; k++) {
    rdModeInfo i;
    rd_getMode(md, k, &i);
    f[k] = i.frequency_hz;
    rd_getModeShape(md, k, re, NULL);
    reach[k] = 0;
    for (int c = 0; c < 6; c++) {
      reach[k] += re[6 * node + c] * tap[c];
    }
    reach[k] = fabs(reach[k]);
    big = fmax(big, reach[k]);
  }
  for (int k = 0; k < n; k++) {
    excited[k] = reach[k] > 1e-3 * big;
  }
  free(re);
  free(reach);
  rd_destroyModes(&md);
  return n;
}


// the section of these tests: EA, GA, GJ, EI_y, EI_z = 2e3, 500, 2, 3, 1.5; m = 1, polar 5e-3,
// rotary 1e-3
static void section(double K[36], double M[36]) {
  double k[6] = {2e3, 500, 500, 2, 3, 1.5}, mm[6] = {1, 1, 1, 5e-3, 1e-3, 1e-3};
  model_diag6(K, k);
  model_diag6(M, mm);
}


// a cantilever at rest (L = 1.5, 2 elements of 6 nodes) is tapped at its tip (velocity along y
// and z and about x, 1e-4 of the beam's size per second); generalized-alpha (rho_inf 0.98,
// h = 1e-3) for 2^14 steps; the tip's y, z and torsion
static void test_fft_cantilever(void) {
  double K[36], M[36];
  section(K, M);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = model_cantilever(ctx, 2, 6, 1.5, K, M);
  rds_setOption(s, "solver.rho_inf", "0.98");
  rds_setOption(s, "solver.time_step", "1e-3");
  rds_setOption(s, "solver.atol", "1e-12");
  rds_setOption(s, "solver.rtol", "1e-10");
  rdModel* m = NULL;
  rdData* d = NULL;
  CHECK(model_make(s, &m, &d) == 0);
  if (!m) {
    rd_destroyContext(&ctx);
    return;
  }
  rdLinearization* lin = NULL;
  CHECK(rd_linearize(m, d, NULL, &lin) == RD_OK);
  int tip = m->nnode - 1;
  double tap[6] = {0, 1.5e-4, 1.5e-4, 1e-4, 0, 0}, f[30], fga[30];
  int excited[30];
  int nf = mode_frequencies(ctx, lin, 30, tip, tap, m->nnode, f, excited);
  rd_destroyLinearization(&lin);
  for (int k = 0; k < nf; k++) {
    fga[k] = ga_frequency(f[k], 0.98, 1e-3);
  }
  memcpy(d->s.v + 6 * tip, tap, sizeof(tap));
  CHECK(rd_initialize(m, d) == RD_OK);
  enum { N = 1 << 14 };
  double dt = 1e-3;
  double* sig[3];
  for (int k = 0; k < 3; k++) {
    sig[k] = malloc(sizeof(double) * N);
  }
  for (int i = 0; i < N; i++) {
    double x[3], q[4], p[3];
    rd_getNodeState(m, d, tip, x, q, NULL, NULL, NULL);
    rdu_quatToRotvec(p, q);
    sig[0][i] = x[1];
    sig[1][i] = x[2];
    sig[2][i] = p[0];
    if (rd_step(m, d, dt) != RD_OK) {
      CHECK_MSG(0, "step %d: %s", i, rd_lastError(ctx));
      break;
    }
  }
  // modes up to 60 Hz (the 30 modes reach 67 Hz)
  check_peaks(sig, 3, N, dt, f, fga, excited, nf, 60, "cantilever");
  for (int k = 0; k < 3; k++) {
    free(sig[k]);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// the same beam on a hub at the origin spinning at 2 rad/s about z (a revolute with the
// prescribed angle 2 t), started from the steady state that rd_linearize finds, tapped at the
// tip; the tip's motion in the rotating frame (flap along z, edge along y, torsion) against the
// modes in the rotating frame
static void test_fft_spinning(void) {
  double K[36], M[36], W = 2;
  section(K, M);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  int nodes[11];
  model_addGllBeams(s, 2, 6, 1.5, K, M, "beam", nodes);
  rdTimeFnDef tf = rd_defaultTimeFnDef();
  tf.name = "theta";
  tf.type = RD_TIMEFN_EXPRESSION;
  tf.expression = "2*t";
  int th = rds_addTimeFn(s, &tf);
  rdJointDef j = rd_defaultJointDef();
  j.name = "hub";
  j.type = RD_JOINT_REVOLUTE;
  j.node[0] = nodes[0];
  j.axis[2] = -1;  // the angle turns the ground relative to the node: -z turns the beam by +z
  j.angle_fn = th;
  rds_addJoint(s, &j);
  rds_setOption(s, "solver.rho_inf", "0.98");
  rds_setOption(s, "solver.time_step", "1e-3");
  rds_setOption(s, "solver.atol", "1e-12");
  rds_setOption(s, "solver.rtol", "1e-10");
  rdModel* m = NULL;
  rdData* d = NULL;
  CHECK(model_make(s, &m, &d) == 0);
  if (!m) {
    rd_destroyContext(&ctx);
    return;
  }
  rdLinearizeDef def = rd_defaultLinearizeDef();
  def.spin_rate = W;
  def.spin_axis[2] = 1;
  def.steady = 1;
  rdLinearization* lin = NULL;
  CHECK_MSG(rd_linearize(m, d, &def, &lin) == RD_OK, "%s", rd_lastError(ctx));
  int tip = m->nnode - 1, nn = m->nnode;
  double tap[6] = {0, 1.5e-4, 1.5e-4, 1e-4, 0, 0}, f[30], fga[30];
  int excited[30];
  int nf = mode_frequencies(ctx, lin, 30, tip, tap, nn, f, excited);
  rd_destroyLinearization(&lin);
  // the reference (steady) configuration, then the tap on top of the spin
  double* q0 = malloc(sizeof(double) * 7 * (size_t)nn);
  memcpy(q0, d->s.q, sizeof(double) * 7 * (size_t)nn);
  for (int k = 0; k < nf; k++) {
    fga[k] = ga_frequency(f[k], 0.98, 1e-3);
  }
  for (int c = 0; c < 6; c++) {
    d->s.v[6 * tip + c] += tap[c];
  }
  CHECK(rd_initialize(m, d) == RD_OK);
  enum { N = 1 << 14 };
  double dt = 1e-3;
  double* sig[3];
  for (int k = 0; k < 3; k++) {
    sig[k] = malloc(sizeof(double) * N);
  }
  for (int i = 0; i < N; i++) {
    // the rotating frame: Rz(W t); the tip relative to its steady place, in that frame
    double t = rd_time(d), c = cos(W * t), sn = sin(W * t), x[3], q[4];
    rd_getNodeState(m, d, tip, x, q, NULL, NULL, NULL);
    double u[3] = {c * x[0] + sn * x[1] - q0[7 * tip], -sn * x[0] + c * x[1] - q0[7 * tip + 1],
                   x[2] - q0[7 * tip + 2]};
    double qf[4] = {cos(0.5 * W * t), 0, 0, -sin(0.5 * W * t)}, a[4], b[4], qc[4], p[3];
    rdu_quatMul(a, qf, q);  // Rz(-W t) R
    rdu_quatConj(qc, q0 + 7 * tip + 3);
    rdu_quatMul(b, a, qc);  // relative to the steady orientation (global axes of the frame)
    rdu_quatToRotvec(p, b);
    sig[0][i] = u[1];
    sig[1][i] = u[2];
    sig[2][i] = p[0];
    if (rd_step(m, d, dt) != RD_OK) {
      CHECK_MSG(0, "step %d: %s", i, rd_lastError(ctx));
      break;
    }
  }
  check_peaks(sig, 3, N, dt, f, fga, excited, nf, 30, "spinning");
  for (int k = 0; k < 3; k++) {
    free(sig[k]);
  }
  free(q0);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// the dense column-major copy of a matrix of a linearization
static double* dense_matrix(const rdLinearization* lin, int which, int* nrow, int* ncol) {
  int nnz;
  rd_getLinearMatrix(lin, which, nrow, ncol, &nnz, NULL, NULL, NULL);
  int* Ap = malloc(sizeof(int) * (size_t)(*ncol + 1));
  int* Ai = malloc(sizeof(int) * (size_t)(nnz + 1));
  double* Ax = malloc(sizeof(double) * (size_t)(nnz + 1));
  double* A = calloc((size_t)*nrow * (size_t)*ncol, sizeof(double));
  rd_getLinearMatrix(lin, which, NULL, NULL, NULL, Ap, Ai, Ax);
  for (int j = 0; j < *ncol; j++) {
    for (int p = Ap[j]; p < Ap[j + 1]; p++) {
      A[(size_t)j * (size_t)*nrow + (size_t)Ai[p]] = Ax[p];
    }
  }
  free(Ap);
  free(Ai);
  free(Ax);
  return A;
}


// y = A x (A: m x n column-major), or y += A x
static void gemv(int m, int n, const double* A, const double* x, double* y, int add) {
  for (int i = 0; i < m && !add; i++) {
    y[i] = 0;
  }
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < m; i++) {
      y[i] += A[(size_t)j * (size_t)m + (size_t)i] * x[j];
    }
  }
}


// the tip's response to a tap of amplitude eps: nonlinear (the time stepper) against the
// linearized equations M_r z'' + D_r z' + K_r z = 0 integrated with the same generalized-alpha
// (rho_inf, h), 2000 steps; returns max |y_lin - y_nl| / max |y_nl| over the tip's y and z
static double linear_vs_nonlinear(double eps) {
  double K[36], M[36], rho = 0.9, h = 1e-3;
  section(K, M);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = model_cantilever(ctx, 2, 6, 1.5, K, M);
  rds_setOption(s, "solver.rho_inf", "0.9");
  rds_setOption(s, "solver.atol", "1e-14");
  rds_setOption(s, "solver.rtol", "1e-12");
  rdModel* m = NULL;
  rdData* d = NULL;
  if (model_make(s, &m, &d) != 0) {
    rd_destroyContext(&ctx);
    return 1;
  }
  rdLinearization* lin = NULL;
  rd_linearize(m, d, NULL, &lin);
  int n, nr, r1, c1;
  double* Nd = dense_matrix(lin, RD_LIN_N, &n, &nr);
  double* Md = dense_matrix(lin, RD_LIN_MR, &r1, &c1);
  double* Dd = dense_matrix(lin, RD_LIN_DR, &r1, &c1);
  double* Kd = dense_matrix(lin, RD_LIN_KR, &r1, &c1);
  rd_destroyLinearization(&lin);
  // the tap: the tip's velocity (y, z, torsion)
  int tip = m->nnode - 1, dof = m->node_dof[tip];
  double tap[6] = {0, eps, eps, 0.5 * eps, 0, 0};
  double* v0 = calloc((size_t)n, sizeof(double));
  memcpy(v0 + dof, tap, sizeof(tap));
  memcpy(d->s.v + 6 * tip, tap, sizeof(tap));
  rd_initialize(m, d);
  // generalized-alpha on the reduced equations (linear: one Newton iteration is exact)
  double am = (2 * rho - 1) / (rho + 1), af = rho / (rho + 1), g = 0.5 + af - am;
  double b = 0.25 * (g + 0.5) * (g + 0.5), bp = (1 - am) / (h * h * b * (1 - af)), gp = g / (h * b);
  size_t sz = (size_t)nr;
  double *z = calloc(sz, sizeof(double)), *zd = calloc(sz, sizeof(double));
  double *zdd = calloc(sz, sizeof(double)), *a = calloc(sz, sizeof(double));
  double *dq = calloc(sz, sizeof(double)), *r = calloc(sz, sizeof(double));
  double* S = malloc(sizeof(double) * sz * sz);
  double* L = malloc(sizeof(double) * sz * sz);
  lapack_int* piv = malloc(sizeof(lapack_int) * sz);
  lapack_int* pivm = malloc(sizeof(lapack_int) * sz);
  for (int i = 0; i < nr; i++) {  // z' = N^T v0 (N orthonormal, the tap admissible)
    for (int k = 0; k < n; k++) {
      zd[i] += Nd[(size_t)i * (size_t)n + (size_t)k] * v0[k];
    }
  }
  // z'' at the start: M z'' = -(D z' + K z)
  memcpy(L, Md, sizeof(double) * sz * sz);
  gemv(nr, nr, Dd, zd, zdd, 0);
  for (int i = 0; i < nr; i++) {
    zdd[i] = -zdd[i];
  }
  LAPACKE_dgesv(LAPACK_COL_MAJOR, nr, 1, L, nr, pivm, zdd, nr);
  memcpy(a, zdd, sizeof(double) * sz);
  for (size_t k = 0; k < sz * sz; k++) {
    S[k] = bp * Md[k] + gp * Dd[k] + Kd[k];
  }
  LAPACKE_dgetrf(LAPACK_COL_MAJOR, nr, nr, S, nr, piv);
  double worst = 0, big = 0, x0[3];
  rd_getNodeState(m, d, tip, x0, NULL, NULL, NULL, NULL);
  for (int step = 1; step <= 2000; step++) {
    for (int i = 0; i < nr; i++) {
      double an = (af * zdd[i] - am * a[i]) / (1 - am);
      dq[i] = zd[i] + (0.5 - b) * h * a[i] + b * h * an;
      zd[i] += h * (1 - g) * a[i] + g * h * an;
      zdd[i] = 0;
      a[i] = an;
      z[i] += h * dq[i];
    }
    gemv(nr, nr, Kd, z, r, 0);
    gemv(nr, nr, Dd, zd, r, 1);
    for (int i = 0; i < nr; i++) {
      r[i] = -r[i];
    }
    LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', nr, 1, S, nr, piv, r, nr);
    for (int i = 0; i < nr; i++) {
      z[i] += r[i];
      zd[i] += gp * r[i];
      zdd[i] += bp * r[i];
      a[i] += (1 - af) / (1 - am) * zdd[i];
    }
    if (rd_step(m, d, h) != RD_OK) {
      worst = 1;
      break;
    }
    double x[3];
    rd_getNodeState(m, d, tip, x, NULL, NULL, NULL, NULL);
    for (int c = 1; c < 3; c++) {
      double yl = 0;
      for (int j = 0; j < nr; j++) {
        yl += Nd[(size_t)j * (size_t)n + (size_t)(dof + c)] * z[j];
      }
      big = fmax(big, fabs(x[c] - x0[c]));
      worst = fmax(worst, fabs(yl - (x[c] - x0[c])));
    }
  }
  free(Nd);
  free(Md);
  free(Dd);
  free(Kd);
  free(v0);
  free(z);
  free(zd);
  free(zdd);
  free(a);
  free(dq);
  free(r);
  free(S);
  free(L);
  free(piv);
  free(pivm);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
  return big > 0 ? worst / big : 1;
}


static void test_linear_response(void) {
  // the difference is the nonlinearity: first order in the amplitude (relative)
  double e1 = linear_vs_nonlinear(1e-3), e2 = linear_vs_nonlinear(1e-2);
  printf("  tip response, linear against nonlinear: %.3e (tap 1e-3), %.3e (tap 1e-2), ratio %.2f\n",
         e1, e2, e2 / e1);
  CHECK(e1 < 1e-5);
  CHECK(e2 / e1 > 8 && e2 / e1 < 12);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_linear_response());
  TEST_CASE(test_fft_cantilever());
  TEST_CASE(test_fft_spinning());
  return TEST_SUMMARY();
}
