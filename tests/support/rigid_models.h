// SPDX-License-Identifier: MIT
// The rigid-body problems of Krysl & Endres 2005 §3 as plain ODEs for independent integrators
// (GSL, RK4 loops): P. Krysl, L. Endres, "Explicit Newmark/Verlet algorithm for time integration
// of the rotational dynamics of rigid bodies", Int. J. Numer. Meth. Engng 62(15):2154-2177, 2005.
//
// The data here duplicate input/rigid/*.yaml on purpose: the reference must not go through the
// library's model. Keep both in sync; rigid_reference --deck FILE checks the initial state,
// body momentum, kinetic energy and final time of a deck against these tables.
//
// State y[7] = (qw, qx, qy, qz, Omega_x, Omega_y, Omega_z): body->spatial unit quaternion and
// body (convected) angular velocity; J is the (diagonal) inertia about the fixed point, body
// frame; the torque is given in the spatial frame as a function of t and R (the equations and
// the errors between states: tests/support/rigid_ref.h).
#ifndef RD_TEST_RIGID_MODELS_H
#define RD_TEST_RIGID_MODELS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/support/rigid_ref.h"

typedef double (*rigidPotentialFn)(const double R[9]);

typedef struct rigidModel_ {
  const char* name;  // deck base name: input/rigid/<name>.yaml
  refProblem ode;    // J, the diagonal inertia about the fixed point; the spatial torque or NULL
  double psi0[3];    // initial rotation vector, R0 = exp(skew(psi0))
  double omega0[3];  // initial body angular velocity (R0 = I: also the spatial one)
  double tend;       // final time of the convergence study in the paper
  rigidPotentialFn potential;  // the torque's potential, to check a deck's energy (NULL: not)
} rigidModel;

// heavy symmetric top, §3.4-3.5: potential m g l R33 of the torque ref_topTorque (m g l = 20)
static inline double rigid_potential_top(const double R[9]) {
  return 20.0 * R[8];
}

static inline double rigid_potential_none(const double R[9]) {
  (void)R;
  return 0.0;
}

// Coulomb potential with a soft wall, §3.6 (a = 1.1, c = 0.01)
static inline void rigid_torque_coulomb(double t, const double R[9], double tau[3],
                                        const void* par) {
  (void)t;
  (void)par;
  double s = 1.1 + R[8];
  double f = -1.0 / (s * s) + 0.01 * pow(s, -11.0);
  tau[0] = -f * R[5];
  tau[1] = f * R[2];
  tau[2] = 0.0;
}

static const rigidModel rigid_models[] = {
    // McLachlan & Zanna free body, §3.1: R(100) reference of figures 4, 5
    {"free_body",
     {{0.9144, 1.098, 1.66}, NULL, NULL},
     {0, 0, 0},
     {0.45549, 0.82623, 0.03476},
     100.0,
     rigid_potential_none},
    // fast Lagrangian top, §3.4 (Psi0 = (0.3, 0, 0) as in the paper), figure 10
    {"fast_top",
     {{5, 5, 1}, ref_topTorque, NULL},
     {0.3, 0, 0},
     {0, 0, 50},
     10.0,
     rigid_potential_top},
    // slow Lagrangian top, §3.5, figure 11 (the paper gives no final time: 10 like §3.4)
    {"slow_top",
     {{5, 5, 1}, ref_topTorque, NULL},
     {0.05, 0, 0},
     {0, 0, 5},
     10.0,
     rigid_potential_top},
    // Coulomb potential with soft wall, §3.6, figure 13: pi0 = (2, 2, 2), R0 = I
    {"coulomb_wall",
     {{2, 3, 4.5}, rigid_torque_coulomb, NULL},
     {0, 0, 0},
     {1.0, 2.0 / 3.0, 4.0 / 9.0},
     10.0,
     NULL},
};

#define RIGID_NMODEL ((int)(sizeof(rigid_models) / sizeof(rigid_models[0])))

static inline const rigidModel* rigid_findModel(const char* name) {
  for (int i = 0; i < RIGID_NMODEL; i++) {
    if (!strcmp(rigid_models[i].name, name)) {
      return rigid_models + i;
    }
  }
  return NULL;
}


