// SPDX-License-Identifier: MIT
// User elements (elements/user_element.c): a host callback's residual and matrices on a node set.
#ifndef RD_USER_ELEMENT_H
#define RD_USER_ELEMENT_H

#include "src/model/data_impl.h"

// user element e at (t, q, v, vd): residual *r (6 nnode, rotation rows body frame) and, if jac,
// *K, *C, *M (6 nnode square, row-major) with respect to (dx, dTheta), (v, W), (vd, dW/dt),
// all pointing into d->cbuf. RD_OK or a callback status.
int rd_userElemEval(const rdModel* m, rdData* d, int e, double t, const double* q, const double* v,
                    const double* vd, int jac, double** r, double** K, double** C, double** M);

#endif  // RD_USER_ELEMENT_H
