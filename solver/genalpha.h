// SPDX-License-Identifier: MIT
// Lie-group generalized-alpha stepper on R^3 x SO(3) (Bruls, Cardona & Arnold 2012), body form.
#ifndef RD_GENALPHA_H
#define RD_GENALPHA_H

#include "solver/stepper.h"

// the stepper's ops table (method RD_METHOD_GENERALIZED_ALPHA)
extern const rdStepper rd_stepperGeneralizedAlpha;

// mixed stepping (solver/mixed.c, docs/mixed.md): the flexible part's step, with the motion of
// some nodes given for the step and the loads of what they carry applied by the caller. Set on
// a data by rd_gaSetHold and read by its initialization and steps (NULL: the whole model).
typedef struct rdGaHold_ {
  const unsigned char* held;  // nnode: 1 = the node's motion is given (its equations left out)
  const double* q;            // nnode x 7: the given configuration at the end of the step
  const double* v;            // nnode x 6: ... velocity
  const double* vd;           // nnode x 6: ... acceleration
  int nfree;                  // unknowns left (DOFs of the other nodes, equations kept): the
                              // count of the error norm
  // after every assembly: add the caller's interface loads to the residual r (ndof +
  // nconstraint, the sign of rd_assemble: r = M vd + g - f) at accelerations vd (nnode x 6) and,
  // if Ax is not NULL, c_M times their mass matrix to it; then leave out the held DOFs and the
  // equations the caller drops (residual 0, gamma 0 if gamma is not NULL, identity rows and
  // columns of Ax). RD_OK or a status.
  int (*apply)(const rdModel* m, rdData* d, void* user, double cM, const double* vd, double* r,
               double* gamma, double* Ax);
  void* user;
} rdGaHold;

// hold the motion of nodes for the steps of d (generalized-alpha's data; hold outlives the
// steps; NULL: none)
void rd_gaSetHold(rdData* d, const rdGaHold* hold);

// stabilized formulation, for tests: the correction matrix Bc Bh^T (Bc, Bh: per joint B T as
// returned by rd_assembleEx) as a dense nconstraint x nconstraint row-major E, through the
// sparse pattern of d; RD_ERR_STATE if d was not created for solver.formulation = stabilized
int rd_gaCorrectionMatrix(const rdModel* m, rdData* d, const double* Bc, const double* Bh,
                          double* E);

#endif  // RD_GENALPHA_H
