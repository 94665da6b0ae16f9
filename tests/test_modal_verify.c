// SPDX-License-Identifier: MIT
// Modes against exact solutions (docs/verification.md, "Modal analysis"): the uniform cantilever
// against the Euler-Bernoulli roots and the Timoshenko frequency equation (solved here), axial
// and torsional frequencies, spectral convergence with the element order, free-free beams and a
// free rigid body (six zero frequencies), and dense against ARPACK.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/support/models.h"
#include "tests/test_macros.h"

#define PI 3.14159265358979323846

// Euler-Bernoulli cantilever: beta_n L, cos(bL) cosh(bL) = -1
static const double eb_roots[6] = {1.875104068711961, 4.694091132974175, 7.854757438237613,
                                   10.99554073487547, 14.13716839104647, 17.27875953208824};


// modes of a compiled model at its initial state; NULL on failure (printed)
static rdModes* modes_at_start(rdContext* ctx, rdModel* m, rdData* d, int count, int solver,
                               int general) {
  rdLinearization* lin = NULL;
  int st = rd_linearize(m, d, NULL, &lin);
  if (st != RD_OK) {
    printf("linearize: %s\n", rd_lastError(ctx));
    return NULL;
  }
  rdModalDef def = rd_defaultModalDef();
  def.count = count;
  def.solver = solver;
  def.general = general;
  rdModes* md = NULL;
  st = rd_computeModes(lin, &def, &md);
  if (st != RD_OK) {
    printf("modes: %s\n", rd_lastError(ctx));
  }
  rd_destroyLinearization(&lin);
  return md;
}


// the natural frequencies (Hz) of the modes of one kind, in order; returns how many (<= max)
static int of_kind(const rdModes* md, int kind, double* f, int max) {
  int n = 0;
  for (int k = 0; k < rd_modeCount(md) && n < max; k++) {
    rdModeInfo i;
    rd_getMode(md, k, &i);
    if (i.kind == kind) {
      f[n++] = i.natural_hz;
    }
  }
  return n;
}


// ---------------------------------------------------------------------------------------------
// the Timoshenko cantilever, exactly: w'' and psi from
//   rhoA w_tt = kGA (w' - psi)',  rhoI psi_tt = EI psi'' + kGA (w' - psi),
// W = cosh, sinh (k1), cos, sin (k2) with k1^2 > 0 > -k2^2 the roots of
//   EI kGA k^4 + (kGA rhoI + rhoA EI) w^2 k^2 + rhoA w^2 (rhoI w^2 - kGA) = 0,
// Psi from psi' = w'' + c w, c = rhoA w^2 / kGA; boundary conditions W(0) = Psi(0) = 0,
// Psi'(L) = 0, W'(L) - Psi(L) = 0. Below the cutoff w^2 < kGA / rhoI.
typedef struct {
  double EI, kGA, rhoA, rhoI, L;
} timo;


static double det4(double a[4][4]) {
  // Gaussian elimination with partial pivoting
  double det = 1;
  for (int c = 0; c < 4; c++) {
    int p = c;
    for (int r = c + 1; r < 4; r++) {
      if (fabs(a[r][c]) > fabs(a[p][c])) {
        p = r;
      }
    }
    if (a[p][c] == 0) {
      return 0;
    }
    if (p != c) {
      for (int k = 0; k < 4; k++) {
        double t = a[c][k];
        a[c][k] = a[p][k];
        a[p][k] = t;
      }
      det = -det;
    }
    det *= a[c][c];
    for (int r = c + 1; r < 4; r++) {
      double f = a[r][c] / a[c][c];
      for (int k = c; k < 4; k++) {
        a[r][k] -= f * a[c][k];
      }
    }
  }
  return det;
}


static double timo_det(const timo* b, double w) {
  double w2 = w * w;
  double A4 = b->EI * b->kGA, B2 = (b->kGA * b->rhoI + b->rhoA * b->EI) * w2;
  double C0 = b->rhoA * w2 * (b->rhoI * w2 - b->kGA);
  double disc = sqrt(B2 * B2 - 4 * A4 * C0);
  double s1 = (-B2 + disc) / (2 * A4), s2 = (-B2 - disc) / (2 * A4);
  double k1 = sqrt(s1), k2 = sqrt(-s2), c = b->rhoA * w2 / b->kGA, L = b->L;
  // per basis function: W(0), Psi(0), Psi'(L), W'(L) - Psi(L); columns cosh, sinh, cos, sin
  double p1 = (k1 * k1 + c) / k1, p2 = (c - k2 * k2) / k2;
  double ch = cosh(k1 * L), sh = sinh(k1 * L), cs = cos(k2 * L), sn = sin(k2 * L);
  double a[4][4] = {
      {1, 0, 1, 0},
      {0, p1, 0, -p2},
      {p1 * k1 * ch, p1 * k1 * sh, p2 * k2 * cs, p2 * k2 * sn},
      {k1 * sh - p1 * sh, k1 * ch - p1 * ch, -k2 * sn - p2 * sn, k2 * cs + p2 * cs},
  };
  return det4(a);
}


