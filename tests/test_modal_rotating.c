// SPDX-License-Identifier: MIT
// A uniform cantilever spinning about an axis normal to it (docs/verification.md, "Modal
// analysis"): the steady state in the rotating frame, then the flapwise and edgewise frequencies
// against a Rayleigh-Ritz solution of the rotating Euler-Bernoulli beam written here (the first
// 40 clamped-free modes as the basis, the centrifugal tension T = m Omega^2 (R (L - x) +
// (L^2 - x^2) / 2)), and the Southwell relation w^2 = w0^2 + K Omega^2 with K the Rayleigh
// quotient of the tension with the first mode (derived in docs/modal.md). The same beam at rest
// under an axial tip force, linearized at its static equilibrium, against Ritz with the tension.
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/support/models.h"
#include "tests/test_macros.h"

#define PI 3.14159265358979323846

// roots b of cos(b) cosh(b) = -1, i.e. cos(b) + 1 / cosh(b) = 0, by Newton from (2k - 1) pi / 2
// (k >= 2) and 1.875 (k = 1): beta_n L of the clamped-free beam
#define NMODE 40
static double eb_roots[NMODE];

static void eb_init(void) {
  for (int k = 0; k < NMODE; k++) {
    double b = k == 0 ? 1.875 : (2 * k + 1) * PI / 2;
    for (int it = 0; it < 50; it++) {
      double g = cos(b) + 1 / cosh(b), dg = -sin(b) - sinh(b) / (cosh(b) * cosh(b));
      b -= g / dg;
    }
    eb_roots[k] = b;
  }
}


