// SPDX-License-Identifier: MIT
// Heavy top (docs/benchmarks.md A6) with the generalized-alpha stepper: exact consistent initial
// accelerations, observed order 2 at t = 2 against the converged reference (index 3 and the
// stabilized index-2 formulation, which also runs rho_inf = 1), and finite-difference checks
// of the stabilized iteration-matrix blocks.
// Usage: test_ga_heavy_top [--full]   (--full: index 3 also at 4e-3 and rho_inf = 1)
#include <math.h>
#include <string.h>

#include "constraints/constraint.h"
#include "src/model/data_impl.h"
#include "tests/support/ga_fd.h"
#include "tests/support/models.h"
#include "solver/genalpha.h"
#include "tests/test_macros.h"

static const double uref[3] = {-0.1504168227454677, -1.7241655916366287, -0.6730222695607069};
static const double qref[4] = {0.1229471350418663, -0.4910798925503638, 0.3504300303436659,
                               -0.787986887550204};

// errors in u and q at t = 2 (huge if the run failed)
static void run(double rho, double h, const char* form, double* eu, double* eq) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m;
  rdData* d;
  *eu = *eq = 1e30;
  rdSpec* s = model_heavyTopAlpha(ctx, rho, h, NULL);
  rds_setOption(s, "solver.formulation", form);
  if (model_make(s, &m, &d) == 0 &&
      rd_advance(m, d, 2.0, NULL, NULL) == RD_OK) {
    double x[3], q[4];
    rd_getNodeState(m, d, 0, x, q, NULL, NULL, NULL);
    x[1] -= 1;
    double dot = 0;
    for (int k = 0; k < 4; k++) {
      dot += q[k] * qref[k];
    }
    *eu = *eq = 0;
    for (int k = 0; k < 3; k++) {
      *eu = fmax(*eu, fabs(x[k] - uref[k]));
    }
    for (int k = 0; k < 4; k++) {
      *eq = fmax(*eq, fabs((dot < 0 ? -q[k] : q[k]) - qref[k]));
    }
  } else {
    printf("  rho %g h %g %s: %s\n", rho, h, form, rd_lastError(ctx));
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


static void initial_accelerations(const char* linsol) {
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  rdModel* m;
  rdData* d;
  int st = model_make(model_heavyTopAlpha(ctx, 0.9, 2e-3, linsol), &m, &d);
  CHECK(st == 0);
  if (st == 0) {
    // body angular acceleration; COM (= node) acceleration
    CHECK_NEAR(d->s.vd[3], 661.3461692307692, 1e-10);
    CHECK_NEAR(d->s.vd[4], 0, 1e-12);
    CHECK_NEAR(d->s.vd[5], 0, 1e-12);
    CHECK_NEAR(d->s.vd[0], 0, 1e-12);
    CHECK_NEAR(d->s.vd[1], -21.3017325444, 1e-9);
    CHECK_NEAR(d->s.vd[2], -30.960830769230824, 1e-11);
    CHECK_NEAR(d->s.a[3], d->s.vd[3], 0);
  }
  rd_destroyData(&d);
  rd_destroyModel(&m);
  rd_destroyContext(&ctx);
}


// two rigid nodes (a, b) with bodies, gravity and joint j (as in test_ga_tangent)
static rdSpec* joint_model(rdContext* ctx, int type, int n1, int kind0) {
  rdSpec* s = NULL;
  rd_createSpec(ctx, &s);
  static const double pos[2][3] = {{0.3, 0.1, -0.2}, {1, 0.5, 0.2}};
  static const double ori[2][4] = {{0.9, 0.1, -0.3, 0.2}, {0.7, -0.2, 0.5, 0.4}};
  for (int i = 0; i < 2; i++) {
    rdNodeDef n = rd_defaultNodeDef();
    n.name = i ? "b" : "a";
    n.kind = i ? RD_NODE_RIGID : kind0;
    double nq = 0;
    for (int k = 0; k < 4; k++) {
      nq += ori[i][k] * ori[i][k];
    }
    for (int k = 0; k < 3; k++) {
      n.position[k] = pos[i][k];
    }
    if (n.kind == RD_NODE_RIGID) {
      for (int k = 0; k < 4; k++) {
        n.orientation[k] = ori[i][k] / sqrt(nq);
      }
      rdRigidBodyDef b = rd_defaultRigidBodyDef();
      b.name = i ? "bb" : "ba";
      b.node = i;
      b.mass = 2.5;
      double J[9] = {0.4, 0.05, -0.02, 0.05, 0.7, 0.03, -0.02, 0.03, 0.9};
      memcpy(b.inertia, J, sizeof(J));
      b.com[0] = 0.2 - 0.3 * i;
      b.com[1] = -0.2;
      rds_addNode(s, &n);
      rds_addRigidBody(s, &b);
    } else {
      rds_addNode(s, &n);
      rdPointMassDef pm = rd_defaultPointMassDef();
      pm.name = "pa";
      pm.node = i;
      pm.mass = 1.5;
      rds_addPointMass(s, &pm);
    }
  }
  double g[3] = {0.3, -1, -9.81};
  rds_setGravity(s, g);
  rdJointDef j = rd_defaultJointDef();
  j.name = "j";
  j.type = type;
  j.node[0] = 0;
  j.node[1] = n1;
  double pt[3] = {0.6, 0.2, 0.1}, ax[3] = {0.2, 0.9, -0.3}, ax2[3] = {0.9, -0.2, 0};
  memcpy(j.point, pt, sizeof(pt));
  memcpy(j.axis, ax, sizeof(ax));
  memcpy(j.axis2, ax2, sizeof(ax2));
  if (type == RD_JOINT_PRESCRIBED || type == RD_JOINT_ROTATION_CONTROL) {
    const char* ex[4] = {"0.1*sin(t)", "t*t", "0.3*t", "-0.2*cos(t)"};
    int slot[4] = {0, 2, 3, 5};
    for (int k = 0; k < 4; k++) {
      rdTimeFnDef f = rd_defaultTimeFnDef();
      char name[8] = "f0";
      name[1] = (char)('0' + k);
      f.name = name;
      f.type = RD_TIMEFN_EXPRESSION;
      f.expression = ex[k];
      int id = rds_addTimeFn(s, &f);
      if (type == RD_JOINT_PRESCRIBED) {
        j.motion_fn[slot[k]] = id;
      } else if (k == 0) {
        j.angle_fn = id;
      }
    }
  }
  rds_addJoint(s, &j);
  if (n1 != RD_GROUND) {
    // a second joint on node a: the correction couples the two through it
    rdJointDef j2 = rd_defaultJointDef();
    j2.name = "j2";
    j2.type = RD_JOINT_SPHERICAL;
    j2.node[0] = 0;
    j2.node[1] = RD_GROUND;
    rds_addJoint(s, &j2);
  }
  rds_setOption(s, "solver.method", "generalized_alpha");
  rds_setOption(s, "solver.formulation", "stabilized");
  return s;
}


// residual of the stabilized rows at the increment (x, mu) from the base state (v moves by x)
static void stab_res(const rdModel* m, rdData* d, double t, const double* qn, const double* psi,
                     const double* v0, const double* vd0, const double* lam0, double bp,
                     const double* x, double* r) {
  int nn = m->nnode;
  double q[14], v[12], vd[12], lam[12];
  gafd_config(m, qn, psi, x, q);
  memcpy(v, v0, sizeof(double) * 6 * (size_t)nn);
  memcpy(vd, vd0, sizeof(double) * 6 * (size_t)nn);
  for (int i = 0; i < nn; i++) {
    for (int k = 0; k < (m->node_kind[i] == RD_NODE_RIGID ? 6 : 3); k++) {
      v[6 * i + k] += x[m->node_dof[i] + k];
      vd[6 * i + k] += bp * x[m->node_dof[i] + k];
    }
  }
  for (int k = 0; k < m->nconstraint; k++) {
    lam[k] = lam0[k] + x[m->ndof + k];
  }
  rdAsmCoef c = {0, 0, 0, NULL};
  rdAsmStab st = {1, 0, NULL, NULL};
  rd_assembleEx(m, d, t, q, v, vd, lam, &c, &st, r, NULL, NULL);
}


// stabilized blocks at a random state: the whole matrix [b'M + C + K T, B^T; B + Z T, 0]
// (velocity rows, v moving with coefficient 1) and the correction matrix Bc Bh^T against
// central differences; returns the larger relative mismatch
static double stab_fd(const rdModel* m, rdData* d, double t, unsigned seed, double eps) {
  enum { NMAX = 24 };
  int nn = m->nnode, N = m->ndof + m->nconstraint, nc = m->nconstraint;
  double qn[14], psi[6] = {0}, v[12], vd[12], lam[12] = {0}, x[NMAX] = {0};
  double rp[NMAX], rm[NMAX], A[NMAX * NMAX] = {0}, Ax[NMAX * NMAX];
  double BT[2 * RD_ASM_BSTRIDE], q[14], E[144], phip[12], phim[12];
  srand(seed);
  memcpy(qn, d->s.q, sizeof(double) * 7 * (size_t)nn);
  for (int i = 0; i < nn; i++) {
    for (int k = 0; k < 3; k++) {
      qn[7 * i + k] += 0.1 * RND();
      psi[3 * i + k] = m->node_kind[i] == RD_NODE_RIGID ? 0.7 * RND() : 0;
    }
    for (int k = 0; k < 6; k++) {
      v[6 * i + k] = RND();
      vd[6 * i + k] = RND();
    }
  }
  for (int k = 0; k < nc; k++) {
    lam[k] = 3 * RND();
  }
  double bp = 2.0;
  gafd_config(m, qn, psi, x, q);
  rdAsmCoef c = {bp, 1, 1, psi};
  rdAsmStab st = {1, 1, NULL, BT};
  rd_assembleEx(m, d, t, q, v, vd, lam, &c, &st, rp, NULL, Ax);
  const rdPattern* P = m->pattern;
  for (int col = 0; col < N; col++) {
    for (int p = P->Ap[col]; p < P->Ap[col + 1]; p++) {
      A[P->Ai[p] * N + col] = Ax[p];
    }
  }
  double scale = 0, worst = 0;
  for (int k = 0; k < N * N; k++) {
    scale = fmax(scale, fabs(A[k]));
  }
  for (int j = 0; j < N; j++) {
    x[j] = eps;
    stab_res(m, d, t, qn, psi, v, vd, lam, bp, x, rp);
    x[j] = -eps;
    stab_res(m, d, t, qn, psi, v, vd, lam, bp, x, rm);
    x[j] = 0;
    for (int i = 0; i < N; i++) {
      worst = fmax(worst, fabs((rp[i] - rm[i]) / (2 * eps) - A[i * N + j]) / scale);
    }
  }
  // correction: d phi(q_n o exp(psi + Bh^T e)) / de at e = 0, with Bh = Bc = B T here
  if (rd_gaCorrectionMatrix(m, d, BT, BT, E) != RD_OK) {
    return 1;
  }
  double escale = 0, eworst = 0;
  for (int k = 0; k < nc * nc; k++) {
    escale = fmax(escale, fabs(E[k]));
  }
  for (int k = 0; k < nc; k++) {
    for (int sgn = 0; sgn < 2; sgn++) {
      double e = sgn ? -eps : eps, dx[NMAX] = {0};
      // dx = Bh^T e_k, scattered to the DOFs of joint k's nodes
      for (int j = 0; j < m->njoint; j++) {
        int row = k - m->joint[j].row;
        if (row < 0 || row >= m->joint[j].nrow) {
          continue;
        }
        int node[2], off = 0, cn = rd_jointNodes(m, j, node), w = 0;
        for (int a = 0; a < cn; a++) {
          w += m->node_kind[node[a]] == RD_NODE_RIGID ? 6 : 3;
        }
        for (int a = 0; a < cn; a++) {
          int ndf = m->node_kind[node[a]] == RD_NODE_RIGID ? 6 : 3;
          for (int l = 0; l < ndf; l++) {
            dx[m->node_dof[node[a]] + l] += e * BT[j * RD_ASM_BSTRIDE + row * w + off + l];
          }
          off += ndf;
        }
      }
      gafd_config(m, qn, psi, dx, q);
      rdAsmCoef c0 = {0, 0, 0, NULL};
      rd_assemble(m, d, t, q, v, vd, lam, &c0, rp, NULL, NULL);
      memcpy(sgn ? phim : phip, rp + m->ndof, sizeof(double) * (size_t)nc);
    }
    for (int i = 0; i < nc; i++) {
      eworst = fmax(eworst, fabs((phip[i] - phim[i]) / (2 * eps) - E[i * nc + k]) / escale);
    }
  }
  return fmax(worst, eworst);
}


static void stabilized_blocks(void) {
  struct {
    int type, n1, kind0;
    const char* name;
  } cases[] = {
      {RD_JOINT_SPHERICAL, RD_GROUND, RD_NODE_RIGID, "spherical to ground"},
      {RD_JOINT_SPHERICAL, 1, RD_NODE_POINT, "spherical (point node) + spherical"},
      {RD_JOINT_REVOLUTE, 1, RD_NODE_RIGID, "revolute + spherical"},
      {RD_JOINT_UNIVERSAL, 1, RD_NODE_RIGID, "universal + spherical"},
      {RD_JOINT_PRISMATIC, 1, RD_NODE_RIGID, "prismatic + spherical"},
      {RD_JOINT_CYLINDRICAL, RD_GROUND, RD_NODE_RIGID, "cylindrical to ground"},
      {RD_JOINT_PLANAR, 1, RD_NODE_RIGID, "planar + spherical"},
      {RD_JOINT_FIXED, RD_GROUND, RD_NODE_RIGID, "fixed"},
      {RD_JOINT_RIGID, 1, RD_NODE_RIGID, "rigid + spherical"},
      {RD_JOINT_PRESCRIBED, RD_GROUND, RD_NODE_RIGID, "prescribed"},
      {RD_JOINT_ROTATION_CONTROL, 1, RD_NODE_RIGID, "rotation control + spherical"},
  };
  rdContext* ctx = NULL;
  rd_createContext(&ctx, NULL);
  for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    rdModel* m = NULL;
    rdData* d = NULL;
    rdSpec* s = joint_model(ctx, cases[k].type, cases[k].n1, cases[k].kind0);
    int st = rd_compile(s, &m);
    rd_destroySpec(&s);
    if (!st) {
      st = rd_createData(m, &d);
    }
    CHECK_MSG(st == 0, "%s: %s", cases[k].name, rd_lastError(ctx));
    // moving joints: phi_t is itself a central difference (step 1e-6 in t), so the outer
    // differences need a larger step and a looser bound
    int moving = cases[k].type == RD_JOINT_PRESCRIBED ||
                 cases[k].type == RD_JOINT_ROTATION_CONTROL;
    for (unsigned seed = 1; !st && seed <= 3; seed++) {
      double e = stab_fd(m, d, 0.37, seed, moving ? 1e-4 : 1e-6);
      CHECK_MSG(e < (moving ? 1e-6 : 1e-7), "%s: stabilized blocks, relative mismatch %.3e",
                cases[k].name, e);
      double e3 = gafd_check(m, d, 0.37, 2.0, 3.0, seed, 1);
      CHECK_MSG(e3 < 1e-7, "%s: index-3 blocks, relative mismatch %.3e", cases[k].name, e3);
    }
    rd_destroyData(&d);
    rd_destroyModel(&m);
  }
  rd_destroyContext(&ctx);
}