// the first n natural frequencies (rad/s) below the cutoff; returns how many were found
static int timo_roots(const timo* b, int n, double* w) {
  double cut = sqrt(b->kGA / b->rhoI), h = 1e-3 * sqrt(b->EI / (b->rhoA * pow(b->L, 4)));
  int found = 0;
  double x0 = h, f0 = timo_det(b, x0);
  for (double x1 = 2 * h; x1 < 0.999 * cut && found < n; x1 += h) {
    double f1 = timo_det(b, x1);
    if ((f0 < 0) != (f1 < 0)) {
      double lo = x0, hi = x1, flo = f0;
      for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
        double mid = 0.5 * (lo + hi), fm = timo_det(b, mid);
        if ((fm < 0) == (flo < 0)) {
          lo = mid;
          flo = fm;
        } else {
          hi = mid;
        }
      }
      w[found++] = 0.5 * (lo + hi);
    }
    x0 = x1;
    f0 = f1;
  }
  return found;
}


// ---------------------------------------------------------------------------------------------

// the section: EA, GA (both shear), GJ, EI_y, EI_z; mass m, polar J, rotary inertias
static void section(double K[36], double M[36], double EA, double GA, double GJ, double EIy,
                    double EIz, double m, double Jp, double Jy, double Jz) {
  double k[6] = {EA, GA, GA, GJ, EIy, EIz}, mm[6] = {m, m, m, Jp, Jy, Jz};
  model_diag6(K, k);
  model_diag6(M, mm);
}


static void test_cantilever_timoshenko(void) {
  // L = 2, bending about y (motion along z): EI_y = 3, shear GA = 400, rotary 2e-3; about z: 1
  double L = 2, EA = 5e3, GA = 400, GJ = 0.8, EIy = 3, EIz = 1, m = 1.5, Jp = 4e-3, Jy = 2e-3,
         Jz = 1e-3;
  double K[36], M[36];
  section(K, M, EA, GA, GJ, EIy, EIz, m, Jp, Jy, Jz);
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* mdl = NULL;
  rdData* d = NULL;
  CHECK(model_make(model_cantilever(ctx, 4, 9, L, K, M), &mdl, &d) == 0);
  rdModes* md = modes_at_start(ctx, mdl, d, 40, RD_EIGEN_DENSE, 0);
  CHECK(md != NULL);
  if (md) {
    timo ty = {EIy, GA, m, Jy, L}, tz = {EIz, GA, m, Jz, L};
    double wy[6], wz[6], fy[6], fz[6];
    CHECK(timo_roots(&ty, 6, wy) == 6);
    CHECK(timo_roots(&tz, 6, wz) == 6);
    CHECK(of_kind(md, RD_MODE_BENDING_Y, fy, 6) == 6);
    CHECK(of_kind(md, RD_MODE_BENDING_Z, fz, 6) == 6);
    for (int k = 0; k < 6; k++) {
      printf(
          "  bending %d: about y %.12g Hz (Timoshenko %.12g, %.2e), about z %.12g (%.12g, "
          "%.2e)\n",
          k + 1, fy[k], wy[k] / (2 * PI), fy[k] / (wy[k] / (2 * PI)) - 1, fz[k], wz[k] / (2 * PI),
          fz[k] / (wz[k] / (2 * PI)) - 1);
      CHECK_REL(fy[k], wy[k] / (2 * PI), 1e-8);
      CHECK_REL(fz[k], wz[k] / (2 * PI), 1e-8);
    }
    double fa[3], ft[3];
    CHECK(of_kind(md, RD_MODE_AXIAL, fa, 3) >= 2);
    CHECK(of_kind(md, RD_MODE_TORSION, ft, 3) >= 3);
    for (int n = 1; n <= 2; n++) {
      double ea = (2 * n - 1) * PI / 2 * sqrt(EA / m) / L / (2 * PI);
      printf("  axial %d: %.12g Hz (exact %.12g)\n", n, fa[n - 1], ea);
      CHECK_REL(fa[n - 1], ea, 1e-9);
    }
    for (int n = 1; n <= 3; n++) {
      double et = (2 * n - 1) * PI / 2 * sqrt(GJ / Jp) / L / (2 * PI);
      printf("  torsion %d: %.12g Hz (exact %.12g)\n", n, ft[n - 1], et);
      CHECK_REL(ft[n - 1], et, 1e-9);
    }
  }
  rd_destroyModes(&md);
  rd_destroyData(&d);
  rd_destroyModel(&mdl);
  rd_destroyContext(&ctx);
}