// Gauss-Legendre on [0, 1]: n points x and weights w (Newton on P_n)
static void gauss01(int n, double* x, double* w) {
  for (int i = 0; i < n; i++) {
    double z = cos(PI * (i + 0.75) / (n + 0.5)), dp = 1;
    for (int it = 0; it < 100; it++) {
      double p0 = 1, p1 = z;
      for (int k = 2; k <= n; k++) {
        double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (z * p1 - p0) / (z * z - 1);
      double dz = p1 / dp;
      z -= dz;
      if (fabs(dz) < 1e-16) {
        break;
      }
    }
    x[i] = 0.5 * (1 - z);
    w[i] = 1 / ((1 - z * z) * dp * dp);
  }
}


// the clamped-free Euler-Bernoulli mode k at xi = x / L: phi, phi', phi'' (per unit length L),
// in the form without cancellation: cosh - s sinh = e^-x + (1 - s) sinh,
// 1 - s = (sin b - cos b - e^-b) / (sinh b + sin b)
static void eb_mode(int k, double xi, double* f, double* f1, double* f2) {
  double b = eb_roots[k], x = b * xi;
  double s1 = (sin(b) - cos(b) - exp(-b)) / (sinh(b) + sin(b)), s = 1 - s1;
  double e = exp(-x), sh = sinh(x), ch = cosh(x), c = cos(x), sn = sin(x);
  *f = e + s1 * sh - c + s * sn;
  *f1 = b * (-e + s1 * ch + sn + s * c);
  *f2 = b * b * (e + s1 * sh + c - s * sn);
}


// Rayleigh-Ritz on the first nb clamped-free modes: the frequencies w (rad/s, ascending) of the
// rotating beam (EI, m, L, hub radius R) at Omega under an axial tip force P (a constant
// tension; negative: compression), flapwise (edge = 0: tension only) or edgewise (edge = 1:
// tension minus m Omega^2)
static int ritz(double EI, double m, double L, double R, double Omega, double P, int edge, int nb,
                double* w) {
  enum { NQ = 300 };
  static double x[NQ], wq[NQ], A[NMODE * NMODE], Bm[NMODE * NMODE];
  gauss01(NQ, x, wq);
  memset(A, 0, sizeof(A));
  memset(Bm, 0, sizeof(Bm));
  for (int q = 0; q < NQ; q++) {
    double f[NMODE], f1[NMODE], f2[NMODE], xi = x[q];
    for (int k = 0; k < nb; k++) {
      eb_mode(k, xi, &f[k], &f1[k], &f2[k]);
    }
    // T(x) = m Omega^2 (R (L - x) + (L^2 - x^2) / 2), x = xi L; d/dx = (1/L) d/dxi
    double T = m * Omega * Omega * (R * L * (1 - xi) + 0.5 * L * L * (1 - xi * xi)) + P;
    for (int i = 0; i < nb; i++) {
      for (int j = 0; j < nb; j++) {
        double k = EI * f2[i] * f2[j] / pow(L, 4) + T * f1[i] * f1[j] / (L * L) -
                   (edge ? m * Omega * Omega * f[i] * f[j] : 0);
        A[i * nb + j] += wq[q] * L * k;
        Bm[i * nb + j] += wq[q] * L * m * f[i] * f[j];
      }
    }
  }
  double ev[NMODE];
  if (LAPACKE_dsygv(LAPACK_ROW_MAJOR, 1, 'N', 'U', nb, A, nb, Bm, nb, ev) != 0) {
    return -1;
  }
  for (int k = 0; k < nb; k++) {
    w[k] = sqrt(ev[k]);
  }
  return 0;
}


// the Southwell coefficient: d(w^2)/d(Omega^2) at Omega = 0 for the first mode,
// int T1 phi'^2 / int m phi^2 (T1 = T / Omega^2), by quadrature of the exact mode
static double southwell(double m, double L, double R) {
  enum { NQ = 60 };
  double x[NQ], wq[NQ], num = 0, den = 0;
  gauss01(NQ, x, wq);
  for (int q = 0; q < NQ; q++) {
    double f, f1, f2, xi = x[q];
    eb_mode(0, xi, &f, &f1, &f2);
    double T1 = m * (R * L * (1 - xi) + 0.5 * L * L * (1 - xi * xi));
    num += wq[q] * L * T1 * f1 * f1 / (L * L);
    den += wq[q] * L * m * f * f;
  }
  return num / den;
}


// the frequencies (rad/s) of the first modes of one kind
static int of_kind(const rdModes* md, int kind, double* w, int max) {
  int n = 0;
  for (int k = 0; k < rd_modeCount(md) && n < max; k++) {
    rdModeInfo i;
    rd_getMode(md, k, &i);
    if (i.kind == kind) {
      w[n++] = 2 * PI * i.frequency_hz;
    }
  }
  return n;
}


// the cantilever along x over [0, L], spinning about z through (-R, 0, 0): flapwise along z
// (bending about the section's y, EI = 1), edgewise along y (EI = 4); shear and axial stiff,
// rotary inertia small (Euler-Bernoulli to about 1e-6)
static void rotating(double R) {
  double L = 1, m = 1, EIf = 1, EIe = 4;
  double k[6] = {1e8, 1e8, 1e8, 1, EIf, EIe}, mm[6] = {m, m, m, 1e-8, 1e-8, 1e-8};
  double K[36], M[36];
  model_diag6(K, k);
  model_diag6(M, mm);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* mdl = NULL;
  rdData* d = NULL;
  CHECK(model_make(model_cantilever(ctx, 4, 8, L, K, M), &mdl, &d) == 0);
  static const double speeds[6] = {0, 0.5, 1, 3, 6, 12};
  double w0 = 0, S[3] = {0, 0, 0};
  printf(
      "  hub radius %g:\n  Omega   flap 1 (Ritz)            flap 2 (Ritz)            edge 1 "
      "(Ritz)\n",
      R);
  for (int s = 0; s < 6 && mdl; s++) {
    rdLinearizeDef def = rd_defaultLinearizeDef();
    def.spin_rate = speeds[s];
    def.spin_axis[2] = 1;
    def.spin_center[0] = -R;
    def.steady = 1;
    rdLinearization* lin = NULL;
    int st = rd_linearize(mdl, d, &def, &lin);
    CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
    rdModalDef md_def = rd_defaultModalDef();
    md_def.count = 12;
    md_def.flap_axis[2] = 1;
    rdModes* md = NULL;
    if (st == RD_OK) {
      st = rd_computeModes(lin, &md_def, &md);
      CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
    }
    double wf[2] = {0, 0}, we[1] = {0}, rf[NMODE], re[NMODE], r10[NMODE];
    CHECK(md && of_kind(md, RD_MODE_FLAP, wf, 2) == 2);
    CHECK(md && of_kind(md, RD_MODE_EDGE, we, 1) == 1);
    CHECK(ritz(EIf, m, L, R, speeds[s], 0, 0, NMODE, rf) == 0);
    CHECK(ritz(EIe, m, L, R, speeds[s], 0, 1, NMODE, re) == 0);
    // the Ritz solution's own convergence: 30 against 40 basis functions
    CHECK(ritz(EIf, m, L, R, speeds[s], 0, 0, 30, r10) == 0);
    printf("  (Ritz with 30 modes against 40: flap 1 %.1e, flap 2 %.1e)\n", r10[0] / rf[0] - 1,
           r10[1] / rf[1] - 1);
    printf("  %5.1f  %.10f (%.10f)  %.10f (%.10f)  %.10f (%.10f)\n", speeds[s], wf[0], rf[0], wf[1],
           rf[1], we[0], re[0]);
    CHECK_REL(wf[0], rf[0], 3e-6);
    CHECK_REL(wf[1], rf[1], 3e-6);
    CHECK_REL(we[0], re[0], 3e-6);
    if (s == 0) {
      w0 = wf[0];
    } else if (s <= 2) {
      S[s] = (wf[0] * wf[0] - w0 * w0) / (speeds[s] * speeds[s]);
    }
    rd_destroyModes(&md);
    rd_destroyLinearization(&lin);
  }
  // the Southwell coefficient: the slope of w^2 in Omega^2 at 0, from S(Omega) = (w^2 - w0^2) /
  // Omega^2 = K + O(Omega^2) at 0.5 and 1 (Richardson)
  double Ks = southwell(m, L, R), K_fe = (4 * S[1] - S[2]) / 3;
  printf(
      "  Southwell coefficient: %.6f from the modes (%.6f at 0.5, %.6f at 1), %.6f from the "
      "Rayleigh quotient of the first mode\n",
      K_fe, S[1], S[2], Ks);
  CHECK_REL(K_fe, Ks, 5e-4);
  rd_destroyData(&d);
  rd_destroyModel(&mdl);
  rd_destroyContext(&ctx);
}


static void test_rotating_cantilever(void) {
  eb_init();
  rotating(0);
  rotating(0.5);
}


// the same cantilever (not spinning) under a dead axial force P at its tip, linearized at the
// static equilibrium (rd_linearize with steady and no spin): the geometric stiffness of the
// tension (P > 0) or compression (P < 0, below the buckling load pi^2 EI / (4 L^2) = 2.47)
// against Rayleigh-Ritz with the constant tension P, flapwise and edgewise
static void prestressed(double P) {
  double L = 1, m = 1, EIf = 1, EIe = 4;
  double k[6] = {1e8, 1e8, 1e8, 1, EIf, EIe}, mm[6] = {m, m, m, 1e-8, 1e-8, 1e-8};
  double K[36], M[36];
  model_diag6(K, k);
  model_diag6(M, mm);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = model_cantilever(ctx, 4, 8, L, K, M);
  rdLoadDef f = rd_defaultLoadDef();
  f.name = "tip";
  f.node = 4 * 7;  // the last of the 29 nodes
  f.value[0] = P;
  CHECK(s && rds_addLoad(s, &f) >= 0);
  rdModel* mdl = NULL;
  rdData* d = NULL;
  CHECK(model_make(s, &mdl, &d) == 0);
  rdLinearizeDef def = rd_defaultLinearizeDef();
  def.steady = 1;
  rdLinearization* lin = NULL;
  rdModes* md = NULL;
  int st = mdl ? rd_linearize(mdl, d, &def, &lin) : RD_ERR_ARG;
  CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  rdLinearizationInfo li = {0};
  if (st == RD_OK) {
    rd_getLinearizationInfo(lin, &li);
    // the static state: the tip moved by P L / EA along x, the residual gone to the round-off
    // of the axial forces (1e-12 EA)
    double x[3] = {0, 0, 0};
    rd_getNodeState(mdl, d, f.node, x, NULL, NULL, NULL, NULL);
    CHECK_REL(x[0] - L, P * L / 1e8, 1e-6);
    CHECK(li.steady_iterations > 0 && li.residual < 1e-12 * 1e8);
    rdModalDef md_def = rd_defaultModalDef();
    md_def.count = 12;
    md_def.flap_axis[2] = 1;
    st = rd_computeModes(lin, &md_def, &md);
    CHECK_MSG(st == RD_OK, "%s", rd_lastError(ctx));
  }
  double wf[2] = {0, 0}, we[1] = {0}, rf[NMODE], re[NMODE], r0[NMODE];
  CHECK(md && of_kind(md, RD_MODE_FLAP, wf, 2) == 2);
  CHECK(md && of_kind(md, RD_MODE_EDGE, we, 1) == 1);
  CHECK(ritz(EIf, m, L, 0, 0, P, 0, NMODE, rf) == 0);
  CHECK(ritz(EIe, m, L, 0, 0, P, 0, NMODE, re) == 0);
  CHECK(ritz(EIf, m, L, 0, 0, 0, 0, NMODE, r0) == 0);
  printf(
      "  P %5.1f: flap 1 %.10f (Ritz %.10f, unloaded %.10f), flap 2 %.10f (%.10f), edge 1 "
      "%.10f (%.10f); %d Newton iterations, residual %.1e N\n",
      P, wf[0], rf[0], r0[0], wf[1], rf[1], we[0], re[0], li.steady_iterations, li.residual);
  CHECK_REL(wf[0], rf[0], 3e-6);
  CHECK_REL(wf[1], rf[1], 3e-6);
  CHECK_REL(we[0], re[0], 3e-6);
  // the load moved the frequency far more than the tolerance
  CHECK(fabs(rf[0] / r0[0] - 1) > 0.05);
  rd_destroyModes(&md);
  rd_destroyLinearization(&lin);
  rd_destroyData(&d);
  rd_destroyModel(&mdl);
  rd_destroyContext(&ctx);
}


// the first two bending frequencies about the section's y axis (rad/s) of a cantilever of
// moderate stiffness under an axial tip force P, at its static equilibrium reached by one of
// two roads: steady = 1 rd_linearize's Newton; 0 a model of method static run to t = 1 along
// its load path (4 steps), linearized as it is; -1 on failure
static int two_roads(double P, int steady, double w[2]) {
  double k[6] = {1e4, 1e4, 1e4, 1, 1, 4}, mm[6] = {1, 1, 1, 1e-3, 1e-3, 1e-3};
  double K[36], M[36];
  model_diag6(K, k);
  model_diag6(M, mm);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdSpec* s = model_cantilever(ctx, 4, 8, 1, K, M);
  rdLoadDef f = rd_defaultLoadDef();
  f.name = "tip";
  f.node = 4 * 7;
  f.value[0] = P;
  int st = s && rds_addLoad(s, &f) >= 0 ? RD_OK : RD_ERR_ARG;
  if (s && !steady) {
    rds_setOption(s, "solver.method", "static");
    rds_setOptionReal(s, "solver.time_step", 0.25);
  }
  rdModel* m = NULL;
  rdData* d = NULL;
  rdLinearization* lin = NULL;
  rdModes* md = NULL;
  rdLinearizeDef def = rd_defaultLinearizeDef();
  def.steady = steady;
  st = st ? st : model_make(s, &m, &d) ? RD_ERR_ARG : RD_OK;
  st = st || steady ? st : rd_advance(m, d, 1, NULL, NULL);
  st = st ? st : rd_linearize(m, d, &def, &lin);
  st = st ? st : rd_computeModes(lin, NULL, &md);
  if (st != RD_OK) {
    printf("two_roads: %s\n", rd_lastError(ctx));
  }
  int n = md ? of_kind(md, RD_MODE_BENDING_Y, w, 2) : 0;
  rd_destroyModes(&md);
  rd_destroyLinearization(&lin);
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
  return st == RD_OK && n == 2 ? 0 : -1;
}


static void test_prestressed_cantilever(void) {
  eb_init();
  prestressed(2);
  prestressed(-1.5);
  // the two roads to the operating point agree; on the stiff beam above they differ by up to
  // 2e-6 in flap 1 (round-off: its axial force is known to about 1e-6 N, and the dense solver
  // works at a stiffness ratio of 1e16), so this one is softer
  for (int k = 0; k < 2; k++) {
    double P = k ? -1.5 : 2, ws[2] = {0, 0}, wn[2] = {0, 0};
    CHECK(two_roads(P, 1, wn) == 0 && two_roads(P, 0, ws) == 0);
    printf("  P %5.1f, EA 1e4: Newton %.12f %.12f, method static %.12f %.12f\n", P, wn[0], wn[1],
           ws[0], ws[1]);
    CHECK_REL(ws[0], wn[0], 1e-9);
    CHECK_REL(ws[1], wn[1], 1e-9);
  }
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_rotating_cantilever());
  TEST_CASE(test_prestressed_cantilever());
  return TEST_SUMMARY();
}
