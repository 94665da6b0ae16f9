// SPDX-License-Identifier: MIT
// Independent reference states of the rigid-body problems of Krysl & Endres 2005 §3 (GSL
// rk8pd on quaternions; the paper: tests/support/rigid_models.h).
//
// usage: rigid_reference MODEL [--deck FILE] [--tend T] [--tol TOL]
//
// Integrates qdot = q (0, Omega)/2, J Omegadot = R^T tau - Omega x J Omega with GSL's adaptive
// Runge-Kutta-Prince-Dormand 8(9) (rtol = atol = TOL, default 1e-13) and prints the state at
// the final time as one line "qw qx qy qz Pix Piy Piz" (Pi = J Omega, the body angular
// momentum), preceded by '#' comments -- the FILE format of `rodrigues converge --reference`.
// The model data are in tests/support/rigid_models.h, not taken from the library. With --deck
// the deck's final time is used and its initial state (rotation, body angular velocity and
// momentum, kinetic energy, and the potential where the table knows it) is checked against the
// table through the public API: a mismatch is an error, so the reference cannot silently drift
// away from the deck.
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rodrigues/rodrigues.h"
#include "tests/support/rigid_models.h"

static int rhs(double t, const double y[], double dydt[], void* params) {
  ref_rhs(params, t, y, dydt);
  return GSL_SUCCESS;
}


// integrate model m from 0 to tend; y receives the final state; returns 0 on success
static int integrate(const rigidModel* m, double tend, double tol, double y[7], long* nsteps) {
  gsl_odeiv2_system sys = {rhs, NULL, 7, (void*)&m->ode};
  gsl_odeiv2_driver* d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-4, tol, tol);
  if (!d) {
    return -1;
  }
  rigid_initialState(m, y);
  double t = 0;
  int st = gsl_odeiv2_driver_apply(d, &t, tend, y);
  *nsteps = (long)d->n;
  gsl_odeiv2_driver_free(d);
  double n = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2] + y[3] * y[3]);
  for (int i = 0; i < 4; i++) {
    y[i] /= n;
  }
  return st == GSL_SUCCESS ? 0 : -1;
}


static void usage(FILE* f) {
  fprintf(f, "usage: rigid_reference MODEL [--deck FILE] [--tend T] [--tol TOL]\nmodels:");
  for (int i = 0; i < RIGID_NMODEL; i++) {
    fprintf(f, " %s", rigid_models[i].name);
  }
  fprintf(f, "\n");
}


int main(int argc, char** argv) {
  if (argc < 2 || !strcmp(argv[1], "--help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2;
  }
  const rigidModel* m = rigid_findModel(argv[1]);
  if (!m) {
    fprintf(stderr, "rigid_reference: unknown model '%s'\n", argv[1]);
    usage(stderr);
    return 1;
  }
  double tend = m->tend, tol = 1e-13;
  const char* deck = NULL;
  int tend_given = 0;
  for (int i = 2; i < argc; i++) {
    if (i + 1 < argc && !strcmp(argv[i], "--deck")) {
      deck = argv[++i];
    } else if (i + 1 < argc && !strcmp(argv[i], "--tend")) {
      tend = atof(argv[++i]);
      tend_given = 1;
    } else if (i + 1 < argc && !strcmp(argv[i], "--tol")) {
      tol = atof(argv[++i]);
    } else {
      usage(stderr);
      return 1;
    }
  }
  if (deck) {
    double deck_tend;
    if (rigid_checkDeck(m, deck, NULL, 0, &deck_tend, "rigid_reference") != 0) {
      return 1;
    }
    if (!tend_given) {
      tend = deck_tend;
    }
  }
  if (!(tend > 0) || !(tol > 0)) {
    fprintf(stderr, "rigid_reference: need tend > 0 and tol > 0\n");
    return 1;
  }
  gsl_set_error_handler_off();

  // the reference and a 100x looser run, whose difference bounds the reference's own error
  double y[7], y2[7];
  long n = 0, n2 = 0;
  if (integrate(m, tend, tol, y, &n) != 0 || integrate(m, tend, 100 * tol, y2, &n2) != 0) {
    fprintf(stderr, "rigid_reference: GSL integration failed\n");
    return 1;
  }
  printf("# rigid_reference %s: GSL rk8pd, rtol = atol = %g, t = %.17g, %ld steps\n", m->name, tol,
         tend, n);
  printf("# difference to rtol = atol = %g: |R| %.3g, |Pi| %.3g\n", 100 * tol,
         ref_attitudeError(y, y2), ref_momentumError(m->ode.J, y + 4, y2 + 4));
  printf("# qw qx qy qz Pix Piy Piz\n");
  printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", y[0], y[1], y[2], y[3], m->ode.J[0] * y[4],
         m->ode.J[1] * y[5], m->ode.J[2] * y[6]);
  return 0;
}