// Euler-Bernoulli: shear stiffness and rotary inertia scaled by 1/eps and eps; the first six
// frequencies in each plane approach the roots as eps -> 0, the difference proportional to eps
// (the Timoshenko correction, first order in both parameters)
static void test_cantilever_euler_bernoulli(void) {
  double L = 1, EIy = 2, EIz = 1, m = 1;
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  double prev[12] = {0};
  static const double eps[3] = {1e-4, 1e-5, 1e-6};
  for (int e = 0; e < 3; e++) {
    // shear parameter EI / (GA L^2) and rotary inertia J / (m L^2) both eps
    double K[36], M[36];
    section(K, M, 1e4, EIy / (eps[e] * L * L), 1, EIy, EIz, m, 1e-2, eps[e] * m * L * L,
            eps[e] * m * L * L);
    K[14] = EIy / (eps[e] * L * L);
    K[7] = EIz / (eps[e] * L * L);
    rdModel* mdl = NULL;
    rdData* d = NULL;
    CHECK(model_make(model_cantilever(ctx, 6, 9, L, K, M), &mdl, &d) == 0);
    rdModes* md = modes_at_start(ctx, mdl, d, 30, RD_EIGEN_DENSE, 0);
    double fy[6] = {0}, fz[6] = {0};
    CHECK(md && of_kind(md, RD_MODE_BENDING_Y, fy, 6) == 6);
    CHECK(md && of_kind(md, RD_MODE_BENDING_Z, fz, 6) == 6);
    printf("  eps %.0e:", eps[e]);
    for (int k = 0; k < 12; k++) {
      double EI = k < 6 ? EIy : EIz, bl = eb_roots[k % 6];
      double f = k < 6 ? fy[k] : fz[k - 6];
      double eb = bl * bl * sqrt(EI / (m * pow(L, 4))) / (2 * PI);
      double err = fabs(f / eb - 1);
      printf(" %.2e", err);
      // the Timoshenko correction: about (beta L)^2 eps (1.1 to 1.3 times), first order in
      // eps down to 1e-5; at 1e-6 the round-off of the dense solver (shear stiffness 2e6 times
      // the bending stiffness) is a few 1e-6
      CHECK_MSG(err < 1.5 * bl * bl * eps[e] + 3e-6, "mode %d: %.3e", k, err);
      if (e == 1) {
        CHECK_MSG(err > 0.08 * prev[k] && err < 0.12 * prev[k], "mode %d: %.3e after %.3e", k, err,
                  prev[k]);
      }
      prev[k] = err;
    }
    printf("\n");
    rd_destroyModes(&md);
    rd_destroyData(&d);
    rd_destroyModel(&mdl);
  }
  rd_destroyContext(&ctx);
}


// p-convergence: one element of P nodes; the errors of the first three bending frequencies and
// the first torsional one against the exact values fall exponentially with P
static void test_order_convergence(void) {
  double L = 1, EA = 2e3, GA = 300, GJ = 0.5, EI = 1, m = 1, Jp = 2e-3, Jr = 1e-3;
  double K[36], M[36];
  section(K, M, EA, GA, GJ, EI, EI * 1.7, m, Jp, Jr, Jr);
  timo ty = {EI, GA, m, Jr, L};
  double wy[3];
  CHECK(timo_roots(&ty, 3, wy) == 3);
  double ft = sqrt(GJ / Jp) / (4 * L);  // (2n - 1) pi / 2 sqrt(GJ / J) / L / (2 pi), n = 1
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  double err[20][4];
  printf("  nodes  bending 1   bending 2   bending 3   torsion 1\n");
  for (int P = 3; P <= 16; P++) {
    rdModel* mdl = NULL;
    rdData* d = NULL;
    CHECK(model_make(model_cantilever(ctx, 1, P, L, K, M), &mdl, &d) == 0);
    rdModes* md = modes_at_start(ctx, mdl, d, 6 * P, RD_EIGEN_DENSE, 0);
    double fb[3] = {0, 0, 0}, fq[1] = {0};
    int nb = md ? of_kind(md, RD_MODE_BENDING_Y, fb, 3) : 0;
    int nt = md ? of_kind(md, RD_MODE_TORSION, fq, 1) : 0;
    printf("  %5d", P);
    for (int k = 0; k < 4; k++) {
      double exact = k < 3 ? wy[k] / (2 * PI) : ft;
      double f = k < 3 ? fb[k] : fq[0];
      err[P][k] = (k < 3 ? k < nb : nt > 0) ? fabs(f / exact - 1) : 1;
      printf("  %.3e", err[P][k]);
    }
    printf("\n");
    rd_destroyModes(&md);
    rd_destroyData(&d);
    rd_destroyModel(&mdl);
  }
  // exponential: at least a factor 30 per three more nodes until the round-off floor
  for (int k = 0; k < 4; k++) {
    for (int P = 6; P <= 13; P++) {
      if (err[P - 3][k] > 1e-8) {
        CHECK_MSG(err[P][k] < err[P - 3][k] / 30, "quantity %d: %d nodes %.3e, %d nodes %.3e", k,
                  P - 3, err[P - 3][k], P, err[P][k]);
      }
    }
    CHECK_MSG(err[16][k] < 1e-8, "quantity %d at 16 nodes: %.3e", k, err[16][k]);
  }
  rd_destroyContext(&ctx);
}