// initial state y[7] of a model
static inline void rigid_initialState(const rigidModel* m, double y[7]) {
  ref_rotvecToQuat(y, m->psi0);
  y[4] = m->omega0[0];
  y[5] = m->omega0[1];
  y[6] = m->omega0[2];
}

// the deck's error after the program's name
static inline void rigid_deckError_(const char* prog, rdContext* ctx, int st, const char* path) {
  fprintf(stderr, "%s: %s: %s\n", prog, path,
          *rd_lastError(ctx) ? rd_lastError(ctx) : rd_statusString(st));
}


// compares the initial state of the deck at path (with the overrides set[0 .. nset - 1]) with
// model m of the table: rotation, body angular velocity and momentum, kinetic energy, and the
// potential where the table knows it; *tend (unless NULL) receives the deck's duration. 0 if
// they agree, -1 otherwise (the reason printed to stderr after prog, the program's name)
static inline int rigid_checkDeck(const rigidModel* m, const char* path, const char* const* set,
                                  int nset, double* tend, const char* prog) {
  rdContext* ctx = NULL;
  rdSpec* spec = NULL;
  rdModel* model = NULL;
  rdData* data = NULL;
  int ret = -1;
  int st = rd_createContext(&ctx, NULL);
  if (st != RD_OK) {
    fprintf(stderr, "%s: no context\n", prog);
    return -1;
  }
  st = rd_readDeck(ctx, path, set, nset, &spec);
  if (st == RD_OK) {
    st = rd_compile(spec, &model);
  }
  rd_destroySpec(&spec);
  if (st != RD_OK) {
    rigid_deckError_(prog, ctx, st, path);
    goto done;
  }
  if (tend) {
    *tend =
        rd_getOptionReal(model, "solver.final_time") - rd_getOptionReal(model, "solver.start_time");
  }
  st = rd_createData(model, &data);
  if (st != RD_OK) {
    rigid_deckError_(prog, ctx, st, path);
    goto done;
  }
  int node = rd_outputNode(model, 0);
  if (node < 0) {
    node = 0;
  }
  double q[4], W[3], Pi[3], ke, pe;
  if (rd_getNodeState(model, data, node, NULL, q, NULL, NULL, W) != RD_OK ||
      rd_getBodyMomentum(model, data, node, Pi) != RD_OK ||
      rd_getEnergy(model, data, &ke, &pe) != RD_OK) {
    rigid_deckError_(prog, ctx, RD_ERR_ARG, path);
    goto done;
  }
  double y[7];
  rigid_initialState(m, y);
  double eR = ref_attitudeError(q, y);
  double eW = 0, eP = 0, P2 = 0, ke_ref = 0;
  for (int i = 0; i < 3; i++) {
    double P = m->ode.J[i] * y[4 + i];
    eW = fmax(eW, fabs(W[i] - y[4 + i]));
    eP = fmax(eP, fabs(Pi[i] - P));
    P2 += P * P;
    ke_ref += 0.5 * P * y[4 + i];
  }
  // the potential (tops: m g l R33, checks the gravity that stands for the paper's torque)
  double pe_ref = pe;
  if (m->potential) {
    double R[9];
    ref_quatToMat(R, y);
    pe_ref = m->potential(R);
  }
  double tol = 1e-9;
  double pscale = sqrt(P2) > 1 ? sqrt(P2) : 1;
  if (eR > tol || eW > tol * pscale || eP > tol * pscale ||
      fabs(ke - ke_ref) > tol * (1 + ke_ref) || fabs(pe - pe_ref) > tol * (1 + fabs(pe_ref))) {
    fprintf(stderr,
            "%s: %s does not match the '%s' model of rigid_models.h:\n"
            "  |R0 - R0_table| = %.3g, max |W0 - W0_table| = %.3g, max |Pi0 - Pi0_table| = %.3g,"
            " kinetic energy %.17g vs %.17g, potential %.17g vs %.17g\n",
            prog, path, m->name, eR, eW, eP, ke, ke_ref, pe, pe_ref);
    goto done;
  }
  ret = 0;
done:
  rd_destroyData(&data);
  rd_destroyModel(&model);
  rd_destroyContext(&ctx);
  return ret;
}

#endif  // RD_TEST_RIGID_MODELS_H
