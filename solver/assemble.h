// SPDX-License-Identifier: MIT
// Assembly of the residual and the iteration matrix over elements, loads and joints.
#ifndef RD_ASSEMBLE_H
#define RD_ASSEMBLE_H

#include "data_impl.h"

// coefficients of the matrix [cM M + cC C + cK (K + K^Phi) T, B^T; B T, 0]
typedef struct rdAsmCoef_ {
  double cM, cC, cK;
  const double* psi;  // nnode x 3 rotation vectors of the tangent operators (NULL: T = I)
} rdAsmCoef;

// At time t and state (q, v, vd, lam): residual r (ndof + nconstraint) =
// [M vd + g - f + B^T lam + joint forces; phi] (rotation rows in the body frame); if gamma is
// not NULL, the constraint accelerations at zero vd (nconstraint); if Ax is not NULL, the
// values (pattern nnz) of the matrix above. Uses d->force as scratch. Returns RD_OK or a status.
int rd_assemble(const rdModel* m, rdData* d, double t, const double* q, const double* v,
                const double* vd, const double* lam, const rdAsmCoef* c, double* r,
                double* gamma, double* Ax);

// name of unknown k (DOF or multiplier) for messages: "node 'x' rotation y" or
// "joint 'j' equation 2"
void rd_unknownName(const rdModel* m, int k, char* buf, int size);

#endif  // RD_ASSEMBLE_H