// a free-free beam (no joint) and a free rigid body: six zero frequencies to round-off, labelled
// rigid, whose translational mass fractions add up to 1 in each direction; then the elastic
// modes (the beam's first: the free-free Euler-Bernoulli root 4.730040745 in the stiff-shear
// limit)
static void check_rigid_six(const rdModes* md, const char* what) {
  double sum[6] = {0, 0, 0, 0, 0, 0};
  rdModesInfo mi;
  rd_getModesInfo(md, &mi);
  double fscale = mi.scale_hz > 0 ? mi.scale_hz : 1;
  for (int k = 0; k < 6 && k < rd_modeCount(md); k++) {
    rdModeInfo i;
    rd_getMode(md, k, &i);
    CHECK_MSG(i.kind == RD_MODE_RIGID && i.natural_hz < 1e-7 * fscale, "%s: mode %d %s at %.3e Hz",
              what, k + 1, rd_modeKindName(i.kind), i.natural_hz);
    printf("  %s: mode %d at %.2e Hz (%.1e of the spectrum's scale %.3g Hz)\n", what, k + 1,
           i.natural_hz, i.natural_hz / fscale, mi.scale_hz);
    for (int d = 0; d < 6; d++) {
      sum[d] += i.mass_fraction[d];
    }
  }
  for (int d = 0; d < 3; d++) {
    CHECK_NEAR(sum[d], 1, 1e-9);
  }
}


static void test_free_free(void) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  // the beam: stiff shear, small rotary inertia (Euler-Bernoulli to about 1e-5)
  double L = 2, EI = 1, m = 1, K[36], M[36];
  section(K, M, 1e4, 1e6, 1, EI, EI * 2, m, 1e-2, 1e-7, 1e-7);
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  int nodes[25];
  CHECK(model_addGllBeams(s, 3, 9, L, K, M, "beam", nodes) == 0);
  rdModel* mdl = NULL;
  rdData* d = NULL;
  CHECK(model_make(s, &mdl, &d) == 0);
  rdModes* md = modes_at_start(ctx, mdl, d, 12, RD_EIGEN_DENSE, 0);
  CHECK(md && rd_modeCount(md) == 12);
  if (md) {
    check_rigid_six(md, "free-free beam");
    double f[1] = {0};
    CHECK(of_kind(md, RD_MODE_BENDING_Y, f, 1) == 1);
    double bl = 4.730040744862704, eb = bl * bl * sqrt(EI / (m * pow(L, 4))) / (2 * PI);
    printf("  free-free beam: first bending %.10g Hz (Euler-Bernoulli %.10g)\n", f[0], eb);
    CHECK_REL(f[0], eb, 1e-4);
  }
  rd_destroyModes(&md);
  rd_destroyData(&d);
  rd_destroyModel(&mdl);
  // a free rigid body with an offset centre of mass, turned
  rd_createSpec(ctx, &s);
  rdNodeDef n = rd_defaultNodeDef();
  n.name = "body";
  n.position[1] = 0.4;
  n.orientation[0] = cos(0.3);
  n.orientation[2] = sin(0.3);
  double J[3] = {0.3, 0.5, 0.7}, c[3] = {0.2, -0.1, 0.3};
  model_addRigidBody(s, &n, "b", 2, J, c);
  CHECK(model_make(s, &mdl, &d) == 0);
  md = modes_at_start(ctx, mdl, d, 6, RD_EIGEN_DENSE, 0);
  CHECK(md && rd_modeCount(md) == 6);
  if (md) {
    check_rigid_six(md, "free rigid body");
  }
  rd_destroyModes(&md);
  rd_destroyData(&d);
  rd_destroyModel(&mdl);
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  TEST_INIT(argc, argv);
  TEST_CASE(test_cantilever_timoshenko());
  TEST_CASE(test_cantilever_euler_bernoulli());
  TEST_CASE(test_order_convergence());
  TEST_CASE(test_free_free());
  return TEST_SUMMARY();
}