int main(int argc, char** argv) {
  int full = argc > 1 && !strcmp(argv[1], "--full");
  initial_accelerations("klu");
  initial_accelerations("umfpack");
  initial_accelerations("dense");
  double rhos[4] = {0, 0.5, 0.9, 1};
  int nrho = full ? 4 : 3;
  double h0 = full ? 4e-3 : 2e-3;
  int nh = full ? 6 : 5;
  for (int r = 0; r < nrho; r++) {
    double eu[8], eq[8];
    printf("rho_inf = %g\n", rhos[r]);
    for (int i = 0; i < nh; i++) {
      double h = h0 / (1 << i);
      run(rhos[r], h, "index3", &eu[i], &eq[i]);
      if (i == 0) {
        printf("  h %.4e  |u - u_ref| %.3e  |q - q_ref| %.3e\n", h, eu[i], eq[i]);
      } else {
        printf("  h %.4e  |u - u_ref| %.3e  |q - q_ref| %.3e  order %.2f %.2f\n", h, eu[i], eq[i],
               log2(eu[i - 1] / eu[i]), log2(eq[i - 1] / eq[i]));
      }
    }
    // the two finest steps: second order
    double pu = log2(eu[nh - 2] / eu[nh - 1]), pq = log2(eq[nh - 2] / eq[nh - 1]);
    CHECK_MSG(pu > 1.8 && pu < 2.3, "rho_inf %g: order in position %.2f", rhos[r], pu);
    CHECK_MSG(pq > 1.8 && pq < 2.3, "rho_inf %g: order in rotation %.2f", rhos[r], pq);
    CHECK_MSG(eu[nh - 1] < 3e-3, "rho_inf %g: error %.3e", rhos[r], eu[nh - 1]);
  }
  // stabilized index 2: rho_inf = 1 too, and h = 4e-3 (index 3 fails there at 0.9 and 1);
  // order 2 +- 0.15 in u and q for every halving at rho_inf >= 0.9, from h = 2e-3 on at 0.5
  // (2.21 in q from 4e-3). rho_inf = 0 is still pre-asymptotic at these steps (2.31 in u at
  // 1.25e-4, 2.08 two halvings later), so only its finest rotation order is held to 2 +- 0.15.
  stabilized_blocks();
  for (int r = 0; r < 4; r++) {
    double eu[6], eq[6];
    printf("stabilized, rho_inf = %g\n", rhos[r]);
    for (int i = 0; i < 6; i++) {
      double h = 4e-3 / (1 << i);
      run(rhos[r], h, "stabilized", &eu[i], &eq[i]);
      printf("  h %.4e  |u - u_ref| %.3e  |q - q_ref| %.3e", h, eu[i], eq[i]);
      if (i > 0) {
        double pu = log2(eu[i - 1] / eu[i]), pq = log2(eq[i - 1] / eq[i]);
        printf("  order %.2f %.2f", pu, pq);
        if (rhos[r] >= 0.9 || (rhos[r] > 0 && i >= 2)) {
          CHECK_MSG(fabs(pu - 2) < 0.15 && fabs(pq - 2) < 0.15,
                    "stabilized rho_inf %g h %g: orders %.2f %.2f", rhos[r], h, pu, pq);
        } else if (i == 5) {
          CHECK_MSG(pu > 1.85 && pu < 2.4 && fabs(pq - 2) < 0.15,
                    "stabilized rho_inf 0: orders %.2f %.2f", pu, pq);
        }
      }
      printf("\n");
    }
    // better than index 3 (measured 2.0-5.1 times smaller at h = 1.25e-4)
    CHECK_MSG(eu[5] < 1e-4 * (rhos[r] > 0 ? 1 : 1.2) && eq[5] < 3e-4,
              "stabilized rho_inf %g: errors %.3e %.3e", rhos[r], eu[5], eq[5]);
  }
  return TEST_SUMMARY();
}
